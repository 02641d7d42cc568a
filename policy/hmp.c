/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The up/down migration thresholds of ARM's big.LITTLE MP scheduler patches
 * ("HMP", global task scheduling; kernel-abi.md 2.1, power-model.md 4.2),
 * turned into a choice of cluster.
 *
 * HMP compares each task's tracked load with two thresholds on a 0-1023
 * scale: a task on a LITTLE CPU above up_threshold moves to big, a task on big
 * below down_threshold moves back. The load is frequency-invariant (at half
 * speed it accrues at half rate) but relative to the CPU's own top, not to
 * the biggest CPU. With no per-task view, each online CPU stands for the task
 * it runs: its load is 1024 x busy x capacity / max_capacity, averaged with a
 * half-life of load_avg_period_ms (a sample of length dt keeps
 * 2^(-dt/half-life) of the old average; averages start at 0). Loads belong to
 * lanes, the i-th online CPU, not to CPU numbers: when the system moves to the
 * other cluster the work on its i-th CPU is the work that ran on the i-th CPU
 * before, and keeps its history, as a migrated task does.
 *
 * Decision: the busiest lane above up_threshold asks for one level up (a
 * demand just above the active cluster's top); every lane below
 * down_threshold asks for one level down; otherwise stay (a demand equal to
 * the active top). At the top or bottom the engine just stays. One level
 * down is the next lower cluster this heuristic has seen: the demand is the
 * top of the cluster below that one, or 0 when there is none, so the engine
 * lands on the level in between (on two clusters: little).
 *
 * Defaults from the Linaro-derived kernels (/sys/kernel/hmp): up_threshold
 * 700, down_threshold 512, load_avg_period_ms 32 (LOAD_AVG_PERIOD). Early
 * Linaro trees used 512 / 256, the alternative pair: set both keys. */
#include <errno.h>
#include <math.h>

#include "policy/builtin.h"
#include "policy/governor.h"

#define HMP_LOAD_SCALE 1024.0

enum {
        HMP_UP_THRESHOLD,
        HMP_DOWN_THRESHOLD,
        HMP_LOAD_AVG_PERIOD_MS,
};

struct hmp_state {
        double up_threshold;
        double down_threshold;
        double half_life_us;
        unsigned nseen;
        double seen_top[BL_MAX_CLUSTERS];       /* cluster tops met so far, ascending */
        double load[BL_MAX_CPUS];               /* per lane */
};

static const struct bl_policy_param hmp_params[] = {
        [HMP_UP_THRESHOLD] = {
                .key = "up_threshold",
                .unit = "load 0-1024, above down_threshold",
                .def = 700,
                .min = 1,
                .max = 1024,
                .integer = true,
        },
        [HMP_DOWN_THRESHOLD] = {
                .key = "down_threshold",
                .unit = "load 0-1024, below up_threshold",
                .def = 512,
                .min = 0,
                .max = 1023,
                .integer = true,
        },
        [HMP_LOAD_AVG_PERIOD_MS] = {
                .key = "load_avg_period_ms",
                .unit = "ms",
                .def = 32,
                .min = 1,
                .max = 10000,
                .integer = true,
        },
};

static int hmp_init(void *state, const double *params)
{
        struct hmp_state *h = state;

        if (!(params[HMP_DOWN_THRESHOLD] < params[HMP_UP_THRESHOLD]) ||
            !(params[HMP_LOAD_AVG_PERIOD_MS] >= 1))
                return -EINVAL;
        *h = (struct hmp_state){
                .up_threshold = params[HMP_UP_THRESHOLD],
                .down_threshold = params[HMP_DOWN_THRESHOLD],
                .half_life_us = params[HMP_LOAD_AVG_PERIOD_MS] * (double)BL_USEC_PER_MSEC,
        };
        return 0;
}

static void remember_top(struct hmp_state *h, double top)
{
        unsigned pos = 0;

        while (pos < h->nseen && h->seen_top[pos] < top)
                pos++;
        if ((pos < h->nseen && h->seen_top[pos] == top) || h->nseen == BL_MAX_CLUSTERS)
                return;
        for (unsigned i = h->nseen; i > pos; i--)
                h->seen_top[i] = h->seen_top[i - 1];
        h->seen_top[pos] = top;
        h->nseen++;
}

/* The demand that takes the engine one cluster down from the one whose top
 * is 'top': below the cluster under it, above the one under that. */
static double one_level_down(const struct hmp_state *h, double top)
{
        unsigned below = 0;

        while (below < h->nseen && h->seen_top[below] < top)
                below++;
        /* seen_top[below - 1] is the next lower cluster, seen_top[below - 2] the one under it. */
        return below >= 2 ? h->seen_top[below - 2] : 0.0;
}

static double hmp_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        struct hmp_state *h = state;
        const double active_top = gov_active_top(s);
        double keep, busiest = 0.0;
        unsigned lane = 0;

        /* Nothing measured yet: stay. */
        if (s->interval == 0)
                return active_top;
        remember_top(h, active_top);
        keep = exp2(-(double)s->interval / h->half_life_us);
        for (unsigned i = 0; i < s->ncpus && lane < BL_MAX_CPUS; i++) {
                const struct bl_cpu_sample *c = &s->cpu[i];
                double top, load;

                if (!c->online)
                        continue;
                top = c->max_capacity > 0 ? c->max_capacity : c->capacity;
                load = top > 0 ? HMP_LOAD_SCALE * c->busy * c->capacity / top : 0.0;
                if (load > HMP_LOAD_SCALE)
                        load = HMP_LOAD_SCALE;
                h->load[lane] = h->load[lane] * keep + load * (1.0 - keep);
                if (h->load[lane] > busiest)
                        busiest = h->load[lane];
                lane++;
        }

        if (busiest > h->up_threshold)
                return active_top + 1.0;
        if (busiest < h->down_threshold)
                return one_level_down(h, active_top);
        return active_top;
}

static void hmp_reset(void *state)
{
        struct hmp_state *h = state;

        h->nseen = 0;
        for (unsigned i = 0; i < BL_MAX_CPUS; i++)
                h->load[i] = 0.0;
}

const struct bl_heuristic_ops heuristic_hmp = {
        .abi = BL_POLICY_ABI,
        .name = "hmp",
        .summary = "big.LITTLE MP (HMP) migration thresholds on per-CPU tracked load: "
                   "up above up_threshold, down when all below down_threshold",
        .params = hmp_params,
        .nparams = sizeof(hmp_params) / sizeof(hmp_params[0]),
        .state_size = sizeof(struct hmp_state),
        .init = hmp_init,
        .score = hmp_score,
        .reset = hmp_reset,
};
