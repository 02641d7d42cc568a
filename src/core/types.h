/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Basic types shared by every layer. The core does no I/O: time is always
 * passed in, in microseconds of CLOCK_MONOTONIC (or virtual time in blsim). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t bl_usec_t;

#define BL_USEC_PER_MSEC 1000ULL
#define BL_USEC_PER_SEC 1000000ULL

#define BL_MAX_CPUS 1024
#define BL_MAX_CLUSTERS 8
#define BL_MAX_LEVELS 64
#define BL_NAME_MAX 32
#define BL_REASON_MAX 192

/* Capacity of the fastest CPU at its top frequency, as the kernel scales
 * cpu_capacity. */
#define BL_CAPACITY_SCALE 1024U

enum bl_mode {
        BL_MODE_AUTO,
        BL_MODE_CLUSTER,
        BL_MODE_PAIR,
        BL_MODE_MP,
};

const char *mode_to_string(enum bl_mode mode);
