/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * org.bigLittle.Switch1 end to end: the real bigLittled on a fake board,
 * on a private dbus-daemon of each test's own (DBUS_SYSTEM_BUS_ADDRESS),
 * called as root by the test and as nobody by a child that drops its uid;
 * polkit, where a test needs it, is a fake one on the same bus.
 *
 * Timing as in check_daemon.c: bounds far above what the delays need.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

#include "tests/integration/fake-polkit.h"
#include "tests/integration/harness.h"
#include "tests/integration/json-reader.h"
#include "tests/integration/run-as.h"

#define BUS_NAME "org.bigLittle.Switch1"
#define BUS_PATH "/org/bigLittle/Switch1"
#define BUS_IFACE "org.bigLittle.Switch1"
#define ERR(name) "org.bigLittle.Switch1.Error." name
#define DENIED_MESSAGE "not permitted: run as root or grant org.bigLittle.Switch1.manage"

#define SAMPLE_MS 20
#define UP_DELAY_MS 200
#define DOWN_DELAY_MS 300
#define SWITCH_BOUND_MS 2000

#define SEC UINT64_C(1000000)

static const unsigned idle_load[] = { 40 };
static const unsigned heavy_load[] = { 600, 600 };

/* The test's connection to its bus, as root. */
static sd_bus *bus;

/* What the daemon said on the bus, as our connection saw it. */
#define MAX_SEEN 64
struct seen {
        unsigned nswitched;
        char from[MAX_SEEN][72], to[MAX_SEEN][72], reason[MAX_SEEN][256];
        unsigned nchanged;
        char changed[MAX_SEEN][32];
};
static struct seen seen;

static const char system_policy[] = HARNESS_SYSTEM_BUS_POLICY(CONF_DIR);

static void setup(void)
{
        harness_setup();
        bus = NULL;
        memset(&seen, 0, sizeof(seen));
}

static void teardown(void)
{
        if (bus)
                sd_bus_flush_close_unref(bus);
        bus = NULL;
        harness_teardown();
}

static int on_switched(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        const char *from, *to, *reason;
        unsigned i = seen.nswitched;

        if (sd_bus_message_read(m, "sss", &from, &to, &reason) < 0 || i >= MAX_SEEN)
                return 0;
        snprintf(seen.from[i], sizeof(seen.from[i]), "%s", from);
        snprintf(seen.to[i], sizeof(seen.to[i]), "%s", to);
        snprintf(seen.reason[i], sizeof(seen.reason[i]), "%s", reason);
        seen.nswitched++;
        return 0;
}

static void note_changed(const char *name)
{
        if (seen.nchanged < MAX_SEEN)
                snprintf(seen.changed[seen.nchanged++], sizeof(seen.changed[0]), "%s", name);
}

static int on_properties_changed(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        const char *iface, *name;
        int r;

        if (sd_bus_message_read(m, "s", &iface) < 0 || strcmp(iface, BUS_IFACE) != 0)
                return 0;
        r = sd_bus_message_enter_container(m, 'a', "{sv}");
        while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
                if (sd_bus_message_read(m, "s", &name) < 0 || sd_bus_message_skip(m, "v") < 0)
                        return 0;
                note_changed(name);
                r = sd_bus_message_exit_container(m);
        }
        if (r < 0 || sd_bus_message_exit_container(m) < 0 || sd_bus_message_enter_container(m, 'a', "s") < 0)
                return 0;
        while (sd_bus_message_read(m, "s", &name) > 0)
                note_changed(name);
        return 0;
}

static bool name_owned(sd_bus *b)
{
        sd_bus_message *reply = NULL;
        int has = 0;

        if (sd_bus_call_method(b, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "NameHasOwner", NULL, &reply, "s", BUS_NAME) >= 0)
                (void)sd_bus_message_read(reply, "b", &has);
        sd_bus_message_unref(reply);
        return has;
}

static bool daemon_on_bus(struct fakeboard *board, void *userdata)
{
        return name_owned(bus) || !fakeboard_running(board);
}

static void connect_root(void)
{
        int r = sd_bus_open_system(&bus);

        ck_assert_msg(r >= 0, "cannot connect to the test bus: %s", strerror(-r));
        r = sd_bus_match_signal(bus, NULL, NULL, BUS_PATH, BUS_IFACE, "Switched", on_switched, NULL);
        ck_assert_int_ge(r, 0);
        r = sd_bus_match_signal(bus, NULL, NULL, BUS_PATH, "org.freedesktop.DBus.Properties",
                                "PropertiesChanged", on_properties_changed, NULL);
        ck_assert_int_ge(r, 0);
}

/* Starts the daemon and waits until it owns its name. */
static void start_daemon(const char *config)
{
        spawn_daemon(config, NULL);
        expect_line(0, "started: ", START_BOUND_MS);
        if (!bus)
                connect_root();
        ck_assert_int_eq(fakeboard_run(fb, START_BOUND_MS, daemon_on_bus, NULL), 1);
        ck_assert_msg(fakeboard_running(fb) && name_owned(bus), "the daemon is not on the bus; it said:%s",
                      log_text());
}

/* The usual start: the board idles at little under
 * HARNESS_PELT_NO_BREAK_EVEN_CONFIG (plus 'extra'). */
static void start_idle(const char *extra)
{
        char config[sizeof(HARNESS_PELT_NO_BREAK_EVEN_CONFIG) + 512];

        snprintf(config, sizeof(config), "%s%s", HARNESS_PELT_NO_BREAK_EVEN_CONFIG, extra ? extra : "");
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        harness_start_bus(NULL);
        start_daemon(write_config("bigLittle.conf", config));
}

static void pump(void)
{
        while (sd_bus_process(bus, NULL) > 0)
                ;
}

static bool changed_seen(const char *name)
{
        for (unsigned i = 0; i < seen.nchanged; i++)
                if (strcmp(seen.changed[i], name) == 0)
                        return true;
        return false;
}

static bool property_changed(struct fakeboard *board, void *userdata)
{
        (void)board;
        pump();
        return changed_seen(userdata);
}

static void expect_changed(const char *name)
{
        ck_assert_msg(fakeboard_run(fb, SWITCH_BOUND_MS, property_changed, (void *)name) == 1,
                      "no PropertiesChanged for %s", name);
}

static bool switched_seen(struct fakeboard *board, void *userdata)
{
        (void)board;
        pump();
        return seen.nswitched >= *(unsigned *)userdata;
}

static uint64_t wall_now(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec / 1000;
}

static uint64_t mono_now(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec / 1000;
}

/* Calls and properties. */

static int hold_with_flags(sd_bus *b, const char *level, uint64_t duration, const char *reason,
                           uint64_t flags, uint32_t *id, sd_bus_error *error)
{
        sd_bus_message *reply = NULL;
        int r;

        r = sd_bus_call_method(b, BUS_NAME, BUS_PATH, BUS_IFACE, "HoldWithFlags", error, &reply, "stst",
                               level, duration, reason, flags);
        if (r >= 0)
                r = sd_bus_message_read(reply, "u", id);
        sd_bus_message_unref(reply);
        return r;
}

static uint32_t hold_ok(sd_bus *b, const char *level, uint64_t duration, const char *reason, uint64_t flags)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        uint32_t id = 0;
        int r = hold_with_flags(b, level, duration, reason, flags, &id, &error);

        ck_assert_msg(r >= 0, "Hold(%s) failed: %s: %s", level, error.name, error.message);
        ck_assert_uint_gt(id, 0);
        return id;
}

static int call_u(sd_bus *b, const char *member, sd_bus_error *error, uint32_t *ret, const char *types, ...)
{
        sd_bus_message *reply = NULL;
        va_list ap;
        int r;

        va_start(ap, types);
        r = sd_bus_call_methodv(b, BUS_NAME, BUS_PATH, BUS_IFACE, member, error, &reply, types, ap);
        va_end(ap);
        if (r >= 0 && ret)
                r = sd_bus_message_read(reply, "u", ret);
        sd_bus_message_unref(reply);
        return r;
}

static void expect_error(int r, sd_bus_error *error, const char *name, const char *contains)
{
        ck_assert_msg(r < 0, "the call succeeded; expected %s", name);
        ck_assert_msg(sd_bus_error_has_name(error, name), "error %s (%s); expected %s", error->name,
                      error->message, name);
        if (contains)
                ck_assert_msg(strstr(error->message, contains), "error message \"%s\" lacks \"%s\"",
                              error->message, contains);
        sd_bus_error_free(error);
}

static char *get_string(const char *property)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        char *value = NULL;
        int r = sd_bus_get_property_string(bus, BUS_NAME, BUS_PATH, BUS_IFACE, property, &error, &value);

        ck_assert_msg(r >= 0, "Get(%s): %s", property, error.message);
        return value;
}

static void assert_property(const char *property, const char *want)
{
        char *value = get_string(property);

        ck_assert_msg(strcmp(value, want) == 0, "%s is \"%s\", expected \"%s\"", property, value, want);
        free(value);
}

struct level_wait {
        const char *property, *want;
};

static bool property_is(struct fakeboard *board, void *userdata)
{
        struct level_wait *w = userdata;
        char *value = get_string(w->property);
        bool ok = strcmp(value, w->want) == 0;

        (void)board;
        free(value);
        return ok;
}

static void expect_property(const char *property, const char *want, unsigned timeout_ms)
{
        struct level_wait w = { property, want };

        if (fakeboard_run(fb, timeout_ms, property_is, &w) != 1) {
                char *value = get_string(property);

                ck_abort_msg("%s is \"%s\", not \"%s\", after %u ms", property, value, want, timeout_ms);
        }
}

static void get_trivial(const char *property, char type, void *ret)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        int r = sd_bus_get_property_trivial(bus, BUS_NAME, BUS_PATH, BUS_IFACE, property, &error, type, ret);

        ck_assert_msg(r >= 0, "Get(%s): %s", property, error.message);
}

static double get_double(const char *property)
{
        double v = NAN;

        get_trivial(property, 'd', &v);
        return v;
}

/* The property's value, entered: ready to read 'contents' from. */
static sd_bus_message *get_container(const char *property, const char *type, const char *contents)
{
        sd_bus_message *reply = NULL;
        char signature[64];

        snprintf(signature, sizeof(signature), "%s%s", type, contents);
        int r = sd_bus_get_property(bus, BUS_NAME, BUS_PATH, BUS_IFACE, property, NULL, &reply, signature);

        ck_assert_int_ge(r, 0);
        ck_assert_int_ge(sd_bus_message_enter_container(reply, type[0], contents), 0);
        return reply;
}

/* A method's reply, or a failed test. */
static sd_bus_message *call_ok(sd_bus *b, const char *iface, const char *member, const char *types, ...)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_message *reply = NULL;
        va_list ap;
        int r;

        va_start(ap, types);
        r = sd_bus_call_methodv(b, BUS_NAME, BUS_PATH, iface, member, &error, &reply, types, ap);
        va_end(ap);
        ck_assert_msg(r >= 0, "%s(): %s", member, error.message);
        return reply;
}

struct hold_info {
        uint32_t id, uid;
        int32_t pid;
        char level[32], unit[128], owner[64], reason[256];
        uint64_t since_wall, until_wall;
        bool persist;
};

static unsigned read_holds(struct hold_info *out, unsigned size)
{
        sd_bus_message *reply = NULL;
        const char *level, *unit, *owner, *reason;
        uint32_t id, uid;
        int32_t pid;
        uint64_t since, until;
        int persist, r;
        unsigned n = 0;

        reply = get_container("Holds", "a", "(usuisssttb)");
        while ((r = sd_bus_message_read(reply, "(usuisssttb)", &id, &level, &uid, &pid, &unit, &owner,
                                        &reason, &since, &until, &persist)) > 0) {
                ck_assert_uint_lt(n, size);
                out[n] = (struct hold_info){ .id = id, .uid = uid, .pid = pid, .since_wall = since,
                                             .until_wall = until, .persist = persist };
                snprintf(out[n].level, sizeof(out[n].level), "%s", level);
                snprintf(out[n].unit, sizeof(out[n].unit), "%s", unit);
                snprintf(out[n].owner, sizeof(out[n].owner), "%s", owner);
                snprintf(out[n].reason, sizeof(out[n].reason), "%s", reason);
                n++;
        }
        ck_assert_int_eq(r, 0);
        sd_bus_message_unref(reply);
        return n;
}

static unsigned count_holds(void)
{
        struct hold_info h[64];

        return read_holds(h, 64);
}

static bool holds_are(struct fakeboard *board, void *userdata)
{
        (void)board;
        return count_holds() == *(unsigned *)userdata;
}

static void expect_holds(unsigned n, unsigned timeout_ms)
{
        ck_assert_msg(fakeboard_run(fb, timeout_ms, holds_are, &n) == 1, "%u holds, not %u, after %u ms",
                      count_holds(), n, timeout_ms);
}

static char *describe(sd_bus *b)
{
        sd_bus_message *reply = call_ok(b, BUS_IFACE, "Describe", NULL);
        const char *text;
        char *copy;

        ck_assert_int_ge(sd_bus_message_read(reply, "s", &text), 0);
        copy = strdup(text);
        sd_bus_message_unref(reply);
        ck_assert_ptr_nonnull(copy);
        return copy;
}

static unsigned count_newlines(const char *text)
{
        unsigned n = 0;

        for (const char *p = text; (p = strchr(p, '\n')); p++)
                n++;
        return n;
}

/* A struct property's value, entered. */
static sd_bus_message *get_struct(const char *property, const char *contents)
{
        sd_bus_message *reply = NULL;
        char signature[64];

        snprintf(signature, sizeof(signature), "(%s)", contents);
        ck_assert_int_ge(sd_bus_get_property(bus, BUS_NAME, BUS_PATH, BUS_IFACE, property, NULL, &reply,
                                             signature), 0);
        ck_assert_int_ge(sd_bus_message_enter_container(reply, 'r', contents), 0);
        return reply;
}

/* The initial level took CPUs 4-7 offline: one switch of 4 CPUs measured,
 * its time in the estimate; the kernel settled after it, within the
 * window's bound; no level found unreachable. */
static void assert_cost_properties(void)
{
        sd_bus_message *reply;
        double fixed, per_cpu, last, longest;
        uint64_t settle_last, settle_mean, settle_max, discounted;
        uint32_t measured, last_cpus, windows, bounded;
        const char *level, *why;

        reply = get_struct("SwitchCost", "ddudud");
        ck_assert_int_gt(sd_bus_message_read(reply, "ddudud", &fixed, &per_cpu, &measured, &last, &last_cpus,
                                             &longest), 0);
        sd_bus_message_unref(reply);
        ck_assert_uint_eq(measured, 1);
        ck_assert_uint_eq(last_cpus, 4);
        /* a fake kernel: more than nothing, far less than a second */
        ck_assert_msg(last > 0 && last < 1e6, "last switch %g us", last);
        ck_assert_double_eq_tol(longest, last, 1e-9);
        /* one size measured: the mean, split as the hotplug prior splits it */
        ck_assert_double_eq_tol(fixed + 4 * per_cpu, last, 1e-6);
        ck_assert_double_eq_tol(per_cpu / fixed, 30000.0 / 5000.0, 1e-6);

        reply = get_struct("Settle", "tttuut");
        ck_assert_int_gt(sd_bus_message_read(reply, "tttuut", &settle_last, &settle_mean, &settle_max,
                                             &windows, &bounded, &discounted), 0);
        sd_bus_message_unref(reply);
        ck_assert_uint_eq(windows, 1);
        ck_assert_uint_le(bounded, 1);
        ck_assert_uint_le(settle_last, 10 * SEC);
        ck_assert_uint_eq(settle_max, settle_last);
        ck_assert_uint_eq(settle_mean, settle_last);

        reply = get_container("Unreachable", "a", "(ss)");
        ck_assert_int_eq(sd_bus_message_read(reply, "(ss)", &level, &why), 0);
        sd_bus_message_unref(reply);
}

/* The tests. */

START_TEST(test_properties)
{
        static const char *const expected[][2] = {
                { "Mode", "s" },
                { "ModeReason", "s" },
                { "Level", "s" },
                { "TargetLevel", "s" },
                { "Levels", "as" },
                { "Demand", "d" },
                { "UpThreshold", "d" },
                { "DownThreshold", "d" },
                { "Scores", "a{sd}" },
                { "Temperature", "i" },
                { "ThermalState", "s" },
                { "ThermalLimits", "a(siss)" },
                { "Holds", "a(usuisssttb)" },
                { "WinningHold", "(us)" },
                { "PowerProfile", "s" },
                { "PowerProfileSource", "s" },
                { "OnBattery", "s" },
                { "ProfileAdjustment", "s" },
                { "Backend", "s" },
                { "Topology", "s" },
                { "EnergyModel", "s" },
                { "Switches", "t" },
                { "TimeInLevel", "a{st}" },
                { "LastReason", "s" },
                { "ConfigFiles", "as" },
                { "SwitchCost", "(ddudud)" },
                { "Settle", "(tttuut)" },
                { "Unreachable", "a(ss)" },
        };
        const unsigned nexpected = sizeof(expected) / sizeof(expected[0]);
        bool found[sizeof(expected) / sizeof(expected[0])] = { false };
        sd_bus_message *reply = NULL;
        const char *name, *contents, *config, *s1, *s2;
        char **strv = NULL;
        uint64_t t, little = 0, big = UINT64_MAX, switches = 1;
        int32_t temp = 0;
        double score;
        unsigned nscores = 0;
        int r;

        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        harness_start_bus(NULL);
        config = write_config("bigLittle.conf", HARNESS_PELT_NO_BREAK_EVEN_CONFIG);
        start_daemon(config);
        ck_assert_int_eq(fakeboard_run_for(fb, 200), 0);

        /* GetAll has every property, each with its signature. */
        reply = call_ok(bus, "org.freedesktop.DBus.Properties", "GetAll", "s", BUS_IFACE);
        ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', "{sv}"), 0);
        while ((r = sd_bus_message_enter_container(reply, 'e', "sv")) > 0) {
                unsigned i;

                ck_assert_int_ge(sd_bus_message_read(reply, "s", &name), 0);
                ck_assert_int_ge(sd_bus_message_peek_type(reply, NULL, &contents), 0);
                for (i = 0; i < nexpected; i++)
                        if (strcmp(expected[i][0], name) == 0)
                                break;
                ck_assert_msg(i < nexpected, "unexpected property %s", name);
                ck_assert_msg(strcmp(expected[i][1], contents) == 0, "%s has signature %s, not %s", name,
                              contents, expected[i][1]);
                found[i] = true;
                ck_assert_int_ge(sd_bus_message_skip(reply, "v"), 0);
                ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
        }
        ck_assert_int_eq(r, 0);
        sd_bus_message_unref(reply);
        for (unsigned i = 0; i < nexpected; i++)
                ck_assert_msg(found[i], "GetAll lacks %s", expected[i][0]);

        assert_property("Mode", "cluster");
        s1 = get_string("ModeReason");
        ck_assert_msg(strstr(s1, "auto"), "ModeReason: %s", s1);
        free((char *)s1);
        assert_property("Level", "little");
        assert_property("TargetLevel", "little");
        assert_property("ThermalState", "normal");
        assert_property("Backend", "hotplug");
        assert_property("Topology", "cpufreq related_cpus + cpu_capacity");
        /* the fake board has no debugfs, and energy_model is left at auto */
        assert_property("EnergyModel", "none (no debugfs energy model; set energy_model=)");
        assert_property("LastReason", "");

        ck_assert_int_ge(sd_bus_get_property_strv(bus, BUS_NAME, BUS_PATH, BUS_IFACE, "Levels", NULL, &strv),
                         0);
        ck_assert_ptr_nonnull(strv[0]);
        ck_assert_str_eq(strv[0], "little");
        ck_assert_ptr_nonnull(strv[1]);
        ck_assert_str_eq(strv[1], "big");
        ck_assert_ptr_null(strv[2]);
        for (char **p = strv; *p; p++)
                free(*p);
        free(strv);
        ck_assert_int_ge(
                sd_bus_get_property_strv(bus, BUS_NAME, BUS_PATH, BUS_IFACE, "ConfigFiles", NULL, &strv), 0);
        ck_assert_ptr_nonnull(strv[0]);
        ck_assert_str_eq(strv[0], config);
        ck_assert_ptr_null(strv[1]);
        free(strv[0]);
        free(strv);

        /* Thresholds from the current level: up at 80% of little's 377,
         * nothing below little. */
        ck_assert_double_eq_tol(get_double("UpThreshold"), 301.6, 1e-9);
        ck_assert_double_eq_tol(get_double("DownThreshold"), 0.0, 1e-9);
        ck_assert(get_double("Demand") >= 0.0 && get_double("Demand") < 200.0);

        reply = get_container("Scores", "a", "{sd}");
        while (sd_bus_message_read(reply, "{sd}", &s2, &score) > 0) {
                ck_assert_msg(isfinite(score) && score >= 0.0, "score of %s: %g", s2, score);
                nscores++;
        }
        sd_bus_message_unref(reply);
        ck_assert_uint_ge(nscores, 1);

        get_trivial("Switches", 't', &switches);
        ck_assert_uint_eq(switches, 0);

        /* The hottest watched zone, as the last tick read it. */
        ck_assert_int_eq(fakeboard_set_temp(fb, 1, 61500), 0);
        ck_assert_int_eq(fakeboard_run_for(fb, 200), 0);
        get_trivial("Temperature", 'i', &temp);
        ck_assert_int_eq(temp, 61500);

        /* Limits from the board's trips: passive 70 °C, hot 85 °C. */
        reply = get_container("ThermalLimits", "a", "(siss)");
        ck_assert_int_gt(sd_bus_message_read(reply, "(siss)", &s1, &temp, &s2, &name), 0);
        ck_assert_str_eq(s1, "cap");
        ck_assert_int_eq(temp, 65000);
        ck_assert_str_eq(s2, "trip");
        ck_assert_str_eq(name, "thermal_zone0 cpu0-thermal passive trip 70.0 °C − 5");
        ck_assert_int_gt(sd_bus_message_read(reply, "(siss)", &s1, &temp, &s2, &name), 0);
        ck_assert_str_eq(s1, "release");
        ck_assert_int_eq(temp, 60000);
        ck_assert_int_gt(sd_bus_message_read(reply, "(siss)", &s1, &temp, &s2, &name), 0);
        ck_assert_str_eq(s1, "critical");
        ck_assert_int_eq(temp, 80000);
        ck_assert_str_eq(name, "thermal_zone0 cpu0-thermal hot trip 85.0 °C − 5");
        ck_assert_int_eq(sd_bus_message_read(reply, "(siss)", &s1, &temp, &s2, &name), 0);
        sd_bus_message_unref(reply);

        /* Time at little grows while it runs; none at big. */
        reply = get_container("TimeInLevel", "a", "{st}");
        while (sd_bus_message_read(reply, "{st}", &s2, &t) > 0) {
                if (strcmp(s2, "little") == 0)
                        little = t;
                else if (strcmp(s2, "big") == 0)
                        big = t;
        }
        sd_bus_message_unref(reply);
        ck_assert_msg(little >= 300000 && little < 60 * SEC, "time at little %" PRIu64 " us", little);
        ck_assert_uint_eq(big, 0);
        ck_assert_uint_eq(count_holds(), 0);
        assert_cost_properties();
}
END_TEST

START_TEST(test_describe_json)
{
        static const char reason[] = "say \"hi\" \\ caf\xc3\xa9 / {not json}";
        char *text, path[64];
        uint32_t id;

        start_idle(NULL);
        text = describe(bus);
        ck_assert_msg(json_valid(text), "not JSON: %s", text);
        ck_assert_str_eq(json_get_string(text, "mode"), "cluster");
        ck_assert_str_eq(json_get_string(text, "level"), "little");
        ck_assert_str_eq(json_get_string(text, "target_level"), "little");
        ck_assert_str_eq(json_get_string(text, "levels.0"), "little");
        ck_assert_str_eq(json_get_string(text, "levels.1"), "big");
        ck_assert_ptr_null(json_get(text, "levels.2"));
        ck_assert_str_eq(json_get_string(text, "backend"), "hotplug");
        ck_assert_str_eq(json_get_string(text, "topology"), "cpufreq related_cpus + cpu_capacity");
        ck_assert_str_eq(json_get_string(text, "thermal.state"), "normal");
        ck_assert_double_eq_tol(json_get_number(text, "thermal.temperature_mc"), 47000, 1e-9);
        ck_assert_double_eq_tol(json_get_number(text, "thermal_limits.cap_mc"), 65000, 1e-9);
        ck_assert_str_eq(json_get_string(text, "thermal_limits.cap_source"), "trip");
        ck_assert_str_eq(json_get_string(text, "thermal_limits.cap_origin"),
                         "thermal_zone0 cpu0-thermal passive trip 70.0 °C − 5");
        ck_assert_double_eq_tol(json_get_number(text, "thermal_limits.release_mc"), 60000, 1e-9);
        ck_assert_str_eq(json_get_string(text, "thermal_limits.release_origin"), "cap 65.0 °C − 5");
        ck_assert_double_eq_tol(json_get_number(text, "thermal_limits.critical_mc"), 80000, 1e-9);
        ck_assert_str_eq(json_get_string(text, "thermal_limits.critical_source"), "trip");
        ck_assert_double_eq_tol(json_get_number(text, "thresholds.up"), 301.6, 1e-9);
        /* At the lowest level there is no way down: null, not 0. */
        ck_assert_int_eq(strncmp(json_get(text, "thresholds.down"), "null", 4), 0);
        ck_assert_double_eq_tol(json_get_number(text, "switches"), 0, 1e-9);
        ck_assert(json_get_number(text, "demand") >= 0);
        ck_assert(json_get_number(text, "time_in_level_usec.little") > 0);
        ck_assert_double_eq_tol(json_get_number(text, "time_in_level_usec.big"), 0, 1e-9);
        ck_assert_str_eq(json_get_string(text, "last_reason"), "");
        ck_assert_ptr_nonnull(json_get(text, "config_files.0"));
        ck_assert_ptr_nonnull(json_get(text, "scores"));
        ck_assert(*json_get(text, "scores") == '{');
        ck_assert(*json_get(text, "holds") == '[');
        ck_assert_ptr_null(json_get(text, "holds.0"));
        free(text);

        /* A hold with characters JSON must escape. */
        id = hold_ok(bus, "big", 600 * SEC, reason, 1);
        text = describe(bus);
        ck_assert_msg(json_valid(text), "not JSON: %s", text);
        ck_assert_msg(strstr(text, "say \\\"hi\\\" \\\\ caf\xc3\xa9 / {not json}"),
                      "reason escaped wrongly: %s", text);
        ck_assert_str_eq(json_get_string(text, "level"), "big");
        ck_assert_double_eq_tol(json_get_number(text, "holds.0.id"), id, 1e-9);
        ck_assert_str_eq(json_get_string(text, "holds.0.level"), "big");
        ck_assert_double_eq_tol(json_get_number(text, "holds.0.uid"), 0, 1e-9);
        ck_assert_double_eq_tol(json_get_number(text, "holds.0.pid"), getpid(), 1e-9);
        ck_assert_ptr_nonnull(json_get(text, "holds.0.unit"));
        ck_assert_str_eq(json_get_string(text, "holds.0.reason"), reason);
        ck_assert(*json_get(text, "holds.0.persist") == 't');
        ck_assert(json_get_number(text, "holds.0.until_wall_usec") -
                          json_get_number(text, "holds.0.since_wall_usec") ==
                  600.0 * SEC);
        ck_assert_ptr_null(json_get(text, "holds.1"));
        snprintf(path, sizeof(path), "holds.0.since_wall_usec");
        ck_assert(fabs(json_get_number(text, path) - (double)wall_now()) < 60.0 * SEC);
        free(text);
}
END_TEST

START_TEST(test_hold_and_release)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        struct hold_info h[8];
        const char *unique = NULL;
        uint64_t before = wall_now();
        uint32_t id = 0;
        unsigned want = 1;
        int r;

        start_idle(NULL);
        ck_assert_int_ge(sd_bus_get_unique_name(bus, &unique), 0);
        ck_assert_uint_eq(seen.nswitched, 0);

        /* Hold(), the three-argument form: in force at once. */
        r = call_u(bus, "Hold", &error, &id, "sts", "big", 60 * SEC, "benchmark run");
        ck_assert_msg(r >= 0, "Hold: %s", error.message);
        ck_assert_uint_gt(id, 0);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        /* the kernel's state comes a moment before the daemon hears its
         * switch ended */
        expect_property("Level", "big", 1000);
        assert_property("TargetLevel", "big");
        ck_assert_double_eq_tol(get_double("UpThreshold"), 0.0, 1e-9);
        ck_assert_double_eq_tol(get_double("DownThreshold"), 0.6 * 377, 1e-9);

        ck_assert_uint_eq(read_holds(h, 8), 1);
        ck_assert_uint_eq(h[0].id, id);
        ck_assert_str_eq(h[0].level, "big");
        ck_assert_uint_eq(h[0].uid, 0);
        ck_assert_int_eq(h[0].pid, getpid());
        ck_assert_str_eq(h[0].owner, unique);
        ck_assert_str_eq(h[0].reason, "benchmark run");
        ck_assert(!h[0].persist);
        ck_assert(h[0].since_wall >= before - SEC && h[0].since_wall <= wall_now() + SEC);
        ck_assert_uint_eq(h[0].until_wall - h[0].since_wall, 60 * SEC);

        /* Switched, and the changes, were announced. */
        ck_assert_int_eq(fakeboard_run(fb, SWITCH_BOUND_MS, switched_seen, &want), 1);
        ck_assert_str_eq(seen.from[0], "little");
        ck_assert_str_eq(seen.to[0], "big");
        ck_assert_msg(strstr(seen.reason[0], "hold"), "reason: %s", seen.reason[0]);
        expect_changed("Holds");
        expect_changed("Level");
        expect_changed("Switches");
        expect_changed("LastReason");
        expect_changed("TimeInLevel");
        assert_property("LastReason", seen.reason[0]);

        /* The load does not move a hold. */
        expect_online_stays("0,4-7", 600);

        ck_assert_int_ge(call_u(bus, "Release", &error, NULL, "u", id), 0);
        ck_assert_uint_eq(count_holds(), 0);
        expect_online("0-3", DOWN_DELAY_MS + SWITCH_BOUND_MS);
        expect_property("Level", "little", 1000);
        expect_line(0, "released", 1000);

        r = call_u(bus, "Release", &error, NULL, "u", id);
        expect_error(r, &error, ERR("NoSuchHold"), "no hold has id");

        /* A hold whose owner is watched at exit: a clean stop (the
         * sanitizer build checks for leaks). */
        hold_ok(bus, "big", 60 * SEC, "at exit", 0);
        ck_assert_int_eq(stop_daemon(SIGTERM), 0);
}
END_TEST

/* History after switches the load made: oldest first, with reasons and
 * both clocks. */
START_TEST(test_history_and_switched_by_load)
{
        sd_bus_message *reply = NULL;
        uint64_t wall0 = wall_now(), mono0 = mono_now(), when_wall, when_mono;
        const char *from, *to, *reason;
        unsigned want = 2, n = 0;
        uint64_t switches = 0;
        int r;

        start_idle(NULL);
        ck_assert_int_eq(fakeboard_set_load(fb, heavy_load, 2), 0);
        expect_online("0,4-7", UP_DELAY_MS + SWITCH_BOUND_MS);
        expect_changed("TargetLevel");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        expect_online("0-3", DOWN_DELAY_MS + SWITCH_BOUND_MS);
        ck_assert_int_eq(fakeboard_run(fb, SWITCH_BOUND_MS, switched_seen, &want), 1);
        ck_assert_str_eq(seen.from[0], "little");
        ck_assert_str_eq(seen.to[0], "big");
        ck_assert_str_eq(seen.from[1], "big");
        ck_assert_str_eq(seen.to[1], "little");
        ck_assert_msg(strstr(seen.reason[0], "demand"), "reason: %s", seen.reason[0]);
        get_trivial("Switches", 't', &switches);
        ck_assert_uint_eq(switches, 2);

        /* n = 0: all kept, oldest first. */
        reply = call_ok(bus, BUS_IFACE, "History", "u", 0);
        ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', "(ttsss)"), 0);
        while (sd_bus_message_read(reply, "(ttsss)", &when_wall, &when_mono, &from, &to, &reason) > 0) {
                ck_assert_uint_lt(n, 2);
                ck_assert_str_eq(from, seen.from[n]);
                ck_assert_str_eq(to, seen.to[n]);
                ck_assert_str_eq(reason, seen.reason[n]);
                ck_assert(when_wall >= wall0 && when_wall <= wall_now());
                ck_assert(when_mono >= mono0 && when_mono <= mono_now());
                n++;
        }
        sd_bus_message_unref(reply);
        ck_assert_uint_eq(n, 2);

        /* n = 1: the newest only. */
        reply = call_ok(bus, BUS_IFACE, "History", "u", 1);
        ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', "(ttsss)"), 0);
        r = sd_bus_message_read(reply, "(ttsss)", &when_wall, &when_mono, &from, &to, &reason);
        ck_assert_int_gt(r, 0);
        ck_assert_str_eq(from, "big");
        ck_assert_str_eq(to, "little");
        r = sd_bus_message_read(reply, "(ttsss)", &when_wall, &when_mono, &from, &to, &reason);
        ck_assert_int_eq(r, 0);
        sd_bus_message_unref(reply);
}
END_TEST

START_TEST(test_bad_arguments)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        char reason[300];
        uint32_t id;
        int r;

        start_idle(NULL);
        r = hold_with_flags(bus, "medium", 60 * SEC, "", 0, &id, &error);
        expect_error(r, &error, ERR("UnknownLevel"), "unknown level \"medium\"; the levels are: little, big");
        r = hold_with_flags(bus, "", 60 * SEC, "", 0, &id, &error);
        expect_error(r, &error, ERR("UnknownLevel"), NULL);
        r = hold_with_flags(bus, "big", 0, "", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidDuration"), "max_duration_s");
        r = hold_with_flags(bus, "big", 3600 * SEC + 1, "", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidDuration"),
                     "a hold of 3600000001us is out of range: at most 1h ([holds] max_duration_s = 3600)");
        r = hold_with_flags(bus, "big", 2 * 3600 * SEC, "", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidDuration"),
                     "a hold of 2h is out of range: at most 1h ([holds] max_duration_s = 3600)");
        r = hold_with_flags(bus, "big", UINT64_MAX, "", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidDuration"), NULL);

        memset(reason, 'x', 256);
        reason[256] = '\0';
        r = hold_with_flags(bus, "big", 60 * SEC, reason, 0, &id, &error);
        expect_error(r, &error, ERR("InvalidReason"), "256 bytes");
        r = hold_with_flags(bus, "big", 60 * SEC, "two\nlines", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidReason"), "control characters");
        r = hold_with_flags(bus, "big", 60 * SEC, "bell\a", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidReason"), NULL);
        r = hold_with_flags(bus, "big", 60 * SEC, "", 2, &id, &error);
        expect_error(r, &error, SD_BUS_ERROR_INVALID_ARGS, "unknown flags 0x2");
        r = call_u(bus, "Release", &error, NULL, "u", 4242);
        expect_error(r, &error, ERR("NoSuchHold"), "4242");
        ck_assert_uint_eq(count_holds(), 0);
        assert_property("Level", "little");

        /* The limits themselves are fine: 255 bytes, the maximum duration. */
        reason[255] = '\0';
        hold_ok(bus, "little", 3600 * SEC, reason, 0);
        /* One uid may have 8. */
        for (unsigned i = 1; i < 8; i++)
                hold_ok(bus, "little", 60 * SEC, "", 0);
        r = hold_with_flags(bus, "little", 60 * SEC, "", 0, &id, &error);
        expect_error(r, &error, ERR("TooManyHolds"), "8 holds");
        ck_assert_uint_eq(count_holds(), 8);

        /* ReleaseAll as root ends them all. */
        ck_assert_int_ge(call_u(bus, "ReleaseAll", &error, &id, ""), 0);
        ck_assert_uint_eq(id, 8);
        ck_assert_uint_eq(count_holds(), 0);
        ck_assert(fakeboard_running(fb));
}
END_TEST

static void nobody_is_refused(sd_bus *b, FILE *out, void *userdata)
{
        uint32_t root_hold = *(uint32_t *)userdata, id = 0, count = 99;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        char *level = NULL, *text;
        int r;

        r = hold_with_flags(b, "big", 60 * SEC, "mine", 0, &id, &error);
        child_expect_error(out, "HoldWithFlags", r, &error, SD_BUS_ERROR_ACCESS_DENIED, DENIED_MESSAGE);
        r = hold_with_flags(b, "big", 60 * SEC, "mine", 1, &id, &error);
        child_expect_error(out, "HoldWithFlags(persist)", r, &error, SD_BUS_ERROR_ACCESS_DENIED,
                           DENIED_MESSAGE);
        r = call_u(b, "Hold", &error, &id, "sts", "big", 60 * SEC, "mine");
        child_expect_error(out, "Hold", r, &error, SD_BUS_ERROR_ACCESS_DENIED, DENIED_MESSAGE);
        r = sd_bus_set_property(b, BUS_NAME, BUS_PATH, BUS_IFACE, "Level", &error, "s", "big");
        child_expect_error(out, "Set(Level)", r, &error, SD_BUS_ERROR_PROPERTY_READ_ONLY, NULL);
        r = call_u(b, "Release", &error, NULL, "u", root_hold);
        child_expect_error(out, "Release of root's hold", r, &error, SD_BUS_ERROR_ACCESS_DENIED,
                           DENIED_MESSAGE);
        r = call_u(b, "Reload", &error, NULL, "");
        child_expect_error(out, "Reload", r, &error, SD_BUS_ERROR_ACCESS_DENIED, DENIED_MESSAGE);
        /* Bad arguments are said before authorization. */
        r = hold_with_flags(b, "nope", 60 * SEC, "", 0, &id, &error);
        child_expect_error(out, "Hold(nope)", r, &error, ERR("UnknownLevel"), NULL);
        /* Own holds only: none. */
        r = call_u(b, "ReleaseAll", &error, &count, "");
        child_expect_ok(out, "ReleaseAll", r, &error);
        if (r >= 0 && count != 0)
                fprintf(out, "ReleaseAll released %u holds of others\n", count);

        /* Reading is open. */
        r = sd_bus_get_property_string(b, BUS_NAME, BUS_PATH, BUS_IFACE, "Level", &error, &level);
        child_expect_ok(out, "Get(Level)", r, &error);
        if (r >= 0 && strcmp(level, "big") != 0)
                fprintf(out, "Level is %s\n", level);
        free(level);
        r = sd_bus_call_method(b, BUS_NAME, BUS_PATH, BUS_IFACE, "History", &error, NULL, "u", 0);
        child_expect_ok(out, "History", r, &error);
        {
                sd_bus_message *reply = NULL;

                r = sd_bus_call_method(b, BUS_NAME, BUS_PATH, BUS_IFACE, "Describe", &error, &reply, NULL);
                child_expect_ok(out, "Describe", r, &error);
                if (r >= 0 && (sd_bus_message_read(reply, "s", &text) < 0 || !json_valid(text)))
                        fprintf(out, "Describe gave no JSON\n");
                sd_bus_message_unref(reply);
        }
}

START_TEST(test_access_denied_for_nobody)
{
        uint32_t id;

        start_idle(NULL);
        id = hold_ok(bus, "big", 60 * SEC, "root's", 0);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        run_as_nobody(nobody_is_refused, &id);
        ck_assert_uint_eq(count_holds(), 1);
        ck_assert(fakeboard_find_line(fb, 0, "reload") < 0);
}
END_TEST

struct nobody_holds {
        uint32_t root_hold;
};

static void nobody_holds_own(sd_bus *b, FILE *out, void *userdata)
{
        struct nobody_holds *t = userdata;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        uint32_t id = 0, count = 0;
        int r;

        r = hold_with_flags(b, "little", 60 * SEC, "mine", 0, &id, &error);
        child_expect_ok(out, "Hold", r, &error);
        r = call_u(b, "Release", &error, NULL, "u", t->root_hold);
        child_expect_error(out, "Release of root's hold", r, &error, SD_BUS_ERROR_ACCESS_DENIED,
                           DENIED_MESSAGE);
        r = call_u(b, "Reload", &error, NULL, "");
        child_expect_error(out, "Reload", r, &error, SD_BUS_ERROR_ACCESS_DENIED, DENIED_MESSAGE);
        r = call_u(b, "Release", &error, NULL, "u", id);
        child_expect_ok(out, "Release of its own hold", r, &error);
        r = hold_with_flags(b, "little", 60 * SEC, "mine", 0, &id, &error);
        child_expect_ok(out, "Hold", r, &error);
        r = hold_with_flags(b, "little", 60 * SEC, "mine too", 0, &id, &error);
        child_expect_ok(out, "Hold", r, &error);
        r = call_u(b, "ReleaseAll", &error, &count, "");
        child_expect_ok(out, "ReleaseAll", r, &error);
        if (count != 2)
                fprintf(out, "ReleaseAll released %u, expected its 2\n", count);
        /* This one ends when the child's connection does. */
        r = hold_with_flags(b, "little", 60 * SEC, "until I leave", 0, &id, &error);
        child_expect_ok(out, "Hold", r, &error);
}

START_TEST(test_allow_users)
{
        struct nobody_holds t;
        struct hold_info h[8];

        start_idle("[holds]\nallow_users = yes\n");
        t.root_hold = hold_ok(bus, "big", 60 * SEC, "root's", 0);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        run_as_nobody(nobody_holds_own, &t);
        /* nobody's last hold ended with its connection; root's stays. */
        expect_holds(1, SWITCH_BOUND_MS);
        ck_assert_uint_eq(read_holds(h, 8), 1);
        ck_assert_uint_eq(h[0].id, t.root_hold);
        expect_line(0, "by uid 65534", 1000);
        expect_line(0, "it left the bus", 1000);
}
END_TEST

struct polkit_case {
        const char *unique_name_file;
        bool expect_allowed;
};

static void nobody_asks_polkit(sd_bus *b, FILE *out, void *userdata)
{
        const struct polkit_case *c = userdata;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        const char *unique = NULL;
        uint32_t id = 0;
        FILE *f;
        int r;

        if (sd_bus_get_unique_name(b, &unique) < 0 || !(f = fopen(c->unique_name_file, "w"))) {
                fprintf(out, "cannot say who I am\n");
                return;
        }
        fprintf(f, "%s", unique);
        fclose(f);
        r = hold_with_flags(b, "big", 60 * SEC, "polkit says", 1, &id, &error);
        if (c->expect_allowed)
                child_expect_ok(out, "Hold", r, &error);
        else
                child_expect_error(out, "Hold", r, &error, SD_BUS_ERROR_ACCESS_DENIED, DENIED_MESSAGE);
        /* The second question allows interaction. */
        (void)sd_bus_set_allow_interactive_authorization(b, 1);
        r = call_u(b, "Reload", &error, NULL, "");
        if (c->expect_allowed)
                child_expect_ok(out, "Reload", r, &error);
        else
                child_expect_error(out, "Reload", r, &error, SD_BUS_ERROR_ACCESS_DENIED, DENIED_MESSAGE);
}

START_TEST(test_polkit)
{
        struct polkit_case c = { .expect_allowed = false };
        char name_file[PATH_MAX + 16], unique[128] = "", want[512];
        struct hold_info h[8];
        unsigned n;
        FILE *f;

        snprintf(name_file, sizeof(name_file), "%s", work_file("unique-name"));
        c.unique_name_file = name_file;
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        harness_start_bus(NULL);
        start_fake_polkit();
        start_daemon(write_config("bigLittle.conf", HARNESS_PELT_NO_BREAK_EVEN_CONFIG));
        ck_assert_int_eq(chmod(harness_workdir(), 0777), 0);

        /* polkit says no. */
        run_as_nobody(nobody_asks_polkit, &c);
        ck_assert_uint_eq(count_holds(), 0);
        f = fopen(name_file, "r");
        ck_assert_ptr_nonnull(f);
        ck_assert_ptr_nonnull(fgets(unique, sizeof(unique), f));
        fclose(f);
        snprintf(want, sizeof(want),
                 "org.bigLittle.Switch1.manage system-bus-name %s 0\n"
                 "org.bigLittle.Switch1.manage system-bus-name %s 1\n",
                 unique, unique);
        ck_assert_str_eq(read_work_file("polkit.log"), want);

        /* polkit says yes: a persistent hold by nobody, and a reload. */
        polkit_allow(true);
        c.expect_allowed = true;
        run_as_nobody(nobody_asks_polkit, &c);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        n = read_holds(h, 8);
        ck_assert_uint_eq(n, 1);
        ck_assert_uint_eq(h[0].uid, NOBODY);
        ck_assert(h[0].persist);
        expect_line(0, "reload: applied", 1000);
        ck_assert_uint_eq(count_newlines(read_work_file("polkit.log")), 4);
        /* Root is not asked. */
        ck_assert_int_ge(call_u(bus, "Reload", NULL, NULL, ""), 0);
        ck_assert_uint_eq(count_newlines(read_work_file("polkit.log")), 4);
}
END_TEST

START_TEST(test_hold_expires)
{
        bl_usec_t placed, ended;

        start_idle(NULL);
        placed = fakeboard_now();
        hold_ok(bus, "big", SEC, "one second", 0);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        ended = expect_online("0-3", 1000 + DOWN_DELAY_MS + SWITCH_BOUND_MS);
        ck_assert_msg(ended - placed >= SEC, "back at little %.0f ms after a 1 s hold",
                      (double)(ended - placed) / 1000.0);
        expect_line(0, "expired", 1000);
        ck_assert_uint_eq(count_holds(), 0);
        expect_changed("Holds");
}
END_TEST

START_TEST(test_owner_gone)
{
        sd_bus *other = NULL, *third = NULL;
        struct hold_info h[8];
        uint32_t id;

        start_idle(NULL);
        ck_assert_int_ge(sd_bus_open_system(&other), 0);
        hold_ok(other, "big", 60 * SEC, "while I run", 0);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        sd_bus_flush_close_unref(other);
        expect_holds(0, SWITCH_BOUND_MS);
        expect_online("0-3", DOWN_DELAY_MS + SWITCH_BOUND_MS);
        expect_line(0, "it left the bus", 1000);

        /* A persistent hold outlives its connection. */
        ck_assert_int_ge(sd_bus_open_system(&third), 0);
        id = hold_ok(third, "big", 60 * SEC, "after I leave", 1);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        sd_bus_flush_close_unref(third);
        expect_online_stays("0,4-7", 800);
        ck_assert_uint_eq(read_holds(h, 8), 1);
        ck_assert_uint_eq(h[0].id, id);
}
END_TEST

START_TEST(test_persistence_across_restart)
{
        char path[PATH_MAX + 32];
        struct hold_info h[8];
        const char *config;
        struct stat st;
        uint32_t kept;
        FILE *f;
        char line[1024];

        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        harness_start_bus(NULL);
        config = write_config("bigLittle.conf", HARNESS_PELT_NO_BREAK_EVEN_CONFIG);
        start_daemon(config);
        kept = hold_ok(bus, "big", 600 * SEC, "survive a restart", 1);
        hold_ok(bus, "little", 600 * SEC, "gone with the daemon", 0);
        hold_ok(bus, "big", 600 * SEC, "newest", 1);
        ck_assert_int_ge(call_u(bus, "Release", NULL, NULL, "u", kept + 2), 0);
        expect_online("0-3", SWITCH_BOUND_MS);

        snprintf(path, sizeof(path), "%s/holds", harness_runtime_dir());
        ck_assert_int_eq(stat(path, &st), 0);
        ck_assert_uint_eq(st.st_mode & 0777, 0600);
        f = fopen(path, "r");
        ck_assert_ptr_nonnull(f);
        {
                unsigned holds = 0;

                while (fgets(line, sizeof(line), f))
                        if (line[0] != '#') {
                                ck_assert_msg(strstr(line, "reason=survive\\x20a\\x20restart"), "%s", line);
                                holds++;
                        }
                ck_assert_uint_eq(holds, 1);
        }
        fclose(f);

        ck_assert_int_eq(stop_daemon(SIGTERM), 0);
        ck_assert(online_equals("0-7"));
        sd_bus_flush_close_unref(bus);
        bus = NULL;

        start_daemon(config);
        expect_line(0, "restored", 1000);
        ck_assert_uint_eq(read_holds(h, 8), 1);
        ck_assert_uint_eq(h[0].id, kept);
        ck_assert_str_eq(h[0].level, "big");
        ck_assert_str_eq(h[0].reason, "survive a restart");
        ck_assert_str_eq(h[0].owner, "");
        ck_assert(h[0].persist);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        expect_online_stays("0,4-7", 500);
        assert_property("Level", "big");

        /* Ids go on past the restored one. */
        ck_assert_uint_gt(hold_ok(bus, "big", 60 * SEC, "", 0), kept);
}
END_TEST

START_TEST(test_reload)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        const char *config;
        unsigned applied;
        int r;

        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        harness_start_bus(NULL);
        config = write_config("bigLittle.conf", HARNESS_PELT_NO_BREAK_EVEN_CONFIG);
        start_daemon(config);

        r = call_u(bus, "Reload", &error, NULL, "");
        ck_assert_msg(r >= 0, "Reload: %s", error.message);
        applied = expect_line(0, "reload: applied", 1000);
        expect_changed("ConfigFiles");

        write_config("bigLittle.conf", "[hysteresis]\nup_threshold = 120\n");
        r = call_u(bus, "Reload", &error, NULL, "");
        ck_assert_msg(r < 0 && strcmp(error.message, "the configuration has errors, see the journal") == 0,
                      "Reload of a bad file: %s", r < 0 ? error.message : "succeeded");
        expect_error(r, &error, ERR("ReloadRefused"), NULL);
        expect_line(applied, "reload: refused", 1000);
        ck_assert(fakeboard_running(fb));
        ck_assert_double_eq_tol(get_double("UpThreshold"), 301.6, 1e-9);
}
END_TEST

/* Pair mode: one letter per pair; a hold names a level of the pair ladder. */
START_TEST(test_pair_mode)
{
        char *text;

        start_idle("[daemon]\nmode = pair\n");
        assert_property("Mode", "pair");
        assert_property("Level", "LLLL");
        assert_property("TargetLevel", "LLLL");
        hold_ok(bus, "big", 60 * SEC, "all pairs", 0);
        expect_property("Level", "BBBB", SWITCH_BOUND_MS);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        text = describe(bus);
        ck_assert_msg(json_valid(text), "%s", text);
        ck_assert_str_eq(json_get_string(text, "level"), "BBBB");
        ck_assert_str_eq(json_get_string(text, "levels.1"), "big");
        free(text);
}
END_TEST

static void nobody_under_policy(sd_bus *b, FILE *out, void *userdata)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        char *level = NULL, *text;
        sd_bus_message *reply = NULL;
        uint32_t id;
        int r;

        r = sd_bus_get_property_string(b, BUS_NAME, BUS_PATH, BUS_IFACE, "Level", &error, &level);
        child_expect_ok(out, "Get(Level)", r, &error);
        free(level);
        r = sd_bus_call_method(b, BUS_NAME, BUS_PATH, "org.freedesktop.DBus.Properties", "GetAll", &error,
                               NULL, "s", BUS_IFACE);
        child_expect_ok(out, "GetAll", r, &error);
        r = sd_bus_call_method(b, BUS_NAME, BUS_PATH, "org.freedesktop.DBus.Introspectable", "Introspect",
                               &error, &reply, NULL);
        child_expect_ok(out, "Introspect", r, &error);
        if (r >= 0 && (sd_bus_message_read(reply, "s", &text) < 0 || !strstr(text, "name=\"HoldWithFlags\"")))
                fprintf(out, "Introspect does not show HoldWithFlags\n");
        sd_bus_message_unref(reply);
        r = sd_bus_call_method(b, BUS_NAME, BUS_PATH, "org.freedesktop.DBus.Peer", "Ping", &error, NULL,
                               NULL);
        child_expect_ok(out, "Ping", r, &error);
        r = sd_bus_call_method(b, BUS_NAME, BUS_PATH, BUS_IFACE, "Describe", &error, NULL, NULL);
        child_expect_ok(out, "Describe", r, &error);
        /* The method gets through the bus; the daemon says no, in its words. */
        r = hold_with_flags(b, "big", 60 * SEC, "", 0, &id, &error);
        child_expect_error(out, "Hold", r, &error, SD_BUS_ERROR_ACCESS_DENIED, DENIED_MESSAGE);
        /* The bus itself stops these. */
        r = sd_bus_call_method(b, BUS_NAME, BUS_PATH, "org.freedesktop.DBus.Properties", "Set", &error, NULL,
                               "ssv", BUS_IFACE, "Level", "s", "big");
        child_expect_error(out, "Set(Level)", r, &error, SD_BUS_ERROR_ACCESS_DENIED, NULL);
        r = sd_bus_request_name(b, BUS_NAME, SD_BUS_NAME_QUEUE);
        if (r != -EACCES)
                fprintf(out, "RequestName(%s) gave %d, expected -EACCES\n", BUS_NAME, r);
}

/* The shipped bus policy on a bus with the system bus's defaults: root's
 * daemon owns the name, everyone else reads and calls. */
START_TEST(test_policy_file)
{
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        harness_start_bus(system_policy);
        start_daemon(write_config("bigLittle.conf", HARNESS_PELT_NO_BREAK_EVEN_CONFIG));
        assert_property("Level", "little");
        run_as_nobody(nobody_under_policy, NULL);
}
END_TEST

/* Runs the real switchctl with 'args' (a shell word list), returns its
 * exit status and its output (stdout and stderr) in 'out'. */
static int switchctl(const char *args, char *out, size_t size)
{
        char cmd[PATH_MAX + 512];

        snprintf(cmd, sizeof(cmd), "%s %s", SWITCHCTL_PATH, args);
        return harness_run(cmd, out, size);
}

/* The real client against the real daemon on the fake board: every verb
 * that talks to it, as a person would use them. */
START_TEST(test_switchctl_end_to_end)
{
        char out[8192];

        start_idle(NULL);
        expect_online("0-3", SWITCH_BOUND_MS);

        ck_assert_int_eq(switchctl("status", out, sizeof(out)), 0);
        ck_assert_msg(strstr(out, "Level: little") && strstr(out, "Holds: none"), "%s", out);
        ck_assert_int_eq(switchctl("status --json", out, sizeof(out)), 0);
        ck_assert_msg(strstr(out, "\"level\":\"little\"") && strstr(out, "\"levels\":[\"little\",\"big\"]"),
                      "%s", out);

        ck_assert_int_eq(switchctl("hold big --for 5min --reason 'e2e test' --persist", out, sizeof(out)), 0);
        ck_assert_msg(strtoul(out, NULL, 10) > 0, "hold printed: %s", out);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        ck_assert_int_eq(switchctl("status", out, sizeof(out)), 0);
        ck_assert_msg(strstr(out, "Level: big") && strstr(out, "e2e test"), "%s", out);
        ck_assert_int_eq(switchctl("history --no-pager", out, sizeof(out)), 0);
        ck_assert_msg(strstr(out, "little -> big") && strstr(out, "(e2e test): big"), "%s", out);
        ck_assert_int_eq(switchctl("stats", out, sizeof(out)), 0);
        ck_assert_msg(strstr(out, "big"), "%s", out);

        ck_assert_int_eq(switchctl("hold turbo", out, sizeof(out)), 64);
        ck_assert_msg(strstr(out, "unknown level \"turbo\""), "%s", out);

        ck_assert_int_eq(switchctl("release --all", out, sizeof(out)), 0);
        expect_online("0-3", SWITCH_BOUND_MS);
        ck_assert_int_eq(switchctl("reload", out, sizeof(out)), 0);
        ck_assert_int_eq(stop_daemon(SIGTERM), 0);
        ck_assert_int_eq(switchctl("status", out, sizeof(out)), 69);
        ck_assert_msg(strstr(out, "not running"), "%s", out);
}
END_TEST

/* The energy model (issue 17 item 3) on the fake Exynos 5422 (4+4,
 * capacities 377 and 1024): a board file the configuration names, shown
 * over the bus and by switchctl, changed by a reload; one of another
 * machine refused; the kernel's model in the fake debugfs under auto. */

#define EXYNOS_BOARD BOARDS_DIR "/exynos5422.ini"
#define EXYNOS_MODEL "exynos5422 board file " EXYNOS_BOARD ", 2 clusters, 13+19 OPPs"
#define EXIT_CONFIG 78

static const char *model_config(const char *setting)
{
        static char config[sizeof(HARNESS_PELT_NO_BREAK_EVEN_CONFIG) + PATH_MAX + 64];

        snprintf(config, sizeof(config), "%s[policy]\nenergy_model = %s\n", HARNESS_PELT_NO_BREAK_EVEN_CONFIG,
                 setting);
        return write_config("bigLittle.conf", config);
}

START_TEST(test_energy_model_board_file)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        char out[8192], *json;
        unsigned applied;
        int r;

        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        harness_start_bus(NULL);
        start_daemon(model_config(EXYNOS_BOARD));
        expect_line(0, "energy model: " EXYNOS_MODEL, 1000);
        assert_property("EnergyModel", EXYNOS_MODEL);
        ck_assert_int_eq(switchctl("status", out, sizeof(out)), 0);
        ck_assert_msg(strstr(out, "Energy model: " EXYNOS_MODEL "\n"), "%s", out);
        ck_assert_int_eq(switchctl("status --json", out, sizeof(out)), 0);
        json = strstr(out, "\"energy_model\":\"" EXYNOS_MODEL "\"");
        ck_assert_msg(json, "%s", out);

        /* A reload reads the setting again. */
        model_config("none");
        r = call_u(bus, "Reload", &error, NULL, "");
        ck_assert_msg(r >= 0, "Reload: %s", error.message);
        applied = expect_line(0, "reload: energy model: none (energy_model = none)", 1000);
        assert_property("EnergyModel", "none (energy_model = none)");

        /* A board of another machine is refused; the running model stays. */
        model_config(BOARDS_DIR "/rk3399.ini");
        r = call_u(bus, "Reload", &error, NULL, "");
        ck_assert_msg(r < 0, "Reload with the RK3399's board succeeded");
        sd_bus_error_free(&error);
        expect_line(applied, BOARDS_DIR "/rk3399.ini: [cluster.big] (cluster 1, most efficient first): "
                    "expected 4 CPUs as on this machine, got 2", 1000);
        expect_line(applied, "reload: refused, energy_model = " BOARDS_DIR "/rk3399.ini cannot be used", 1000);
        assert_property("EnergyModel", "none (energy_model = none)");
        ck_assert(fakeboard_running(fb));
}
END_TEST

START_TEST(test_energy_model_other_machine_refused)
{
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        spawn_daemon(model_config(BOARDS_DIR "/gs101.ini"), NULL);
        assert_exit_status(wait_exit(), EXIT_CONFIG);
        expect_line(0, BOARDS_DIR "/gs101.ini: board gs101 has 3 clusters, this machine 2", 100);
        expect_line(0, "energy_model = " BOARDS_DIR "/gs101.ini cannot be used; not starting", 100);
        ck_assert_uint_eq(fakeboard_n_online_changes(fb), 0);
        ck_assert_msg(online_equals("0-7"), "online is %s after the refusal", online_text());
}
END_TEST

/* --check-config reads the board file too (it knows no topology: the
 * file alone). */
START_TEST(test_energy_model_check_config)
{
        char *argv[] = { (char *)DAEMON_PATH, (char *)"--check-config", NULL, NULL };
        char where[PATH_MAX + 64], board[PATH_MAX];
        int status = -1;

        new_board("exynos5422");
        argv[2] = (char *)model_config(EXYNOS_BOARD);
        ck_assert_int_eq(fakeboard_spawn(fb, argv, false), 0);
        ck_assert_int_eq(fakeboard_wait(fb, EXIT_BOUND_MS, &status), 0);
        assert_exit_status(status, 0);

        snprintf(board, sizeof(board), "%s",
                 write_config("bad.ini", "[board]\nname = bad\nreference_capacity = many\n"));
        argv[2] = (char *)model_config(board);
        snprintf(where, sizeof(where), "energy_model: %s:3: reference_capacity", board);
        ck_assert_int_eq(fakeboard_spawn(fb, argv, false), 0);
        ck_assert_int_eq(fakeboard_wait(fb, EXIT_BOUND_MS, &status), 0);
        assert_exit_status(status, EXIT_CONFIG);
        expect_line(0, where, 100);
}
END_TEST

static void board_mkdir(const char *path)
{
        char full[PATH_MAX];

        ck_assert_int_eq(fakeboard_path(fb, path, full, sizeof(full)), 0);
        for (char *s = full + 1; *s; s++)
                if (*s == '/') {
                        *s = '\0';
                        ck_assert_msg(mkdir(full, 0755) == 0 || errno == EEXIST, "%s: %s", full, strerror(errno));
                        *s = '/';
                }
        ck_assert_msg(mkdir(full, 0755) == 0 || errno == EEXIST, "%s: %s", full, strerror(errno));
}

/* One performance domain as Linux 6.x shows it: power in uW. */
static void em_domain(const char *name, const char *cpus, const unsigned *khz, const unsigned *uw, unsigned n)
{
        char path[256], value[32];

        snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/%s", name);
        board_mkdir(path);
        snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/%s/cpus", name);
        write_board_file(path, cpus);
        for (unsigned i = 0; i < n; i++) {
                snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/%s/ps:%u", name, khz[i]);
                board_mkdir(path);
                snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/%s/ps:%u/frequency", name, khz[i]);
                snprintf(value, sizeof(value), "%u\n", khz[i]);
                write_board_file(path, value);
                snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/%s/ps:%u/power", name, khz[i]);
                snprintf(value, sizeof(value), "%u\n", uw[i]);
                write_board_file(path, value);
        }
}

static const unsigned a7_khz[] = { 600000, 1000000, 1400000 };
static const unsigned a7_uw[] = { 40000, 90000, 204828 };
static const unsigned a15_khz[] = { 800000, 1200000, 1600000, 2000000 };
static const unsigned a15_uw[] = { 250000, 450000, 700000, 1067233 };

START_TEST(test_energy_model_debugfs)
{
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        em_domain("cpu0", "0-3\n", a7_khz, a7_uw, 3);
        em_domain("cpu4", "4-7\n", a15_khz, a15_uw, 4);
        harness_start_bus(NULL);
        start_daemon(model_config("auto"));
        assert_property("EnergyModel",
                        "kernel energy model from /sys/kernel/debug/energy_model, 2 clusters, 3+4 OPPs");
}
END_TEST

/* auto promises nothing: a kernel model that does not fit the CPUs found
 * (a domain across both clusters) is a warning, and the daemon runs
 * without one. */
START_TEST(test_energy_model_debugfs_misfit)
{
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        em_domain("cpu0", "0-5\n", a7_khz, a7_uw, 3);
        harness_start_bus(NULL);
        start_daemon(model_config("auto"));
        expect_line(0, "/sys/kernel/debug/energy_model: expected one performance domain holding every CPU of "
                    "cluster 1 (capacity 1024), got none, or CPUs split over several", 100);
        assert_property("EnergyModel",
                        "none (the debugfs energy model does not fit the CPUs; set energy_model=)");
}
END_TEST

/* Hostile callers: huge and malformed arguments, wrong signatures, and
 * floods of holds. */

#define MIB (1024 * 1024)
#define FLOOD_CALLS 5000
#define FLOOD_WINDOW 100
#define FLOOD_CONNECTIONS 200
/* Status is answered within this while a flood is queued before it. */
#define STATUS_BOUND_US (1000 * 1000)
/* What a flood may add to the daemon's private dirty memory. */
#define FLOOD_MEMORY_KIB 256

static char *repeated(const char *unit, size_t times)
{
        size_t len = strlen(unit);
        char *s = malloc(len * times + 1);

        ck_assert_ptr_nonnull(s);
        for (size_t i = 0; i < times; i++)
                memcpy(s + i * len, unit, len);
        s[len * times] = '\0';
        return s;
}

/* The refusal of a huge argument names its size and does not echo it. */
static void expect_short_error(int r, sd_bus_error *error, const char *name, const char *contains)
{
        ck_assert_msg(r < 0, "the call succeeded; expected %s", name);
        ck_assert_msg(sd_bus_error_has_name(error, name), "error %s; expected %s", error->name, name);
        ck_assert_msg(strlen(error->message) < 512, "a %zu-byte error message", strlen(error->message));
        ck_assert_msg(strstr(error->message, contains), "error message \"%s\" lacks \"%s\"", error->message,
                      contains);
        sd_bus_error_free(error);
}

static void assert_untouched(void)
{
        ck_assert_uint_eq(count_holds(), 0);
        assert_property("Level", "little");
        ck_assert(fakeboard_running(fb));
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "hold 1"), -ENOENT);
}

START_TEST(test_hostile_strings)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        char *huge = repeated("x", MIB), *accents = repeated("\xc3\xa9", 300000);
        /* Cut at 64 bytes, this one would end inside a character. */
        char *mixed = repeated("\xc3\xa9x", 1000);
        uint32_t id;
        int r;

        start_idle(NULL);
        r = hold_with_flags(bus, huge, 60 * SEC, "", 0, &id, &error);
        expect_short_error(r, &error, ERR("UnknownLevel"), "(1048576 bytes)");
        r = call_u(bus, "Hold", &error, NULL, "sts", huge, 60 * SEC, "");
        expect_short_error(r, &error, ERR("UnknownLevel"), "the levels are: little, big");
        /* Cut to fit, a name of two-byte characters stays valid UTF-8 (the
         * bus would refuse to carry the answer otherwise). */
        r = hold_with_flags(bus, accents, 60 * SEC, "", 0, &id, &error);
        expect_short_error(r, &error, ERR("UnknownLevel"), "\xc3\xa9\xc3\xa9");
        r = hold_with_flags(bus, mixed, 60 * SEC, "", 0, &id, &error);
        expect_short_error(r, &error, ERR("UnknownLevel"), "\xc3\xa9x...\" (3000 bytes)");
        r = hold_with_flags(bus, "big", 60 * SEC, huge, 0, &id, &error);
        expect_short_error(r, &error, ERR("InvalidReason"), "1048576 bytes");
        r = call_u(bus, "Hold", &error, NULL, "sts", "big", 60 * SEC, accents);
        expect_short_error(r, &error, ERR("InvalidReason"), "600000 bytes");
        r = hold_with_flags(bus, "big\x7f", 60 * SEC, "", 0, &id, &error);
        expect_error(r, &error, ERR("UnknownLevel"), NULL);
        r = hold_with_flags(bus, "big", 60 * SEC, "C1 \xc2\x85 control", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidReason"), "control characters");
        {
                sd_bus_message *reply = NULL;

                r = sd_bus_call_method(bus, BUS_NAME, BUS_PATH, "org.freedesktop.DBus.Properties", "Get",
                                       &error, &reply, "ss", BUS_IFACE, huge);
                expect_error(r, &error, SD_BUS_ERROR_UNKNOWN_PROPERTY, NULL);
                sd_bus_message_unref(reply);
        }
        free(huge);
        free(accents);
        free(mixed);

        r = call_u(bus, "Release", &error, NULL, "u", 0);
        expect_error(r, &error, ERR("NoSuchHold"), NULL);
        r = call_u(bus, "Release", &error, NULL, "u", UINT32_MAX);
        expect_error(r, &error, ERR("NoSuchHold"), "4294967295");
        sd_bus_message_unref(call_ok(bus, BUS_IFACE, "History", "u", UINT32_MAX));
        assert_untouched();
}
END_TEST

/* sd-bus checks each call against the method's signature before the
 * daemon's code sees it. */
START_TEST(test_wrong_signatures)
{
        static const struct {
                const char *member;
                const char *types;
        } wrong[] = {
                { "Hold", "ss" }, { "Hold", "stsu" }, { "Hold", "" }, { "HoldWithFlags", "sts" },
                { "HoldWithFlags", "stsu" }, { "Release", "s" }, { "Release", "t" }, { "Release", "" },
                { "ReleaseAll", "u" }, { "Reload", "s" }, { "History", "s" }, { "History", "t" },
                { "Describe", "u" },
        };
        sd_bus_error error = SD_BUS_ERROR_NULL;
        int r;

        start_idle(NULL);
        for (size_t i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
                sd_bus_message *m = NULL, *reply = NULL;

                ck_assert_int_ge(sd_bus_message_new_method_call(bus, &m, BUS_NAME, BUS_PATH, BUS_IFACE,
                                                                wrong[i].member), 0);
                for (const char *t = wrong[i].types; *t; t++) {
                        if (*t == 's')
                                r = sd_bus_message_append_basic(m, 's', "big");
                        else if (*t == 't')
                                r = sd_bus_message_append(m, "t", 60 * SEC);
                        else
                                r = sd_bus_message_append(m, "u", 1);
                        ck_assert_int_ge(r, 0);
                }
                r = sd_bus_call(bus, m, 0, &error, &reply);
                ck_assert_msg(r < 0 && sd_bus_error_has_name(&error, SD_BUS_ERROR_INVALID_ARGS),
                              "%s(%s): %s, expected InvalidArgs", wrong[i].member, wrong[i].types,
                              r < 0 ? error.name : "succeeded");
                sd_bus_error_free(&error);
                sd_bus_message_unref(m);
                sd_bus_message_unref(reply);
        }
        r = call_u(bus, "NoSuchMethod", &error, NULL, "");
        expect_error(r, &error, SD_BUS_ERROR_UNKNOWN_METHOD, NULL);
        r = sd_bus_call_method(bus, BUS_NAME, BUS_PATH, "org.bigLittle.NoSuchInterface", "Hold", &error, NULL,
                               "sts", "big", 60 * SEC, "");
        ck_assert(r < 0 && (sd_bus_error_has_name(&error, SD_BUS_ERROR_UNKNOWN_METHOD) ||
                            sd_bus_error_has_name(&error, SD_BUS_ERROR_UNKNOWN_INTERFACE)));
        sd_bus_error_free(&error);
        /* Every property is read-only. */
        r = sd_bus_set_property(bus, BUS_NAME, BUS_PATH, BUS_IFACE, "Level", &error, "s", "big");
        expect_error(r, &error, SD_BUS_ERROR_PROPERTY_READ_ONLY, NULL);
        assert_untouched();
}
END_TEST

/* Durations at and beyond every boundary: zero, the configured maximum,
 * values that overflow when turned into other units or added to now, and
 * "negative" ones (two's complement). */
START_TEST(test_hostile_durations)
{
        static const uint64_t refused[] = {
                0, 604800 * SEC + 1, (uint64_t)INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX,
                UINT64_MAX / 1000 + 1, UINT64_MAX - 604800 * SEC, (uint64_t)-1000000,
        };
        sd_bus_error error = SD_BUS_ERROR_NULL;
        struct hold_info h[8];
        uint32_t id;
        int r;

        start_idle("[holds]\nmax_duration_s = 604800\n");
        for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
                r = hold_with_flags(bus, "big", refused[i], "", 0, &id, &error);
                ck_assert_msg(r < 0 && sd_bus_error_has_name(&error, ERR("InvalidDuration")),
                              "duration %" PRIu64 ": %s", refused[i], r < 0 ? error.name : "accepted");
                ck_assert_msg(strstr(error.message, "at most 7d ([holds] max_duration_s = 604800)"), "%s",
                              error.message);
                sd_bus_error_free(&error);
                r = hold_with_flags(bus, "big", refused[i], "", 1, &id, &error);
                ck_assert(r < 0 && sd_bus_error_has_name(&error, ERR("InvalidDuration")));
                sd_bus_error_free(&error);
        }
        ck_assert_uint_eq(count_holds(), 0);

        /* The longest allowed ends exactly then, on both clocks. */
        id = hold_ok(bus, "little", 604800 * SEC, "a week", 1);
        ck_assert_uint_eq(read_holds(h, 8), 1);
        ck_assert_uint_eq(h[0].id, id);
        ck_assert_uint_eq(h[0].until_wall - h[0].since_wall, 604800 * SEC);
        ck_assert_uint_gt(h[0].until_wall, h[0].since_wall);
        /* A microsecond is a hold too; it ends at once. */
        hold_ok(bus, "big", 1, "blink", 0);
        expect_holds(1, SWITCH_BOUND_MS);
        ck_assert(fakeboard_running(fb));
}
END_TEST

struct flood {
        unsigned sent, answered, ok, too_many;
        char other[256];
};

static int on_flood_reply(sd_bus_message *m, void *userdata, sd_bus_error *unused)
{
        struct flood *f = userdata;
        const sd_bus_error *e = sd_bus_message_get_error(m);

        f->answered++;
        if (!e)
                f->ok++;
        else if (sd_bus_error_has_name(e, ERR("TooManyHolds")))
                f->too_many++;
        else if (!f->other[0])
                snprintf(f->other, sizeof(f->other), "%s: %s", e->name, e->message);
        return 0;
}

static void flood_send(sd_bus *b, struct flood *f)
{
        int r = sd_bus_call_method_async(b, NULL, BUS_NAME, BUS_PATH, BUS_IFACE, "HoldWithFlags",
                                         on_flood_reply, f, "stst", "little", 60 * SEC, "flood", (uint64_t)0);

        ck_assert_int_ge(r, 0);
        f->sent++;
}

struct flood_wait {
        sd_bus **buses;
        unsigned n;
        struct flood *f;
};

static bool flood_answered(struct fakeboard *board, void *userdata)
{
        struct flood_wait *w = userdata;

        (void)board;
        for (unsigned i = 0; i < w->n; i++)
                while (sd_bus_process(w->buses[i], NULL) > 0)
                        ;
        return w->f->answered == w->f->sent;
}

static void flood_wait(sd_bus **buses, unsigned n, struct flood *f)
{
        struct flood_wait w = { buses, n, f };

        ck_assert_msg(fakeboard_run(fb, CHILD_BOUND_MS, flood_answered, &w) == 1, "%u of %u calls answered",
                      f->answered, f->sent);
}

/* How long Status (the Level property) takes on a connection of its own. */
static uint64_t status_latency(void)
{
        sd_bus *other = NULL;
        uint64_t start;
        char *level = NULL;

        ck_assert_int_ge(sd_bus_open_system(&other), 0);
        start = mono_now();
        ck_assert_int_ge(
                sd_bus_get_property_string(other, BUS_NAME, BUS_PATH, BUS_IFACE, "Level", NULL, &level), 0);
        start = mono_now() - start;
        free(level);
        sd_bus_flush_close_unref(other);
        return start;
}

static unsigned long daemon_dirty_kib(void)
{
        unsigned long rss, dirty;

        ck_assert_int_eq(harness_memory(fakeboard_pid(fb), &rss, &dirty), 0);
        return dirty;
}

/* After a flood: the daemon still switches on load and back. */
static void expect_still_switching(void)
{
        uint32_t n = 0;

        ck_assert_int_ge(call_u(bus, "ReleaseAll", NULL, &n, ""), 0);
        ck_assert_int_eq(fakeboard_set_load(fb, heavy_load, 2), 0);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        expect_online("0-3", SWITCH_BOUND_MS);
}

/* Thousands of holds from one connection: the per-uid limit holds, the
 * rest are refused at once, Status stays quick, memory does not grow. */
START_TEST(test_hold_flood_one_connection)
{
        struct flood f = { 0 };
        unsigned long before = 0, after;
        uint64_t latency;

        start_idle(NULL);
        while (f.sent < FLOOD_CALLS) {
                for (unsigned i = 0; i < FLOOD_WINDOW; i++)
                        flood_send(bus, &f);
                flood_wait(&bus, 1, &f);
                /* From the end of the first window: the allocator has
                 * warmed up to the bus traffic by then. */
                if (f.sent == FLOOD_WINDOW)
                        before = daemon_dirty_kib();
        }
        /* One more window queued ahead of a Status call. */
        for (unsigned i = 0; i < FLOOD_WINDOW; i++)
                flood_send(bus, &f);
        ck_assert_int_ge(sd_bus_flush(bus), 0);
        latency = status_latency();
        flood_wait(&bus, 1, &f);
        after = daemon_dirty_kib();
        printf("# flood of %u holds on one connection: %u placed, %u refused; Status in %" PRIu64
               " us; private dirty %lu -> %lu KiB\n", f.sent, f.ok, f.too_many, latency, before, after);
        ck_assert_msg(!f.other[0], "an unexpected answer: %s", f.other);
        ck_assert_uint_eq(f.ok, 8);
        ck_assert_uint_eq(f.too_many, f.sent - 8);
        ck_assert_uint_eq(count_holds(), 8);
        ck_assert_uint_lt(latency, STATUS_BOUND_US);
        if (harness_memory_comparable())
                ck_assert_uint_le(after, before + FLOOD_MEMORY_KIB);
        expect_still_switching();
}
END_TEST

/* A hold from each of many connections of one uid, which then leave. */
static void flood_of_connections(void)
{
        sd_bus *buses[FLOOD_CONNECTIONS];
        struct flood f = { 0 };

        for (unsigned i = 0; i < FLOOD_CONNECTIONS; i++) {
                ck_assert_int_ge(sd_bus_open_system(&buses[i]), 0);
                flood_send(buses[i], &f);
        }
        flood_wait(buses, FLOOD_CONNECTIONS, &f);
        ck_assert_msg(!f.other[0], "an unexpected answer: %s", f.other);
        ck_assert_uint_eq(f.ok, 8);
        ck_assert_uint_eq(f.too_many, FLOOD_CONNECTIONS - 8);
        ck_assert_uint_eq(count_holds(), 8);
        ck_assert_uint_lt(status_latency(), STATUS_BOUND_US);
        for (unsigned i = 0; i < FLOOD_CONNECTIONS; i++)
                sd_bus_flush_close_unref(buses[i]);
        expect_holds(0, SWITCH_BOUND_MS);
}

/* The same limit across connections, and the holds end when their
 * connections do; a second round costs no more memory than the first. */
START_TEST(test_hold_flood_many_connections)
{
        unsigned long first, second;

        start_idle(NULL);
        flood_of_connections();
        first = daemon_dirty_kib();
        flood_of_connections();
        second = daemon_dirty_kib();
        printf("# 2 x %u connections of one uid, a hold each: 8 placed each time; private dirty after the "
               "first %lu KiB, after the second %lu KiB\n", FLOOD_CONNECTIONS, first, second);
        if (harness_memory_comparable())
                ck_assert_uint_le(second, first + FLOOD_MEMORY_KIB);
        expect_still_switching();
}
END_TEST

static void eight_persistent_holds(sd_bus *b, FILE *out, void *userdata)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        uint32_t id;
        int r;

        (void)userdata;
        for (unsigned i = 0; i < 8; i++) {
                r = hold_with_flags(b, "little", 60 * SEC, "persistent", 1, &id, &error);
                child_expect_ok(out, "Hold", r, &error);
        }
        r = hold_with_flags(b, "little", 60 * SEC, "one too many", 1, &id, &error);
        child_expect_error(out, "the 9th Hold", r, &error, ERR("TooManyHolds"), NULL);
}

static void refused_when_full(sd_bus *b, FILE *out, void *userdata)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        uint32_t id;
        int r;

        (void)userdata;
        r = hold_with_flags(b, "little", 60 * SEC, "no room", 1, &id, &error);
        child_expect_error(out, "Hold with 64 in force", r, &error, ERR("TooManyHolds"),
                           "64 holds are in force already, the most there may be");
}

/* Eight users with eight holds each fill the list; the ninth is refused. */
START_TEST(test_total_hold_limit)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        uint32_t id;
        int r;

        start_idle("[holds]\nallow_users = yes\n");
        /* Users with passwd entries: dbus-daemon refuses others. */
        for (uid_t uid = 1; uid <= 8; uid++)
                run_as(uid, eight_persistent_holds, NULL);
        ck_assert_uint_eq(count_holds(), 64);
        run_as(9, refused_when_full, NULL);
        r = hold_with_flags(bus, "little", 60 * SEC, "root too", 0, &id, &error);
        expect_error(r, &error, ERR("TooManyHolds"), "64 holds");
        ck_assert_uint_eq(count_holds(), 64);
        ck_assert_uint_lt(status_latency(), STATUS_BOUND_US);
        expect_still_switching();
        ck_assert_uint_eq(count_holds(), 0);
}
END_TEST

/* A client that speaks the D-Bus wire protocol itself, to send what
 * sd-bus refuses to build: strings that are not valid UTF-8 or hold a NUL. */

#define RAW_MAX 4096

struct raw_message {
        unsigned char buf[RAW_MAX];
        size_t len;
};

static void raw_pad(struct raw_message *m, size_t align)
{
        while (m->len % align)
                m->buf[m->len++] = 0;
}

static void raw_u32(struct raw_message *m, uint32_t v)
{
        raw_pad(m, 4);
        ck_assert_uint_le(m->len + 4, RAW_MAX);
        memcpy(m->buf + m->len, &v, 4);
        m->len += 4;
}

static void raw_u64(struct raw_message *m, uint64_t v)
{
        raw_pad(m, 8);
        ck_assert_uint_le(m->len + 8, RAW_MAX);
        memcpy(m->buf + m->len, &v, 8);
        m->len += 8;
}

/* 'len' bytes as a string, whatever they are. */
static void raw_string(struct raw_message *m, const char *s, size_t len)
{
        raw_u32(m, (uint32_t)len);
        ck_assert_uint_le(m->len + len + 1, RAW_MAX);
        memcpy(m->buf + m->len, s, len);
        m->len += len;
        m->buf[m->len++] = 0;
}

static void raw_signature(struct raw_message *m, const char *sig)
{
        size_t len = strlen(sig);

        m->buf[m->len++] = (unsigned char)len;
        memcpy(m->buf + m->len, sig, len + 1);
        m->len += len + 1;
}

static void raw_field(struct raw_message *m, uint8_t code, char type, const char *value)
{
        char sig[2] = { type, '\0' };

        raw_pad(m, 8);
        m->buf[m->len++] = code;
        raw_signature(m, sig);
        if (type == 'g')
                raw_signature(m, value);
        else
                raw_string(m, value, strlen(value));
}

/* A method call; 'body' (marshalled from offset 0) goes after the header. */
static void raw_call(struct raw_message *m, uint32_t serial, const char *dest, const char *path,
                     const char *iface, const char *member, const char *sig, const struct raw_message *body)
{
        size_t fields_len_at, fields_start;
        uint32_t fields_len;

        m->len = 0;
        m->buf[m->len++] = 'l';
        m->buf[m->len++] = 1;           /* method call */
        m->buf[m->len++] = 0;
        m->buf[m->len++] = 1;           /* protocol version */
        raw_u32(m, (uint32_t)(body ? body->len : 0));
        raw_u32(m, serial);
        fields_len_at = m->len;
        raw_u32(m, 0);
        raw_pad(m, 8);
        fields_start = m->len;
        raw_field(m, 1, 'o', path);
        raw_field(m, 2, 's', iface);
        raw_field(m, 3, 's', member);
        raw_field(m, 6, 's', dest);
        if (sig)
                raw_field(m, 8, 'g', sig);
        fields_len = (uint32_t)(m->len - fields_start);
        memcpy(m->buf + fields_len_at, &fields_len, 4);
        raw_pad(m, 8);
        if (body) {
                ck_assert_uint_le(m->len + body->len, RAW_MAX);
                memcpy(m->buf + m->len, body->buf, body->len);
                m->len += body->len;
        }
}

static void raw_send(int fd, const void *data, size_t len)
{
        ck_assert_int_eq(send(fd, data, len, MSG_NOSIGNAL), (ssize_t)len);
}

/* Bytes the bus sent within timeout_ms (0 at end of stream, -1 when none came). */
static ssize_t raw_receive(int fd, void *buf, size_t size, int timeout_ms)
{
        struct pollfd p = { .fd = fd, .events = POLLIN };
        ssize_t n;

        if (poll(&p, 1, timeout_ms) <= 0)
                return -1;
        n = recv(fd, buf, size, 0);
        return n < 0 && errno == ECONNRESET ? 0 : n;
}

/* Connects as root (EXTERNAL), says Hello and reads its answer. */
static int raw_connect(const char *address)
{
        static const char auth[] = "\0AUTH EXTERNAL 30\r\n";
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        struct raw_message hello;
        char reply[512];
        ssize_t n;
        int fd;

        /* "unix:path=PATH,guid=..." */
        ck_assert(strncmp(address, "unix:path=", 10) == 0);
        snprintf(sa.sun_path, sizeof(sa.sun_path), "%.*s", (int)strcspn(address + 10, ","), address + 10);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
        raw_send(fd, auth, sizeof(auth) - 1);
        n = raw_receive(fd, reply, sizeof(reply) - 1, 2000);
        ck_assert_msg(n >= 2 && strncmp(reply, "OK", 2) == 0, "the bus refused EXTERNAL");
        raw_send(fd, "BEGIN\r\n", 7);
        raw_call(&hello, 1, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello",
                 NULL, NULL);
        raw_send(fd, hello.buf, hello.len);
        ck_assert_int_gt(raw_receive(fd, reply, sizeof(reply), 2000), 0);
        return fd;
}

/* Sends Hold(level, 60 s, reason) with the bytes as given; returns 1 when
 * an answer came, 0 when the bus hung up. */
static int raw_hold(const char *address, const char *level, size_t level_len, const char *reason,
                    size_t reason_len)
{
        struct raw_message body = { .len = 0 }, call;
        char reply[4096];
        int fd = raw_connect(address);
        ssize_t n;

        raw_string(&body, level, level_len);
        raw_u64(&body, 60 * SEC);
        raw_string(&body, reason, reason_len);
        raw_call(&call, 2, BUS_NAME, BUS_PATH, BUS_IFACE, "Hold", "sts", &body);
        raw_send(fd, call.buf, call.len);
        /* Signals (NameAcquired) may come first; the answer or the hang-up follows. */
        while ((n = raw_receive(fd, reply, sizeof(reply), 2000)) > 0)
                if (n >= 2 && reply[1] != 4)
                        break;
        close(fd);
        ck_assert_msg(n >= 0, "neither an answer nor a hang-up");
        return n > 0;
}

/* The bus itself refuses strings that are not UTF-8 or hold a NUL: it
 * hangs up on the sender, and the daemon never sees the call. The same
 * call with a valid string, sent the same way, reaches it. */
START_TEST(test_bus_rejects_malformed_strings)
{
        static const char bad_utf8[] = "big\xff", overlong[] = "\xc0\xafig", nul[] = "big\0ger";
        const char *address;
        unsigned lines;

        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        address = harness_start_bus(NULL);
        start_daemon(write_config("bigLittle.conf", HARNESS_PELT_NO_BREAK_EVEN_CONFIG));
        lines = fakeboard_n_lines(fb);

        ck_assert_int_eq(raw_hold(address, bad_utf8, sizeof(bad_utf8) - 1, "", 0), 0);
        ck_assert_int_eq(raw_hold(address, overlong, sizeof(overlong) - 1, "", 0), 0);
        ck_assert_int_eq(raw_hold(address, nul, sizeof(nul) - 1, "", 0), 0);
        ck_assert_int_eq(raw_hold(address, "big", 3, bad_utf8, sizeof(bad_utf8) - 1), 0);
        ck_assert_int_eq(raw_hold(address, "big", 3, nul, sizeof(nul) - 1), 0);
        fakeboard_run_for(fb, 100);
        ck_assert_uint_eq(count_holds(), 0);
        ck_assert_uint_eq(fakeboard_n_lines(fb), lines);
        ck_assert(fakeboard_running(fb));

        ck_assert_int_eq(raw_hold(address, "big", 3, "raw", 3), 1);
        expect_line(lines, "hold 1: big", 1000);
}
END_TEST

/* Switching on a kernel that is slow, busy after a switch, or ignores it. */

#define CPU "/sys/devices/system/cpu/"

/* The Settle property: how many windows closed, at their bound, and how
 * many samples counted less than they read. */
static void get_settle(uint32_t *windows, uint32_t *bounded, uint64_t *discounted)
{
        sd_bus_message *reply = get_struct("Settle", "tttuut");
        uint64_t last, mean, longest;

        ck_assert_int_gt(sd_bus_message_read(reply, "tttuut", &last, &mean, &longest, windows, bounded,
                                             discounted), 0);
        sd_bus_message_unref(reply);
}

/* A real kernel is busy for a while after a hotplug (stop_machine,
 * migration, kworkers), for longer the longer the hotplug took: here 200
 * ms at 90 % busy and 50 % pressure after writes of 60 ms each (the window
 * is bound at 3 x 240 ms, and the board may see the last write late on a
 * loaded machine). Idle, with
 * the shipped policy, the daemon must not take that for load: no switch
 * at all, and the samples it discounted show the aftermath was there. */
START_TEST(test_aftermath_is_not_load)
{
        static const char config[] = "[daemon]\nsample_interval_ms = 10\nbackend = hotplug\n";
        uint64_t switches = 1, discounted = 0;
        uint32_t windows = 0, bounded = 1;

        ck_assert_int_eq(setenv("FAKEBOARD_WRITE_DELAY_US", "60000", 1), 0);
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        ck_assert_int_eq(fakeboard_set_switch_aftermath(fb, 200, 90, 50), 0);
        harness_start_bus(NULL);
        start_daemon(write_config("bigLittle.conf", config));
        expect_online("0-3", SWITCH_BOUND_MS);
        expect_online_stays("0-3", 3000);
        get_trivial("Switches", 't', &switches);
        ck_assert_msg(switches == 0, "%" PRIu64 " switches; the daemon said:%s", switches, log_text());
        get_settle(&windows, &bounded, &discounted);
        ck_assert_uint_eq(windows, 1);
        ck_assert_uint_eq(bounded, 0);
        ck_assert_uint_gt(discounted, 0);
}
END_TEST

/* Hotplug writes of 250 ms each: a switch of four CPUs takes a second.
 * Meanwhile the daemon keeps sampling (each tick that wants the switch
 * says it waits for it) and answers on the bus at once, showing the level
 * it is still at; afterwards the switch's time is in SwitchCost. */
START_TEST(test_slow_switch_keeps_ticking)
{
        char config[sizeof(HARNESS_PELT_NO_BREAK_EVEN_CONFIG) + 64];
        struct timespec t0, t1;
        sd_bus_message *reply;
        double fixed, per_cpu, last, longest, took_ms;
        uint32_t measured, last_cpus;
        unsigned line, waited;
        const char *level;

        ck_assert_int_eq(setenv("FAKEBOARD_WRITE_DELAY_US", "250000", 1), 0);
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        /* At little already: starting writes nothing and takes no time. */
        for (unsigned cpu = 4; cpu < 8; cpu++)
                ck_assert_int_eq(fakeboard_set_cpu_online(fb, cpu, false), 0);
        harness_start_bus(NULL);
        snprintf(config, sizeof(config), "%s[daemon]\nlog_level = debug\n",
                 HARNESS_PELT_NO_BREAK_EVEN_CONFIG);
        start_daemon(write_config("bigLittle.conf", config));
        line = expect_line(0, "started: ", 10);
        ck_assert_int_eq(fakeboard_set_load(fb, heavy_load, 2), 0);
        /* The first write of the switch up has been made. */
        expect_file(CPU "cpu4/online", "1", SWITCH_BOUND_MS);

        clock_gettime(CLOCK_MONOTONIC, &t0);
        reply = call_ok(bus, BUS_IFACE, "Describe", "");
        sd_bus_message_unref(reply);
        level = get_string("Level");
        clock_gettime(CLOCK_MONOTONIC, &t1);
        took_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
        /* Blocked behind the switch it would take the 750 ms of writes left;
         * 400 ms leaves a sanitizer build on a loaded machine its slack. */
        ck_assert_msg(took_ms < 400, "the bus took %.0f ms to answer during the switch", took_ms);
        ck_assert_str_eq(level, "little");
        free((char *)level);

        line = expect_line(line, "switch little -> big: ", 5000);
        waited = count_lines(0, "a switch is being applied") - count_lines(line, "a switch is being applied");
        /* 750 ms to go at 20 ms a tick, and a loaded machine */
        ck_assert_msg(waited >= 10, "%u ticks during the switch; the daemon said:%s", waited, log_text());
        assert_property("Level", "big");
        /* CPUs 1-3 lost their /proc/stat lines one by one during it: the
         * daemon's own doing, not a CPU whose load goes unseen */
        ck_assert_uint_eq(count_lines(0, "has no line for CPUs"), 0);

        reply = get_struct("SwitchCost", "ddudud");
        ck_assert_int_gt(sd_bus_message_read(reply, "ddudud", &fixed, &per_cpu, &measured, &last, &last_cpus,
                                             &longest), 0);
        sd_bus_message_unref(reply);
        ck_assert_uint_eq(measured, 1);
        /* four writes of 250 ms, up 4-7 from 0-3: 8 CPUs changed */
        ck_assert_uint_eq(last_cpus, 8);
        ck_assert_msg(last >= 1e6 && last < 4e6, "the switch took %g us", last);
        ck_assert_double_eq_tol(longest, last, 1e-6);

        /* A hold answers once its switch is applied: the level read after
         * the answer is the one held. */
        clock_gettime(CLOCK_MONOTONIC, &t0);
        reply = call_ok(bus, BUS_IFACE, "Hold", "sts", "little", 60 * SEC, "slow");
        sd_bus_message_unref(reply);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        took_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
        assert_property("Level", "little");
        ck_assert_msg(took_ms >= 700, "the hold answered after %.0f ms, before its switch of 4 writes of "
                      "250 ms", took_ms);
        ck_assert_str_eq(online_files(), "0-3");
}
END_TEST

/* SIGTERM while a switch of four 250 ms writes is under way: the daemon
 * lets it end, then puts back what it found (CPUs 4-7 offline), and
 * leaves no saved state. */
START_TEST(sigterm_waits_for_the_switch)
{
        char config[sizeof(HARNESS_PELT_NO_BREAK_EVEN_CONFIG)];
        unsigned line;

        ck_assert_int_eq(setenv("FAKEBOARD_WRITE_DELAY_US", "250000", 1), 0);
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        for (unsigned cpu = 4; cpu < 8; cpu++)
                ck_assert_int_eq(fakeboard_set_cpu_online(fb, cpu, false), 0);
        harness_start_bus(NULL);
        snprintf(config, sizeof(config), "%s", HARNESS_PELT_NO_BREAK_EVEN_CONFIG);
        start_daemon(write_config("bigLittle.conf", config));
        line = expect_line(0, "started: ", 10);
        ck_assert_int_eq(fakeboard_set_load(fb, heavy_load, 2), 0);
        expect_file(CPU "cpu4/online", "1", SWITCH_BOUND_MS);
        assert_exit_status(stop_daemon(SIGTERM), 0);
        line = expect_line(line, "waiting up to 20 s for the switch being applied", 10);
        line = expect_line(line, "switch little -> big: ", 10);
        expect_line_has(expect_line(line, "restored: ", 10), "restored: online 0-3");
        ck_assert_str_eq(online_files(), "0-3");
        ck_assert_str_eq(harness_saved_settings(), "");
}
END_TEST

/* The little cluster's cpufreq table with one operating point: capping it
 * changes nothing, so level big (little capped) cannot be had with the
 * cpufreq backend. Asked for big, the daemon says so once, leaves big out
 * (it stays at little, as the kernel does; asked again, nothing is written)
 * and shows it in status. */
START_TEST(test_ignored_cap_leaves_level_out)
{
        char config[sizeof(HARNESS_PELT_NO_BREAK_EVEN_CONFIG) + 64], out[8192], *at;
        sd_bus_message *reply;
        const char *name, *why, *text;
        unsigned line;

        snprintf(config, sizeof(config), "%s", HARNESS_PELT_NO_BREAK_EVEN_CONFIG);
        at = strstr(config, "backend = hotplug");
        ck_assert_ptr_nonnull(at);
        memcpy(at, "backend = cpufreq", strlen("backend = cpufreq"));
        strcat(config, "[daemon]\nlog_level = debug\n");
        new_board("exynos5422");
        write_board_file(CPU "cpufreq/policy0/cpuinfo_min_freq", "1400000\n");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        harness_start_bus(NULL);
        start_daemon(write_config("bigLittle.conf", config));
        line = expect_line(0, "started: ", 10);
        expect_file(CPU "cpufreq/policy4/scaling_max_freq", "200000", SWITCH_BOUND_MS);

        /* The load would run on big's capped CPUs too (cpufreq leaves them
         * online): a hold asks for big instead. */
        reply = call_ok(bus, BUS_IFACE, "Hold", "sts", "big", 60 * SEC, "test");
        sd_bus_message_unref(reply);
        line = expect_line(line, "switch little -> big did nothing: policy0 cannot be capped",
                           SWITCH_BOUND_MS);
        expect_line_has(line, "one operating point");
        expect_line_has(line, "level big is left out");
        /* The cap on big was undone: the kernel is at little, as the daemon. */
        assert_file(CPU "cpufreq/policy4/scaling_max_freq", "200000");
        /* asked again: nothing is tried */
        reply = call_ok(bus, BUS_IFACE, "Hold", "sts", "big", 60 * SEC, "again");
        sd_bus_message_unref(reply);
        ck_assert_int_eq(fakeboard_run_for(fb, 1000), 0);
        ck_assert_uint_eq(count_lines(0, "did nothing"), 1);
        ck_assert_uint_eq(count_lines(0, "switch little -> big"), 1);
        assert_file(CPU "cpufreq/policy4/scaling_max_freq", "200000");
        assert_file(CPU "cpufreq/policy0/scaling_max_freq", "1400000");
        assert_property("Level", "little");

        reply = get_container("Unreachable", "a", "(ss)");
        ck_assert_int_gt(sd_bus_message_read(reply, "(ss)", &name, &why), 0);
        ck_assert_str_eq(name, "big");
        ck_assert_msg(strstr(why, "one operating point"), "%s", why);
        ck_assert_int_eq(sd_bus_message_read(reply, "(ss)", &name, &why), 0);
        sd_bus_message_unref(reply);

        ck_assert_int_eq(switchctl("status", out, sizeof(out)), 0);
        ck_assert_msg(strstr(out, "Unreachable: big: policy0 cannot be capped"), "%s", out);
        reply = call_ok(bus, BUS_IFACE, "Describe", "");
        ck_assert_int_ge(sd_bus_message_read(reply, "s", &text), 0);
        ck_assert_msg(strstr(text, "\"unreachable\":{\"big\":\"policy0 cannot be capped"), "%s", text);
        sd_bus_message_unref(reply);
}
END_TEST

static Suite *bus_suite(void)
{
        Suite *s = suite_create("bus");
        TCase *tc = tcase_create("service");
        TCase *auth = tcase_create("authorization");
        TCase *hostile = tcase_create("hostile");
        TCase *switching = tcase_create("switching");
        TCase *model = tcase_create("energy-model");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_properties);
        tcase_add_test(tc, test_describe_json);
        tcase_add_test(tc, test_hold_and_release);
        tcase_add_test(tc, test_history_and_switched_by_load);
        tcase_add_test(tc, test_bad_arguments);
        tcase_add_test(tc, test_hold_expires);
        tcase_add_test(tc, test_owner_gone);
        tcase_add_test(tc, test_persistence_across_restart);
        tcase_add_test(tc, test_reload);
        tcase_add_test(tc, test_pair_mode);
        tcase_add_test(tc, test_switchctl_end_to_end);
        suite_add_tcase(s, tc);

        tcase_add_checked_fixture(auth, setup, teardown);
        tcase_set_timeout(auth, 60);
        tcase_add_test(auth, test_access_denied_for_nobody);
        tcase_add_test(auth, test_allow_users);
        tcase_add_test(auth, test_polkit);
        tcase_add_test(auth, test_policy_file);
        suite_add_tcase(s, auth);

        tcase_add_checked_fixture(hostile, setup, teardown);
        tcase_set_timeout(hostile, 60);
        tcase_add_test(hostile, test_hostile_strings);
        tcase_add_test(hostile, test_wrong_signatures);
        tcase_add_test(hostile, test_hostile_durations);
        tcase_add_test(hostile, test_hold_flood_one_connection);
        tcase_add_test(hostile, test_hold_flood_many_connections);
        tcase_add_test(hostile, test_total_hold_limit);
        tcase_add_test(hostile, test_bus_rejects_malformed_strings);
        suite_add_tcase(s, hostile);

        tcase_add_checked_fixture(switching, setup, teardown);
        tcase_set_timeout(switching, 60);
        tcase_add_test(switching, test_aftermath_is_not_load);
        tcase_add_test(switching, test_slow_switch_keeps_ticking);
        tcase_add_test(switching, test_ignored_cap_leaves_level_out);
        tcase_add_test(switching, sigterm_waits_for_the_switch);
        suite_add_tcase(s, switching);

        tcase_add_checked_fixture(model, setup, teardown);
        tcase_set_timeout(model, 60);
        tcase_add_test(model, test_energy_model_board_file);
        tcase_add_test(model, test_energy_model_other_machine_refused);
        tcase_add_test(model, test_energy_model_check_config);
        tcase_add_test(model, test_energy_model_debugfs);
        tcase_add_test(model, test_energy_model_debugfs_misfit);
        suite_add_tcase(s, model);
        return s;
}

int main(void)
{
        return harness_main(bus_suite(), "check-bus");
}
