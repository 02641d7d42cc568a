/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "sources/cpufreq.h"
#include "sources/topology-udev.h"
#include "sources/udev-scan.h"

/* A cpufreq policy seen through one of its CPUs. */
struct policy_info {
        bl_cpumask cpus;
        int first;
        int max_freq_khz;
};

struct discovery {
        struct bl_cpu_info *cpus;       /* BL_MAX_CPUS entries */
        struct policy_info *policies;
        unsigned npolicies, policies_size;
        unsigned ncpus;                 /* highest present CPU + 1 */
};

/* Reads an optional integer attribute: 0 with *ret set, -ENOENT when the
 * kernel does not have it, -EINVAL (described in diag) when it is not a
 * number. */
static int attr_int(struct udev_device *dev, const char *name, long long min, long long max, long long *ret,
                    struct bl_diag *diag)
{
        const char *value = udev_device_get_sysattr_value(dev, name);
        long long v;

        if (!value)
                return -ENOENT;
        if (parse_int(value, &v) < 0 || v < min || v > max) {
                diag_add(diag, "%s/%s: expected an integer %lld-%lld, got \"%s\"",
                         udev_device_get_syspath(dev), name, min, max, value);
                return -EINVAL;
        }
        *ret = v;
        return 0;
}

static int first_cpu(const bl_cpumask *cpus)
{
        for (unsigned cpu = 0; cpu < BL_MAX_CPUS; cpu++)
                if (cpumask_isset(cpus, cpu))
                        return (int)cpu;
        return -1;
}

static int note_policy(struct discovery *d, const bl_cpumask *cpus, int max_freq_khz)
{
        int first = first_cpu(cpus);
        struct policy_info *p;

        for (unsigned i = 0; i < d->npolicies; i++)
                if (d->policies[i].first == first)
                        return 0;
        if (d->npolicies == d->policies_size) {
                unsigned size = d->policies_size ? d->policies_size * 2 : 8;

                p = realloc(d->policies, size * sizeof(*p));
                if (!p)
                        return -ENOMEM;
                d->policies = p;
                d->policies_size = size;
        }
        d->policies[d->npolicies++] = (struct policy_info){
                .cpus = *cpus, .first = first, .max_freq_khz = max_freq_khz,
        };
        return 0;
}

static int read_cpu(struct discovery *d, struct udev_device *dev, unsigned cpu, struct bl_diag *diag)
{
        struct bl_cpu_info *info = &d->cpus[cpu];
        const char *value;
        long long v;
        int r;

        info->present = true;

        /* Without an online file the CPU cannot be taken offline (cpu0 on
         * most ARM32 boards) and is therefore online. */
        value = udev_device_get_sysattr_value(dev, "online");
        if (!value) {
                info->online = true;
                info->can_offline = false;
        } else if (strcmp(value, "0") == 0 || strcmp(value, "1") == 0) {
                info->online = value[0] == '1';
                info->can_offline = true;
        } else {
                diag_add(diag, "%s/online: expected 0 or 1, got \"%s\"", udev_device_get_syspath(dev), value);
                return -EINVAL;
        }

        /* Newer kernels drop cpu_capacity while the CPU is offline. */
        r = attr_int(dev, "cpu_capacity", 0, 65535, &v, diag);
        if (r == -EINVAL)
                return r;
        info->capacity = r == 0 ? (int)v : -1;

        r = attr_int(dev, "topology/cluster_id", -1, INT32_MAX, &v, diag);
        if (r == -EINVAL)
                return r;
        info->cluster_id = r == 0 ? (int)v : -1;

        r = attr_int(dev, "cpufreq/cpuinfo_max_freq", 1, INT32_MAX, &v, diag);
        if (r == -EINVAL)
                return r;
        info->max_freq_khz = r == 0 ? (int)v : -1;

        value = udev_device_get_sysattr_value(dev, "cpufreq/related_cpus");
        if (value) {
                bl_cpumask related;

                r = cpumask_parse_words(&related, value);
                if (r == 0 && !cpumask_isset(&related, cpu))
                        r = -EINVAL;
                if (r < 0) {
                        diag_add(diag, "%s/cpufreq/related_cpus: expected a list of CPUs including cpu%u, "
                                 "got \"%s\"", udev_device_get_syspath(dev), cpu, value);
                        return -EINVAL;
                }
                r = note_policy(d, &related, info->max_freq_khz);
                if (r < 0)
                        return r;
                info->policy = first_cpu(&related);
                info->policy_size = (int)cpumask_count(&related);
        }
        if (cpu >= d->ncpus)
                d->ncpus = cpu + 1;
        return 0;
}

/* Kernels before 4.x removed cpuN/cpufreq while the CPU was offline: such a
 * CPU still belongs to the policy that its online siblings list. */
static void fill_policies_of_offline(struct discovery *d)
{
        for (unsigned cpu = 0; cpu < d->ncpus; cpu++) {
                struct bl_cpu_info *info = &d->cpus[cpu];

                if (!info->present || info->policy >= 0)
                        continue;
                for (unsigned i = 0; i < d->npolicies; i++) {
                        const struct policy_info *p = &d->policies[i];

                        if (!cpumask_isset(&p->cpus, cpu))
                                continue;
                        info->policy = p->first;
                        info->policy_size = (int)cpumask_count(&p->cpus);
                        if (info->max_freq_khz < 0)
                                info->max_freq_khz = p->max_freq_khz;
                        break;
                }
        }
}

/* Intel hybrid parts list each kind of core in the cpus file of its PMU
 * (cpu_core, cpu_atom, cpu_lowpower); other PMUs (ARM's per-core ones,
 * uncore, software) say nothing about kinds of core and are not read. A CPU
 * missing from every file keeps BL_PMU_KIND_NONE. */
static int read_pmu_kinds(struct discovery *d, struct bl_diag *diag)
{
        for (unsigned k = BL_PMU_KIND_NONE + 1; k < BL_PMU_KIND_COUNT; k++) {
                const char *name = topology_pmu_kind_name((enum bl_pmu_kind)k);
                char path[128], value[1024];
                bl_cpumask cpus;
                int r;

                snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/cpus", name);
                r = read_line(path, value, sizeof(value));
                if (r == -ENOENT)
                        continue;
                if (r < 0) {
                        diag_add(diag, "%s: %s; the kinds of core it lists are not known", path,
                                 strerror(-r));
                        continue;
                }
                if (cpumask_parse(&cpus, value) < 0) {
                        diag_add(diag, "%s: expected a list of CPUs, got \"%s\"", path, value);
                        return -EINVAL;
                }
                for (unsigned cpu = 0; cpu < d->ncpus; cpu++)
                        if (cpumask_isset(&cpus, cpu) && d->cpus[cpu].present)
                                d->cpus[cpu].pmu_kind = (enum bl_pmu_kind)k;
        }
        return 0;
}

int topology_cpu_number(const char *sysname, unsigned *ret)
{
        unsigned v = 0;
        const char *p;

        if (!sysname || strncmp(sysname, "cpu", 3) != 0 || sysname[3] == '\0')
                return -EINVAL;
        for (p = sysname + 3; *p; p++) {
                if (*p < '0' || *p > '9')
                        return -EINVAL;
                if (v >= BL_MAX_CPUS)
                        return -ERANGE;
                v = v * 10 + (unsigned)(*p - '0');
        }
        if (v >= BL_MAX_CPUS)
                return -ERANGE;
        *ret = v;
        return 0;
}

struct scan {
        struct discovery *d;
        struct bl_diag *diag;
};

static int scan_cpu(struct udev_device *dev, void *userdata)
{
        struct scan *scan = userdata;
        unsigned cpu;
        int r;

        r = topology_cpu_number(udev_device_get_sysname(dev), &cpu);
        if (r == -ERANGE) {
                diag_add(scan->diag, "%s: beyond the %u CPUs supported, ignored", udev_device_get_syspath(dev),
                         BL_MAX_CPUS);
                return 0;
        }
        if (r < 0)
                return 0;
        return read_cpu(scan->d, dev, cpu, scan->diag);
}

int topology_discover(struct bl_topology *t, struct bl_diag *diag)
{
        _cleanup_free_ struct bl_cpu_info *cpus = NULL;
        _cleanup_free_ struct policy_info *policies = NULL;
        struct discovery d = { 0 };
        int r;

        cpus = calloc(BL_MAX_CPUS, sizeof(*cpus));
        if (!cpus)
                return -ENOMEM;
        for (unsigned i = 0; i < BL_MAX_CPUS; i++)
                cpus[i] = (struct bl_cpu_info){
                        .capacity = -1, .max_freq_khz = -1, .policy = -1, .policy_size = -1, .cluster_id = -1,
                };
        d.cpus = cpus;
        r = udev_scan_subsystem("cpu", scan_cpu, &(struct scan){ .d = &d, .diag = diag });
        policies = d.policies;
        if (r < 0)
                return r;
        if (d.ncpus == 0) {
                diag_add(diag, "no CPU found in sysfs (udev subsystem \"cpu\")");
                return -ENODEV;
        }
        fill_policies_of_offline(&d);
        r = read_pmu_kinds(&d, diag);
        if (r < 0)
                return r;

        r = topology_build(t, cpus, d.ncpus);
        /* Only the switcher's presence matters for picking a mode here. */
        if (r >= 0)
                t->switcher = access("/sys/kernel/bL_switcher/active", F_OK) == 0;
        if (r == -E2BIG)
                diag_add(diag, "more kinds of CPU core than the %u clusters supported", BL_MAX_CLUSTERS);
        else if (r < 0)
                diag_add(diag, "cannot group the CPUs into clusters: %s", strerror(-r));
        return r;
}
