/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The hotplug backend switches clusters by taking CPUs online and offline.
 * The ordering is a pure function so that it can be tested on its own. */

#include "core/cpumask.h"

struct hotplug_step {
        unsigned cpu;
        bool online;
};

/* Plans the writes that take the online set 'current' to 'target'. Only CPUs
 * in 'can_offline' are written; the others keep their state. New CPUs come
 * online first (ascending) and old ones go offline afterwards (descending),
 * so the machine never runs on fewer CPUs than either level has. Returns
 * the number of steps, -EINVAL if the result would leave no CPU online, or
 * -ENOBUFS if 'max' steps are not enough. */
int hotplug_plan(const bl_cpumask *current, const bl_cpumask *target, const bl_cpumask *can_offline,
                 struct hotplug_step *steps, unsigned max);
