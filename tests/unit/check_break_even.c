/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The policy's knowledge of what a switch costs: the learned gaps
 * (core/gaps.h), the levels' power (core/energy-model.h) and the engine's
 * break-even rule (rule 3b of core/engine.c), in virtual time. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "core/gaps.h"

#define MS(x) ((bl_usec_t)(x) * BL_USEC_PER_MSEC)

/* little (capacity 400) and big (1024), cluster mode. */
static struct bl_ladder two_levels(void)
{
        struct bl_ladder l;

        memset(&l, 0, sizeof(l));
        l.mode = BL_MODE_CLUSTER;
        l.nlevels = 2;
        strcpy(l.levels[0].name, "little");
        l.levels[0].capacity = l.levels[0].fit = 400;
        strcpy(l.levels[1].name, "big");
        l.levels[1].capacity = l.levels[1].fit = 1024;
        return l;
}

/* Power that grows with the load: idle + slope mW per capacity unit. */
static struct bl_energy_model linear_model(double little_idle, double little_slope, double big_idle,
                                           double big_slope)
{
        struct bl_energy_model m = { .known = true, .nlevels = 2 };

        for (unsigned i = 0; i < BL_POWER_POINTS; i++) {
                m.mw[0][i] = little_idle + little_slope * energy_model_point(i);
                m.mw[1][i] = big_idle + big_slope * energy_model_point(i);
        }
        return m;
}

/* The same power at any load (30 and 80 mW: big costs 50 mW more). */
static struct bl_energy_model flat_model(double little_mw, double big_mw)
{
        return linear_model(little_mw, 0, big_mw, 0);
}

/* Thresholds 80/60, down after 20 ms, break_even on. */
static struct bl_engine_params params(bool break_even)
{
        return (struct bl_engine_params){
                .up_pct = 80, .down_pct = 60, .down_delay = MS(20),
                .cap_mc = 85000, .release_mc = 80000, .critical_mc = 95000, .break_even = break_even,
        };
}

/* Feeds 'demand' every 10 ms over [from, to); returns the first time a
 * decision wanted a change (0 if none). The engine does not switch. */
static bl_usec_t feed(struct bl_engine *e, double demand, bl_usec_t from, bl_usec_t to)
{
        struct bl_decision d;

        for (bl_usec_t t = from; t < to; t += MS(10)) {
                engine_decide(e, demand, NULL, t, &d);
                if (d.change)
                        return t;
        }
        return 0;
}

START_TEST(test_gaps_lengths_and_rest)
{
        struct bl_gaps g;
        double rest;

        gaps_init(&g);
        ck_assert(!gaps_expected_rest(&g, 0, &rest));
        /* Three gaps of 100 ms, seen from samples. */
        for (int i = 0; i < 3; i++) {
                gaps_observe(&g, true, MS(1000 * i));
                ck_assert_uint_eq(gaps_elapsed(&g, MS(1000 * i + 40)), MS(40));
                gaps_observe(&g, true, MS(1000 * i + 50));
                gaps_observe(&g, false, MS(1000 * i + 100));
        }
        ck_assert_uint_eq(gaps_elapsed(&g, MS(5000)), 0);
        ck_assert_uint_eq(g.longest, MS(100));
        ck_assert(gaps_expected_rest(&g, 0, &rest));
        /* the half-octave bin of 100 ms stands for 2^6.75 ms */
        ck_assert_double_eq_tol(rest, exp2(6.75) * 1000, 1);
        ck_assert(gaps_expected_rest(&g, MS(60), &rest));
        ck_assert_double_eq_tol(rest, exp2(6.75) * 1000 - 60000, 1);
        /* Longer than any recorded: expected to last as long again. */
        ck_assert(gaps_expected_rest(&g, MS(300), &rest));
        ck_assert_double_eq_tol(rest, 300000, 1e-9);
}
END_TEST

/* Newer gaps outweigh older ones. */
START_TEST(test_gaps_forget)
{
        struct bl_gaps g;
        double rest;

        gaps_init(&g);
        for (int i = 0; i < 20; i++)
                gaps_record(&g, MS(4000));
        for (int i = 0; i < 100; i++)
                gaps_record(&g, MS(10));
        ck_assert(gaps_expected_rest(&g, 0, &rest));
        ck_assert_double_lt(rest, MS(200));
}
END_TEST

START_TEST(test_energy_model_interpolates)
{
        struct bl_energy_model m = { .known = true, .nlevels = 1 };

        for (unsigned i = 0; i < BL_POWER_POINTS; i++)
                m.mw[0][i] = 10.0 * i;
        ck_assert_double_eq_tol(energy_model_power(&m, 0, 0), 0, 1e-9);
        ck_assert_double_eq_tol(energy_model_power(&m, 0, energy_model_point(3)), 30, 1e-9);
        ck_assert_double_eq_tol(energy_model_power(&m, 0, energy_model_point(3) + 32), 35, 1e-9);
        ck_assert_double_eq_tol(energy_model_power(&m, 0, 5000), 10.0 * (BL_POWER_POINTS - 1), 1e-9);
        ck_assert_double_eq_tol(energy_model_power(&m, 1, 100), 0, 1e-9);
        m.known = false;
        ck_assert_double_eq_tol(energy_model_power(&m, 0, 100), 0, 1e-9);
}
END_TEST

START_TEST(test_break_even_time)
{
        struct bl_ladder l = two_levels();
        struct bl_engine_params p = params(true);
        struct bl_energy_model m = flat_model(30, 80);
        struct bl_switch_cost cost = { .latency_us = 2000, .energy_uj = 5000 };
        struct bl_engine e;

        engine_init(&e, &l, &p, 1);
        ck_assert_double_eq_tol(engine_break_even_us(&e, 1, 0, 100), 0, 1e-9);
        engine_set_switch_cost(&e, &cost);
        /* No model: 200 x the 4 ms of the two switches. */
        ck_assert_double_eq_tol(engine_break_even_us(&e, 1, 0, 100), 800000, 1e-6);
        /* 10 mJ over 50 mW: 200 ms. */
        engine_set_energy_model(&e, &m);
        ck_assert_double_eq_tol(engine_break_even_us(&e, 1, 0, 100), 200000, 1e-6);
        /* A lower level that saves nothing never pays. */
        m = flat_model(80, 80);
        ck_assert(isinf(engine_break_even_us(&e, 1, 0, 100)));
        /* An unknown model is no model. */
        m.known = false;
        engine_set_energy_model(&e, &m);
        ck_assert_double_eq_tol(engine_break_even_us(&e, 1, 0, 100), 800000, 1e-6);
        /* No model and a hotplug's 125 ms a switch: 200 x would be 50 s, the
         * wait is capped at a second. */
        engine_set_energy_model(&e, NULL);
        cost = (struct bl_switch_cost){ .latency_us = 5000, .latency_per_cpu_us = 30000 };
        engine_set_switch_cost(&e, &cost);
        ck_assert_double_eq_tol(engine_break_even_us(&e, 1, 0, 100), BL_BREAK_EVEN_MAX_NO_MODEL_US, 1e-6);
}
END_TEST

/* What a stay saves is counted idle: the demand reported through a gap
 * between bursts is held, and rises as a burst begins, and a saving read
 * from it ended the wait just as a burst came. Big at 80 mW + 0.5 a unit,
 * little at 30 + 0.1: at 200 units (under the way down's 60 % of 400)
 * little saves 130 mW, idle 50, so 10 mJ of switches break even in 200 ms,
 * not 77, and the first gap waits twice that. Where little idles no cheaper
 * (90 mW), the saving at the demand, 70 mW. */
START_TEST(test_break_even_at_the_idle_saving)
{
        struct bl_ladder l = two_levels();
        struct bl_engine_params p = params(true);
        struct bl_energy_model m = linear_model(30, 0.1, 80, 0.5);
        struct bl_switch_cost cost = { .latency_us = 2000, .energy_uj = 5000 };
        struct bl_engine e;

        engine_init(&e, &l, &p, 1);
        engine_set_switch_cost(&e, &cost);
        engine_set_energy_model(&e, &m);
        ck_assert_double_eq_tol(engine_break_even_us(&e, 1, 0, 200), 200000, 1e-6);
        engine_switched(&e, 1, 0);
        ck_assert_uint_eq(feed(&e, 200, MS(10), MS(2000)), MS(410));

        m = linear_model(90, 0.1, 80, 0.5);
        ck_assert_double_eq_tol(engine_break_even_us(&e, 1, 0, 200), 10000.0 / 70 * 1000, 1e-6);
}
END_TEST

/* mp mode on four LITTLE CPUs (capacity 400) and two big ones: little,
 * little+1big, all; each level tested with its rank-th busiest CPU against
 * the LITTLE capacity. */
static struct bl_ladder mp_levels(void)
{
        static const char *const names[] = { "little", "little+1big", "all" };
        struct bl_ladder l;

        memset(&l, 0, sizeof(l));
        l.mode = BL_MODE_MP;
        l.nlevels = 3;
        for (unsigned i = 0; i < 3; i++) {
                strcpy(l.levels[i].name, names[i]);
                for (unsigned cpu = 0; cpu < 4 + i; cpu++)
                        cpumask_set(&l.levels[i].cpus, cpu);
                l.levels[i].capacity = i ? 1024 : 400;
                l.levels[i].fit = 400;
                l.levels[i].rank = i;
        }
        return l;
}

/* LITTLE alone: 10 mW + 0.1 mW per unit of demand on its busiest CPU; with
 * the big cluster on: 30 mW + 0.5 mW per unit, the demand on a big CPU. */
static struct bl_energy_model mp_model(void)
{
        struct bl_energy_model m = { .known = true, .nlevels = 3 };

        for (unsigned i = 0; i < BL_POWER_POINTS; i++) {
                const double d = energy_model_point(i);

                m.mw[0][i] = 10 + 0.1 * d;
                m.mw[1][i] = m.mw[2][i] = 30 + 0.5 * d;
        }
        return m;
}

/* Feeds the per-CPU demands 'top' every 10 ms over [from, to); returns the
 * first time a decision wanted a change (0 if none). */
static bl_usec_t feed_ranked(struct bl_engine *e, const double *top, unsigned ntop, bl_usec_t from, bl_usec_t to)
{
        struct bl_decision d;

        for (bl_usec_t t = from; t < to; t += MS(10)) {
                engine_decide_ranked(e, top, ntop, BL_ENGINE_ANY_LOAD, NULL, t, &d);
                if (d.change)
                        return t;
        }
        return 0;
}

/* A smaller fast set saves what its threads cost less on LITTLE (0.4 mW per
 * unit of demand here), and at level 0 the big cluster's idle power (20 mW)
 * too, against one CPU's switch there and back per CPU (6 mJ each way).
 * The whole-machine figures of little+1big and all are alike: read as in
 * cluster mode, no shrink between them would ever pay. */
START_TEST(test_mp_break_even_per_thread)
{
        struct bl_ladder l = mp_levels();
        struct bl_engine_params p = params(true);
        struct bl_energy_model m = mp_model();
        struct bl_switch_cost cost = { .energy_per_cpu_uj = 6000 };
        const double two[] = { 600, 300 }, light[] = { 600, 30 }, one[] = { 300 };
        struct bl_engine e;

        engine_init(&e, &l, &p, 2);
        engine_set_switch_cost(&e, &cost);
        engine_set_energy_model(&e, &m);
        ck_assert(isinf(engine_break_even_us(&e, 2, 1, 300)));
        /* 12 mJ over 0.4 x 300 = 120 mW: 100 ms */
        ck_assert_double_eq_tol(engine_break_even_ranked_us(&e, 2, 1, two, 2), 100000, 1e-6);
        /* a light thread saves less: 12 mJ over 12 mW */
        ck_assert_double_eq_tol(engine_break_even_ranked_us(&e, 2, 1, light, 2), 1000000, 1e-6);
        /* two CPUs, 24 mJ, over 0.4 x 900 + 20 mW */
        ck_assert_double_eq_tol(engine_break_even_ranked_us(&e, 2, 0, two, 2), 24000.0 / 380 * 1000, 1e-6);
        /* one CPU, 12 mJ, over 0.4 x 300 + 20 mW */
        ck_assert_double_eq_tol(engine_break_even_ranked_us(&e, 1, 0, one, 1), 12000.0 / 140 * 1000, 1e-6);
}
END_TEST

/* At all, the second thread turns light (100, well within LITTLE): the
 * shrink to little+1big saves 40 mW against 12 mJ of switches, 300 ms,
 * twice that with the margin. A lull of 400 ms does not pay and is not
 * taken; a lasting one is, after 600 ms. With switches ten times cheaper,
 * after 60 ms. */
START_TEST(test_mp_shrink_waits_until_it_pays)
{
        struct bl_ladder l = mp_levels();
        struct bl_engine_params p = params(true);
        struct bl_energy_model m = mp_model();
        struct bl_switch_cost cost = { .energy_per_cpu_uj = 6000 };
        const double lull[] = { 600, 100 }, busy[] = { 600, 500 };
        struct bl_engine e;

        engine_init(&e, &l, &p, 2);
        engine_set_switch_cost(&e, &cost);
        engine_set_energy_model(&e, &m);
        engine_switched(&e, 2, 0);
        ck_assert_uint_eq(feed_ranked(&e, lull, 2, MS(10), MS(400)), 0);
        ck_assert_uint_eq(feed_ranked(&e, busy, 2, MS(400), MS(500)), 0);
        ck_assert_uint_eq(feed_ranked(&e, lull, 2, MS(500), MS(3000)), MS(1100));

        cost.energy_per_cpu_uj = 600;
        engine_init(&e, &l, &p, 2);
        engine_set_switch_cost(&e, &cost);
        engine_set_energy_model(&e, &m);
        engine_switched(&e, 2, 0);
        ck_assert_uint_eq(feed_ranked(&e, lull, 2, MS(10), MS(3000)), MS(70));
}
END_TEST

/* Switching costs nothing: down after down_delay, as without the rule. */
START_TEST(test_free_switches_change_nothing)
{
        struct bl_ladder l = two_levels();
        struct bl_engine_params p = params(true);
        struct bl_engine e;

        engine_init(&e, &l, &p, 1);
        engine_switched(&e, 1, 0);
        ck_assert_uint_eq(feed(&e, 100, MS(10), MS(1000)), MS(30));
}
END_TEST

/* Before any history: down once the gap has lasted twice the break-even
 * time (200 ms here); break_even = no: after down_delay. */
START_TEST(test_first_gap_waits_break_even)
{
        struct bl_ladder l = two_levels();
        struct bl_engine_params p = params(true);
        struct bl_energy_model m = flat_model(30, 80);
        struct bl_switch_cost cost = { .latency_us = 2000, .energy_uj = 5000 };
        struct bl_engine e;
        struct bl_decision d;

        engine_init(&e, &l, &p, 1);
        engine_set_switch_cost(&e, &cost);
        engine_set_energy_model(&e, &m);
        engine_switched(&e, 1, 0);
        ck_assert_uint_eq(feed(&e, 100, MS(10), MS(2000)), MS(410));
        engine_decide(&e, 100, NULL, MS(400), &d);
        ck_assert_int_eq(d.cause, BL_CAUSE_PENDING);
        ck_assert_ptr_nonnull(strstr(d.reason, "break-even 400 ms"));

        p.break_even = false;
        engine_init(&e, &l, &p, 1);
        engine_set_switch_cost(&e, &cost);
        engine_set_energy_model(&e, &m);
        engine_switched(&e, 1, 0);
        ck_assert_uint_eq(feed(&e, 100, MS(10), MS(2000)), MS(30));
}
END_TEST

/* Rule 3c: a move up waits until the demand has been seen for as long as
 * the switch up takes. 100 ms here: one sample over little (the first
 * covers the 10 ms since the decision before it) does not go up, a demand
 * that stays does after 100 ms, and a switch quicker than a sample
 * interval goes at once, as it did before the rule. */
START_TEST(test_up_waits_for_the_switch)
{
        struct bl_ladder l = two_levels();
        struct bl_engine_params p = params(true);
        struct bl_switch_cost slow = { .latency_us = MS(100) }, quick = { .latency_us = MS(10) };
        struct bl_engine e;
        struct bl_decision d;

        engine_init(&e, &l, &p, 0);
        engine_set_switch_cost(&e, &slow);
        engine_switched(&e, 0, 0);
        ck_assert_uint_eq(feed(&e, 100, MS(10), MS(500)), 0);
        engine_decide(&e, 900, NULL, MS(500), &d);
        ck_assert(!d.change);
        ck_assert_int_eq(d.cause, BL_CAUSE_PENDING);
        ck_assert_ptr_nonnull(strstr(d.reason, "the switch up takes 100 ms"));
        /* the burst ends: nothing */
        ck_assert_uint_eq(feed(&e, 100, MS(510), MS(1000)), 0);
        /* a demand that lasts: up once seen for 100 ms, from 990 ms */
        ck_assert_uint_eq(feed(&e, 900, MS(1000), MS(2000)), MS(1090));

        engine_init(&e, &l, &p, 0);
        engine_set_switch_cost(&e, &quick);
        engine_switched(&e, 0, 0);
        ck_assert_uint_eq(feed(&e, 100, MS(10), MS(500)), 0);
        ck_assert_uint_eq(feed(&e, 900, MS(500), MS(1000)), MS(500));

        /* break_even = no: at once whatever the switch costs */
        p.break_even = false;
        engine_init(&e, &l, &p, 0);
        engine_set_switch_cost(&e, &slow);
        engine_switched(&e, 0, 0);
        ck_assert_uint_eq(feed(&e, 100, MS(10), MS(500)), 0);
        ck_assert_uint_eq(feed(&e, 900, MS(500), MS(1000)), MS(500));
}
END_TEST

/* Gaps of 100 ms between bursts (frames, a timer) do not pay for a 400 ms
 * wait: big through them. A long quiet afterwards goes down once it is
 * longer than any gap seen and the wait. Gaps of 2 s pay at once. */
START_TEST(test_learned_gaps)
{
        struct bl_ladder l = two_levels();
        struct bl_engine_params p = params(true);
        struct bl_energy_model m = flat_model(30, 80);
        struct bl_switch_cost cost = { .latency_us = 2000, .energy_uj = 5000 };
        struct bl_engine e;
        bl_usec_t t = MS(10);

        engine_init(&e, &l, &p, 1);
        engine_set_switch_cost(&e, &cost);
        engine_set_energy_model(&e, &m);
        engine_switched(&e, 1, 0);
        for (int i = 0; i < 10; i++) {
                ck_assert_uint_eq(feed(&e, 900, t, t + MS(30)), 0);    /* a burst big needs */
                t += MS(30);
                ck_assert_uint_eq(feed(&e, 100, t, t + MS(100)), 0);   /* its gap */
                t += MS(100);
        }
        ck_assert_uint_eq(feed(&e, 900, t, t + MS(30)), 0);
        t += MS(30);
        ck_assert_uint_eq(feed(&e, 100, t, t + MS(5000)), t + MS(400));

        engine_init(&e, &l, &p, 1);
        engine_set_switch_cost(&e, &cost);
        engine_set_energy_model(&e, &m);
        engine_switched(&e, 1, 0);
        t = MS(10);
        for (int i = 0; i < 5; i++) {
                gaps_record(&e.gaps[0], MS(2000));
        }
        ck_assert_uint_eq(feed(&e, 100, t, t + MS(3000)), t + MS(20));
}
END_TEST

int main(void)
{
        Suite *s = suite_create("break-even");
        TCase *tc = tcase_create("break-even");
        SRunner *sr;
        int failed;

        tcase_add_test(tc, test_gaps_lengths_and_rest);
        tcase_add_test(tc, test_gaps_forget);
        tcase_add_test(tc, test_energy_model_interpolates);
        tcase_add_test(tc, test_break_even_time);
        tcase_add_test(tc, test_break_even_at_the_idle_saving);
        tcase_add_test(tc, test_free_switches_change_nothing);
        tcase_add_test(tc, test_first_gap_waits_break_even);
        tcase_add_test(tc, test_up_waits_for_the_switch);
        tcase_add_test(tc, test_learned_gaps);
        tcase_add_test(tc, test_mp_break_even_per_thread);
        tcase_add_test(tc, test_mp_shrink_waits_until_it_pays);
        suite_add_tcase(s, tc);
        sr = srunner_create(s);
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
