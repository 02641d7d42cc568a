/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real bigLittled with the cpuset backend on fake boards with a cgroup
 * v2 tree: written directly (cgroupfs), or through a fake systemd on a
 * private dbus-daemon, which must then be the only writer of the cgroup
 * files. Bounds are generous: the machines running this are shared.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/integration/harness.h"

#define SWITCH_BOUND_MS 3000

#define SYSTEM_CPUS "/sys/fs/cgroup/system.slice/cpuset.cpus"
#define USER_CPUS "/sys/fs/cgroup/user.slice/cpuset.cpus"

#define CONFIG_HEAD                                                                                    \
        "[daemon]\n"                                                                                   \
        "sample_interval_ms = 20\n"                                                                    \
        "backend = cpuset\n"                                                                           \
        "[policy]\n"                                                                                   \
        "heuristics = pelt\n"                                                                          \
        "[hysteresis]\n"                                                                               \
        "up_threshold = 80\n"                                                                          \
        "down_threshold = 60\n"                                                                        \
        "up_delay_ms = 200\n"                                                                          \
        "down_delay_ms = 300\n"                                                                        \
        "min_residency_ms = 40\n"                                                                      \
        "max_switch_rate_hz = 10\n"                                                                    \
        "break_even = no\n"

static const char config_auto[] = CONFIG_HEAD "[cpuset]\ngroups = system.slice, user.slice\nmanager = auto\n";
static const char config_cgroupfs[] = CONFIG_HEAD "[cpuset]\nmanager = cgroupfs\n";

static const unsigned idle_load[] = { 40 };
/* The fake board places tasks on the biggest CPUs first and knows nothing
 * of cpusets: eight tasks so that every CPU has work. */
static const unsigned heavy_load[] = { 600, 600, 600, 600, 600, 600, 600, 600 };

static pid_t fake_systemd;

static void start_daemon(const char *config_text)
{
        spawn_daemon(write_config("bigLittle.conf", config_text), NULL);
}

/* cgroupfs on the Exynos 5422 (LITTLE 0-3, big 4-7): the groups follow the
 * level within what they allowed at start, and SIGTERM puts back the exact
 * text found ("" and "0-5"). Every CPU stays online. */
START_TEST(test_cgroupfs_up_down_restore)
{
        unsigned line;

        new_board("exynos5422");
        write_board_file(USER_CPUS, "0-5\n");
        set_load(idle_load, 1);
        start_daemon(config_auto);
        line = expect_line(0, "started: ", START_BOUND_MS);
        expect_line_has(line, "backend cpuset (configured)");
        expect_line_has(line, "level little [system.slice 0-3, user.slice 0-3 (cgroupfs); 2 writes]");
        assert_file(SYSTEM_CPUS, "0-3");
        assert_file(USER_CPUS, "0-3");

        set_load(heavy_load, 8);
        expect_file(SYSTEM_CPUS, "4-7", SWITCH_BOUND_MS);
        line = expect_line(line, "switch little -> big: ", 1000);
        expect_line_has(line, "[system.slice 4-7, user.slice 4-5 (cgroupfs); 2 writes]");
        assert_file(USER_CPUS, "4-5");

        set_load(idle_load, 1);
        expect_file(SYSTEM_CPUS, "0-3", SWITCH_BOUND_MS);
        expect_line(line, "switch big -> little: ", 1000);
        assert_file(USER_CPUS, "0-3");
        ck_assert_uint_eq(fakeboard_n_online_changes(fb), 0);
        ck_assert_msg(strstr(read_work_file("run/saved-state"),
                             "manager=cgroupfs\ngroup=system.slice \"\"\ngroup=user.slice \"0-5\"\n"),
                      "saved state: %s", read_work_file("run/saved-state"));

        assert_exit_status(stop_daemon(SIGTERM), 0);
        expect_line(0, "restored: as found: system.slice unrestricted, user.slice 0-5 (cgroupfs); 2 writes",
                    100);
        assert_file(SYSTEM_CPUS, "");
        assert_file(USER_CPUS, "0-5");
        ck_assert_int_eq(access(work_file("run/saved-state"), F_OK), -1);
}
END_TEST

/* On the Exynos 5422 with user.slice set to 0-5 ('saved_user' in the
 * manager's form): SIGKILL at the big level leaves the saved state; the
 * next start puts the groups back before recording them, so what it
 * restores at its own exit is what the first run found. */
static void crash_at_big_and_restart(const char *config, const char *manager, const char *saved_user)
{
        char want[160];
        unsigned line;
        int status;

        set_load(heavy_load, 8);
        start_daemon(config);
        expect_line(0, "started: ", START_BOUND_MS);
        expect_file(SYSTEM_CPUS, "4-7", SWITCH_BOUND_MS + 2000);
        /* Under systemd the groups change one call after the other: the
         * switch is done when it is logged. */
        expect_line(0, "switch little -> big: ", SWITCH_BOUND_MS);
        assert_file(USER_CPUS, "4-5");
        status = stop_daemon(SIGKILL);
        ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "status %d", status);
        assert_file(SYSTEM_CPUS, "4-7");

        set_load(idle_load, 1);
        start_daemon(config);
        line = expect_line(0, "found the state a previous run saved", START_BOUND_MS);
        snprintf(want, sizeof(want), "manager=%s group=system.slice \"\" group=user.slice \"%s\"", manager,
                 saved_user);
        expect_line_has(line, want);
        snprintf(want, sizeof(want),
                 "restored [as found: system.slice unrestricted, user.slice 0-5 (%s); 2 writes]", manager);
        expect_line_has(line, want);
        line = expect_line(line, "started: ", START_BOUND_MS);
        snprintf(want, sizeof(want), "level little [system.slice 0-3, user.slice 0-3 (%s); 2 writes]",
                 manager);
        expect_line_has(line, want);
        assert_exit_status(stop_daemon(SIGTERM), 0);
        assert_file(SYSTEM_CPUS, "");
        assert_file(USER_CPUS, "0-5");
}

START_TEST(test_cgroupfs_crash_and_restart)
{
        new_board("exynos5422");
        write_board_file(USER_CPUS, "0-5\n");
        crash_at_big_and_restart(config_cgroupfs, "cgroupfs", "0-5");
}
END_TEST

/* Intel hybrid with user.slice pinned to the P-cores (0-11): at the E-core
 * level it keeps its pin, said once at start; system.slice follows. */
START_TEST(test_cgroupfs_disjoint_group_keeps_its_setting)
{
        unsigned line;

        new_board("intel-hybrid");
        write_board_file(USER_CPUS, "0-11\n");
        set_load(idle_load, 1);
        start_daemon(config_cgroupfs);
        line = expect_line(0, "user.slice is set to CPUs 0-11, which level little has none of; there it "
                              "keeps that setting", START_BOUND_MS);
        ck_assert_int_lt(fakeboard_find_line(fb, line + 1, "user.slice is set to"), 0);
        line = expect_line(line, "started: ", START_BOUND_MS);
        expect_line_has(line, "level little [system.slice 12-19, user.slice 0-11 (cgroupfs); 1 write]");
        assert_file(SYSTEM_CPUS, "12-19");
        assert_file(USER_CPUS, "0-11");
        assert_exit_status(stop_daemon(SIGTERM), 0);
        assert_file(SYSTEM_CPUS, "");
        assert_file(USER_CPUS, "0-11");
}
END_TEST

/* Without the cpuset controller enabled above the groups the daemon does
 * not start, says how to enable it, and changes nothing. */
START_TEST(test_cgroupfs_needs_the_controller)
{
        unsigned line;
        int status;

        new_board("exynos5422");
        write_board_file("/sys/fs/cgroup/cgroup.subtree_control", "cpu io memory pids\n");
        start_daemon(config_cgroupfs);
        status = wait_exit();
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) != 0, "status %d", status);
        line = expect_line(0, "system.slice: the cpuset controller is not enabled for it", 100);
        expect_line_has(line, "echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control");
        assert_file(SYSTEM_CPUS, "");
        assert_file(USER_CPUS, "");
}
END_TEST

struct text_wait {
        const char *name;
        const char *needle;
};

static bool work_file_has(struct fakeboard *board, void *userdata)
{
        const struct text_wait *w = userdata;

        (void)board;
        return strstr(read_work_file(w->name), w->needle) != NULL;
}

static void expect_systemd_log(const char *needle, unsigned timeout_ms);

/* 'option' and 'value': "--set UNIT=HEX" or "--refuse UNIT:N", or NULL. */
static void start_fake_systemd(const char *option, const char *value)
{
        char root[PATH_MAX], log[PATH_MAX + 64];

        snprintf(root, sizeof(root), "%s", fakeboard_root(fb));
        snprintf(log, sizeof(log), "%s", work_file("systemd.log"));
        fake_systemd = harness_fork();
        if (fake_systemd == 0) {
                execl(FAKE_SYSTEMD_PATH, FAKE_SYSTEMD_PATH, root, log, option, value, (char *)NULL);
                _exit(127);
        }
        expect_systemd_log("ready\n", START_BOUND_MS);
}

static void expect_systemd_log(const char *needle, unsigned timeout_ms)
{
        struct text_wait w = { .name = "systemd.log", .needle = needle };
        int r = fakeboard_run(fb, timeout_ms, work_file_has, &w);

        ck_assert_int_ge(r, 0);
        ck_assert_msg(r == 1, "the fake systemd did not log \"%s\"; it logged:\n%s\nthe daemon said:%s",
                      needle, read_work_file("systemd.log"), log_text());
}

/* Only systemd wrote the cgroup files, up to the end. */
static void expect_no_foreign_write(void)
{
        harness_stop_child(fake_systemd);
        ck_assert_msg(strstr(read_work_file("systemd.log"), "stopped\n"),
                      "the fake systemd did not stop:\n%s", read_work_file("systemd.log"));
        ck_assert_msg(!strstr(read_work_file("systemd.log"), "foreign write"),
                      "someone else wrote a cgroup:\n%s", read_work_file("systemd.log"));
}

/* systemd answers: manager = auto goes through it; the daemon sets
 * AllowedCPUs=, never the cgroup files, and puts back the exact masks. */
START_TEST(test_systemd_up_down_restore)
{
        unsigned line;

        new_board("exynos5422");
        harness_start_bus(NULL);
        start_fake_systemd("--set", "user.slice=3f");
        assert_file(USER_CPUS, "0-5");
        set_load(idle_load, 1);
        start_daemon(config_auto);
        line = expect_line(0, "started: ", START_BOUND_MS);
        expect_line_has(line, "level little [system.slice 0-3, user.slice 0-3 (systemd); 2 writes]");
        expect_systemd_log("set system.slice 0f\nset user.slice 0f\n", 100);
        assert_file(SYSTEM_CPUS, "0-3");

        set_load(heavy_load, 8);
        line = expect_line(line, "switch little -> big: ", SWITCH_BOUND_MS);
        expect_line_has(line, "[system.slice 4-7, user.slice 4-5 (systemd); 2 writes]");
        expect_systemd_log("set system.slice f0\nset user.slice 30\n", 100);
        assert_file(USER_CPUS, "4-5");

        set_load(idle_load, 1);
        expect_line(line, "switch big -> little: ", SWITCH_BOUND_MS);
        expect_systemd_log("set system.slice f0\nset user.slice 30\nset system.slice 0f\nset user.slice 0f\n",
                           100);
        ck_assert_msg(strstr(read_work_file("run/saved-state"),
                             "manager=systemd\ngroup=system.slice \"\"\ngroup=user.slice \"3f\"\n"),
                      "saved state: %s", read_work_file("run/saved-state"));

        assert_exit_status(stop_daemon(SIGTERM), 0);
        expect_line(0, "restored: as found: system.slice unrestricted, user.slice 0-5 (systemd); 2 writes",
                    100);
        expect_systemd_log("set system.slice 0f\nset user.slice 0f\nset system.slice \nset user.slice 3f\n",
                           100);
        assert_file(SYSTEM_CPUS, "");
        assert_file(USER_CPUS, "0-5");
        expect_no_foreign_write();
}
END_TEST

/* systemd refuses user.slice's second change (the switch up): the switch
 * fails as a whole, system.slice is put back, the daemon stays at little
 * and switches on its next try. */
START_TEST(test_systemd_refusal_is_undone)
{
        unsigned line;

        new_board("exynos5422");
        harness_start_bus(NULL);
        start_fake_systemd("--refuse", "user.slice:2");
        set_load(idle_load, 1);
        start_daemon(config_auto);
        expect_line(0, "started: ", START_BOUND_MS);
        set_load(heavy_load, 8);
        line = expect_line(0, "switch little -> big failed: user.slice: ", SWITCH_BOUND_MS);
        expect_line_has(line,
                        "Refused (once, for the test); groups written before put back; staying at little");
        expect_systemd_log("set system.slice f0\nrefused user.slice\nset system.slice 0f\n", 100);
        ck_assert(fakeboard_running(fb));
        line = expect_line(line, "switch little -> big: ", SWITCH_BOUND_MS + 2000);
        expect_line_has(line, "[system.slice 4-7, user.slice 4-7 (systemd); 2 writes]");
        expect_systemd_log("set system.slice 0f\nset system.slice f0\nset user.slice f0\n", 100);
        assert_exit_status(stop_daemon(SIGTERM), 0);
        assert_file(SYSTEM_CPUS, "");
        assert_file(USER_CPUS, "");
        expect_no_foreign_write();
}
END_TEST

/* The same crash under systemd: the next start asks systemd to put the
 * masks back, and systemd stays the only writer. */
START_TEST(test_systemd_crash_and_restart)
{
        new_board("exynos5422");
        harness_start_bus(NULL);
        start_fake_systemd("--set", "user.slice=3f");
        crash_at_big_and_restart(config_auto, "systemd", "3f");
        expect_no_foreign_write();
}
END_TEST

static Suite *cpuset_suite(void)
{
        Suite *s = suite_create("cpuset");
        TCase *tc = tcase_create("cgroupfs");

        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_cgroupfs_up_down_restore);
        tcase_add_test(tc, test_cgroupfs_crash_and_restart);
        tcase_add_test(tc, test_cgroupfs_disjoint_group_keeps_its_setting);
        tcase_add_test(tc, test_cgroupfs_needs_the_controller);
        suite_add_tcase(s, tc);

        tc = tcase_create("systemd");
        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_systemd_up_down_restore);
        tcase_add_test(tc, test_systemd_refusal_is_undone);
        tcase_add_test(tc, test_systemd_crash_and_restart);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(cpuset_suite(), "check-cpuset");
}
