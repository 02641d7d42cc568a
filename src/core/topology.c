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
 * and are taken as one kind. CPUs of equal capacity form one cluster. */
#include <errno.h>
#include <stdio.h>
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

static unsigned scale_by_freq(int freq, int top_freq)
{
        return (unsigned)(((uint64_t)BL_CAPACITY_SCALE * (unsigned)freq + (unsigned)top_freq / 2) /
                          (unsigned)top_freq);
}

/* Gives every present CPU a capacity in cap[] and says how in t->how. */
static void assign_capacities(struct bl_topology *t, const struct cpu_group *g,
                              const struct bl_cpu_info *cpus, unsigned ncpus, unsigned *cap)
{
        bool any_capacity = false, any_policy = false, any_cluster_id = false;
        bool multi_cpu_policy = false, all_freqs = true, estimated = false;
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
                snprintf(t->how, sizeof(t->how), "%s%s",
                         any_policy       ? "cpufreq related_cpus + cpu_capacity"
                         : any_cluster_id ? "topology cluster_id + cpu_capacity"
                                          : "cpu_capacity",
                         estimated ? "; capacity of CPUs without one estimated from cpuinfo_max_freq" : "");
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
                cpuset_set(&t->present, i);
                if (cpus[i].online)
                        cpuset_set(&t->online, i);
                if (cpus[i].can_offline)
                        cpuset_set(&t->can_offline, i);
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
                cpuset_set(&c->cpus, i);
                if (g.max_freq[g.leader[i]] > 0 && (unsigned)g.max_freq[g.leader[i]] > c->max_freq_khz)
                        c->max_freq_khz = (unsigned)g.max_freq[g.leader[i]];
                t->cpu_cluster[i] = (int)k;
        }
        return 0;
}
