/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Board models (DESIGN.md "Simulator semantics"): clusters with their
 * operating points and power, and the cost of a cluster switch. */

#include "core/diag.h"
#include "core/topology.h"

#define SIM_MAX_OPPS 32
#define SIM_MAX_CPUS 64         /* per board: sum of the clusters' cpus */

struct sim_opp {
        unsigned mhz;
        unsigned capacity;      /* of one CPU at this OPP, board units */
        double core_mw;         /* one busy core */
        double idle_mw;         /* the cluster powered, all cores idle */
};

struct sim_cluster {
        char name[BL_NAME_MAX];         /* from [cluster.NAME] */
        char core[BL_NAME_MAX];         /* optional "core =" */
        unsigned cpus;
        unsigned order;                 /* 0 = most efficient */
        double off_mw;                  /* power-gated */
        unsigned nopps;
        struct sim_opp opp[SIM_MAX_OPPS];       /* ascending */
        unsigned first_cpu;             /* global CPU number of its first CPU */
};

struct sim_board {
        char name[64];
        unsigned reference_capacity;
        double switch_latency_us;
        double switch_energy_uj;
        unsigned nclusters;
        struct sim_cluster cluster[BL_MAX_CLUSTERS];    /* sorted by order */
        unsigned ncpus;
};

/* Parses a board file's text; every problem goes to 'diag' as
 * "FILE:LINE: key: expected ..., got \"...\"". Returns the number of
 * problems (0 = a valid board). */
unsigned board_parse(struct sim_board *b, const char *filename, const char *text, size_t len, struct bl_diag *diag);

/* Reads and parses a file. Returns problems (>= 0) or -errno (described in diag). */
int board_load(struct sim_board *b, const char *path, struct bl_diag *diag);

/* The topology the daemon would discover on this board: CPUs numbered
 * cluster by cluster in order, each with its top capacity. */
void board_topology(const struct sim_board *b, struct bl_topology *t);
