/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "policy/governor.h"

static double online_max(const struct bl_sample *s, const uint16_t *values)
{
        double best = 0.0;

        for (unsigned cpu = 0; cpu < s->ncpus && cpu < BL_MAX_CPUS; cpu++)
                if (cpuset_isset(&s->online, cpu) && values[cpu] > best)
                        best = values[cpu];
        return best;
}

double gov_active_top(const struct bl_sample *s)
{
        double top = online_max(s, s->max_capacity);

        if (top <= 0.0)
                top = online_max(s, s->capacity);
        return top > 0.0 ? top : (double)BL_CAPACITY_SCALE;
}

double gov_current(const struct bl_sample *s)
{
        return online_max(s, s->capacity);
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
