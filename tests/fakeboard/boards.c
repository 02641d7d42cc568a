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

#define TRIPS(a) .trips = (a), .ntrips = sizeof(a) / sizeof((a)[0])

/* After the critical trip at 120 °C: the fan's active trips, the passive
 * ones that bind the cpufreq cooling devices, and a hot one, as in
 * exynos5422-odroidxu3-common.dtsi. */
static const struct fakeboard_trip_desc exynos5422_cpu_trips[] = {
        { "active", 50000, 5000 },
        { "active", 60000, 5000 },
        { "passive", 70000, 2000 },
        { "passive", 75000, 2000 },
        { "hot", 85000, 0 },
};

static const struct fakeboard_trip_desc exynos5422_gpu_trips[] = {
        { "passive", 75000, 2000 },
        { "hot", 90000, 0 },
};

static const struct fakeboard_zone_desc exynos5422_zones[] = {
        { "cpu0-thermal", 45000, 120000, TRIPS(exynos5422_cpu_trips) },
        { "cpu1-thermal", 46000, 120000, TRIPS(exynos5422_cpu_trips) },
        { "cpu2-thermal", 45000, 120000, TRIPS(exynos5422_cpu_trips) },
        { "cpu3-thermal", 47000, 120000, TRIPS(exynos5422_cpu_trips) },
        { "gpu-thermal", 42000, 120000, TRIPS(exynos5422_gpu_trips) },
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

/* x86_pkg_temp_thermal offers two passive trips at 0 for userspace
 * (thermald) to set, and no critical one. */
static const struct fakeboard_trip_desc x86_pkg_temp_trips[] = {
        { "passive", 0, 0 },
        { "passive", 0, 0 },
};

static const struct fakeboard_zone_desc x86_symmetric_zones[] = {
        { "x86_pkg_temp", 41000, 0, TRIPS(x86_pkg_temp_trips) },
        { "acpitz", 27800, 105000, NULL, 0 },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* RK3399 (ROCKPro64, Firefly) on a mainline arm64 kernel: two clusters with
 * their own policies and cluster_ids, the OPP tables of rk3399-opp.dtsi and
 * the cpu_capacity the kernel derives from them as conf/boards/rk3399.ini
 * has it: capacity-dmips-mhz 485 and 1024 times each cluster's top
 * frequency (1416 and 1800 MHz), the fastest scaled to 1024, gives 381. arm64 can take any CPU
 * offline through PSCI, cpu0 included, so every CPU has an online file. */
static const unsigned rk3399_a53_opps[] = { 408000, 600000, 816000, 1008000, 1200000, 1416000 };
static const unsigned rk3399_a72_opps[] = {
        408000, 600000, 816000, 1008000, 1200000, 1416000, 1608000, 1800000,
};

static const struct fakeboard_cluster_desc rk3399_clusters[] = {
        {
                .core = "Cortex-A53",
                .cpus = "0-3",
                .capacity = 381,
                .cluster_id = 0,
                .package_id = 0,
                .min_khz = 408000,
                .max_khz = 1416000,
                .opps_khz = rk3399_a53_opps,
                .nopps = COUNT(rk3399_a53_opps),
                .driver = "cpufreq-dt",
                .governor = "schedutil",
                .governors = "conservative ondemand userspace powersave performance schedutil",
                .list_frequencies = true,
                .transition_latency_ns = 40000,
                .pmu = "armv8_cortex_a53",
                .pmu_type = 8,
        },
        {
                .core = "Cortex-A72",
                .cpus = "4-5",
                .capacity = 1024,
                .cluster_id = 1,
                .package_id = 0,
                .min_khz = 408000,
                .max_khz = 1800000,
                .opps_khz = rk3399_a72_opps,
                .nopps = COUNT(rk3399_a72_opps),
                .driver = "cpufreq-dt",
                .governor = "schedutil",
                .governors = "conservative ondemand userspace powersave performance schedutil",
                .list_frequencies = true,
                .transition_latency_ns = 40000,
                .pmu = "armv8_cortex_a72",
                .pmu_type = 9,
        },
};

/* rk3399.dtsi: cpu_alert0/1 and gpu_alert0, passive with 2 °C hysteresis. */
static const struct fakeboard_trip_desc rk3399_cpu_trips[] = {
        { "passive", 70000, 2000 },
        { "passive", 75000, 2000 },
};

static const struct fakeboard_trip_desc rk3399_gpu_trips[] = {
        { "passive", 75000, 2000 },
};

static const struct fakeboard_zone_desc rk3399_zones[] = {
        { "cpu-thermal", 40000, 95000, TRIPS(rk3399_cpu_trips) },
        { "gpu-thermal", 39000, 95000, TRIPS(rk3399_gpu_trips) },
};

/* Google Tensor GS101 (Pixel 6) as conf/boards/gs101.ini models it from
 * gs101.dtsi: 4x Cortex-A55 + 2x Cortex-A76 + 2x Cortex-X1, three cpu-map
 * clusters with a policy each and the three OPP tables. The cpu_capacity
 * values are the kernel's (capacity-dmips-mhz 250, 620, 1024 times the top
 * frequencies): the A55s' top (160) is below the X1s' bottom OPP (182). */
static const unsigned gs101_little_opps[] = {
        300000, 574000, 738000, 930000, 1098000, 1197000, 1328000, 1401000, 1598000, 1704000, 1803000,
};
static const unsigned gs101_mid_opps[] = {
        400000, 553000, 696000, 799000, 910000, 1024000, 1197000,
        1328000, 1491000, 1663000, 1836000, 1999000, 2130000, 2253000,
};
static const unsigned gs101_big_opps[] = {
        500000, 851000, 984000, 1106000, 1277000, 1426000, 1582000, 1745000, 1826000,
        2048000, 2188000, 2252000, 2401000, 2507000, 2630000, 2704000, 2802000,
};

#define ARM64_CLUSTER(name, list, cap, cid, table, min, max)                                        \
        {                                                                                           \
                .core = name, .cpus = list, .capacity = cap, .cluster_id = cid, .package_id = 0,    \
                .min_khz = (min), .max_khz = (max), .opps_khz = (table),                           \
                .nopps = COUNT(table), .driver = "cpufreq-dt", .governor = "schedutil",             \
                .governors = "conservative ondemand userspace powersave performance schedutil",     \
                .list_frequencies = true, .transition_latency_ns = 40000,                           \
        }

static const struct fakeboard_cluster_desc gs101_clusters[] = {
        ARM64_CLUSTER("Cortex-A55", "0-3", 160, 0, gs101_little_opps, 300000, 1803000),
        ARM64_CLUSTER("Cortex-A76", "4-5", 498, 1, gs101_mid_opps, 400000, 2253000),
        ARM64_CLUSTER("Cortex-X1", "6-7", 1024, 2, gs101_big_opps, 500000, 2802000),
};

/* One zone per kind of core, passive at 90 °C. */
static const struct fakeboard_trip_desc gs101_trips[] = {
        { "passive", 90000, 5000 },
};

static const struct fakeboard_zone_desc gs101_zones[] = {
        { "LITTLE", 38000, 115000, TRIPS(gs101_trips) },
        { "MID", 39000, 115000, TRIPS(gs101_trips) },
        { "BIG", 40000, 115000, TRIPS(gs101_trips) },
};

/* RK3588 (Rock 5, Orange Pi 5) as conf/boards/rk3588.ini models it from
 * rk3588-base.dtsi and rk3588-opp.dtsi: 4x Cortex-A55 and two cpu-map
 * clusters of two Cortex-A76, each pair with a policy and an OPP table of
 * its own, identical. The A55s' top (397) is below the A76s' bottom OPP
 * (1200 MHz: 512), so no frequency of the big cores is as slow as the
 * LITTLE ones at their fastest. */
static const unsigned rk3588_little_opps[] = { 1008000, 1200000, 1416000, 1608000, 1800000 };
static const unsigned rk3588_big_opps[] = { 1200000, 1416000, 1608000, 1800000, 2016000, 2208000, 2400000 };

static const struct fakeboard_cluster_desc rk3588_clusters[] = {
        ARM64_CLUSTER("Cortex-A55", "0-3", 397, 0, rk3588_little_opps, 1008000, 1800000),
        ARM64_CLUSTER("Cortex-A76", "4-5", 1024, 1, rk3588_big_opps, 1200000, 2400000),
        ARM64_CLUSTER("Cortex-A76", "6-7", 1024, 2, rk3588_big_opps, 1200000, 2400000),
};

/* soc-thermal of rk3588s.dtsi: passive at 75 and 85 °C, critical at 115. */
static const struct fakeboard_trip_desc rk3588_trips[] = {
        { "passive", 75000, 2000 },
        { "passive", 85000, 2000 },
};

static const struct fakeboard_zone_desc rk3588_zones[] = {
        { "soc-thermal", 40000, 115000, TRIPS(rk3588_trips) },
};

/* Capacities that differ within one cluster: the RK3588 model's A55s, and
 * four A76-class cores that share one cluster_id and one cpufreq policy
 * (one clock) but not one kind, so the kernel gives cpu4-5 1024 and cpu6-7
 * 942 (their own capacity-dmips-mhz). A layout no shipped board has yet; it
 * is what a tree that mixes core types in one frequency domain produces. */
static const unsigned mixed_capacity_big[] = { 1024, 1024, 942, 942 };

static const struct fakeboard_cluster_desc mixed_capacity_cluster_clusters[] = {
        ARM64_CLUSTER("Cortex-A55", "0-3", 397, 0, rk3588_little_opps, 1008000, 1800000),
        {
                .core = "Cortex-A76 (two of another kind, one clock)",
                .cpus = "4-7",
                .capacity = 1024,
                .cpu_capacities = mixed_capacity_big,
                .cluster_id = 1,
                .package_id = 0,
                .min_khz = 1200000,
                .max_khz = 2400000,
                .opps_khz = rk3588_big_opps,
                .nopps = COUNT(rk3588_big_opps),
                .driver = "cpufreq-dt",
                .governor = "schedutil",
                .governors = "conservative ondemand userspace powersave performance schedutil",
                .list_frequencies = true,
                .transition_latency_ns = 40000,
        },
};

/* A phone-class DynamIQ SoC (Snapdragon 855 class): 4 Cortex-A55, 3
 * Cortex-A76 and one faster-binned A76, a cpufreq policy per group
 * (qcom-cpufreq-hw, policy0/4/7), and one DynamIQ cluster: cluster_id is 0
 * for every CPU, so only capacity and the policies tell the kinds apart. */
static const unsigned tri_little_opps[] = {
        300000, 403200, 499200, 576000, 672000, 768000, 844800, 940800, 1036800,
        1113600, 1209600, 1305600, 1382400, 1478400, 1555200, 1632000, 1708800, 1785600,
};
static const unsigned tri_mid_opps[] = {
        710400, 825600, 940800, 1056000, 1171200, 1286400, 1401600, 1497600, 1612800,
        1708800, 1804800, 1920000, 2016000, 2131200, 2227200, 2323200, 2419200,
};
static const unsigned tri_big_opps[] = {
        825600, 940800, 1056000, 1171200, 1286400, 1401600, 1497600, 1612800, 1708800, 1804800,
        1920000, 2016000, 2131200, 2227200, 2323200, 2419200, 2534400, 2649600, 2745600, 2841600,
};

static const struct fakeboard_cluster_desc tri_cluster_clusters[] = {
        {
                .core = "Cortex-A55",
                .cpus = "0-3",
                .capacity = 325,
                .cluster_id = 0,
                .package_id = 0,
                .min_khz = 300000,
                .max_khz = 1785600,
                .opps_khz = tri_little_opps,
                .nopps = COUNT(tri_little_opps),
                .driver = "qcom-cpufreq-hw",
                .governor = "schedutil",
                .governors = "ondemand userspace powersave performance schedutil",
                .list_frequencies = true,
                .transition_latency_ns = 0,
        },
        {
                .core = "Cortex-A76",
                .cpus = "4-6",
                .capacity = 828,
                .cluster_id = 0,
                .package_id = 0,
                .min_khz = 710400,
                .max_khz = 2419200,
                .opps_khz = tri_mid_opps,
                .nopps = COUNT(tri_mid_opps),
                .driver = "qcom-cpufreq-hw",
                .governor = "schedutil",
                .governors = "ondemand userspace powersave performance schedutil",
                .list_frequencies = true,
                .transition_latency_ns = 0,
        },
        {
                .core = "Cortex-A76 (prime)",
                .cpus = "7",
                .capacity = 1024,
                .cluster_id = 0,
                .package_id = 0,
                .min_khz = 825600,
                .max_khz = 2841600,
                .opps_khz = tri_big_opps,
                .nopps = COUNT(tri_big_opps),
                .driver = "qcom-cpufreq-hw",
                .governor = "schedutil",
                .governors = "ondemand userspace powersave performance schedutil",
                .list_frequencies = true,
                .transition_latency_ns = 0,
        },
};

/* sm8150.dtsi style: a passive alert at 90 °C and a hot one at 95 °C. */
static const struct fakeboard_trip_desc tri_cluster_trips[] = {
        { "passive", 90000, 2000 },
        { "hot", 95000, 2000 },
};

static const struct fakeboard_zone_desc tri_cluster_zones[] = {
        { "cpu0-thermal", 38000, 110000, TRIPS(tri_cluster_trips) },
        { "cpu4-thermal", 39000, 110000, TRIPS(tri_cluster_trips) },
        { "cpu7-thermal", 40000, 110000, TRIPS(tri_cluster_trips) },
        { "gpu-thermal", 36000, 110000, TRIPS(tri_cluster_trips) },
};

/* A 12th-generation Core laptop (i7-12700H) on a kernel before 6.16: no
 * cpu_capacity; intel_pstate with a policy per CPU and each CPU's own
 * cpuinfo_max_freq (two favoured P-cores turbo higher); the kinds of core
 * only in the cpus files of the cpu_core and cpu_atom PMUs. P-cores have SMT
 * (CPUs 0-11); the E-cores come in two modules of four sharing an L2, whose
 * id is their cluster_id. x86 cannot take cpu0 offline. */
#define ADL_CLUSTER(name, list, cid, top, kind, type)                                   \
        {                                                                               \
                .core = name, .cpus = list, .cluster_id = cid, .package_id = 0,         \
                .per_cpu_policy = true, .min_khz = 400000, .max_khz = top,              \
                .step_khz = 100000, .driver = "intel_pstate", .governor = "powersave",  \
                .governors = "performance powersave", .transition_latency_ns = 0,       \
                .pmu = kind, .pmu_type = type,                                          \
        }

static const struct fakeboard_cluster_desc intel_hybrid_clusters[] = {
        ADL_CLUSTER("Golden Cove (favoured)", "0-3", FAKEBOARD_CLUSTER_ID_PER_CPU, 4700000, "cpu_core", 4),
        ADL_CLUSTER("Golden Cove", "4-11", FAKEBOARD_CLUSTER_ID_PER_CPU, 4500000, "cpu_core", 4),
        ADL_CLUSTER("Gracemont", "12-15", 64, 3500000, "cpu_atom", 10),
        ADL_CLUSTER("Gracemont", "16-19", 72, 3500000, "cpu_atom", 10),
};

/* The processor thermal device (TCPU): passive at 100 °C under the
 * critical 105 °C. */
static const struct fakeboard_trip_desc tcpu_trips[] = {
        { "passive", 100000, 0 },
};

static const struct fakeboard_zone_desc intel_hybrid_zones[] = {
        { "acpitz", 35000, 105000, NULL, 0 },
        { "x86_pkg_temp", 48000, 0, TRIPS(x86_pkg_temp_trips) },
        { "TCPU", 47000, 105000, TRIPS(tcpu_trips) },
};

/* Versatile Express TC2 (CoreTile V2P-CA15_A7: 2x Cortex-A15 + 3x
 * Cortex-A7) with the in-kernel switcher active, as arm_big_little /
 * vexpress-spc-cpufreq present it (kernel-abi.md 1.3, 1.7): the A15s
 * cpu0-1 are the logical CPUs, each with a policy of its own and the
 * merged virtual table (the A7's 350-1000 MHz halved, then the A15's
 * 500-1200 MHz; this driver lists 500 MHz, which both halves have, twice).
 * The A7s cpu2-4 are offline (their partners and the unpaired one, whose
 * hotplug the switcher vetoes), without cpufreq. cpu_capacity from
 * capacity-dmips-mhz 1024 / 516 scaled by the top OPPs. */
static const unsigned tc2_switcher_virtual_khz[] = {
        175000, 200000, 250000, 300000, 350000, 400000, 450000, 500000,
        500000, 600000, 700000, 800000, 900000, 1000000, 1100000, 1200000,
};

static const struct fakeboard_cluster_desc tc2_switcher_clusters[] = {
        {
                .core = "Cortex-A15 (logical CPU of an A15/A7 pair)",
                .cpus = "0-1",
                .capacity = 1024,
                .cluster_id = 0,
                .package_id = 0,
                .per_cpu_policy = true,
                .min_khz = 175000,
                .max_khz = 1200000,
                .opps_khz = tc2_switcher_virtual_khz,
                .nopps = COUNT(tc2_switcher_virtual_khz),
                .driver = "vexpress-spc",
                .governor = "ondemand",
                .governors = "conservative userspace powersave ondemand performance",
                .list_frequencies = true,
                .transition_latency_ns = 1000000,
        },
        {
                .core = "Cortex-A7",
                .cpus = "2-4",
                .capacity = 430,
                .cluster_id = 1,
                .package_id = 1,
                .min_khz = 350000,
                .max_khz = 1000000,
                .step_khz = 50000,
                .driver = "vexpress-spc",
                .governor = "ondemand",
                .governors = "conservative userspace powersave ondemand performance",
                .transition_latency_ns = 1000000,
                .switcher_offline = true,
        },
};

/* Only a critical trip: the limits fall back to the built-in cap. */
static const struct fakeboard_zone_desc tc2_switcher_zones[] = {
        { "soc_thermal", 44000, 100000, NULL, 0 },
};

/* Many-core boards for the cost benchmarks (tests/bench/run.sh): half the
 * CPUs LITTLE (capacity 512, 0.4-1.6 GHz), half big (1024, 0.6-2.4 GHz), a
 * cpufreq policy per kind, cpuidle, PSI and one CPU thermal zone. Each is
 * made by MANY_CORE_BOARD from its CPU count and the two halves' cpulists. */
#define MANY_CORE_CLUSTER(kind, list, cap, min, max, id)                                        \
        {                                                                                       \
                .core = kind, .cpus = list, .capacity = cap, .cluster_id = id, .package_id = 0, \
                .min_khz = min, .max_khz = max, .step_khz = 200000, .driver = "cpufreq-dt",     \
                .governor = "schedutil", .governors = "performance schedutil",                  \
                .list_frequencies = true, .transition_latency_ns = 100000,                      \
        }
#define MANY_CORE_CLUSTERS(name, little, big)                                                   \
        static const struct fakeboard_cluster_desc name[] = {                                   \
                MANY_CORE_CLUSTER("little", little, 512, 400000, 1600000, 0),                   \
                MANY_CORE_CLUSTER("big", big, 1024, 600000, 2400000, 1),                        \
        }
#define MANY_CORE_BOARD(boardname, n, cluster_table)                                            \
        {                                                                                       \
                .name = boardname, .summary = #n " CPUs, half LITTLE and half big (benchmarks)",\
                .ncpus = n, .kernel_max = 511, .clusters = cluster_table,                       \
                .nclusters = COUNT(cluster_table), .zones = many_core_zones,                    \
                .nzones = COUNT(many_core_zones), .psi = true, .cgroup2 = true,                 \
        }

MANY_CORE_CLUSTERS(many64_clusters, "0-31", "32-63");
MANY_CORE_CLUSTERS(many256_clusters, "0-127", "128-255");

static const struct fakeboard_trip_desc many_core_trips[] = {
        { "passive", 85000, 2000 },
};

static const struct fakeboard_zone_desc many_core_zones[] = {
        { "cpu-thermal", 45000, 105000, TRIPS(many_core_trips) },
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
                .cgroup2 = true,
        },
        {
                /* The same board on a kernel whose cpuidle credits an idle
                 * period when it ends, with the CPUs' timers waking them
                 * every ~11 ms: the residency read per interval aliases. */
                .name = "exynos5422-kernel-idle",
                .summary = "exynos5422, cpuidle residency credited as the kernel does (11 ms timer wakes)",
                .ncpus = 8,
                .kernel_max = 15,
                .fixed_cpus = "0",
                .clusters = exynos5422_clusters,
                .nclusters = sizeof(exynos5422_clusters) / sizeof(exynos5422_clusters[0]),
                .zones = exynos5422_zones,
                .nzones = sizeof(exynos5422_zones) / sizeof(exynos5422_zones[0]),
                .psi = true,
                .cgroup2 = true,
                .residency = FAKEBOARD_RESIDENCY_KERNEL,
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
        {
                .name = "rk3399",
                .summary = "RK3399 (ROCKPro64): 4x Cortex-A53 + 2x Cortex-A72, mainline arm64 kernel",
                .ncpus = 6,
                .kernel_max = 255,
                .clusters = rk3399_clusters,
                .nclusters = COUNT(rk3399_clusters),
                .zones = rk3399_zones,
                .nzones = COUNT(rk3399_zones),
                .psi = true,
                .cgroup2 = true,
        },
        {
                .name = "tri-cluster",
                .summary = "phone SoC: 4x Cortex-A55 + 3x Cortex-A76 + 1x A76 prime, one DynamIQ cluster",
                .ncpus = 8,
                .kernel_max = 255,
                .clusters = tri_cluster_clusters,
                .nclusters = COUNT(tri_cluster_clusters),
                .zones = tri_cluster_zones,
                .nzones = COUNT(tri_cluster_zones),
                .psi = true,
                .cgroup2 = true,
        },
        {
                .name = "intel-hybrid",
                .summary = "i7-12700H laptop: 6 P-cores with SMT + 8 E-cores, intel_pstate, no cpu_capacity",
                .ncpus = 20,
                .kernel_max = 8191,
                .fixed_cpus = "0",
                .clusters = intel_hybrid_clusters,
                .nclusters = COUNT(intel_hybrid_clusters),
                .zones = intel_hybrid_zones,
                .nzones = COUNT(intel_hybrid_zones),
                .psi = true,
                .cgroup2 = true,
        },        {
                .name = "tc2-switcher",
                .summary = "Versatile Express TC2: 2x Cortex-A15 + 3x Cortex-A7, in-kernel switcher active",
                .ncpus = 5,
                .kernel_max = 7,
                .fixed_cpus = "0",
                .clusters = tc2_switcher_clusters,
                .nclusters = COUNT(tc2_switcher_clusters),
                .zones = tc2_switcher_zones,
                .nzones = COUNT(tc2_switcher_zones),
                .psi = false,
                .bl_switcher = true,
        },
        {
                .name = "gs101",
                .summary = "Google Tensor GS101 (Pixel 6): 4x Cortex-A55 + 2x Cortex-A76 + 2x Cortex-X1",
                .ncpus = 8,
                .kernel_max = 255,
                .clusters = gs101_clusters,
                .nclusters = COUNT(gs101_clusters),
                .zones = gs101_zones,
                .nzones = COUNT(gs101_zones),
                .psi = true,
                .cgroup2 = true,
        },
        {
                .name = "rk3588",
                .summary = "RK3588 (Rock 5): 4x Cortex-A55 + 2x2 Cortex-A76, LITTLE's top below big's bottom",
                .ncpus = 8,
                .kernel_max = 255,
                .clusters = rk3588_clusters,
                .nclusters = COUNT(rk3588_clusters),
                .zones = rk3588_zones,
                .nzones = COUNT(rk3588_zones),
                .psi = true,
                .cgroup2 = true,
        },
        {
                .name = "mixed-capacity-cluster",
                .summary = "4x Cortex-A55 + one cluster and policy of 4 cores of two capacities (1024, 942)",
                .ncpus = 8,
                .kernel_max = 255,
                .clusters = mixed_capacity_cluster_clusters,
                .nclusters = COUNT(mixed_capacity_cluster_clusters),
                .zones = rk3588_zones,
                .nzones = COUNT(rk3588_zones),
                .psi = true,
                .cgroup2 = true,
        },
        MANY_CORE_BOARD("many-64", 64, many64_clusters),
        MANY_CORE_BOARD("many-256", 256, many256_clusters),
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
