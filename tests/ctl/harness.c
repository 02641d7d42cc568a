/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

#include "tests/ctl/harness.h"

#define NOBODY 65534
#define START_TIMEOUT_MS 10000

const char *harness_base_dir;

static void write_text(const char *path, const char *text)
{
        FILE *f = fopen(path, "we");

        ck_assert_msg(f, "%s: %s", path, strerror(errno));
        fputs(text, f);
        ck_assert_int_eq(fclose(f), 0);
}

static char *read_text(const char *path)
{
        FILE *f = fopen(path, "re");
        char *text = NULL;
        size_t size = 0;

        if (!f)
                return NULL;
        if (getdelim(&text, &size, '\0', f) < 0) {
                ck_assert_msg(!ferror(f), "%s: %s", path, strerror(errno));
                /* An empty file: getdelim() leaves the buffer undefined. */
                free(text);
                text = NULL;
        }
        fclose(f);
        return text ? text : strdup("");
}

/* Dies with the test: a failed assertion must not leave daemons behind. */
static void child_common(void)
{
        prctl(PR_SET_PDEATHSIG, SIGKILL);
}

/* Reads one line (up to '\n') from fd within the timeout. */
static void read_line_from(int fd, char *buf, size_t size, const char *what)
{
        size_t n = 0;

        while (n + 1 < size) {
                struct pollfd p = { .fd = fd, .events = POLLIN };
                ssize_t k;

                ck_assert_msg(poll(&p, 1, START_TIMEOUT_MS) == 1, "%s did not start in time", what);
                k = read(fd, buf + n, 1);
                ck_assert_msg(k == 1, "%s ended before it was ready", what);
                if (buf[n] == '\n')
                        break;
                n++;
        }
        buf[n] = '\0';
}

void env_setup(struct ctl_env *e)
{
        char conf[1500], path[600];
        int fds[2];

        *e = (struct ctl_env){ 0 };
        snprintf(e->dir, sizeof(e->dir), "%s/test.XXXXXX", harness_base_dir);
        ck_assert_ptr_nonnull(mkdtemp(e->dir));
        ck_assert_int_eq(chmod(e->dir, 0755), 0);
        snprintf(e->log, sizeof(e->log), "%s/calls.log", e->dir);
        /* sun_path holds 108 bytes. */
        ck_assert_msg(strlen(e->dir) + sizeof("/bus") <= 108, "%s: too long for a socket path (set TMPDIR)",
                      e->dir);

        snprintf(path, sizeof(path), "%s/bus.conf", e->dir);
        snprintf(conf, sizeof(conf),
                 "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
                 " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                 "<busconfig>\n"
                 "  <type>system</type>\n"
                 "  <listen>unix:path=%s/bus</listen>\n"
                 "  <auth>EXTERNAL</auth>\n"
                 "  <policy context=\"default\">\n"
                 "    <allow user=\"*\"/>\n"
                 "    <allow own=\"*\"/>\n"
                 "    <allow send_destination=\"*\"/>\n"
                 "    <allow receive_sender=\"*\"/>\n"
                 "  </policy>\n"
                 "</busconfig>\n",
                 e->dir);
        write_text(path, conf);

        ck_assert_int_eq(pipe2(fds, O_CLOEXEC), 0);
        e->bus_pid = fork();
        ck_assert_int_ge(e->bus_pid, 0);
        if (e->bus_pid == 0) {
                char config_arg[700], log[600];
                int logfd;

                child_common();
                snprintf(config_arg, sizeof(config_arg), "--config-file=%s", path);
                snprintf(log, sizeof(log), "%s/dbus-daemon.log", e->dir);
                logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
                if (dup2(fds[1], STDOUT_FILENO) < 0 || (logfd >= 0 && dup2(logfd, STDERR_FILENO) < 0))
                        _exit(127);
                execlp("dbus-daemon", "dbus-daemon", config_arg, "--nofork", "--print-address=1",
                       (char *)NULL);
                _exit(127);
        }
        close(fds[1]);
        read_line_from(fds[0], e->address, sizeof(e->address), "dbus-daemon");
        close(fds[0]);
        ck_assert_msg(strncmp(e->address, "unix:", 5) == 0, "dbus-daemon said \"%s\"", e->address);
        ck_assert_int_eq(setenv("DBUS_SYSTEM_BUS_ADDRESS", e->address, 1), 0);
}

void env_fake(struct ctl_env *e, const char *const *args)
{
        char line[64];
        int fds[2];

        ck_assert_int_eq(pipe2(fds, O_CLOEXEC), 0);
        e->fake_pid = fork();
        ck_assert_int_ge(e->fake_pid, 0);
        if (e->fake_pid == 0) {
                const char *argv[16] = { FAKE_PATH, "--log", e->log };
                size_t n = 3;

                child_common();
                for (; args && *args && n + 1 < sizeof(argv) / sizeof(argv[0]); args++)
                        argv[n++] = *args;
                argv[n] = NULL;
                if (dup2(fds[1], STDOUT_FILENO) < 0)
                        _exit(127);
                execv(FAKE_PATH, (char **)argv);
                _exit(127);
        }
        close(fds[1]);
        read_line_from(fds[0], line, sizeof(line), "fake-switch1");
        close(fds[0]);
        ck_assert_str_eq(line, "ready");
}

static void stop(pid_t *pid)
{
        if (*pid > 0) {
                kill(*pid, SIGTERM);
                waitpid(*pid, NULL, 0);
        }
        *pid = 0;
}

void env_teardown(struct ctl_env *e)
{
        stop(&e->fake_pid);
        stop(&e->bus_pid);
        if (e->dir[0])
                remove_tree(e->dir);
}

static void child_exec(const struct ctl_env *e, const struct run_opts *o, const char *const *argv)
{
        const char *full[32] = { SWITCHCTL_PATH };
        size_t n = 1;

        child_common();
        setenv("DBUS_SYSTEM_BUS_ADDRESS", e->address, 1);
        setenv("TZ", "UTC", 1);
        setenv("LC_ALL", "C.UTF-8", 1);
        unsetenv("NO_COLOR");
        unsetenv("SYSTEMD_PAGER");
        unsetenv("PAGER");
        setenv("TERM", "xterm", 1);
        for (const char *const *v = o ? o->env : NULL; v && *v; v++) {
                const char *eq = strchr(*v, '=');

                if (eq) {
                        char name[64];

                        snprintf(name, sizeof(name), "%.*s", (int)(eq - *v), *v);
                        setenv(name, eq + 1, 1);
                } else
                        unsetenv(*v);
        }
        if (o && o->as_nobody) {
                if (setgroups(0, NULL) < 0 || setresgid(NOBODY, NOBODY, NOBODY) < 0 ||
                    setresuid(NOBODY, NOBODY, NOBODY) < 0) {
                        perror("dropping to uid 65534");
                        _exit(126);
                }
        }
        for (; argv && *argv && n + 1 < sizeof(full) / sizeof(full[0]); argv++)
                full[n++] = *argv;
        full[n] = NULL;
        execv(SWITCHCTL_PATH, (char **)full);
        perror(SWITCHCTL_PATH);
        _exit(127);
}

pid_t run_start(const struct ctl_env *e, const struct run_opts *o, const char *const *argv, int *out_fd,
                int *err_fd)
{
        pid_t pid;

        if (o && o->tty) {
                int master;
                struct winsize ws = { .ws_row = 24, .ws_col = 120 };

                pid = forkpty(&master, NULL, NULL, &ws);
                ck_assert_int_ge(pid, 0);
                if (pid == 0)
                        child_exec(e, o, argv);
                *out_fd = master;
                *err_fd = -1;
                return pid;
        }

        int out[2], err[2];

        ck_assert_int_eq(pipe2(out, O_CLOEXEC), 0);
        ck_assert_int_eq(pipe2(err, O_CLOEXEC), 0);
        pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
                if (dup2(out[1], STDOUT_FILENO) < 0 || dup2(err[1], STDERR_FILENO) < 0)
                        _exit(127);
                child_exec(e, o, argv);
        }
        close(out[1]);
        close(err[1]);
        *out_fd = out[0];
        *err_fd = err[0];
        return pid;
}

static void append(char **buf, size_t *len, const char *data, size_t n)
{
        char *b = realloc(*buf, *len + n + 1);

        ck_assert_ptr_nonnull(b);
        memcpy(b + *len, data, n);
        *len += n;
        b[*len] = '\0';
        *buf = b;
}

/* One read from fd into buf: 1 when data came, 0 at the end (a pseudo-terminal
 * without a writer reports EIO). */
static int read_some(int fd, char **buf, size_t *len)
{
        char chunk[4096];
        ssize_t n;

        do
                n = read(fd, chunk, sizeof(chunk));
        while (n < 0 && errno == EINTR);
        if (n <= 0)
                return 0;
        append(buf, len, chunk, (size_t)n);
        return 1;
}

char *read_until(int fd, const char *needle, int timeout_ms)
{
        struct timespec start, now;
        char *buf = NULL;
        size_t len = 0;

        append(&buf, &len, "", 0);
        clock_gettime(CLOCK_MONOTONIC, &start);
        while (!strstr(buf, needle)) {
                struct pollfd p = { .fd = fd, .events = POLLIN };
                int left;

                clock_gettime(CLOCK_MONOTONIC, &now);
                left = timeout_ms -
                       (int)((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000);
                if (left <= 0 || poll(&p, 1, left) != 1 || !read_some(fd, &buf, &len))
                        break;
        }
        return buf;
}

static char *strip_cr(char *s)
{
        char *w = s;

        /* The terminal's ONLCR made "\n" into "\r\n"; a "\r" of our own stays. */
        for (char *r = s; *r; r++)
                if (!(r[0] == '\r' && r[1] == '\n'))
                        *w++ = *r;
        *w = '\0';
        return s;
}

void run_finish(pid_t pid, int sig, int out_fd, int err_fd, char *early, struct run *res)
{
        size_t out_len = early ? strlen(early) : 0, err_len = 0;
        int wstatus;

        *res = (struct run){ .out = early, .err = NULL };
        append(&res->out, &out_len, "", 0);
        append(&res->err, &err_len, "", 0);
        if (sig)
                kill(pid, sig);
        for (;;) {
                struct pollfd p[2] = { { .fd = out_fd, .events = POLLIN },
                                       { .fd = err_fd, .events = POLLIN } };
                int open_fds = (out_fd >= 0) + (err_fd >= 0);

                if (open_fds == 0)
                        break;
                ck_assert_int_ge(poll(p, 2, -1), 0);
                if (out_fd >= 0 && (p[0].revents & (POLLIN | POLLHUP | POLLERR)) &&
                    !read_some(out_fd, &res->out, &out_len)) {
                        close(out_fd);
                        out_fd = -1;
                }
                if (err_fd >= 0 && (p[1].revents & (POLLIN | POLLHUP | POLLERR)) &&
                    !read_some(err_fd, &res->err, &err_len)) {
                        close(err_fd);
                        err_fd = -1;
                }
        }
        ck_assert_int_eq(waitpid(pid, &wstatus, 0), pid);
        res->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
        strip_cr(res->out);
}

void run_switchctl(const struct ctl_env *e, const struct run_opts *o, struct run *res,
                   const char *const *argv)
{
        int out_fd, err_fd;
        pid_t pid = run_start(e, o, argv, &out_fd, &err_fd);

        run_finish(pid, 0, out_fd, err_fd, NULL, res);
}

void run_free(struct run *res)
{
        free(res->out);
        free(res->err);
        *res = (struct run){ 0 };
}

char *fake_calls(const struct ctl_env *e)
{
        char *text = read_text(e->log), *w, *line;

        ck_assert_msg(text, "%s: %s", e->log, strerror(errno));
        w = text;
        for (line = text; *line;) {
                char *end = strchrnul(line, '\n');
                size_t n = (size_t)(end - line) + (*end ? 1 : 0);

                if (strncmp(line, "Get", 3) != 0) {
                        memmove(w, line, n);
                        w += n;
                }
                line += n;
        }
        *w = '\0';
        return text;
}

void wait_for_call(const struct ctl_env *e, const char *prefix)
{
        for (int i = 0; i < 1000; i++) {
                char *text = read_text(e->log);
                bool found = false;

                for (char *line = text; line && *line && !found;
                     line = strchrnul(line, '\n'), line += *line ? 1 : 0)
                        found = strncmp(line, prefix, strlen(prefix)) == 0;
                free(text);
                if (found)
                        return;
                usleep(10000);
        }
        ck_abort_msg("the fake never saw %s", prefix);
}

static void call_test_method(const char *member, const char *types, ...)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus *bus = NULL;
        va_list ap;
        int r;

        ck_assert_int_ge(sd_bus_open_system(&bus), 0);
        va_start(ap, types);
        r = sd_bus_call_methodv(bus, "org.bigLittle.Switch1", "/org/bigLittle/Switch1",
                                "org.bigLittle.Switch1Test", member, &error, NULL, types, ap);
        va_end(ap);
        ck_assert_msg(r >= 0, "%s: %s", member, error.message ? error.message : strerror(-r));
        sd_bus_error_free(&error);
        sd_bus_flush_close_unref(bus);
}

void fake_emit_switched(const char *from, const char *to, const char *reason)
{
        call_test_method("EmitSwitched", "sss", from, to, reason);
}

void fake_drop_hold(unsigned id)
{
        call_test_method("DropHold", "u", (uint32_t)id);
}

void fake_quit(void)
{
        call_test_method("Quit", "");
}

void expect_golden(const char *name, const char *actual)
{
        char path[600];
        char *expected;

        snprintf(path, sizeof(path), "%s/%s", GOLDEN_DIR, name);
        if (getenv("CTL_UPDATE_GOLDEN")) {
                write_text(path, actual);
                return;
        }
        expected = read_text(path);
        ck_assert_msg(expected, "%s: %s", path, strerror(errno));
        if (strcmp(expected, actual) != 0) {
                /* The whole text goes to the log; Check's message stays short. */
                fprintf(stderr, "--- expected (%s)\n%s--- actual\n%s---\n", path, expected, actual);
                free(expected);
                ck_abort_msg("output differs from %s (both are in the test log)", name);
        }
        free(expected);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
        (void)(type == FTW_DP ? rmdir(path) : unlink(path));
        return 0;
}

void remove_tree(const char *path)
{
        nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
