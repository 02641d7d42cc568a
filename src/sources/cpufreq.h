/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Current frequency of each cpufreq policy, for frequency-invariant demand. */

#include <stdbool.h>

#include "core/topology.h"

struct cpufreq_policy_reader {
        int fd;                 /* scaling_cur_freq, kept open */
        bl_cpumask cpus;        /* related_cpus */
        unsigned span;          /* cpumask_span(&cpus), kept: a tick asks for it */
        unsigned max_khz;       /* cpuinfo_max_freq */
        unsigned cur_khz;       /* last value read; max_khz until one is */
        int error;              /* the last read's -errno, 0 when it read well */
        bool have_cur;          /* read once at least */
};

struct cpufreq_reader {
        unsigned n;
        struct cpufreq_policy_reader *policy;
        unsigned long reads;    /* scaling_cur_freq reads so far, for the cost of a tick */
};

/* Opens every policy under /sys/devices/system/cpu/cpufreq. A machine
 * without cpufreq gives n == 0 and returns 0. */
int cpufreq_open(struct cpufreq_reader *r);
/* Re-reads every policy. A policy whose CPUs are all offline answers EBUSY
 * on real kernels; it keeps its last value. One that fails otherwise (or
 * reads as no frequency) is taken at its top frequency, with 'error' set:
 * a frequency stuck at a low value would hide its load, and overrating it
 * errs toward the fast level. With 'busy' (per CPU number, below
 * BL_MAX_CPUS), a policy read once already whose CPUs all read 0 keeps its
 * last value unread: a capacity times no busy time is no demand, and on an
 * idle machine the read is most of what is left of the daemon's cost to
 * the kernel (issue 15 item 5). Returns 0 or the first negative errno. */
int cpufreq_read(struct cpufreq_reader *r, const float *busy);
/* Fills capacity[cpu] = top capacity x cur / max for the CPUs of each
 * policy, and the top capacity for CPUs without cpufreq. */
void cpufreq_scale(const struct cpufreq_reader *r, const struct bl_topology *t, uint16_t *capacity);
void cpufreq_close(struct cpufreq_reader *r);
