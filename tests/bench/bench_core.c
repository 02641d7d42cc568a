/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The decision path of one tick, without I/O: the pelt heuristic and the
 * engine on an Exynos 5422-like ladder, fed a load that keeps switching.
 * Run under callgrind with --toggle-collect=bench_tick to count the
 * instructions of one tick (see tests/bench/run.sh). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "core/scorer.h"
#include "policy/builtin.h"

struct bench {
        struct bl_sample_buf sample;
        struct bl_scorer scorer;
        struct bl_engine engine;
        unsigned switches;
};

/* Not static and not inlined: callgrind counts from its entry. */
__attribute__((noinline)) void bench_tick(struct bench *b, bl_usec_t now);

__attribute__((noinline)) void bench_tick(struct bench *b, bl_usec_t now)
{
        struct bl_decision d;
        double demand = scorer_score(&b->scorer, &b->sample.s, now);
        int temp = 60000;

        engine_decide(&b->engine, demand, &temp, now, &d);
        if (d.change) {
                engine_switched(&b->engine, d.to, now);
                b->switches++;
        }
}

int main(int argc, char **argv)
{
        static struct bench b;
        struct bl_topology topo;
        struct bl_cpu_info cpus[8];
        struct bl_ladder ladder;
        struct bl_config cfg;
        struct bl_engine_params params;
        unsigned long ticks = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
        bl_usec_t now = 0, step = 20 * BL_USEC_PER_MSEC;
        int r;

        for (unsigned cpu = 0; cpu < 8; cpu++)
                cpus[cpu] = (struct bl_cpu_info){
                        .present = true, .online = true, .can_offline = cpu != 0,
                        .capacity = cpu < 4 ? 377 : 1024, .max_freq_khz = cpu < 4 ? 1400000 : 2000000,
                        .policy = cpu < 4 ? 0 : 4, .policy_size = 4, .cluster_id = cpu < 4 ? 1 : 0,
                };
        if ((r = topology_build(&topo, cpus, 8)) < 0 || (r = ladder_build(&ladder, &topo, BL_MODE_CLUSTER, NULL)) < 0) {
                fprintf(stderr, "bench: topology: %s\n", strerror(-r));
                return 1;
        }
        config_init(&cfg, policy_builtin);
        r = scorer_init(&b.scorer, &cfg, BL_NEEDS_PRESSURE);
        if (r < 0) {
                fprintf(stderr, "bench: scorer: %s\n", strerror(-r));
                return 1;
        }
        engine_params_from_config(&params, &cfg);
        engine_init(&b.engine, &ladder, &params, 0);
        engine_switched(&b.engine, 0, now);

        sample_buf_init(&b.sample, 8);
        sample_set_online(&b.sample, &topo.present);
        b.sample.s.interval = step;
        for (unsigned long i = 0; i < ticks; i++) {
                /* Two seconds busy, two seconds idle, so the engine keeps switching. */
                float busy = (i / 100) % 2 ? 0.9f : 0.05f;

                now += step;
                b.sample.s.now = now;
                for (unsigned cpu = 0; cpu < 8; cpu++) {
                        b.sample.cpu[cpu].busy = busy;
                        b.sample.cpu[cpu].capacity = cpu < 4 ? 377 : 1024;
                }
                bench_tick(&b, now);
        }
        printf("ticks %lu switches %u\n", ticks, b.switches);
        scorer_done(&b.scorer);
        return 0;
}
