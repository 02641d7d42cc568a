/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "policy/governor.h"

static double online_max(const struct bl_sample *s, bool top)
{
        double best = 0.0;

        for (unsigned i = 0; i < s->ncpus; i++) {
                const struct bl_cpu_sample *c = &s->cpu[i];
                double v = top ? c->max_capacity : c->capacity;

                if (c->online && v > best)
                        best = v;
        }
        return best;
}

double gov_active_top(const struct bl_sample *s)
{
        double top = online_max(s, true);

        if (top <= 0.0)
                top = online_max(s, false);
        return top > 0.0 ? top : (double)BL_CAPACITY_SCALE;
}

double gov_current(const struct bl_sample *s)
{
        return online_max(s, false);
}

double gov_system_top(const struct bl_sample *s)
{
        double top = gov_active_top(s);

        return top > BL_CAPACITY_SCALE ? top : (double)BL_CAPACITY_SCALE;
}

bool gov_on_top(const struct bl_sample *s)
{
        return gov_active_top(s) >= BL_CAPACITY_SCALE;
}

double gov_load_pct(double work, double freq)
{
        double load;

        if (work <= 0.0)
                return 0.0;
        if (freq <= 0.0)
                return 100.0;
        load = 100.0 * work / freq;
        return load < 100.0 ? load : 100.0;
}
