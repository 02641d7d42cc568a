/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Activity while the daemon samples slowly. Backed off on an idle machine
 * (controller.h), the daemon reads the CPUs about once a second, so work
 * that starts meanwhile (an app launched after the screen was touched) was
 * seen up to that second late. This source lets the kernel say when a CPU
 * gets busy: software counters of context switches and page faults on each
 * CPU, opened through perf_event_open(2) with a sampling period, whose ring
 * buffer makes the descriptor readable once the CPU has switched tasks, or
 * faulted pages in, that many times. Threads that wake each other switch;
 * a program that starts (exec, its libraries, its heap) faults. Software
 * events need no PMU, so they work in VMs too.
 *
 * Counting goes on in the kernel at every context switch and page fault
 * and costs the daemon nothing until a period is reached. The counters are
 * opened when the daemon backs off and closed when it samples at the full
 * rate again, not at each backed-off sample: opening, closing and reading a
 * CPU-wide event each run a call on that CPU (an interrupt), which wakes
 * it, the very thing the back-off saves (under QEMU, reopening them at each
 * sample a second kept a LITTLE CPU 30 % busy). So a period is reached by
 * idle activity too, slowly; the caller judges the pace from when each
 * period ended (activity_drain()).
 *
 * What it misses: a CPU-bound thread woken in a process that already runs
 * switches and faults no more than an idle CPU does; such load is still
 * seen at the next backed-off sample. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpumask.h"
#include "sources/perf.h"

struct activity_counter {
        int fd;                         /* context switches; polled */
        int fault_fd;                   /* page faults, output to fd's ring */
        unsigned cpu;
        void *ring;                     /* fd's mmap()ed metadata page and one data page */
};

struct activity {
        const struct perf_syscalls *sys;        /* NULL: perf_syscalls_kernel */
        long page_size;
        unsigned n;                     /* counters open */
        struct activity_counter *counter;       /* one per CPU asked for, while open */
};

/* Opens counters on each CPU of 'cpus' that is online, readable after
 * 'events' (> 0) context switches or as many page faults on the CPU,
 * closing those of an earlier call. A CPU that is offline (ENODEV, ENXIO)
 * is left out. Returns 0 when at least one counter opened, or the first
 * other error (or -ENODEV for none) with the counters closed and 'reason'
 * saying what failed for people: the capability perf_event_paranoid asks
 * for (CAP_PERFMON, or CAP_SYS_ADMIN at Debian's 3), a seccomp filter. */
int activity_open(struct activity *a, const bl_cpumask *cpus, uint64_t events, char *reason, size_t size);

/* Counters open, and the descriptor of each, to be watched for EPOLLIN. */
static inline unsigned activity_count(const struct activity *a)
{
        return a->n;
}
static inline int activity_fd(const struct activity *a, unsigned i)
{
        return a->counter[i].fd;
}
/* The CPU of counter 'i'. */
static inline unsigned activity_cpu(const struct activity *a, unsigned i)
{
        return a->counter[i].cpu;
}

/* Periods that ended on counter 'i' (of either event) since the last call,
 * and the ring emptied for the next ones: without that it fills (a page of
 * 8-byte records) and the kernel stops waking the reader. */
unsigned activity_drain(struct activity *a, unsigned i);
/* The counter that 'fd' is, or -ENOENT. */
int activity_index_of(const struct activity *a, int fd);

/* Context switches, page faults counted on CPU 'i' of the open ones since
 * it was opened, or -errno: a read is a cross-CPU call to that CPU (tests
 * and benchmarks). */
int64_t activity_switches(const struct activity *a, unsigned i);
int64_t activity_faults(const struct activity *a, unsigned i);

/* Closes every counter; nothing for none open. A zeroed struct activity
 * (with 'sys' set or not) is closed. */
void activity_close(struct activity *a);
