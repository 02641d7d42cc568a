/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* CPU hotplug files, with the read-back every backend write gets. */

#include "core/cpuset.h"

/* Reads cpuN/online. A CPU without the file cannot go offline and is online. */
int cpu_online_read(unsigned cpu, bool *online);
/* Writes cpuN/online and reads it back. Returns 0, the write's -errno, or
 * -EIO when the kernel accepted the write but reports another state. */
int cpu_online_write(unsigned cpu, bool online);
/* Online state of every CPU in 'cpus' (others left out of 'online'). */
int cpu_online_read_set(const bl_cpuset *cpus, bl_cpuset *online);
