/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fake board itself: its sysfs and /proc look like the real board's and
 * it answers writes the way the kernel would. The daemon's tests trust it. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/fakeboard/fakeboard.h"

#define STEP FAKEBOARD_STEP_USEC
#define T0 (1000 * BL_USEC_PER_SEC)
#define CPU "/sys/devices/system/cpu/"
#define POLICY4 CPU "cpufreq/policy4/"

static struct fakeboard *board(const char *name)
{
        struct fakeboard *fb = NULL;
        int r = fakeboard_new(name, &fb);

        ck_assert_msg(r == 0, "fakeboard_new(%s): %s", name, strerror(-r));
        return fb;
}

/* Reads a testbed file as the daemon would see it under the preload. */
static int read_board(const struct fakeboard *fb, const char *path, char *buf, size_t size)
{
        char full[PATH_MAX];
        ssize_t n;
        int fd;

        ck_assert_int_eq(fakeboard_path(fb, path, full, sizeof(full)), 0);
        fd = open(full, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        n = read(fd, buf, size - 1);
        close(fd);
        if (n < 0)
                return -errno;
        buf[n] = '\0';
        return (int)n;
}

static void assert_file(const struct fakeboard *fb, const char *path, const char *want)
{
        char buf[4096];
        int r = read_board(fb, path, buf, sizeof(buf));

        ck_assert_msg(r >= 0, "%s: %s", path, strerror(-r));
        ck_assert_str_eq(buf, want);
}

static void write_board(const struct fakeboard *fb, const char *path, const char *value)
{
        char full[PATH_MAX];
        int fd;

        ck_assert_int_eq(fakeboard_path(fb, path, full, sizeof(full)), 0);
        fd = open(full, O_WRONLY | O_CLOEXEC);
        ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
        ck_assert_int_eq(write(fd, value, strlen(value)), (ssize_t)strlen(value));
        close(fd);
}

/* Steps the board in virtual time from *t for ms milliseconds. */
static void steps(struct fakeboard *fb, bl_usec_t *t, unsigned ms)
{
        for (bl_usec_t end = *t + ms * BL_USEC_PER_MSEC; *t < end;) {
                *t += STEP;
                ck_assert_int_eq(fakeboard_step(fb, *t), 0);
        }
}

/* Fields of one /proc/stat line ("cpu4" or "cpu"), or false if absent. */
static bool stat_line(const struct fakeboard *fb, const char *name, unsigned long long f[10])
{
        char buf[8192], want[32];
        int r = read_board(fb, "/proc/stat", buf, sizeof(buf));

        ck_assert_int_gt(r, 0);
        snprintf(want, sizeof(want), "%s ", name);
        for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
                if (strncmp(line, want, strlen(want)) != 0)
                        continue;
                int n = sscanf(line + strlen(want), "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
                               &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9]);

                ck_assert_int_eq(n, 10);
                return true;
        }
        return false;
}

START_TEST(test_unknown_board)
{
        struct fakeboard *fb = NULL;

        ck_assert_int_eq(fakeboard_new("no-such-board", &fb), -ENOENT);
        ck_assert_ptr_null(fb);
}
END_TEST

START_TEST(test_exynos_sysfs)
{
        struct fakeboard *fb = board("exynos5422");
        char buf[256], link[PATH_MAX], policy[PATH_MAX], resolved[PATH_MAX];

        assert_file(fb, "/sys/devices/system/cpu/cpu0/cpu_capacity", "377\n");
        assert_file(fb, "/sys/devices/system/cpu/cpu4/cpu_capacity", "1024\n");
        ck_assert_int_eq(read_board(fb, "/sys/devices/system/cpu/cpu0/online", buf, sizeof(buf)), -ENOENT);
        assert_file(fb, "/sys/devices/system/cpu/cpu1/online", "1\n");
        assert_file(fb, "/sys/devices/system/cpu/cpu7/online", "1\n");
        assert_file(fb, "/sys/devices/system/cpu/cpu2/topology/cluster_id", "1\n");
        assert_file(fb, "/sys/devices/system/cpu/cpu6/topology/cluster_id", "0\n");
        assert_file(fb, "/sys/devices/system/cpu/cpu6/topology/cluster_cpus_list", "4-7\n");
        assert_file(fb, "/sys/devices/system/cpu/online", "0-7\n");
        assert_file(fb, "/sys/devices/system/cpu/offline", "\n");
        assert_file(fb, "/sys/devices/system/cpu/possible", "0-7\n");
        assert_file(fb, "/sys/devices/system/cpu/present", "0-7\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy0/related_cpus", "0 1 2 3\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy4/affected_cpus", "4 5 6 7\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy0/cpuinfo_min_freq", "200000\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy0/cpuinfo_max_freq", "1400000\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy4/cpuinfo_max_freq", "2000000\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy4/scaling_driver", "cpufreq-dt\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy4/scaling_governor", "schedutil\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy4/cpuinfo_transition_latency", "140000\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy0/scaling_available_frequencies",
                    "200000 300000 400000 500000 600000 700000 800000 900000 1000000 1100000 1200000 "
                    "1300000 1400000 \n");
        ck_assert_int_gt(read_board(fb, POLICY4 "scaling_available_frequencies", buf, sizeof(buf)), 0);
        ck_assert_ptr_nonnull(strstr(buf, "1900000 2000000 \n"));
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy4/scaling_cur_freq", "200000\n");
        assert_file(fb, "/sys/class/thermal/thermal_zone0/type", "cpu0-thermal\n");
        assert_file(fb, "/sys/class/thermal/thermal_zone4/type", "gpu-thermal\n");
        assert_file(fb, "/sys/class/thermal/thermal_zone4/mode", "enabled\n");
        assert_file(fb, "/sys/class/thermal/thermal_zone2/temp", "45000\n");
        assert_file(fb, "/proc/pressure/cpu",
                    "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
                    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");

        /* cpu5/cpufreq leads to the shared policy of its cluster. */
        ck_assert_int_eq(fakeboard_path(fb, "/sys/devices/system/cpu/cpu5/cpufreq", link, sizeof(link)), 0);
        ck_assert_int_eq(fakeboard_path(fb, CPU "cpufreq/policy4", policy, sizeof(policy)), 0);
        ck_assert_ptr_nonnull(realpath(link, resolved));
        ck_assert_str_eq(resolved, policy);
        ck_assert_uint_eq(fakeboard_capacity(fb, 3), 377);
        ck_assert_uint_eq(fakeboard_capacity(fb, 7), 1024);
        fakeboard_free(fb);
}
END_TEST

START_TEST(test_x86_sysfs)
{
        struct fakeboard *fb = board("x86-symmetric");
        char buf[256], full[PATH_MAX];
        struct stat st;

        ck_assert_int_eq(read_board(fb, CPU "cpu0/cpu_capacity", buf, sizeof(buf)), -ENOENT);
        ck_assert_int_eq(read_board(fb, "/sys/devices/system/cpu/cpu0/online", buf, sizeof(buf)), -ENOENT);
        assert_file(fb, "/sys/devices/system/cpu/cpu3/online", "1\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy2/related_cpus", "2\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy1/cpuinfo_max_freq", "4900000\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy3/cpuinfo_max_freq", "4700000\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy3/scaling_driver", "intel_pstate\n");
        assert_file(fb, "/sys/devices/system/cpu/cpu2/topology/cluster_id", "2\n");
        ck_assert_int_eq(read_board(fb, CPU "cpufreq/policy0/scaling_available_frequencies", buf,
                                    sizeof(buf)),
                         -ENOENT);
        assert_file(fb, "/sys/class/thermal/thermal_zone0/type", "x86_pkg_temp\n");
        assert_file(fb, "/sys/class/thermal/thermal_zone1/type", "acpitz\n");
        /* Scaled from the top frequencies: binning, not a kind of core. */
        ck_assert_uint_eq(fakeboard_capacity(fb, 0), 982);
        ck_assert_uint_eq(fakeboard_capacity(fb, 1), 1024);
        /* No PSI: something unreadable stands in the host's /proc/pressure/cpu's way. */
        ck_assert_int_eq(fakeboard_path(fb, "/proc/pressure/cpu", full, sizeof(full)), 0);
        ck_assert_int_eq(lstat(full, &st), 0);
        ck_assert(S_ISDIR(st.st_mode));
        ck_assert_int_eq(read_board(fb, "/proc/pressure/cpu", buf, sizeof(buf)), -EISDIR);
        fakeboard_free(fb);
}
END_TEST

START_TEST(test_preload_view)
{
        struct fakeboard *fb = board("x86-symmetric");
        char *const argv[] = { (char *)"sh", (char *)"-c",
                               (char *)"echo dir=$UMOCKDEV_DIR; head -n 1 /proc/stat; "
                                       "cat /sys/devices/system/cpu/cpufreq/policy1/cpuinfo_max_freq; "
                                       "cat /proc/pressure/cpu || echo no-psi; "
                                       "echo 0 > /sys/devices/system/cpu/cpu2/online; echo bye >&2",
                               NULL };
        char want[PATH_MAX + 8];
        bl_cpumask online, expect;
        int status = -1;

        ck_assert_int_eq(fakeboard_spawn(fb, argv, false), 0);
        ck_assert_int_eq(fakeboard_wait(fb, 20000, &status), 0);
        ck_assert(WIFEXITED(status));
        ck_assert_int_eq(WEXITSTATUS(status), 0);
        snprintf(want, sizeof(want), "dir=%s", fakeboard_root(fb));
        ck_assert_int_eq(fakeboard_find_line(fb, 0, want), 0);
        ck_assert_int_ge(fakeboard_find_line(fb, 0, "cpu  0 0 0 "), 1);
        ck_assert_int_ge(fakeboard_find_line(fb, 0, "4900000"), 2);
        ck_assert_int_ge(fakeboard_find_line(fb, 0, "no-psi"), 3);
        ck_assert_int_ge(fakeboard_find_line(fb, 0, "bye"), 4);

        /* The write landed in the testbed and the board took the CPU down. */
        ck_assert_int_eq(fakeboard_step(fb, fakeboard_now()), 0);
        fakeboard_online(fb, &online);
        ck_assert_int_eq(cpumask_parse(&expect, "0-1,3"), 0);
        ck_assert(cpumask_equal(&online, &expect));
        ck_assert_uint_eq(fakeboard_n_online_changes(fb), 1);
        fakeboard_free(fb);
}
END_TEST

START_TEST(test_spawn_status_and_partial_line)
{
        struct fakeboard *fb = board("exynos5422");
        char *const argv[] = { (char *)"sh", (char *)"-c",
                               (char *)"echo one; echo two >&2; printf three; exit 3", NULL };
        char *const missing[] = { (char *)"/nonexistent/bigLittled", NULL };
        int status = -1;

        ck_assert_int_eq(fakeboard_exit_status(fb, &status), -ECHILD);
        ck_assert_int_eq(fakeboard_spawn(fb, argv, false), 0);
        ck_assert_int_eq(fakeboard_spawn(fb, argv, false), -EBUSY);
        ck_assert_int_eq(fakeboard_wait(fb, 20000, &status), 0);
        ck_assert(WIFEXITED(status));
        ck_assert_int_eq(WEXITSTATUS(status), 3);
        ck_assert_uint_eq(fakeboard_n_lines(fb), 3);
        ck_assert_str_eq(fakeboard_line(fb, 0, NULL), "one");
        ck_assert_str_eq(fakeboard_line(fb, 1, NULL), "two");
        ck_assert_str_eq(fakeboard_line(fb, 2, NULL), "three");
        ck_assert_int_eq(fakeboard_find_line(fb, 1, "one"), -ENOENT);
        ck_assert(!fakeboard_running(fb));

        /* A new process starts with a clean log. */
        ck_assert_int_eq(fakeboard_spawn(fb, missing, false), 0);
        ck_assert_int_eq(fakeboard_wait(fb, 20000, &status), 0);
        ck_assert_int_eq(WEXITSTATUS(status), 127);
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "one"), -ENOENT);
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "exec failed"), 0);
        fakeboard_free(fb);
}
END_TEST

/* The refusing preload: a rule fails that many writes of a spawned process
 * to that file, with that errno, and is counted down; other files and
 * writes after the rule ran out go through. cpu3's policy is reached
 * through the cpu3/cpufreq link, as the switcher backend writes it. */
START_TEST(test_refused_writes)
{
        struct fakeboard *fb = board("exynos5422");
        char *const argv[] = {
                (char *)"sh", (char *)"-c",
                (char *)"w() { echo $2 | dd of=$1 conv=notrunc status=none; }; cpu=/sys/devices/system/cpu; "
                        "for i in 1 2 3; do w $cpu/cpu5/online 0 && echo ok$i; done; "
                        "w $cpu/cpu6/online 0 && echo other; "
                        "w $cpu/cpu3/cpufreq/scaling_max_freq 300000 || echo refused",
                NULL };
        const char *policy0 = CPU "cpufreq/policy0/scaling_max_freq";
        int status = -1;

        ck_assert_int_eq(fakeboard_refuse_writes(fb, CPU "cpu5/online", EBUSY, 2), 0);
        ck_assert_int_eq(fakeboard_refuse_writes(fb, policy0, EIO, 1), 0);
        ck_assert_int_eq(fakeboard_refusals_left(fb, CPU "cpu5/online"), 2);
        ck_assert_int_eq(fakeboard_refusals_left(fb, CPU "cpu6/online"), 0);
        ck_assert_int_eq(fakeboard_refuse_writes(fb, CPU "cpu99/online", EBUSY, 1), -ENOENT);

        ck_assert_int_eq(fakeboard_spawn(fb, argv, false), 0);
        ck_assert_int_eq(fakeboard_wait(fb, 20000, &status), 0);
        ck_assert(WIFEXITED(status));
        /* The first two writes were refused with EBUSY, the third went through. */
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "ok1"), -ENOENT);
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "ok2"), -ENOENT);
        ck_assert_int_ge(fakeboard_find_line(fb, 0, "Device or resource busy"), 0);
        ck_assert_int_ge(fakeboard_find_line(fb, 0, "ok3"), 0);
        ck_assert_int_ge(fakeboard_find_line(fb, 0, "other"), 0);
        ck_assert_int_ge(fakeboard_find_line(fb, 0, "refused"), 0);
        ck_assert_int_ge(fakeboard_find_line(fb, 0, "Input/output error"), 0);
        ck_assert_int_eq(fakeboard_refusals_left(fb, CPU "cpu5/online"), 0);
        ck_assert_int_eq(fakeboard_refusals_left(fb, policy0), 0);
        assert_file(fb, CPU "cpu5/online", "0\n");
        assert_file(fb, CPU "cpu6/online", "0\n");
        assert_file(fb, policy0, "1400000\n");

        /* Armed again, and removed with a count of 0. */
        ck_assert_int_eq(fakeboard_refuse_writes(fb, CPU "cpu5/online", EINVAL, 7), 0);
        ck_assert_int_eq(fakeboard_refusals_left(fb, CPU "cpu5/online"), 7);
        ck_assert_int_eq(fakeboard_refuse_writes(fb, CPU "cpu5/online", EINVAL, 0), 0);
        ck_assert_int_eq(fakeboard_refusals_left(fb, CPU "cpu5/online"), 0);
        fakeboard_free(fb);
}
END_TEST

START_TEST(test_free_kills_process)
{
        struct fakeboard *fb = board("exynos5422");
        char *const argv[] = { (char *)"sleep", (char *)"60", NULL };
        pid_t pid;

        ck_assert_int_eq(fakeboard_spawn(fb, argv, false), 0);
        pid = fakeboard_pid(fb);
        ck_assert_int_gt(pid, 0);
        ck_assert_int_eq(fakeboard_run_for(fb, 50), 0);
        ck_assert(fakeboard_running(fb));
        fakeboard_free(fb);
        /* Killed and reaped: the pid is gone. */
        ck_assert_int_eq(kill(pid, 0), -1);
        ck_assert_int_eq(errno, ESRCH);
}
END_TEST

START_TEST(test_placement_and_dvfs)
{
        struct fakeboard *fb = board("exynos5422");
        static const unsigned one[] = { 300 }, nine[] = { 600, 600, 600, 600, 600, 600, 600, 600, 600 };
        bl_usec_t t = T0;

        ck_assert_int_eq(fakeboard_set_load(fb, one, 1), 0);
        steps(fb, &t, 10);
        /* 1.25 x 300 = 375 needs 1024 x f / 2000 >= 375: 800 MHz on the big cluster. */
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 4), 800000);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 0), 200000);
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy4/scaling_cur_freq", "800000\n");

        /* Eight tasks fill the CPUs, big ones first; a ninth wraps onto cpu4:
         * 1200 wanted there, 600 on cpu0, beyond both clusters' top OPPs. */
        ck_assert_int_eq(fakeboard_set_load(fb, nine, 9), 0);
        steps(fb, &t, 10);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 4), 2000000);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 0), 1400000);

        /* A cap written by anyone holds the policy down. */
        write_board(fb, "/sys/devices/system/cpu/cpufreq/policy4/scaling_max_freq", "1500000");
        steps(fb, &t, 10);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 4), 1500000);
        write_board(fb, "/sys/devices/system/cpu/cpufreq/policy4/scaling_max_freq", "2000000");

        /* Only the LITTLE cluster left: the task lands on cpu0 and needs its top OPP;
         * the idle big policy keeps its last frequency. */
        for (unsigned cpu = 4; cpu < 8; cpu++)
                ck_assert_int_eq(fakeboard_set_cpu_online(fb, cpu, false), 0);
        ck_assert_int_eq(fakeboard_set_load(fb, one, 1), 0);
        steps(fb, &t, 10);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 0), 1400000);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 4), 1500000);
        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 0, false), -EPERM);
        fakeboard_free(fb);
}
END_TEST

/* The tasks live in system.slice and user.slice: their cpusets confine
 * them, so a level the cpuset backend applies moves the work like hotplug
 * does, with every CPU online. */
START_TEST(test_placement_follows_the_cpusets)
{
        struct fakeboard *fb = board("exynos5422");
        static const unsigned two[] = { 300, 300 };
        bl_usec_t t = T0;

        ck_assert_int_eq(fakeboard_set_load(fb, two, 2), 0);
        steps(fb, &t, 10);
        /* Unconfined: the big CPUs first. */
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 4), 800000);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 0), 200000);

        write_board(fb, "/sys/fs/cgroup/system.slice/cpuset.cpus", "0-3");
        write_board(fb, "/sys/fs/cgroup/user.slice/cpuset.cpus", "0-3");
        steps(fb, &t, 10);
        /* 1.25 x 300 on a Cortex-A7: its top OPP; the idle big CPUs, online,
         * drop to their lowest. */
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 0), 1400000);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 4), 200000);

        /* One group may still use cpu4: the tasks may too. */
        write_board(fb, "/sys/fs/cgroup/user.slice/cpuset.cpus", "0-4");
        steps(fb, &t, 10);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 4), 800000);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 0), 1400000);
        fakeboard_free(fb);
}
END_TEST

START_TEST(test_proc_stat_accounting)
{
        struct fakeboard *fb = board("exynos5422");
        static const unsigned two[] = { 600, 600 };
        unsigned long long f[10];
        bl_usec_t t = T0, when;
        bl_cpumask online, expect;

        ck_assert_int_eq(fakeboard_step(fb, t), 0);
        ck_assert_int_eq(fakeboard_set_load(fb, two, 2), 0);
        ck_assert_int_eq(fakeboard_step(fb, t), 0);
        steps(fb, &t, 1000);
        /* 600 on cpu4 at 1500 MHz (capacity 768): busy 78.125% of 1 s. */
        ck_assert(stat_line(fb, "cpu4", f));
        ck_assert_uint_eq(f[0], 78);
        ck_assert_uint_eq(f[3], 21);
        ck_assert_uint_eq(f[1] + f[2] + f[4] + f[5] + f[6] + f[7] + f[8] + f[9], 0);
        ck_assert(stat_line(fb, "cpu5", f));
        ck_assert_uint_eq(f[0], 78);
        ck_assert(stat_line(fb, "cpu0", f));
        ck_assert_uint_eq(f[0], 0);
        ck_assert_uint_eq(f[3], 100);
        ck_assert(stat_line(fb, "cpu", f));
        ck_assert_uint_eq(f[0], 156);
        ck_assert_uint_eq(f[3], 643);

        /* The daemon takes cpu7 down: no line for it, the lists follow. */
        write_board(fb, "/sys/devices/system/cpu/cpu7/online", "0");
        t += STEP;
        ck_assert_int_eq(fakeboard_step(fb, t), 0);
        ck_assert(!stat_line(fb, "cpu7", f));
        ck_assert(stat_line(fb, "cpu6", f));
        assert_file(fb, "/sys/devices/system/cpu/online", "0-6\n");
        assert_file(fb, "/sys/devices/system/cpu/offline", "7\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy4/affected_cpus", "4 5 6\n");
        assert_file(fb, "/sys/devices/system/cpu/cpufreq/policy4/related_cpus", "4 5 6 7\n");
        ck_assert_uint_eq(fakeboard_n_online_changes(fb), 1);
        ck_assert_int_eq(fakeboard_online_change(fb, 0, &when, &online), 0);
        ck_assert_uint_eq(when, t);
        ck_assert_int_eq(cpumask_parse(&expect, "0-6"), 0);
        ck_assert(cpumask_equal(&online, &expect));
        ck_assert_int_eq(fakeboard_online_change(fb, 1, &when, &online), -ENOENT);

        /* Offline time is not counted; the counters come back as they were. */
        steps(fb, &t, 500);
        write_board(fb, "/sys/devices/system/cpu/cpu7/online", "1");
        t += STEP;
        ck_assert_int_eq(fakeboard_step(fb, t), 0);
        ck_assert(stat_line(fb, "cpu7", f));
        ck_assert_uint_eq(f[0], 0);
        ck_assert_uint_eq(f[3], 100);
        ck_assert_uint_eq(fakeboard_n_online_changes(fb), 2);
        fakeboard_free(fb);
}
END_TEST

/* The sum of a CPU's cpuidle state times, µs. */
static unsigned long long idle_time(const struct fakeboard *fb, unsigned cpu)
{
        unsigned long long total = 0;

        for (unsigned k = 0; k < 2; k++) {
                char path[128], buf[64];

                snprintf(path, sizeof(path), CPU "cpu%u/cpuidle/state%u/time", cpu, k);
                ck_assert_int_gt(read_board(fb, path, buf, sizeof(buf)), 0);
                total += strtoull(buf, NULL, 10);
        }
        return total;
}

START_TEST(test_cpuidle_accounting)
{
        struct fakeboard *fb = board("exynos5422");
        static const unsigned two[] = { 600, 600 };
        unsigned long long idle0, idle4;
        bl_usec_t t = T0;

        assert_file(fb, CPU "cpu0/cpuidle/state0/name", "WFI\n");
        assert_file(fb, CPU "cpu7/cpuidle/state1/desc", "CPU power down\n");
        assert_file(fb, CPU "cpu7/cpuidle/state1/time", "0\n");
        ck_assert_int_eq(fakeboard_step(fb, t), 0);
        ck_assert_int_eq(fakeboard_set_load(fb, two, 2), 0);
        ck_assert_int_eq(fakeboard_step(fb, t), 0);
        idle0 = idle_time(fb, 0);
        idle4 = idle_time(fb, 4);
        steps(fb, &t, 1000);
        /* as /proc/stat (test_proc_stat_accounting), to the µs: busy 78.125 % */
        ck_assert_uint_eq(idle_time(fb, 4) - idle4, 218750);
        ck_assert_uint_eq(idle_time(fb, 0) - idle0, 1000000);
        fakeboard_free(fb);
}
END_TEST

/* Keeps cpu0 busy for the share of each step that 'userdata' points to. */
static int share_step(void *userdata, const struct fakeboard_state *in, bl_usec_t dt,
                      struct fakeboard_output *out)
{
        (void)in;
        out->busy_us[0] = *(const double *)userdata * (double)dt;
        return 0;
}

START_TEST(test_cpuidle_defers_idle)
{
        static const struct fakeboard_driver driver = { .step = share_step };
        struct fakeboard_desc desc = *fakeboard_desc_find("exynos5422");
        static double share;
        unsigned long long f[10], idle_ticks;
        struct fakeboard *fb;
        bl_usec_t t = T0;

        desc.cpuidle_defers_idle = true;
        share = 0.5;
        ck_assert_int_eq(fakeboard_new_desc(&desc, &driver, &share, &fb), 0);
        ck_assert_int_eq(fakeboard_step(fb, t), 0);
        steps(fb, &t, 100);
        ck_assert_uint_eq(idle_time(fb, 0), 50000);
        /* idle throughout: /proc/stat counts it, cpuidle not until it ends */
        share = 0;
        ck_assert(stat_line(fb, "cpu0", f));
        idle_ticks = f[3];
        steps(fb, &t, 100);
        ck_assert_uint_eq(idle_time(fb, 0), 50000);
        ck_assert(stat_line(fb, "cpu0", f));
        ck_assert_uint_eq(f[3] - idle_ticks, 10);
        /* a step with work ends it: all of it at once, and that step's */
        share = 0.5;
        steps(fb, &t, STEP / 1000);
        ck_assert_uint_eq(idle_time(fb, 0), 50000 + 100000 + STEP / 2);
        fakeboard_free(fb);
}
END_TEST

/* The sum of a CPU's cpuidle state usage: the idle periods that ended. */
static unsigned long long idle_usage(const struct fakeboard *fb, unsigned cpu)
{
        unsigned long long total = 0;

        for (unsigned k = 0; k < 2; k++) {
                char path[128], buf[64];

                snprintf(path, sizeof(path), CPU "cpu%u/cpuidle/state%u/usage", cpu, k);
                ck_assert_int_gt(read_board(fb, path, buf, sizeof(buf)), 0);
                total += strtoull(buf, NULL, 10);
        }
        return total;
}

/* The kernel's way: a timer wake every ~11 ms ends a period and credits
 * it; the busy time is the driver's, conserved; a read between two wakes
 * shows the period in progress in /proc/stat only; a full load runs at
 * once; a CPU going offline ends its period. */
START_TEST(test_cpuidle_kernel_residency)
{
        static const struct fakeboard_driver driver = { .step = share_step };
        struct fakeboard_desc desc = *fakeboard_desc_find("exynos5422-kernel-idle");
        static double share;
        unsigned long long f[10], idle0, usage0, busy_ticks, periods;
        struct fakeboard *fb;
        bl_usec_t t = T0;
        bool seen_lag = false;

        ck_assert_int_eq(desc.residency, FAKEBOARD_RESIDENCY_KERNEL);
        share = 0.02;
        ck_assert_int_eq(fakeboard_new_desc(&desc, &driver, &share, &fb), 0);
        ck_assert_int_eq(fakeboard_step(fb, t), 0);
        steps(fb, &t, 100);
        idle0 = idle_time(fb, 0);
        usage0 = idle_usage(fb, 0);
        ck_assert(stat_line(fb, "cpu0", f));
        busy_ticks = f[0];
        /* 2 s: ~182 periods of ~10.8 ms; 2 % busy, 4 ticks */
        for (unsigned i = 0; i < 2000 / (STEP / 1000); i++) {
                unsigned long long before = idle_time(fb, 0);

                steps(fb, &t, STEP / 1000);
                /* at most one wake per 5 ms step */
                ck_assert_uint_le(idle_usage(fb, 0) - usage0, i + 1);
                seen_lag |= idle_time(fb, 0) == before;
        }
        periods = idle_usage(fb, 0) - usage0;
        ck_assert_msg(periods >= 165 && periods <= 200, "%llu periods", periods);
        ck_assert_msg(idle_time(fb, 0) - idle0 >= 2000000 - 40000 - 12000 &&
                      idle_time(fb, 0) - idle0 <= 2000000 - 40000 + 12000, "idle %llu",
                      idle_time(fb, 0) - idle0);
        ck_assert(seen_lag);
        ck_assert(stat_line(fb, "cpu0", f));
        ck_assert_uint_ge(f[0] - busy_ticks, 3);
        ck_assert_uint_le(f[0] - busy_ticks, 5);
        /* the other CPUs have no load: woken by their timers all the same */
        ck_assert_uint_ge(idle_usage(fb, 5), 165);
        /* full load: no period ends while it lasts */
        share = 1.0;
        steps(fb, &t, STEP / 1000);
        usage0 = idle_usage(fb, 0);
        idle0 = idle_time(fb, 0);
        steps(fb, &t, 100);
        ck_assert_uint_eq(idle_usage(fb, 0), usage0);
        ck_assert_uint_eq(idle_time(fb, 0), idle0);
        /* offline ends cpu5's period at once */
        usage0 = idle_usage(fb, 5);
        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 5, false), 0);
        steps(fb, &t, STEP / 1000);
        ck_assert_uint_eq(idle_usage(fb, 5), usage0 + 1);
        fakeboard_free(fb);
}
END_TEST

START_TEST(test_psi)
{
        struct fakeboard *fb = board("exynos5422");
        static const unsigned two[] = { 600, 600 };
        unsigned long long f[10], total = 0;
        double avg10 = 0;
        char buf[512];
        bl_usec_t t = T0;

        for (unsigned cpu = 4; cpu < 8; cpu++)
                ck_assert_int_eq(fakeboard_set_cpu_online(fb, cpu, false), 0);
        ck_assert_int_eq(fakeboard_step(fb, t), 0);
        ck_assert_int_eq(fakeboard_set_load(fb, two, 2), 0);
        ck_assert_int_eq(fakeboard_step(fb, t), 0);
        steps(fb, &t, 1000);
        /* 600 wanted of 377: each task waits (600 - 377) / 600 of the time. */
        ck_assert_int_gt(read_board(fb, "/proc/pressure/cpu", buf, sizeof(buf)), 0);
        ck_assert_int_eq(sscanf(buf, "some avg10=%lf avg60=%*f avg300=%*f total=%llu", &avg10, &total), 2);
        ck_assert_uint_ge(total, 371600);
        ck_assert_uint_le(total, 371700);
        ck_assert(avg10 > 0.5 && avg10 < 37.2);
        ck_assert_ptr_nonnull(strstr(buf, "\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"));
        ck_assert(stat_line(fb, "cpu0", f));
        ck_assert_uint_eq(f[0], 100);
        ck_assert_uint_eq(f[3], 0);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 0), 1400000);
        fakeboard_free(fb);
}
END_TEST

START_TEST(test_rewrites_in_place)
{
        struct fakeboard *fb = board("exynos5422");
        static const unsigned one[] = { 900 };
        char path[PATH_MAX], kept[8192], fresh[8192];
        struct stat before, after;
        bl_usec_t t = T0;
        ssize_t n;
        int fd;

        ck_assert_int_eq(fakeboard_path(fb, "/proc/stat", path, sizeof(path)), 0);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(fstat(fd, &before), 0);
        ck_assert_int_eq(fakeboard_set_load(fb, one, 1), 0);
        steps(fb, &t, 300);
        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 6, false), 0);
        steps(fb, &t, 50);

        n = pread(fd, kept, sizeof(kept) - 1, 0);
        ck_assert_int_gt(n, 0);
        kept[n] = '\0';
        ck_assert_int_gt(read_board(fb, "/proc/stat", fresh, sizeof(fresh)), 0);
        ck_assert_str_eq(kept, fresh);
        ck_assert_ptr_null(strstr(kept, "cpu6 "));
        ck_assert_int_eq(stat(path, &after), 0);
        ck_assert_uint_eq(before.st_ino, after.st_ino);
        close(fd);
        fakeboard_free(fb);
}
END_TEST

struct seen {
        unsigned phases, done;
        char first[64];
};

static void count_events(struct fakeboard *fb, const struct fakeboard_event *ev, void *userdata)
{
        struct seen *s = userdata;

        (void)fb;
        if (ev->kind == FAKEBOARD_PHASE_STARTED && s->phases++ == 0)
                snprintf(s->first, sizeof(s->first), "%s/%u", ev->text, ev->duration_ms);
        if (ev->kind == FAKEBOARD_PATTERN_DONE)
                s->done++;
}

START_TEST(test_pattern)
{
        struct fakeboard *fb = board("exynos5422");
        static const struct fakeboard_phase phases[] = {
                { .duration_ms = 100, .ntasks = 2, .demand = { 600, 600 } },
                { .duration_ms = 0, .ntasks = 1, .demand = { 1000 } },
                { .duration_ms = 100, .ntasks = 1, .demand = { 300 } },
        };
        struct seen s = { 0 };
        bl_usec_t t = T0;

        fakeboard_set_observer(fb, count_events, &s);
        ck_assert(!fakeboard_pattern_done(fb));
        ck_assert_int_eq(fakeboard_set_pattern(fb, phases, 3), 0);
        ck_assert_int_eq(fakeboard_step(fb, t), 0);
        ck_assert_str_eq(s.first, "2 tasks of 600/100");
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 4), 1500000);
        steps(fb, &t, 50);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 4), 1500000);
        steps(fb, &t, 100);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 4), 800000);
        ck_assert(!fakeboard_pattern_done(fb));
        steps(fb, &t, 60);
        ck_assert(fakeboard_pattern_done(fb));
        ck_assert_uint_eq(s.phases, 3);
        ck_assert_uint_eq(s.done, 1);
        ck_assert_uint_eq(fakeboard_cur_freq(fb, 4), 200000);
        fakeboard_free(fb);
}
END_TEST

START_TEST(test_temperature)
{
        struct fakeboard *fb = board("exynos5422");

        ck_assert_int_eq(fakeboard_set_temp(fb, 3, 91500), 0);
        assert_file(fb, "/sys/class/thermal/thermal_zone3/temp", "91500\n");
        assert_file(fb, "/sys/class/thermal/thermal_zone2/temp", "45000\n");
        ck_assert_int_eq(fakeboard_set_temp(fb, 5, 1000), -ENOENT);
        fakeboard_free(fb);
}
END_TEST

START_TEST(test_phase_describe)
{
        struct fakeboard_phase p = { .ntasks = 3, .demand = { 600, 300, 300 } };
        char buf[128];

        fakeboard_phase_describe(&p, buf, sizeof(buf));
        ck_assert_str_eq(buf, "1 task of 600 + 2 tasks of 300");
        p = (struct fakeboard_phase){ .ntasks = 2, .demand = { 600, 600 } };
        fakeboard_phase_describe(&p, buf, sizeof(buf));
        ck_assert_str_eq(buf, "2 tasks of 600");
        p = (struct fakeboard_phase){ .ntasks = 0 };
        fakeboard_phase_describe(&p, buf, sizeof(buf));
        ck_assert_str_eq(buf, "no load");
        ck_assert_ptr_nonnull(fakeboard_pattern_find("default"));
        ck_assert_ptr_null(fakeboard_pattern_find("nope"));
}
END_TEST

static Suite *fakeboard_suite(void)
{
        Suite *s = suite_create("fakeboard");
        TCase *tc = tcase_create("board");

        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_unknown_board);
        tcase_add_test(tc, test_exynos_sysfs);
        tcase_add_test(tc, test_x86_sysfs);
        tcase_add_test(tc, test_preload_view);
        tcase_add_test(tc, test_spawn_status_and_partial_line);
        tcase_add_test(tc, test_free_kills_process);
        tcase_add_test(tc, test_refused_writes);
        tcase_add_test(tc, test_placement_and_dvfs);
        tcase_add_test(tc, test_placement_follows_the_cpusets);
        tcase_add_test(tc, test_proc_stat_accounting);
        tcase_add_test(tc, test_cpuidle_accounting);
        tcase_add_test(tc, test_cpuidle_defers_idle);
        tcase_add_test(tc, test_cpuidle_kernel_residency);
        tcase_add_test(tc, test_psi);
        tcase_add_test(tc, test_rewrites_in_place);
        tcase_add_test(tc, test_pattern);
        tcase_add_test(tc, test_temperature);
        tcase_add_test(tc, test_phase_describe);
        suite_add_tcase(s, tc);
        return s;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

int main(void)
{
        char tmp[] = "/tmp/bl-check-fakeboard.XXXXXX";
        SRunner *sr;
        int failed;

        /* Testbeds of tests that fail (Check ends them at once) land here
         * and go with it. */
        if (!mkdtemp(tmp))
                return EXIT_FAILURE;
        setenv("TMPDIR", tmp, 1);
        sr = srunner_create(fakeboard_suite());
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
