/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The daemon's D-Bus service, org.bigLittle.Switch1 on the system bus (or
 * the bus DBUS_SYSTEM_BUS_ADDRESS names): status for everyone, holds and
 * reload for root (or whom polkit allows). See switchctl(1) and
 * bigLittled(8) for the interface. */

#include "daemon/state.h"

/* Connects, publishes the object and takes the name, attached to the
 * daemon's event loop, and watches the daemon's changes (daemon_changed())
 * to announce them. Returns 0 or a negative errno (the daemon then runs
 * without a bus and says so). */
int bus_open(struct bl_bus **ret, struct bl_daemon *d);

/* Releases the name and the connection. NULL is fine. */
void bus_close(struct bl_bus *b);
