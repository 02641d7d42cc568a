/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The machine's clusters as the kernel describes them. Sources gather the raw
 * per-CPU facts from sysfs; topology_build() groups and orders them here,
 * without I/O, so that every board layout can be tested from plain data. */

#include "core/cpumask.h"

/* The kind of core of a hybrid x86 CPU: the perf PMU whose cpus file lists
 * it (/sys/bus/event_source/devices/<pmu>/cpus). Ordered from most efficient
 * to fastest; 0 when no hybrid PMU lists the CPU (non-hybrid machines, ARM,
 * and CPUs that were offline when the PMU was last updated). */
enum bl_pmu_kind {
        BL_PMU_KIND_NONE,
        BL_PMU_KIND_LOWPOWER,   /* cpu_lowpower: low-power E-cores of the SoC tile */
        BL_PMU_KIND_ATOM,       /* cpu_atom: E-cores */
        BL_PMU_KIND_CORE,       /* cpu_core: P-cores */
        BL_PMU_KIND_COUNT,
};

/* What sysfs says about one CPU; -1 where the kernel does not say. */
struct bl_cpu_info {
        bool present;
        bool online;
        bool can_offline;       /* has a writable cpuN/online */
        int capacity;           /* cpuN/cpu_capacity */
        int max_freq_khz;       /* cpufreq cpuinfo_max_freq */
        int policy;             /* first CPU of the cpufreq policy's related_cpus */
        int policy_size;        /* CPUs in related_cpus */
        int cluster_id;         /* topology/cluster_id */
        enum bl_pmu_kind pmu_kind;
};

struct bl_cluster {
        bl_cpumask cpus;
        unsigned capacity;      /* per-CPU capacity at the top frequency */
        unsigned max_freq_khz;  /* 0 when unknown */
};

struct bl_topology {
        unsigned ncpus;                 /* highest present CPU + 1 */
        bl_cpumask present;
        bl_cpumask online;              /* at discovery time */
        bl_cpumask can_offline;
        unsigned nclusters;
        struct bl_cluster clusters[BL_MAX_CLUSTERS];   /* efficient -> fast */
        int cpu_cluster[BL_MAX_CPUS];   /* index into clusters, -1 if none */
        char how[160];                  /* how the kinds of core were told apart */
        bool capacity_from_kernel;      /* capacities are the kernel's cpu_capacity, not estimates */
        bool switcher;                  /* the kernel's big.LITTLE switcher is there (bL_switcher) */
};

/* Groups CPUs into clusters of one kind of core and orders them by capacity.
 * Returns 0, or -ENODEV (no CPU present), -E2BIG (more kinds of core than
 * BL_MAX_CLUSTERS). A symmetric machine gives nclusters == 1; that is not an
 * error here, the caller decides what it means. */
int topology_build(struct bl_topology *t, const struct bl_cpu_info *cpus, unsigned ncpus);

/* The kinds of core for people: "cpus 0-3 (capacity 377), cpus 4-7
 * (capacity 1024)". */
void topology_describe_kinds(const struct bl_topology *t, char *buf, size_t size);

/* The kind a hybrid PMU's name stands for ("cpu_atom" -> BL_PMU_KIND_ATOM);
 * BL_PMU_KIND_NONE for any other PMU. */
enum bl_pmu_kind topology_pmu_kind_from_name(const char *pmu);
/* "cpu_atom" for BL_PMU_KIND_ATOM; NULL for NONE or out of range. */
const char *topology_pmu_kind_name(enum bl_pmu_kind kind);
