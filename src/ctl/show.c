/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The read verbs: status, history, stats, and the lists the completion asks for. */
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/client.h"
#include "common/duration.h"
#include "ctl/output.h"
#include "ctl/verbs.h"

#define LABEL_WIDTH 13          /* "Time in level" */

static void label(FILE *f, const char *name)
{
        fprintf(f, "%*s: ", LABEL_WIDTH, name);
}

static void continuation(FILE *f)
{
        fprintf(f, "%*s  ", LABEL_WIDTH, "");
}

static const char *or_dash(const char *s)
{
        return s && s[0] ? s : "-";
}

static void print_user(FILE *f, uint32_t uid)
{
        struct passwd *pw = getpwuid(uid);

        if (pw)
                fputs(pw->pw_name, f);
        else
                fprintf(f, "uid %" PRIu32, uid);
}

static void print_demand(FILE *f, const struct ctl_status *s)
{
        label(f, "Demand");
        fprintf(f, "%.0f (", s->demand);
        if (s->up_threshold > 0)
                fprintf(f, "up above %.0f", s->up_threshold);
        else
                fputs("top level", f);
        if (s->down_threshold > 0)
                fprintf(f, ", down below %.0f)\n", s->down_threshold);
        else
                fputs(", lowest level)\n", f);
}

static void print_thermal(FILE *f, const struct ctl_status *s, bool fancy)
{
        const char *state = or_dash(s->thermal_state);
        const char *colour = strcmp(state, "critical") == 0 ? ANSI_RED
                             : strcmp(state, "capped") == 0 ? ANSI_YELLOW
                                                            : NULL;

        label(f, "Thermal");
        if (s->temperature >= 0)
                fprintf(f, "%.1f °C, ", s->temperature / 1000.0);
        fprintf(f, "%s%s%s", colour ? ansi(fancy, colour) : "", state, colour ? ansi_reset(fancy) : "");
        if (s->temperature < 0)
                fputs(" (no thermal zone watched)", f);
        fputc('\n', f);
}

static const struct ctl_limit *find_limit(const struct ctl_status *s, const char *name)
{
        for (size_t i = 0; i < s->n_limits; i++)
                if (strcmp(s->limits[i].name, name) == 0)
                        return &s->limits[i];
        return NULL;
}

static const char *source_words(const char *source)
{
        if (strcmp(source, "trip") == 0)
                return "from trip points";
        return source;
}

/* "cap 75.0 °C, critical 90.0 °C (from trip points)": one source said once. */
static void print_limits(FILE *f, const struct ctl_status *s)
{
        const struct ctl_limit *cap = find_limit(s, "cap"), *critical = find_limit(s, "critical");

        if (!cap || !critical)
                return;
        label(f, "Limits");
        if (strcmp(cap->source, critical->source) == 0)
                fprintf(f, "cap %.1f °C, critical %.1f °C (%s)\n", cap->mc / 1000.0, critical->mc / 1000.0,
                        source_words(cap->source));
        else
                fprintf(f, "cap %.1f °C (%s), critical %.1f °C (%s)\n", cap->mc / 1000.0,
                        source_words(cap->source), critical->mc / 1000.0, source_words(critical->source));
}

static void print_holds(FILE *f, const struct ctl_status *s, bool fancy)
{
        int id_width = 0, level_width = 0;

        label(f, "Holds");
        if (s->n_holds == 0) {
                fputs("none\n", f);
                return;
        }
        for (size_t i = 0; i < s->n_holds; i++) {
                int w = snprintf(NULL, 0, "%" PRIu32, s->holds[i].id);

                if (w > id_width)
                        id_width = w;
                w = (int)display_width(s->holds[i].level);
                if (w > level_width)
                        level_width = w;
        }
        for (size_t i = 0; i < s->n_holds; i++) {
                const struct ctl_hold *h = &s->holds[i];
                char until[WALL_TEXT_MAX];

                if (i > 0)
                        continuation(f);
                fprintf(f, "%*" PRIu32 "  %s%-*s%s  until %s by ", id_width, h->id, ansi(fancy, ANSI_BOLD),
                        level_width, h->level, ansi_reset(fancy),
                        format_wall(until, sizeof(until), h->until_wall));
                print_user(f, h->uid);
                if (h->pid > 0 || h->unit[0]) {
                        fputs(" (", f);
                        if (h->pid > 0)
                                fprintf(f, "pid %" PRIi32 "%s", h->pid, h->unit[0] ? ", " : "");
                        fprintf(f, "%s)", h->unit);
                }
                if (h->persist)
                        fputs(", persistent", f);
                if (h->reason[0])
                        fprintf(f, ": %s", h->reason);
                fputc('\n', f);
        }
        /* With one hold there is nothing to choose between. */
        if (s->n_holds > 1 && s->winning_hold) {
                label(f, "Winning hold");
                fprintf(f, "%" PRIu32 " (%s)\n", s->winning_hold, or_dash(s->winning_hold_why));
        }
}

/* "power-saver (power-profiles-daemon) → cap little": only where a
 * service says something. */
static void print_profile(FILE *f, const struct ctl_status *s)
{
        if (!s->profile_adjustment || !s->profile_adjustment[0])
                return;
        label(f, "Profile");
        fputs(s->profile_adjustment, f);
        if (s->n_holds > 0)
                fputs(" (a hold wins over it)", f);
        fputc('\n', f);
}

/* Total of TimeInLevel: how long the daemon has been accounting. */
static uint64_t time_accounted(const struct ctl_status *s)
{
        uint64_t total = 0;

        for (size_t i = 0; i < s->n_time_in_level; i++)
                total += s->time_in_level[i].usec;
        return total;
}

/* Calls fn for each level with a time: the ladder's order first, then any
 * the daemon reports that the ladder does not name (pair mode's). */
static void for_each_level_time(const struct ctl_status *s, void (*fn)(const char *, uint64_t, void *),
                                void *userdata)
{
        for (char **l = s->levels; l && *l; l++)
                fn(*l, client_time_in(s, *l), userdata);
        for (size_t i = 0; i < s->n_time_in_level; i++) {
                bool listed = false;

                for (char **l = s->levels; l && *l && !listed; l++)
                        listed = strcmp(*l, s->time_in_level[i].name) == 0;
                if (!listed)
                        fn(s->time_in_level[i].name, s->time_in_level[i].usec, userdata);
        }
}

struct share_line {
        FILE *f;
        uint64_t total;
        bool first;
};

static void print_share(const char *level, uint64_t usec, void *userdata)
{
        struct share_line *sl = userdata;
        char pct[PERCENT_TEXT_MAX];

        fprintf(sl->f, "%s%s %s", sl->first ? "" : ", ", level,
                format_percent(pct, sizeof(pct), usec, sl->total));
        sl->first = false;
}

/* A switch's time for people: "15 us", "2.4 ms", "1.20 s". */
static const char *format_us(char *buf, size_t size, double us)
{
        if (us < 1000)
                snprintf(buf, size, "%.0f us", us);
        else if (us < 1e6)
                snprintf(buf, size, "%.1f ms", us / 1000);
        else
                snprintf(buf, size, "%.2f s", us / 1e6);
        return buf;
}

/* "Switch cost: 1.0 ms + 4.0 ms per CPU (12 measured, last 17.0 ms for 4
 * CPUs)", and how long the kernel took to settle after them. */
static void print_switch_cost(FILE *f, const struct ctl_status *s)
{
        const struct ctl_switch_cost *c = &s->cost;
        const struct ctl_settle *t = &s->settle;
        char a[32], b[32], l[32];

        if (c->known) {
                label(f, "Switch cost");
                fprintf(f, "%s + %s per CPU", format_us(a, sizeof(a), c->fixed_us),
                        format_us(b, sizeof(b), c->per_cpu_us));
                if (c->measured == 0)
                        fputs(" (the backend's prior, none measured yet)\n", f);
                else
                        fprintf(f, " (%" PRIu32 " measured, last %s for %" PRIu32 " CPU%s, longest %s)\n",
                                c->measured, format_us(l, sizeof(l), c->last_us), c->last_cpus,
                                c->last_cpus == 1 ? "" : "s", format_us(a, sizeof(a), c->max_us));
        }
        if (t->known) {
                label(f, "Settle");
                if (t->windows == 0)
                        fputs("-\n", f);
                else
                        fprintf(f, "last %s, mean %s, longest %s (%" PRIu32 " switch%s, %" PRIu32
                                " cut off at the bound)\n",
                                format_us(l, sizeof(l), (double)t->last_usec),
                                format_us(a, sizeof(a), (double)t->mean_usec),
                                format_us(b, sizeof(b), (double)t->max_usec), t->windows,
                                t->windows == 1 ? "" : "es", t->bounded);
        }
        for (size_t i = 0; i < s->n_unreachable; i++) {
                if (i == 0)
                        label(f, "Unreachable");
                else
                        continuation(f);
                fprintf(f, "%s: %s\n", s->unreachable[i].level, s->unreachable[i].why);
        }
}

/* "Idle wake: watching 8 CPUs (3 wakes, 41 periods at an idle pace)". */
static void print_idle_wake(FILE *f, const struct ctl_status *s)
{
        const struct ctl_idle_wake *w = &s->idle_wake;

        if (!w->known)
                return;
        label(f, "Idle wake");
        fprintf(f, "%s (%" PRIu64 " wake%s, %" PRIu64 " period%s at an idle pace)\n", or_dash(w->state), w->wakes,
                w->wakes == 1 ? "" : "s", w->idle_paced, w->idle_paced == 1 ? "" : "s");
}

static void status_print(FILE *f, const struct ctl_status *s, bool fancy)
{
        label(f, "Mode");
        fprintf(f, "%s", or_dash(s->mode));
        if (s->mode_reason && s->mode_reason[0])
                fprintf(f, " (%s)", s->mode_reason);
        fputc('\n', f);
        label(f, "Topology");
        fprintf(f, "%s\n", or_dash(s->topology));

        label(f, "Level");
        fprintf(f, "%s%s%s", ansi(fancy, ANSI_BOLD), or_dash(s->level), ansi_reset(fancy));
        if (s->target_level && s->level && strcmp(s->level, s->target_level) != 0)
                fprintf(f, " (target %s)", s->target_level);
        fputc('\n', f);

        print_demand(f, s);
        if (s->n_scores > 0) {
                label(f, "Scores");
                for (size_t i = 0; i < s->n_scores; i++)
                        fprintf(f, "%s%s %.0f", i > 0 ? ", " : "", s->scores[i].name, s->scores[i].value);
                fputc('\n', f);
        }
        print_thermal(f, s, fancy);
        print_limits(f, s);
        print_profile(f, s);
        print_holds(f, s, fancy);

        label(f, "Time in level");
        struct share_line sl = { .f = f, .total = time_accounted(s), .first = true };
        if (sl.total > 0)
                for_each_level_time(s, print_share, &sl);
        fputs(sl.first ? "-\n" : "\n", f);

        label(f, "Switches");
        fprintf(f, "%" PRIu64 "\n", s->switches);
        label(f, "Last reason");
        fprintf(f, "%s\n", or_dash(s->last_reason));
        label(f, "Backend");
        fprintf(f, "%s\n", or_dash(s->backend));
        print_switch_cost(f, s);
        print_idle_wake(f, s);
        label(f, "Energy model");
        fprintf(f, "%s\n", or_dash(s->energy_model));
        label(f, "Config");
        if (!s->config_files || !s->config_files[0])
                fputs("built-in defaults\n", f);
        for (char **c = s->config_files; c && *c; c++) {
                if (c != s->config_files)
                        continuation(f);
                fprintf(f, "%s\n", *c);
        }
}

static int status_json(sd_bus *bus)
{
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
        const char *json;
        size_t len;
        int r;

        /* The daemon's own JSON, so its keys are the schema (as hostnamectl does). */
        r = client_call(bus, "Describe", &error, &reply, "");
        if (r >= 0)
                r = sd_bus_message_read_basic(reply, 's', &json);
        if (r < 0)
                return client_report(&error, r);
        len = strlen(json);
        fputs(json, stdout);
        if (len == 0 || json[len - 1] != '\n')
                fputc('\n', stdout);
        return 0;
}

int verb_status(const struct ctl_args *a)
{
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(client_status_done) struct ctl_status s = { .temperature = -1 };
        _cleanup_(sd_bus_unrefp) sd_bus *bus = NULL;
        int r;

        r = client_open(&bus, false);
        if (r != 0)
                return r;
        if (a->json)
                return status_json(bus);
        r = client_read_status(bus, &s, &error);
        if (r < 0)
                return client_report(&error, r);
        status_print(stdout, &s, a->fancy);
        return 0;
}

static void history_json(const struct ctl_switch *list, size_t n)
{
        if (n == 0) {
                puts("[]");
                return;
        }
        puts("[");
        for (size_t i = 0; i < n; i++) {
                printf("  {\"when_wall_usec\": %" PRIu64 ", \"when_monotonic_usec\": %" PRIu64 ", \"from\": ",
                       list[i].when_wall, list[i].when_monotonic);
                json_string(stdout, list[i].from);
                fputs(", \"to\": ", stdout);
                json_string(stdout, list[i].to);
                fputs(", \"reason\": ", stdout);
                json_string(stdout, list[i].reason);
                puts(i + 1 < n ? "}," : "}");
        }
        puts("]");
}

static int history_table(const struct ctl_args *a, const struct ctl_switch *list, size_t n)
{
        struct table *t = NULL;
        struct pager pager;
        int r;

        r = table_new(&t, 3);
        if (r >= 0)
                r = table_add(t, "TIME");
        if (r >= 0)
                r = table_add(t, "SWITCH");
        if (r >= 0)
                r = table_add(t, "REASON");
        for (size_t i = 0; i < n && r >= 0; i++) {
                char when[WALL_TEXT_MAX];

                r = table_add(t, format_wall(when, sizeof(when), list[i].when_wall));
                if (r >= 0)
                        r = table_addf(t, "%s %s %s", list[i].from, symbol_arrow(a->fancy), list[i].to);
                if (r >= 0)
                        r = table_add(t, list[i].reason);
        }
        if (r < 0) {
                table_free(t);
                fprintf(stderr, "switchctl: %s\n", strerror(-r));
                return EXIT_FAILURE;
        }

        if (a->pager && pager_open(&pager) < 0)
                pager.pid = 0;
        if (n > 0)
                table_print(t, stdout, a->legend, a->fancy);
        if (a->legend) {
                if (n == 0)
                        puts("No switches yet.");
                else
                        printf("\n%zu switch%s listed.\n", n, n == 1 ? "" : "es");
        }
        if (a->pager)
                pager_close(&pager);
        table_free(t);
        return 0;
}

int verb_history(const struct ctl_args *a)
{
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(sd_bus_unrefp) sd_bus *bus = NULL;
        struct ctl_switch *list = NULL;
        size_t n = 0;
        int r, status = 0;

        r = client_open(&bus, false);
        if (r != 0)
                return r;
        r = client_read_history(bus, a->lines, &list, &n, &error);
        if (r < 0)
                return client_report(&error, r);
        if (a->json)
                history_json(list, n);
        else
                status = history_table(a, list, n);
        client_history_free(list, n);
        return status;
}

struct stats_rows {
        struct table *t;
        uint64_t total;
        int r;
};

static void add_stats_row(const char *level, uint64_t usec, void *userdata)
{
        struct stats_rows *sr = userdata;
        char text[DURATION_TEXT_MAX], pct[PERCENT_TEXT_MAX];

        if (sr->r >= 0)
                sr->r = table_add(sr->t, level);
        if (sr->r >= 0)
                sr->r = table_add(sr->t, duration_format(text, sizeof(text), usec));
        if (sr->r >= 0)
                sr->r = table_add(sr->t, format_percent(pct, sizeof(pct), usec, sr->total));
}

static void json_time_entry(const char *level, uint64_t usec, void *userdata)
{
        bool *first = userdata;

        fputs(*first ? "" : ", ", stdout);
        json_string(stdout, level);
        printf(": %" PRIu64, usec);
        *first = false;
}

static int stats_print(const struct ctl_args *a, const struct ctl_status *s)
{
        uint64_t total = time_accounted(s);
        char text[DURATION_TEXT_MAX];

        if (a->json) {
                bool first = true;

                printf("{\"switches\": %" PRIu64 ", \"hold_count\": %zu, \"accounted_usec\": %" PRIu64
                       ", \"time_in_level_usec\": {",
                       s->switches, s->n_holds, total);
                for_each_level_time(s, json_time_entry, &first);
                putchar('}');
                if (s->cost.known)
                        printf(", \"switch_cost\": {\"fixed_usec\": %.1f, \"per_cpu_usec\": %.1f, "
                               "\"measured\": %" PRIu32 ", \"last_usec\": %.1f, \"last_cpus\": %" PRIu32
                               ", \"longest_usec\": %.1f}",
                               s->cost.fixed_us, s->cost.per_cpu_us, s->cost.measured, s->cost.last_us,
                               s->cost.last_cpus, s->cost.max_us);
                if (s->settle.known)
                        printf(", \"settle\": {\"last_usec\": %" PRIu64 ", \"mean_usec\": %" PRIu64
                               ", \"longest_usec\": %" PRIu64 ", \"windows\": %" PRIu32
                               ", \"bounded\": %" PRIu32 ", \"discounted_samples\": %" PRIu64 "}",
                               s->settle.last_usec, s->settle.mean_usec, s->settle.max_usec,
                               s->settle.windows, s->settle.bounded, s->settle.discounted);
                if (s->idle_wake.known) {
                        fputs(", \"idle_wake\": {\"state\": ", stdout);
                        json_string(stdout, or_dash(s->idle_wake.state));
                        printf(", \"wakes\": %" PRIu64 ", \"idle_paced\": %" PRIu64 "}", s->idle_wake.wakes,
                               s->idle_wake.idle_paced);
                }
                puts("}");
                return 0;
        }

        struct stats_rows sr = { .total = total };
        sr.r = table_new(&sr.t, 3);
        if (sr.r >= 0)
                sr.r = table_add(sr.t, "LEVEL");
        if (sr.r >= 0)
                sr.r = table_add(sr.t, "TIME");
        if (sr.r >= 0)
                sr.r = table_add(sr.t, "SHARE");
        if (sr.r >= 0) {
                table_align_right(sr.t, 1);
                table_align_right(sr.t, 2);
                for_each_level_time(s, add_stats_row, &sr);
        }
        if (sr.r < 0) {
                table_free(sr.t);
                fprintf(stderr, "switchctl: %s\n", strerror(-sr.r));
                return EXIT_FAILURE;
        }
        table_print(sr.t, stdout, a->legend, a->fancy);
        table_free(sr.t);
        if (a->legend) {
                printf("\n%" PRIu64 " switch%s in %s", s->switches, s->switches == 1 ? "" : "es",
                       duration_format(text, sizeof(text), total));
                /* A rate over less than a minute would say more about the noise than the machine. */
                if (total >= 60 * USEC_PER_SEC)
                        printf(" (%.1f per hour)", (double)s->switches * 3600.0 * (double)USEC_PER_SEC /
                                                           (double)total);
                printf(", %zu hold%s in force.\n", s->n_holds, s->n_holds == 1 ? "" : "s");
                if (s->cost.known || s->settle.known || s->n_unreachable > 0)
                        print_switch_cost(stdout, s);
                print_idle_wake(stdout, s);
        }
        return 0;
}

int verb_stats(const struct ctl_args *a)
{
        _cleanup_(client_status_done) struct ctl_status s = { .temperature = -1 };
        int status = client_fetch_status(&s);

        return status != 0 ? status : stats_print(a, &s);
}

int verb_list_levels(const struct ctl_args *a)
{
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(sd_bus_unrefp) sd_bus *bus = NULL;
        char **levels = NULL;
        int r;

        r = client_open(&bus, false);
        if (r != 0)
                return r;
        r = sd_bus_get_property_strv(bus, SWITCH1_NAME, SWITCH1_PATH, SWITCH1_IFACE, "Levels", &error,
                                     &levels);
        if (r < 0)
                return client_report(&error, r);
        for (char **l = levels; *l; l++)
                puts(*l);
        strv_free(levels);
        return 0;
}

int verb_list_holds(const struct ctl_args *a)
{
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
        _cleanup_(sd_bus_unrefp) sd_bus *bus = NULL;
        struct ctl_hold *holds = NULL;
        size_t n = 0;
        int r;

        r = client_open(&bus, false);
        if (r != 0)
                return r;
        r = sd_bus_get_property(bus, SWITCH1_NAME, SWITCH1_PATH, SWITCH1_IFACE, "Holds", &error, &reply,
                                "a(usuisssttb)");
        if (r >= 0)
                r = client_read_holds(reply, &holds, &n);
        if (r < 0)
                return client_report(&error, r);
        for (size_t i = 0; i < n; i++)
                printf("%" PRIu32 "\n", holds[i].id);
        client_holds_free(holds, n);
        return 0;
}
