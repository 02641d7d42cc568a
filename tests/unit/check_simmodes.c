/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulator's three switching modes: system levels, the generalised
 * execution rules and the oracle over levels. Expected numbers are worked
 * out by hand in the comments on a small board with round figures (3 LITTLE
 * + 2 big, like TC2); the real boards check the level layouts and the
 * choices the oracle makes. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "loaders/board-file.h"
#include "sim/exec.h"
#include "sim/modes.h"
#include "sim/oracle.h"
#include "sim/run.h"
#include "sim/trace.h"
#include "sim/workload.h"

#define BOARD_HEADER(latency, energy)                   \
        "[board]\n"                                     \
        "name = test\n"                                 \
        "reference_capacity = 1024\n"                   \
        "switch_latency_us = " latency "\n"             \
        "switch_energy_uj = " energy "\n"
#define LITTLE_SECTION                                  \
        "[cluster.little]\n"                            \
        "cpus = 3\n"                                    \
        "order = 0\n"                                   \
        "off_mw = 2\n"                                  \
        "opp = 100 256 10 4\n"                          \
        "opp = 200 512 30 8\n"                          \
        "opp = 300 768 60 12\n"
#define BIG_SECTION                                     \
        "[cluster.big]\n"                               \
        "cpus = 2\n"                                    \
        "order = 1\n"                                   \
        "off_mw = 5\n"                                  \
        "opp = 500 512 100 20\n"                        \
        "opp = 1000 1024 400 40\n"

/* CPUs 0-2 LITTLE (256/512/768, 10/30/60 mW busy, 4/8/12 mW idle, 2 off),
 * 3-4 big (512/1024, 100/400 busy, 20/40 idle, 5 off); a switch stalls
 * 100 µs and costs 50 µJ. Pairs (0, 3) and (1, 4), CPU 2 unpaired. */
static const char tb_text[] = BOARD_HEADER("100", "50") LITTLE_SECTION BIG_SECTION;

/* Three clusters given out of order: LITTLE CPUs 0-3, mid 4-5, big 6. */
static const char three_text[] =
        BOARD_HEADER("50", "20")
        "[cluster.big]\ncpus = 1\norder = 2\noff_mw = 8\nopp = 1000 800 200 30\nopp = 1500 1024 450 60\n"
        "[cluster.little]\ncpus = 4\norder = 0\noff_mw = 1\nopp = 200 128 5 2\nopp = 400 256 12 4\n"
        "[cluster.mid]\ncpus = 2\norder = 1\noff_mw = 3\nopp = 300 300 40 10\nopp = 600 600 90 20\n";

static struct bl_diag diag;
static struct sim_board tb, exynos, tc2;

static void load_text(struct sim_board *b, const char *text)
{
        ck_assert_uint_eq(board_parse(b, "test.ini", text, strlen(text), &diag), 0);
}

static void setup(void)
{
        diag_init(&diag);
        load_text(&tb, tb_text);
        ck_assert_int_eq(board_load(&exynos, BOARDS_DIR "/exynos5422-like.ini", &diag), 0);
        ck_assert_int_eq(board_load(&tc2, BOARDS_DIR "/tc2.ini", &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
}

static void build(struct sim_levels *lv, const struct sim_board *b, enum bl_mode mode)
{
        ck_assert_int_eq(sim_levels_build(lv, b, mode, &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
}

static void check_level(const struct sim_levels *lv, unsigned l, const char *name, uint64_t active,
                        const char *slots)
{
        const struct sim_level *lvl = &lv->level[l];

        ck_assert_uint_lt(l, lv->nlevels);
        ck_assert_str_eq(lvl->name, name);
        ck_assert_msg(lvl->active == active, "level %s: active %#llx, expected %#llx", name,
                      (unsigned long long)lvl->active, (unsigned long long)active);
        ck_assert_int_eq(sim_levels_find(lv, name), (int)l);
        if (slots) {
                ck_assert_uint_eq(lvl->nslots, strlen(slots));
                for (unsigned r = 0; r < lvl->nslots; r++)
                        ck_assert_uint_eq(lvl->slot_cpu[r], (unsigned)(slots[r] - '0'));
        }
}

/* Levels */

START_TEST(test_levels_exynos)
{
        struct sim_levels lv;

        build(&lv, &exynos, BL_MODE_CLUSTER);
        ck_assert_uint_eq(lv.nlevels, 2);
        check_level(&lv, 0, "little", 0x0f, "0123");
        check_level(&lv, 1, "big", 0xf0, "4567");
        ck_assert_uint_eq(lv.switch_share, 1);

        /* Four pairs (0,4) (1,5) (2,6) (3,7): 16 levels, bit p = pair p on big. */
        build(&lv, &exynos, BL_MODE_PAIR);
        ck_assert_uint_eq(lv.nlevels, 16);
        ck_assert_uint_eq(lv.npairs, 4);
        ck_assert_uint_eq(lv.switch_share, 4);
        ck_assert(lv.unpaired == 0);
        for (unsigned p = 0; p < 4; p++) {
                ck_assert_uint_eq(lv.pair_cpu[p][0], p);
                ck_assert_uint_eq(lv.pair_cpu[p][1], 4 + p);
        }
        check_level(&lv, 0, "LLLL", 0x0f, "0123");
        check_level(&lv, 1, "BLLL", 0x1e, "4123");
        check_level(&lv, 2, "LBLL", 0x2d, "0523");
        check_level(&lv, 5, "BLBL", 0x5a, "4163");
        check_level(&lv, 10, "LBLB", 0xa5, "0527");
        check_level(&lv, 15, "BBBB", 0xf0, "4567");
        for (unsigned l = 0; l < 16; l++)
                ck_assert_uint_eq(lv.level[l].clusters, l == 0 ? 1 : l == 15 ? 2 : 3);

        /* mp: big CPUs join in number order, and the lanes are dealt to them first. */
        build(&lv, &exynos, BL_MODE_MP);
        ck_assert_uint_eq(lv.nlevels, 5);
        ck_assert_uint_eq(lv.switch_share, 4);
        check_level(&lv, 0, "little", 0x0f, "0123");
        check_level(&lv, 1, "little+1big", 0x1f, "40123");
        check_level(&lv, 2, "little+2big", 0x3f, "450123");
        check_level(&lv, 3, "little+3big", 0x7f, "4560123");
        check_level(&lv, 4, "all", 0xff, "45670123");
        ck_assert_int_eq(sim_levels_find(&lv, "big"), -ENOENT);
}
END_TEST

START_TEST(test_levels_tc2)
{
        struct sim_levels lv;

        build(&lv, &tc2, BL_MODE_CLUSTER);
        check_level(&lv, 0, "little", 0x07, "012");
        check_level(&lv, 1, "big", 0x18, "34");

        /* Two pairs (0,3) and (1,4); the third A7 (CPU 2) stays off. */
        build(&lv, &tc2, BL_MODE_PAIR);
        ck_assert_uint_eq(lv.nlevels, 4);
        ck_assert_uint_eq(lv.npairs, 2);
        ck_assert(lv.unpaired == 0x04);
        check_level(&lv, 0, "LL", 0x03, "01");
        check_level(&lv, 1, "BL", 0x0a, "31");
        check_level(&lv, 2, "LB", 0x11, "04");
        check_level(&lv, 3, "BB", 0x18, "34");
        ck_assert_uint_eq(lv.switch_share, 2);

        build(&lv, &tc2, BL_MODE_MP);
        ck_assert_uint_eq(lv.nlevels, 3);
        check_level(&lv, 0, "little", 0x07, "012");
        check_level(&lv, 1, "little+1big", 0x0f, "3012");
        check_level(&lv, 2, "all", 0x1f, "34012");
        ck_assert_uint_eq(lv.switch_share, 2);
}
END_TEST

START_TEST(test_levels_three_clusters)
{
        struct sim_board b;
        struct sim_levels lv;

        load_text(&b, three_text);
        build(&lv, &b, BL_MODE_CLUSTER);
        check_level(&lv, 0, "little", 0x0f, "0123");
        check_level(&lv, 1, "mid", 0x30, "45");
        check_level(&lv, 2, "big", 0x40, "6");

        /* Fastest cluster first: the big CPU, then the mid ones, named
         * after both. The switch energy is shared by the fastest cluster's
         * one CPU. */
        build(&lv, &b, BL_MODE_MP);
        ck_assert_uint_eq(lv.nlevels, 4);
        check_level(&lv, 0, "little", 0x0f, "0123");
        check_level(&lv, 1, "little+1big", 0x4f, "60123");
        check_level(&lv, 2, "little+1big+1mid", 0x5f, "640123");
        check_level(&lv, 3, "all", 0x7f, "6450123");
        ck_assert_uint_eq(lv.level[1].clusters, 0x5);
        ck_assert_uint_eq(lv.switch_share, 1);

        ck_assert_int_eq(sim_levels_build(&lv, &b, BL_MODE_PAIR, &diag), -EOPNOTSUPP);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], "board test: pair mode needs exactly two clusters (the in-kernel "
                                      "switcher pairs one LITTLE CPU with one big CPU), this board has 3");
}
END_TEST

START_TEST(test_levels_refused)
{
        struct sim_board one, many;
        struct sim_levels lv;

        load_text(&one, BOARD_HEADER("10", "1") LITTLE_SECTION);
        ck_assert_int_eq(sim_levels_build(&lv, &one, BL_MODE_PAIR, &diag), -EINVAL);
        ck_assert_int_eq(sim_levels_build(&lv, &one, BL_MODE_MP, &diag), -EINVAL);
        ck_assert_uint_eq(diag.n, 2);
        ck_assert_str_eq(diag.msg[1], "board test: mp mode needs at least two clusters, this board has 1");
        /* One cluster is one level in cluster mode, as oracle_solve() takes it. */
        diag_init(&diag);
        build(&lv, &one, BL_MODE_CLUSTER);
        check_level(&lv, 0, "little", 0x07, "012");

        diag_init(&diag);
        ck_assert_int_eq(sim_levels_build(&lv, &tb, BL_MODE_AUTO, &diag), -EINVAL);
        ck_assert_str_eq(diag.msg[0], "the simulator needs a mode (cluster, pair or mp), not auto");

        /* 7 + 7 CPUs: 7 pairs, 128 levels, refused. */
        diag_init(&diag);
        load_text(&many, BOARD_HEADER("10", "1")
                  "[cluster.little]\ncpus = 7\norder = 0\noff_mw = 1\nopp = 100 512 10 4\n"
                  "[cluster.big]\ncpus = 7\norder = 1\noff_mw = 1\nopp = 100 1024 10 4\n");
        ck_assert_int_eq(sim_levels_build(&lv, &many, BL_MODE_PAIR, &diag), -E2BIG);
        ck_assert_str_eq(diag.msg[0], "board test: pair mode supports at most 6 pairs (64 system levels for "
                                      "the oracle), this board has 7");

        /* 6 + 7: 64 levels, the 7th big CPU (12) off. Level 33 = pairs 0 and
         * 5 on big: CPUs 6, 1, 2, 3, 4, 11. */
        load_text(&many, BOARD_HEADER("10", "1")
                  "[cluster.little]\ncpus = 6\norder = 0\noff_mw = 1\nopp = 100 512 10 4\n"
                  "[cluster.big]\ncpus = 7\norder = 1\noff_mw = 1\nopp = 100 1024 10 4\n");
        diag_init(&diag);
        build(&lv, &many, BL_MODE_PAIR);
        ck_assert_uint_eq(lv.nlevels, 64);
        ck_assert(lv.unpaired == UINT64_C(1) << 12);
        check_level(&lv, 0, "LLLLLL", 0x3f, "012345");
        check_level(&lv, 33, "BLLLLB", 0x85e, NULL);
        ck_assert_uint_eq(lv.level[33].slot_cpu[0], 6);
        ck_assert_uint_eq(lv.level[33].slot_cpu[4], 4);
        ck_assert_uint_eq(lv.level[33].slot_cpu[5], 11);
        check_level(&lv, 63, "BBBBBB", 0xfc0, NULL);
}
END_TEST

START_TEST(test_switch_shares)
{
        struct sim_levels lv;

        /* Exynos: 160 µJ for the whole system. Pair mode: 40 µJ a pair. */
        build(&lv, &exynos, BL_MODE_PAIR);
        ck_assert_uint_eq(sim_levels_changes(&lv, 1, 2), 2);
        ck_assert_double_eq(sim_levels_switch_energy_nj(&exynos, &lv, 1, 2), 80000);
        ck_assert_double_eq(sim_levels_switch_energy_nj(&exynos, &lv, 0, 15), 160000);
        ck_assert_double_eq(sim_levels_switch_energy_nj(&exynos, &lv, 7, 8), 160000);
        ck_assert_double_eq(sim_levels_switch_energy_nj(&exynos, &lv, 4, 6), 40000);
        ck_assert_uint_eq(sim_levels_changes(&lv, 5, 5), 0);
        ck_assert_uint_eq(sim_levels_changes(&lv, SIM_LEVEL_NONE, 5), 0);
        ck_assert_double_eq(sim_levels_switch_energy_nj(&exynos, &lv, SIM_LEVEL_NONE, 15), 0);

        /* mp: 40 µJ a big CPU added or removed. */
        build(&lv, &exynos, BL_MODE_MP);
        ck_assert_uint_eq(sim_levels_changes(&lv, 0, 4), 4);
        ck_assert_double_eq(sim_levels_switch_energy_nj(&exynos, &lv, 0, 4), 160000);
        ck_assert_double_eq(sim_levels_switch_energy_nj(&exynos, &lv, 1, 3), 80000);
        ck_assert_double_eq(sim_levels_switch_energy_nj(&exynos, &lv, 4, 3), 40000);

        build(&lv, &exynos, BL_MODE_CLUSTER);
        ck_assert_uint_eq(sim_levels_changes(&lv, 0, 1), 1);
        ck_assert_double_eq(sim_levels_switch_energy_nj(&exynos, &lv, 1, 0), 160000);

        /* TC2: 2000 µJ; two pairs, two big CPUs: 1000 µJ each. */
        build(&lv, &tc2, BL_MODE_PAIR);
        ck_assert_double_eq(sim_levels_switch_energy_nj(&tc2, &lv, 0, 1), 1e6);
        ck_assert_double_eq(sim_levels_switch_energy_nj(&tc2, &lv, 1, 2), 2e6);
        build(&lv, &tc2, BL_MODE_MP);
        ck_assert_double_eq(sim_levels_switch_energy_nj(&tc2, &lv, 2, 1), 1e6);
        ck_assert_double_eq(sim_levels_switch_energy_nj(&tc2, &lv, 0, 2), 2e6);
}
END_TEST

/* Placement */

START_TEST(test_placement)
{
        static const double none[6] = { 0 };
        static const double mixed[6] = { 10, 50, 50, 5, 30, 20 };
        static const double gap[6] = { 10, 50, 0, 5, 30, 20 };
        static const double pair1_idle[6] = { 10, 0, 30, 0, 0, 0 };
        struct sim_levels lv;
        unsigned cpu[6];

        /* Pair mode: lane i on pair i mod 2, on the pair's active CPU. */
        build(&lv, &tb, BL_MODE_PAIR);
        exec_level_lane_cpus(&lv, 2, 5, none, cpu);
        ck_assert_uint_eq(cpu[0], 0);
        ck_assert_uint_eq(cpu[1], 4);
        ck_assert_uint_eq(cpu[2], 0);
        ck_assert_uint_eq(cpu[3], 4);
        ck_assert_uint_eq(cpu[4], 0);
        /* With work on both pairs, each lane stays on its own (pair 0 on big
         * at BL); with pair 1 idle, lane 2 moves there from pair 0. */
        exec_level_lane_cpus(&lv, 1, 5, mixed, cpu);
        ck_assert_uint_eq(cpu[0], 3);
        ck_assert_uint_eq(cpu[1], 1);
        ck_assert_uint_eq(cpu[4], 3);
        exec_level_lane_cpus(&lv, 1, 5, pair1_idle, cpu);
        ck_assert_uint_eq(cpu[0], 3);
        ck_assert_uint_eq(cpu[2], 1);
        ck_assert_uint_eq(cpu[4], 3);

        /* Cluster mode, big (CPUs 4-7): with work on every CPU, lane i stays
         * on CPU 4 + i mod 4; with lane 2's CPU idle, lane 4 (on CPU 4 by
         * its number, beside lane 0) moves there, and lane 5 finds no other
         * idle CPU. */
        build(&lv, &exynos, BL_MODE_CLUSTER);
        exec_level_lane_cpus(&lv, 1, 6, mixed, cpu);
        ck_assert_uint_eq(cpu[0], 4);
        ck_assert_uint_eq(cpu[3], 7);
        ck_assert_uint_eq(cpu[4], 4);
        ck_assert_uint_eq(cpu[5], 5);
        exec_level_lane_cpus(&lv, 1, 6, gap, cpu);
        ck_assert_uint_eq(cpu[0], 4);
        ck_assert_uint_eq(cpu[1], 5);
        ck_assert_uint_eq(cpu[3], 7);
        ck_assert_uint_eq(cpu[4], 6);
        ck_assert_uint_eq(cpu[5], 5);

        /* mp, level all (CPUs 3, 4, 0, 1, 2): ranks by work 50 (lane 1),
         * 50 (lane 2, the tie goes by index), 30 (4), 20 (5), 10 (0), 5 (3);
         * rank r on CPU slot r mod 5: lane 3 (rank 5) wraps to CPU 3. */
        build(&lv, &tb, BL_MODE_MP);
        exec_level_lane_cpus(&lv, 2, 6, mixed, cpu);
        ck_assert_uint_eq(cpu[1], 3);
        ck_assert_uint_eq(cpu[2], 4);
        ck_assert_uint_eq(cpu[4], 0);
        ck_assert_uint_eq(cpu[5], 1);
        ck_assert_uint_eq(cpu[0], 2);
        ck_assert_uint_eq(cpu[3], 3);
        /* No work at all: by lane index. */
        exec_level_lane_cpus(&lv, 1, 6, none, cpu);
        ck_assert_uint_eq(cpu[0], 3);
        ck_assert_uint_eq(cpu[1], 0);
        ck_assert_uint_eq(cpu[3], 2);
        ck_assert_uint_eq(cpu[4], 3);
}
END_TEST

static uint64_t rng_next(uint64_t *state)
{
        uint64_t x = *state;

        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        *state = x;
        return x * 0x2545F4914F6CDD1DULL;
}

/* Many lanes take the heap sort: ranks as counted one by one. */
START_TEST(test_rank_many_lanes)
{
        static const unsigned sizes[] = { 1, 2, 31, 32, 33, 40, 257, SIM_EXEC_MAX_LANES };
        uint64_t state = 0x7a4e5;
        double pending[SIM_EXEC_MAX_LANES];
        unsigned rank[SIM_EXEC_MAX_LANES];

        for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
                const unsigned n = sizes[k];

                /* Few distinct values, so that ties are everywhere. */
                for (unsigned i = 0; i < n; i++)
                        pending[i] = (double)(rng_next(&state) % 7);
                exec_rank_lanes(n, pending, rank);
                for (unsigned i = 0; i < n; i++) {
                        unsigned before = 0;

                        for (unsigned j = 0; j < n; j++)
                                before += pending[j] > pending[i] || (pending[j] == pending[i] && j < i);
                        ck_assert_uint_eq(rank[i], before);
                }
        }
}
END_TEST

/* Execution */

static void check_busy(const struct sim_level_step *out, unsigned ncpus, const double *expected)
{
        for (unsigned cpu = 0; cpu < ncpus; cpu++)
                ck_assert_msg(out->busy_us[cpu] == expected[cpu], "CPU %u busy %g, expected %g", cpu,
                              out->busy_us[cpu], expected[cpu]);
}

/* Level LB: lane 0 on LITTLE CPU 0, lane 1 on big CPU 4, both clusters up
 * with one CPU each. LITTLE: 100 needs 1.25 x 1024 x 100 = 128000 <= 256 x
 * 1000, OPP 0, busy 400 µs x 10 mW + 4 mW idle = 8000 nJ. big: 300 needs
 * 384000 <= 512000, OPP 0, busy 600 x 100 + 20 x 1000 = 80000. No cluster
 * is off: 88000. */
START_TEST(test_exec_partly_active)
{
        struct sim_levels lv;
        double backlog[2] = { 0, 0 }, work[2] = { 100, 300 };
        static const double busy[5] = { 400, 0, 0, 0, 600 };
        struct sim_level_step out;

        build(&lv, &tb, BL_MODE_PAIR);
        ck_assert_int_eq(exec_level_step(&tb, &lv, 2, SIM_LEVEL_NONE, 1000, 2, backlog, work, &out), 0);
        check_busy(&out, 5, busy);
        ck_assert_uint_eq(out.clusters, 3);
        ck_assert_uint_eq(out.opp[0], 0);
        ck_assert_uint_eq(out.opp[1], 0);
        ck_assert_double_eq(out.energy_nj, 88000);
        ck_assert_double_eq(out.backlog, 0);
        ck_assert(!out.switched);
        ck_assert(out.stalled == 0);
        ck_assert_uint_eq(out.changes, 0);

        /* Idle on LL: LITTLE idle 4 mW, big off 5 mW (the unpaired CPU 2
         * changes nothing: its cluster is up anyway). */
        work[0] = work[1] = 0;
        ck_assert_int_eq(exec_level_step(&tb, &lv, 0, 0, 1000, 2, backlog, work, &out), 0);
        ck_assert_double_eq(out.energy_nj, 9000);
        ck_assert_uint_eq(out.clusters, 1);
}
END_TEST

/* Lanes 0 and 2 share pair 0 (CPU 0 on LL), lane 1 keeping pair 1 busy:
 * 900 + 300 = 1200 pending, more than the top OPP (768) does in 1000 µs
 * (750): busy 1000 µs, 450 left, shared 3 : 1 as the lanes brought it.
 * Lane 1's 200 takes CPU 1 266.7 µs. 1266.7 x 60 + 12 x 1000 + 5 x 1000 off. */
START_TEST(test_exec_backlog_shared)
{
        struct sim_levels lv;
        double backlog[3] = { 0, 0, 0 }, work[3] = { 900, 200, 300 }, light[3] = { 0, 100, 0 };
        struct sim_level_step out;

        build(&lv, &tb, BL_MODE_PAIR);
        ck_assert_int_eq(exec_level_step(&tb, &lv, 0, SIM_LEVEL_NONE, 1000, 3, backlog, work, &out), 0);
        ck_assert_uint_eq(out.opp[0], 2);
        ck_assert_double_eq(out.busy_us[0], 1000);
        ck_assert_double_eq_tol(out.busy_us[1], 200.0 * 1024 / 768, 1e-9);
        ck_assert_double_eq(backlog[0], 337.5);
        ck_assert_double_eq(backlog[1], 0);
        ck_assert_double_eq(backlog[2], 112.5);
        ck_assert_double_eq(out.backlog, 450);
        ck_assert_double_eq_tol(out.energy_nj, 93000, 1e-6);

        /* Pair 0 moves to big (BL): CPU 3 is new, 900 µs for the 450 left:
         * 576000 > 512 x 900, OPP 1 (1024), busy 450 x 400 + 40 idle. LITTLE
         * stays up for pair 1, whose lane 1 (100 at OPP 0: 400 µs x 10 + 4
         * idle) leaves lane 2 no idle pair to move to. Half the switch (one
         * pair of two): 25 µJ. 180000 + 40000 + 8000 + 25000. */
        ck_assert_int_eq(exec_level_step(&tb, &lv, 1, 0, 1000, 3, backlog, light, &out), 0);
        ck_assert(out.stalled == 0x08);
        ck_assert_uint_eq(out.opp[1], 1);
        ck_assert_double_eq(out.busy_us[3], 450);
        ck_assert_double_eq(out.backlog, 0);
        ck_assert_double_eq(out.energy_nj, 253000);
}
END_TEST

/* CPU pressure (exec.c rule 7) and the tasks runnable at the step's end
 * (rule 8), cluster mode on LITTLE (exec.c rule 1). A lane alone on
 * its CPU with more than it can do (900 against 750 at the top OPP) is
 * running, not waiting: no pressure, work left. */
START_TEST(test_exec_pressure)
{
        struct sim_levels lv;
        double backlog[4] = { 0, 0, 0, 0 };
        double alone[4] = { 900, 0, 0, 0 }, apart[4] = { 300, 0, 0, 100 }, shared[4] = { 300, 100, 100, 100 };
        double light[4] = { 100, 0, 0, 0 };
        struct sim_level_step out;

        build(&lv, &tb, BL_MODE_CLUSTER);
        ck_assert_int_eq(exec_level_step(&tb, &lv, 0, SIM_LEVEL_NONE, 1000, 4, backlog, alone, &out), 0);
        ck_assert_double_eq(out.busy_us[0], 1000);
        ck_assert_double_eq(out.backlog, 150);
        ck_assert_double_eq(out.waiting_us, 0);
        ck_assert_uint_eq(out.running, 1);

        /* Lane 3 runs on a CPU of its own, not beside lane 0 (lane i on CPU
         * i mod 3 would put it there): nothing waits. 300 at OPP 1 (512, the
         * lowest with 1.25 x 300), 600 µs; 100, 200 µs. */
        memset(backlog, 0, sizeof(backlog));
        ck_assert_int_eq(exec_level_step(&tb, &lv, 0, SIM_LEVEL_NONE, 1000, 4, backlog, apart, &out), 0);
        ck_assert_double_eq(out.busy_us[0], 600);
        ck_assert_double_eq(out.busy_us[1], 200);
        ck_assert_double_eq(out.backlog, 0);
        ck_assert_double_eq(out.waiting_us, 0);
        /* Rule 8: nothing left, but what arrived kept CPU 0 busy 600 µs
         * of 1000: one task running as the step ends; CPU 1's 200 µs, none. */
        ck_assert_uint_eq(out.running, 1);

        /* Four lanes with work on three CPUs: lane 3 has no idle CPU to go
         * to and stays beside lane 0, 400 at OPP 1, 800 µs busy; both run
         * until lane 3's 100 is done, then lane 0's other 200 alone (400
         * µs): 400 µs of waiting, weighted by each CPU's busy time against
         * the others' 200 µs: 400 x 800 / 1200. */
        ck_assert_int_eq(exec_level_step(&tb, &lv, 0, SIM_LEVEL_NONE, 1000, 4, backlog, shared, &out), 0);
        ck_assert_double_eq(out.busy_us[0], 800);
        ck_assert_double_eq(out.busy_us[1], 200);
        ck_assert_double_eq(out.busy_us[2], 200);
        ck_assert_double_eq_tol(out.waiting_us, 400.0 * 800 / 1200, 1e-9);
        ck_assert_uint_eq(out.running, 1);

        /* A lane whose CPU a switch stalls waits through the stall (100 µs),
         * and runs alone after it (100 at OPP 0: 400 µs). */
        ck_assert_int_eq(exec_level_step(&tb, &lv, 0, 1, 1000, 4, backlog, light, &out), 0);
        ck_assert(out.stalled & 1);
        ck_assert_double_eq(out.busy_us[0], 400);
        ck_assert_double_eq(out.waiting_us, 100);
        /* 400 µs of 1000: more likely idle than running at the end. */
        ck_assert_uint_eq(out.running, 0);
}
END_TEST

/* From BL to BB pair 1 moves: CPU 4 is new and stalls (900 µs), CPU 3 does
 * not. The big cluster's OPP is the larger of what each asks with its own
 * time. */
START_TEST(test_exec_pair_stall)
{
        struct sim_levels lv;
        double backlog[2] = { 0, 0 };
        struct sim_level_step out;

        build(&lv, &tb, BL_MODE_PAIR);

        /* 400 on CPU 3 with the whole step: 512000 <= 512 x 1000, OPP 0;
         * CPU 4 idle. busy 800 x 100 + 20 idle + 2 LITTLE off + 25 µJ. */
        {
                double work[2] = { 400, 0 };
                static const double busy[5] = { 0, 0, 0, 800, 0 };

                ck_assert_int_eq(exec_level_step(&tb, &lv, 3, 1, 1000, 2, backlog, work, &out), 0);
                ck_assert(out.stalled == 0x10);
                ck_assert(out.switched);
                ck_assert_uint_eq(out.changes, 1);
                ck_assert_uint_eq(out.opp[1], 0);
                check_busy(&out, 5, busy);
                ck_assert_double_eq(out.energy_nj, 127000);
        }
        /* 400 on the stalled CPU 4: 512000 > 512 x 900, OPP 1, busy 400 x
         * 400 + 40 + 2 off + 25 µJ. */
        {
                double work[2] = { 0, 400 };
                static const double busy[5] = { 0, 0, 0, 0, 400 };

                ck_assert_int_eq(exec_level_step(&tb, &lv, 3, 1, 1000, 2, backlog, work, &out), 0);
                ck_assert_uint_eq(out.opp[1], 1);
                check_busy(&out, 5, busy);
                ck_assert_double_eq(out.energy_nj, 227000);

                /* The same as the run's first step: no stall, no switch: OPP 0, busy 800. */
                ck_assert_int_eq(exec_level_step(&tb, &lv, 3, SIM_LEVEL_NONE, 1000, 2, backlog, work, &out),
                                 0);
                ck_assert(out.stalled == 0);
                ck_assert(!out.switched);
                ck_assert_uint_eq(out.opp[1], 0);
                ck_assert_double_eq(out.energy_nj, 102000);
        }
        /* Both: 400 on CPU 3 (whole step) asks OPP 0, 100 on CPU 4 (128000 <=
         * 460800) too: busy 800 + 200. Swapped, CPU 4's 400 asks OPP 1 for
         * both: busy 100 + 400 at 400 mW. */
        {
                double work[2] = { 400, 100 };

                ck_assert_int_eq(exec_level_step(&tb, &lv, 3, 1, 1000, 2, backlog, work, &out), 0);
                ck_assert_uint_eq(out.opp[1], 0);
                ck_assert_double_eq(out.energy_nj, 100000 + 20000 + 2000 + 25000);
                work[0] = 100;
                work[1] = 400;
                ck_assert_int_eq(exec_level_step(&tb, &lv, 3, 1, 1000, 2, backlog, work, &out), 0);
                ck_assert_uint_eq(out.opp[1], 1);
                ck_assert_double_eq(out.busy_us[3], 100);
                ck_assert_double_eq(out.energy_nj, 200000 + 40000 + 2000 + 25000);
        }
        /* BB to LL: both pairs move, both LITTLE CPUs stall, the whole switch. */
        {
                double work[2] = { 0, 0 };

                ck_assert_int_eq(exec_level_step(&tb, &lv, 0, 3, 1000, 2, backlog, work, &out), 0);
                ck_assert(out.stalled == 0x03);
                ck_assert_uint_eq(out.changes, 2);
                ck_assert_double_eq(out.energy_nj, 4000 + 5000 + 50000);
        }
}
END_TEST

/* mp, lanes 400 and 100: lane 0 ranks first and runs on the big CPU 3,
 * lane 1 on LITTLE CPU 0 (100: OPP 0, busy 400 x 10 + 4 idle = 8000). */
START_TEST(test_exec_mp_stall)
{
        struct sim_levels lv;
        double backlog[2] = { 0, 0 }, work[2] = { 400, 100 };
        struct sim_level_step out;

        build(&lv, &tb, BL_MODE_MP);

        /* little -> little+1big: CPU 3 is new: 900 µs, OPP 1, busy 400 x 400
         * + 40 idle; half the switch (one of the two big CPUs). */
        ck_assert_int_eq(exec_level_step(&tb, &lv, 1, 0, 1000, 2, backlog, work, &out), 0);
        ck_assert(out.stalled == 0x08);
        ck_assert_uint_eq(out.changes, 1);
        ck_assert_uint_eq(out.opp[1], 1);
        ck_assert_double_eq(out.busy_us[3], 400);
        ck_assert_double_eq(out.busy_us[0], 400);
        ck_assert_double_eq(out.energy_nj, 160000 + 40000 + 8000 + 25000);

        /* all -> little+1big: CPU 4 goes, nobody stalls: OPP 0, busy 800 x
         * 100 + 20; the removal pays its share too. */
        ck_assert_int_eq(exec_level_step(&tb, &lv, 1, 2, 1000, 2, backlog, work, &out), 0);
        ck_assert(out.stalled == 0);
        ck_assert(out.switched);
        ck_assert_uint_eq(out.opp[1], 0);
        ck_assert_double_eq(out.energy_nj, 80000 + 20000 + 8000 + 25000);

        /* Staying. */
        ck_assert_int_eq(exec_level_step(&tb, &lv, 1, 1, 1000, 2, backlog, work, &out), 0);
        ck_assert(!out.switched);
        ck_assert_double_eq(out.energy_nj, 108000);

        /* little -> all: both big CPUs new; lane 1 now ranks onto CPU 4 (100
         * in 900 µs: OPP 0 would do, but CPU 3's 400 needs OPP 1): busy 400 +
         * 100 at 400 mW + 40; LITTLE up and idle (4); the whole switch. */
        ck_assert_int_eq(exec_level_step(&tb, &lv, 2, 0, 1000, 2, backlog, work, &out), 0);
        ck_assert(out.stalled == 0x18);
        ck_assert_uint_eq(out.changes, 2);
        ck_assert_double_eq(out.busy_us[4], 100);
        ck_assert_double_eq(out.busy_us[0], 0);
        ck_assert_double_eq(out.energy_nj, 200000 + 40000 + 4000 + 50000);
}
END_TEST

START_TEST(test_exec_refused)
{
        struct sim_levels lv;
        double backlog[1] = { 7 }, work[1] = { 1 };
        struct sim_level_step out = { .energy_nj = -1 };

        build(&lv, &tb, BL_MODE_PAIR);
        ck_assert_int_eq(exec_level_step(&tb, &lv, 4, SIM_LEVEL_NONE, 1000, 1, backlog, work, &out), -EINVAL);
        ck_assert_int_eq(exec_level_step(&tb, &lv, 0, 4, 1000, 1, backlog, work, &out), -EINVAL);
        ck_assert_int_eq(exec_level_step(&tb, &lv, 0, 0, 1000, SIM_EXEC_MAX_LANES + 1, backlog, work, &out),
                         -EINVAL);
        ck_assert_double_eq(out.energy_nj, -1);
        ck_assert_double_eq(backlog[0], 7);
}
END_TEST

/* Cluster mode through the levels gives exec_step()'s numbers to the last
 * bit: random work, carried backlog, overloads and switches. */
static void check_cluster_equal(const struct sim_board *b, unsigned nlanes, unsigned max_work, uint64_t seed)
{
        struct sim_levels lv;
        double backlog_a[16] = { 0 }, backlog_b[16] = { 0 }, work[16];
        unsigned prev = SIM_LEVEL_NONE;
        uint64_t state = seed;

        build(&lv, b, BL_MODE_CLUSTER);
        for (unsigned s = 0; s < 400; s++) {
                unsigned k = (unsigned)(rng_next(&state) % 8 == 0 ? rng_next(&state) % b->nclusters
                                                                   : prev == SIM_LEVEL_NONE ? 0 : prev);
                const struct sim_cluster *c = &b->cluster[k];
                struct sim_step a;
                struct sim_level_step out;

                for (unsigned i = 0; i < nlanes; i++)
                        work[i] = (double)(rng_next(&state) % (max_work * 8)) / 8.0;
                exec_step(b, k, prev != SIM_LEVEL_NONE && prev != k, 1000, nlanes, backlog_a, work, &a);
                ck_assert_int_eq(exec_level_step(b, &lv, k, prev, 1000, nlanes, backlog_b, work, &out), 0);
                ck_assert_msg(a.energy_nj == out.energy_nj, "step %u: %.17g != %.17g", s, a.energy_nj,
                              out.energy_nj);
                ck_assert(a.backlog == out.backlog);
                ck_assert_uint_eq(a.opp, out.opp[k]);
                for (unsigned j = 0; j < c->cpus; j++)
                        ck_assert(a.busy_us[j] == out.busy_us[c->first_cpu + j]);
                for (unsigned i = 0; i < nlanes; i++)
                        ck_assert(backlog_a[i] == backlog_b[i]);
                prev = k;
        }
}

START_TEST(test_exec_cluster_equal)
{
        struct sim_board b3;

        load_text(&b3, three_text);
        check_cluster_equal(&tb, 5, 900, 0xc1);
        check_cluster_equal(&exynos, 8, 500, 0xc2);
        check_cluster_equal(&tc2, 3, 1500, 0xc3);
        check_cluster_equal(&b3, 7, 300, 0xc4);
}
END_TEST

/* Fixed runs */

struct trace_workload {
        struct sim_trace trace;
        struct sim_workload *w;
};

static void make_trace(struct sim_trace *t, unsigned nlanes, size_t nsteps, const float *work)
{
        t->step_us = 1000;
        t->nlanes = nlanes;
        t->nsteps = nsteps;
        t->work = malloc(nlanes * nsteps * sizeof(float));
        ck_assert_ptr_nonnull(t->work);
        memcpy(t->work, work, nlanes * nsteps * sizeof(float));
}

static void random_trace(struct sim_trace *t, unsigned nlanes, size_t nsteps, unsigned max_work,
                         uint64_t *state)
{
        t->step_us = 1000;
        t->nlanes = nlanes;
        t->nsteps = nsteps;
        t->work = malloc(nlanes * nsteps * sizeof(float));
        ck_assert_ptr_nonnull(t->work);
        /* Light and heavy steps mixed, some repeated, so that switching can pay
         * and identical steps are met; work in 1/16, exact in floats. */
        for (size_t s = 0; s < nsteps; s++) {
                static const float scale[] = { 0, 0.25f, 0.5f, 1 };
                float f = scale[rng_next(state) % 4];

                if (s > 0 && rng_next(state) % 4 == 0) {
                        memcpy(t->work + s * nlanes, t->work + (s - 1) * nlanes, nlanes * sizeof(float));
                        continue;
                }
                for (unsigned i = 0; i < nlanes; i++)
                        t->work[s * nlanes + i] = f * (float)(rng_next(state) % (max_work * 16)) / 16.0f;
        }
}

START_TEST(test_fixed_cluster_equal)
{
        uint64_t state = 0xf1;
        struct sim_trace t, rec;
        struct sim_workload *w;
        struct sim_levels lv;
        struct sim_result a, b;

        random_trace(&t, 5, 300, 1200, &state);
        ck_assert_int_eq(workload_from_trace(&w, "random", &t), 0);
        build(&lv, &tb, BL_MODE_CLUSTER);
        for (unsigned k = 0; k < 2; k++) {
                ck_assert_int_eq(sim_run_fixed(&tb, w, k, &a, NULL), 0);
                ck_assert_int_eq(sim_run_fixed_level(&tb, &lv, w, k, &b, k == 1 ? &rec : NULL), 0);
                ck_assert(a.late_work_ratio > 0);
                ck_assert(a.energy_uj == b.energy_uj);
                ck_assert(a.late_work_ratio == b.late_work_ratio);
                ck_assert(a.total_work == b.total_work);
                ck_assert_uint_eq(a.steps, b.steps);
                ck_assert_uint_eq(b.switches, 0);
                ck_assert_uint_eq(a.time_in[0], b.time_in[0]);
                ck_assert_uint_eq(a.time_in[1], b.time_in[1]);
        }
        ck_assert_uint_eq(rec.nsteps, 300);
        ck_assert_int_eq(memcmp(rec.work, t.work, 300 * 5 * sizeof(float)), 0);
        trace_free(&rec);
        ck_assert_int_eq(sim_run_fixed_level(&tb, &lv, w, 2, &b, NULL), -EINVAL);
        workload_free(w);
        trace_free(&t);
}
END_TEST

/* A fixed run is exec_level_step() step after step, backlog carried; each
 * cluster counts the time it had an active CPU. */
static void check_fixed(const struct sim_board *b, enum bl_mode mode, unsigned level,
                        const struct sim_trace *t, struct sim_workload *w, bl_usec_t little_us, bl_usec_t big_us)
{
        struct sim_levels lv;
        struct sim_result r;
        double backlog[8] = { 0 }, work[8], energy = 0, late = 0, total = 0;

        build(&lv, b, mode);
        for (size_t s = 0; s < t->nsteps; s++) {
                struct sim_level_step out;

                for (unsigned i = 0; i < t->nlanes; i++) {
                        work[i] = t->work[s * t->nlanes + i];
                        total += work[i];
                }
                ck_assert_int_eq(exec_level_step(b, &lv, level, s ? level : SIM_LEVEL_NONE, 1000, t->nlanes,
                                                 backlog, work, &out), 0);
                energy += out.energy_nj;
                late += out.backlog;
        }
        ck_assert_int_eq(sim_run_fixed_level(b, &lv, w, level, &r, NULL), 0);
        ck_assert(r.energy_uj == energy / 1000);
        ck_assert(r.late_work_ratio == late / total);
        ck_assert_uint_eq(r.time_in[0], little_us);
        ck_assert_uint_eq(r.time_in[1], big_us);
}

START_TEST(test_fixed_modes)
{
        uint64_t state = 0xf2;
        struct sim_trace t;
        struct sim_workload *w;

        random_trace(&t, 6, 200, 800, &state);
        ck_assert_int_eq(workload_from_trace(&w, "random", &t), 0);
        check_fixed(&tb, BL_MODE_PAIR, 0, &t, w, 200000, 0);
        check_fixed(&tb, BL_MODE_PAIR, 3, &t, w, 0, 200000);
        check_fixed(&tb, BL_MODE_PAIR, 2, &t, w, 200000, 200000);
        check_fixed(&tb, BL_MODE_MP, 2, &t, w, 200000, 200000);
        check_fixed(&exynos, BL_MODE_MP, 3, &t, w, 200000, 200000);
        check_fixed(&exynos, BL_MODE_PAIR, 15, &t, w, 0, 200000);
        workload_free(w);
        trace_free(&t);
}
END_TEST

/* Oracle */

/* Both programmes (the cluster oracle, and the levels a backend's cost
 * model uses) place a step's lanes as exec does: lane 3 moves to CPU 1,
 * idle, and LITTLE finishes 600 + 600 at 768 (800 µs each: 1600 x 60 + 12
 * idle + 5 big off = 113000). Priced beside lane 0 on CPU 0, LITTLE would
 * drop work and big be chosen. */
START_TEST(test_oracles_place_as_exec)
{
        static const float work[] = { 600, 0, 0, 600 };
        struct sim_levels lv;
        struct sim_trace t;
        struct sim_level_oracle o;
        struct sim_oracle c;

        build(&lv, &tb, BL_MODE_CLUSTER);
        make_trace(&t, 4, 1, work);
        ck_assert_int_eq(oracle_solve_levels(&tb, &lv, &t, true, &o), 0);
        ck_assert_uint_eq(o.infeasible_steps, 0);
        ck_assert_uint_eq(o.sequence[0], 0);
        ck_assert_double_eq_tol(o.energy_uj, 113, 1e-9);
        oracle_level_free(&o);
        ck_assert_int_eq(oracle_solve(&tb, &t, true, &c), 0);
        ck_assert_uint_eq(c.infeasible_steps, 0);
        ck_assert_uint_eq(c.sequence[0], 0);
        ck_assert_double_eq_tol(c.energy_uj, 113, 1e-9);
        oracle_free(&c);
        trace_free(&t);
}
END_TEST

/* Two lanes, light then heavy on lane 0. Costs by hand (pair mode, tb):
 *   LL, [50, 50]: two LITTLE CPUs at OPP 0, busy 200 each: 400 x 10 + 4
 *     idle + 5 big off = 13000; BL or LB: 50 on big (OPP 0, 100 µs x 100 +
 *     20) + 50 on LITTLE (2000 + 4000) = 36000.
 *   [900, 50]: 900 fits no LITTLE CPU (768 does 750); on big it needs the
 *     top OPP (1.25 x 1024 x 900 > 1024 x 1000), busy 900 x 400 + 40 idle,
 *     and LITTLE keeps pair 1 (6000): BL = 406000. Entered from LL, CPU 3
 *     stalls but 900 still fits its 900 µs: + 25000 (one pair of two) =
 *     431000. BB: 950 µs x 400 + 40 + 2 LITTLE off = 422000.
 * Best: LL LL BL BL = 2 x 13000 + 431000 + 406000 = 863000 (BL throughout:
 * 884000; into BB: 920000). */
START_TEST(test_oracle_pair_one_heavy)
{
        static const float heavy0[] = { 50, 50, 50, 50, 900, 50, 900, 50 };
        static const float heavy1[] = { 50, 50, 50, 50, 50, 900, 50, 900 };
        struct sim_levels lv;
        struct sim_trace t;
        struct sim_level_oracle o;

        build(&lv, &tb, BL_MODE_PAIR);
        make_trace(&t, 2, 4, heavy0);
        ck_assert_int_eq(oracle_solve_levels(&tb, &lv, &t, true, &o), 0);
        ck_assert_double_eq_tol(o.energy_uj, 863, 1e-9);
        ck_assert_uint_eq(o.switches, 1);
        ck_assert_uint_eq(o.changes, 1);
        ck_assert_uint_eq(o.infeasible_steps, 0);
        ck_assert_uint_eq(o.time_in[0], 2000);
        ck_assert_uint_eq(o.time_in[1], 2000);
        ck_assert_uint_eq(o.time_in[3], 0);
        for (unsigned s = 0; s < 4; s++)
                ck_assert_uint_eq(o.sequence[s], s < 2 ? 0 : 1);
        oracle_level_free(&o);
        ck_assert_ptr_null(o.sequence);
        trace_free(&t);

        /* The heavy lane on pair 1: LB instead. */
        make_trace(&t, 2, 4, heavy1);
        ck_assert_int_eq(oracle_solve_levels(&tb, &lv, &t, true, &o), 0);
        ck_assert_double_eq_tol(o.energy_uj, 863, 1e-9);
        for (unsigned s = 0; s < 4; s++)
                ck_assert_uint_eq(o.sequence[s], s < 2 ? 0 : 2);
        oracle_level_free(&o);

        /* Without the sequence, the same numbers. */
        ck_assert_int_eq(oracle_solve_levels(&tb, &lv, &t, false, &o), 0);
        ck_assert_ptr_null(o.sequence);
        ck_assert_double_eq_tol(o.energy_uj, 863, 1e-9);
        trace_free(&t);
}
END_TEST

/* mp, lanes [900, 50, 50]: little+1big puts 900 on CPU 3 (top OPP, 400000
 * with idle) and the 50s on LITTLE CPUs 0 and 1 (400 µs x 10 + 4 idle):
 * 408000. all would put a 50 on CPU 4 too (950 µs x 400 + 40 + 6000 =
 * 426000); little cannot run 900. Three steps: 1224000. */
START_TEST(test_oracle_mp_one_heavy)
{
        static const float work[] = { 900, 50, 50, 900, 50, 50, 900, 50, 50 };
        struct sim_levels lv;
        struct sim_trace t;
        struct sim_level_oracle o;

        build(&lv, &tb, BL_MODE_MP);
        make_trace(&t, 3, 3, work);
        ck_assert_int_eq(oracle_solve_levels(&tb, &lv, &t, true, &o), 0);
        ck_assert_double_eq_tol(o.energy_uj, 1224, 1e-9);
        ck_assert_uint_eq(o.switches, 0);
        ck_assert_uint_eq(o.time_in[1], 3000);
        for (unsigned s = 0; s < 3; s++)
                ck_assert_uint_eq(o.sequence[s], 1);
        oracle_level_free(&o);
        trace_free(&t);
}
END_TEST

/* Exynos, 8 lanes: 500 on lane 0, 50 on lanes 1-3. 500 fits no A7 (377
 * does 368 per ms); on an A15 it needs capacity 640: OPP 666 (748 mW busy,
 * 194 idle). Each 50 runs on an A7 at OPP 81 (22 mW, 17 idle) for 632 µs
 * (13.9 µJ) where an A15 at 666 would take 77 µs at 748 mW (57.5 µJ), so
 * exactly one pair goes big, and in mp mode little+1big. */
START_TEST(test_oracle_exynos_one_heavy)
{
        float work[5 * 8] = { 0 };
        const double per_step = 500.0 * 1024 / 666 * 748 + 194000 +
                                (50.0 * 1024 / 81 + 50.0 * 1024 / 81 + 50.0 * 1024 / 81) * 22 + 17000;
        struct sim_levels lv;
        struct sim_trace t;
        struct sim_level_oracle o;

        for (unsigned s = 0; s < 5; s++) {
                work[s * 8] = 500;
                work[s * 8 + 1] = work[s * 8 + 2] = work[s * 8 + 3] = 50;
        }
        make_trace(&t, 8, 5, work);

        build(&lv, &exynos, BL_MODE_PAIR);
        ck_assert_int_eq(oracle_solve_levels(&exynos, &lv, &t, true, &o), 0);
        for (unsigned s = 0; s < 5; s++)
                ck_assert_str_eq(lv.level[o.sequence[s]].name, "BLLL");
        ck_assert(fabs(o.energy_uj - 5 * per_step / 1000) <= 1e-12 * o.energy_uj);
        ck_assert_uint_eq(o.infeasible_steps, 0);
        oracle_level_free(&o);

        build(&lv, &exynos, BL_MODE_MP);
        ck_assert_int_eq(oracle_solve_levels(&exynos, &lv, &t, true, &o), 0);
        for (unsigned s = 0; s < 5; s++)
                ck_assert_str_eq(lv.level[o.sequence[s]].name, "little+1big");
        ck_assert(fabs(o.energy_uj - 5 * per_step / 1000) <= 1e-12 * o.energy_uj);
        oracle_level_free(&o);
        trace_free(&t);
}
END_TEST

START_TEST(test_oracle_refused)
{
        static const float work[] = { 1 };
        struct sim_levels lv;
        struct sim_trace t;
        struct sim_level_oracle o;

        build(&lv, &tb, BL_MODE_PAIR);
        make_trace(&t, 1, 1, work);
        t.nlanes = 0;
        ck_assert_int_eq(oracle_solve_levels(&tb, &lv, &t, true, &o), -EINVAL);
        t.nlanes = SIM_EXEC_MAX_LANES + 1;
        ck_assert_int_eq(oracle_solve_levels(&tb, &lv, &t, true, &o), -EINVAL);
        t.nlanes = 1;
        t.nsteps = 0;
        ck_assert_int_eq(oracle_solve_levels(&tb, &lv, &t, true, &o), 0);
        ck_assert_double_eq(o.energy_uj, 0);
        ck_assert_ptr_null(o.sequence);
        trace_free(&t);
}
END_TEST

struct brute {
        double dropped;
        double energy_nj;
        size_t infeasible;
        bool found;
};

/* Every level sequence, scored by exec_level_step(). 'carry' keeps the
 * backlog and accepts only sequences that never leave any (DESIGN.md's
 * definition); otherwise a step's leftover is dropped and sequences compare
 * by (dropped, energy), dropped work equal to rounding. */
static struct brute brute_force(const struct sim_board *b, const struct sim_levels *lv,
                                const struct sim_trace *t, bool carry)
{
        struct brute best = { 0 };
        unsigned long total = 1, errors = 0;
        double backlog[16], work[16];

        ck_assert_uint_le(t->nlanes, 16);
        for (size_t s = 0; s < t->nsteps; s++)
                total *= lv->nlevels;
        for (unsigned long code = 0; code < total; code++) {
                struct brute cur = { .found = true };
                unsigned long rest = code;
                unsigned prev = SIM_LEVEL_NONE;

                memset(backlog, 0, sizeof(backlog));
                for (size_t s = 0; s < t->nsteps && cur.found; s++) {
                        unsigned l = (unsigned)(rest % lv->nlevels);
                        struct sim_level_step out;

                        rest /= lv->nlevels;
                        for (unsigned i = 0; i < t->nlanes; i++) {
                                work[i] = t->work[s * t->nlanes + i];
                                if (!carry)
                                        backlog[i] = 0;
                        }
                        /* Counted, not asserted: every ck_assert leaves a mark in a file. */
                        errors += exec_level_step(b, lv, l, prev, (double)t->step_us, t->nlanes, backlog,
                                                  work, &out) != 0;
                        cur.energy_nj += out.energy_nj;
                        cur.dropped += out.backlog;
                        cur.infeasible += out.backlog > 0;
                        if (carry && out.backlog > 0)
                                cur.found = false;
                        prev = l;
                }
                if (!cur.found)
                        continue;
                if (!best.found || cur.dropped < best.dropped - 1e-9 * best.dropped ||
                    (cur.dropped <= best.dropped + 1e-9 * best.dropped && cur.energy_nj < best.energy_nj))
                        best = cur;
        }
        ck_assert_uint_eq(errors, 0);
        return best;
}

/* The replayed sequence gives the oracle's numbers exactly. */
static void check_sequence(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                           const struct sim_level_oracle *o)
{
        double backlog[16], work[16], energy = 0;
        unsigned long switches = 0, changes = 0;
        bl_usec_t time_in[SIM_MAX_LEVELS] = { 0 };

        for (size_t s = 0; s < t->nsteps; s++) {
                struct sim_level_step out;

                for (unsigned i = 0; i < t->nlanes; i++) {
                        work[i] = t->work[s * t->nlanes + i];
                        backlog[i] = 0;
                }
                unsigned prev = s ? o->sequence[s - 1] : SIM_LEVEL_NONE;

                ck_assert_int_eq(exec_level_step(b, lv, o->sequence[s], prev, (double)t->step_us, t->nlanes,
                                                 backlog, work, &out), 0);
                energy += out.energy_nj;
                switches += out.switched;
                changes += out.changes;
                time_in[o->sequence[s]] += t->step_us;
        }
        ck_assert(energy / 1000 == o->energy_uj);
        ck_assert_uint_eq(switches, o->switches);
        ck_assert_uint_eq(changes, o->changes);
        for (unsigned l = 0; l < lv->nlevels; l++)
                ck_assert_uint_eq(time_in[l], o->time_in[l]);
}

/* Returns how many runs had an infeasible step. */
static unsigned check_against_brute_force(const struct sim_board *b, enum bl_mode mode, unsigned nlanes,
                                          size_t nsteps, unsigned max_work, uint64_t seed, unsigned runs)
{
        struct sim_levels lv;
        uint64_t state = seed;
        unsigned ninfeasible = 0;

        build(&lv, b, mode);
        for (unsigned run = 0; run < runs; run++) {
                struct sim_trace t;
                struct sim_level_oracle o;
                struct brute drop, carry;

                random_trace(&t, nlanes, nsteps, max_work, &state);
                ck_assert_int_eq(oracle_solve_levels(b, &lv, &t, true, &o), 0);
                drop = brute_force(b, &lv, &t, false);
                ck_assert_msg(fabs(o.energy_uj * 1000 - drop.energy_nj) <= 1e-9 * drop.energy_nj,
                              "%s %s run %u: oracle %.6f µJ, brute force %.6f µJ", b->name,
                              mode_to_string(mode), run, o.energy_uj, drop.energy_nj / 1000);
                ck_assert_uint_eq(o.infeasible_steps, drop.infeasible);
                carry = brute_force(b, &lv, &t, true);
                ck_assert_int_eq(carry.found, drop.infeasible == 0);
                if (carry.found)
                        ck_assert(fabs(carry.energy_nj - drop.energy_nj) <= 1e-9 * drop.energy_nj);
                check_sequence(b, &lv, &t, &o);
                ninfeasible += o.infeasible_steps > 0;
                oracle_level_free(&o);
                trace_free(&t);
        }
        return ninfeasible;
}

START_TEST(test_oracle_brute_force_pair)
{
        /* Below 300 per lane everything fits everywhere, even stalled. */
        ck_assert_uint_eq(check_against_brute_force(&tb, BL_MODE_PAIR, 3, 6, 300, 0x9a1, 20), 0);
        ck_assert_uint_gt(check_against_brute_force(&tb, BL_MODE_PAIR, 3, 6, 900, 0x9a2, 20), 0);
        check_against_brute_force(&tb, BL_MODE_PAIR, 5, 6, 600, 0x9a3, 10);
        /* Sixteen levels, switch stalls of 20 µs on a real board. */
        check_against_brute_force(&exynos, BL_MODE_PAIR, 8, 3, 500, 0x9a4, 6);
        check_against_brute_force(&tc2, BL_MODE_PAIR, 4, 5, 1200, 0x9a5, 10);
}
END_TEST

START_TEST(test_oracle_brute_force_mp)
{
        struct sim_board b3;

        load_text(&b3, three_text);
        ck_assert_uint_eq(check_against_brute_force(&tb, BL_MODE_MP, 3, 7, 250, 0x3b1, 20), 0);
        /* Six lanes on five CPUs: the heaviest and the sixth share big CPU 3. */
        ck_assert_uint_gt(check_against_brute_force(&tb, BL_MODE_MP, 6, 7, 1100, 0x3b2, 20), 0);
        check_against_brute_force(&exynos, BL_MODE_MP, 8, 5, 500, 0x3b3, 6);
        check_against_brute_force(&tc2, BL_MODE_MP, 5, 6, 1200, 0x3b4, 10);
        check_against_brute_force(&b3, BL_MODE_MP, 6, 5, 400, 0x3b5, 10);
}
END_TEST

/* Switches without stall (only the energy depends on where a step comes
 * from), and stalls as long as the step (a CPU brought in does nothing). */
START_TEST(test_oracle_brute_force_latency)
{
        struct sim_board b = tb;

        b.switch_latency_us = 0;
        check_against_brute_force(&b, BL_MODE_PAIR, 3, 6, 700, 0x1a1, 15);
        check_against_brute_force(&b, BL_MODE_MP, 3, 6, 700, 0x1a2, 15);
        b.switch_latency_us = 1000;
        check_against_brute_force(&b, BL_MODE_PAIR, 3, 6, 700, 0x1a3, 15);
        check_against_brute_force(&b, BL_MODE_MP, 3, 6, 700, 0x1a4, 15);
        b = exynos;
        b.switch_latency_us = 2000;
        check_against_brute_force(&b, BL_MODE_MP, 8, 4, 400, 0x1a5, 4);
        b.switch_latency_us = 700;
        check_against_brute_force(&b, BL_MODE_MP, 8, 4, 400, 0x1a6, 4);
        check_against_brute_force(&b, BL_MODE_PAIR, 8, 3, 400, 0x1a7, 4);
}
END_TEST

/* Sixty-four levels: six pairs. */
START_TEST(test_oracle_brute_force_six_pairs)
{
        struct sim_board b;

        load_text(&b, BOARD_HEADER("150", "60")
                  "[cluster.little]\ncpus = 6\norder = 0\noff_mw = 2\n"
                  "opp = 100 256 10 4\nopp = 200 512 30 8\nopp = 300 768 60 12\n"
                  "[cluster.big]\ncpus = 6\norder = 1\noff_mw = 5\n"
                  "opp = 500 512 100 20\nopp = 1000 1024 400 40\n");
        check_against_brute_force(&b, BL_MODE_PAIR, 7, 3, 800, 0x6b1, 3);
}
END_TEST

/* Cluster-mode levels: the same optimum as oracle_solve(). */
START_TEST(test_oracle_cluster_equal)
{
        uint64_t state = 0xc0;
        struct sim_levels lv;

        build(&lv, &exynos, BL_MODE_CLUSTER);
        for (unsigned run = 0; run < 10; run++) {
                struct sim_trace t;
                struct sim_oracle a;
                struct sim_level_oracle b;

                random_trace(&t, 8, 2000, 500, &state);
                ck_assert_int_eq(oracle_solve(&exynos, &t, true, &a), 0);
                ck_assert_int_eq(oracle_solve_levels(&exynos, &lv, &t, true, &b), 0);
                ck_assert(fabs(a.energy_uj - b.energy_uj) <= 1e-9 * a.energy_uj);
                ck_assert_uint_eq(a.switches, b.switches);
                ck_assert_uint_eq(a.switches, b.changes);
                ck_assert_uint_eq(a.infeasible_steps, b.infeasible_steps);
                ck_assert_uint_eq(a.time_in[0], b.time_in[0]);
                ck_assert_uint_eq(a.time_in[1], b.time_in[1]);
                oracle_free(&a);
                oracle_level_free(&b);
                trace_free(&t);
        }
}
END_TEST

/* Same input, same bytes: twice, and from a second copy of the levels. */
START_TEST(test_oracle_deterministic)
{
        uint64_t state = 0xde7;
        struct sim_levels lv, again;
        struct sim_trace t;
        struct sim_level_oracle a, b;

        random_trace(&t, 8, 5000, 500, &state);
        build(&lv, &exynos, BL_MODE_PAIR);
        ck_assert_int_eq(oracle_solve_levels(&exynos, &lv, &t, true, &a), 0);
        build(&again, &exynos, BL_MODE_PAIR);
        ck_assert_int_eq(oracle_solve_levels(&exynos, &again, &t, true, &b), 0);
        ck_assert_int_eq(memcmp(a.sequence, b.sequence, t.nsteps), 0);
        ck_assert_int_eq(memcmp(&a.energy_uj, &b.energy_uj, sizeof(double)), 0);
        ck_assert_uint_eq(a.changes, b.changes);
        /* The trace switches: this is not the trivial all-one-level answer. */
        ck_assert_uint_gt(a.switches, 10);
        ck_assert_uint_gt(a.changes, a.switches);
        check_sequence(&exynos, &lv, &t, &a);
        oracle_level_free(&a);
        oracle_level_free(&b);
        trace_free(&t);
}
END_TEST

static Suite *simmodes_suite(void)
{
        Suite *s = suite_create("simmodes");
        TCase *tc;

        tc = tcase_create("levels");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, test_levels_exynos);
        tcase_add_test(tc, test_levels_tc2);
        tcase_add_test(tc, test_levels_three_clusters);
        tcase_add_test(tc, test_levels_refused);
        tcase_add_test(tc, test_switch_shares);
        tcase_add_test(tc, test_placement);
        tcase_add_test(tc, test_rank_many_lanes);
        suite_add_tcase(s, tc);

        tc = tcase_create("exec");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, test_exec_partly_active);
        tcase_add_test(tc, test_exec_backlog_shared);
        tcase_add_test(tc, test_exec_pressure);
        tcase_add_test(tc, test_exec_pair_stall);
        tcase_add_test(tc, test_exec_mp_stall);
        tcase_add_test(tc, test_exec_refused);
        tcase_add_test(tc, test_exec_cluster_equal);
        tcase_add_test(tc, test_fixed_cluster_equal);
        tcase_add_test(tc, test_fixed_modes);
        suite_add_tcase(s, tc);

        tc = tcase_create("oracle");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_set_timeout(tc, 120);
        tcase_add_test(tc, test_oracle_pair_one_heavy);
        tcase_add_test(tc, test_oracles_place_as_exec);
        tcase_add_test(tc, test_oracle_mp_one_heavy);
        tcase_add_test(tc, test_oracle_exynos_one_heavy);
        tcase_add_test(tc, test_oracle_refused);
        tcase_add_test(tc, test_oracle_brute_force_pair);
        tcase_add_test(tc, test_oracle_brute_force_mp);
        tcase_add_test(tc, test_oracle_brute_force_latency);
        tcase_add_test(tc, test_oracle_brute_force_six_pairs);
        tcase_add_test(tc, test_oracle_cluster_equal);
        tcase_add_test(tc, test_oracle_deterministic);
        suite_add_tcase(s, tc);

        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(simmodes_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
