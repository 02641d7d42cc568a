/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* udev events of the CPUs (subsystem "cpu": online, offline, add, remove)
 * and of the thermal zones (subsystem "thermal"), delivered from an sd-event
 * loop. The events come from udev (the "udev" netlink group), after its
 * rules ran, so they may lag the kernel's change by a little. */

#include <systemd/sd-event.h>

struct uevent_monitor;

/* Called once per event, in the order udev sent them. */
typedef void (*uevent_fn)(const char *subsystem, const char *action, const char *sysname, void *userdata);

/* Starts listening and adds the monitor to 'event'. Returns 0, or a
 * negative errno (no udev, no netlink socket). */
int uevent_monitor_open(struct uevent_monitor **ret, sd_event *event, uevent_fn fn, void *userdata);
/* Stops listening; NULL is fine. */
void uevent_monitor_free(struct uevent_monitor *m);
