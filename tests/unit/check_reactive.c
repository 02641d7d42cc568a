/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reactive oracle (sim/reactive.h): its sequence from the oracle's, and
 * its score with backlog carried. The board has one OPP per cluster and
 * powers of two, so every figure is worked out by hand in the comments.
 *
 * Costs of one 1000 µs step (energy = busy x core mW + idle mW x step + the
 * other cluster's off mW x step, + 50000 nJ on a switch; a switch leaves 900
 * µs): LITTLE (512 of 1024) does 500 per step, 100 costs 200 µs x 10 + 4000
 * + 5000 = 11000 nJ, a full step 19000; big does 1000 per step (900 when
 * entered), 100 costs 100 µs x 400 + 40000 + 2000 = 82000 nJ, 800 362000, a
 * full step 442000. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "core/diag.h"
#include "sim/modes.h"
#include "sim/oracle.h"
#include "sim/reactive.h"

#define NSTEPS 20

static const char board_text[] =
        "[board]\n"
        "name = reactive\n"
        "reference_capacity = 1024\n"
        "switch_latency_us = 100\n"
        "switch_energy_uj = 50\n"
        "[cluster.little]\n"
        "cpus = 1\n"
        "order = 0\n"
        "off_mw = 2\n"
        "opp = 100 512 10 4\n"
        "[cluster.big]\n"
        "cpus = 1\n"
        "order = 1\n"
        "off_mw = 5\n"
        "opp = 1000 1024 400 40\n";

static struct sim_board board;
static struct sim_levels levels;
static struct sim_trace trace;
static float work[NSTEPS];

/* 100 per 1 ms step, and from step 6 (6 ms, inside the 4 ms interval [4, 8))
 * to step 9 a burst of 800 that only big clears. */
static void setup(void)
{
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_int_eq(board_parse(&board, "reactive.ini", board_text, strlen(board_text), &diag), 0);
        ck_assert_int_eq(sim_levels_build(&levels, &board, BL_MODE_CLUSTER, &diag), 0);
        for (unsigned s = 0; s < NSTEPS; s++)
                work[s] = s >= 6 && s <= 9 ? 800 : 100;
        trace = (struct sim_trace){ .step_us = 1000, .nlanes = 1, .nsteps = NSTEPS, .work = work };
}

static void solve(struct sim_oracle *o)
{
        ck_assert_int_eq(oracle_solve(&board, &trace, true, o), 0);
        ck_assert_ptr_nonnull(o->sequence);
}

/* The oracle is on big for exactly the burst: LITTLE for 16 steps at 11000
 * (step 10 entered: 61000), big 412000 + 3 x 362000: 1724000 nJ. */
START_TEST(test_oracle_of_the_burst)
{
        struct sim_oracle o;

        solve(&o);
        for (unsigned s = 0; s < NSTEPS; s++)
                ck_assert_uint_eq(o.sequence[s], s >= 6 && s <= 9);
        ck_assert_double_eq_tol(o.energy_uj, 1724, 1e-9);
        oracle_free(&o);
}
END_TEST

/* Sampling every 4 ms: the decision at 8 ms has seen steps 4-7 (6 and 7 on
 * big), so big from step 8, the next sample after the burst began; at 12 it
 * has seen 8 and 9 on big, so it stays; at 16 it has seen only LITTLE and
 * goes down, one sample after the first at which the oracle was down.
 * Backlog: step 6 800 - 500 = 300, step 7 1100 - 500 = 600, step 8 (big,
 * entered) 1400 - 900 = 500, step 9 1300 - 1000 = 300, then none: 1700 of
 * 4800. Energy: 6 x 11000 + 2 x 19000 + 452000 + 442000 + (400 µs: 202000)
 * + 5 x 82000 + 61000 + 3 x 11000 = 1704000 nJ, below the oracle's: the
 * burst's first 1000 are done late on LITTLE, which works cheaper. */
START_TEST(test_burst_at_4ms)
{
        unsigned char seq[NSTEPS];
        struct sim_oracle o;
        struct sim_result r;

        solve(&o);
        ck_assert_int_eq(reactive_sequence(&levels, o.sequence, NSTEPS, 1000, 4000, seq), 0);
        for (unsigned s = 0; s < NSTEPS; s++)
                ck_assert_msg(seq[s] == (s >= 8 && s <= 15), "step %u: level %u", s, seq[s]);

        ck_assert_int_eq(reactive_oracle_run(&board, &levels, &trace, o.sequence, 4000, &r), 0);
        ck_assert_str_eq(r.policy, "reactive-oracle");
        ck_assert_uint_eq(r.steps, NSTEPS);
        ck_assert_double_eq_tol(r.total_work, 4800, 1e-9);
        ck_assert_double_eq_tol(r.late_work_ratio, 1700.0 / 4800.0, 1e-12);
        ck_assert_double_eq_tol(r.energy_uj, 1704, 1e-9);
        ck_assert_uint_eq(r.switches, 2);
        ck_assert_uint_eq(r.changes, 2);
        ck_assert_uint_eq(r.time_in[0], 12000);
        ck_assert_uint_eq(r.time_in[1], 8000);
        ck_assert_uint_eq(r.samples, 5);
        oracle_free(&o);
}
END_TEST

/* With T = the step it is the oracle one step late, not the oracle: step 6
 * on LITTLE leaves 300, step 7 (big, entered) 1100 - 900 = 200, then none:
 * 500 of 4800. 66000 + 19000 + 452000 + 442000 + 362000 + 82000 + 61000 +
 * 8 x 11000 = 1572000 nJ. */
START_TEST(test_interval_of_one_step)
{
        unsigned char seq[NSTEPS];
        struct sim_oracle o;
        struct sim_result r;

        solve(&o);
        ck_assert_int_eq(reactive_sequence(&levels, o.sequence, NSTEPS, 1000, 1000, seq), 0);
        ck_assert_uint_eq(seq[0], 0);
        for (unsigned s = 1; s < NSTEPS; s++)
                ck_assert_uint_eq(seq[s], o.sequence[s - 1]);
        ck_assert_int_eq(reactive_oracle_run(&board, &levels, &trace, o.sequence, 1000, &r), 0);
        ck_assert_double_eq_tol(r.late_work_ratio, 500.0 / 4800.0, 1e-12);
        ck_assert_double_eq_tol(r.energy_uj, 1572, 1e-9);
        ck_assert_uint_eq(r.switches, 2);
        oracle_free(&o);
}
END_TEST

/* Intervals that divide one another: a longer one decides at a subset of
 * the shorter one's times, so it can never be on big earlier and its late
 * work never shrinks. 1 ms: 500; 2, 4 and 8 ms: up at 8 ms, 1700; 16 ms:
 * LITTLE until 16 ms, backlog 300, 600, 900, 1200, 800, 400: 4200. */
START_TEST(test_longer_interval_never_less_late)
{
        static const struct {
                bl_usec_t interval;
                double late;
        } expect[] = { { 1000, 500 }, { 2000, 1700 }, { 4000, 1700 }, { 8000, 1700 }, { 16000, 4200 } };
        struct sim_oracle o;
        double before = 0;

        solve(&o);
        for (unsigned i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
                struct sim_result r;

                ck_assert_int_eq(reactive_oracle_run(&board, &levels, &trace, o.sequence, expect[i].interval,
                                                     &r), 0);
                ck_assert_double_eq_tol(r.late_work_ratio, expect[i].late / 4800.0, 1e-12);
                ck_assert_double_ge(r.late_work_ratio, before);
                before = r.late_work_ratio;
        }
        oracle_free(&o);
}
END_TEST

/* A burst LITTLE carries: the oracle never leaves LITTLE, and the reactive
 * oracle is the oracle exactly at any interval (no late work, the same
 * energy). */
START_TEST(test_equal_when_nothing_to_react_to)
{
        struct sim_oracle o;

        for (unsigned s = 6; s <= 9; s++)
                work[s] = 400;
        solve(&o);
        for (bl_usec_t interval = 1000; interval <= 16000; interval *= 2) {
                struct sim_result r;

                ck_assert_int_eq(reactive_oracle_run(&board, &levels, &trace, o.sequence, interval, &r), 0);
                ck_assert_double_eq(r.late_work_ratio, 0);
                ck_assert_double_eq_tol(r.energy_uj, o.energy_uj, 1e-9);
                ck_assert_uint_eq(r.switches, 0);
        }
        oracle_free(&o);
}
END_TEST

/* Steps longer than the interval: a decision that saw no step start keeps
 * the level. Steps of 3 ms, sampling every 2 ms: decisions at 2 (saw step
 * 0), 4 (step 1, started at 3), 6 (nothing new), 8 (step 2, started at 6). */
START_TEST(test_steps_longer_than_interval)
{
        static const unsigned char oracle[] = { 1, 0, 1, 0 };
        unsigned char seq[4];

        ck_assert_int_eq(reactive_sequence(&levels, oracle, 4, 3000, 2000, seq), 0);
        ck_assert_uint_eq(seq[0], 0);   /* [0, 3): the run's start */
        ck_assert_uint_eq(seq[1], 1);   /* at 3: the decision at 2 saw step 0 */
        ck_assert_uint_eq(seq[2], 0);   /* at 6: the decision at 4 saw step 1; 6 saw nothing new */
        ck_assert_uint_eq(seq[3], 1);   /* at 9: the decision at 8 saw step 2 */
}
END_TEST

/* Pair mode's levels are sets of pairs on big: the union of what the
 * oracle used, not the largest index. 2 + 2 CPUs, 2 pairs: level 1 = pair 0
 * on big, 2 = pair 1, 3 = both. Sampling every 2 ms: at 2 it has seen 1 and
 * 2 (both pairs), at 4 only LITTLE. */
START_TEST(test_pair_mode_union)
{
        static const char pairs_text[] =
                "[board]\nname = pairs\nreference_capacity = 1024\nswitch_latency_us = 0\n"
                "switch_energy_uj = 0\n"
                "[cluster.little]\ncpus = 2\norder = 0\noff_mw = 0\nopp = 100 512 10 4\n"
                "[cluster.big]\ncpus = 2\norder = 1\noff_mw = 0\nopp = 1000 1024 400 40\n";
        static const unsigned char oracle[] = { 1, 2, 0, 0, 0, 0 };
        struct sim_board pb;
        struct sim_levels pl;
        struct bl_diag diag;
        unsigned char seq[6];

        diag_init(&diag);
        ck_assert_int_eq(board_parse(&pb, "pairs.ini", pairs_text, strlen(pairs_text), &diag), 0);
        ck_assert_int_eq(sim_levels_build(&pl, &pb, BL_MODE_PAIR, &diag), 0);
        ck_assert_uint_eq(pl.nlevels, 4);
        ck_assert_int_eq(reactive_sequence(&pl, oracle, 6, 1000, 2000, seq), 0);
        for (unsigned s = 0; s < 6; s++)
                ck_assert_msg(seq[s] == (s == 2 || s == 3 ? 3 : 0), "step %u: level %u", s, seq[s]);
        /* In cluster mode the same numbers are levels by speed: the highest. */
        ck_assert_int_eq(reactive_sequence(&levels, oracle, 6, 1000, 2000, seq), 0);
        ck_assert_uint_eq(seq[2], 2);
}
END_TEST

START_TEST(test_refused)
{
        static const unsigned char oracle[] = { 0 };
        unsigned char seq[1];
        struct sim_result r;
        struct sim_oracle o;

        ck_assert_int_eq(reactive_sequence(&levels, oracle, 1, 1000, 0, seq), -EINVAL);
        ck_assert_int_eq(reactive_sequence(&levels, oracle, 1, 0, 1000, seq), -EINVAL);
        ck_assert_int_eq(reactive_oracle_run(&board, &levels, &trace, NULL, 1000, &r), -EINVAL);
        solve(&o);
        ck_assert_int_eq(reactive_oracle_run(&board, &levels, &trace, o.sequence, 0, &r), -EINVAL);
        /* A level the levels do not have. */
        o.sequence[3] = 2;
        ck_assert_int_eq(reactive_oracle_run(&board, &levels, &trace, o.sequence, 1000, &r), -EINVAL);
        oracle_free(&o);
        /* No steps: nothing to score. */
        trace.nsteps = 0;
        ck_assert_int_eq(reactive_oracle_run(&board, &levels, &trace, NULL, 1000, &r), 0);
        ck_assert_uint_eq(r.steps, 0);
        ck_assert_double_eq(r.energy_uj, 0);
}
END_TEST

/* The load-reactive oracle. Where the oracle moves up at the step the load
 * rises (the burst above), it is the reactive oracle exactly. */
START_TEST(test_load_reactive_equal_when_the_oracle_moves_with_the_load)
{
        unsigned char timed[NSTEPS];
        struct sim_result r, lr;
        struct sim_oracle o;

        solve(&o);
        ck_assert_int_eq(load_timed_sequence(&board, &levels, &trace, o.sequence, timed), 0);
        ck_assert_mem_eq(timed, o.sequence, NSTEPS);
        ck_assert_int_eq(reactive_oracle_run(&board, &levels, &trace, o.sequence, 4000, &r), 0);
        ck_assert_int_eq(load_reactive_oracle_run(&board, &levels, &trace, o.sequence, 4000, &lr), 0);
        ck_assert_str_eq(lr.policy, "load-reactive-oracle");
        ck_assert_double_eq(lr.late_work_ratio, r.late_work_ratio);
        ck_assert_double_eq(lr.energy_uj, r.energy_uj);
        ck_assert_uint_eq(lr.switches, r.switches);
        oracle_free(&o);
}
END_TEST

/* Nothing arrives before the burst, and the oracle's sequence moves up at
 * step 4, two steps early (as one that pays a long stall before the load
 * does): the move waits for step 6, where the load rises. Sampling every
 * 4 ms the reactive oracle then goes up at 8 ms, the load-reactive one at 8
 * ms as well here (6 and 4 fall in the same interval), and sampling every
 * 2 ms at 6 ms against 8 ms. */
START_TEST(test_load_reactive_waits_for_the_load)
{
        unsigned char oracle[NSTEPS], timed[NSTEPS], seq[NSTEPS];
        struct sim_result r, lr;

        for (unsigned s = 0; s < NSTEPS; s++) {
                work[s] = s >= 6 && s <= 9 ? 800 : 0;
                oracle[s] = s >= 4 && s <= 9;
        }
        ck_assert_int_eq(load_timed_sequence(&board, &levels, &trace, oracle, timed), 0);
        for (unsigned s = 0; s < NSTEPS; s++)
                ck_assert_msg(timed[s] == (s >= 6 && s <= 9), "step %u: level %u", s, timed[s]);
        ck_assert_int_eq(reactive_sequence(&levels, oracle, NSTEPS, 1000, 2000, seq), 0);
        ck_assert_uint_eq(seq[6], 1);
        ck_assert_int_eq(reactive_sequence(&levels, timed, NSTEPS, 1000, 2000, seq), 0);
        ck_assert_uint_eq(seq[6], 0);
        ck_assert_uint_eq(seq[8], 1);
        /* Late: the reactive oracle is on big from step 6 (entered: 800 -
         * 900, nothing left); the load-reactive one leaves 300 and 600 on
         * LITTLE at steps 6 and 7, then 1400 - 900 = 500 and 300: 1700. */
        ck_assert_int_eq(reactive_oracle_run(&board, &levels, &trace, oracle, 2000, &r), 0);
        ck_assert_int_eq(load_reactive_oracle_run(&board, &levels, &trace, oracle, 2000, &lr), 0);
        ck_assert_double_eq_tol(r.late_work_ratio, 0, 1e-12);
        ck_assert_double_eq_tol(lr.late_work_ratio, 1700.0 / 3200.0, 1e-12);
}
END_TEST

/* A rise counts in its own step only. 100 a step, 300 from step 2, the
 * burst of 800 at 6 to 9, and the oracle's sequence up from step 4: the high
 * of step 2 is behind the move, and step 4's 300 is no new high, which
 * LITTLE clears for less (600 us x 10 + 4000 + 5000 = 15000 nJ against
 * 300 us x 400 + 40000 + 2000 = 162000 on big). The move waits for the
 * burst. */
START_TEST(test_load_reactive_an_earlier_rise_does_not_count)
{
        unsigned char oracle[NSTEPS], timed[NSTEPS];

        for (unsigned s = 0; s < NSTEPS; s++) {
                work[s] = s >= 6 && s <= 9 ? 800 : s >= 2 ? 300 : 100;
                oracle[s] = s >= 4 && s <= 9;
        }
        ck_assert_int_eq(load_timed_sequence(&board, &levels, &trace, oracle, timed), 0);
        for (unsigned s = 0; s < NSTEPS; s++)
                ck_assert_msg(timed[s] == (s >= 6 && s <= 9), "step %u: level %u", s, timed[s]);
}
END_TEST

/* No rise since the level was taken, but the load shows all the same:
 * 800 a step all along, the oracle's sequence down at step 2 and back up
 * at 4. LITTLE leaves 300 of step 4's 800: the move stays at 4. With 100 a
 * step, which LITTLE clears for less, it is not made at all. */
START_TEST(test_load_reactive_backlog_shows)
{
        static const unsigned char oracle[NSTEPS] = { 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
        unsigned char timed[NSTEPS];

        for (unsigned s = 0; s < NSTEPS; s++)
                work[s] = 800;
        ck_assert_int_eq(load_timed_sequence(&board, &levels, &trace, oracle, timed), 0);
        ck_assert_mem_eq(timed, oracle, NSTEPS);
        for (unsigned s = 0; s < NSTEPS; s++)
                work[s] = 100;
        ck_assert_int_eq(load_timed_sequence(&board, &levels, &trace, oracle, timed), 0);
        for (unsigned s = 0; s < NSTEPS; s++)
                ck_assert_msg(timed[s] == (s < 2), "step %u: level %u", s, timed[s]);
}
END_TEST

/* Or the energy model shows it: on a board whose LITTLE core draws 500 mW
 * busy and big 100 mW, 400 a step costs 800 us x 500 + 4000 + 5000 =
 * 409000 nJ on LITTLE and 400 us x 100 + 40000 + 2000 = 82000 on big, so
 * the move up at step 4 stays where the oracle made it. */
START_TEST(test_load_reactive_energy_shows)
{
        static const char costly_text[] =
                "[board]\nname = costly\nreference_capacity = 1024\nswitch_latency_us = 100\n"
                "switch_energy_uj = 50\n"
                "[cluster.little]\ncpus = 1\norder = 0\noff_mw = 2\nopp = 100 512 500 4\n"
                "[cluster.big]\ncpus = 1\norder = 1\noff_mw = 5\nopp = 1000 1024 100 40\n";
        static const unsigned char oracle[NSTEPS] = { 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
        unsigned char timed[NSTEPS];
        struct sim_board cb;
        struct sim_levels cl;
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_int_eq(board_parse(&cb, "costly.ini", costly_text, strlen(costly_text), &diag), 0);
        ck_assert_int_eq(sim_levels_build(&cl, &cb, BL_MODE_CLUSTER, &diag), 0);
        for (unsigned s = 0; s < NSTEPS; s++)
                work[s] = 400;
        ck_assert_int_eq(load_timed_sequence(&cb, &cl, &trace, oracle, timed), 0);
        ck_assert_mem_eq(timed, oracle, NSTEPS);
        /* On the first board LITTLE is the cheaper at 400: not made. */
        ck_assert_int_eq(load_timed_sequence(&board, &levels, &trace, oracle, timed), 0);
        ck_assert_uint_eq(timed[4], 0);
}
END_TEST

/* Pair mode: a move that only adds pairs on big waits like a move up
 * (1 -> 3 adds pair 1, with nothing new arriving and the two levels costing
 * the same idle); one that also takes a pair off (3 is never reached, so
 * 1 -> 2: pair 0 off, pair 1 on) is left where the oracle made it. In
 * cluster mode, on three clusters, 1 -> 2 is a move up like any other. */
START_TEST(test_load_reactive_pair_mode)
{
        static const char pairs_text[] =
                "[board]\nname = pairs\nreference_capacity = 1024\nswitch_latency_us = 0\n"
                "switch_energy_uj = 0\n"
                "[cluster.little]\ncpus = 2\norder = 0\noff_mw = 0\nopp = 100 512 10 0\n"
                "[cluster.big]\ncpus = 2\norder = 1\noff_mw = 0\nopp = 1000 1024 400 40\n";
        static const char three_text[] =
                "[board]\nname = three\nreference_capacity = 1024\nswitch_latency_us = 0\n"
                "switch_energy_uj = 0\n"
                "[cluster.little]\ncpus = 2\norder = 0\noff_mw = 0\nopp = 100 512 10 0\n"
                "[cluster.big]\ncpus = 2\norder = 1\noff_mw = 0\nopp = 1000 768 400 40\n"
                "[cluster.huge]\ncpus = 2\norder = 2\noff_mw = 0\nopp = 1000 1024 800 80\n";
        static const unsigned char oracle[6] = { 1, 1, 3, 3, 2, 2 };
        static const unsigned char cluster_oracle[6] = { 1, 1, 2, 2, 0, 0 };
        float arrivals[12] = { 100, 0 };        /* a rise at step 0, then nothing new */
        struct sim_trace two = { .step_us = 1000, .nlanes = 2, .nsteps = 6, .work = arrivals };
        unsigned char timed[6];
        struct sim_board b;
        struct sim_levels l;
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_int_eq(board_parse(&b, "pairs.ini", pairs_text, strlen(pairs_text), &diag), 0);
        ck_assert_int_eq(sim_levels_build(&l, &b, BL_MODE_PAIR, &diag), 0);
        ck_assert_int_eq(load_timed_sequence(&b, &l, &two, oracle, timed), 0);
        ck_assert_uint_eq(timed[0], 1);         /* after the rise */
        ck_assert_uint_eq(timed[2], 1);
        ck_assert_uint_eq(timed[3], 1);
        ck_assert_uint_eq(timed[4], 2);
        ck_assert_uint_eq(timed[5], 2);

        ck_assert_int_eq(board_parse(&b, "three.ini", three_text, strlen(three_text), &diag), 0);
        ck_assert_int_eq(sim_levels_build(&l, &b, BL_MODE_CLUSTER, &diag), 0);
        ck_assert_int_eq(load_timed_sequence(&b, &l, &two, cluster_oracle, timed), 0);
        ck_assert_uint_eq(timed[0], 1);
        ck_assert_uint_eq(timed[2], 1);         /* huge costs more idle than big: not shown */
        ck_assert_uint_eq(timed[3], 1);
        ck_assert_uint_eq(timed[4], 0);         /* down where the oracle went */
}
END_TEST

START_TEST(test_load_reactive_refused)
{
        static const unsigned char oracle[NSTEPS] = { 0, 2 };
        unsigned char timed[NSTEPS];
        struct sim_result r;

        ck_assert_int_eq(load_timed_sequence(&board, &levels, &trace, oracle, timed), -EINVAL);
        ck_assert_int_eq(load_reactive_oracle_run(&board, &levels, &trace, oracle, 1000, &r), -EINVAL);
        ck_assert_int_eq(load_reactive_oracle_run(&board, &levels, &trace, NULL, 1000, &r), -EINVAL);
        ck_assert_int_eq(load_reactive_oracle_run(&board, &levels, &trace, timed, 0, &r), -EINVAL);
}
END_TEST

static Suite *reactive_suite(void)
{
        Suite *s = suite_create("reactive");
        TCase *tc = tcase_create("reactive");

        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, test_oracle_of_the_burst);
        tcase_add_test(tc, test_burst_at_4ms);
        tcase_add_test(tc, test_interval_of_one_step);
        tcase_add_test(tc, test_longer_interval_never_less_late);
        tcase_add_test(tc, test_equal_when_nothing_to_react_to);
        tcase_add_test(tc, test_steps_longer_than_interval);
        tcase_add_test(tc, test_pair_mode_union);
        tcase_add_test(tc, test_refused);
        tcase_add_test(tc, test_load_reactive_equal_when_the_oracle_moves_with_the_load);
        tcase_add_test(tc, test_load_reactive_waits_for_the_load);
        tcase_add_test(tc, test_load_reactive_an_earlier_rise_does_not_count);
        tcase_add_test(tc, test_load_reactive_backlog_shows);
        tcase_add_test(tc, test_load_reactive_energy_shows);
        tcase_add_test(tc, test_load_reactive_pair_mode);
        tcase_add_test(tc, test_load_reactive_refused);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(reactive_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
