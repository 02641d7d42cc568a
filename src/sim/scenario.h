/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What every verb of blsim runs on, a scenario: the board, the mode, the
 * workload and the references the verb reports against (always-little,
 * always-big, the oracle and the reactive oracle), and the policies'
 * configurations. Each function says what went wrong on stderr and returns
 * the status to exit with (0: go on). */

#include "core/config.h"
#include "sim/cli.h"
#include "sim/datadir.h"
#include "sim/oracle.h"
#include "sim/report.h"
#include "sim/run.h"

struct scenario {
        struct sim_board board;
        struct sim_mode mode;
        bool rtapp;
        struct sim_trace trace;         /* the CSV, or the always-little arrivals of an rt-app run */
        struct sim_workload *workload;
        struct sim_oracle oracle;       /* with its sequence, for the reactive oracle */
        struct sim_result reactive;
        struct sim_result load_reactive;
        struct sim_report report;
};

/* The boards and workloads directories, found once (sim/datadir.h). */
const struct sim_datadir *scenario_datadir(void);

/* Loads the board (with the switch cost the options ask for), builds
 * 'mode' on it, loads the workload and runs the references. */
int scenario_open(struct scenario **ret, const struct options *o, enum bl_mode mode);
void scenario_free(struct scenario *sc);

/* An interrupted run is scored against references of the same length: the
 * workload and the trace the oracle solves are cut after 'steps' and the
 * references run again. */
int scenario_truncate(struct scenario *sc, const struct options *o, size_t steps);

/* The reactive oracle at 'interval_us' (0: the configuration's sampling
 * interval), into the report. */
int scenario_run_reactive(struct scenario *sc, const struct bl_config *cfg, bl_usec_t interval_us);

/* The configuration of each preset, the --config file 'config' on top of
 * the last; free '*ret'. */
int scenario_load_policies(const char *const *presets, unsigned n, const char *config,
                           struct bl_config **ret);

/* The engine with 'cfg' on the scenario, into 'res' called 'name'. */
int scenario_run_policy(struct scenario *sc, const struct bl_config *cfg, const char *name,
                        struct sim_result *res, struct sim_timeline *tl);

/* --mode, else the configuration's. */
enum bl_mode scenario_mode(const struct options *o, const struct bl_config *cfg);
