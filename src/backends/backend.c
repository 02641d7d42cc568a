/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/cpufreq.h"
#include "backends/sysfs.h"

int backend_read_online(const bl_cpuset *cpus, bl_cpuset *online)
{
        return cpu_online_read_set(cpus, online);
}

int backend_online(const struct bl_backend_ops *ops, const struct bl_backend *b, const bl_cpuset *cpus,
                   bl_cpuset *online)
{
        bl_cpuset read;
        int r;

        if (b && ops->online) {
                ops->online(b, online);
                cpuset_and(online, cpus);
                return 0;
        }
        r = backend_read_online(cpus, &read);
        if (r == 0)
                *online = read;
        return r;
}

const struct bl_backend_ops *backend_select(enum bl_backend_kind kind, const struct bl_topology *t,
                                            char *why, size_t size)
{
        char list[256];
        int n;

        switch (kind) {
        case BL_BACKEND_AUTO:
                /* Hotplug would fight the switcher (it vetoes the partner
                 * cores) and capping a policy moves its pair instead of
                 * slowing it: the kernel's own switch is the way here. */
                if (t->switcher) {
                        snprintf(why, size, "auto: the kernel's big.LITTLE switcher is present; each pair is "
                                            "moved by its logical CPU's cpufreq limits");
                        return &backend_switcher;
                }
                if (cpuset_empty(&t->can_offline)) {
                        /* Capping the unused clusters is second best: their
                         * CPUs stay usable, only slow. */
                        n = cpufreq_writable_policies();
                        if (n >= 2) {
                                snprintf(why, size, "auto: no CPU can be taken offline; %d cpufreq policies "
                                                    "can be capped", n);
                                return &backend_cpufreq;
                        }
                        snprintf(why, size, "auto: no backend of this version can switch this machine "
                                            "(no CPU can be taken offline, %s)",
                                 n < 0 ? "cpufreq policies cannot be read"
                                       : "no two cpufreq policies with a writable scaling_max_freq");
                        return NULL;
                }
                cpuset_format(&t->can_offline, list, sizeof(list));
                snprintf(why, size, "auto: CPUs %s can be taken offline", list);
                return &backend_hotplug;
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
                /* Never picked by auto: which cgroups to confine is the
                 * administrator's choice. */
                snprintf(why, size, "configured");
                return &backend_cpuset;
        }
        snprintf(why, size, "backend %s is not available in this version", backend_kind_to_string(kind));
        return NULL;
}

int backend_saved_value(char *text, const char *key, const char *backend, char **value, char *detail,
                        size_t size)
{
        char *save = NULL;

        *value = NULL;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                char *v = strchr(line, '=');

                if (!v) {
                        snprintf(detail, size, "%.64s: expected key=value", line);
                        return -EINVAL;
                }
                *v++ = '\0';
                if (strcmp(line, key) != 0) {
                        snprintf(detail, size, "%.64s: not a setting of the %s backend", line, backend);
                        return -EINVAL;
                }
                if (*value) {
                        snprintf(detail, size, "%s: given twice", key);
                        return -EINVAL;
                }
                *value = v;
        }
        if (!*value) {
                snprintf(detail, size, "%s: missing", key);
                return -EINVAL;
        }
        return 0;
}
