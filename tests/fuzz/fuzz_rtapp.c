/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rt-app reader and model: any input gives a workload or a clean error
 * naming the place, and an accepted workload simulates the same way twice
 * (reset() determinism). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/exec.h"
#include "sim/rtapp.h"
#include "tests/fuzz/fuzz.h"

#define STEPS 64

static const struct sim_board board = {
        .name = "fuzz",
        .reference_capacity = 1024,
        .switch_latency_us = 20,
        .switch_energy_uj = 100,
        .nclusters = 2,
        .ncpus = 4,
        .cluster = {
                { .name = "little", .cpus = 2, .order = 0, .off_mw = 5, .nopps = 2, .first_cpu = 0,
                  .opp = { { 500, 200, 30, 20 }, { 1000, 400, 100, 40 } } },
                { .name = "big", .cpus = 2, .order = 1, .off_mw = 20, .nopps = 2, .first_cpu = 2,
                  .opp = { { 1000, 512, 300, 80 }, { 2000, 1024, 1500, 300 } } },
        },
};

/* Runs STEPS steps, switching cluster every 7 steps; returns a digest. */
static uint64_t simulate(struct sim_workload *w)
{
        double *backlog = calloc(3 * (size_t)w->nlanes, sizeof(double));
        double *new_work = backlog + w->nlanes, *capacity = new_work + w->nlanes;
        uint64_t digest = 0xcbf29ce484222325ULL;
        unsigned cluster = 0, prev = 0;
        struct sim_qos q;

        if (!backlog)
                abort();
        for (size_t s = 0; s < STEPS; s++) {
                bl_usec_t t = (bl_usec_t)s * w->step_us;
                const struct sim_cluster *c;
                struct sim_step st;
                int r;

                cluster = (s / 7) % 2;
                c = &board.cluster[cluster];
                for (unsigned i = 0; i < w->nlanes; i++)
                        capacity[i] = c->opp[c->nopps - 1].capacity;
                r = w->begin_step(w, s, t, capacity, new_work);
                FUZZ_ASSERT(r == 0 || r == 1);
                if (r == 1)
                        break;
                for (unsigned i = 0; i < w->nlanes; i++) {
                        uint64_t bits;

                        FUZZ_ASSERT(new_work[i] >= 0.0 && new_work[i] <= 1e12);
                        memcpy(&bits, &new_work[i], sizeof(bits));
                        digest = (digest ^ bits) * 0x100000001b3ULL;
                }
                exec_step(&board, cluster, s > 0 && cluster != prev, (double)w->step_us, w->nlanes, backlog,
                          new_work, &st);
                w->end_step(w, s, t + w->step_us, backlog);
                prev = cluster;
        }
        w->qos(w, &q);
        digest = (digest ^ q.activations) * 0x100000001b3ULL;
        digest = (digest ^ q.misses) * 0x100000001b3ULL;
        free(backlog);
        return digest;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static struct bl_diag diag;
        struct sim_workload *w = NULL;
        uint64_t first, second;
        int r;

        diag_init(&diag);
        r = rtapp_workload_parse(&w, "fuzz.json", (const char *)data, size, 1000, 50000, &diag);
        if (r == -EINVAL) {
                FUZZ_ASSERT(!w && diag_count(&diag) > 0);
                fuzz_check_places(&diag, "fuzz.json", false);
                return 0;
        }
        FUZZ_ASSERT(r == 0 && w && diag_count(&diag) == 0);
        FUZZ_ASSERT(w->nlanes > 0 && w->nlanes <= RTAPP_MAX_LANES);
        first = simulate(w);
        FUZZ_ASSERT(w->reset(w) == 0);
        second = simulate(w);
        FUZZ_ASSERT(first == second);
        workload_free(w);
        return 0;
}
