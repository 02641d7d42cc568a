/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Other programs that manage the same CPUs: each found one is said in
 * 'diag' as one line naming it and what it may fight the daemon over. They
 * are only reported; the daemon does not stop them. */

#include <stdint.h>

#include "core/diag.h"

/* cpufreq policies under /sys/devices/system/cpu/cpufreq whose
 * scaling_governor is "userspace": some program sets their frequency by
 * hand. Returns how many were found (0 without cpufreq), or a negative
 * errno. */
int conflicts_governors(struct bl_diag *diag);

/* Daemons that own their well-known names on the bus at 'address' (a D-Bus
 * address; NULL: the system bus, or DBUS_SYSTEM_BUS_ADDRESS when set):
 * power-profiles-daemon, tuned, intel-lpmd. Each question waits at most
 * 'timeout_usec'. Returns how many were found, or a negative errno when the
 * bus cannot be reached (then nothing is known). */
int conflicts_bus(const char *address, uint64_t timeout_usec, struct bl_diag *diag);
