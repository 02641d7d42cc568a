/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real bigLittled with the cpuset backend on fake boards with a cgroup
 * v2 tree: written directly (cgroupfs), or through a fake systemd on a
 * private dbus-daemon, which must then be the only writer of the cgroup
 * files. Bounds are generous: the machines running this are shared.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/fakeboard/fakeboard.h"

#define START_BOUND_MS 5000
#define SWITCH_BOUND_MS 3000
#define EXIT_BOUND_MS 10000

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
        "max_switch_rate_hz = 10\n"

static const char config_auto[] = CONFIG_HEAD "[cpuset]\ngroups = system.slice, user.slice\nmanager = auto\n";
static const char config_cgroupfs[] = CONFIG_HEAD "[cpuset]\nmanager = cgroupfs\n";

static const unsigned idle_load[] = { 40 };
/* The fake board places tasks on the biggest CPUs first and knows nothing
 * of cpusets: eight tasks so that every CPU has work. */
static const unsigned heavy_load[] = { 600, 600, 600, 600, 600, 600, 600, 600 };

static struct fakeboard *fb;
static char workdir[PATH_MAX];
static pid_t bus_daemon = -1;
static pid_t fake_systemd = -1;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

static void stop_child(pid_t *pid)
{
        if (*pid <= 0)
                return;
        kill(*pid, SIGTERM);
        while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
                ;
        *pid = -1;
}

static void setup(void)
{
        const char *tmp = getenv("TMPDIR");
        char runtime[PATH_MAX + 8];

        fb = NULL;
        bus_daemon = fake_systemd = -1;
        snprintf(workdir, sizeof(workdir), "%s/bl-test.XXXXXX", tmp ? tmp : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(workdir));
        snprintf(runtime, sizeof(runtime), "%s/run", workdir);
        ck_assert_int_eq(setenv("RUNTIME_DIRECTORY", runtime, 1), 0);
        ck_assert_int_eq(setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/bus", 1), 0);
}

/* Runs only when the test passed: a failed test's process ends at once and
 * its children die with it (PR_SET_PDEATHSIG). */
static void teardown(void)
{
        fakeboard_free(fb);
        fb = NULL;
        stop_child(&fake_systemd);
        stop_child(&bus_daemon);
        nftw(workdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *log_text(void)
{
        return fakeboard_log_tail(fb);
}

static const char *work_file(const char *name)
{
        static char path[PATH_MAX + 64];

        ck_assert_int_lt(snprintf(path, sizeof(path), "%s/%s", workdir, name), (int)sizeof(path));
        return path;
}

static void write_text(const char *path, const char *text)
{
        FILE *f = fopen(path, "w");

        ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
        ck_assert_int_ge(fputs(text, f), 0);
        ck_assert_int_eq(fclose(f), 0);
}

static void new_board(const char *name)
{
        int r = fakeboard_new(name, &fb);

        ck_assert_msg(r == 0, "fakeboard_new(%s): %s", name, strerror(-r));
}

/* Writes a testbed file as an administrator would before the daemon starts. */
static void board_write(const char *path, const char *text)
{
        char full[PATH_MAX];

        ck_assert_int_eq(fakeboard_path(fb, path, full, sizeof(full)), 0);
        write_text(full, text);
}

static void start_daemon(const char *config_text)
{
        char config[PATH_MAX + 64];
        char *argv[] = { (char *)DAEMON_PATH, (char *)"--foreground", (char *)"--config", config, NULL };
        int r;

        snprintf(config, sizeof(config), "%s", work_file("bigLittle.conf"));
        write_text(config, config_text);
        r = fakeboard_spawn(fb, argv, false);
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

static void expect_line_has(unsigned line, const char *needle)
{
        const char *text = fakeboard_line(fb, line, NULL);

        ck_assert_msg(text && strstr(text, needle), "line \"%s\" lacks \"%s\"", text ? text : "(none)",
                      needle);
}

static void read_file_line(const char *path, char *buf, size_t size)
{
        char full[PATH_MAX];
        FILE *f;

        buf[0] = '\0';
        ck_assert_int_eq(fakeboard_path(fb, path, full, sizeof(full)), 0);
        f = fopen(full, "r");
        ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
        if (!fgets(buf, (int)size, f))
                buf[0] = '\0';
        fclose(f);
        buf[strcspn(buf, "\n")] = '\0';
}

struct file_wait {
        const char *path;
        const char *want;
};

static bool file_matches(struct fakeboard *board, void *userdata)
{
        const struct file_wait *w = userdata;
        char now[256];

        (void)board;
        read_file_line(w->path, now, sizeof(now));
        return strcmp(now, w->want) == 0;
}

static void expect_file(const char *path, const char *want, unsigned timeout_ms)
{
        struct file_wait w = { .path = path, .want = want };
        char now[256];
        int r = fakeboard_run(fb, timeout_ms, file_matches, &w);

        ck_assert_int_ge(r, 0);
        read_file_line(path, now, sizeof(now));
        ck_assert_msg(r == 1, "%s is \"%s\", not \"%s\", after %u ms; the daemon said:%s", path, now, want,
                      timeout_ms, log_text());
}

static void assert_file(const char *path, const char *want)
{
        char now[256];

        read_file_line(path, now, sizeof(now));
        ck_assert_msg(strcmp(now, want) == 0, "%s is \"%s\", expected \"%s\"", path, now, want);
}

static void set_load(const unsigned *demand, unsigned n)
{
        ck_assert_int_eq(fakeboard_set_load(fb, demand, n), 0);
}

static void stop_daemon(int sig, int want_status)
{
        int status = -1;

        ck_assert_int_eq(fakeboard_kill(fb, sig), 0);
        ck_assert_int_eq(fakeboard_wait(fb, EXIT_BOUND_MS, &status), 0);
        if (sig == SIGKILL)
                ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "status %d", status);
        else
                ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == want_status,
                              "exit status %d; the daemon said:%s", status, log_text());
}

static const char *read_work_file(const char *name)
{
        static char buf[4096];
        size_t n = 0;
        FILE *f = fopen(work_file(name), "r");

        buf[0] = '\0';
        if (f) {
                n = fread(buf, 1, sizeof(buf) - 1, f);
                fclose(f);
        }
        buf[n] = '\0';
        return buf;
}

/* cgroupfs on the Exynos 5422 (LITTLE 0-3, big 4-7): the groups follow the
 * level within what they allowed at start, and SIGTERM puts back the exact
 * text found ("" and "0-5"). Every CPU stays online. */
START_TEST(test_cgroupfs_up_down_restore)
{
        unsigned line;

        new_board("exynos5422");
        board_write(USER_CPUS, "0-5\n");
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

        stop_daemon(SIGTERM, 0);
        expect_line(0, "restored: as found: system.slice unrestricted, user.slice 0-5 (cgroupfs); 2 writes",
                    100);
        assert_file(SYSTEM_CPUS, "");
        assert_file(USER_CPUS, "0-5");
        ck_assert_int_eq(access(work_file("run/saved-state"), F_OK), -1);
}
END_TEST

/* SIGKILL at the big level leaves the saved state; the next start puts the
 * groups back before recording them, so what it restores at its own exit
 * is what the first run found. */
START_TEST(test_cgroupfs_crash_and_restart)
{
        unsigned line;

        new_board("exynos5422");
        board_write(USER_CPUS, "0-5\n");
        set_load(heavy_load, 8);
        start_daemon(config_cgroupfs);
        expect_line(0, "started: ", START_BOUND_MS);
        expect_file(SYSTEM_CPUS, "4-7", SWITCH_BOUND_MS + 2000);
        assert_file(USER_CPUS, "4-5");
        stop_daemon(SIGKILL, 0);
        assert_file(SYSTEM_CPUS, "4-7");

        set_load(idle_load, 1);
        start_daemon(config_cgroupfs);
        line = expect_line(0, "found the state a previous run saved", START_BOUND_MS);
        expect_line_has(line, "manager=cgroupfs group=system.slice \"\" group=user.slice \"0-5\"");
        expect_line_has(line, "restored [as found: system.slice unrestricted, user.slice 0-5 (cgroupfs); "
                              "2 writes]");
        line = expect_line(line, "started: ", START_BOUND_MS);
        expect_line_has(line, "level little [system.slice 0-3, user.slice 0-3 (cgroupfs); 2 writes]");
        stop_daemon(SIGTERM, 0);
        assert_file(SYSTEM_CPUS, "");
        assert_file(USER_CPUS, "0-5");
}
END_TEST

/* Intel hybrid with user.slice pinned to the P-cores (0-11): at the E-core
 * level it keeps its pin, said once at start; system.slice follows. */
START_TEST(test_cgroupfs_disjoint_group_keeps_its_setting)
{
        unsigned line;

        new_board("intel-hybrid");
        board_write(USER_CPUS, "0-11\n");
        set_load(idle_load, 1);
        start_daemon(config_cgroupfs);
        line = expect_line(0, "user.slice is set to CPUs 0-11, which level little has none of; there it "
                              "keeps that setting", START_BOUND_MS);
        ck_assert_int_lt(fakeboard_find_line(fb, line + 1, "user.slice is set to"), 0);
        line = expect_line(line, "started: ", START_BOUND_MS);
        expect_line_has(line, "level little [system.slice 12-19, user.slice 0-11 (cgroupfs); 1 write]");
        assert_file(SYSTEM_CPUS, "12-19");
        assert_file(USER_CPUS, "0-11");
        stop_daemon(SIGTERM, 0);
        assert_file(SYSTEM_CPUS, "");
        assert_file(USER_CPUS, "0-11");
}
END_TEST

/* Without the cpuset controller enabled above the groups the daemon does
 * not start, says how to enable it, and changes nothing. */
START_TEST(test_cgroupfs_needs_the_controller)
{
        int status = -1;
        unsigned line;

        new_board("exynos5422");
        board_write("/sys/fs/cgroup/cgroup.subtree_control", "cpu io memory pids\n");
        start_daemon(config_cgroupfs);
        ck_assert_int_eq(fakeboard_wait(fb, EXIT_BOUND_MS, &status), 0);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) != 0, "status %d", status);
        line = expect_line(0, "system.slice: the cpuset controller is not enabled for it", 100);
        expect_line_has(line, "echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control");
        assert_file(SYSTEM_CPUS, "");
        assert_file(USER_CPUS, "");
}
END_TEST

static const char open_policy[] =
        "  <policy context=\"default\">\n"
        "    <allow user=\"*\"/>\n"
        "    <allow own=\"*\"/>\n"
        "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
        "    <allow eavesdrop=\"true\"/>\n"
        "  </policy>\n";

/* A dbus-daemon listening in workdir, named by DBUS_SYSTEM_BUS_ADDRESS for
 * us and our children. */
static void start_bus(void)
{
        char config[2 * PATH_MAX + 1024], arg[PATH_MAX + 80], address[PATH_MAX + 64], sock[PATH_MAX + 64];
        pid_t parent = getpid();
        int pipefd[2], log;
        ssize_t n;
        size_t len = 0;

        snprintf(sock, sizeof(sock), "%s", work_file("bus"));
        snprintf(config, sizeof(config),
                 "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
                 " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                 "<busconfig>\n"
                 "  <listen>unix:path=%s</listen>\n"
                 "  <auth>EXTERNAL</auth>\n"
                 "%s"
                 "</busconfig>\n",
                 sock, open_policy);
        write_text(work_file("bus.conf"), config);
        snprintf(arg, sizeof(arg), "--config-file=%s", work_file("bus.conf"));
        log = open(work_file("bus.log"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        ck_assert_int_ge(log, 0);
        ck_assert_int_eq(pipe(pipefd), 0);
        bus_daemon = fork();
        ck_assert_int_ge(bus_daemon, 0);
        if (bus_daemon == 0) {
                if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
                        _exit(127);
                close(pipefd[0]);
                if (dup2(log, STDERR_FILENO) < 0 || dup2(pipefd[1], 3) < 0)
                        _exit(127);
                execlp("dbus-daemon", "dbus-daemon", arg, "--nofork", "--nopidfile", "--nosyslog",
                       "--print-address=3", (char *)NULL);
                _exit(127);
        }
        close(pipefd[1]);
        close(log);
        while (len < sizeof(address) - 1 &&
               (n = read(pipefd[0], address + len, sizeof(address) - 1 - len)) > 0) {
                len += (size_t)n;
                if (memchr(address, '\n', len))
                        break;
        }
        close(pipefd[0]);
        address[len] = '\0';
        ck_assert_msg(strchr(address, '\n'), "dbus-daemon did not start: %s", read_work_file("bus.log"));
        address[strcspn(address, "\n")] = '\0';
        ck_assert_int_eq(setenv("DBUS_SYSTEM_BUS_ADDRESS", address, 1), 0);
}

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
        pid_t parent = getpid();

        snprintf(root, sizeof(root), "%s", fakeboard_root(fb));
        snprintf(log, sizeof(log), "%s", work_file("systemd.log"));
        fflush(NULL);
        fake_systemd = fork();
        ck_assert_int_ge(fake_systemd, 0);
        if (fake_systemd == 0) {
                if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
                        _exit(127);
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
        stop_child(&fake_systemd);
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
        start_bus();
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

        stop_daemon(SIGTERM, 0);
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
        start_bus();
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
        stop_daemon(SIGTERM, 0);
        assert_file(SYSTEM_CPUS, "");
        assert_file(USER_CPUS, "");
        expect_no_foreign_write();
}
END_TEST

static Suite *cpuset_suite(void)
{
        Suite *s = suite_create("cpuset");
        TCase *tc = tcase_create("cgroupfs");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_cgroupfs_up_down_restore);
        tcase_add_test(tc, test_cgroupfs_crash_and_restart);
        tcase_add_test(tc, test_cgroupfs_disjoint_group_keeps_its_setting);
        tcase_add_test(tc, test_cgroupfs_needs_the_controller);
        suite_add_tcase(s, tc);

        tc = tcase_create("systemd");
        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_systemd_up_down_restore);
        tcase_add_test(tc, test_systemd_refusal_is_undone);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        char tmp[] = "/tmp/bl-check-cpuset.XXXXXX";
        SRunner *sr;
        int failed;

        /* What a failed test leaves behind (Check ends its process at once). */
        if (!mkdtemp(tmp))
                return EXIT_FAILURE;
        setenv("TMPDIR", tmp, 1);
        sr = srunner_create(cpuset_suite());
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
