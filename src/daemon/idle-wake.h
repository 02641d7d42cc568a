/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The daemon's half of sources/activity.h: while sampling is backed off, a
 * CPU that switches tasks or faults pages in at more than an idle pace
 * (idle-wake.c) makes the loop decide at once and sample at the full rate
 * again, instead of at the next backed-off tick up to
 * idle_sample_interval_ms later. Only where the daemon reads the kernel it
 * runs on: a testbed's CPUs are not the host's. */

#include "daemon/state.h"

/* Called at each tick ('now') with the interval to the next: the first
 * backed-off one opens the counters, which stay open while it backs off;
 * the full rate closes them. The first refusal is logged once and the
 * daemon goes on without (the back-off alone). */
void idle_wake_update(struct bl_daemon *d, bl_usec_t now, bl_usec_t next);

/* For people and the bus: "watching 8 CPUs", "ready (...)", "off: why",
 * "unavailable: the kernel's answer". */
void idle_wake_describe(const struct bl_daemon *d, char *buf, size_t size);

/* Closes the counters (teardown). */
void idle_wake_close(struct bl_daemon *d);
