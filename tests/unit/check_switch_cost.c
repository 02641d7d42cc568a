/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The switch cost and its running estimate (core/switch-cost.h), and the
 * number of CPUs a move changes (ladder_cpus_changed()). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "core/ladder.h"
#include "core/switch-cost.h"

static const struct bl_switch_cost hotplug_prior = {
        .latency_us = 2000, .latency_per_cpu_us = 8000, .energy_uj = 100, .energy_per_cpu_uj = 400,
};

START_TEST(test_cost_scales_with_cpus)
{
        ck_assert_double_eq_tol(switch_cost_latency_us(&hotplug_prior, 0), 2000, 1e-9);
        ck_assert_double_eq_tol(switch_cost_latency_us(&hotplug_prior, 8), 66000, 1e-9);
        ck_assert_double_eq_tol(switch_cost_energy_uj(&hotplug_prior, 4), 1700, 1e-9);
}
END_TEST

START_TEST(test_prior_until_measured)
{
        struct bl_switch_estimate e;
        struct bl_switch_cost c;

        switch_estimate_init(&e, &hotplug_prior);
        switch_estimate_cost(&e, &c);
        ck_assert_double_eq_tol(c.latency_us, 2000, 1e-9);
        ck_assert_double_eq_tol(c.latency_per_cpu_us, 8000, 1e-9);
        /* Nonsense measurements do not count. */
        switch_estimate_add(&e, NAN, 8);
        switch_estimate_add(&e, -5, 8);
        ck_assert_uint_eq(e.n, 0);
        switch_estimate_cost(&e, &c);
        ck_assert_double_eq_tol(c.latency_per_cpu_us, 8000, 1e-9);
}
END_TEST

/* Switches of one size only: the mean, split as the prior splits it, and
 * the energy following the latency. */
START_TEST(test_one_size_keeps_the_split)
{
        struct bl_switch_estimate e;
        struct bl_switch_cost c;

        switch_estimate_init(&e, &hotplug_prior);
        for (int i = 0; i < 50; i++)
                switch_estimate_add(&e, 33000, 8);      /* half the prior's 66 ms */
        switch_estimate_cost(&e, &c);
        ck_assert_double_eq_tol(switch_cost_latency_us(&c, 8), 33000, 1e-6);
        ck_assert_double_eq_tol(c.latency_us, 1000, 1e-6);
        ck_assert_double_eq_tol(c.latency_per_cpu_us, 4000, 1e-6);
        ck_assert_double_eq_tol(switch_cost_energy_uj(&c, 8), (100 + 400 * 8) / 2.0, 1e-6);
        ck_assert_uint_eq(e.last_ncpus, 8);
        ck_assert_double_eq_tol(e.max_us, 33000, 1e-9);
}
END_TEST

/* Sizes 2 and 6 from latency = 500 + 3000 x cpus: the fit finds both parts. */
START_TEST(test_fit_finds_both_parts)
{
        struct bl_switch_estimate e;
        struct bl_switch_cost c;

        switch_estimate_init(&e, &hotplug_prior);
        for (int i = 0; i < 20; i++) {
                switch_estimate_add(&e, 500 + 3000 * 2, 2);
                switch_estimate_add(&e, 500 + 3000 * 6, 6);
        }
        switch_estimate_cost(&e, &c);
        ck_assert_double_eq_tol(c.latency_us, 500, 1e-3);
        ck_assert_double_eq_tol(c.latency_per_cpu_us, 3000, 1e-3);
}
END_TEST

/* The estimate follows a change: old switches weigh less and less. */
START_TEST(test_follows_a_change)
{
        struct bl_switch_estimate e;
        struct bl_switch_cost c;

        switch_estimate_init(&e, &hotplug_prior);
        for (int i = 0; i < 30; i++)
                switch_estimate_add(&e, 60000, 4);
        for (int i = 0; i < 60; i++)
                switch_estimate_add(&e, 6000, 4);
        switch_estimate_cost(&e, &c);
        ck_assert_double_lt(switch_cost_latency_us(&c, 4), 6000 * 1.05);
}
END_TEST

/* A fit that would give a negative part is clamped, never below 0. */
START_TEST(test_fit_never_negative)
{
        struct bl_switch_estimate e;
        struct bl_switch_cost c;

        switch_estimate_init(&e, &hotplug_prior);
        for (int i = 0; i < 10; i++) {
                switch_estimate_add(&e, 9000, 1);
                switch_estimate_add(&e, 1000, 7);
        }
        switch_estimate_cost(&e, &c);
        /* Larger switches took less: no per-CPU part, the (weighted) mean. */
        ck_assert_double_eq_tol(c.latency_per_cpu_us, 0, 1e-9);
        ck_assert_double_gt(c.latency_us, 4000);
        ck_assert_double_lt(c.latency_us, 6000);
}
END_TEST

static void two_clusters(struct bl_topology *t)
{
        struct bl_cpu_info cpus[8];

        for (unsigned cpu = 0; cpu < 8; cpu++)
                cpus[cpu] = (struct bl_cpu_info){
                        .present = true, .online = true, .can_offline = true,
                        .capacity = cpu < 4 ? 512 : 1024, .max_freq_khz = -1,
                        .policy = cpu < 4 ? 0 : 4, .policy_size = 4, .cluster_id = cpu < 4 ? 0 : 1,
                };
        ck_assert_int_eq(topology_build(t, cpus, 8), 0);
}

START_TEST(test_cpus_changed)
{
        struct bl_topology t;
        struct bl_ladder l;

        two_clusters(&t);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_CLUSTER, NULL), 0);
        ck_assert_uint_eq(ladder_cpus_changed(&l, 0, 1), 8);
        ck_assert_uint_eq(ladder_cpus_changed(&l, 1, 1), 0);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_MP, NULL), 0);
        ck_assert_uint_eq(ladder_cpus_changed(&l, 0, 1), 1);
        ck_assert_uint_eq(ladder_cpus_changed(&l, 3, 1), 2);
        ck_assert_uint_eq(ladder_cpus_changed(&l, 0, l.nlevels - 1), 4);
        ck_assert_uint_eq(ladder_cpus_changed(&l, 0, 99), 0);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("switch-cost");
        TCase *tc = tcase_create("switch-cost");
        SRunner *sr;
        int failed;

        tcase_add_test(tc, test_cost_scales_with_cpus);
        tcase_add_test(tc, test_prior_until_measured);
        tcase_add_test(tc, test_one_size_keeps_the_split);
        tcase_add_test(tc, test_fit_finds_both_parts);
        tcase_add_test(tc, test_follows_a_change);
        tcase_add_test(tc, test_fit_never_negative);
        tcase_add_test(tc, test_cpus_changed);
        suite_add_tcase(s, tc);
        sr = srunner_create(s);
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
