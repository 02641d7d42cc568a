/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>

#include "sim/policy-inputs.h"

static const struct sim_opp *opp_for(const struct sim_cluster *c, double demand)
{
        for (unsigned i = 0; i < c->nopps; i++)
                if (c->opp[i].capacity >= 1.25 * demand)
                        return &c->opp[i];
        return &c->opp[c->nopps - 1];
}

static double level_power_mw(const struct sim_board *b, const struct sim_level *l, double demand)
{
        int fastest = -1;
        double mw = 0;

        for (unsigned k = 0; k < b->nclusters; k++)
                if (l->clusters & (1u << k))
                        fastest = (int)k;
        for (unsigned k = 0; k < b->nclusters; k++) {
                const struct sim_cluster *c = &b->cluster[k];
                const struct sim_opp *o;

                if (!(l->clusters & (1u << k)) || c->nopps == 0) {
                        mw += c->off_mw;
                        continue;
                }
                if ((int)k != fastest) {
                        mw += c->opp[0].idle_mw;
                        continue;
                }
                o = opp_for(c, demand);
                mw += o->idle_mw + o->core_mw * (demand < o->capacity ? demand / o->capacity : 1.0);
        }
        return mw;
}

void sim_energy_model(const struct sim_board *b, const struct sim_levels *lv, struct bl_energy_model *m)
{
        *m = (struct bl_energy_model){ .nlevels = lv->nlevels };
        if (lv->mode == BL_MODE_PAIR || lv->nlevels > BL_MAX_LEVELS)
                return;
        for (unsigned l = 0; l < lv->nlevels; l++)
                for (unsigned i = 0; i < BL_POWER_POINTS; i++)
                        m->mw[l][i] = level_power_mw(b, &lv->level[l], energy_model_point(i));
        m->known = true;
        snprintf(m->source, sizeof(m->source), "board %s", b->name);
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
