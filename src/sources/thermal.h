/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Thermal zones found through libudev (subsystem "thermal"), read with
 * pread on kept descriptors. */

#include "core/config.h"

#define BL_THERMAL_MAX 32

struct thermal_zone {
        int fd;                         /* temp */
        char type[BL_NAME_MAX];
        char sysname[BL_NAME_MAX];      /* thermal_zoneN */
        int last_mc;
};

struct thermal_reader {
        unsigned n;
        struct thermal_zone zone[BL_THERMAL_MAX];
};

/* Opens the zones the config selects: with zones = auto, those whose type
 * names a CPU or the SoC (none is not an error: r->n == 0); otherwise
 * exactly the named types, or thermal_zoneN names (a missing named zone is
 * an error: -ENOENT, described in 'diag' with the types available). */
int thermal_open(struct thermal_reader *r, const struct bl_config *c, struct bl_diag *diag);
/* Hottest zone in m°C. Returns 0, -ENODATA when no zone is watched, or a
 * negative errno when every watched zone failed to read. */
int thermal_read(struct thermal_reader *r, int *max_mc);
void thermal_close(struct thermal_reader *r);
