/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Level names are part of the interface (D-Bus, switchctl, holds): cluster
 * mode calls its levels little, big; little, mid, big; or little, mid1,
 * mid2, ..., big. mp mode: little, little+1big, ..., all, naming each
 * faster cluster's CPUs in it with more clusters (little+2big+1mid). Pair
 * mode: each pair is at little or big. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/ladder.h"

_Static_assert(BL_MAX_CLUSTERS <= BL_MAX_LEVELS, "one level per cluster");

void ladder_cluster_level_name(char *buf, size_t size, unsigned index, unsigned n)
{
        if (index == 0)
                snprintf(buf, size, "little");
        else if (index == n - 1)
                snprintf(buf, size, "big");
        else if (n == 3)
                snprintf(buf, size, "mid");
        else
                snprintf(buf, size, "mid%u", index);
}

enum bl_mode ladder_pick_mode(enum bl_mode configured, enum bl_mode auto_mode, const struct bl_topology *t,
                              char *why, size_t size)
{
        if (configured != BL_MODE_AUTO) {
                snprintf(why, size, "mode = %s in the configuration", mode_to_string(configured));
                return configured;
        }
        if (t->switcher) {
                snprintf(why, size, "mode = auto: the kernel's big.LITTLE switcher is present, so pair");
                return BL_MODE_PAIR;
        }
        if (auto_mode != BL_MODE_MP)
                auto_mode = BL_MODE_CLUSTER;
        snprintf(why, size, "mode = auto: no in-kernel switcher, so auto_mode = %s",
                 mode_to_string(auto_mode));
        return auto_mode;
}

static void build_cluster(struct bl_ladder *l, const struct bl_topology *t)
{
        l->nlevels = t->nclusters;
        for (unsigned i = 0; i < t->nclusters; i++) {
                struct bl_level *lv = &l->levels[i];

                ladder_cluster_level_name(lv->name, sizeof(lv->name), i, t->nclusters);
                lv->cpus = t->clusters[i].cpus;
                lv->capacity = t->clusters[i].capacity;
                lv->fit = lv->capacity;
        }
}

void ladder_mp_level_name(char *buf, size_t size, unsigned nclusters, const unsigned *count)
{
        size_t len = (size_t)snprintf(buf, size, "little");

        for (unsigned k = nclusters; k-- > 1 && len < size;) {
                char cluster[BL_NAME_MAX];

                if (count[k] == 0)
                        continue;
                ladder_cluster_level_name(cluster, sizeof(cluster), k, nclusters);
                len += (size_t)snprintf(buf + len, size - len, "+%u%s", count[k], cluster);
        }
}

/* The faster CPUs join fastest cluster first, each cluster in CPU order:
 * a task that needs more than a little CPU gets the most there is. Not a
 * mid cluster first: in blsim's gs101 model (4+2+2) mp's best sequence on
 * that ladder used more energy on most traces (tests/bench/RESULTS.md,
 * "mp on three clusters"), the mid cluster's power counting as soon as one
 * of its CPUs is in. */
static int build_mp(struct bl_ladder *l, const struct bl_topology *t)
{
        const struct bl_cluster *little = &t->clusters[0];
        unsigned nfast = 0, count[BL_MAX_CLUSTERS] = { 0 };

        for (unsigned k = 1; k < t->nclusters; k++)
                nfast += cpumask_count(&t->clusters[k].cpus);
        if (nfast + 1 > BL_MAX_LEVELS)
                return -E2BIG;

        l->nlevels = nfast + 1;
        l->levels[0] = (struct bl_level){ .cpus = little->cpus, .capacity = little->capacity,
                                          .fit = little->capacity };
        snprintf(l->levels[0].name, sizeof(l->levels[0].name), "little");
        for (unsigned k = t->nclusters - 1, j = 1; k >= 1; k--) {
                const struct bl_cluster *c = &t->clusters[k];

                for (unsigned cpu = 0; cpu < BL_MAX_CPUS && j <= nfast; cpu++) {
                        struct bl_level *lv;

                        if (!cpumask_isset(&c->cpus, cpu))
                                continue;
                        lv = &l->levels[j];
                        lv->cpus = l->levels[j - 1].cpus;
                        cpumask_set(&lv->cpus, cpu);
                        lv->capacity = t->clusters[t->nclusters - 1].capacity;
                        lv->rank = j;
                        lv->fit = little->capacity;
                        count[k]++;
                        if (j == nfast)
                                snprintf(lv->name, sizeof(lv->name), "all");
                        else
                                ladder_mp_level_name(lv->name, sizeof(lv->name), t->nclusters, count);
                        j++;
                }
        }
        return 0;
}

/* The in-kernel switcher pairs the n-th LITTLE CPU with the n-th big one;
 * CPUs left over have no partner and stay off, as the switcher leaves them. */
static int build_pair(struct bl_ladder *l, const struct bl_topology *t)
{
        const struct bl_cluster *little = &t->clusters[0], *big = &t->clusters[1];
        unsigned li = 0, bi = 0;

        if (t->nclusters != 2)
                return -EOPNOTSUPP;
        for (;;) {
                while (li < BL_MAX_CPUS && !cpumask_isset(&little->cpus, li))
                        li++;
                while (bi < BL_MAX_CPUS && !cpumask_isset(&big->cpus, bi))
                        bi++;
                if (li == BL_MAX_CPUS || bi == BL_MAX_CPUS)
                        break;
                if (l->npairs == BL_MAX_PAIRS)
                        return -E2BIG;
                l->pairs[l->npairs++] = (struct bl_pair){ .little = li, .big = bi };
                li++;
                bi++;
        }
        for (; li < BL_MAX_CPUS; li++)
                if (cpumask_isset(&little->cpus, li))
                        cpumask_set(&l->unpaired, li);
        for (; bi < BL_MAX_CPUS; bi++)
                if (cpumask_isset(&big->cpus, bi))
                        cpumask_set(&l->unpaired, bi);

        l->nlevels = 2;
        l->levels[0] = (struct bl_level){ .name = "little", .capacity = little->capacity,
                                          .fit = little->capacity };
        l->levels[1] = (struct bl_level){ .name = "big", .capacity = big->capacity, .fit = big->capacity };
        return 0;
}

int ladder_build(struct bl_ladder *l, const struct bl_topology *t, enum bl_mode mode, const char *why)
{
        int r;

        *l = (struct bl_ladder){ .mode = mode };
        if (why)
                snprintf(l->why, sizeof(l->why), "%s", why);
        if (t->nclusters < 2 || t->nclusters > BL_MAX_CLUSTERS)
                return -EINVAL;

        switch (mode) {
        case BL_MODE_CLUSTER:
                build_cluster(l, t);
                r = 0;
                break;
        case BL_MODE_MP:
                r = build_mp(l, t);
                break;
        case BL_MODE_PAIR:
                r = build_pair(l, t);
                break;
        default:
                return -EINVAL;
        }
        if (r < 0)
                l->nlevels = 0;
        for (unsigned i = 0; i + 1 < l->nlevels; i++)
                l->levels[i].cpus_up = ladder_cpus_changed(l, i, i + 1);
        return r;
}

int ladder_find(const struct bl_ladder *l, const char *name)
{
        for (unsigned i = 0; i < l->nlevels; i++)
                if (strcmp(l->levels[i].name, name) == 0)
                        return (int)i;
        return -ENOENT;
}

void ladder_all_cpus(const struct bl_ladder *l, bl_cpumask *cpus)
{
        cpumask_zero(cpus);
        if (l->mode == BL_MODE_PAIR) {
                for (unsigned p = 0; p < l->npairs; p++) {
                        cpumask_set(cpus, l->pairs[p].little);
                        cpumask_set(cpus, l->pairs[p].big);
                }
                return;
        }
        for (unsigned i = 0; i < l->nlevels; i++)
                cpumask_or(cpus, &l->levels[i].cpus);
}

unsigned ladder_cpus_changed(const struct bl_ladder *l, unsigned from, unsigned to)
{
        bl_cpumask joined, left;

        if (from == to || from >= l->nlevels || to >= l->nlevels)
                return 0;
        if (l->mode == BL_MODE_PAIR)
                return 2;
        joined = l->levels[to].cpus;
        cpumask_andnot(&joined, &l->levels[from].cpus);
        left = l->levels[from].cpus;
        cpumask_andnot(&left, &l->levels[to].cpus);
        return cpumask_count(&joined) + cpumask_count(&left);
}
