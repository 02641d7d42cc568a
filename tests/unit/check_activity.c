/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sources/activity.c against the running kernel's software events, and
 * against refusals a kernel or a seccomp filter gives. */
#include <check.h>
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sources/activity.h"
#include "tests/unit/count-fds.h"

#define SWITCHES 64

static bl_cpumask mask_of(unsigned first, unsigned last)
{
        bl_cpumask m;

        cpumask_zero(&m);
        for (unsigned cpu = first; cpu <= last; cpu++)
                cpumask_set(&m, cpu);
        return m;
}

/* Whether this machine lets a process count cpu0's context switches; the
 * tests that need the kernel say so and pass without (a container's seccomp
 * filter, an unprivileged run). */
static bool kernel_allows(struct activity *a)
{
        bl_cpumask cpu0 = mask_of(0, 0);
        char reason[512] = "";
        int r = activity_open(a, &cpu0, SWITCHES, reason, sizeof(reason));

        if (r < 0) {
                fprintf(stderr, "# %s: test not run\n", reason);
                return false;
        }
        return true;
}

static bool readable(int fd, int timeout_ms)
{
        struct pollfd p = { .fd = fd, .events = POLLIN };

        return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

/* Two processes on cpu0 handing a byte back and forth 'rounds' times: two
 * context switches a round at the least. */
static void ping_pong_on_cpu0(unsigned rounds)
{
        int there[2], back[2];
        cpu_set_t cpu0;
        pid_t pid;
        char c = 0;
        int status;

        CPU_ZERO(&cpu0);
        CPU_SET(0, &cpu0);
        ck_assert_int_eq(sched_setaffinity(0, sizeof(cpu0), &cpu0), 0);
        ck_assert_int_eq(pipe(there), 0);
        ck_assert_int_eq(pipe(back), 0);
        pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
                for (unsigned i = 0; i < rounds; i++)
                        if (read(there[0], &c, 1) != 1 || write(back[1], &c, 1) != 1)
                                _exit(1);
                _exit(0);
        }
        for (unsigned i = 0; i < rounds; i++) {
                ck_assert_int_eq(write(there[1], &c, 1), 1);
                ck_assert_int_eq(read(back[0], &c, 1), 1);
        }
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        close(there[0]);
        close(there[1]);
        close(back[0]);
        close(back[1]);
}

/* A fresh counter is quiet; a CPU that switches SWITCHES times makes it
 * readable, and the count says so. */
START_TEST(test_readable_after_switches)
{
        struct activity a = { 0 };
        unsigned fds = count_fds();

        if (!kernel_allows(&a))
                return;
        ck_assert_uint_eq(activity_count(&a), 1);
        ck_assert_int_eq(activity_index_of(&a, activity_fd(&a, 0)), 0);
        ck_assert_uint_eq(activity_cpu(&a, 0), 0);
        ck_assert(!readable(activity_fd(&a, 0), 0));
        ck_assert_uint_eq(activity_drain(&a, 0), 0);
        ping_pong_on_cpu0(SWITCHES);
        ck_assert(readable(activity_fd(&a, 0), 2000));
        ck_assert_int_ge(activity_switches(&a, 0), SWITCHES);
        /* A period or more (fork's page faults count too), then none until
         * the next ends: the ring is emptied. */
        ck_assert_uint_ge(activity_drain(&a, 0), 1);
        ck_assert_uint_eq(activity_drain(&a, 0), 0);
        ck_assert(!readable(activity_fd(&a, 0), 0));
        ping_pong_on_cpu0(SWITCHES);
        ck_assert(readable(activity_fd(&a, 0), 2000));
        ck_assert_uint_ge(activity_drain(&a, 0), 1);
        activity_close(&a);
        ck_assert_uint_eq(activity_count(&a), 0);
        ck_assert_uint_eq(count_fds(), fds);
}
END_TEST

/* Pages faulted in on the CPU, a program's start, do it too: four periods
 * of 1000 faults within milliseconds, where what other processes switch on
 * cpu0 meanwhile (the suite runs in parallel) stays far under a period. */
START_TEST(test_readable_after_faults)
{
        struct activity a = { 0 };
        const size_t pages = 4 * 1000;
        long page = sysconf(_SC_PAGESIZE);
        bl_cpumask cpu0 = mask_of(0, 0);
        char reason[512] = "";
        cpu_set_t pin;
        char *p;

        if (!kernel_allows(&a))
                return;
        CPU_ZERO(&pin);
        CPU_SET(0, &pin);
        ck_assert_int_eq(sched_setaffinity(0, sizeof(pin), &pin), 0);
        p = mmap(NULL, pages * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ck_assert_ptr_ne(p, MAP_FAILED);
        ck_assert_int_eq(activity_open(&a, &cpu0, 1000, reason, sizeof(reason)), 0);
        for (size_t i = 0; i < pages; i++)
                p[i * (size_t)page] = 1;
        ck_assert_int_ge(activity_faults(&a, 0), (int64_t)pages);
        ck_assert_int_lt(activity_switches(&a, 0), 1000);
        ck_assert(readable(activity_fd(&a, 0), 0));
        ck_assert_uint_ge(activity_drain(&a, 0), 4);
        munmap(p, pages * (size_t)page);
        activity_close(&a);
}
END_TEST

/* The kernel, but page faults never end a period: what other processes
 * fault on cpu0 has no bound (an ASan build's start faults thousands of
 * pages, and the suite runs in parallel), what they switch has one. */
static int faults_never_wake(struct perf_event_attr *attr, int cpu, int group_fd, void *userdata)
{
        (void)userdata;
        if (attr->config == PERF_COUNT_SW_PAGE_FAULTS)
                attr->sample_period = UINT64_MAX >> 1;
        return perf_syscalls_kernel.open_event(attr, cpu, group_fd, NULL);
}

/* Opening again starts the count again: what was switched before does not
 * carry over to the next sample. Two halves of 600 switches or more against
 * a period of 1000: room for what other processes switch on cpu0 meanwhile
 * (the suite runs in parallel), none for a count that carried over. */
START_TEST(test_open_again_counts_afresh)
{
        struct perf_syscalls sys = { faults_never_wake, NULL, NULL };
        struct activity a = { .sys = &sys };
        bl_cpumask cpu0 = mask_of(0, 0);
        char reason[512] = "";
        unsigned fds = count_fds();

        if (!kernel_allows(&a))
                return;
        ck_assert_int_eq(activity_open(&a, &cpu0, 1000, reason, sizeof(reason)), 0);
        ping_pong_on_cpu0(300);
        ck_assert_int_ge(activity_switches(&a, 0), 600);
        ck_assert(!readable(activity_fd(&a, 0), 0));
        ck_assert_int_eq(activity_open(&a, &cpu0, 1000, reason, sizeof(reason)), 0);
        ck_assert_int_lt(activity_switches(&a, 0), 400);
        ping_pong_on_cpu0(300);
        ck_assert(!readable(activity_fd(&a, 0), 0));
        ping_pong_on_cpu0(300);
        ck_assert(readable(activity_fd(&a, 0), 2000));
        activity_close(&a);
        ck_assert_uint_eq(count_fds(), fds);
}
END_TEST

/* A stand-in for the kernel: the real one for CPU 0, the error it is told
 * for the others. */
struct refusing {
        int error;
        unsigned calls;
};

static int refusing_open(struct perf_event_attr *attr, int cpu, int group_fd, void *userdata)
{
        struct refusing *k = userdata;

        k->calls++;
        ck_assert_uint_eq(attr->type, PERF_TYPE_SOFTWARE);
        ck_assert(attr->config == PERF_COUNT_SW_CONTEXT_SWITCHES || attr->config == PERF_COUNT_SW_PAGE_FAULTS);
        ck_assert_uint_eq(attr->sample_period, SWITCHES);
        ck_assert(!attr->exclude_kernel);
        if (cpu == 0)
                return perf_syscalls_kernel.open_event(attr, cpu, group_fd, NULL);
        return k->error;
}

/* CPUs the kernel says are offline are left out; every CPU offline is
 * -ENODEV with a reason. */
START_TEST(test_offline_cpus_left_out)
{
        struct refusing k = { .error = -ENODEV };
        struct perf_syscalls sys = { refusing_open, NULL, &k };
        struct activity a = { .sys = &sys };
        bl_cpumask cpus = mask_of(0, 3), not0 = mask_of(1, 3);
        char reason[512] = "";
        unsigned fds = count_fds();

        if (!kernel_allows(&a))
                return;
        k.calls = 0;
        ck_assert_int_eq(activity_open(&a, &cpus, SWITCHES, reason, sizeof(reason)), 0);
        /* Two events on CPU 0, the first refused on the others. */
        ck_assert_uint_eq(k.calls, 5);
        ck_assert_uint_eq(activity_count(&a), 1);
        ck_assert_uint_eq(activity_cpu(&a, 0), 0);
        ck_assert_int_eq(activity_index_of(&a, -1), -ENOENT);
        ck_assert_int_eq(activity_open(&a, &not0, SWITCHES, reason, sizeof(reason)), -ENODEV);
        ck_assert_uint_eq(activity_count(&a), 0);
        ck_assert_ptr_nonnull(strstr(reason, "all offline"));
        ck_assert_uint_eq(count_fds(), fds);
}
END_TEST

/* A refusal on any CPU closes what opened and says what would allow it. */
START_TEST(test_refused_says_why)
{
        static const struct {
                int error;
                const char *says;
        } cases[] = {
                { -EACCES, "CAP_SYS_ADMIN where it is 3" },
                { -EPERM, "SystemCallFilter=" },
                { -ENOENT, "CONFIG_PERF_EVENTS" },
                { -EMFILE, "Too many open files" },
        };
        bl_cpumask cpus = mask_of(0, 1);
        unsigned fds = count_fds();

        for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct refusing k = { .error = cases[i].error };
                struct perf_syscalls sys = { refusing_open, NULL, &k };
                struct activity a = { .sys = &sys };
                char reason[512] = "";

                if (i == 0 && !kernel_allows(&a))
                        return;
                ck_assert_int_eq(activity_open(&a, &cpus, SWITCHES, reason, sizeof(reason)), cases[i].error);
                ck_assert_uint_eq(activity_count(&a), 0);
                ck_assert_ptr_nonnull(strstr(reason, "on CPU 1"));
                ck_assert_msg(strstr(reason, cases[i].says), "%s", reason);
                ck_assert_uint_eq(count_fds(), fds);
        }
}
END_TEST

START_TEST(test_bad_arguments)
{
        struct activity a = { 0 };
        bl_cpumask cpus = mask_of(0, 0);
        char reason[64] = "";

        ck_assert_int_eq(activity_open(&a, &cpus, 0, reason, sizeof(reason)), -EINVAL);
        ck_assert_int_eq(activity_switches(&a, 0), -EINVAL);
        ck_assert_int_eq(activity_faults(&a, 0), -EINVAL);
        ck_assert_uint_eq(activity_drain(&a, 0), 0);
        activity_close(&a);
        activity_close(&a);
}
END_TEST

static Suite *activity_suite(void)
{
        Suite *s = suite_create("activity");
        TCase *tc = tcase_create("kernel");

        tcase_add_test(tc, test_readable_after_switches);
        tcase_add_test(tc, test_readable_after_faults);
        tcase_add_test(tc, test_open_again_counts_afresh);
        tcase_add_test(tc, test_offline_cpus_left_out);
        tcase_add_test(tc, test_refused_says_why);
        tcase_add_test(tc, test_bad_arguments);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(activity_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
