/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/sample.h"

double sample_peak_demand(const struct bl_sample *s)
{
        double peak = 0.0;

        for (unsigned cpu = 0; cpu < s->ncpus; cpu++) {
                double d;

                if (!cpuset_isset(&s->online, cpu))
                        continue;
                d = (double)s->busy[cpu] * s->capacity[cpu];
                if (d > peak)
                        peak = d;
        }
        return peak;
}
