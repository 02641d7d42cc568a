/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blsim: runs the daemon's engine and heuristics in virtual time on a board
 * model and scores them against always-big, always-little and the oracle.
 * One function per verb, each in its own file (verb-*.c); everything they
 * share is a scenario (scenario.h): the board, the workload and the
 * references every verb reports against. */
#include <string.h>

#include "sim/cli.h"
#include "sim/verb-board.h"
#include "sim/verb-generate.h"
#include "sim/verb-list.h"
#include "sim/verb-live.h"
#include "sim/verb-run.h"
#include "sim/verb-tune.h"

int main(int argc, char **argv)
{
        static const struct {
                const char *name;
                int (*fn)(int argc, char **argv);
        } verbs[] = {
                { "run", sim_verb_run },
                { "compare", sim_verb_compare },
                { "tune", sim_verb_tune },
                { "live", sim_verb_live },
                { "generate", sim_verb_generate },
                { "board", sim_verb_board },
                { "list", sim_verb_list },
        };

        if (argc < 2) {
                cli_usage(stderr);
                return EXIT_USAGE;
        }
        if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
                cli_usage(stdout);
                return cli_finish_output();
        }
        if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
                printf("blsim %s\n", PACKAGE_VERSION);
                return cli_finish_output();
        }
        for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
                if (strcmp(argv[1], verbs[i].name) == 0)
                        return verbs[i].fn(argc - 1, argv + 1);
        fprintf(stderr, "blsim: unknown verb \"%s\"\n", argv[1]);
        cli_usage(stderr);
        return EXIT_USAGE;
}
