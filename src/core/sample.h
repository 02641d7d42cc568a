/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* One tick's view of the machine, as the sources (or the simulator) saw it. */

#include "core/cpuset.h"

struct bl_sample {
        bl_usec_t now;                  /* end of the interval */
        bl_usec_t interval;             /* length covered; 0 for the first sample */
        unsigned ncpus;
        bl_cpuset online;
        float busy[BL_MAX_CPUS];        /* fraction of the interval, 0..1 */
        uint16_t capacity[BL_MAX_CPUS]; /* capacity at the current frequency */
        uint16_t max_capacity[BL_MAX_CPUS];     /* at the top frequency (0 when unknown) */
        bool has_pressure;
        double pressure;                /* PSI cpu "some": share of the interval, 0..1 */
        bool has_temp;
        int temp_mc;                    /* hottest watched thermal zone, m°C */
};

/* Frequency-invariant demand of the busiest online CPU: busy x capacity. */
double sample_peak_demand(const struct bl_sample *s);
