/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Describe()'s JSON document (bus-describe.c), and the views of the
 * daemon's state that the bus's properties report too. */

#include "daemon/state.h"

/* The demand above which the engine goes up, and below which it goes down,
 * from the first engine's level (0 where there is no level that way). */
void bus_thresholds(const struct bl_daemon *d, double *up, double *down);

/* The scorer behind Demand: the only one in cluster mode, otherwise the
 * pair's or CPU's with the largest demand. NULL before the controller. */
const struct bl_scorer *bus_demand_scorer(const struct bl_daemon *d);

/* Time at each level (BL_MAX_LEVELS of them), including the stretch since
 * the daemon last accounted it. */
void bus_time_in_levels(const struct bl_daemon *d, bl_usec_t *t);

/* The document (keys in switchctl(1)), malloc'ed in '*ret'. Returns 0 or a
 * negative errno. */
int bus_describe(const struct bl_daemon *d, char **ret);
