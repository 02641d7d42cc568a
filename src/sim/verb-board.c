/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The board file is built in memory and read back with the simulator's own
 * parser before anything is written: an import that would give a board blsim
 * cannot load is an error here, not later. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/exit-status.h"
#include "core/board.h"
#include "sim/board-import.h"
#include "sim/verb-board.h"

static void usage(FILE *f)
{
        fprintf(f, "Usage: blsim board import (--dts FILE | --sysfs ROOT) [--name NAME] [--out FILE]\n"
                "Write a board model from a device tree source or a machine's sysfs (to standard output\n"
                "without --out).\n\n"
                "      --dts FILE   a .dts/.dtsi, or the output of dtc -I dtb -O dts\n"
                "      --sysfs ROOT a directory holding sys/devices/system/cpu (and, where readable,\n"
                "                   sys/kernel/debug/energy_model); / on the machine itself\n"
                "      --name NAME  the board's name (default: from the tree's compatible)\n"
                "  -o, --out FILE   write the board to FILE\n");
}

static void print_diag(const struct bl_diag *diag)
{
        for (unsigned i = 0; i < diag->n; i++)
                fprintf(stderr, "%s\n", diag->msg[i]);
        if (diag->dropped > 0)
                fprintf(stderr, "blsim: %u more problems not shown\n", diag->dropped);
}

static int write_out(const char *path, const char *text, size_t len)
{
        FILE *f = path ? fopen(path, "w") : stdout;
        bool ok;

        if (!f) {
                fprintf(stderr, "blsim board import: %s: %s\n", path, strerror(errno));
                return EXIT_CANTCREAT;
        }
        ok = fwrite(text, 1, len, f) == len;
        ok = (path ? fclose(f) == 0 : fflush(f) == 0) && ok;
        if (!ok) {
                fprintf(stderr, "blsim board import: %s: %s\n", path ? path : "standard output", strerror(errno));
                return EXIT_IOERR;
        }
        return EXIT_SUCCESS;
}

static int board_import(int argc, char **argv)
{
        enum { OPT_DTS = 256, OPT_SYSFS, OPT_NAME };
        static const struct option options[] = {
                { "dts", required_argument, NULL, OPT_DTS },
                { "sysfs", required_argument, NULL, OPT_SYSFS },
                { "name", required_argument, NULL, OPT_NAME },
                { "out", required_argument, NULL, 'o' },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        const char *dts = NULL, *sysfs = NULL, *name = NULL, *out = NULL;
        struct import_model *m = NULL;
        struct sim_board *b = NULL;
        struct bl_diag *diag = NULL;
        char *text = NULL;
        size_t len = 0;
        FILE *mem = NULL;
        int c, r, status = EXIT_SUCCESS;

        while ((c = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
                switch (c) {
                case OPT_DTS: dts = optarg; break;
                case OPT_SYSFS: sysfs = optarg; break;
                case OPT_NAME: name = optarg; break;
                case 'o': out = optarg; break;
                case 'h': usage(stdout); return EXIT_SUCCESS;
                default: usage(stderr); return EXIT_USAGE;
                }
        }
        if (optind < argc) {
                fprintf(stderr, "blsim board import: unexpected argument \"%s\"\n", argv[optind]);
                return EXIT_USAGE;
        }
        if (!dts == !sysfs) {
                fprintf(stderr, "blsim board import: expected one of --dts FILE and --sysfs ROOT\n");
                return EXIT_USAGE;
        }
        m = calloc(1, sizeof(*m));
        b = calloc(1, sizeof(*b));
        diag = calloc(1, sizeof(*diag));
        if (!m || !b || !diag) {
                status = EXIT_OSERR;
                goto exit;
        }
        diag_init(diag);
        r = dts ? import_from_dts(m, dts, diag) : import_from_sysfs(m, sysfs, diag);
        if (r < 0) {
                print_diag(diag);
                status = r == -EINVAL ? EXIT_DATAERR : r == -ENOENT ? EXIT_NOINPUT : EXIT_IOERR;
                goto exit;
        }
        mem = open_memstream(&text, &len);
        if (!mem || import_write(mem, m, name) < 0 || fclose(mem) != 0) {
                mem = NULL;
                status = EXIT_OSERR;
                goto exit;
        }
        mem = NULL;
        if (board_parse(b, "(imported board)", text, len, diag) > 0) {
                fprintf(stderr, "blsim board import: the board made from %s does not load:\n", dts ? dts : sysfs);
                print_diag(diag);
                status = EXIT_DATAERR;
                goto exit;
        }
        status = write_out(out, text, len);
exit:
        if (status == EXIT_OSERR)
                fprintf(stderr, "blsim board import: out of memory\n");
        free(text);
        free(diag);
        free(b);
        free(m);
        return status;
}

int sim_verb_board(int argc, char **argv)
{
        if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
                usage(argc < 2 ? stderr : stdout);
                return argc < 2 ? EXIT_USAGE : EXIT_SUCCESS;
        }
        if (strcmp(argv[1], "import") != 0) {
                fprintf(stderr, "blsim board: unknown action \"%s\" (expected import)\n", argv[1]);
                return EXIT_USAGE;
        }
        return board_import(argc - 1, argv + 1);
}
