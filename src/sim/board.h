/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Board models (DESIGN.md "Simulator semantics"): clusters with their
 * operating points and power, and the cost of a cluster switch. */

#include "core/diag.h"
#include "core/topology.h"

#define SIM_MAX_OPPS 32
#define SIM_MAX_CPUS 64         /* per board: sum of the clusters' cpus */

/* The thermal model of blsim live where a board file leaves it out: a
 * cluster heats as one RC stage, steady at ambient + P x R, with time
 * constant R x C (9 s); nothing these boards run comes near the trips. */
#define SIM_DEFAULT_AMBIENT_C 25.0
#define SIM_DEFAULT_THERMAL_R_C_PER_W 3.0
#define SIM_DEFAULT_THERMAL_C_J_PER_C 3.0
#define SIM_DEFAULT_TRIP_PASSIVE_C 85.0
#define SIM_DEFAULT_TRIP_CRITICAL_C 105.0

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
        /* The cluster's thermal zone in blsim live ("NAME-thermal"). */
        double thermal_r_c_per_w;       /* °C above ambient per W, at steady state */
        double thermal_c_j_per_c;       /* heat capacity */
        double trip_passive_c, trip_critical_c;
};

struct sim_board {
        char name[64];
        unsigned reference_capacity;
        double switch_latency_us;
        double switch_energy_uj;
        double ambient_c;               /* where the thermal zones start, and cool towards */
        unsigned nclusters;
        struct sim_cluster cluster[BL_MAX_CLUSTERS];    /* sorted by order */
        unsigned ncpus;
};

/* Parses a board file's text; every problem goes to 'diag' as
 * "FILE:LINE: key: expected ..., got \"...\"". Returns the number of
 * problems (0 = a valid board). */
unsigned board_parse(struct sim_board *b, const char *filename, const char *text, size_t len,
                     struct bl_diag *diag);

/* Reads and parses a file. Returns problems (>= 0) or -errno (described in diag). */
int board_load(struct sim_board *b, const char *path, struct bl_diag *diag);

/* The topology the daemon would discover on this board: CPUs numbered
 * cluster by cluster in order, each with its top capacity. */
void board_topology(const struct sim_board *b, struct bl_topology *t);
