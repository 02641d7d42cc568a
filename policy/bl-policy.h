/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The bigLittle heuristic ABI: what a heuristic is given and what it must
 * provide, for the ones compiled in and for external plugins alike.
 *
 * A heuristic turns one sample of the machine into a demand estimate in
 * capacity units (BL_CAPACITY_SCALE = the fastest CPU at its top frequency).
 * It declares its parameters, and the daemon reads them from its own
 * configuration section [policy.NAME], checks them against the declared
 * ranges (with file and line in every error), and hands init() the values.
 * State is private to each instance: the host allocates state_size zeroed
 * bytes per instance, and runs several instances of one heuristic at once
 * (one per CPU pair in pair mode, one per CPU in mp mode). score() must not
 * do I/O or look at the clock: time is 'now', so the daemon, the simulator
 * and the tests get the same answers.
 *
 * This header is installed (as <bigLittle/bl-policy.h>) and includes only
 * the C library, so that a plugin builds out of the tree against it. It is
 * also the one header of the project the core includes from outside core:
 * it holds types only, no code of a higher layer.
 *
 * An external plugin is a shared object that exports one
 * 'const struct bl_policy_plugin bl_policy_plugin' (see BL_POLICY_EXPORT).
 * The daemon loads it only from a root-owned directory nobody else can
 * write, only if the file is root-owned and not writable by group or others,
 * and only if its 'abi' is exactly BL_POLICY_ABI: any change to a structure
 * in this file changes BL_POLICY_ABI. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BL_POLICY_ABI 3

/* Time, in microseconds (of CLOCK_MONOTONIC in the daemon, virtual in the
 * simulator). */
typedef uint64_t bl_usec_t;

#define BL_USEC_PER_MSEC 1000ULL
#define BL_USEC_PER_SEC 1000000ULL

#define BL_CAPACITY_SCALE 1024U
#define BL_POLICY_MAX_PARAMS 8

/* The most CPUs a sample holds, and the most clusters (kinds of CPU, each
 * with its own top capacity) a machine has: what a heuristic sizes
 * per-CPU or per-cluster state by. */
#define BL_MAX_CPUS 1024
#define BL_MAX_CLUSTERS 8

/* One CPU in one sample. */
struct bl_cpu_sample {
        unsigned cpu;                   /* the kernel's CPU number */
        bool online;                    /* ran work in the interval; the rest is meaningless if not */
        float busy;                     /* fraction of the interval, 0..1 */
        uint16_t capacity;              /* capacity at its current frequency */
        uint16_t max_capacity;          /* at its top frequency; 0 when unknown */
        /* Hardware counters over the interval, when has_counters. */
        bool has_counters;
        float ipc;                      /* instructions per cycle */
        float mpki;                     /* cache misses (or backend stalls) per 1000 instructions */
};

/* What the sources saw in the interval that ends at 'now'. 'cpu' lists the
 * CPUs this instance is asked about: every CPU in cluster mode, the two of
 * a pair in pair mode, one in mp mode. */
struct bl_sample {
        bl_usec_t now;
        bl_usec_t interval;             /* length covered; 0 for the first sample */
        unsigned ncpus;
        const struct bl_cpu_sample *cpu;
        bool has_pressure;
        double pressure;                /* PSI cpu "some": share of the interval, 0..1 */
        bool has_temp;
        int temp_mc;                    /* hottest watched thermal zone, m°C */
        /* How long the switch to the next level up would stall work, as
         * the daemon now estimates it for its backend (blsim: the board's
         * cost); 0 at the top level or when switching costs nothing. What a
         * heuristic that bets on load to come weighs its bet with. */
        double switch_up_us;
        /* Tasks runnable on the whole machine when the interval ended,
         * besides the one that sampled (the daemon's tick), when
         * has_running: whether work that started late in the interval
         * (and so reads as a few percent busy) is still going. */
        bool has_running;
        unsigned running;
};

/* Signals a heuristic cannot work without; one that is missing disables the
 * heuristic (the daemon says so once) instead of feeding it zeros. */
enum {
        BL_NEEDS_PRESSURE = 1u << 0,
        BL_NEEDS_COUNTERS = 1u << 1,
};

struct bl_policy_param {
        const char *key;
        const char *unit;               /* shown in errors and docs, e.g. "ms" */
        double def, min, max;
        bool integer;
};

struct bl_heuristic_ops {
        unsigned abi;                   /* BL_POLICY_ABI */
        const char *name;               /* [a-z0-9_-], at most 31 characters */
        const char *summary;
        const struct bl_policy_param *params;
        unsigned nparams;               /* at most BL_POLICY_MAX_PARAMS */
        unsigned needs;                 /* BL_NEEDS_* */
        size_t state_size;
        /* Optional: rules across parameters, each already in its range.
         * Returns 0, or -EINVAL with a sentence for people in 'err'. */
        int (*validate)(const double *params, char *err, size_t size);
        /* 'params' holds one value per descriptor entry. Returns 0 or a
         * negative errno. */
        int (*init)(void *state, const double *params);
        /* Demand in capacity units for the sample ending at 'now'. */
        double (*score)(void *state, const struct bl_sample *s, bl_usec_t now);
        /* Forgets history, keeping the parameters (after a gap in samples). */
        void (*reset)(void *state);
        /* Optional: frees what init() allocated; the host frees the state. */
        void (*destroy)(void *state);
};

struct bl_policy_plugin {
        unsigned abi;                   /* BL_POLICY_ABI */
        unsigned nheuristics;
        const struct bl_heuristic_ops *const *heuristics;
};

#define BL_POLICY_PLUGIN_SYMBOL "bl_policy_plugin"

/* Declares the plugin's entry point, e.g.
 *     BL_POLICY_EXPORT(&heuristic_mine, &heuristic_other);
 */
#define BL_POLICY_EXPORT(...)                                                                       \
        static const struct bl_heuristic_ops *const bl_policy_list_[] = { __VA_ARGS__ };              \
        __attribute__((visibility("default"))) const struct bl_policy_plugin bl_policy_plugin = {    \
                .abi = BL_POLICY_ABI,                                                               \
                .nheuristics = sizeof(bl_policy_list_) / sizeof(bl_policy_list_[0]),               \
                .heuristics = bl_policy_list_,                                                      \
        }

/* Frequency-invariant demand of the busiest online CPU of the sample:
 * busy x capacity. What most heuristics start from. */
static inline double bl_sample_peak_demand(const struct bl_sample *s)
{
        double peak = 0.0;

        for (unsigned i = 0; i < s->ncpus; i++) {
                const struct bl_cpu_sample *c = &s->cpu[i];
                double d;

                if (!c->online)
                        continue;
                d = (double)c->busy * c->capacity;
                if (d > peak)
                        peak = d;
        }
        return peak;
}

/* The most a CPU of the sample could serve: the largest top capacity among
 * its online CPUs (a CPU whose top is unknown counts at its current one). */
static inline double bl_sample_top_capacity(const struct bl_sample *s)
{
        double top = 0.0;

        for (unsigned i = 0; i < s->ncpus; i++) {
                const struct bl_cpu_sample *c = &s->cpu[i];
                double cap;

                if (!c->online)
                        continue;
                cap = c->max_capacity > 0 ? c->max_capacity : c->capacity;
                if (cap > top)
                        top = cap;
        }
        return top;
}
