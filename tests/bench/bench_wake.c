/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The idle wake (sources/activity.h) on this machine's kernel:
 *   - what one backed-off sample's counters cost the daemon: opened on every
 *     online CPU, read, closed (CPU time, user + system, per sample);
 *   - how soon they tell of a program that starts on CPU 0 (fork, exec of
 *     PROGRAM, default /bin/true), at the daemon's period of 64 events:
 *     the time from fork() to the descriptor being readable.
 * Usage: bench_wake [SAMPLES [STARTS [PROGRAM]]]. Prints a line per figure;
 * tests/bench/RESULTS.md has the runs. Needs CAP_PERFMON (or root). */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sources/activity.h"

#define PERIOD 64

static double seconds(clockid_t clock)
{
        struct timespec t;

        clock_gettime(clock, &t);
        return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b)
{
        double x = *(const double *)a, y = *(const double *)b;

        return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
        unsigned samples = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
        unsigned starts = argc > 2 ? (unsigned)atoi(argv[2]) : 50;
        unsigned idle = argc > 3 ? (unsigned)atoi(argv[3]) : 10;
        const char *program = argc > 4 ? argv[4] : "/bin/true";
        unsigned periods = 0;
        long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
        struct activity a = { 0 };
        bl_cpumask all, cpu0;
        char reason[512] = "";
        double t0, *took;
        unsigned fired = 0;
        cpu_set_t pin;
        int r;

        cpumask_zero(&all);
        for (long c = 0; c < ncpus; c++)
                cpumask_set(&all, (unsigned)c);
        cpumask_zero(&cpu0);
        cpumask_set(&cpu0, 0);

        for (int reading = 0; reading <= 1; reading++) {
                t0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
                for (unsigned i = 0; i < samples; i++) {
                        r = activity_open(&a, &all, PERIOD, reason, sizeof(reason));
                        if (r < 0) {
                                fprintf(stderr, "bench_wake: %s\n", reason);
                                return 1;
                        }
                        for (unsigned k = 0; reading && k < activity_count(&a); k++)
                                (void)(activity_switches(&a, k) + activity_faults(&a, k));
                        activity_close(&a);
                }
                printf("counters on %ld CPUs opened and closed%s: %.1f us of CPU time (%u cycles)\n", ncpus,
                       reading ? ", each read once" : "", (seconds(CLOCK_PROCESS_CPUTIME_ID) - t0) / samples * 1e6,
                       samples);
        }

        r = activity_open(&a, &all, PERIOD, reason, sizeof(reason));
        if (r < 0) {
                fprintf(stderr, "bench_wake: %s\n", reason);
                return 1;
        }
        sleep(idle);
        for (unsigned k = 0; k < activity_count(&a); k++)
                periods += activity_drain(&a, k);
        printf("this machine as it is: %u periods of %d ended on %ld CPUs in %u s (%.2f a second)\n", periods, PERIOD,
               ncpus, idle, (double)periods / idle);
        activity_close(&a);

        /* The program and this process on CPU 0, as the scheduler would
         * start a program on an idle CPU near its parent. */
        CPU_ZERO(&pin);
        CPU_SET(0, &pin);
        if (sched_setaffinity(0, sizeof(pin), &pin) < 0) {
                perror("sched_setaffinity");
                return 1;
        }
        took = calloc(starts, sizeof(*took));
        if (!took)
                return 1;
        for (unsigned i = 0; i < starts; i++) {
                struct pollfd p;
                pid_t pid;
                double start;

                usleep(20000);
                r = activity_open(&a, &cpu0, PERIOD, reason, sizeof(reason));
                if (r < 0) {
                        fprintf(stderr, "bench_wake: %s\n", reason);
                        return 1;
                }
                start = seconds(CLOCK_MONOTONIC);
                pid = fork();
                if (pid == 0) {
                        execl(program, program, (char *)NULL);
                        _exit(127);
                }
                p = (struct pollfd){ .fd = activity_fd(&a, 0), .events = POLLIN };
                if (poll(&p, 1, 1000) == 1 && (p.revents & POLLIN))
                        took[fired++] = (seconds(CLOCK_MONOTONIC) - start) * 1e3;
                waitpid(pid, NULL, 0);
        }
        activity_close(&a);
        qsort(took, fired, sizeof(*took), compare);
        if (fired > 0)
                printf("%s started on CPU 0: readable in %u of %u starts, after %.3f ms (median), %.3f ms (max)\n",
                       program, fired, starts, took[fired / 2], took[fired - 1]);
        else
                printf("%s started on CPU 0: never readable within 1 s (%u starts)\n", program, starts);
        free(took);
        return 0;
}
