/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The execution rules of DESIGN.md "Execution, cluster mode", steps 2-5,
 * for one step. Pure arithmetic shared by policy runs, fixed runs and the
 * oracle, so that all of them are scored by the same rules. */

#include "sim/board.h"

struct sim_step {
        unsigned opp;                   /* chosen by the in-cluster DVFS rule */
        double avail_us;                /* A: step minus switch stall */
        double busy_us[SIM_MAX_CPUS];   /* per CPU of the active cluster (index within it) */
        double energy_nj;               /* including the switch energy when switched */
        double backlog;                 /* total backlog left at the step's end, reference-µs */
};

/* Runs one step of 'step_us' on 'cluster'. 'backlog' (per lane) is the work
 * left from earlier steps and is updated in place; 'new_work' arrives now.
 * 'switched' charges the switch latency and energy. */
void exec_step(const struct sim_board *b, unsigned cluster, bool switched, double step_us, unsigned nlanes,
               double *backlog, const double *new_work, struct sim_step *out);

/* The in-cluster DVFS rule: the lowest OPP whose capacity is at least
 * 1.25 x reference_capacity x max_pending / avail_us, else the top one; with
 * no time available (avail_us <= 0) the top one, work or not. */
unsigned exec_pick_opp(const struct sim_cluster *c, unsigned reference_capacity, double max_pending,
                       double avail_us);
