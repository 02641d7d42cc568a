/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The levels the engine chooses between, ordered by capacity, for each way
 * of switching (DESIGN.md "Mode"). A backend turns the CPUs a level runs on
 * into kernel writes; the engine only ever picks an index.
 *
 *   cluster  one level per cluster: the whole system runs on one of them.
 *   mp       every CPU of the most efficient cluster, plus 0, 1, ... of the
 *            faster CPUs (fastest first): little, little+1big, ..., all;
 *            with a mid cluster its CPUs come after the big ones and the
 *            names count both: little+2big+1mid.
 *   pair     each big/LITTLE pair runs on one of its two CPUs, on its own:
 *            the ladder is the one every pair climbs (little, big) and
 *            'pairs' says which CPUs they are.
 *
 * How the engine tests a level: the rank-th largest per-CPU demand against
 * 'fit'. In cluster and pair mode rank is 0 and fit the level's capacity
 * (the busiest CPU must fit the cluster). In mp mode the level with j fast
 * CPUs has rank j and fit = the little capacity: it suffices while no more
 * than j CPUs need more than a little CPU gives. */

#include "core/topology.h"

#define BL_MAX_PAIRS 32

struct bl_level {
        char name[BL_NAME_MAX];
        bl_cpumask cpus;        /* the CPUs work runs on at this level (not used in pair mode) */
        unsigned capacity;      /* per-CPU capacity of its fastest CPUs at top frequency */
        unsigned rank;          /* which per-CPU demand the engine tests, 0 = the largest */
        unsigned fit;           /* the capacity that demand is tested against */
        /* CPUs that change on the way to the next level up (0 at the top):
         * asked every tick, and counting masks of BL_MAX_CPUS is not free */
        unsigned cpus_up;
};

struct bl_pair {
        unsigned little, big;
};

struct bl_ladder {
        enum bl_mode mode;
        unsigned nlevels;
        struct bl_level levels[BL_MAX_LEVELS];
        unsigned npairs;
        struct bl_pair pairs[BL_MAX_PAIRS];
        bl_cpumask unpaired;    /* pair mode: CPUs of neither half of any pair, kept off */
        char why[160];          /* how the mode was chosen */
};

/* The mode 'configured' (AUTO: pair when the kernel's own switcher is there,
 * else 'auto_mode') with the reason for people in 'why'. */
enum bl_mode ladder_pick_mode(enum bl_mode configured, enum bl_mode auto_mode, const struct bl_topology *t,
                              char *why, size_t size);

/* Builds the ladder of 'mode' (not AUTO) for a topology with at least two
 * clusters. Returns 0, or -EINVAL (fewer than two clusters, AUTO),
 * -EOPNOTSUPP (pair mode without exactly two clusters), -E2BIG (more levels
 * or pairs than the limits). 'why' (may be NULL) is copied into l->why. */
int ladder_build(struct bl_ladder *l, const struct bl_topology *t, enum bl_mode mode, const char *why);

/* The cluster-mode name of level 'index' of 'n' (little, mid, big, midN). */
void ladder_cluster_level_name(char *buf, size_t size, unsigned index, unsigned n);

/* The mp-mode name of a level below "all" with count[k] CPUs of each
 * faster cluster k (count[0] unused): "little+2big", "little+2big+1mid". */
void ladder_mp_level_name(char *buf, size_t size, unsigned nclusters, const unsigned *count);

/* Index of the level called 'name', or -ENOENT. */
int ladder_find(const struct bl_ladder *l, const char *name);

/* How many CPUs change state (join or leave the CPUs work runs on) when the
 * ladder moves from level 'from' to 'to': what a switch's cost scales with.
 * In pair mode a pair's move changes its two CPUs. */
unsigned ladder_cpus_changed(const struct bl_ladder *l, unsigned from, unsigned to);

/* All CPUs any level (or pair) may run work on. */
void ladder_all_cpus(const struct bl_ladder *l, bl_cpumask *cpus);
