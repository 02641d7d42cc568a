/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <stdio.h>

#include "core/energy-model.h"

double energy_model_point(unsigned i)
{
        return (double)i * BL_CAPACITY_SCALE / (BL_POWER_POINTS - 1);
}

double energy_model_power(const struct bl_energy_model *m, unsigned level, double demand)
{
        const double step = (double)BL_CAPACITY_SCALE / (BL_POWER_POINTS - 1);
        double pos, frac;
        unsigned i;

        if (!m->known || level >= m->nlevels)
                return 0;
        if (!(demand > 0))
                return m->mw[level][0];
        pos = demand / step;
        if (pos >= BL_POWER_POINTS - 1)
                return m->mw[level][BL_POWER_POINTS - 1];
        i = (unsigned)pos;
        frac = pos - i;
        return m->mw[level][i] + (m->mw[level][i + 1] - m->mw[level][i]) * frac;
}

static const struct sim_opp *opp_for(const struct sim_cluster *c, double demand)
{
        for (unsigned i = 0; i < c->nopps; i++)
                if (c->opp[i].capacity >= 1.25 * demand)
                        return &c->opp[i];
        return &c->opp[c->nopps - 1];
}

static double level_power_mw(const struct sim_board *b, unsigned clusters, double demand)
{
        int fastest = -1;
        double mw = 0;

        for (unsigned k = 0; k < b->nclusters; k++)
                if (clusters & (1u << k))
                        fastest = (int)k;
        for (unsigned k = 0; k < b->nclusters; k++) {
                const struct sim_cluster *c = &b->cluster[k];
                const struct sim_opp *o;

                if (!(clusters & (1u << k)) || c->nopps == 0) {
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

void energy_model_from_board(struct bl_energy_model *m, const struct sim_board *b,
                             const unsigned *level_clusters, unsigned nlevels, const char *source)
{
        *m = (struct bl_energy_model){ .nlevels = nlevels };
        if (nlevels > BL_MAX_LEVELS)
                return;
        for (unsigned l = 0; l < nlevels; l++)
                for (unsigned i = 0; i < BL_POWER_POINTS; i++)
                        m->mw[l][i] = level_power_mw(b, level_clusters[l], energy_model_point(i));
        m->known = true;
        snprintf(m->source, sizeof(m->source), "%s", source);
}

void energy_model_for_ladder(struct bl_energy_model *m, const struct sim_board *b, const struct bl_ladder *l,
                             const struct bl_topology *t, const char *source)
{
        unsigned clusters[BL_MAX_LEVELS] = { 0 };

        if (l->mode == BL_MODE_PAIR) {
                *m = (struct bl_energy_model){ .nlevels = l->nlevels };
                return;
        }
        for (unsigned L = 0; L < l->nlevels; L++)
                for (unsigned cpu = 0; cpu < t->ncpus; cpu++)
                        if (cpumask_isset(&l->levels[L].cpus, cpu) && t->cpu_cluster[cpu] >= 0)
                                clusters[L] |= 1u << t->cpu_cluster[cpu];
        energy_model_from_board(m, b, clusters, l->nlevels, source);
}
