/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * State safety of the real bigLittled on the fake Exynos 5422: the CPU
 * state it saves at start, what the next start does when a run died
 * without restoring it (SIGKILL), what it does with a damaged saved state,
 * and the other CPU managers it warns about.
 */
#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/fakeboard/fakeboard.h"

/* Bounds for things that must happen: far above what the delays need. */
#define START_BOUND_MS 5000
#define SWITCH_BOUND_MS 2000
#define EXIT_BOUND_MS 10000
#define UP_DELAY_MS 200

static const char base_config[] =
        "[daemon]\n"
        "sample_interval_ms = 20\n"
        "backend = hotplug\n"
        "[hysteresis]\n"
        "up_threshold = 80\n"
        "down_threshold = 60\n"
        "up_delay_ms = 200\n"
        "down_delay_ms = 300\n"
        "min_residency_ms = 40\n"
        "max_switch_rate_hz = 10\n";

static const unsigned idle_load[] = { 40 };
static const unsigned heavy_load[] = { 600, 600 };

/* One test's world; Check runs each test in its own process. */
static struct fakeboard *fb;
static char workdir[PATH_MAX];
static char runtime_dir[PATH_MAX + 8];
static char saved_file[PATH_MAX + 32];
static char bad_file[PATH_MAX + 32];
static char config_file[PATH_MAX + 32];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

static void write_text(const char *path, const char *text)
{
        FILE *f = fopen(path, "w");

        ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
        ck_assert_int_ge(fputs(text, f), 0);
        ck_assert_int_eq(fclose(f), 0);
}

static void setup(void)
{
        const char *tmp = getenv("TMPDIR");
        int r;

        snprintf(workdir, sizeof(workdir), "%s/bl-crash.XXXXXX", tmp ? tmp : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(workdir));
        snprintf(runtime_dir, sizeof(runtime_dir), "%s/run", workdir);
        snprintf(saved_file, sizeof(saved_file), "%s/saved-state", runtime_dir);
        snprintf(bad_file, sizeof(bad_file), "%s/saved-state.bad", runtime_dir);
        snprintf(config_file, sizeof(config_file), "%s/bigLittle.conf", workdir);
        write_text(config_file, base_config);
        ck_assert_int_eq(setenv("RUNTIME_DIRECTORY", runtime_dir, 1), 0);
        /* No bus: never the machine's own. */
        ck_assert_int_eq(setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/bus", 1), 0);
        r = fakeboard_new("exynos5422", &fb);
        ck_assert_msg(r == 0, "fakeboard_new: %s", strerror(-r));
}

/* Runs only when the test passed: a failed test's process ends at once, its
 * daemon dies with it and main() removes what is left. */
static void teardown(void)
{
        fakeboard_free(fb);
        fb = NULL;
        nftw(workdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The daemon's log so far, for failure messages. */
static const char *log_text(void)
{
        return fakeboard_log_tail(fb);
}

static void spawn_daemon(const char *extra)
{
        char *argv[] = { (char *)DAEMON_PATH, (char *)"--foreground", (char *)"--config", config_file,
                         (char *)extra, NULL };
        int r = fakeboard_spawn(fb, argv, false);

        ck_assert_msg(r == 0, "cannot start %s: %s", DAEMON_PATH, strerror(-r));
}

struct line_wait {
        unsigned from;
        const char *needle;
        int found;
};

static bool line_seen(struct fakeboard *board, void *userdata)
{
        struct line_wait *w = userdata;

        w->found = fakeboard_find_line(board, w->from, w->needle);
        return w->found >= 0 || !fakeboard_running(board);
}

static unsigned expect_line(unsigned from, const char *needle, unsigned timeout_ms)
{
        struct line_wait w = { .from = from, .needle = needle, .found = -1 };
        int r = fakeboard_run(fb, timeout_ms, line_seen, &w);

        ck_assert_int_ge(r, 0);
        ck_assert_msg(w.found >= 0, "no line containing \"%s\" %s; the daemon said:%s", needle,
                      r == 1 ? "before the daemon exited" : "in time", log_text());
        return (unsigned)w.found;
}

static bool set_is(const bl_cpuset *set, const char *list)
{
        bl_cpuset want;

        ck_assert_int_eq(cpuset_parse(&want, list), 0);
        return cpuset_equal(&want, set);
}

static bool online_equals(const char *list)
{
        bl_cpuset now;

        fakeboard_online(fb, &now);
        return set_is(&now, list);
}

static bool online_matches(struct fakeboard *board, void *userdata)
{
        (void)board;
        return online_equals(userdata);
}

static const char *online_text(void)
{
        static char buf[256];
        bl_cpuset now;

        fakeboard_online(fb, &now);
        cpuset_format(&now, buf, sizeof(buf));
        return buf;
}

static void expect_online(const char *list, unsigned timeout_ms)
{
        int r = fakeboard_run(fb, timeout_ms, online_matches, (void *)list);

        ck_assert_int_ge(r, 0);
        ck_assert_msg(r == 1, "online is %s, not %s, after %u ms; the daemon said:%s", online_text(), list,
                      timeout_ms, log_text());
}

static void set_load(const unsigned *demand, unsigned n)
{
        ck_assert_int_eq(fakeboard_set_load(fb, demand, n), 0);
}

static int stop_daemon(int sig)
{
        int status = -1, r;

        ck_assert_int_eq(fakeboard_kill(fb, sig), 0);
        r = fakeboard_wait(fb, EXIT_BOUND_MS, &status);
        ck_assert_msg(r == 0, "the daemon did not exit within %u ms of signal %d; it said:%s", EXIT_BOUND_MS,
                      sig, log_text());
        /* Let the board see the daemon's last writes. */
        ck_assert_int_eq(fakeboard_step(fb, fakeboard_now()), 0);
        return status;
}

static void assert_exit_status(int status, int want)
{
        ck_assert_msg(WIFEXITED(status), "the daemon died of signal %d; it said:%s",
                      WIFSIGNALED(status) ? WTERMSIG(status) : -1, log_text());
        ck_assert_msg(WEXITSTATUS(status) == want, "exit status %d, expected %d; the daemon said:%s",
                      WEXITSTATUS(status), want, log_text());
}

static bool exists(const char *path)
{
        return access(path, F_OK) == 0;
}

/* The saved state's settings, one per line, comments left out. */
static const char *saved_settings(const char *path)
{
        static char buf[1024];
        char line[256];
        size_t len = 0;
        FILE *f = fopen(path, "r");

        ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
        buf[0] = '\0';
        while (fgets(line, sizeof(line), f))
                if (line[0] != '#' && len < sizeof(buf))
                        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s", line);
        fclose(f);
        return buf;
}

static void assert_saved(pid_t pid, const char *online)
{
        char want[256];
        struct stat st;

        snprintf(want, sizeof(want), "backend=hotplug\npid=%ld\nonline=%s\n", (long)pid, online);
        ck_assert_str_eq(saved_settings(saved_file), want);
        ck_assert_int_eq(stat(saved_file, &st), 0);
        ck_assert_uint_eq(st.st_mode & 07777, 0600);
}

START_TEST(test_sigkill_then_restart_reconciles)
{
        char want[256];
        unsigned before, n, reconciled, started;
        bl_cpuset cpus;
        pid_t first, second;

        set_load(idle_load, 1);
        spawn_daemon(NULL);
        expect_line(0, "started: ", START_BOUND_MS);
        expect_online("0-3", SWITCH_BOUND_MS);
        first = fakeboard_pid(fb);
        /* Saved as found at start, not as the daemon made it. */
        assert_saved(first, "0-7");

        set_load(heavy_load, 2);
        expect_online("0,4-7", UP_DELAY_MS + SWITCH_BOUND_MS);
        expect_line(0, "switch little -> big: ", 1000);
        ck_assert_int_eq(stop_daemon(SIGKILL) & 0x7f, SIGKILL);
        ck_assert_msg(online_equals("0,4-7"), "online is %s after SIGKILL", online_text());
        assert_saved(first, "0-7");

        set_load(idle_load, 1);
        before = fakeboard_n_online_changes(fb);
        spawn_daemon(NULL);
        second = fakeboard_pid(fb);
        snprintf(want, sizeof(want),
                 "found the state a previous run saved (backend=hotplug pid=%ld online=0-7): "
                 "restored [online 0-7]",
                 (long)first);
        reconciled = expect_line(0, want, START_BOUND_MS);
        started = expect_line(0, "started: ", START_BOUND_MS);
        ck_assert_uint_lt(reconciled, started);
        ck_assert_msg(strstr(fakeboard_line(fb, started, NULL), "level little [online 0-3]"), "%s",
                      fakeboard_line(fb, started, NULL));
        expect_online("0-3", SWITCH_BOUND_MS);
        ck_assert_msg(!exists(bad_file), "the saved state was put aside:%s", log_text());
        /* Started fresh: what is saved now is what the machine had first. */
        assert_saved(second, "0-7");

        /* The board went back to 0-7 and only then down to little. The board
         * looks at its files once per 5 ms step, so a restore followed at once
         * by the first switch can pass between two looks: the daemon's own
         * lines above say the order; the ordering of the hotplug writes
         * themselves is check_hotplug's. */
        n = fakeboard_n_online_changes(fb);
        ck_assert_uint_gt(n, before);
        ck_assert_int_eq(fakeboard_online_change(fb, n - 1, NULL, &cpus), 0);
        ck_assert(set_is(&cpus, "0-3"));

        assert_exit_status(stop_daemon(SIGTERM), 0);
        expect_line(started, "restored: online 0-7", 100);
        ck_assert_msg(online_equals("0-7"), "online is %s after SIGTERM", online_text());
        ck_assert_msg(!exists(saved_file), "the saved state is still there after a clean exit");
}
END_TEST

START_TEST(test_damaged_saved_state_is_put_aside)
{
        char want[3 * PATH_MAX];
        unsigned started;

        ck_assert_int_eq(mkdir(runtime_dir, 0755), 0);
        write_text(saved_file, "backend=hotplug\nonline=0-3,zz\n");
        set_load(idle_load, 1);
        spawn_daemon(NULL);
        snprintf(want, sizeof(want), "%s:2: online: expected a CPU list, got \"0-3,zz\"", saved_file);
        expect_line(0, want, START_BOUND_MS);
        snprintf(want, sizeof(want), "%s: not used; renamed to %s", saved_file, bad_file);
        expect_line(0, want, START_BOUND_MS);
        started = expect_line(0, "started: ", START_BOUND_MS);
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "found the state"), -ENOENT);
        expect_online("0-3", SWITCH_BOUND_MS);
        ck_assert(exists(bad_file));
        assert_saved(fakeboard_pid(fb), "0-7");
        assert_exit_status(stop_daemon(SIGTERM), 0);
        expect_line(started, "restored: online 0-7", 100);
        ck_assert(!exists(saved_file));
        ck_assert_str_eq(saved_settings(bad_file), "backend=hotplug\nonline=0-3,zz\n");
}
END_TEST

START_TEST(test_unknown_backend_is_put_aside)
{
        char want[3 * PATH_MAX];

        ck_assert_int_eq(mkdir(runtime_dir, 0755), 0);
        write_text(saved_file, "# from the future\nbackend=teleport\nonline=0-7\n");
        spawn_daemon(NULL);
        snprintf(want, sizeof(want), "%s:2: unknown backend \"teleport\"", saved_file);
        expect_line(0, want, START_BOUND_MS);
        expect_line(0, "started: ", START_BOUND_MS);
        ck_assert(exists(bad_file));
        assert_exit_status(stop_daemon(SIGTERM), 0);
}
END_TEST

/* A dry run changes nothing, not even to undo a crashed run: it says so
 * and leaves the file for a real start. */
START_TEST(test_dryrun_leaves_saved_state)
{
        ck_assert_int_eq(mkdir(runtime_dir, 0755), 0);
        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 1, false), 0);
        write_text(saved_file, "backend=hotplug\nonline=0-7\n");
        spawn_daemon("--backend=dryrun");
        expect_line(0, "a previous run did not restore the CPUs; the dryrun backend changes nothing",
                    START_BOUND_MS);
        expect_line(0, "started: ", START_BOUND_MS);
        assert_exit_status(stop_daemon(SIGTERM), 0);
        ck_assert_str_eq(saved_settings(saved_file), "backend=hotplug\nonline=0-7\n");
        ck_assert(online_equals("0,2-7"));
}
END_TEST

START_TEST(test_userspace_governor_is_said)
{
        char path[PATH_MAX];

        ck_assert_int_eq(fakeboard_path(fb, "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor", path,
                                        sizeof(path)), 0);
        write_text(path, "userspace\n");
        spawn_daemon(NULL);
        expect_line(0, "cpufreq policy0 (CPUs 0-3) has the userspace governor: another program sets its "
                       "frequency by hand and may fight the daemon over these CPUs", START_BOUND_MS);
        expect_line(0, "started: ", START_BOUND_MS);
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "policy4"), -ENOENT);
        assert_exit_status(stop_daemon(SIGTERM), 0);
}
END_TEST

static Suite *crash_suite(void)
{
        Suite *s = suite_create("crash");
        TCase *tc = tcase_create("exynos5422");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_sigkill_then_restart_reconciles);
        tcase_add_test(tc, test_damaged_saved_state_is_put_aside);
        tcase_add_test(tc, test_unknown_backend_is_put_aside);
        tcase_add_test(tc, test_dryrun_leaves_saved_state);
        tcase_add_test(tc, test_userspace_governor_is_said);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        char tmp[] = "/tmp/bl-check-crash.XXXXXX";
        SRunner *sr;
        int failed;

        /* What a failed test leaves behind (Check ends its process at once)
         * is under here. */
        if (!mkdtemp(tmp))
                return EXIT_FAILURE;
        setenv("TMPDIR", tmp, 1);
        sr = srunner_create(crash_suite());
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
