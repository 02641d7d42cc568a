/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kinds of core are told apart by capacity, never by cluster_id: ids can be
 * arbitrary (Exynos 5422 numbers its LITTLE cluster 1 and its big one 0, ACPI
 * gives node offsets) and a DynamIQ "cluster" may hold every core.
 *
 * Each present CPU belongs to a group (its cpufreq policy, else its
 * cluster_id, else one group for all). The group lends its capacity to those
 * of its CPUs that report none (kernels that hide cpu_capacity while a CPU is
 * offline); a CPU that reports one keeps its own. Without any cpu_capacity,
 * multi-CPU policies (ARM clusters on old kernels) are scaled by
 * cpuinfo_max_freq, whereas per-CPU policies (x86) differ only by turbo binning
 * and are taken as one kind, unless hybrid PMUs tell the kinds apart (below).
 * CPUs of equal capacity form one cluster.
 *
 * Intel hybrid parts without cpu_capacity (kernels before 6.16) list their
 * P-, E- and LPE-cores in the cpus files of the PMUs cpu_core, cpu_atom and
 * cpu_lowpower. Those files decide the grouping; the capacity of a kind is
 * an estimate: its top cpuinfo_max_freq relative to the P-cores' times an IPC
 * factor per kind. The factor 787/1000 for E-cores is intel_pstate's own
 * ratio between the kinds' performance units (78741 kHz per P-core HWP level
 * on Alder Lake against 100000 kHz per E-core level), which is what the
 * kernel's cpu_capacity of later versions derives from; LPE cores share the
 * E-core microarchitecture. The kinds' order is the PMUs', not the estimate's:
 * an estimate that would put a kind at or above a faster one is lowered. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/topology.h"

enum group_key {
        KEY_ALL,
        KEY_CLUSTER_ID,
        KEY_POLICY,
};

struct cpu_group {
        enum group_key key[BL_MAX_CPUS];
        int value[BL_MAX_CPUS];
        int leader[BL_MAX_CPUS];        /* first CPU of the group, -1 if not present */
        int capacity[BL_MAX_CPUS];      /* per leader: max known capacity, -1 if none */
        int max_freq[BL_MAX_CPUS];      /* per leader: max known cpuinfo_max_freq, -1 if none */
        int size[BL_MAX_CPUS];          /* per leader: CPUs in the group or its policy */
};

static void group_key_of(const struct bl_cpu_info *c, enum group_key *key, int *value)
{
        if (c->policy >= 0) {
                *key = KEY_POLICY;
                *value = c->policy;
        } else if (c->cluster_id >= 0) {
                *key = KEY_CLUSTER_ID;
                *value = c->cluster_id;
        } else {
                *key = KEY_ALL;
                *value = 0;
        }
}

static void group_cpus(struct cpu_group *g, const struct bl_cpu_info *cpus, unsigned ncpus)
{
        for (unsigned i = 0; i < ncpus; i++) {
                g->leader[i] = -1;
                g->capacity[i] = -1;
                g->max_freq[i] = -1;
                g->size[i] = 0;
                if (!cpus[i].present)
                        continue;
                group_key_of(&cpus[i], &g->key[i], &g->value[i]);
                g->leader[i] = (int)i;
                for (unsigned j = 0; j < i; j++)
                        if (g->leader[j] == (int)j && g->key[j] == g->key[i] && g->value[j] == g->value[i]) {
                                g->leader[i] = (int)j;
                                break;
                        }
        }

        for (unsigned i = 0; i < ncpus; i++) {
                int l = g->leader[i];

                if (l < 0)
                        continue;
                if (cpus[i].capacity > g->capacity[l])
                        g->capacity[l] = cpus[i].capacity;
                if (cpus[i].max_freq_khz > g->max_freq[l])
                        g->max_freq[l] = cpus[i].max_freq_khz;
                g->size[l]++;
                if (cpus[i].policy_size > g->size[l])
                        g->size[l] = cpus[i].policy_size;
        }
}

static const char *const pmu_kind_names[BL_PMU_KIND_COUNT] = {
        [BL_PMU_KIND_LOWPOWER] = "cpu_lowpower",
        [BL_PMU_KIND_ATOM] = "cpu_atom",
        [BL_PMU_KIND_CORE] = "cpu_core",
};

/* Per mille of a P-core's work per cycle; see the top of the file. */
static const unsigned pmu_kind_ipc_permille[BL_PMU_KIND_COUNT] = {
        [BL_PMU_KIND_LOWPOWER] = 787,
        [BL_PMU_KIND_ATOM] = 787,
        [BL_PMU_KIND_CORE] = 1000,
};

enum bl_pmu_kind topology_pmu_kind_from_name(const char *pmu)
{
        for (unsigned k = BL_PMU_KIND_NONE + 1; k < BL_PMU_KIND_COUNT; k++)
                if (strcmp(pmu, pmu_kind_names[k]) == 0)
                        return (enum bl_pmu_kind)k;
        return BL_PMU_KIND_NONE;
}

const char *topology_pmu_kind_name(enum bl_pmu_kind kind)
{
        return kind > BL_PMU_KIND_NONE && kind < BL_PMU_KIND_COUNT ? pmu_kind_names[kind] : NULL;
}

static unsigned scale_by_freq(int freq, int top_freq)
{
        return (unsigned)(((uint64_t)BL_CAPACITY_SCALE * (unsigned)freq + (unsigned)top_freq / 2) /
                          (unsigned)top_freq);
}

/* The kind of each present CPU; one the PMUs do not list (it was offline)
 * takes the kind whose top frequency is nearest its own, or the fastest
 * kind when its frequency is unknown. Returns how many kinds there are. */
static unsigned hybrid_kinds(const struct cpu_group *g, const struct bl_cpu_info *cpus, unsigned ncpus,
                             enum bl_pmu_kind *kind, int *kind_freq)
{
        bool seen[BL_PMU_KIND_COUNT] = { false };
        unsigned nkinds = 0;
        unsigned fastest = BL_PMU_KIND_NONE;

        for (unsigned k = 0; k < BL_PMU_KIND_COUNT; k++)
                kind_freq[k] = -1;
        for (unsigned i = 0; i < ncpus; i++) {
                enum bl_pmu_kind k = cpus[i].pmu_kind;

                kind[i] = BL_PMU_KIND_NONE;
                if (g->leader[i] < 0 || k <= BL_PMU_KIND_NONE || k >= BL_PMU_KIND_COUNT)
                        continue;
                kind[i] = k;
                if (!seen[k])
                        nkinds++;
                seen[k] = true;
                if (k > fastest)
                        fastest = k;
                if (cpus[i].max_freq_khz > kind_freq[k])
                        kind_freq[k] = cpus[i].max_freq_khz;
        }
        if (nkinds < 2)
                return nkinds;

        for (unsigned i = 0; i < ncpus; i++) {
                long best_distance = -1;

                if (g->leader[i] < 0 || kind[i] != BL_PMU_KIND_NONE)
                        continue;
                kind[i] = (enum bl_pmu_kind)fastest;
                if (cpus[i].max_freq_khz <= 0)
                        continue;
                for (unsigned k = BL_PMU_KIND_NONE + 1; k < BL_PMU_KIND_COUNT; k++) {
                        long distance = labs((long)kind_freq[k] - cpus[i].max_freq_khz);

                        if (!seen[k] || kind_freq[k] <= 0)
                                continue;
                        if (best_distance >= 0 && distance >= best_distance)
                                continue;
                        best_distance = distance;
                        kind[i] = (enum bl_pmu_kind)k;
                }
        }
        return nkinds;
}

/* Capacities of the kinds of a hybrid machine without cpu_capacity, as the
 * top of the file explains. */
static void assign_hybrid_capacities(struct bl_topology *t, const enum bl_pmu_kind *kind,
                                     const int *kind_freq, unsigned ncpus, unsigned *cap)
{
        unsigned kind_cap[BL_PMU_KIND_COUNT] = { 0 };
        bool present[BL_PMU_KIND_COUNT] = { false };
        unsigned fastest = BL_PMU_KIND_NONE, above = 0;
        const char *separator = "";
        size_t len;

        for (unsigned i = 0; i < ncpus; i++)
                if (kind[i] != BL_PMU_KIND_NONE) {
                        present[kind[i]] = true;
                        if (kind[i] > fastest)
                                fastest = kind[i];
                }
        for (unsigned k = BL_PMU_KIND_COUNT - 1; k > BL_PMU_KIND_NONE; k--) {
                uint64_t c;

                if (!present[k])
                        continue;
                c = (uint64_t)BL_CAPACITY_SCALE * pmu_kind_ipc_permille[k];
                if (kind_freq[k] > 0 && kind_freq[fastest] > 0)
                        c = (c * (unsigned)kind_freq[k] + (unsigned)kind_freq[fastest] / 2) /
                            (unsigned)kind_freq[fastest];
                c = (c + 500) / 1000;
                if (k == fastest)
                        c = BL_CAPACITY_SCALE;
                else if (c >= above)
                        c = above - 1;
                if (c == 0)
                        c = 1;
                kind_cap[k] = (unsigned)c;
                above = (unsigned)c;
        }
        for (unsigned i = 0; i < ncpus; i++)
                if (kind[i] != BL_PMU_KIND_NONE)
                        cap[i] = kind_cap[kind[i]];

        len = (size_t)snprintf(t->how, sizeof(t->how), "hybrid PMU cpus files (");
        for (unsigned k = BL_PMU_KIND_NONE + 1; k < BL_PMU_KIND_COUNT && len < sizeof(t->how); k++)
                if (present[k]) {
                        len += (size_t)snprintf(t->how + len, sizeof(t->how) - len, "%s%s", separator,
                                                pmu_kind_names[k]);
                        separator = ", ";
                }
        if (len < sizeof(t->how))
                snprintf(t->how + len, sizeof(t->how) - len,
                         "); no cpu_capacity: capacity from cpuinfo_max_freq and core type");
}

/* Gives every present CPU a capacity in cap[] and says how in t->how. */
static void assign_capacities(struct bl_topology *t, const struct cpu_group *g,
                              const struct bl_cpu_info *cpus, unsigned ncpus, unsigned *cap)
{
        bool any_capacity = false, any_policy = false, any_cluster_id = false;
        bool multi_cpu_policy = false, all_freqs = true, estimated = false;
        enum bl_pmu_kind kind[BL_MAX_CPUS];
        int kind_freq[BL_PMU_KIND_COUNT];
        int top_freq = 0;

        for (unsigned i = 0; i < ncpus; i++) {
                int l = g->leader[i];

                if (l < 0)
                        continue;
                if (cpus[i].capacity > 0)
                        any_capacity = true;
                if (g->key[l] == KEY_POLICY) {
                        any_policy = true;
                        if (g->size[l] > 1)
                                multi_cpu_policy = true;
                } else if (g->key[l] == KEY_CLUSTER_ID) {
                        any_cluster_id = true;
                }
                if (g->max_freq[l] > 0) {
                        if (g->max_freq[l] > top_freq)
                                top_freq = g->max_freq[l];
                } else {
                        all_freqs = false;
                }
        }

        if (any_capacity) {
                for (unsigned i = 0; i < ncpus; i++) {
                        int l = g->leader[i];

                        if (l < 0)
                                continue;
                        if (cpus[i].capacity > 0) {
                                cap[i] = (unsigned)cpus[i].capacity;
                        } else if (g->capacity[l] > 0) {
                                cap[i] = (unsigned)g->capacity[l];
                        } else {
                                /* The whole group hides its capacity: a guess that at
                                 * least keeps faster-clocked groups higher. */
                                estimated = true;
                                if (g->max_freq[l] > 0 && top_freq > 0)
                                        cap[i] = scale_by_freq(g->max_freq[l], top_freq);
                                else
                                        cap[i] = BL_CAPACITY_SCALE;
                        }
                }
                t->capacity_from_kernel = !estimated;
                snprintf(t->how, sizeof(t->how), "%s%s",
                         any_policy       ? "cpufreq related_cpus + cpu_capacity"
                         : any_cluster_id ? "topology cluster_id + cpu_capacity"
                                          : "cpu_capacity",
                         estimated ? "; capacity of CPUs without one estimated from cpuinfo_max_freq" : "");
                return;
        }

        if (hybrid_kinds(g, cpus, ncpus, kind, kind_freq) >= 2) {
                assign_hybrid_capacities(t, kind, kind_freq, ncpus, cap);
                return;
        }

        if (multi_cpu_policy && all_freqs) {
                for (unsigned i = 0; i < ncpus; i++)
                        if (g->leader[i] >= 0)
                                cap[i] = scale_by_freq(g->max_freq[g->leader[i]], top_freq);
                snprintf(t->how, sizeof(t->how), "cpuinfo_max_freq of cpufreq policies (no cpu_capacity)");
                return;
        }

        for (unsigned i = 0; i < ncpus; i++)
                cap[i] = BL_CAPACITY_SCALE;
        if (multi_cpu_policy)
                snprintf(t->how, sizeof(t->how), "no cpu_capacity and no cpuinfo_max_freq: one kind assumed");
        else if (any_policy)
                snprintf(t->how, sizeof(t->how),
                         "no cpu_capacity and per-CPU cpufreq policies: one kind assumed");
        else
                snprintf(t->how, sizeof(t->how), "no cpu_capacity and no cpufreq: one kind assumed");
}

int topology_build(struct bl_topology *t, const struct bl_cpu_info *cpus, unsigned ncpus)
{
        static const struct bl_topology empty = { 0 };
        struct cpu_group g;
        unsigned cap[BL_MAX_CPUS];
        unsigned caps[BL_MAX_CLUSTERS];
        unsigned ncaps = 0;

        *t = empty;
        for (unsigned i = 0; i < BL_MAX_CPUS; i++)
                t->cpu_cluster[i] = -1;
        if (ncpus > BL_MAX_CPUS)
                return -E2BIG;

        for (unsigned i = 0; i < ncpus; i++) {
                if (!cpus[i].present)
                        continue;
                cpumask_set(&t->present, i);
                if (cpus[i].online)
                        cpumask_set(&t->online, i);
                if (cpus[i].can_offline)
                        cpumask_set(&t->can_offline, i);
                t->ncpus = i + 1;
        }
        if (t->ncpus == 0)
                return -ENODEV;

        group_cpus(&g, cpus, t->ncpus);
        assign_capacities(t, &g, cpus, t->ncpus, cap);

        /* Distinct capacities, ascending: the clusters from efficient to fast. */
        for (unsigned i = 0; i < t->ncpus; i++) {
                unsigned pos = 0;

                if (g.leader[i] < 0)
                        continue;
                while (pos < ncaps && caps[pos] < cap[i])
                        pos++;
                if (pos < ncaps && caps[pos] == cap[i])
                        continue;
                if (ncaps == BL_MAX_CLUSTERS)
                        return -E2BIG;
                memmove(&caps[pos + 1], &caps[pos], (ncaps - pos) * sizeof(caps[0]));
                caps[pos] = cap[i];
                ncaps++;
        }

        t->nclusters = ncaps;
        for (unsigned k = 0; k < ncaps; k++)
                t->clusters[k].capacity = caps[k];
        for (unsigned i = 0; i < t->ncpus; i++) {
                struct bl_cluster *c;
                unsigned k = 0;

                if (g.leader[i] < 0)
                        continue;
                while (caps[k] != cap[i])
                        k++;
                c = &t->clusters[k];
                cpumask_set(&c->cpus, i);
                if (g.max_freq[g.leader[i]] > 0 && (unsigned)g.max_freq[g.leader[i]] > c->max_freq_khz)
                        c->max_freq_khz = (unsigned)g.max_freq[g.leader[i]];
                t->cpu_cluster[i] = (int)k;
        }
        return 0;
}

void topology_describe_kinds(const struct bl_topology *t, char *buf, size_t size)
{
        size_t len = 0;

        buf[0] = '\0';
        for (unsigned k = 0; k < t->nclusters && len < size; k++) {
                char cpus[256];

                cpumask_format(&t->clusters[k].cpus, cpus, sizeof(cpus));
                len += (size_t)snprintf(buf + len, size - len, "%scpus %s (capacity %u)", k ? ", " : "", cpus,
                                        t->clusters[k].capacity);
        }
}
