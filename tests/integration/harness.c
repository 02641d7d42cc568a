/* SPDX-License-Identifier: GPL-2.0-or-later */
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

#include "tests/integration/harness.h"

#define MAX_ARGS 16

struct fakeboard *fb;

static char workdir[PATH_MAX];
static char runtime_dir[PATH_MAX + 8];

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
        snprintf(workdir, sizeof(workdir), "%s/bl-test.XXXXXX", tmp ? tmp : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(workdir));
        snprintf(runtime_dir, sizeof(runtime_dir), "%s/run", workdir);
        /* Saved state and holds go to the test's own directory, not /run. */
        ck_assert_int_eq(setenv("RUNTIME_DIRECTORY", runtime_dir, 1), 0);
        /* No bus here: never the machine's own. */
        ck_assert_int_eq(setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/bus", 1), 0);
}

void harness_teardown(void)
{
        fakeboard_free(fb);
        fb = NULL;
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
        if (!mkdtemp(tmp))
                return EXIT_FAILURE;
        setenv("TMPDIR", tmp, 1);
        sr = srunner_create(suite);
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        remove_tree(tmp);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
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
        static char path[PATH_MAX + 64];
        FILE *f;

        ck_assert_int_lt(snprintf(path, sizeof(path), "%s/%s", workdir, name), (int)sizeof(path));
        f = fopen(path, "w");
        ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
        ck_assert_int_ge(fputs(text, f), 0);
        ck_assert_int_eq(fclose(f), 0);
        return path;
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
        bl_cpuset want, now;

        ck_assert_int_eq(cpuset_parse(&want, list), 0);
        fakeboard_online(fb, &now);
        return cpuset_equal(&want, &now);
}

static bool online_matches(struct fakeboard *board, void *userdata)
{
        (void)board;
        return online_equals(userdata);
}

const char *online_text(void)
{
        static char buf[256];
        bl_cpuset now;

        fakeboard_online(fb, &now);
        cpuset_format(&now, buf, sizeof(buf));
        return buf;
}

void expect_online(const char *list, unsigned timeout_ms)
{
        int r = fakeboard_run(fb, timeout_ms, online_matches, (void *)list);

        ck_assert_int_ge(r, 0);
        ck_assert_msg(r == 1, "online is %s, not %s, after %u ms; the daemon said:%s", online_text(), list,
                      timeout_ms, log_text());
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
