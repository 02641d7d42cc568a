/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What one switch costs, and what the daemon has learned of it.
 *
 * The cost depends on the backend far more than on the chip: the in-kernel
 * switcher's state transfer stalls one pair for tens of microseconds; a
 * cpufreq cap or a cpuset move takes milliseconds and leaves caches cold;
 * CPU hotplug takes tens of milliseconds per CPU and stops the whole
 * machine (stop_machine) for part of it. So the cost is an input to the
 * policy, not a constant: a fixed part per switch plus a part per CPU
 * whose state changes (brought online or taken off, moved into or out of
 * the allowed set).
 *
 * latency is the time from the first write to the settled state, during
 * which work stalls or runs slow; energy is what the switch spends beyond
 * running the work (powering up, flushing, the stall itself).
 *
 * The estimate starts from a prior (a board model's figure for the backend,
 * or the backend's documented default) and follows the switches the daemon
 * measures: a least-squares fit of latency against CPUs changed, with older
 * switches weighing less. Pure: no I/O. */

#include "core/types.h"

struct bl_switch_cost {
        double latency_us;              /* fixed part of one switch */
        double latency_per_cpu_us;      /* added per CPU that changes */
        double energy_uj;
        double energy_per_cpu_uj;
};

/* The time and energy of one switch that changes 'ncpus' CPUs. */
double switch_cost_latency_us(const struct bl_switch_cost *c, unsigned ncpus);
double switch_cost_energy_uj(const struct bl_switch_cost *c, unsigned ncpus);

/* Each new measurement keeps this share of the weight of the ones before:
 * about the last ten switches count. */
#define BL_SWITCH_ESTIMATE_KEEP 0.9

struct bl_switch_estimate {
        struct bl_switch_cost prior;    /* what is believed before any measurement */
        unsigned n;                     /* switches measured */
        /* decayed sums of the fit latency = a + b x ncpus */
        double w, wx, wy, wxx, wxy;
        double last_us;                 /* the last switch measured, and its CPUs */
        unsigned last_ncpus;
        double max_us;
};

void switch_estimate_init(struct bl_switch_estimate *e, const struct bl_switch_cost *prior);

/* Adds a switch that took 'took_us' and changed 'ncpus' CPUs. Values that
 * are not finite or negative are ignored. */
void switch_estimate_add(struct bl_switch_estimate *e, double took_us, unsigned ncpus);

/* The cost as now estimated: the prior until a switch was measured. With
 * switches of one size only, the measured mean is split between the fixed
 * and the per-CPU part as the prior splits it; with several sizes, the fit
 * (both parts at least 0). Energy follows latency in the prior's
 * proportion (the power during a switch is the prior's), or stays the
 * prior's where the prior has no latency. */
void switch_estimate_cost(const struct bl_switch_estimate *e, struct bl_switch_cost *out);
