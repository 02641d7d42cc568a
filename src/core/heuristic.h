/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* A heuristic turns samples into a demand estimate in capacity units. This
 * interface is what the plugin ABI will expose: a descriptor with its
 * parameters (validated by the config parser from the descriptor alone),
 * private state of a declared size, and pure callbacks. */

#include "core/sample.h"

#define BL_HEURISTIC_ABI 1
#define BL_HEURISTIC_MAX_PARAMS 8

struct bl_heuristic_param {
        const char *key;
        const char *unit;       /* shown in errors and docs, e.g. "ms" */
        double def, min, max;
        bool integer;
};

struct bl_heuristic_ops {
        unsigned abi;                   /* BL_HEURISTIC_ABI */
        const char *name;
        const char *summary;
        const struct bl_heuristic_param *params;
        unsigned nparams;
        size_t state_size;
        /* 'params' holds one value per descriptor entry, already in range. */
        int (*init)(void *state, const double *params);
        /* Demand in capacity units for the sample ending at 'now'. */
        double (*score)(void *state, const struct bl_sample *s, bl_usec_t now);
        void (*reset)(void *state);
};

/* NULL-terminated lookup in a table of descriptors. */
const struct bl_heuristic_ops *heuristic_find(const struct bl_heuristic_ops *const *table, const char *name);
