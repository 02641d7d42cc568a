/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <grp.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/fileio.h"
#include "tests/unit/count-fds.h"
#include "sources/perf.h"

#define PERF_DATA TEST_DATA_DIR "/perf"
#define PARANOID_REAL "/proc/sys/kernel/perf_event_paranoid"
#define MAX_READS 8

/* Software events in the three places of the group: the kernel path of the
 * hardware events, on a machine without a PMU. cpu-clock counts wall time
 * on its CPU, idle or not, so these tests check plumbing, never load. */
static const struct perf_event_list software_events = {
        .cycles = { "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
        .instructions = { "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
        .nthird = 1,
        .third = { { "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS } },
};

static int raw_open(uint32_t type, uint64_t config, int cpu, int group_fd)
{
        struct perf_event_attr attr = {
                .size = sizeof(attr),
                .type = type,
                .config = config,
                .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
                               PERF_FORMAT_TOTAL_TIME_RUNNING,
                .disabled = group_fd < 0,
        };
        long fd = syscall(SYS_perf_event_open, &attr, -1, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);

        return fd < 0 ? -errno : (int)fd;
}

/* Whether this machine lets us count software events on cpu0 system-wide;
 * the tests that need real descriptors say so and pass without them. */
static bool software_events_allowed(void)
{
        int fd = raw_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0, -1);

        if (fd < 0) {
                fprintf(stderr, "# cpu-wide software events refused here (%s): test not run\n",
                        strerror(-fd));
                return false;
        }
        close(fd);
        return true;
}

/* Loads a file of group reads, one "nr enabled running value..." per line,
 * and passes each through perf_group_parse() as the bytes read(2) gives. */
static unsigned load_reads(const char *name, struct perf_group_read *reads)
{
        char path[512], line[512];
        unsigned n = 0;
        FILE *f;

        snprintf(path, sizeof(path), "%s/%s", PERF_DATA, name);
        f = fopen(path, "re");
        ck_assert_msg(f != NULL, "cannot open %s", path);
        while (fgets(line, sizeof(line), f)) {
                uint64_t words[3 + PERF_MAX_EVENTS + 1];
                unsigned nw = 0;
                char *p = line, *end;

                if (line[0] == '#' || line[0] == '\n')
                        continue;
                for (;;) {
                        unsigned long long v = strtoull(p, &end, 10);

                        if (end == p)
                                break;
                        ck_assert_uint_lt(nw, sizeof(words) / sizeof(words[0]));
                        words[nw++] = v;
                        p = end;
                }
                ck_assert_uint_lt(n, MAX_READS);
                ck_assert_int_eq(perf_group_parse(words, nw * sizeof(uint64_t), &reads[n]), 0);
                n++;
        }
        fclose(f);
        return n;
}

/* The interval between read i and read i + 1 of a file. */
static struct perf_counts interval(const char *name, unsigned i)
{
        struct perf_group_read reads[MAX_READS];
        struct perf_counts c;
        unsigned n = load_reads(name, reads);

        ck_assert_uint_lt(i + 1, n);
        perf_counts_compute(&reads[i], &reads[i + 1], &c);
        return c;
}

START_TEST(test_counted_without_multiplexing)
{
        struct perf_counts c = interval("hw-counted.txt", 0);

        ck_assert(c.has_counters);
        ck_assert_uint_eq(c.enabled_ns, 100000000);
        ck_assert_uint_eq(c.running_ns, 100000000);
        ck_assert_uint_eq(c.cycles, 160000000);
        ck_assert_uint_eq(c.instructions, 120000000);
        ck_assert_uint_eq(c.third, 300000);
        ck_assert(c.has_ipc);
        ck_assert_double_eq(c.ipc, 0.75);
        ck_assert(c.has_mpki);
        ck_assert_double_eq(c.mpki, 2.5);
}
END_TEST

START_TEST(test_multiplexed_is_scaled)
{
        struct perf_counts c = interval("hw-multiplexed.txt", 0);

        ck_assert(c.has_counters);
        ck_assert_uint_eq(c.enabled_ns, 100000000);
        ck_assert_uint_eq(c.running_ns, 30000000);
        /* Raw deltas 90e6, 45e6, 300001, times 10/3, rounded down. */
        ck_assert_uint_eq(c.cycles, 300000000);
        ck_assert_uint_eq(c.instructions, 150000000);
        ck_assert_uint_eq(c.third, 1000003);
        ck_assert_double_eq(c.ipc, 0.5);
        ck_assert_double_eq_tol(c.mpki, 300001.0 * 1000.0 / 45000000.0, 1e-12);
}
END_TEST

START_TEST(test_not_running_then_running)
{
        struct perf_counts c = interval("hw-not-running.txt", 0);

        ck_assert(!c.has_counters);
        ck_assert(!c.has_ipc);
        ck_assert(!c.has_mpki);
        ck_assert_uint_eq(c.cycles, 0);

        /* running 0 -> 25 ms of 100 ms: everything times four. */
        c = interval("hw-not-running.txt", 1);
        ck_assert(c.has_counters);
        ck_assert_uint_eq(c.running_ns, 25000000);
        ck_assert_uint_eq(c.cycles, 160000000);
        ck_assert_uint_eq(c.instructions, 120000000);
        ck_assert_uint_eq(c.third, 240000);
        ck_assert_double_eq(c.ipc, 0.75);
        ck_assert_double_eq(c.mpki, 2.0);
}
END_TEST

START_TEST(test_two_events_and_idle)
{
        struct perf_counts c = interval("hw-two-events.txt", 0);

        ck_assert(c.has_counters);
        ck_assert_uint_eq(c.cycles, 100000000);
        ck_assert_uint_eq(c.instructions, 250000000);
        ck_assert_uint_eq(c.third, 0);
        ck_assert(c.has_ipc);
        ck_assert_double_eq(c.ipc, 2.5);
        ck_assert(!c.has_mpki);

        /* Idle all interval: the group ran but nothing ticked. */
        c = interval("hw-two-events.txt", 1);
        ck_assert(c.has_counters);
        ck_assert_uint_eq(c.running_ns, 50000000);
        ck_assert_uint_eq(c.cycles, 0);
        ck_assert(!c.has_ipc);
        ck_assert(!c.has_mpki);
}
END_TEST

START_TEST(test_recorded_software_group)
{
        static const uint64_t clock[4] = { 115915146, 115214339, 116828695, 119101748 };
        static const uint64_t enabled[4] = { 115914585, 115214429, 116828164, 119102179 };
        static const uint64_t switches[4] = { 66, 74, 76, 70 };
        struct perf_counts c;

        for (unsigned i = 0; i < 4; i++) {
                c = interval("recorded-sw-cpu0.txt", i);
                ck_assert(c.has_counters);
                ck_assert_uint_eq(c.enabled_ns, enabled[i]);
                ck_assert_uint_eq(c.running_ns, enabled[i]);
                ck_assert_uint_eq(c.cycles, clock[i]);
                ck_assert_uint_eq(c.instructions, switches[i]);
                /* 20 x 256 fresh pages by the recorder, plus others' faults. */
                ck_assert_uint_eq(c.third, i == 0 ? 5128 : 5120);
                ck_assert_double_eq(c.ipc, (double)switches[i] / (double)clock[i]);
        }
}
END_TEST

START_TEST(test_scaling_beyond_64_bits)
{
        /* 6e9 cycles in 1 s of running out of 4 s enabled: 6e9 * 4e9 does
         * not fit 64 bits, the result does. */
        struct perf_group_read prev = { .nr = 2 };
        struct perf_group_read cur = {
                .nr = 2, .time_enabled = 4000000000, .time_running = 1000000000,
                .value = { 6000000000, 9000000000 },
        };
        struct perf_counts c;

        perf_counts_compute(&prev, &cur, &c);
        ck_assert(c.has_counters);
        ck_assert_uint_eq(c.cycles, UINT64_C(24000000000));
        ck_assert_uint_eq(c.instructions, UINT64_C(36000000000));
        ck_assert_double_eq(c.ipc, 1.5);
}
END_TEST

START_TEST(test_inconsistent_reads_give_no_value)
{
        struct perf_group_read prev = {
                .nr = 3, .time_enabled = 1000, .time_running = 1000, .value = { 500, 400, 3 },
        };
        struct perf_group_read cur = prev;
        struct perf_counts c;

        /* The same read twice: running did not advance. */
        perf_counts_compute(&prev, &cur, &c);
        ck_assert(!c.has_counters);

        cur.time_enabled = cur.time_running = 2000;
        cur.value[0] = 400;
        perf_counts_compute(&prev, &cur, &c);
        ck_assert(!c.has_counters);

        cur.value[0] = 900;
        cur.time_enabled = 900;
        perf_counts_compute(&prev, &cur, &c);
        ck_assert(!c.has_counters);

        cur.time_enabled = 2000;
        cur.nr = 2;
        perf_counts_compute(&prev, &cur, &c);
        ck_assert(!c.has_counters);

        /* Sane again: the reads are usable. */
        cur.nr = 3;
        perf_counts_compute(&prev, &cur, &c);
        ck_assert(c.has_counters);
        ck_assert_uint_eq(c.cycles, 400);
        ck_assert_uint_eq(c.instructions, 0);
        ck_assert(c.has_ipc);
        ck_assert_double_eq(c.ipc, 0.0);
        ck_assert(!c.has_mpki);
}
END_TEST

START_TEST(test_running_ahead_of_enabled_is_unscaled)
{
        struct perf_group_read prev = { .nr = 2 };
        struct perf_group_read cur = {
                .nr = 2, .time_enabled = 999, .time_running = 1000, .value = { 300, 600 },
        };
        struct perf_counts c;

        perf_counts_compute(&prev, &cur, &c);
        ck_assert(c.has_counters);
        ck_assert_uint_eq(c.cycles, 300);
        ck_assert_uint_eq(c.instructions, 600);
}
END_TEST

START_TEST(test_group_parse_lengths)
{
        uint64_t w[7] = { 3, 10, 5, 1, 2, 3, 4 };
        struct perf_group_read g;

        ck_assert_int_eq(perf_group_parse(w, 6 * sizeof(uint64_t), &g), 0);
        ck_assert_uint_eq(g.nr, 3);
        ck_assert_uint_eq(g.time_enabled, 10);
        ck_assert_uint_eq(g.time_running, 5);
        ck_assert_uint_eq(g.value[0], 1);
        ck_assert_uint_eq(g.value[2], 3);
        /* Short, one word too many, not whole words, no words. */
        ck_assert_int_eq(perf_group_parse(w, 5 * sizeof(uint64_t), &g), -EIO);
        ck_assert_int_eq(perf_group_parse(w, 7 * sizeof(uint64_t), &g), -EIO);
        ck_assert_int_eq(perf_group_parse(w, 6 * sizeof(uint64_t) - 1, &g), -EIO);
        ck_assert_int_eq(perf_group_parse(w, 0, &g), -EIO);
        w[0] = 0;
        ck_assert_int_eq(perf_group_parse(w, 3 * sizeof(uint64_t), &g), -EIO);
        w[0] = 4;
        ck_assert_int_eq(perf_group_parse(w, 7 * sizeof(uint64_t), &g), -EIO);
        w[0] = 1;
        ck_assert_int_eq(perf_group_parse(w, 4 * sizeof(uint64_t), &g), 0);
        ck_assert_uint_eq(g.value[0], 1);
        ck_assert_uint_eq(g.value[1], 0);
}
END_TEST

static void discover(const char *tree, struct perf_pmus *pmus)
{
        char root[512], reason[256];

        snprintf(root, sizeof(root), "%s/%s", PERF_DATA, tree);
        ck_assert_int_eq(perf_pmus_discover(pmus, root, reason, sizeof(reason)), 0);
        ck_assert_str_eq(reason, "");
}

static void assert_cpus(const bl_cpumask *s, const char *list)
{
        char text[128];

        cpumask_format(s, text, sizeof(text));
        ck_assert_str_eq(text, list);
}

START_TEST(test_pmus_hybrid_x86)
{
        struct perf_pmus pmus;

        discover("sysfs-hybrid", &pmus);
        ck_assert_uint_eq(pmus.n, 2);
        ck_assert_str_eq(pmus.pmu[0].name, "cpu_atom");
        ck_assert_uint_eq(pmus.pmu[0].type, 10);
        assert_cpus(&pmus.pmu[0].cpus, "12-19");
        ck_assert_str_eq(pmus.pmu[1].name, "cpu_core");
        ck_assert_uint_eq(pmus.pmu[1].type, 4);
        assert_cpus(&pmus.pmu[1].cpus, "0-11");

        ck_assert_ptr_eq(perf_pmus_for_cpu(&pmus, 0), &pmus.pmu[1]);
        ck_assert_ptr_eq(perf_pmus_for_cpu(&pmus, 11), &pmus.pmu[1]);
        ck_assert_ptr_eq(perf_pmus_for_cpu(&pmus, 12), &pmus.pmu[0]);
        ck_assert_ptr_eq(perf_pmus_for_cpu(&pmus, 19), &pmus.pmu[0]);
        ck_assert_ptr_null(perf_pmus_for_cpu(&pmus, 20));
}
END_TEST

START_TEST(test_pmus_arm_big_little)
{
        struct perf_pmus pmus;

        discover("sysfs-arm", &pmus);
        ck_assert_uint_eq(pmus.n, 2);
        ck_assert_str_eq(pmus.pmu[0].name, "armv7_cortex_a15");
        ck_assert_uint_eq(pmus.pmu[0].type, 7);
        assert_cpus(&pmus.pmu[0].cpus, "4-7");
        ck_assert_str_eq(pmus.pmu[1].name, "armv7_cortex_a7");
        ck_assert_uint_eq(pmus.pmu[1].type, 8);
        assert_cpus(&pmus.pmu[1].cpus, "0-3");
        ck_assert_uint_eq(perf_pmus_for_cpu(&pmus, 3)->type, 8);
        ck_assert_uint_eq(perf_pmus_for_cpu(&pmus, 4)->type, 7);
}
END_TEST

START_TEST(test_pmus_none)
{
        struct perf_pmus pmus;
        char reason[256];

        /* x86 "cpu" has no 'cpus'; uncore PMUs have 'cpumask'. */
        discover("sysfs-none", &pmus);
        ck_assert_uint_eq(pmus.n, 0);
        ck_assert_ptr_null(perf_pmus_for_cpu(&pmus, 0));
        /* A kernel without the directory at all. */
        ck_assert_int_eq(perf_pmus_discover(&pmus, PERF_DATA "/no-such-tree", reason, sizeof(reason)), 0);
        ck_assert_uint_eq(pmus.n, 0);
}
END_TEST

static void make_dirs(const char *root, const char *name)
{
        static const char *const parts[] = { "bus", "bus/event_source", "bus/event_source/devices" };
        char path[512];

        for (unsigned i = 0; i < 3; i++) {
                snprintf(path, sizeof(path), "%s/%s", root, parts[i]);
                ck_assert(mkdir(path, 0755) == 0 || errno == EEXIST);
        }
        snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s", root, name);
        ck_assert_int_eq(mkdir(path, 0755), 0);
}

static void create_file(const char *path, const char *text)
{
        FILE *f = fopen(path, "we");

        ck_assert_ptr_nonnull(f);
        fputs(text, f);
        fclose(f);
}

static void fake_pmu(const char *root, const char *name, const char *type, const char *cpus)
{
        char path[512];

        make_dirs(root, name);
        if (type) {
                snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/type", root, name);
                create_file(path, type);
        }
        if (cpus) {
                snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/cpus", root, name);
                create_file(path, cpus);
        }
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

static void remove_tree(char *root)
{
        ck_assert_int_eq(nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS), 0);
        free(root);
}

static char *temp_root(void)
{
        char *dir = strdup("/tmp/check_perf.XXXXXX");

        ck_assert_ptr_nonnull(dir);
        ck_assert_ptr_nonnull(mkdtemp(dir));
        return dir;
}

START_TEST(test_pmus_malformed)
{
        char reason[512], expect[512];
        struct perf_pmus pmus;
        char *root;

        root = temp_root();
        fake_pmu(root, "cpu_core", "4\n", "0-7\n");
        fake_pmu(root, "cpu_atom", "atom\n", "8-15\n");
        ck_assert_int_eq(perf_pmus_discover(&pmus, root, reason, sizeof(reason)), -EINVAL);
        snprintf(expect, sizeof(expect),
                 "%s/bus/event_source/devices/cpu_atom/type: expected a PMU type number, got \"atom\"", root);
        ck_assert_str_eq(reason, expect);
        ck_assert_uint_eq(pmus.n, 0);
        remove_tree(root);

        root = temp_root();
        fake_pmu(root, "cpu_core", "4\n", "0-7,\n");
        ck_assert_int_eq(perf_pmus_discover(&pmus, root, reason, sizeof(reason)), -EINVAL);
        snprintf(expect, sizeof(expect),
                 "%s/bus/event_source/devices/cpu_core/cpus: expected a CPU list, got \"0-7,\"", root);
        ck_assert_str_eq(reason, expect);
        remove_tree(root);

        root = temp_root();
        fake_pmu(root, "armv8_pmuv3_0", NULL, "0-3\n");
        ck_assert_int_eq(perf_pmus_discover(&pmus, root, reason, sizeof(reason)), -ENOENT);
        snprintf(expect, sizeof(expect), "%s/bus/event_source/devices/armv8_pmuv3_0/type: %s", root,
                 strerror(ENOENT));
        ck_assert_str_eq(reason, expect);
        remove_tree(root);

        root = temp_root();
        fake_pmu(root, "cpu_core", "0\n", "0-7\n");
        ck_assert_int_eq(perf_pmus_discover(&pmus, root, reason, sizeof(reason)), -EINVAL);
        remove_tree(root);
}
END_TEST

START_TEST(test_config_encoding)
{
        const struct perf_event_spec cycles = { "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES };
        const struct perf_event_spec misses = {
                "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
        };
        /* LL read misses: id 2 | op READ 0 << 8 | result MISS 1 << 16. */
        const struct perf_event_spec llc = { "LLC-load-misses", PERF_TYPE_HW_CACHE, 0x10002 };
        const struct perf_event_spec clock = { "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK };
        const struct perf_event_spec raw = { "r003c", PERF_TYPE_RAW, 0x3c };
        const struct perf_event_spec wide = { "cycles", PERF_TYPE_HARDWARE, UINT64_C(0x700000000) };

        ck_assert_uint_eq(perf_event_config(&cycles, 4), UINT64_C(0x400000000));
        ck_assert_uint_eq(perf_event_config(&misses, 10), UINT64_C(0xa00000003));
        ck_assert_uint_eq(perf_event_config(&llc, 10), UINT64_C(0xa00010002));
        ck_assert_uint_eq(perf_event_config(&cycles, 0), 0);
        ck_assert_uint_eq(perf_event_config(&misses, 0), 3);
        ck_assert_uint_eq(perf_event_config(&clock, 10), 0);
        ck_assert_uint_eq(perf_event_config(&raw, 10), 0x3c);
        /* Whatever the spec had above bit 31, the PMU of the CPU wins. */
        ck_assert_uint_eq(perf_event_config(&wide, 8), UINT64_C(0x800000000));
}
END_TEST

/* A stand-in for the kernel: records every open, refuses what it is told
 * to, and otherwise opens a real cpu-clock on cpu0 in place of the event
 * asked for, so that groups, enabling and reading are real. */
struct call {
        int cpu;
        uint32_t type;
        uint64_t config;
        bool leader;
        int fd;                         /* what it returned */
};

struct fake_kernel {
        unsigned ncalls;
        struct call call[64];
        int err_all;                    /* every open fails so */
        int err_cpu[4];                 /* opens on that CPU fail so */
        bool refuse_extended;           /* ENOENT for a PMU type in config */
        uint64_t refuse_config[2];      /* low 32 bits of config, +1 (0: none) */
        int refuse_err;
        int refuse_from_cpu;            /* refuse_config on this CPU and above */
        int perfmon;
};

static int fake_open(struct perf_event_attr *attr, int cpu, int group_fd, void *userdata)
{
        struct fake_kernel *k = userdata;
        long fd;

        ck_assert_uint_lt(k->ncalls, 64);
        k->call[k->ncalls++] = (struct call){ cpu, attr->type, attr->config, group_fd < 0, -1 };
        ck_assert_uint_eq(attr->read_format, PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
                                             PERF_FORMAT_TOTAL_TIME_RUNNING);
        ck_assert_uint_eq(attr->disabled, group_fd < 0);
        if (k->err_all)
                return -k->err_all;
        if (cpu < 4 && k->err_cpu[cpu])
                return -k->err_cpu[cpu];
        if (k->refuse_extended && attr->config >> 32)
                return -ENOENT;
        for (unsigned i = 0; i < 2; i++)
                if (k->refuse_config[i] && (attr->config & UINT32_MAX) + 1 == k->refuse_config[i] &&
                    cpu >= k->refuse_from_cpu)
                        return -k->refuse_err;
        fd = raw_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0, group_fd);
        ck_assert_int_ge(fd, 0);
        k->call[k->ncalls - 1].fd = (int)fd;
        return (int)fd;
}

static int fake_perfmon(void *userdata)
{
        return ((struct fake_kernel *)userdata)->perfmon;
}

struct fixture {
        struct fake_kernel kernel;
        struct perf_syscalls sys;
        struct perf_options opt;
        char root[512];
        char reason[512];
};

static void fixture_init(struct fixture *f, const char *tree, const char *cpus)
{
        memset(f, 0, sizeof(*f));
        f->sys = (struct perf_syscalls){ fake_open, fake_perfmon, &f->kernel };
        snprintf(f->root, sizeof(f->root), "%s/%s", PERF_DATA, tree);
        f->opt.sysfs_root = f->root;
        f->opt.paranoid_path = PERF_DATA "/paranoid-2";
        f->opt.sys = &f->sys;
        ck_assert_int_eq(cpumask_parse(&f->opt.cpus, cpus), 0);
}

static void assert_call(const struct fake_kernel *k, unsigned i, int cpu, uint64_t config, bool leader)
{
        ck_assert_uint_lt(i, k->ncalls);
        ck_assert_int_eq(k->call[i].cpu, cpu);
        ck_assert_uint_eq(k->call[i].type, PERF_TYPE_HARDWARE);
        ck_assert_msg(k->call[i].config == config, "call %u: config %#" PRIx64 ", expected %#" PRIx64,
                      i, k->call[i].config, config);
        ck_assert_int_eq(k->call[i].leader, leader);
}

START_TEST(test_open_hybrid_binds_each_cpu_to_its_pmu)
{
        struct perf_counts out[20];
        struct perf_source *p;
        struct fixture f;

        if (!software_events_allowed())
                return;
        fixture_init(&f, "sysfs-hybrid", "0,12");
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        ck_assert_str_eq(f.reason, "");
        ck_assert_uint_eq(f.kernel.ncalls, 6);
        assert_call(&f.kernel, 0, 0, UINT64_C(4) << 32 | PERF_COUNT_HW_CPU_CYCLES, true);
        assert_call(&f.kernel, 1, 0, UINT64_C(4) << 32 | PERF_COUNT_HW_INSTRUCTIONS, false);
        assert_call(&f.kernel, 2, 0, UINT64_C(4) << 32 | PERF_COUNT_HW_CACHE_MISSES, false);
        assert_call(&f.kernel, 3, 12, UINT64_C(10) << 32 | PERF_COUNT_HW_CPU_CYCLES, true);
        assert_call(&f.kernel, 4, 12, UINT64_C(10) << 32 | PERF_COUNT_HW_INSTRUCTIONS, false);
        assert_call(&f.kernel, 5, 12, UINT64_C(10) << 32 | PERF_COUNT_HW_CACHE_MISSES, false);
        assert_cpus(perf_cpus(p), "0,12");
        ck_assert_str_eq(perf_third_event(p), "cache-misses");

        /* The stand-in groups are three cpu-clocks: all move alike. */
        usleep(2000);
        ck_assert_int_eq(perf_read(p, out, 20), 0);
        for (unsigned cpu = 0; cpu < 20; cpu++)
                ck_assert_int_eq(out[cpu].has_counters, cpu == 0 || cpu == 12);
        ck_assert_uint_gt(out[12].cycles, 0);
        ck_assert(out[12].has_ipc && out[12].has_mpki);
        perf_close(p);
}
END_TEST

START_TEST(test_open_arm_and_plain)
{
        struct perf_source *p;
        struct fixture f;

        if (!software_events_allowed())
                return;
        fixture_init(&f, "sysfs-arm", "3-4");
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        ck_assert_uint_eq(f.kernel.ncalls, 6);
        assert_call(&f.kernel, 0, 3, UINT64_C(8) << 32 | PERF_COUNT_HW_CPU_CYCLES, true);
        assert_call(&f.kernel, 3, 4, UINT64_C(7) << 32 | PERF_COUNT_HW_CPU_CYCLES, true);
        perf_close(p);

        /* No PMU with 'cpus': the plain legacy events. */
        fixture_init(&f, "sysfs-none", "1");
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        ck_assert_uint_eq(f.kernel.ncalls, 3);
        assert_call(&f.kernel, 0, 1, PERF_COUNT_HW_CPU_CYCLES, true);
        assert_call(&f.kernel, 1, 1, PERF_COUNT_HW_INSTRUCTIONS, false);
        assert_call(&f.kernel, 2, 1, PERF_COUNT_HW_CACHE_MISSES, false);
        perf_close(p);
}
END_TEST

START_TEST(test_open_falls_back_to_plain_legacy_events)
{
        struct perf_source *p;
        struct fixture f;

        if (!software_events_allowed())
                return;
        /* A kernel before extended types (arm64 before 6.6) says ENOENT. */
        fixture_init(&f, "sysfs-arm", "5");
        f.kernel.refuse_extended = true;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        ck_assert_uint_eq(f.kernel.ncalls, 6);
        assert_call(&f.kernel, 0, 5, UINT64_C(7) << 32 | PERF_COUNT_HW_CPU_CYCLES, true);
        assert_call(&f.kernel, 1, 5, PERF_COUNT_HW_CPU_CYCLES, true);
        assert_call(&f.kernel, 2, 5, UINT64_C(7) << 32 | PERF_COUNT_HW_INSTRUCTIONS, false);
        assert_call(&f.kernel, 3, 5, PERF_COUNT_HW_INSTRUCTIONS, false);
        assert_call(&f.kernel, 5, 5, PERF_COUNT_HW_CACHE_MISSES, false);
        ck_assert_str_eq(f.reason, "");
        perf_close(p);
}
END_TEST

START_TEST(test_open_third_event_fallbacks)
{
        struct perf_counts out[2];
        struct perf_source *p;
        struct fixture f;
        char expect[512];

        if (!software_events_allowed())
                return;
        fixture_init(&f, "sysfs-none", "0-1");
        f.kernel.refuse_config[0] = PERF_COUNT_HW_CACHE_MISSES + 1;
        f.kernel.refuse_err = EOPNOTSUPP;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        ck_assert_str_eq(perf_third_event(p), "stalled-cycles-backend");
        snprintf(expect, sizeof(expect), "cache-misses unavailable (cache-misses: %s), counting "
                 "stalled-cycles-backend instead", strerror(EOPNOTSUPP));
        ck_assert_str_eq(f.reason, expect);
        /* The choice made on cpu0 is not tried again on cpu1. */
        ck_assert_uint_eq(f.kernel.ncalls, 7);
        assert_call(&f.kernel, 6, 1, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, false);
        perf_close(p);

        /* Neither: two events per group and no mpki. A PMU with too few
         * counters for the group says EINVAL. */
        fixture_init(&f, "sysfs-none", "0-1");
        f.kernel.refuse_config[0] = PERF_COUNT_HW_CACHE_MISSES + 1;
        f.kernel.refuse_config[1] = PERF_COUNT_HW_STALLED_CYCLES_BACKEND + 1;
        f.kernel.refuse_err = EINVAL;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        ck_assert_ptr_null(perf_third_event(p));
        snprintf(expect, sizeof(expect), "no third counter (cache-misses: %s; stalled-cycles-backend: %s): "
                 "mpki unavailable", strerror(EINVAL), strerror(EINVAL));
        ck_assert_str_eq(f.reason, expect);
        ck_assert_uint_eq(f.kernel.ncalls, 6);
        usleep(2000);
        ck_assert_int_eq(perf_read(p, out, 2), 0);
        ck_assert(out[0].has_counters && out[1].has_counters);
        ck_assert(out[0].has_ipc);
        ck_assert(!out[0].has_mpki && !out[1].has_mpki);
        perf_close(p);

        /* cpu0 has cache-misses, cpu12 not: cpu12 goes without, it does not
         * switch to another event, so mpki means one thing everywhere. */
        fixture_init(&f, "sysfs-hybrid", "0,12");
        f.kernel.refuse_config[0] = PERF_COUNT_HW_CACHE_MISSES + 1;
        f.kernel.refuse_err = ENOENT;
        f.kernel.refuse_from_cpu = 12;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        ck_assert_str_eq(perf_third_event(p), "cache-misses");
        snprintf(expect, sizeof(expect), "cpu12 counts without cache-misses (%s): no mpki there",
                 strerror(ENOENT));
        ck_assert_str_eq(f.reason, expect);
        /* cpu12's cache-misses: with cpu_atom's type, then plain; nothing else. */
        ck_assert_uint_eq(f.kernel.ncalls, 7);
        assert_call(&f.kernel, 5, 12, UINT64_C(10) << 32 | PERF_COUNT_HW_CACHE_MISSES, false);
        assert_call(&f.kernel, 6, 12, PERF_COUNT_HW_CACHE_MISSES, false);
        usleep(2000);
        ck_assert_int_eq(perf_read(p, out, 1), 0);
        ck_assert(out[0].has_mpki);
        perf_close(p);
}
END_TEST

START_TEST(test_open_skips_offline_cpu)
{
        struct perf_counts out[4];
        struct perf_source *p;
        struct fixture f;
        char expect[256];

        if (!software_events_allowed())
                return;
        fixture_init(&f, "sysfs-none", "0-3");
        f.kernel.err_cpu[1] = ENODEV;
        f.kernel.err_cpu[3] = ENXIO;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        assert_cpus(perf_cpus(p), "0,2");
        snprintf(expect, sizeof(expect), "CPUs 1,3 offline (%s), counted once online", strerror(ENODEV));
        ck_assert_str_eq(f.reason, expect);
        usleep(2000);
        ck_assert_int_eq(perf_read(p, out, 4), 0);
        ck_assert(out[0].has_counters && out[2].has_counters);
        ck_assert(!out[1].has_counters && !out[3].has_counters);
        /* A short array: CPU 2 is read but not reported. */
        usleep(2000);
        ck_assert_int_eq(perf_read(p, out, 1), 0);
        ck_assert(out[0].has_counters);
        perf_close(p);

        fixture_init(&f, "sysfs-none", "0-1");
        f.kernel.err_cpu[1] = ENODEV;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        snprintf(expect, sizeof(expect), "CPU 1 offline (%s), counted once online", strerror(ENODEV));
        ck_assert_str_eq(f.reason, expect);
        perf_close(p);
}
END_TEST

/* What the kernel does to a CPU going offline: its events leave the CPU's
 * context and stop (here: the stand-in group of its last open is
 * disabled), and opens on it fail. */
static void kernel_takes_offline(struct fake_kernel *k, int cpu)
{
        for (unsigned i = k->ncalls; i-- > 0;) {
                if (k->call[i].cpu != cpu || !k->call[i].leader || k->call[i].fd < 0)
                        continue;
                ck_assert_int_eq(ioctl(k->call[i].fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP), 0);
                break;
        }
        k->err_cpu[cpu] = ENODEV;
}

/* The calls since 'from' that went to 'cpu'. */
static unsigned calls_on(const struct fake_kernel *k, unsigned from, int cpu)
{
        unsigned n = 0;

        for (unsigned i = from; i < k->ncalls; i++)
                n += k->call[i].cpu == cpu;
        return n;
}

/* 'cpu' back: perf_cpu_online() opens its whole group anew (the process
 * then has 'fds' descriptors), the next read only starts the interval and
 * the one after counts. */
static void assert_reopens(struct fixture *f, struct perf_source *p, struct perf_counts *out, unsigned ncpus,
                           int cpu, unsigned fds)
{
        unsigned before = f->kernel.ncalls;

        f->kernel.err_cpu[cpu] = 0;
        ck_assert_int_eq(perf_cpu_online(p, (unsigned)cpu, f->reason, sizeof(f->reason)), 0);
        ck_assert_str_eq(f->reason, "");
        ck_assert_uint_eq(calls_on(&f->kernel, before, cpu), 3);
        ck_assert_uint_eq(count_fds(), fds);
        ck_assert(cpumask_isset(perf_cpus(p), (unsigned)cpu));
        usleep(2000);
        ck_assert_int_eq(perf_read(p, out, ncpus), 0);
        ck_assert(!out[cpu].has_counters);
        ck_assert_uint_eq(out[cpu].cycles, 0);
        usleep(2000);
        ck_assert_int_eq(perf_read(p, out, ncpus), 0);
        ck_assert(out[cpu].has_counters && out[cpu].has_ipc && out[cpu].has_mpki);
        ck_assert_uint_gt(out[cpu].cycles, 0);
}

START_TEST(test_cpu_offline_at_start_counted_once_online)
{
        struct perf_counts out[3];
        struct perf_source *p;
        struct fixture f;
        unsigned before;

        if (!software_events_allowed())
                return;
        fixture_init(&f, "sysfs-none", "0-2");
        f.kernel.err_cpu[1] = ENODEV;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        assert_cpus(perf_cpus(p), "0,2");
        usleep(2000);
        ck_assert_int_eq(perf_read(p, out, 3), 0);
        ck_assert(!out[1].has_counters);

        before = f.kernel.ncalls;
        assert_reopens(&f, p, out, 3, 1, count_fds() + 3);
        assert_cpus(perf_cpus(p), "0-2");
        /* The whole group, the third event as chosen at the start. */
        ck_assert_uint_eq(f.kernel.ncalls, before + 3);
        assert_call(&f.kernel, before, 1, PERF_COUNT_HW_CPU_CYCLES, true);
        assert_call(&f.kernel, before + 1, 1, PERF_COUNT_HW_INSTRUCTIONS, false);
        assert_call(&f.kernel, before + 2, 1, PERF_COUNT_HW_CACHE_MISSES, false);
        ck_assert(out[0].has_counters && out[2].has_counters);
        ck_assert_uint_ge(out[1].enabled_ns, 2000000);
        ck_assert_uint_ge(out[1].cycles, 1000000);
        perf_close(p);
}
END_TEST

START_TEST(test_cpu_back_online_gets_a_new_group)
{
        struct perf_counts out[2];
        struct perf_source *p;
        struct fixture f;
        unsigned fds;

        if (!software_events_allowed())
                return;
        fixture_init(&f, "sysfs-none", "0-1");
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        fds = count_fds();
        usleep(2000);
        ck_assert_int_eq(perf_read(p, out, 2), 0);
        ck_assert(out[1].has_counters);

        /* The interval it went in counts up to then; after that its group
         * stays open, counting nothing. */
        kernel_takes_offline(&f.kernel, 1);
        ck_assert_int_eq(perf_read(p, out, 2), 0);
        usleep(2000);
        ck_assert_int_eq(perf_read(p, out, 2), 0);
        ck_assert(out[0].has_counters);
        ck_assert(!out[1].has_counters);

        perf_cpu_offline(p, 1);
        assert_cpus(perf_cpus(p), "0");
        ck_assert_uint_eq(count_fds(), fds - 3);
        usleep(2000);
        ck_assert_int_eq(perf_read(p, out, 2), 0);
        ck_assert(out[0].has_counters && !out[1].has_counters);
        /* Again: nothing left to close. */
        perf_cpu_offline(p, 1);
        ck_assert_uint_eq(count_fds(), fds - 3);

        assert_reopens(&f, p, out, 2, 1, fds);
        assert_cpus(perf_cpus(p), "0-1");

        /* Off and back between two looks: online again without offline
         * first replaces the dead group, it does not add one. */
        kernel_takes_offline(&f.kernel, 1);
        assert_reopens(&f, p, out, 2, 1, fds);
        perf_close(p);
}
END_TEST

/* The new group counts from 0 and the old one's last reading may be far
 * ahead or behind: neither may show as an interval. */
START_TEST(test_first_read_after_reopen_is_no_data)
{
        struct perf_counts out[2];
        struct perf_source *p;
        struct fixture f;

        if (!software_events_allowed())
                return;
        fixture_init(&f, "sysfs-none", "0-1");
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        /* The old group's readings grow large. */
        usleep(20000);
        ck_assert_int_eq(perf_read(p, out, 2), 0);
        ck_assert_uint_ge(out[1].cycles, 20000000);
        ck_assert_int_eq(perf_cpu_online(p, 1, f.reason, sizeof(f.reason)), 0);
        usleep(5000);
        ck_assert_int_eq(perf_read(p, out, 2), 0);
        ck_assert(!out[1].has_counters && !out[1].has_ipc && !out[1].has_mpki);
        ck_assert_uint_eq(out[1].cycles, 0);
        ck_assert_uint_eq(out[1].enabled_ns, 0);
        /* The next interval is the one between the reads, as cpu0's, not
         * since the open, 5 ms longer (less a margin for a busy machine). */
        usleep(2000);
        ck_assert_int_eq(perf_read(p, out, 2), 0);
        ck_assert(out[1].has_counters);
        ck_assert_uint_ge(out[1].enabled_ns, 2000000);
        ck_assert_uint_lt(out[1].enabled_ns, out[0].enabled_ns + 4000000);
        ck_assert_uint_le(out[1].cycles, out[1].enabled_ns + out[1].enabled_ns / 20);
        perf_close(p);
}
END_TEST

START_TEST(test_failed_reopen_waits_for_the_next_online)
{
        struct perf_counts out[2];
        struct perf_source *p;
        struct fixture f;
        unsigned before, fds;
        char expect[256];

        if (!software_events_allowed())
                return;
        fixture_init(&f, "sysfs-none", "0-1");
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        fds = count_fds();
        kernel_takes_offline(&f.kernel, 1);
        perf_cpu_offline(p, 1);

        /* Back, but out of descriptors: instructions fails after cycles. */
        f.kernel.err_cpu[1] = 0;
        f.kernel.refuse_config[0] = PERF_COUNT_HW_INSTRUCTIONS + 1;
        f.kernel.refuse_err = EMFILE;
        f.kernel.refuse_from_cpu = 1;
        ck_assert_int_eq(perf_cpu_online(p, 1, f.reason, sizeof(f.reason)), -EMFILE);
        snprintf(expect, sizeof(expect), "perf_event_open instructions on cpu1: %s", strerror(EMFILE));
        ck_assert_str_eq(f.reason, expect);
        assert_cpus(perf_cpus(p), "0");
        ck_assert_uint_eq(count_fds(), fds - 3);

        /* Reads do not try again. */
        before = f.kernel.ncalls;
        for (unsigned i = 0; i < 3; i++) {
                usleep(1000);
                ck_assert_int_eq(perf_read(p, out, 2), 0);
                ck_assert(out[0].has_counters && !out[1].has_counters);
        }
        ck_assert_uint_eq(f.kernel.ncalls, before);

        /* Off and on again: tried again, and it opens. */
        perf_cpu_offline(p, 1);
        f.kernel.refuse_config[0] = 0;
        assert_reopens(&f, p, out, 2, 1, fds);

        /* The CPU is still offline: the kernel's ENODEV, said as such. */
        kernel_takes_offline(&f.kernel, 1);
        ck_assert_int_eq(perf_cpu_online(p, 1, f.reason, sizeof(f.reason)), -ENODEV);
        snprintf(expect, sizeof(expect), "perf_event_open cycles on cpu1: %s", strerror(ENODEV));
        ck_assert_str_eq(f.reason, expect);
        ck_assert_uint_eq(count_fds(), fds - 3);

        /* Not a CPU counted on. */
        ck_assert_int_eq(perf_cpu_online(p, 7, f.reason, sizeof(f.reason)), -EINVAL);
        ck_assert_str_eq(f.reason, "cpu7 is not among the CPUs counted on");
        perf_cpu_offline(p, 7);
        assert_cpus(perf_cpus(p), "0");
        perf_close(p);
        ck_assert_uint_eq(count_fds(), fds - 6);
}
END_TEST

/* The third event chosen at the start, on a CPU that was offline then. */
START_TEST(test_reopen_keeps_the_third_event)
{
        struct perf_source *p;
        struct fixture f;
        unsigned before;
        char expect[256];

        if (!software_events_allowed())
                return;
        fixture_init(&f, "sysfs-hybrid", "0,12");
        f.kernel.err_cpu[0] = ENODEV;
        f.kernel.refuse_config[0] = PERF_COUNT_HW_CACHE_MISSES + 1;
        f.kernel.refuse_err = EOPNOTSUPP;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        ck_assert_str_eq(perf_third_event(p), "stalled-cycles-backend");

        f.kernel.err_cpu[0] = 0;
        before = f.kernel.ncalls;
        ck_assert_int_eq(perf_cpu_online(p, 0, f.reason, sizeof(f.reason)), 0);
        ck_assert_str_eq(f.reason, "");
        ck_assert_uint_eq(f.kernel.ncalls, before + 3);
        /* cpu0 is cpu_core's: its PMU type, as at the start. */
        assert_call(&f.kernel, before, 0, UINT64_C(4) << 32 | PERF_COUNT_HW_CPU_CYCLES, true);
        assert_call(&f.kernel, before + 2, 0, UINT64_C(4) << 32 | PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
                    false);

        /* Where the chosen event does not open, the CPU goes without it. */
        f.kernel.refuse_config[1] = PERF_COUNT_HW_STALLED_CYCLES_BACKEND + 1;
        ck_assert_int_eq(perf_cpu_online(p, 0, f.reason, sizeof(f.reason)), 0);
        snprintf(expect, sizeof(expect), "cpu0 counts without stalled-cycles-backend (%s): no mpki there",
                 strerror(EOPNOTSUPP));
        ck_assert_str_eq(f.reason, expect);
        assert_cpus(perf_cpus(p), "0,12");
        perf_close(p);
}
END_TEST

START_TEST(test_open_every_cpu_offline)
{
        struct perf_source *p = NULL;
        struct fixture f;
        char expect[256];

        fixture_init(&f, "sysfs-none", "2-3");
        f.kernel.err_all = ENODEV;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), -ENODEV);
        ck_assert_ptr_null(p);
        snprintf(expect, sizeof(expect), "hardware counters not supported here "
                 "(perf_event_open cycles on cpu2: %s)", strerror(ENODEV));
        ck_assert_str_eq(f.reason, expect);
}
END_TEST

START_TEST(test_open_not_supported)
{
        static const int errs[] = { ENOENT, EOPNOTSUPP };
        struct perf_source *p = NULL;
        struct fixture f;
        char expect[256];

        for (unsigned i = 0; i < 2; i++) {
                fixture_init(&f, "sysfs-hybrid", "0-3");
                f.kernel.err_all = errs[i];
                ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), -errs[i]);
                snprintf(expect, sizeof(expect), "hardware counters not supported here "
                         "(perf_event_open cycles on cpu0: %s)", strerror(errs[i]));
                ck_assert_str_eq(f.reason, expect);
                /* Tried with the PMU type, then plain: nothing more. */
                ck_assert_uint_eq(f.kernel.ncalls, 2);
        }
}
END_TEST

START_TEST(test_open_not_permitted)
{
        struct perf_source *p = NULL;
        struct fixture f;
        char expect[512];

        fixture_init(&f, "sysfs-none", "0");
        f.kernel.err_all = EACCES;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), -EACCES);
        snprintf(expect, sizeof(expect), "hardware counters not permitted: perf_event_paranoid is 2 and the "
                 "daemon lacks CAP_PERFMON (perf_event_open cycles on cpu0: %s)", strerror(EACCES));
        ck_assert_str_eq(f.reason, expect);

        /* Debian's level 3, and EPERM: CAP_PERFMON or not, the kernel asks
         * for CAP_SYS_ADMIN there. */
        for (int perfmon = 0; perfmon <= 1; perfmon++) {
                fixture_init(&f, "sysfs-none", "0");
                f.opt.paranoid_path = PERF_DATA "/paranoid-3";
                f.kernel.err_all = EPERM;
                f.kernel.perfmon = perfmon;
                ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), -EPERM);
                snprintf(expect, sizeof(expect), "hardware counters not permitted: perf_event_paranoid is 3, "
                         "where Debian's and Ubuntu's kernels ask for CAP_SYS_ADMIN (CAP_PERFMON will do at 1 "
                         "and 2), or a seccomp filter (SystemCallFilter=) refuses perf_event_open "
                         "(perf_event_open cycles on cpu0: %s)", strerror(EPERM));
                ck_assert_str_eq(f.reason, expect);
        }

        /* The kernel would have allowed it: something else refused. */
        fixture_init(&f, "sysfs-none", "0");
        f.opt.paranoid_path = PERF_DATA "/paranoid-minus-1";
        f.kernel.err_all = EPERM;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), -EPERM);
        snprintf(expect, sizeof(expect), "hardware counters not permitted although perf_event_paranoid "
                 "is -1: a seccomp filter (SystemCallFilter=) or a security module refuses perf_event_open "
                 "(perf_event_open cycles on cpu0: %s)", strerror(EPERM));
        ck_assert_str_eq(f.reason, expect);

        fixture_init(&f, "sysfs-none", "0");
        f.kernel.err_all = EACCES;
        f.kernel.perfmon = 1;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), -EACCES);
        snprintf(expect, sizeof(expect), "hardware counters not permitted although the daemon has "
                 "CAP_PERFMON: a seccomp filter (SystemCallFilter=) or a security module refuses "
                 "perf_event_open (perf_event_open cycles on cpu0: %s)", strerror(EACCES));
        ck_assert_str_eq(f.reason, expect);

        fixture_init(&f, "sysfs-none", "0");
        f.opt.paranoid_path = PERF_DATA "/no-such-file";
        f.kernel.err_all = EACCES;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), -EACCES);
        snprintf(expect, sizeof(expect), "hardware counters not permitted: the daemon lacks CAP_PERFMON and "
                 "perf_event_paranoid is unknown (%s: %s) (perf_event_open cycles on cpu0: %s)",
                 PERF_DATA "/no-such-file", strerror(ENOENT), strerror(EACCES));
        ck_assert_str_eq(f.reason, expect);
        ck_assert_ptr_null(p);
}
END_TEST

START_TEST(test_failures_close_every_descriptor)
{
        struct perf_source *p = NULL;
        unsigned before;
        struct fixture f;
        char expect[256];

        if (!software_events_allowed())
                return;
        before = count_fds();

        /* cpu0 opens whole, cpu1 is refused. */
        fixture_init(&f, "sysfs-none", "0-1");
        f.kernel.err_cpu[1] = EACCES;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), -EACCES);
        ck_assert_ptr_null(p);
        ck_assert_uint_eq(count_fds(), before);

        /* Instructions refused after cycles opened. */
        fixture_init(&f, "sysfs-none", "0");
        f.kernel.refuse_config[0] = PERF_COUNT_HW_INSTRUCTIONS + 1;
        f.kernel.refuse_err = EMFILE;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), -EMFILE);
        snprintf(expect, sizeof(expect), "hardware counters unavailable "
                 "(perf_event_open instructions on cpu0: %s)", strerror(EMFILE));
        ck_assert_str_eq(f.reason, expect);
        ck_assert_uint_eq(count_fds(), before);

        /* The third event refused for a reason other than support. */
        fixture_init(&f, "sysfs-none", "0-1");
        f.kernel.refuse_config[0] = PERF_COUNT_HW_CACHE_MISSES + 1;
        f.kernel.refuse_err = EMFILE;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), -EMFILE);
        snprintf(expect, sizeof(expect), "hardware counters unavailable "
                 "(perf_event_open cache-misses on cpu0: %s)", strerror(EMFILE));
        ck_assert_str_eq(f.reason, expect);
        ck_assert_uint_eq(count_fds(), before);

        /* And a success, closed. */
        fixture_init(&f, "sysfs-none", "0-1");
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), 0);
        ck_assert_uint_eq(count_fds(), before + 6);
        perf_close(p);
        ck_assert_uint_eq(count_fds(), before);
        perf_close(NULL);
}
END_TEST

START_TEST(test_open_bad_options)
{
        struct perf_source *p = NULL;
        struct fixture f;
        char expect[512];

        fixture_init(&f, "sysfs-none", "");
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), -EINVAL);
        ck_assert_str_eq(f.reason, "no CPU to count on");
        ck_assert_uint_eq(f.kernel.ncalls, 0);

        /* A sysfs root that is a file. */
        fixture_init(&f, "hw-counted.txt", "0");
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, sizeof(f.reason)), -ENOTDIR);
        snprintf(expect, sizeof(expect), "%s/hw-counted.txt/bus/event_source/devices: %s", PERF_DATA,
                 strerror(ENOTDIR));
        ck_assert_str_eq(f.reason, expect);
        ck_assert_uint_eq(f.kernel.ncalls, 0);
        ck_assert_ptr_null(p);

        /* A reason buffer too small is cut, not overrun. */
        fixture_init(&f, "sysfs-none", "0");
        f.kernel.err_all = ENOENT;
        ck_assert_int_eq(perf_open(&p, &f.opt, f.reason, 12), -ENOENT);
        ck_assert_str_eq(f.reason, "hardware co");
        ck_assert_int_eq(perf_open(&p, &f.opt, NULL, 0), -ENOENT);
}
END_TEST

/* The hardware events on the machine the tests run on. Whatever it has,
 * perf_open() must agree with what the kernel says to a plain open of the
 * cycles event; this development VM has no PMU and says ENOENT. */
START_TEST(test_machine_hardware_events)
{
        struct perf_options opt = {
                .sysfs_root = "/sys",
                .paranoid_path = PARANOID_REAL,
        };
        struct perf_source *p = NULL;
        char reason[512], expect[512];
        int probe, r;

        cpumask_set(&opt.cpus, 0);
        probe = raw_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, -1);
        r = perf_open(&p, &opt, reason, sizeof(reason));
        fprintf(stderr, "# cycles on cpu0: %s; perf_open: %d \"%s\"\n",
                probe >= 0 ? "opens" : strerror(-probe), r, reason);
        if (probe >= 0) {
                close(probe);
                /* Counters exist: they must open, at least without the third. */
                ck_assert_int_eq(r, 0);
                ck_assert(cpumask_isset(perf_cpus(p), 0));
                perf_close(p);
                return;
        }
        ck_assert_int_eq(r, probe);
        ck_assert_ptr_null(p);
        if (probe == -EACCES || probe == -EPERM) {
                ck_assert_msg(strncmp(reason, "hardware counters not permitted", 31) == 0, "%s", reason);
                return;
        }
        snprintf(expect, sizeof(expect), "hardware counters not supported here "
                 "(perf_event_open cycles on cpu0: %s)", strerror(-probe));
        ck_assert_str_eq(reason, expect);
}
END_TEST

static void pin_to_cpu0(void)
{
        cpu_set_t set;

        CPU_ZERO(&set);
        CPU_SET(0, &set);
        ck_assert_int_eq(sched_setaffinity(0, sizeof(set), &set), 0);
}

/* Sleeps (a context switch each) and touches fresh pages (a fault each),
 * on cpu0. */
static void work_on_cpu0(unsigned rounds)
{
        for (unsigned i = 0; i < rounds; i++) {
                struct timespec ts = { 0, 2000000 };
                char *m = mmap(NULL, 64 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

                ck_assert(m != MAP_FAILED);
                /* One fault per page, not one per large folio. */
                ck_assert_int_eq(madvise(m, 64 * 4096, MADV_NOHUGEPAGE), 0);
                for (unsigned j = 0; j < 64; j++)
                        m[j * 4096] = 1;
                munmap(m, 64 * 4096);
                nanosleep(&ts, NULL);
        }
}

START_TEST(test_real_software_group_on_cpu0)
{
        struct perf_options opt = {
                .sysfs_root = "/sys",
                .paranoid_path = PARANOID_REAL,
                .events = &software_events,
        };
        struct perf_counts out[2][1];
        struct perf_source *p;
        char reason[256];

        if (!software_events_allowed())
                return;
        pin_to_cpu0();
        cpumask_set(&opt.cpus, 0);
        ck_assert_int_eq(perf_open(&p, &opt, reason, sizeof(reason)), 0);
        ck_assert_str_eq(reason, "");
        ck_assert_str_eq(perf_third_event(p), "page-faults");

        for (unsigned i = 0; i < 2; i++) {
                struct perf_counts *c = &out[i][0];

                work_on_cpu0(10);
                ck_assert_int_eq(perf_read(p, out[i], 1), 0);
                fprintf(stderr, "# read %u: enabled %" PRIu64 " running %" PRIu64 " cpu-clock %" PRIu64
                        " context-switches %" PRIu64 " page-faults %" PRIu64 "\n", i, c->enabled_ns,
                        c->running_ns, c->cycles, c->instructions, c->third);
                ck_assert(c->has_counters);
                /* Software events are never multiplexed. */
                ck_assert_uint_eq(c->running_ns, c->enabled_ns);
                /* At least ten 2 ms sleeps went by. */
                ck_assert_uint_ge(c->enabled_ns, 20000000);
                /* Wall time on cpu0, idle included: about the enabled time. */
                ck_assert_uint_gt(c->cycles, c->enabled_ns / 2);
                ck_assert_uint_le(c->cycles, c->enabled_ns + c->enabled_ns / 20);
                /* The siblings count too: each sleep switched, each page faulted. */
                ck_assert_uint_ge(c->instructions, 10);
                ck_assert_uint_ge(c->third, 640);
                ck_assert(c->has_ipc && c->has_mpki);
                ck_assert_double_eq(c->ipc, (double)c->instructions / (double)c->cycles);
                ck_assert_double_eq(c->mpki, (double)c->third * 1000.0 / (double)c->instructions);
        }
        perf_close(p);
}
END_TEST

/* Permission for real: the test drops root for nobody (the capabilities go
 * with it) and asks the kernel. With perf_event_paranoid >= 1 an
 * unprivileged process may not count a whole CPU; with <= 0 it may. */
START_TEST(test_real_unprivileged)
{
        struct perf_options opt = {
                .sysfs_root = "/sys",
                .paranoid_path = PARANOID_REAL,
                .events = &software_events,
        };
        struct perf_source *p = NULL;
        char text[32], reason[512], expect[512];
        long long paranoid;
        int r;

        if (geteuid() == 0) {
                ck_assert_int_eq(setgroups(0, NULL), 0);
                ck_assert_int_eq(setresgid(65534, 65534, 65534), 0);
                ck_assert_int_eq(setresuid(65534, 65534, 65534), 0);
        }
        ck_assert_int_eq(perf_syscalls_kernel.has_perfmon(NULL), 0);
        ck_assert_int_eq(read_line(PARANOID_REAL, text, sizeof(text)), 0);
        ck_assert_int_eq(parse_int(text, &paranoid), 0);
        cpumask_set(&opt.cpus, 0);
        r = perf_open(&p, &opt, reason, sizeof(reason));
        fprintf(stderr, "# unprivileged, perf_event_paranoid %lld: %d \"%s\"\n", paranoid, r, reason);
        if (paranoid <= 0) {
                ck_assert_int_eq(r, 0);
                perf_close(p);
                return;
        }
        ck_assert_int_eq(r, -EACCES);
        if (paranoid >= 3)
                snprintf(expect, sizeof(expect), "hardware counters not permitted: perf_event_paranoid is %lld, "
                         "where Debian's and Ubuntu's kernels ask for CAP_SYS_ADMIN (CAP_PERFMON will do at 1 "
                         "and 2), or a seccomp filter (SystemCallFilter=) refuses perf_event_open "
                         "(perf_event_open cpu-clock on cpu0: %s)", paranoid, strerror(EACCES));
        else
                snprintf(expect, sizeof(expect), "hardware counters not permitted: perf_event_paranoid is %lld "
                         "and the daemon lacks CAP_PERFMON (perf_event_open cpu-clock on cpu0: %s)", paranoid,
                         strerror(EACCES));
        ck_assert_str_eq(reason, expect);
}
END_TEST

START_TEST(test_real_capability_probe)
{
        /* Root here has CAP_PERFMON (or CAP_SYS_ADMIN) unless a bounding set
         * took it; a non-root runner has neither. */
        int r = perf_syscalls_kernel.has_perfmon(NULL);

        ck_assert_int_ge(r, 0);
        if (geteuid() != 0)
                ck_assert_int_eq(r, 0);
}
END_TEST

static Suite *perf_suite(void)
{
        Suite *s = suite_create("perf");
        TCase *tc;

        tc = tcase_create("arithmetic");
        tcase_add_test(tc, test_counted_without_multiplexing);
        tcase_add_test(tc, test_multiplexed_is_scaled);
        tcase_add_test(tc, test_not_running_then_running);
        tcase_add_test(tc, test_two_events_and_idle);
        tcase_add_test(tc, test_recorded_software_group);
        tcase_add_test(tc, test_scaling_beyond_64_bits);
        tcase_add_test(tc, test_inconsistent_reads_give_no_value);
        tcase_add_test(tc, test_running_ahead_of_enabled_is_unscaled);
        tcase_add_test(tc, test_group_parse_lengths);
        suite_add_tcase(s, tc);

        tc = tcase_create("pmus");
        tcase_add_test(tc, test_pmus_hybrid_x86);
        tcase_add_test(tc, test_pmus_arm_big_little);
        tcase_add_test(tc, test_pmus_none);
        tcase_add_test(tc, test_pmus_malformed);
        tcase_add_test(tc, test_config_encoding);
        suite_add_tcase(s, tc);

        tc = tcase_create("open");
        tcase_add_test(tc, test_open_hybrid_binds_each_cpu_to_its_pmu);
        tcase_add_test(tc, test_open_arm_and_plain);
        tcase_add_test(tc, test_open_falls_back_to_plain_legacy_events);
        tcase_add_test(tc, test_open_third_event_fallbacks);
        tcase_add_test(tc, test_open_skips_offline_cpu);
        tcase_add_test(tc, test_open_every_cpu_offline);
        tcase_add_test(tc, test_open_not_supported);
        tcase_add_test(tc, test_open_not_permitted);
        tcase_add_test(tc, test_failures_close_every_descriptor);
        tcase_add_test(tc, test_open_bad_options);
        suite_add_tcase(s, tc);

        tc = tcase_create("hotplug");
        tcase_add_test(tc, test_cpu_offline_at_start_counted_once_online);
        tcase_add_test(tc, test_cpu_back_online_gets_a_new_group);
        tcase_add_test(tc, test_first_read_after_reopen_is_no_data);
        tcase_add_test(tc, test_failed_reopen_waits_for_the_next_online);
        tcase_add_test(tc, test_reopen_keeps_the_third_event);
        suite_add_tcase(s, tc);

        tc = tcase_create("machine");
        tcase_add_test(tc, test_machine_hardware_events);
        tcase_add_test(tc, test_real_software_group_on_cpu0);
        tcase_add_test(tc, test_real_unprivileged);
        tcase_add_test(tc, test_real_capability_probe);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(perf_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
