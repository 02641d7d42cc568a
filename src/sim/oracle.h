/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The offline optimum: the minimum energy over all cluster sequences with
 * full knowledge of the trace, zero backlog at every step's end, the same
 * DVFS rule and switch costs (a dynamic programme over (step, cluster)). */

#include "sim/board.h"
#include "sim/trace.h"

struct sim_oracle {
        double energy_uj;
        unsigned long switches;
        size_t infeasible_steps;        /* steps of the sequence whose leftover was dropped: 0
                                         * when every step could be cleared (see oracle.c) */
        bl_usec_t time_in[BL_MAX_CLUSTERS];
        unsigned char *sequence;        /* cluster per step, when asked for */
};

/* Returns 0, -EINVAL (no cluster or no lane) or -ENOMEM. Needs one byte per
 * step and cluster while it runs; 'sequence' (one byte per step, cluster
 * indices) is kept when asked for and freed by oracle_free(). */
int oracle_solve(const struct sim_board *b, const struct sim_trace *t, bool want_sequence, struct sim_oracle *o);
void oracle_free(struct sim_oracle *o);
