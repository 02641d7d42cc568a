/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* blsim's command line: the options the verbs share, how they are read,
 * and how a verb says what went wrong (the exit statuses of blsim(1)). */

#include <stdbool.h>
#include <stdio.h>

#include "common/exit-status.h"
#include "core/diag.h"
#include "core/types.h"
#include "fakeboard/board.h"
#include "sim/report.h"

/* Exit statuses: common/exit-status.h, documented in blsim(1). */

struct options {
        const char *board;
        const char *workload;
        const char *config;
        const char *policy;
        const char *plot;
        const char *policies;           /* compare: the lines of the plot, "a,b,c"; NULL: the default */
        const char *trace;              /* run: where each decision goes (CSV); NULL: nowhere */
        bl_usec_t step_us;              /* 0: the trace's own, rt-app's default */
        bl_usec_t duration_us;          /* rt-app without a duration of its own; 0: default */
        bl_usec_t reactive_us;          /* the reactive oracle's interval; 0: sample_interval_ms */
        enum bl_mode mode;              /* AUTO: the configuration's, else cluster */
        const char *backend;            /* whose switch cost to simulate; NULL: the board's plain one */
        bool switch_cost_given;         /* --switch-cost: the plain figures below instead */
        double switch_latency_us, switch_energy_uj;
        bool oracle_start_free;         /* --oracle-start free; else the lowest level, where runs start */
        bool json;
        const char *testbed;            /* live: a link to the testbed, for other commands */
        enum fakeboard_residency residency;     /* live: how the board credits cpuidle residency */
        char **command;                 /* live: what switches the board */
};

/* Options every verb reads the same way (the verb's own enum starts after
 * these). */
enum { OPT_STEP_US = 0x100, OPT_DURATION, OPT_BACKEND, OPT_SWITCH_COST, OPT_ORACLE_START, OPT_VERB_FIRST };
/* Their long forms, for a verb's table of struct option (getopt.h);
 * --mode, --config and --json come apart, where each verb lists them. */
#define CLI_SHARED_LONG_OPTIONS                                                 \
        { "step-us", required_argument, NULL, OPT_STEP_US },                    \
        { "duration", required_argument, NULL, OPT_DURATION },                  \
        { "backend", required_argument, NULL, OPT_BACKEND },                    \
        { "switch-cost", required_argument, NULL, OPT_SWITCH_COST },            \
        { "oracle-start", required_argument, NULL, OPT_ORACLE_START }

void cli_usage(FILE *f);

/* What a verb's option parser does with an option it does not take: -h
 * ('c') prints the help and ends well, anything else prints it on stderr
 * and is a usage error. Returns the status to exit with. */
int cli_help_or_usage(int c);

/* Messages that name their place (FILE:LINE) are printed as they are. */
void cli_print_diag(const struct bl_diag *diag);

/* One option of those every verb shares (--mode, --config, --step-us,
 * --duration, --json, --backend, --switch-cost, --oracle-start). Returns -1
 * when it was one and is valid, 0 when it is not one of them, or EXIT_USAGE
 * after saying what is wrong. */
int cli_parse_shared_option(int c, const char *verb, struct options *o);

/* The options of run, compare ('compare') and live (argv[0] is the verb).
 * Returns -1 to go on, or the status to exit with. */
int cli_parse_options(int argc, char **argv, bool compare, struct options *o);

/* Says that 'what' failed with 'r' (a negative errno); the status to exit with. */
int cli_run_failed(const char *what, int r);

/* The report is out: 0, or EXIT_IOERR when stdout could not take it. */
int cli_finish_output(void);

/* Draws 'lines' of the report into o->plot with gnuplot. Returns 0 or the
 * status to exit with. */
int cli_plot(const struct options *o, const struct sim_report *rep, const struct sim_plot_line *lines,
             unsigned nlines);

/* Whether 's' ends in 'suffix', ignoring case. */
bool cli_has_suffix(const char *s, const char *suffix);
