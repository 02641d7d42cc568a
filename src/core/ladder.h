/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The levels the engine chooses between, ordered by capacity. A backend turns
 * a level into kernel writes; the engine only ever picks an index. */

#include "core/topology.h"

struct bl_level {
        char name[BL_NAME_MAX];
        bl_cpuset cpus;         /* the CPUs work runs on at this level */
        unsigned capacity;      /* per-CPU capacity of its fastest CPUs at top frequency */
};

struct bl_ladder {
        enum bl_mode mode;
        unsigned nlevels;
        struct bl_level levels[BL_MAX_LEVELS];
};

/* Builds the ladder of 'mode' (AUTO picks one) for a topology with at least
 * two clusters. Returns 0, -EINVAL (fewer than two clusters) or -EOPNOTSUPP
 * (a mode this version cannot switch). */
int ladder_build(struct bl_ladder *l, const struct bl_topology *t, enum bl_mode mode);

/* Index of the level called 'name', or -ENOENT. */
int ladder_find(const struct bl_ladder *l, const char *name);
