/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Following the desktop: the active profile of power-profiles-daemon and
 * UPower's OnBattery, each mapped by a [profile.NAME] section of the
 * configuration to one adjustment of the automatic choice. Pure: the edge
 * (daemon/desktop.c) watches the services and says what they said; what is
 * unknown (a service that does not run) adjusts nothing, so without either
 * service every decision is what it would be without this model.
 *
 * How the adjustments meet the rest: thermal limits and holds placed by
 * people come first (a hold of the top level from a profile is no hold of
 * a person: any hold in force wins over it, as over a cap or a bias). When
 * the profile and the battery disagree, the power-saving side wins: the
 * lowest cap and the largest bias apply, and a hold of the top level only
 * while neither caps nor biases toward LITTLE. */

#include "core/diag.h"
#include "core/ladder.h"

/* The profile power-profiles-daemon reports. */
enum bl_ppd_profile {
        BL_PPD_UNKNOWN,         /* no service, or a profile this daemon does not know */
        BL_PPD_POWER_SAVER,
        BL_PPD_BALANCED,
        BL_PPD_PERFORMANCE,
};

enum bl_battery {
        BL_BATTERY_UNKNOWN,     /* no UPower */
        BL_BATTERY_NO,
        BL_BATTERY_YES,
};

/* The [profile.NAME] sections, in the order the configuration keeps them. */
enum bl_profile_section {
        BL_PROFILE_POWER_SAVER,
        BL_PROFILE_BALANCED,
        BL_PROFILE_PERFORMANCE,
        BL_PROFILE_BATTERY,
        BL_PROFILE_NSECTIONS,
};

enum bl_profile_action {
        BL_PROFILE_NOTHING,
        BL_PROFILE_BIAS,        /* both thresholds raised (toward LITTLE) or lowered by bias_pct points */
        BL_PROFILE_CAP,         /* the highest level automatic choices may take */
        BL_PROFILE_HOLD_TOP,    /* the top level, as a hold would */
};

#define BL_PROFILE_FILE_MAX 256
#define BL_PROFILE_BIAS_MAX 50
/* The longest source name the edge may pass ("net.hadess.PowerProfiles"). */
#define BL_PROFILE_SOURCE_MAX 48
#define BL_PROFILE_WHO_MAX (BL_REASON_MAX / 4)

/* One section's adjustment, as configured. */
struct bl_profile_conf {
        enum bl_profile_action action;
        int bias_pct;
        char cap[BL_NAME_MAX];          /* a level's name */
        /* Where the action was set (line 0: the built-in default), so that
         * a cap naming no level of the ladder is reported there. */
        unsigned line;
        char file[BL_PROFILE_FILE_MAX];
};

/* What the services said. */
struct bl_desktop {
        enum bl_ppd_profile profile;
        char profile_source[BL_PROFILE_SOURCE_MAX];     /* who said it, for people */
        enum bl_battery battery;
};

/* The adjustment in force. */
struct bl_profile_effect {
        int bias_pct;                   /* added to both thresholds */
        int cap;                        /* highest level, -1: none */
        bool hold_top;
        char who[BL_PROFILE_WHO_MAX];   /* what decides, for reasons: "profile power-saver" */
        /* For status: "power-saver (power-profiles-daemon) → cap little";
         * "" when neither service said anything. */
        char what[BL_REASON_MAX];
};

/* The shipped defaults of the sections. */
void profile_conf_init(struct bl_profile_conf conf[BL_PROFILE_NSECTIONS]);

/* The section's name after "profile." ("power-saver", "battery"), and back
 * (-1 when unknown). */
const char *profile_section_name(enum bl_profile_section s);
int profile_section_from_name(const char *name);

/* power-profiles-daemon's name of a profile ("" for unknown), and back
 * (BL_PPD_UNKNOWN for names it does not know). */
const char *ppd_profile_to_string(enum bl_ppd_profile p);
enum bl_ppd_profile ppd_profile_from_string(const char *name);

/* Caps naming no level of 'l' are problems ("file:line: [profile.NAME]:
 * cap: expected a level (little, big), got \"x\""); such a cap adjusts
 * nothing. Returns the number of problems added. */
unsigned profile_check(const struct bl_profile_conf conf[BL_PROFILE_NSECTIONS], const struct bl_ladder *l,
                       struct bl_diag *diag);

/* The adjustment for what the services said. */
void profile_effect(const struct bl_profile_conf conf[BL_PROFILE_NSECTIONS], const struct bl_ladder *l,
                    const struct bl_desktop *in, struct bl_profile_effect *out);

/* Whether two effects would decide alike (the texts aside). */
bool profile_effect_same(const struct bl_profile_effect *a, const struct bl_profile_effect *b);
