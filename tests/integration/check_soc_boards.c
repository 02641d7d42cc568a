/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real bigLittled on the topologies of the shipped SoC boards (issue 17
 * item 4), each a fake board shaped from the imported model in conf/boards/:
 * uneven cluster sizes (RK3399, 4+2), three clusters (GS101, 4+2+2) in
 * cluster and mp mode, a LITTLE cluster whose top OPP is slower than the big
 * one's bottom (RK3588; also GS101's A55s against its X1s), and a cluster
 * whose CPUs report two capacities. On each the daemon must report the
 * ladder the kernel's layout implies, climb to the top level when every CPU
 * is loaded, come back to the lowest when the load goes, and put every CPU
 * back online on SIGTERM.
 *
 * Timing follows check_topologies.c: bounds far above the configured delays,
 * so a loaded machine only makes the tests slower.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "tests/integration/harness.h"

#define SWITCH_BOUND_MS 3000
#define STAYS_MS 800

static const unsigned idle_load[] = { 40 };

struct soc_case {
        const char *board;
        const char *mode;               /* the configuration's mode */
        const char *how;                /* the start line's topology and mode part */
        const char *levels;             /* its levels part */
        unsigned ncpus;
        const char *all;                /* online before the start and after SIGTERM */
        const char *lowest;             /* online at the lowest level */
        const char *top;                /* online at the top level */
        const char *top_name;
        /* One task of about half the lowest level's capacity: it needs a
         * high OPP there but fits, and the daemon must not move for it (half,
         * not just under the 80 % threshold, as a late board step on a
         * loaded machine reads as busy time). */
        unsigned fits;
};

static const struct soc_case cases[] = {
        {
                /* 4+2, and arm64 offlines cpu0 too: the big level is the A72s alone. */
                .board = "rk3399",
                .mode = "cluster",
                .how = "started: cpufreq related_cpus + cpu_capacity; mode cluster",
                .levels = "levels little (cpus 0-3, capacity 381), big (cpus 4-5, capacity 1024);",
                .ncpus = 6,
                .all = "0-5",
                .lowest = "0-3",
                .top = "4-5",
                .top_name = "big",
                .fits = 200,
        },
        {
                .board = "gs101",
                .mode = "cluster",
                .how = "started: cpufreq related_cpus + cpu_capacity; mode cluster",
                .levels = "levels little (cpus 0-3, capacity 160), mid (cpus 4-5, capacity 498), "
                          "big (cpus 6-7, capacity 1024);",
                .ncpus = 8,
                .all = "0-7",
                .lowest = "0-3",
                .top = "6-7",
                .top_name = "big",
                .fits = 80,
        },
        {
                /* The faster CPUs join fastest cluster first: the X1s, then the A76s. */
                .board = "gs101",
                .mode = "mp",
                .how = "started: cpufreq related_cpus + cpu_capacity; mode mp (mode = mp in the configuration)",
                .levels = "levels little (cpus 0-3, capacity 160), little+1big (cpus 0-3,6, capacity 1024), "
                          "little+2big (cpus 0-3,6-7, capacity 1024), little+2big+1mid (cpus 0-4,6-7, capacity 1024), "
                          "all (cpus 0-7, capacity 1024);",
                .ncpus = 8,
                .all = "0-7",
                .lowest = "0-3",
                .top = "0-7",
                .top_name = "all",
                .fits = 80,
        },
        {
                /* Two A76 pairs with a policy and cluster_id each but one
                 * capacity: one level. */
                .board = "rk3588",
                .mode = "cluster",
                .how = "started: cpufreq related_cpus + cpu_capacity; mode cluster",
                .levels = "levels little (cpus 0-3, capacity 397), big (cpus 4-7, capacity 1024);",
                .ncpus = 8,
                .all = "0-7",
                .lowest = "0-3",
                .top = "4-7",
                .top_name = "big",
                .fits = 200,
        },
        {
                /* Kinds of core are told apart by capacity, not by cluster or
                 * policy: the two of 942 are a level of their own. */
                .board = "mixed-capacity-cluster",
                .mode = "cluster",
                .how = "started: cpufreq related_cpus + cpu_capacity; mode cluster",
                .levels = "levels little (cpus 0-3, capacity 397), mid (cpus 6-7, capacity 942), "
                          "big (cpus 4-5, capacity 1024);",
                .ncpus = 8,
                .all = "0-7",
                .lowest = "0-3",
                .top = "4-5",
                .top_name = "big",
                .fits = 200,
        },
};

static const char *case_config(const struct soc_case *c)
{
        static char config[sizeof(HARNESS_PELT_CONFIG) + 64];

        snprintf(config, sizeof(config), "%s[daemon]\nmode = %s\n", HARNESS_PELT_CONFIG, c->mode);
        return write_config("bigLittle.conf", config);
}

START_TEST(test_soc_board_ladder_climbs_and_restores)
{
        const struct soc_case *c = &cases[_i];
        unsigned heavy[FAKEBOARD_MAX_TASKS];
        unsigned started, up;
        const char *line;
        char needle[64];

        new_board(c->board);
        ck_assert_msg(online_equals(c->all), "%s: online is %s before the start, not %s", c->board,
                      online_text(), c->all);
        set_load(idle_load, 1);
        spawn_daemon(case_config(c), NULL);
        started = expect_line(0, "started: ", START_BOUND_MS);
        line = fakeboard_line(fb, started, NULL);
        ck_assert_msg(strstr(line, c->how), "%s %s: the start line does not say \"%s\":\n    %s", c->board,
                      c->mode, c->how, line);
        ck_assert_msg(strstr(line, c->levels), "%s %s: the start line does not say \"%s\":\n    %s", c->board,
                      c->mode, c->levels, line);
        expect_online(c->lowest, SWITCH_BOUND_MS);

        /* A task the lowest level carries keeps it there. */
        set_load(&c->fits, 1);
        expect_online_stays(c->lowest, STAYS_MS);

        /* More than a CPU's worth on every CPU, whatever is online. */
        for (unsigned i = 0; i < c->ncpus; i++)
                heavy[i] = 900;
        set_load(heavy, c->ncpus);
        expect_online(c->top, 3 * SWITCH_BOUND_MS);
        snprintf(needle, sizeof(needle), " -> %s: ", c->top_name);
        up = expect_line(started, needle, 1000);
        expect_online_stays(c->top, STAYS_MS);

        set_load(idle_load, 1);
        expect_online(c->lowest, 3 * SWITCH_BOUND_MS);
        snprintf(needle, sizeof(needle), " -> %s: ", "little");
        expect_line(up + 1, needle, 1000);

        assert_exit_status(stop_daemon(SIGTERM), 0);
        ck_assert_msg(online_equals(c->all), "%s %s: online is %s after exit, not %s", c->board, c->mode,
                      online_text(), c->all);
        ck_assert_msg(strcmp(online_files(), c->all) == 0, "%s %s: the online files say %s after exit, not %s",
                      c->board, c->mode, online_files(), c->all);
}
END_TEST

static Suite *soc_boards_suite(void)
{
        Suite *s = suite_create("soc-boards");
        TCase *tc = tcase_create("boards");

        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_loop_test(tc, test_soc_board_ladder_climbs_and_restores, 0,
                            (int)(sizeof(cases) / sizeof(cases[0])));
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(soc_boards_suite(), "check-soc-boards");
}
