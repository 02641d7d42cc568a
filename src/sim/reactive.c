/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reactive oracle: how close a policy that only reacts can come.
 *
 * Definition. Take the oracle's level sequence for the trace (oracle_solve()
 * in cluster mode, oracle_solve_levels() in the others: per step, the level
 * that clears the step at the least energy knowing the whole trace). A
 * policy sampling every T (sample_interval_ms, no idle back-off) decides at
 * t = 0, T, 2T, ... and at t has seen only the steps that started before t.
 * The reactive oracle, at each decision time kT (k >= 1), takes the highest
 * level the oracle used in any step that started in [(k-1)T, kT) and keeps
 * it for the steps that start in [kT, (k+1)T). "Highest": the fastest
 * cluster in cluster mode, the most CPUs in mp mode (its levels are nested);
 * in pair mode, whose levels are sets of pairs on big, every pair on big in
 * any of those steps (the union: no one level of the set is highest). During [0, T) it runs the
 * most efficient level (level 0), as every policy run starts and where the
 * oracle starts unless its start is free (oracle.h): from a free oracle it
 * follows levels that did not pay to be reached at the start. When no step
 * started in [(k-1)T, kT) (steps longer than T) it has seen nothing new and
 * keeps its level. So it goes up at the first sample after the oracle needed
 * more and down at the first sample after the oracle no longer did: the
 * best-informed purely reactive schedule, judged by the oracle itself.
 *
 * It is scored like every run: by the execution rules (exec_level_step(),
 * which in cluster mode gives exec_step()'s numbers), switch stall and energy
 * charged where consecutive levels differ, backlog carried from step to step
 * (unlike the oracle, which drops what a step cannot clear), late work summed
 * at every step's end. Even with T equal to the step it lags the oracle by
 * one step, so a burst that only a faster level clears is late in the step
 * it starts in, at any T. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "sim/reactive.h"
#include "sim/workload.h"

int reactive_sequence(const struct sim_levels *lv, const unsigned char *oracle_seq, size_t nsteps,
                      bl_usec_t step_us, bl_usec_t interval_us, unsigned char *out)
{
        bl_usec_t next = interval_us;
        unsigned char level = 0, seen = 0;
        bool any = false;

        if (step_us == 0 || interval_us == 0)
                return -EINVAL;
        for (size_t s = 0; s < nsteps; s++) {
                const bl_usec_t t = (bl_usec_t)s * step_us;

                /* The decisions up to this step's start, each on what started since the one before. */
                while (next <= t) {
                        if (any)
                                level = seen;
                        seen = 0;
                        any = false;
                        next += interval_us;
                }
                out[s] = level;
                if (lv->mode == BL_MODE_PAIR)
                        seen |= oracle_seq[s];
                else if (oracle_seq[s] > seen)
                        seen = oracle_seq[s];
                any = true;
        }
        return 0;
}

int reactive_oracle_run(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                        const unsigned char *oracle_seq, bl_usec_t interval_us, struct sim_result *r)
{
        _cleanup_free_ unsigned char *seq = NULL;
        struct sim_workload *w = NULL;
        const bl_usec_t length = (bl_usec_t)t->nsteps * t->step_us;
        int err;

        *r = (struct sim_result){ 0 };
        if (interval_us == 0 || (t->nsteps > 0 && !oracle_seq))
                return -EINVAL;
        seq = malloc(t->nsteps > 0 ? t->nsteps : 1);
        if (!seq)
                return -ENOMEM;
        err = reactive_sequence(lv, oracle_seq, t->nsteps, t->step_us, interval_us, seq);
        if (err == 0)
                err = workload_from_trace(&w, "reactive-oracle", t);
        if (err == 0)
                err = sim_run_sequence(b, lv, w, seq, t->nsteps, r);
        workload_free(w);
        if (err < 0)
                return err;
        memset(r->time_in, 0, sizeof(r->time_in));
        for (size_t s = 0; s < r->steps; s++)
                r->time_in[seq[s]] += t->step_us;
        r->samples = length / interval_us;
        snprintf(r->policy, sizeof(r->policy), "reactive-oracle");
        return 0;
}
