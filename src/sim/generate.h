/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Workload families: seeded generators of traces (sim/trace.h) for each kind
 * of load a phone or board sees. Each family draws its parameters from
 * documented ranges, then builds the trace from jobs (work arriving on a
 * lane at a rate for a while). Pure: no I/O, and the same bytes for the same
 * family, seed and duration on every machine (a PRNG of our own, and nothing
 * but IEEE arithmetic on the draws). */

#include <stdint.h>

#include "sim/trace.h"

/* Steps of every generated trace, as the visible suite's. */
#define SIM_GEN_STEP_US 1000ULL
/* Longest trace generated: an hour of 8 lanes is 115 MB of CSV. */
#define SIM_GEN_MAX_DURATION_US (3600ULL * BL_USEC_PER_SEC)
#define SIM_GEN_MAX_PARAMS 12

struct sim_gen_param {
        const char *name;
        double lo, hi;                  /* drawn uniformly in [lo, hi] */
        bool integer;                   /* drawn among the whole numbers lo..hi */
        const double *choices;          /* or one of these, lo and hi their bounds */
        unsigned nchoices;
        const char *what;
};

struct gen;

struct sim_gen_family {
        const char *name;
        const char *summary;
        unsigned nlanes;
        bl_usec_t duration_us;          /* when none is asked for */
        const struct sim_gen_param *params;
        unsigned nparams;
        /* Builds the load between the context's window, from the parameters
         * drawn in the order of 'params'. */
        void (*build)(struct gen *g, const double *p);
};

/* NULL-terminated, in the order `blsim generate --list` shows them. */
extern const struct sim_gen_family *const sim_gen_families[];

/* NULL when there is no such family. */
const struct sim_gen_family *sim_gen_family_find(const char *name);

/* Draws the family's parameters (sim_gen_param) from 'g' into 'p' (a
 * builder that runs other families' builders draws theirs too). */
void sim_gen_draw_params(struct gen *g, const struct sim_gen_family *f, double *p);

/* The parameters one trace was built with, in the family's order. */
struct sim_gen_drawn {
        unsigned n;
        double value[SIM_GEN_MAX_PARAMS];
};

/* Generates FAMILY's trace for 'seed', 'duration_us' long (0: the family's
 * own; whole steps, at most SIM_GEN_MAX_DURATION_US). 'drawn' may be NULL.
 * Returns 0, -EINVAL for a duration out of range, or -ENOMEM; 't' holds
 * nothing on failure. */
int sim_generate(struct sim_trace *t, struct sim_gen_drawn *drawn, const struct sim_gen_family *f, uint64_t seed,
                 bl_usec_t duration_us);

/* The trace as the file blsim reads (sim/trace.c), with comment lines that
 * say how to make it again and what was drawn. Its work must be whole numbers
 * up to one step's, as sim_generate() makes them. '*ret' is NUL-terminated and
 * the caller's to free. Returns 0 or -ENOMEM. */
int sim_generate_format(const struct sim_trace *t, const struct sim_gen_drawn *drawn,
                        const struct sim_gen_family *f, uint64_t seed, char **ret, size_t *ret_len);
