/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* One tick's view of the machine, as the sources (or the simulator) saw it:
 * struct bl_sample of the plugin ABI, with storage for every CPU. */

#include "core/cpumask.h"
#include "policy/bl-policy.h"

struct bl_sample_buf {
        struct bl_sample s;
        struct bl_cpu_sample cpu[BL_MAX_CPUS];
};

/* An empty sample of 'ncpus' CPUs (all offline, numbered 0..ncpus-1) whose
 * s.cpu points into the buffer. */
void sample_buf_init(struct bl_sample_buf *b, unsigned ncpus);

/* Marks the CPUs of 'online' online and every other one offline. */
void sample_set_online(struct bl_sample_buf *b, const bl_cpumask *online);

/* Frequency-invariant demand of the busiest online CPU: busy x capacity. */
double sample_peak_demand(const struct bl_sample *s);
