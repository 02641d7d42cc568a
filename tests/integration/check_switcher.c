/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real bigLittled on a TC2 with the kernel's big.LITTLE switcher active
 * (fake board "tc2-switcher"): it must pick pair mode and the switcher
 * backend by itself and move each pair across the virtual-frequency
 * boundary through its logical CPU's cpufreq limits. The board does not
 * play the switch itself (a CPU's cores swap under it), so the tests assert
 * on the limits the daemon writes and on its log.
 *
 * On that table (175-500 MHz virtual A7, 500-1200 MHz A15, 500 MHz listed
 * by both halves) big is scaling_min_freq 600000, little scaling_max_freq
 * 450000; the limits at start are 175000-1200000.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/integration/harness.h"

#define UP_DELAY_MS 200
#define SWITCH_BOUND_MS 2000

static const char config_text[] =
        "[daemon]\n"
        "sample_interval_ms = 20\n"
        "[policy]\n"
        "heuristics = pelt\n"
        "[hysteresis]\n"
        "up_threshold = 80\n"
        "down_threshold = 60\n"
        "up_delay_ms = 200\n"
        "down_delay_ms = 300\n"
        "min_residency_ms = 40\n"
        "max_switch_rate_hz = 10\n";

static const unsigned idle_load[] = { 40 };

static void start_daemon(void)
{
        new_board("tc2-switcher");
        spawn_daemon(write_config("bigLittle.conf", config_text), NULL);
}

static void assert_limits(unsigned cpu, const char *min, const char *max)
{
        char path[128], now_min[32], now_max[32];

        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpufreq/policy%u/scaling_min_freq", cpu);
        read_board_file(path, now_min, sizeof(now_min));
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpufreq/policy%u/scaling_max_freq", cpu);
        read_board_file(path, now_max, sizeof(now_max));
        ck_assert_msg(strcmp(now_min, min) == 0 && strcmp(now_max, max) == 0,
                      "cpu%u limits are %s-%s, expected %s-%s; the daemon said:%s", cpu, now_min, now_max,
                      min, max, log_text());
}

/* Auto picks pair mode and the switcher backend and says why; the initial
 * level puts both pairs on LITTLE. */
START_TEST(test_auto_picks_pair_and_switcher)
{
        const char *line;
        unsigned started;

        start_daemon();
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        started = expect_line(0, "started: ", START_BOUND_MS);
        line = fakeboard_line(fb, started, NULL);
        ck_assert_msg(strstr(line, "mode pair (mode = auto: the kernel's big.LITTLE switcher is present, "
                                   "so pair)"), "%s", line);
        ck_assert_msg(strstr(line, "0=cpu2/cpu0 1=cpu3/cpu1; unpaired 4 kept offline"), "%s", line);
        ck_assert_msg(strstr(line, "backend switcher (auto: the kernel's big.LITTLE switcher is present; "
                                   "each pair is moved by its logical CPU's cpufreq limits)"), "%s", line);
        ck_assert_msg(strstr(line, "level LL [little: cpu 0-1; 2 writes]"), "%s", line);
        assert_limits(0, "175000", "450000");
        assert_limits(1, "175000", "450000");
        ck_assert_int_eq(WEXITSTATUS(stop_daemon(SIGTERM)), 0);
}
END_TEST

/* One busy task: its pair goes big (min above the boundary), the other
 * stays LITTLE; idle again, it comes back; SIGTERM puts back the limits
 * found at start, exactly. */
START_TEST(test_loaded_pair_crosses_the_boundary_and_back)
{
        static const unsigned one_heavy[] = { 600 };
        unsigned up, down, restored;
        int status;

        start_daemon();
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        expect_line(0, "started: ", START_BOUND_MS);
        assert_limits(0, "175000", "450000");

        ck_assert_int_eq(fakeboard_set_load(fb, one_heavy, 1), 0);
        up = expect_line(0, "switch pair 0 little -> big", UP_DELAY_MS + SWITCH_BOUND_MS);
        ck_assert_msg(strstr(fakeboard_line(fb, up, NULL), "[big: cpu 0, little: cpu 1; 2 writes]"), "%s",
                      fakeboard_line(fb, up, NULL));
        assert_limits(0, "600000", "1200000");
        assert_limits(1, "175000", "450000");
        ck_assert_int_lt(fakeboard_find_line(fb, 0, "switch pair 1"), 0);

        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        down = expect_line(up, "switch pair 0 big -> little", SWITCH_BOUND_MS);
        ck_assert_msg(strstr(fakeboard_line(fb, down, NULL), "[little: cpu 0-1; 2 writes]"), "%s",
                      fakeboard_line(fb, down, NULL));
        assert_limits(0, "175000", "450000");

        status = stop_daemon(SIGTERM);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d; the daemon said:%s", status,
                      log_text());
        restored = expect_line(down, "restored: ", 100);
        ck_assert_msg(strstr(fakeboard_line(fb, restored, NULL),
                             "cpufreq limits as found: cpu0 175000-1200000, cpu1 175000-1200000 kHz"),
                      "%s", fakeboard_line(fb, restored, NULL));
        assert_limits(0, "175000", "1200000");
        assert_limits(1, "175000", "1200000");
}
END_TEST

static Suite *switcher_suite(void)
{
        Suite *s = suite_create("switcher");
        TCase *tc = tcase_create("tc2-switcher");

        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_auto_picks_pair_and_switcher);
        tcase_add_test(tc, test_loaded_pair_crosses_the_boundary_and_back);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(switcher_suite(), "check-switcher");
}
