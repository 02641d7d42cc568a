/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <check.h>
#include <float.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/scorer.h"
#include "policy/builtin.h"

#define HALF_LIFE_MS 32
#define HALF_LIFE_US (HALF_LIFE_MS * BL_USEC_PER_MSEC)
#define HAVE_ALL (BL_NEEDS_PRESSURE | BL_NEEDS_COUNTERS)

/* One online CPU of capacity 1000 whose busy fraction gives 'demand'. */
static void sample_one(struct bl_sample_buf *b, double demand, bl_usec_t interval, bl_usec_t now)
{
        sample_buf_init(b, 1);
        b->s.now = now;
        b->s.interval = interval;
        b->cpu[0].online = true;
        b->cpu[0].capacity = 1000;
        b->cpu[0].busy = (float)(demand / 1000.0);
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
        struct bl_sample_buf b;

        r->now += interval;
        sample_one(&b, demand, interval, r->now);
        return heuristic_pelt.score(r->state, &b.s, r->now);
}

START_TEST(test_builtin_table)
{
        static const char *const names[] = {
                "util", "pelt", "psi", "trend", "ipc", "headroom", "always-big", "always-little", "ondemand",
                "conservative", "interactive", "hmp", "exynos5410",
        };
        size_t n = sizeof(names) / sizeof(names[0]);

        /* The documented order, every name unique, every descriptor of this ABI. */
        for (size_t i = 0; i < n; i++) {
                ck_assert_ptr_nonnull(policy_builtin[i]);
                ck_assert_str_eq(policy_builtin[i]->name, names[i]);
                ck_assert_uint_eq(policy_builtin[i]->abi, BL_POLICY_ABI);
        }
        ck_assert_ptr_null(policy_builtin[n]);
        ck_assert_ptr_eq(heuristic_find(policy_builtin, "pelt"), &heuristic_pelt);
        ck_assert_ptr_eq(heuristic_find(policy_builtin, "util"), &heuristic_util);
        ck_assert_ptr_eq(heuristic_find(policy_builtin, "psi"), &heuristic_psi);
        ck_assert_ptr_null(heuristic_find(policy_builtin, "turbo"));
}
END_TEST

START_TEST(test_descriptors)
{
        const struct bl_policy_param *p;

        ck_assert_uint_eq(heuristic_util.abi, BL_POLICY_ABI);
        ck_assert_str_eq(heuristic_util.name, "util");
        ck_assert_uint_eq(heuristic_util.nparams, 0);
        ck_assert_ptr_nonnull(heuristic_util.summary);
        ck_assert_ptr_nonnull(heuristic_util.score);

        ck_assert_uint_eq(heuristic_pelt.abi, BL_POLICY_ABI);
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
        struct bl_sample_buf b;
        bl_cpumask online;

        sample_buf_init(&b, 4);
        b.s.interval = 20000;
        cpumask_zero(&online);
        cpumask_set(&online, 0);
        cpumask_set(&online, 1);
        cpumask_set(&online, 3);
        sample_set_online(&b, &online);
        b.cpu[0].busy = 0.5f;
        b.cpu[0].capacity = 400;
        b.cpu[1].busy = 0.25f;
        b.cpu[1].capacity = 1024;
        b.cpu[2].busy = 1.0f;   /* offline: stale numbers must not count */
        b.cpu[2].capacity = 1024;
        b.cpu[3].busy = 0.75f;
        b.cpu[3].capacity = 200;

        ck_assert_double_eq_tol(heuristic_util.score(NULL, &b.s, 20000), 256.0, 1e-9);
        ck_assert_double_eq_tol(sample_peak_demand(&b.s), 256.0, 1e-9);
        b.cpu[2].online = true;
        ck_assert_double_eq_tol(heuristic_util.score(NULL, &b.s, 20000), 1024.0, 1e-9);
}
END_TEST

START_TEST(test_util_follows_each_sample)
{
        struct bl_sample_buf b;

        ck_assert_int_eq(heuristic_util.init(NULL, NULL), 0);
        sample_one(&b, 800, 20000, 20000);
        ck_assert_double_eq_tol(heuristic_util.score(NULL, &b.s, 20000), 800.0, 1e-3);
        sample_one(&b, 100, 20000, 40000);
        ck_assert_double_eq_tol(heuristic_util.score(NULL, &b.s, 40000), 100.0, 1e-3);
        sample_one(&b, 0, 0, 0);
        ck_assert_double_eq(heuristic_util.score(NULL, &b.s, 0), 0.0);
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
        struct bl_sample_buf smp;

        sample_one(&smp, 0, 1000, 1000);
        scorer_score(s, &smp.s, 1000);
        sample_one(&smp, demand, HALF_LIFE_US, 1000 + HALF_LIFE_US);
        return scorer_score(s, &smp.s, 1000 + HALF_LIFE_US);
}

START_TEST(test_scorer_max)
{
        struct bl_config c;
        struct bl_scorer s;

        config_two(&c, BL_COMBINE_MAX, 1, 1);
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        ck_assert_uint_eq(s.n, 2);
        ck_assert_ptr_null(s.state[0]);
        ck_assert_ptr_nonnull(s.state[1]);
        ck_assert_double_eq_tol(drive_to_half(&s, 800), 800.0, 1e-3);
        ck_assert_double_eq_tol(s.last[0], 800.0, 1e-3);
        ck_assert_double_eq_tol(s.last[1], 400.0, 1e-3);

        /* pelt remembers what util forgets: max takes it. */
        {
                struct bl_sample_buf smp;

                sample_one(&smp, 0, 1000, 2000 + HALF_LIFE_US);
                ck_assert_double_eq_tol(scorer_score(&s, &smp.s, 2000 + HALF_LIFE_US),
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
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        /* (1 * 800 + 3 * 400) / 4 */
        ck_assert_double_eq_tol(drive_to_half(&s, 800), 500.0, 1e-3);
        ck_assert_double_eq_tol(s.last[0], 800.0, 1e-3);
        ck_assert_double_eq_tol(s.last[1], 400.0, 1e-3);
        scorer_done(&s);

        config_two(&c, BL_COMBINE_WEIGHTED, 0, 0);
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        ck_assert_double_eq_tol(drive_to_half(&s, 800), 600.0, 1e-3);
        scorer_done(&s);
}
END_TEST

START_TEST(test_scorer_reset)
{
        struct bl_config c;
        struct bl_scorer s;
        struct bl_sample_buf smp;

        config_two(&c, BL_COMBINE_MAX, 1, 1);
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        drive_to_half(&s, 800);
        scorer_reset(&s);
        ck_assert_double_eq(s.last[0], 0.0);
        ck_assert_double_eq(s.last[1], 0.0);
        sample_one(&smp, 300, 1000, 100000);
        ck_assert_double_eq_tol(scorer_score(&s, &smp.s, 100000), 300.0, 1e-3);
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
        .abi = BL_POLICY_ABI,
        .name = "failing",
        .state_size = 64,
        .init = failing_init,
        .score = broken_score,
};

static const struct bl_heuristic_ops broken_ops = {
        .abi = BL_POLICY_ABI,
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
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), -ENOTRECOVERABLE);
        ck_assert_uint_eq(s.n, 0);
        ck_assert_ptr_null(s.state[1]);

        config_two(&c, BL_COMBINE_MAX, 1, 1);
        c.heuristics[1].ops = NULL;
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), -EINVAL);

        old_abi.abi = BL_POLICY_ABI + 1;
        config_two(&c, BL_COMBINE_MAX, 1, 1);
        c.heuristics[0].ops = &old_abi;
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), -EPROTO);

        config_two(&c, BL_COMBINE_MAX, 1, 1);
        c.nheuristics = BL_MAX_HEURISTICS + 1;
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), -EINVAL);
}
END_TEST

START_TEST(test_scorer_sanitises_scores)
{
        struct bl_config c;
        struct bl_scorer s;
        struct bl_sample_buf smp;

        sample_one(&smp, 0, 1000, 1000);
        memset(&c, 0, sizeof(c));
        c.nheuristics = 1;
        c.heuristics[0].ops = &broken_ops;
        c.heuristics[0].weight = 1;
        c.heuristics[0].params[0] = NAN;
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        ck_assert_double_eq(scorer_score(&s, &smp.s, 1000), 0.0);
        scorer_done(&s);

        c.heuristics[0].params[0] = -5;
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        ck_assert_double_eq(scorer_score(&s, &smp.s, 1000), 0.0);
        scorer_done(&s);

        c.heuristics[0].params[0] = 123;
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        ck_assert_double_eq(scorer_score(&s, &smp.s, 1000), 123.0);
        scorer_done(&s);
}
END_TEST

/* What scorer_warnings() says after one sample scored by a "broken"
 * heuristic named 'name' returning 'score' (and util beside it), or "". */
static void broken_warning(double score, const char *name, char *said, size_t size)
{
        struct bl_config c;
        struct bl_scorer s;
        struct bl_scorer_told told = { 0 };
        struct bl_sample_buf smp;
        struct bl_diag diag;

        config_two(&c, BL_COMBINE_MAX, 1, 1);
        snprintf(c.heuristics[1].name, sizeof(c.heuristics[1].name), "%s", name);
        c.heuristics[1].ops = &broken_ops;
        c.heuristics[1].params[0] = score;
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        sample_one(&smp, 300, 1000, 1000);
        /* max: util's 300, unless the broken one says more and means it */
        for (int i = 0; i < 3; i++)
                ck_assert_double_eq_tol(scorer_score(&s, &smp.s, 1000 + i),
                                        isfinite(score) && score > 300 ? score : 300.0, 1e-3);
        diag_init(&diag);
        said[0] = '\0';
        if (scorer_warnings(&s, &told, &diag) > 0)
                snprintf(said, size, "%s", diag.msg[0]);
        ck_assert_uint_eq(diag.n, said[0] ? 1 : 0);
        /* Said once: the next sample as broken adds nothing. */
        scorer_score(&s, &smp.s, 2000);
        ck_assert_uint_eq(scorer_warnings(&s, &told, &diag), 0);
        scorer_done(&s);
}

START_TEST(test_scorer_warns_once_per_broken_heuristic)
{
        static const struct {
                double score;
                const char *says;
        } cases[] = {
                { NAN, "returned nan" },
                { -5, "returned -5" },
                { INFINITY, "returned inf" },
                { -INFINITY, "returned -inf" },
        };
        char said[BL_DIAG_LEN];

        for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                broken_warning(cases[i].score, "my-plugin", said, sizeof(said));
                ck_assert_msg(strstr(said, "heuristic my-plugin ") && strstr(said, cases[i].says) &&
                              strstr(said, "counted as 0"), "%g: said \"%s\"", cases[i].score, said);
        }
        /* Good scores, even a huge one, say nothing. */
        broken_warning(0, "my-plugin", said, sizeof(said));
        ck_assert_str_eq(said, "");
        broken_warning(DBL_MAX, "my-plugin", said, sizeof(said));
        ck_assert_str_eq(said, "");
}
END_TEST

/* DBL_MAX is a score; DBL_MAX x weight 100 is not a number the engine can
 * compare with anything (it was "demand inf > 80% of little"). */
START_TEST(test_scorer_weighted_overflow)
{
        struct bl_config c;
        struct bl_scorer s;
        struct bl_scorer_told told = { 0 };
        struct bl_sample_buf smp;
        struct bl_diag diag;
        double v;

        config_two(&c, BL_COMBINE_WEIGHTED, 1, 100);
        c.heuristics[1].ops = &broken_ops;
        c.heuristics[1].params[0] = DBL_MAX;
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        sample_one(&smp, 300, 1000, 1000);
        v = scorer_score(&s, &smp.s, 1000);
        ck_assert_msg(isfinite(v), "combined %g", v);
        ck_assert_double_eq(v, DBL_MAX);
        diag_init(&diag);
        ck_assert_uint_eq(scorer_warnings(&s, &told, &diag), 1);
        ck_assert_ptr_nonnull(strstr(diag.msg[0], "overflowed to inf"));
        scorer_score(&s, &smp.s, 2000);
        ck_assert_uint_eq(scorer_warnings(&s, &told, &diag), 0);
        scorer_done(&s);

        /* Weights that overflow by themselves: NaN (inf / inf) is caught too. */
        config_two(&c, BL_COMBINE_WEIGHTED, DBL_MAX, DBL_MAX);
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        v = scorer_score(&s, &smp.s, 1000);
        ck_assert_double_eq_tol(v, 300.0, 1e-3);
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
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        scorer_done(&s);
        ck_assert_uint_eq(s.n, 0);
        ck_assert_ptr_null(s.state[1]);
        scorer_done(&s);

        /* No heuristic at all: the plain peak demand, as util would say. */
        memset(&c, 0, sizeof(c));
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        ck_assert_uint_eq(s.nenabled, 0);
        ck_assert_double_eq_tol(drive_to_half(&s, 800), 800.0, 1e-3);
        scorer_done(&s);
}
END_TEST

/* A heuristic that counts what the scorer does with it. Its state holds its
 * one parameter, which is also its score; a negative one fails init (after
 * the state was written, so a destroy() that should not happen shows). */
static unsigned tracked_resets, tracked_destroys;
static double tracked_destroyed_sum;

static int tracked_init(void *state, const double *params)
{
        *(double *)state = params[0];
        return params[0] < 0 ? -ENOTRECOVERABLE : 0;
}

static void tracked_reset(void *state)
{
        tracked_resets++;
}

static void tracked_destroy(void *state)
{
        tracked_destroys++;
        tracked_destroyed_sum += *(const double *)state;
}

static const struct bl_heuristic_ops tracked_ops = {
        .abi = BL_POLICY_ABI,
        .name = "tracked",
        .state_size = sizeof(double),
        .init = tracked_init,
        .score = broken_score,
        .reset = tracked_reset,
        .destroy = tracked_destroy,
};

static const struct bl_heuristic_ops tracked_counters_ops = {
        .abi = BL_POLICY_ABI,
        .name = "tracked-counters",
        .needs = BL_NEEDS_COUNTERS,
        .state_size = sizeof(double),
        .init = tracked_init,
        .score = broken_score,
        .reset = tracked_reset,
        .destroy = tracked_destroy,
};

static void tracked_clear(void)
{
        tracked_resets = 0;
        tracked_destroys = 0;
        tracked_destroyed_sum = 0.0;
}

/* Appends an instance of 'ops' whose parameter (and score) is 'value'. */
static void config_add(struct bl_config *c, const struct bl_heuristic_ops *ops, double value)
{
        struct bl_heuristic_conf *h = &c->heuristics[c->nheuristics++];

        snprintf(h->name, sizeof(h->name), "%s", ops->name);
        h->ops = ops;
        h->weight = 1;
        h->params[0] = value;
}

/* util (300 here) and a heuristic that needs counters and says 900. */
START_TEST(test_scorer_disables_unmet_needs)
{
        static const unsigned without_counters[] = { 0, BL_NEEDS_PRESSURE };
        static const enum bl_combine combines[] = { BL_COMBINE_MAX, BL_COMBINE_WEIGHTED };
        struct bl_config c;
        struct bl_scorer s;
        struct bl_sample_buf smp;

        sample_one(&smp, 300, 1000, 1000);
        for (unsigned k = 0; k < sizeof(without_counters) / sizeof(without_counters[0]); k++) {
                for (unsigned m = 0; m < sizeof(combines) / sizeof(combines[0]); m++) {
                        tracked_clear();
                        memset(&c, 0, sizeof(c));
                        c.combine = combines[m];
                        config_add(&c, &heuristic_util, 0);
                        config_add(&c, &tracked_counters_ops, 900);
                        ck_assert_int_eq(scorer_init(&s, &c, without_counters[k]), 0);
                        ck_assert_uint_eq(s.n, 2);
                        ck_assert(!s.disabled[0]);
                        ck_assert(s.disabled[1]);
                        ck_assert(!s.inited[1]);
                        ck_assert_uint_eq(s.nenabled, 1);
                        /* Neither the maximum nor the mean (600) counts it. */
                        ck_assert_double_eq_tol(scorer_score(&s, &smp.s, 1000), 300.0, 1e-3);
                        ck_assert_double_eq(s.last[1], 0.0);
                        scorer_reset(&s);
                        ck_assert_uint_eq(tracked_resets, 0);
                        scorer_done(&s);
                        ck_assert_uint_eq(tracked_destroys, 0);
                }
        }

        /* Given the counters it runs: max 900, mean (300 + 900) / 2. */
        tracked_clear();
        c.combine = BL_COMBINE_MAX;
        ck_assert_int_eq(scorer_init(&s, &c, BL_NEEDS_COUNTERS), 0);
        ck_assert(!s.disabled[0]);
        ck_assert(!s.disabled[1]);
        ck_assert(s.inited[1]);
        ck_assert_uint_eq(s.nenabled, 2);
        ck_assert_double_eq_tol(scorer_score(&s, &smp.s, 1000), 900.0, 1e-3);
        ck_assert_double_eq_tol(s.last[1], 900.0, 1e-9);
        scorer_reset(&s);
        ck_assert_uint_eq(tracked_resets, 1);
        scorer_done(&s);
        ck_assert_uint_eq(tracked_destroys, 1);
        c.combine = BL_COMBINE_WEIGHTED;
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        ck_assert_uint_eq(s.nenabled, 2);
        ck_assert_double_eq_tol(scorer_score(&s, &smp.s, 1000), 600.0, 1e-3);
        scorer_done(&s);

        /* Nothing enabled at all: the plain peak demand, not 0. */
        memset(&c, 0, sizeof(c));
        config_add(&c, &tracked_counters_ops, 900);
        ck_assert_int_eq(scorer_init(&s, &c, BL_NEEDS_PRESSURE), 0);
        ck_assert(s.disabled[0]);
        ck_assert_uint_eq(s.nenabled, 0);
        ck_assert_double_eq_tol(scorer_score(&s, &smp.s, 1000), 300.0, 1e-3);
        scorer_done(&s);
}
END_TEST

START_TEST(test_scorer_destroys_each_initialised_instance)
{
        struct bl_config c;
        struct bl_scorer s;

        /* Three instances of one heuristic: three destroys, each of its own state. */
        tracked_clear();
        memset(&c, 0, sizeof(c));
        config_add(&c, &tracked_ops, 1);
        config_add(&c, &tracked_ops, 2);
        config_add(&c, &tracked_ops, 4);
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), 0);
        ck_assert_uint_eq(tracked_destroys, 0);
        scorer_done(&s);
        ck_assert_uint_eq(tracked_destroys, 3);
        ck_assert_double_eq(tracked_destroyed_sum, 7.0);
        scorer_done(&s);
        ck_assert_uint_eq(tracked_destroys, 3);

        /* The third init fails: the first two are destroyed, the third is
         * not, and a scorer_done() by the caller destroys nothing again. */
        tracked_clear();
        memset(&c, 0, sizeof(c));
        config_add(&c, &tracked_ops, 1);
        config_add(&c, &tracked_ops, 2);
        config_add(&c, &tracked_ops, -8);
        config_add(&c, &tracked_ops, 16);
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), -ENOTRECOVERABLE);
        ck_assert_uint_eq(tracked_destroys, 2);
        ck_assert_double_eq(tracked_destroyed_sum, 3.0);
        scorer_done(&s);
        ck_assert_uint_eq(tracked_destroys, 2);

        /* A failing first instance: nothing to destroy. */
        tracked_clear();
        memset(&c, 0, sizeof(c));
        config_add(&c, &tracked_ops, -1);
        ck_assert_int_eq(scorer_init(&s, &c, HAVE_ALL), -ENOTRECOVERABLE);
        scorer_done(&s);
        ck_assert_uint_eq(tracked_destroys, 0);

        /* A disabled instance was never initialised: not destroyed either. */
        tracked_clear();
        memset(&c, 0, sizeof(c));
        config_add(&c, &tracked_ops, 1);
        config_add(&c, &tracked_counters_ops, 2);
        config_add(&c, &tracked_ops, 4);
        ck_assert_int_eq(scorer_init(&s, &c, BL_NEEDS_PRESSURE), 0);
        scorer_done(&s);
        ck_assert_uint_eq(tracked_destroys, 2);
        ck_assert_double_eq(tracked_destroyed_sum, 5.0);
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
        tcase_add_test(scorer, test_scorer_warns_once_per_broken_heuristic);
        tcase_add_test(scorer, test_scorer_weighted_overflow);
        tcase_add_test(scorer, test_scorer_done_twice);
        tcase_add_test(scorer, test_scorer_disables_unmet_needs);
        tcase_add_test(scorer, test_scorer_destroys_each_initialised_instance);
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
