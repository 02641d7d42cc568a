/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The simulator's switching modes (DESIGN.md "Concepts": Mode) as ladders of
 * system levels: which board CPUs run work at each level, and in which order
 * lanes are dealt to them. The definitions are at the top of modes.c. */

#include <stdint.h>

#include "core/board.h"
#include "core/diag.h"
#include "core/types.h"

#define SIM_MAX_LEVELS 64
#define SIM_MAX_PAIRS 6         /* 2^6 system levels: the oracle's state space */

/* "No previous level": the run's first step, which pays no switch. */
#define SIM_LEVEL_NONE UINT32_MAX

struct sim_level {
        char name[BL_NAME_MAX];
        uint64_t active;                        /* board CPUs (global numbers) that run work */
        unsigned clusters;                      /* bit k: board cluster k has an active CPU */
        unsigned nslots;                        /* active CPUs */
        unsigned char slot_cpu[SIM_MAX_CPUS];   /* the active CPUs in the order lanes are dealt */
};

struct sim_levels {
        enum bl_mode mode;
        unsigned nlevels;
        struct sim_level level[SIM_MAX_LEVELS];         /* level 0 = the most efficient */
        unsigned char cpu_cluster[SIM_MAX_CPUS];        /* board cluster of each CPU */
        /* Pair mode: pair p = (pair_cpu[p][0] LITTLE, pair_cpu[p][1] big),
         * global CPU numbers; 'unpaired' are the CPUs offline throughout. */
        unsigned npairs;
        unsigned char pair_cpu[SIM_MAX_PAIRS][2];
        uint64_t unpaired;
        /* The board's switch_energy_uj is for 'switch_share' changes at once
         * (see sim_levels_changes()): 1 in cluster mode, the pairs in pair
         * mode, the fastest cluster's CPUs in mp mode. */
        unsigned switch_share;
};

/* Builds the system levels of 'mode' (CLUSTER, PAIR or MP) for board 'b'.
 * Returns 0 or, with the reason in 'diag': -EINVAL (no cluster; pair or mp
 * mode on fewer than two clusters; mode AUTO, which the caller resolves),
 * -EOPNOTSUPP (pair mode on more than two clusters), -E2BIG (more than
 * SIM_MAX_PAIRS pairs). */
int sim_levels_build(struct sim_levels *lv, const struct sim_board *b, enum bl_mode mode,
                     struct bl_diag *diag);

/* Index of the level called 'name', or -ENOENT. */
int sim_levels_find(const struct sim_levels *lv, const char *name);

/* What a change from level 'from' to 'to' switches: 1 (cluster mode, when
 * they differ), the pairs that change core (pair), the CPUs added or removed
 * (mp); 0 for 'from' == 'to' or SIM_LEVEL_NONE. */
unsigned sim_levels_changes(const struct sim_levels *lv, unsigned from, unsigned to);

/* The switch energy of that change, nJ: switch_energy_uj x 1000 x changes /
 * switch_share. */
double sim_levels_switch_energy_nj(const struct sim_board *b, const struct sim_levels *lv, unsigned from,
                                   unsigned to);
