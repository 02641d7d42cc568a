/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The reactive oracle: the oracle's own levels, taken up and down only at
 * the sample after the oracle needed them, as a purely reactive policy
 * sampling every interval could at best. The definition is at the top of
 * reactive.c. */

#include "sim/modes.h"
#include "sim/run.h"
#include "sim/trace.h"

/* out[s] (nsteps of step_us) = the reactive oracle's level of step s, from
 * the oracle's levels 'oracle_seq' of 'lv', for decisions every interval_us.
 * Returns 0, or -EINVAL when step_us or interval_us is 0. */
int reactive_sequence(const struct sim_levels *lv, const unsigned char *oracle_seq, size_t nsteps,
                      bl_usec_t step_us, bl_usec_t interval_us, unsigned char *out);

/* Scores the reactive oracle of 'oracle_seq' (the oracle's levels of 'lv'
 * for trace 't', one per step) on 't' by sim_run_sequence(): energy,
 * late_work_ratio with backlog carried, switches and changes. r->time_in is
 * per level of 'lv'; r->policy is "reactive-oracle"; r->samples counts the
 * decisions. Returns 0, -EINVAL (interval_us 0, no oracle sequence for a
 * trace with steps, what sim_run_sequence() refuses) or -ENOMEM. */
int reactive_oracle_run(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                        const unsigned char *oracle_seq, bl_usec_t interval_us, struct sim_result *r);

/* out[s] (t->nsteps) = the oracle's levels 'oracle_seq' with each move up
 * put off to the first step whose arrivals show that the level it leaves is
 * not enough (definition in reactive.c). Returns 0, -EINVAL (a level out of
 * range) or -ENOMEM. */
int load_timed_sequence(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                        const unsigned char *oracle_seq, unsigned char *out);

/* The load-reactive oracle: the reactive oracle of load_timed_sequence(),
 * what a policy that can only react to load it has seen could at best do.
 * Scored and reported as reactive_oracle_run(), r->policy
 * "load-reactive-oracle". Returns 0, -EINVAL (as there, or a level out of
 * range) or -ENOMEM. */
int load_reactive_oracle_run(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                             const unsigned char *oracle_seq, bl_usec_t interval_us, struct sim_result *r);
