/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The three thermal limits (cap, release, critical) from the configuration
 * and, for the keys set to auto, from the trip points of the watched zones.
 * Pure: the sources read the trips, this only decides.
 *
 * Rule for a key set to auto (a number in the configuration always wins):
 *   cap      = lowest passive trip - 5 °C; without one, lowest hot trip
 *              - 10 °C; without one, the built-in 85 °C.
 *   critical = lowest hot or critical trip - 5 °C; else the built-in 95 °C.
 *   release  = cap - max(5 °C, the hysteresis of the trip cap came from);
 *              cap - 5 °C when cap is a number; 80 °C when cap is built in.
 * Trips at or below 0 °C are disabled ones (x86_pkg_temp shows two passive
 * trips at 0 for userspace to set) and count as absent, as do trips above
 * BL_TEMP_PLAUSIBLE_MAX_MC (a driver's "no trip", 2147483647).
 * Then release < cap < critical is enforced by moving only values that are
 * not numbers from the configuration, downwards where that keeps the order
 * (cap below critical, release below cap), each move said in 'diag'. */

#include "core/config.h"
#include "core/diag.h"

#define BL_TRIPS_MAX 16
/* The temperatures a CPU or SoC zone can really report, in m°C (the unit of
 * the kernel's temp and trip_point_N_temp files). Below: -40 °C is where
 * the industrial and automotive grades' operating range starts; nothing
 * colder runs. Above: silicon's critical trips sit at about 105-125 °C and
 * the kernel powers off there, automotive parts are rated to 150 °C at the
 * junction. A reading outside (2147483647 from a driver with no value,
 * -273150, a thermistor come loose) is a broken sensor, not a temperature:
 * believed, it would force the critical state for the whole run. */
#define BL_TEMP_PLAUSIBLE_MIN_MC (-40000)
#define BL_TEMP_PLAUSIBLE_MAX_MC 150000
#define BL_LIMIT_ORIGIN_MAX 160
/* How far below a trip the daemon acts, so work moves to the small cores
 * before the kernel throttles; and the least distance between two limits. */
#define BL_TRIP_MARGIN_MC 5000
#define BL_TRIP_HOT_MARGIN_MC 10000

enum bl_trip_type {
        BL_TRIP_OTHER,          /* a type this daemon does not use ("active", vendor ones) */
        BL_TRIP_ACTIVE,
        BL_TRIP_PASSIVE,
        BL_TRIP_HOT,
        BL_TRIP_CRITICAL,
};

struct bl_trip {
        unsigned index;         /* N of trip_point_N */
        enum bl_trip_type type;
        int temp_mc;
        int hyst_mc;            /* 0 when the zone gives none */
};

/* One watched zone's trips; the strings and the array belong to the caller. */
struct bl_trip_zone {
        const char *sysname;    /* thermal_zoneN */
        const char *type;       /* cpu-thermal */
        const struct bl_trip *trips;
        unsigned ntrips;
};

enum bl_limit_source {
        BL_LIMIT_BUILTIN,
        BL_LIMIT_CONFIGURED,
        BL_LIMIT_TRIP,
};

struct bl_limit {
        int mc;
        enum bl_limit_source source;
        bool clamped;                           /* moved to keep release < cap < critical */
        bool derived;                           /* release worked out from cap */
        /* For people: "thermal_zone0 cpu-thermal passive trip 80.0 °C − 5",
         * "cap_temp_c", "built-in", "cap 75.0 °C − 5". */
        char origin[BL_LIMIT_ORIGIN_MAX];
};

struct bl_thermal_limits {
        struct bl_limit cap, release, critical;
};

/* "passive" -> BL_TRIP_PASSIVE; anything unknown is BL_TRIP_OTHER. */
enum bl_trip_type trip_type_from_string(const char *s);
const char *trip_type_to_string(enum bl_trip_type t);
/* "built-in", "configured", "trip". */
const char *limit_source_to_string(enum bl_limit_source s);

/* Resolves the limits by the rule above. Returns the number of moves made
 * to keep the order (each described in 'diag', naming zones and trips,
 * unless 'diag' is NULL). */
unsigned thermal_limits_resolve(const struct bl_config *c, const struct bl_trip_zone *zones, unsigned nzones,
                                struct bl_thermal_limits *out, struct bl_diag *diag);

/* Puts the resolved values where the engine reads them (cap_temp_mc, ...);
 * the *_auto flags stay, so the limits can be resolved again. */
void thermal_limits_apply(struct bl_config *c, const struct bl_thermal_limits *l);

/* "cap 75.0 °C (thermal_zone0 cpu-thermal passive trip 80.0 °C − 5), release
 * 70.0 °C, critical 90.0 °C (thermal_zone0 cpu-thermal critical trip 95.0 °C
 * − 5)": origins of release only when it is configured or clamped. */
void thermal_limits_format(const struct bl_thermal_limits *l, char *buf, size_t size);

bool thermal_limits_equal(const struct bl_thermal_limits *a, const struct bl_thermal_limits *b);
