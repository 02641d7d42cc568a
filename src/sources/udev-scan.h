/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <libudev.h>

/* Called for each device; a negative return stops the scan and is passed up. */
typedef int (*udev_scan_fn)(struct udev_device *dev, void *userdata);

/* Enumerates every device of 'subsystem' through libudev, in sysfs order.
 * Devices that vanish while being read are skipped. */
int udev_scan_subsystem(const char *subsystem, udev_scan_fn fn, void *userdata);
