/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* AllowedCPUs= of systemd units, through systemd's D-Bus API. Where systemd
 * manages the cgroups their files are its own: a value written behind its
 * back is lost at its next daemon-reload, and it may fight it. Every call
 * waits at most SYSTEMD_CALL_TIMEOUT_USEC for systemd. */

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

#include "core/cpumask.h"

#define SYSTEMD_CALL_TIMEOUT_USEC (2 * 1000 * 1000ULL)
#define SYSTEMD_CPUS_MAX_BYTES (BL_MAX_CPUS / 8)

/* systemd's CPU bitmask ("ay"): CPU n is bit n % 8 of byte n / 8. No
 * bytes at all means no restriction. Kept as systemd gave it, trailing
 * zero bytes included, so that it can be put back exactly. */
struct systemd_cpus {
        size_t n;
        uint8_t bytes[SYSTEMD_CPUS_MAX_BYTES];
};

/* The mask of 'set', as short as it can be (no bytes for an empty set). */
void systemd_cpus_from_set(const bl_cpumask *set, struct systemd_cpus *ret);
/* The CPUs of a mask; -ERANGE when it names a CPU >= BL_MAX_CPUS, -E2BIG
 * when it is longer than SYSTEMD_CPUS_MAX_BYTES. */
int systemd_cpus_from_bytes(const uint8_t *bytes, size_t n, struct systemd_cpus *ret);
void systemd_cpus_to_set(const struct systemd_cpus *c, bl_cpumask *ret);
/* Two lower-case hex digits per byte, in order ("" for no bytes). Returns
 * the length it needed, like snprintf(). */
size_t systemd_cpus_format_hex(const struct systemd_cpus *c, char *buf, size_t size);
/* The reverse; -EINVAL for anything but pairs of hex digits, -E2BIG. */
int systemd_cpus_parse_hex(const char *text, struct systemd_cpus *ret);

/* Whether 'name' is a unit whose AllowedCPUs= can be set: NAME.slice,
 * NAME.service or NAME.scope. */
bool systemd_unit_name_supported(const char *name);

/* Connects to the system bus (DBUS_SYSTEM_BUS_ADDRESS if set) with the
 * call timeout set. */
int systemd_bus_open(sd_bus **ret);
/* 0 when systemd (org.freedesktop.systemd1) answers a ping, else -errno. */
int systemd_ping(sd_bus *bus);

/* Reads the unit's AllowedCPUs. -ENOENT when systemd has no such unit.
 * 'error' receives what systemd said on failure. */
int systemd_unit_get_allowed_cpus(sd_bus *bus, const char *unit, struct systemd_cpus *ret, char *error,
                                  size_t size);
/* Sets AllowedCPUs= for the runtime of the unit (SetUnitProperties with
 * runtime = true); systemd writes the cgroup itself. */
int systemd_unit_set_allowed_cpus(sd_bus *bus, const char *unit, const struct systemd_cpus *cpus, char *error,
                                  size_t size);
