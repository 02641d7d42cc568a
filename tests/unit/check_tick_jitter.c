/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The full-rate tick at random phases against the kernel's jiffy
 * (core/tick-jitter.h). */
#include <check.h>
#include <stdbool.h>
#include <stdlib.h>

#include "core/tick-jitter.h"

#define INTERVAL 10000u         /* the default 10 ms tick */
#define JIFFY 4000u             /* HZ = 250, Debian's arm64 kernel */
#define RUN 840u                /* the daemon's tick under QEMU: 0.84 ms */
#define DRAWS 100000u

START_TEST(test_jitter_bounds_and_mean)
{
        uint64_t state = 0;
        int64_t lo = 0, hi = 0, sum = 0;

        for (unsigned i = 0; i < DRAWS; i++) {
                int64_t j = tick_jitter_next(&state, 42, INTERVAL);

                ck_assert_int_ge(j, -(int64_t)INTERVAL / 10);
                ck_assert_int_le(j, (int64_t)INTERVAL / 10);
                lo = j < lo ? j : lo;
                hi = j > hi ? j : hi;
                sum += j;
        }
        /* the whole span is used, and the mean interval stays 10 ms */
        ck_assert_int_le(lo, -990);
        ck_assert_int_ge(hi, 990);
        ck_assert_int_lt(llabs(sum / (int64_t)DRAWS), 20);
}
END_TEST

/* Wakes every 10 ms that run 0.84 ms: the share of runs a 4 ms jiffy
 * boundary falls in is what the kernel charges them. At a fixed phase it
 * is 0 or 1/2 (10 ms is 2.5 jiffies: two phases); with the jitter it is
 * the runs' real share, 0.84 / 4 = 0.21, whatever the starting phase. */
static double charged_share(uint64_t start, bool jitter)
{
        uint64_t state = 0, t = start;
        unsigned charged = 0;

        for (unsigned i = 0; i < DRAWS; i++) {
                t += INTERVAL + (jitter ? (uint64_t)tick_jitter_next(&state, start + 7, INTERVAL) : 0);
                if (t % JIFFY + RUN >= JIFFY)
                        charged++;
        }
        return (double)charged / DRAWS;
}

START_TEST(test_jitter_breaks_the_phase_lock)
{
        double fixed_lo = 1, fixed_hi = 0;

        for (uint64_t start = 0; start < JIFFY; start += 250) {
                double f = charged_share(start, false), j = charged_share(start, true);

                fixed_lo = f < fixed_lo ? f : fixed_lo;
                fixed_hi = f > fixed_hi ? f : fixed_hi;
                ck_assert_msg(j > 0.19 && j < 0.23, "start %llu: %.3f of the runs charged with jitter",
                              (unsigned long long)start, j);
        }
        /* without it, some phases are charged 2.4 times their real time */
        ck_assert_double_ge(fixed_hi, 0.49);
        ck_assert_double_le(fixed_lo, 0.01);
}
END_TEST

START_TEST(test_jitter_seed_and_small_intervals)
{
        uint64_t a = 0, b = 0, c = 0;
        unsigned same = 0;

        for (unsigned i = 0; i < 100; i++) {
                int64_t x = tick_jitter_next(&a, 1, INTERVAL), y = tick_jitter_next(&b, 1, INTERVAL);

                ck_assert_int_eq(x, y);
                same += x == tick_jitter_next(&c, 2, INTERVAL);
        }
        ck_assert_uint_lt(same, 10);
        a = 0;
        ck_assert_int_eq(tick_jitter_next(&a, 1, 9), 0);
        ck_assert_int_eq(tick_jitter_next(&a, 1, 0), 0);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("tick-jitter");
        TCase *tc = tcase_create("jitter");
        SRunner *sr;
        int failed;

        tcase_add_test(tc, test_jitter_bounds_and_mean);
        tcase_add_test(tc, test_jitter_breaks_the_phase_lock);
        tcase_add_test(tc, test_jitter_seed_and_small_intervals);
        suite_add_tcase(s, tc);
        sr = srunner_create(s);
        srunner_run_all(sr, CK_ENV);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
