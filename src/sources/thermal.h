/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Thermal zones found through libudev (subsystem "thermal"), read with
 * pread on kept descriptors. */

#include "core/config.h"
#include "core/thermal-limits.h"

#define BL_THERMAL_MAX 32

struct thermal_zone {
        int fd;                         /* temp */
        char type[BL_NAME_MAX];
        char sysname[BL_NAME_MAX];      /* thermal_zoneN */
        int last_mc;
        int error;                      /* the last read's -errno, 0 when it read well */
        /* The zone's trip points as read when it was opened. */
        unsigned ntrips;
        struct bl_trip trip[BL_TRIPS_MAX];
};

struct thermal_reader {
        unsigned n;
        struct thermal_zone zone[BL_THERMAL_MAX];
};

/* Opens the zones the config selects: with zones = auto, those whose type
 * names a CPU or the SoC (none is not an error: r->n == 0); otherwise
 * exactly the named types, or thermal_zoneN names (a missing named zone is
 * an error: -ENOENT, described in 'diag' with the types available). Reads
 * each zone's trip_point_N_{type,temp,hyst}: a trip whose type or temp
 * cannot be read or parsed is left out with a debug line, never the zone;
 * a missing or unparsable hyst counts as 0, and so does one that would
 * release the trip below BL_TEMP_PLAUSIBLE_MIN_MC. */
int thermal_open(struct thermal_reader *r, const struct bl_config *c, struct bl_diag *diag);
/* The watched zones' trips, for thermal_limits_resolve(): 'zones' has room
 * for BL_THERMAL_MAX and points into 'r'. Returns the number of zones. */
unsigned thermal_trip_zones(const struct thermal_reader *r, struct bl_trip_zone *zones);
/* Hottest zone in m°C. A zone that does not read, or reads a temperature
 * outside BL_TEMP_PLAUSIBLE_MIN_MC..MAX_MC (its error is then -EDOM), is
 * left out of this read. Returns 0, -ENODATA when no zone is watched, or a
 * negative errno when every watched zone failed to read. */
int thermal_read(struct thermal_reader *r, int *max_mc);
void thermal_close(struct thermal_reader *r);
