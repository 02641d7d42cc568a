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

#include "core/board.h"
#include "core/ladder.h"
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

/* The model of board 'b' for a ladder whose level L runs on the board
 * clusters of bit mask level_clusters[L]: the whole machine's power when its
 * busiest CPU has the demand and the others idle, that is the fastest
 * cluster of the level at the lowest operating point whose capacity covers
 * 1.25 x the demand (blsim's DVFS rule) with one busy core, the level's
 * other clusters idle at their lowest point, the rest power-gated. Unknown
 * (m->known false) for more levels than a model holds. 'source' says where
 * the board came from. */
void energy_model_from_board(struct bl_energy_model *m, const struct sim_board *b,
                             const unsigned *level_clusters, unsigned nlevels, const char *source);

/* The model of board 'b' for the daemon's ladder 'l' on topology 't', whose
 * clusters are the board's in the same order (board_check_topology()). Not
 * known in pair mode, where an engine decides for one pair, not for the
 * machine. */
void energy_model_for_ladder(struct bl_energy_model *m, const struct sim_board *b, const struct bl_ladder *l,
                             const struct bl_topology *t, const char *source);
