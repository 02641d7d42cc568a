/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who may do what on org.bigLittle.Switch1: root, nobody (a child that
 * drops its uid), users when [holds] allow_users is set, polkit's answer (a
 * fake polkit on the test's bus), and the shipped bus policy.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/integration/bus-test.h"
#include "tests/integration/fake-polkit.h"
#include "tests/integration/json-reader.h"
#include "tests/integration/run-as.h"

static const char system_policy[] = HARNESS_SYSTEM_BUS_POLICY(CONF_DIR);

static unsigned count_newlines(const char *text)
{
        unsigned n = 0;

        for (const char *p = text; (p = strchr(p, '\n')); p++)
                n++;
        return n;
}

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

static Suite *auth_suite(void)
{
        Suite *s = suite_create("bus-auth");
        TCase *auth = tcase_create("authorization");

        tcase_add_checked_fixture(auth, bus_test_setup, bus_test_teardown);
        tcase_set_timeout(auth, 60);
        tcase_add_test(auth, test_access_denied_for_nobody);
        tcase_add_test(auth, test_allow_users);
        tcase_add_test(auth, test_polkit);
        tcase_add_test(auth, test_policy_file);
        suite_add_tcase(s, auth);
        return s;
}

int main(void)
{
        return harness_main(auth_suite(), "check-bus-auth");
}
