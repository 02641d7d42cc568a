/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The cpuset backend confines the work of configured cgroups to the CPUs of
 * a level instead of taking CPUs away from the machine: through cgroup v2
 * cpuset.cpus, or, where systemd manages the cgroups, through the units'
 * AllowedCPUs=. The rules that need no kernel are here, to be tested alone.
 *
 * Saved state (save()/restore_saved()), one line per setting:
 *
 *   manager=cgroupfs           or systemd: how the groups were reached
 *   group=system.slice ""      a group and, quoted, what it held at start:
 *   group=user.slice "0-5"       cgroupfs: the text of cpuset.cpus ("" = the
 *                                parent's CPUs); systemd: the AllowedCPUs
 *                                bytes in hex ("" = no restriction, "3f" =
 *                                CPUs 0-5) */

#include "core/config.h"
#include "core/cpumask.h"

/* The longest cpuset.cpus text kept. */
#define CPUSET_TEXT_MAX 1024

/* What one group holds for a level. A group whose setting ('unrestricted',
 * or 'recorded') shares no CPU with the level keeps that setting: returns
 * 0. Otherwise 'ret' gets the level's CPUs within the setting ('all' when
 * unrestricted) and it returns 1; a result equal to the whole setting also
 * returns 0, so that an unrestricted group stays unrestricted. */
int cpuset_group_target(const bl_cpumask *level, bool unrestricted, const bl_cpumask *recorded,
                        const bl_cpumask *all, bl_cpumask *ret);

struct cpuset_saved_group {
        char path[BL_CPUSET_GROUP_MAX];
        char value[CPUSET_TEXT_MAX];    /* between the quotes */
};

struct cpuset_saved {
        enum bl_cpuset_manager manager;         /* SYSTEMD or CGROUPFS */
        unsigned ngroups;
        struct cpuset_saved_group groups[BL_CPUSET_MAX_GROUPS];
};

/* Parses save()'s text. Returns 0, or -EINVAL with 'detail' starting with
 * the key at fault ("group: ...", "manager: ..."). */
int cpuset_saved_parse(const char *text, struct cpuset_saved *ret, char *detail, size_t size);
