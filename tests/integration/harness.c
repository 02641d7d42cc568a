/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/integration/harness.h"

#define MAX_ARGS 16
#define MAX_CHILDREN 8

struct fakeboard *fb;

static char workdir[PATH_MAX];
static char runtime_dir[PATH_MAX + 8];
/* The helper processes to stop at teardown, oldest first. */
static pid_t children[MAX_CHILDREN];
static unsigned nchildren;
static pid_t bus_pid;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

static void remove_tree(const char *path)
{
        nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void harness_setup(void)
{
        const char *tmp = getenv("TMPDIR");

        fb = NULL;
        nchildren = 0;
        bus_pid = 0;
        snprintf(workdir, sizeof(workdir), "%s/bl-test.XXXXXX", tmp ? tmp : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(workdir));
        snprintf(runtime_dir, sizeof(runtime_dir), "%s/run", workdir);
        /* Saved state and holds go to the test's own directory, not /run. */
        ck_assert_int_eq(setenv("RUNTIME_DIRECTORY", runtime_dir, 1), 0);
        /* No bus here: never the machine's own. */
        ck_assert_int_eq(setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/bus", 1), 0);
}

static void stop_child(pid_t pid)
{
        kill(pid, SIGTERM);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
}

void harness_teardown(void)
{
        fakeboard_free(fb);
        fb = NULL;
        /* Newest first: the bus goes last, after those connected to it. */
        while (nchildren > 0)
                stop_child(children[--nchildren]);
        remove_tree(workdir);
}

int harness_main(Suite *suite, const char *name)
{
        char tmp[PATH_MAX];
        SRunner *sr;
        int failed;

        /* Everything a failed test leaves behind (Check ends its process at
         * once) is under here: testbeds, configurations, saved states. */
        snprintf(tmp, sizeof(tmp), "/tmp/bl-%s.XXXXXX", name);
        if (!mkdtemp(tmp) || chmod(tmp, 0755) < 0)
                return EXIT_FAILURE;
        setenv("TMPDIR", tmp, 1);
        /* The fake board plays a kernel, whose counters are never late; a
         * board step that runs late on a loaded machine reads as busy time
         * to the daemon, which divides by its own clock. So the board and
         * the programs it runs go ahead of other work where allowed (root,
         * as in CI); elsewhere they keep the priority they were given. */
        (void)setpriority(PRIO_PROCESS, 0, -10);
        sr = srunner_create(suite);
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        remove_tree(tmp);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

const char *write_pelt_config(const char *extra)
{
        static char text[sizeof(HARNESS_PELT_CONFIG) + 4096];

        ck_assert_int_lt(snprintf(text, sizeof(text), "%s%s", HARNESS_PELT_CONFIG, extra ? extra : ""),
                         (int)sizeof(text));
        return write_config("bigLittle.conf", text);
}

bool harness_is_root(void)
{
        return getuid() == 0;
}

TCase *harness_root_tcase(const char *name)
{
        /* Check keeps the pointer: the name must outlive the suite. */
        static char names[4][128];
        static unsigned n;

        /* Called while the suite is built, outside a test: no ck_assert. */
        if (n == 4)
                abort();
        snprintf(names[n], sizeof(names[n]), "%s%s", name, harness_is_root() ? "" : " # SKIP not root");
        return tcase_create(names[n++]);
}

const char *work_file(const char *name)
{
        static char path[PATH_MAX + 64];

        ck_assert_int_lt(snprintf(path, sizeof(path), "%s/%s", workdir, name), (int)sizeof(path));
        return path;
}

const char *read_work_file(const char *name)
{
        static char buf[8192];
        size_t n = 0;
        FILE *f = fopen(work_file(name), "r");

        if (f) {
                n = fread(buf, 1, sizeof(buf) - 1, f);
                fclose(f);
        }
        buf[n] = '\0';
        return buf;
}

char *read_whole_file(const char *path)
{
        FILE *f = fopen(path, "r");
        char *text;
        long n;

        ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
        ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
        n = ftell(f);
        ck_assert_int_ge(n, 0);
        rewind(f);
        text = calloc(1, (size_t)n + 1);
        ck_assert_ptr_nonnull(text);
        ck_assert_uint_eq(fread(text, 1, (size_t)n, f), (size_t)n);
        fclose(f);
        return text;
}

const char *text_tail(const char *text, size_t max)
{
        size_t n = strlen(text);

        return n > max ? text + n - max : text;
}

const char *harness_workdir(void)
{
        return workdir;
}

const char *harness_runtime_dir(void)
{
        return runtime_dir;
}

void new_board(const char *name)
{
        int r = fakeboard_new(name, &fb);

        ck_assert_msg(r == 0, "fakeboard_new(%s): %s", name, strerror(-r));
}

const char *write_config(const char *name, const char *text)
{
        /* Not work_file()'s: callers keep this path across other calls. */
        static char path[PATH_MAX + 64];
        FILE *f;

        snprintf(path, sizeof(path), "%s", work_file(name));
        f = fopen(path, "w");
        ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
        ck_assert_int_ge(fputs(text, f), 0);
        ck_assert_int_eq(fclose(f), 0);
        return path;
}

const char *write_fast_config(const char *backend, const struct fast_timing *t, const char *extra)
{
        char text[4096];

        ck_assert_int_lt(snprintf(text, sizeof(text),
                                  "[daemon]\n"
                                  "sample_interval_ms = 10\n"
                                  "backend = %s\n"
                                  "[policy]\n"
                                  "heuristics = pelt\n"
                                  "[hysteresis]\n"
                                  "up_threshold = 80\n"
                                  "down_threshold = 60\n"
                                  "up_delay_ms = %u\n"
                                  "down_delay_ms = %u\n"
                                  "min_residency_ms = %u\n"
                                  "max_switch_rate_hz = %u\n"
                                  /* These tests time the mechanism: a switch
                                   * down must not wait for the measured
                                   * cost (slowed writes) to pay back. */
                                  "break_even = no\n"
                                  "%s",
                                  backend, t->up_delay_ms, t->down_delay_ms, t->min_residency_ms,
                                  t->max_switch_rate_hz, extra),
                         (int)sizeof(text));
        return write_config("bigLittle.conf", text);
}

void spawn_daemon(const char *config, ...)
{
        char *argv[MAX_ARGS] = { (char *)DAEMON_PATH, (char *)"--foreground", (char *)"--config",
                                 (char *)config };
        unsigned argc = 4;
        const char *arg;
        va_list ap;
        int r;

        va_start(ap, config);
        while ((arg = va_arg(ap, const char *)))
                if (argc < MAX_ARGS - 1)
                        argv[argc++] = (char *)arg;
        va_end(ap);
        argv[argc] = NULL;
        r = fakeboard_spawn(fb, argv, false);
        ck_assert_msg(r == 0, "cannot start %s: %s", DAEMON_PATH, strerror(-r));
}

const char *log_text(void)
{
        return fakeboard_log_tail(fb);
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

unsigned expect_line(unsigned from, const char *needle, unsigned timeout_ms)
{
        struct line_wait w = { .from = from, .needle = needle, .found = -1 };
        int r = fakeboard_run(fb, timeout_ms, line_seen, &w);

        ck_assert_int_ge(r, 0);
        ck_assert_msg(w.found >= 0, "no line containing \"%s\" %s; the daemon said:%s", needle,
                      r == 1 ? "before the daemon exited" : "in time", log_text());
        return (unsigned)w.found;
}

void expect_line_has(unsigned line, const char *needle)
{
        const char *text = fakeboard_line(fb, line, NULL);

        ck_assert_msg(text && strstr(text, needle), "line \"%s\" lacks \"%s\"", text ? text : "(none)",
                      needle);
}

unsigned count_lines(unsigned from, const char *needle)
{
        unsigned n = 0;
        int i;

        while ((i = fakeboard_find_line(fb, from, needle)) >= 0) {
                n++;
                from = (unsigned)i + 1;
        }
        return n;
}

void set_load(const unsigned *demand, unsigned n)
{
        ck_assert_int_eq(fakeboard_set_load(fb, demand, n), 0);
}

bool online_equals(const char *list)
{
        bl_cpumask want, now;

        ck_assert_int_eq(cpumask_parse(&want, list), 0);
        fakeboard_online(fb, &now);
        return cpumask_equal(&want, &now);
}

bool board_file_exists(const char *path)
{
        char full[PATH_MAX];

        ck_assert_int_eq(fakeboard_path(fb, path, full, sizeof(full)), 0);
        return access(full, F_OK) == 0;
}

const char *online_files(void)
{
        static char buf[256];
        char path[64], value[8];
        bl_cpumask online;

        cpumask_zero(&online);
        for (unsigned cpu = 0; cpu < fakeboard_desc(fb)->ncpus; cpu++) {
                snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u", cpu);
                if (!board_file_exists(path))
                        continue;
                snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/online", cpu);
                if (board_file_exists(path))
                        read_board_file(path, value, sizeof(value));
                else
                        snprintf(value, sizeof(value), "1");
                if (strcmp(value, "1") == 0)
                        cpumask_set(&online, cpu);
        }
        cpumask_format(&online, buf, sizeof(buf));
        return buf;
}

static bool online_matches(struct fakeboard *board, void *userdata)
{
        (void)board;
        return online_equals(userdata);
}

const char *online_text(void)
{
        static char buf[256];
        bl_cpumask now;

        fakeboard_online(fb, &now);
        cpumask_format(&now, buf, sizeof(buf));
        return buf;
}

bl_usec_t expect_online(const char *list, unsigned timeout_ms)
{
        bl_usec_t when = fakeboard_now();
        unsigned n;
        int r = fakeboard_run(fb, timeout_ms, online_matches, (void *)list);

        ck_assert_int_ge(r, 0);
        ck_assert_msg(r == 1, "online is %s, not %s, after %u ms; the daemon said:%s", online_text(), list,
                      timeout_ms, log_text());
        n = fakeboard_n_online_changes(fb);
        if (n > 0)
                ck_assert_int_eq(fakeboard_online_change(fb, n - 1, &when, NULL), 0);
        return when;
}

void expect_online_stays(const char *list, unsigned ms)
{
        unsigned before = fakeboard_n_online_changes(fb);

        ck_assert_msg(online_equals(list), "online is %s, not %s", online_text(), list);
        ck_assert_int_eq(fakeboard_run_for(fb, ms), 0);
        ck_assert_msg(fakeboard_n_online_changes(fb) == before && online_equals(list),
                      "online changed to %s within %u ms; the daemon said:%s", online_text(), ms, log_text());
}

int stop_daemon(int sig)
{
        int status = -1, r;

        ck_assert_int_eq(fakeboard_kill(fb, sig), 0);
        r = fakeboard_wait(fb, EXIT_BOUND_MS, &status);
        ck_assert_msg(r == 0, "the daemon did not exit within %u ms of signal %d; it said:%s", EXIT_BOUND_MS,
                      sig, log_text());
        ck_assert_int_eq(fakeboard_step(fb, fakeboard_now()), 0);
        return status;
}

int wait_exit(void)
{
        int status = -1;
        int r = fakeboard_wait(fb, EXIT_BOUND_MS, &status);

        ck_assert_msg(r == 0, "the daemon still runs after %u ms; it said:%s", EXIT_BOUND_MS, log_text());
        return status;
}

void assert_exit_status(int status, int want)
{
        ck_assert_msg(WIFEXITED(status), "the daemon died of signal %d; it said:%s",
                      WIFSIGNALED(status) ? WTERMSIG(status) : -1, log_text());
        ck_assert_msg(WEXITSTATUS(status) == want, "exit status %d, expected %d; the daemon said:%s",
                      WEXITSTATUS(status), want, log_text());
}

void read_board_file(const char *path, char *buf, size_t size)
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

void write_board_file(const char *path, const char *text)
{
        char full[PATH_MAX];
        FILE *f;

        ck_assert_int_eq(fakeboard_path(fb, path, full, sizeof(full)), 0);
        f = fopen(full, "w");
        ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
        ck_assert_int_ge(fputs(text, f), 0);
        ck_assert_int_eq(fclose(f), 0);
}

void assert_file(const char *path, const char *want)
{
        char now[256];

        read_board_file(path, now, sizeof(now));
        ck_assert_msg(strcmp(now, want) == 0, "%s is \"%s\", expected \"%s\"; the daemon said:%s", path, now,
                      want, log_text());
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
        read_board_file(w->path, now, sizeof(now));
        return strcmp(now, w->want) == 0;
}

void expect_file(const char *path, const char *want, unsigned timeout_ms)
{
        struct file_wait w = { .path = path, .want = want };
        char now[256];
        int r = fakeboard_run(fb, timeout_ms, file_matches, &w);

        ck_assert_int_ge(r, 0);
        read_board_file(path, now, sizeof(now));
        ck_assert_msg(r == 1, "%s is \"%s\", not \"%s\", after %u ms; the daemon said:%s", path, now, want,
                      timeout_ms, log_text());
}

pid_t harness_fork(void)
{
        pid_t parent = getpid(), pid;

        ck_assert_uint_lt(nchildren, MAX_CHILDREN);
        /* Or the child's exit flushes our buffered output a second time. */
        fflush(NULL);
        pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
                /* Check's handler would take the whole test down with us. */
                signal(SIGTERM, SIG_DFL);
                if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
                        _exit(127);
                return 0;
        }
        children[nchildren++] = pid;
        return pid;
}

void harness_stop_child(pid_t pid)
{
        for (unsigned i = 0; i < nchildren; i++)
                if (children[i] == pid) {
                        stop_child(pid);
                        children[i] = children[--nchildren];
                        return;
                }
        ck_abort_msg("%d is no helper process of this test", (int)pid);
}

pid_t harness_exec_to_files(char *const argv[], const char *out, const char *err)
{
        pid_t pid;

        /* Or the child's exit flushes our buffered output a second time. */
        fflush(NULL);
        pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
                int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
                int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

                /* Check's handler would take the whole test down with it. */
                signal(SIGTERM, SIG_DFL);
                if (o < 0 || e < 0 || prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || dup2(o, STDOUT_FILENO) < 0 ||
                    dup2(e, STDERR_FILENO) < 0)
                        _exit(127);
                execv(argv[0], argv);
                _exit(127);
        }
        return pid;
}

static const char open_bus_policy[] =
        "  <policy context=\"default\">\n"
        "    <allow user=\"*\"/>\n"
        "    <allow own=\"*\"/>\n"
        "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
        "    <allow eavesdrop=\"true\"/>\n"
        "  </policy>\n";

const char *harness_start_bus(const char *policy)
{
        static char address[PATH_MAX + 64];
        char config[2 * PATH_MAX + 4096], arg[PATH_MAX + 80];
        int pipefd[2], log;
        ssize_t n;
        size_t len = 0;
        pid_t pid;

        ck_assert_int_lt(snprintf(config, sizeof(config),
                                  "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration "
                                  "1.0//EN\"\n"
                                  " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                                  "<busconfig>\n"
                                  "  <listen>unix:path=%s</listen>\n"
                                  "  <auth>EXTERNAL</auth>\n"
                                  "%s"
                                  "</busconfig>\n",
                                  work_file("bus"), policy ? policy : open_bus_policy),
                         (int)sizeof(config));
        snprintf(arg, sizeof(arg), "--config-file=%s", write_config("bus.conf", config));
        /* Users other than ours reach the socket through it. */
        ck_assert_int_eq(chmod(workdir, 0755), 0);
        /* What it says (refusals, and complaints about the fd limit in a
         * container) goes to bus.log, shown when it fails to start. */
        log = open(work_file("bus.log"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        ck_assert_int_ge(log, 0);
        ck_assert_int_eq(pipe(pipefd), 0);
        pid = harness_fork();
        if (pid == 0) {
                close(pipefd[0]);
                if (dup2(log, STDERR_FILENO) < 0 || dup2(pipefd[1], 3) < 0)
                        _exit(127);
                /* The socket is made 0777 & ~umask: every user must be able to connect. */
                umask(0);
                execlp("dbus-daemon", "dbus-daemon", arg, "--nofork", "--nopidfile", "--nosyslog",
                       "--print-address=3", (char *)NULL);
                fprintf(stderr, "cannot run dbus-daemon (install the dbus-daemon package): %s\n",
                        strerror(errno));
                _exit(127);
        }
        bus_pid = pid;
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
        ck_assert_msg(strchr(address, '\n'), "dbus-daemon did not start (is the dbus-daemon package "
                      "installed?): %s", read_work_file("bus.log"));
        address[strcspn(address, "\n")] = '\0';
        ck_assert_int_eq(setenv("DBUS_SYSTEM_BUS_ADDRESS", address, 1), 0);
        return address;
}

int harness_memory(pid_t pid, unsigned long *rss_kib, unsigned long *dirty_kib)
{
        char path[64], line[256];
        unsigned found = 0;
        FILE *f;

        snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
        f = fopen(path, "re");
        if (!f)
                return -errno;
        while (fgets(line, sizeof(line), f)) {
                if (sscanf(line, "Rss: %lu kB", rss_kib) == 1)
                        found |= 1;
                if (sscanf(line, "Private_Dirty: %lu kB", dirty_kib) == 1)
                        found |= 2;
        }
        fclose(f);
        return found == 3 ? 0 : -ENODATA;
}

bool harness_memory_comparable(void)
{
#ifdef __SANITIZE_ADDRESS__
        return false;
#else
        return true;
#endif
}

void harness_stop_bus(void)
{
        ck_assert_msg(bus_pid > 0, "no bus was started");
        harness_stop_child(bus_pid);
        bus_pid = 0;
}

const char *harness_saved_settings(void)
{
        static char buf[1024];
        char path[sizeof(runtime_dir) + 16], line[512];
        size_t len = 0;
        FILE *f;

        snprintf(path, sizeof(path), "%s/saved-state", runtime_dir);
        buf[0] = '\0';
        f = fopen(path, "r");
        if (!f) {
                ck_assert_int_eq(errno, ENOENT);
                return buf;
        }
        while (fgets(line, sizeof(line), f))
                if (line[0] != '#' && strncmp(line, "pid=", 4) != 0 && len < sizeof(buf))
                        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s", line);
        fclose(f);
        return buf;
}

int harness_run(const char *cmd, char *out, size_t size)
{
        char line[PATH_MAX + 512];
        size_t len = 0;
        FILE *p;
        int status;

        snprintf(line, sizeof(line), "%s 2>&1", cmd);
        p = popen(line, "r");
        ck_assert_ptr_nonnull(p);
        while (len + 1 < size && fgets(out + len, (int)(size - len), p))
                len += strlen(out + len);
        out[len] = '\0';
        status = pclose(p);
        ck_assert_msg(WIFEXITED(status), "%s did not exit", cmd);
        return WEXITSTATUS(status);
}
