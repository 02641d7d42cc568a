/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* rt-app workloads (DESIGN.md "rt-app workloads"): the tasks of an rt-app
 * file simulated as events, each thread instance a lane whose progress
 * depends on how fast the chosen cluster runs it. The semantics, the
 * coupling with the step engine and every approximation are described at
 * the top of rtapp.c. */

#include "core/diag.h"
#include "sim/rtapp-compile.h"
#include "sim/workload.h"

#define RTAPP_DEFAULT_STEP_US 100ULL
/* Cut-off of a file without "duration" whose tasks may loop forever. */
#define RTAPP_DEFAULT_DURATION_US (10ULL * BL_USEC_PER_SEC)
/* RTAPP_MAX_LANES, RTAPP_MAX_EVENTS and RTAPP_MAX_UNTIMED_US: sim/rtapp-compile.h. */

/* Builds a workload from the text of an rt-app file. 'step_us' 0 means
 * RTAPP_DEFAULT_STEP_US, 'default_duration_us' 0 means
 * RTAPP_DEFAULT_DURATION_US. Problems go to 'diag' as "FILE:LINE:COL: ..."
 * (syntax) or "FILE:LINE: ..." (model) and return -EINVAL; -ENOMEM when
 * memory runs out. The workload is ready to run (reset() is not needed
 * before the first run) and is released with workload_free(). */
int rtapp_workload_parse(struct sim_workload **ret, const char *filename, const char *text, size_t len,
                         bl_usec_t step_us, bl_usec_t default_duration_us, struct bl_diag *diag);

/* The same from a file; read errors are described in 'diag' too. */
int rtapp_workload_load(struct sim_workload **ret, const char *path, bl_usec_t step_us,
                        bl_usec_t default_duration_us, struct bl_diag *diag);

/* Work in the file is in reference-µs; converting a CPU's capacity into a
 * rate needs the board's reference_capacity (default BL_CAPACITY_SCALE). */
void rtapp_workload_set_reference_capacity(struct sim_workload *w, unsigned reference_capacity);

/* When the run stops at the latest: "duration", or the default cut-off. */
bl_usec_t rtapp_workload_end_us(const struct sim_workload *w);

#define RTAPP_MAX_APPROXIMATIONS 8

/* What the simulation of this file approximates, one sentence each: the
 * rules that always apply, then one per kind of event the file uses that is
 * not simulated exactly. Returns how many were stored in 'out'. */
unsigned rtapp_workload_approximations(const struct sim_workload *w, const char **out, unsigned max);

/* The task a lane belongs to and its instance number (forked lanes count
 * from 0 in the order of their fork events). */
const char *rtapp_workload_lane_task(const struct sim_workload *w, unsigned lane, unsigned *instance);
