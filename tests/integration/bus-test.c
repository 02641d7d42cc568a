/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/integration/bus-client.h"
#include "tests/integration/bus-test.h"

const unsigned idle_load[1] = { 40 };
const unsigned heavy_load[2] = { 600, 600 };

sd_bus *bus;
struct seen seen;

void bus_test_setup(void)
{
        harness_setup();
        bus = NULL;
        memset(&seen, 0, sizeof(seen));
}

void bus_test_teardown(void)
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

static bool daemon_on_bus(struct fakeboard *board, void *userdata)
{
        return bus_client_name_owned(bus) || !fakeboard_running(board);
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

void start_daemon(const char *config)
{
        spawn_daemon(config, NULL);
        expect_line(0, "started: ", START_BOUND_MS);
        if (!bus)
                connect_root();
        ck_assert_int_eq(fakeboard_run(fb, START_BOUND_MS, daemon_on_bus, NULL), 1);
        ck_assert_msg(fakeboard_running(fb) && bus_client_name_owned(bus),
                      "the daemon is not on the bus; it said:%s", log_text());
}

void start_idle(const char *extra)
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

void expect_changed(const char *name)
{
        ck_assert_msg(fakeboard_run(fb, SWITCH_BOUND_MS, property_changed, (void *)name) == 1,
                      "no PropertiesChanged for %s", name);
}

bool switched_seen(struct fakeboard *board, void *userdata)
{
        (void)board;
        pump();
        return seen.nswitched >= *(unsigned *)userdata;
}

uint64_t wall_now(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec / 1000;
}

uint64_t mono_now(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec / 1000;
}

int hold_with_flags(sd_bus *b, const char *level, uint64_t duration, const char *reason, uint64_t flags,
                    uint32_t *id, sd_bus_error *error)
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

uint32_t hold_ok(sd_bus *b, const char *level, uint64_t duration, const char *reason, uint64_t flags)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        uint32_t id = 0;
        int r = hold_with_flags(b, level, duration, reason, flags, &id, &error);

        ck_assert_msg(r >= 0, "Hold(%s) failed: %s: %s", level, error.name, error.message);
        ck_assert_uint_gt(id, 0);
        return id;
}

int call_u(sd_bus *b, const char *member, sd_bus_error *error, uint32_t *ret, const char *types, ...)
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

void expect_error(int r, sd_bus_error *error, const char *name, const char *contains)
{
        ck_assert_msg(r < 0, "the call succeeded; expected %s", name);
        ck_assert_msg(sd_bus_error_has_name(error, name), "error %s (%s); expected %s", error->name,
                      error->message, name);
        if (contains)
                ck_assert_msg(strstr(error->message, contains), "error message \"%s\" lacks \"%s\"",
                              error->message, contains);
        sd_bus_error_free(error);
}

char *get_string(const char *property)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        char *value = NULL;
        int r = sd_bus_get_property_string(bus, BUS_NAME, BUS_PATH, BUS_IFACE, property, &error, &value);

        ck_assert_msg(r >= 0, "Get(%s): %s", property, error.message);
        return value;
}

void assert_property(const char *property, const char *want)
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

void expect_property(const char *property, const char *want, unsigned timeout_ms)
{
        struct level_wait w = { property, want };

        if (fakeboard_run(fb, timeout_ms, property_is, &w) != 1) {
                char *value = get_string(property);

                ck_abort_msg("%s is \"%s\", not \"%s\", after %u ms", property, value, want, timeout_ms);
        }
}

void get_trivial(const char *property, char type, void *ret)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        int r = sd_bus_get_property_trivial(bus, BUS_NAME, BUS_PATH, BUS_IFACE, property, &error, type, ret);

        ck_assert_msg(r >= 0, "Get(%s): %s", property, error.message);
}

double get_double(const char *property)
{
        double v = NAN;

        get_trivial(property, 'd', &v);
        return v;
}

sd_bus_message *get_container(const char *property, const char *type, const char *contents)
{
        sd_bus_message *reply = NULL;
        char signature[64];

        snprintf(signature, sizeof(signature), "%s%s", type, contents);
        int r = sd_bus_get_property(bus, BUS_NAME, BUS_PATH, BUS_IFACE, property, NULL, &reply, signature);

        ck_assert_int_ge(r, 0);
        ck_assert_int_ge(sd_bus_message_enter_container(reply, type[0], contents), 0);
        return reply;
}

sd_bus_message *get_struct(const char *property, const char *contents)
{
        sd_bus_message *reply = NULL;
        char signature[64];

        snprintf(signature, sizeof(signature), "(%s)", contents);
        ck_assert_int_ge(sd_bus_get_property(bus, BUS_NAME, BUS_PATH, BUS_IFACE, property, NULL, &reply,
                                             signature), 0);
        ck_assert_int_ge(sd_bus_message_enter_container(reply, 'r', contents), 0);
        return reply;
}

sd_bus_message *call_ok(sd_bus *b, const char *iface, const char *member, const char *types, ...)
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

unsigned read_holds(struct hold_info *out, unsigned size)
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

unsigned count_holds(void)
{
        struct hold_info h[64];

        return read_holds(h, 64);
}

static bool holds_are(struct fakeboard *board, void *userdata)
{
        (void)board;
        return count_holds() == *(unsigned *)userdata;
}

void expect_holds(unsigned n, unsigned timeout_ms)
{
        ck_assert_msg(fakeboard_run(fb, timeout_ms, holds_are, &n) == 1, "%u holds, not %u, after %u ms",
                      count_holds(), n, timeout_ms);
}

int switchctl(const char *args, char *out, size_t size)
{
        char cmd[PATH_MAX + 512];

        snprintf(cmd, sizeof(cmd), "%s %s", SWITCHCTL_PATH, args);
        return harness_run(cmd, out, size);
}
