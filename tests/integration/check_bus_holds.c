/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * org.bigLittle.Switch1's holds: placed and released, announced, ended by
 * their time or their owner leaving the bus, and the persistent ones kept
 * across a restart of the daemon.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/integration/bus-test.h"

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

static Suite *holds_suite(void)
{
        Suite *s = suite_create("bus-holds");
        TCase *tc = tcase_create("holds");

        tcase_add_checked_fixture(tc, bus_test_setup, bus_test_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_hold_and_release);
        tcase_add_test(tc, test_hold_expires);
        tcase_add_test(tc, test_owner_gone);
        tcase_add_test(tc, test_persistence_across_restart);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(holds_suite(), "check-bus-holds");
}
