/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blsim tune: the search on a small synthetic board and traces (it beats a
 * bad base, keeps to the lateness limit, repeats itself for a seed, never
 * simulates an invalid configuration, keeps to its budget, never looks at a
 * held-out workload), its drop-in read back by the parser, and the blsim
 * program's tune verb on the trace suite. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pty.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fileio.h"
#include "policy/builtin.h"
#include "sim/oracle.h"
#include "sim/tune.h"

extern char **environ;

#define STEP_US 1000U

static void add_cluster(struct sim_board *b, const char *name, unsigned cpus, double off_mw)
{
        struct sim_cluster *c = &b->cluster[b->nclusters];

        snprintf(c->name, sizeof(c->name), "%s", name);
        c->cpus = cpus;
        c->order = b->nclusters;
        c->off_mw = off_mw;
        c->first_cpu = b->ncpus;
        b->ncpus += cpus;
        b->nclusters++;
}

static void add_opp(struct sim_board *b, unsigned mhz, unsigned capacity, double core_mw, double idle_mw)
{
        struct sim_cluster *c = &b->cluster[b->nclusters - 1];

        c->opp[c->nopps++] = (struct sim_opp){ mhz, capacity, core_mw, idle_mw };
}

/* One LITTLE CPU (two OPPs, 256 and 512) and one big CPU (1024, four times
 * the power): LITTLE carries a light load, a burst needs big. */
static struct sim_board board_small(void)
{
        struct sim_board b;

        memset(&b, 0, sizeof(b));
        snprintf(b.name, sizeof(b.name), "small");
        b.reference_capacity = 1024;
        b.switch_latency_us = 100;
        b.switch_energy_uj = 5;
        add_cluster(&b, "little", 1, 1);
        add_opp(&b, 250, 256, 5, 1);
        add_opp(&b, 500, 512, 10, 2);
        add_cluster(&b, "big", 1, 4);
        add_opp(&b, 1000, 1024, 40, 8);
        return b;
}

/* A workload with its references, as blsim prepares them. */
struct fixture_workload {
        struct sim_trace trace;
        struct sim_workload *w;
        struct sim_oracle oracle;
};

struct fixture {
        struct sim_board board;
        struct sim_mode mode;
        unsigned n;
        struct fixture_workload fw[3];
        struct tune_workload tw[3];
        struct bl_config base;
};

/* 'nsteps' of 'low' per step, with 'burst' per step from 'burst_at' for
 * 'burst_len' steps, and a second burst 'gap' steps later when gap > 0. */
static void trace_bursts(struct sim_trace *t, size_t nsteps, float low, float burst, size_t burst_at,
                         size_t burst_len, size_t gap)
{
        *t = (struct sim_trace){ .step_us = STEP_US, .nlanes = 1, .nsteps = nsteps };
        t->work = malloc(nsteps * sizeof(float));
        ck_assert_ptr_nonnull(t->work);
        for (size_t i = 0; i < nsteps; i++) {
                bool first = i >= burst_at && i < burst_at + burst_len;
                bool second = gap > 0 && i >= burst_at + gap && i < burst_at + gap + burst_len;

                t->work[i] = first || second ? burst : low;
        }
}

static void fixture_add(struct fixture *fx, const char *name, bool held_out)
{
        struct fixture_workload *fw = &fx->fw[fx->n];
        struct tune_workload *tw = &fx->tw[fx->n];
        struct sim_result big;

        ck_assert_int_eq(workload_from_trace(&fw->w, name, &fw->trace), 0);
        ck_assert_int_eq(sim_run_fixed(&fx->board, fw->w, 1, &big, NULL), 0);
        ck_assert_int_eq(oracle_solve(&fx->board, &fw->trace, false, &fw->oracle), 0);
        *tw = (struct tune_workload){
                .name = name,
                .w = fw->w,
                .held_out = held_out,
                .big_energy_uj = big.energy_uj,
                .big_late_work_ratio = big.late_work_ratio,
                .oracle_energy_uj = fw->oracle.energy_uj,
        };
        fx->n++;
}

/* Deliberately bad: up at 10% of LITTLE and down below 1%: the light load
 * goes to big at once and stays there. */
/* pelt and the engine written out in full, so that what the tuner starts from
 * does not move with the shipped defaults. */
static const char bad_base[] =
        "[daemon]\n"
        "sample_interval_ms = 20\n"
        "[policy]\n"
        "heuristics = pelt\n"
        "[hysteresis]\n"
        "up_threshold = 10\n"
        "down_threshold = 1\n"
        "up_delay_ms = 20\n"
        "down_delay_ms = 100\n"
        "min_residency_ms = 0\n"
        "max_switch_rate_hz = 10\n";

static void base_from(struct bl_config *cfg, const char *text)
{
        struct bl_diag diag;

        diag_init(&diag);
        config_init(cfg, policy_builtin);
        ck_assert_uint_eq(config_parse(cfg, policy_builtin, "base", text, strlen(text), &diag), 0);
        ck_assert_uint_eq(config_validate(cfg, &diag), 0);
}

/* Two search workloads (one burst from step 'burst_at', two bursts) and
 * one held out (a longer burst). */
static struct fixture *fixture_open_burst(const char *base_text, size_t burst_at)
{
        struct fixture *fx = calloc(1, sizeof(*fx));
        struct bl_diag diag;

        ck_assert_ptr_nonnull(fx);
        fx->board = board_small();
        diag_init(&diag);
        ck_assert_int_eq(sim_mode_build(&fx->mode, &fx->board, BL_MODE_CLUSTER, &diag), 0);
        trace_bursts(&fx->fw[0].trace, 3000, 60, 600, burst_at, 300, 0);
        fixture_add(fx, "one-burst", false);
        trace_bursts(&fx->fw[1].trace, 3000, 100, 560, 500, 200, 1200);
        fixture_add(fx, "two-bursts", false);
        trace_bursts(&fx->fw[2].trace, 4000, 80, 580, 2000, 800, 0);
        fixture_add(fx, "held-out", true);
        base_from(&fx->base, base_text);
        return fx;
}

static struct fixture *fixture_open(const char *base_text)
{
        return fixture_open_burst(base_text, 1000);
}

static void fixture_close(struct fixture *fx)
{
        for (unsigned i = 0; i < fx->n; i++) {
                workload_free(fx->fw[i].w);
                trace_free(&fx->fw[i].trace);
                oracle_free(&fx->fw[i].oracle);
        }
        free(fx);
}

static struct tune_options options(unsigned budget, uint64_t seed, double max_late)
{
        return (struct tune_options){ .max_late = max_late, .budget = budget, .seed = seed };
}

#define MAX_LATE 0.05

static struct tune_outcome *tune(struct fixture *fx, const struct tune_options *opt)
{
        struct tune_outcome *out = malloc(sizeof(*out));
        struct bl_diag diag;

        ck_assert_ptr_nonnull(out);
        diag_init(&diag);
        ck_assert_int_eq(tune_run(&fx->board, &fx->mode, fx->tw, fx->n, &fx->base, opt, out, &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
        return out;
}

START_TEST(beats_a_bad_base)
{
        struct fixture *fx = fixture_open(bad_base);
        struct tune_options opt = options(150, 1, MAX_LATE);
        struct tune_outcome *out = tune(fx, &opt);

        /* The bad base is punctual but spends nearly what always-big does. */
        ck_assert_uint_eq(out->base.over, 0);
        ck_assert_double_gt(out->base.objective, 0.9);
        ck_assert_uint_eq(out->tuned.over, 0);
        ck_assert_double_lt(out->tuned.objective, out->base.objective - 0.2);
        ck_assert_ptr_nonnull(strstr(out->dropin, "[hysteresis]\n"));
        ck_assert_uint_eq(out->evaluations, opt.budget);
        free(out);
        fixture_close(fx);
}
END_TEST

START_TEST(every_search_workload_within_the_limit)
{
        struct fixture *fx = fixture_open(bad_base);
        struct sim_result r[3];

        for (unsigned k = 0; k < 3; k++) {
                const double max_late[] = { 0.02, MAX_LATE, 0.2 };
                struct tune_options opt = options(120, 3, max_late[k]);
                struct tune_outcome *out = tune(fx, &opt);
                double objective = 0.0;

                ck_assert_uint_eq(out->tuned.over, 0);
                ck_assert_double_eq(out->tuned.violation, 0.0);
                ck_assert_int_eq(tune_results(&fx->board, &fx->mode, fx->tw, fx->n, &out->tuned_config, "t", 1,
                                              r), 0);
                for (unsigned i = 0; i < fx->n; i++) {
                        double lateness, limit;

                        tune_lateness(&fx->tw[i], &r[i], max_late[k], &lateness, &limit);
                        ck_assert_double_eq(limit, max_late[k]);
                        if (!fx->tw[i].held_out) {
                                ck_assert_double_le(lateness, limit);
                                objective += r[i].energy_uj / fx->tw[i].big_energy_uj;
                        }
                }
                /* The objective the tuner reports is the one these runs give. */
                ck_assert_double_eq(out->tuned.objective, objective / 2);
                free(out);
        }
        fixture_close(fx);
}
END_TEST

START_TEST(a_limit_too_tight_says_so)
{
        struct fixture *fx = fixture_open_burst(bad_base, 0);
        struct tune_options opt = options(40, 1, 0.0);
        struct tune_outcome *out;
        struct sim_result r[3];

        /* A burst from the first step, which runs on LITTLE: no policy is as
         * punctual as always-big. */
        out = tune(fx, &opt);
        ck_assert_uint_gt(out->tuned.over, 0);
        ck_assert_double_gt(out->tuned.violation, 0.0);
        ck_assert_double_le(out->tuned.violation, out->base.violation);
        ck_assert_int_eq(tune_results(&fx->board, &fx->mode, fx->tw, fx->n, &out->tuned_config, "t", 1, r), 0);
        ck_assert_double_gt(r[0].late_work_ratio, 0.0);
        free(out);
        fixture_close(fx);
}
END_TEST

START_TEST(same_seed_same_result)
{
        struct fixture *fx = fixture_open(bad_base);
        struct tune_options opt = options(90, 42, MAX_LATE);
        struct tune_outcome *a = tune(fx, &opt), *b = tune(fx, &opt);

        ck_assert_str_eq(a->dropin, b->dropin);
        ck_assert_double_eq(a->tuned.objective, b->tuned.objective);
        ck_assert_double_eq(a->tuned.violation, b->tuned.violation);
        ck_assert_uint_eq(a->evaluations, b->evaluations);
        ck_assert_uint_eq(a->skipped_invalid, b->skipped_invalid);
        ck_assert_uint_eq(a->restarts, b->restarts);
        ck_assert_int_eq(memcmp(a->tuned_value, b->tuned_value, sizeof(a->tuned_value)), 0);
        free(a);
        free(b);
        fixture_close(fx);
}
END_TEST

struct progress_seen {
        unsigned calls, last;
        bool in_order;
        struct tune_score best;
};

static void note_progress(const struct tune_progress *p, void *userdata)
{
        struct progress_seen *seen = userdata;

        if (seen->calls > 0 && (p->evaluations <= seen->last || p->best.violation > seen->best.violation ||
                                (p->best.violation == seen->best.violation &&
                                 p->best.objective > seen->best.objective)))
                seen->in_order = false;
        seen->calls++;
        seen->last = p->evaluations;
        seen->best = p->best;
        ck_assert_uint_eq(p->budget, 90);
}

/* Threads simulate the workloads of a configuration at once; the result is
 * the one a single thread gives, and progress is reported per evaluation,
 * with a best that only improves. */
START_TEST(threads_same_result)
{
        struct fixture *fx = fixture_open(bad_base);
        struct progress_seen seen = { .in_order = true };
        struct tune_options one = options(90, 42, MAX_LATE), many = one;
        struct tune_outcome *a, *b;

        many.jobs = 3;
        many.on_progress = note_progress;
        many.userdata = &seen;
        a = tune(fx, &one);
        b = tune(fx, &many);
        ck_assert_str_eq(a->dropin, b->dropin);
        ck_assert_double_eq(a->base.objective, b->base.objective);
        ck_assert_double_eq(a->tuned.objective, b->tuned.objective);
        ck_assert_double_eq(a->tuned.violation, b->tuned.violation);
        ck_assert_uint_eq(a->evaluations, b->evaluations);
        ck_assert_uint_eq(a->restarts, b->restarts);
        ck_assert_uint_eq(seen.calls, b->evaluations);
        ck_assert_uint_eq(seen.last, b->evaluations);
        ck_assert(seen.in_order);
        ck_assert_double_eq(seen.best.objective, b->tuned.objective);
        free(a);
        free(b);
        fixture_close(fx);
}
END_TEST

/* The drop-in file, header and all, parsed on top of the base as the daemon
 * reads a drop-in, gives exactly the tuned configuration's runs. */
START_TEST(dropin_round_trips)
{
        struct fixture *fx = fixture_open(bad_base);
        struct tune_options opt = options(100, 5, MAX_LATE);
        struct tune_outcome *out = tune(fx, &opt);
        struct sim_result tuned[3], base[3], again[3];
        struct tune_report rep = { .board = "small", .mode = "cluster", .base_name = "bad", .opt = &opt,
                                   .w = fx->tw, .nw = fx->n, .base = base, .tuned = tuned, .out = out };
        struct bl_config *cfg = malloc(sizeof(*cfg));
        struct bl_diag diag;
        char *text = NULL;
        size_t len = 0;
        FILE *f;

        ck_assert_ptr_nonnull(cfg);
        ck_assert_int_eq(tune_results(&fx->board, &fx->mode, fx->tw, fx->n, &fx->base, "base", 1, base), 0);
        ck_assert_int_eq(tune_results(&fx->board, &fx->mode, fx->tw, fx->n, &out->tuned_config, "tuned", 1,
                                      tuned), 0);
        f = open_memstream(&text, &len);
        ck_assert_ptr_nonnull(f);
        tune_print_dropin(f, &rep);
        ck_assert_int_eq(fclose(f), 0);
        ck_assert_ptr_nonnull(strstr(text, "# held out: held-out\n"));
        ck_assert_ptr_nonnull(strstr(text, "# searched: one-burst\n"));
        ck_assert_ptr_nonnull(strstr(text, "seed 5"));
        ck_assert_ptr_nonnull(strstr(text, out->dropin));
        ck_assert_uint_gt(strlen(out->dropin), 0);

        *cfg = fx->base;
        diag_init(&diag);
        ck_assert_uint_eq(config_parse(cfg, policy_builtin, "tuned.conf", text, len, &diag), 0);
        ck_assert_uint_eq(config_validate(cfg, &diag), 0);
        ck_assert_int_eq(tune_results(&fx->board, &fx->mode, fx->tw, fx->n, cfg, "again", 1, again), 0);
        for (unsigned i = 0; i < fx->n; i++) {
                ck_assert_double_eq(again[i].energy_uj, tuned[i].energy_uj);
                ck_assert_double_eq(again[i].late_work_ratio, tuned[i].late_work_ratio);
                ck_assert_uint_eq(again[i].switches, tuned[i].switches);
        }
        /* ... and is what the tuner reports as its values. */
        for (unsigned i = 0; i < out->space.n; i++)
                ck_assert_double_eq(tune_param_value(&out->space.p[i], cfg), out->tuned_value[i]);
        ck_assert_int_ne(memcmp(out->tuned_value, out->base_value, out->space.n * sizeof(double)), 0);
        free(text);
        free(cfg);
        free(out);
        fixture_close(fx);
}
END_TEST

struct validity_count {
        unsigned calls;
        unsigned invalid;
};

static void count_validity(const struct bl_config *cfg, void *userdata)
{
        struct validity_count *vc = userdata;
        struct bl_diag diag;

        diag_init(&diag);
        vc->calls++;
        if (config_validate(cfg, &diag) > 0)
                vc->invalid++;
}

/* Thresholds 5 apart and trend (horizon_ms <= window_ms): many moves break a
 * rule; none of those is simulated. */
START_TEST(invalid_candidates_never_evaluated)
{
        struct fixture *fx = fixture_open("[hysteresis]\nup_threshold = 65\ndown_threshold = 60\n"
                                          "[policy.trend]\nwindow_ms = 60\nhorizon_ms = 60\n");
        struct validity_count vc = { 0 };
        struct tune_options opt = options(120, 9, MAX_LATE);
        struct tune_outcome *out;

        opt.heuristics = "trend";
        opt.on_evaluate = count_validity;
        opt.userdata = &vc;
        out = tune(fx, &opt);
        ck_assert_uint_eq(vc.invalid, 0);
        ck_assert_uint_eq(vc.calls, out->evaluations);
        ck_assert_uint_gt(out->skipped_invalid, 0);
        ck_assert_ptr_nonnull(strstr(out->dropin, "[policy]\nheuristics = trend\n"));
        ck_assert_uint_eq(out->tuned_config.nheuristics, 1);
        ck_assert_str_eq(out->tuned_config.heuristics[0].name, "trend");
        free(out);
        fixture_close(fx);
}
END_TEST

START_TEST(budget_respected)
{
        struct fixture *fx = fixture_open(bad_base);

        for (unsigned budget = 1; budget <= 25; budget += 6) {
                struct validity_count vc = { 0 };
                struct tune_options opt = options(budget, 2, MAX_LATE);
                struct tune_outcome *out;

                opt.on_evaluate = count_validity;
                opt.userdata = &vc;
                out = tune(fx, &opt);
                ck_assert_uint_eq(out->evaluations, budget);
                ck_assert_uint_eq(vc.calls, budget);
                if (budget == 1) {
                        /* Only the base: nothing to change. */
                        ck_assert_str_eq(out->dropin, "");
                        ck_assert_double_eq(out->tuned.objective, out->base.objective);
                }
                free(out);
        }
        fixture_close(fx);
}
END_TEST

static int run_refused(struct fixture *fx, const struct tune_options *opt, struct tune_outcome *out,
                       struct bl_diag *diag)
{
        return tune_run(&fx->board, &fx->mode, fx->tw, fx->n, &fx->base, opt, out, diag);
}

START_TEST(bad_requests_refused)
{
        struct fixture *fx = fixture_open(bad_base);
        struct tune_options opt = options(1, 1, MAX_LATE);
        struct tune_outcome *out = malloc(sizeof(*out));
        struct bl_diag diag;

        ck_assert_ptr_nonnull(out);
        /* A new heuristic needs a second evaluation besides the base. */
        opt.heuristics = "psi";
        diag_init(&diag);
        ck_assert_int_eq(run_refused(fx, &opt, out, &diag), -EINVAL);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_ptr_nonnull(strstr(diag.msg[0], "budget of 1"));

        opt.budget = 10;
        opt.heuristics = "pelt, nosuch";
        diag_init(&diag);
        ck_assert_int_eq(run_refused(fx, &opt, out, &diag), -EINVAL);
        ck_assert_ptr_nonnull(strstr(diag.msg[0], "unknown heuristic \"nosuch\""));

        opt.heuristics = NULL;
        fx->tw[0].held_out = fx->tw[1].held_out = true;
        diag_init(&diag);
        ck_assert_int_eq(run_refused(fx, &opt, out, &diag), -EINVAL);
        ck_assert_ptr_nonnull(strstr(diag.msg[0], "every one is held out"));
        free(out);
        fixture_close(fx);
}
END_TEST

/* The held-out workload is counted step by step: the search never runs it. */
static unsigned held_out_steps;
static int (*held_out_begin)(struct sim_workload *w, size_t step, bl_usec_t t, const double *lane_capacity,
                             double *new_work);

static int counting_begin(struct sim_workload *w, size_t step, bl_usec_t t, const double *lane_capacity,
                          double *new_work)
{
        held_out_steps++;
        return held_out_begin(w, step, t, lane_capacity, new_work);
}

START_TEST(held_out_never_searched)
{
        struct fixture *fx = fixture_open(bad_base);
        struct tune_options opt = options(60, 4, MAX_LATE);
        struct tune_outcome *out;
        struct sim_result r[3];

        held_out_begin = fx->fw[2].w->begin_step;
        fx->fw[2].w->begin_step = counting_begin;
        held_out_steps = 0;
        out = tune(fx, &opt);
        ck_assert_uint_eq(held_out_steps, 0);
        ck_assert_int_eq(tune_results(&fx->board, &fx->mode, fx->tw, fx->n, &out->tuned_config, "t", 1, r), 0);
        ck_assert_uint_ge(held_out_steps, 4000);
        ck_assert_uint_eq(r[2].steps, 4000);
        free(out);
        fixture_close(fx);
}
END_TEST

static const struct tune_param *find_param(const struct tune_space *s, const char *section, const char *key)
{
        for (unsigned i = 0; i < s->n; i++)
                if (strcmp(s->p[i].section, section) == 0 && strcmp(s->p[i].key, key) == 0)
                        return &s->p[i];
        return NULL;
}

/* The heuristics' parameters come from their declarations; the engine's
 * bounds take in the base's values. */
START_TEST(space_from_declarations)
{
        struct bl_config *cfg = malloc(sizeof(*cfg));
        const struct tune_param *p;
        struct tune_space s;

        ck_assert_ptr_nonnull(cfg);
        base_from(cfg, "[daemon]\nsample_interval_ms = 15\n[policy]\nheuristics = pelt, psi\n"
                       "[hysteresis]\nup_delay_ms = 3000\n");
        tune_space_build(&s, cfg);
        ck_assert_uint_eq(s.n, 6 + 1 + 3);

        p = find_param(&s, "daemon", "sample_interval_ms");
        ck_assert_ptr_nonnull(p);
        ck_assert_int_eq(p->scale, TUNE_SCALE_CHOICE);
        ck_assert_uint_eq(p->nchoices, 4);
        ck_assert_double_eq(p->choice[0], 10);
        ck_assert_double_eq(p->choice[1], 15);
        ck_assert_double_eq(p->choice[3], 50);
        p = find_param(&s, "hysteresis", "up_delay_ms");
        ck_assert_double_eq(p->max, 3000);
        ck_assert_double_eq(tune_param_value(p, cfg), 3000);
        p = find_param(&s, "hysteresis", "down_threshold");
        ck_assert_double_eq(p->min, 0);
        ck_assert_double_eq(p->max, 99);
        ck_assert_int_eq(p->scale, TUNE_SCALE_LINEAR);

        for (unsigned h = 0; h < cfg->nheuristics; h++) {
                const struct bl_heuristic_ops *ops = cfg->heuristics[h].ops;
                char section[64];

                snprintf(section, sizeof(section), "policy.%s", ops->name);
                for (unsigned i = 0; i < ops->nparams; i++) {
                        p = find_param(&s, section, ops->params[i].key);
                        ck_assert_ptr_nonnull(p);
                        ck_assert_double_eq(p->min, ops->params[i].min);
                        ck_assert_double_eq(p->max, ops->params[i].max);
                        ck_assert_double_eq(p->resolution, ops->params[i].integer ? 1.0 : 0.01);
                        ck_assert_double_eq(tune_param_value(p, cfg), ops->params[i].def);
                }
        }
        ck_assert_int_eq(find_param(&s, "policy.pelt", "half_life_ms")->scale, TUNE_SCALE_LOG);
        ck_assert_int_eq(find_param(&s, "policy.psi", "gain")->scale, TUNE_SCALE_LINEAR);
        ck_assert_ptr_null(find_param(&s, "policy.trend", "window_ms"));
        free(cfg);
}
END_TEST

START_TEST(lateness_of_traces_and_rtapp)
{
        struct tune_workload tw = { .name = "w", .big_miss_ratio = 0.02, .big_late_work_ratio = 0.2 };
        struct sim_result r = { .late_work_ratio = 0.3 };
        double lateness, limit;

        /* late_work_ratio against always-big's + R: R where always-big keeps up. */
        tune_lateness(&tw, &r, 0.01, &lateness, &limit);
        ck_assert_double_eq(lateness, 0.3);
        ck_assert_double_eq_tol(limit, 0.21, 1e-12);
        tw.big_late_work_ratio = 0.0;
        tune_lateness(&tw, &r, 0.01, &lateness, &limit);
        ck_assert_double_eq(limit, 0.01);
        /* An rt-app workload without activations: the same. */
        tw.rtapp = true;
        tw.big_late_work_ratio = 0.2;
        tune_lateness(&tw, &r, 0.01, &lateness, &limit);
        ck_assert_double_eq(lateness, 0.3);
        ck_assert_double_eq_tol(limit, 0.21, 1e-12);
        /* With activations: the missed share against always-big's + R. */
        r.qos = (struct sim_qos){ .has_activations = true, .activations = 200, .misses = 5 };
        tune_lateness(&tw, &r, 0.01, &lateness, &limit);
        ck_assert_double_eq(lateness, 0.025);
        ck_assert_double_eq_tol(limit, 0.03, 1e-12);
}
END_TEST

/* Running blsim: stdout and stderr land in files of a private directory. */
struct blsim_out {
        int status;
        char *out;
        char *err;
};

static char *slurp(const char *path)
{
        char *text = NULL;
        size_t len;

        ck_assert_int_eq(read_file(path, &text, &len), 0);
        return text;
}

static struct blsim_out blsim(const char *const *args)
{
        char dir[] = "/tmp/check_tune.XXXXXX", out[PATH_MAX], err[PATH_MAX];
        const char *argv[40] = { BLSIM_PATH };
        posix_spawn_file_actions_t fa;
        struct blsim_out o;
        unsigned n = 1;
        pid_t pid;
        int ws;

        for (; args[n - 1] && n < 39; n++)
                argv[n] = args[n - 1];
        argv[n] = NULL;
        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(out, sizeof(out), "%s/out", dir);
        snprintf(err, sizeof(err), "%s/err", dir);
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ck_assert_int_eq(posix_spawn(&pid, BLSIM_PATH, &fa, NULL, (char *const *)argv, environ), 0);
        posix_spawn_file_actions_destroy(&fa);
        ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
        ck_assert_msg(WIFEXITED(ws), "blsim did not exit normally");
        o.status = WEXITSTATUS(ws);
        o.out = slurp(out);
        o.err = slurp(err);
        unlink(out);
        unlink(err);
        rmdir(dir);
        return o;
}

static void blsim_out_free(struct blsim_out *o)
{
        free(o->out);
        free(o->err);
}

#define BOARD BOARDS_DIR "/exynos5422-like.ini"
#define SEARCH_1 WORKLOADS_DIR "/video-30fps.csv"
#define SEARCH_2 WORKLOADS_DIR "/app-launch.csv"
#define HELD_OUT WORKLOADS_DIR "/audio-playback.csv"
#define WORSE_SEARCH WORKLOADS_DIR "/background-sync.csv"
#define WORSE_HELD_OUT WORKLOADS_DIR "/ramp.csv"

/* The value of '"key": ' after 'from' in a JSON text. */
static double json_value_after(const char *from, const char *key)
{
        char pattern[64];
        const char *p;

        snprintf(pattern, sizeof(pattern), "\"%s\": ", key);
        p = strstr(from, pattern);
        ck_assert_msg(p != NULL, "no %s", key);
        return strtod(p + strlen(pattern), NULL);
}

/* The "set" column of the row of 'workload' in the text report. */
static const char *row_set(const char *report, const char *workload)
{
        static char set[16];
        const char *p = report;

        while ((p = strstr(p, workload)) && p > report && p[-1] != '\n')
                p++;
        ck_assert_msg(p != NULL, "no row for %s in %s", workload, report);
        p += strlen(workload);
        p += strspn(p, " ");
        snprintf(set, sizeof(set), "%.*s", (int)strcspn(p, " "), p);
        return set;
}

START_TEST(cli_tune_with_holdout)
{
        char dir[] = "/tmp/check_tune.XXXXXX", conf[PATH_MAX];
        struct bl_config *cfg = malloc(sizeof(*cfg));
        struct blsim_out o, j, run;
        struct bl_diag diag;
        const char *row, *tuned;
        char *text;
        size_t len;

        ck_assert_ptr_nonnull(cfg);
        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(conf, sizeof(conf), "%s/tuned.conf", dir);
        o = blsim((const char *const[]){ "tune", "--board", BOARD, "--workload", SEARCH_1, "--workload",
                                         SEARCH_2, "--holdout", HELD_OUT, "--budget", "12", "--seed", "3",
                                         "--out", conf, NULL });
        ck_assert_msg(o.status == 0, "%s", o.err);
        ck_assert_str_eq(o.err, "");
        ck_assert_str_eq(row_set(o.out, HELD_OUT), "HELD-OUT");
        ck_assert_str_eq(row_set(o.out, SEARCH_1), "search");
        ck_assert_str_eq(row_set(o.out, SEARCH_2), "search");
        ck_assert_ptr_nonnull(strstr(o.out, "search: 12 of 12 evaluations"));
        ck_assert_ptr_nonnull(strstr(o.out, "The drop-in is in "));

        /* The file parses on top of the shipped defaults (the base). */
        ck_assert_int_eq(read_file(conf, &text, &len), 0);
        ck_assert_ptr_nonnull(strstr(text, "# held out: " HELD_OUT "\n"));
        ck_assert_ptr_nonnull(strstr(text, "# searched: " SEARCH_2 "\n"));
        config_init(cfg, policy_builtin);
        diag_init(&diag);
        ck_assert_uint_eq(config_parse(cfg, policy_builtin, conf, text, len, &diag), 0);
        ck_assert_uint_eq(config_validate(cfg, &diag), 0);
        free(text);

        /* JSON: the same search, held-out flags, and the tuned energy that
         * "blsim run --config" of the file gives. */
        j = blsim((const char *const[]){ "tune", "-b", BOARD, "-w", SEARCH_1, "-w", SEARCH_2, "--holdout",
                                         HELD_OUT, "--budget", "12", "--seed", "3", "--json", NULL });
        ck_assert_int_eq(j.status, 0);
        ck_assert_ptr_nonnull(strstr(j.out, "\"held_out\": 1,"));
        row = strstr(j.out, "{\"workload\": \"" HELD_OUT "\", \"held_out\": true");
        ck_assert_msg(row != NULL, "%s", j.out);
        row = strstr(j.out, "{\"workload\": \"" SEARCH_2 "\", \"held_out\": false");
        ck_assert_ptr_nonnull(row);
        tuned = strstr(row, "\"tuned\": {");
        ck_assert_ptr_nonnull(tuned);
        run = blsim((const char *const[]){ "run", "-b", BOARD, "-w", SEARCH_2, "-c", conf, "--json", NULL });
        ck_assert_int_eq(run.status, 0);
        ck_assert_double_eq_tol(json_value_after(run.out, "energy_uj"), json_value_after(tuned, "energy_uj"),
                                1e-3);
        ck_assert_double_eq_tol(json_value_after(run.out, "late_work_ratio"),
                                json_value_after(tuned, "late_work_ratio"), 1e-9);
        unlink(conf);
        rmdir(dir);
        blsim_out_free(&o);
        blsim_out_free(&j);
        blsim_out_free(&run);
        free(cfg);
}
END_TEST

START_TEST(cli_tune_without_holdout_says_so)
{
        struct blsim_out o = blsim((const char *const[]){ "tune", "-b", BOARD, "-w", SEARCH_1, "--budget",
                                                          "3", NULL });

        ck_assert_int_eq(o.status, 0);
        ck_assert_ptr_nonnull(strstr(o.out, "No workload was held out"));
        ck_assert_ptr_null(strstr(o.out, "HELD-OUT"));
        /* Without --out the drop-in is printed. */
        ck_assert_ptr_nonnull(strstr(o.out, "# held out: none\n"));
        blsim_out_free(&o);
}
END_TEST

/* rt-app workloads: judged by their missed activations. */
START_TEST(cli_tune_rtapp)
{
        static const char *const args[] = { "tune", "-b", BOARD, "-w", WORKLOADS_DIR "/rt-app/mp3-short.json",
                                            "--holdout", WORKLOADS_DIR "/rt-app/video-short.json", "--budget",
                                            "4", "--json", NULL };
        struct blsim_out o = blsim(args);
        const char *row;

        ck_assert_msg(o.status == 0, "%s", o.err);
        row = strstr(o.out, "rt-app/video-short.json\", \"held_out\": true, \"lateness_measure\": "
                            "\"missed_share\"");
        ck_assert_msg(row != NULL, "%s", o.out);
        ck_assert_ptr_nonnull(strstr(row, "\"activations\": 541"));
        ck_assert_ptr_nonnull(strstr(o.out, "\"evaluations\": 4,"));
        blsim_out_free(&o);
}
END_TEST

/* -j: the same report, byte for byte, on one thread or several. */
START_TEST(cli_tune_jobs_same_output)
{
        static const char *const one[] = { "tune", "-b", BOARD, "-w", SEARCH_1, "-w", SEARCH_2, "-w",
                                           WORSE_SEARCH, "--holdout", HELD_OUT, "--budget", "15", "-j", "1",
                                           "--json", NULL };
        static const char *const four[] = { "tune", "-b", BOARD, "-w", SEARCH_1, "-w", SEARCH_2, "-w",
                                            WORSE_SEARCH, "--holdout", HELD_OUT, "--budget", "15", "--jobs", "4",
                                            "--json", NULL };
        struct blsim_out a = blsim(one), b = blsim(four);

        ck_assert_msg(a.status == 0, "%s", a.err);
        ck_assert_msg(b.status == 0, "%s", b.err);
        ck_assert_ptr_nonnull(strstr(a.out, "\"evaluations\": 15,"));
        ck_assert_str_eq(a.out, b.out);
        /* Not a terminal: no progress line. */
        ck_assert_str_eq(a.err, "");
        ck_assert_str_eq(b.err, "");
        blsim_out_free(&a);
        blsim_out_free(&b);
}
END_TEST

/* On a terminal, stderr has the progress line, rewritten in place with \r
 * and ended by what the search took; the report is unchanged on stdout. */
START_TEST(cli_tune_progress_on_a_terminal)
{
        static const char first[] = "\rblsim tune: 1/25 evaluated, best ";
        char out[] = "/tmp/check_tune.XXXXXX", seen[8192];
        size_t n = 0;
        ssize_t got;
        pid_t pid;
        int master, fd, ws;

        fd = mkstemp(out);
        ck_assert_int_ge(fd, 0);
        pid = forkpty(&master, NULL, NULL, NULL);
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
                dup2(fd, STDOUT_FILENO);
                execl(BLSIM_PATH, BLSIM_PATH, "tune", "-b", BOARD, "-w", SEARCH_1, "-w", SEARCH_2, "--budget",
                      "25", "-j", "2", (char *)NULL);
                _exit(127);
        }
        close(fd);
        /* The pty reads EIO once the child has closed its side. */
        while (n < sizeof(seen) - 1 && (got = read(master, seen + n, sizeof(seen) - 1 - n)) > 0)
                n += (size_t)got;
        seen[n] = '\0';
        close(master);
        ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
        ck_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
        ck_assert_msg(strncmp(seen, first, strlen(first)) == 0, "%s", seen);
        ck_assert_msg(strstr(seen, " left") != NULL, "%s", seen);
        ck_assert_msg(strstr(seen, "\rblsim tune: 25 evaluated in ") != NULL, "%s", seen);
        ck_assert_msg(strstr(seen, "\n") == strrchr(seen, '\n') && seen[n - 1] == '\n', "%s", seen);
        ck_assert_ptr_null(strstr(seen, "parameter"));
        unlink(out);
}
END_TEST

/* Searched on background-sync alone, the tuned configuration spends more
 * on ramp, held out: --out is refused, and says so, unless --force. */

START_TEST(cli_tune_refuses_out_when_held_out_worse)
{
        char dir[] = "/tmp/check_tune.XXXXXX", conf[PATH_MAX];
        struct blsim_out o, forced;
        const char *line;
        char *text;
        size_t len;

        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(conf, sizeof(conf), "%s/tuned.conf", dir);
        o = blsim((const char *const[]){ "tune", "-b", BOARD, "-w", WORSE_SEARCH, "--holdout", WORSE_HELD_OUT,
                                         "--budget", "10", "--out", conf, NULL });
        ck_assert_msg(o.status == 65, "status %d: %s", o.status, o.err);
        ck_assert_int_eq(access(conf, F_OK), -1);
        ck_assert_ptr_nonnull(strstr(o.err, "not writing "));
        ck_assert_ptr_nonnull(strstr(o.err, "--force"));
        /* The line names the workload, then lateness and energy, before -> after. */
        line = strstr(o.err, "\n  " WORSE_HELD_OUT ": late ");
        ck_assert_msg(line != NULL, "%s", o.err);
        ck_assert_ptr_nonnull(strstr(line, " -> "));
        ck_assert_ptr_nonnull(strstr(line, "energy "));
        ck_assert_ptr_null(strstr(o.err, WORSE_SEARCH));
        /* The report is printed all the same, and says where the file is not. */
        ck_assert_ptr_nonnull(strstr(o.out, "The drop-in was not written to "));
        ck_assert_str_eq(row_set(o.out, WORSE_HELD_OUT), "HELD-OUT");

        forced = blsim((const char *const[]){ "tune", "-b", BOARD, "-w", WORSE_SEARCH, "--holdout",
                                              WORSE_HELD_OUT, "--budget", "10", "--out", conf, "--force", NULL });
        ck_assert_msg(forced.status == 0, "%s", forced.err);
        ck_assert_str_eq(forced.err, "");
        ck_assert_int_eq(read_file(conf, &text, &len), 0);
        ck_assert_ptr_nonnull(strstr(text, "# held out: " WORSE_HELD_OUT "\n"));
        free(text);
        unlink(conf);
        rmdir(dir);
        blsim_out_free(&o);
        blsim_out_free(&forced);
}
END_TEST

/* What "worse" means: lateness above both the base's and the limit, or
 * more energy for no less lateness. */
START_TEST(worse_means_late_beyond_the_limit_or_dearer)
{
        struct tune_workload tw = { .name = "w", .big_energy_uj = 100.0 };
        struct sim_result base = { .energy_uj = 50.0, .late_work_ratio = 0.005 }, tuned = base;

        ck_assert(!tune_got_worse(&tw, &base, &tuned, 0.01));
        tuned.late_work_ratio = 0.009;          /* later, within the limit */
        ck_assert(!tune_got_worse(&tw, &base, &tuned, 0.01));
        tuned.late_work_ratio = 0.02;           /* beyond it */
        ck_assert(tune_got_worse(&tw, &base, &tuned, 0.01));
        tuned.energy_uj = 40.0;                 /* beyond it, even if cheaper */
        ck_assert(tune_got_worse(&tw, &base, &tuned, 0.01));
        tuned.late_work_ratio = 0.005;
        tuned.energy_uj = 50.5;                 /* dearer for the same lateness */
        ck_assert(tune_got_worse(&tw, &base, &tuned, 0.01));
        tuned.late_work_ratio = 0.001;          /* dearer, but less late */
        ck_assert(!tune_got_worse(&tw, &base, &tuned, 0.01));
        base.late_work_ratio = 0.03;            /* base over the limit, tuned less so */
        tuned.late_work_ratio = 0.02;
        tuned.energy_uj = 50.0;
        ck_assert(!tune_got_worse(&tw, &base, &tuned, 0.01));
}
END_TEST

START_TEST(cli_tune_usage_errors)
{
        static const char *const cases[][12] = {
                { "tune", "-b", BOARD, NULL },
                { "tune", "-b", BOARD, "-w", SEARCH_1, "--budget", "0", NULL },
                { "tune", "-b", BOARD, "-w", SEARCH_1, "--max-late", "-1", NULL },
                { "tune", "-b", BOARD, "-w", SEARCH_1, "--holdout", SEARCH_1, NULL },
                { "tune", "-b", BOARD, "--holdout", SEARCH_1, NULL },
                { "tune", "-b", BOARD, "-w", SEARCH_1, "--heuristics", "nosuch", NULL },
                { "tune", "-b", BOARD, "-w", SEARCH_1, "--seed", "x", NULL },
                { "tune", "-b", BOARD, "-w", SEARCH_1, "-j", "0", NULL },
                { "tune", "-b", BOARD, "-w", SEARCH_1, "--jobs", "65", NULL },
                { "tune", "-b", BOARD, "-w", SEARCH_1, "--force", NULL },
        };
        static const char *const says[] = {
                "at least one --workload", "--budget", "--max-late", "named twice", "every one is held out",
                "unknown heuristic", "--seed", "-j/--jobs: expected a number of threads 1-64, got \"0\"",
                "-j/--jobs", "--force goes with --out",
        };

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct blsim_out o = blsim(cases[i]);

                ck_assert_msg(o.status == 64, "case %zu: status %d", i, o.status);
                ck_assert_msg(strstr(o.err, says[i]) != NULL, "case %zu: %s", i, o.err);
                ck_assert_str_eq(o.out, "");
                blsim_out_free(&o);
        }
}
END_TEST

static Suite *tune_suite(void)
{
        Suite *s = suite_create("tune");
        TCase *search = tcase_create("search");
        TCase *cli = tcase_create("cli");

        tcase_set_timeout(search, 60);
        tcase_add_test(search, beats_a_bad_base);
        tcase_add_test(search, every_search_workload_within_the_limit);
        tcase_add_test(search, a_limit_too_tight_says_so);
        tcase_add_test(search, same_seed_same_result);
        tcase_add_test(search, threads_same_result);
        tcase_add_test(search, dropin_round_trips);
        tcase_add_test(search, invalid_candidates_never_evaluated);
        tcase_add_test(search, budget_respected);
        tcase_add_test(search, bad_requests_refused);
        tcase_add_test(search, held_out_never_searched);
        tcase_add_test(search, space_from_declarations);
        tcase_add_test(search, lateness_of_traces_and_rtapp);
        tcase_add_test(search, worse_means_late_beyond_the_limit_or_dearer);
        suite_add_tcase(s, search);

        tcase_set_timeout(cli, 60);
        tcase_add_test(cli, cli_tune_with_holdout);
        tcase_add_test(cli, cli_tune_without_holdout_says_so);
        tcase_add_test(cli, cli_tune_rtapp);
        tcase_add_test(cli, cli_tune_usage_errors);
        tcase_add_test(cli, cli_tune_refuses_out_when_held_out_worse);
        tcase_add_test(cli, cli_tune_jobs_same_output);
        tcase_add_test(cli, cli_tune_progress_on_a_terminal);
        suite_add_tcase(s, cli);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(tune_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
