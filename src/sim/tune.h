/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* "blsim tune": searches the engine's [hysteresis] keys, the sample interval
 * and the declared parameters of the heuristics in use for the lowest
 * energy within a lateness budget on several workloads at once, and gives
 * the result as a drop-in configuration (the keys that differ from BASE).
 *
 * Every candidate is written as that drop-in text and parsed with
 * config_parse() on top of BASE, then checked with config_validate(); only
 * a configuration that passes both is simulated. So what is evaluated is
 * exactly what the drop-in file gives the daemon and blsim, and a candidate
 * that breaks a rule across keys (down_threshold < up_threshold, a
 * heuristic's own rules) is skipped, never evaluated. */

#include <stdint.h>
#include <stdio.h>

#include "core/config.h"
#include "sim/run.h"

#define TUNE_DEFAULT_BUDGET 300U
#define TUNE_DEFAULT_MAX_LATE 0.01
#define TUNE_MAX_WORKLOADS 64U
/* More threads than workloads would have nothing to do. */
#define TUNE_MAX_JOBS TUNE_MAX_WORKLOADS
/* The engine's keys and every parameter of every heuristic that can be selected. */
#define TUNE_MAX_PARAMS (8U + BL_MAX_HEURISTICS * BL_POLICY_MAX_PARAMS)
#define TUNE_MAX_CHOICES 8U
#define TUNE_DROPIN_MAX 4096U

/* A workload and the references it is judged against, prepared by the
 * caller (blsim runs always-big and the oracle as for "blsim run"). */
struct tune_workload {
        const char *name;
        struct sim_workload *w;
        bool held_out;                  /* never used by the search, only reported */
        bool rtapp;
        double big_energy_uj;           /* always-big: the unit of this workload's energy (> 0) */
        double oracle_energy_uj;        /* for eta in the report */
        double big_late_work_ratio;     /* always-big's */
        double big_miss_ratio;          /* rt-app: always-big's missed activations / activations */
};

enum tune_scale {
        TUNE_SCALE_LINEAR,
        TUNE_SCALE_LOG,                 /* searched as log(1 + value - min) */
        TUNE_SCALE_CHOICE,              /* one of choice[] */
};

/* One key the search moves. */
struct tune_param {
        char section[BL_NAME_MAX + 8];  /* "daemon", "hysteresis" or "policy.NAME" */
        char key[BL_NAME_MAX];
        double min, max;                /* search bounds, inside what the parser accepts */
        double resolution;              /* values are multiples of it (1 for integers) */
        enum tune_scale scale;
        unsigned nchoices;
        double choice[TUNE_MAX_CHOICES];        /* ascending */
};

struct tune_space {
        unsigned n;
        struct tune_param p[TUNE_MAX_PARAMS];
};

struct tune_progress;

struct tune_options {
        double max_late;                /* R: the lateness limit on every search workload */
        unsigned budget;                /* configurations simulated, BASE included; >= 1 */
        uint64_t seed;
        /* "a, b": the heuristics to tune instead of BASE's; NULL or "" = BASE's. */
        const char *heuristics;
        /* Threads that simulate the workloads of one configuration at once
         * (0 or 1: the caller's alone). The result does not depend on it. */
        unsigned jobs;
        /* Called with each configuration just before it is simulated. */
        void (*on_evaluate)(const struct bl_config *cfg, void *userdata);
        /* Called after each configuration is scored. */
        void (*on_progress)(const struct tune_progress *p, void *userdata);
        void *userdata;
};

/* What a configuration scores on the search workloads. */
struct tune_score {
        double objective;               /* mean over them of energy / always-big energy */
        double violation;               /* sum over them of lateness beyond the limit; 0 = feasible */
        unsigned over;                  /* search workloads over their limit */
};

/* What the search has done so far, for a progress line. */
struct tune_progress {
        unsigned evaluations;           /* configurations simulated, BASE included */
        unsigned budget;
        struct tune_score best;         /* the best so far */
};

struct tune_outcome {
        struct tune_space space;
        double base_value[TUNE_MAX_PARAMS];     /* in BASE */
        double tuned_value[TUNE_MAX_PARAMS];    /* in the tuned configuration */
        struct tune_score base, tuned;
        struct bl_config tuned_config;          /* BASE + dropin, parsed and validated */
        char dropin[TUNE_DROPIN_MAX];           /* the keys that differ from BASE; "" when none */
        unsigned evaluations;                   /* configurations simulated, <= budget */
        unsigned skipped_invalid;               /* candidates config_validate() refused */
        unsigned restarts;                      /* local searches begun from a random point */
};

/* The lateness of one run and its limit: always-big's lateness on the same
 * workload + R (max_late). For a trace the lateness is late_work_ratio, and
 * always-big's is 0 wherever the board can keep up at all, so the limit is
 * R; where even always-big leaves work late (more work than the big
 * cluster can do), a limit of R would admit no configuration. An rt-app
 * workload with activations is measured by its share of missed
 * activations; without, by late_work_ratio, which rt-app tasks raise by
 * themselves (a running task fills its CPU's step). */
void tune_lateness(const struct tune_workload *tw, const struct sim_result *r, double max_late,
                   double *lateness, double *limit);

/* Whether 'tuned' does worse than 'base' on workload 'tw': its lateness
 * rose above both the base's and the limit (the constraint the search keeps
 * on the searched workloads, broken or made worse), or it spends more energy
 * for no less lateness. Said of held-out workloads, where the search cannot
 * have looked. */
bool tune_got_worse(const struct tune_workload *tw, const struct sim_result *base, const struct sim_result *tuned,
                    double max_late);

/* The search space for 'cfg' (BASE with the heuristics to tune selected):
 * sample_interval_ms among 10, 20 and 50 ms, up_threshold, down_threshold,
 * up_delay_ms, down_delay_ms and min_residency_ms, then each selected
 * heuristic's declared parameters in declaration order. Bounds are the
 * declared ones (the engine's keys: narrower than the parser's, see
 * tune.c), widened to take in the value 'cfg' has. */
void tune_space_build(struct tune_space *s, const struct bl_config *cfg);

/* The value of parameter 'p' in 'cfg' (a heuristic's from its [policy.NAME]
 * settings, selected or not). */
double tune_param_value(const struct tune_param *p, const struct bl_config *cfg);

/* Runs the search on board 'b' in mode 'm' over the workloads of 'w' that
 * are not held out, starting from 'base' (a validated configuration) with
 * opt->heuristics selected. Deterministic for a seed. Returns 0, -EINVAL
 * with the reason in 'diag' (no search workload, more than
 * TUNE_MAX_WORKLOADS, an always-big energy that is not positive, a budget
 * with no room for a candidate, a heuristics list BASE does not accept), or
 * what a simulation returned (-ENOMEM, ...). */
int tune_run(const struct sim_board *b, const struct sim_mode *m, struct tune_workload *w, unsigned nw,
             const struct bl_config *base, const struct tune_options *opt, struct tune_outcome *out,
             struct bl_diag *diag);

/* Simulates 'cfg' on every workload of 'w' (held out or not) into r[0..nw-1],
 * each named 'name', on up to 'jobs' threads. Returns 0 or what
 * sim_run_policy() returned (the first workload's that failed). */
int tune_results(const struct sim_board *b, const struct sim_mode *m, struct tune_workload *w, unsigned nw,
                 const struct bl_config *cfg, const char *name, unsigned jobs, struct sim_result *r);

/* What "blsim tune" prints. */
struct tune_report {
        const char *board;
        const char *mode;
        const char *base_name;                  /* "the shipped configuration" or the --config path */
        const struct tune_options *opt;
        const struct tune_workload *w;
        unsigned nw;
        const struct sim_result *base;          /* per workload */
        const struct sim_result *tuned;
        const struct tune_outcome *out;
};

/* The drop-in file: a comment header (board, mode, the workloads searched and
 * held out, budget, seed, limit, the objective before and after), then the
 * keys. */
void tune_print_dropin(FILE *f, const struct tune_report *rep);
/* The parameters, the objective and one row per workload, base and tuned,
 * held-out rows marked. */
void tune_print_text(FILE *f, const struct tune_report *rep);
/* The held-out workloads on which the tuned configuration does worse
 * (tune_got_worse()): their number, and one line each, "  NAME: late
 * BASE -> TUNED (limit L), energy BASE -> TUNED mJ". */
unsigned tune_count_worse(const struct tune_report *rep);
void tune_print_worse(FILE *f, const struct tune_report *rep);
/* The same as one JSON object (documented in blsim(1)). */
void tune_print_json(FILE *f, const struct tune_report *rep);

/* The progress line on a terminal: "blsim tune: DONE/BUDGET evaluated, best
 * OBJECTIVE, about TIME left", rewritten in place with \r (at most five
 * times a second) by tune_progress_line_show() as opt->on_progress with the
 * line as its userdata, and ended by tune_progress_line_end() with how many
 * were evaluated and how long it took. Nothing is written before the first
 * progress report, nor ended after none. */
struct tune_progress_line {
        FILE *f;
        long long start_ns, shown_ns;
        int width;                      /* of the line shown; 0: none yet */
};

void tune_progress_line_start(struct tune_progress_line *pl, FILE *f);
void tune_progress_line_show(const struct tune_progress *p, void *userdata);
void tune_progress_line_end(struct tune_progress_line *pl, const struct tune_outcome *out);
