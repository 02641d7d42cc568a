/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The offline optimum over cluster sequences, by dynamic programming.
 *
 * Definition. A sequence gives every step a cluster; a step whose cluster
 * differs from the previous step's pays the switch (stall and energy), the
 * first step pays none. Each step starts with no backlog and runs by the
 * execution rules (exec_step: same DVFS rule, same energy). Whatever a step
 * leaves unfinished is DROPPED, never carried. The oracle chooses the
 * sequence that minimises, in this order,
 *   1. the total work dropped, then
 *   2. the energy.
 * When some sequence finishes every step's work within its step, (1) is zero
 * and this is exactly "minimum energy with zero backlog at every step's end"
 * (DESIGN.md). A step that no sequence can finish (its work exceeds what any
 * cluster does in the step, or only a cluster it cannot reach without a
 * switch stall could) is infeasible: the oracle runs it where the least work
 * is lost, normally the fastest cluster at its top OPP, with transitions into
 * and out of it priced as usual. infeasible_steps counts the steps of the
 * chosen sequence that drop work; their dropped work is not counted anywhere
 * else (the oracle cannot do better than finishing what is possible).
 *
 * Why dropped and not carried: carried backlog would make the state of the
 * programme depend on history (the backlog), and "the least energy" of a
 * schedule that is late anyway has no single meaning. Why the lexicographic
 * order rather than "infeasible steps on the top cluster": with clusters of
 * different sizes lanes pile up differently (TC2 puts lanes 0, 2, 4 on one
 * big CPU but on three LITTLE ones), so a step can be possible on the LITTLE
 * cluster only, and a rule naming one cluster could leave the programme
 * without any feasible sequence.
 *
 * State: (step, cluster), value: (dropped, energy) compared lexicographically.
 * Moving to cluster k from k' costs step s on k with the switch when k' != k,
 * so the best predecessor is min(stay, best other + switch cost) and the best
 * other is the best or the second best of the previous step: O(steps x
 * clusters). The predecessor of every state is kept (one byte per step and
 * cluster) to recover the sequence, which is then replayed through exec_step:
 * the reported energy, switches and times are the execution rules' own
 * numbers for that sequence (with nothing dropped, exactly what a run
 * choosing the same clusters scores). Ties go to staying rather than
 * switching, then to the lower cluster, so the result is deterministic.
 *
 * The programme prices steps with exec_step's arithmetic without running it:
 * lanes are placed once per distinct cluster size, the OPP depends only on
 * the busiest CPU, and when that CPU finishes, the busy time summed over CPUs
 * is the step's whole work over the OPP's capacity. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "sim/exec.h"
#include "sim/oracle.h"

struct cost {
        double dropped;         /* reference-µs */
        double energy;          /* nJ */
};

static inline bool cost_less(struct cost a, struct cost b)
{
        return a.dropped < b.dropped || (a.dropped == b.dropped && a.energy < b.energy);
}

static inline struct cost cost_add(struct cost a, struct cost b)
{
        return (struct cost){ a.dropped + b.dropped, a.energy + b.energy };
}

struct solver {
        const struct sim_board *b;
        const struct sim_trace *t;
        double step_us;
        double off_others[BL_MAX_CLUSTERS];     /* mW of the clusters not running */
        /* Clusters with the same number of CPUs share the lanes' placement:
         * one group per distinct count, with its CPUs' work in this step. */
        unsigned ngroups;
        unsigned group_cpus[BL_MAX_CLUSTERS];
        unsigned group_of[BL_MAX_CLUSTERS];
        double pending[BL_MAX_CLUSTERS][SIM_MAX_CPUS];
        double max_pending[BL_MAX_CLUSTERS];
        double total;                           /* the step's work */
        double *work;                           /* one step's new work, per lane */
        double *scratch;                        /* per lane, backlog for the replay */
};

/* The current step on cluster 'k', entered with or without a switch, from
 * no backlog: exec_step's arithmetic, per CPU only when some CPU cannot
 * finish. */
static struct cost step_cost(const struct solver *sv, unsigned k, bool switched)
{
        const struct sim_board *b = sv->b;
        const struct sim_cluster *c = &b->cluster[k];
        const unsigned g = sv->group_of[k];
        const double ref = b->reference_capacity;
        double avail = sv->step_us - (switched ? b->switch_latency_us : 0), busy = 0;
        const struct sim_opp *opp;
        struct cost cost = { 0, 0 };

        if (avail < 0)
                avail = 0;
        opp = &c->opp[exec_pick_opp(c, b->reference_capacity, sv->max_pending[g], avail)];
        /* The test exec_step makes, for the busiest CPU: if it finishes, all
         * do, and their busy times add up to the whole work's. */
        if (sv->max_pending[g] * ref / opp->capacity <= avail) {
                busy = sv->total * ref / opp->capacity;
        } else {
                for (unsigned cpu = 0; cpu < c->cpus; cpu++) {
                        double need_us = sv->pending[g][cpu] * ref / opp->capacity;

                        if (need_us <= avail) {
                                busy += need_us;
                        } else {
                                double left = sv->pending[g][cpu] - avail * opp->capacity / ref;

                                busy += avail;
                                cost.dropped += left > 0 ? left : 0;
                        }
                }
        }
        cost.energy = busy * opp->core_mw + opp->idle_mw * sv->step_us + sv->off_others[k] * sv->step_us +
                      (switched ? b->switch_energy_uj * 1000 : 0);
        return cost;
}

static void solver_setup(struct solver *sv)
{
        const struct sim_board *b = sv->b;

        sv->ngroups = 0;
        for (unsigned k = 0; k < b->nclusters; k++) {
                unsigned g = 0;

                /* Summed as exec_step sums it. */
                sv->off_others[k] = 0;
                for (unsigned j = 0; j < b->nclusters; j++)
                        if (j != k)
                                sv->off_others[k] += b->cluster[j].off_mw;
                while (g < sv->ngroups && sv->group_cpus[g] != b->cluster[k].cpus)
                        g++;
                if (g == sv->ngroups)
                        sv->group_cpus[sv->ngroups++] = b->cluster[k].cpus;
                sv->group_of[k] = g;
        }
}

/* Lane i runs on CPU i mod cpus, summed in lane order as exec_step does. */
static void solver_load_step(struct solver *sv, size_t s)
{
        const unsigned nlanes = sv->t->nlanes;
        const float *row = sv->t->work + s * nlanes;

        sv->total = 0;
        for (unsigned i = 0; i < nlanes; i++) {
                sv->work[i] = row[i];
                sv->total += sv->work[i];
        }
        for (unsigned g = 0; g < sv->ngroups; g++) {
                double *pending = sv->pending[g], max = 0;
                unsigned cpus = sv->group_cpus[g], cpu = 0;

                for (unsigned c = 0; c < cpus; c++)
                        pending[c] = 0;
                for (unsigned i = 0; i < nlanes; i++) {
                        pending[cpu] += sv->work[i];
                        if (++cpu == cpus)
                                cpu = 0;
                }
                for (unsigned c = 0; c < cpus; c++)
                        if (pending[c] > max)
                                max = pending[c];
                sv->max_pending[g] = max;
        }
}

/* Forward pass: fills pred[s * n + k] with the cluster step s-1 ran on in
 * the best sequence that runs step s on k; returns the best last cluster. */
static unsigned solve_forward(struct solver *sv, unsigned char *pred)
{
        const struct sim_board *b = sv->b;
        const struct sim_trace *t = sv->t;
        const unsigned n = b->nclusters;
        struct cost prev[BL_MAX_CLUSTERS], cur[BL_MAX_CLUSTERS];
        unsigned best_last = 0;

        for (size_t s = 0; s < t->nsteps; s++) {
                unsigned best = 0, second = n > 1 ? 1 : 0;

                solver_load_step(sv, s);
                if (s == 0) {
                        for (unsigned k = 0; k < n; k++) {
                                cur[k] = step_cost(sv, k, false);
                                pred[k] = (unsigned char)k;
                        }
                } else {
                        /* The best and second best previous states, ties to the lower index. */
                        if (n > 1 && cost_less(prev[1], prev[0])) {
                                best = 1;
                                second = 0;
                        }
                        for (unsigned k = 2; k < n; k++) {
                                if (cost_less(prev[k], prev[best])) {
                                        second = best;
                                        best = k;
                                } else if (cost_less(prev[k], prev[second])) {
                                        second = k;
                                }
                        }
                        for (unsigned k = 0; k < n; k++) {
                                struct cost stay = cost_add(prev[k], step_cost(sv, k, false));
                                unsigned from = best != k ? best : second;

                                cur[k] = stay;
                                pred[s * n + k] = (unsigned char)k;
                                if (n > 1) {
                                        struct cost in = cost_add(prev[from], step_cost(sv, k, true));

                                        if (cost_less(in, stay)) {
                                                cur[k] = in;
                                                pred[s * n + k] = (unsigned char)from;
                                        }
                                }
                        }
                }
                memcpy(prev, cur, n * sizeof(cur[0]));
        }
        for (unsigned k = 1; k < n; k++)
                if (cost_less(prev[k], prev[best_last]))
                        best_last = k;
        return best_last;
}

/* Scores the chosen sequence with the execution rules, dropping what a step
 * leaves undone. */
static void replay(struct solver *sv, const unsigned char *seq, struct sim_oracle *o)
{
        const struct sim_trace *t = sv->t;
        double energy_nj = 0;

        for (size_t s = 0; s < t->nsteps; s++) {
                const float *row = t->work + s * t->nlanes;
                bool switched = s > 0 && seq[s] != seq[s - 1];
                struct sim_step out;

                for (unsigned i = 0; i < t->nlanes; i++) {
                        sv->work[i] = row[i];
                        sv->scratch[i] = 0;
                }
                exec_step(sv->b, seq[s], switched, sv->step_us, t->nlanes, sv->scratch, sv->work, &out);
                energy_nj += out.energy_nj;
                o->switches += switched;
                o->infeasible_steps += out.backlog > 0;
                o->time_in[seq[s]] += t->step_us;
        }
        o->energy_uj = energy_nj / 1000;
}

int oracle_solve(const struct sim_board *b, const struct sim_trace *t, bool want_sequence,
                 struct sim_oracle *o)
{
        _cleanup_free_ unsigned char *pred = NULL, *seq = NULL;
        _cleanup_free_ double *work = NULL, *scratch = NULL;
        struct solver sv = { .b = b, .t = t, .step_us = (double)t->step_us };
        const unsigned n = b->nclusters;
        unsigned k;

        *o = (struct sim_oracle){ 0 };
        if (n == 0 || n > BL_MAX_CLUSTERS || t->nlanes == 0)
                return -EINVAL;
        if (t->nsteps == 0)
                return 0;
        if (t->nsteps > SIZE_MAX / n)
                return -ENOMEM;
        pred = malloc(t->nsteps * n);
        seq = malloc(t->nsteps);
        work = malloc(t->nlanes * sizeof(double));
        scratch = malloc(t->nlanes * sizeof(double));
        if (!pred || !seq || !work || !scratch)
                return -ENOMEM;
        sv.work = work;
        sv.scratch = scratch;
        solver_setup(&sv);

        k = solve_forward(&sv, pred);
        for (size_t s = t->nsteps; s-- > 0;) {
                seq[s] = (unsigned char)k;
                k = pred[s * n + k];
        }
        free(pred);
        pred = NULL;

        replay(&sv, seq, o);
        if (want_sequence) {
                o->sequence = seq;
                seq = NULL;
        }
        return 0;
}

void oracle_free(struct sim_oracle *o)
{
        free(o->sequence);
        o->sequence = NULL;
}
