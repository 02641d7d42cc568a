/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What the policy under test is told about the simulated machine, as the
 * daemon would know it on a device: the power of each level at a load
 * (from the board model's operating points, the way the kernel's Energy
 * Model gives it) and what a switch costs. */

#include "core/controller.h"
#include "core/energy-model.h"
#include "sim/modes.h"

/* The daemon's model of board 'b' (energy_model_from_board()) for the
 * levels of 'lv'. Not known in pair mode, where an engine decides for one
 * pair, not for the machine. */
void sim_energy_model(const struct sim_board *b, const struct sim_levels *lv, struct bl_energy_model *m);

/* What one move of an engine costs on board 'b' in the mode of 'lv'. */
void sim_switch_cost(const struct sim_board *b, const struct sim_levels *lv, struct bl_switch_cost *cost);

/* Gives the controller the energy model (filled into 'm', which must outlive
 * the run) and the switch cost. */
void sim_policy_inputs(struct bl_controller *c, const struct sim_board *b, const struct sim_levels *lv,
                       struct bl_energy_model *m);
