/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real bigLittled with each backend other than hotplug on a fake board,
 * asserting on the files the backend writes and on the daemon's log.
 * Bounds are generous: the machines running this are shared.
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/integration/harness.h"

#define SWITCH_BOUND_MS 3000

static const char config_text[] = HARNESS_PELT_CONFIG;

static const unsigned idle_load[] = { 40 };
/* The fake board places tasks on the biggest CPUs first and knows nothing
 * of caps: eight tasks so that the LITTLE CPUs get work as well. */
static const unsigned heavy_load[] = { 600, 600, 600, 600, 600, 600, 600, 600 };

static void start_daemon(const char *backend)
{
        spawn_daemon(write_config("bigLittle.conf", config_text), "--backend", backend, NULL);
}

#define LITTLE_MAX "/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq"
#define BIG_MAX "/sys/devices/system/cpu/cpufreq/policy4/scaling_max_freq"

/* cpufreq on the Exynos 5422: every CPU stays online, the unused cluster is
 * capped at 200 MHz, and SIGTERM puts back the limits found at start. */
START_TEST(test_cpufreq_caps_the_unused_cluster)
{
        bl_cpumask online, all;
        unsigned line;
        int status = -1;

        ck_assert_int_eq(fakeboard_new("exynos5422", &fb), 0);
        set_load(idle_load, 1);
        start_daemon("cpufreq");
        line = expect_line(0, "started: ", START_BOUND_MS);
        ck_assert_msg(strstr(fakeboard_line(fb, line, NULL), "backend cpufreq (configured)"),
                      "start line: %s", fakeboard_line(fb, line, NULL));
        expect_file(BIG_MAX, "200000", SWITCH_BOUND_MS);
        assert_file(LITTLE_MAX, "1400000");

        /* The switch is logged once both policies are written; a file
         * seen changed may be the first of the two writes. */
        set_load(heavy_load, 8);
        line = expect_line(line, "switch little -> big: ", SWITCH_BOUND_MS);
        ck_assert_msg(strstr(fakeboard_line(fb, line, NULL), "capped 0-3"), "switch line: %s",
                      fakeboard_line(fb, line, NULL));
        assert_file(LITTLE_MAX, "200000");
        assert_file(BIG_MAX, "2000000");

        set_load(idle_load, 1);
        expect_line(line, "switch big -> little: ", SWITCH_BOUND_MS);
        assert_file(LITTLE_MAX, "1400000");
        assert_file(BIG_MAX, "200000");

        /* No CPU ever went offline. */
        fakeboard_online(fb, &online);
        ck_assert_int_eq(cpumask_parse(&all, "0-7"), 0);
        ck_assert(cpumask_equal(&online, &all));
        ck_assert_uint_eq(fakeboard_n_online_changes(fb), 0);

        ck_assert_int_eq(fakeboard_kill(fb, SIGTERM), 0);
        ck_assert_int_eq(fakeboard_wait(fb, EXIT_BOUND_MS, &status), 0);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit status %d; the daemon said:%s",
                      status, log_text());
        expect_line(0, "restored: scaling_max_freq as found: policy0 1400000, policy4 2000000 kHz", 100);
        assert_file(LITTLE_MAX, "1400000");
        assert_file(BIG_MAX, "2000000");
}
END_TEST

static Suite *backends_suite(void)
{
        Suite *s = suite_create("backends");
        TCase *tc = tcase_create("cpufreq");

        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_cpufreq_caps_the_unused_cluster);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(backends_suite(), "check-backends");
}
