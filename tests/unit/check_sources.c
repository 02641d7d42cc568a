/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sysfs-facing sources against umockdev testbeds shaped like real boards.
 * The preload library must be loaded before the program starts, so main()
 * re-executes itself under umockdev-wrapper. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <umockdev.h>
#include <unistd.h>

#include "sources/cpufreq.h"
#include "sources/cpuidle.h"
#include "sources/sampler.h"
#include "sources/thermal.h"
#include "sources/topology-udev.h"
#include "tests/unit/umockdev-main.h"

#define NO_VALUE (-2)

static UMockdevTestbed *testbed;
static char *root;

static void bed_setup(void)
{
        testbed = umockdev_testbed_new();
        ck_assert_ptr_nonnull(testbed);
        root = umockdev_testbed_get_root_dir(testbed);
}

static void bed_teardown(void)
{
        g_free(root);
        root = NULL;
        g_object_unref(testbed);
        testbed = NULL;
}

static void bed_add(const char *records)
{
        GError *error = NULL;

        if (!umockdev_testbed_add_from_string(testbed, records, &error))
                ck_abort_msg("testbed: %s", error->message);
}

static void bed_path(char *buf, size_t size, const char *rel)
{
        ck_assert_int_lt(snprintf(buf, size, "%s/%s", root, rel), (int)size);
}

/* Writes a file of the testbed in place: descriptors kept open by the code
 * under test see the new contents, as with sysfs and procfs. */
static void bed_write(const char *rel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bed_write(const char *rel, const char *fmt, ...)
{
        char path[1024], text[16384];
        char *dir;
        va_list ap;
        int fd, len;

        bed_path(path, sizeof(path), rel);
        dir = g_path_get_dirname(path);
        ck_assert_int_eq(g_mkdir_with_parents(dir, 0755), 0);
        g_free(dir);
        va_start(ap, fmt);
        len = vsnprintf(text, sizeof(text), fmt, ap);
        va_end(ap);
        ck_assert_int_lt(len, (int)sizeof(text));
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(write(fd, text, (size_t)len), len);
        close(fd);
}

static void bed_mkdir(const char *rel)
{
        char path[1024];

        bed_path(path, sizeof(path), rel);
        ck_assert_int_eq(g_mkdir_with_parents(path, 0755), 0);
}

static void add_cpu(unsigned cpu, const char *online, int capacity, int cluster_id, int policy)
{
        GString *rec = g_string_new(NULL);

        g_string_append_printf(rec, "P: /devices/system/cpu/cpu%u\nE: SUBSYSTEM=cpu\n", cpu);
        if (online)
                g_string_append_printf(rec, "A: online=%s\n", online);
        if (capacity != NO_VALUE)
                g_string_append_printf(rec, "A: cpu_capacity=%d\n", capacity);
        if (cluster_id != NO_VALUE)
                g_string_append_printf(rec, "A: topology/cluster_id=%d\n", cluster_id);
        if (policy != NO_VALUE)
                g_string_append_printf(rec, "L: cpufreq=../cpufreq/policy%d\n", policy);
        g_string_append(rec, "\n");
        bed_add(rec->str);
        g_string_free(rec, TRUE);
}

/* related_cpus is printed as CPU numbers separated by spaces. */
static void add_policy(unsigned policy, const char *related, unsigned max_khz, unsigned cur_khz)
{
        char rel[256];

        snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpufreq/policy%u/related_cpus", policy);
        bed_write(rel, "%s\n", related);
        snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpufreq/policy%u/affected_cpus", policy);
        bed_write(rel, "%s\n", related);
        snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpufreq/policy%u/cpuinfo_max_freq", policy);
        bed_write(rel, "%u\n", max_khz);
        snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpufreq/policy%u/cpuinfo_min_freq", policy);
        bed_write(rel, "%u\n", max_khz / 7);
        snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpufreq/policy%u/scaling_governor", policy);
        bed_write(rel, "schedutil\n");
        snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpufreq/policy%u/scaling_cur_freq", policy);
        bed_write(rel, "%u\n", cur_khz);
}

static void set_cur_freq(unsigned policy, const char *text)
{
        char rel[256];

        snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpufreq/policy%u/scaling_cur_freq", policy);
        bed_write(rel, "%s", text);
}

/* temp_mc == NO_VALUE leaves the zone without a temp file. */
static void add_zone(unsigned n, const char *type, int temp_mc)
{
        GString *rec = g_string_new(NULL);

        g_string_append_printf(rec, "P: /devices/virtual/thermal/thermal_zone%u\nE: SUBSYSTEM=thermal\n"
                               "A: type=%s\nA: mode=enabled\nA: policy=step_wise\n", n, type);
        if (temp_mc != NO_VALUE)
                g_string_append_printf(rec, "A: temp=%d\n", temp_mc);
        g_string_append(rec, "\n");
        bed_add(rec->str);
        g_string_free(rec, TRUE);
}

static void set_temp(unsigned zone, const char *text)
{
        char rel[256];

        snprintf(rel, sizeof(rel), "sys/devices/virtual/thermal/thermal_zone%u/temp", zone);
        bed_write(rel, "%s", text);
}

static void add_cooling_device(unsigned n, const char *type)
{
        char rec[256];

        snprintf(rec, sizeof(rec), "P: /devices/virtual/thermal/cooling_device%u\nE: SUBSYSTEM=thermal\n"
                 "A: type=%s\nA: max_state=12\nA: cur_state=0\n\n", n, type);
        bed_add(rec);
}

/* Odroid-XU3 (Exynos 5422): cpu0-3 Cortex-A7, cpu4-7 Cortex-A15. ARM32
 * cannot take cpu0 offline, so it has no online file. The LITTLE cluster is
 * cluster_id 1 and the big one 0. */
static void add_exynos5422(unsigned little_khz, unsigned big_khz)
{
        for (unsigned cpu = 0; cpu < 8; cpu++)
                add_cpu(cpu, cpu == 0 ? NULL : "1", cpu < 4 ? 377 : 1024, cpu < 4 ? 1 : 0, cpu < 4 ? 0 : 4);
        add_policy(0, "0 1 2 3", 1400000, little_khz);
        add_policy(4, "4 5 6 7", 2000000, big_khz);
        add_zone(0, "cpu0-thermal", 48000);
        add_zone(1, "cpu1-thermal", 52000);
        add_zone(2, "cpu2-thermal", 50000);
        add_zone(3, "cpu3-thermal", 47000);
        add_zone(4, "gpu-thermal", 61000);
        add_cooling_device(0, "thermal-cpufreq-0");
        add_cooling_device(1, "thermal-cpufreq-1");
}

/* A plain 4-CPU x86 laptop: per-CPU policies with turbo binning, no
 * cpu_capacity, cpu0 not hot-pluggable. */
static void add_symmetric_x86(void)
{
        static const unsigned max_khz[] = { 4500000, 4500000, 4200000, 4200000 };

        for (unsigned cpu = 0; cpu < 4; cpu++) {
                char related[8];

                add_cpu(cpu, cpu == 0 ? NULL : "1", NO_VALUE, 0, (int)cpu);
                snprintf(related, sizeof(related), "%u", cpu);
                add_policy(cpu, related, max_khz[cpu], 2100000);
        }
        add_zone(0, "acpitz", 60000);
        add_zone(1, "x86_pkg_temp", 45000);
        add_cooling_device(0, "Processor");
        add_cooling_device(1, "intel_powerclamp");
}

static bool diag_has(const struct bl_diag *d, const char *needle)
{
        for (unsigned i = 0; i < d->n; i++)
                if (strstr(d->msg[i], needle))
                        return true;
        return false;
}

static bl_cpumask cpus_of(const char *list)
{
        bl_cpumask s;

        ck_assert_int_eq(cpumask_parse(&s, list), 0);
        return s;
}

/* Topology discovery. */

START_TEST(test_topology_exynos5422)
{
        struct bl_topology t;
        struct bl_diag d;
        bl_cpumask little = cpus_of("0-3"), big = cpus_of("4-7");

        diag_init(&d);
        add_exynos5422(1400000, 2000000);
        ck_assert_int_eq(topology_discover(&t, &d), 0);
        ck_assert_uint_eq(d.n, 0);
        ck_assert_uint_eq(t.ncpus, 8);
        ck_assert(cpumask_equal(&t.present, &(bl_cpumask){ .bits = { 0xff } }));
        ck_assert(cpumask_equal(&t.online, &t.present));
        ck_assert(cpumask_equal(&t.can_offline, &(bl_cpumask){ .bits = { 0xfe } }));
        ck_assert_uint_eq(t.nclusters, 2);
        ck_assert(cpumask_equal(&t.clusters[0].cpus, &little));
        ck_assert_uint_eq(t.clusters[0].capacity, 377);
        ck_assert_uint_eq(t.clusters[0].max_freq_khz, 1400000);
        ck_assert(cpumask_equal(&t.clusters[1].cpus, &big));
        ck_assert_uint_eq(t.clusters[1].capacity, 1024);
        ck_assert_uint_eq(t.clusters[1].max_freq_khz, 2000000);
        ck_assert_int_eq(t.cpu_cluster[0], 0);
        ck_assert_int_eq(t.cpu_cluster[7], 1);
}
END_TEST

START_TEST(test_topology_offline_cpu_without_capacity)
{
        struct bl_topology t;
        struct bl_diag d;
        bl_cpumask little = cpus_of("0-3"), big = cpus_of("4-7");

        diag_init(&d);
        /* cpu5 offline on a kernel that drops cpu_capacity with it; cpu3
         * offline on an old kernel that also removed its cpufreq link, so
         * only its siblings' related_cpus place it among the LITTLE ones */
        for (unsigned cpu = 0; cpu < 8; cpu++) {
                bool offline = cpu == 3 || cpu == 5;

                add_cpu(cpu, cpu == 0 ? NULL : offline ? "0" : "1", offline ? NO_VALUE : cpu < 4 ? 377 : 1024,
                        NO_VALUE, cpu == 3 ? NO_VALUE : cpu < 4 ? 0 : 4);
        }
        add_policy(0, "0 1 2 3", 1400000, 1400000);
        add_policy(4, "4 5 6 7", 2000000, 2000000);
        ck_assert_int_eq(topology_discover(&t, &d), 0);
        ck_assert_uint_eq(t.nclusters, 2);
        ck_assert(cpumask_equal(&t.clusters[0].cpus, &little));
        ck_assert(cpumask_equal(&t.clusters[1].cpus, &big));
        ck_assert(!cpumask_isset(&t.online, 3));
        ck_assert(!cpumask_isset(&t.online, 5));
        ck_assert(cpumask_isset(&t.online, 6));
        ck_assert(cpumask_isset(&t.can_offline, 3));
}
END_TEST

START_TEST(test_topology_symmetric_x86)
{
        struct bl_topology t;
        struct bl_diag d;
        bl_cpumask all = cpus_of("0-3");

        diag_init(&d);
        add_symmetric_x86();
        ck_assert_int_eq(topology_discover(&t, &d), 0);
        ck_assert_uint_eq(t.ncpus, 4);
        ck_assert_uint_eq(t.nclusters, 1);
        ck_assert(cpumask_equal(&t.clusters[0].cpus, &all));
        ck_assert(cpumask_equal(&t.can_offline, &(bl_cpumask){ .bits = { 0xe } }));
}
END_TEST

START_TEST(test_topology_no_cpu)
{
        struct bl_topology t;
        struct bl_diag d;

        diag_init(&d);
        add_zone(0, "acpitz", 30000);
        ck_assert_int_eq(topology_discover(&t, &d), -ENODEV);
        ck_assert(diag_has(&d, "no CPU found"));
}
END_TEST

START_TEST(test_topology_bad_sysfs_values)
{
        struct bl_topology t;
        struct bl_diag d;

        diag_init(&d);
        add_cpu(0, NULL, 1024, 0, NO_VALUE);
        add_cpu(1, "1", NO_VALUE, 0, NO_VALUE);
        bed_write("sys/devices/system/cpu/cpu1/cpu_capacity", "fast\n");
        ck_assert_int_eq(topology_discover(&t, &d), -EINVAL);
        ck_assert_msg(diag_has(&d, "/sys/devices/system/cpu/cpu1/cpu_capacity") && diag_has(&d, "\"fast\""),
                      "diag: %s", d.n ? d.msg[0] : "(none)");

        diag_init(&d);
        bed_write("sys/devices/system/cpu/cpu1/cpu_capacity", "512\n");
        bed_write("sys/devices/system/cpu/cpu1/online", "2\n");
        ck_assert_int_eq(topology_discover(&t, &d), -EINVAL);
        ck_assert(diag_has(&d, "cpu1/online"));

        diag_init(&d);
        bed_write("sys/devices/system/cpu/cpu1/online", "0\n");
        ck_assert_int_eq(topology_discover(&t, &d), 0);
        ck_assert_uint_eq(t.nclusters, 2);
        ck_assert(!cpumask_isset(&t.online, 1));
}
END_TEST

START_TEST(test_topology_bad_related_cpus)
{
        struct bl_topology t;
        struct bl_diag d;

        diag_init(&d);
        add_cpu(0, NULL, 1024, 0, 0);
        add_policy(0, "1 2", 1000000, 1000000);         /* does not list cpu0 */
        ck_assert_int_eq(topology_discover(&t, &d), -EINVAL);
        ck_assert(diag_has(&d, "related_cpus"));
}
END_TEST

/* cpufreq. */


START_TEST(test_cpufreq_scale_exynos)
{
        struct cpufreq_reader r;
        struct bl_topology t;
        struct bl_diag d;
        uint16_t cap[BL_MAX_CPUS];

        diag_init(&d);
        add_exynos5422(700000, 1000000);
        ck_assert_int_eq(topology_discover(&t, &d), 0);
        ck_assert_int_eq(cpufreq_open(&r), 0);
        ck_assert_uint_eq(r.n, 2);
        ck_assert(cpumask_equal(&r.policy[0].cpus, &(bl_cpumask){ .bits = { 0x0f } }));
        ck_assert(cpumask_equal(&r.policy[1].cpus, &(bl_cpumask){ .bits = { 0xf0 } }));
        ck_assert_uint_eq(r.policy[0].max_khz, 1400000);
        ck_assert_uint_eq(r.policy[1].max_khz, 2000000);

        /* before the first read: top frequency */
        cpufreq_scale(&r, &t, cap);
        ck_assert_uint_eq(cap[0], 377);
        ck_assert_uint_eq(cap[4], 1024);

        ck_assert_int_eq(cpufreq_read(&r, NULL), 0);
        cpufreq_scale(&r, &t, cap);
        for (unsigned cpu = 0; cpu < 4; cpu++)
                ck_assert_uint_eq(cap[cpu], 377 * 700000 / 1400000);    /* 188 */
        for (unsigned cpu = 4; cpu < 8; cpu++)
                ck_assert_uint_eq(cap[cpu], 512);

        /* boost above cpuinfo_max_freq is clamped to the top capacity */
        set_cur_freq(0, "1500000\n");
        set_cur_freq(4, "200000\n");
        ck_assert_int_eq(cpufreq_read(&r, NULL), 0);
        cpufreq_scale(&r, &t, cap);
        ck_assert_uint_eq(cap[1], 377);
        ck_assert_uint_eq(cap[5], 102);

        /* a policy that answers nonsense is taken at its top frequency */
        set_cur_freq(4, "<unknown>\n");
        ck_assert_int_eq(cpufreq_read(&r, NULL), -EINVAL);
        ck_assert_uint_eq(r.policy[1].cur_khz, r.policy[1].max_khz);
        ck_assert_int_eq(r.policy[1].error, -EINVAL);
        ck_assert_uint_eq(r.policy[0].cur_khz, 1500000);
        ck_assert_int_eq(r.policy[0].error, 0);
        cpufreq_close(&r);
        ck_assert_uint_eq(r.n, 0);
}
END_TEST

/* A policy whose CPUs all read idle keeps its last frequency unread, once
 * it was read at all; one busy CPU makes its policy read. */
START_TEST(test_cpufreq_idle_policy_unread)
{
        struct cpufreq_reader r;
        struct bl_topology t;
        struct bl_diag d;
        float busy[BL_MAX_CPUS] = { 0 };

        diag_init(&d);
        add_exynos5422(700000, 1000000);
        ck_assert_int_eq(topology_discover(&t, &d), 0);
        ck_assert_int_eq(cpufreq_open(&r), 0);
        /* never read: read, idle or not */
        ck_assert_int_eq(cpufreq_read(&r, busy), 0);
        ck_assert_uint_eq(r.policy[0].cur_khz, 700000);
        ck_assert_uint_eq(r.policy[1].cur_khz, 1000000);
        set_cur_freq(0, "1400000\n");
        set_cur_freq(4, "<garbage, unread>\n");
        busy[2] = 0.25f;
        ck_assert_int_eq(cpufreq_read(&r, busy), 0);
        ck_assert_uint_eq(r.policy[0].cur_khz, 1400000);
        ck_assert_uint_eq(r.policy[1].cur_khz, 1000000);
        ck_assert_int_eq(r.policy[1].error, 0);
        /* the big policy wakes: read, and its garbage seen */
        busy[7] = 0.01f;
        ck_assert_int_eq(cpufreq_read(&r, busy), -EINVAL);
        ck_assert_int_eq(r.policy[1].error, -EINVAL);
        cpufreq_close(&r);
}
END_TEST

START_TEST(test_cpufreq_absent)
{
        struct cpufreq_reader r;
        struct bl_topology t;
        struct bl_diag d;
        uint16_t cap[BL_MAX_CPUS];

        diag_init(&d);
        add_cpu(0, NULL, 446, NO_VALUE, NO_VALUE);
        add_cpu(1, "1", 1024, NO_VALUE, NO_VALUE);
        ck_assert_int_eq(topology_discover(&t, &d), 0);
        ck_assert_int_eq(cpufreq_open(&r), 0);
        ck_assert_uint_eq(r.n, 0);
        ck_assert_int_eq(cpufreq_read(&r, NULL), 0);
        cpufreq_scale(&r, &t, cap);
        ck_assert_uint_eq(cap[0], 446);
        ck_assert_uint_eq(cap[1], 1024);
        cpufreq_close(&r);
}
END_TEST

START_TEST(test_cpufreq_policy_of_1024_cpus)
{
        struct cpufreq_reader r;
        GString *related = g_string_new(NULL);

        /* about 4 KiB of "0 1 2 ... 1023 " */
        for (unsigned cpu = 0; cpu < BL_MAX_CPUS; cpu++)
                g_string_append_printf(related, "%u ", cpu);
        add_policy(0, related->str, 3000000, 1500000);
        g_string_free(related, TRUE);
        ck_assert_int_eq(cpufreq_open(&r), 0);
        ck_assert_uint_eq(r.n, 1);
        ck_assert_uint_eq(cpumask_count(&r.policy[0].cpus), BL_MAX_CPUS);
        ck_assert(cpumask_isset(&r.policy[0].cpus, 1023));
        cpufreq_close(&r);
}
END_TEST

START_TEST(test_cpufreq_skips_broken_policy)
{
        struct cpufreq_reader r;

        add_policy(0, "0 1", 1800000, 900000);
        add_policy(2, "2 3", 2400000, 1200000);
        bed_write("sys/devices/system/cpu/cpufreq/policy2/cpuinfo_max_freq", "many\n");
        bed_mkdir("sys/devices/system/cpu/cpufreq/ondemand");
        ck_assert_int_eq(cpufreq_open(&r), 0);
        ck_assert_uint_eq(r.n, 1);
        ck_assert_uint_eq(r.policy[0].max_khz, 1800000);
        ck_assert_int_eq(cpufreq_read(&r, NULL), 0);
        ck_assert_uint_eq(r.policy[0].cur_khz, 900000);
        cpufreq_close(&r);
}
END_TEST

/* Thermal. */

START_TEST(test_thermal_auto_picks_cpu_zones)
{
        struct bl_config c = { .zones_auto = true };
        struct thermal_reader r;
        struct bl_diag d;
        int mc = 0;

        diag_init(&d);
        add_exynos5422(1400000, 2000000);
        ck_assert_int_eq(thermal_open(&r, &c, &d), 0);
        ck_assert_uint_eq(r.n, 4);
        for (unsigned i = 0; i < r.n; i++)
                ck_assert_msg(strstr(r.zone[i].type, "cpu"), "zone %s", r.zone[i].type);
        ck_assert_str_eq(r.zone[1].sysname, "thermal_zone1");
        /* the GPU is hotter but not watched */
        ck_assert_int_eq(thermal_read(&r, &mc), 0);
        ck_assert_int_eq(mc, 52000);
        ck_assert_int_eq(r.zone[3].last_mc, 47000);

        set_temp(2, "71500\n");
        ck_assert_int_eq(thermal_read(&r, &mc), 0);
        ck_assert_int_eq(mc, 71500);
        thermal_close(&r);
        ck_assert_uint_eq(r.n, 0);
}
END_TEST

static void set_trip(unsigned zone, unsigned n, const char *what, const char *text)
{
        char rel[256];

        snprintf(rel, sizeof(rel), "sys/devices/virtual/thermal/thermal_zone%u/trip_point_%u_%s", zone, n,
                 what);
        bed_write(rel, "%s", text);
}

/* Temperatures no CPU reads (issue 18 item 7) are left out like
 * unreadable ones: 150.001 °C and INT_MAX forced critical for the whole
 * run, -273.15 °C was believed. The bounds themselves are plausible. */
START_TEST(test_thermal_implausible_left_out)
{
        static const char *const impossible[] = { "150001\n", "2147483647\n", "-273150\n", "-40001\n" };
        struct bl_config c = { .zones_auto = true };
        struct thermal_reader r;
        struct bl_diag d;
        int mc = 0;

        diag_init(&d);
        add_exynos5422(1400000, 2000000);
        ck_assert_int_eq(thermal_open(&r, &c, &d), 0);
        ck_assert_uint_eq(r.n, 4);
        for (size_t i = 0; i < sizeof(impossible) / sizeof(impossible[0]); i++) {
                set_temp(1, impossible[i]);
                ck_assert_int_eq(thermal_read(&r, &mc), 0);
                ck_assert_msg(mc == 50000, "%s: hottest %d m°C, not cpu2-thermal's 50000", impossible[i], mc);
                ck_assert_int_eq(r.zone[1].error, -EDOM);
                ck_assert_int_eq(r.zone[0].error, 0);
        }
        set_temp(1, "150000\n");
        ck_assert_int_eq(thermal_read(&r, &mc), 0);
        ck_assert_int_eq(mc, 150000);
        ck_assert_int_eq(r.zone[1].error, 0);
        set_temp(1, "-40000\n");
        ck_assert_int_eq(thermal_read(&r, &mc), 0);
        ck_assert_int_eq(mc, 50000);
        ck_assert_int_eq(r.zone[1].last_mc, -40000);
        /* Every zone impossible: no temperature at all, as when none reads. */
        for (unsigned z = 0; z < 4; z++)
                set_temp(z, "2147483647\n");
        ck_assert_int_eq(thermal_read(&r, &mc), -EDOM);
        thermal_close(&r);
}
END_TEST

START_TEST(test_thermal_reads_trips)
{
        struct bl_config c = {
                .zones_auto = true,
                .cap_temp_auto = true,
                .release_temp_auto = true,
                .critical_temp_auto = true,
        };
        struct bl_trip_zone zones[BL_THERMAL_MAX];
        struct bl_thermal_limits l;
        struct thermal_reader r;
        struct bl_diag d;

        diag_init(&d);
        add_zone(0, "cpu-thermal", 40000);
        set_trip(0, 0, "type", "critical\n");
        set_trip(0, 0, "temp", "95000\n");
        set_trip(0, 0, "hyst", "2000\n");
        /* no hyst file: 0 */
        set_trip(0, 1, "type", "passive\n");
        set_trip(0, 1, "temp", "70000\n");
        /* an unparsable temperature: the trip is left out, not the zone */
        set_trip(0, 2, "type", "passive\n");
        set_trip(0, 2, "temp", "cold\n");
        set_trip(0, 3, "type", "hot\n");
        set_trip(0, 3, "temp", "85000\n");
        set_trip(0, 3, "hyst", "lots\n");
        /* no type file: the list ends, later trips are not read */
        set_trip(0, 4, "temp", "60000\n");
        set_trip(0, 5, "type", "passive\n");
        set_trip(0, 5, "temp", "50000\n");
        add_zone(1, "little-cluster", 41000);
        /* a band below any temperature a CPU reads: taken as 0, or the cap
         * would never lift (release at -2147413 °C); the widest possible
         * band is kept */
        set_trip(1, 0, "type", "passive\n");
        set_trip(1, 0, "temp", "75000\n");
        set_trip(1, 0, "hyst", "2147483647\n");
        set_trip(1, 1, "type", "active\n");
        set_trip(1, 1, "temp", "60000\n");
        set_trip(1, 1, "hyst", "100000\n");

        ck_assert_int_eq(thermal_open(&r, &c, &d), 0);
        ck_assert_uint_eq(r.n, 2);
        ck_assert_uint_eq(r.zone[0].ntrips, 3);
        ck_assert_uint_eq(r.zone[0].trip[0].index, 0);
        ck_assert_int_eq(r.zone[0].trip[0].type, BL_TRIP_CRITICAL);
        ck_assert_int_eq(r.zone[0].trip[0].temp_mc, 95000);
        ck_assert_int_eq(r.zone[0].trip[0].hyst_mc, 2000);
        ck_assert_int_eq(r.zone[0].trip[1].type, BL_TRIP_PASSIVE);
        ck_assert_int_eq(r.zone[0].trip[1].temp_mc, 70000);
        ck_assert_int_eq(r.zone[0].trip[1].hyst_mc, 0);
        ck_assert_uint_eq(r.zone[0].trip[2].index, 3);
        ck_assert_int_eq(r.zone[0].trip[2].type, BL_TRIP_HOT);
        ck_assert_int_eq(r.zone[0].trip[2].hyst_mc, 0);
        ck_assert_uint_eq(r.zone[1].ntrips, 2);
        ck_assert_int_eq(r.zone[1].trip[0].hyst_mc, 0);
        ck_assert_int_eq(r.zone[1].trip[1].hyst_mc, 100000);
        ck_assert_uint_eq(d.n, 0);

        ck_assert_uint_eq(thermal_trip_zones(&r, zones), 2);
        ck_assert_str_eq(zones[0].sysname, "thermal_zone0");
        ck_assert_str_eq(zones[0].type, "cpu-thermal");
        ck_assert_uint_eq(zones[0].ntrips, 3);
        thermal_limits_resolve(&c, zones, 2, &l, &d);
        ck_assert_int_eq(l.cap.mc, 65000);
        ck_assert_int_eq(l.release.mc, 60000);
        ck_assert_int_eq(l.critical.mc, 80000);
        /* Alone, the little cluster's passive trip sets the cap, released
         * 5 °C below it. */
        thermal_limits_resolve(&c, zones + 1, 1, &l, &d);
        ck_assert_int_eq(l.cap.mc, 70000);
        ck_assert_int_eq(l.release.mc, 65000);
        thermal_close(&r);
}
END_TEST

START_TEST(test_thermal_auto_x86)
{
        struct bl_config c = { .zones_auto = true };
        struct thermal_reader r;
        struct bl_diag d;
        int mc = 0;

        diag_init(&d);
        add_symmetric_x86();
        ck_assert_int_eq(thermal_open(&r, &c, &d), 0);
        ck_assert_uint_eq(r.n, 1);
        ck_assert_str_eq(r.zone[0].type, "x86_pkg_temp");
        ck_assert_int_eq(thermal_read(&r, &mc), 0);
        ck_assert_int_eq(mc, 45000);
        thermal_close(&r);
}
END_TEST

START_TEST(test_thermal_auto_names)
{
        static const char *const types[] = {
                "soc_thermal", "CPU-big", "LITTLE", "bigcore0-thermal", "cluster1-thermal",
                "battery", "gpu-thermal", "acpitz", "npu_thermal",
        };
        struct bl_config c = { .zones_auto = true };
        struct thermal_reader r;
        struct bl_diag d;

        diag_init(&d);
        for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++)
                add_zone(i, types[i], 30000);
        ck_assert_int_eq(thermal_open(&r, &c, &d), 0);
        ck_assert_uint_eq(r.n, 5);
        thermal_close(&r);
}
END_TEST

START_TEST(test_thermal_explicit_names)
{
        struct bl_config c = { .zones_auto = false, .nzones = 2, .zones = { "gpu-thermal", "cpu3-thermal" } };
        struct thermal_reader r;
        struct bl_diag d;
        int mc = 0;

        diag_init(&d);
        add_exynos5422(1400000, 2000000);
        ck_assert_int_eq(thermal_open(&r, &c, &d), 0);
        ck_assert_uint_eq(r.n, 2);
        ck_assert_str_eq(r.zone[0].type, "gpu-thermal");
        ck_assert_str_eq(r.zone[1].type, "cpu3-thermal");
        ck_assert_int_eq(thermal_read(&r, &mc), 0);
        ck_assert_int_eq(mc, 61000);
        thermal_close(&r);

        /* a zone may also be named by its sysfs name */
        c = (struct bl_config){ .nzones = 1, .zones = { "thermal_zone2" } };
        ck_assert_int_eq(thermal_open(&r, &c, &d), 0);
        ck_assert_uint_eq(r.n, 1);
        ck_assert_str_eq(r.zone[0].type, "cpu2-thermal");
        thermal_close(&r);
}
END_TEST

START_TEST(test_thermal_explicit_missing)
{
        struct bl_config c = { .zones_auto = false, .nzones = 2, .zones = { "cpu0-thermal", "soc-thermal" } };
        struct thermal_reader r;
        struct bl_diag d;

        diag_init(&d);
        add_exynos5422(1400000, 2000000);
        ck_assert_int_eq(thermal_open(&r, &c, &d), -ENOENT);
        ck_assert_uint_eq(r.n, 0);
        ck_assert_uint_eq(d.n, 1);
        ck_assert_msg(strstr(d.msg[0], "\"soc-thermal\"") &&
                      strstr(d.msg[0], "cpu0-thermal, cpu1-thermal, cpu2-thermal, cpu3-thermal, gpu-thermal"),
                      "diag: %s", d.msg[0]);
}
END_TEST

START_TEST(test_thermal_none)
{
        struct bl_config c = { .zones_auto = true };
        struct bl_config named = { .nzones = 1, .zones = { "acpitz" } };
        struct thermal_reader r;
        struct bl_diag d;
        int mc = 12345;

        diag_init(&d);
        add_zone(0, "gpu-thermal", 40000);
        ck_assert_int_eq(thermal_open(&r, &c, &d), 0);
        ck_assert_uint_eq(r.n, 0);
        ck_assert_int_eq(thermal_read(&r, &mc), -ENODATA);
        ck_assert_int_eq(mc, 12345);
        ck_assert_int_eq(thermal_open(&r, &named, &d), -ENOENT);
        ck_assert(diag_has(&d, "available zone types: gpu-thermal"));
}
END_TEST

START_TEST(test_thermal_failing_sensors)
{
        struct bl_config c = { .zones_auto = true };
        struct thermal_reader r;
        struct bl_diag d;
        int mc = 0;

        diag_init(&d);
        add_zone(0, "cpu-thermal", NO_VALUE);
        add_zone(1, "soc-thermal", -12000);
        add_zone(2, "little-thermal", -15500);
        /* a temp that opens but cannot be read, like a sensor answering EIO */
        bed_mkdir("sys/devices/virtual/thermal/thermal_zone0/temp");
        ck_assert_int_eq(thermal_open(&r, &c, &d), 0);
        ck_assert_uint_eq(r.n, 3);
        /* below zero is a temperature too */
        ck_assert_int_eq(thermal_read(&r, &mc), 0);
        ck_assert_int_eq(mc, -12000);

        set_temp(1, "garbage\n");
        ck_assert_int_eq(thermal_read(&r, &mc), 0);
        ck_assert_int_eq(mc, -15500);
        ck_assert_int_eq(r.zone[1].last_mc, -12000);

        set_temp(2, "\n");
        ck_assert_int_lt(thermal_read(&r, &mc), 0);

        set_temp(2, "33000\n");
        ck_assert_int_eq(thermal_read(&r, &mc), 0);
        ck_assert_int_eq(mc, 33000);
        thermal_close(&r);
}
END_TEST

/* The sampler, end to end. */

static void write_stat(const unsigned *busy, const unsigned *idle, unsigned ncpus, const bl_cpumask *online)
{
        GString *text = g_string_new("cpu  0 0 0 0 0 0 0 0 0 0\n");

        for (unsigned cpu = 0; cpu < ncpus; cpu++)
                if (!online || cpumask_isset(online, cpu))
                        g_string_append_printf(text, "cpu%u %u 0 0 %u 0 0 0 0 0 0\n",
                                               cpu, busy[cpu], idle[cpu]);
        g_string_append(text, "intr 1234 0 0 0 0\nctxt 99\nbtime 1700000000\nprocesses 12\n"
                        "procs_running 1\nprocs_blocked 0\nsoftirq 1 0 0 0 0 0 0 0 0 0 0\n");
        bed_write("proc/stat", "%s", text->str);
        g_string_free(text, TRUE);
}

/* 'running' tasks runnable besides the reader, as the kernel prints it. */
static void write_loadavg(unsigned running)
{
        bed_write("proc/loadavg", "0.00 0.01 0.05 %u/120 4242\n", running + 1);
}

static void write_psi(unsigned long long total)
{
        bed_write("proc/pressure/cpu", "some avg10=0.00 avg60=0.00 avg300=0.00 total=%llu\n"
                  "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", total);
}

struct board {
        struct bl_topology topo;
        struct bl_config config;
        struct bl_diag diag;
        struct bl_sampler sampler;
        struct bl_sample_buf sample;
};

/* The CPUs a sample says are online, by their CPU numbers. */
static void online_cpus(const struct bl_sample *s, bl_cpumask *online)
{
        cpumask_zero(online);
        for (unsigned i = 0; i < s->ncpus; i++)
                if (s->cpu[i].online)
                        cpumask_set(online, s->cpu[i].cpu);
}

/* cpuN/cpuidle/stateK/time of the CPUs in 'cpus', states 0 and 1 (the
 * sum is what counts: state 1 holds 'total_us' less 1000). */
static void write_idle(const char *cpus, const uint64_t *total_us)
{
        bl_cpumask set;

        ck_assert_int_eq(cpumask_parse(&set, cpus), 0);
        for (unsigned cpu = 0; cpu < 8; cpu++) {
                char rel[128];

                if (!cpumask_isset(&set, cpu))
                        continue;
                snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cpuidle/state0/time", cpu);
                bed_write(rel, "1000\n");
                snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cpuidle/state1/time", cpu);
                bed_write(rel, "%llu\n", (unsigned long long)(total_us[cpu] - 1000));
        }
}

static const uint64_t idle_start[8] = { 50000, 50000, 50000, 50000, 50000, 50000, 50000, 50000 };

/* 'idle_cpus': the CPUs with cpuidle (idle_start), NULL for none. */
static struct board *exynos_sampler_idle(bool psi, const char *idle_cpus)
{
        static const unsigned busy[8] = { 100, 200, 300, 400, 500, 600, 700, 800 };
        static const unsigned idle[8] = { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000 };
        struct board *b = calloc(1, sizeof(*b));
        char path[1024];

        ck_assert_ptr_nonnull(b);
        add_exynos5422(700000, 2000000);
        write_stat(busy, idle, 8, NULL);
        if (idle_cpus)
                write_idle(idle_cpus, idle_start);
        /* Unless a test put a directory there (no runnable count): a
         * testbed without the file would read the host's. */
        bed_path(path, sizeof(path), "proc/loadavg");
        if (!g_file_test(path, G_FILE_TEST_IS_DIR))
                write_loadavg(0);
        if (psi)
                write_psi(1000);
        else
                /* opens, then every read fails (EISDIR), as with psi=0; a
                 * missing or dangling testbed file would fall through to
                 * the real /proc */
                bed_mkdir("proc/pressure/cpu");
        /* sampler_read() must fill in the whole sample: none of this may show. */
        memset(&b->sample, 0xa5, sizeof(b->sample));
        diag_init(&b->diag);
        b->config.zones_auto = true;
        ck_assert_int_eq(topology_discover(&b->topo, &b->diag), 0);
        ck_assert_int_eq(sampler_open(&b->sampler, &b->topo, &b->config, &b->diag), 0);
        return b;
}

static struct board *exynos_sampler(bool psi)
{
        return exynos_sampler_idle(psi, NULL);
}

static void free_board(struct board *b)
{
        sampler_close(&b->sampler);
        free(b);
}

/* The line for the zones left out names each: one more going bad, or one
 * reading again, changes it, so the daemon says every change once. */
START_TEST(test_sampler_names_every_zone_left_out)
{
        struct board *b = exynos_sampler(true);
        const char *line = b->sampler.problem[SAMPLER_PROBLEM_THERMAL];

        set_temp(1, "150001\n");
        ck_assert_int_eq(sampler_read(&b->sampler, 1000000, &b->sample), 0);
        ck_assert_str_eq(line, "thermal_zone1 (cpu1-thermal): temp: outside -40..150 °C, no CPU reads that; the "
                               "zone is left out until it reads again");
        ck_assert_int_eq(b->sample.s.temp_mc, 50000);
        set_temp(3, "x\n");
        ck_assert_int_eq(sampler_read(&b->sampler, 1020000, &b->sample), 0);
        ck_assert_str_eq(line, "thermal_zone1 (cpu1-thermal): temp: outside -40..150 °C, no CPU reads that; "
                               "thermal_zone3 (cpu3-thermal): temp: not in the kernel's format; the zones are "
                               "left out until they read again");
        set_temp(1, "52000\n");
        ck_assert_int_eq(sampler_read(&b->sampler, 1040000, &b->sample), 0);
        ck_assert_str_eq(line, "thermal_zone3 (cpu3-thermal): temp: not in the kernel's format; the zone is "
                               "left out until it reads again");
        set_temp(3, "47000\n");
        ck_assert_int_eq(sampler_read(&b->sampler, 1060000, &b->sample), 0);
        ck_assert_str_eq(line, "");
        ck_assert_int_eq(b->sample.s.temp_mc, 52000);
        free_board(b);
}
END_TEST

START_TEST(test_sampler_two_ticks)
{
        static const unsigned busy[8] = { 101, 200, 302, 400, 502, 601, 700, 800 };
        static const unsigned idle[8] = { 1001, 1002, 1000, 1000, 1000, 1001, 1002, 1002 };
        struct board *b = exynos_sampler(true);
        const struct bl_sample *s = &b->sample.s;
        const bl_usec_t now = 5000000;
        bl_cpumask seen;

        /* nothing to warn about; where busy time comes from */
        ck_assert_uint_eq(b->diag.n, 1);
        ck_assert_str_eq(b->diag.msg[0],
                         "busy time: /proc/stat (USER_HZ ticks) on CPUs 0-7: no cpuidle states");

        ck_assert_int_eq(sampler_read(&b->sampler, now, &b->sample), 0);
        ck_assert_uint_eq(s->now, now);
        ck_assert_uint_eq(s->interval, 0);
        ck_assert_uint_eq(s->ncpus, 8);
        ck_assert_ptr_eq(s->cpu, b->sample.cpu);
        online_cpus(s, &seen);
        ck_assert_uint_eq(cpumask_count(&seen), 8);
        for (unsigned cpu = 0; cpu < 8; cpu++) {
                ck_assert_uint_eq(s->cpu[cpu].cpu, cpu);
                ck_assert_float_eq(s->cpu[cpu].busy, 0.0f);
        }
        ck_assert(!s->has_pressure);
        ck_assert(s->has_temp);
        ck_assert_int_eq(s->temp_mc, 52000);
        ck_assert_uint_eq(s->cpu[0].capacity, 188);
        ck_assert_uint_eq(s->cpu[4].capacity, 1024);
        /* the top capacity stays whatever the frequency */
        ck_assert_uint_eq(s->cpu[0].max_capacity, 377);
        ck_assert_uint_eq(s->cpu[4].max_capacity, 1024);

        /* 20 ms later: two USER_HZ ticks per CPU */
        write_stat(busy, idle, 8, NULL);
        write_psi(1000 + 5000);
        set_cur_freq(4, "1000000\n");
        set_temp(4, "90000\n");         /* the GPU is not watched */
        set_temp(3, "55500\n");
        ck_assert_int_eq(sampler_read(&b->sampler, now + 20000, &b->sample), 0);
        ck_assert_uint_eq(s->now, now + 20000);
        ck_assert_uint_eq(s->interval, 20000);
        ck_assert_float_eq(s->cpu[0].busy, 0.5f);
        ck_assert_float_eq(s->cpu[1].busy, 0.0f);
        ck_assert_float_eq(s->cpu[2].busy, 1.0f);
        ck_assert_float_eq(s->cpu[3].busy, 0.0f);   /* no tick at all */
        ck_assert_float_eq(s->cpu[4].busy, 1.0f);
        ck_assert_float_eq(s->cpu[5].busy, 0.5f);
        ck_assert_float_eq(s->cpu[6].busy, 0.0f);
        ck_assert_uint_eq(s->cpu[2].capacity, 188);
        ck_assert_uint_eq(s->cpu[5].capacity, 512);
        ck_assert(s->has_pressure);
        ck_assert_double_eq_tol(s->pressure, 0.25, 1e-9);
        ck_assert_int_eq(s->temp_mc, 55500);
        ck_assert_double_eq_tol(sample_peak_demand(s), 512.0, 1e-6);

        /* PSI going backwards is no stall; more stall than time is all of it */
        write_psi(2000);
        ck_assert_int_eq(sampler_read(&b->sampler, now + 40000, &b->sample), 0);
        ck_assert(s->has_pressure);
        ck_assert_double_eq(s->pressure, 0.0);
        write_psi(2000 + 50000);
        ck_assert_int_eq(sampler_read(&b->sampler, now + 60000, &b->sample), 0);
        ck_assert_double_eq(s->pressure, 1.0);
        free_board(b);
}
END_TEST

START_TEST(test_sampler_offline_cpu)
{
        static const unsigned busy[8] = { 102, 200, 300, 400, 500, 600, 9999, 802 };
        static const unsigned idle[8] = { 1000, 1002, 1002, 1002, 1002, 1002, 9999, 1000 };
        struct board *b = exynos_sampler(true);
        const struct bl_sample *s = &b->sample.s;
        bl_cpumask online = cpus_of("0-5,7"), seen;

        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        /* cpu6 went offline: /proc/stat has no line for it */
        write_stat(busy, idle, 8, &online);
        ck_assert_int_eq(sampler_read(&b->sampler, 21000, &b->sample), 0);
        online_cpus(s, &seen);
        ck_assert(cpumask_equal(&seen, &online));
        ck_assert_float_eq(s->cpu[6].busy, 0.0f);
        ck_assert_uint_eq(s->cpu[6].capacity, 0);
        ck_assert_uint_eq(s->cpu[7].capacity, 1024);
        ck_assert_float_eq(s->cpu[7].busy, 1.0f);
        ck_assert_float_eq(s->cpu[0].busy, 1.0f);

        /* back online: offline for one more sample, then counted again */
        write_stat((const unsigned[8]){ 102, 200, 300, 400, 500, 600, 700, 803 },
                   (const unsigned[8]){ 1002, 1004, 1004, 1004, 1004, 1004, 1000, 1001 }, 8, NULL);
        ck_assert_int_eq(sampler_read(&b->sampler, 41000, &b->sample), 0);
        ck_assert(!s->cpu[6].online);
        /* Two ticks are too few alone: with the interval before (2 busy
         * of 2), 3 of 4 (sources/stat-window.h). */
        ck_assert_float_eq_tol(s->cpu[7].busy, 0.75f, 1e-6f);
        write_stat((const unsigned[8]){ 102, 200, 300, 400, 500, 600, 701, 803 },
                   (const unsigned[8]){ 1004, 1006, 1006, 1006, 1006, 1006, 1001, 1003 }, 8, NULL);
        ck_assert_int_eq(sampler_read(&b->sampler, 61000, &b->sample), 0);
        ck_assert(s->cpu[6].online);
        ck_assert_float_eq_tol(s->cpu[6].busy, 0.5f, 1e-6f);
        ck_assert_uint_eq(s->cpu[6].capacity, 1024);
        free_board(b);
}
END_TEST

/* The hardware counters across hotplug, through a stand-in kernel: opens on
 * the CPUs it holds offline fail with ENODEV, those it is told to refuse
 * fail so, and every other open counts cpu-clock on cpu0 for real, so that
 * groups and reads are the kernel's. */
struct perf_stub {
        bl_cpumask offline;
        int refuse[8];
        unsigned opens[8];
};

static int stub_open(struct perf_event_attr *attr, int cpu, int group_fd, void *userdata)
{
        struct perf_stub *k = userdata;
        long fd;

        ck_assert(cpu >= 0 && cpu < 8);
        k->opens[cpu]++;
        if (cpumask_isset(&k->offline, (unsigned)cpu))
                return -ENODEV;
        if (k->refuse[cpu])
                return -k->refuse[cpu];
        fd = syscall(SYS_perf_event_open, attr, -1, 0, group_fd, PERF_FLAG_FD_CLOEXEC);
        return fd < 0 ? -errno : (int)fd;
}

static int stub_perfmon(void *userdata)
{
        (void)userdata;
        return 1;
}

static const struct perf_event_list clock_events = {
        .cycles = { "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
        .instructions = { "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
        .nthird = 1,
        .third = { { "clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK } },
};

struct counted {
        struct board *b;
        struct perf_stub kernel;
        struct perf_syscalls sys;
        bl_usec_t now;
        unsigned ticks;
};

/* The Exynos board with counters wanted after it opened, 'offline' out of
 * /proc/stat and the stand-in. False when this machine refuses cpu-wide
 * software events: the test does not run then. */
static bool counted_open(struct counted *c, const char *offline)
{
        static const unsigned ticks[8] = { 0 };
        bl_cpumask online = cpus_of("0-7"), gone = cpus_of(offline);
        int r;

        memset(c, 0, sizeof(*c));
        c->b = exynos_sampler(true);
        c->kernel.offline = gone;
        c->sys = (struct perf_syscalls){ stub_open, stub_perfmon, &c->kernel };
        c->b->sampler.perf_sys = &c->sys;
        c->b->sampler.perf_events = &clock_events;
        cpumask_andnot(&online, &gone);
        write_stat(ticks, ticks, 8, &online);
        r = sampler_want_counters(&c->b->sampler, true, &c->b->diag);
        if (r == -EACCES || r == -EPERM) {
                fprintf(stderr, "# cpu-wide software events refused here (%s): test not run\n", strerror(-r));
                free_board(c->b);
                return false;
        }
        ck_assert_int_eq(r, 0);
        return true;
}

/* One tick with 'online' in /proc/stat, each CPU a tick further. */
static void counted_tick(struct counted *c, const char *online)
{
        unsigned busy[8], idle[8];
        bl_cpumask set = cpus_of(online);

        c->ticks++;
        for (unsigned cpu = 0; cpu < 8; cpu++) {
                busy[cpu] = c->ticks;
                idle[cpu] = c->ticks;
        }
        write_stat(busy, idle, 8, &set);
        usleep(1000);
        c->now += 10000;
        ck_assert_int_eq(sampler_read(&c->b->sampler, c->now, &c->b->sample), 0);
}

/* The CPUs whose record carries counters, as a list. */
static const char *counted_cpus(const struct counted *c)
{
        static char list[64];
        bl_cpumask set;

        cpumask_zero(&set);
        for (unsigned cpu = 0; cpu < c->b->sample.s.ncpus; cpu++)
                if (c->b->sample.cpu[cpu].has_counters)
                        cpumask_set(&set, cpu);
        cpumask_format(&set, list, sizeof(list));
        return list;
}

static unsigned opens_total(const struct perf_stub *k)
{
        unsigned n = 0;

        for (unsigned cpu = 0; cpu < 8; cpu++)
                n += k->opens[cpu];
        return n;
}

START_TEST(test_sampler_counters_follow_hotplug)
{
        char said[128];
        struct counted c;
        unsigned before;

        if (!counted_open(&c, "6"))
                return;
        snprintf(said, sizeof(said), "CPU 6 offline (%s), counted once online", strerror(ENODEV));
        ck_assert(diag_has(&c.b->diag, said));
        ck_assert_uint_eq(c.kernel.opens[6], 1);
        counted_tick(&c, "0-5,7");
        counted_tick(&c, "0-5,7");
        ck_assert_str_eq(counted_cpus(&c), "0-5,7");
        ck_assert_str_eq(c.b->sampler.problem[SAMPLER_PROBLEM_COUNTERS], "");

        /* cpu6, offline at the start, comes online: a group of its own,
         * counting from the tick after. */
        cpumask_clear(&c.kernel.offline, 6);
        counted_tick(&c, "0-7");
        ck_assert_uint_eq(c.kernel.opens[6], 4);
        ck_assert(!c.b->sample.cpu[6].has_counters);
        counted_tick(&c, "0-7");
        ck_assert_str_eq(counted_cpus(&c), "0-7");
        ck_assert_float_gt(c.b->sample.cpu[6].ipc, 0.0f);

        /* The hotplug backend's switch: 4-7 off, and back. */
        cpumask_or(&c.kernel.offline, &(bl_cpumask){ .bits = { 0xf0 } });
        before = opens_total(&c.kernel);
        counted_tick(&c, "0-3");
        counted_tick(&c, "0-3");
        ck_assert_str_eq(counted_cpus(&c), "0-3");
        ck_assert_uint_eq(opens_total(&c.kernel), before);
        cpumask_zero(&c.kernel.offline);
        counted_tick(&c, "0-7");
        for (unsigned cpu = 4; cpu < 8; cpu++)
                ck_assert_uint_eq(c.kernel.opens[cpu], cpu == 6 ? 7 : 6);
        ck_assert_str_eq(counted_cpus(&c), "0-3");
        counted_tick(&c, "0-7");
        ck_assert_str_eq(counted_cpus(&c), "0-7");

        /* Nothing changes: nothing is opened. */
        before = opens_total(&c.kernel);
        for (unsigned i = 0; i < 3; i++)
                counted_tick(&c, "0-7");
        ck_assert_uint_eq(opens_total(&c.kernel), before);
        ck_assert_str_eq(counted_cpus(&c), "0-7");
        free_board(c.b);
}
END_TEST

START_TEST(test_sampler_counters_failed_open_said_once)
{
        char expect[SAMPLER_PROBLEM_MAX];
        struct counted c;
        unsigned before;

        if (!counted_open(&c, ""))
                return;
        counted_tick(&c, "0-7");
        cpumask_set(&c.kernel.offline, 4);
        cpumask_set(&c.kernel.offline, 5);
        counted_tick(&c, "0-3,6-7");

        /* Back, but the kernel is out of descriptors for them. */
        cpumask_zero(&c.kernel.offline);
        c.kernel.refuse[4] = c.kernel.refuse[5] = EMFILE;
        counted_tick(&c, "0-7");
        snprintf(expect, sizeof(expect), "the hardware counters of CPUs 4-5 did not open when they came "
                 "online (perf_event_open cpu-clock on cpu5: %s); each goes without until it next comes "
                 "online", strerror(EMFILE));
        ck_assert_str_eq(c.b->sampler.problem[SAMPLER_PROBLEM_COUNTERS], expect);
        before = opens_total(&c.kernel);
        for (unsigned i = 0; i < 3; i++) {
                counted_tick(&c, "0-7");
                ck_assert_str_eq(c.b->sampler.problem[SAMPLER_PROBLEM_COUNTERS], expect);
                ck_assert_str_eq(counted_cpus(&c), "0-3,6-7");
        }
        /* Not tried again tick after tick. */
        ck_assert_uint_eq(opens_total(&c.kernel), before);

        /* Tried again when they next come online: cpu5 opens, cpu4 not. */
        cpumask_set(&c.kernel.offline, 4);
        cpumask_set(&c.kernel.offline, 5);
        counted_tick(&c, "0-3,6-7");
        ck_assert_str_eq(c.b->sampler.problem[SAMPLER_PROBLEM_COUNTERS], expect);
        cpumask_zero(&c.kernel.offline);
        c.kernel.refuse[5] = 0;
        before = c.kernel.opens[4];
        counted_tick(&c, "0-7");
        ck_assert_uint_eq(c.kernel.opens[4], before + 1);
        snprintf(expect, sizeof(expect), "the hardware counters of CPU 4 did not open when it came online "
                 "(perf_event_open cpu-clock on cpu4: %s); it goes without until it next comes online",
                 strerror(EMFILE));
        ck_assert_str_eq(c.b->sampler.problem[SAMPLER_PROBLEM_COUNTERS], expect);
        counted_tick(&c, "0-3,5-7");
        c.kernel.refuse[4] = 0;
        counted_tick(&c, "0-7");
        ck_assert_str_eq(c.b->sampler.problem[SAMPLER_PROBLEM_COUNTERS], "");
        counted_tick(&c, "0-7");
        ck_assert_str_eq(counted_cpus(&c), "0-7");

        /* Counters no longer wanted: nothing left to say. */
        c.kernel.refuse[2] = EMFILE;
        counted_tick(&c, "0-1,3-7");
        counted_tick(&c, "0-7");
        ck_assert_str_ne(c.b->sampler.problem[SAMPLER_PROBLEM_COUNTERS], "");
        ck_assert_int_eq(sampler_want_counters(&c.b->sampler, false, &c.b->diag), 0);
        ck_assert_str_eq(c.b->sampler.problem[SAMPLER_PROBLEM_COUNTERS], "");
        free_board(c.b);
}
END_TEST

/* Gone and back between two reads: /proc/stat shows no change, udev's
 * offline event does; a resume shows neither. */
START_TEST(test_sampler_counters_unseen_hotplug)
{
        struct counted c;
        unsigned before;

        if (!counted_open(&c, ""))
                return;
        counted_tick(&c, "0-7");
        counted_tick(&c, "0-7");
        ck_assert_str_eq(counted_cpus(&c), "0-7");

        sampler_cpu_offline(&c.b->sampler, 3);
        before = c.kernel.opens[3];
        counted_tick(&c, "0-7");
        ck_assert_uint_eq(c.kernel.opens[3], before + 3);
        ck_assert_str_eq(counted_cpus(&c), "0-2,4-7");
        counted_tick(&c, "0-7");
        ck_assert_str_eq(counted_cpus(&c), "0-7");

        before = opens_total(&c.kernel);
        sampler_restart(&c.b->sampler);
        counted_tick(&c, "0-7");
        ck_assert_uint_eq(opens_total(&c.kernel), before + 24);
        ck_assert_str_eq(counted_cpus(&c), "");
        counted_tick(&c, "0-7");
        ck_assert_str_eq(counted_cpus(&c), "0-7");

        /* A CPU not counted on (none here beyond 7), and counters closed. */
        sampler_cpu_offline(&c.b->sampler, 9);
        ck_assert_int_eq(sampler_want_counters(&c.b->sampler, false, &c.b->diag), 0);
        sampler_cpu_offline(&c.b->sampler, 3);
        counted_tick(&c, "0-7");
        ck_assert_str_eq(counted_cpus(&c), "");
        free_board(c.b);
}
END_TEST

START_TEST(test_sampler_without_psi)
{
        static const unsigned busy[8] = { 101, 201, 301, 401, 501, 601, 701, 801 };
        static const unsigned idle[8] = { 1001, 1001, 1001, 1001, 1001, 1001, 1001, 1001 };
        struct board *b = exynos_sampler(false);
        const struct bl_sample *s = &b->sample.s;

        ck_assert(diag_has(&b->diag, "/proc/pressure/cpu"));
        ck_assert_int_eq(b->sampler.psi.fd, -1);
        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        ck_assert(!s->has_pressure);
        write_stat(busy, idle, 8, NULL);
        ck_assert_int_eq(sampler_read(&b->sampler, 21000, &b->sample), 0);
        ck_assert(!s->has_pressure);
        ck_assert_double_eq(s->pressure, 0.0);
        ck_assert_float_eq(s->cpu[3].busy, 0.5f);
        free_board(b);
}
END_TEST

/* What runs as the sample ends: the runnable count less the reader; a read
 * that fails leaves the sample without it for that tick and says so once,
 * and a good one afterwards clears the line. */
START_TEST(test_sampler_running_at_the_end)
{
        struct board *b = exynos_sampler(true);
        const struct bl_sample *s = &b->sample.s;

        ck_assert(!diag_has(&b->diag, "/proc/loadavg"));
        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        ck_assert(s->has_running);
        ck_assert_uint_eq(s->running, 0);
        write_loadavg(3);
        ck_assert_int_eq(sampler_read(&b->sampler, 21000, &b->sample), 0);
        ck_assert(s->has_running);
        ck_assert_uint_eq(s->running, 3);
        ck_assert_str_eq(b->sampler.problem[SAMPLER_PROBLEM_LOADAVG], "");
        bed_write("proc/loadavg", "0.00 0.01 0.05 0/120 4242\n");
        ck_assert_int_eq(sampler_read(&b->sampler, 41000, &b->sample), 0);
        ck_assert(!s->has_running);
        ck_assert_str_eq(b->sampler.problem[SAMPLER_PROBLEM_LOADAVG],
                         "/proc/loadavg: not in the kernel's format; samples do not say what runs at their end "
                         "until it reads again");
        write_loadavg(1);
        ck_assert_int_eq(sampler_read(&b->sampler, 61000, &b->sample), 0);
        ck_assert(s->has_running);
        ck_assert_uint_eq(s->running, 1);
        ck_assert_str_eq(b->sampler.problem[SAMPLER_PROBLEM_LOADAVG], "");
        free_board(b);
}
END_TEST

START_TEST(test_sampler_without_loadavg)
{
        struct board *b;

        bed_mkdir("proc/loadavg");
        b = exynos_sampler(true);
        ck_assert(diag_has(&b->diag, "/proc/loadavg: cannot read the runnable tasks"));
        ck_assert_int_eq(b->sampler.loadavg.fd, -1);
        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        ck_assert(!b->sample.s.has_running);
        ck_assert_str_eq(b->sampler.problem[SAMPLER_PROBLEM_LOADAVG], "");
        free_board(b);
}
END_TEST

START_TEST(test_sampler_psi_read_fails_for_a_tick)
{
        struct board *b = exynos_sampler(true);
        const struct bl_sample *s = &b->sample.s;

        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        write_psi(3000);
        ck_assert_int_eq(sampler_read(&b->sampler, 21000, &b->sample), 0);
        ck_assert(s->has_pressure);
        ck_assert_double_eq_tol(s->pressure, 0.1, 1e-9);
        /* a bad read: no pressure now, and the next read starts afresh */
        bed_write("proc/pressure/cpu", "some avg10=0.00");
        ck_assert_int_eq(sampler_read(&b->sampler, 41000, &b->sample), 0);
        ck_assert(!s->has_pressure);
        write_psi(9000);
        ck_assert_int_eq(sampler_read(&b->sampler, 61000, &b->sample), 0);
        ck_assert(!s->has_pressure);
        write_psi(13000);
        ck_assert_int_eq(sampler_read(&b->sampler, 81000, &b->sample), 0);
        ck_assert(s->has_pressure);
        ck_assert_double_eq_tol(s->pressure, 0.2, 1e-9);
        free_board(b);
}
END_TEST

START_TEST(test_sampler_bad_stat_read_keeps_previous)
{
        static const unsigned busy[8] = { 104, 200, 300, 400, 500, 600, 700, 800 };
        static const unsigned idle[8] = { 1000, 1004, 1004, 1004, 1004, 1004, 1004, 1004 };
        struct board *b = exynos_sampler(true);
        const struct bl_sample *s = &b->sample.s;

        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        bed_write("proc/stat", "cpu  1 2 3 4\ncpu0 1 2");
        write_psi(1000 + 10000);
        ck_assert_int_eq(sampler_read(&b->sampler, 21000, &b->sample), -EINVAL);
        /* the next good read covers both intervals */
        write_stat(busy, idle, 8, NULL);
        ck_assert_int_eq(sampler_read(&b->sampler, 41000, &b->sample), 0);
        ck_assert_uint_eq(s->interval, 40000);
        ck_assert_float_eq(s->cpu[0].busy, 1.0f);
        ck_assert_float_eq(s->cpu[1].busy, 0.0f);
        ck_assert(s->has_pressure);
        ck_assert_double_eq_tol(s->pressure, 0.25, 1e-9);
        free_board(b);
}
END_TEST

START_TEST(test_sampler_thermal_config)
{
        static const unsigned zero[4] = { 0 };
        struct bl_topology t;
        struct bl_config c = { .nzones = 1, .zones = { "cpu_thermal" } };
        struct bl_sampler sampler;
        struct bl_sample_buf buf;
        struct bl_diag d;

        diag_init(&d);
        add_symmetric_x86();
        write_stat(zero, zero, 4, NULL);
        write_psi(0);
        ck_assert_int_eq(topology_discover(&t, &d), 0);
        /* a named zone that is not there stops the sampler */
        ck_assert_int_eq(sampler_open(&sampler, &t, &c, &d), -ENOENT);
        ck_assert(diag_has(&d, "\"cpu_thermal\" not found; available zone types: acpitz, x86_pkg_temp"));

        /* auto on a machine without a CPU zone: no thermal limits, said so */
        diag_init(&d);
        c = (struct bl_config){ .zones_auto = true };
        bed_write("sys/devices/virtual/thermal/thermal_zone1/type", "pch_cannonlake\n");
        ck_assert_int_eq(sampler_open(&sampler, &t, &c, &d), 0);
        ck_assert(diag_has(&d, "no thermal zone: thermal limits disabled"));
        ck_assert_int_eq(sampler_read(&sampler, 1000, &buf), 0);
        ck_assert(!buf.s.has_temp);
        /* one kind of core, capacity 1024, scaled by each CPU's own policy */
        ck_assert_uint_eq(buf.s.ncpus, 4);
        ck_assert_uint_eq(buf.cpu[0].capacity, 1024 * 2100000ULL / 4500000);
        ck_assert_uint_eq(buf.cpu[3].capacity, 512);
        sampler_close(&sampler);
}
END_TEST

START_TEST(test_sampler_without_proc_stat)
{
        struct bl_topology t;
        struct bl_config c = { .zones_auto = true };
        struct bl_sampler sampler;
        struct bl_diag d;
        struct stat st;

        /* only meaningful where the real /proc/stat is hidden: make the
         * testbed's one a directory, which opens but does not read */
        diag_init(&d);
        add_symmetric_x86();
        bed_mkdir("proc/stat");
        ck_assert_int_eq(stat("/proc/stat", &st), 0);
        ck_assert(S_ISDIR(st.st_mode));
        ck_assert_int_eq(topology_discover(&t, &d), 0);
        ck_assert_int_eq(sampler_open(&sampler, &t, &c, &d), 0);
        ck_assert_int_eq(sampler_read(&sampler, 1000, &(struct bl_sample_buf){ 0 }), -EISDIR);
        sampler_close(&sampler);
}
END_TEST

/* Busy time from cpuidle residency (the rules: check_cpuidle_estimate). */

START_TEST(test_cpuidle_sampler_exact)
{
        static const unsigned busy[8] = { 101, 200, 301, 400, 500, 601, 700, 801 };
        static const unsigned idle[8] = { 1000, 1001, 1000, 1001, 1001, 1000, 1001, 1000 };
        /* per CPU idle over 10 ms: 2.5, 10, 0, 7.5, 5, 1, 9.99, 3.333 ms */
        static const uint64_t later[8] = { 52500, 60000, 50000, 57500, 55000, 51000, 59990, 53333 };
        static const float expect[8] = { 0.75f, 0.0f, 1.0f, 0.25f, 0.5f, 0.9f, 0.001f, 0.6667f };
        struct board *b = exynos_sampler_idle(true, "0-7");
        const struct bl_sample *s = &b->sample.s;

        ck_assert_uint_eq(b->diag.n, 1);
        ck_assert_str_eq(b->diag.msg[0], "busy time: cpuidle residency (exact) on CPUs 0-7");
        for (unsigned cpu = 0; cpu < 8; cpu++)
                ck_assert(cpuidle_has(&b->sampler.idle, cpu));
        ck_assert_uint_eq(b->sampler.idle.cpu[0].nstates, 2);
        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        for (unsigned cpu = 0; cpu < 8; cpu++)
                ck_assert_float_eq(s->cpu[cpu].busy, 0.0f);
        /* one USER_HZ tick each: /proc/stat alone would say 0 % or 100 % */
        write_stat(busy, idle, 8, NULL);
        write_idle("0-7", later);
        ck_assert_int_eq(sampler_read(&b->sampler, 11000, &b->sample), 0);
        for (unsigned cpu = 0; cpu < 8; cpu++)
                ck_assert_msg(fabsf(s->cpu[cpu].busy - expect[cpu]) < 1e-4f, "cpu%u: busy %f, expected %f",
                              cpu, (double)s->cpu[cpu].busy, (double)expect[cpu]);
        free_board(b);
}
END_TEST

START_TEST(test_cpuidle_sampler_fallback)
{
        static const unsigned busy[8] = { 101, 201, 301, 401, 501, 601, 701, 801 };
        static const unsigned idle[8] = { 1001, 1001, 1001, 1001, 1001, 1001, 1001, 1001 };
        static const uint64_t later[8] = { 55000, 55000, 55000, 55000, 55000, 55000, 55000, 55000 };
        struct board *b = exynos_sampler_idle(true, "0-3");
        const struct bl_sample *s = &b->sample.s;

        ck_assert_uint_eq(b->diag.n, 1);
        ck_assert_str_eq(b->diag.msg[0], "busy time: cpuidle residency (exact) on CPUs 0-3; /proc/stat "
                         "(USER_HZ ticks) on CPUs 4-7: no cpuidle states");
        ck_assert(cpuidle_has(&b->sampler.idle, 3));
        ck_assert(!cpuidle_has(&b->sampler.idle, 4));
        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        write_stat(busy, idle, 8, NULL);
        write_idle("0-3", later);
        ck_assert_int_eq(sampler_read(&b->sampler, 21000, &b->sample), 0);
        /* 5 ms idle of 20 ms against /proc/stat's one busy and one idle tick */
        ck_assert_float_eq_tol(s->cpu[0].busy, 0.75f, 1e-6f);
        ck_assert_float_eq_tol(s->cpu[3].busy, 0.75f, 1e-6f);
        ck_assert_float_eq_tol(s->cpu[4].busy, 0.5f, 1e-6f);
        ck_assert_float_eq_tol(s->cpu[7].busy, 0.5f, 1e-6f);
        free_board(b);
}
END_TEST

START_TEST(test_cpuidle_sampler_backwards)
{
        static const uint64_t back[8] = { 40000, 55000, 50000, 50000, 50000, 50000, 50000, 50000 };
        static const uint64_t on[8] = { 47500, 57500, 50000, 50000, 50000, 50000, 50000, 50000 };
        struct board *b = exynos_sampler_idle(true, "0-7");
        const struct bl_sample *s = &b->sample.s;

        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        /* cpu0's sum goes back: /proc/stat's (one busy tick) for it this time */
        write_stat((const unsigned[8]){ 101, 200, 300, 400, 500, 600, 700, 800 },
                   (const unsigned[8]){ 1000, 1001, 1000, 1000, 1000, 1000, 1000, 1000 }, 8, NULL);
        write_idle("0-7", back);
        ck_assert_int_eq(sampler_read(&b->sampler, 11000, &b->sample), 0);
        ck_assert_float_eq(s->cpu[0].busy, 1.0f);
        ck_assert_float_eq_tol(s->cpu[1].busy, 0.5f, 1e-6f);
        /* from the new value on, exact again; never negative (cpu1's
         * 12.5 ms busy in 20 show in /proc/stat's busy count) */
        write_stat((const unsigned[8]){ 101, 201, 300, 400, 500, 600, 700, 800 },
                   (const unsigned[8]){ 1001, 1002, 1000, 1000, 1000, 1000, 1000, 1000 }, 8, NULL);
        write_idle("0-7", on);
        ck_assert_int_eq(sampler_read(&b->sampler, 21000, &b->sample), 0);
        ck_assert_float_eq_tol(s->cpu[0].busy, 0.25f, 1e-6f);
        ck_assert_float_eq_tol(s->cpu[1].busy, 0.75f, 1e-6f);
        for (unsigned cpu = 0; cpu < 8; cpu++)
                ck_assert(s->cpu[cpu].busy >= 0.0f && s->cpu[cpu].busy <= 1.0f);
        free_board(b);
}
END_TEST

/* A CPU that cpuidle found idle and whose /proc/stat window holds no busy
 * tick is quiet: its files are left unread (cpuidle_read()), and what
 * ended meanwhile is accounted at its next read, over the whole span. */
START_TEST(test_cpuidle_sampler_long_idle)
{
        struct board *b = exynos_sampler_idle(true, "0-7");
        const struct bl_sample *s = &b->sample.s;
        uint64_t t[8];

        memcpy(t, idle_start, sizeof(t));
        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        /* cpu2 goes idle and stays: cpuidle shows nothing, /proc/stat an idle tick */
        write_stat((const unsigned[8]){ 100, 200, 300, 400, 500, 600, 700, 800 },
                   (const unsigned[8]){ 1000, 1000, 1001, 1000, 1000, 1000, 1000, 1000 }, 8, NULL);
        ck_assert_int_eq(sampler_read(&b->sampler, 11000, &b->sample), 0);
        ck_assert_float_eq(s->cpu[2].busy, 0.0f);
        ck_assert_float_eq(s->cpu[3].busy, 1.0f);       /* nothing said otherwise */
        ck_assert(cpuidle_quiet(&b->sampler.idle, 2));
        ck_assert(!cpuidle_quiet(&b->sampler.idle, 3));
        /* no tick this time: still the same idle period, and cpu2 is not read */
        ck_assert_int_eq(sampler_read(&b->sampler, 21000, &b->sample), 0);
        ck_assert_float_eq(s->cpu[2].busy, 0.0f);
        ck_assert_uint_eq(b->sampler.idle.cpu[2].skipped, 1);
        /* it ends, 25 ms at once, and /proc/stat counts an idle tick: still
         * quiet, so the period is not seen yet */
        t[2] += 25000;
        write_idle("0-7", t);
        write_stat((const unsigned[8]){ 100, 200, 300, 400, 500, 600, 700, 800 },
                   (const unsigned[8]){ 1000, 1000, 1002, 1000, 1000, 1000, 1000, 1000 }, 8, NULL);
        ck_assert_int_eq(sampler_read(&b->sampler, 31000, &b->sample), 0);
        ck_assert_float_eq(s->cpu[2].busy, 0.0f);
        ck_assert_uint_eq(b->sampler.idle.cpu[2].total_us, 50000);
        ck_assert_uint_eq(b->sampler.idle.cpu[2].skipped, 2);
        /* A busy tick: read again. Without usage files the 25 ms and the
         * next 4 ms count as one period (29 ms of residency), spanning
         * everything since cpu2 was last seen busy, the first read at 1000:
         * the 10 ms of the tick-2 interval that /proc/stat called idle,
         * 10 ms each for the two skipped ones, and this interval's 10 ms,
         * 40 ms in all. Busy 11 ms of 40: 0.275, the same 11 ms that reads
         * of every tick give (5 ms of 30 at 31000, 6 of 10 at 41000). */
        t[2] += 4000;
        write_idle("0-7", t);
        write_stat((const unsigned[8]){ 100, 200, 301, 400, 500, 600, 700, 800 },
                   (const unsigned[8]){ 1000, 1000, 1002, 1000, 1000, 1000, 1000, 1000 }, 8, NULL);
        ck_assert_int_eq(sampler_read(&b->sampler, 41000, &b->sample), 0);
        ck_assert_uint_eq(b->sampler.idle.cpu[2].total_us, 79000);
        ck_assert_uint_eq(b->sampler.idle.cpu[2].skipped, 0);
        ck_assert_float_eq_tol(s->cpu[2].busy, 11.0f / 40, 1e-6f);
        ck_assert(b->sampler.idle.cpu[2].est.idle);
        free_board(b);
}
END_TEST

/* One USER_HZ tick more in /proc/stat for every CPU: a busy one for
 * those in 'busy_cpus', an idle one for the others. */
static void idle_ticks(const char *busy_cpus, unsigned *busy, unsigned *idle)
{
        bl_cpumask set;

        ck_assert_int_eq(cpumask_parse(&set, busy_cpus), 0);
        for (unsigned cpu = 0; cpu < 8; cpu++) {
                if (cpumask_isset(&set, cpu))
                        busy[cpu]++;
                else
                        idle[cpu]++;
        }
        write_stat(busy, idle, 8, NULL);
}

/* What cpuidle does not read cannot fail: garbage in a quiet CPU's file
 * goes unnoticed until a busy tick has it read. A CPU that is read (a
 * busy tick in the same interval) notices at once. */
START_TEST(test_cpuidle_sampler_quiet_unread)
{
        unsigned busy[8] = { 100, 200, 300, 400, 500, 600, 700, 800 };
        unsigned idle[8] = { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000 };
        struct board *b = exynos_sampler_idle(true, "0-7");
        const struct bl_sample *s = &b->sample.s;

        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        idle_ticks("", busy, idle);
        ck_assert_int_eq(sampler_read(&b->sampler, 11000, &b->sample), 0);
        for (unsigned cpu = 0; cpu < 8; cpu++)
                ck_assert(cpuidle_quiet(&b->sampler.idle, cpu));
        bed_write("sys/devices/system/cpu/cpu2/cpuidle/state1/time", "garbage\n");
        bed_write("sys/devices/system/cpu/cpu3/cpuidle/state1/time", "garbage\n");
        idle_ticks("3", busy, idle);
        ck_assert_int_eq(sampler_read(&b->sampler, 21000, &b->sample), 0);
        ck_assert(cpuidle_has(&b->sampler.idle, 2));
        ck_assert_float_eq(s->cpu[2].busy, 0.0f);
        ck_assert(!cpuidle_has(&b->sampler.idle, 3));
        /* cpu2's busy tick: read, and /proc/stat's window from then on
         * (one busy tick of three) */
        idle_ticks("2", busy, idle);
        ck_assert_int_eq(sampler_read(&b->sampler, 31000, &b->sample), 0);
        ck_assert(!cpuidle_has(&b->sampler.idle, 2));
        ck_assert_float_eq_tol(s->cpu[2].busy, 1.0f / 3, 1e-6f);
        free_board(b);
}
END_TEST

/* A quiet CPU is read at least every CPUIDLE_SKIP_MAX + 1 ticks: one idle
 * period of 509 ms that ended meanwhile is then all there, over the 510 ms
 * since cpu5 was last seen busy (the first read, at 1000): 1 ms busy, 1/510.
 * Still quiet, it is left unread again. */
START_TEST(test_cpuidle_sampler_skip_max)
{
        unsigned busy[8] = { 100, 200, 300, 400, 500, 600, 700, 800 };
        unsigned idle[8] = { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000 };
        struct board *b = exynos_sampler_idle(true, "0-7");
        const struct bl_sample *s = &b->sample.s;
        const struct cpuidle_cpu *c = &b->sampler.idle.cpu[5];
        uint64_t t[8];
        unsigned tick;

        memcpy(t, idle_start, sizeof(t));
        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        idle_ticks("", busy, idle);
        ck_assert_int_eq(sampler_read(&b->sampler, 11000, &b->sample), 0);
        t[5] += 509000;
        write_idle("5", t);
        for (tick = 2; tick < 2 + CPUIDLE_SKIP_MAX; tick++) {
                idle_ticks("", busy, idle);
                ck_assert_int_eq(sampler_read(&b->sampler, 1000 + tick * 10000, &b->sample), 0);
                ck_assert_uint_eq(c->skipped, tick - 1);
                ck_assert_uint_eq(c->total_us, 50000);
                ck_assert_float_eq(s->cpu[5].busy, 0.0f);
        }
        idle_ticks("", busy, idle);
        ck_assert_int_eq(sampler_read(&b->sampler, 1000 + tick * 10000, &b->sample), 0);
        ck_assert_uint_eq(c->skipped, 0);
        ck_assert_uint_eq(c->total_us, 559000);
        ck_assert_float_eq_tol(s->cpu[5].busy, 1.0f / 510, 1e-6f);
        idle_ticks("", busy, idle);
        ck_assert_int_eq(sampler_read(&b->sampler, 1000 + (tick + 1) * 10000, &b->sample), 0);
        ck_assert_uint_eq(c->skipped, 1);
        free_board(b);
}
END_TEST

/* CPUs with any busy time are read every tick and lose nothing: cpu0 at
 * 75 % with busy ticks; cpu1 at 1 % without one, which cpuidle alone sees
 * (above CPUIDLE_QUIET_BUSY). cpu4 at 0.3 %, below it, is read once
 * (0.003) and then left unread: it reads 0 until its next read, which
 * gives the share over the whole span (test_cpuidle_sampler_skip_max). */
START_TEST(test_cpuidle_sampler_busy_cpus_read)
{
        unsigned busy[8] = { 100, 200, 300, 400, 500, 600, 700, 800 };
        unsigned idle[8] = { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000 };
        struct board *b = exynos_sampler_idle(true, "0-7");
        const struct bl_sample *s = &b->sample.s;
        uint64_t t[8];

        memcpy(t, idle_start, sizeof(t));
        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        for (unsigned tick = 1; tick <= 20; tick++) {
                t[0] += 2500;
                t[1] += 9900;
                t[4] += 9970;
                write_idle("0-7", t);
                idle_ticks("0", busy, idle);
                ck_assert_int_eq(sampler_read(&b->sampler, 1000 + tick * 10000, &b->sample), 0);
                ck_assert_uint_eq(b->sampler.idle.cpu[0].total_us, t[0]);
                ck_assert_uint_eq(b->sampler.idle.cpu[1].total_us, t[1]);
                ck_assert_float_eq_tol(s->cpu[0].busy, 0.75f, 1e-6f);
                ck_assert_float_eq_tol(s->cpu[1].busy, 0.01f, 1e-6f);
                ck_assert_uint_eq(b->sampler.idle.cpu[4].total_us, idle_start[4] + 9970);
                ck_assert_float_eq_tol(s->cpu[4].busy, tick == 1 ? 0.003f : 0.0f, 1e-6f);
        }
        free_board(b);
}
END_TEST

START_TEST(test_cpuidle_sampler_hotplug)
{
        char rel[128], path[1024];
        uint64_t t[8];
        struct board *b = exynos_sampler_idle(true, "0-7");
        const struct bl_sample *s = &b->sample.s;
        bl_cpumask online = cpus_of("0-5,7");

        memcpy(t, idle_start, sizeof(t));
        ck_assert_int_eq(sampler_read(&b->sampler, 1000, &b->sample), 0);
        /* cpu6 goes offline; its states go away and come back with the CPU,
         * counting from 0 (new files: the old descriptors read the old ones) */
        write_stat((const unsigned[8]){ 100, 200, 300, 400, 500, 600, 700, 800 },
                   (const unsigned[8]){ 1001, 1001, 1001, 1001, 1001, 1001, 1001, 1001 }, 8, &online);
        ck_assert_int_eq(sampler_read(&b->sampler, 11000, &b->sample), 0);
        ck_assert(!s->cpu[6].online);
        for (unsigned k = 0; k < 2; k++) {
                snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu6/cpuidle/state%u/time", k);
                bed_path(path, sizeof(path), rel);
                ck_assert_int_eq(unlink(path), 0);
        }
        t[6] = 3000;
        write_idle("6", t);
        write_stat((const unsigned[8]){ 100, 200, 300, 400, 500, 600, 700, 800 },
                   (const unsigned[8]){ 1002, 1002, 1002, 1002, 1002, 1002, 1001, 1002 }, 8, NULL);
        ck_assert_int_eq(sampler_read(&b->sampler, 21000, &b->sample), 0);
        ck_assert(!s->cpu[6].online);           /* /proc/stat's rule: back for one more sample */
        t[6] += 7500;
        write_idle("6", t);
        write_stat((const unsigned[8]){ 100, 200, 300, 400, 500, 600, 700, 800 },
                   (const unsigned[8]){ 1003, 1003, 1003, 1003, 1003, 1003, 1002, 1003 }, 8, NULL);
        ck_assert_int_eq(sampler_read(&b->sampler, 31000, &b->sample), 0);
        ck_assert(s->cpu[6].online);
        ck_assert(cpuidle_has(&b->sampler.idle, 6));
        ck_assert_float_eq_tol(s->cpu[6].busy, 0.25f, 1e-6f);
        free_board(b);
}
END_TEST

static Suite *sources_suite(void)
{
        Suite *s = suite_create("sources");
        TCase *tc;

        tc = tcase_create("topology");
        tcase_add_checked_fixture(tc, bed_setup, bed_teardown);
        tcase_add_test(tc, test_topology_exynos5422);
        tcase_add_test(tc, test_topology_offline_cpu_without_capacity);
        tcase_add_test(tc, test_topology_symmetric_x86);
        tcase_add_test(tc, test_topology_no_cpu);
        tcase_add_test(tc, test_topology_bad_sysfs_values);
        tcase_add_test(tc, test_topology_bad_related_cpus);
        suite_add_tcase(s, tc);

        tc = tcase_create("cpufreq");
        tcase_add_checked_fixture(tc, bed_setup, bed_teardown);
        tcase_add_test(tc, test_cpufreq_scale_exynos);
        tcase_add_test(tc, test_cpufreq_idle_policy_unread);
        tcase_add_test(tc, test_cpufreq_absent);
        tcase_add_test(tc, test_cpufreq_policy_of_1024_cpus);
        tcase_add_test(tc, test_cpufreq_skips_broken_policy);
        suite_add_tcase(s, tc);

        tc = tcase_create("thermal");
        tcase_add_checked_fixture(tc, bed_setup, bed_teardown);
        tcase_add_test(tc, test_thermal_auto_picks_cpu_zones);
        tcase_add_test(tc, test_thermal_implausible_left_out);
        tcase_add_test(tc, test_thermal_reads_trips);
        tcase_add_test(tc, test_thermal_auto_x86);
        tcase_add_test(tc, test_thermal_auto_names);
        tcase_add_test(tc, test_thermal_explicit_names);
        tcase_add_test(tc, test_thermal_explicit_missing);
        tcase_add_test(tc, test_thermal_none);
        tcase_add_test(tc, test_thermal_failing_sensors);
        suite_add_tcase(s, tc);

        tc = tcase_create("sampler");
        tcase_add_checked_fixture(tc, bed_setup, bed_teardown);
        tcase_add_test(tc, test_sampler_two_ticks);
        tcase_add_test(tc, test_sampler_names_every_zone_left_out);
        tcase_add_test(tc, test_sampler_offline_cpu);
        tcase_add_test(tc, test_sampler_without_psi);
        tcase_add_test(tc, test_sampler_psi_read_fails_for_a_tick);
        tcase_add_test(tc, test_sampler_running_at_the_end);
        tcase_add_test(tc, test_sampler_without_loadavg);
        tcase_add_test(tc, test_sampler_bad_stat_read_keeps_previous);
        tcase_add_test(tc, test_sampler_thermal_config);
        tcase_add_test(tc, test_sampler_without_proc_stat);
        tcase_add_test(tc, test_sampler_counters_follow_hotplug);
        tcase_add_test(tc, test_sampler_counters_failed_open_said_once);
        tcase_add_test(tc, test_sampler_counters_unseen_hotplug);
        suite_add_tcase(s, tc);

        tc = tcase_create("cpuidle");
        tcase_add_checked_fixture(tc, bed_setup, bed_teardown);
        tcase_add_test(tc, test_cpuidle_sampler_exact);
        tcase_add_test(tc, test_cpuidle_sampler_fallback);
        tcase_add_test(tc, test_cpuidle_sampler_backwards);
        tcase_add_test(tc, test_cpuidle_sampler_long_idle);
        tcase_add_test(tc, test_cpuidle_sampler_quiet_unread);
        tcase_add_test(tc, test_cpuidle_sampler_skip_max);
        tcase_add_test(tc, test_cpuidle_sampler_busy_cpus_read);
        tcase_add_test(tc, test_cpuidle_sampler_hotplug);
        suite_add_tcase(s, tc);
        return s;
}

int main(int argc, char **argv)
{
        return umockdev_main(argc, argv, sources_suite);
}
