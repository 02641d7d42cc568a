/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A stand-in for bigLittled's org.bigLittle.Switch1, for testing switchctl:
 * fixed property values, methods that record their arguments in a log file
 * and answer as the interface says, and a private interface through which
 * the test makes it emit Switched, drop a hold or leave the bus.
 *
 *   fake-switch1 --log FILE [--scenario full|quiet] [--refuse-reload] [--too-many]
 *
 * It serves on the bus sd_bus_open_system() finds ($DBUS_SYSTEM_BUS_ADDRESS)
 * and prints "ready" on standard output once it owns the name. Callers are
 * privileged when their uid is 0 or the fake's own. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>
#include <unistd.h>

#define NAME "org.bigLittle.Switch1"
#define PATH "/org/bigLittle/Switch1"
#define IFACE "org.bigLittle.Switch1"
#define TEST_IFACE "org.bigLittle.Switch1Test"
#define ERR IFACE ".Error."

#define MAX_HOLDS 8
#define HOLD_ID 7
#define MAX_DURATION (UINT64_C(3600) * 1000000)
/* 2026-12-01 10:30:00 UTC: "now" for the holds the fake places. */
#define FAKE_NOW UINT64_C(1796121000000000)

struct hold {
        uint32_t id;
        const char *level;
        uint32_t uid;
        int32_t pid;
        const char *unit, *owner, *reason;
        uint64_t since, until;
        bool persist;
        char *owned;            /* what the strings point into, for holds placed at run time */
};

struct entry {
        uint64_t wall, mono;
        const char *from, *to, *reason;
};

struct named_double {
        const char *name;
        double value;
};

struct named_usec {
        const char *name;
        uint64_t usec;
};

struct limit {
        const char *name;
        int32_t mc;
        const char *source, *origin;
};

struct scenario {
        const char *mode, *mode_reason, *level, *target_level;
        const char *const *levels;
        double demand, up, down;
        const struct named_double *scores;
        int32_t temperature;
        const char *thermal_state;
        const struct limit *limits;
        const struct hold *holds;
        const char *backend;
        const char *topology;
        const char *energy_model;
        uint64_t switches;
        const struct named_usec *time_in_level;
        const char *last_reason;
        const char *const *config_files;
        const struct entry *history;
        const char *describe;
        /* SwitchCost, Settle and Unreachable (level, why; NULL-ended) */
        double cost[6];
        uint64_t settle[6];
        const char *const *unreachable;
        /* IdleWake: the state, the wakes, the periods at an idle pace */
        const char *idle_wake;
        uint64_t idle_wakes, idle_paced;
        /* WinningHold (id, why) and ProfileAdjustment */
        uint32_t winning_hold;
        const char *winning_why;
        const char *profile_adjustment;
};

static const char *const two_levels[] = { "little", "big", NULL };
static const char *const full_configs[] = { "/etc/bigLittle.conf", "/etc/bigLittle.conf.d/50-laptop.conf",
                                            NULL };
static const char *const no_strings[] = { NULL };
static const struct named_double full_scores[] = { { "pelt", 598.25 }, { "psi", 612.4 }, { NULL, 0 } };
static const struct named_double no_scores[] = { { NULL, 0 } };
static const struct named_usec full_times[] = {
        { "little", UINT64_C(10800000000) }, { "big", UINT64_C(3600000000) }, { NULL, 0 } };
static const struct named_usec quiet_times[] = { { "little", 0 }, { "big", 0 }, { NULL, 0 } };
static const struct hold full_holds[] = {
        { 3, "big", 4242, 777, "", ":1.7", "game", UINT64_C(1796118900000000), UINT64_C(1796122500000000),
          false, NULL },
        { 5, "little", 0, 1234, "battery-saver.service", ":1.9", "on battery", UINT64_C(1796119500000000),
          UINT64_C(1796123100000000), true, NULL },
        { 0 },
};
static const struct hold no_holds[] = { { 0 } };
static const struct limit trip_limits[] = {
        { "cap", 75000, "trip", "thermal_zone0 cpu-thermal passive trip 80.0 °C − 5" },
        { "release", 70000, "trip", "cap 75.0 °C − 5" },
        { "critical", 90000, "trip", "thermal_zone0 cpu-thermal critical trip 95.0 °C − 5" },
        { NULL, 0, NULL, NULL },
};
static const struct limit no_limits[] = { { NULL, 0, NULL, NULL } };
static const struct entry full_history[] = {
        { UINT64_C(1796115600000000), UINT64_C(3600000000), "little", "big",
          "demand 612 > 80% of little (377) for 40 ms" },
        { UINT64_C(1796116800000000), UINT64_C(4800000000), "big", "little",
          "demand 180 < 60% of little (226) for 100 ms" },
        { UINT64_C(1796118900000000), UINT64_C(6900000000), "little", "big", "hold 3 by uid 4242: \"game\"" },
        { UINT64_C(1796119500000000), UINT64_C(7500000000), "big", "little",
          "hold 5 by uid 0: \"on battery\"" },
        { 0 },
};
static const struct entry no_history[] = { { 0 } };
static const char *const quiet_unreachable[] = {
        "big", "cpu5: wrote online=1, it stays offline; earlier writes undone", NULL,
};

static const struct scenario full = {
        .mode = "cluster",
        .mode_reason = "mode = auto: no in-kernel switcher, so auto_mode = cluster",
        .level = "little",
        .target_level = "big",
        .levels = two_levels,
        .demand = 612.4,
        .up = 301.6,
        .down = 0,
        .scores = full_scores,
        .temperature = 61500,
        .thermal_state = "normal",
        .limits = trip_limits,
        .holds = full_holds,
        .backend = "hotplug",
        .topology = "cpufreq related_cpus + cpu_capacity",
        .energy_model = "exynos5422 board file /etc/bigLittle/exynos5422.ini, 2 clusters, 9+13 OPPs",
        .switches = 42,
        .time_in_level = full_times,
        .last_reason = "hold 5 by uid 0: \"on battery\"",
        .config_files = full_configs,
        .history = full_history,
        .describe =
                "{\"mode\":\"cluster\",\"mode_reason\":\"mode = auto: no in-kernel switcher,"
                " so auto_mode = cluster\",\"topology\":\"cpufreq related_cpus + cpu_capacity\","
                "\"level\":\"little\",\"target_level\":\"big\","
                "\"levels\":[\"little\",\"big\"],\"demand\":612.4,\"thresholds\":{\"up\":301.6,\"down\":null},"
                "\"scores\":{\"pelt\":598.25,\"psi\":612.4},\"thermal\":{\"state\":\"normal\","
                "\"temperature_mc\":61500},\"thermal_limits\":{\"cap_mc\":75000,\"cap_source\":\"trip\","
                "\"cap_origin\":\"thermal_zone0 cpu-thermal passive trip 80.0 °C − 5\",\"release_mc\":70000,"
                "\"release_source\":\"trip\",\"release_origin\":\"cap 75.0 °C − 5\",\"critical_mc\":90000,"
                "\"critical_source\":\"trip\","
                "\"critical_origin\":\"thermal_zone0 cpu-thermal critical trip 95.0 °C − 5\"},"
                "\"holds\":[{\"id\":3,\"level\":\"big\",\"uid\":4242,\"pid\":777,"
                "\"unit\":\"\",\"reason\":\"game\",\"since_wall_usec\":1796118900000000,"
                "\"until_wall_usec\":1796122500000000,\"persist\":false},{\"id\":5,\"level\":\"little\","
                "\"uid\":0,\"pid\":1234,\"unit\":\"battery-saver.service\",\"reason\":\"on battery\","
                "\"since_wall_usec\":1796119500000000,\"until_wall_usec\":1796123100000000,"
                "\"persist\":true}],\"backend\":\"hotplug\",\"switches\":42,"
                "\"time_in_level_usec\":{\"little\":10800000000,\"big\":3600000000},"
                "\"last_reason\":\"hold 5 by uid 0: \\\"on battery\\\"\","
                "\"config_files\":[\"/etc/bigLittle.conf\",\"/etc/bigLittle.conf.d/50-laptop.conf\"]}",
        /* 1 ms + 6 ms per CPU; 3 measured, the last 25 ms for 4 CPUs, the longest 31.2 ms */
        .cost = { 1000, 6000, 3, 25000, 4, 31200 },
        /* settled after 120 ms last, 90 ms on average, 300 ms at most; 3 windows, 1 at its bound */
        .settle = { 120000, 90000, 300000, 3, 1, 17 },
        .unreachable = no_strings,
        .idle_wake = "watching 8 CPUs",
        .idle_wakes = 3,
        .idle_paced = 41,
        .winning_hold = 5,
        .winning_why = "newest of 2",
        .profile_adjustment = "power-saver (power-profiles-daemon) → cap little; "
                              "on battery (UPower) → bias +10% toward LITTLE",
};

static const struct scenario quiet = {
        .mode = "pair",
        .mode_reason = "mode = pair",
        .level = "LLLL",
        .target_level = "LLLL",
        .levels = two_levels,
        .demand = 100.0,
        .up = 301.6,
        .down = 0,
        .scores = no_scores,
        .temperature = -1,
        .thermal_state = "normal",
        .limits = no_limits,
        .holds = no_holds,
        .backend = "dryrun",
        .topology = "",
        .energy_model = "none (no debugfs energy model; set energy_model=)",
        .switches = 0,
        .time_in_level = quiet_times,
        .last_reason = "",
        .config_files = no_strings,
        .history = no_history,
        .describe =
                "{\"mode\":\"pair\",\"level\":\"LLLL\",\"levels\":[\"little\",\"big\"],\"demand\":100,"
                "\"switches\":0,\"holds\":[],\"thermal\":{\"state\":\"normal\",\"temperature_mc\":null}}\n",
        /* the switcher backend's prior, nothing measured or settled */
        .cost = { 0, 15, 0, 0, 0, 0 },
        .settle = { 0 },
        .unreachable = quiet_unreachable,
        .idle_wake = "unavailable: perf_event_open(context-switches) on CPU 0: Permission denied",
        .winning_why = "",
        .profile_adjustment = "",
};

struct fake {
        const struct scenario *sc;
        struct hold holds[MAX_HOLDS];
        unsigned n_holds;
        FILE *log;
        bool refuse_reload, too_many;
        uid_t own_uid;
        sd_event *event;
        sd_bus *bus;
};

static void record(struct fake *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void record(struct fake *f, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        vfprintf(f->log, fmt, ap);
        va_end(ap);
        fputc('\n', f->log);
        /* The test reads the log as soon as the reply arrives. */
        fflush(f->log);
}

static int caller_uid(sd_bus_message *m, uid_t *uid)
{
        sd_bus_creds *c = NULL;
        int r;

        r = sd_bus_query_sender_creds(m, SD_BUS_CREDS_EUID, &c);
        if (r >= 0)
                r = sd_bus_creds_get_euid(c, uid);
        sd_bus_creds_unref(c);
        return r;
}

/* 1 when privileged, 0 when the error is set, or a negative errno. */
static int authorize(struct fake *f, sd_bus_message *m, uid_t *uid, sd_bus_error *error)
{
        int r = caller_uid(m, uid);

        if (r < 0)
                return r;
        if (*uid == 0 || *uid == f->own_uid)
                return 1;
        return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED,
                                "not permitted: run as root or grant org.bigLittle.Switch1.manage");
}

static bool known_level(const struct fake *f, const char *level)
{
        for (const char *const *l = f->sc->levels; *l; l++)
                if (strcmp(*l, level) == 0)
                        return true;
        return false;
}

static int emit_holds_changed(struct fake *f)
{
        return sd_bus_emit_properties_changed(f->bus, PATH, IFACE, "Holds", NULL);
}

static int place_hold(sd_bus_message *m, struct fake *f, const char *method, bool with_flags,
                      sd_bus_error *error)
{
        const char *level, *reason;
        uint64_t duration, flags = 0;
        struct hold *h;
        uid_t uid = 0;
        char *owned;
        int r;

        if (with_flags)
                r = sd_bus_message_read(m, "stst", &level, &duration, &reason, &flags);
        else
                r = sd_bus_message_read(m, "sts", &level, &duration, &reason);
        if (r < 0)
                return r;
        record(f, "%s level=%s duration=%" PRIu64 " reason=\"%s\" flags=%" PRIu64, method, level, duration,
               reason, flags);
        r = authorize(f, m, &uid, error);
        if (r <= 0)
                return r;
        if (!known_level(f, level))
                return sd_bus_error_setf(error, ERR "UnknownLevel",
                                         "unknown level \"%s\"; the levels are: little, big", level);
        /* The daemon's words, its units simplified to whole hours or µs. */
        if (duration == 0 || duration > MAX_DURATION)
                return sd_bus_error_setf(error, ERR "InvalidDuration",
                                         "a hold of %" PRIu64 "%s is out of range: at most 1h "
                                         "([holds] max_duration_s = 3600)",
                                         duration % 3600000000 ? duration : duration / 3600000000,
                                         duration % 3600000000 ? "us" : "h");
        if (strlen(reason) > 255)
                return sd_bus_error_set(error, ERR "InvalidReason", "reason longer than 255 bytes");
        if (f->too_many || f->n_holds == MAX_HOLDS)
                return sd_bus_error_set(error, ERR "TooManyHolds", "too many holds: 8 per user are in force");

        owned = malloc(strlen(level) + strlen(reason) + strlen(sd_bus_message_get_sender(m)) + 3);
        if (!owned)
                return -ENOMEM;
        h = &f->holds[f->n_holds++];
        *h = (struct hold){ .id = HOLD_ID, .uid = uid, .unit = "", .since = FAKE_NOW,
                            .until = FAKE_NOW + duration, .persist = flags & 1, .owned = owned };
        h->level = strcpy(owned, level);
        h->reason = strcpy(owned + strlen(level) + 1, reason);
        h->owner = strcpy(owned + strlen(level) + strlen(reason) + 2, sd_bus_message_get_sender(m));
        r = sd_bus_reply_method_return(m, "u", (uint32_t)HOLD_ID);
        if (r >= 0)
                r = emit_holds_changed(f);
        return r;
}

static int method_hold(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        return place_hold(m, userdata, "Hold", false, error);
}

static int method_hold_with_flags(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        return place_hold(m, userdata, "HoldWithFlags", true, error);
}

static void drop_hold(struct fake *f, unsigned i)
{
        free(f->holds[i].owned);
        memmove(&f->holds[i], &f->holds[i + 1], (f->n_holds - i - 1) * sizeof(f->holds[0]));
        f->n_holds--;
}

static int find_hold(const struct fake *f, uint32_t id)
{
        for (unsigned i = 0; i < f->n_holds; i++)
                if (f->holds[i].id == id)
                        return (int)i;
        return -1;
}

static int method_release(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct fake *f = userdata;
        uid_t uid = 0;
        uint32_t id;
        int r, i;

        r = sd_bus_message_read(m, "u", &id);
        if (r < 0)
                return r;
        record(f, "Release id=%" PRIu32, id);
        i = find_hold(f, id);
        if (i < 0)
                return sd_bus_error_setf(error, ERR "NoSuchHold",
                                         "no hold %" PRIu32 " (see switchctl status)", id);
        /* One's own hold needs no privilege. */
        r = caller_uid(m, &uid);
        if (r < 0)
                return r;
        if (uid != f->holds[i].uid) {
                r = authorize(f, m, &uid, error);
                if (r <= 0)
                        return r;
        }
        drop_hold(f, (unsigned)i);
        r = sd_bus_reply_method_return(m, "");
        if (r >= 0)
                r = emit_holds_changed(f);
        return r;
}

static int method_release_all(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct fake *f = userdata;
        uint32_t count = 0;
        uid_t uid = 0;
        int r;

        record(f, "ReleaseAll");
        r = caller_uid(m, &uid);
        if (r < 0)
                return r;
        /* The privileged end every hold, others their own. */
        for (unsigned i = f->n_holds; i-- > 0;)
                if (uid == 0 || uid == f->own_uid || f->holds[i].uid == uid) {
                        drop_hold(f, i);
                        count++;
                }
        r = sd_bus_reply_method_return(m, "u", count);
        if (r >= 0 && count > 0)
                r = emit_holds_changed(f);
        return r;
}

static int method_reload(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct fake *f = userdata;
        uid_t uid;
        int r;

        record(f, "Reload");
        r = authorize(f, m, &uid, error);
        if (r <= 0)
                return r;
        if (f->refuse_reload)
                return sd_bus_error_set(error, ERR "ReloadRefused",
                                        "the configuration has errors, see the journal");
        return sd_bus_reply_method_return(m, "");
}

static int method_history(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct fake *f = userdata;
        sd_bus_message *reply = NULL;
        unsigned total = 0, first = 0;
        uint32_t n;
        int r;

        r = sd_bus_message_read(m, "u", &n);
        if (r < 0)
                return r;
        record(f, "History n=%" PRIu32, n);
        while (f->sc->history[total].wall)
                total++;
        if (n > 0 && n < total)
                first = total - n;
        r = sd_bus_message_new_method_return(m, &reply);
        if (r >= 0)
                r = sd_bus_message_open_container(reply, 'a', "(ttsss)");
        for (unsigned i = first; i < total && r >= 0; i++) {
                const struct entry *e = &f->sc->history[i];

                r = sd_bus_message_append(reply, "(ttsss)", e->wall, e->mono, e->from, e->to, e->reason);
        }
        if (r >= 0)
                r = sd_bus_message_close_container(reply);
        if (r >= 0)
                r = sd_bus_send(NULL, reply, NULL);
        sd_bus_message_unref(reply);
        return r;
}

static int method_describe(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct fake *f = userdata;

        record(f, "Describe");
        return sd_bus_reply_method_return(m, "s", f->sc->describe);
}

static int method_emit_switched(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct fake *f = userdata;
        const char *from, *to, *reason;
        int r;

        r = sd_bus_message_read(m, "sss", &from, &to, &reason);
        if (r >= 0)
                r = sd_bus_emit_signal(f->bus, PATH, IFACE, "Switched", "sss", from, to, reason);
        if (r >= 0)
                r = sd_bus_reply_method_return(m, "");
        return r;
}

static int method_drop_hold(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct fake *f = userdata;
        uint32_t id;
        int r, i;

        r = sd_bus_message_read(m, "u", &id);
        if (r < 0)
                return r;
        i = find_hold(f, id);
        if (i >= 0)
                drop_hold(f, (unsigned)i);
        r = sd_bus_reply_method_return(m, "");
        if (r >= 0)
                r = emit_holds_changed(f);
        return r;
}

static int method_quit(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct fake *f = userdata;
        int r = sd_bus_reply_method_return(m, "");

        sd_event_exit(f->event, 0);
        return r;
}

static int get_string(sd_bus *bus, const char *path, const char *iface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct scenario *sc = ((struct fake *)userdata)->sc;
        const char *v = strcmp(property, "Mode") == 0          ? sc->mode
                        : strcmp(property, "ModeReason") == 0  ? sc->mode_reason
                        : strcmp(property, "Level") == 0       ? sc->level
                        : strcmp(property, "TargetLevel") == 0 ? sc->target_level
                        : strcmp(property, "ThermalState") == 0 ? sc->thermal_state
                        : strcmp(property, "Backend") == 0     ? sc->backend
                        : strcmp(property, "Topology") == 0    ? sc->topology
                        : strcmp(property, "EnergyModel") == 0 ? sc->energy_model
                        : strcmp(property, "ProfileAdjustment") == 0 ? sc->profile_adjustment
                                                               : sc->last_reason;

        return sd_bus_message_append_basic(reply, 's', v);
}

static int get_winning_hold(sd_bus *bus, const char *path, const char *iface, const char *property,
                            sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct scenario *sc = ((struct fake *)userdata)->sc;

        return sd_bus_message_append(reply, "(us)", sc->winning_hold, sc->winning_why);
}

static int get_strv(sd_bus *bus, const char *path, const char *iface, const char *property,
                    sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct scenario *sc = ((struct fake *)userdata)->sc;

        return sd_bus_message_append_strv(
                reply, (char **)(strcmp(property, "Levels") == 0 ? sc->levels : sc->config_files));
}

static int get_double(sd_bus *bus, const char *path, const char *iface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct scenario *sc = ((struct fake *)userdata)->sc;
        double v = strcmp(property, "Demand") == 0 ? sc->demand
                   : strcmp(property, "UpThreshold") == 0 ? sc->up
                                                          : sc->down;

        return sd_bus_message_append_basic(reply, 'd', &v);
}

static int get_scores(sd_bus *bus, const char *path, const char *iface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct scenario *sc = ((struct fake *)userdata)->sc;
        int r = sd_bus_message_open_container(reply, 'a', "{sd}");

        for (const struct named_double *s = sc->scores; s->name && r >= 0; s++)
                r = sd_bus_message_append(reply, "{sd}", s->name, s->value);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_time_in_level(sd_bus *bus, const char *path, const char *iface, const char *property,
                             sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct scenario *sc = ((struct fake *)userdata)->sc;
        int r = sd_bus_message_open_container(reply, 'a', "{st}");

        for (const struct named_usec *t = sc->time_in_level; t->name && r >= 0; t++)
                r = sd_bus_message_append(reply, "{st}", t->name, t->usec);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_temperature(sd_bus *bus, const char *path, const char *iface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        return sd_bus_message_append_basic(reply, 'i', &((struct fake *)userdata)->sc->temperature);
}

static int get_limits(sd_bus *bus, const char *path, const char *iface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct scenario *sc = ((struct fake *)userdata)->sc;
        int r = sd_bus_message_open_container(reply, 'a', "(siss)");

        for (const struct limit *l = sc->limits; l->name && r >= 0; l++)
                r = sd_bus_message_append(reply, "(siss)", l->name, l->mc, l->source, l->origin);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_switches(sd_bus *bus, const char *path, const char *iface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        return sd_bus_message_append_basic(reply, 't', &((struct fake *)userdata)->sc->switches);
}

static int get_holds(sd_bus *bus, const char *path, const char *iface, const char *property,
                     sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct fake *f = userdata;
        int r = sd_bus_message_open_container(reply, 'a', "(usuisssttb)");

        for (unsigned i = 0; i < f->n_holds && r >= 0; i++) {
                const struct hold *h = &f->holds[i];

                r = sd_bus_message_append(reply, "(usuisssttb)", h->id, h->level, h->uid, h->pid, h->unit,
                                          h->owner, h->reason, h->since, h->until, (int)h->persist);
        }
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_switch_cost(sd_bus *bus, const char *path, const char *iface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const double *c = ((struct fake *)userdata)->sc->cost;

        return sd_bus_message_append(reply, "(ddudud)", c[0], c[1], (uint32_t)c[2], c[3], (uint32_t)c[4],
                                     c[5]);
}

static int get_settle(sd_bus *bus, const char *path, const char *iface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const uint64_t *t = ((struct fake *)userdata)->sc->settle;

        return sd_bus_message_append(reply, "(tttuut)", t[0], t[1], t[2], (uint32_t)t[3], (uint32_t)t[4],
                                     t[5]);
}

static int get_idle_wake(sd_bus *bus, const char *path, const char *iface, const char *property,
                         sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct scenario *sc = ((struct fake *)userdata)->sc;

        return sd_bus_message_append(reply, "(stt)", sc->idle_wake, sc->idle_wakes, sc->idle_paced);
}

static int get_unreachable(sd_bus *bus, const char *path, const char *iface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const char *const *u = ((struct fake *)userdata)->sc->unreachable;
        int r = sd_bus_message_open_container(reply, 'a', "(ss)");

        for (; u[0] && r >= 0; u += 2)
                r = sd_bus_message_append(reply, "(ss)", u[0], u[1]);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static const sd_bus_vtable switch1_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("Mode", "s", get_string, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("ModeReason", "s", get_string, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Level", "s", get_string, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("TargetLevel", "s", get_string, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("Levels", "as", get_strv, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Demand", "d", get_double, 0, 0),
        SD_BUS_PROPERTY("UpThreshold", "d", get_double, 0, 0),
        SD_BUS_PROPERTY("DownThreshold", "d", get_double, 0, 0),
        SD_BUS_PROPERTY("Scores", "a{sd}", get_scores, 0, 0),
        SD_BUS_PROPERTY("Temperature", "i", get_temperature, 0, 0),
        SD_BUS_PROPERTY("ThermalState", "s", get_string, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("ThermalLimits", "a(siss)", get_limits, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("Holds", "a(usuisssttb)", get_holds, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("WinningHold", "(us)", get_winning_hold, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("ProfileAdjustment", "s", get_string, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("Backend", "s", get_string, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("EnergyModel", "s", get_string, 0, 0),
        SD_BUS_PROPERTY("Topology", "s", get_string, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Switches", "t", get_switches, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("TimeInLevel", "a{st}", get_time_in_level, 0,
                        SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
        SD_BUS_PROPERTY("LastReason", "s", get_string, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("ConfigFiles", "as", get_strv, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("SwitchCost", "(ddudud)", get_switch_cost, 0, 0),
        SD_BUS_PROPERTY("Settle", "(tttuut)", get_settle, 0, 0),
        SD_BUS_PROPERTY("Unreachable", "a(ss)", get_unreachable, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("IdleWake", "(stt)", get_idle_wake, 0, 0),
        SD_BUS_METHOD("Hold", "sts", "u", method_hold, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("HoldWithFlags", "stst", "u", method_hold_with_flags, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Release", "u", "", method_release, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("ReleaseAll", "", "u", method_release_all, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Reload", "", "", method_reload, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("History", "u", "a(ttsss)", method_history, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Describe", "", "s", method_describe, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_SIGNAL("Switched", "sss", 0),
        SD_BUS_VTABLE_END,
};

static const sd_bus_vtable test_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD("EmitSwitched", "sss", "", method_emit_switched, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("DropHold", "u", "", method_drop_hold, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Quit", "", "", method_quit, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END,
};

/* Property reads are answered by sd-bus itself; log them here so a test can
 * tell that a client has asked (and so has subscribed to what it wanted). */
static int log_property_reads(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct fake *f = userdata;
        const char *iface, *property;

        if (!sd_bus_message_is_method_call(m, "org.freedesktop.DBus.Properties", NULL))
                return 0;
        if (strcmp(sd_bus_message_get_member(m), "GetAll") == 0)
                record(f, "GetAll");
        else if (strcmp(sd_bus_message_get_member(m), "Get") == 0 &&
                 sd_bus_message_read(m, "ss", &iface, &property) >= 0)
                record(f, "Get %s", property);
        (void)sd_bus_message_rewind(m, true);
        return 0;
}

static int fake_run(struct fake *f)
{
        int r;

        r = sd_event_default(&f->event);
        if (r >= 0)
                r = sd_bus_open_system(&f->bus);
        if (r >= 0)
                r = sd_bus_add_filter(f->bus, NULL, log_property_reads, f);
        if (r >= 0)
                r = sd_bus_add_object_vtable(f->bus, NULL, PATH, IFACE, switch1_vtable, f);
        if (r >= 0)
                r = sd_bus_add_object_vtable(f->bus, NULL, PATH, TEST_IFACE, test_vtable, f);
        if (r >= 0)
                r = sd_bus_request_name(f->bus, NAME, 0);
        if (r >= 0)
                r = sd_bus_attach_event(f->bus, f->event, 0);
        if (r < 0)
                return r;
        printf("ready\n");
        fflush(stdout);
        return sd_event_loop(f->event);
}

int main(int argc, char **argv)
{
        static const struct option longopts[] = {
                { "log", required_argument, NULL, 'l' },
                { "scenario", required_argument, NULL, 's' },
                { "refuse-reload", no_argument, NULL, 'R' },
                { "too-many", no_argument, NULL, 'T' },
                {},
        };
        struct fake f = { .sc = &full, .own_uid = geteuid() };
        const char *log = NULL;
        int c, r;

        while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
                switch (c) {
                case 'l':
                        log = optarg;
                        break;
                case 's':
                        if (strcmp(optarg, "quiet") == 0)
                                f.sc = &quiet;
                        else if (strcmp(optarg, "full") != 0) {
                                fprintf(stderr, "fake-switch1: unknown scenario \"%s\"\n", optarg);
                                return 2;
                        }
                        break;
                case 'R':
                        f.refuse_reload = true;
                        break;
                case 'T':
                        f.too_many = true;
                        break;
                default:
                        return 2;
                }
        }
        if (!log) {
                fprintf(stderr, "fake-switch1: --log FILE is needed\n");
                return 2;
        }
        f.log = fopen(log, "ae");
        if (!f.log) {
                fprintf(stderr, "fake-switch1: %s: %s\n", log, strerror(errno));
                return 1;
        }
        for (const struct hold *h = f.sc->holds; h->id; h++)
                f.holds[f.n_holds++] = *h;

        r = fake_run(&f);
        if (r < 0)
                fprintf(stderr, "fake-switch1: %s\n", strerror(-r));
        while (f.n_holds > 0)
                drop_hold(&f, f.n_holds - 1);
        sd_bus_flush_close_unref(f.bus);
        sd_event_unref(f.event);
        fclose(f.log);
        return r < 0 ? 1 : 0;
}
