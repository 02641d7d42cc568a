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
#include "sim/exec.h"
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

/* The load-reactive oracle. The reactive oracle follows the oracle's levels
 * one sample late, moves up included. But where a switch stalls the machine,
 * the oracle pays its way up before the load it is for, so that the stall
 * falls in the quiet before it, and one sample later is often still before
 * the load: foresight that no policy reading load has. So first each of the
 * oracle's moves up is put off to the first step, from the move on, whose
 * load shows that the level it leaves is not enough:
 * - more work arrives in it than in any step since that level was taken
 *   (from nothing, at the run's start): new load, which a policy could
 *   have taken as the start of more;
 * - or its work, run on that level from an empty queue and without a
 *   switch, leaves work at the step's end,
 * - or costs more energy there than on the level the oracle moves to (the
 *   energy model says the higher level is cheaper at that load, which the
 *   default's heuristics can read).
 * A move up whose level ends before any such step is not made. Moves down
 * stay where they are. Then the reactive oracle's rule takes that sequence
 * one sample late, and the run is scored as the reactive oracle's is. It is
 * generous: any new high counts, and how high to go it still learns from
 * the oracle; a policy that predicts a period can also beat it. So it says
 * how much of the gap to the reactive oracle is the oracle's foresight, not
 * what a policy can reach. Pair mode: a move that only adds pairs on big is
 * a move up; one that also takes pairs off stays where it is. */

static double arrivals(const struct sim_trace *t, size_t s)
{
        double sum = 0;

        for (unsigned i = 0; i < t->nlanes; i++)
                sum += t->work[s * t->nlanes + i];
        return sum;
}

/* Whether step 's''s work, run alone on level 'from', shows that it is not
 * enough against 'to' (work left, or more energy). */
static int load_shows(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t, size_t s,
                      unsigned from, unsigned to, double *queue, double *work, bool *shows)
{
        struct sim_level_step on_from, on_to;
        int err;

        for (unsigned i = 0; i < t->nlanes; i++)
                work[i] = t->work[s * t->nlanes + i];
        memset(queue, 0, t->nlanes * sizeof(double));
        err = exec_level_step(b, lv, from, from, (double)t->step_us, t->nlanes, queue, work, &on_from);
        if (err < 0)
                return err;
        if (on_from.backlog > 1e-6) {
                *shows = true;
                return 0;
        }
        memset(queue, 0, t->nlanes * sizeof(double));
        err = exec_level_step(b, lv, to, to, (double)t->step_us, t->nlanes, queue, work, &on_to);
        *shows = err == 0 && on_from.energy_nj > on_to.energy_nj;
        return err;
}

static bool only_up(const struct sim_levels *lv, unsigned from, unsigned to)
{
        if (lv->mode == BL_MODE_PAIR)
                return (to & ~from) != 0 && (from & ~to) == 0;
        return to > from;
}

int load_timed_sequence(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                        const unsigned char *oracle_seq, unsigned char *out)
{
        _cleanup_free_ double *queue = calloc(2 * (t->nlanes > 0 ? t->nlanes : 1), sizeof(double));
        unsigned held = 0;      /* the run starts on level 0 */
        double high = 0;        /* the most that arrived in a step since 'held' was taken */

        if (!queue)
                return -ENOMEM;
        for (size_t s = 0; s < t->nsteps; s++) {
                const unsigned to = oracle_seq[s];
                const double now = arrivals(t, s);
                /* A rise counts in the step it happens, not for a move the
                 * oracle makes later: a high reached before the move, then
                 * held or fallen from, says nothing about the load the
                 * move is for. */
                const bool rises = now > high;

                if (to >= lv->nlevels)
                        return -EINVAL;
                if (rises)
                        high = now;
                if (to != held && only_up(lv, held, to) && !rises) {
                        bool shows;
                        int err = load_shows(b, lv, t, s, held, to, queue, queue + t->nlanes, &shows);

                        if (err < 0)
                                return err;
                        if (!shows) {
                                out[s] = (unsigned char)held;
                                continue;
                        }
                }
                if (to != held) {
                        held = to;
                        high = now;
                }
                out[s] = (unsigned char)held;
        }
        return 0;
}

int load_reactive_oracle_run(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                             const unsigned char *oracle_seq, bl_usec_t interval_us, struct sim_result *r)
{
        _cleanup_free_ unsigned char *timed = NULL;
        int err;

        *r = (struct sim_result){ 0 };
        if (interval_us == 0 || (t->nsteps > 0 && !oracle_seq))
                return -EINVAL;
        timed = malloc(t->nsteps > 0 ? t->nsteps : 1);
        if (!timed)
                return -ENOMEM;
        err = load_timed_sequence(b, lv, t, oracle_seq, timed);
        if (err == 0)
                err = reactive_oracle_run(b, lv, t, timed, interval_us, r);
        if (err == 0)
                snprintf(r->policy, sizeof(r->policy), "load-reactive-oracle");
        return err;
}
