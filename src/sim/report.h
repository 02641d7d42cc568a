/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What blsim prints: one run against its references, or the comparison
 * table of every policy, as text or JSON, and the gnuplot script of the
 * timelines. Output depends only on the numbers (fixed formats, no clock),
 * so the same inputs give the same bytes. */

#include <stdio.h>

#include "sim/oracle.h"
#include "sim/run.h"

#define SIM_REPORT_MAX_POLICIES 16

struct sim_report {
        const char *board;              /* the board's name */
        const struct sim_board *model;  /* its switch cost in effect; NULL: not reported */
        const char *workload;           /* as the user named it */
        bool rtapp;                     /* QoS columns, and the oracle is on the always-little arrivals */
        size_t steps;                   /* of the trace the oracle solves */
        bl_usec_t step_us;
        const struct sim_mode *mode;    /* the classes time is reported in */
        struct sim_result little;       /* fixed on the lowest cluster */
        struct sim_result big;          /* fixed on the top cluster */
        const struct sim_oracle *oracle;
        /* The reactive oracle (sim/reactive.h) at reactive_interval_us, on the
         * trace the oracle solves; NULL when not computed (blsim live). */
        const struct sim_result *reactive;
        /* The load-reactive oracle at the same interval, with it or NULL. */
        const struct sim_result *load_reactive;
        bl_usec_t reactive_interval_us;
        unsigned napprox;               /* rt-app: what the simulation approximates */
        const char *approx[8];
        /* compare: policy[best_classic_index] is the best of the classic
         * policies by report_best_policy(), named under the table. */
        bool best_classic;
        unsigned best_classic_index;
        unsigned npolicies;             /* engine-driven runs */
        struct sim_result policy[SIM_REPORT_MAX_POLICIES];
        /* blsim live: policy[0] is what a daemon did on the live board;
         * these say what the board saw, after the run's own keys. */
        bool live;
        size_t nswitches;
        const struct sim_switch *switches;
        bl_usec_t off_ladder_us;        /* on CPU sets that were no level */
        const char *online_at_exit;     /* the CPUs online once the command had exited */
};

/* eta = (E_big - E_policy) / (E_big - E_oracle). False (and *eta = 0) when
 * E_big - E_oracle <= 0: no saving was possible, so no efficiency. */
bool sim_eta(double big_uj, double policy_uj, double oracle_uj, double *eta);

/* 's' as a JSON string, quotes included. */
void report_json_string(FILE *f, const char *s);

/* "blsim run": policy[0] against the references. */
void report_run_text(FILE *f, const struct sim_report *rep);
void report_run_json(FILE *f, const struct sim_report *rep);

/* "blsim compare": always-little, always-big, policy[0..n-1], the oracle,
 * the reactive oracle when there is one. */
void report_compare_table(FILE *f, const struct sim_report *rep);
void report_compare_json(FILE *f, const struct sim_report *rep);

/* The gnuplot terminal for an output file: "svg" for .svg, "png" for .png
 * (pngcairo when gnuplot has it). NULL for any other name. */
const char *report_plot_terminal(const char *output);

/* One line of a plot. */
struct sim_plot_line {
        const char *name;
        const struct sim_timeline *tl;  /* levels are classes of rep->mode */
        bool demand;                    /* has a demand to draw: an engine-driven run */
};

/* Lines a plot can tell apart: each has a colour no other has. */
#define SIM_PLOT_MAX_LINES 16

/* A self-contained gnuplot script (data inline) drawing, over time, the
 * demand of the lines that have one, then the level and the cumulative
 * energy of every line, each line in a colour of its own in every panel.
 * Returns 0, or -EINVAL when the output's extension has no terminal or
 * there are no lines or more than SIM_PLOT_MAX_LINES. */
int report_plot_script(FILE *f, const char *output, const struct sim_report *rep,
                       const struct sim_plot_line *lines, unsigned nlines);

/* Of policy[first .. first + n - 1] (n >= 1), the index of the best by
 * the rule of blsim tune: the least energy among those whose lateness
 * (late_work_ratio; rt-app with activations: the share missed) is within
 * always-big's + REPORT_RANK_MAX_LATE, and when none is, the least late. */
#define REPORT_RANK_MAX_LATE 0.01
unsigned report_best_policy(const struct sim_report *rep, unsigned first, unsigned n);
