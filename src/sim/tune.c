/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tuner (tune.h).
 *
 * Why a compass search: one evaluation replays every search workload through
 * the engine, so a budget is hundreds of evaluations, not millions; the
 * parameters are a handful of bounded numbers, mostly integers; and the
 * objective is a step function of them (a switch happens or it does not), so
 * there is no gradient to follow and nothing smooth to model. A coordinate
 * pattern (compass) search fits that: from the start it tries each parameter
 * one step up and one step down, keeps a move that improves and carries on in
 * that direction while it still improves, and halves the steps when a whole
 * sweep finds nothing, down to the parameters' resolution. It needs no
 * gradient, stays inside the bounds by clamping, keeps integers integer by
 * rounding, and never ends worse than where it started. What it finds is a
 * local optimum, so the rest of the budget goes to the same search from
 * random points drawn from the seed, and the best configuration of all is
 * the result. Wide ranges (time constants in ms) are searched on a log
 * scale, where a step is a ratio: 10 -> 20 ms matters as much as
 * 500 -> 1000 ms.
 *
 * The constraint comes first: a configuration is better than another when
 * it leaves less lateness beyond the limit (summed over the search
 * workloads), and at equal excess (both feasible: none) when its objective
 * is lower. From an infeasible start the search therefore first makes the
 * policy punctual, then cheap.
 *
 * A candidate is a point in the search coordinates; its configuration is the
 * drop-in text of the values that differ from BASE, parsed on top of BASE.
 * The text also names the candidate: two points that round to the same
 * values are the same configuration, evaluated once (a cache keyed by the
 * text), and a candidate that does not validate is skipped before any
 * simulation. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "policy/builtin.h"
#include "sim/tune.h"

#define TUNE_FILENAME "tune"
#define POLICY_PREFIX "policy."
/* The smallest step on a log scale: a 10% change. */
#define LOG_MIN_STEP 0.1
/* Candidates looked at (skipped ones included) per unit of budget, before the
 * search gives up: a small space can run out of new configurations. */
#define ATTEMPTS_PER_EVALUATION 64U
#define ATTEMPTS_MIN 4096U

struct engine_key {
        const char *section;
        const char *key;
        double min, max;
        enum tune_scale scale;
};

/* The bounds are narrower than the parser's: a delay or a residency of
 * several seconds gives a policy that follows none of the workloads it is
 * tuned on, and searching there would only spend the budget. The sample
 * interval is one of a few values, since the daemon's cost grows with the
 * rate it samples at and a policy that needs 1 ms sampling is no answer. */
static const struct engine_key engine_keys[] = {
        { "daemon", "sample_interval_ms", 0, 0, TUNE_SCALE_CHOICE },
        { "hysteresis", "up_threshold", 1, 100, TUNE_SCALE_LINEAR },
        { "hysteresis", "down_threshold", 0, 99, TUNE_SCALE_LINEAR },
        { "hysteresis", "up_delay_ms", 0, 1000, TUNE_SCALE_LOG },
        { "hysteresis", "down_delay_ms", 0, 5000, TUNE_SCALE_LOG },
        { "hysteresis", "min_residency_ms", 0, 5000, TUNE_SCALE_LOG },
};

static const double interval_choices[] = { 10, 20, 50 };

/* A heuristic's parameter with a range this wide is searched on a log scale. */
#define LOG_SCALE_SPAN 100.0

void tune_lateness(const struct tune_workload *tw, const struct sim_result *r, double max_late,
                   double *lateness, double *limit)
{
        *lateness = sim_lateness(r, tw->rtapp);
        *limit = (tw->rtapp && r->qos.activations > 0 ? tw->big_miss_ratio : tw->big_late_work_ratio) + max_late;
}

bool tune_got_worse(const struct tune_workload *tw, const struct sim_result *base, const struct sim_result *tuned,
                    double max_late)
{
        double base_late, tuned_late, limit;

        tune_lateness(tw, base, max_late, &base_late, &limit);
        tune_lateness(tw, tuned, max_late, &tuned_late, &limit);
        if (tuned_late > base_late && tuned_late > limit)
                return true;
        return tuned->energy_uj > base->energy_uj && tuned_late >= base_late;
}

static bool streq(const char *a, const char *b)
{
        return strcmp(a, b) == 0;
}

static const struct bl_heuristic_settings *settings_of(const struct bl_config *cfg, const char *section)
{
        if (strncmp(section, POLICY_PREFIX, strlen(POLICY_PREFIX)) != 0)
                return NULL;
        for (unsigned i = 0; i < cfg->nknown; i++)
                if (streq(cfg->known[i].ops->name, section + strlen(POLICY_PREFIX)))
                        return &cfg->known[i];
        return NULL;
}

double tune_param_value(const struct tune_param *p, const struct bl_config *cfg)
{
        const struct bl_heuristic_settings *h = settings_of(cfg, p->section);

        if (h) {
                for (unsigned i = 0; i < h->ops->nparams && i < BL_POLICY_MAX_PARAMS; i++)
                        if (streq(h->ops->params[i].key, p->key))
                                return h->params[i];
                return NAN;
        }
        if (streq(p->key, "sample_interval_ms"))
                return cfg->sample_interval_ms;
        if (streq(p->key, "up_threshold"))
                return cfg->up_threshold;
        if (streq(p->key, "down_threshold"))
                return cfg->down_threshold;
        if (streq(p->key, "up_delay_ms"))
                return cfg->up_delay_ms;
        if (streq(p->key, "down_delay_ms"))
                return cfg->down_delay_ms;
        if (streq(p->key, "min_residency_ms"))
                return cfg->min_residency_ms;
        return NAN;
}

static void add_choice(struct tune_param *p, double v)
{
        unsigned i;

        for (i = 0; i < p->nchoices; i++)
                if (p->choice[i] == v)
                        return;
        if (p->nchoices == TUNE_MAX_CHOICES)
                return;
        for (i = p->nchoices; i > 0 && p->choice[i - 1] > v; i--)
                p->choice[i] = p->choice[i - 1];
        p->choice[i] = v;
        p->nchoices++;
}

void tune_space_build(struct tune_space *s, const struct bl_config *cfg)
{
        memset(s, 0, sizeof(*s));
        for (size_t i = 0; i < sizeof(engine_keys) / sizeof(engine_keys[0]); i++) {
                const struct engine_key *k = &engine_keys[i];
                struct tune_param *p = &s->p[s->n++];
                double v;

                snprintf(p->section, sizeof(p->section), "%s", k->section);
                snprintf(p->key, sizeof(p->key), "%s", k->key);
                p->scale = k->scale;
                p->resolution = 1.0;
                v = tune_param_value(p, cfg);
                if (k->scale == TUNE_SCALE_CHOICE) {
                        for (size_t c = 0; c < sizeof(interval_choices) / sizeof(interval_choices[0]); c++)
                                add_choice(p, interval_choices[c]);
                        add_choice(p, v);
                        p->min = p->choice[0];
                        p->max = p->choice[p->nchoices - 1];
                } else {
                        p->min = v < k->min ? v : k->min;
                        p->max = v > k->max ? v : k->max;
                }
        }
        for (unsigned h = 0; h < cfg->nheuristics; h++) {
                const struct bl_heuristic_ops *ops = cfg->heuristics[h].ops;

                for (unsigned i = 0; ops && i < ops->nparams && i < BL_POLICY_MAX_PARAMS; i++) {
                        const struct bl_policy_param *d = &ops->params[i];
                        const double span = d->max - d->min;
                        struct tune_param *p;

                        if (!(span > 0.0) || s->n == TUNE_MAX_PARAMS)
                                continue;
                        p = &s->p[s->n++];
                        snprintf(p->section, sizeof(p->section), POLICY_PREFIX "%s", ops->name);
                        snprintf(p->key, sizeof(p->key), "%s", d->key);
                        p->min = d->min;
                        p->max = d->max;
                        p->scale = span >= LOG_SCALE_SPAN ? TUNE_SCALE_LOG : TUNE_SCALE_LINEAR;
                        /* Three significant digits of the range for a real number. */
                        p->resolution = d->integer ? 1.0 : pow(10.0, floor(log10(span)) - 2.0);
                }
        }
}

/* Search coordinates: the value itself, log(1 + value - min), or the index
 * of a choice. */
static double coord_low(const struct tune_param *p)
{
        return p->scale == TUNE_SCALE_LINEAR ? p->min : 0.0;
}

static double coord_high(const struct tune_param *p)
{
        switch (p->scale) {
        case TUNE_SCALE_LOG:
                return log1p(p->max - p->min);
        case TUNE_SCALE_CHOICE:
                return (double)(p->nchoices - 1);
        case TUNE_SCALE_LINEAR:
                break;
        }
        return p->max;
}

static double coord_of(const struct tune_param *p, double v)
{
        switch (p->scale) {
        case TUNE_SCALE_LOG:
                return log1p(v - p->min);
        case TUNE_SCALE_CHOICE:
                for (unsigned i = 0; i < p->nchoices; i++)
                        if (p->choice[i] == v)
                                return (double)i;
                return 0.0;
        case TUNE_SCALE_LINEAR:
                break;
        }
        return v;
}

static double clamp(double v, double lo, double hi)
{
        return v < lo ? lo : v > hi ? hi : v;
}

/* The value at coordinate 'u': on the grid of the resolution from min, in bounds. */
static double value_at(const struct tune_param *p, double u)
{
        double v;

        u = clamp(u, coord_low(p), coord_high(p));
        if (p->scale == TUNE_SCALE_CHOICE)
                return p->choice[(unsigned)lround(u)];
        v = p->scale == TUNE_SCALE_LOG ? p->min + expm1(u) : u;
        v = p->min + round((v - p->min) / p->resolution) * p->resolution;
        while (v > p->max && v - p->resolution >= p->min)
                v -= p->resolution;
        return clamp(v, p->min, p->max);
}

static double initial_step(const struct tune_param *p)
{
        return p->scale == TUNE_SCALE_CHOICE ? 1.0 : (coord_high(p) - coord_low(p)) / 4.0;
}

static double minimum_step(const struct tune_param *p)
{
        switch (p->scale) {
        case TUNE_SCALE_LOG:
                return LOG_MIN_STEP;
        case TUNE_SCALE_CHOICE:
                return 1.0;
        case TUNE_SCALE_LINEAR:
                break;
        }
        return p->resolution;
}

static bool same_value(const struct tune_param *p, double a, double b)
{
        return fabs(a - b) < p->resolution / 2.0;
}

/* As the parser reads it back: integers without decimals, real numbers
 * with the decimals of the resolution. */
static void value_format(const struct tune_param *p, double v, char *buf, size_t size)
{
        int decimals = p->resolution < 1.0 ? (int)ceil(-log10(p->resolution) - 1e-9) : 0;

        snprintf(buf, size, "%.*f", decimals, v);
}

struct text {
        char *buf;
        size_t size, len;
        bool overflow;
};

static void text_add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(struct text *t, const char *fmt, ...)
{
        va_list ap;
        int n;

        if (t->overflow)
                return;
        va_start(ap, fmt);
        n = vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
        va_end(ap);
        if (n < 0 || (size_t)n >= t->size - t->len) {
                t->overflow = true;
                return;
        }
        t->len += (size_t)n;
}

struct cache_entry {
        uint64_t hash;
        char *text;
        bool valid;
        struct tune_score score;
};

/* Open addressing over the entries: slot = entry index + 1, 0 = empty. */
struct cache {
        struct cache_entry *e;
        size_t n, size;
        size_t *slot;
        size_t nslots;
};

struct tuner {
        const struct sim_board *b;
        const struct sim_mode *m;
        struct tune_workload *w;
        unsigned nw, nsearch;
        const struct bl_config *base;
        const struct tune_options *opt;
        const struct tune_space *space;
        const double *base_value;
        char heuristics_line[BL_CONFIG_LINE_MAX];       /* "" when BASE's heuristics are kept */
        struct bl_config cfg;                           /* the candidate being evaluated */
        struct bl_diag diag;
        struct sim_result res[TUNE_MAX_WORKLOADS];
        struct cache cache;
        unsigned evaluations, skipped_invalid, attempts, max_attempts, restarts;
        uint64_t rng;
        double best_u[TUNE_MAX_PARAMS];
        struct tune_score best;
        char text[TUNE_DROPIN_MAX];
};

static uint64_t text_hash(const char *s)
{
        uint64_t h = 0xcbf29ce484222325ULL;

        for (; *s; s++)
                h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
        return h;
}

static struct cache_entry *cache_find(const struct cache *c, const char *text, uint64_t hash)
{
        if (c->nslots == 0)
                return NULL;
        for (size_t i = hash & (c->nslots - 1);; i = (i + 1) & (c->nslots - 1)) {
                struct cache_entry *e;

                if (c->slot[i] == 0)
                        return NULL;
                e = &c->e[c->slot[i] - 1];
                if (e->hash == hash && streq(e->text, text))
                        return e;
        }
}

static void cache_place(struct cache *c, size_t index)
{
        size_t i = c->e[index].hash & (c->nslots - 1);

        while (c->slot[i] != 0)
                i = (i + 1) & (c->nslots - 1);
        c->slot[i] = index + 1;
}

static int cache_add(struct cache *c, const char *text, uint64_t hash, bool valid,
                     const struct tune_score *score)
{
        char *copy;

        if (array_grow((void **)&c->e, c->n, &c->size, sizeof(*c->e), 256) < 0)
                return -ENOMEM;
        if (2 * (c->n + 1) > c->nslots) {
                size_t nslots = c->nslots ? 2 * c->nslots : 1024;
                size_t *slot = calloc(nslots, sizeof(*slot));

                if (!slot)
                        return -ENOMEM;
                free(c->slot);
                c->slot = slot;
                c->nslots = nslots;
                for (size_t i = 0; i < c->n; i++)
                        cache_place(c, i);
        }
        copy = strdup(text);
        if (!copy)
                return -ENOMEM;
        c->e[c->n] = (struct cache_entry){ .hash = hash, .text = copy, .valid = valid };
        if (score)
                c->e[c->n].score = *score;
        cache_place(c, c->n);
        c->n++;
        return 0;
}

static void cache_free(struct cache *c)
{
        for (size_t i = 0; i < c->n; i++)
                free(c->e[i].text);
        free(c->e);
        free(c->slot);
        *c = (struct cache){ 0 };
}

/* The drop-in for the values 'v': [daemon], then [policy] with the
 * heuristics line when they change, then the other sections in the order
 * of the space; a key appears only when its value differs from BASE's. */
static int render(const struct tuner *t, const double *v, char *buf, size_t size)
{
        struct text tx = { .buf = buf, .size = size };
        const char *section = "";
        bool policy_done = false;

        buf[0] = '\0';
        for (unsigned i = 0; i <= t->space->n; i++) {
                const struct tune_param *p = &t->space->p[i];
                char value[64];

                if (!policy_done && (i == t->space->n || !streq(p->section, "daemon"))) {
                        if (t->heuristics_line[0]) {
                                text_add(&tx, "[policy]\n%s\n", t->heuristics_line);
                                section = "policy";
                        }
                        policy_done = true;
                }
                if (i == t->space->n)
                        break;
                if (same_value(p, v[i], t->base_value[i]))
                        continue;
                if (!streq(section, p->section)) {
                        text_add(&tx, "[%s]\n", p->section);
                        section = p->section;
                }
                value_format(p, v[i], value, sizeof(value));
                text_add(&tx, "%s = %s\n", p->key, value);
        }
        return tx.overflow ? -ENOBUFS : 0;
}

/* BASE with the drop-in 'text' on top, as the daemon would read it.
 * Returns the number of problems (0 = usable). */
static unsigned config_from_dropin(struct bl_config *cfg, const struct bl_config *base, const char *text,
                                   struct bl_diag *diag)
{
        unsigned problems;

        *cfg = *base;
        problems = config_parse(cfg, policy_builtin, TUNE_FILENAME, text, strlen(text), diag);
        return problems + config_validate(cfg, diag);
}

/* The workloads of one configuration, simulated on worker threads that
 * take the next one as they finish: each workload is used by one thread at
 * a time, and a run reads nothing another writes (the board, the mode and
 * the configuration are shared read-only). */
struct run_each_job {
        const struct sim_board *b;
        const struct sim_mode *m;
        struct tune_workload *w;
        unsigned nw;
        bool search_only;
        const struct bl_config *cfg;
        struct sim_result *r;
        int err[TUNE_MAX_WORKLOADS];
        atomic_uint next;
};

static void *run_each_worker(void *userdata)
{
        struct run_each_job *job = userdata;
        unsigned i;

        while ((i = atomic_fetch_add(&job->next, 1)) < job->nw) {
                if (job->search_only && job->w[i].held_out)
                        continue;
                job->err[i] = sim_run_policy(job->b, job->m, job->w[i].w, job->cfg, &job->r[i], NULL);
        }
        return NULL;
}

/* 'cfg' on each of w[0..nw-1] (those not held out when 'search_only') into
 * r[], on up to 'jobs' threads, this one included. Returns 0, or the error
 * of the first workload that failed, as a run in order would. */
static int run_each(const struct sim_board *b, const struct sim_mode *m, struct tune_workload *w, unsigned nw,
                    bool search_only, const struct bl_config *cfg, unsigned jobs, struct sim_result *r)
{
        struct run_each_job job = { .b = b, .m = m, .w = w, .nw = nw, .search_only = search_only, .cfg = cfg,
                                    .r = r };
        pthread_t thread[TUNE_MAX_WORKLOADS];
        unsigned nthreads = 0;

        if (nw > TUNE_MAX_WORKLOADS)
                return -EINVAL;
        atomic_init(&job.next, 0);
        /* A thread that cannot be made leaves its share to the others. */
        while (nthreads + 1 < jobs && nthreads + 1 < nw &&
               pthread_create(&thread[nthreads], NULL, run_each_worker, &job) == 0)
                nthreads++;
        run_each_worker(&job);
        for (unsigned i = 0; i < nthreads; i++)
                pthread_join(thread[i], NULL);
        for (unsigned i = 0; i < nw; i++)
                if (job.err[i] < 0)
                        return job.err[i];
        return 0;
}

static bool better(const struct tune_score *a, const struct tune_score *b)
{
        if (a->violation != b->violation)
                return a->violation < b->violation;
        return a->objective < b->objective;
}

static int score_config(struct tuner *t, const struct bl_config *cfg, struct tune_score *score)
{
        double sum = 0.0;
        int r;

        if (t->opt->on_evaluate)
                t->opt->on_evaluate(cfg, t->opt->userdata);
        *score = (struct tune_score){ 0 };
        r = run_each(t->b, t->m, t->w, t->nw, true, cfg, t->opt->jobs, t->res);
        if (r < 0)
                return r;
        /* Summed in workload order whatever the threads did: the same bits
         * for any number of them. */
        for (unsigned i = 0; i < t->nw; i++) {
                const struct tune_workload *tw = &t->w[i];
                double lateness, limit;

                if (tw->held_out)
                        continue;
                sum += t->res[i].energy_uj / tw->big_energy_uj;
                tune_lateness(tw, &t->res[i], t->opt->max_late, &lateness, &limit);
                if (lateness > limit) {
                        score->violation += lateness - limit;
                        score->over++;
                }
        }
        score->objective = sum / t->nsearch;
        t->evaluations++;
        return 0;
}

enum {
        EVAL_SCORED,
        EVAL_INVALID,
        EVAL_STOP,              /* the budget is spent, or the candidates ran out */
};

static bool stopped(const struct tuner *t)
{
        return t->evaluations >= t->opt->budget || t->attempts >= t->max_attempts;
}

static void report_progress(const struct tuner *t)
{
        if (t->opt->on_progress)
                t->opt->on_progress(&(struct tune_progress){ .evaluations = t->evaluations,
                                                              .budget = t->opt->budget, .best = t->best },
                                    t->opt->userdata);
}

/* Scores the candidate at coordinates 'u'. Returns EVAL_*, or a negative errno. */
static int evaluate(struct tuner *t, const double *u, struct tune_score *score)
{
        double v[TUNE_MAX_PARAMS];
        struct cache_entry *e;
        uint64_t hash;
        int r;

        if (stopped(t))
                return EVAL_STOP;
        t->attempts++;
        for (unsigned i = 0; i < t->space->n; i++)
                v[i] = value_at(&t->space->p[i], u[i]);
        r = render(t, v, t->text, sizeof(t->text));
        if (r < 0)
                return r;
        hash = text_hash(t->text);
        e = cache_find(&t->cache, t->text, hash);
        if (e) {
                *score = e->score;
                return e->valid ? EVAL_SCORED : EVAL_INVALID;
        }
        diag_init(&t->diag);
        if (config_from_dropin(&t->cfg, t->base, t->text, &t->diag) > 0) {
                t->skipped_invalid++;
                r = cache_add(&t->cache, t->text, hash, false, NULL);
                return r < 0 ? r : EVAL_INVALID;
        }
        r = score_config(t, &t->cfg, score);
        if (r < 0)
                return r;
        r = cache_add(&t->cache, t->text, hash, true, score);
        if (r < 0)
                return r;
        if (better(score, &t->best)) {
                t->best = *score;
                memcpy(t->best_u, u, t->space->n * sizeof(u[0]));
        }
        report_progress(t);
        return EVAL_SCORED;
}

/* Moves coordinate i of 'u' by 'delta' if that improves on 'score'.
 * Returns 1 (moved), 0 (not), -ECANCELED (the search must stop) or another
 * negative errno. */
static int try_move(struct tuner *t, double *u, struct tune_score *score, unsigned i, double delta)
{
        const struct tune_param *p = &t->space->p[i];
        double cand[TUNE_MAX_PARAMS];
        struct tune_score s;
        int r;

        memcpy(cand, u, t->space->n * sizeof(u[0]));
        cand[i] = clamp(u[i] + delta, coord_low(p), coord_high(p));
        if (value_at(p, cand[i]) == value_at(p, u[i]))
                return 0;
        r = evaluate(t, cand, &s);
        if (r != EVAL_SCORED)
                return r == EVAL_INVALID ? 0 : r < 0 ? r : -ECANCELED;
        if (!better(&s, score))
                return 0;
        memcpy(u, cand, t->space->n * sizeof(u[0]));
        *score = s;
        return 1;
}

/* The compass search from 'u' (scored 'score'), until the steps are at their
 * smallest and no move improves, or the search must stop. Returns 0, or a
 * negative errno (-ECANCELED: stopped). */
static int local_search(struct tuner *t, double *u, struct tune_score *score)
{
        double step[TUNE_MAX_PARAMS];
        int r;

        for (unsigned i = 0; i < t->space->n; i++)
                step[i] = initial_step(&t->space->p[i]);
        for (;;) {
                bool improved = false, smallest = true;

                for (unsigned i = 0; i < t->space->n; i++) {
                        for (int dir = 1; dir >= -1; dir -= 2) {
                                r = try_move(t, u, score, i, dir * step[i]);
                                if (r < 0)
                                        return r;
                                if (r == 0)
                                        continue;
                                improved = true;
                                while ((r = try_move(t, u, score, i, dir * step[i])) > 0)
                                        ;
                                if (r < 0)
                                        return r;
                                break;
                        }
                }
                if (improved)
                        continue;
                for (unsigned i = 0; i < t->space->n; i++) {
                        double smallest_step = minimum_step(&t->space->p[i]);

                        if (step[i] > smallest_step)
                                smallest = false;
                        step[i] = step[i] / 2.0 > smallest_step ? step[i] / 2.0 : smallest_step;
                }
                if (smallest)
                        return 0;
        }
}

static uint64_t rng_next(uint64_t *state)
{
        uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
}

static double rng_uniform(uint64_t *state)
{
        return (double)(rng_next(state) >> 11) * 0x1.0p-53;
}

static void random_point(struct tuner *t, double *u)
{
        for (unsigned i = 0; i < t->space->n; i++) {
                const struct tune_param *p = &t->space->p[i];

                u[i] = coord_low(p) + rng_uniform(&t->rng) * (coord_high(p) - coord_low(p));
        }
}

/* The search proper, from the start point at 'start' (already in the
 * cache). Ends when the budget is spent or no new candidate turns up. */
static int search(struct tuner *t, const double *start, const struct tune_score *start_score)
{
        double u[TUNE_MAX_PARAMS];
        struct tune_score score = *start_score;
        int r;

        memcpy(u, start, t->space->n * sizeof(u[0]));
        r = local_search(t, u, &score);
        while (r == 0) {
                random_point(t, u);
                r = evaluate(t, u, &score);
                if (r == EVAL_SCORED) {
                        t->restarts++;
                        r = local_search(t, u, &score);
                } else if (r == EVAL_INVALID) {
                        r = 0;
                } else if (r == EVAL_STOP) {
                        r = -ECANCELED;
                }
        }
        return r == -ECANCELED ? 0 : r;
}

static bool same_heuristics(const struct bl_config *a, const struct bl_config *b)
{
        if (a->nheuristics != b->nheuristics)
                return false;
        for (unsigned i = 0; i < a->nheuristics; i++)
                if (!streq(a->heuristics[i].name, b->heuristics[i].name))
                        return false;
        return true;
}

/* BASE with opt->heuristics selected into t->cfg, and the line that says so
 * when it changes BASE's. */
static int select_heuristics(struct tuner *t, struct bl_diag *diag)
{
        struct text tx = { .buf = t->heuristics_line, .size = sizeof(t->heuristics_line) };
        char text[BL_CONFIG_LINE_MAX + 16];

        t->cfg = *t->base;
        t->heuristics_line[0] = '\0';
        if (!t->opt->heuristics || !t->opt->heuristics[0])
                return 0;
        snprintf(text, sizeof(text), "[policy]\nheuristics = %s\n", t->opt->heuristics);
        diag_init(&t->diag);
        if (config_from_dropin(&t->cfg, t->base, text, &t->diag) > 0) {
                /* Said of the option, not of the text made of it. */
                for (unsigned i = 0; i < t->diag.n; i++) {
                        const char *msg = t->diag.msg[i];

                        if (strncmp(msg, TUNE_FILENAME ":2: ", strlen(TUNE_FILENAME ":2: ")) == 0)
                                msg += strlen(TUNE_FILENAME ":2: ");
                        diag_add(diag, "--%s", msg);
                }
                return -EINVAL;
        }
        if (same_heuristics(&t->cfg, t->base))
                return 0;
        text_add(&tx, "heuristics = ");
        for (unsigned i = 0; i < t->cfg.nheuristics; i++)
                text_add(&tx, "%s%s", i ? ", " : "", t->cfg.heuristics[i].name);
        if (tx.overflow) {
                diag_add(diag, "heuristics = %s: the list is too long", t->opt->heuristics);
                return -EINVAL;
        }
        return 0;
}

static int check_workloads(const struct tune_workload *w, unsigned nw, unsigned *nsearch,
                           struct bl_diag *diag)
{
        *nsearch = 0;
        if (nw > TUNE_MAX_WORKLOADS) {
                diag_add(diag, "at most %u workloads, got %u", TUNE_MAX_WORKLOADS, nw);
                return -EINVAL;
        }
        for (unsigned i = 0; i < nw; i++) {
                if (w[i].held_out)
                        continue;
                if (!(w[i].big_energy_uj > 0.0)) {
                        diag_add(diag, "%s: always-big spends no energy, so there is nothing to tune on",
                                 w[i].name);
                        return -EINVAL;
                }
                (*nsearch)++;
        }
        if (*nsearch == 0) {
                diag_add(diag, "no workload to search on: every one is held out");
                return -EINVAL;
        }
        return 0;
}

static int tune_search(struct tuner *t, struct tune_outcome *out, struct bl_diag *diag)
{
        double start[TUNE_MAX_PARAMS];
        struct tune_score score;
        int r;

        r = select_heuristics(t, diag);
        if (r < 0)
                return r;
        tune_space_build(&out->space, &t->cfg);
        t->space = &out->space;
        for (unsigned i = 0; i < out->space.n; i++) {
                out->base_value[i] = tune_param_value(&out->space.p[i], t->base);
                start[i] = coord_of(&out->space.p[i], tune_param_value(&out->space.p[i], &t->cfg));
        }
        t->base_value = out->base_value;
        if (t->opt->budget < (t->heuristics_line[0] ? 2U : 1U)) {
                diag_add(diag, "a budget of %u evaluations leaves none for a candidate", t->opt->budget);
                return -EINVAL;
        }

        /* BASE is what the result is measured against; when its heuristics
         * stay, it is also the start, whose drop-in is empty. */
        r = score_config(t, t->base, &out->base);
        if (r < 0)
                return r;
        if (!t->heuristics_line[0]) {
                r = cache_add(&t->cache, "", text_hash(""), true, &out->base);
                if (r < 0)
                        return r;
        }
        t->best = (struct tune_score){ .violation = INFINITY, .objective = INFINITY };
        if (t->heuristics_line[0]) {
                r = evaluate(t, start, &score);
                if (r < 0)
                        return r;
                if (r != EVAL_SCORED) {
                        diag_add(diag, "--heuristics %s: the start does not validate", t->opt->heuristics);
                        return -EINVAL;
                }
        } else {
                score = out->base;
        }
        t->best = score;
        memcpy(t->best_u, start, out->space.n * sizeof(start[0]));
        report_progress(t);
        return search(t, start, &score);
}

int tune_run(const struct sim_board *b, const struct sim_mode *m, struct tune_workload *w, unsigned nw,
             const struct bl_config *base, const struct tune_options *opt, struct tune_outcome *out,
             struct bl_diag *diag)
{
        double v[TUNE_MAX_PARAMS];
        struct tuner *t;
        int r;

        memset(out, 0, sizeof(*out));
        t = calloc(1, sizeof(*t));
        if (!t)
                return -ENOMEM;
        *t = (struct tuner){ .b = b, .m = m, .w = w, .nw = nw, .base = base, .opt = opt, .rng = opt->seed };
        t->max_attempts = opt->budget > (UINT32_MAX - ATTEMPTS_MIN) / ATTEMPTS_PER_EVALUATION ?
                                  UINT32_MAX : opt->budget * ATTEMPTS_PER_EVALUATION + ATTEMPTS_MIN;
        r = check_workloads(w, nw, &t->nsearch, diag);
        if (r == 0)
                r = tune_search(t, out, diag);
        if (r == 0) {
                for (unsigned i = 0; i < out->space.n; i++)
                        v[i] = value_at(&out->space.p[i], t->best_u[i]);
                r = render(t, v, out->dropin, sizeof(out->dropin));
        }
        if (r == 0 && config_from_dropin(&out->tuned_config, base, out->dropin, diag) > 0)
                r = -EINVAL;
        if (r == 0) {
                for (unsigned i = 0; i < out->space.n; i++)
                        out->tuned_value[i] = tune_param_value(&out->space.p[i], &out->tuned_config);
                out->tuned = t->best;
                out->evaluations = t->evaluations;
                out->skipped_invalid = t->skipped_invalid;
                out->restarts = t->restarts;
        }
        cache_free(&t->cache);
        free(t);
        return r;
}

int tune_results(const struct sim_board *b, const struct sim_mode *m, struct tune_workload *w, unsigned nw,
                 const struct bl_config *cfg, const char *name, unsigned jobs, struct sim_result *r)
{
        int err = run_each(b, m, w, nw, false, cfg, jobs, r);

        for (unsigned i = 0; err == 0 && i < nw; i++)
                snprintf(r[i].policy, sizeof(r[i].policy), "%s", name);
        return err;
}
