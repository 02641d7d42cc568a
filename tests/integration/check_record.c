/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bigLittled --record: on this machine's real /proc/stat (a spinning child
 * pinned to one CPU must show as that lane's saturation), and on a fake
 * board whose load is known, where the recorded work must be the load the
 * board played. Every recording is read back with blsim's own parser.
 */
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/diag.h"
#include "sim/trace.h"
#include "tests/integration/harness.h"

static char trace_path[PATH_MAX + 64], config_path[PATH_MAX + 64], err_path[PATH_MAX + 64];

static int compare_doubles(const void *a, const void *b)
{
        double x = *(const double *)a, y = *(const double *)b;

        return (x > y) - (x < y);
}

static void setup(void)
{
        harness_setup();
        snprintf(trace_path, sizeof(trace_path), "%s", work_file("load.csv"));
        snprintf(err_path, sizeof(err_path), "%s", work_file("err"));
        /* Not /etc/bigLittle.conf: the defaults, whatever this machine has. */
        snprintf(config_path, sizeof(config_path), "%s", write_config("bigLittle.conf", ""));
}

/* Runs argv on this machine, its stderr to the work file "err". */
static pid_t spawn(char *const argv[])
{
        return harness_exec_to_files(argv, work_file("out"), err_path);
}

static int exit_status_of(pid_t pid)
{
        int status;

        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert_msg(WIFEXITED(status), "bigLittled did not exit normally (status %d)", status);
        return WEXITSTATUS(status);
}

/* Runs bigLittled with 'args' after the config; returns its exit status. */
static int run_daemon(const char *const *args, unsigned nargs)
{
        char *argv[16];
        unsigned n = 0;

        argv[n++] = (char *)DAEMON_PATH;
        argv[n++] = (char *)"--config";
        argv[n++] = config_path;
        for (unsigned i = 0; i < nargs && n < 15; i++)
                argv[n++] = (char *)args[i];
        argv[n] = NULL;
        return exit_status_of(spawn(argv));
}

static void load_trace(struct sim_trace *t)
{
        struct bl_diag diag;
        int r;

        diag_init(&diag);
        r = trace_load(t, trace_path, &diag);
        ck_assert_msg(r == 0, "%s does not parse: %s", trace_path, diag.n ? diag.msg[0] : strerror(-r));
}

/* The CPU a child can be pinned to: the first this process may use. */
static int first_allowed_cpu(void)
{
        cpu_set_t set;

        ck_assert_int_eq(sched_getaffinity(0, sizeof(set), &set), 0);
        for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
                if (CPU_ISSET(cpu, &set))
                        return cpu;
        return -1;
}

static pid_t spin_on(int cpu)
{
        pid_t pid = fork();

        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
                cpu_set_t set;

                CPU_ZERO(&set);
                CPU_SET(cpu, &set);
                if (sched_setaffinity(0, sizeof(set), &set) < 0)
                        _exit(1);
                for (;;)
                        ;
        }
        return pid;
}

static unsigned saturated_steps(const char *text, unsigned lane)
{
        char needle[32];
        const char *line = strstr(text, "# saturated"), *p;
        unsigned steps = 0;

        ck_assert_ptr_nonnull(line);
        snprintf(needle, sizeof(needle), " lane%u ", lane);
        p = strstr(line, needle);
        if (p && p < strchr(line, '\n'))
                ck_assert_int_eq(sscanf(p + strlen(needle), "%u steps", &steps), 1);
        return steps;
}

/* A child spinning on one CPU for the whole recording: that lane is
 * saturated in (nearly) every step, and the file is a trace blsim reads. */
START_TEST(test_real_machine)
{
        static const char *const args[] = { "--record", trace_path, "--duration", "2s",
                                            "--interval", "100ms" };
        int cpu = first_allowed_cpu();
        struct sim_trace t;
        const char *text;
        unsigned sat;
        pid_t spinner;
        int status;

        ck_assert_int_ge(cpu, 0);
        spinner = spin_on(cpu);
        status = run_daemon(args, 6);
        kill(spinner, SIGKILL);
        waitpid(spinner, NULL, 0);
        ck_assert_msg(status == 0, "exit status %d: %s", status, read_work_file("err"));
        ck_assert_ptr_nonnull(strstr(read_work_file("err"), "20 steps (2s)"));

        load_trace(&t);
        ck_assert_uint_eq(t.step_us, 100000);
        ck_assert_uint_eq(t.nsteps, 20);
        ck_assert_uint_gt(t.nlanes, (unsigned)cpu);
        /* USER_HZ ticks land in one step or the next: allow a few. */
        text = read_work_file("load.csv");
        sat = saturated_steps(text, (unsigned)cpu);
        ck_assert_msg(sat >= 15, "lane%d saturated in %u of 20 steps:\n%s", cpu, sat, text);
        for (size_t s = 0; s < t.nsteps; s++)
                ck_assert_float_le(t.work[s * t.nlanes + (unsigned)cpu], (float)t.step_us + 1);
        trace_free(&t);
}
END_TEST

/* Without --duration the recording runs until SIGINT, and what was
 * recorded is kept whole. */
START_TEST(test_sigint_keeps_the_recording)
{
        char *argv[] = { (char *)DAEMON_PATH, (char *)"--config", config_path, (char *)"--record", trace_path,
                         (char *)"--interval", (char *)"50ms", NULL };
        struct timespec pause = { .tv_nsec = 600 * 1000 * 1000 };
        struct sim_trace t;
        pid_t pid;
        int status;

        pid = spawn(argv);
        nanosleep(&pause, NULL);
        ck_assert_int_eq(access(trace_path, F_OK), -1);
        ck_assert_int_eq(kill(pid, SIGINT), 0);
        status = exit_status_of(pid);
        ck_assert_msg(status == 0, "exit status %d: %s", status, read_work_file("err"));
        load_trace(&t);
        ck_assert_uint_eq(t.step_us, 50000);
        ck_assert_uint_ge(t.nsteps, 4);
        ck_assert_uint_le(t.nsteps, 40);
        trace_free(&t);
}
END_TEST

struct bad_run {
        const char *args[6];
        unsigned nargs;
        int status;
        const char *says;
};

static const struct bad_run bad_runs[] = {
        { { "--record", "/nonexistent/dir/load.csv", "--duration", "1s" }, 4, 1,
          "/nonexistent/dir/load.csv: cannot create a file next to it: No such file or directory" },
        { { "--record", "x.csv", "--duration", "soon" }, 4, 64,
          "--duration: expected a duration such as 90s or 5min, got \"soon\"" },
        { { "--record", "x.csv", "--interval", "100us" }, 4, 64,
          "--interval: expected a duration from 1ms to 1s, got \"100us\"" },
        { { "--duration", "1s" }, 2, 64, "--duration and --interval go with --record" },
        { { "--record", "x.csv", "--check-config" }, 3, 64,
          "--record and --check-config exclude each other" },
};

START_TEST(test_bad_use)
{
        const struct bad_run *b = &bad_runs[_i];
        int status;

        status = run_daemon(b->args, b->nargs);
        ck_assert_msg(status == b->status, "exit status %d, expected %d: %s", status, b->status,
                      read_work_file("err"));
        ck_assert_msg(strstr(read_work_file("err"), b->says), "expected \"%s\" in: %s", b->says,
                      read_work_file("err"));
        ck_assert_int_eq(access("/nonexistent/dir/load.csv", F_OK), -1);
}
END_TEST

/* A trace replaces its file whole, which as root would replace a FIFO
 * or a device node (/dev/null once) with a regular file: refused at the
 * start, and the FIFO is still there. */
START_TEST(test_not_a_regular_file)
{
        char fifo[PATH_MAX + 64];
        const char *args[] = { "--record", fifo, "--duration", "1s" };
        struct stat st;
        int status;

        snprintf(fifo, sizeof(fifo), "%s", work_file("fifo"));
        ck_assert_int_eq(mkfifo(fifo, 0644), 0);
        status = run_daemon(args, 4);
        ck_assert_msg(status == 64, "exit status %d: %s", status, read_work_file("err"));
        ck_assert_msg(strstr(read_work_file("err"), "fifo: is a FIFO; the trace replaces its file whole"),
                      "%s", read_work_file("err"));
        ck_assert_int_eq(lstat(fifo, &st), 0);
        ck_assert(S_ISFIFO(st.st_mode));
}
END_TEST

/* The fake Exynos 5422 plays two tasks of 600 capacity units each (1024 =
 * a big core at its top speed): every step of the recording must hold
 * 2 x 600 / 1024 of a step of work, however the board spread and clocked
 * it. */
START_TEST(test_known_load_on_a_fake_board)
{
        static const unsigned load[] = { 600, 600 };
        double want, median, step_work[64];
        char steps[64 * 10] = "";
        struct sim_trace t;
        size_t from, n, used = 0;

        new_board("exynos5422");
        set_load(load, 2);
        ck_assert_int_eq(fakeboard_run_for(fb, 200), 0);
        spawn_daemon(config_path, "--record", trace_path, "--duration", "2s", "--interval", "50ms", NULL);
        assert_exit_status(wait_exit(), 0);

        load_trace(&t);
        ck_assert_uint_eq(t.nlanes, 8);
        ck_assert_uint_eq(t.nsteps, 40);
        /* The board settles its frequencies in the first steps. */
        from = 4;
        n = t.nsteps - from;
        for (size_t s = 0; s < n; s++) {
                step_work[s] = 0;
                for (unsigned l = 0; l < t.nlanes; l++)
                        step_work[s] += t.work[(s + from) * t.nlanes + l];
                used += (size_t)snprintf(steps + used, sizeof(steps) - used, " %.0f", step_work[s]);
        }
        /* The median, not the mean: both the board and the recorder run in
         * real time, and on a loaded machine a late board step shows as busy
         * time on the idle CPUs in one sample, which the next sample cannot
         * take back below 0 (beside two CPU hogs: means up to +6 %, medians
         * within 2.2 %). A recorder that got the arithmetic wrong (capacity,
         * step length, lanes) is wrong in every step. */
        qsort(step_work, n, sizeof(step_work[0]), compare_doubles);
        median = n % 2 ? step_work[n / 2] : (step_work[n / 2 - 1] + step_work[n / 2]) / 2;
        want = 2 * 600.0 / 1024 * (double)t.step_us;
        ck_assert_msg(median > want * 0.95 && median < want * 1.05,
                      "recorded a median of %.0f reference-µs per step, played %.0f; steps:%s", median, want,
                      steps);
        trace_free(&t);
}
END_TEST

static Suite *record_suite(void)
{
        Suite *s = suite_create("record");
        TCase *tc = tcase_create("record");

        tcase_add_checked_fixture(tc, setup, harness_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_real_machine);
        tcase_add_test(tc, test_sigint_keeps_the_recording);
        tcase_add_loop_test(tc, test_bad_use, 0, sizeof(bad_runs) / sizeof(bad_runs[0]));
        tcase_add_test(tc, test_not_a_regular_file);
        tcase_add_test(tc, test_known_load_on_a_fake_board);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(record_suite(), "check-record");
}
