/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What no causal policy can do on a trace, in cluster mode on a two-cluster
 * board: the steps at which every schedule on LITTLE leaves more work late
 * than a bound allows (forced steps), the least energy of a schedule on big
 * at a set of steps, and the twin argument that joins them (bound.c states
 * it). */

#include <stdbool.h>
#include <stddef.h>

#include "core/board.h"
#include "sim/modes.h"
#include "sim/trace.h"

/* forced[s] = 1 for each step s in [from, to) at which every schedule of
 * 't' that runs step s on LITTLE (level 0 of 'lv') and switches only at
 * steps that are multiples of 'grid' (1: at any step) ends with a
 * late_work_ratio above 'max_late', else 0. A lower bound of the late work
 * proves it (bound.c), so a step left 0 may still be one. 'lv' must be
 * cluster mode with two levels. Returns 0, -EOPNOTSUPP (another mode or
 * level count), -EINVAL (no lane, no step, grid 0, from > to or
 * to > t->nsteps) or -ENOMEM. */
int bound_forced_steps(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                       double max_late, size_t grid, size_t from, size_t to, unsigned char *forced);

/* *energy_uj = a lower bound of the energy of every schedule of 't' that
 * starts on LITTLE, as every run does, runs each step s with on_big[s] set
 * on big (NULL: none) and ends with a late_work_ratio of at most
 * 'max_late': a dynamic programme over (step, level, stall) that prices a
 * step by its own work from no backlog, relaxed by a multiplier on the late
 * work (bound.c says why each part is below what a run pays). INFINITY when
 * no such schedule exists (step 0 on big). Returns 0, -EOPNOTSUPP, -EINVAL
 * as bound_forced_steps(), or -ENOMEM. */
int bound_energy(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                 const unsigned char *on_big, double max_late, double *energy_uj);

/* The twin argument on one trace. */
struct bound_twins_options {
        bl_usec_t interval_us;          /* the reactive oracle's sampling interval */
        double max_mismatch;            /* how far a removed block may differ from the period before it */
        unsigned max_twins;             /* per forced run */
        bool aligned;                   /* only schedules that switch at multiples of interval_us */
};

struct bound_twins_result {
        double max_late;                /* the trace's own T2 bound: max(0.01, reactive oracle + 0.005) */
        double reactive_late, reactive_eta;
        size_t steps;
        size_t forced;                  /* forced steps of the trace itself */
        unsigned runs;                  /* runs of them */
        unsigned runs_twinned;          /* runs before which a block could be removed */
        unsigned twins;                 /* twins built */
        size_t forced_by_twins;         /* steps on big by a twin, not forced on the trace itself */
        bool start_forced;              /* step 0 is forced: no run that starts on LITTLE meets T2 */
        double big_uj, oracle_uj;
        double free_uj;                 /* bound_energy() with no step on big */
        double bound_uj;                /* with the forced steps and those the twins add */
        double eta_free, eta_bound;     /* (big - bound) / (big - oracle); NAN where big = oracle */
};

/* Runs the argument of bound.c on 't', and with 'forced' (t->nsteps bytes)
 * gives the trace's own forced steps there, as bound_forced_steps() at
 * r->max_late. With o->aligned the claims hold for the policies that
 * switch only at multiples of o->interval_us from the start (as the
 * daemon's controller and the reactive oracle do), which must then be a
 * whole number of steps. Returns 0, -EINVAL (an interval that is not), or
 * an error of the functions above, of the oracle or of the reactive
 * oracle. */
int bound_twins(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                const struct bound_twins_options *o, struct bound_twins_result *r, unsigned char *forced);
