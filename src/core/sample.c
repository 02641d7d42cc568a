/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/sample.h"

void sample_buf_init(struct bl_sample_buf *b, unsigned ncpus)
{
        if (ncpus > BL_MAX_CPUS)
                ncpus = BL_MAX_CPUS;
        b->s = (struct bl_sample){ .ncpus = ncpus, .cpu = b->cpu };
        for (unsigned i = 0; i < ncpus; i++)
                b->cpu[i] = (struct bl_cpu_sample){ .cpu = i };
}

void sample_set_online(struct bl_sample_buf *b, const bl_cpumask *online)
{
        for (unsigned i = 0; i < b->s.ncpus; i++)
                b->cpu[i].online = cpumask_isset(online, i);
}

double sample_peak_demand(const struct bl_sample *s)
{
        return bl_sample_peak_demand(s);
}
