/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the VM guest needs beyond busybox (tests/vm/guest-init.sh):
 *   vm-tool burn SECONDS              one CPU-bound thread
 *   vm-tool deadline N RUNTIME PERIOD N sleeping SCHED_DEADLINE tasks (us),
 *                                     until killed: their reserved bandwidth
 *                                     makes the kernel refuse to offline
 *                                     CPUs it would no longer fit on
 *   vm-tool gaps SECONDS              the longest stalls of a spinning thread,
 *                                     pinned to the last CPU
 *   vm-tool write FILE VALUE [SPIN_CPU]
 *                                     time one sysfs/cgroup write; with
 *                                     SPIN_CPU, the longest stall of a thread
 *                                     spinning there during the write and
 *                                     the 100 ms after it
 * Times are printed in microseconds, one "key value" per line. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_us(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The spinning thread: the gaps between two readings of the clock are the
 * times it did not run (interrupts, stop_machine, the host descheduling the
 * vCPU under TCG). */
struct spinner {
        int cpu;
        atomic_bool stop;
        atomic_uint_fast64_t max_gap;
        atomic_uint_fast64_t total_gap;         /* the gaps over 1 ms, summed */
};

static void *spin(void *arg)
{
        struct spinner *s = arg;
        cpu_set_t set;

        if (s->cpu >= 0) {
                CPU_ZERO(&set);
                CPU_SET(s->cpu, &set);
                /* The CPU may be offline: the thread then runs where it may. */
                (void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
        }
        uint64_t last = now_us();

        while (!atomic_load(&s->stop)) {
                uint64_t t = now_us(), gap = t - last;

                if (gap > atomic_load(&s->max_gap))
                        atomic_store(&s->max_gap, gap);
                if (gap > 1000)
                        atomic_fetch_add(&s->total_gap, gap);
                last = t;
        }
        return NULL;
}

static int burn(double seconds)
{
        uint64_t end = now_us() + (uint64_t)(seconds * 1e6);
        volatile uint64_t n = 0;

        while (now_us() < end)
                n++;
        return 0;
}

struct dl_attr {
        uint32_t size;
        uint32_t policy;
        uint64_t flags;
        int32_t nice;
        uint32_t priority;
        uint64_t runtime, deadline, period;
};

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

static int deadline(unsigned n, uint64_t runtime_us, uint64_t period_us)
{
        pid_t pids[64];
        sigset_t set;
        int sig;

        if (n > 64)
                return -EINVAL;
        sigemptyset(&set);
        sigaddset(&set, SIGTERM);
        sigaddset(&set, SIGINT);
        sigprocmask(SIG_BLOCK, &set, NULL);
        for (unsigned i = 0; i < n; i++) {
                pids[i] = fork();
                if (pids[i] < 0)
                        return -errno;
                if (pids[i] == 0) {
                        struct dl_attr a = {
                                .size = sizeof(a),
                                .policy = SCHED_DEADLINE,
                                .runtime = runtime_us * 1000,
                                .deadline = period_us * 1000,
                                .period = period_us * 1000,
                        };

                        sigprocmask(SIG_UNBLOCK, &set, NULL);
                        if (syscall(SYS_sched_setattr, 0, &a, 0) < 0) {
                                fprintf(stderr, "vm-tool deadline: sched_setattr: %s\n", strerror(errno));
                                _exit(1);
                        }
                        for (;;)
                                pause();
                }
        }
        printf("deadline %u tasks %llu/%llu us\n", n, (unsigned long long)runtime_us,
               (unsigned long long)period_us);
        fflush(stdout);
        /* The reservations last until this process is told to end. */
        sigwait(&set, &sig);
        for (unsigned i = 0; i < n; i++)
                kill(pids[i], SIGKILL);
        for (unsigned i = 0; i < n; i++)
                waitpid(pids[i], NULL, 0);
        return 0;
}

static int gaps(double seconds)
{
        struct spinner s = { .cpu = (int)sysconf(_SC_NPROCESSORS_CONF) - 1 };
        pthread_t t;

        if (pthread_create(&t, NULL, spin, &s) != 0)
                return -EAGAIN;
        usleep((useconds_t)(seconds * 1e6));
        atomic_store(&s.stop, true);
        pthread_join(t, NULL);
        printf("max_gap_us %llu\nstalled_us %llu\n", (unsigned long long)atomic_load(&s.max_gap),
               (unsigned long long)atomic_load(&s.total_gap));
        return 0;
}

static int timed_write(const char *file, const char *value, int spin_cpu)
{
        struct spinner s = { .cpu = spin_cpu };
        pthread_t t;
        bool spinning = spin_cpu >= 0;
        int fd = open(file, O_WRONLY | O_CLOEXEC), r = 0;

        if (fd < 0) {
                fprintf(stderr, "vm-tool write: %s: %s\n", file, strerror(errno));
                return -errno;
        }
        if (spinning) {
                if (pthread_create(&t, NULL, spin, &s) != 0) {
                        close(fd);
                        return -EAGAIN;
                }
                /* Let it reach its CPU and settle before the write. */
                usleep(100000);
                atomic_store(&s.max_gap, 0);
                atomic_store(&s.total_gap, 0);
        }
        uint64_t t0 = now_us();

        if (write(fd, value, strlen(value)) < 0)
                r = -errno;
        uint64_t t1 = now_us();

        close(fd);
        if (spinning) {
                /* A stall that covers the write ends after it: the window is
                 * the write and the 100 ms after it. */
                usleep(100000);
                atomic_store(&s.stop, true);
                pthread_join(t, NULL);
        }
        printf("write_us %llu\n", (unsigned long long)(t1 - t0));
        if (spinning)
                printf("max_gap_us %llu\nstalled_us %llu\n", (unsigned long long)atomic_load(&s.max_gap),
                       (unsigned long long)atomic_load(&s.total_gap));
        if (r < 0)
                printf("error %s\n", strerror(-r));
        return r;
}

int main(int argc, char **argv)
{
        int r;

        if (argc == 3 && strcmp(argv[1], "burn") == 0)
                r = burn(atof(argv[2]));
        else if (argc == 5 && strcmp(argv[1], "deadline") == 0)
                r = deadline((unsigned)atoi(argv[2]), strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10));
        else if (argc == 3 && strcmp(argv[1], "gaps") == 0)
                r = gaps(atof(argv[2]));
        else if ((argc == 4 || argc == 5) && strcmp(argv[1], "write") == 0)
                r = timed_write(argv[2], argv[3], argc == 5 ? atoi(argv[4]) : -1);
        else {
                fprintf(stderr, "usage: vm-tool burn S | deadline N RUNTIME_US PERIOD_US | gaps S | "
                                "write FILE VALUE [SPIN_CPU]\n");
                return 64;
        }
        return r < 0 ? 1 : 0;
}
