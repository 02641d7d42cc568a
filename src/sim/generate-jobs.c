/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The generator's PRNG (xoshiro256** seeded through splitmix64, as their
 * authors recommend), whose output depends only on the seed, and the jobs
 * the families' builders place (generate-jobs.h). Only +, -, *, / and
 * floor() touch the draws, all exact or correctly rounded in IEEE 754, so a
 * seed gives the same bytes on every machine; libm's exp() or log() would
 * not. */
#include <math.h>

#include "sim/generate-jobs.h"

static uint64_t splitmix64(uint64_t *x)
{
        uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
        return (x << k) | (x >> (64 - k));
}

static uint64_t next(struct gen *g)
{
        uint64_t *s = g->s;
        uint64_t result = rotl(s[1] * 5, 7) * 9;
        uint64_t t = s[1] << 17;

        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 45);
        return result;
}

/* Families differ for the same seed: the name goes into the state (FNV-1a). */
void gen_seed(struct gen *g, const char *family, uint64_t seed)
{
        uint64_t h = 0xcbf29ce484222325ULL;

        for (const char *c = family; *c; c++)
                h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
        h ^= seed;
        for (int i = 0; i < 4; i++)
                g->s[i] = splitmix64(&h);
}

double gen_uniform(struct gen *g, double lo, double hi)
{
        return lo + (hi - lo) * ((double)(next(g) >> 11) * 0x1.0p-53);
}

bool gen_chance(struct gen *g, double p)
{
        return gen_uniform(g, 0.0, 1.0) < p;
}

unsigned gen_pick(struct gen *g, unsigned n)
{
        unsigned i = (unsigned)gen_uniform(g, 0.0, (double)n);

        return i < n ? i : n - 1;
}

static long step_of(double ms)
{
        return (long)floor(ms + 0.5);
}

void gen_run(struct gen *g, unsigned lane, double start, double dur, double rate)
{
        long first = step_of(start), end = first + step_of(dur);

        if (lane >= g->nlanes)
                return;
        if (first < 0)
                first = 0;
        for (long s = first; s < end && (size_t)s < g->nsteps; s++)
                g->work[(size_t)s * g->nlanes + lane] += rate;
}

double gen_burst(struct gen *g, unsigned lane, double start, double work, double rate)
{
        long s = step_of(start);

        if (lane >= g->nlanes || !(rate > 0.0))
                return start;
        for (; work > 0.0 && s >= 0 && (size_t)s < g->nsteps; s++) {
                double w = work < rate ? work : rate;

                g->work[(size_t)s * g->nlanes + lane] += w;
                work -= w;
        }
        return (double)s;
}

void gen_blips(struct gen *g, unsigned first, unsigned n, double every_lo, double every_hi, double work_lo,
               double work_hi)
{
        for (double ms = g->t0 + gen_uniform(g, every_lo, every_hi); ms < g->t1;
             ms += gen_uniform(g, every_lo, every_hi)) {
                unsigned lane = first + gen_pick(g, n);

                gen_burst(g, lane, ms, gen_uniform(g, work_lo, work_hi), 1000.0);
        }
}

void gen_walk(struct gen *g, unsigned lane, double level, double span, double step)
{
        double x = level + gen_uniform(g, -span, span);

        for (double ms = g->t0; ms < g->t1; ms += 1.0) {
                x += gen_uniform(g, -step, step);
                if (x > level + span)
                        x = level + span;
                if (x < level - span)
                        x = level - span;
                gen_run(g, lane, ms, 1.0, x);
        }
}
