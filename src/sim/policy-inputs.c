/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>

#include "sim/policy-inputs.h"

void sim_energy_model(const struct sim_board *b, const struct sim_levels *lv, struct bl_energy_model *m)
{
        unsigned clusters[SIM_MAX_LEVELS];
        char source[96];

        if (lv->mode == BL_MODE_PAIR || lv->nlevels > BL_MAX_LEVELS) {
                *m = (struct bl_energy_model){ .nlevels = lv->nlevels };
                return;
        }
        for (unsigned l = 0; l < lv->nlevels; l++)
                clusters[l] = lv->level[l].clusters;
        snprintf(source, sizeof(source), "board %s", b->name);
        energy_model_from_board(m, b, clusters, lv->nlevels, source);
}

void sim_switch_cost(const struct sim_board *b, const struct sim_levels *lv, struct bl_switch_cost *cost)
{
        const double per_change = lv->switch_share ? b->switch_energy_uj / lv->switch_share : b->switch_energy_uj;

        /* The figures in effect (the board's plain ones, a backend's, an
         * override): the per-CPU parts as the execution rules charge them,
         * per CPU brought up or taken down. One move of an engine is one
         * change in cluster and pair mode (a cluster, a pair), one per CPU in
         * mp mode (sim_levels_changes()), which is what the fixed energy is
         * shared by. */
        *cost = (struct bl_switch_cost){
                .latency_us = b->switch_latency_us,
                .latency_per_cpu_us = b->switch_latency_per_cpu_us,
                .energy_per_cpu_uj = b->switch_energy_per_cpu_uj,
        };
        if (lv->mode == BL_MODE_MP)
                cost->energy_per_cpu_uj += per_change;
        else
                cost->energy_uj = per_change;
}

void sim_policy_inputs(struct bl_controller *c, const struct sim_board *b, const struct sim_levels *lv,
                       struct bl_energy_model *m)
{
        struct bl_switch_cost cost;

        sim_energy_model(b, lv, m);
        controller_set_energy_model(c, m->known ? m : NULL);
        sim_switch_cost(b, lv, &cost);
        controller_set_switch_cost(c, &cost);
}
