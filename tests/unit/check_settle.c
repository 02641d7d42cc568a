/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a switch leaves behind is not load (core/settle.h). */
#include <check.h>
#include <stdlib.h>

#include "core/settle.h"

#define MS BL_USEC_PER_MSEC
#define TICK (20 * MS)
/* A switch that takes this long, begun a millisecond after a sample, keeps
 * a floor of up to 10 x 9 ms = 90 ms (4.5 ticks): the tests below that are
 * not about the floor use it. */
#define APPLIED (10 * MS)

/* Four CPUs of capacity 512 at 'busy', pressure 'pressure', over the
 * TICK ending at 'now'. */
static void sample(struct bl_sample_buf *b, double busy, double pressure, bl_usec_t now)
{
        sample_buf_init(b, 4);
        b->s.now = now;
        b->s.interval = TICK;
        b->s.has_pressure = true;
        b->s.pressure = pressure;
        for (unsigned i = 0; i < 4; i++) {
                b->cpu[i].online = true;
                b->cpu[i].capacity = 512;
                b->cpu[i].busy = (float)busy;
        }
}

/* Feeds quiet samples at 'busy' up to 'now'. */
static void quiet(struct bl_settle *s, double busy, bl_usec_t from, bl_usec_t now)
{
        struct bl_sample_buf b;

        for (bl_usec_t t = from; t <= now; t += TICK) {
                sample(&b, busy, 0.0, t);
                ck_assert(!settle_filter(s, &b, t));
                ck_assert_double_eq_tol(b.cpu[0].busy, busy, 1e-6);
        }
}

/* Quiet samples from 'from' until the window closes: it must take
 * BL_SETTLE_QUIET_SAMPLES of them. Returns the time of the last. */
static bl_usec_t quiet_until_settled(struct bl_settle *s, bl_usec_t from)
{
        struct bl_sample_buf b;
        bl_usec_t t = from;

        for (unsigned i = 1; i < BL_SETTLE_QUIET_SAMPLES; i++, t += TICK) {
                sample(&b, 0.02, 0.0, t);
                ck_assert(settle_filter(s, &b, t));
                ck_assert(settle_active(s));
        }
        sample(&b, 0.02, 0.0, t);
        ck_assert(!settle_filter(s, &b, t));
        ck_assert(!settle_active(s));
        return t;
}

/* Idle, a switch, then the kernel's work after it: cut to what idle read,
 * until the machine is idle again; the window is measured. */
START_TEST(test_aftermath_is_not_load)
{
        struct bl_settle s;
        struct bl_sample_buf b;
        bl_usec_t t;

        settle_init(&s, 10 * TICK);
        quiet(&s, 0.02, TICK, 10 * TICK);
        settle_begin(&s, 10 * TICK + MS);
        ck_assert(settle_active(&s));
        /* 14 ms: a floor of 140 ms, past the quiet samples that end it */
        settle_applied(&s, 10 * TICK + 15 * MS);
        /* 0.9 x 512 = 460 of demand, 40 % pressure: the switch's work */
        for (t = 11 * TICK; t <= 14 * TICK; t += TICK) {
                sample(&b, 0.9, 0.4, t);
                ck_assert(settle_filter(&s, &b, t));
                ck_assert_double_eq_tol(b.cpu[0].busy, 0.02, 1e-6);
                ck_assert_double_eq_tol(b.cpu[3].busy, 0.02, 1e-6);
                ck_assert_double_eq_tol(b.s.pressure, 0.0, 1e-9);
        }
        ck_assert_uint_eq(s.discounted, 4);
        /* back at idle: the window closes after a few quiet samples, the
         * last of them counting as read; settled since the first */
        for (unsigned i = 0; i + 1 < BL_SETTLE_QUIET_SAMPLES; i++) {
                sample(&b, 0.03, 0.01, t + i * TICK);
                ck_assert(settle_filter(&s, &b, t + i * TICK));
                ck_assert(settle_active(&s));
        }
        sample(&b, 0.03, 0.01, t + (BL_SETTLE_QUIET_SAMPLES - 1) * TICK);
        ck_assert(!settle_filter(&s, &b, t + (BL_SETTLE_QUIET_SAMPLES - 1) * TICK));
        ck_assert(!settle_active(&s));
        ck_assert_double_eq_tol(b.cpu[0].busy, 0.03, 1e-6);
        ck_assert_uint_eq(s.windows, 1);
        ck_assert_uint_eq(s.bounded, 0);
        ck_assert_uint_eq(s.last_us, t - (10 * TICK + 15 * MS));
        ck_assert_double_eq_tol(s.mean_us, (double)s.last_us, 1e-6);
        /* after the window, load counts again */
        t += BL_SETTLE_QUIET_SAMPLES * TICK;
        sample(&b, 0.9, 0.4, t);
        ck_assert(!settle_filter(&s, &b, t));
        ck_assert_double_eq_tol(b.cpu[0].busy, 0.9, 1e-6);
}
END_TEST

/* A switch up under load: the load that was there before counts in full,
 * only what exceeds it is cut. */
START_TEST(test_load_before_still_counts)
{
        struct bl_settle s;
        struct bl_sample_buf b;

        settle_init(&s, 3 * TICK);
        quiet(&s, 1.0, TICK, 5 * TICK);
        settle_begin(&s, 5 * TICK + MS);
        settle_applied(&s, 5 * TICK + APPLIED);
        sample(&b, 0.8, 0.0, 6 * TICK);
        b.cpu[1].busy = 1.0f;
        b.cpu[2].capacity = 1024;       /* a big CPU: 1.0 x 1024 is over the 512 before */
        b.cpu[2].busy = 1.0f;
        ck_assert(settle_filter(&s, &b, 6 * TICK));
        ck_assert_double_eq_tol(b.cpu[0].busy, 0.8, 1e-6);
        ck_assert_double_eq_tol(b.cpu[1].busy, 1.0, 1e-6);
        ck_assert_double_eq_tol(b.cpu[2].busy, 0.5, 1e-6);
}
END_TEST

/* Rank by rank: one thread saturated one CPU before an mp switch up and
 * the rest were idle. After it the thread runs on a fast CPU and the
 * kernel's work shows on the LITTLE one it left: the busiest CPU may count
 * what the thread did, the second only what the second busiest did (idle),
 * not the thread's peak, which would read as a second heavy thread. */
START_TEST(test_each_rank_cut_to_its_own_baseline)
{
        struct bl_settle s;
        struct bl_sample_buf b;

        settle_init(&s, 3 * TICK);
        for (bl_usec_t t = TICK; t <= 4 * TICK; t += TICK) {
                sample(&b, 0.02, 0.0, t);
                b.cpu[2].busy = 1.0f;
                ck_assert(!settle_filter(&s, &b, t));
        }
        settle_begin(&s, 4 * TICK + MS);
        settle_applied(&s, 4 * TICK + APPLIED);
        sample(&b, 0.02, 0.0, 5 * TICK);
        b.cpu[0].busy = 0.3f;           /* a kworker: 154 of demand, under the thread's 512 */
        b.cpu[2].busy = 0.4f;           /* what the thread left behind */
        b.cpu[3].capacity = 1024;       /* the thread, on a fast CPU */
        b.cpu[3].busy = 1.0f;
        ck_assert(settle_filter(&s, &b, 5 * TICK));
        ck_assert_double_eq_tol(b.cpu[3].busy, 0.5, 1e-6);
        ck_assert_double_eq_tol(b.cpu[2].busy, 0.02, 1e-6);
        ck_assert_double_eq_tol(b.cpu[0].busy, 0.02, 1e-6);
        ck_assert_double_eq_tol(b.cpu[1].busy, 0.02, 1e-6);
}
END_TEST

/* The baseline is the peak of the last few quiet samples, not only the
 * last one: a quiet dip just before the switch does not make the load
 * after it look new. */
START_TEST(test_baseline_is_recent_peak)
{
        struct bl_settle s;
        struct bl_sample_buf b;

        settle_init(&s, 3 * TICK);
        quiet(&s, 0.5, TICK, 3 * TICK);
        quiet(&s, 0.1, 4 * TICK, 4 * TICK);
        settle_begin(&s, 4 * TICK + MS);
        settle_applied(&s, 4 * TICK + APPLIED);
        sample(&b, 0.9, 0.0, 5 * TICK);
        ck_assert(settle_filter(&s, &b, 5 * TICK));
        ck_assert_double_eq_tol(b.cpu[0].busy, 0.5, 1e-6);
        /* older than BL_SETTLE_BASE_SAMPLES quiet samples: forgotten */
        settle_init(&s, 3 * TICK);
        quiet(&s, 0.5, TICK, TICK);
        quiet(&s, 0.1, 2 * TICK, (1 + BL_SETTLE_BASE_SAMPLES) * TICK);
        settle_begin(&s, 6 * TICK);
        settle_applied(&s, 6 * TICK + APPLIED);
        sample(&b, 0.9, 0.0, 7 * TICK);
        ck_assert(settle_filter(&s, &b, 7 * TICK));
        ck_assert_double_eq_tol(b.cpu[0].busy, 0.1, 1e-6);
}
END_TEST

/* One quiet sample between two bursts of the kernel's work is not the end
 * of it: the burst after it is still cut. */
START_TEST(test_quiet_between_bursts)
{
        struct bl_settle s;
        struct bl_sample_buf b;

        settle_init(&s, 20 * TICK);
        quiet(&s, 0.02, TICK, 4 * TICK);
        settle_begin(&s, 4 * TICK + MS);
        /* 14 ms: a floor of 140 ms, past the last sample below */
        settle_applied(&s, 4 * TICK + 15 * MS);
        sample(&b, 0.9, 0.3, 5 * TICK);
        ck_assert(settle_filter(&s, &b, 5 * TICK));
        sample(&b, 0.02, 0.0, 6 * TICK);
        ck_assert(settle_filter(&s, &b, 6 * TICK));
        sample(&b, 0.9, 0.3, 7 * TICK);
        ck_assert(settle_filter(&s, &b, 7 * TICK));
        ck_assert_double_eq_tol(b.cpu[0].busy, 0.02, 1e-6);
        ck_assert(settle_active(&s));
        /* settled from the first of the quiet samples that end it */
        quiet_until_settled(&s, 8 * TICK);
        ck_assert_uint_eq(s.last_us, 8 * TICK - (4 * TICK + 15 * MS));
        ck_assert_uint_eq(s.bounded, 0);
}
END_TEST

/* A sample that began before the last read-back still holds the switch's
 * own work: even at the baseline it does not end the window. So do the
 * samples while the switch is in flight. */
START_TEST(test_only_after_the_switch_settles)
{
        struct bl_settle s;
        struct bl_sample_buf b;

        settle_init(&s, 10 * TICK);
        quiet(&s, 0.02, TICK, 4 * TICK);
        settle_begin(&s, 4 * TICK + MS);
        sample(&b, 0.02, 0.0, 5 * TICK);
        ck_assert(settle_filter(&s, &b, 5 * TICK));
        ck_assert(settle_active(&s));
        settle_applied(&s, 5 * TICK + MS);
        sample(&b, 0.02, 0.0, 6 * TICK);
        ck_assert(settle_filter(&s, &b, 6 * TICK));
        ck_assert(settle_active(&s));
        quiet_until_settled(&s, 7 * TICK);
        ck_assert_uint_eq(s.last_us, 2 * TICK - MS);
}
END_TEST

/* An aftermath that never ends is load after all: the window closes at its
 * bound, which grows with the switch's duration between the floor and the
 * ceiling. */
START_TEST(test_bound_follows_switch_duration)
{
        struct bl_settle s;
        struct bl_sample_buf b;
        /* 1 ms: ten times it, under the floor; 8 ms: 80 ms, still under
         * it; 20 ms: the floor (5 ticks); 60 ms: three times it */
        const bl_usec_t took[] = { MS, 8 * MS, 20 * MS, 60 * MS, BL_USEC_PER_SEC };
        const bl_usec_t bound[] = { 10 * MS, 80 * MS, 5 * TICK, 180 * MS, BL_SETTLE_MAX_BOUND_USEC };

        for (unsigned k = 0; k < 5; k++) {
                bl_usec_t t0 = 5 * TICK, t;
                unsigned cut = 0;

                settle_init(&s, 5 * TICK);
                quiet(&s, 0.02, TICK, t0);
                settle_begin(&s, t0);
                settle_applied(&s, t0 + took[k]);
                for (t = t0 + TICK; settle_active(&s); t += TICK) {
                        sample(&b, 0.9, 0.5, t);
                        if (settle_filter(&s, &b, t))
                                cut++;
                        ck_assert_uint_le(t, t0 + took[k] + bound[k] + TICK);
                }
                t -= TICK;
                ck_assert_uint_ge(t, t0 + took[k] + bound[k]);
                ck_assert_uint_eq(s.bounded, 1);
                ck_assert_uint_eq(s.windows, 1);
                ck_assert_double_eq_tol(b.cpu[0].busy, 0.9, 1e-6);
                ck_assert_uint_eq(cut, (t - t0) / TICK - 1);
        }
}
END_TEST

/* A switch made inside a window (the engine, a hold) keeps the baseline of
 * the machine before the first: one switch's aftermath cannot stand for
 * the load the next one is judged against. */
START_TEST(test_switch_in_window_keeps_baseline)
{
        struct bl_settle s;
        struct bl_sample_buf b;

        settle_init(&s, 10 * TICK);
        quiet(&s, 0.02, TICK, 4 * TICK);
        settle_begin(&s, 4 * TICK + MS);
        settle_applied(&s, 4 * TICK + APPLIED);
        sample(&b, 0.9, 0.3, 5 * TICK);
        ck_assert(settle_filter(&s, &b, 5 * TICK));
        settle_begin(&s, 5 * TICK + MS);
        settle_applied(&s, 5 * TICK + APPLIED);
        sample(&b, 0.9, 0.3, 6 * TICK);
        ck_assert(settle_filter(&s, &b, 6 * TICK));
        ck_assert_double_eq_tol(b.cpu[0].busy, 0.02, 1e-6);
        ck_assert_double_eq_tol(b.s.pressure, 0.0, 1e-9);
        /* the window runs from the second switch's read-back */
        quiet_until_settled(&s, 7 * TICK);
        ck_assert_uint_eq(s.windows, 1);
        ck_assert_uint_eq(s.last_us, 7 * TICK - (5 * TICK + APPLIED));
}
END_TEST

/* The level set at start-up comes before any sample: nothing the machine
 * does until it settles is taken for load. Offline CPUs and CPUs of
 * unknown capacity are left alone. */
START_TEST(test_start_before_any_sample)
{
        struct bl_settle s;
        struct bl_sample_buf b;

        settle_init(&s, 3 * TICK);
        settle_begin(&s, 0);
        settle_applied(&s, APPLIED);
        sample(&b, 0.7, 0.2, TICK);
        b.cpu[2].online = false;
        b.cpu[3].capacity = 0;
        ck_assert(settle_filter(&s, &b, TICK));
        ck_assert_double_eq_tol(b.cpu[0].busy, 0.0, 1e-9);
        ck_assert_double_eq_tol(b.cpu[2].busy, 0.7, 1e-6);
        ck_assert_double_eq_tol(b.cpu[3].busy, 0.7, 1e-6);
        ck_assert_double_eq_tol(b.s.pressure, 0.0, 1e-9);
        /* settle_applied() without a switch begun changes nothing */
        settle_init(&s, 3 * TICK);
        settle_applied(&s, MS);
        ck_assert(!settle_active(&s));
}
END_TEST

/* A slow switch's aftermath comes in bursts: quiet samples right after it
 * do not close the window before the switch's own duration has passed, so
 * the burst after them is still cut (on the real kernel: a 700 ms hotplug,
 * three quiet samples, then a LITTLE CPU at 0.62 90 ms after it). */
START_TEST(test_window_lasts_as_long_as_the_switch)
{
        struct bl_settle s;
        struct bl_sample_buf b;
        const bl_usec_t applied = 5 * TICK + 700 * MS;
        bl_usec_t t = applied + TICK;

        settle_init(&s, 3 * TICK);
        quiet(&s, 0.02, TICK, 5 * TICK);
        settle_begin(&s, 5 * TICK);
        settle_applied(&s, applied);
        for (unsigned i = 0; i < BL_SETTLE_QUIET_SAMPLES; i++, t += TICK) {
                sample(&b, 0.02, 0.0, t);
                ck_assert(settle_filter(&s, &b, t));
                ck_assert(settle_active(&s));
        }
        t += 2 * TICK;
        sample(&b, 0.62, 0.2, t);
        ck_assert(settle_filter(&s, &b, t));
        ck_assert_double_eq_tol(b.cpu[0].busy, 0.02, 1e-6);
        /* quiet from then on: closed at the first quiet sample past the
         * switch's duration, settled since the first of its quiet run */
        for (t += TICK; settle_active(&s); t += TICK) {
                sample(&b, 0.02, 0.0, t);
                (void)settle_filter(&s, &b, t);
                ck_assert_uint_le(t, applied + 700 * MS + TICK);
        }
        ck_assert_uint_ge(t - TICK, applied + 700 * MS);
        ck_assert_uint_eq(s.bounded, 0);
}
END_TEST

/* The start-up level answers no load: its window's baseline is the median
 * of the samples before it, so one burst among them (a process started
 * beside the daemon) does not let the switch's aftermath through, and one
 * sample that missed a steady load does not cut that load to nothing. */
START_TEST(test_start_baseline_is_median)
{
        struct bl_settle s;
        struct bl_sample_buf b;

        settle_init(&s, 3 * TICK);
        quiet(&s, 0.05, TICK, 3 * TICK);
        quiet(&s, 1.0, 4 * TICK, 4 * TICK);
        settle_begin_at_start(&s, 4 * TICK + MS);
        settle_applied(&s, 4 * TICK + APPLIED);
        sample(&b, 1.0, 0.6, 5 * TICK);
        ck_assert(settle_filter(&s, &b, 5 * TICK));
        ck_assert_double_eq_tol(b.cpu[0].busy, 0.05, 1e-6);
        ck_assert_double_eq_tol(b.s.pressure, 0.0, 1e-9);
        /* the same samples before a switch of the policy's: their peak */
        settle_init(&s, 3 * TICK);
        quiet(&s, 0.05, TICK, 3 * TICK);
        quiet(&s, 1.0, 4 * TICK, 4 * TICK);
        settle_begin(&s, 4 * TICK + MS);
        settle_applied(&s, 4 * TICK + APPLIED);
        sample(&b, 1.0, 0.6, 5 * TICK);
        ck_assert(settle_filter(&s, &b, 5 * TICK));
        ck_assert_double_eq_tol(b.cpu[0].busy, 1.0, 1e-6);
        /* a steady load before the start counts in full, also when one
         * sample missed it */
        settle_init(&s, 3 * TICK);
        quiet(&s, 0.2, TICK, 3 * TICK);
        quiet(&s, 0.0, 4 * TICK, 4 * TICK);
        settle_begin_at_start(&s, 4 * TICK + MS);
        settle_applied(&s, 4 * TICK + APPLIED);
        sample(&b, 0.9, 0.0, 5 * TICK);
        ck_assert(settle_filter(&s, &b, 5 * TICK));
        ck_assert_double_eq_tol(b.cpu[0].busy, 0.2, 1e-6);
        /* an odd count: the middle one */
        settle_init(&s, 3 * TICK);
        quiet(&s, 0.1, TICK, TICK);
        quiet(&s, 0.3, 2 * TICK, 2 * TICK);
        quiet(&s, 0.9, 3 * TICK, 3 * TICK);
        settle_begin_at_start(&s, 3 * TICK + MS);
        settle_applied(&s, 3 * TICK + APPLIED);
        sample(&b, 1.0, 0.0, 4 * TICK);
        ck_assert(settle_filter(&s, &b, 4 * TICK));
        ck_assert_double_eq_tol(b.cpu[0].busy, 0.3, 1e-6);
}
END_TEST

/* The mean follows the windows, the maximum keeps the longest. */
START_TEST(test_windows_are_measured)
{
        struct bl_settle s;
        struct bl_sample_buf b;
        bl_usec_t t = TICK;

        settle_init(&s, 100 * TICK);
        for (unsigned k = 1; k <= 3; k++) {
                quiet(&s, 0.02, t, t + 4 * TICK);
                t += 4 * TICK;
                settle_begin(&s, t);
                /* 19 ms: a floor of 190 ms, past the last sample */
                settle_applied(&s, t + 19 * MS);
                for (unsigned i = 0; i < k * 2; i++) {
                        t += TICK;
                        sample(&b, 0.9, 0.0, t);
                        ck_assert(settle_filter(&s, &b, t));
                }
                t += TICK;
                t = quiet_until_settled(&s, t);
                ck_assert_uint_eq(s.last_us, (k * 2 + 1) * TICK - 19 * MS);
                t += TICK;
        }
        ck_assert_uint_eq(s.windows, 3);
        ck_assert_uint_eq(s.max_us, 7 * TICK - 19 * MS);
        /* the weights add up to 1: the mean is 19 ms short too */
        ck_assert_double_eq_tol(s.mean_us, (3.0 * 0.9 * 0.9 + 5.0 * 0.1 * 0.9 + 7.0 * 0.1) * TICK - 19 * MS,
                                1e-3);
}
END_TEST

/* Decisions made on a sample in a window: the policy's moves down wait,
 * anything else goes. */
START_TEST(test_holds_only_the_policys_moves_down)
{
        struct bl_decision d[3] = {
                { .from = 1, .to = 0, .change = true, .cause = BL_CAUSE_DOWN },
                { .from = 0, .to = 0, .change = false, .cause = BL_CAUSE_PENDING },
                { .from = 1, .to = 1, .change = false, .cause = BL_CAUSE_NONE },
        };

        ck_assert(settle_holds(true, d, 3));
        /* outside a window the samples are the kernel's */
        ck_assert(!settle_holds(false, d, 3));
        /* nothing to hold */
        ck_assert(!settle_holds(true, &d[1], 2));
        /* a pair going up beside one going down: the switch goes */
        d[2] = (struct bl_decision){ .from = 0, .to = 1, .change = true, .cause = BL_CAUSE_UP };
        ck_assert(!settle_holds(true, d, 3));
        /* a thermal limit's or a hold's move down goes at once */
        d[2] = (struct bl_decision){ .from = 1, .to = 0, .change = true, .cause = BL_CAUSE_CRITICAL };
        ck_assert(!settle_holds(true, d, 3));
        d[2].cause = BL_CAUSE_THERMAL_CAP;
        ck_assert(!settle_holds(true, d, 3));
        d[2].cause = BL_CAUSE_HOLD;
        ck_assert(!settle_holds(true, d, 3));
        d[2].cause = BL_CAUSE_DOWN;
        ck_assert(settle_holds(true, d, 3));
}
END_TEST

int main(void)
{
        Suite *s = suite_create("settle");
        TCase *tc = tcase_create("settle");
        SRunner *sr;
        int failed;

        tcase_add_test(tc, test_aftermath_is_not_load);
        tcase_add_test(tc, test_load_before_still_counts);
        tcase_add_test(tc, test_each_rank_cut_to_its_own_baseline);
        tcase_add_test(tc, test_baseline_is_recent_peak);
        tcase_add_test(tc, test_only_after_the_switch_settles);
        tcase_add_test(tc, test_quiet_between_bursts);
        tcase_add_test(tc, test_bound_follows_switch_duration);
        tcase_add_test(tc, test_switch_in_window_keeps_baseline);
        tcase_add_test(tc, test_start_before_any_sample);
        tcase_add_test(tc, test_window_lasts_as_long_as_the_switch);
        tcase_add_test(tc, test_start_baseline_is_median);
        tcase_add_test(tc, test_windows_are_measured);
        tcase_add_test(tc, test_holds_only_the_policys_moves_down);
        suite_add_tcase(s, tc);
        sr = srunner_create(s);
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
