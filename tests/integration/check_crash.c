/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * State safety of the real bigLittled on the fake Exynos 5422: the CPU
 * state it saves at start, what the next start does when a run died
 * without restoring it (SIGKILL), what it does with a damaged saved state,
 * and the other CPU managers it warns about.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/integration/harness.h"

#define SWITCH_BOUND_MS 2000
#define UP_DELAY_MS 200

static const unsigned idle_load[] = { 40 };
static const unsigned heavy_load[] = { 600, 600 };

static char runtime_dir[PATH_MAX + 8];
static char saved_file[PATH_MAX + 32];
static char bad_file[PATH_MAX + 32];
static char config_file[PATH_MAX + 64];

static void write_text(const char *path, const char *text)
{
        FILE *f = fopen(path, "w");

        ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
        ck_assert_int_ge(fputs(text, f), 0);
        ck_assert_int_eq(fclose(f), 0);
}

/* A saved state as the daemon writes it: the header line, mode 0600. */
static void write_state(const char *path, const char *text)
{
        char buf[1024];

        snprintf(buf, sizeof(buf), "# bigLittle saved-state v1\n%s", text);
        write_text(path, buf);
        ck_assert_int_eq(chmod(path, 0600), 0);
}

static void setup(void)
{
        harness_setup();
        snprintf(runtime_dir, sizeof(runtime_dir), "%s", harness_runtime_dir());
        snprintf(saved_file, sizeof(saved_file), "%s/saved-state", runtime_dir);
        snprintf(bad_file, sizeof(bad_file), "%s/saved-state.bad", runtime_dir);
        snprintf(config_file, sizeof(config_file), "%s", write_pelt_config(NULL));
        new_board("exynos5422");
}

static void spawn(const char *extra)
{
        spawn_daemon(config_file, extra, NULL);
}

static bool set_is(const bl_cpumask *set, const char *list)
{
        bl_cpumask want;

        ck_assert_int_eq(cpumask_parse(&want, list), 0);
        return cpumask_equal(&want, set);
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
        bl_cpumask cpus;
        pid_t first, second;

        set_load(idle_load, 1);
        spawn(NULL);
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
        spawn(NULL);
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
        write_state(saved_file, "backend=hotplug\nonline=0-3,x!y\n");
        set_load(idle_load, 1);
        spawn(NULL);
        /* The value is not repeated: the file may be another one. ("x!y"
         * cannot be in the path, which mkdtemp() made of letters and digits.) */
        snprintf(want, sizeof(want), "%s:3: online: expected a CPU list", saved_file);
        expect_line(0, want, START_BOUND_MS);
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "x!y"), -ENOENT);
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
        ck_assert_str_eq(saved_settings(bad_file), "backend=hotplug\nonline=0-3,x!y\n");
}
END_TEST

START_TEST(test_unknown_backend_is_put_aside)
{
        char want[3 * PATH_MAX];

        ck_assert_int_eq(mkdir(runtime_dir, 0755), 0);
        write_state(saved_file, "# from the future\nbackend=teleport\nonline=0-7\n");
        spawn(NULL);
        snprintf(want, sizeof(want), "%s:3: backend: not one this bigLittled has", saved_file);
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
        write_state(saved_file, "backend=hotplug\nonline=0-7\n");
        spawn("--backend=dryrun");
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
        spawn(NULL);
        expect_line(0, "cpufreq policy0 (CPUs 0-3) has the userspace governor: another program sets its "
                       "frequency by hand and may fight the daemon over these CPUs", START_BOUND_MS);
        expect_line(0, "started: ", START_BOUND_MS);
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "policy4"), -ENOENT);
        assert_exit_status(stop_daemon(SIGTERM), 0);
}
END_TEST

/* Issue 18 item 2: a saved state linked to another file (/etc/shadow in
 * the attack) is not followed: none of that file's lines reaches the log,
 * the link is put aside and the daemon starts. */
START_TEST(test_linked_saved_state_is_not_read)
{
        char secret[PATH_MAX + 16], want[3 * PATH_MAX];
        struct stat st;

        ck_assert_int_eq(mkdir(runtime_dir, 0755), 0);
        snprintf(secret, sizeof(secret), "%s/shadow", runtime_dir);
        write_state(secret, "root:$6$saltsalt$hash:19000:0:99999:7:::\nbackend=hotplug\nonline=0-7\n");
        ck_assert_int_eq(symlink(secret, saved_file), 0);
        spawn(NULL);
        snprintf(want, sizeof(want), "%s: is a symbolic link", saved_file);
        expect_line(0, want, START_BOUND_MS);
        snprintf(want, sizeof(want), "%s: not used; renamed to %s", saved_file, bad_file);
        expect_line(0, want, START_BOUND_MS);
        expect_line(0, "started: ", START_BOUND_MS);
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "saltsalt"), -ENOENT);
        ck_assert_int_eq(lstat(bad_file, &st), 0);
        ck_assert(S_ISLNK(st.st_mode));
        assert_exit_status(stop_daemon(SIGTERM), 0);
}
END_TEST

/* Issue 18 item 8: a file without the header, or of a version this daemon
 * does not read, is not restored: said at line 1 and put aside. */
START_TEST(test_unknown_version_is_not_restored)
{
        char want[3 * PATH_MAX];

        ck_assert_int_eq(mkdir(runtime_dir, 0755), 0);
        write_text(saved_file, "# bigLittle saved-state v99\nbackend=hotplug\nonline=0-7\n");
        ck_assert_int_eq(chmod(saved_file, 0600), 0);
        spawn(NULL);
        snprintf(want, sizeof(want), "%s:1: format version 99; this bigLittled reads version 1 only", saved_file);
        expect_line(0, want, START_BOUND_MS);
        snprintf(want, sizeof(want), "%s: not used; renamed to %s", saved_file, bad_file);
        expect_line(0, want, START_BOUND_MS);
        expect_line(0, "started: ", START_BOUND_MS);
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "found the state"), -ENOENT);
        ck_assert(exists(bad_file));
        assert_exit_status(stop_daemon(SIGTERM), 0);

        write_text(saved_file, "backend=hotplug\nonline=0-7\n");
        ck_assert_int_eq(chmod(saved_file, 0600), 0);
        ck_assert_int_eq(unlink(bad_file), 0);
        spawn(NULL);
        snprintf(want, sizeof(want), "%s:1: no \"# bigLittle saved-state v1\" header: not a file bigLittled wrote",
                 saved_file);
        expect_line(0, want, START_BOUND_MS);
        expect_line(0, "started: ", START_BOUND_MS);
        ck_assert(exists(bad_file));
        assert_exit_status(stop_daemon(SIGTERM), 0);
}
END_TEST

/* Issue 18 items 3 and 8: a directory in the saved state's place used to
 * stop every start, a FIFO to hang it; both are put aside and the daemon
 * starts. A FIFO holds store is refused at once too. */
START_TEST(test_saved_state_directory_or_fifo_is_put_aside)
{
        char want[3 * PATH_MAX], holds[PATH_MAX + 16];
        struct stat st;

        ck_assert_int_eq(mkdir(runtime_dir, 0755), 0);
        ck_assert_int_eq(mkdir(saved_file, 0700), 0);
        spawn(NULL);
        snprintf(want, sizeof(want), "%s: not a regular file (directory)", saved_file);
        expect_line(0, want, START_BOUND_MS);
        expect_line(0, "started: ", START_BOUND_MS);
        ck_assert_int_eq(stat(bad_file, &st), 0);
        ck_assert(S_ISDIR(st.st_mode));
        assert_saved(fakeboard_pid(fb), "0-7");
        assert_exit_status(stop_daemon(SIGTERM), 0);

        ck_assert_int_eq(rmdir(bad_file), 0);
        ck_assert_int_eq(mkfifo(saved_file, 0600), 0);
        snprintf(holds, sizeof(holds), "%s/holds", runtime_dir);
        ck_assert_int_eq(mkfifo(holds, 0600), 0);
        spawn(NULL);
        snprintf(want, sizeof(want), "%s: not a regular file (FIFO)", saved_file);
        expect_line(0, want, START_BOUND_MS);
        snprintf(want, sizeof(want), "%s: not a regular file (FIFO); no hold restored", holds);
        expect_line(0, want, START_BOUND_MS);
        expect_line(0, "started: ", START_BOUND_MS);
        ck_assert_int_eq(stat(bad_file, &st), 0);
        ck_assert(S_ISFIFO(st.st_mode));
        assert_exit_status(stop_daemon(SIGTERM), 0);
}
END_TEST

static Suite *crash_suite(void)
{
        Suite *s = suite_create("crash");
        TCase *tc = tcase_create("exynos5422");

        tcase_add_checked_fixture(tc, setup, harness_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_sigkill_then_restart_reconciles);
        tcase_add_test(tc, test_damaged_saved_state_is_put_aside);
        tcase_add_test(tc, test_unknown_backend_is_put_aside);
        tcase_add_test(tc, test_dryrun_leaves_saved_state);
        tcase_add_test(tc, test_userspace_governor_is_said);
        tcase_add_test(tc, test_linked_saved_state_is_not_read);
        tcase_add_test(tc, test_unknown_version_is_not_restored);
        tcase_add_test(tc, test_saved_state_directory_or_fifo_is_put_aside);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(crash_suite(), "check-crash");
}
