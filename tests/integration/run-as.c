/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A child process that runs as another user (nobody) with a bus connection
 * of its own. It reports what it found wrong, one line each, and how it
 * ended; the test fails on any report.
 */

#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/integration/harness.h"
#include "tests/integration/run-as.h"

struct child_wait {
        pid_t pid;
        int status;
        bool done;
};

static bool child_done(struct fakeboard *board, void *userdata)
{
        struct child_wait *w = userdata;

        (void)board;
        if (waitpid(w->pid, &w->status, WNOHANG) == w->pid)
                w->done = true;
        return w->done;
}

void run_as(uid_t uid, nobody_fn fn, void *userdata)
{
        struct child_wait w = { 0 };
        char report[8192];
        pid_t parent = getpid();
        int pipefd[2];
        ssize_t n;
        size_t len = 0;

        ck_assert_int_eq(pipe(pipefd), 0);
        fflush(NULL);
        w.pid = fork();
        ck_assert_int_ge(w.pid, 0);
        if (w.pid == 0) {
                char *text = NULL;
                size_t size = 0;
                FILE *out;
                sd_bus *b = NULL;
                int r;

                signal(SIGTERM, SIG_DFL);
                close(pipefd[0]);
                if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
                        _exit(2);
                if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 || setresuid(uid, uid, uid) < 0) {
                        dprintf(pipefd[1], "cannot become uid %u: %s\n", (unsigned)uid, strerror(errno));
                        _exit(2);
                }
                r = sd_bus_open_system(&b);
                if (r < 0) {
                        dprintf(pipefd[1], "uid %u cannot connect to the bus: %s\n", (unsigned)uid,
                                strerror(-r));
                        _exit(2);
                }
                out = open_memstream(&text, &size);
                if (!out)
                        _exit(2);
                fn(b, out, userdata);
                sd_bus_flush_close_unref(b);
                fclose(out);
                if (size > 0 && write(pipefd[1], text, size) < 0)
                        _exit(2);
                _exit(size > 0 ? 1 : 0);
        }
        close(pipefd[1]);
        ck_assert_int_ge(fakeboard_run(fb, CHILD_BOUND_MS, child_done, &w), 0);
        if (!w.done) {
                kill(w.pid, SIGKILL);
                waitpid(w.pid, &w.status, 0);
        }
        while (len < sizeof(report) - 1 && (n = read(pipefd[0], report + len, sizeof(report) - 1 - len)) > 0)
                len += (size_t)n;
        report[len] = '\0';
        close(pipefd[0]);
        ck_assert_msg(w.done, "the child running as uid %u hung; it said: %s", (unsigned)uid, report);
        ck_assert_msg(WIFEXITED(w.status) && WEXITSTATUS(w.status) == 0, "as uid %u:\n%s", (unsigned)uid,
                      report);
}

void run_as_nobody(nobody_fn fn, void *userdata)
{
        run_as(NOBODY, fn, userdata);
}

/* In the child: report unless the call failed with 'name' and 'message'. */
void child_expect_error(FILE *out, const char *what, int r, sd_bus_error *error, const char *name,
                               const char *message)
{
        if (r >= 0)
                fprintf(out, "%s: succeeded, expected %s\n", what, name);
        else if (!sd_bus_error_has_name(error, name))
                fprintf(out, "%s: %s (%s), expected %s\n", what, error->name, error->message, name);
        else if (message && strcmp(error->message, message) != 0)
                fprintf(out, "%s: message \"%s\", expected \"%s\"\n", what, error->message, message);
        sd_bus_error_free(error);
}

void child_expect_ok(FILE *out, const char *what, int r, sd_bus_error *error)
{
        if (r < 0)
                fprintf(out, "%s: %s (%s)\n", what, error->name, error->message);
        sd_bus_error_free(error);
}
