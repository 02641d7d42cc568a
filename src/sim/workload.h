/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What the simulator replays: a trace, or rt-app tasks whose progress
 * depends on how fast the chosen cluster runs them. */

#include "core/types.h"
#include "sim/trace.h"

struct sim_qos {
        bool has_activations;
        unsigned long activations;      /* timer periods that ended */
        unsigned long misses;           /* of which with negative slack */
        double min_slack_us;
        double mean_slack_us;
};

struct sim_workload {
        const char *name;
        unsigned nlanes;
        bl_usec_t step_us;
        void *data;
        /* Work (reference-µs) arriving in lanes during step 'step' starting at
         * 't'. 'lane_capacity' is the top capacity of the CPU each lane runs on
         * now (rt-app "runtime" events need it). Returns 0, or 1 when the
         * workload has ended before this step. */
        int (*begin_step)(struct sim_workload *w, size_t step, bl_usec_t t, const double *lane_capacity,
                          double *new_work);
        /* The backlog each lane has left at the step's end 't_end'. */
        void (*end_step)(struct sim_workload *w, size_t step, bl_usec_t t_end, const double *backlog);
        /* Back to the start, to replay for another policy. */
        int (*reset)(struct sim_workload *w);
        void (*qos)(const struct sim_workload *w, struct sim_qos *q);
        void (*free)(struct sim_workload *w);
};

/* A trace as a workload; 't' must outlive it. */
int workload_from_trace(struct sim_workload **ret, const char *name, const struct sim_trace *t);
void workload_free(struct sim_workload *w);

/* 'inner' ending after its first 'nsteps' steps, for the references of a
 * run that was cut short. The new workload owns 'inner' (frees it) from the
 * call on, even when it fails (-ENOMEM). */
int workload_truncate(struct sim_workload **ret, struct sim_workload *inner, size_t nsteps);
