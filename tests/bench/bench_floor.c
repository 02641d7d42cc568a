/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The floor of a tick's cost: the least any daemon sampling load must do,
 * read /proc/stat and /proc/pressure/cpu once each (pread on fds opened
 * once) and parse every CPU's counters and the pressure total, with the
 * simplest parser that does (digits only, no locale or overflow checks). Run under
 * callgrind with --toggle-collect=floor_tick on the same fake boards as the
 * daemon (see tests/bench/run.sh); the ratio of the two is the daemon's
 * overhead over the bare reading.
 *   bench_floor [TICKS [INTERVAL_US [sleep|epoll]]]   prints the CPUs and the sum of
 * what it parsed; with INTERVAL_US it ticks at that rate, as the daemon does, so that
 * its CPU time can be set beside the daemon's (tests/vm, issue 15). It sleeps
 * in clock_nanosleep(), or with "epoll" waits as an event loop does (the
 * daemon's sd-event): a periodic timerfd in epoll_wait(), then read(), which
 * tells the cost of the wait a daemon with a bus to answer cannot avoid
 * from the rest of its tick. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "common/duration.h"

#define FLOOR_MAX_CPUS 1024
#define FLOOR_FIELDS 8          /* user nice system idle iowait irq softirq steal */

struct floor {
        int stat_fd, psi_fd;
        char buf[256 * 1024];
        uint64_t counters[FLOOR_MAX_CPUS][FLOOR_FIELDS];
        unsigned ncpus;
        uint64_t psi_total;
};

/* A decimal number at 'p' (after any spaces); where it ends in 'end'. */
static uint64_t parse_u64(const char *p, const char **end)
{
        uint64_t v = 0;

        while (*p == ' ')
                p++;
        while (*p >= '0' && *p <= '9')
                v = v * 10 + (uint64_t)(*p++ - '0');
        *end = p;
        return v;
}

static const char *parse_cpu_line(struct floor *f, const char *p)
{
        uint64_t cpu = parse_u64(p + 3, &p);

        for (unsigned i = 0; i < FLOOR_FIELDS; i++) {
                uint64_t v = parse_u64(p, &p);

                if (cpu < FLOOR_MAX_CPUS)
                        f->counters[cpu][i] = v;
        }
        if (cpu < FLOOR_MAX_CPUS && cpu + 1 > f->ncpus)
                f->ncpus = (unsigned)cpu + 1;
        return p;
}

static int read_stat(struct floor *f)
{
        ssize_t n = pread(f->stat_fd, f->buf, sizeof(f->buf) - 1, 0);
        const char *p, *end;

        if (n < 0)
                return -errno;
        f->buf[n] = '\0';
        end = f->buf + n;
        for (p = f->buf; p < end;) {
                const char *eol;

                if (strncmp(p, "cpu", 3) == 0 && p[3] >= '0' && p[3] <= '9')
                        p = parse_cpu_line(f, p);
                else if (strncmp(p, "cpu", 3) != 0)
                        break;  /* the per-CPU lines come first; the rest is not load */
                eol = memchr(p, '\n', (size_t)(end - p));
                p = eol ? eol + 1 : end;
        }
        return 0;
}

static int read_psi(struct floor *f)
{
        char psi[256];
        ssize_t n = pread(f->psi_fd, psi, sizeof(psi) - 1, 0);
        const char *total;

        if (n < 0)
                return -errno;
        psi[n] = '\0';
        total = strstr(psi, "total=");
        f->psi_total = total ? parse_u64(total + 6, &total) : 0;
        return 0;
}

/* Not static and not inlined: callgrind counts from its entry. */
__attribute__((noinline)) int floor_tick(struct floor *f);

__attribute__((noinline)) int floor_tick(struct floor *f)
{
        int r = read_stat(f);

        return r < 0 ? r : read_psi(f);
}

/* An event loop's periodic tick: epoll_wait() on a timerfd, then its read. */
static int epoll_wait_tick(int epfd, int tfd)
{
        struct epoll_event ev;
        uint64_t expirations;

        if (epoll_wait(epfd, &ev, 1, -1) < 0 && errno != EINTR)
                return -errno;
        if (read(tfd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
                return -errno;
        return 0;
}

static int epoll_timer_open(unsigned long interval_us, int *ret_epfd, int *ret_tfd)
{
        const struct itimerspec its = {
                .it_interval = duration_timespec(interval_us),
                .it_value = duration_timespec(interval_us),
        };
        struct epoll_event ev = { .events = EPOLLIN };
        int epfd = epoll_create1(EPOLL_CLOEXEC);
        int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);

        if (epfd < 0 || tfd < 0 || timerfd_settime(tfd, 0, &its, NULL) < 0 ||
            epoll_ctl(epfd, EPOLL_CTL_ADD, tfd, &ev) < 0) {
                int r = -errno;

                if (epfd >= 0)
                        close(epfd);
                if (tfd >= 0)
                        close(tfd);
                return r;
        }
        *ret_epfd = epfd;
        *ret_tfd = tfd;
        return 0;
}

int main(int argc, char **argv)
{
        static struct floor f;
        unsigned long ticks = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
        unsigned long interval_us = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;
        bool epoll = argc > 3 && strcmp(argv[3], "epoll") == 0;
        int epfd = -1, tfd = -1;
        struct timespec next;
        uint64_t sum = 0;
        int r = 0;

        if (argc > 3 && !epoll && strcmp(argv[3], "sleep") != 0) {
                fprintf(stderr, "bench_floor: %s: expected sleep or epoll\n", argv[3]);
                return 64;
        }
        f.stat_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
        f.psi_fd = open("/proc/pressure/cpu", O_RDONLY | O_CLOEXEC);
        if (f.stat_fd < 0 || f.psi_fd < 0) {
                perror("bench_floor: open");
                return EXIT_FAILURE;
        }
        if (epoll && interval_us > 0 && (r = epoll_timer_open(interval_us, &epfd, &tfd)) < 0) {
                fprintf(stderr, "bench_floor: timerfd: %s\n", strerror(-r));
                return EXIT_FAILURE;
        }
        clock_gettime(CLOCK_MONOTONIC, &next);
        for (unsigned long t = 0; t < ticks && r == 0; t++) {
                r = floor_tick(&f);
                if (interval_us == 0 || r < 0)
                        continue;
                if (epoll) {
                        r = epoll_wait_tick(epfd, tfd);
                        continue;
                }
                /* Absolute deadlines: a late tick does not shift the rest. */
                next.tv_nsec += (long)(interval_us % 1000000) * 1000;
                next.tv_sec += (time_t)(interval_us / 1000000) + next.tv_nsec / 1000000000;
                next.tv_nsec %= 1000000000;
                clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
        }
        if (epfd >= 0)
                close(epfd);
        if (tfd >= 0)
                close(tfd);
        if (r < 0) {
                fprintf(stderr, "bench_floor: %s\n", strerror(-r));
                return EXIT_FAILURE;
        }
        for (unsigned cpu = 0; cpu < f.ncpus; cpu++)
                for (unsigned i = 0; i < FLOOR_FIELDS; i++)
                        sum += f.counters[cpu][i];
        printf("%u CPUs, %lu ticks, counters sum %" PRIu64 ", pressure total %" PRIu64 "\n", f.ncpus, ticks,
               sum, f.psi_total);
        close(f.stat_fd);
        close(f.psi_fd);
        return EXIT_SUCCESS;
}
