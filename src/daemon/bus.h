/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The daemon's D-Bus service, org.bigLittle.Switch1 on the system bus (or
 * the bus DBUS_SYSTEM_BUS_ADDRESS names): status for everyone, holds and
 * reload for root (or whom polkit allows). See switchctl(1) and
 * bigLittled(8) for the interface. */

#include "daemon/state.h"

/* Connects, publishes the object and takes the name, attached to the
 * daemon's event loop. Returns 0 or a negative errno (the daemon then runs
 * without a bus and says so). */
int bus_open(struct bl_bus **ret, struct bl_daemon *d);

/* After a switch: the Switched signal and the changed properties. */
void bus_switched(struct bl_bus *b, const char *from, const char *to, const char *reason);

/* After holds, the configuration or the thermal state changed. */
void bus_holds_changed(struct bl_bus *b);
void bus_config_changed(struct bl_bus *b);
void bus_thermal_changed(struct bl_bus *b);
/* The thermal limits were resolved anew (zones changed). */
void bus_limits_changed(struct bl_bus *b);

/* What the desktop's profile or the battery adjusts changed. */
void bus_profile_changed(struct bl_bus *b);

/* No switch runs any more: calls that waited for one are answered. */
void bus_switch_done(struct bl_bus *b);
/* A level was found unreachable. */
void bus_unreachable_changed(struct bl_bus *b);

/* Releases the name and the connection. NULL is fine. */
void bus_close(struct bl_bus *b);
