/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Level names are part of the interface (D-Bus, switchctl, config holds):
 * cluster mode calls its levels little, big; little, mid, big; or little,
 * mid1, mid2, ..., big. Only cluster mode is switched by this version. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/ladder.h"

_Static_assert(BL_MAX_CLUSTERS <= BL_MAX_LEVELS, "one level per cluster");

static void cluster_level_name(char *buf, size_t size, unsigned index, unsigned n)
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

int ladder_build(struct bl_ladder *l, const struct bl_topology *t, enum bl_mode mode)
{
        *l = (struct bl_ladder){ .mode = mode };

        if (mode == BL_MODE_AUTO)
                mode = BL_MODE_CLUSTER;
        if (mode != BL_MODE_CLUSTER)
                return -EOPNOTSUPP;
        if (t->nclusters < 2 || t->nclusters > BL_MAX_CLUSTERS)
                return -EINVAL;

        l->mode = mode;
        l->nlevels = t->nclusters;
        for (unsigned i = 0; i < t->nclusters; i++) {
                struct bl_level *lv = &l->levels[i];

                cluster_level_name(lv->name, sizeof(lv->name), i, t->nclusters);
                lv->cpus = t->clusters[i].cpus;
                lv->capacity = t->clusters[i].capacity;
        }
        return 0;
}

int ladder_find(const struct bl_ladder *l, const char *name)
{
        for (unsigned i = 0; i < l->nlevels; i++)
                if (strcmp(l->levels[i].name, name) == 0)
                        return (int)i;
        return -ENOENT;
}
