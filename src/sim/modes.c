/* SPDX-License-Identifier: GPL-2.0-or-later */
/* System levels of the three switching modes (exec.c runs a step on one).
 *
 * A system level is a set of active board CPUs, those that run work in a
 * step; the others are offline. CPUs are numbered cluster by cluster in board
 * order (the most efficient cluster's first). Each mode is a ladder of system
 * levels, level 0 the most efficient:
 *
 *   cluster  Level k = the CPUs of cluster k. Names as the daemon's ladder:
 *            little, big; little, mid, big; little, mid1, mid2, ..., big.
 *   pair     The in-kernel switcher: exactly two clusters. P = min(cpus of
 *            LITTLE, cpus of big) pairs, pair p = (the LITTLE cluster's p-th
 *            CPU, the big cluster's p-th CPU), each running on one of its two
 *            CPUs. Unpaired CPUs stay offline throughout (the switcher takes
 *            them down: TC2's 3 A7 and 2 A15 make 2 pairs, the third A7 off).
 *            The 2^P levels are the combinations: bit p of the level's index
 *            set = pair p on its big CPU, so level 0 is all LITTLE and level
 *            2^P - 1 all big. Names: one letter per pair, pair 0 first, L or B
 *            ("LLLL", "BLLL", "LBLL", "BBLL", ...). At most 6 pairs (64
 *            levels), the size of the oracle's state space.
 *   mp       All CPUs usable ("true eight-core"): level j = every CPU of the
 *            most efficient cluster plus the first j CPUs of the faster ones,
 *            taken fastest cluster first and by CPU number within a cluster,
 *            for j = 0 .. the number of faster CPUs. Names little,
 *            little+1big, little+2big, ..., and the last one all.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/ladder.h"
#include "sim/modes.h"

_Static_assert(SIM_MAX_LEVELS == 1U << SIM_MAX_PAIRS, "one level per combination of pairs");
_Static_assert(SIM_MAX_LEVELS <= 256 && SIM_MAX_CPUS <= 256, "levels and CPUs fit in a byte");
_Static_assert(SIM_MAX_CPUS <= 64, "active sets are 64-bit masks");

static void level_add_cpu(struct sim_levels *lv, struct sim_level *l, unsigned cpu)
{
        l->active |= UINT64_C(1) << cpu;
        l->clusters |= 1U << lv->cpu_cluster[cpu];
        l->slot_cpu[l->nslots++] = (unsigned char)cpu;
}

static void build_cluster(struct sim_levels *lv, const struct sim_board *b)
{
        lv->nlevels = b->nclusters;
        lv->switch_share = 1;
        for (unsigned k = 0; k < b->nclusters; k++) {
                struct sim_level *l = &lv->level[k];

                ladder_cluster_level_name(l->name, sizeof(l->name), k, b->nclusters);
                for (unsigned j = 0; j < b->cluster[k].cpus; j++)
                        level_add_cpu(lv, l, b->cluster[k].first_cpu + j);
        }
}

static int build_pair(struct sim_levels *lv, const struct sim_board *b, struct bl_diag *diag)
{
        const struct sim_cluster *little = &b->cluster[0], *big = &b->cluster[1];
        unsigned npairs;

        if (b->nclusters != 2) {
                diag_add(diag, "board %s: pair mode needs exactly two clusters (the in-kernel switcher pairs "
                         "one LITTLE CPU with one big CPU), this board has %u", b->name, b->nclusters);
                return b->nclusters < 2 ? -EINVAL : -EOPNOTSUPP;
        }
        npairs = little->cpus < big->cpus ? little->cpus : big->cpus;
        if (npairs > SIM_MAX_PAIRS) {
                diag_add(diag, "board %s: pair mode supports at most %u pairs (%u system levels for the "
                         "oracle), this board has %u", b->name, SIM_MAX_PAIRS, 1U << SIM_MAX_PAIRS, npairs);
                return -E2BIG;
        }
        lv->npairs = npairs;
        lv->nlevels = 1U << npairs;
        lv->switch_share = npairs;
        for (unsigned p = 0; p < npairs; p++) {
                lv->pair_cpu[p][0] = (unsigned char)(little->first_cpu + p);
                lv->pair_cpu[p][1] = (unsigned char)(big->first_cpu + p);
        }
        for (unsigned j = npairs; j < little->cpus; j++)
                lv->unpaired |= UINT64_C(1) << (little->first_cpu + j);
        for (unsigned j = npairs; j < big->cpus; j++)
                lv->unpaired |= UINT64_C(1) << (big->first_cpu + j);
        for (unsigned mask = 0; mask < lv->nlevels; mask++) {
                struct sim_level *l = &lv->level[mask];

                for (unsigned p = 0; p < npairs; p++) {
                        bool on_big = (mask >> p) & 1;

                        l->name[p] = on_big ? 'B' : 'L';
                        level_add_cpu(lv, l, lv->pair_cpu[p][on_big]);
                }
                l->name[npairs] = '\0';
        }
        return 0;
}

static int build_mp(struct sim_levels *lv, const struct sim_board *b, struct bl_diag *diag)
{
        unsigned faster[SIM_MAX_CPUS], nfaster = 0;

        if (b->nclusters < 2) {
                diag_add(diag, "board %s: mp mode needs at least two clusters, this board has %u", b->name,
                         b->nclusters);
                return -EINVAL;
        }
        for (unsigned k = b->nclusters; k-- > 1;)
                for (unsigned j = 0; j < b->cluster[k].cpus; j++)
                        faster[nfaster++] = b->cluster[k].first_cpu + j;
        lv->nlevels = nfaster + 1;
        lv->switch_share = b->cluster[b->nclusters - 1].cpus;
        for (unsigned level = 0; level <= nfaster; level++) {
                struct sim_level *l = &lv->level[level];

                if (level == 0)
                        snprintf(l->name, sizeof(l->name), "little");
                else if (level == nfaster)
                        snprintf(l->name, sizeof(l->name), "all");
                else
                        snprintf(l->name, sizeof(l->name), "little+%ubig", level);
                /* Fastest first, then the LITTLE cluster by CPU number. */
                for (unsigned j = 0; j < level; j++)
                        level_add_cpu(lv, l, faster[j]);
                for (unsigned j = 0; j < b->cluster[0].cpus; j++)
                        level_add_cpu(lv, l, b->cluster[0].first_cpu + j);
        }
        return 0;
}

int sim_levels_build(struct sim_levels *lv, const struct sim_board *b, enum bl_mode mode,
                     struct bl_diag *diag)
{
        *lv = (struct sim_levels){ .mode = mode };
        if (b->nclusters == 0 || b->nclusters > BL_MAX_CLUSTERS || b->ncpus > SIM_MAX_CPUS) {
                diag_add(diag, "board %s: no usable cluster", b->name);
                return -EINVAL;
        }
        for (unsigned k = 0; k < b->nclusters; k++)
                for (unsigned j = 0; j < b->cluster[k].cpus; j++)
                        lv->cpu_cluster[b->cluster[k].first_cpu + j] = (unsigned char)k;

        switch (mode) {
        case BL_MODE_CLUSTER:
                build_cluster(lv, b);
                return 0;
        case BL_MODE_PAIR:
                return build_pair(lv, b, diag);
        case BL_MODE_MP:
                return build_mp(lv, b, diag);
        case BL_MODE_AUTO:
        default:
                diag_add(diag, "the simulator needs a mode (cluster, pair or mp), not %s",
                         mode_to_string(mode));
                return -EINVAL;
        }
}

int sim_levels_find(const struct sim_levels *lv, const char *name)
{
        for (unsigned i = 0; i < lv->nlevels; i++)
                if (strcmp(lv->level[i].name, name) == 0)
                        return (int)i;
        return -ENOENT;
}

unsigned sim_levels_changes(const struct sim_levels *lv, unsigned from, unsigned to)
{
        if (from == SIM_LEVEL_NONE || from == to)
                return 0;
        switch (lv->mode) {
        case BL_MODE_PAIR:
                return (unsigned)__builtin_popcount(from ^ to);
        case BL_MODE_MP:
                return (unsigned)__builtin_popcountll(lv->level[from].active ^ lv->level[to].active);
        default:
                return 1;
        }
}

double sim_levels_switch_energy_nj(const struct sim_board *b, const struct sim_levels *lv, unsigned from,
                                   unsigned to)
{
        unsigned changes = sim_levels_changes(lv, from, to);

        /* Multiplied before dividing, so that a whole cluster's change
         * (changes == switch_share) is the board's figure exactly. */
        return changes ? b->switch_energy_uj * 1000 * changes / lv->switch_share : 0;
}
