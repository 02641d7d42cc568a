/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Runs a workload on a board in virtual time: with the daemon's own engine
 * and heuristics choosing the cluster, or with the cluster fixed. */

#include "core/config.h"
#include "core/ladder.h"
#include "sim/board.h"
#include "sim/workload.h"

struct sim_result {
        char policy[BL_NAME_MAX];
        size_t steps;
        double energy_uj;
        double total_work;              /* reference-µs that arrived */
        double late_work_ratio;         /* sum of end-of-step backlog / total work */
        unsigned long switches;
        bl_usec_t time_in[BL_MAX_CLUSTERS];     /* per cluster (= level in cluster mode) */
        struct sim_qos qos;
};

/* One point per engine decision, for plots. */
struct sim_timeline_point {
        bl_usec_t t;
        double demand;                  /* what the heuristics said */
        unsigned level;
        double energy_uj;               /* cumulative */
};

struct sim_timeline {
        size_t n, size;
        struct sim_timeline_point *p;
};

/* The topology and cluster-mode ladder of a board, as the engine sees them.
 * Level i is board cluster i; -EINVAL when the board's "order" does not
 * follow capacity (or what ladder_build() returns). */
int sim_board_ladder(const struct sim_board *b, struct bl_topology *topo, struct bl_ladder *l);

/* Engine-driven run. 'cfg' supplies the heuristics and the engine's
 * parameters exactly as the daemon reads them (the mode is always cluster).
 * The workload is reset first, so one workload serves several runs.
 * r->policy is left empty for the caller to name. With 'tl', one point per
 * decision; free it with sim_timeline_free() whatever the result.
 * Returns 0 or a negative errno (-EINVAL: a board or workload it cannot run,
 * or what the heuristics' init or the workload said). */
int sim_run_policy(const struct sim_board *b, struct sim_workload *w, const struct bl_config *cfg,
                   struct sim_result *r, struct sim_timeline *tl);

/* The same rules with the cluster fixed for the whole run (always-big,
 * always-little). When 'record' is not NULL it receives the work that arrived
 * in each step (an rt-app run becomes a trace the oracle can solve; free it
 * with trace_free()); on failure it holds nothing. r->policy is left empty. */
int sim_run_fixed(const struct sim_board *b, struct sim_workload *w, unsigned cluster, struct sim_result *r,
                  struct sim_trace *record);

void sim_timeline_free(struct sim_timeline *tl);
