/* SPDX-License-Identifier: GPL-2.0-or-later */
/* DESIGN.md "Execution, cluster mode", steps 2-5, in doubles. Work that a
 * CPU finishes within the step leaves its lanes with no backlog at all (set
 * to 0, not computed as a difference), so that "cleared" is exact and float
 * residue never shows up as a tiny late-work ratio.
 *
 * Execution of one step on level S, the previous step having run on S'
 * (DESIGN.md's cluster-mode steps 1-5, generalised; cluster mode gives
 * exactly the numbers of exec_step()):
 *
 *   1. Placement. Cluster and pair mode: each step, lane i runs on slot i
 *      mod n (the cluster's CPU, or pair), its own, unless a lower lane with
 *      work is there; then on the lowest slot no lane with work has, if
 *      there is one, else beside the other.
 *      So a lane stays put while its CPU is free and waits behind another
 *      only when every CPU has work, as the kernel wakes a task on its
 *      previous CPU when that is idle and else on an idle one of its
 *      cluster. (Lane i always on CPU i mod cpus, as blsim had it, queued
 *      two of TC2's four video lanes on one big CPU beside an idle one: CPU
 *      pressure no kernel shows.) A lane goes back to its own CPU once that
 *      is free again, so one that moves shows its busy time on two CPUs.
 *      In pair mode the slots are the pairs, each on its active CPU: the
 *      in-kernel switcher's logical CPUs, which the kernel balances alike.
 *      mp mode: lanes are ranked by pending work (backlog + new work),
 *      heaviest first, ties by lane index; the active CPUs are ordered fastest
 *      cluster first, then by CPU number; the lane of rank r runs on active
 *      CPU r mod (active CPUs): the heaviest work on the fast cores, spread
 *      over every active CPU. (The big.LITTLE MP patches and EAS would keep
 *      a light lane on a LITTLE core beside idle fast ones: not modelled,
 *      see tests/bench/RESULTS.md, 2026-12-06.) A CPU's pending work is the
 *      sum of its lanes'.
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
 *   7. CPU pressure, as the kernel's PSI counts "some" for the CPU: a task
 *      waits while another runs on its CPU, or while its CPU is stalled. The
 *      lanes of a CPU share it fairly, so one waits until all but the
 *      largest are done (the largest then runs what it has beyond the
 *      second alone), and a lane on a stalled CPU waits through the stall;
 *      a lane alone on its CPU that cannot finish is running, not waiting,
 *      however late its work. The machine's figure weights each CPU's by
 *      the time it had a task (busy or stalled with work), as PSI weights
 *      its CPUs by non-idle time.
 *   8. Tasks runnable at the step's end, as /proc/loadavg counts them when
 *      a sample is read then: every lane with work left (the one its CPU
 *      runs and those waiting behind it), and on a CPU that finished what
 *      it had, one if the work that arrived in the step needs at least half
 *      the step. Work arrives as a rate: a CPU runs what was pending first
 *      and then keeps up with the arrivals, busy that share of the time, so
 *      from half on it is more likely running than not when the step ends,
 *      as a real thread in the middle of its frame or burst is without
 *      having fallen behind.
 *   A step "switches" when its level differs from the previous step's (one
 *   switch per such step, whatever changed); pair mode also counts the
 *   pairs that changed core, mp mode the CPUs added or removed.
 */
#include <errno.h>

#include "sim/exec.h"

unsigned exec_pick_opp(const struct sim_cluster *c, unsigned reference_capacity, double max_pending,
                       double avail_us)
{
        /* Multiplied out rather than divided, so that a capacity exactly
         * 1.25 times the need is found equal and chosen. */
        double need = 1.25 * reference_capacity * max_pending;
        unsigned lo = 0, hi = c->nopps - 1;

        if (avail_us <= 0)
                return hi;
        /* Capacities ascend, so "enough" holds from some OPP on: bisect for
         * the first (the oracle asks this for every step and cluster). */
        while (lo < hi) {
                unsigned mid = lo + (hi - lo) / 2;

                if (c->opp[mid].capacity * avail_us >= need)
                        hi = mid;
                else
                        lo = mid + 1;
        }
        return lo;
}

void exec_step(const struct sim_board *b, unsigned cluster, bool switched, double step_us, unsigned nlanes,
               double *backlog, const double *new_work, struct sim_step *out)
{
        const struct sim_cluster *c = &b->cluster[cluster];
        const double ref = b->reference_capacity;
        double pending[SIM_MAX_CPUS];
        unsigned slot[SIM_EXEC_MAX_LANES];
        double avail = step_us - (switched ? b->switch_latency_us : 0);
        double max_pending = 0, busy_sum = 0, left = 0, capacity, off_mw = 0;
        unsigned ncpus = c->cpus;

        if (avail < 0)
                avail = 0;
        for (unsigned cpu = 0; cpu < ncpus; cpu++)
                pending[cpu] = 0;
        exec_place_lanes(nlanes, backlog, new_work, ncpus, slot);
        for (unsigned i = 0; i < nlanes; i++)
                pending[slot[i]] += backlog[i] + new_work[i];
        for (unsigned cpu = 0; cpu < ncpus; cpu++)
                if (pending[cpu] > max_pending)
                        max_pending = pending[cpu];

        out->opp = exec_pick_opp(c, b->reference_capacity, max_pending, avail);
        out->avail_us = avail;
        capacity = c->opp[out->opp].capacity;

        /* pending[] becomes what each CPU leaves undone, as the share of its
         * work every one of its lanes keeps (0 = all done, 1 = nothing done). */
        for (unsigned cpu = 0; cpu < ncpus; cpu++) {
                double need_us = pending[cpu] * ref / capacity;

                if (need_us <= avail) {
                        out->busy_us[cpu] = need_us;
                        pending[cpu] = 0;
                } else {
                        double done = avail * capacity / ref;
                        double keep = (pending[cpu] - done) / pending[cpu];

                        out->busy_us[cpu] = avail;
                        pending[cpu] = keep < 0 ? 0 : keep > 1 ? 1 : keep;
                }
                busy_sum += out->busy_us[cpu];
        }
        for (unsigned i = 0; i < nlanes; i++) {
                double share = pending[slot[i]];

                backlog[i] = share > 0 ? (backlog[i] + new_work[i]) * share : 0;
                left += backlog[i];
        }

        for (unsigned k = 0; k < b->nclusters; k++)
                if (k != cluster)
                        off_mw += b->cluster[k].off_mw;
        out->energy_nj = busy_sum * c->opp[out->opp].core_mw + c->opp[out->opp].idle_mw * step_us +
                         off_mw * step_us + (switched ? b->switch_energy_uj * 1000 : 0);
        out->backlog = left;
}

/* Lane a goes before lane b: more pending work, or as much and a lower index. */
static inline bool lane_before(const double *pending, unsigned a, unsigned b)
{
        return pending[a] > pending[b] || (pending[a] == pending[b] && a < b);
}

static void sift_down(unsigned short *order, unsigned root, unsigned n, const double *pending)
{
        for (;;) {
                unsigned child = 2 * root + 1;
                unsigned short tmp;

                if (child >= n)
                        return;
                if (child + 1 < n && lane_before(pending, order[child], order[child + 1]))
                        child++;
                if (!lane_before(pending, order[root], order[child]))
                        return;
                tmp = order[root];
                order[root] = order[child];
                order[child] = tmp;
                root = child;
        }
}

void exec_rank_lanes(unsigned nlanes, const double *pending, unsigned *rank)
{
        unsigned short order[SIM_EXEC_MAX_LANES];

        for (unsigned i = 0; i < nlanes; i++)
                order[i] = (unsigned short)i;
        /* The order is total (ties go by index), so any sort gives the same
         * ranks: insertion for the usual handful of lanes, a heap sort (in
         * place, no allocation) for many. */
        if (nlanes <= 32) {
                for (unsigned i = 1; i < nlanes; i++) {
                        unsigned short lane = order[i];
                        unsigned j = i;

                        for (; j > 0 && lane_before(pending, lane, order[j - 1]); j--)
                                order[j] = order[j - 1];
                        order[j] = lane;
                }
        } else {
                for (unsigned root = nlanes / 2; root-- > 0;)
                        sift_down(order, root, nlanes, pending);
                for (unsigned end = nlanes; end-- > 1;) {
                        unsigned short last = order[0];

                        order[0] = order[end];
                        order[end] = last;
                        sift_down(order, 0, end, pending);
                }
        }
        for (unsigned r = 0; r < nlanes; r++)
                rank[order[r]] = r;
}

void exec_place_lanes(unsigned nlanes, const double *backlog, const double *work, unsigned nslots,
                      unsigned *lane_slot)
{
        bool taken[SIM_MAX_CPUS] = { false };
        unsigned free_slot = 0;

        /* Every lane with work whose own CPU is still free takes it, then
         * the others go to the CPUs left idle. */
        for (unsigned i = 0, home = 0; i < nlanes; i++) {
                const bool has_work = work[i] > 0 || (backlog && backlog[i] > 0);

                lane_slot[i] = home;
                if (has_work && !taken[home])
                        taken[home] = true;
                else if (has_work)
                        lane_slot[i] = SIM_MAX_CPUS;
                if (++home == nslots)
                        home = 0;
        }
        for (unsigned i = 0, home = 0; i < nlanes; i++) {
                if (lane_slot[i] == SIM_MAX_CPUS) {
                        while (free_slot < nslots && taken[free_slot])
                                free_slot++;
                        if (free_slot < nslots) {
                                lane_slot[i] = free_slot;
                                taken[free_slot] = true;
                        } else {
                                lane_slot[i] = home;
                        }
                }
                if (++home == nslots)
                        home = 0;
        }
}

void exec_level_lane_cpus(const struct sim_levels *lv, unsigned level, unsigned nlanes, const double *pending,
                          unsigned *lane_cpu)
{
        const struct sim_level *l = &lv->level[level];

        if (lv->mode == BL_MODE_MP) {
                exec_rank_lanes(nlanes, pending, lane_cpu);
                for (unsigned i = 0; i < nlanes; i++)
                        lane_cpu[i] = l->slot_cpu[lane_cpu[i] % l->nslots];
        } else {
                exec_place_lanes(nlanes, NULL, pending, l->nslots, lane_cpu);
                for (unsigned i = 0; i < nlanes; i++)
                        lane_cpu[i] = l->slot_cpu[lane_cpu[i]];
        }
}

/* Level steps follow exec_step() operation for operation (the same sums in
 * the same order), so that cluster mode gives its numbers to the last bit;
 * a "slot" is an active CPU in the order lanes are dealt to them. */
static bool level_switch(const struct sim_levels *lv, unsigned from, unsigned to)
{
        return from != SIM_LEVEL_NONE && from != to && from < lv->nlevels && to < lv->nlevels;
}

static unsigned cpus_changed(const struct sim_levels *lv, unsigned from, unsigned to)
{
        return (unsigned)__builtin_popcountll(lv->level[from].active ^ lv->level[to].active);
}

double exec_switch_latency_us(const struct sim_board *b, const struct sim_levels *lv, unsigned from,
                              unsigned to)
{
        return level_switch(lv, from, to) ? board_switch_latency_us(b, cpus_changed(lv, from, to)) : 0;
}

/* The fixed part is shared as the plain figure always was (rule 6); the
 * per-CPU part is paid by every CPU brought up or taken down. */
double exec_switch_energy_nj(const struct sim_board *b, const struct sim_levels *lv, unsigned from,
                             unsigned to)
{
        if (!level_switch(lv, from, to))
                return 0;
        return sim_levels_switch_energy_nj(b, lv, from, to) +
               b->switch_energy_per_cpu_uj * 1000 * cpus_changed(lv, from, to);
}

uint64_t exec_switch_stalls(const struct sim_board *b, const struct sim_levels *lv, unsigned from,
                            unsigned to)
{
        if (!level_switch(lv, from, to))
                return 0;
        return b->stall_all ? lv->level[to].active : lv->level[to].active & ~lv->level[from].active;
}

int exec_level_step(const struct sim_board *b, const struct sim_levels *lv, unsigned level, unsigned prev,
                    double step_us, unsigned nlanes, double *backlog, const double *new_work,
                    struct sim_level_step *out)
{
        return exec_level_step_stalled(b, lv, level, prev, NULL, step_us, nlanes, backlog, new_work, out);
}

/* Rule 7 for the step just run: the time a task waited for each CPU
 * ('waited', per slot), weighted by the time the CPU had a task (busy, or
 * stalled with work: what it waited for is in 'waited' then). */
static double waiting_us(const struct sim_level *l, const struct sim_level_step *out, const double *waited,
                         double stall_us, double step_us)
{
        double weighted = 0, nonidle = 0, w;

        for (unsigned r = 0; r < l->nslots; r++) {
                const unsigned cpu = l->slot_cpu[r];
                const bool stalled_with_work = ((out->stalled >> cpu) & 1) && waited[r] > 0;
                const double had_task = out->busy_us[cpu] + (stalled_with_work ? stall_us : 0);

                weighted += waited[r] * had_task;
                nonidle += had_task;
        }
        if (nonidle <= 0)
                return 0;
        w = weighted / nonidle;
        return w < step_us ? w : step_us;
}

int exec_level_step_stalled(const struct sim_board *b, const struct sim_levels *lv, unsigned level,
                            unsigned prev, struct sim_stall *stall, double step_us, unsigned nlanes,
                            double *backlog, const double *new_work, struct sim_level_step *out)
{
        const double ref = b->reference_capacity;
        const struct sim_level *l;
        unsigned lane_slot[SIM_EXEC_MAX_LANES];
        double pending[SIM_MAX_CPUS];           /* per slot */
        double top[SIM_MAX_CPUS][2];            /* per slot: its two largest lanes' work */
        double waited[SIM_MAX_CPUS];            /* per slot: time a lane waited (rule 7) */
        double arrived[SIM_MAX_CPUS];           /* per slot: its lanes' new work (rule 8) */
        double max_now[BL_MAX_CLUSTERS], max_stalled[BL_MAX_CLUSTERS];
        bool has_now[BL_MAX_CLUSTERS], has_stalled[BL_MAX_CLUSTERS];
        double stall_us, stalled_avail, energy = 0, off_mw = 0, left = 0;
        struct sim_stall here = { 0, 0 };
        unsigned n;

        if (level >= lv->nlevels || (prev != SIM_LEVEL_NONE && prev >= lv->nlevels) ||
            nlanes > SIM_EXEC_MAX_LANES)
                return -EINVAL;
        l = &lv->level[level];
        n = l->nslots;
        out->clusters = l->clusters;
        out->switched = prev != SIM_LEVEL_NONE && prev != level;
        out->changes = sim_levels_changes(lv, prev, level);
        if (!stall)
                stall = &here;
        if (out->switched) {
                /* What is left of an earlier stall still stops its CPUs
                 * that stay active; the new one queues behind it. */
                stall->cpus = (stall->left_us > 0 ? stall->cpus & l->active : 0) |
                              exec_switch_stalls(b, lv, prev, level);
                stall->left_us += exec_switch_latency_us(b, lv, prev, level);
        }
        stall_us = stall->left_us < step_us ? stall->left_us : step_us;
        out->stalled = stall_us > 0 || out->switched ? stall->cpus & l->active : 0;
        out->stall_us = stall_us;
        stalled_avail = step_us - stall_us;
        if (stalled_avail < 0)
                stalled_avail = 0;
        stall->left_us -= stall_us;
        if (stall->left_us <= 0) {
                stall->left_us = 0;
                stall->cpus = 0;
        }

        for (unsigned r = 0; r < n; r++)
                pending[r] = top[r][0] = top[r][1] = waited[r] = arrived[r] = 0;
        if (lv->mode == BL_MODE_MP && nlanes > 0) {
                double work[SIM_EXEC_MAX_LANES];

                for (unsigned i = 0; i < nlanes; i++)
                        work[i] = backlog[i] + new_work[i];
                exec_rank_lanes(nlanes, work, lane_slot);
                for (unsigned i = 0; i < nlanes; i++)
                        lane_slot[i] %= n;
        } else {
                exec_place_lanes(nlanes, backlog, new_work, n, lane_slot);
        }
        for (unsigned i = 0; i < nlanes; i++) {
                const unsigned r = lane_slot[i];
                const double w = backlog[i] + new_work[i];

                pending[r] += w;
                arrived[r] += new_work[i];
                if (w > top[r][0]) {
                        top[r][1] = top[r][0];
                        top[r][0] = w;
                } else if (w > top[r][1]) {
                        top[r][1] = w;
                }
        }

        for (unsigned k = 0; k < b->nclusters; k++) {
                max_now[k] = max_stalled[k] = 0;
                has_now[k] = has_stalled[k] = false;
                out->opp[k] = 0;
        }
        for (unsigned r = 0; r < n; r++) {
                unsigned cpu = l->slot_cpu[r], k = lv->cpu_cluster[cpu];

                if ((out->stalled >> cpu) & 1) {
                        has_stalled[k] = true;
                        if (pending[r] > max_stalled[k])
                                max_stalled[k] = pending[r];
                } else {
                        has_now[k] = true;
                        if (pending[r] > max_now[k])
                                max_now[k] = pending[r];
                }
        }
        /* The OPP each CPU asks for grows with its pending / A, so the
         * cluster's is the larger of what its busiest CPU of either kind asks. */
        for (unsigned k = 0; k < b->nclusters; k++) {
                const struct sim_cluster *c = &b->cluster[k];

                if (has_now[k])
                        out->opp[k] = exec_pick_opp(c, b->reference_capacity, max_now[k], step_us);
                if (has_stalled[k]) {
                        unsigned opp = exec_pick_opp(c, b->reference_capacity, max_stalled[k], stalled_avail);

                        if (opp > out->opp[k])
                                out->opp[k] = opp;
                }
        }

        for (unsigned cpu = 0; cpu < b->ncpus; cpu++)
                out->busy_us[cpu] = 0;
        /* pending[] becomes the share of its work every lane of the slot keeps. */
        out->running = 0;
        for (unsigned r = 0; r < n; r++) {
                unsigned cpu = l->slot_cpu[r], k = lv->cpu_cluster[cpu];
                bool stalled = (out->stalled >> cpu) & 1;
                double avail = stalled ? stalled_avail : step_us;
                double capacity = b->cluster[k].opp[out->opp[k]].capacity;
                double need_us = pending[r] * ref / capacity;
                /* Shared fairly, the lanes all run until only the largest
                 * is left, which runs what it has beyond the second alone. */
                double shared_us = need_us - (top[r][0] - top[r][1]) * ref / capacity;

                if (top[r][1] > 0)
                        waited[r] = shared_us < avail ? shared_us : avail;
                if (top[r][0] > 0 && stalled)
                        waited[r] += stall_us;
                if (need_us <= avail) {
                        out->busy_us[cpu] = need_us;
                        pending[r] = 0;
                        if (arrived[r] * ref / capacity >= step_us / 2)
                                out->running++;
                } else {
                        double done = avail * capacity / ref;
                        double keep = (pending[r] - done) / pending[r];

                        out->busy_us[cpu] = avail;
                        pending[r] = keep < 0 ? 0 : keep > 1 ? 1 : keep;
                }
        }
        out->waiting_us = waiting_us(l, out, waited, stall_us, step_us);
        for (unsigned i = 0; i < nlanes; i++) {
                double share = pending[lane_slot[i]];

                backlog[i] = share > 0 ? (backlog[i] + new_work[i]) * share : 0;
                if (backlog[i] > 0)
                        out->running++;
                left += backlog[i];
        }

        for (unsigned k = 0; k < b->nclusters; k++) {
                const struct sim_cluster *c = &b->cluster[k];

                if ((l->clusters >> k) & 1) {
                        const struct sim_opp *opp = &c->opp[out->opp[k]];
                        double busy_sum = 0;

                        for (unsigned j = 0; j < c->cpus; j++)
                                busy_sum += out->busy_us[c->first_cpu + j];
                        energy += busy_sum * opp->core_mw + opp->idle_mw * step_us;
                } else {
                        off_mw += c->off_mw;
                }
        }
        energy += off_mw * step_us;
        /* A CPU held busy through the stall (a state copy, stop_machine's
         * spinning) draws its busy power for it, on top of the idle power
         * of its cluster. */
        if (b->stall_busy && stall_us > 0)
                for (uint64_t rest = out->stalled; rest; rest &= rest - 1) {
                        unsigned cpu = (unsigned)__builtin_ctzll(rest), k = lv->cpu_cluster[cpu];

                        energy += stall_us * b->cluster[k].opp[out->opp[k]].core_mw;
                }
        energy += exec_switch_energy_nj(b, lv, prev, level);
        out->energy_nj = energy;
        out->backlog = left;
        return 0;
}
