/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What the baselines that imitate cpufreq governors share.
 *
 * Such a governor ran on the in-kernel switcher's merged "virtual" frequency
 * table: the little cluster covers the low end, the big one the rest (the
 * switcher halves A7 frequencies because an A7 does about half an A15's work
 * per MHz). In capacity units the virtual frequency is simply the capacity,
 * from the little cluster's lowest frequency to the biggest CPU's top,
 * BL_CAPACITY_SCALE. The governor's target then names a level: the engine,
 * made a pass-through by the baselines' presets, goes up when the target is
 * above the current level's capacity and down when it fits the level below.
 *
 * The governor also chose the frequency its load was measured at. Here
 * somebody else does (the kernel's own governor, or the simulator's DVFS
 * rule), so a baseline keeps its own virtual frequency and re-expresses what
 * the CPUs did at that frequency: load = work / frequency, with work = busy x
 * capacity, which does not depend on who set the real frequency. Measured
 * at the real frequency instead, the load would be whatever the other
 * governor aims at (80% busy for the simulator) and the imitation would
 * follow that governor rather than its own rule.
 *
 * A sample does not state the lowest frequency, so the bottom of the range
 * is a parameter: GOV_MIN_FREQ_DEFAULT is 100 virtual MHz of a 2000 MHz
 * table, the A7's 200 MHz halved on the Exynos 5410 and 5422 (whose little
 * CPUs have capacity 54 there); ARM's TC2 starts at 150. It matters after an
 * idle spell: the governor sits at the bottom, and a bottom of 0 would make
 * any work a full load. */

#include "policy/bl-policy.h"

/* A demand above the capacity of any level (capacities are 16-bit in a
 * sample): the engine goes to the top level. */
#define GOV_DEMAND_TOP 65536.0

#define GOV_MIN_FREQ_DEFAULT 51

/* The top capacity of the active cluster: the highest max_capacity among
 * the online CPUs, or their highest current capacity when the source does
 * not know the top, or BL_CAPACITY_SCALE when no CPU says anything. A demand
 * equal to it keeps the engine where it is. */
double gov_active_top(const struct bl_sample *s);

/* The highest capacity at the current frequency among the online CPUs. */
double gov_current(const struct bl_sample *s);

/* The top of the virtual range: BL_CAPACITY_SCALE, or the active top if a
 * source reports more. */
double gov_system_top(const struct bl_sample *s);

/* Whether the active cluster is the fastest kind of core. */
bool gov_on_top(const struct bl_sample *s);

/* The load in percent that 'work' (capacity units) puts on a CPU running at
 * virtual frequency 'freq', at most 100. */
double gov_load_pct(double work, double freq);
