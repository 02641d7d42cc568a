/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <string.h>

#include "core/thermal-limits.h"

static const char *const trip_names[] = {
        [BL_TRIP_OTHER] = "other",
        [BL_TRIP_ACTIVE] = "active",
        [BL_TRIP_PASSIVE] = "passive",
        [BL_TRIP_HOT] = "hot",
        [BL_TRIP_CRITICAL] = "critical",
};

enum bl_trip_type trip_type_from_string(const char *s)
{
        for (unsigned t = BL_TRIP_ACTIVE; t <= BL_TRIP_CRITICAL; t++)
                if (strcmp(s, trip_names[t]) == 0)
                        return (enum bl_trip_type)t;
        return BL_TRIP_OTHER;
}

const char *trip_type_to_string(enum bl_trip_type t)
{
        return t <= BL_TRIP_CRITICAL ? trip_names[t] : "other";
}

const char *limit_source_to_string(enum bl_limit_source s)
{
        switch (s) {
        case BL_LIMIT_CONFIGURED:
                return "configured";
        case BL_LIMIT_TRIP:
                return "trip";
        case BL_LIMIT_BUILTIN:
                break;
        }
        return "built-in";
}

/* 80000 -> "80.0", -1500 -> "-1.5"; whole tenths, as people read sensors. */
static void celsius_format(int mc, char *buf, size_t size)
{
        long tenths = mc >= 0 ? ((long)mc + 50) / 100 : -((-(long)mc + 50) / 100);
        long whole = tenths / 10, frac = tenths % 10;

        snprintf(buf, size, "%s%ld.%ld", tenths < 0 ? "-" : "", whole < 0 ? -whole : whole,
                 frac < 0 ? -frac : frac);
}

/* Margins are whole degrees in every rule, so they print as such. */
static void margin_format(int mc, char *buf, size_t size)
{
        if (mc % 1000 == 0)
                snprintf(buf, size, "%d", mc / 1000);
        else
                celsius_format(mc, buf, size);
}

struct found {
        const struct bl_trip_zone *zone;
        const struct bl_trip *trip;
};

/* The lowest enabled trip of one of the two types among all zones (the
 * first zone wins a tie, as it comes first in sysfs). */
static struct found lowest_trip(const struct bl_trip_zone *zones, unsigned nzones, enum bl_trip_type a,
                                enum bl_trip_type b)
{
        struct found f = { 0 };

        for (unsigned z = 0; z < nzones; z++)
                for (unsigned i = 0; i < zones[z].ntrips; i++) {
                        const struct bl_trip *t = &zones[z].trips[i];

                        if ((t->type != a && t->type != b) || t->temp_mc <= 0 ||
                            t->temp_mc > BL_TEMP_PLAUSIBLE_MAX_MC)
                                continue;
                        if (!f.trip || t->temp_mc < f.trip->temp_mc) {
                                f.zone = &zones[z];
                                f.trip = t;
                        }
                }
        return f;
}

static void from_trip(struct bl_limit *l, struct found f, int margin_mc)
{
        char temp[16], margin[16];

        celsius_format(f.trip->temp_mc, temp, sizeof(temp));
        margin_format(margin_mc, margin, sizeof(margin));
        l->mc = f.trip->temp_mc - margin_mc;
        l->source = BL_LIMIT_TRIP;
        snprintf(l->origin, sizeof(l->origin), "%s %s %s trip %s °C − %s", f.zone->sysname, f.zone->type,
                 trip_type_to_string(f.trip->type), temp, margin);
}

static void from_config(struct bl_limit *l, int mc, const char *key)
{
        l->mc = mc;
        l->source = BL_LIMIT_CONFIGURED;
        snprintf(l->origin, sizeof(l->origin), "%s", key);
}

static void builtin(struct bl_limit *l, int mc)
{
        l->mc = mc;
        l->source = BL_LIMIT_BUILTIN;
        snprintf(l->origin, sizeof(l->origin), "built-in");
}

static void describe(const char *name, const struct bl_limit *l, char *buf, size_t size)
{
        char temp[16];

        celsius_format(l->mc, temp, sizeof(temp));
        snprintf(buf, size, "%s %s °C (%s)", name, temp, l->origin);
}

/* Moves 'l' (not a number from the configuration) to 'mc' to keep the
 * order with 'other', and says so. */
static void clamp(struct bl_limit *l, const char *name, int mc, const char *relation,
                  const struct bl_limit *other, const char *other_name, struct bl_diag *diag)
{
        char was[BL_LIMIT_ORIGIN_MAX + 48], against[BL_LIMIT_ORIGIN_MAX + 48], temp[16];
        const char *verb = mc < l->mc ? "lowered" : "raised";

        describe(name, l, was, sizeof(was));
        describe(other_name, other, against, sizeof(against));
        celsius_format(mc, temp, sizeof(temp));
        if (diag)
                diag_add(diag, "thermal: %s is not %s %s: %s %s to %s °C to keep release < cap < critical",
                         was, relation, against, name, verb, temp);
        l->mc = mc;
        l->clamped = true;
        /* the origin keeps where the value came from, the log says why it moved */
        snprintf(l->origin + strlen(l->origin), sizeof(l->origin) - strlen(l->origin), ", %s to %s °C", verb,
                 temp);
}

static unsigned keep_order(struct bl_thermal_limits *l, struct bl_diag *diag)
{
        bool cap_fixed = l->cap.source == BL_LIMIT_CONFIGURED;
        bool release_fixed = l->release.source == BL_LIMIT_CONFIGURED && !l->release.derived;
        bool critical_fixed = l->critical.source == BL_LIMIT_CONFIGURED;
        unsigned moves = 0;

        if (l->cap.mc >= l->critical.mc) {
                if (!cap_fixed)
                        clamp(&l->cap, "cap", l->critical.mc - BL_TRIP_MARGIN_MC, "below", &l->critical,
                              "critical", diag);
                else
                        clamp(&l->critical, "critical", l->cap.mc + BL_TRIP_MARGIN_MC, "above", &l->cap,
                              "cap", diag);
                moves++;
        }
        if (l->release.mc >= l->cap.mc) {
                if (!release_fixed)
                        clamp(&l->release, "release", l->cap.mc - BL_TRIP_MARGIN_MC, "below", &l->cap, "cap",
                              diag);
                else if (!critical_fixed || l->release.mc + BL_TRIP_MARGIN_MC < l->critical.mc)
                        clamp(&l->cap, "cap", l->release.mc + BL_TRIP_MARGIN_MC, "above", &l->release,
                              "release", diag);
                else
                        /* both ends are numbers (config_validate() keeps them
                         * apart): cap goes between them */
                        clamp(&l->cap, "cap", l->release.mc + (l->critical.mc - l->release.mc) / 2, "above",
                              &l->release, "release", diag);
                moves++;
        }
        if (l->cap.mc >= l->critical.mc && !critical_fixed) {
                clamp(&l->critical, "critical", l->cap.mc + BL_TRIP_MARGIN_MC, "above", &l->cap, "cap", diag);
                moves++;
        }
        return moves;
}

unsigned thermal_limits_resolve(const struct bl_config *c, const struct bl_trip_zone *zones, unsigned nzones,
                                struct bl_thermal_limits *out, struct bl_diag *diag)
{
        struct found cap_trip = { 0 }, f;
        int hyst_mc;

        *out = (struct bl_thermal_limits){ 0 };

        if (!c->cap_temp_auto)
                from_config(&out->cap, c->cap_temp_mc, "cap_temp_c");
        else if ((cap_trip = lowest_trip(zones, nzones, BL_TRIP_PASSIVE, BL_TRIP_PASSIVE)).trip)
                from_trip(&out->cap, cap_trip, BL_TRIP_MARGIN_MC);
        else if ((cap_trip = lowest_trip(zones, nzones, BL_TRIP_HOT, BL_TRIP_HOT)).trip)
                from_trip(&out->cap, cap_trip, BL_TRIP_HOT_MARGIN_MC);
        else
                builtin(&out->cap, BL_CAP_TEMP_DEFAULT_MC);

        if (!c->critical_temp_auto)
                from_config(&out->critical, c->critical_temp_mc, "critical_temp_c");
        else if ((f = lowest_trip(zones, nzones, BL_TRIP_HOT, BL_TRIP_CRITICAL)).trip)
                from_trip(&out->critical, f, BL_TRIP_MARGIN_MC);
        else
                builtin(&out->critical, BL_CRITICAL_TEMP_DEFAULT_MC);

        if (!c->release_temp_auto)
                from_config(&out->release, c->release_temp_mc, "release_temp_c");
        else if (out->cap.source == BL_LIMIT_BUILTIN)
                builtin(&out->release, BL_RELEASE_TEMP_DEFAULT_MC);
        else {
                char cap[16], margin[16];

                hyst_mc = cap_trip.trip && cap_trip.trip->hyst_mc > BL_TRIP_MARGIN_MC ? cap_trip.trip->hyst_mc
                                                                                       : BL_TRIP_MARGIN_MC;
                out->release.mc = out->cap.mc - hyst_mc;
                out->release.source = out->cap.source;
                out->release.derived = true;
                celsius_format(out->cap.mc, cap, sizeof(cap));
                margin_format(hyst_mc, margin, sizeof(margin));
                snprintf(out->release.origin, sizeof(out->release.origin), "cap %s °C − %s%s", cap,
                         hyst_mc > BL_TRIP_MARGIN_MC ? "hysteresis " : "", margin);
        }
        return keep_order(out, diag);
}

void thermal_limits_apply(struct bl_config *c, const struct bl_thermal_limits *l)
{
        c->cap_temp_mc = l->cap.mc;
        c->release_temp_mc = l->release.mc;
        c->critical_temp_mc = l->critical.mc;
}

void thermal_limits_format(const struct bl_thermal_limits *l, char *buf, size_t size)
{
        char cap[BL_LIMIT_ORIGIN_MAX + 48], critical[BL_LIMIT_ORIGIN_MAX + 48];
        char release[BL_LIMIT_ORIGIN_MAX + 48];

        describe("cap", &l->cap, cap, sizeof(cap));
        describe("critical", &l->critical, critical, sizeof(critical));
        if (!l->release.derived || l->release.clamped)
                describe("release", &l->release, release, sizeof(release));
        else {
                char temp[16];

                celsius_format(l->release.mc, temp, sizeof(temp));
                snprintf(release, sizeof(release), "release %s °C", temp);
        }
        snprintf(buf, size, "%s, %s, %s", cap, release, critical);
}

static bool limit_equal(const struct bl_limit *a, const struct bl_limit *b)
{
        return a->mc == b->mc && a->source == b->source && a->clamped == b->clamped &&
               a->derived == b->derived && strcmp(a->origin, b->origin) == 0;
}

bool thermal_limits_equal(const struct bl_thermal_limits *a, const struct bl_thermal_limits *b)
{
        return limit_equal(&a->cap, &b->cap) && limit_equal(&a->release, &b->release) &&
               limit_equal(&a->critical, &b->critical);
}
