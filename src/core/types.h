/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Basic types shared by every layer. The core does no I/O: time is always
 * passed in, in microseconds of CLOCK_MONOTONIC (or virtual time in blsim). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* bl_usec_t, the microsecond constants, BL_MAX_CPUS, BL_MAX_CLUSTERS and
 * BL_CAPACITY_SCALE (the fastest CPU at its top frequency, as the kernel
 * scales cpu_capacity): defined once, where heuristics built out of the tree
 * see them too. */
#include "policy/bl-policy.h"

#define BL_MAX_LEVELS 64
#define BL_NAME_MAX 32
#define BL_REASON_MAX 192

enum bl_mode {
        BL_MODE_AUTO,
        BL_MODE_CLUSTER,
        BL_MODE_PAIR,
        BL_MODE_MP,
};

const char *mode_to_string(enum bl_mode mode);
