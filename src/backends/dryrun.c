/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "backends/backend.h"

/* Decides and logs like the others, changes nothing: for watching what the
 * daemon would do on a real machine. */
struct bl_backend {
        char nothing;   /* dryrun keeps no state, but C wants a member */
};

static int dryrun_open(struct bl_backend **ret, const struct bl_topology *t, const struct bl_ladder *l,
                       const struct bl_config *cfg, struct bl_diag *diag)
{
        struct bl_backend *b = calloc(1, sizeof(*b));

        if (!b)
                return -ENOMEM;
        *ret = b;
        return 0;
}

static int dryrun_apply(struct bl_backend *b, const bl_cpumask *cpus, char *detail, size_t size)
{
        char list[256];

        cpumask_format(cpus, list, sizeof(list));
        snprintf(detail, size, "dry run: would run on %s", list);
        return 0;
}

static int dryrun_restore(struct bl_backend *b, char *detail, size_t size)
{
        snprintf(detail, size, "dry run: nothing was changed");
        return 0;
}

static void dryrun_free(struct bl_backend *b)
{
        free(b);
}

const struct bl_backend_ops backend_dryrun = {
        .name = "dryrun",
        /* Changes nothing, so costs nothing: decisions stay those made
         * without a cost, as before the daemon measured one. */
        .prior = { 0 },
        .open = dryrun_open,
        .apply = dryrun_apply,
        .restore = dryrun_restore,
        .free = dryrun_free,
};
