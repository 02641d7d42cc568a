/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every fake board with every backend that applies to it, the real daemon
 * on each: detection, a switch up and one down, a write the kernel refuses
 * once (retried) and one it keeps refusing mid-switch (undone, then done
 * once the kernel gives in), restore on SIGTERM from a state an
 * administrator left unusual, and a SIGKILL with a restart.
 *
 * One row per topology and backend; each test is a loop test over the rows,
 * so a row is all a new backend or board needs (and a state reader for a
 * new backend). The kernel's refusals come from fakeboard_refuse_writes().
 * On boards with a cgroup v2 tree the snapshots hold the groups'
 * cpuset.cpus as well: the cpuset backend's whole state, which every other
 * backend must leave alone.
 *
 * Delays are short to keep the file quick; the bounds stay generous, as the
 * machines running this are shared.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/integration/harness.h"

#define CPU "/sys/devices/system/cpu/"
#define SWITCH_BOUND_MS 3000
/* The daemon tries a failed switch again after a second. */
#define RETRY_BOUND_MS (1000 + SWITCH_BOUND_MS)
/* sysfs_write_read_back() writes this many times before it gives up. */
#define WRITE_TRIES 3
#define STATE_MAX 2048
#define SNAPSHOT_MAX 8192
#define CGROUP "/sys/fs/cgroup/"

/* Delays short to keep the file quick. */
static const struct fast_timing timing = { 40, 60, 20, 20 };

static const unsigned idle_load[] = { 40 };

struct board_facts {
        const char *name;
        const char *how;                /* the start line's topology part */
        /* A load only the top level carries: a task for every CPU, since
         * the board places tasks on the biggest CPUs whatever their caps. */
        unsigned heavy[FAKEBOARD_MAX_CPUS];
        unsigned nheavy;
        /* For the refused writes, a load that makes the first switch up a
         * single write set: the pairs of pair mode may switch in separate
         * ticks under 'heavy'. 0 tasks: 'heavy' does. */
        unsigned one_switch[FAKEBOARD_MAX_CPUS];
        unsigned n_one_switch;
        /* What an administrator changed before the daemon started, for the
         * restore and crash tests: a CPU taken offline (-1: none) and a
         * lowered scaling_max_freq. */
        int offline_cpu;
        const char *lowered_file;
        const char *lowered_to;
        /* On a board with a cgroup v2 tree, user.slice confined to some
         * CPUs of each level (NULL: left unrestricted). */
        const char *user_slice_cpus;
};

/* The backend's share of the kernel state, as one line ("online 0-3"). */
typedef void (*state_fn)(char *buf, size_t size);

struct backend_facts {
        const char *name;
        state_fn state;
        bool writes;                    /* false: a dry run */
        bool saves;                     /* leaves a saved state while it runs */
        const char *config;             /* its section of the configuration */
        /* How its switch failure reads once the earlier writes were put back. */
        const char *undone;
};

struct matrix_row {
        const struct board_facts *board;
        const struct backend_facts *backend;
        const char *low;                /* state() at the lowest level, at the top one */
        const char *top;
        /* state() once the first switch up under the board's one_switch load is made (NULL: top). */
        const char *one_switch_state;
        /* The second file the switch up writes: refused, the first write
         * must be undone. For a dry run, one it must never write. */
        const char *second_write;
};

static const struct board_facts exynos5422 = {
        .name = "exynos5422",
        .how = "cpufreq related_cpus + cpu_capacity; mode cluster",
        .heavy = { 600, 600, 600, 600, 600, 600, 600, 600 },
        .nheavy = 8,
        .offline_cpu = 5,
        .lowered_file = CPU "cpufreq/policy4/scaling_max_freq",
        .lowered_to = "1800000",
        .user_slice_cpus = "0-5",
};

static const struct board_facts rk3399 = {
        .name = "rk3399",
        .how = "cpufreq related_cpus + cpu_capacity; mode cluster",
        .heavy = { 600, 600, 600, 600, 600, 600 },
        .nheavy = 6,
        .offline_cpu = 3,
        .lowered_file = CPU "cpufreq/policy4/scaling_max_freq",
        .lowered_to = "1608000",
        .user_slice_cpus = "0-4",
};

static const struct board_facts tri_cluster = {
        .name = "tri-cluster",
        .how = "cpufreq related_cpus + cpu_capacity; mode cluster",
        .heavy = { 1000, 800, 800, 800, 600, 600, 600, 600 },
        .nheavy = 8,
        .offline_cpu = 5,
        .lowered_file = CPU "cpufreq/policy7/scaling_max_freq",
        .lowered_to = "2419200",
};

static const struct board_facts intel_hybrid = {
        .name = "intel-hybrid",
        .how = "hybrid PMU cpus files (cpu_atom, cpu_core); no cpu_capacity: capacity from cpuinfo_max_freq "
               "and core type; mode cluster",
        .heavy = { 900, 900, 900, 900, 900, 900, 900, 900, 900, 900, 900, 900, 900, 900, 900, 900, 900, 900,
                   900, 900 },
        .nheavy = 20,
        .offline_cpu = 5,
        .lowered_file = CPU "cpufreq/policy0/scaling_max_freq",
        .lowered_to = "4000000",
        .user_slice_cpus = "0-3,12-15",
};

static const struct board_facts tc2_switcher = {
        .name = "tc2-switcher",
        .how = "mode pair (mode = auto: the kernel's big.LITTLE switcher is present, so pair)",
        .heavy = { 600, 600 },
        .nheavy = 2,
        .one_switch = { 600 },
        .n_one_switch = 1,
        .offline_cpu = -1,
        .lowered_file = CPU "cpufreq/policy1/scaling_max_freq",
        .lowered_to = "1000000",
};

/* --- the kernel state each backend controls --- */

static unsigned ncpus(void)
{
        return fakeboard_desc(fb)->ncpus;
}

static bool policy_exists(unsigned id)
{
        char path[96];

        snprintf(path, sizeof(path), CPU "cpufreq/policy%u", id);
        return board_file_exists(path);
}

static unsigned policy_khz(unsigned id, const char *file)
{
        char path[128], value[32];

        snprintf(path, sizeof(path), CPU "cpufreq/policy%u/%s", id, file);
        read_board_file(path, value, sizeof(value));
        return (unsigned)strtoul(value, NULL, 10);
}

static void hotplug_state(char *buf, size_t size)
{
        snprintf(buf, size, "online %s", online_files());
}

/* "capped 0-3": the CPUs of the policies held at their lowest frequency;
 * any other policy not at its top is named with its limit. */
static void cpufreq_state(char *buf, size_t size)
{
        bl_cpumask capped;
        char list[256], others[STATE_MAX] = "";
        size_t len = 0;

        cpumask_zero(&capped);
        for (unsigned id = 0; id < ncpus(); id++) {
                unsigned max;
                char path[96], words[256];
                bl_cpumask related;

                if (!policy_exists(id))
                        continue;
                max = policy_khz(id, "scaling_max_freq");
                if (max == policy_khz(id, "cpuinfo_min_freq")) {
                        snprintf(path, sizeof(path), CPU "cpufreq/policy%u/related_cpus", id);
                        read_board_file(path, words, sizeof(words));
                        ck_assert_int_eq(cpumask_parse_words(&related, words), 0);
                        cpumask_or(&capped, &related);
                } else if (max != policy_khz(id, "cpuinfo_max_freq") && len < sizeof(others)) {
                        len += (size_t)snprintf(others + len, sizeof(others) - len, ", policy%u at %u", id,
                                                max);
                }
        }
        cpumask_format(&capped, list, sizeof(list));
        snprintf(buf, size, "capped %s%s", cpumask_empty(&capped) ? "none" : list, others);
}

/* "cpu0 175000-450000, cpu1 ...": each logical CPU's limits. */
static void switcher_state(char *buf, size_t size)
{
        size_t len = 0;

        buf[0] = '\0';
        for (unsigned id = 0; id < ncpus() && len < size; id++)
                if (policy_exists(id))
                        len += (size_t)snprintf(buf + len, size - len, "%scpu%u %u-%u", len ? ", " : "", id,
                                                policy_khz(id, "scaling_min_freq"),
                                                policy_khz(id, "scaling_max_freq"));
}

/* The groups the cpuset backend is given, on boards with a cgroup v2 tree. */
static const char *const cgroup_groups[] = { "system.slice", "user.slice" };

#define NGROUPS (sizeof(cgroup_groups) / sizeof(cgroup_groups[0]))

static void group_cpus(const char *group, char *buf, size_t size)
{
        char path[128];

        snprintf(path, sizeof(path), CGROUP "%s/cpuset.cpus", group);
        read_board_file(path, buf, size);
}

/* "online 0-7; system.slice 0-3, user.slice unrestricted": the groups
 * follow the level while every CPU stays online. */
static void cpuset_state(char *buf, size_t size)
{
        size_t len;

        hotplug_state(buf, size);
        len = strlen(buf);
        for (unsigned i = 0; i < NGROUPS; i++) {
                char value[256];

                group_cpus(cgroup_groups[i], value, sizeof(value));
                len += (size_t)snprintf(buf + len, size - len, "%s%s %s", i ? ", " : "; ", cgroup_groups[i],
                                        value[0] ? value : "unrestricted");
                ck_assert_uint_lt(len, size);
        }
}

static const char undone_writes[] = "earlier writes undone";

static const struct backend_facts hotplug = { "hotplug", hotplug_state, true, true, "", undone_writes };
static const struct backend_facts cpufreq = { "cpufreq", cpufreq_state, true, true, "", undone_writes };
static const struct backend_facts switcher = { "switcher", switcher_state, true, true, "", undone_writes };
static const struct backend_facts dryrun = { "dryrun", hotplug_state, false, false, "", undone_writes };
static const struct backend_facts cpuset_cgroupfs = {
        "cpuset", cpuset_state, true, true,
        "[cpuset]\ngroups = system.slice, user.slice\nmanager = cgroupfs\n", "groups written before put back",
};

static const struct matrix_row rows[] = {
        { &exynos5422, &hotplug, "online 0-3", "online 0,4-7", NULL, CPU "cpu5/online" },
        { &exynos5422, &cpufreq, "capped 4-7", "capped 0-3", NULL, CPU "cpufreq/policy0/scaling_max_freq" },
        { &exynos5422, &dryrun, "online 0-7", "online 0-7", NULL, CPU "cpu5/online" },
        { &rk3399, &hotplug, "online 0-3", "online 4-5", NULL, CPU "cpu5/online" },
        { &rk3399, &cpufreq, "capped 4-5", "capped 0-3", NULL, CPU "cpufreq/policy0/scaling_max_freq" },
        { &tri_cluster, &hotplug, "online 0-3", "online 7", "online 4-6", CPU "cpu5/online" },
        { &tri_cluster, &cpufreq, "capped 4-7", "capped 0-6", "capped 0-3,7",
          CPU "cpufreq/policy0/scaling_max_freq" },
        { &intel_hybrid, &hotplug, "online 0,12-19", "online 0-11", NULL, CPU "cpu2/online" },
        { &intel_hybrid, &cpufreq, "capped 0-11", "capped 12-19", NULL,
          CPU "cpufreq/policy1/scaling_max_freq" },
        { &tc2_switcher, &switcher, "cpu0 175000-450000, cpu1 175000-450000",
          "cpu0 600000-1200000, cpu1 600000-1200000", "cpu0 600000-1200000, cpu1 175000-450000",
          CPU "cpufreq/policy0/scaling_min_freq" },
        { &exynos5422, &cpuset_cgroupfs, "online 0-7; system.slice 0-3, user.slice 0-3",
          "online 0-7; system.slice 4-7, user.slice 4-7", NULL, CGROUP "user.slice/cpuset.cpus" },
        { &intel_hybrid, &cpuset_cgroupfs, "online 0-19; system.slice 12-19, user.slice 12-19",
          "online 0-19; system.slice 0-11, user.slice 0-11", NULL, CGROUP "user.slice/cpuset.cpus" },
        { &rk3399, &cpuset_cgroupfs, "online 0-5; system.slice 0-3, user.slice 0-3",
          "online 0-5; system.slice 4-5, user.slice 4-5", NULL, CGROUP "user.slice/cpuset.cpus" },
        { &tri_cluster, &cpuset_cgroupfs, "online 0-7; system.slice 0-3, user.slice 0-3",
          "online 0-7; system.slice 7, user.slice 7", "online 0-7; system.slice 4-6, user.slice 4-6",
          CGROUP "user.slice/cpuset.cpus" },
};

#define NROWS ((int)(sizeof(rows) / sizeof(rows[0])))

/* Boards with one kind of core: the daemon finds nothing to switch. */
static const struct board_facts x86_symmetric = {
        .name = "x86-symmetric",
        .how = "one kind of core (no cpu_capacity and per-CPU cpufreq policies: one kind assumed)",
        .offline_cpu = -1,
};

static const struct board_facts *const detection_only[] = { &x86_symmetric };

/* --- helpers --- */

static const char *row_name(const struct matrix_row *row)
{
        static char buf[64];

        snprintf(buf, sizeof(buf), "%s x %s", row->board->name, row->backend->name);
        return buf;
}

/* Every file any backend may write, with its content: cpuN/online, each
 * policy's limits and the groups' cpuset.cpus. */
static void snapshot(char *buf, size_t size)
{
        size_t len = 0;

        buf[0] = '\0';
        for (unsigned i = 0; i < NGROUPS && fakeboard_desc(fb)->cgroup2; i++) {
                char value[256];

                group_cpus(cgroup_groups[i], value, sizeof(value));
                len += (size_t)snprintf(buf + len, size - len, "%s/cpuset.cpus=%s\n", cgroup_groups[i],
                                        value);
                ck_assert_uint_lt(len, size);
        }
        for (unsigned cpu = 0; cpu < ncpus(); cpu++) {
                static const char *const files[] = { "scaling_min_freq", "scaling_max_freq" };
                char path[96], value[32];

                snprintf(path, sizeof(path), CPU "cpu%u/online", cpu);
                if (board_file_exists(path)) {
                        read_board_file(path, value, sizeof(value));
                        len += (size_t)snprintf(buf + len, size - len, "cpu%u/online=%s\n", cpu, value);
                        ck_assert_uint_lt(len, size);
                }
                if (!policy_exists(cpu))
                        continue;
                for (unsigned i = 0; i < 2; i++) {
                        snprintf(path, sizeof(path), CPU "cpufreq/policy%u/%s", cpu, files[i]);
                        read_board_file(path, value, sizeof(value));
                        len += (size_t)snprintf(buf + len, size - len, "policy%u/%s=%s\n", cpu, files[i],
                                                value);
                        ck_assert_uint_lt(len, size);
                }
        }
}

/* The first line where two snapshots differ, or NULL. */
static const char *first_difference(const char *a, const char *b)
{
        static char buf[256];
        const char *la = a, *lb = b;

        while (*la || *lb) {
                size_t na = strcspn(la, "\n"), nb = strcspn(lb, "\n");

                if (na != nb || strncmp(la, lb, na) != 0) {
                        snprintf(buf, sizeof(buf), "\"%.*s\" where it was \"%.*s\"", (int)nb, lb, (int)na,
                                 la);
                        return buf;
                }
                la += na + (la[na] == '\n');
                lb += nb + (lb[nb] == '\n');
        }
        return NULL;
}

static void assert_snapshot(const struct matrix_row *row, const char *want, const char *when)
{
        char now[SNAPSHOT_MAX];
        const char *diff;

        snapshot(now, sizeof(now));
        diff = first_difference(want, now);
        ck_assert_msg(diff == NULL, "%s: %s the kernel has %s; the daemon said:%s", row_name(row), when, diff,
                      log_text());
}

struct state_wait {
        const struct matrix_row *row;
        const char *want;
};

static bool state_is(struct fakeboard *board, void *userdata)
{
        const struct state_wait *w = userdata;
        char now[STATE_MAX];

        (void)board;
        w->row->backend->state(now, sizeof(now));
        return strcmp(now, w->want) == 0;
}

static void expect_state(const struct matrix_row *row, const char *want, unsigned timeout_ms)
{
        struct state_wait w = { .row = row, .want = want };
        char now[STATE_MAX];
        int r = fakeboard_run(fb, timeout_ms, state_is, &w);

        ck_assert_int_ge(r, 0);
        row->backend->state(now, sizeof(now));
        ck_assert_msg(r == 1, "%s: the kernel has \"%s\", not \"%s\", after %u ms; the daemon said:%s",
                      row_name(row), now, want, timeout_ms, log_text());
}

static void set_heavy(const struct matrix_row *row)
{
        set_load(row->board->heavy, row->board->nheavy);
}

/* What an administrator did before the daemon started. */
static void unusual_start(const struct board_facts *board)
{
        if (board->offline_cpu >= 0)
                ck_assert_int_eq(fakeboard_set_cpu_online(fb, (unsigned)board->offline_cpu, false), 0);
        write_board_file(board->lowered_file, board->lowered_to);
        if (board->user_slice_cpus && fakeboard_desc(fb)->cgroup2) {
                char text[64];

                snprintf(text, sizeof(text), "%s\n", board->user_slice_cpus);
                write_board_file(CGROUP "user.slice/cpuset.cpus", text);
        }
}

/* Starts the daemon with the row's backend on an idle board; returns the
 * index of its start line. */
static unsigned start(const struct matrix_row *row)
{
        if (!fb)
                new_board(row->board->name);
        set_load(idle_load, 1);
        spawn_daemon(write_fast_config(row->backend->name, &timing, row->backend->config), NULL);
        return expect_line(0, "started: ", START_BOUND_MS);
}

/* Starts the daemon and waits until it holds the lowest level. */
static unsigned start_low(const struct matrix_row *row)
{
        unsigned started = start(row);

        expect_state(row, row->low, SWITCH_BOUND_MS);
        return started;
}

/* Loads the board until the daemon switched to the top level. */
static unsigned go_up(const struct matrix_row *row, unsigned from)
{
        unsigned line;

        set_heavy(row);
        line = expect_line(from, "-> big: ", SWITCH_BOUND_MS);
        expect_state(row, row->top, SWITCH_BOUND_MS);
        return line;
}

static void stop_cleanly(void)
{
        assert_exit_status(stop_daemon(SIGTERM), 0);
}

/* --- the tests --- */

/* The start line names the topology as recognised, the backend and why it
 * is used, and the daemon takes the lowest level. */
START_TEST(test_detection)
{
        const struct matrix_row *row = &rows[_i];
        char backend[64];
        const char *line;

        line = fakeboard_line(fb, start_low(row), NULL);
        ck_assert_msg(strstr(line, row->board->how), "%s: the start line does not say \"%s\":\n    %s",
                      row_name(row), row->board->how, line);
        snprintf(backend, sizeof(backend), "; backend %s (configured", row->backend->name);
        ck_assert_msg(strstr(line, backend), "%s: the start line does not say \"%s\":\n    %s", row_name(row),
                      backend, line);
        stop_cleanly();
}
END_TEST

START_TEST(test_detection_only)
{
        const struct board_facts *board = detection_only[_i];
        int status = -1;

        new_board(board->name);
        spawn_daemon(write_config("bigLittle.conf", "[daemon]\nsample_interval_ms = 10\n"), NULL);
        ck_assert_msg(fakeboard_wait(fb, EXIT_BOUND_MS, &status) == 0,
                      "%s: the daemon still runs; it said:%s", board->name, log_text());
        assert_exit_status(status, EXIT_UNAVAILABLE);
        expect_line(0, board->how, 100);
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "started: "), -ENOENT);
        ck_assert_uint_eq(fakeboard_n_online_changes(fb), 0);
}
END_TEST

START_TEST(test_up)
{
        const struct matrix_row *row = &rows[_i];
        char before[SNAPSHOT_MAX];
        unsigned started;

        started = start_low(row);
        snapshot(before, sizeof(before));
        go_up(row, started);
        if (!row->backend->writes)
                assert_snapshot(row, before, "after a dry switch up");
        ck_assert(fakeboard_running(fb));
        stop_cleanly();
}
END_TEST

START_TEST(test_down)
{
        const struct matrix_row *row = &rows[_i];
        unsigned line;

        line = go_up(row, start_low(row));
        set_load(idle_load, 1);
        expect_line(line, "-> little: ", SWITCH_BOUND_MS);
        expect_state(row, row->low, SWITCH_BOUND_MS);
        stop_cleanly();
}
END_TEST

/* Loads the board for the refused-write tests; returns the state the
 * first switch up leads to. */
static const char *load_one_switch(const struct matrix_row *row)
{
        if (row->board->n_one_switch == 0) {
                set_heavy(row);
                return row->one_switch_state ? row->one_switch_state : row->top;
        }
        set_load(row->board->one_switch, row->board->n_one_switch);
        return row->one_switch_state;
}

/* Refused once: the write is tried again, the switch completes and says so. */
START_TEST(test_refused_once)
{
        const struct matrix_row *row = &rows[_i];
        char before[SNAPSHOT_MAX];
        const char *text, *after;
        unsigned line;

        line = start_low(row);
        snapshot(before, sizeof(before));
        ck_assert_int_eq(fakeboard_refuse_writes(fb, row->second_write, EBUSY, 1), 0);
        after = load_one_switch(row);
        line = expect_line(line, "switch ", SWITCH_BOUND_MS);
        text = fakeboard_line(fb, line, NULL);
        ck_assert_msg(strstr(text, "-> "), "%s: not a switch: %s", row_name(row), text);
        if (row->backend->writes) {
                expect_state(row, after, SWITCH_BOUND_MS);
                ck_assert_msg(strstr(text, "1 retry"), "%s: the switch does not report its retry:\n    %s",
                              row_name(row), text);
                ck_assert_int_eq(fakeboard_refusals_left(fb, row->second_write), 0);
        } else {
                assert_snapshot(row, before, "after a dry switch up");
                ck_assert_int_eq(fakeboard_refusals_left(fb, row->second_write), 1);
        }
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "failed"), -ENOENT);
        stop_cleanly();
}
END_TEST

/* Refused on every try: the switch's first write is undone, every file is
 * as it was at the lower level, the daemon says so and keeps running, and
 * switches once the kernel takes the write again. */
START_TEST(test_refused_undone)
{
        const struct matrix_row *row = &rows[_i];
        char before[SNAPSHOT_MAX];
        const char *text, *after;
        char failure[160];
        unsigned line, failed;

        line = start_low(row);
        snapshot(before, sizeof(before));
        ck_assert_int_eq(fakeboard_refuse_writes(fb, row->second_write, EBUSY, WRITE_TRIES), 0);
        after = load_one_switch(row);
        if (!row->backend->writes) {
                expect_line(line, "switch ", SWITCH_BOUND_MS);
                assert_snapshot(row, before, "after a dry switch up");
                ck_assert_int_eq(fakeboard_refusals_left(fb, row->second_write), WRITE_TRIES);
                ck_assert_int_eq(fakeboard_find_line(fb, 0, "failed"), -ENOENT);
                stop_cleanly();
                return;
        }
        failed = expect_line(line, " failed: ", SWITCH_BOUND_MS);
        assert_snapshot(row, before, "after the refused switch");
        text = fakeboard_line(fb, failed, NULL);
        snprintf(failure, sizeof(failure), "failed after 3 tries: Device or resource busy; %s; staying at ",
                 row->backend->undone);
        ck_assert_msg(strstr(text, failure),
                      "%s: the failure does not say what was refused and undone:\n    %s", row_name(row),
                      text);
        ck_assert_int_eq(fakeboard_find_line(fb, line, "switch "), (int)failed);
        ck_assert_int_eq(fakeboard_refusals_left(fb, row->second_write), 0);
        ck_assert(fakeboard_running(fb));

        expect_line(failed, "switch ", RETRY_BOUND_MS);
        expect_state(row, after, SWITCH_BOUND_MS);
        ck_assert_uint_eq(count_lines(0, " failed: "), 1);
        stop_cleanly();
}
END_TEST

/* SIGTERM puts back every file as it was before the start, including what
 * an administrator had changed. */
START_TEST(test_restore)
{
        const struct matrix_row *row = &rows[_i];
        char before[SNAPSHOT_MAX], during[SNAPSHOT_MAX];
        unsigned line;

        new_board(row->board->name);
        unusual_start(row->board);
        snapshot(before, sizeof(before));
        line = start(row);
        set_heavy(row);
        line = expect_line(line, "-> big: ", SWITCH_BOUND_MS);
        snapshot(during, sizeof(during));
        if (row->backend->writes)
                ck_assert_msg(first_difference(before, during), "%s: the switch up changed nothing",
                              row_name(row));
        stop_cleanly();
        expect_line(line, "restored: ", 100);
        assert_snapshot(row, before, "after SIGTERM");
}
END_TEST

/* SIGKILL on the top level leaves the kernel changed; the next start finds
 * the saved state, puts the files back, starts afresh (saving what the
 * machine had first) and restores exactly on SIGTERM. */
START_TEST(test_crash_and_restart)
{
        const struct matrix_row *row = &rows[_i];
        char before[SNAPSHOT_MAX], killed[SNAPSHOT_MAX], saved[1024];
        unsigned line, reconciled, started;
        int status;

        new_board(row->board->name);
        unusual_start(row->board);
        snapshot(before, sizeof(before));
        line = start(row);
        snprintf(saved, sizeof(saved), "%s", harness_saved_settings());
        ck_assert_msg(row->backend->saves == (saved[0] != '\0'), "%s: saved state \"%s\"", row_name(row),
                      saved);
        set_heavy(row);
        expect_line(line, "-> big: ", SWITCH_BOUND_MS);
        snapshot(killed, sizeof(killed));
        status = stop_daemon(SIGKILL);
        ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        assert_snapshot(row, killed, "after SIGKILL");
        ck_assert_str_eq(harness_saved_settings(), saved);
        if (row->backend->writes)
                ck_assert_msg(first_difference(before, killed), "%s: the switch up changed nothing",
                              row_name(row));

        started = start(row);
        if (row->backend->saves) {
                reconciled = expect_line(0, "found the state a previous run saved (", START_BOUND_MS);
                ck_assert_uint_lt(reconciled, started);
        } else {
                ck_assert_int_eq(fakeboard_find_line(fb, 0, "found the state"), -ENOENT);
        }
        /* Afresh: what it saved is what the machine had before the first start. */
        ck_assert_str_eq(harness_saved_settings(), saved);
        stop_cleanly();
        assert_snapshot(row, before, "after the restarted daemon's SIGTERM");
        ck_assert_str_eq(harness_saved_settings(), "");
}
END_TEST

static Suite *matrix_suite(void)
{
        const struct {
                const char *name;
                const TTest *test;
        } tests[] = {
                { "detection", test_detection },
                { "up", test_up },
                { "down", test_down },
                { "refused-once", test_refused_once },
                { "refused-undone", test_refused_undone },
                { "restore", test_restore },
                { "crash-and-restart", test_crash_and_restart },
        };
        Suite *s = suite_create("matrix");
        TCase *tc;

        for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
                tc = tcase_create(tests[i].name);
                tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
                tcase_set_timeout(tc, 60);
                tcase_add_loop_test(tc, tests[i].test, 0, NROWS);
                suite_add_tcase(s, tc);
        }
        tc = tcase_create("detection-only");
        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_loop_test(tc, test_detection_only, 0,
                            (int)(sizeof(detection_only) / sizeof(detection_only[0])));
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(matrix_suite(), "check-matrix");
}
