/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bl-fakeboard: any command inside a fake board's testbed, with a load
 * pattern playing (shell). The demo is blsim live's (tests/demo/). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/fakeboard/fakeboard.h"

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
static void usage(FILE *f)
{
        const struct fakeboard_desc *d;
        const struct fakeboard_pattern *p;

        fprintf(f,
                "Usage: bl-fakeboard shell --board NAME [--pattern NAME] -- COMMAND [ARG]...\n"
                "       bl-fakeboard list\n\n"
                "shell  runs COMMAND with the board's testbed as /sys and /proc\n\n"
                "Boards:\n");
        for (unsigned i = 0; (d = fakeboard_desc_get(i)); i++)
                fprintf(f, "  %-16s %s\n", d->name, d->summary);
        fprintf(f, "Patterns:\n");
        for (unsigned i = 0; (p = fakeboard_pattern_get(i)); i++)
                fprintf(f, "  %-16s %s\n", p->name, p->summary);
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
        enum { OPT_BOARD = 0x100, OPT_PATTERN };
        static const struct option longopts[] = {
                { "board", required_argument, NULL, OPT_BOARD },
                { "pattern", required_argument, NULL, OPT_PATTERN },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        const char *command, *board = NULL, *pattern = NULL;
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
                case OPT_PATTERN:
                        pattern = optarg;
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
