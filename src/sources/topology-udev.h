/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Reads each CPU's facts through libudev (subsystem "cpu") and hands them to
 * topology_build(). */

#include "core/diag.h"
#include "core/topology.h"

int topology_discover(struct bl_topology *t, struct bl_diag *diag);

/* "cpu12" -> 12. -EINVAL: not a CPU's device name (other devices of the
 * subsystem, none today); -ERANGE: a CPU beyond BL_MAX_CPUS. */
int topology_cpu_number(const char *sysname, unsigned *ret);
