/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The generator: a family's parameters drawn from the seed, its builder run
 * on the jobs of generate-jobs.c, and the trace it makes, written out. The
 * draws keep to the arithmetic generate-jobs.c states, so that a seed gives
 * the same bytes on every machine. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/generate-jobs.h"
#include "sim/generate.h"

void sim_gen_draw_params(struct gen *g, const struct sim_gen_family *f, double *p)
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
        gen_seed(&g, f->name, seed);
        sim_gen_draw_params(&g, f, p);
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
