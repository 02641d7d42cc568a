/* SPDX-License-Identifier: GPL-2.0-or-later */
/* DESIGN.md "Execution, cluster mode", steps 2-5, in doubles. Work that a
 * CPU finishes within the step leaves its lanes with no backlog at all (set
 * to 0, not computed as a difference), so that "cleared" is exact and float
 * residue never shows up as a tiny late-work ratio. */
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
        double avail = step_us - (switched ? b->switch_latency_us : 0);
        double max_pending = 0, busy_sum = 0, left = 0, capacity, off_mw = 0;
        unsigned ncpus = c->cpus;

        if (avail < 0)
                avail = 0;
        for (unsigned cpu = 0; cpu < ncpus; cpu++)
                pending[cpu] = 0;
        /* Lane i runs on CPU i mod ncpus. */
        for (unsigned i = 0, cpu = 0; i < nlanes; i++) {
                pending[cpu] += backlog[i] + new_work[i];
                if (++cpu == ncpus)
                        cpu = 0;
        }
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
        for (unsigned i = 0, cpu = 0; i < nlanes; i++) {
                double share = pending[cpu];

                backlog[i] = share > 0 ? (backlog[i] + new_work[i]) * share : 0;
                left += backlog[i];
                if (++cpu == ncpus)
                        cpu = 0;
        }

        for (unsigned k = 0; k < b->nclusters; k++)
                if (k != cluster)
                        off_mw += b->cluster[k].off_mw;
        out->energy_nj = busy_sum * c->opp[out->opp].core_mw + c->opp[out->opp].idle_mw * step_us +
                         off_mw * step_us + (switched ? b->switch_energy_uj * 1000 : 0);
        out->backlog = left;
}
