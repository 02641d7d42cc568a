/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Combines the sources into one bl_sample per tick. */

#include "core/config.h"
#include "core/sample.h"
#include "sources/cpufreq.h"
#include "sources/procstat.h"
#include "sources/psi.h"
#include "sources/thermal.h"

struct bl_sampler {
        const struct bl_topology *topo;
        struct procstat_reader stat;
        struct psi_reader psi;
        struct cpufreq_reader freq;
        struct thermal_reader thermal;
        struct procstat prev, cur;
        bool have_prev;
        uint64_t psi_prev;
        bool have_psi_prev;
        bl_usec_t prev_now;
};

/* Opens every source. PSI, cpufreq and thermal are optional and reported
 * through 'diag' when absent; /proc/stat is required. */
int sampler_open(struct bl_sampler *s, const struct bl_topology *t, const struct bl_config *c, struct bl_diag *diag);
/* Reads all sources for the tick at 'now' (CLOCK_MONOTONIC µs). The first
 * call yields a sample with interval 0 and no busy time. */
int sampler_read(struct bl_sampler *s, bl_usec_t now, struct bl_sample *out);
void sampler_close(struct bl_sampler *s);
