/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

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
