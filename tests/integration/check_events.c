/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real bigLittled on a fake board, told of changes through udev events
 * (fakeboard_uevent()): CPUs someone else takes off line, the daemon's own
 * hotplug writes coming back as events, thermal zones that change.
 *
 * Suspend is played by check_faults (a preload moves CLOCK_BOOTTIME);
 * tests/unit/check_clock_jump.c covers the detection with virtual clocks.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/integration/harness.h"

#define UP_DELAY_MS 200
#define DOWN_DELAY_MS 300
#define SWITCH_BOUND_MS 2000
#define EVENT_BOUND_MS 3000

/* Events that change nothing are said at debug level only: the tests wait
 * for those lines to know an event was handled before the next change. */
static const char debug_config[] = "[daemon]\nlog_level = debug\n";

static const unsigned idle_load[] = { 40 };
static const unsigned heavy_load[] = { 600, 600 };

static const char *default_config(void)
{
        char text[sizeof(HARNESS_PELT_CONFIG) + sizeof(debug_config)];

        snprintf(text, sizeof(text), "%s%s", HARNESS_PELT_CONFIG, debug_config);
        return write_config("bigLittle.conf", text);
}

static void start_daemon(const char *config)
{
        spawn_daemon(config, NULL);
}

/* Sends a udev event; the daemon's monitor must be there to get it. */
static void send_uevent(const char *path, const char *action)
{
        int r = fakeboard_uevent(fb, path, action);

        ck_assert_msg(r == 1, "fakeboard_uevent(%s, %s) reached %d monitors, expected the daemon's", path,
                      action, r);
}

static void stop(void)
{
        assert_exit_status(stop_daemon(SIGTERM), 0);
}

/* Someone else takes cpu6 off line while the daemon runs on the big
 * cluster: the daemon says so, finds the same kinds of core, leaves cpu6
 * out of its levels and goes on switching; when someone brings cpu6 back,
 * the levels use it again. Before that, an event the daemon's own switch
 * caused (cpu4 came on line with big) passes quietly. */
START_TEST(test_foreign_offline_is_noticed)
{
        unsigned started, line;
        const char *text;

        new_board("exynos5422");
        set_load(idle_load, 1);
        start_daemon(default_config());
        started = expect_line(0, "started: ", START_BOUND_MS);
        expect_online("0-3", SWITCH_BOUND_MS);

        set_load(heavy_load, 2);
        expect_online("0,4-7", UP_DELAY_MS + SWITCH_BOUND_MS);
        line = expect_line(started, "switch little -> big: ", 1000);

        /* The kernel's echo of the daemon's own write. */
        send_uevent("/sys/devices/system/cpu/cpu4", "online");
        expect_line(line, "cpu4 online: the CPUs are as the daemon left them", EVENT_BOUND_MS);

        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 6, false), 0);
        send_uevent("/sys/devices/system/cpu/cpu6", "offline");
        line = expect_line(line, "someone else changed the CPUs", EVENT_BOUND_MS);
        text = fakeboard_line(fb, line, NULL);
        ck_assert_msg(strstr(text, "cpu6 offline: ") && strstr(text, "online 0,4-5,7, the daemon left 0,4-7"),
                      "unexpected line: %s", text);
        /* The cpu4 event was the daemon's own. */
        ck_assert_uint_eq(count_lines(started, "someone else"), 1);
        ck_assert_int_eq(fakeboard_find_line(fb, started, "cpu4 online: someone else"), -ENOENT);

        /* cpu6 stays offline: the daemon does not fight whoever took it down. */
        line = expect_line(line, "CPUs 6 are left out of every level until someone brings them back",
                           EVENT_BOUND_MS);
        line = expect_line(line, "kinds of core unchanged: level big re-applied [online 0,4-5,7]",
                           EVENT_BOUND_MS);
        expect_online("0,4-5,7", SWITCH_BOUND_MS);
        ck_assert_int_eq(fakeboard_find_line(fb, started, "new ladder"), -ENOENT);

        /* It keeps working, without cpu6. */
        set_load(idle_load, 1);
        expect_online("0-3", DOWN_DELAY_MS + SWITCH_BOUND_MS);
        line = expect_line(line, "switch big -> little: ", 1000);
        set_load(heavy_load, 2);
        expect_online("0,4-5,7", UP_DELAY_MS + SWITCH_BOUND_MS);
        line = expect_line(line, "switch little -> big: ", 1000);

        /* Brought back by someone, cpu6 is the levels' again. */
        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 6, true), 0);
        send_uevent("/sys/devices/system/cpu/cpu6", "online");
        line = expect_line(line, "CPUs 6 are back: the levels use them again", EVENT_BOUND_MS);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        ck_assert_uint_eq(count_lines(started, "someone else"), 2);
        ck_assert(fakeboard_running(fb));
        stop();
        ck_assert_msg(online_equals("0-7"), "online is %s after exit", online_text());
}
END_TEST

/* At little, someone brings a big CPU on line: the daemon takes it off
 * again, since the level says little. */
START_TEST(test_foreign_online_is_undone)
{
        unsigned started, line;

        new_board("exynos5422");
        set_load(idle_load, 1);
        start_daemon(default_config());
        started = expect_line(0, "started: ", START_BOUND_MS);
        expect_online("0-3", SWITCH_BOUND_MS);

        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 5, true), 0);
        send_uevent("/sys/devices/system/cpu/cpu5", "online");
        line = expect_line(started,
                           "cpu5 online: someone else changed the CPUs (online 0-3,5, the daemon left 0-3)",
                           EVENT_BOUND_MS);
        expect_line(line, "kinds of core unchanged: level little re-applied [online 0-3]", EVENT_BOUND_MS);
        expect_online("0-3", SWITCH_BOUND_MS);
        stop();
}
END_TEST

static void set_capacity(unsigned cpu, unsigned capacity)
{
        char path[64], text[16];

        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cpu_capacity", cpu);
        snprintf(text, sizeof(text), "%u\n", capacity);
        write_board_file(path, text);
}

/* The kinds of core change under the daemon (played here by rewriting
 * cpu_capacity, since the board cannot unplug devices): with one kind left
 * it keeps running and does nothing; when two come back it builds a new
 * ladder and switches again. */
START_TEST(test_kinds_of_core_change)
{
        unsigned started, line;

        new_board("exynos5422");
        set_load(idle_load, 1);
        start_daemon(default_config());
        started = expect_line(0, "started: ", START_BOUND_MS);
        expect_online("0-3", SWITCH_BOUND_MS);

        for (unsigned cpu = 4; cpu < 8; cpu++)
                set_capacity(cpu, 377);
        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 5, true), 0);
        send_uevent("/sys/devices/system/cpu/cpu5", "online");
        line = expect_line(started, "cpu5 online: someone else changed the CPUs", EVENT_BOUND_MS);
        line = expect_line(line, "the kinds of core changed: ", EVENT_BOUND_MS);
        line = expect_line(line, "one kind of core left: not switching until another comes back",
                           EVENT_BOUND_MS);
        /* Paused: the load does not move it, and cpu5 stays as it was left. */
        set_load(heavy_load, 2);
        ck_assert_int_eq(fakeboard_run_for(fb, UP_DELAY_MS + 800), 0);
        ck_assert_msg(online_equals("0-3,5"), "online is %s while paused; the daemon said:%s", online_text(),
                      log_text());
        ck_assert_int_eq(fakeboard_find_line(fb, started, "switch "), -ENOENT);
        ck_assert(fakeboard_running(fb));

        for (unsigned cpu = 4; cpu < 8; cpu++)
                set_capacity(cpu, 1024);
        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 5, false), 0);
        send_uevent("/sys/devices/system/cpu/cpu5", "offline");
        line = expect_line(line, "cpu5 offline: someone else changed the CPUs", EVENT_BOUND_MS);
        line = expect_line(line, "new ladder: mode cluster", EVENT_BOUND_MS);
        ck_assert_ptr_nonnull(strstr(fakeboard_line(fb, line, NULL),
                                     "levels little (cpus 0-3, capacity 377), "
                                     "big (cpus 4-7, capacity 1024)"));
        line = expect_line(line, "new ladder: level little re-applied", EVENT_BOUND_MS);
        /* Under the load that is still there, it goes big, without cpu5:
         * whoever took it offline last is not overruled. */
        expect_online("0,4,6-7", UP_DELAY_MS + SWITCH_BOUND_MS);
        expect_line(line, "switch little -> big: ", 1000);
        /* Leaving puts back what the daemon found, except cpu5: whoever
         * took it offline meant it. */
        stop();
        ck_assert_msg(online_equals("0-4,6-7"), "online is %s after exit", online_text());
}
END_TEST

/* A thermal zone that changes: with zones = auto the daemon picks again,
 * and says so only when the watched set changed. */
START_TEST(test_thermal_change_reopens_zones)
{
        unsigned started, line;

        new_board("exynos5422");
        set_load(idle_load, 1);
        start_daemon(default_config());
        started = expect_line(0, "started: ", START_BOUND_MS);

        /* Nothing changed: no notice. */
        send_uevent("/sys/devices/virtual/thermal/thermal_zone0", "change");
        expect_line(started, "thermal_zone0 change: the same thermal zones", EVENT_BOUND_MS);
        /* gpu-thermal becomes a zone that auto picks. */
        write_board_file("/sys/devices/virtual/thermal/thermal_zone4/type", "soc-thermal\n");
        send_uevent("/sys/devices/virtual/thermal/thermal_zone4", "change");

        line = expect_line(started, "thermal_zone4 change: thermal zones changed; watching ", EVENT_BOUND_MS);
        ck_assert_msg(strstr(fakeboard_line(fb, line, NULL),
                             "watching thermal_zone0 (cpu0-thermal), thermal_zone1 (cpu1-thermal), "
                             "thermal_zone2 (cpu2-thermal), thermal_zone3 (cpu3-thermal), "
                             "thermal_zone4 (soc-thermal)"),
                      "unexpected line: %s", fakeboard_line(fb, line, NULL));
        ck_assert_uint_eq(count_lines(started, "thermal zones changed"), 1);
        ck_assert(fakeboard_running(fb));
        stop();
}
END_TEST

static Suite *events_suite(void)
{
        Suite *s = suite_create("events");
        TCase *tc = tcase_create("exynos5422");

        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_foreign_offline_is_noticed);
        tcase_add_test(tc, test_foreign_online_is_undone);
        tcase_add_test(tc, test_kinds_of_core_change);
        tcase_add_test(tc, test_thermal_change_reopens_zones);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(events_suite(), "check-events");
}
