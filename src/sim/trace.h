/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Trace workloads (DESIGN.md "Trace workload"): per step and lane, the work
 * (reference-µs) that arrives in that step. */

#include "core/diag.h"

/* Lanes map onto CPUs modulo the cluster's size, so more lanes than CPUs
 * are fine; the limit only keeps a broken header from asking for absurd
 * allocations. */
#define SIM_TRACE_MAX_LANES 1024
/* Per lane and step, in reference-µs. */
#define SIM_TRACE_WORK_MAX 1e12

struct sim_trace {
        bl_usec_t step_us;
        unsigned nlanes;
        size_t nsteps;
        float *work;            /* nsteps x nlanes, row-major */
};

/* Returns problems (>= 0; on > 0 't' holds nothing) or -ENOMEM. Every
 * problem goes to 'diag' as "FILE:LINE: ..." (the accepted syntax is
 * described in trace.c). */
int trace_parse(struct sim_trace *t, const char *filename, const char *text, size_t len, struct bl_diag *diag);
/* Reads and parses a file of any size. Returns problems (>= 0) or -errno
 * (described in diag). */
int trace_load(struct sim_trace *t, const char *path, struct bl_diag *diag);
void trace_free(struct sim_trace *t);

/* Appends one step of work (per lane) to a trace being recorded; '*room'
 * is the steps allocated so far (0 for a fresh trace, whose work is NULL).
 * Returns 0 or -ENOMEM (the trace is then as it was). */
int trace_append(struct sim_trace *t, size_t *room, const double *work);
