/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The offline optimum over cluster sequences, by dynamic programming.
 *
 * Definition. A sequence gives every step a cluster; a step whose cluster
 * differs from the previous step's pays the switch (stall and energy). The
 * first step pays none when the start is free; from a start cluster (the
 * lowest, where runs start), it pays the switch out of it like any other:
 * the programme's step 0 is then relaxed from that one state. Each step
 * starts with no backlog and runs by the execution rules (exec_step: same
 * DVFS rule, same energy). Whatever a step leaves unfinished is DROPPED,
 * never carried. The oracle chooses the
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
 * different sizes lanes pile up differently (TC2's three LITTLE CPUs run
 * three heavy lanes side by side, its two big ones queue one behind
 * another), so a step can be possible on the LITTLE cluster only, and a rule
 * naming one cluster could leave the programme without any feasible
 * sequence.
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
#include <math.h>
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
        unsigned start;                         /* ORACLE_START_FREE or the cluster before step 0 */
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
        unsigned *slot;                         /* per lane, its CPU in this step */
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

/* Lanes placed by exec.c rule 1 (with no backlog, a lane has work when the
 * step brings it some), summed in lane order as exec_step does. */
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
                unsigned cpus = sv->group_cpus[g];

                for (unsigned c = 0; c < cpus; c++)
                        pending[c] = 0;
                exec_place_lanes(nlanes, NULL, sv->work, cpus, sv->slot);
                for (unsigned i = 0; i < nlanes; i++)
                        pending[sv->slot[i]] += sv->work[i];
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
                        /* From a start, leaving it is a switch like any other. */
                        for (unsigned k = 0; k < n; k++) {
                                bool from_start = sv->start != ORACLE_START_FREE && sv->start != k;

                                cur[k] = step_cost(sv, k, from_start);
                                pred[k] = (unsigned char)(from_start ? sv->start : k);
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
                unsigned before = s > 0 ? seq[s - 1] : sv->start;
                bool switched = before != ORACLE_START_FREE && seq[s] != before;
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

int oracle_solve_from(const struct sim_board *b, const struct sim_trace *t, unsigned start, bool want_sequence,
                      struct sim_oracle *o)
{
        _cleanup_free_ unsigned char *pred = NULL, *seq = NULL;
        _cleanup_free_ double *work = NULL, *scratch = NULL;
        _cleanup_free_ unsigned *slot = NULL;
        struct solver sv = { .b = b, .t = t, .step_us = (double)t->step_us, .start = start };
        const unsigned n = b->nclusters;
        unsigned k;

        *o = (struct sim_oracle){ .start = start };
        if (n == 0 || n > BL_MAX_CLUSTERS || t->nlanes == 0 || (start != ORACLE_START_FREE && start >= n))
                return -EINVAL;
        if (t->nsteps == 0)
                return 0;
        if (t->nsteps > SIZE_MAX / n)
                return -ENOMEM;
        pred = malloc(t->nsteps * n);
        seq = malloc(t->nsteps);
        work = malloc(t->nlanes * sizeof(double));
        scratch = malloc(t->nlanes * sizeof(double));
        slot = malloc(t->nlanes * sizeof(unsigned));
        if (!pred || !seq || !work || !scratch || !slot)
                return -ENOMEM;
        sv.work = work;
        sv.scratch = scratch;
        sv.slot = slot;
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

int oracle_solve(const struct sim_board *b, const struct sim_trace *t, bool want_sequence,
                 struct sim_oracle *o)
{
        return oracle_solve_from(b, t, ORACLE_START_FREE, want_sequence, o);
}

void oracle_free(struct sim_oracle *o)
{
        free(o->sequence);
        o->sequence = NULL;
}

/* Levels of any mode (modes.c).
 *
 * The definition is the one above with "cluster" read as "system level":
 * every step from zero backlog, dropped work first, then energy; ties to
 * staying, then to the lower level (as far as sums that run along different
 * paths can tie: see switch_reach()). What a step costs now depends on the
 * previous level too, through the CPUs it brings in (they stall) and the
 * switch energy (a share per pair or CPU changed), so the programme is over
 * (step, level) with up to L x L transitions per step: O(steps x L^2) time at
 * worst, one byte per step and level for the predecessors.
 *
 * Pricing is kept out of the transitions. Every step, each level is priced
 * once without any stall, and each of its CPUs is classified by what a stall
 * would change (A' = step - latency):
 *   neutral   nothing: its cluster's OPP serves its work in A' too
 *             (capacity x A' >= 1.25 x reference x pending, the DVFS rule's
 *             own test) and it finishes in A' (a faster OPP, raised by
 *             another CPU, only shortens that);
 *   local     only its own busy time and dropped work (the OPP stays: the
 *             rule's test still holds, or the OPP is the top one already):
 *             a fixed difference, added per such CPU;
 *   raising   the cluster's OPP: the step is priced again, CPU by CPU, once
 *             per distinct set of new non-neutral CPUs in the step.
 * With switch_latency_us == 0 every CPU is neutral. For a level whose CPUs
 * are all neutral (most levels, most steps) the step costs the same from
 * everywhere and only the switch energy depends on the predecessor, so its
 * best predecessor comes from switch_reach(), which all such levels share:
 * O(L log L) per step. A level with a non-neutral CPU tries all L
 * predecessors, each priced by its new non-neutral CPUs. A step that brings
 * exactly the work of the step before has the same prices and is not priced
 * again (idle stretches, steady load).
 *
 * Levels with the same number of active CPUs share the lanes' placement
 * (exec.c rule 1 in cluster and pair mode, the lane of rank i on slot i
 * mod n in mp mode), so the work per slot is summed once per distinct
 * count; when many levels share it (pair mode: all of them), the
 * OPP each slot asks for on each cluster is looked up once per step too,
 * and a level's OPP is the largest its slots ask for
 * (the rule asks for more with more work, so that is what its busiest CPU
 * asks for).
 *
 * The chosen sequence is replayed through exec_level_step(), whose numbers
 * are reported. */

#define MEMO_BITS 6
/* From this many levels per placement, OPPs are looked up per slot. */
#define SLOT_PICKS_MIN_LEVELS 4

struct level_price {
        struct cost unstalled;
        uint64_t non_neutral;                   /* CPUs whose stall changes something */
        uint64_t raising;                       /* of which would raise their cluster's OPP */
        unsigned opp[BL_MAX_CLUSTERS];          /* unstalled */
        struct cost local[SIM_MAX_CPUS];        /* the difference a local CPU's stall makes */
};

struct level_solver {
        const struct sim_board *b;
        const struct sim_levels *lv;
        const struct sim_trace *t;
        double step_us;
        unsigned start;                         /* ORACLE_START_FREE or the level before step 0 */
        double stalled_avail;
        bool stalls;
        unsigned nlevels;
        unsigned ngroups;
        unsigned group_slots[SIM_MAX_LEVELS];
        unsigned group_levels[SIM_MAX_LEVELS];
        unsigned group_of[SIM_MAX_LEVELS];
        unsigned char slot_clusters[SIM_MAX_LEVELS][SIM_MAX_CPUS];      /* per group and slot, bit k */
        double off_energy[SIM_MAX_LEVELS];              /* off_mw x step of the clusters left off */
        double switch_nj[SIM_MAX_LEVELS][SIM_MAX_LEVELS];       /* [to][from] */
        /* The current step. */
        double pending[SIM_MAX_LEVELS][SIM_MAX_CPUS];   /* per group and slot */
        unsigned char slot_opp[SIM_MAX_LEVELS][SIM_MAX_CPUS][BL_MAX_CLUSTERS];
        struct cost unstalled[SIM_MAX_LEVELS];          /* per level, kept for a step with the same work */
        bool stall_matters[SIM_MAX_LEVELS];
        struct level_price price;                       /* of the level being relaxed */
        uint64_t memo_valid;
        struct cost memo[1U << MEMO_BITS];              /* its repriced steps, by new non-neutral CPUs */
        double *work;
        unsigned *rank;                         /* per lane: its rank in mp mode, else its slot */
        double *scratch;
};

static void level_solver_setup(struct level_solver *sv)
{
        const struct sim_board *b = sv->b;
        const struct sim_levels *lv = sv->lv;

        sv->nlevels = lv->nlevels;
        sv->stalled_avail = sv->step_us - b->switch_latency_us;
        if (sv->stalled_avail < 0)
                sv->stalled_avail = 0;
        sv->stalls = b->switch_latency_us > 0;
        sv->ngroups = 0;
        for (unsigned l = 0; l < sv->nlevels; l++) {
                const struct sim_level *lvl = &lv->level[l];
                double off_mw = 0;
                unsigned g = 0;

                while (g < sv->ngroups && sv->group_slots[g] != lvl->nslots)
                        g++;
                if (g == sv->ngroups)
                        sv->group_slots[sv->ngroups++] = lvl->nslots;
                sv->group_of[l] = g;
                sv->group_levels[g]++;
                for (unsigned r = 0; r < lvl->nslots; r++)
                        sv->slot_clusters[g][r] |= (unsigned char)(1U << lv->cpu_cluster[lvl->slot_cpu[r]]);
                /* Summed as exec_level_step() sums it. */
                for (unsigned k = 0; k < b->nclusters; k++)
                        if (!((lvl->clusters >> k) & 1))
                                off_mw += b->cluster[k].off_mw;
                sv->off_energy[l] = off_mw * sv->step_us;
                for (unsigned from = 0; from < sv->nlevels; from++)
                        sv->switch_nj[l][from] = sim_levels_switch_energy_nj(b, lv, from, l);
        }
}

/* Returns whether step s brings the same work as step s - 1: then every
 * price is the same too (idle stretches, steady load). */
static bool level_solver_load_step(struct level_solver *sv, size_t s)
{
        const struct sim_board *b = sv->b;
        const unsigned nlanes = sv->t->nlanes;
        const float *row = sv->t->work + s * nlanes;
        const bool ranked = sv->lv->mode == BL_MODE_MP;
        const double step = sv->step_us;

        if (s > 0 && memcmp(row, row - nlanes, nlanes * sizeof(*row)) == 0)
                return true;
        for (unsigned i = 0; i < nlanes; i++)
                sv->work[i] = row[i];
        if (ranked)
                exec_rank_lanes(nlanes, sv->work, sv->rank);
        for (unsigned g = 0; g < sv->ngroups; g++) {
                double *pending = sv->pending[g];
                const unsigned n = sv->group_slots[g];

                for (unsigned r = 0; r < n; r++)
                        pending[r] = 0;
                if (ranked) {
                        for (unsigned i = 0; i < nlanes; i++) {
                                unsigned r = sv->rank[i];

                                /* r mod n, without dividing in the usual case of few lanes */
                                r = r < n ? r : r < 2 * n ? r - n : r % n;
                                pending[r] += sv->work[i];
                        }
                } else {
                        exec_place_lanes(nlanes, NULL, sv->work, n, sv->rank);
                        for (unsigned i = 0; i < nlanes; i++)
                                pending[sv->rank[i]] += sv->work[i];
                }
                if (sv->group_levels[g] < SLOT_PICKS_MIN_LEVELS)
                        continue;
                for (unsigned r = 0; r < n; r++)
                        for (unsigned k = 0; k < b->nclusters; k++)
                                if ((sv->slot_clusters[g][r] >> k) & 1)
                                        sv->slot_opp[g][r][k] = (unsigned char)exec_pick_opp(
                                                &b->cluster[k], b->reference_capacity, pending[r], step);
        }
        return false;
}

/* Busy time and dropped work of 'pending' in 'avail' at 'capacity', as
 * exec_level_step() settles one CPU. */
static inline double settle(double pending, double capacity, double ref, double avail, double *dropped)
{
        double need_us = pending * ref / capacity, left;

        if (need_us <= avail)
                return need_us;
        left = pending - avail * capacity / ref;
        *dropped += left > 0 ? left : 0;
        return avail;
}

/* A CPU of cluster c at OPP 'opp' with 'pending' work, stalled to 'avail':
 * the OPP stays (the DVFS rule's test still holds, in its own arithmetic, or
 * there is no higher one)... */
static inline bool stall_local(const struct sim_cluster *c, unsigned opp, double ref, double pending,
                               double avail)
{
        return opp == c->nopps - 1 || (avail > 0 && c->opp[opp].capacity * avail >= 1.25 * ref * pending);
}

/* ... and moreover it finishes. */
static inline bool stall_neutral(const struct sim_cluster *c, unsigned opp, double ref, double pending,
                                 double avail)
{
        return stall_local(c, opp, ref, pending, avail) && pending * ref / c->opp[opp].capacity <= avail;
}

/* Level l without any stall, and what a stall of each of its CPUs does. */
static void price_level(struct level_solver *sv, unsigned l)
{
        const struct sim_board *b = sv->b;
        const struct sim_level *lvl = &sv->lv->level[l];
        const unsigned char *cpu_cluster = sv->lv->cpu_cluster;
        const unsigned g = sv->group_of[l];
        const double *pending = sv->pending[g];
        const double ref = b->reference_capacity, step = sv->step_us, avail = sv->stalled_avail;
        struct level_price *pr = &sv->price;
        double sum[BL_MAX_CLUSTERS] = { 0 }, max[BL_MAX_CLUSTERS] = { 0 };
        struct cost cost = { 0, 0 };
        unsigned neutral = 0;

        for (unsigned r = 0; r < lvl->nslots; r++) {
                unsigned k = cpu_cluster[lvl->slot_cpu[r]];

                sum[k] += pending[r];
                if (pending[r] > max[k])
                        max[k] = pending[r];
        }
        for (unsigned k = 0; k < b->nclusters; k++)
                pr->opp[k] = 0;
        if (sv->group_levels[g] >= SLOT_PICKS_MIN_LEVELS) {
                for (unsigned r = 0; r < lvl->nslots; r++) {
                        unsigned k = cpu_cluster[lvl->slot_cpu[r]];

                        if (sv->slot_opp[g][r][k] > pr->opp[k])
                                pr->opp[k] = sv->slot_opp[g][r][k];
                }
        } else {
                for (unsigned k = 0; k < b->nclusters; k++)
                        if ((lvl->clusters >> k) & 1)
                                pr->opp[k] = exec_pick_opp(&b->cluster[k], b->reference_capacity, max[k],
                                                           step);
        }
        for (unsigned k = 0; k < b->nclusters; k++) {
                const struct sim_opp *opp = &b->cluster[k].opp[pr->opp[k]];
                double busy = 0;

                if (!((lvl->clusters >> k) & 1))
                        continue;
                /* The test exec_level_step() makes for the busiest CPU: if it
                 * finishes, all do, and their busy times add up to the
                 * cluster's work's. */
                if (max[k] * ref / opp->capacity <= step) {
                        busy = sum[k] * ref / opp->capacity;
                } else {
                        for (unsigned r = 0; r < lvl->nslots; r++)
                                if (cpu_cluster[lvl->slot_cpu[r]] == k)
                                        busy += settle(pending[r], opp->capacity, ref, step, &cost.dropped);
                }
                cost.energy += busy * opp->core_mw + opp->idle_mw * step;
        }
        cost.energy += sv->off_energy[l];
        pr->unstalled = cost;
        pr->non_neutral = pr->raising = 0;
        if (!sv->stalls)
                return;

        /* Both tests get harder with more work: when the busiest CPU of a
         * cluster is neutral, all its CPUs are. */
        for (unsigned k = 0; k < b->nclusters; k++)
                if ((lvl->clusters >> k) & 1 && stall_neutral(&b->cluster[k], pr->opp[k], ref, max[k], avail))
                        neutral |= 1U << k;
        if (neutral == lvl->clusters)
                return;
        for (unsigned r = 0; r < lvl->nslots; r++) {
                const unsigned cpu = lvl->slot_cpu[r], k = cpu_cluster[cpu];
                const struct sim_cluster *c = &b->cluster[k];
                const struct sim_opp *opp = &c->opp[pr->opp[k]];
                const double capacity = opp->capacity;
                const uint64_t bit = UINT64_C(1) << cpu;
                struct cost now = { 0, 0 }, stalled = { 0, 0 };
                double busy_now, busy_stalled;
                bool local;

                if ((neutral >> k) & 1 || stall_neutral(c, pr->opp[k], ref, pending[r], avail))
                        continue;
                local = stall_local(c, pr->opp[k], ref, pending[r], avail);
                pr->non_neutral |= bit;
                if (!local) {
                        pr->raising |= bit;
                        continue;
                }
                busy_now = settle(pending[r], capacity, ref, step, &now.dropped);
                busy_stalled = settle(pending[r], capacity, ref, avail, &stalled.dropped);
                pr->local[cpu] = (struct cost){ stalled.dropped - now.dropped,
                                                (busy_stalled - busy_now) * opp->core_mw };
        }
}

/* Level l with the CPUs of 'stalled' brought in by the switch (energy
 * without the switch's): exec_level_step()'s rules, CPU by CPU. */
static struct cost price_stalled(const struct level_solver *sv, unsigned l, uint64_t stalled)
{
        const struct sim_board *b = sv->b;
        const struct sim_level *lvl = &sv->lv->level[l];
        const unsigned char *cpu_cluster = sv->lv->cpu_cluster;
        const double *pending = sv->pending[sv->group_of[l]];
        const double ref = b->reference_capacity, step = sv->step_us;
        double max_stalled[BL_MAX_CLUSTERS] = { 0 }, busy[BL_MAX_CLUSTERS] = { 0 };
        bool has_stalled[BL_MAX_CLUSTERS] = { false };
        unsigned opp_of[BL_MAX_CLUSTERS];
        struct cost cost = { 0, 0 };

        for (unsigned r = 0; r < lvl->nslots; r++) {
                unsigned cpu = lvl->slot_cpu[r], k = cpu_cluster[cpu];

                if ((stalled >> cpu) & 1) {
                        has_stalled[k] = true;
                        if (pending[r] > max_stalled[k])
                                max_stalled[k] = pending[r];
                }
        }
        /* The unstalled OPP serves every CPU in the whole step (asking with
         * less time never asks for less); a stalled CPU may ask for more. */
        for (unsigned k = 0; k < b->nclusters; k++) {
                opp_of[k] = sv->price.opp[k];
                if (has_stalled[k]) {
                        unsigned opp = exec_pick_opp(&b->cluster[k], b->reference_capacity, max_stalled[k],
                                                     sv->stalled_avail);

                        if (opp > opp_of[k])
                                opp_of[k] = opp;
                }
        }
        for (unsigned r = 0; r < lvl->nslots; r++) {
                unsigned cpu = lvl->slot_cpu[r], k = cpu_cluster[cpu];
                double avail = (stalled >> cpu) & 1 ? sv->stalled_avail : step;

                double capacity = b->cluster[k].opp[opp_of[k]].capacity;

                busy[k] += settle(pending[r], capacity, ref, avail, &cost.dropped);
        }
        for (unsigned k = 0; k < b->nclusters; k++) {
                const struct sim_opp *opp = &b->cluster[k].opp[opp_of[k]];

                if ((lvl->clusters >> k) & 1)
                        cost.energy += busy[k] * opp->core_mw + opp->idle_mw * step;
        }
        cost.energy += sv->off_energy[l];
        return cost;
}

/* The price of the level being relaxed, l, when 'stalled' (non-neutral CPUs
 * of l, not empty) are new. */
static struct cost price_transition(struct level_solver *sv, unsigned l, uint64_t stalled)
{
        const struct level_price *pr = &sv->price;
        uint64_t nn = pr->non_neutral;
        unsigned index = 0, bit = 0;
        struct cost cost;

        if (!(stalled & pr->raising)) {
                cost = pr->unstalled;
                for (uint64_t rest = stalled; rest; rest &= rest - 1)
                        cost = cost_add(cost, pr->local[__builtin_ctzll(rest)]);
                return cost;
        }
        for (; nn; nn &= nn - 1, bit++) {
                if (bit == MEMO_BITS)
                        return price_stalled(sv, l, stalled);
                if (stalled & nn & -nn)
                        index |= 1U << bit;
        }
        if (!((sv->memo_valid >> index) & 1)) {
                sv->memo[index] = price_stalled(sv, l, stalled);
                sv->memo_valid |= UINT64_C(1) << index;
        }
        return sv->memo[index];
}

/* Candidate (c, f) beats (best, from): less, or as much from a lower level. */
static inline bool candidate_better(struct cost c, unsigned f, struct cost best, unsigned from)
{
        return cost_less(c, best) || (!cost_less(best, c) && f < from);
}

/* reach[l] = the least prev[f] + switch energy from f to l over all f, and
 * from[l] that f (ties to the lower level). The switch energy has a shape in
 * every mode, so this takes O(L) or O(L log L) rather than L^2: a constant
 * (cluster mode: the best and second best), the distance along the ladder
 * times one CPU's share (mp mode: the levels are nested, one CPU apart; a
 * pass up and a pass down), the number of differing pairs times one pair's
 * share (pair mode: a pass per pair over the hypercube of levels). The sums
 * run along one path per (f, l) (one share added per step of the path), so
 * they may differ from the table's in the last bit. */
static void switch_reach(const struct level_solver *sv, const struct cost *prev, struct cost *reach,
                         unsigned char *from)
{
        const unsigned n = sv->nlevels;

        for (unsigned l = 0; l < n; l++) {
                reach[l] = prev[l];
                from[l] = (unsigned char)l;
        }
        if (n < 2)
                return;
        switch (sv->lv->mode) {
        case BL_MODE_PAIR: {
                const double share = sv->switch_nj[1][0];

                /* Along pair p's dimension: every level without p on big
                 * against the same level with it, both from the old values. */
                for (unsigned bit = 1; bit < n; bit <<= 1)
                        for (unsigned lo = 0; lo < n; lo++) {
                                const unsigned hi = lo | bit;
                                struct cost up, down;
                                unsigned char up_from, down_from;

                                if (lo & bit)
                                        continue;
                                up = (struct cost){ reach[lo].dropped, reach[lo].energy + share };
                                down = (struct cost){ reach[hi].dropped, reach[hi].energy + share };
                                up_from = from[lo];
                                down_from = from[hi];
                                if (candidate_better(up, up_from, reach[hi], from[hi])) {
                                        reach[hi] = up;
                                        from[hi] = up_from;
                                }
                                if (candidate_better(down, down_from, reach[lo], from[lo])) {
                                        reach[lo] = down;
                                        from[lo] = down_from;
                                }
                        }
                break;
        }
        case BL_MODE_MP: {
                const double share = sv->switch_nj[1][0];

                for (unsigned l = 1; l < n; l++) {
                        struct cost c = { reach[l - 1].dropped, reach[l - 1].energy + share };

                        if (candidate_better(c, from[l - 1], reach[l], from[l])) {
                                reach[l] = c;
                                from[l] = from[l - 1];
                        }
                }
                for (unsigned l = n - 1; l-- > 0;) {
                        struct cost c = { reach[l + 1].dropped, reach[l + 1].energy + share };

                        if (candidate_better(c, from[l + 1], reach[l], from[l])) {
                                reach[l] = c;
                                from[l] = from[l + 1];
                        }
                }
                break;
        }
        default: {
                const double energy = sv->switch_nj[1][0];
                unsigned best = 0, second = 1;

                if (cost_less(prev[1], prev[0])) {
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
                for (unsigned l = 0; l < n; l++) {
                        unsigned f = best != l ? best : second;
                        struct cost c = { prev[f].dropped, prev[f].energy + energy };

                        if (candidate_better(c, f, reach[l], from[l])) {
                                reach[l] = c;
                                from[l] = (unsigned char)f;
                        }
                }
                break;
        }
        }
}

/* Fills cur[l] and its predecessor for the level just priced. Staying wins
 * ties. */
static void relax(struct level_solver *sv, unsigned l, const struct cost *prev, const struct cost *reach,
                  const unsigned char *reach_from, struct cost *cur, unsigned char *pred)
{
        const struct sim_levels *lv = sv->lv;
        const struct level_price *pr = &sv->price;
        const unsigned n = sv->nlevels;
        const uint64_t active = lv->level[l].active, nn = pr->non_neutral;
        const double *switch_nj = sv->switch_nj[l];
        const struct cost here = pr->unstalled;
        struct cost best = cost_add(prev[l], here);
        unsigned from = l;

        /* No stall changes anything: only the switch energy depends on
         * where the step comes from. */
        if (nn == 0) {
                if (reach_from[l] != l) {
                        struct cost in = cost_add(reach[l], here);

                        if (cost_less(in, best)) {
                                best = in;
                                from = reach_from[l];
                        }
                }
        } else {
                sv->memo_valid = 0;
                for (unsigned f = 0; f < n; f++) {
                        uint64_t stalled = active & ~lv->level[f].active & nn;
                        struct cost step, in;

                        if (f == l)
                                continue;
                        step = stalled ? price_transition(sv, l, stalled) : here;
                        step.energy += switch_nj[f];
                        in = cost_add(prev[f], step);
                        if (cost_less(in, best)) {
                                best = in;
                                from = f;
                        }
                }
        }
        cur[l] = best;
        pred[l] = (unsigned char)from;
}

static unsigned level_solve_forward(struct level_solver *sv, unsigned char *pred)
{
        const unsigned n = sv->nlevels;
        struct cost costs[2][SIM_MAX_LEVELS], reach[SIM_MAX_LEVELS];
        struct cost *prev = costs[0], *cur = costs[1];
        unsigned char reach_from[SIM_MAX_LEVELS];
        unsigned best_last = 0;

        for (size_t s = 0; s < sv->t->nsteps; s++) {
                unsigned char *step_pred = pred + s * n;
                const bool same = level_solver_load_step(sv, s);
                struct cost *swap;

                /* A start is the one state before step 0: reached at no
                 * cost, every other level out of reach. */
                if (s == 0 && sv->start != ORACLE_START_FREE) {
                        for (unsigned l = 0; l < n; l++)
                                prev[l] = l == sv->start ? (struct cost){ 0, 0 } :
                                                           (struct cost){ INFINITY, INFINITY };
                }
                if (s > 0 || sv->start != ORACLE_START_FREE)
                        switch_reach(sv, prev, reach, reach_from);
                for (unsigned l = 0; l < n; l++) {
                        /* A stall's effects are not kept: those levels are priced again. */
                        if (same && !sv->stall_matters[l]) {
                                sv->price.unstalled = sv->unstalled[l];
                                sv->price.non_neutral = sv->price.raising = 0;
                        } else {
                                price_level(sv, l);
                                sv->unstalled[l] = sv->price.unstalled;
                                sv->stall_matters[l] = sv->price.non_neutral != 0;
                        }
                        if (s == 0 && sv->start == ORACLE_START_FREE) {
                                cur[l] = sv->price.unstalled;
                                step_pred[l] = (unsigned char)l;
                        } else {
                                relax(sv, l, prev, reach, reach_from, cur, step_pred);
                        }
                }
                swap = prev;
                prev = cur;
                cur = swap;
        }
        for (unsigned l = 1; l < n; l++)
                if (cost_less(prev[l], prev[best_last]))
                        best_last = l;
        return best_last;
}

static int level_replay(struct level_solver *sv, const unsigned char *seq, struct sim_level_oracle *o)
{
        const struct sim_trace *t = sv->t;
        double energy_nj = 0;

        for (size_t s = 0; s < t->nsteps; s++) {
                const float *row = t->work + s * t->nlanes;
                unsigned prev = s > 0 ? seq[s - 1] : sv->start;
                struct sim_level_step out;
                int err;

                for (unsigned i = 0; i < t->nlanes; i++) {
                        sv->work[i] = row[i];
                        sv->scratch[i] = 0;
                }
                err = exec_level_step(sv->b, sv->lv, seq[s], prev, sv->step_us, t->nlanes, sv->scratch,
                                      sv->work, &out);
                if (err < 0)
                        return err;
                energy_nj += out.energy_nj;
                o->switches += out.switched;
                o->changes += out.changes;
                o->infeasible_steps += out.backlog > 0;
                o->time_in[seq[s]] += t->step_us;
        }
        o->energy_uj = energy_nj / 1000;
        return 0;
}

/* Switch costs beyond the plain one (board_switch_plain()): a stall longer
 * than a step, a part per CPU changed, every CPU stalled, CPUs busy while
 * stalled. The definition stays the one above, with the stall carried as
 * the runs carry it (exec_level_step_stalled()): a switch into level l at
 * step s stalls its CPUs for the switch's latency, in step s and as many
 * steps after it as the latency spans, and the oracle keeps l until the
 * stall has passed (a switch during a stall would only queue behind it).
 * So a switch is one move over a segment of steps, s .. e, priced as the
 * replay prices it, and the programme is over (step, level) where the
 * level has settled (no stall left at the step's end):
 *   best[s][l] = min(best[s-1][l] + step s on l,
 *                    best[s0-1][f] + the segment s0 .. s on l from f, f != l)
 * Segments are pushed forward from their first step; the segment of (l, f)
 * is priced once per step for every f with the same stalled CPUs and
 * latency. Ties go to staying, then to the lower level. O(steps x L^2 x
 * steps a stall spans) in the worst case; one cost, one byte and one start
 * step per step and level. */
struct span_solver {
        const struct sim_board *b;
        const struct sim_levels *lv;
        const struct sim_trace *t;
        double step_us;
        unsigned start;                 /* ORACLE_START_FREE or the level before step 0 */
        double *work, *scratch;
};

/* Steps s, s+1, ... on level 'to' coming from 'from' (SIM_LEVEL_NONE: no
 * switch), each from no backlog, until the stall has passed or the trace
 * ends; returns the last step priced. */
static size_t span_price(const struct span_solver *sv, size_t s, unsigned to, unsigned from,
                         struct cost *cost)
{
        const struct sim_trace *t = sv->t;
        struct sim_stall stall = { 0, 0 };
        unsigned prev = from;
        size_t e = s;

        *cost = (struct cost){ 0, 0 };
        for (;; e++) {
                const float *row = t->work + e * t->nlanes;
                struct sim_level_step out;

                for (unsigned i = 0; i < t->nlanes; i++) {
                        sv->work[i] = row[i];
                        sv->scratch[i] = 0;
                }
                /* Levels and lanes were checked: this cannot fail. */
                (void)exec_level_step_stalled(sv->b, sv->lv, to, prev, &stall, sv->step_us, t->nlanes,
                                              sv->scratch, sv->work, &out);
                cost->dropped += out.backlog;
                cost->energy += out.energy_nj;
                prev = to;
                if (stall.left_us <= 0 || e + 1 == t->nsteps)
                        return e;
        }
}

static void span_relax(struct cost *best, unsigned char *pred, uint32_t *start, size_t at, unsigned n,
                       unsigned l, struct cost c, unsigned from, size_t s0, bool ties_win)
{
        struct cost *cur = &best[at * n + l];

        if (cost_less(c, *cur) || (ties_win && !cost_less(*cur, c))) {
                *cur = c;
                pred[at * n + l] = (unsigned char)from;
                start[at * n + l] = (uint32_t)s0;
        }
}

static int span_solve(const struct span_solver *sv, unsigned char *seq)
{
        const struct sim_levels *lv = sv->lv;
        const size_t nsteps = sv->t->nsteps;
        const unsigned n = lv->nlevels;
        _cleanup_free_ struct cost *best = NULL;
        _cleanup_free_ unsigned char *pred = NULL;
        _cleanup_free_ uint32_t *start = NULL;
        unsigned l;

        if (nsteps > UINT32_MAX || nsteps > SIZE_MAX / n / sizeof(*best))
                return -ENOMEM;
        best = malloc(nsteps * n * sizeof(*best));
        pred = malloc(nsteps * n);
        start = malloc(nsteps * n * sizeof(*start));
        if (!best || !pred || !start)
                return -ENOMEM;
        for (size_t i = 0; i < nsteps * n; i++)
                best[i] = (struct cost){ INFINITY, INFINITY };

        for (size_t s = 0; s < nsteps; s++) {
                for (l = 0; l < n; l++) {
                        struct cost here;

                        if (s == 0 && sv->start != ORACLE_START_FREE && l != sv->start) {
                                /* Out of the start: a switch, its stall carried as any other's. */
                                size_t e = span_price(sv, 0, l, sv->start, &here);

                                span_relax(best, pred, start, e, n, l, here, sv->start, 0, false);
                                continue;
                        }
                        span_price(sv, s, l, SIM_LEVEL_NONE, &here);
                        if (s == 0)
                                span_relax(best, pred, start, 0, n, l, here, l, 0, true);
                        else
                                span_relax(best, pred, start, s, n, l, cost_add(best[(s - 1) * n + l], here),
                                           l, s, true);
                }
                if (s == 0 || n < 2)
                        continue;
                for (l = 0; l < n; l++) {
                        uint64_t memo_cpus[SIM_MAX_LEVELS];
                        double memo_latency[SIM_MAX_LEVELS];
                        struct cost memo_cost[SIM_MAX_LEVELS];
                        size_t memo_end[SIM_MAX_LEVELS];
                        unsigned nmemo = 0;

                        for (unsigned f = 0; f < n; f++) {
                                const struct cost *from = &best[(s - 1) * n + f];
                                uint64_t cpus;
                                double latency;
                                struct cost seg;
                                unsigned m = 0;
                                size_t e;

                                if (f == l || isinf(from->dropped))
                                        continue;
                                cpus = exec_switch_stalls(sv->b, lv, f, l);
                                latency = exec_switch_latency_us(sv->b, lv, f, l);
                                while (m < nmemo && (memo_cpus[m] != cpus || memo_latency[m] != latency))
                                        m++;
                                if (m == nmemo) {
                                        /* Kept without the switch energy, which is the pair's own. */
                                        memo_end[m] = span_price(sv, s, l, f, &memo_cost[m]);
                                        memo_cost[m].energy -= exec_switch_energy_nj(sv->b, lv, f, l);
                                        memo_cpus[m] = cpus;
                                        memo_latency[m] = latency;
                                        nmemo++;
                                }
                                seg = memo_cost[m];
                                e = memo_end[m];
                                seg.energy += exec_switch_energy_nj(sv->b, lv, f, l);
                                span_relax(best, pred, start, e, n, l, cost_add(*from, seg), f, s, false);
                        }
                }
        }

        l = 0;
        for (unsigned k = 1; k < n; k++)
                if (cost_less(best[(nsteps - 1) * n + k], best[(nsteps - 1) * n + l]))
                        l = k;
        for (size_t s = nsteps; s > 0;) {
                size_t s0 = start[(s - 1) * n + l];
                unsigned f = pred[(s - 1) * n + l];

                while (s > s0)
                        seq[--s] = (unsigned char)l;
                l = f;
        }
        return 0;
}

/* Scores 'seq' as the programme priced it: every step from no backlog, the
 * stall carried. */
static int span_replay(const struct span_solver *sv, const unsigned char *seq, struct sim_level_oracle *o)
{
        const struct sim_trace *t = sv->t;
        struct sim_stall stall = { 0, 0 };
        double energy_nj = 0;

        for (size_t s = 0; s < t->nsteps; s++) {
                const float *row = t->work + s * t->nlanes;
                unsigned prev = s > 0 ? seq[s - 1] : sv->start;
                struct sim_level_step out;
                int err;

                for (unsigned i = 0; i < t->nlanes; i++) {
                        sv->work[i] = row[i];
                        sv->scratch[i] = 0;
                }
                err = exec_level_step_stalled(sv->b, sv->lv, seq[s], prev, &stall, sv->step_us, t->nlanes,
                                              sv->scratch, sv->work, &out);
                if (err < 0)
                        return err;
                energy_nj += out.energy_nj;
                o->switches += out.switched;
                o->changes += out.changes;
                o->infeasible_steps += out.backlog > 0;
                o->time_in[seq[s]] += t->step_us;
        }
        o->energy_uj = energy_nj / 1000;
        return 0;
}

/* The end of a level solver's run: on failure an empty result that still
 * names the start, else the sequence handed over when it is wanted. */
static int level_oracle_finish(int err, unsigned start, bool want_sequence, unsigned char **seq,
                               struct sim_level_oracle *o)
{
        if (err < 0) {
                *o = (struct sim_level_oracle){ .start = start };
                return err;
        }
        if (want_sequence) {
                o->sequence = *seq;
                *seq = NULL;
        }
        return 0;
}

static int oracle_solve_span(const struct sim_board *b, const struct sim_levels *lv,
                             const struct sim_trace *t, unsigned start, bool want_sequence,
                             struct sim_level_oracle *o)
{
        _cleanup_free_ unsigned char *seq = NULL;
        _cleanup_free_ double *work = NULL, *scratch = NULL;
        struct span_solver sv = { .b = b, .lv = lv, .t = t, .step_us = (double)t->step_us, .start = start };
        int err;

        seq = malloc(t->nsteps);
        work = malloc(t->nlanes * sizeof(double));
        scratch = malloc(t->nlanes * sizeof(double));
        if (!seq || !work || !scratch)
                return -ENOMEM;
        sv.work = work;
        sv.scratch = scratch;
        err = span_solve(&sv, seq);
        if (err == 0)
                err = span_replay(&sv, seq, o);
        return level_oracle_finish(err, start, want_sequence, &seq, o);
}

int oracle_solve_levels_from(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                             unsigned start, bool want_sequence, struct sim_level_oracle *o)
{
        _cleanup_free_ unsigned char *pred = NULL, *seq = NULL;
        _cleanup_free_ double *work = NULL, *scratch = NULL;
        _cleanup_free_ unsigned *rank = NULL;
        _cleanup_free_ struct level_solver *sv = NULL;
        const unsigned n = lv->nlevels;
        unsigned l;
        int err;

        *o = (struct sim_level_oracle){ .start = start };
        if (n == 0 || n > SIM_MAX_LEVELS || t->nlanes == 0 || t->nlanes > SIM_EXEC_MAX_LANES ||
            (start != ORACLE_START_FREE && start >= n))
                return -EINVAL;
        if (t->nsteps == 0)
                return 0;
        if (!board_switch_plain(b, (double)t->step_us))
                return oracle_solve_span(b, lv, t, start, want_sequence, o);
        if (t->nsteps > SIZE_MAX / n)
                return -ENOMEM;
        sv = calloc(1, sizeof(*sv));
        pred = malloc(t->nsteps * n);
        seq = malloc(t->nsteps);
        work = malloc(t->nlanes * sizeof(double));
        scratch = malloc(t->nlanes * sizeof(double));
        rank = malloc(t->nlanes * sizeof(unsigned));
        if (!sv || !pred || !seq || !work || !scratch || !rank)
                return -ENOMEM;
        sv->b = b;
        sv->start = start;
        sv->lv = lv;
        sv->t = t;
        sv->step_us = (double)t->step_us;
        sv->work = work;
        sv->rank = rank;
        sv->scratch = scratch;
        level_solver_setup(sv);

        l = level_solve_forward(sv, pred);
        for (size_t s = t->nsteps; s-- > 0;) {
                seq[s] = (unsigned char)l;
                l = pred[s * n + l];
        }
        free(pred);
        pred = NULL;

        err = level_replay(sv, seq, o);
        return level_oracle_finish(err, start, want_sequence, &seq, o);
}

int oracle_solve_levels(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                        bool want_sequence, struct sim_level_oracle *o)
{
        return oracle_solve_levels_from(b, lv, t, ORACLE_START_FREE, want_sequence, o);
}

void oracle_level_free(struct sim_level_oracle *o)
{
        free(o->sequence);
        o->sequence = NULL;
}
