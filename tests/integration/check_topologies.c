/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Topology recognition on every fake board: the real bigLittled must name the
 * clusters and levels each kernel layout implies and say how it told the
 * kinds of core apart, then switch up under load and back down with the
 * hotplug backend. A machine with one kind of core makes it exit 69.
 *
 * Timing follows check_daemon.c: bounds far above the configured delays.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/integration/harness.h"

#define SWITCH_BOUND_MS 3000

static const unsigned idle_load[] = { 40 };

/* What the daemon must make of one board, and one step up and back. */
struct board_case {
        const char *board;
        const char *how;                /* the start line's topology part */
        const char *levels;             /* its levels part */
        const char *all;                /* online before the start and after SIGTERM */
        const char *little;             /* online at the little level */
        unsigned load[4];               /* a load the little level cannot carry */
        unsigned nload;
        const char *up;                 /* online at the level that load needs */
        const char *switch_line;        /* "switch little -> big" */
};

static const struct board_case cases[] = {
        {
                .board = "exynos5422",
                .how = "started: cpufreq related_cpus + cpu_capacity; mode cluster",
                .levels = "levels little (cpus 0-3, capacity 377), big (cpus 4-7, capacity 1024);",
                .all = "0-7",
                .little = "0-3",
                .load = { 600, 600 },
                .nload = 2,
                .up = "0,4-7",
                .switch_line = "switch little -> big: ",
        },
        {
                /* arm64 offlines cpu0 too: the big level is the A72s alone. */
                .board = "rk3399",
                .how = "started: cpufreq related_cpus + cpu_capacity; mode cluster",
                .levels = "levels little (cpus 0-3, capacity 381), big (cpus 4-5, capacity 1024);",
                .all = "0-5",
                .little = "0-3",
                .load = { 600, 600 },
                .nload = 2,
                .up = "4-5",
                .switch_line = "switch little -> big: ",
        },
        {
                /* One DynamIQ cluster_id for all: the policies and capacities
                 * decide. Two tasks of 600 fit the mid level (80% of 828). */
                .board = "tri-cluster",
                .how = "started: cpufreq related_cpus + cpu_capacity; mode cluster",
                .levels = "levels little (cpus 0-3, capacity 325), mid (cpus 4-6, capacity 828), "
                          "big (cpus 7, capacity 1024);",
                .all = "0-7",
                .little = "0-3",
                .load = { 600, 600 },
                .nload = 2,
                .up = "4-6",
                .switch_line = "switch little -> mid: ",
        },
        {
                /* cpu0, a P-core, cannot go offline on x86. The E-cores'
                 * capacity is estimated (600), so the load must keep them
                 * busy beyond 80% of it. */
                .board = "intel-hybrid",
                .how = "started: hybrid PMU cpus files (cpu_atom, cpu_core); no cpu_capacity: capacity from "
                       "cpuinfo_max_freq and core type; mode cluster",
                .levels = "levels little (cpus 12-19, capacity 600), big (cpus 0-11, capacity 1024);",
                .all = "0-19",
                .little = "0,12-19",
                .load = { 900, 900, 900 },
                .nload = 3,
                .up = "0-11",
                .switch_line = "switch little -> big: ",
        },
};

START_TEST(test_board_detected_and_switches)
{
        const struct board_case *c = &cases[_i];
        unsigned started;
        const char *line;

        new_board(c->board);
        ck_assert(online_equals(c->all));
        set_load(idle_load, 1);
        spawn_daemon(write_pelt_config(NULL), NULL);
        started = expect_line(0, "started: ", START_BOUND_MS);
        line = fakeboard_line(fb, started, NULL);
        ck_assert_msg(strstr(line, c->how), "%s: the start line does not say \"%s\":\n    %s", c->board,
                      c->how, line);
        ck_assert_msg(strstr(line, c->levels), "%s: the start line does not say \"%s\":\n    %s", c->board,
                      c->levels, line);
        expect_online(c->little, SWITCH_BOUND_MS);

        set_load(c->load, c->nload);
        expect_online(c->up, SWITCH_BOUND_MS);
        expect_line(started, c->switch_line, 1000);

        set_load(idle_load, 1);
        expect_online(c->little, SWITCH_BOUND_MS);

        assert_exit_status(stop_daemon(SIGTERM), 0);
        ck_assert_msg(online_equals(c->all), "%s: online is %s after exit, not %s", c->board, online_text(),
                      c->all);
}
END_TEST

START_TEST(test_tri_cluster_climbs_to_big)
{
        /* One task beyond the mid level's capacity needs the prime core. */
        static const unsigned mid_load[] = { 600, 600 };
        static const unsigned big_load[] = { 1000 };

        new_board("tri-cluster");
        set_load(idle_load, 1);
        spawn_daemon(write_pelt_config(NULL), NULL);
        expect_line(0, "started: ", START_BOUND_MS);
        expect_online("0-3", SWITCH_BOUND_MS);
        set_load(mid_load, 2);
        expect_online("4-6", SWITCH_BOUND_MS);
        set_load(big_load, 1);
        expect_online("7", SWITCH_BOUND_MS);
        expect_line(0, "switch mid -> big: ", 1000);
        set_load(idle_load, 1);
        expect_online("0-3", 2 * SWITCH_BOUND_MS);
}
END_TEST

START_TEST(test_symmetric_x86_exits_69)
{
        int status = -1, r;

        new_board("x86-symmetric");
        spawn_daemon(write_pelt_config(NULL), NULL);
        r = fakeboard_wait(fb, EXIT_BOUND_MS, &status);
        ck_assert_msg(r == 0, "the daemon still runs on a symmetric machine; it said:%s", log_text());
        assert_exit_status(status, EXIT_UNAVAILABLE);
        expect_line(0, "one kind of core (no cpu_capacity and per-CPU cpufreq policies: one kind assumed)",
                    100);
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "started: "), -ENOENT);
        ck_assert(online_equals("0-3"));
}
END_TEST

static Suite *topologies_suite(void)
{
        Suite *s = suite_create("topologies");
        TCase *tc = tcase_create("boards");

        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_loop_test(tc, test_board_detected_and_switches, 0, (int)(sizeof(cases) / sizeof(cases[0])));
        tcase_add_test(tc, test_tri_cluster_climbs_to_big);
        tcase_add_test(tc, test_symmetric_x86_exits_69);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(topologies_suite(), "check-topologies");
}
