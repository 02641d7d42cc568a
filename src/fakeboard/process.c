/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command a board runs under the umockdev preload, and its output,
 * collected line by line with the time each came.
 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/array.h"
#include "fakeboard/board-internal.h"

extern char **environ;

static int add_line(struct fakeboard *fb, const char *text, size_t len, bl_usec_t now)
{
        struct fakeboard_event ev = { .kind = FAKEBOARD_OUTPUT_LINE, .time = now };
        char *copy;

        if (array_grow((void **)&fb->lines, fb->nlines, &fb->lines_size, sizeof(*fb->lines), 64) < 0)
                return -ENOMEM;
        copy = strndup(text, len);
        if (!copy)
                return -ENOMEM;
        fb->lines[fb->nlines++] = (struct fb_line){ .time = now, .text = copy };
        ev.text = copy;
        fakeboard_notify(fb, &ev);
        return 0;
}

void fb_forget_lines(struct fakeboard *fb)
{
        for (unsigned i = 0; i < fb->nlines; i++)
                free(fb->lines[i].text);
        fb->nlines = 0;
        fb->outlen = 0;
}

int fb_drain_output(struct fakeboard *fb, bl_usec_t now)
{
        while (fb->out_fd >= 0) {
                ssize_t n = read(fb->out_fd, fb->out + fb->outlen, sizeof(fb->out) - fb->outlen);
                size_t start = 0;
                int r;

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        if (errno == EAGAIN)
                                return 0;
                        return -errno;
                }
                if (n == 0) {
                        close(fb->out_fd);
                        fb->out_fd = -1;
                        if (fb->outlen > 0) {
                                r = add_line(fb, fb->out, fb->outlen, now);
                                fb->outlen = 0;
                                if (r < 0)
                                        return r;
                        }
                        return 0;
                }
                fb->outlen += (size_t)n;
                for (size_t i = 0; i < fb->outlen; i++) {
                        if (fb->out[i] != '\n')
                                continue;
                        r = add_line(fb, fb->out + start, i - start, now);
                        if (r < 0)
                                return r;
                        start = i + 1;
                }
                if (start == 0 && fb->outlen == sizeof(fb->out)) {
                        /* An overlong line: hand it out in pieces. */
                        r = add_line(fb, fb->out, fb->outlen, now);
                        if (r < 0)
                                return r;
                        start = fb->outlen;
                }
                memmove(fb->out, fb->out + start, fb->outlen - start);
                fb->outlen -= start;
        }
        return 0;
}

int fb_collect(struct fakeboard *fb, bl_usec_t now)
{
        int r = fb_drain_output(fb, now);
        int status;
        pid_t p;

        if (r < 0)
                return r;
        if (fb->pid <= 0 || fb->exited)
                return 0;
        p = waitpid(fb->pid, &status, WNOHANG);
        if (p < 0)
                return -errno;
        if (p == 0)
                return 0;
        /* Whatever it wrote is in the pipe now; a child of its own may still
         * hold the pipe, so take what is there and let go. */
        r = fb_drain_output(fb, now);
        if (fb->out_fd >= 0) {
                close(fb->out_fd);
                fb->out_fd = -1;
                if (fb->outlen > 0 && r >= 0)
                        r = add_line(fb, fb->out, fb->outlen, now);
                fb->outlen = 0;
        }
        fb->exited = true;
        fb->exit_status = status;
        fakeboard_notify(fb, &(struct fakeboard_event){
                           .kind = FAKEBOARD_PROCESS_EXITED, .time = now, .status = status });
        return r;
}

static void free_environment(char **env)
{
        for (size_t i = 0; env[i]; i++)
                free(env[i]);
        free(env);
}

/* The environment of the spawned process: ours, under the preload. */
static char **spawn_environment(const struct fakeboard *fb)
{
        const char *preload = getenv("LD_PRELOAD"), *asan = getenv("ASAN_OPTIONS");
        bool refuse = fb->refuse_so && access(fb->refuse_so, R_OK) == 0;
        size_t n = 0, k = 0;
        char **env;

        while (environ[n])
                n++;
        env = calloc(n + 5, sizeof(*env));
        if (!env)
                return NULL;
        for (size_t i = 0; i < n; i++) {
                if (strncmp(environ[i], "LD_PRELOAD=", 11) == 0 ||
                    strncmp(environ[i], "UMOCKDEV_DIR=", 13) == 0 ||
                    strncmp(environ[i], "FAKEBOARD_REFUSE=", 17) == 0 ||
                    strncmp(environ[i], "ASAN_OPTIONS=", 13) == 0)
                        continue;
                env[k] = strdup(environ[i]);
                if (!env[k++])
                        goto fail;
        }
        /* An ASan build aborts when the preload comes before its runtime,
         * unless told not to check (below). The refusing preload comes
         * first: umockdev's write() calls libc's own, not the next one. */
        if (asprintf(&env[k], "LD_PRELOAD=%s%slibumockdev-preload.so.0%s%s",
                     refuse ? fb->refuse_so : "", refuse ? ":" : "",
                     preload && *preload ? ":" : "", preload ? preload : "") < 0)
                goto fail_entry;
        if (asprintf(&env[++k], "UMOCKDEV_DIR=%s", fb->root) < 0)
                goto fail_entry;
        if (asprintf(&env[++k], "FAKEBOARD_REFUSE=%s/" REFUSE_RULES, fb->root) < 0)
                goto fail_entry;
        if (asprintf(&env[++k], "ASAN_OPTIONS=%s%sverify_asan_link_order=0", asan ? asan : "",
                     asan && *asan ? ":" : "") < 0)
                goto fail_entry;
        return env;
fail_entry:
        env[k] = NULL;
fail:
        free_environment(env);
        return NULL;
}

/* Only async-signal-safe calls here: the testbed runs GLib threads. */
static void __attribute__((noreturn))
exec_child(char *const argv[], char **env, int out_fd, int null_fd, pid_t parent)
{
        static const int reset[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2 };
        static const char msg[] = "fakeboard: exec failed\n";
        struct sigaction dfl = { .sa_handler = SIG_DFL };
        sigset_t none;

        if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
                _exit(127);
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        for (size_t i = 0; i < sizeof(reset) / sizeof(reset[0]); i++)
                sigaction(reset[i], &dfl, NULL);
        if (out_fd >= 0) {
                if (dup2(null_fd, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0 ||
                    dup2(out_fd, STDERR_FILENO) < 0)
                        _exit(127);
        }
        if (strchr(argv[0], '/'))
                execve(argv[0], argv, env);
        else
                execvpe(argv[0], argv, env);
        if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
                _exit(127);
        _exit(127);
}

int fakeboard_spawn(struct fakeboard *fb, char *const argv[], bool inherit_stdio)
{
        int pipefd[2] = { -1, -1 }, null_fd = -1;
        pid_t parent = getpid(), pid;
        char **env;

        if (!argv || !argv[0])
                return -EINVAL;
        if (fakeboard_running(fb))
                return -EBUSY;
        env = spawn_environment(fb);
        if (!env)
                return -ENOMEM;
        if (!inherit_stdio) {
                if (pipe2(pipefd, O_CLOEXEC) < 0) {
                        int r = -errno;

                        free_environment(env);
                        return r;
                }
                null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
                if (null_fd < 0) {
                        int r = -errno;

                        close(pipefd[0]);
                        close(pipefd[1]);
                        free_environment(env);
                        return r;
                }
        }
        fflush(NULL);
        pid = fork();
        if (pid == 0)
                exec_child(argv, env, pipefd[1], null_fd, parent);
        free_environment(env);
        if (pipefd[1] >= 0)
                close(pipefd[1]);
        if (null_fd >= 0)
                close(null_fd);
        if (pid < 0) {
                int r = -errno;

                if (pipefd[0] >= 0)
                        close(pipefd[0]);
                return r;
        }
        if (pipefd[0] >= 0)
                fcntl(pipefd[0], F_SETFL, fcntl(pipefd[0], F_GETFL) | O_NONBLOCK);
        if (fb->out_fd >= 0)
                close(fb->out_fd);
        fb_forget_lines(fb);
        fb->out_fd = pipefd[0];
        fb->pid = pid;
        fb->exited = false;
        fb->exit_status = 0;
        return 0;
}

pid_t fakeboard_pid(const struct fakeboard *fb)
{
        return fb->pid;
}

bool fakeboard_running(const struct fakeboard *fb)
{
        return fb->pid > 0 && !fb->exited;
}

int fakeboard_exit_status(const struct fakeboard *fb, int *status)
{
        if (fb->pid <= 0 || !fb->exited)
                return -ECHILD;
        *status = fb->exit_status;
        return 0;
}

int fakeboard_kill(struct fakeboard *fb, int sig)
{
        if (!fakeboard_running(fb))
                return -ESRCH;
        return kill(fb->pid, sig) < 0 ? -errno : 0;
}

static bool process_gone(struct fakeboard *fb, void *userdata)
{
        (void)userdata;
        return !fakeboard_running(fb);
}

int fakeboard_wait(struct fakeboard *fb, unsigned timeout_ms, int *status)
{
        int r;

        if (fb->pid <= 0)
                return -ECHILD;
        r = fakeboard_run(fb, timeout_ms, process_gone, NULL);
        if (r < 0)
                return r;
        if (r == 0)
                return -ETIMEDOUT;
        if (status)
                *status = fb->exit_status;
        return 0;
}

unsigned fakeboard_n_lines(const struct fakeboard *fb)
{
        return fb->nlines;
}

const char *fakeboard_line(const struct fakeboard *fb, unsigned index, bl_usec_t *time)
{
        if (index >= fb->nlines)
                return NULL;
        if (time)
                *time = fb->lines[index].time;
        return fb->lines[index].text;
}

int fakeboard_find_line(const struct fakeboard *fb, unsigned from, const char *needle)
{
        for (unsigned i = from; i < fb->nlines; i++)
                if (strstr(fb->lines[i].text, needle))
                        return (int)i;
        return -ENOENT;
}

const char *fakeboard_log_tail(const struct fakeboard *fb)
{
        static char buf[FAKEBOARD_LOG_TAIL_MAX + 1];
        unsigned n = fakeboard_n_lines(fb), first = n;
        size_t total = 0, len = 0;

        /* From the newest line back, as many as fit. */
        while (first > 0) {
                size_t line = strlen(fakeboard_line(fb, first - 1, NULL)) + 7;

                if (total + line > FAKEBOARD_LOG_TAIL_MAX)
                        break;
                total += line;
                first--;
        }
        buf[0] = '\0';
        for (unsigned i = first; i < n; i++)
                len += (size_t)snprintf(buf + len, sizeof(buf) - len, "\n    | %s", fakeboard_line(fb, i, NULL));
        return buf;
}
