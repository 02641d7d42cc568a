/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>

#include "backends/backend.h"
#include "backends/sysfs.h"

int backend_read_online(const bl_cpumask *cpus, bl_cpumask *online)
{
        return cpu_online_read_set(cpus, online);
}

int backend_online(const struct bl_backend_ops *ops, const struct bl_backend *b, const bl_cpumask *cpus,
                   bl_cpumask *online)
{
        bl_cpumask read;
        int r;

        if (b && ops->online) {
                ops->online(b, online);
                cpumask_and(online, cpus);
                return 0;
        }
        r = backend_read_online(cpus, &read);
        if (r == 0)
                *online = read;
        return r;
}

/* What auto tries, best first: hotplug would fight the switcher (it vetoes
 * the partner cores) and capping a policy moves its pair instead of slowing
 * it, so the kernel's own switch comes first; capping the unused clusters is
 * second best to taking them offline: their CPUs stay usable, only slow.
 * cpuset is never picked: which cgroups to confine is the administrator's
 * choice. */
static const struct bl_backend_ops *const auto_order[] = {
        &backend_switcher,
        &backend_hotplug,
        &backend_cpufreq,
};

/* "auto: " and the reasons the backends tried before said why not, then
 * 'last' after "; " (the winner's why) or, with 'last' NULL, all of them in
 * parentheses after "no backend can switch this machine". */
static const struct bl_backend_ops *select_auto(const struct bl_topology *t, char *why, size_t size)
{
        char nots[512] = "", one[256];
        size_t n = 0;

        for (size_t i = 0; i < sizeof(auto_order) / sizeof(auto_order[0]); i++) {
                const struct bl_backend_ops *ops = auto_order[i];

                one[0] = '\0';
                if (ops->probe(t, one, sizeof(one))) {
                        snprintf(why, size, "auto: %s%s%s", nots, n ? "; " : "", one);
                        return ops;
                }
                if (one[0] && n < sizeof(nots))
                        n += (size_t)snprintf(nots + n, sizeof(nots) - n, "%s%s", n ? ", " : "", one);
        }
        snprintf(why, size, "auto: no backend of this version can switch this machine (%s)", nots);
        return NULL;
}

const struct bl_backend_ops *backend_select(enum bl_backend_kind kind, const struct bl_topology *t,
                                            char *why, size_t size)
{
        switch (kind) {
        case BL_BACKEND_AUTO:
                return select_auto(t, why, size);
        case BL_BACKEND_HOTPLUG:
                snprintf(why, size, "configured");
                return &backend_hotplug;
        case BL_BACKEND_CPUFREQ:
                snprintf(why, size, "configured");
                return &backend_cpufreq;
        case BL_BACKEND_DRYRUN:
                snprintf(why, size, "configured: decisions are logged, nothing is changed");
                return &backend_dryrun;
        case BL_BACKEND_SWITCHER:
                snprintf(why, size, "configured");
                return &backend_switcher;
        case BL_BACKEND_CPUSET:
                snprintf(why, size, "configured");
                return &backend_cpuset;
        }
        snprintf(why, size, "backend %s is not available in this version", backend_kind_to_string(kind));
        return NULL;
}
