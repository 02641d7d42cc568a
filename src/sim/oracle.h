/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The offline optimum: the minimum energy over all cluster sequences with
 * full knowledge of the trace, zero backlog at every step's end, the same
 * DVFS rule and switch costs (a dynamic programme over (step, cluster)). */

/* Where the oracle starts. ORACLE_START_FREE: its first step is free on any
 * level, the optimum in the abstract. A level (0, the lowest, is where every
 * run and the daemon start): the oracle is on it before step 0, and a first
 * step anywhere else pays the switch from it, stall and energy, like any
 * other switch. A policy pays that switch to go up; an oracle starting free
 * does not, which at hotplug's costs makes it start on big and never switch,
 * a start no causal policy has. */
#define ORACLE_START_FREE SIM_LEVEL_NONE

#include "core/board.h"
#include "sim/modes.h"
#include "sim/trace.h"

struct sim_oracle {
        double energy_uj;
        unsigned long switches;         /* a first step that leaves the start counts */
        unsigned start;                 /* ORACLE_START_FREE or the level it started on */
        size_t infeasible_steps;        /* steps of the sequence whose leftover was dropped: 0
                                         * when every step could be cleared (see oracle.c) */
        bl_usec_t time_in[SIM_MAX_LEVELS];      /* per cluster (per class when blsim reports a mode) */
        unsigned char *sequence;        /* cluster per step, when asked for */
};

/* Returns 0, -EINVAL (no cluster or no lane) or -ENOMEM. Needs one byte per
 * step and cluster while it runs; 'sequence' (one byte per step, cluster
 * indices) is kept when asked for and freed by oracle_free(). */
int oracle_solve(const struct sim_board *b, const struct sim_trace *t, bool want_sequence, struct sim_oracle *o);
/* The same from cluster 'start' (or ORACLE_START_FREE, as oracle_solve()); -EINVAL for no
 * such cluster. */
int oracle_solve_from(const struct sim_board *b, const struct sim_trace *t, unsigned start, bool want_sequence,
                      struct sim_oracle *o);
void oracle_free(struct sim_oracle *o);

/* The same optimum over sequences of system levels of any mode (a dynamic
 * programme over (step, level); definition and ties as oracle_solve(), see
 * oracle.c), scored by exec_level_step(). */
struct sim_level_oracle {
        double energy_uj;
        unsigned long switches;         /* steps whose level differs from the previous step's (or
                                         * from the start) */
        unsigned start;                 /* ORACLE_START_FREE or the level it started on */
        unsigned long changes;          /* sum of sim_levels_changes(): pair switches in pair mode,
                                         * CPUs added or removed in mp mode, = switches in cluster mode */
        size_t infeasible_steps;        /* as in struct sim_oracle */
        bl_usec_t time_in[SIM_MAX_LEVELS];
        unsigned char *sequence;        /* level per step, when asked for */
};

/* Returns 0, -EINVAL (no level, no lane, more than SIM_EXEC_MAX_LANES lanes)
 * or -ENOMEM. Needs one byte per step and level while it runs; 'sequence'
 * (one byte per step) is kept when asked for and freed by
 * oracle_level_free(). Cluster-mode levels give oracle_solve()'s optimum
 * (energies equal to rounding; oracle_solve() stays the reference there). */
int oracle_solve_levels(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                        bool want_sequence, struct sim_level_oracle *o);
/* The same from level 'start' of 'lv' (or ORACLE_START_FREE, as
 * oracle_solve_levels()); -EINVAL for no such level. */
int oracle_solve_levels_from(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                             unsigned start, bool want_sequence, struct sim_level_oracle *o);
void oracle_level_free(struct sim_level_oracle *o);
