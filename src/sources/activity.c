/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sources/activity.h"

/* The metadata page and one page of records: a record of sample_type 0 is
 * its 8-byte header, and one is all it takes to wake the poller. */
#define RING_PAGES 2

static void say(char *reason, size_t size, const char *what, unsigned cpu, int err)
{
        const char *why = "";

        if (err == -EACCES || err == -EPERM)
                why = "; counting a whole CPU needs CAP_PERFMON where kernel.perf_event_paranoid "
                      "is 1 or 2, CAP_SYS_ADMIN where it is 3 or more (Debian's and Ubuntu's "
                      "default), and a seccomp filter (SystemCallFilter=) must allow perf_event_open";
        else if (err == -ENOSYS || err == -ENOENT || err == -EOPNOTSUPP)
                why = "; this kernel has no software perf events (CONFIG_PERF_EVENTS)";
        snprintf(reason, size, "%s on CPU %u: %s%s", what, cpu, strerror(-err), why);
}

static int event_open(const struct perf_syscalls *sys, uint64_t config, unsigned cpu, uint64_t period)
{
        /* Not exclude_kernel: the kernel counts a context switch with
         * kernel registers, so such an event would never count one. */
        struct perf_event_attr attr = {
                .size = sizeof(attr),
                .type = PERF_TYPE_SOFTWARE,
                .config = config,
                .sample_period = period,
                .wakeup_events = 1,
        };

        return sys->open_event(&attr, (int)cpu, -1, sys->userdata);
}

static void counter_close(const struct activity *a, struct activity_counter *c)
{
        if (c->ring)
                munmap(c->ring, (size_t)a->page_size * RING_PAGES);
        if (c->fault_fd >= 0)
                close(c->fault_fd);
        if (c->fd >= 0)
                close(c->fd);
        *c = (struct activity_counter){ .fd = -1, .fault_fd = -1 };
}

/* The page faults' records go to the context switches' ring (the same
 * CPU's, as the kernel requires), so one descriptor tells of either. */
static int counter_open(struct activity *a, struct activity_counter *c, unsigned cpu, uint64_t period,
                        const char **what)
{
        const struct perf_syscalls *sys = a->sys ? a->sys : &perf_syscalls_kernel;
        int r;

        *c = (struct activity_counter){ .fd = -1, .fault_fd = -1, .cpu = cpu };
        *what = "perf_event_open(context-switches)";
        c->fd = event_open(sys, PERF_COUNT_SW_CONTEXT_SWITCHES, cpu, period);
        if (c->fd < 0) {
                r = c->fd;
                goto fail;
        }
        *what = "mmap";
        c->ring = mmap(NULL, (size_t)a->page_size * RING_PAGES, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
        if (c->ring == MAP_FAILED) {
                c->ring = NULL;
                r = -errno;
                goto fail;
        }
        *what = "perf_event_open(page-faults)";
        c->fault_fd = event_open(sys, PERF_COUNT_SW_PAGE_FAULTS, cpu, period);
        if (c->fault_fd < 0) {
                r = c->fault_fd;
                goto fail;
        }
        *what = "PERF_EVENT_IOC_SET_OUTPUT";
        if (ioctl(c->fault_fd, PERF_EVENT_IOC_SET_OUTPUT, c->fd) < 0) {
                r = -errno;
                goto fail;
        }
        return 0;
fail:
        counter_close(a, c);
        return r;
}

int activity_open(struct activity *a, const bl_cpumask *cpus, uint64_t events, char *reason, size_t size)
{
        activity_close(a);
        if (events == 0)
                return -EINVAL;
        a->counter = calloc(cpumask_count(cpus) + 1, sizeof(*a->counter));
        if (!a->counter)
                return -ENOMEM;
        if (a->page_size <= 0)
                a->page_size = sysconf(_SC_PAGESIZE);
        for (unsigned cpu = 0; cpu < BL_MAX_CPUS; cpu++) {
                const char *what;
                int e;

                if (!cpumask_isset(cpus, cpu))
                        continue;
                e = counter_open(a, &a->counter[a->n], cpu, events, &what);
                if (e == -ENODEV || e == -ENXIO)
                        continue;
                if (e < 0) {
                        say(reason, size, what, cpu, e);
                        activity_close(a);
                        return e;
                }
                a->n++;
        }
        if (a->n == 0) {
                snprintf(reason, size, "no CPU to count context switches on: all offline");
                activity_close(a);
                return -ENODEV;
        }
        return 0;
}

int activity_index_of(const struct activity *a, int fd)
{
        for (unsigned i = 0; i < a->n; i++)
                if (a->counter[i].fd == fd)
                        return (int)i;
        return -ENOENT;
}

unsigned activity_drain(struct activity *a, unsigned i)
{
        struct perf_event_mmap_page *meta;
        uint64_t head, tail;

        if (i >= a->n)
                return 0;
        meta = a->counter[i].ring;
        head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
        tail = meta->data_tail;
        __atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
        /* Records of sample_type 0 are their header alone. */
        return (unsigned)((head - tail) / sizeof(struct perf_event_header));
}

static int64_t read_count(int fd)
{
        uint64_t count;
        ssize_t n;

        n = read(fd, &count, sizeof(count));
        if (n < 0)
                return -errno;
        if (n != sizeof(count))
                return -EIO;
        return count > INT64_MAX ? INT64_MAX : (int64_t)count;
}

int64_t activity_switches(const struct activity *a, unsigned i)
{
        return i < a->n ? read_count(a->counter[i].fd) : -EINVAL;
}

int64_t activity_faults(const struct activity *a, unsigned i)
{
        return i < a->n ? read_count(a->counter[i].fault_fd) : -EINVAL;
}

void activity_close(struct activity *a)
{
        for (unsigned i = 0; i < a->n; i++)
                counter_close(a, &a->counter[i]);
        a->n = 0;
        free(a->counter);
        a->counter = NULL;
}
