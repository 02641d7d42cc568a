/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Board layouts as sysfs describes them, one per test, through topology_build()
 * and ladder_build(). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ladder.h"
#include "core/topology.h"

/* A run of CPUs that share everything sysfs says about them. */
struct cpu_run {
        unsigned first, last;
        int capacity, max_freq_khz, policy, policy_size, cluster_id;
        bool offline;
};

static unsigned fill(struct bl_cpu_info *cpus, const struct cpu_run *runs, unsigned nruns)
{
        unsigned n = 0;

        for (unsigned r = 0; r < nruns; r++)
                for (unsigned c = runs[r].first; c <= runs[r].last; c++) {
                        cpus[c] = (struct bl_cpu_info){
                                .present = true,
                                .online = !runs[r].offline,
                                .can_offline = c != 0,
                                .capacity = runs[r].capacity,
                                .max_freq_khz = runs[r].max_freq_khz,
                                .policy = runs[r].policy,
                                .policy_size = runs[r].policy_size,
                                .cluster_id = runs[r].cluster_id,
                        };
                        if (c + 1 > n)
                                n = c + 1;
                }
        return n;
}

static void assert_cluster(const struct bl_topology *t, unsigned k, const char *cpus, unsigned capacity,
                           unsigned max_freq_khz)
{
        char buf[64];

        ck_assert_uint_lt(k, t->nclusters);
        cpumask_format(&t->clusters[k].cpus, buf, sizeof(buf));
        ck_assert_str_eq(buf, cpus);
        ck_assert_uint_eq(t->clusters[k].capacity, capacity);
        ck_assert_uint_eq(t->clusters[k].max_freq_khz, max_freq_khz);
}

static void assert_set(const bl_cpumask *s, const char *want)
{
        char buf[64];

        cpumask_format(s, buf, sizeof(buf));
        ck_assert_str_eq(buf, want);
}

START_TEST(test_exynos5422)
{
        /* cluster_id is 1 for the LITTLE CPUs and 0 for the big ones. */
        static const struct cpu_run runs[] = {
                { 0, 3, 377, 1400000, 0, 4, 1, false },
                { 4, 7, 1024, 2000000, 4, 4, 0, false },
        };
        struct bl_cpu_info cpus[8];
        struct bl_topology t;
        unsigned n = fill(cpus, runs, 2);

        ck_assert_int_eq(topology_build(&t, cpus, n), 0);
        ck_assert_uint_eq(t.ncpus, 8);
        ck_assert_uint_eq(t.nclusters, 2);
        assert_cluster(&t, 0, "0-3", 377, 1400000);
        assert_cluster(&t, 1, "4-7", 1024, 2000000);
        ck_assert_int_eq(t.cpu_cluster[0], 0);
        ck_assert_int_eq(t.cpu_cluster[3], 0);
        ck_assert_int_eq(t.cpu_cluster[4], 1);
        ck_assert_int_eq(t.cpu_cluster[7], 1);
        ck_assert_int_eq(t.cpu_cluster[8], -1);
        ck_assert_int_eq(t.cpu_cluster[BL_MAX_CPUS - 1], -1);
        assert_set(&t.present, "0-7");
        assert_set(&t.online, "0-7");
        assert_set(&t.can_offline, "1-7");
        ck_assert_str_eq(t.how, "cpufreq related_cpus + cpu_capacity");
}
END_TEST

START_TEST(test_rk3399)
{
        static const struct cpu_run runs[] = {
                { 0, 3, 485, 1416000, 0, 4, 0, false },
                { 4, 5, 1024, 1800000, 4, 2, 1, false },
        };
        struct bl_cpu_info cpus[6];
        struct bl_topology t;

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 2)), 0);
        ck_assert_uint_eq(t.ncpus, 6);
        ck_assert_uint_eq(t.nclusters, 2);
        assert_cluster(&t, 0, "0-3", 485, 1416000);
        assert_cluster(&t, 1, "4-5", 1024, 1800000);
        ck_assert_int_eq(t.cpu_cluster[5], 1);
        ck_assert_int_eq(t.cpu_cluster[6], -1);
}
END_TEST

START_TEST(test_tri_cluster_phone)
{
        static const struct cpu_run runs[] = {
                { 0, 3, 325, 1800000, 0, 4, 0, false },
                { 4, 6, 828, 2400000, 4, 3, 0, false },
                { 7, 7, 1024, 2840000, 7, 1, 0, false },
        };
        struct bl_cpu_info cpus[8];
        struct bl_topology t;
        char kinds[128];

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 3)), 0);
        ck_assert_uint_eq(t.nclusters, 3);
        assert_cluster(&t, 0, "0-3", 325, 1800000);
        assert_cluster(&t, 1, "4-6", 828, 2400000);
        assert_cluster(&t, 2, "7", 1024, 2840000);
        ck_assert_int_eq(t.cpu_cluster[6], 1);
        ck_assert_int_eq(t.cpu_cluster[7], 2);

        topology_describe_kinds(&t, kinds, sizeof(kinds));
        ck_assert_str_eq(kinds, "cpus 0-3 (capacity 325), cpus 4-6 (capacity 828), cpus 7 (capacity 1024)");
        /* Cut short, it stays terminated. */
        topology_describe_kinds(&t, kinds, 20);
        ck_assert_str_eq(kinds, "cpus 0-3 (capacity ");
}
END_TEST

START_TEST(test_tc2_without_capacity)
{
        /* Two A15 (policy 0) and three A7 (policy 2), no cpu_capacity:
         * A7 = 1024 * 1000000 / 1200000 = 853.3. */
        static const struct cpu_run runs[] = {
                { 0, 1, -1, 1200000, 0, 2, 0, false },
                { 2, 4, -1, 1000000, 2, 3, 1, false },
        };
        struct bl_cpu_info cpus[5];
        struct bl_topology t;

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 2)), 0);
        ck_assert_uint_eq(t.nclusters, 2);
        assert_cluster(&t, 0, "2-4", 853, 1000000);
        assert_cluster(&t, 1, "0-1", 1024, 1200000);
        ck_assert_int_eq(t.cpu_cluster[0], 1);
        ck_assert_int_eq(t.cpu_cluster[2], 0);
        ck_assert_str_eq(t.how, "cpuinfo_max_freq of cpufreq policies (no cpu_capacity)");
}
END_TEST

START_TEST(test_symmetric_x86)
{
        /* Per-CPU policies whose top frequencies differ by turbo binning. */
        struct bl_cpu_info cpus[8];
        struct bl_topology t;

        for (unsigned c = 0; c < 8; c++)
                cpus[c] = (struct bl_cpu_info){
                        .present = true,
                        .online = true,
                        .can_offline = c != 0,
                        .capacity = -1,
                        .max_freq_khz = c % 3 == 0 ? 4900000 : 4700000,
                        .policy = (int)c,
                        .policy_size = 1,
                        .cluster_id = -1,
                };
        ck_assert_int_eq(topology_build(&t, cpus, 8), 0);
        ck_assert_uint_eq(t.nclusters, 1);
        assert_cluster(&t, 0, "0-7", 1024, 4900000);
        ck_assert_str_eq(t.how, "no cpu_capacity and per-CPU cpufreq policies: one kind assumed");
        for (unsigned c = 0; c < 8; c++)
                ck_assert_int_eq(t.cpu_cluster[c], 0);
}
END_TEST

START_TEST(test_hybrid_x86_with_capacity)
{
        /* Newer intel_pstate fills cpu_capacity: per-CPU policies, two kinds. */
        struct bl_cpu_info cpus[12];
        struct bl_topology t;

        for (unsigned c = 0; c < 12; c++)
                cpus[c] = (struct bl_cpu_info){
                        .present = true,
                        .online = true,
                        .capacity = c < 4 ? 1024 : 621,
                        .max_freq_khz = c < 4 ? 4700000 : 3500000,
                        .policy = (int)c,
                        .policy_size = 1,
                        .cluster_id = -1,
                };
        ck_assert_int_eq(topology_build(&t, cpus, 12), 0);
        ck_assert_uint_eq(t.nclusters, 2);
        assert_cluster(&t, 0, "4-11", 621, 3500000);
        assert_cluster(&t, 1, "0-3", 1024, 4700000);
}
END_TEST

/* An x86 CPU as intel_pstate shows it: its own policy, no cpu_capacity. */
static struct bl_cpu_info hybrid_cpu(unsigned cpu, int max_freq_khz, enum bl_pmu_kind kind)
{
        return (struct bl_cpu_info){
                .present = true,
                .online = true,
                .can_offline = cpu != 0,
                .capacity = -1,
                .max_freq_khz = max_freq_khz,
                .policy = (int)cpu,
                .policy_size = 1,
                .cluster_id = (int)cpu / 2,
                .pmu_kind = kind,
        };
}

START_TEST(test_hybrid_12th_gen)
{
        /* i7-12700H: 6 P-cores with SMT (0-11, two of them favoured and
         * turbo higher), 8 E-cores (12-19). */
        struct bl_cpu_info cpus[20];
        struct bl_topology t;

        for (unsigned c = 0; c < 12; c++)
                cpus[c] = hybrid_cpu(c, c < 4 ? 4700000 : 4500000, BL_PMU_KIND_CORE);
        for (unsigned c = 12; c < 20; c++)
                cpus[c] = hybrid_cpu(c, 3500000, BL_PMU_KIND_ATOM);
        ck_assert_int_eq(topology_build(&t, cpus, 20), 0);
        ck_assert_uint_eq(t.nclusters, 2);
        /* 1024 x 0.787 x 3.5 / 4.7 */
        assert_cluster(&t, 0, "12-19", 600, 3500000);
        assert_cluster(&t, 1, "0-11", 1024, 4700000);
        ck_assert_str_eq(t.how, "hybrid PMU cpus files (cpu_atom, cpu_core); no cpu_capacity: capacity from "
                                "cpuinfo_max_freq and core type");
        ck_assert_int_eq(t.cpu_cluster[0], 1);
        ck_assert_int_eq(t.cpu_cluster[11], 1);
        ck_assert_int_eq(t.cpu_cluster[12], 0);
        ck_assert_int_eq(t.cpu_cluster[19], 0);
}
END_TEST

START_TEST(test_hybrid_with_lowpower)
{
        /* Core Ultra 7 155H: 6 P-cores with SMT, 8 E-cores, 2 LPE cores. */
        struct bl_cpu_info cpus[22];
        struct bl_topology t;
        struct bl_ladder l;

        for (unsigned c = 0; c < 12; c++)
                cpus[c] = hybrid_cpu(c, 4800000, BL_PMU_KIND_CORE);
        for (unsigned c = 12; c < 20; c++)
                cpus[c] = hybrid_cpu(c, 3800000, BL_PMU_KIND_ATOM);
        for (unsigned c = 20; c < 22; c++)
                cpus[c] = hybrid_cpu(c, 2500000, BL_PMU_KIND_LOWPOWER);
        ck_assert_int_eq(topology_build(&t, cpus, 22), 0);
        ck_assert_uint_eq(t.nclusters, 3);
        assert_cluster(&t, 0, "20-21", 420, 2500000);
        assert_cluster(&t, 1, "12-19", 638, 3800000);
        assert_cluster(&t, 2, "0-11", 1024, 4800000);
        ck_assert_str_eq(t.how, "hybrid PMU cpus files (cpu_lowpower, cpu_atom, cpu_core); no cpu_capacity: "
                                "capacity from cpuinfo_max_freq and core type");
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_CLUSTER, "test"), 0);
        ck_assert_uint_eq(l.nlevels, 3);
        ck_assert_str_eq(l.levels[0].name, "little");
        ck_assert_str_eq(l.levels[1].name, "mid");
        ck_assert_str_eq(l.levels[2].name, "big");
}
END_TEST

START_TEST(test_hybrid_order_is_the_pmus)
{
        /* An E-core clocked so much higher that the estimate would pass the
         * P-cores: the PMUs' order stands. */
        struct bl_cpu_info cpus[4];
        struct bl_topology t;

        cpus[0] = hybrid_cpu(0, 3000000, BL_PMU_KIND_CORE);
        cpus[1] = hybrid_cpu(1, 3000000, BL_PMU_KIND_CORE);
        cpus[2] = hybrid_cpu(2, 6000000, BL_PMU_KIND_ATOM);
        cpus[3] = hybrid_cpu(3, 6000000, BL_PMU_KIND_ATOM);
        ck_assert_int_eq(topology_build(&t, cpus, 4), 0);
        ck_assert_uint_eq(t.nclusters, 2);
        assert_cluster(&t, 0, "2-3", 1023, 6000000);
        assert_cluster(&t, 1, "0-1", 1024, 3000000);
}
END_TEST

START_TEST(test_hybrid_unlisted_cpus)
{
        /* The PMUs drop offline CPUs from their cpus files: such a CPU joins
         * the kind whose frequency is nearest, or the fastest without one. */
        struct bl_cpu_info cpus[8];
        struct bl_topology t;

        for (unsigned c = 0; c < 4; c++)
                cpus[c] = hybrid_cpu(c, 4700000, BL_PMU_KIND_CORE);
        for (unsigned c = 4; c < 8; c++)
                cpus[c] = hybrid_cpu(c, 3500000, BL_PMU_KIND_ATOM);
        cpus[3].pmu_kind = BL_PMU_KIND_NONE;
        cpus[3].online = false;
        cpus[3].max_freq_khz = 4600000;
        cpus[6].pmu_kind = BL_PMU_KIND_NONE;
        cpus[6].online = false;
        cpus[7].pmu_kind = BL_PMU_KIND_NONE;
        cpus[7].online = false;
        cpus[7].max_freq_khz = -1;
        ck_assert_int_eq(topology_build(&t, cpus, 8), 0);
        ck_assert_uint_eq(t.nclusters, 2);
        assert_cluster(&t, 0, "4-6", 600, 3500000);
        assert_cluster(&t, 1, "0-3,7", 1024, 4700000);
}
END_TEST

START_TEST(test_hybrid_one_kind_listed)
{
        /* One hybrid PMU listing every CPU tells no kinds apart. */
        struct bl_cpu_info cpus[4];
        struct bl_topology t;

        for (unsigned c = 0; c < 4; c++)
                cpus[c] = hybrid_cpu(c, c == 1 ? 4900000 : 4700000, BL_PMU_KIND_CORE);
        ck_assert_int_eq(topology_build(&t, cpus, 4), 0);
        ck_assert_uint_eq(t.nclusters, 1);
        ck_assert_str_eq(t.how, "no cpu_capacity and per-CPU cpufreq policies: one kind assumed");
}
END_TEST

START_TEST(test_hybrid_capacity_wins)
{
        /* Where the kernel gives cpu_capacity, it is used as it is. */
        struct bl_cpu_info cpus[4];
        struct bl_topology t;

        for (unsigned c = 0; c < 4; c++) {
                bool p_core = c < 2;

                cpus[c] = hybrid_cpu(c, p_core ? 4700000 : 3500000,
                                     p_core ? BL_PMU_KIND_CORE : BL_PMU_KIND_ATOM);
                cpus[c].capacity = c < 2 ? 1024 : 597;
        }
        ck_assert_int_eq(topology_build(&t, cpus, 4), 0);
        ck_assert_uint_eq(t.nclusters, 2);
        assert_cluster(&t, 0, "2-3", 597, 3500000);
        ck_assert_str_eq(t.how, "cpufreq related_cpus + cpu_capacity");
}
END_TEST

START_TEST(test_pmu_kind_names)
{
        ck_assert_int_eq(topology_pmu_kind_from_name("cpu_core"), BL_PMU_KIND_CORE);
        ck_assert_int_eq(topology_pmu_kind_from_name("cpu_atom"), BL_PMU_KIND_ATOM);
        ck_assert_int_eq(topology_pmu_kind_from_name("cpu_lowpower"), BL_PMU_KIND_LOWPOWER);
        ck_assert_int_eq(topology_pmu_kind_from_name("cpu"), BL_PMU_KIND_NONE);
        ck_assert_int_eq(topology_pmu_kind_from_name("armv8_cortex_a53"), BL_PMU_KIND_NONE);
        ck_assert_str_eq(topology_pmu_kind_name(BL_PMU_KIND_ATOM), "cpu_atom");
        ck_assert_ptr_null(topology_pmu_kind_name(BL_PMU_KIND_NONE));
        ck_assert_ptr_null(topology_pmu_kind_name(BL_PMU_KIND_COUNT));
}
END_TEST

START_TEST(test_no_cpufreq_cluster_id_only)
{
        /* Juno-like numbering: the big CPUs sit in the middle. */
        static const struct cpu_run runs[] = {
                { 0, 0, 446, -1, -1, -1, 1, false },
                { 1, 2, 1024, -1, -1, -1, 0, false },
                { 3, 5, 446, -1, -1, -1, 1, false },
        };
        struct bl_cpu_info cpus[6];
        struct bl_topology t;

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 3)), 0);
        ck_assert_uint_eq(t.nclusters, 2);
        assert_cluster(&t, 0, "0,3-5", 446, 0);
        assert_cluster(&t, 1, "1-2", 1024, 0);
        ck_assert_str_eq(t.how, "topology cluster_id + cpu_capacity");
}
END_TEST

START_TEST(test_no_cpufreq_no_capacity)
{
        static const struct cpu_run runs[] = {
                { 0, 3, -1, -1, -1, -1, 1, false },
                { 4, 7, -1, -1, -1, -1, 0, false },
        };
        struct bl_cpu_info cpus[8];
        struct bl_topology t;

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 2)), 0);
        ck_assert_uint_eq(t.nclusters, 1);
        assert_cluster(&t, 0, "0-7", 1024, 0);
        ck_assert_str_eq(t.how, "no cpu_capacity and no cpufreq: one kind assumed");
}
END_TEST

START_TEST(test_no_capacity_no_max_freq)
{
        static const struct cpu_run runs[] = {
                { 0, 3, -1, -1, 0, 4, -1, false },
                { 4, 7, -1, 2000000, 4, 4, -1, false },
        };
        struct bl_cpu_info cpus[8];
        struct bl_topology t;

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 2)), 0);
        ck_assert_uint_eq(t.nclusters, 1);
        ck_assert_str_eq(t.how, "no cpu_capacity and no cpuinfo_max_freq: one kind assumed");
}
END_TEST

START_TEST(test_nothing_known)
{
        static const struct cpu_run runs[] = {
                { 0, 3, -1, -1, -1, -1, -1, false },
        };
        struct bl_cpu_info cpus[4];
        struct bl_topology t;

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 1)), 0);
        ck_assert_uint_eq(t.nclusters, 1);
        assert_cluster(&t, 0, "0-3", 1024, 0);
}
END_TEST

START_TEST(test_capacity_without_grouping)
{
        /* Neither cpufreq nor cluster_id: capacity alone tells the kinds apart. */
        static const struct cpu_run runs[] = {
                { 0, 1, 1024, -1, -1, -1, -1, false },
                { 2, 5, 512, -1, -1, -1, -1, false },
        };
        struct bl_cpu_info cpus[6];
        struct bl_topology t;

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 2)), 0);
        ck_assert_uint_eq(t.nclusters, 2);
        assert_cluster(&t, 0, "2-5", 512, 0);
        assert_cluster(&t, 1, "0-1", 1024, 0);
        ck_assert_str_eq(t.how, "cpu_capacity");
}
END_TEST

START_TEST(test_dynamiq_one_cluster_id)
{
        /* A DynamIQ "cluster" holds every core; capacity still separates them. */
        static const struct cpu_run runs[] = {
                { 0, 5, 410, -1, -1, -1, 0, false },
                { 6, 7, 1024, -1, -1, -1, 0, false },
        };
        struct bl_cpu_info cpus[8];
        struct bl_topology t;

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 2)), 0);
        ck_assert_uint_eq(t.nclusters, 2);
        assert_cluster(&t, 0, "0-5", 410, 0);
        assert_cluster(&t, 1, "6-7", 1024, 0);
}
END_TEST

START_TEST(test_equal_policies_merge)
{
        /* Two policies of the same kind of core are one cluster. */
        static const struct cpu_run runs[] = {
                { 0, 3, 1024, 2400000, 0, 4, 0, false },
                { 4, 7, 1024, 2400000, 4, 4, 1, false },
        };
        struct bl_cpu_info cpus[8];
        struct bl_topology t;

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 2)), 0);
        ck_assert_uint_eq(t.nclusters, 1);
        assert_cluster(&t, 0, "0-7", 1024, 2400000);
}
END_TEST

START_TEST(test_offline_cpus_take_group_capacity)
{
        /* Exynos 5422 with CPUs 5-7 offline on a kernel that hides their capacity
         * and max frequency; CPU 2 offline too. */
        static const struct cpu_run runs[] = {
                { 0, 1, 377, 1400000, 0, 4, 1, false },
                { 2, 2, -1, -1, 0, 4, 1, true },
                { 3, 3, 377, 1400000, 0, 4, 1, false },
                { 4, 4, 1024, 2000000, 4, 4, 0, false },
                { 5, 7, -1, -1, 4, 4, 0, true },
        };
        struct bl_cpu_info cpus[8];
        struct bl_topology t;

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 5)), 0);
        ck_assert_uint_eq(t.nclusters, 2);
        assert_cluster(&t, 0, "0-3", 377, 1400000);
        assert_cluster(&t, 1, "4-7", 1024, 2000000);
        assert_set(&t.present, "0-7");
        assert_set(&t.online, "0-1,3-4");
        ck_assert_int_eq(t.cpu_cluster[2], 0);
        ck_assert_int_eq(t.cpu_cluster[6], 1);
        ck_assert_str_eq(t.how, "cpufreq related_cpus + cpu_capacity");
}
END_TEST

START_TEST(test_offline_group_estimated)
{
        /* RK3399 with both A72 offline and their capacity hidden: the group's
         * top frequency ranks it. */
        static const struct cpu_run runs[] = {
                { 0, 3, 485, 1416000, 0, 4, 0, false },
                { 4, 5, -1, 1800000, 4, 2, 1, true },
        };
        struct bl_cpu_info cpus[6];
        struct bl_topology t;

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 2)), 0);
        ck_assert_uint_eq(t.nclusters, 2);
        assert_cluster(&t, 0, "0-3", 485, 1416000);
        assert_cluster(&t, 1, "4-5", 1024, 1800000);
        assert_set(&t.online, "0-3");
        ck_assert_ptr_nonnull(strstr(t.how, "estimated"));
}
END_TEST

START_TEST(test_not_present_cpus)
{
        /* CPU 2 possible but not present, CPU 6 last present, 7 not present. */
        static const struct cpu_run runs[] = {
                { 0, 1, 400, 1500000, 0, 2, 0, false },
                { 3, 6, 1024, 2000000, 3, 4, 1, false },
        };
        struct bl_cpu_info cpus[8];
        struct bl_topology t;

        memset(cpus, 0, sizeof(cpus));
        fill(cpus, runs, 2);
        cpus[2].capacity = 5;   /* must be ignored: not present */
        ck_assert_int_eq(topology_build(&t, cpus, 8), 0);
        ck_assert_uint_eq(t.ncpus, 7);
        ck_assert_uint_eq(t.nclusters, 2);
        assert_cluster(&t, 0, "0-1", 400, 1500000);
        assert_cluster(&t, 1, "3-6", 1024, 2000000);
        ck_assert_int_eq(t.cpu_cluster[2], -1);
        ck_assert_int_eq(t.cpu_cluster[7], -1);
        assert_set(&t.present, "0-1,3-6");
}
END_TEST

START_TEST(test_no_present_cpu)
{
        struct bl_cpu_info cpus[4];
        struct bl_topology t;

        memset(cpus, 0, sizeof(cpus));
        ck_assert_int_eq(topology_build(&t, cpus, 4), -ENODEV);
        ck_assert_int_eq(topology_build(&t, cpus, 0), -ENODEV);
}
END_TEST

START_TEST(test_too_many_kinds)
{
        struct bl_cpu_info cpus[BL_MAX_CLUSTERS + 1];
        struct bl_topology t;

        for (unsigned c = 0; c < BL_MAX_CLUSTERS + 1; c++)
                cpus[c] = (struct bl_cpu_info){
                        .present = true,
                        .online = true,
                        .capacity = (int)(100 + 100 * c),
                        .max_freq_khz = -1,
                        .policy = (int)c,
                        .policy_size = 1,
                        .cluster_id = -1,
                };
        ck_assert_int_eq(topology_build(&t, cpus, BL_MAX_CLUSTERS + 1), -E2BIG);
        ck_assert_int_eq(topology_build(&t, cpus, BL_MAX_CLUSTERS), 0);
        ck_assert_uint_eq(t.nclusters, BL_MAX_CLUSTERS);
        ck_assert_uint_eq(t.clusters[0].capacity, 100);
        ck_assert_uint_eq(t.clusters[BL_MAX_CLUSTERS - 1].capacity, 100 * BL_MAX_CLUSTERS);
}
END_TEST

START_TEST(test_too_many_cpus)
{
        static struct bl_cpu_info cpus[BL_MAX_CPUS + 1];
        struct bl_topology t;

        for (unsigned c = 0; c <= BL_MAX_CPUS; c++)
                cpus[c] = (struct bl_cpu_info){ .present = true, .capacity = 1024, .max_freq_khz = -1,
                                                .policy = -1, .policy_size = -1, .cluster_id = -1 };
        ck_assert_int_eq(topology_build(&t, cpus, BL_MAX_CPUS + 1), -E2BIG);
        ck_assert_int_eq(topology_build(&t, cpus, BL_MAX_CPUS), 0);
        ck_assert_uint_eq(t.ncpus, BL_MAX_CPUS);
        ck_assert_uint_eq(cpumask_count(&t.clusters[0].cpus), BL_MAX_CPUS);
}
END_TEST

static void topology_of(struct bl_topology *t, const unsigned *caps, unsigned nclusters)
{
        struct bl_cpu_info cpus[BL_MAX_CLUSTERS * 2];

        for (unsigned k = 0; k < nclusters; k++)
                for (unsigned j = 0; j < 2; j++)
                        cpus[2 * k + j] = (struct bl_cpu_info){
                                .present = true,
                                .online = true,
                                .capacity = (int)caps[k],
                                .max_freq_khz = -1,
                                .policy = (int)(2 * k),
                                .policy_size = 2,
                                .cluster_id = -1,
                        };
        ck_assert_int_eq(topology_build(t, cpus, 2 * nclusters), 0);
        ck_assert_uint_eq(t->nclusters, nclusters);
}

START_TEST(test_ladder_two_levels)
{
        static const unsigned caps[] = { 377, 1024 };
        struct bl_topology t;
        struct bl_ladder l;

        topology_of(&t, caps, 2);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_CLUSTER, NULL), 0);
        ck_assert_int_eq(l.mode, BL_MODE_CLUSTER);
        ck_assert_uint_eq(l.nlevels, 2);
        ck_assert_str_eq(l.levels[0].name, "little");
        ck_assert_str_eq(l.levels[1].name, "big");
        ck_assert_uint_eq(l.levels[0].capacity, 377);
        ck_assert_uint_eq(l.levels[1].capacity, 1024);
        assert_set(&l.levels[0].cpus, "0-1");
        assert_set(&l.levels[1].cpus, "2-3");
        ck_assert_int_eq(ladder_find(&l, "little"), 0);
        ck_assert_int_eq(ladder_find(&l, "big"), 1);
        ck_assert_int_eq(ladder_find(&l, "mid"), -ENOENT);
        ck_assert_int_eq(ladder_find(&l, ""), -ENOENT);
        ck_assert_int_eq(ladder_find(&l, "Big"), -ENOENT);
}
END_TEST

START_TEST(test_ladder_three_levels)
{
        static const unsigned caps[] = { 325, 828, 1024 };
        struct bl_topology t;
        struct bl_ladder l;

        topology_of(&t, caps, 3);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_CLUSTER, NULL), 0);
        ck_assert_int_eq(l.mode, BL_MODE_CLUSTER);
        ck_assert_uint_eq(l.nlevels, 3);
        ck_assert_str_eq(l.levels[0].name, "little");
        ck_assert_str_eq(l.levels[1].name, "mid");
        ck_assert_str_eq(l.levels[2].name, "big");
        ck_assert_uint_eq(l.levels[1].capacity, 828);
        assert_set(&l.levels[1].cpus, "2-3");
        ck_assert_int_eq(ladder_find(&l, "mid"), 1);
}
END_TEST

START_TEST(test_ladder_many_levels)
{
        static const unsigned caps[] = { 200, 400, 600, 800, 1024 };
        static const char *const names[] = { "little", "mid1", "mid2", "mid3", "big" };
        struct bl_topology t;
        struct bl_ladder l;

        topology_of(&t, caps, 5);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_CLUSTER, NULL), 0);
        ck_assert_uint_eq(l.nlevels, 5);
        for (unsigned i = 0; i < 5; i++) {
                ck_assert_str_eq(l.levels[i].name, names[i]);
                ck_assert_uint_eq(l.levels[i].capacity, caps[i]);
                ck_assert_int_eq(ladder_find(&l, names[i]), (int)i);
        }
        ck_assert_int_eq(ladder_find(&l, "mid"), -ENOENT);
}
END_TEST

START_TEST(test_ladder_errors)
{
        static const unsigned caps[] = { 377, 1024 };
        static const unsigned one[] = { 1024 };
        struct bl_topology t;
        struct bl_ladder l;

        static const unsigned three[] = { 325, 828, 1024 };

        topology_of(&t, caps, 2);
        /* AUTO is for ladder_pick_mode() to resolve first. */
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_AUTO, NULL), -EINVAL);
        topology_of(&t, three, 3);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_PAIR, NULL), -EOPNOTSUPP);
        ck_assert_uint_eq(l.nlevels, 0);
        topology_of(&t, one, 1);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_CLUSTER, NULL), -EINVAL);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_MP, NULL), -EINVAL);
        ck_assert_uint_eq(l.nlevels, 0);
}
END_TEST

START_TEST(test_ladder_from_exynos)
{
        static const struct cpu_run runs[] = {
                { 0, 3, 377, 1400000, 0, 4, 1, false },
                { 4, 7, 1024, 2000000, 4, 4, 0, false },
        };
        struct bl_cpu_info cpus[8];
        struct bl_topology t;
        struct bl_ladder l;

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 2)), 0);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_CLUSTER, "configured"), 0);
        ck_assert_str_eq(l.why, "configured");
        ck_assert_str_eq(l.levels[0].name, "little");
        assert_set(&l.levels[0].cpus, "0-3");
        ck_assert_uint_eq(l.levels[0].capacity, 377);
        assert_set(&l.levels[1].cpus, "4-7");
}
END_TEST

/* Exynos 5422 numbering: LITTLE 0-3, big 4-7. */
static void exynos_topology(struct bl_topology *t)
{
        static const struct cpu_run runs[] = {
                { 0, 3, 377, 1400000, 0, 4, 1, false },
                { 4, 7, 1024, 2000000, 4, 4, 0, false },
        };
        struct bl_cpu_info cpus[8];

        ck_assert_int_eq(topology_build(t, cpus, fill(cpus, runs, 2)), 0);
}

START_TEST(test_ladder_mp)
{
        static const char *const names[] = { "little", "little+1big", "little+2big", "little+3big", "all" };
        static const char *const sets[] = { "0-3", "0-4", "0-5", "0-6", "0-7" };
        struct bl_topology t;
        struct bl_ladder l;

        exynos_topology(&t);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_MP, NULL), 0);
        ck_assert_int_eq(l.mode, BL_MODE_MP);
        ck_assert_uint_eq(l.nlevels, 5);
        for (unsigned i = 0; i < 5; i++) {
                ck_assert_str_eq(l.levels[i].name, names[i]);
                assert_set(&l.levels[i].cpus, sets[i]);
                ck_assert_uint_eq(l.levels[i].rank, i);
                /* Every rung asks whether one more CPU needs more than a LITTLE one gives. */
                ck_assert_uint_eq(l.levels[i].fit, 377);
        }
        ck_assert_uint_eq(l.levels[0].capacity, 377);
        ck_assert_uint_eq(l.levels[1].capacity, 1024);
        ck_assert_uint_eq(l.npairs, 0);
}
END_TEST

START_TEST(test_ladder_mp_three_clusters)
{
        static const unsigned caps[] = { 325, 828, 1024 };
        struct bl_topology t;
        struct bl_ladder l;

        /* CPUs 0-1 little, 2-3 mid, 4-5 big: the big ones join first, and
         * the names count each cluster's CPUs. */
        topology_of(&t, caps, 3);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_MP, NULL), 0);
        ck_assert_uint_eq(l.nlevels, 5);
        assert_set(&l.levels[1].cpus, "0-1,4");
        assert_set(&l.levels[2].cpus, "0-1,4-5");
        assert_set(&l.levels[3].cpus, "0-2,4-5");
        assert_set(&l.levels[4].cpus, "0-5");
        ck_assert_str_eq(l.levels[1].name, "little+1big");
        ck_assert_str_eq(l.levels[2].name, "little+2big");
        ck_assert_str_eq(l.levels[3].name, "little+2big+1mid");
        ck_assert_str_eq(l.levels[4].name, "all");
        ck_assert_uint_eq(l.levels[3].rank, 3);
}
END_TEST

/* 4+3+1 (a Snapdragon 855-like phone): the one big CPU, then the mid ones. */
START_TEST(test_ladder_mp_four_three_one)
{
        static const char *const names[] = { "little", "little+1big", "little+1big+1mid", "little+1big+2mid",
                                             "all" };
        struct bl_cpu_info cpus[8];
        struct bl_topology t;
        struct bl_ladder l;

        for (unsigned cpu = 0; cpu < 8; cpu++) {
                const unsigned k = cpu < 4 ? 0 : cpu < 7 ? 1 : 2;

                cpus[cpu] = (struct bl_cpu_info){ .present = true, .online = true,
                                                  .capacity = k == 0 ? 325 : k == 1 ? 828 : 1024,
                                                  .max_freq_khz = -1, .policy = k == 0 ? 0 : k == 1 ? 4 : 7,
                                                  .policy_size = k == 0 ? 4 : k == 1 ? 3 : 1, .cluster_id = -1 };
        }
        ck_assert_int_eq(topology_build(&t, cpus, 8), 0);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_MP, NULL), 0);
        ck_assert_uint_eq(l.nlevels, 5);
        for (unsigned i = 0; i < 5; i++)
                ck_assert_str_eq(l.levels[i].name, names[i]);
        assert_set(&l.levels[1].cpus, "0-3,7");
        assert_set(&l.levels[3].cpus, "0-5,7");
}
END_TEST

/* Names for more clusters: each faster one by its cluster-mode name. */
START_TEST(test_ladder_mp_level_names)
{
        static const unsigned two[] = { 0, 3 }, three[] = { 0, 2, 2 }, five[] = { 0, 0, 1, 0, 2 };
        char name[BL_NAME_MAX];

        ladder_mp_level_name(name, sizeof(name), 2, two);
        ck_assert_str_eq(name, "little+3big");
        ladder_mp_level_name(name, sizeof(name), 3, three);
        ck_assert_str_eq(name, "little+2big+2mid");
        ladder_mp_level_name(name, sizeof(name), 5, five);
        ck_assert_str_eq(name, "little+2big+1mid2");
}
END_TEST

START_TEST(test_ladder_pair)
{
        struct bl_topology t;
        struct bl_ladder l;
        bl_cpumask all;

        exynos_topology(&t);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_PAIR, NULL), 0);
        ck_assert_int_eq(l.mode, BL_MODE_PAIR);
        ck_assert_uint_eq(l.nlevels, 2);
        ck_assert_str_eq(l.levels[0].name, "little");
        ck_assert_str_eq(l.levels[1].name, "big");
        ck_assert_uint_eq(l.levels[0].fit, 377);
        ck_assert_uint_eq(l.levels[1].fit, 1024);
        ck_assert_uint_eq(l.npairs, 4);
        for (unsigned p = 0; p < 4; p++) {
                ck_assert_uint_eq(l.pairs[p].little, p);
                ck_assert_uint_eq(l.pairs[p].big, p + 4);
        }
        ck_assert(cpumask_empty(&l.unpaired));
        ladder_all_cpus(&l, &all);
        assert_set(&all, "0-7");
}
END_TEST

START_TEST(test_ladder_pair_uneven)
{
        /* TC2: A15 0-1, A7 2-4; the third A7 has no partner. */
        static const struct cpu_run runs[] = {
                { 0, 1, 1024, 1200000, 0, 2, 0, false },
                { 2, 4, 430, 1000000, 2, 3, 1, false },
        };
        struct bl_cpu_info cpus[5];
        struct bl_topology t;
        struct bl_ladder l;

        ck_assert_int_eq(topology_build(&t, cpus, fill(cpus, runs, 2)), 0);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_PAIR, NULL), 0);
        ck_assert_uint_eq(l.npairs, 2);
        ck_assert_uint_eq(l.pairs[0].little, 2);
        ck_assert_uint_eq(l.pairs[0].big, 0);
        ck_assert_uint_eq(l.pairs[1].little, 3);
        ck_assert_uint_eq(l.pairs[1].big, 1);
        assert_set(&l.unpaired, "4");
}
END_TEST

START_TEST(test_pick_mode)
{
        struct bl_topology t;
        char why[160];

        exynos_topology(&t);
        ck_assert_int_eq(ladder_pick_mode(BL_MODE_AUTO, BL_MODE_CLUSTER, &t, why, sizeof(why)),
                         BL_MODE_CLUSTER);
        ck_assert_str_eq(why, "mode = auto: no in-kernel switcher, so auto_mode = cluster");
        ck_assert_int_eq(ladder_pick_mode(BL_MODE_AUTO, BL_MODE_MP, &t, why, sizeof(why)), BL_MODE_MP);
        ck_assert_str_eq(why, "mode = auto: no in-kernel switcher, so auto_mode = mp");
        t.switcher = true;
        ck_assert_int_eq(ladder_pick_mode(BL_MODE_AUTO, BL_MODE_MP, &t, why, sizeof(why)), BL_MODE_PAIR);
        ck_assert_str_eq(why, "mode = auto: the kernel's big.LITTLE switcher is present, so pair");
        ck_assert_int_eq(ladder_pick_mode(BL_MODE_MP, BL_MODE_CLUSTER, &t, why, sizeof(why)), BL_MODE_MP);
        ck_assert_str_eq(why, "mode = mp in the configuration");
}
END_TEST

static Suite *topology_suite(void)
{
        Suite *s = suite_create("topology");
        TCase *boards = tcase_create("boards");
        TCase *edges = tcase_create("edges");
        TCase *ladder = tcase_create("ladder");

        tcase_add_test(boards, test_exynos5422);
        tcase_add_test(boards, test_ladder_mp);
        tcase_add_test(boards, test_ladder_mp_three_clusters);
        tcase_add_test(boards, test_ladder_mp_four_three_one);
        tcase_add_test(boards, test_ladder_mp_level_names);
        tcase_add_test(boards, test_ladder_pair);
        tcase_add_test(boards, test_ladder_pair_uneven);
        tcase_add_test(boards, test_pick_mode);
        tcase_add_test(boards, test_rk3399);
        tcase_add_test(boards, test_tri_cluster_phone);
        tcase_add_test(boards, test_tc2_without_capacity);
        tcase_add_test(boards, test_symmetric_x86);
        tcase_add_test(boards, test_hybrid_x86_with_capacity);
        tcase_add_test(boards, test_hybrid_12th_gen);
        tcase_add_test(boards, test_hybrid_with_lowpower);
        tcase_add_test(boards, test_hybrid_order_is_the_pmus);
        tcase_add_test(boards, test_hybrid_unlisted_cpus);
        tcase_add_test(boards, test_hybrid_one_kind_listed);
        tcase_add_test(boards, test_hybrid_capacity_wins);
        tcase_add_test(boards, test_pmu_kind_names);
        tcase_add_test(boards, test_no_cpufreq_cluster_id_only);
        suite_add_tcase(s, boards);

        tcase_add_test(edges, test_no_cpufreq_no_capacity);
        tcase_add_test(edges, test_no_capacity_no_max_freq);
        tcase_add_test(edges, test_nothing_known);
        tcase_add_test(edges, test_capacity_without_grouping);
        tcase_add_test(edges, test_dynamiq_one_cluster_id);
        tcase_add_test(edges, test_equal_policies_merge);
        tcase_add_test(edges, test_offline_cpus_take_group_capacity);
        tcase_add_test(edges, test_offline_group_estimated);
        tcase_add_test(edges, test_not_present_cpus);
        tcase_add_test(edges, test_no_present_cpu);
        tcase_add_test(edges, test_too_many_kinds);
        tcase_add_test(edges, test_too_many_cpus);
        suite_add_tcase(s, edges);

        tcase_add_test(ladder, test_ladder_two_levels);
        tcase_add_test(ladder, test_ladder_three_levels);
        tcase_add_test(ladder, test_ladder_many_levels);
        tcase_add_test(ladder, test_ladder_errors);
        tcase_add_test(ladder, test_ladder_from_exynos);
        suite_add_tcase(s, ladder);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(topology_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
