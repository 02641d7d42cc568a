/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Following the desktop: the active profile of power-profiles-daemon
 * (org.freedesktop.UPower.PowerProfiles, or the older
 * net.hadess.PowerProfiles) and UPower's OnBattery, watched on the system
 * bus and turned into the adjustment of the [profile.NAME] sections
 * (core/profile.h). A service that is not on the bus says nothing, and
 * what it does not say adjusts nothing. */

#include "daemon/state.h"

/* Connects to the system bus on a connection of its own, attached to the
 * daemon's loop, and starts watching; the services' first answers come
 * later, without blocking. Returns 0 or a negative errno (the daemon then
 * follows no profile, and says so). */
int desktop_open(struct bl_desktop_watch **ret, struct bl_daemon *d);

/* Stops watching; NULL is fine. */
void desktop_close(struct bl_desktop_watch *w);

/* Applies what the services said (d->desktop_in) with d->cfg's sections:
 * the controller adjusted, the bus told, a change logged once, and a
 * decision made at once. For a new configuration too. */
void desktop_apply(struct bl_daemon *d);

/* Logs the [profile.NAME] caps that name no level of d->ladder at 'level'
 * ("file:line: ..."); they adjust nothing. */
void desktop_check_config(const struct bl_daemon *d, const struct bl_config *cfg, int level);
