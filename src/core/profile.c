/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <string.h>

#include "core/profile.h"

static const char *const section_names[BL_PROFILE_NSECTIONS] = {
        [BL_PROFILE_POWER_SAVER] = "power-saver",
        [BL_PROFILE_BALANCED] = "balanced",
        [BL_PROFILE_PERFORMANCE] = "performance",
        [BL_PROFILE_BATTERY] = "battery",
};

void profile_conf_init(struct bl_profile_conf conf[BL_PROFILE_NSECTIONS])
{
        memset(conf, 0, BL_PROFILE_NSECTIONS * sizeof(conf[0]));
        /* Whoever picks power-saver asks for battery life over speed; level
         * 0 is "little" on every ladder, so the cap fits every machine. */
        conf[BL_PROFILE_POWER_SAVER].action = BL_PROFILE_CAP;
        snprintf(conf[BL_PROFILE_POWER_SAVER].cap, sizeof(conf[0].cap), "little");
        /* On battery nobody chose anything: lean toward LITTLE, no more. */
        conf[BL_PROFILE_BATTERY].action = BL_PROFILE_BIAS;
        conf[BL_PROFILE_BATTERY].bias_pct = 10;
}

const char *profile_section_name(enum bl_profile_section s)
{
        return (unsigned)s < BL_PROFILE_NSECTIONS ? section_names[s] : "?";
}

int profile_section_from_name(const char *name)
{
        for (unsigned i = 0; i < BL_PROFILE_NSECTIONS; i++)
                if (strcmp(section_names[i], name) == 0)
                        return (int)i;
        return -1;
}

const char *ppd_profile_to_string(enum bl_ppd_profile p)
{
        switch (p) {
        case BL_PPD_POWER_SAVER:
                return "power-saver";
        case BL_PPD_BALANCED:
                return "balanced";
        case BL_PPD_PERFORMANCE:
                return "performance";
        case BL_PPD_UNKNOWN:
                break;
        }
        return "";
}

enum bl_ppd_profile ppd_profile_from_string(const char *name)
{
        for (enum bl_ppd_profile p = BL_PPD_POWER_SAVER; p <= BL_PPD_PERFORMANCE; p++)
                if (name && strcmp(name, ppd_profile_to_string(p)) == 0)
                        return p;
        return BL_PPD_UNKNOWN;
}

unsigned profile_check(const struct bl_profile_conf conf[BL_PROFILE_NSECTIONS], const struct bl_ladder *l,
                       struct bl_diag *diag)
{
        unsigned problems = 0;
        char names[160];
        size_t used = 0;

        names[0] = '\0';
        for (unsigned i = 0; i < l->nlevels && used < sizeof(names); i++)
                used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
                                         l->levels[i].name);
        for (unsigned s = 0; s < BL_PROFILE_NSECTIONS; s++) {
                const struct bl_profile_conf *p = &conf[s];

                if (p->action != BL_PROFILE_CAP || ladder_find(l, p->cap) >= 0)
                        continue;
                if (p->line)
                        diag_at(diag, p->file, p->line, "[profile.%s]: cap: expected a level (%s), got \"%s\"",
                                section_names[s], names, p->cap);
                else
                        diag_add(diag, "defaults: [profile.%s]: cap: expected a level (%s), got \"%s\"",
                                 section_names[s], names, p->cap);
                problems++;
        }
        return problems;
}

/* The section's adjustment as it applies on 'l' (a cap naming no level
 * adjusts nothing). */
static enum bl_profile_action action_on(const struct bl_profile_conf *p, const struct bl_ladder *l, int *cap)
{
        *cap = -1;
        if (p->action == BL_PROFILE_CAP) {
                *cap = ladder_find(l, p->cap);
                return *cap >= 0 ? BL_PROFILE_CAP : BL_PROFILE_NOTHING;
        }
        if (p->action == BL_PROFILE_BIAS && p->bias_pct == 0)
                return BL_PROFILE_NOTHING;
        return p->action;
}

static void describe(char *buf, size_t size, const struct bl_profile_conf *p, enum bl_profile_action a,
                     const struct bl_ladder *l, int cap, bool overruled)
{
        switch (a) {
        case BL_PROFILE_NOTHING:
                snprintf(buf, size, "no change");
                return;
        case BL_PROFILE_BIAS:
                snprintf(buf, size, "bias %+d%% toward %s", p->bias_pct, p->bias_pct > 0 ? "LITTLE" : "big");
                return;
        case BL_PROFILE_CAP:
                snprintf(buf, size, "cap %s", l->levels[cap].name);
                return;
        case BL_PROFILE_HOLD_TOP:
                snprintf(buf, size, "hold %s%s", l->nlevels ? l->levels[l->nlevels - 1].name : "top",
                         overruled ? " (overruled: power saving wins)" : "");
                return;
        }
}

/* One source's part: its adjustment folded into 'out', and said. */
struct part {
        const struct bl_profile_conf *conf;
        enum bl_profile_action action;
        int cap;
        const char *name;               /* "power-saver", "on battery" */
        const char *source;             /* "power-profiles-daemon", "UPower" */
};

void profile_effect(const struct bl_profile_conf conf[BL_PROFILE_NSECTIONS], const struct bl_ladder *l,
                    const struct bl_desktop *in, struct bl_profile_effect *out)
{
        struct part parts[2];
        unsigned n = 0;
        bool saving = false, hold = false;
        size_t used = 0;

        *out = (struct bl_profile_effect){ .cap = -1 };
        if (in->profile != BL_PPD_UNKNOWN) {
                enum bl_profile_section s = in->profile == BL_PPD_POWER_SAVER   ? BL_PROFILE_POWER_SAVER
                                            : in->profile == BL_PPD_PERFORMANCE ? BL_PROFILE_PERFORMANCE
                                                                                : BL_PROFILE_BALANCED;

                parts[n++] = (struct part){ .conf = &conf[s], .name = ppd_profile_to_string(in->profile),
                                            .source = in->profile_source[0] ? in->profile_source
                                                                            : "power-profiles-daemon" };
        }
        if (in->battery == BL_BATTERY_YES)
                parts[n++] = (struct part){ .conf = &conf[BL_PROFILE_BATTERY], .name = "on battery",
                                            .source = "UPower" };

        for (unsigned i = 0; i < n; i++) {
                struct part *p = &parts[i];

                p->action = action_on(p->conf, l, &p->cap);
                if (p->action == BL_PROFILE_CAP) {
                        saving = true;
                        if (out->cap < 0 || p->cap < out->cap)
                                out->cap = p->cap;
                } else if (p->action == BL_PROFILE_BIAS) {
                        saving |= p->conf->bias_pct > 0;
                        if (out->bias_pct == 0 || p->conf->bias_pct > out->bias_pct)
                                out->bias_pct = p->conf->bias_pct;
                } else if (p->action == BL_PROFILE_HOLD_TOP)
                        hold = true;
        }
        out->hold_top = hold && !saving && l->nlevels > 0;

        for (unsigned i = 0; i < n && used < sizeof(out->what); i++) {
                const struct part *p = &parts[i];
                char action[96];

                describe(action, sizeof(action), p->conf, p->action, l, p->cap, saving);
                used += (size_t)snprintf(out->what + used, sizeof(out->what) - used, "%s%s (%s) → %s",
                                         i ? "; " : "", p->name, p->source, action);
                /* The part that caps, or holds, names it in the reasons. */
                if (!out->who[0] && ((p->action == BL_PROFILE_CAP && p->cap == out->cap) ||
                                     (p->action == BL_PROFILE_HOLD_TOP && out->hold_top)))
                        snprintf(out->who, sizeof(out->who), "%s%s",
                                 p->conf == &conf[BL_PROFILE_BATTERY] ? "" : "profile ", p->name);
        }
}

bool profile_effect_same(const struct bl_profile_effect *a, const struct bl_profile_effect *b)
{
        return a->bias_pct == b->bias_pct && a->cap == b->cap && a->hold_top == b->hold_top;
}
