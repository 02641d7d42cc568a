/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"

static bl_cpumask set_of(const unsigned *cpus, unsigned n)
{
        bl_cpumask s;

        cpumask_zero(&s);
        for (unsigned i = 0; i < n; i++)
                cpumask_set(&s, cpus[i]);
        return s;
}

static void assert_parses_to(const char *text, const char *canonical, unsigned count)
{
        bl_cpumask s;
        char buf[64];

        ck_assert_int_eq(cpumask_parse(&s, text), 0);
        ck_assert_uint_eq(cpumask_count(&s), count);
        cpumask_format(&s, buf, sizeof(buf));
        ck_assert_str_eq(buf, canonical);
}

START_TEST(test_parse_single_and_ranges)
{
        bl_cpumask s;

        ck_assert_int_eq(cpumask_parse(&s, "0-3,6"), 0);
        ck_assert_uint_eq(cpumask_count(&s), 5);
        for (unsigned c = 0; c <= 3; c++)
                ck_assert(cpumask_isset(&s, c));
        ck_assert(!cpumask_isset(&s, 4));
        ck_assert(!cpumask_isset(&s, 5));
        ck_assert(cpumask_isset(&s, 6));
        ck_assert(!cpumask_isset(&s, 7));

        assert_parses_to("5", "5", 1);
        assert_parses_to("2-2", "2", 1);
        assert_parses_to("0,1,2,3", "0-3", 4);
        assert_parses_to("4-7,0-3", "0-7", 8);
        assert_parses_to("1,3,5,7", "1,3,5,7", 4);
        assert_parses_to("0-1,1-2", "0-2", 3);
}
END_TEST

START_TEST(test_parse_sysfs_forms)
{
        /* What the kernel writes: a trailing newline; an empty list is "\n" or "". */
        assert_parses_to("0-7\n", "0-7", 8);
        assert_parses_to("\n", "", 0);
        assert_parses_to("", "", 0);
        assert_parses_to("  0-1", "0-1", 2);
}
END_TEST

START_TEST(test_parse_limits)
{
        bl_cpumask s;

        assert_parses_to("1023", "1023", 1);
        assert_parses_to("0-1023", "0-1023", BL_MAX_CPUS);
        ck_assert_int_eq(cpumask_parse(&s, "1024"), -ERANGE);
        ck_assert_int_eq(cpumask_parse(&s, "0-1024"), -ERANGE);
        ck_assert_int_eq(cpumask_parse(&s, "99999999999999999999999"), -ERANGE);
}
END_TEST

START_TEST(test_parse_malformed)
{
        static const char *const bad[] = {
                "a", "-1", "1-", "3-1", "1 2", "1,,2", "1, 2", "0-3x", "+1", "1\n2", "0-3\n\n", ",1", "1--3", "1,", "0-3,\n",
        };

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                bl_cpumask s;

                ck_assert_msg(cpumask_parse(&s, bad[i]) == -EINVAL, "\"%s\" should be -EINVAL", bad[i]);
        }
}
END_TEST

START_TEST(test_parse_failure_keeps_set)
{
        static const unsigned cpus[] = { 2, 9 };
        bl_cpumask s = set_of(cpus, 2), before = s;

        ck_assert_int_eq(cpumask_parse(&s, "0-3,x"), -EINVAL);
        ck_assert(cpumask_equal(&s, &before));
        ck_assert_int_eq(cpumask_parse(&s, "0,2000"), -ERANGE);
        ck_assert(cpumask_equal(&s, &before));
}
END_TEST

/* The space-separated form of cpufreq's related_cpus and affected_cpus. */
START_TEST(test_parse_words)
{
        bl_cpumask s;

        ck_assert_int_eq(cpumask_parse_words(&s, "0 1 2 3\n"), 0);
        ck_assert(cpumask_equal(&s, &(bl_cpumask){ .bits = { 0xf } }));
        ck_assert_int_eq(cpumask_parse_words(&s, "4 5 6 7 \n"), 0);
        ck_assert(cpumask_equal(&s, &(bl_cpumask){ .bits = { 0xf0 } }));
        ck_assert_int_eq(cpumask_parse_words(&s, "0-2,6"), 0);
        ck_assert(cpumask_equal(&s, &(bl_cpumask){ .bits = { 0x47 } }));
        ck_assert_int_eq(cpumask_parse_words(&s, ""), 0);
        ck_assert(cpumask_empty(&s));
        ck_assert_int_eq(cpumask_parse_words(&s, "1023"), 0);
        ck_assert(cpumask_isset(&s, 1023));
        ck_assert_int_eq(cpumask_parse_words(&s, "1024"), -ERANGE);
        ck_assert_int_eq(cpumask_parse_words(&s, "0 x"), -EINVAL);
        ck_assert_int_eq(cpumask_parse_words(&s, "3-1"), -EINVAL);
        ck_assert_int_eq(cpumask_parse_words(&s, "1-"), -EINVAL);
        ck_assert_int_eq(cpumask_parse_words(&s, "-1"), -EINVAL);
}
END_TEST

START_TEST(test_format_basic)
{
        static const unsigned cpus[] = { 0, 1, 2, 3, 6, 8, 9, 63, 64, 1023 };
        bl_cpumask s = set_of(cpus, sizeof(cpus) / sizeof(cpus[0]));
        char buf[64];
        size_t n;

        n = cpumask_format(&s, buf, sizeof(buf));
        ck_assert_str_eq(buf, "0-3,6,8-9,63-64,1023");
        ck_assert_uint_eq(n, strlen("0-3,6,8-9,63-64,1023"));

        cpumask_zero(&s);
        n = cpumask_format(&s, buf, sizeof(buf));
        ck_assert_str_eq(buf, "");
        ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(test_format_truncates)
{
        static const unsigned cpus[] = { 0, 1, 2, 3, 6 };
        bl_cpumask s = set_of(cpus, 5);
        char buf[8];

        memset(buf, 'x', sizeof(buf));
        ck_assert_uint_eq(cpumask_format(&s, buf, 4), 5);
        ck_assert_str_eq(buf, "0-3");
        ck_assert_uint_eq(cpumask_format(&s, buf, 1), 5);
        ck_assert_str_eq(buf, "");
        buf[0] = 'y';
        ck_assert_uint_eq(cpumask_format(&s, buf, 0), 5);
        ck_assert_int_eq(buf[0], 'y');
        ck_assert_uint_eq(cpumask_format(&s, buf, 6), 5);
        ck_assert_str_eq(buf, "0-3,6");
}
END_TEST

START_TEST(test_format_full_roundtrip)
{
        bl_cpumask s, back;
        char *buf = malloc(8192);
        size_t n;

        ck_assert_ptr_nonnull(buf);
        cpumask_zero(&s);
        for (unsigned c = 0; c < BL_MAX_CPUS; c += 2)
                cpumask_set(&s, c);
        n = cpumask_format(&s, buf, 8192);
        ck_assert_uint_eq(n, strlen(buf));
        ck_assert_int_eq(cpumask_parse(&back, buf), 0);
        ck_assert(cpumask_equal(&s, &back));
        ck_assert_uint_eq(cpumask_count(&back), BL_MAX_CPUS / 2);
        free(buf);
}
END_TEST

START_TEST(test_set_clear_bounds)
{
        bl_cpumask s, zero;

        cpumask_zero(&s);
        cpumask_zero(&zero);
        cpumask_set(&s, BL_MAX_CPUS);
        cpumask_set(&s, 5000);
        ck_assert(cpumask_equal(&s, &zero));
        ck_assert(!cpumask_isset(&s, BL_MAX_CPUS));

        cpumask_set(&s, 64);
        ck_assert(cpumask_isset(&s, 64));
        ck_assert(!cpumask_isset(&s, 63));
        ck_assert(!cpumask_isset(&s, 65));
        cpumask_clear(&s, BL_MAX_CPUS);
        ck_assert(cpumask_isset(&s, 64));
        cpumask_clear(&s, 64);
        ck_assert(cpumask_empty(&s));
}
END_TEST

START_TEST(test_count_empty_span)
{
        bl_cpumask s;

        cpumask_zero(&s);
        ck_assert(cpumask_empty(&s));
        ck_assert_uint_eq(cpumask_count(&s), 0);
        ck_assert_uint_eq(cpumask_span(&s), 0);

        cpumask_set(&s, 0);
        ck_assert(!cpumask_empty(&s));
        ck_assert_uint_eq(cpumask_span(&s), 1);
        cpumask_set(&s, 63);
        ck_assert_uint_eq(cpumask_span(&s), 64);
        cpumask_set(&s, 64);
        ck_assert_uint_eq(cpumask_span(&s), 65);
        cpumask_set(&s, 1023);
        ck_assert_uint_eq(cpumask_span(&s), 1024);
        ck_assert_uint_eq(cpumask_count(&s), 4);
}
END_TEST

START_TEST(test_set_operations)
{
        static const unsigned a_cpus[] = { 0, 1, 2, 3, 100 };
        static const unsigned b_cpus[] = { 2, 3, 4, 5, 700 };
        static const unsigned or_cpus[] = { 0, 1, 2, 3, 4, 5, 100, 700 };
        static const unsigned and_cpus[] = { 2, 3 };
        static const unsigned andnot_cpus[] = { 0, 1, 100 };
        const bl_cpumask a = set_of(a_cpus, 5), b = set_of(b_cpus, 5);
        const bl_cpumask want_or = set_of(or_cpus, 8), want_and = set_of(and_cpus, 2);
        const bl_cpumask want_andnot = set_of(andnot_cpus, 3);
        bl_cpumask r;

        r = a;
        cpumask_or(&r, &b);
        ck_assert(cpumask_equal(&r, &want_or));
        r = a;
        cpumask_and(&r, &b);
        ck_assert(cpumask_equal(&r, &want_and));
        r = a;
        cpumask_andnot(&r, &b);
        ck_assert(cpumask_equal(&r, &want_andnot));
        ck_assert(!cpumask_equal(&a, &b));
        r = a;
        cpumask_andnot(&r, &a);
        ck_assert(cpumask_empty(&r));
}
END_TEST

static Suite *cpumask_suite(void)
{
        Suite *s = suite_create("cpumask");
        TCase *parse = tcase_create("parse");
        TCase *format = tcase_create("format");
        TCase *ops = tcase_create("ops");

        tcase_add_test(parse, test_parse_single_and_ranges);
        tcase_add_test(parse, test_parse_sysfs_forms);
        tcase_add_test(parse, test_parse_limits);
        tcase_add_test(parse, test_parse_malformed);
        tcase_add_test(parse, test_parse_words);
        tcase_add_test(parse, test_parse_failure_keeps_set);
        suite_add_tcase(s, parse);

        tcase_add_test(format, test_format_basic);
        tcase_add_test(format, test_format_truncates);
        tcase_add_test(format, test_format_full_roundtrip);
        suite_add_tcase(s, format);

        tcase_add_test(ops, test_set_clear_bounds);
        tcase_add_test(ops, test_count_empty_span);
        tcase_add_test(ops, test_set_operations);
        suite_add_tcase(s, ops);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(cpumask_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
