/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The device tree reader and the importer (sim/dts-reader.c,
 * sim/board-import.c): any text gives a model or problems that name the
 * file, the same text imports the same way twice, and an accepted model is
 * what blsim board import writes out: two kinds of CPU or more, slowest
 * first, OPPs rising, capacities at most 1024 with the fastest at 1024.
 * The reader takes a path (it follows includes beside the file), so the
 * input is written to a file of its own in an otherwise empty directory. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/board-import.h"
#include "tests/fuzz/fuzz.h"

#define FILENAME "input.dts"

static char path[64];

static void write_input(const uint8_t *data, size_t size)
{
        static char dir[] = "/tmp/fuzz_dts.XXXXXX";
        FILE *f;

        if (!path[0]) {
                FUZZ_ASSERT(mkdtemp(dir) != NULL);
                snprintf(path, sizeof(path), "%s/%s", dir, FILENAME);
        }
        f = fopen(path, "w");
        FUZZ_ASSERT(f != NULL);
        FUZZ_ASSERT(fwrite(data, 1, size, f) == size);
        FUZZ_ASSERT(fclose(f) == 0);
}

static void check_model(const struct import_model *m)
{
        char *text;
        size_t len;
        FILE *f;

        FUZZ_ASSERT(m->nclusters >= 2 && m->nclusters <= BL_MAX_CLUSTERS);
        for (unsigned k = 0; k < m->nclusters; k++) {
                const struct import_cluster *c = &m->cluster[k];

                FUZZ_ASSERT(c->cpus >= 1 && c->nopps >= 1 && c->nopps <= SIM_MAX_OPPS);
                for (unsigned o = 0; o < c->nopps; o++) {
                        FUZZ_ASSERT(c->opp[o].capacity <= 1024);
                        if (o > 0)
                                FUZZ_ASSERT(c->opp[o].khz > c->opp[o - 1].khz &&
                                            c->opp[o].capacity >= c->opp[o - 1].capacity);
                }
                if (k > 0)
                        FUZZ_ASSERT(c->opp[c->nopps - 1].capacity >
                                    m->cluster[k - 1].opp[m->cluster[k - 1].nopps - 1].capacity);
        }
        FUZZ_ASSERT(m->cluster[m->nclusters - 1].opp[m->cluster[m->nclusters - 1].nopps - 1].capacity == 1024);
        f = fuzz_text_open(&text, &len);
        FUZZ_ASSERT(import_write(f, m, NULL) == 0);
        fuzz_text_close(f);
        FUZZ_ASSERT(len > 0 && strstr(text, "[board]\n") != NULL);
        free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static struct import_model first, second;
        static struct bl_diag diag, again;
        int r;

        write_input(data, size);
        diag_init(&diag);
        diag_init(&again);
        r = import_from_dts(&first, path, &diag);
        FUZZ_ASSERT(r == 0 || r == -EINVAL || r == -ENOMEM || r == -E2BIG || r == -EFBIG);
        FUZZ_ASSERT((r == 0) == (diag_count(&diag) == 0));
        fuzz_check_places(&diag, FILENAME, false);
        FUZZ_ASSERT(import_from_dts(&second, path, &again) == r);
        FUZZ_ASSERT(diag_count(&again) == diag_count(&diag));
        if (r == 0) {
                FUZZ_ASSERT(memcmp(&first, &second, sizeof(first)) == 0);
                check_model(&first);
        }
        return 0;
}
