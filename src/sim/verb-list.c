/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blsim list: the presets, the installed boards and workloads. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/board-file.h"
#include "sim/presets.h"
#include "sim/scenario.h"
#include "sim/verb-list.h"

static int board_filter(const struct dirent *d)
{
        return d->d_name[0] != '.' && cli_has_suffix(d->d_name, ".ini");
}

static void list_boards(const char *dir)
{
        struct dirent **names = NULL;
        int n = scandir(dir, &names, board_filter, alphasort);

        printf("boards (%s):\n", dir);
        if (n < 0) {
                printf("  none installed (%s)\n", strerror(errno));
                return;
        }
        for (int i = 0; i < n; i++) {
                char path[PATH_MAX];
                struct sim_board b;
                struct bl_diag diag;

                diag_init(&diag);
                if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name) >= sizeof(path))
                        printf("  %-20s (path too long)\n", names[i]->d_name);
                else if (board_load(&b, path, &diag) != 0) {
                        printf("  %-20s (does not load; blsim run --board %s says why)\n", names[i]->d_name,
                               path);
                } else {
                        printf("  %-20s", b.name);
                        for (unsigned k = 0; k < b.nclusters; k++)
                                printf("%s%ux %s (%u)", k ? " + " : " ", b.cluster[k].cpus, b.cluster[k].name,
                                       b.cluster[k].opp[b.cluster[k].nopps - 1].capacity);
                        putchar('\n');
                }
                free(names[i]);
        }
        free(names);
}

static int workload_filter(const struct dirent *d)
{
        return d->d_name[0] != '.' &&
               (cli_has_suffix(d->d_name, ".csv") || cli_has_suffix(d->d_name, ".json"));
}

/* The workloads of one directory, by the name --workload takes. Returns the
 * count, or -errno. */
static int list_workload_dir(const char *top, const char *sub)
{
        struct dirent **names = NULL;
        char dir[PATH_MAX];
        int n;

        if ((size_t)snprintf(dir, sizeof(dir), "%s%s%s", top, *sub ? "/" : "", sub) >= sizeof(dir))
                return -ENAMETOOLONG;
        n = scandir(dir, &names, workload_filter, alphasort);
        if (n < 0)
                return -errno;
        for (int i = 0; i < n; i++) {
                printf("  %s%s%s\n", sub, *sub ? "/" : "", names[i]->d_name);
                free(names[i]);
        }
        free(names);
        return n;
}

/* The traces, the held-out traces and the rt-app descriptions. */
static void list_workloads(const char *dir)
{
        static const char *const subdirs[] = { "", "holdout", "rt-app" };
        int total = 0, first_error = 0;

        printf("workloads (%s):\n", dir);
        for (size_t i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
                int n = list_workload_dir(dir, subdirs[i]);

                if (n > 0)
                        total += n;
                else if (n < 0 && i == 0)
                        first_error = n;
        }
        if (total == 0)
                printf("  none installed (%s)\n", first_error ? strerror(-first_error) : "no .csv or .json");
}

int sim_verb_list(int argc, char **argv)
{
        if (argc > 1) {
                fprintf(stderr, "blsim list: unexpected argument \"%s\"\n", argv[1]);
                return EXIT_USAGE;
        }
        printf("presets (--policy):\n");
        for (const struct sim_preset *p = sim_presets; p->name; p++)
                printf("  %-14s %s\n", p->name, p->summary);
        putchar('\n');
        list_boards(scenario_datadir()->boards);
        putchar('\n');
        list_workloads(scenario_datadir()->workloads);
        return cli_finish_output();
}
