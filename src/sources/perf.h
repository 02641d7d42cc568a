/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Per-CPU hardware counters through perf_event_open(2): cycles, instructions
 * and cache misses (or backend stalls), counted system-wide on each watched
 * CPU as one group, read together and scaled for multiplexing. The result
 * per interval is IPC and misses per 1000 instructions.
 *
 * Machines without counters (most VMs) or daemons without the right to use
 * them are normal: perf_open() then fails with the kernel's errno and a
 * sentence for people, and the caller runs without the counters. */

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpumask.h"

/* Events per group: cycles, instructions, and the third one if any. */
#define PERF_MAX_EVENTS 3
/* Alternatives tried, in order, for the third event. */
#define PERF_MAX_THIRD 2
/* Core PMUs (those with a 'cpus' file): x86 has at most three kinds of core,
 * ARM SoCs four. */
#define PERF_MAX_PMUS 16

struct perf_event_spec {
        const char *name;               /* in messages: "cycles" */
        uint32_t type;                  /* PERF_TYPE_* */
        uint64_t config;
};

/* What to count. Cycles lead the group; both cycles and instructions must
 * open, the third event is optional. PERF_TYPE_HARDWARE and _HW_CACHE events
 * are bound to the PMU of their CPU on hybrid machines, other types are
 * opened as given (tests count software events through the same path). */
struct perf_event_list {
        struct perf_event_spec cycles;
        struct perf_event_spec instructions;
        unsigned nthird;
        struct perf_event_spec third[PERF_MAX_THIRD];
};

/* PMU discovery from <sysfs>/bus/event_source/devices. */

struct perf_pmu {
        char name[256];                 /* a directory entry: at most NAME_MAX */
        uint32_t type;                  /* the PMU's dynamic perf type */
        bl_cpumask cpus;
};

struct perf_pmus {
        unsigned n;
        struct perf_pmu pmu[PERF_MAX_PMUS];     /* sorted by name */
};

/* Finds the core PMUs of a hybrid machine: every event source that has a
 * 'cpus' file (cpu_core, cpu_atom, cpu_lowpower; armv8_cortex_a53, ...).
 * A machine whose CPUs are all alike has none (x86 "cpu" has no such file),
 * and neither has a kernel without the directory: both give n = 0.
 * Returns 0, or -errno / -EINVAL (malformed 'type' or 'cpus') / -E2BIG (more
 * than PERF_MAX_PMUS) with 'reason' naming the file. */
int perf_pmus_discover(struct perf_pmus *out, const char *sysfs_root, char *reason, size_t size);
/* The PMU that lists 'cpu', or NULL. */
const struct perf_pmu *perf_pmus_for_cpu(const struct perf_pmus *pmus, unsigned cpu);

/* attr.config for 'spec' on a CPU of the PMU with type 'pmu_type' (0: none):
 * the kernel's extended legacy type, PMU type in bits 63:32, for hardware and
 * hardware-cache events; other types, and pmu_type 0, keep their config. */
uint64_t perf_event_config(const struct perf_event_spec *spec, uint32_t pmu_type);

/* The arithmetic of one interval. */

/* One read(2) of a group opened with PERF_FORMAT_GROUP |
 * PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING. */
struct perf_group_read {
        uint64_t nr;
        uint64_t time_enabled;          /* ns */
        uint64_t time_running;          /* ns */
        uint64_t value[PERF_MAX_EVENTS];        /* cycles, instructions, third */
};

/* Parses the bytes of such a read: nr, enabled, running, nr values.
 * Returns 0 or -EIO (short, too long, nr 0 or > PERF_MAX_EVENTS). */
int perf_group_parse(const void *buf, size_t len, struct perf_group_read *out);

struct perf_counts {
        /* The group ran in the interval: the counts below are valid. False
         * for the first read, when it never got a counter (time_running did
         * not advance), a CPU not counted, a failed read. */
        bool has_counters;
        /* Derived; ratios of the raw deltas (the scale cancels out). */
        bool has_ipc;                   /* cycles > 0 */
        double ipc;                     /* instructions / cycles */
        bool has_mpki;                  /* third event counted and instructions > 0 */
        double mpki;                    /* third * 1000 / instructions */
        /* Deltas over the interval, scaled to the whole enabled time:
         * delta * delta_enabled / delta_running, rounded down. */
        uint64_t cycles, instructions, third;
        uint64_t enabled_ns, running_ns;        /* the interval's time deltas */
};

/* Computes the interval between two reads of the same group. No value
 * (has_counters false) when running did not advance, when any time or value
 * went backwards, or when the reads' nr differ. */
void perf_counts_compute(const struct perf_group_read *prev, const struct perf_group_read *cur,
                         struct perf_counts *out);

/* The source. */

/* The system calls the source makes, replaceable so that tests can refuse
 * an event the way a kernel would. */
struct perf_syscalls {
        /* perf_event_open(attr, -1, cpu, group_fd, PERF_FLAG_FD_CLOEXEC):
         * a descriptor, or -errno. */
        int (*open_event)(struct perf_event_attr *attr, int cpu, int group_fd, void *userdata);
        /* Whether the process has CAP_PERFMON or CAP_SYS_ADMIN in its
         * effective set: 1, 0, or -errno. */
        int (*has_perfmon)(void *userdata);
        void *userdata;
};

/* The real ones. */
extern const struct perf_syscalls perf_syscalls_kernel;

struct perf_options {
        const char *sysfs_root;         /* "/sys" */
        const char *paranoid_path;      /* "/proc/sys/kernel/perf_event_paranoid" */
        bl_cpumask cpus;                /* CPUs to count on */
        const struct perf_event_list *events;   /* NULL: cycles, instructions, cache-misses */
        const struct perf_syscalls *sys;        /* NULL: perf_syscalls_kernel */
};

struct perf_source;

/* Opens one group per CPU in opt->cpus and starts counting. A CPU whose
 * open fails with ENODEV or ENXIO is offline and not counted until
 * perf_cpu_online(); a third event that no CPU supports is left out. On
 * success 'reason' is "" or says what was left out, for the log. The source
 * keeps 'opt' for perf_cpu_online(): what its pointers point to must outlive
 * it. Fails, with the errno of the open that failed and
 * 'reason' saying why for people:
 *   -ENOENT, -EOPNOTSUPP ("hardware counters not supported here (...)"),
 *   -EACCES, -EPERM ("hardware counters not permitted: perf_event_paranoid
 *   is 2 and the daemon lacks CAP_PERFMON (...)"; the paranoid level and the
 *   capability are looked up to say which applies),
 *   -ENODEV or -ENXIO when every watched CPU refused so ("not supported"),
 *   -EINVAL ("unavailable") for an event the kernel cannot do or a CPU
 *   beyond the possible ones, and when opt->cpus is empty, other -errno as
 *   the kernel or the sysfs reads gave them.
 * Every descriptor is closed on failure. */
int perf_open(struct perf_source **ret, const struct perf_options *opt, char *reason, size_t size);

/* Reads every group and fills out[cpu] for cpu < ncpus with the interval
 * since the previous read (the first read: since perf_open()). Entries of
 * CPUs not counted get has_counters false; so does a CPU whose read failed,
 * and one whose group perf_cpu_online() opened since the previous read: that
 * read starts its first interval. Returns 0, or the first read error (the
 * other CPUs are still filled). */
int perf_read(struct perf_source *p, struct perf_counts *out, unsigned ncpus);

/* CPU hotplug. The kernel takes a CPU's events out of its context when the
 * CPU goes offline (detaching the siblings: a group read then gives nr 1)
 * and does not put them back when it returns: the group stays open but
 * never counts again, so a CPU that comes back needs a new one. */

/* 'cpu' came online: closes its group if it has one and opens a fresh one
 * with the events perf_open() chose. Returns 0 ('reason' is "" or says that
 * the third event is left out there), -EINVAL for a CPU not in opt->cpus, or
 * the errno of the open that failed, with 'reason' naming the step:
 * "perf_event_open cycles on cpu5: Too many open files". The CPU is then not
 * counted until the next call for it. */
int perf_cpu_online(struct perf_source *p, unsigned cpu, char *reason, size_t size);
/* 'cpu' went offline: closes its group; not counted until perf_cpu_online().
 * Nothing for a CPU that has none. */
void perf_cpu_offline(struct perf_source *p, unsigned cpu);

/* The CPUs that have a group open now. */
const bl_cpumask *perf_cpus(const struct perf_source *p);
/* The name of the third event counted, NULL when there is none; mpki means
 * that event per 1000 instructions. */
const char *perf_third_event(const struct perf_source *p);

void perf_close(struct perf_source *p);
