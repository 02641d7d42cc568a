/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sampling thread's own CPU time (sources/self-time.h): what a take
 * gives on the real thread clock, and the share of a late take that falls
 * in the span a caller nets it over. */
#include <check.h>
#include <stdlib.h>
#include <time.h>

#include "sources/self-time.h"

/* Spins until the thread's clock has moved by 'us'. */
static void burn_us(uint64_t us)
{
        struct timespec a, b;
        int64_t ns;

        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
        do {
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
                ns = (int64_t)(b.tv_sec - a.tv_sec) * 1000000000 + (b.tv_nsec - a.tv_nsec);
        } while (ns < (int64_t)us * 1000);
}

/* The first take only starts the count; the next gives the CPU time used
 * between them and how far the caller's clock moved. */
START_TEST(test_take_counts_from_the_previous)
{
        struct self_time st;
        uint64_t used, since;

        self_time_reset(&st);
        self_time_take(&st, 1000000, &used, &since);
        ck_assert_uint_eq(used, 0);
        ck_assert_uint_eq(since, 0);
        burn_us(20000);
        self_time_take(&st, 1030000, &used, &since);
        ck_assert_uint_ge(used, 20000);
        ck_assert_uint_lt(used, 1000000);
        ck_assert_uint_eq(since, 30000);
        /* Nothing burnt since: (almost) nothing used. */
        self_time_take(&st, 1040000, &used, &since);
        ck_assert_uint_lt(used, 5000);
        ck_assert_uint_eq(since, 10000);
        self_time_reset(&st);
        burn_us(5000);
        self_time_take(&st, 1050000, &used, &since);
        ck_assert_uint_eq(used, 0);
        ck_assert_uint_eq(since, 0);
}
END_TEST

/* A take that waited spreads its time evenly: a span shorter than the wait
 * gets its part, a longer one all of it. */
START_TEST(test_share_of_a_late_take)
{
        ck_assert_double_eq_tol(self_time_share(6000, 100000, 10000), 600.0, 1e-9);
        ck_assert_double_eq_tol(self_time_share(6000, 100000, 100000), 6000.0, 1e-9);
        ck_assert_double_eq_tol(self_time_share(6000, 10000, 100000), 6000.0, 1e-9);
        ck_assert_double_eq_tol(self_time_share(6000, 0, 10000), 6000.0, 1e-9);
        ck_assert_double_eq_tol(self_time_share(0, 50000, 10000), 0.0, 1e-9);
}
END_TEST

START_TEST(test_cpu_is_known)
{
        int cpu = self_time_cpu();

        ck_assert_int_ge(cpu, 0);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("self-time");
        TCase *tc = tcase_create("self-time");
        SRunner *sr;
        int failed;

        tcase_add_test(tc, test_take_counts_from_the_previous);
        tcase_add_test(tc, test_share_of_a_late_take);
        tcase_add_test(tc, test_cpu_is_known);
        suite_add_tcase(s, tc);
        sr = srunner_create(s);
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
