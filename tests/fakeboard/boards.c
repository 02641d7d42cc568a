/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The boards the fake can be, as their kernels present them, and the load
 * patterns the demo plays. Adding a board is adding a table here. */
#include <stdio.h>
#include <string.h>

#include "tests/fakeboard/fakeboard.h"

/* ODROID-XU3/XU4 on a mainline kernel. The boot cluster is the Cortex-A7
 * one (MPIDR cluster 1); cpu_capacity comes from capacity-dmips-mhz scaled
 * by each cluster's top OPP. ARM32 cannot offline cpu0, so it has no online
 * file. No cpuidle driver: load is only visible through /proc/stat. */
static const struct fakeboard_cluster_desc exynos5422_clusters[] = {
        {
                .core = "Cortex-A7",
                .cpus = "0-3",
                .capacity = 377,
                .cluster_id = 1,
                .package_id = 1,
                .min_khz = 200000,
                .max_khz = 1400000,
                .step_khz = 100000,
                .driver = "cpufreq-dt",
                .governor = "schedutil",
                .governors = "conservative userspace powersave ondemand performance schedutil",
                .list_frequencies = true,
                .transition_latency_ns = 140000,
        },
        {
                .core = "Cortex-A15",
                .cpus = "4-7",
                .capacity = 1024,
                .cluster_id = 0,
                .package_id = 0,
                .min_khz = 200000,
                .max_khz = 2000000,
                .step_khz = 100000,
                .driver = "cpufreq-dt",
                .governor = "schedutil",
                .governors = "conservative userspace powersave ondemand performance schedutil",
                .list_frequencies = true,
                .transition_latency_ns = 140000,
        },
};

static const struct fakeboard_zone_desc exynos5422_zones[] = {
        { "cpu0-thermal", 45000, 120000 },
        { "cpu1-thermal", 46000, 120000 },
        { "cpu2-thermal", 45000, 120000 },
        { "cpu3-thermal", 47000, 120000 },
        { "gpu-thermal", 42000, 120000 },
};

/* A plain 4-core x86 desktop: intel_pstate in active mode, a policy per CPU,
 * no cpu_capacity, and two "favoured" cores that turbo higher (ITMT). The
 * cores differ only by binning: one kind of core. Debian builds PSI but
 * disables it by default, so there is no /proc/pressure. */
static const struct fakeboard_cluster_desc x86_symmetric_clusters[] = {
        {
                .core = "x86-64",
                .cpus = "0,3",
                .cluster_id = FAKEBOARD_CLUSTER_ID_PER_CPU,
                .package_id = 0,
                .per_cpu_policy = true,
                .min_khz = 800000,
                .max_khz = 4700000,
                .step_khz = 100000,
                .driver = "intel_pstate",
                .governor = "powersave",
                .governors = "performance powersave",
                .transition_latency_ns = 0,
        },
        {
                .core = "x86-64 (favoured)",
                .cpus = "1-2",
                .cluster_id = FAKEBOARD_CLUSTER_ID_PER_CPU,
                .package_id = 0,
                .per_cpu_policy = true,
                .min_khz = 800000,
                .max_khz = 4900000,
                .step_khz = 100000,
                .driver = "intel_pstate",
                .governor = "powersave",
                .governors = "performance powersave",
                .transition_latency_ns = 0,
        },
};

static const struct fakeboard_zone_desc x86_symmetric_zones[] = {
        { "x86_pkg_temp", 41000, 100000 },
        { "acpitz", 27800, 105000 },
};

static const struct fakeboard_desc boards[] = {
        {
                .name = "exynos5422",
                .summary = "ODROID-XU3/XU4: 4x Cortex-A7 + 4x Cortex-A15, mainline kernel",
                .ncpus = 8,
                .kernel_max = 15,
                .fixed_cpus = "0",
                .clusters = exynos5422_clusters,
                .nclusters = sizeof(exynos5422_clusters) / sizeof(exynos5422_clusters[0]),
                .zones = exynos5422_zones,
                .nzones = sizeof(exynos5422_zones) / sizeof(exynos5422_zones[0]),
                .psi = true,
        },
        {
                .name = "x86-symmetric",
                .summary = "4-core x86 desktop, intel_pstate, one kind of core",
                .ncpus = 4,
                .kernel_max = 8191,
                .fixed_cpus = "0",
                .clusters = x86_symmetric_clusters,
                .nclusters = sizeof(x86_symmetric_clusters) / sizeof(x86_symmetric_clusters[0]),
                .zones = x86_symmetric_zones,
                .nzones = sizeof(x86_symmetric_zones) / sizeof(x86_symmetric_zones[0]),
                .psi = false,
        },
};

/* Idle-ish, a load the LITTLE cluster cannot carry, idle-ish again, then a
 * moderate load that fits it: 250 < 80% of 377, so the daemon stays put. */
static const struct fakeboard_phase default_phases[] = {
        { .duration_ms = 1000, .ntasks = 1, .demand = { 40 } },
        { .duration_ms = 3000, .ntasks = 2, .demand = { 600, 600 } },
        { .duration_ms = 3000, .ntasks = 1, .demand = { 40 } },
        { .duration_ms = 2000, .ntasks = 1, .demand = { 250 } },
};

/* Short bursts the up delay and the decayed demand should ride out, then a
 * sustained one that should not be ignored. */
static const struct fakeboard_phase bursts_phases[] = {
        { .duration_ms = 1000, .ntasks = 1, .demand = { 40 } },
        { .duration_ms = 10, .ntasks = 2, .demand = { 700, 700 } },
        { .duration_ms = 490, .ntasks = 1, .demand = { 40 } },
        { .duration_ms = 10, .ntasks = 2, .demand = { 700, 700 } },
        { .duration_ms = 490, .ntasks = 1, .demand = { 40 } },
        { .duration_ms = 10, .ntasks = 2, .demand = { 700, 700 } },
        { .duration_ms = 990, .ntasks = 1, .demand = { 40 } },
        { .duration_ms = 3000, .ntasks = 2, .demand = { 700, 700 } },
        { .duration_ms = 3000, .ntasks = 1, .demand = { 40 } },
};

static const struct fakeboard_pattern patterns[] = {
        {
                .name = "default",
                .summary = "idle, 2 tasks of 600 for 3 s, idle, 1 task of 250 (fits LITTLE)",
                .phases = default_phases,
                .nphases = sizeof(default_phases) / sizeof(default_phases[0]),
        },
        {
                .name = "bursts",
                .summary = "three 10 ms bursts that should not switch, then 3 s of 2 tasks of 700",
                .phases = bursts_phases,
                .nphases = sizeof(bursts_phases) / sizeof(bursts_phases[0]),
        },
};

const struct fakeboard_desc *fakeboard_desc_get(unsigned index)
{
        return index < sizeof(boards) / sizeof(boards[0]) ? &boards[index] : NULL;
}

const struct fakeboard_desc *fakeboard_desc_find(const char *name)
{
        const struct fakeboard_desc *d;

        for (unsigned i = 0; (d = fakeboard_desc_get(i)); i++)
                if (strcmp(d->name, name) == 0)
                        return d;
        return NULL;
}

const struct fakeboard_pattern *fakeboard_pattern_get(unsigned index)
{
        return index < sizeof(patterns) / sizeof(patterns[0]) ? &patterns[index] : NULL;
}

const struct fakeboard_pattern *fakeboard_pattern_find(const char *name)
{
        const struct fakeboard_pattern *p;

        for (unsigned i = 0; (p = fakeboard_pattern_get(i)); i++)
                if (strcmp(p->name, name) == 0)
                        return p;
        return NULL;
}

void fakeboard_phase_describe(const struct fakeboard_phase *phase, char *buf, size_t size)
{
        size_t len = 0;
        bool counted[FAKEBOARD_MAX_TASKS] = { false };
        unsigned ntasks = phase->ntasks < FAKEBOARD_MAX_TASKS ? phase->ntasks : FAKEBOARD_MAX_TASKS;

        if (size == 0)
                return;
        buf[0] = '\0';
        if (ntasks == 0) {
                snprintf(buf, size, "no load");
                return;
        }
        /* Group equal demands, in the order they first appear. */
        for (unsigned i = 0; i < ntasks; i++) {
                unsigned n = 0;
                int w;

                if (counted[i])
                        continue;
                for (unsigned j = i; j < ntasks; j++)
                        if (phase->demand[j] == phase->demand[i]) {
                                counted[j] = true;
                                n++;
                        }
                w = snprintf(buf + len, size - len, "%s%u task%s of %u", len ? " + " : "", n,
                             n == 1 ? "" : "s", phase->demand[i]);
                if (w < 0 || (size_t)w >= size - len)
                        return;
                len += (size_t)w;
        }
}
