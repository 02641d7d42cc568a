/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Reads each CPU's facts through libudev (subsystem "cpu") and hands them to
 * topology_build(). */

#include "core/diag.h"
#include "core/topology.h"

int topology_discover(struct bl_topology *t, struct bl_diag *diag);
