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
        size_t infeasible_steps;        /* no cluster could clear them; see oracle.c */
        bl_usec_t time_in[BL_MAX_CLUSTERS];
        unsigned char *sequence;        /* cluster per step, when asked for */
};

int oracle_solve(const struct sim_board *b, const struct sim_trace *t, bool want_sequence, struct sim_oracle *o);
void oracle_free(struct sim_oracle *o);
