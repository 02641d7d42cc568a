/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl/client.h"

int client_open(sd_bus **ret, bool interactive)
{
        sd_bus *bus = NULL;
        int r;

        r = sd_bus_open_system(&bus);
        if (r < 0) {
                const char *address = getenv("DBUS_SYSTEM_BUS_ADDRESS");

                fprintf(stderr, "switchctl: cannot connect to the system bus%s%s%s: %s\n",
                        address ? " (" : "", address ? address : "", address ? ")" : "", strerror(-r));
                return EXIT_NOT_RUNNING;
        }
        /* polkit may ask for a password only where someone can type it. */
        (void)sd_bus_set_allow_interactive_authorization(bus, interactive && isatty(STDIN_FILENO));
        *ret = bus;
        return 0;
}

static bool error_is(const sd_bus_error *error, const char *suffix)
{
        size_t plen = strlen(SWITCH1_ERROR_PREFIX);

        return error && error->name && strncmp(error->name, SWITCH1_ERROR_PREFIX, plen) == 0 &&
               strcmp(error->name + plen, suffix) == 0;
}

int client_report(const sd_bus_error *error, int r)
{
        bool set = error && sd_bus_error_is_set(error);
        const char *message = set && error->message && error->message[0] ? error->message : NULL;

        if (set && (sd_bus_error_has_name(error, SD_BUS_ERROR_SERVICE_UNKNOWN) ||
                    sd_bus_error_has_name(error, SD_BUS_ERROR_NAME_HAS_NO_OWNER))) {
                fprintf(stderr, "switchctl: %s\n", MSG_NOT_RUNNING);
                return EXIT_NOT_RUNNING;
        }
        /* The bus's own policy refuses with a long text of its own: say the same thing either way. */
        if (set && (sd_bus_error_has_name(error, SD_BUS_ERROR_ACCESS_DENIED) ||
                    sd_bus_error_has_name(error, SD_BUS_ERROR_INTERACTIVE_AUTHORIZATION_REQUIRED))) {
                fprintf(stderr, "switchctl: %s\n", MSG_NOT_PERMITTED);
                return EXIT_NOT_PERMITTED;
        }
        if (set && (sd_bus_error_has_name(error, SD_BUS_ERROR_NO_REPLY) ||
                    sd_bus_error_has_name(error, SD_BUS_ERROR_TIMEOUT))) {
                fprintf(stderr, "switchctl: bigLittled did not answer in time\n");
                return EXIT_FAILURE;
        }
        if (set && (sd_bus_error_has_name(error, SD_BUS_ERROR_UNKNOWN_METHOD) ||
                    sd_bus_error_has_name(error, SD_BUS_ERROR_UNKNOWN_OBJECT) ||
                    sd_bus_error_has_name(error, SD_BUS_ERROR_UNKNOWN_INTERFACE) ||
                    sd_bus_error_has_name(error, SD_BUS_ERROR_UNKNOWN_PROPERTY))) {
                fprintf(stderr, "switchctl: bigLittled does not offer this (%s); is it an older version?\n",
                        message ? message : error->name);
                return EXIT_FAILURE;
        }
        if (error_is(error, "UnknownLevel") || error_is(error, "InvalidDuration") ||
            error_is(error, "InvalidReason")) {
                fprintf(stderr, "switchctl: %s\n", message ? message : error->name);
                return EXIT_USAGE;
        }
        if (message)
                fprintf(stderr, "switchctl: %s\n", message);
        else if (set)
                fprintf(stderr, "switchctl: %s\n", error->name);
        else if (r == -ECONNRESET || r == -ENOTCONN)
                fprintf(stderr, "switchctl: lost the connection to the system bus\n");
        else
                fprintf(stderr, "switchctl: %s\n", strerror(r < 0 ? -r : EIO));
        return EXIT_FAILURE;
}

int client_call(sd_bus *bus, const char *member, sd_bus_error *error, sd_bus_message **reply,
                const char *types, ...)
{
        va_list ap;
        int r;

        va_start(ap, types);
        r = sd_bus_call_methodv(bus, SWITCH1_NAME, SWITCH1_PATH, SWITCH1_IFACE, member, error, reply, types,
                                ap);
        va_end(ap);
        return r;
}

void strv_free(char **l)
{
        if (!l)
                return;
        for (char **p = l; *p; p++)
                free(*p);
        free(l);
}

void client_holds_free(struct ctl_hold *h, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                free(h[i].level);
                free(h[i].unit);
                free(h[i].owner);
                free(h[i].reason);
        }
        free(h);
}

int client_read_holds(sd_bus_message *m, struct ctl_hold **ret, size_t *ret_n)
{
        struct ctl_hold *holds = NULL;
        size_t n = 0;
        int r;

        r = sd_bus_message_enter_container(m, 'a', "(usuisssttb)");
        if (r < 0)
                return r;
        for (;;) {
                const char *level, *unit, *owner, *reason;
                struct ctl_hold h = { 0 }, *a;
                int persist;

                r = sd_bus_message_read(m, "(usuisssttb)", &h.id, &level, &h.uid, &h.pid, &unit, &owner,
                                        &reason, &h.since_wall, &h.until_wall, &persist);
                if (r <= 0)
                        break;
                a = realloc(holds, (n + 1) * sizeof(*a));
                if (!a) {
                        r = -ENOMEM;
                        break;
                }
                holds = a;
                h.persist = persist;
                h.level = strdup(level);
                h.unit = strdup(unit);
                h.owner = strdup(owner);
                h.reason = strdup(reason);
                holds[n++] = h;
                if (!h.level || !h.unit || !h.owner || !h.reason) {
                        r = -ENOMEM;
                        break;
                }
        }
        if (r >= 0)
                r = sd_bus_message_exit_container(m);
        if (r < 0) {
                client_holds_free(holds, n);
                return r;
        }
        *ret = holds;
        *ret_n = n;
        return 0;
}

typedef int (*property_reader)(sd_bus_message *m, struct ctl_status *s, void *field);

/* A property switchctl reads: its name, its signature, and where it goes. */
struct property {
        const char *name;
        const char *signature;
        size_t offset;
        property_reader read;
};

static int read_string(sd_bus_message *m, struct ctl_status *s, void *field)
{
        const char *value;
        char *copy;
        int r;

        r = sd_bus_message_read_basic(m, 's', &value);
        if (r < 0)
                return r;
        copy = strdup(value);
        if (!copy)
                return -ENOMEM;
        free(*(char **)field);
        *(char **)field = copy;
        return 0;
}

static int read_double(sd_bus_message *m, struct ctl_status *s, void *field)
{
        int r = sd_bus_message_read_basic(m, 'd', field);

        return r < 0 ? r : 0;
}

static int read_int32(sd_bus_message *m, struct ctl_status *s, void *field)
{
        int r = sd_bus_message_read_basic(m, 'i', field);

        return r < 0 ? r : 0;
}

static int read_uint64(sd_bus_message *m, struct ctl_status *s, void *field)
{
        int r = sd_bus_message_read_basic(m, 't', field);

        return r < 0 ? r : 0;
}

static int read_strv(sd_bus_message *m, struct ctl_status *s, void *field)
{
        char **l = NULL;
        int r;

        r = sd_bus_message_read_strv(m, &l);
        if (r < 0)
                return r;
        strv_free(*(char ***)field);
        *(char ***)field = l;
        return 0;
}

static int read_scores(sd_bus_message *m, struct ctl_status *s, void *field)
{
        int r;

        r = sd_bus_message_enter_container(m, 'a', "{sd}");
        if (r < 0)
                return r;
        for (;;) {
                const char *name;
                double value;
                struct ctl_named_double *a;

                r = sd_bus_message_read(m, "{sd}", &name, &value);
                if (r <= 0)
                        break;
                a = realloc(s->scores, (s->n_scores + 1) * sizeof(*a));
                if (!a)
                        return -ENOMEM;
                s->scores = a;
                a[s->n_scores].name = strdup(name);
                if (!a[s->n_scores].name)
                        return -ENOMEM;
                a[s->n_scores++].value = value;
        }
        if (r < 0)
                return r;
        return sd_bus_message_exit_container(m);
}

static int read_time_in_level(sd_bus_message *m, struct ctl_status *s, void *field)
{
        int r;

        r = sd_bus_message_enter_container(m, 'a', "{st}");
        if (r < 0)
                return r;
        for (;;) {
                const char *name;
                uint64_t usec;
                struct ctl_named_usec *a;

                r = sd_bus_message_read(m, "{st}", &name, &usec);
                if (r <= 0)
                        break;
                a = realloc(s->time_in_level, (s->n_time_in_level + 1) * sizeof(*a));
                if (!a)
                        return -ENOMEM;
                s->time_in_level = a;
                a[s->n_time_in_level].name = strdup(name);
                if (!a[s->n_time_in_level].name)
                        return -ENOMEM;
                a[s->n_time_in_level++].usec = usec;
        }
        if (r < 0)
                return r;
        return sd_bus_message_exit_container(m);
}

static void limits_free(struct ctl_limit *l, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                free(l[i].name);
                free(l[i].source);
                free(l[i].origin);
        }
        free(l);
}

static int read_limits(sd_bus_message *m, struct ctl_status *s, void *field)
{
        int r;

        limits_free(s->limits, s->n_limits);
        s->limits = NULL;
        s->n_limits = 0;
        r = sd_bus_message_enter_container(m, 'a', "(siss)");
        if (r < 0)
                return r;
        for (;;) {
                const char *name, *source, *origin;
                struct ctl_limit *a;
                int32_t mc;

                r = sd_bus_message_read(m, "(siss)", &name, &mc, &source, &origin);
                if (r <= 0)
                        break;
                a = realloc(s->limits, (s->n_limits + 1) * sizeof(*a));
                if (!a)
                        return -ENOMEM;
                s->limits = a;
                a[s->n_limits] = (struct ctl_limit){
                        .name = strdup(name), .mc = mc, .source = strdup(source), .origin = strdup(origin),
                };
                if (!a[s->n_limits++].name || !a[s->n_limits - 1].source || !a[s->n_limits - 1].origin)
                        return -ENOMEM;
        }
        if (r < 0)
                return r;
        return sd_bus_message_exit_container(m);
}

static int read_holds(sd_bus_message *m, struct ctl_status *s, void *field)
{
        client_holds_free(s->holds, s->n_holds);
        s->holds = NULL;
        s->n_holds = 0;
        return client_read_holds(m, &s->holds, &s->n_holds);
}

static int read_switch_cost(sd_bus_message *m, struct ctl_status *s, void *field)
{
        struct ctl_switch_cost *c = field;
        int r;

        r = sd_bus_message_read(m, "(ddudud)", &c->fixed_us, &c->per_cpu_us, &c->measured, &c->last_us,
                                &c->last_cpus, &c->max_us);
        if (r < 0)
                return r;
        c->known = true;
        return 0;
}

static int read_settle(sd_bus_message *m, struct ctl_status *s, void *field)
{
        struct ctl_settle *t = field;
        int r;

        r = sd_bus_message_read(m, "(tttuut)", &t->last_usec, &t->mean_usec, &t->max_usec, &t->windows,
                                &t->bounded, &t->discounted);
        if (r < 0)
                return r;
        t->known = true;
        return 0;
}

static int read_idle_wake(sd_bus_message *m, struct ctl_status *s, void *field)
{
        struct ctl_idle_wake *w = field;
        const char *state;
        int r;

        r = sd_bus_message_read(m, "(stt)", &state, &w->wakes, &w->idle_paced);
        if (r < 0)
                return r;
        free(w->state);
        w->state = strdup(state);
        if (!w->state)
                return -ENOMEM;
        w->known = true;
        return 0;
}

static void unreachable_free(struct ctl_unreachable *u, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                free(u[i].level);
                free(u[i].why);
        }
        free(u);
}

static int read_unreachable(sd_bus_message *m, struct ctl_status *s, void *field)
{
        int r;

        unreachable_free(s->unreachable, s->n_unreachable);
        s->unreachable = NULL;
        s->n_unreachable = 0;
        r = sd_bus_message_enter_container(m, 'a', "(ss)");
        if (r < 0)
                return r;
        for (;;) {
                const char *level, *why;
                struct ctl_unreachable *a;

                r = sd_bus_message_read(m, "(ss)", &level, &why);
                if (r <= 0)
                        break;
                a = realloc(s->unreachable, (s->n_unreachable + 1) * sizeof(*a));
                if (!a)
                        return -ENOMEM;
                s->unreachable = a;
                a[s->n_unreachable] = (struct ctl_unreachable){ .level = strdup(level), .why = strdup(why) };
                if (!a[s->n_unreachable++].level || !a[s->n_unreachable - 1].why)
                        return -ENOMEM;
        }
        if (r < 0)
                return r;
        return sd_bus_message_exit_container(m);
}

static int read_winning_hold(sd_bus_message *m, struct ctl_status *s, void *field)
{
        const char *why;
        int r;

        r = sd_bus_message_read(m, "(us)", &s->winning_hold, &why);
        if (r < 0)
                return r;
        free(s->winning_hold_why);
        s->winning_hold_why = strdup(why);
        return s->winning_hold_why ? 0 : -ENOMEM;
}

#define FIELD(f) offsetof(struct ctl_status, f)

static const struct property properties[] = {
        { "Mode", "s", FIELD(mode), read_string },
        { "ModeReason", "s", FIELD(mode_reason), read_string },
        { "Level", "s", FIELD(level), read_string },
        { "TargetLevel", "s", FIELD(target_level), read_string },
        { "Levels", "as", FIELD(levels), read_strv },
        { "Demand", "d", FIELD(demand), read_double },
        { "UpThreshold", "d", FIELD(up_threshold), read_double },
        { "DownThreshold", "d", FIELD(down_threshold), read_double },
        { "Scores", "a{sd}", FIELD(scores), read_scores },
        { "Temperature", "i", FIELD(temperature), read_int32 },
        { "ThermalState", "s", FIELD(thermal_state), read_string },
        { "ThermalLimits", "a(siss)", FIELD(limits), read_limits },
        { "Holds", "a(usuisssttb)", FIELD(holds), read_holds },
        { "Backend", "s", FIELD(backend), read_string },
        { "Topology", "s", FIELD(topology), read_string },
        { "EnergyModel", "s", FIELD(energy_model), read_string },
        { "Switches", "t", FIELD(switches), read_uint64 },
        { "TimeInLevel", "a{st}", FIELD(time_in_level), read_time_in_level },
        { "LastReason", "s", FIELD(last_reason), read_string },
        { "ConfigFiles", "as", FIELD(config_files), read_strv },
        { "SwitchCost", "(ddudud)", FIELD(cost), read_switch_cost },
        { "Settle", "(tttuut)", FIELD(settle), read_settle },
        { "Unreachable", "a(ss)", FIELD(unreachable), read_unreachable },
        { "IdleWake", "(stt)", FIELD(idle_wake), read_idle_wake },
        { "WinningHold", "(us)", FIELD(winning_hold), read_winning_hold },
        { "ProfileAdjustment", "s", FIELD(profile_adjustment), read_string },
};

/* The value of property 'name', inside its variant of signature 'sig'.
 * Returns 1 when read, 0 when switchctl does not know the property (or
 * not with this signature), or a negative errno. */
static int read_property(sd_bus_message *m, const char *name, const char *sig, struct ctl_status *s)
{
        for (size_t i = 0; i < sizeof(properties) / sizeof(properties[0]); i++)
                if (strcmp(name, properties[i].name) == 0) {
                        int r;

                        if (strcmp(sig, properties[i].signature) != 0)
                                return 0;
                        r = properties[i].read(m, s, (char *)s + properties[i].offset);
                        return r < 0 ? r : 1;
                }
        return 0;
}

void client_status_done(struct ctl_status *s)
{
        for (size_t i = 0; i < sizeof(properties) / sizeof(properties[0]); i++)
                if (properties[i].read == read_string)
                        free(*(char **)((char *)s + properties[i].offset));
        strv_free(s->levels);
        strv_free(s->config_files);
        for (size_t i = 0; i < s->n_scores; i++)
                free(s->scores[i].name);
        free(s->scores);
        for (size_t i = 0; i < s->n_time_in_level; i++)
                free(s->time_in_level[i].name);
        free(s->time_in_level);
        client_holds_free(s->holds, s->n_holds);
        limits_free(s->limits, s->n_limits);
        unreachable_free(s->unreachable, s->n_unreachable);
        free(s->idle_wake.state);
        free(s->winning_hold_why);
        *s = (struct ctl_status){ .temperature = -1 };
}

int client_parse_status(sd_bus_message *m, struct ctl_status *s)
{
        int r;

        *s = (struct ctl_status){ .temperature = -1 };
        r = sd_bus_message_enter_container(m, 'a', "{sv}");
        while (r >= 0) {
                const char *name, *sig;
                char type;

                r = sd_bus_message_enter_container(m, 'e', "sv");
                if (r <= 0)
                        break;
                r = sd_bus_message_read_basic(m, 's', &name);
                if (r >= 0)
                        r = sd_bus_message_peek_type(m, &type, &sig);
                if (r < 0)
                        break;
                /* Properties of a newer daemon, or of another type, are passed over. */
                r = sd_bus_message_enter_container(m, 'v', sig);
                if (r >= 0)
                        r = read_property(m, name, sig, s);
                if (r == 0)
                        r = sd_bus_message_skip(m, sig);
                if (r >= 0)
                        r = sd_bus_message_exit_container(m);
                if (r >= 0)
                        r = sd_bus_message_exit_container(m);
        }
        if (r >= 0)
                r = sd_bus_message_exit_container(m);
        if (r < 0)
                client_status_done(s);
        return r < 0 ? r : 0;
}

int client_read_status(sd_bus *bus, struct ctl_status *s, sd_bus_error *error)
{
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
        int r;

        *s = (struct ctl_status){ .temperature = -1 };
        r = sd_bus_call_method(bus, SWITCH1_NAME, SWITCH1_PATH, "org.freedesktop.DBus.Properties", "GetAll",
                               error, &reply, "s", SWITCH1_IFACE);
        if (r < 0)
                return r;
        return client_parse_status(reply, s);
}

void client_history_free(struct ctl_switch *s, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                free(s[i].from);
                free(s[i].to);
                free(s[i].reason);
        }
        free(s);
}

int client_read_history(sd_bus *bus, uint32_t n, struct ctl_switch **ret, size_t *ret_n, sd_bus_error *error)
{
        sd_bus_message *reply = NULL;
        struct ctl_switch *list = NULL;
        size_t count = 0;
        int r;

        r = client_call(bus, "History", error, &reply, "u", n);
        if (r < 0)
                return r;
        r = sd_bus_message_enter_container(reply, 'a', "(ttsss)");
        while (r >= 0) {
                const char *from, *to, *reason;
                struct ctl_switch e = { 0 }, *a;

                r = sd_bus_message_read(reply, "(ttsss)", &e.when_wall, &e.when_monotonic, &from, &to,
                                        &reason);
                if (r <= 0)
                        break;
                a = realloc(list, (count + 1) * sizeof(*a));
                if (!a) {
                        r = -ENOMEM;
                        break;
                }
                list = a;
                e.from = strdup(from);
                e.to = strdup(to);
                e.reason = strdup(reason);
                list[count++] = e;
                if (!e.from || !e.to || !e.reason)
                        r = -ENOMEM;
        }
        if (r >= 0)
                r = sd_bus_message_exit_container(reply);
        sd_bus_message_unref(reply);
        if (r < 0) {
                client_history_free(list, count);
                return r;
        }
        *ret = list;
        *ret_n = count;
        return 0;
}

uint64_t client_time_in(const struct ctl_status *s, const char *level)
{
        for (size_t i = 0; i < s->n_time_in_level; i++)
                if (strcmp(s->time_in_level[i].name, level) == 0)
                        return s->time_in_level[i].usec;
        return 0;
}

int client_fetch_status(struct ctl_status *s)
{
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(sd_bus_unrefp) sd_bus *bus = NULL;
        int r;

        r = client_open(&bus, false);
        if (r != 0)
                return r;
        r = client_read_status(bus, s, &error);
        return r < 0 ? client_report(&error, r) : 0;
}
