/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon on the bus while it switches on a kernel that is slow, busy
 * after a switch, or ignores it: it keeps ticking and answering, waits for
 * the switch at SIGTERM, and shows what it measured and left out.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/integration/bus-test.h"

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

/* An idle board at little already (starting writes nothing and takes no
 * time) whose hotplug writes take 250 ms each: a switch up, of four CPUs,
 * takes a second. */
static void slow_board_at_little(void)
{
        ck_assert_int_eq(setenv("FAKEBOARD_WRITE_DELAY_US", "250000", 1), 0);
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        for (unsigned cpu = 4; cpu < 8; cpu++)
                ck_assert_int_eq(fakeboard_set_cpu_online(fb, cpu, false), 0);
        harness_start_bus(NULL);
}

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

        slow_board_at_little();
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

        slow_board_at_little();
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

static Suite *switching_suite(void)
{
        Suite *s = suite_create("bus-switching");
        TCase *switching = tcase_create("switching");

        tcase_add_checked_fixture(switching, bus_test_setup, bus_test_teardown);
        tcase_set_timeout(switching, 60);
        tcase_add_test(switching, test_aftermath_is_not_load);
        tcase_add_test(switching, test_slow_switch_keeps_ticking);
        tcase_add_test(switching, test_ignored_cap_leaves_level_out);
        tcase_add_test(switching, sigterm_waits_for_the_switch);
        suite_add_tcase(s, switching);
        return s;
}

int main(void)
{
        return harness_main(switching_suite(), "check-bus-switching");
}
