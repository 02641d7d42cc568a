/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/scorer.h"
#include "policy/builtin.h"

#define HALF_LIFE_MS 32
#define HALF_LIFE_US (HALF_LIFE_MS * BL_USEC_PER_MSEC)

/* One online CPU of capacity 1000 whose busy fraction gives 'demand'. */
static void sample_one(struct bl_sample *s, double demand, bl_usec_t interval, bl_usec_t now)
{
        memset(s, 0, sizeof(*s));
        s->now = now;
        s->interval = interval;
        s->ncpus = 1;
        cpuset_set(&s->online, 0);
        s->capacity[0] = 1000;
        s->busy[0] = (float)(demand / 1000.0);
}

struct pelt_run {
        void *state;
        bl_usec_t now;
};

static void pelt_start(struct pelt_run *r, double half_life_ms)
{
        const double params[] = { half_life_ms };

        r->state = calloc(1, heuristic_pelt.state_size);
        ck_assert_ptr_nonnull(r->state);
        ck_assert_int_eq(heuristic_pelt.init(r->state, params), 0);
        r->now = 0;
}

static double pelt_feed(struct pelt_run *r, double demand, bl_usec_t interval)
{
        struct bl_sample s;

        r->now += interval;
        sample_one(&s, demand, interval, r->now);
        return heuristic_pelt.score(r->state, &s, r->now);
}

START_TEST(test_builtin_table)
{
        static const char *const names[] = {
                "util", "pelt", "always-big", "always-little", "ondemand", "conservative", "interactive", "hmp",
                "exynos5410",
        };
        size_t n = sizeof(names) / sizeof(names[0]);

        /* The documented order, every name unique, every descriptor of this ABI. */
        for (size_t i = 0; i < n; i++) {
                ck_assert_ptr_nonnull(policy_builtin[i]);
                ck_assert_str_eq(policy_builtin[i]->name, names[i]);
                ck_assert_uint_eq(policy_builtin[i]->abi, BL_HEURISTIC_ABI);
        }
        ck_assert_ptr_null(policy_builtin[n]);
        ck_assert_ptr_eq(heuristic_find(policy_builtin, "pelt"), &heuristic_pelt);
        ck_assert_ptr_eq(heuristic_find(policy_builtin, "util"), &heuristic_util);
        ck_assert_ptr_null(heuristic_find(policy_builtin, "psi"));
}
END_TEST

START_TEST(test_descriptors)
{
        const struct bl_heuristic_param *p;

        ck_assert_uint_eq(heuristic_util.abi, BL_HEURISTIC_ABI);
        ck_assert_str_eq(heuristic_util.name, "util");
        ck_assert_uint_eq(heuristic_util.nparams, 0);
        ck_assert_ptr_nonnull(heuristic_util.summary);
        ck_assert_ptr_nonnull(heuristic_util.score);

        ck_assert_uint_eq(heuristic_pelt.abi, BL_HEURISTIC_ABI);
        ck_assert_str_eq(heuristic_pelt.name, "pelt");
        ck_assert_ptr_nonnull(heuristic_pelt.summary);
        ck_assert_uint_eq(heuristic_pelt.nparams, 1);
        ck_assert_uint_gt(heuristic_pelt.state_size, 0);
        p = &heuristic_pelt.params[0];
        ck_assert_str_eq(p->key, "half_life_ms");
        ck_assert_str_eq(p->unit, "ms");
        ck_assert_double_eq(p->def, 32);
        ck_assert_double_eq(p->min, 1);
        ck_assert_double_eq(p->max, 10000);
        ck_assert(p->integer);
}
END_TEST

START_TEST(test_util_peak_ignores_offline)
{
        struct bl_sample s;

        memset(&s, 0, sizeof(s));
        s.interval = 20000;
        s.ncpus = 4;
        cpuset_set(&s.online, 0);
        cpuset_set(&s.online, 1);
        cpuset_set(&s.online, 3);
        s.busy[0] = 0.5f;
        s.capacity[0] = 400;
        s.busy[1] = 0.25f;
        s.capacity[1] = 1024;
        s.busy[2] = 1.0f;       /* offline: stale numbers must not count */
        s.capacity[2] = 1024;
        s.busy[3] = 0.75f;
        s.capacity[3] = 200;

        ck_assert_double_eq_tol(heuristic_util.score(NULL, &s, 20000), 256.0, 1e-9);
        cpuset_set(&s.online, 2);
        ck_assert_double_eq_tol(heuristic_util.score(NULL, &s, 20000), 1024.0, 1e-9);
}
END_TEST

START_TEST(test_util_follows_each_sample)
{
        struct bl_sample s;

        ck_assert_int_eq(heuristic_util.init(NULL, NULL), 0);
        sample_one(&s, 800, 20000, 20000);
        ck_assert_double_eq_tol(heuristic_util.score(NULL, &s, 20000), 800.0, 1e-3);
        sample_one(&s, 100, 20000, 40000);
        ck_assert_double_eq_tol(heuristic_util.score(NULL, &s, 40000), 100.0, 1e-3);
        sample_one(&s, 0, 0, 0);
        ck_assert_double_eq(heuristic_util.score(NULL, &s, 0), 0.0);
}
END_TEST

START_TEST(test_pelt_half_life_step)
{
        struct pelt_run r;

        pelt_start(&r, HALF_LIFE_MS);
        ck_assert_double_eq(pelt_feed(&r, 0, 0), 0.0);
        ck_assert_double_eq(pelt_feed(&r, 0, 1000), 0.0);
        ck_assert_double_eq_tol(pelt_feed(&r, 1000, HALF_LIFE_US), 500.0, 1e-6);
        ck_assert_double_eq_tol(pelt_feed(&r, 1000, HALF_LIFE_US), 750.0, 1e-6);
        ck_assert_double_eq_tol(pelt_feed(&r, 0, 2 * HALF_LIFE_US), 187.5, 1e-6);
        free(r.state);
}
END_TEST

START_TEST(test_pelt_independent_of_interval)
{
        struct pelt_run a, b;
        double va = 0, vb = 0;

        pelt_start(&a, HALF_LIFE_MS);
        pelt_start(&b, HALF_LIFE_MS);
        pelt_feed(&a, 0, 1000);
        pelt_feed(&b, 0, 1000);
        for (unsigned i = 0; i < 8; i++)
                va = pelt_feed(&a, 1000, HALF_LIFE_US / 8);
        vb = pelt_feed(&b, 1000, HALF_LIFE_US);
        ck_assert_double_eq_tol(va, 500.0, 1e-6);
        ck_assert_double_eq_tol(va, vb, 1e-9);
        free(a.state);
        free(b.state);
}
END_TEST

START_TEST(test_pelt_first_sample_initialises)
{
        struct pelt_run r;

        pelt_start(&r, HALF_LIFE_MS);
        ck_assert_double_eq(pelt_feed(&r, 700, 0), 0.0);
        ck_assert_double_eq_tol(pelt_feed(&r, 700, 20000), 700.0, 1e-3);
        /* The daemon's interval-0 sample reports without decaying. */
        ck_assert_double_eq_tol(pelt_feed(&r, 0, 0), 700.0, 1e-3);
        ck_assert_double_eq_tol(pelt_feed(&r, 0, HALF_LIFE_US), 350.0, 1e-3);
        free(r.state);
}
END_TEST

START_TEST(test_pelt_converges)
{
        struct pelt_run r;
        double v = 0, prev = 0;

        pelt_start(&r, HALF_LIFE_MS);
        pelt_feed(&r, 0, 8000);
        for (unsigned i = 0; i < 100; i++) {
                v = pelt_feed(&r, 1000, 8000);
                ck_assert(v > prev);
                ck_assert(v < 1000.0);
                prev = v;
        }
        /* 800 ms = 25 half-lives: 1000 * 2^-25 left. */
        ck_assert_double_eq_tol(v, 1000.0 - 1000.0 * exp2(-25.0), 1e-6);
        for (unsigned i = 0; i < 100; i++)
                v = pelt_feed(&r, 0, 8000);
        ck_assert(v < 1e-3);
        free(r.state);
}
END_TEST

START_TEST(test_pelt_other_half_life)
{
        struct pelt_run r;

        pelt_start(&r, 100);
        pelt_feed(&r, 0, 1000);
        ck_assert_double_eq_tol(pelt_feed(&r, 1000, HALF_LIFE_US), 1000.0 * (1.0 - exp2(-0.32)), 1e-6);
        ck_assert_double_eq_tol(pelt_feed(&r, 1000, 68000), 500.0, 1e-6);
        free(r.state);
}
END_TEST

START_TEST(test_pelt_reset)
{
        struct pelt_run r;

        pelt_start(&r, HALF_LIFE_MS);
        pelt_feed(&r, 0, 1000);
        pelt_feed(&r, 1000, HALF_LIFE_US);
        heuristic_pelt.reset(r.state);
        ck_assert_double_eq(pelt_feed(&r, 0, 0), 0.0);
        /* After a reset the next sample with a length initialises again... */
        ck_assert_double_eq_tol(pelt_feed(&r, 900, 1000), 900.0, 1e-3);
        /* ...and the half-life is kept. */
        ck_assert_double_eq_tol(pelt_feed(&r, 100, HALF_LIFE_US), 500.0, 1e-3);
        free(r.state);
}
END_TEST

START_TEST(test_pelt_rejects_bad_half_life)
{
        const double zero[] = { 0 }, nan_param[] = { NAN };
        void *state = calloc(1, heuristic_pelt.state_size);

        ck_assert_ptr_nonnull(state);
        ck_assert_int_eq(heuristic_pelt.init(state, zero), -EINVAL);
        ck_assert_int_eq(heuristic_pelt.init(state, nan_param), -EINVAL);
        free(state);
}
END_TEST

static void config_two(struct bl_config *c, enum bl_combine combine, double w_util, double w_pelt)
{
        memset(c, 0, sizeof(*c));
        c->combine = combine;
        c->nheuristics = 2;
        snprintf(c->heuristics[0].name, sizeof(c->heuristics[0].name), "util");
        c->heuristics[0].ops = &heuristic_util;
        c->heuristics[0].weight = w_util;
        snprintf(c->heuristics[1].name, sizeof(c->heuristics[1].name), "pelt");
        c->heuristics[1].ops = &heuristic_pelt;
        c->heuristics[1].weight = w_pelt;
        c->heuristics[1].params[0] = HALF_LIFE_MS;
}

/* Drives util to 'demand' and pelt from 0 to half of it. */
static double drive_to_half(struct bl_scorer *s, double demand)
{
        struct bl_sample smp;

        sample_one(&smp, 0, 1000, 1000);
        scorer_score(s, &smp, 1000);
        sample_one(&smp, demand, HALF_LIFE_US, 1000 + HALF_LIFE_US);
        return scorer_score(s, &smp, 1000 + HALF_LIFE_US);
}

START_TEST(test_scorer_max)
{
        struct bl_config c;
        struct bl_scorer s;

        config_two(&c, BL_COMBINE_MAX, 1, 1);
        ck_assert_int_eq(scorer_init(&s, &c), 0);
        ck_assert_uint_eq(s.n, 2);
        ck_assert_ptr_null(s.state[0]);
        ck_assert_ptr_nonnull(s.state[1]);
        ck_assert_double_eq_tol(drive_to_half(&s, 800), 800.0, 1e-3);
        ck_assert_double_eq_tol(s.last[0], 800.0, 1e-3);
        ck_assert_double_eq_tol(s.last[1], 400.0, 1e-3);

        /* pelt remembers what util forgets: max takes it. */
        {
                struct bl_sample smp;

                sample_one(&smp, 0, 1000, 2000 + HALF_LIFE_US);
                ck_assert_double_eq_tol(scorer_score(&s, &smp, 2000 + HALF_LIFE_US),
                                        400.0 * exp2(-1000.0 / HALF_LIFE_US), 1e-3);
                ck_assert_double_eq(s.last[0], 0.0);
        }
        scorer_done(&s);
}
END_TEST

START_TEST(test_scorer_weighted)
{
        struct bl_config c;
        struct bl_scorer s;

        config_two(&c, BL_COMBINE_WEIGHTED, 1, 3);
        ck_assert_int_eq(scorer_init(&s, &c), 0);
        /* (1 * 800 + 3 * 400) / 4 */
        ck_assert_double_eq_tol(drive_to_half(&s, 800), 500.0, 1e-3);
        ck_assert_double_eq_tol(s.last[0], 800.0, 1e-3);
        ck_assert_double_eq_tol(s.last[1], 400.0, 1e-3);
        scorer_done(&s);

        config_two(&c, BL_COMBINE_WEIGHTED, 0, 0);
        ck_assert_int_eq(scorer_init(&s, &c), 0);
        ck_assert_double_eq_tol(drive_to_half(&s, 800), 600.0, 1e-3);
        scorer_done(&s);
}
END_TEST

START_TEST(test_scorer_reset)
{
        struct bl_config c;
        struct bl_scorer s;
        struct bl_sample smp;

        config_two(&c, BL_COMBINE_MAX, 1, 1);
        ck_assert_int_eq(scorer_init(&s, &c), 0);
        drive_to_half(&s, 800);
        scorer_reset(&s);
        ck_assert_double_eq(s.last[0], 0.0);
        ck_assert_double_eq(s.last[1], 0.0);
        sample_one(&smp, 300, 1000, 100000);
        ck_assert_double_eq_tol(scorer_score(&s, &smp, 100000), 300.0, 1e-3);
        ck_assert_double_eq_tol(s.last[1], 300.0, 1e-3);
        scorer_done(&s);
}
END_TEST

static int failing_init(void *state, const double *params)
{
        return -ENOTRECOVERABLE;
}

static double broken_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        return *(const double *)state;
}

static int broken_init(void *state, const double *params)
{
        *(double *)state = params[0];
        return 0;
}

static const struct bl_heuristic_ops failing_ops = {
        .abi = BL_HEURISTIC_ABI,
        .name = "failing",
        .state_size = 64,
        .init = failing_init,
        .score = broken_score,
};

static const struct bl_heuristic_ops broken_ops = {
        .abi = BL_HEURISTIC_ABI,
        .name = "broken",
        .state_size = sizeof(double),
        .init = broken_init,
        .score = broken_score,
};

START_TEST(test_scorer_init_errors)
{
        struct bl_config c;
        struct bl_scorer s;
        struct bl_heuristic_ops old_abi = heuristic_util;

        /* A failing init after a successful one: its error, no leak (ASan). */
        config_two(&c, BL_COMBINE_MAX, 1, 1);
        c.nheuristics = 3;
        c.heuristics[2].ops = &failing_ops;
        ck_assert_int_eq(scorer_init(&s, &c), -ENOTRECOVERABLE);
        ck_assert_uint_eq(s.n, 0);
        ck_assert_ptr_null(s.state[1]);

        config_two(&c, BL_COMBINE_MAX, 1, 1);
        c.heuristics[1].ops = NULL;
        ck_assert_int_eq(scorer_init(&s, &c), -EINVAL);

        old_abi.abi = BL_HEURISTIC_ABI + 1;
        config_two(&c, BL_COMBINE_MAX, 1, 1);
        c.heuristics[0].ops = &old_abi;
        ck_assert_int_eq(scorer_init(&s, &c), -EPROTO);

        config_two(&c, BL_COMBINE_MAX, 1, 1);
        c.nheuristics = BL_MAX_HEURISTICS + 1;
        ck_assert_int_eq(scorer_init(&s, &c), -EINVAL);
}
END_TEST

START_TEST(test_scorer_sanitises_scores)
{
        struct bl_config c;
        struct bl_scorer s;
        struct bl_sample smp;

        sample_one(&smp, 0, 1000, 1000);
        memset(&c, 0, sizeof(c));
        c.nheuristics = 1;
        c.heuristics[0].ops = &broken_ops;
        c.heuristics[0].weight = 1;
        c.heuristics[0].params[0] = NAN;
        ck_assert_int_eq(scorer_init(&s, &c), 0);
        ck_assert_double_eq(scorer_score(&s, &smp, 1000), 0.0);
        scorer_done(&s);

        c.heuristics[0].params[0] = -5;
        ck_assert_int_eq(scorer_init(&s, &c), 0);
        ck_assert_double_eq(scorer_score(&s, &smp, 1000), 0.0);
        scorer_done(&s);

        c.heuristics[0].params[0] = 123;
        ck_assert_int_eq(scorer_init(&s, &c), 0);
        ck_assert_double_eq(scorer_score(&s, &smp, 1000), 123.0);
        scorer_done(&s);
}
END_TEST

START_TEST(test_scorer_done_twice)
{
        struct bl_config c;
        struct bl_scorer s, zero;

        memset(&zero, 0, sizeof(zero));
        scorer_done(&zero);
        config_two(&c, BL_COMBINE_MAX, 1, 1);
        ck_assert_int_eq(scorer_init(&s, &c), 0);
        scorer_done(&s);
        ck_assert_uint_eq(s.n, 0);
        ck_assert_ptr_null(s.state[1]);
        scorer_done(&s);

        /* No heuristic at all scores 0. */
        memset(&c, 0, sizeof(c));
        ck_assert_int_eq(scorer_init(&s, &c), 0);
        ck_assert_double_eq(drive_to_half(&s, 800), 0.0);
        scorer_done(&s);
}
END_TEST

static Suite *heuristics_suite(void)
{
        Suite *s = suite_create("heuristics");
        TCase *util = tcase_create("util");
        TCase *pelt = tcase_create("pelt");
        TCase *scorer = tcase_create("scorer");

        tcase_add_test(util, test_builtin_table);
        tcase_add_test(util, test_descriptors);
        tcase_add_test(util, test_util_peak_ignores_offline);
        tcase_add_test(util, test_util_follows_each_sample);
        suite_add_tcase(s, util);

        tcase_add_test(pelt, test_pelt_half_life_step);
        tcase_add_test(pelt, test_pelt_independent_of_interval);
        tcase_add_test(pelt, test_pelt_first_sample_initialises);
        tcase_add_test(pelt, test_pelt_converges);
        tcase_add_test(pelt, test_pelt_other_half_life);
        tcase_add_test(pelt, test_pelt_reset);
        tcase_add_test(pelt, test_pelt_rejects_bad_half_life);
        suite_add_tcase(s, pelt);

        tcase_add_test(scorer, test_scorer_max);
        tcase_add_test(scorer, test_scorer_weighted);
        tcase_add_test(scorer, test_scorer_reset);
        tcase_add_test(scorer, test_scorer_init_errors);
        tcase_add_test(scorer, test_scorer_sanitises_scores);
        tcase_add_test(scorer, test_scorer_done_twice);
        suite_add_tcase(s, scorer);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(heuristics_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
