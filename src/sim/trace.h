/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Trace workloads (DESIGN.md "Trace workload"): per step and lane, the work
 * (reference-µs) that arrives in that step. */

#include "core/diag.h"

struct sim_trace {
        bl_usec_t step_us;
        unsigned nlanes;
        size_t nsteps;
        float *work;            /* nsteps x nlanes, row-major */
};

/* Returns problems (>= 0; on > 0 't' holds nothing) or -ENOMEM. */
int trace_parse(struct sim_trace *t, const char *filename, const char *text, size_t len, struct bl_diag *diag);
int trace_load(struct sim_trace *t, const char *path, struct bl_diag *diag);
void trace_free(struct sim_trace *t);
