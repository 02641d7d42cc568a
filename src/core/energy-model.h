/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What each level of the ladder costs in power at the load seen, where a
 * model of the machine is known (a board model in blsim, a board file or the
 * kernel's Energy Model on a device): the whole machine's power at level L
 * when its busiest CPU has demand d (capacity units) and the others are
 * idle, tabulated at BL_POWER_POINTS demands from 0 to the reference
 * capacity and interpolated between them. The policy reads it to know what
 * a stay on a lower level saves against what the switches there and back
 * cost. Pure: no I/O. */

#include "core/types.h"

#define BL_POWER_POINTS 17

struct bl_energy_model {
        bool known;
        unsigned nlevels;
        /* mw[L][i]: level L at demand i x BL_CAPACITY_SCALE / (BL_POWER_POINTS - 1) */
        double mw[BL_MAX_LEVELS][BL_POWER_POINTS];
        char source[96];                /* where it came from, for people */
};

/* The demand of table point i. */
double energy_model_point(unsigned i);

/* Power of level 'level' at demand 'demand' (clamped to the table's range),
 * mW; 0 when the model is not known or the level is out of range. */
double energy_model_power(const struct bl_energy_model *m, unsigned level, double demand);
