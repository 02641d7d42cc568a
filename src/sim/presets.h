/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Named policies for blsim: a configuration snippet each, in the daemon's
 * own format. "default" is the shipped configuration; the baselines select
 * one heuristic that imitates a classic policy and make the engine a
 * pass-through, so the heuristic's decision is applied as it is made. */

#include "core/config.h"
#include "core/diag.h"

struct sim_preset {
        const char *name;
        const char *summary;
        const char *config_text;
};

/* Terminated by an entry whose name is NULL. */
extern const struct sim_preset sim_presets[];

/* The preset called 'name', or NULL. */
const struct sim_preset *preset_find(const char *name);

/* config_init() with the built-in heuristics, then the preset's text parsed
 * as the file "preset:NAME", then config_validate(). Every problem goes to
 * 'diag'; returns their number (0 = the configuration is usable). */
int preset_config(const struct sim_preset *p, struct bl_config *cfg, struct bl_diag *diag);
