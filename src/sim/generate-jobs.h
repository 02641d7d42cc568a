/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What the families' builders (generate-families.c) are made of: the
 * generator's PRNG and the jobs they place on lanes (generate-jobs.c).
 * Times are in ms, which are the steps of a generated trace; work and rates
 * in reference-µs. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gen {
        uint64_t s[4];          /* xoshiro256** */
        unsigned nlanes;
        size_t nsteps;
        double *work;           /* nsteps x nlanes; clipped to one step's work when written */
        double t0, t1;          /* the part being built (a phase of "mixed", else all of it) */
};

/* Uniform in [lo, hi). */
double gen_uniform(struct gen *g, double lo, double hi);
bool gen_chance(struct gen *g, double p);
/* 0 .. n-1. */
unsigned gen_pick(struct gen *g, unsigned n);
/* Families differ for the same seed: the name goes into the state. */
void gen_seed(struct gen *g, const char *family, uint64_t seed);

/* 'rate' per ms on 'lane' for the whole steps from 'start' to 'start + dur'. */
void gen_run(struct gen *g, unsigned lane, double start, double dur, double rate);
/* 'work' arriving on 'lane' at 'rate' per ms from 'start' on. Returns when it
 * ends (ms). */
double gen_burst(struct gen *g, unsigned lane, double start, double work, double rate);
/* Timers and kernel threads: 'work_lo'-'work_hi' at once on one of the
 * lanes first .. first+n-1, every 'every_lo'-'every_hi' ms through the part. */
void gen_blips(struct gen *g, unsigned first, unsigned n, double every_lo, double every_hi, double work_lo,
               double work_hi);
/* One lane wandering by up to 'step' per ms around 'level', within 'span'
 * of it, through the part. */
void gen_walk(struct gen *g, unsigned lane, double level, double span, double step);
