/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The board model reader (sim/board.c): any text gives a board or problems
 * that name the file; an accepted board keeps what blsim relies on
 * (clusters sorted by order with CPUs numbered in that order, operating
 * points rising, each cluster faster than the one before), and the same text
 * parses the same way twice. */
#include <math.h>
#include <string.h>

#include "core/board.h"
#include "tests/fuzz/fuzz.h"

#define FILENAME "fuzz.board"

static void check_board(const struct sim_board *b)
{
        struct bl_topology t;
        unsigned ncpus = 0;

        FUZZ_ASSERT(memchr(b->name, '\0', sizeof(b->name)) != NULL);
        FUZZ_ASSERT(b->reference_capacity >= 1);
        FUZZ_ASSERT(b->switch_latency_us >= 0 && isfinite(b->switch_latency_us));
        FUZZ_ASSERT(b->switch_energy_uj >= 0 && isfinite(b->switch_energy_uj));
        for (unsigned k = 0; k < SIM_NBACKENDS; k++) {
                const struct sim_switch_model *m = &b->backend[k];

                FUZZ_ASSERT(m->latency_us >= 0 && isfinite(m->latency_us) && m->latency_us <= 1e6);
                FUZZ_ASSERT(m->latency_per_cpu_us >= 0 && isfinite(m->latency_per_cpu_us));
                FUZZ_ASSERT(m->energy_uj >= 0 && isfinite(m->energy_uj));
                FUZZ_ASSERT(m->energy_per_cpu_uj >= 0 && isfinite(m->energy_per_cpu_uj));
        }
        FUZZ_ASSERT(b->nclusters >= 1 && b->nclusters <= BL_MAX_CLUSTERS);
        for (unsigned k = 0; k < b->nclusters; k++) {
                const struct sim_cluster *c = &b->cluster[k];

                FUZZ_ASSERT(c->order == k && c->first_cpu == ncpus);
                FUZZ_ASSERT(c->cpus >= 1 && c->nopps >= 1 && c->nopps <= SIM_MAX_OPPS);
                FUZZ_ASSERT(c->off_mw >= 0 && isfinite(c->off_mw));
                for (unsigned o = 0; o < c->nopps; o++) {
                        FUZZ_ASSERT(c->opp[o].mhz >= 1 && c->opp[o].capacity >= 1);
                        FUZZ_ASSERT(c->opp[o].capacity <= b->reference_capacity);
                        FUZZ_ASSERT(c->opp[o].core_mw >= 0 && isfinite(c->opp[o].core_mw));
                        FUZZ_ASSERT(c->opp[o].idle_mw >= 0 && isfinite(c->opp[o].idle_mw));
                        if (o > 0)
                                FUZZ_ASSERT(c->opp[o].mhz > c->opp[o - 1].mhz &&
                                            c->opp[o].capacity > c->opp[o - 1].capacity);
                }
                if (k > 0)
                        FUZZ_ASSERT(c->opp[c->nopps - 1].capacity >
                                    b->cluster[k - 1].opp[b->cluster[k - 1].nopps - 1].capacity);
                FUZZ_ASSERT(c->trip_passive_c < c->trip_critical_c);
                ncpus += c->cpus;
        }
        FUZZ_ASSERT(b->ncpus == ncpus && ncpus <= SIM_MAX_CPUS);
        board_topology(b, &t);
        FUZZ_ASSERT(t.ncpus == ncpus);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static struct sim_board first, second;
        static struct bl_diag diag, again;
        unsigned problems;

        memset(&first, 0, sizeof(first));
        memset(&second, 0, sizeof(second));
        diag_init(&diag);
        diag_init(&again);
        problems = board_parse(&first, FILENAME, (const char *)data, size, &diag);
        FUZZ_ASSERT(problems == diag_count(&diag));
        fuzz_check_places(&diag, FILENAME, false);
        FUZZ_ASSERT(board_parse(&second, FILENAME, (const char *)data, size, &again) == problems);
        FUZZ_ASSERT(memcmp(&first, &second, sizeof(first)) == 0);
        if (problems == 0)
                check_board(&first);
        return 0;
}
