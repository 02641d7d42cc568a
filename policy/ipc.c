/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Memory-bound work gains little from big cores: its execution time stops
 * improving above about 1.0 GHz on a Cortex-A7 and 0.8 GHz on an A15, and
 * the A15 at its top runs it only about 1.4 times as fast as the A7 at its
 * top, against 2.3 to 2.7 times for compute-bound work (power-model.md, 3
 * and 5).
 * busy x capacity assumes the work would speed up in proportion to
 * capacity, so for memory-bound work it overstates what a faster level
 * would give, and, measured on a fast CPU, what a slower one would need.
 *
 * The capacity a CPU ran at is therefore counted in full only up to the
 * knee (knee_capacity_pct of BL_CAPACITY_SCALE, where memory-bound work
 * stops speeding up); the capacity above it counts 1 - discount x m, m
 * being how memory-bound the CPU's work was:
 *
 *     m      = min(max((mpki - mpki_low) / (mpki_high - mpki_low), 0), 1)
 *     demand = busy x (capacity - discount x m x max(capacity - knee, 0))
 *
 * and the score is the largest demand of the online CPUs. A CPU without
 * counters (or whose mpki is not a number) counts busy x capacity.
 *
 * Why discount the capacity above the knee, and not the whole demand or
 * the demand above some reference: a LITTLE CPU runs close to the knee, so
 * there memory-bound work keeps nearly all of its demand, and work that
 * saturates the LITTLE cores still goes up, where it runs 1.4 times as fast
 * (the level it gets must serve it); it only needs a little more of the
 * LITTLE CPU than compute-bound work before it pushes (at the defaults a
 * fully memory-bound CPU of capacity 377 counts 322 when saturated, above
 * 80% of 377 only beyond 94% busy). On a big CPU, far above the knee, it
 * reads close to what it would need below, so it comes down instead of
 * holding the big cluster: 30% busy on a CPU of 1024 counts 194, not 307.
 * Discounting the whole demand would keep saturated memory-bound work on
 * LITTLE, unserved; discounting only the demand above a reference
 * capacity changes nothing while the demand is below it, which is where
 * every decision to come down is taken.
 *
 * Why mpki and not ipc: instructions per cycle depend on the core as much
 * as on the work (the in-order A7 and the out-of-order A15 differ by about
 * 1.6 on the same code), so one threshold cannot serve both clusters;
 * misses per instruction belong to the work and its working set. (The
 * source fills mpki from cache misses or backend stalls; ipc is not used.)
 *
 * Defaults: mpki_low 2 and mpki_high 20 misses per 1000 instructions
 * (compute kernels miss well below 2 per 1000 instructions, streaming and
 * pointer-chasing ones 20 and more), discount 0.5 (at about 0.8 a fully
 * memory-bound A15 at its top would count 1.4 times an A7 at its top, as
 * measured; less, since mpki is a rough measure of stall time and a
 * discount too large costs late work where one too small costs only
 * energy), knee_capacity_pct 26 (an A7 at 1.0 GHz: 269 of 1024). A sample
 * of length 0 (the first) carries no counts: it scores the plain peak. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "policy/builtin.h"

enum {
        IPC_MPKI_LOW,
        IPC_MPKI_HIGH,
        IPC_DISCOUNT,
        IPC_KNEE_CAPACITY_PCT,
};

struct ipc_state {
        double mpki_low, mpki_high;
        double discount;
        double knee;                    /* capacity units */
};

static const struct bl_policy_param ipc_params[] = {
        [IPC_MPKI_LOW] = {
                .key = "mpki_low",
                .unit = "misses per 1000 instructions, below mpki_high",
                .def = 2,
                .min = 0,
                .max = 1000,
        },
        [IPC_MPKI_HIGH] = {
                .key = "mpki_high",
                .unit = "misses per 1000 instructions, above mpki_low",
                .def = 20,
                .min = 0,
                .max = 1000,
        },
        [IPC_DISCOUNT] = {
                .key = "discount",
                .unit = "share of the capacity above the knee, 0-1",
                .def = 0.5,
                .min = 0,
                .max = 1,
        },
        [IPC_KNEE_CAPACITY_PCT] = {
                .key = "knee_capacity_pct",
                .unit = "% of the fastest CPU's top capacity",
                .def = 26,
                .min = 0,
                .max = 100,
                .integer = true,
        },
};

static bool mpki_ordered(const double *params)
{
        return params[IPC_MPKI_LOW] < params[IPC_MPKI_HIGH];
}

static int ipc_validate(const double *params, char *err, size_t size)
{
        if (mpki_ordered(params))
                return 0;
        snprintf(err, size,
                 "mpki_low (%g) must be below mpki_high (%g): between the two the work counts as "
                 "more and more memory-bound.",
                 params[IPC_MPKI_LOW], params[IPC_MPKI_HIGH]);
        return -EINVAL;
}

static int ipc_init(void *state, const double *params)
{
        struct ipc_state *ip = state;

        for (unsigned i = 0; i < sizeof(ipc_params) / sizeof(ipc_params[0]); i++)
                if (!(params[i] >= ipc_params[i].min && params[i] <= ipc_params[i].max))
                        return -EINVAL;
        if (!mpki_ordered(params))
                return -EINVAL;
        *ip = (struct ipc_state){
                .mpki_low = params[IPC_MPKI_LOW],
                .mpki_high = params[IPC_MPKI_HIGH],
                .discount = params[IPC_DISCOUNT],
                .knee = params[IPC_KNEE_CAPACITY_PCT] / 100.0 * BL_CAPACITY_SCALE,
        };
        return 0;
}

/* 0 for compute-bound work, 1 for work that is all memory stalls. */
static double memory_boundness(const struct ipc_state *ip, const struct bl_cpu_sample *c)
{
        double m;

        if (!c->has_counters || isnan(c->mpki))
                return 0.0;
        m = ((double)c->mpki - ip->mpki_low) / (ip->mpki_high - ip->mpki_low);
        return fmin(fmax(m, 0.0), 1.0);
}

static double ipc_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        const struct ipc_state *ip = state;
        double peak = 0.0;

        if (s->interval == 0)
                return bl_sample_peak_demand(s);
        for (unsigned i = 0; i < s->ncpus; i++) {
                const struct bl_cpu_sample *c = &s->cpu[i];
                double cap = c->capacity, above_knee = fmax(cap - ip->knee, 0.0), d;

                if (!c->online)
                        continue;
                d = (double)c->busy * (cap - ip->discount * memory_boundness(ip, c) * above_knee);
                if (d > peak)
                        peak = d;
        }
        return peak;
}

/* Nothing to forget: each sample is scored on its own. */
static void ipc_reset(void *state)
{
}

const struct bl_heuristic_ops heuristic_ipc = {
        .abi = BL_POLICY_ABI,
        .name = "ipc",
        .summary = "peak demand with the capacity above a knee discounted for memory-bound CPUs (mpki)",
        .params = ipc_params,
        .nparams = sizeof(ipc_params) / sizeof(ipc_params[0]),
        .needs = BL_NEEDS_COUNTERS,
        .state_size = sizeof(struct ipc_state),
        .validate = ipc_validate,
        .init = ipc_init,
        .score = ipc_score,
        .reset = ipc_reset,
};
