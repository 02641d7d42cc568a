/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The cpufreq backend caps the clusters a level does not use at their
 * lowest operating point through each policy's scaling_max_freq. */

#include "core/cpumask.h"

/* Counts the cpufreq policies whose scaling_max_freq this process may
 * write. Returns the count (0: no cpufreq, or read-only) or -errno. */
int cpufreq_writable_policies(void);
