/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The generator's machinery: a PRNG whose output depends only on the seed
 * (xoshiro256** seeded through splitmix64, as their authors recommend), the
 * jobs builders place, and the trace they make. Only +, -, *, / and floor()
 * touch the draws, all exact or correctly rounded in IEEE 754, so a seed
 * gives the same bytes on every machine; libm's exp() or log() would not. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static void seed_rng(struct gen *g, const char *family, uint64_t seed)
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

void gen_draw_params(struct gen *g, const struct sim_gen_family *f, double *p)
{
        for (unsigned i = 0; i < f->nparams; i++) {
                const struct sim_gen_param *q = &f->params[i];

                if (q->nchoices > 0)
                        p[i] = q->choices[gen_pick(g, q->nchoices)];
                else if (q->integer)
                        p[i] = q->lo + gen_pick(g, (unsigned)(q->hi - q->lo) + 1);
                else
                        p[i] = gen_uniform(g, q->lo, q->hi);
        }
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

const struct sim_gen_family *sim_gen_family_find(const char *name)
{
        for (const struct sim_gen_family *const *f = sim_gen_families; *f; f++)
                if (strcmp((*f)->name, name) == 0)
                        return *f;
        return NULL;
}

int sim_generate(struct sim_trace *t, struct sim_gen_drawn *drawn, const struct sim_gen_family *f, uint64_t seed,
                 bl_usec_t duration_us)
{
        struct gen g = { .nlanes = f->nlanes };
        double p[SIM_GEN_MAX_PARAMS];
        const double step_work = (double)SIM_GEN_STEP_US;
        float *out;

        if (duration_us == 0)
                duration_us = f->duration_us;
        if (duration_us < SIM_GEN_STEP_US || duration_us > SIM_GEN_MAX_DURATION_US)
                return -EINVAL;
        g.nsteps = duration_us / SIM_GEN_STEP_US;
        g.t1 = (double)g.nsteps;
        g.work = calloc(g.nsteps * g.nlanes, sizeof(double));
        out = malloc(g.nsteps * g.nlanes * sizeof(float));
        if (!g.work || !out) {
                free(g.work);
                free(out);
                return -ENOMEM;
        }
        seed_rng(&g, f->name, seed);
        gen_draw_params(&g, f, p);
        f->build(&g, p);
        /* One lane is one thread: it cannot ask for more than a whole
         * reference CPU, whatever overlapped in the builder. Whole
         * reference-µs keep the files short and exact through float. */
        for (size_t i = 0; i < g.nsteps * g.nlanes; i++)
                out[i] = (float)floor((g.work[i] < step_work ? g.work[i] : step_work) + 0.5);
        free(g.work);
        *t = (struct sim_trace){ .step_us = SIM_GEN_STEP_US, .nlanes = f->nlanes, .nsteps = g.nsteps, .work = out };
        if (drawn) {
                drawn->n = f->nparams;
                memcpy(drawn->value, p, f->nparams * sizeof(double));
        }
        return 0;
}

/* Whole numbers 0 .. 10^10 as decimal, by hand: an hour's trace is millions
 * of rows, and snprintf() per field would dominate. */
static char *put_uint(char *s, uint64_t v)
{
        char digits[24];
        int n = 0;

        do {
                digits[n++] = (char)('0' + v % 10);
                v /= 10;
        } while (v > 0);
        while (n > 0)
                *s++ = digits[--n];
        return s;
}

int sim_generate_format(const struct sim_trace *t, const struct sim_gen_drawn *drawn,
                        const struct sim_gen_family *f, uint64_t seed, char **ret, size_t *ret_len)
{
        /* Per row: t_us (at most 20 digits) and per lane a comma and at
         * most 10 digits (the lanes' work is at most one step's). */
        const size_t row_max = 21 + (size_t)t->nlanes * 11 + 1;
        const size_t head_max = 1024 + (size_t)f->nparams * 64 + (size_t)t->nlanes * 12;
        char *buf = malloc(head_max + t->nsteps * row_max + 1);
        char *s;
        int n;

        if (!buf)
                return -ENOMEM;
        n = snprintf(buf, head_max,
                     "# bigLittle-trace v1 step_us=%llu\n"
                     "# blsim generate %s --seed %llu --duration %.15g\n"
                     "# %s: %s\n"
                     "# drawn:",
                     (unsigned long long)t->step_us, f->name, (unsigned long long)seed,
                     (double)t->nsteps * (double)t->step_us / 1e6, f->name, f->summary);
        /* A summary too long for the header is cut, not overflowed. */
        s = buf + (n < 0 ? 0 : (size_t)n < head_max ? (size_t)n : head_max - 1);
        for (unsigned i = 0; drawn && i < drawn->n && i < f->nparams; i++)
                s += snprintf(s, 64, " %s=%.6g", f->params[i].name, drawn->value[i]);
        s += snprintf(s, 8, "\nt_us");
        for (unsigned k = 0; k < t->nlanes; k++)
                s += snprintf(s, 12, ",lane%u", k);
        *s++ = '\n';
        for (size_t i = 0; i < t->nsteps; i++) {
                const float *row = t->work + i * t->nlanes;

                s = put_uint(s, (uint64_t)i * t->step_us);
                for (unsigned k = 0; k < t->nlanes; k++) {
                        *s++ = ',';
                        s = put_uint(s, row[k] > 0.0f ? (uint64_t)row[k] : 0);
                }
                *s++ = '\n';
        }
        *s = '\0';
        *ret = buf;
        *ret_len = (size_t)(s - buf);
        return 0;
}
