/* SPDX-License-Identifier: GPL-2.0-or-later */
/* System levels and execution rules of the three switching modes.
 *
 * A system level is a set of active board CPUs, those that run work in a
 * step; the others are offline. CPUs are numbered cluster by cluster in board
 * order (the most efficient cluster's first). Each mode is a ladder of system
 * levels, level 0 the most efficient:
 *
 *   cluster  Level k = the CPUs of cluster k. Names as the daemon's ladder:
 *            little, big; little, mid, big; little, mid1, mid2, ..., big.
 *   pair     The in-kernel switcher: exactly two clusters. P = min(cpus of
 *            LITTLE, cpus of big) pairs, pair p = (the LITTLE cluster's p-th
 *            CPU, the big cluster's p-th CPU), each running on one of its two
 *            CPUs. Unpaired CPUs stay offline throughout (the switcher takes
 *            them down: TC2's 3 A7 and 2 A15 make 2 pairs, the third A7 off).
 *            The 2^P levels are the combinations: bit p of the level's index
 *            set = pair p on its big CPU, so level 0 is all LITTLE and level
 *            2^P - 1 all big. Names: one letter per pair, pair 0 first, L or B
 *            ("LLLL", "BLLL", "LBLL", "BBLL", ...). At most 6 pairs (64
 *            levels), the size of the oracle's state space.
 *   mp       All CPUs usable ("true eight-core"): level j = every CPU of the
 *            most efficient cluster plus the first j CPUs of the faster ones,
 *            taken fastest cluster first and by CPU number within a cluster,
 *            for j = 0 .. the number of faster CPUs. Names little,
 *            little+1big, little+2big, ..., and the last one all; with a
 *            mid cluster its CPUs are named too (little+2big+1mid), as in
 *            core/ladder.c.
 *
 * Execution of one step on level S, the previous step having run on S'
 * (DESIGN.md's cluster-mode steps 1-5, generalised; cluster mode gives
 * exactly the numbers of exec_step()):
 *
 *   1. Placement. Cluster mode: lane i runs on the cluster's (i mod cpus)-th
 *      CPU. Pair mode: lane i runs on pair i mod P, on that pair's active CPU.
 *      mp mode: lanes are ranked by pending work (backlog + new work),
 *      heaviest first, ties by lane index; the active CPUs are ordered fastest
 *      cluster first, then by CPU number; the lane of rank r runs on active
 *      CPU r mod (active CPUs): the heaviest work on the fast cores, as an
 *      HMP/EAS scheduler places it. A CPU's pending work is the sum of its
 *      lanes'.
 *   2. Stall. A CPU active in S but not in S' (brought in by this step) has
 *      A = step - switch_latency_us (at least 0) of available time, every
 *      other CPU A = step. The run's first step pays nothing. (In cluster
 *      mode every CPU of a newly entered cluster stalls: DESIGN.md step 1.)
 *      A backend's cost (board.h, struct sim_switch_model) adds
 *      switch_latency_per_cpu_us per CPU in S xor S', may stall every CPU
 *      of S (stalls = all), and a stall longer than the step goes on into
 *      the next steps, in which those CPUs have A = step - what is left of
 *      it (exec_level_step_stalled(); a switch during a stall queues
 *      behind it). A stalled CPU that is "busy" while stalled draws its
 *      cluster's core_mW for the stalled time on top of rule 5.
 *   3. DVFS, per cluster with an active CPU: the lowest OPP whose capacity
 *      is at least 1.25 x reference_capacity x the largest pending / A over
 *      the cluster's active CPUs, else the top one; a CPU with A = 0 asks
 *      for the top one.
 *   4. Each active CPU is busy min(A, pending x reference_capacity /
 *      capacity) with its own A; what it cannot finish stays as backlog of
 *      its lanes, shared in proportion to what each brought.
 *   5. Energy = sum over active CPUs of busy x core_mW of its cluster's OPP
 *      + idle_mW x step for every cluster with an active CPU + off_mW x step
 *      for every cluster without one + the switch energy.
 *   6. Switch energy. Cluster mode: switch_energy_uj once per change of
 *      cluster. Pair mode: switch_energy_uj x (pairs that changed core) / P.
 *      mp mode: switch_energy_uj x (CPUs added or removed) / (CPUs of the
 *      fastest cluster). The board's figure is the cost of switching the
 *      whole system, i.e. of powering a cluster up and another down, and
 *      power-model.md section 4.3 shows that this power-up and power-down
 *      dominates it (E_up + E_down tail are 150 of the 156 µJ of the
 *      A7@1200 -> A15@800 switch; blocking, 6.6 µJ, is the small part): so
 *      a single pair, or a single CPU brought up or down, pays its share of
 *      the cluster's figure, and switching every pair at once costs what a
 *      cluster migration costs.
 *      A backend's energy_per_cpu_uj is added per CPU in S xor S'.
 *   A step "switches" when its level differs from the previous step's (one
 *   switch per such step, whatever changed); pair mode also counts the
 *   pairs that changed core, mp mode the CPUs added or removed.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "core/ladder.h"
#include "sim/exec.h"
#include "sim/modes.h"
#include "sim/rtapp.h"
#include "sim/run.h"

_Static_assert(SIM_MAX_LEVELS == 1U << SIM_MAX_PAIRS, "one level per combination of pairs");
_Static_assert(SIM_MAX_LEVELS <= 256 && SIM_MAX_CPUS <= 256, "levels and CPUs fit in a byte");
_Static_assert(SIM_MAX_CPUS <= 64, "active sets are 64-bit masks");
_Static_assert(SIM_TRACE_MAX_LANES <= SIM_EXEC_MAX_LANES && RTAPP_MAX_LANES <= SIM_EXEC_MAX_LANES,
               "every workload's lanes can be placed");

static void level_add_cpu(struct sim_levels *lv, struct sim_level *l, unsigned cpu)
{
        l->active |= UINT64_C(1) << cpu;
        l->clusters |= 1U << lv->cpu_cluster[cpu];
        l->slot_cpu[l->nslots++] = (unsigned char)cpu;
}

static void build_cluster(struct sim_levels *lv, const struct sim_board *b)
{
        lv->nlevels = b->nclusters;
        lv->switch_share = 1;
        for (unsigned k = 0; k < b->nclusters; k++) {
                struct sim_level *l = &lv->level[k];

                ladder_cluster_level_name(l->name, sizeof(l->name), k, b->nclusters);
                for (unsigned j = 0; j < b->cluster[k].cpus; j++)
                        level_add_cpu(lv, l, b->cluster[k].first_cpu + j);
        }
}

static int build_pair(struct sim_levels *lv, const struct sim_board *b, struct bl_diag *diag)
{
        const struct sim_cluster *little = &b->cluster[0], *big = &b->cluster[1];
        unsigned npairs;

        if (b->nclusters != 2) {
                diag_add(diag, "board %s: pair mode needs exactly two clusters (the in-kernel switcher pairs "
                         "one LITTLE CPU with one big CPU), this board has %u", b->name, b->nclusters);
                return b->nclusters < 2 ? -EINVAL : -EOPNOTSUPP;
        }
        npairs = little->cpus < big->cpus ? little->cpus : big->cpus;
        if (npairs > SIM_MAX_PAIRS) {
                diag_add(diag, "board %s: pair mode supports at most %u pairs (%u system levels for the "
                         "oracle), this board has %u", b->name, SIM_MAX_PAIRS, 1U << SIM_MAX_PAIRS, npairs);
                return -E2BIG;
        }
        lv->npairs = npairs;
        lv->nlevels = 1U << npairs;
        lv->switch_share = npairs;
        for (unsigned p = 0; p < npairs; p++) {
                lv->pair_cpu[p][0] = (unsigned char)(little->first_cpu + p);
                lv->pair_cpu[p][1] = (unsigned char)(big->first_cpu + p);
        }
        for (unsigned j = npairs; j < little->cpus; j++)
                lv->unpaired |= UINT64_C(1) << (little->first_cpu + j);
        for (unsigned j = npairs; j < big->cpus; j++)
                lv->unpaired |= UINT64_C(1) << (big->first_cpu + j);
        for (unsigned mask = 0; mask < lv->nlevels; mask++) {
                struct sim_level *l = &lv->level[mask];

                for (unsigned p = 0; p < npairs; p++) {
                        bool on_big = (mask >> p) & 1;

                        l->name[p] = on_big ? 'B' : 'L';
                        level_add_cpu(lv, l, lv->pair_cpu[p][on_big]);
                }
                l->name[npairs] = '\0';
        }
        return 0;
}

static int build_mp(struct sim_levels *lv, const struct sim_board *b, struct bl_diag *diag)
{
        unsigned faster[SIM_MAX_CPUS], nfaster = 0, count[BL_MAX_CLUSTERS] = { 0 };

        if (b->nclusters < 2) {
                diag_add(diag, "board %s: mp mode needs at least two clusters, this board has %u", b->name,
                         b->nclusters);
                return -EINVAL;
        }
        for (unsigned k = b->nclusters; k-- > 1;)
                for (unsigned j = 0; j < b->cluster[k].cpus; j++)
                        faster[nfaster++] = b->cluster[k].first_cpu + j;
        lv->nlevels = nfaster + 1;
        lv->switch_share = b->cluster[b->nclusters - 1].cpus;
        for (unsigned level = 0; level <= nfaster; level++) {
                struct sim_level *l = &lv->level[level];

                if (level > 0)
                        count[lv->cpu_cluster[faster[level - 1]]]++;
                if (level == nfaster && level > 0)
                        snprintf(l->name, sizeof(l->name), "all");
                else
                        ladder_mp_level_name(l->name, sizeof(l->name), b->nclusters, count);
                /* Fastest first, then the LITTLE cluster by CPU number. */
                for (unsigned j = 0; j < level; j++)
                        level_add_cpu(lv, l, faster[j]);
                for (unsigned j = 0; j < b->cluster[0].cpus; j++)
                        level_add_cpu(lv, l, b->cluster[0].first_cpu + j);
        }
        return 0;
}

int sim_levels_build(struct sim_levels *lv, const struct sim_board *b, enum bl_mode mode,
                     struct bl_diag *diag)
{
        *lv = (struct sim_levels){ .mode = mode };
        if (b->nclusters == 0 || b->nclusters > BL_MAX_CLUSTERS || b->ncpus > SIM_MAX_CPUS) {
                diag_add(diag, "board %s: no usable cluster", b->name);
                return -EINVAL;
        }
        for (unsigned k = 0; k < b->nclusters; k++)
                for (unsigned j = 0; j < b->cluster[k].cpus; j++)
                        lv->cpu_cluster[b->cluster[k].first_cpu + j] = (unsigned char)k;

        switch (mode) {
        case BL_MODE_CLUSTER:
                build_cluster(lv, b);
                return 0;
        case BL_MODE_PAIR:
                return build_pair(lv, b, diag);
        case BL_MODE_MP:
                return build_mp(lv, b, diag);
        case BL_MODE_AUTO:
        default:
                diag_add(diag, "the simulator needs a mode (cluster, pair or mp), not %s",
                         mode_to_string(mode));
                return -EINVAL;
        }
}

int sim_levels_find(const struct sim_levels *lv, const char *name)
{
        for (unsigned i = 0; i < lv->nlevels; i++)
                if (strcmp(lv->level[i].name, name) == 0)
                        return (int)i;
        return -ENOENT;
}

unsigned sim_levels_changes(const struct sim_levels *lv, unsigned from, unsigned to)
{
        if (from == SIM_LEVEL_NONE || from == to)
                return 0;
        switch (lv->mode) {
        case BL_MODE_PAIR:
                return (unsigned)__builtin_popcount(from ^ to);
        case BL_MODE_MP:
                return (unsigned)__builtin_popcountll(lv->level[from].active ^ lv->level[to].active);
        default:
                return 1;
        }
}

double sim_levels_switch_energy_nj(const struct sim_board *b, const struct sim_levels *lv, unsigned from,
                                   unsigned to)
{
        unsigned changes = sim_levels_changes(lv, from, to);

        /* Multiplied before dividing, so that a whole cluster's change
         * (changes == switch_share) is the board's figure exactly. */
        return changes ? b->switch_energy_uj * 1000 * changes / lv->switch_share : 0;
}

/* The top capacity of the CPU each lane would run on with its backlog as
 * the only pending work. */
static void lane_capacities(const struct sim_board *b, const struct sim_levels *lv, unsigned level,
                            unsigned nlanes, const double *backlog, unsigned *lane_cpu, double *capacity)
{
        exec_level_lane_cpus(lv, level, nlanes, backlog, lane_cpu);
        for (unsigned i = 0; i < nlanes; i++) {
                const struct sim_cluster *c = &b->cluster[lv->cpu_cluster[lane_cpu[i]]];

                capacity[i] = c->opp[c->nopps - 1].capacity;
        }
}

/* sim_run_fixed_level() and sim_run_sequence(): 'seq' (nseq levels) or,
 * when it is NULL, 'level' for every step. */
static int run_levels(const struct sim_board *b, const struct sim_levels *lv, struct sim_workload *w,
                      unsigned level, const unsigned char *seq, size_t nseq, struct sim_result *r,
                      struct sim_trace *record, struct sim_timeline *tl)
{
        bl_usec_t last_point = 0;
        _cleanup_free_ double *backlog = NULL;
        _cleanup_free_ unsigned *lane_cpu = NULL;
        const unsigned nlanes = w->nlanes;
        double *new_work, *capacity, energy_nj = 0, late = 0;
        unsigned prev = SIM_LEVEL_NONE, placed = SIM_LEVEL_NONE;
        struct sim_stall stall = { 0, 0 };
        size_t size = 0;
        int err;

        *r = (struct sim_result){ 0 };
        if (record)
                *record = (struct sim_trace){ .step_us = w->step_us, .nlanes = nlanes };
        if (nlanes == 0 || nlanes > SIM_EXEC_MAX_LANES || w->step_us == 0 || (!seq && level >= lv->nlevels))
                return -EINVAL;
        for (size_t s = 0; seq && s < nseq; s++)
                if (seq[s] >= lv->nlevels)
                        return -EINVAL;
        if (w->reset) {
                err = w->reset(w);
                if (err < 0)
                        return err;
        }
        backlog = calloc(3 * (size_t)nlanes, sizeof(double));
        lane_cpu = calloc(nlanes, sizeof(unsigned));
        if (!backlog || !lane_cpu)
                return -ENOMEM;
        new_work = backlog + nlanes;
        capacity = new_work + nlanes;

        for (;;) {
                struct sim_level_step st;
                unsigned here;

                if (seq && r->steps == nseq) {
                        err = 1;
                        break;
                }
                here = seq ? seq[r->steps] : level;
                /* Placement by lane index changes only with the level. */
                if (here != placed || lv->mode == BL_MODE_MP) {
                        lane_capacities(b, lv, here, nlanes, backlog, lane_cpu, capacity);
                        placed = here;
                }
                err = w->begin_step(w, r->steps, (bl_usec_t)r->steps * w->step_us, capacity, new_work);
                if (err != 0)
                        break;
                if (tl && (here != prev || (bl_usec_t)r->steps * w->step_us >= last_point + SIM_TIMELINE_US)) {
                        last_point = (bl_usec_t)r->steps * w->step_us;
                        err = sim_timeline_add(tl, last_point, NAN, here, energy_nj / 1000.0);
                        if (err < 0)
                                break;
                }
                for (unsigned i = 0; i < nlanes; i++)
                        r->total_work += new_work[i];
                err = exec_level_step_stalled(b, lv, here, prev, &stall, (double)w->step_us, nlanes, backlog,
                                              new_work, &st);
                if (err < 0)
                        break;
                if (w->end_step)
                        w->end_step(w, r->steps, (bl_usec_t)(r->steps + 1) * w->step_us, backlog);
                if (record) {
                        err = trace_append(record, &size, new_work);
                        if (err < 0)
                                break;
                }
                energy_nj += st.energy_nj;
                late += st.backlog;
                for (unsigned k = 0; k < b->nclusters; k++)
                        if ((st.clusters >> k) & 1)
                                r->time_in[k] += w->step_us;
                r->switches += st.switched;
                r->changes += st.changes;
                prev = here;
                r->steps++;
        }
        if (err == 1)
                err = 0;
        if (err == 0 && tl && prev != SIM_LEVEL_NONE)
                err = sim_timeline_add(tl, (bl_usec_t)r->steps * w->step_us, NAN, prev, energy_nj / 1000.0);
        sim_result_finish(r, energy_nj, late, w);
        if (err < 0 && record)
                trace_free(record);
        return err;
}

int sim_run_fixed_level(const struct sim_board *b, const struct sim_levels *lv, struct sim_workload *w,
                        unsigned level, struct sim_result *r, struct sim_trace *record)
{
        return run_levels(b, lv, w, level, NULL, 0, r, record, NULL);
}

int sim_run_sequence(const struct sim_board *b, const struct sim_levels *lv, struct sim_workload *w,
                     const unsigned char *seq, size_t nseq, struct sim_result *r)
{
        return run_levels(b, lv, w, 0, seq, nseq, r, NULL, NULL);
}

int sim_run_levels_timeline(const struct sim_board *b, const struct sim_levels *lv, struct sim_workload *w,
                            unsigned level, const unsigned char *seq, size_t nseq, struct sim_result *r,
                            struct sim_timeline *tl)
{
        tl->n = 0;
        return run_levels(b, lv, w, level, seq, nseq, r, NULL, tl);
}
