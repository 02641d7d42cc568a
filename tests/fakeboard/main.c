/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bl-fakeboard: the daemon on a fake board while a load plays (demo), or any
 * command inside a fake board's testbed (shell). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/fakeboard/fakeboard.h"

#define START_TIMEOUT_MS 10000
#define STOP_TIMEOUT_MS 10000

/* Set from the SIGINT/SIGTERM handler: a signal handler has nowhere else to
 * put it. */

/* The daemon keeps persistent holds in $RUNTIME_DIRECTORY (systemd's
 * RuntimeDirectory=); on a fake board they belong to the board, not /run. */
static void keep_runtime_dir_private(const struct fakeboard *fb)
{
        char dir[PATH_MAX];

        if (getenv("RUNTIME_DIRECTORY"))
                return;
        snprintf(dir, sizeof(dir), "%s/run", fakeboard_root(fb));
        setenv("RUNTIME_DIRECTORY", dir, 1);
}
static volatile sig_atomic_t interrupted;

struct demo {
        bl_usec_t t0;
        unsigned little_capacity;       /* the board's least capacity */
        unsigned switch_lines;
        unsigned ups, downs;
        unsigned last_big;              /* CPUs faster than the least online after the last change */
        bool stopping;                  /* the restore at exit is not a switch */
};

static void on_signal(int sig)
{
        (void)sig;
        interrupted = 1;
}

static void usage(FILE *f)
{
        const struct fakeboard_desc *d;
        const struct fakeboard_pattern *p;

        fprintf(f,
                "Usage: bl-fakeboard demo --board NAME --daemon PATH --config FILE [--pattern NAME]\n"
                "                         [--backend NAME]\n"
                "       bl-fakeboard shell --board NAME [--pattern NAME] -- COMMAND [ARG]...\n"
                "       bl-fakeboard list\n\n"
                "demo   runs the daemon on the fake board while a load pattern plays, shows its\n"
                "       log and the board's CPUs, stops it and checks the CPUs were restored\n"
                "shell  runs COMMAND with the board's testbed as /sys and /proc\n\n"
                "Boards:\n");
        for (unsigned i = 0; (d = fakeboard_desc_get(i)); i++)
                fprintf(f, "  %-16s %s\n", d->name, d->summary);
        fprintf(f, "Patterns:\n");
        for (unsigned i = 0; (p = fakeboard_pattern_get(i)); i++)
                fprintf(f, "  %-16s %s\n", p->name, p->summary);
}

static void format_duration(unsigned ms, char *buf, size_t size)
{
        if (ms % 1000 == 0)
                snprintf(buf, size, "%u s", ms / 1000);
        else if (ms >= 1000)
                snprintf(buf, size, "%.1f s", ms / 1000.0);
        else
                snprintf(buf, size, "%u ms", ms);
}

/* Any CPU above the least kind counts: on three clusters the middle one is
 * a switch up too. */
static unsigned count_fast(const struct fakeboard *fb, const bl_cpuset *online, unsigned little)
{
        unsigned n = 0;

        for (unsigned cpu = 0; cpu < cpuset_span(online); cpu++)
                if (cpuset_isset(online, cpu) && fakeboard_capacity(fb, cpu) > little)
                        n++;
        return n;
}

static void demo_observe(struct fakeboard *fb, const struct fakeboard_event *ev, void *userdata)
{
        struct demo *d = userdata;
        double t = ev->time >= d->t0 ? (double)(ev->time - d->t0) / (double)BL_USEC_PER_SEC : 0;
        char list[256], duration[32];
        unsigned fast;

        switch (ev->kind) {
        case FAKEBOARD_OUTPUT_LINE:
                if (strncmp(ev->text, "switch ", 7) == 0 && strstr(ev->text, " -> "))
                        d->switch_lines++;
                printf("[%7.3f s] %s\n", t, ev->text);
                break;
        case FAKEBOARD_ONLINE_CHANGED:
                cpuset_format(ev->online, list, sizeof(list));
                printf("[%7.3f s] board: online %s\n", t, list);
                fast = count_fast(fb, ev->online, d->little_capacity);
                if (!d->stopping && fast > d->last_big)
                        d->ups++;
                else if (!d->stopping && fast < d->last_big && d->ups > 0)
                        d->downs++;
                d->last_big = fast;
                break;
        case FAKEBOARD_PHASE_STARTED:
                format_duration(ev->duration_ms, duration, sizeof(duration));
                printf("[%7.3f s] load: %s for %s\n", t, ev->text, duration);
                break;
        case FAKEBOARD_PATTERN_DONE:
                printf("[%7.3f s] load: pattern done\n", t);
                break;
        case FAKEBOARD_PROCESS_EXITED:
                if (WIFEXITED(ev->status))
                        printf("[%7.3f s] daemon exited with status %d\n", t, WEXITSTATUS(ev->status));
                else if (WIFSIGNALED(ev->status))
                        printf("[%7.3f s] daemon killed by signal %d\n", t, WTERMSIG(ev->status));
                break;
        }
        fflush(stdout);
}

static bool started_or_gone(struct fakeboard *fb, void *userdata)
{
        (void)userdata;
        return interrupted || !fakeboard_running(fb) || fakeboard_find_line(fb, 0, "started: ") >= 0;
}

static bool pattern_over(struct fakeboard *fb, void *userdata)
{
        (void)userdata;
        return interrupted || !fakeboard_running(fb) || fakeboard_pattern_done(fb);
}

static void catch_signals(void)
{
        struct sigaction sa = { .sa_handler = on_signal };

        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
}

static int run_demo(const char *board, const char *daemon, const char *config, const char *pattern_name,
                    const char *backend)
{
        const struct fakeboard_pattern *pattern = fakeboard_pattern_find(pattern_name);
        struct demo d = { 0 };
        struct fakeboard *fb = NULL;
        bl_cpuset initial, final;
        char list[256];
        char *argv[8];
        unsigned argc = 0;
        int r, status = -1;
        bool restored, ok;

        if (!pattern) {
                fprintf(stderr, "bl-fakeboard: unknown pattern \"%s\" (see bl-fakeboard list)\n",
                        pattern_name);
                return 64;
        }
        r = fakeboard_new(board, &fb);
        if (r < 0) {
                fprintf(stderr, "bl-fakeboard: cannot build board \"%s\": %s\n", board,
                        r == -ENOENT ? "no such board (see bl-fakeboard list)" : strerror(-r));
                return r == -ENOENT ? 64 : 1;
        }
        d.little_capacity = fakeboard_capacity(fb, 0);
        for (unsigned cpu = 1; cpu < fakeboard_desc(fb)->ncpus; cpu++)
                if (fakeboard_capacity(fb, cpu) < d.little_capacity)
                        d.little_capacity = fakeboard_capacity(fb, cpu);
        fakeboard_online(fb, &initial);
        d.last_big = count_fast(fb, &initial, d.little_capacity);
        cpuset_format(&initial, list, sizeof(list));
        printf("board %s: %s\n", board, fakeboard_desc(fb)->summary);
        printf("testbed %s; pattern %s: %s\n", fakeboard_root(fb), pattern->name, pattern->summary);

        argv[argc++] = (char *)daemon;
        argv[argc++] = (char *)"--foreground";
        argv[argc++] = (char *)"--config";
        argv[argc++] = (char *)config;
        if (backend) {
                argv[argc++] = (char *)"--backend";
                argv[argc++] = (char *)backend;
        }
        argv[argc] = NULL;

        catch_signals();
        keep_runtime_dir_private(fb);
        d.t0 = fakeboard_now();
        printf("[%7.3f s] board: online %s\n", 0.0, list);
        fakeboard_set_observer(fb, demo_observe, &d);
        r = fakeboard_spawn(fb, argv, false);
        if (r < 0) {
                fprintf(stderr, "bl-fakeboard: cannot start %s: %s\n", daemon, strerror(-r));
                fakeboard_free(fb);
                return 1;
        }
        r = fakeboard_run(fb, START_TIMEOUT_MS, started_or_gone, NULL);
        if (r > 0 && fakeboard_running(fb) && !interrupted) {
                r = fakeboard_set_pattern(fb, pattern->phases, pattern->nphases);
                if (r >= 0)
                        r = fakeboard_run(fb, UINT32_MAX / 2, pattern_over, NULL);
        } else if (r == 0) {
                printf("[%7.3f s] bl-fakeboard: no \"started: \" line after %u s\n",
                       (double)(fakeboard_now() - d.t0) / (double)BL_USEC_PER_SEC, START_TIMEOUT_MS / 1000);
        }
        if (r < 0)
                fprintf(stderr, "bl-fakeboard: the board failed: %s\n", strerror(-r));

        if (fakeboard_running(fb)) {
                printf("[%7.3f s] bl-fakeboard: sending SIGTERM\n",
                       (double)(fakeboard_now() - d.t0) / (double)BL_USEC_PER_SEC);
                d.stopping = true;
                fakeboard_kill(fb, SIGTERM);
                if (fakeboard_wait(fb, STOP_TIMEOUT_MS, &status) == -ETIMEDOUT) {
                        printf("bl-fakeboard: the daemon did not exit within %u s; killing it\n",
                               STOP_TIMEOUT_MS / 1000);
                        fakeboard_kill(fb, SIGKILL);
                        fakeboard_wait(fb, STOP_TIMEOUT_MS, NULL);
                        status = -1;
                }
        } else {
                fakeboard_exit_status(fb, &status);
        }
        /* One more step so the board has seen the daemon's last writes. */
        fakeboard_step(fb, fakeboard_now());
        fakeboard_online(fb, &final);
        restored = cpuset_equal(&initial, &final);
        ok = r >= 0 && !interrupted && d.ups > 0 && d.downs > 0 && restored && status == 0;

        cpuset_format(&final, list, sizeof(list));
        printf("\nsummary: the daemon logged %u switch%s; the board saw %u switch%s up and %u down\n",
               d.switch_lines, d.switch_lines == 1 ? "" : "es", d.ups, d.ups == 1 ? "" : "es", d.downs);
        printf("         restored at exit: %s (online %s); exit status %s%d\n", restored ? "yes" : "no", list,
               status >= 0 && WIFSIGNALED(status) ? "signal " : "",
               status < 0 ? -1 : WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        printf("result: %s\n", ok ? "OK" : "FAILED");
        if (!ok && d.ups == 0)
                printf("        (expected the daemon to switch up during the load and down after it)\n");
        fakeboard_free(fb);
        return ok ? 0 : 1;
}

static bool command_gone(struct fakeboard *fb, void *userdata)
{
        (void)userdata;
        return !fakeboard_running(fb);
}

static int run_shell(const char *board, const char *pattern_name, char *const argv[])
{
        struct fakeboard *fb = NULL;
        int r, status = 0;

        r = fakeboard_new(board, &fb);
        if (r < 0) {
                fprintf(stderr, "bl-fakeboard: cannot build board \"%s\": %s\n", board,
                        r == -ENOENT ? "no such board (see bl-fakeboard list)" : strerror(-r));
                return r == -ENOENT ? 64 : 1;
        }
        if (pattern_name) {
                const struct fakeboard_pattern *p = fakeboard_pattern_find(pattern_name);

                if (!p) {
                        fprintf(stderr, "bl-fakeboard: unknown pattern \"%s\"\n", pattern_name);
                        fakeboard_free(fb);
                        return 64;
                }
                fakeboard_set_pattern(fb, p->phases, p->nphases);
        }
        /* The command owns the terminal; a Ctrl-C is for it, not for us. */
        signal(SIGINT, SIG_IGN);
        signal(SIGQUIT, SIG_IGN);
        keep_runtime_dir_private(fb);
        r = fakeboard_spawn(fb, argv, true);
        if (r >= 0)
                r = fakeboard_run(fb, UINT32_MAX / 2, command_gone, NULL);
        if (r < 0)
                fprintf(stderr, "bl-fakeboard: %s: %s\n", argv[0], strerror(-r));
        else
                fakeboard_exit_status(fb, &status);
        fakeboard_free(fb);
        if (r < 0)
                return 1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
        enum { OPT_BOARD = 0x100, OPT_DAEMON, OPT_CONFIG, OPT_PATTERN, OPT_BACKEND };
        static const struct option longopts[] = {
                { "board", required_argument, NULL, OPT_BOARD },
                { "daemon", required_argument, NULL, OPT_DAEMON },
                { "config", required_argument, NULL, OPT_CONFIG },
                { "pattern", required_argument, NULL, OPT_PATTERN },
                { "backend", required_argument, NULL, OPT_BACKEND },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        const char *command, *board = NULL, *daemon = NULL, *config = NULL, *pattern = NULL, *backend = NULL;
        int c;

        if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
                usage(argc < 2 ? stderr : stdout);
                return argc < 2 ? 64 : 0;
        }
        command = argv[1];
        if (strcmp(command, "list") == 0) {
                usage(stdout);
                return 0;
        }
        /* "+": stop at the first non-option, so a shell command keeps its own options. */
        optind = 2;
        while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
                switch (c) {
                case OPT_BOARD:
                        board = optarg;
                        break;
                case OPT_DAEMON:
                        daemon = optarg;
                        break;
                case OPT_CONFIG:
                        config = optarg;
                        break;
                case OPT_PATTERN:
                        pattern = optarg;
                        break;
                case OPT_BACKEND:
                        backend = optarg;
                        break;
                case 'h':
                        usage(stdout);
                        return 0;
                default:
                        usage(stderr);
                        return 64;
                }
        }
        if (!board) {
                fprintf(stderr, "bl-fakeboard: --board is required\n");
                return 64;
        }
        if (strcmp(command, "demo") == 0) {
                if (!daemon || !config || optind != argc) {
                        fprintf(stderr,
                                "bl-fakeboard demo: --daemon and --config are required, nothing else\n");
                        return 64;
                }
                return run_demo(board, daemon, config, pattern ? pattern : "default", backend);
        }
        if (strcmp(command, "shell") == 0) {
                if (optind >= argc) {
                        fprintf(stderr, "bl-fakeboard shell: no command given\n");
                        return 64;
                }
                return run_shell(board, pattern, argv + optind);
        }
        fprintf(stderr, "bl-fakeboard: unknown command \"%s\"\n", command);
        usage(stderr);
        return 64;
}
