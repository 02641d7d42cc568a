/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What happens to the machine behind the daemon's back: CPUs and thermal
 * zones changed by others (udev events), and suspend/resume. */

#include "daemon/state.h"

/* The callback of the udev monitor (sources/udev-monitor.h). */
void events_on_uevent(const char *subsystem, const char *action, const char *sysname, void *userdata);

/* Whether the machine slept since the last tick; if it did, the sample is
 * dropped, the sampler starts afresh and the level is applied again. */
bool events_resumed(struct bl_daemon *d, bl_usec_t now);

/* After a switch during which CPU uevents came: someone else's change, if
 * the CPUs are not as the switch left them, is handled now. */
void events_check_cpus(struct bl_daemon *d);

/* Applies the level the engines are at again, for when the kernel's CPUs
 * may no longer be it; 'why' starts the lines it logs. A failure is said
 * once per cause and sets level_unapplied, a success clears it. */
void events_reapply(struct bl_daemon *d, const char *why);

/* Says when the wall clock was stepped since the last tick. */
void events_wall_clock(struct bl_daemon *d, bl_usec_t now);
