/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Board models (DESIGN.md "Simulator semantics"): clusters with their
 * operating points and power, and the cost of a cluster switch. blsim plays
 * a board; the daemon reads one as the machine's energy model (the sim_
 * names are from when blsim was its only reader). Parsing only: the file is
 * read at the edge (loaders/board-file.h). */

#include <stdint.h>

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

/* What a switch costs with one backend (a [backend.NAME] section): a fixed
 * part and a part per CPU whose state changes, for the stall and for the
 * energy, which CPUs stall, and what they draw while they do. */
enum sim_backend {
        SIM_BACKEND_SWITCHER,
        SIM_BACKEND_CPUFREQ,
        SIM_BACKEND_CPUSET,
        SIM_BACKEND_HOTPLUG,
        SIM_NBACKENDS,
};

struct sim_switch_model {
        double latency_us;
        double latency_per_cpu_us;
        double energy_uj;
        double energy_per_cpu_uj;
        bool stall_all;         /* stalls = all: every active CPU stops, not only those switched */
        bool stall_busy;        /* powered = busy: a stalled CPU draws its busy power, not idle */
};

struct sim_board {
        char name[64];
        unsigned reference_capacity;
        /* The switch cost in effect (the execution rules read these): the
         * plain switch_latency_us / switch_energy_uj of [board], or a
         * backend's figures after board_select_backend(), or an override. */
        double switch_latency_us;
        double switch_energy_uj;
        double switch_latency_per_cpu_us;
        double switch_energy_per_cpu_uj;
        bool stall_all;
        bool stall_busy;
        char switch_source[32];         /* "board", "backend NAME" or "override" */
        struct sim_switch_model backend[SIM_NBACKENDS];
        bool has_backend[SIM_NBACKENDS];
        double ambient_c;               /* where the thermal zones start, and cool towards */
        unsigned nclusters;
        struct sim_cluster cluster[BL_MAX_CLUSTERS];    /* sorted by order */
        unsigned ncpus;
};

/* The kernel's Energy Model, one performance domain of CPUs as debugfs
 * shows it (loaders/energy-model-dir.h reads them). */
#define EM_MAX_DOMAINS (BL_MAX_CLUSTERS * 2)

struct em_domain {
        uint64_t cpus;                  /* bit N: CPU N */
        unsigned nps;
        unsigned khz[SIM_MAX_OPPS];     /* ascending */
        uint64_t uw[SIM_MAX_OPPS];      /* one busy CPU at that state */
};

struct em_domains {
        unsigned n;
        struct em_domain d[EM_MAX_DOMAINS];
};

/* What a board made from an energy model says where the kernel gives
 * nothing, as blsim board import writes it: a powered idle cluster draws
 * half a busy core's power at the OPP, a power-gated one 1 % of a busy
 * core's at the top OPP. */
#define BOARD_DEFAULT_IDLE_SHARE 0.5
#define BOARD_DEFAULT_OFF_SHARE 0.01

/* Parses a board file's text; every problem goes to 'diag' as
 * "FILE:LINE: key: expected ..., got \"...\"". Returns the number of
 * problems (0 = a valid board). */
unsigned board_parse(struct sim_board *b, const char *filename, const char *text, size_t len,
                     struct bl_diag *diag);

/* "switcher", "cpufreq", "cpuset", "hotplug"; NULL out of range. */
const char *board_backend_name(enum sim_backend backend);

/* The backend called 'name', or -ENOENT. */
int board_backend_find(const char *name);

/* Puts the figures of backend 'backend' in effect. Returns 0, or -ENODATA
 * when the board has no [backend.NAME] section for it. */
int board_select_backend(struct sim_board *b, enum sim_backend backend);

/* Puts a plain cost in effect: 'latency_us' and 'energy_uj' per switch, no
 * per-CPU part (which CPUs stall and what they draw stay as they were). */
void board_override_switch(struct sim_board *b, double latency_us, double energy_uj);

/* Whether the cost in effect is the plain one the single-step execution
 * rules and the fast oracles price: no per-CPU part, the switched CPUs only,
 * idle while stalled, and a stall no longer than 'step_us'. */
bool board_switch_plain(const struct sim_board *b, double step_us);

/* The stall of a switch that changes 'ncpus' CPUs. */
double board_switch_latency_us(const struct sim_board *b, unsigned ncpus);

/* The topology the daemon would discover on this board: CPUs numbered
 * cluster by cluster in order, each with its top capacity. */
void board_topology(const struct sim_board *b, struct bl_topology *t);

/* Whether board 'b' (read from 'where') describes the machine of topology
 * 't': as many clusters, each with as many CPUs, in the same order, and,
 * where 't' has the kernel's own capacities, each cluster's top capacity
 * within 5 % of the kernel's (a board written by hand rounds differently;
 * a board of another SoC is off by far more). Returns 0, or -EINVAL with
 * every difference in 'diag' naming 'where'. */
int board_check_topology(const struct sim_board *b, const struct bl_topology *t, const char *where,
                         struct bl_diag *diag);

/* A board from the kernel's Energy Model 'em' (read from 'where') for the
 * machine of topology 't': a cluster per cluster of 't', its operating
 * points those of the performance domain of its CPUs, capacity = the
 * cluster's capacity x kHz / top kHz rounded down (the energy model's
 * performance), power the model's, idle and gated power the defaults
 * above. Returns 0, or -ENODATA (a cluster without a domain, or one whose
 * CPUs span domains) / -E2BIG (CPUs beyond 63, which debugfs lists but a
 * domain here cannot hold) with the reason in 'diag' naming 'where'. */
int board_from_em(struct sim_board *b, const struct em_domains *em, const struct bl_topology *t,
                  const char *where, struct bl_diag *diag);
