/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/controller.h"

static unsigned scorers_for(const struct bl_ladder *l, unsigned *cpus, unsigned size)
{
        bl_cpumask all;
        unsigned n = 0;

        switch (l->mode) {
        case BL_MODE_PAIR:
                return l->npairs;
        case BL_MODE_MP:
                ladder_all_cpus(l, &all);
                for (unsigned cpu = 0; cpu < BL_MAX_CPUS && n < size; cpu++)
                        if (cpumask_isset(&all, cpu)) {
                                if (cpus)
                                        cpus[n] = cpu;
                                n++;
                        }
                return n;
        default:
                return 1;
        }
}

static void scorers_free(struct bl_scorer *s, unsigned n)
{
        if (!s)
                return;
        for (unsigned i = 0; i < n; i++)
                scorer_done(&s[i]);
        free(s);
}

static int scorers_new(struct bl_scorer **ret, unsigned n, const struct bl_config *cfg, unsigned have)
{
        struct bl_scorer *s = calloc(n, sizeof(*s));
        int r;

        if (!s)
                return -ENOMEM;
        for (unsigned i = 0; i < n; i++) {
                r = scorer_init(&s[i], cfg, have);
                if (r < 0) {
                        scorers_free(s, i);
                        return r;
                }
        }
        *ret = s;
        return 0;
}

static void window_restart(struct bl_controller *c)
{
        /* Called on every tick while load runs: nothing to clear twice. */
        if (c->window_len == 0)
                return;
        for (unsigned cpu = 0; cpu < c->nwindow; cpu++)
                c->window_busy[cpu] = 0.0;
        c->window_len = 0;
}

/* A new configuration starts again at the full rate. */
static void controller_set_intervals(struct bl_controller *c, const struct bl_config *cfg)
{
        c->interval = (bl_usec_t)cfg->sample_interval_ms * BL_USEC_PER_MSEC;
        c->idle_interval = (bl_usec_t)cfg->idle_sample_interval_ms * BL_USEC_PER_MSEC;
        if (c->idle_interval <= c->interval)
                c->idle_interval = 0;
        c->next_interval = c->interval;
        c->woken = false;
        window_restart(c);
}

/* The configured thresholds moved by the profile's bias; the order of the
 * two is kept (the up threshold at least 1, the down one below it). */
static void biased_params(const struct bl_controller *c, struct bl_engine_params *p)
{
        const int bias = c->profile.bias_pct;
        int up = (int)c->base.up_pct + bias, down = (int)c->base.down_pct + bias;

        *p = c->base;
        if (bias == 0)
                return;
        up = up < 1 ? 1 : up;
        down = down < 0 ? 0 : down >= up ? up - 1 : down;
        p->up_pct = (unsigned)up;
        p->down_pct = (unsigned)down;
}

int controller_init(struct bl_controller *c, const struct bl_ladder *l, const struct bl_config *cfg,
                    unsigned have, bl_usec_t now)
{
        struct bl_engine_params params;
        bl_cpumask all;
        int r;

        *c = (struct bl_controller){ .ladder = l, .hold_level = -1, .user_hold = -1, .profile = { .cap = -1 } };
        if (l->nlevels == 0 || (l->mode == BL_MODE_PAIR && l->npairs == 0))
                return -EINVAL;
        c->nengines = l->mode == BL_MODE_PAIR ? l->npairs : 1;
        c->nscorers = scorers_for(l, NULL, BL_MAX_CPUS);
        c->engine = calloc(c->nengines, sizeof(*c->engine));
        c->demand = calloc(c->nscorers, sizeof(*c->demand));
        c->scope = calloc(c->nscorers, sizeof(*c->scope));
        c->ranked = calloc(c->nscorers, sizeof(*c->ranked));
        ladder_all_cpus(l, &all);
        c->nwindow = cpumask_span(&all);
        c->window_busy = calloc(c->nwindow ? c->nwindow : 1, sizeof(*c->window_busy));
        if (!c->engine || !c->demand || !c->scope || !c->ranked || !c->window_busy) {
                r = -ENOMEM;
                goto fail;
        }
        scorers_for(l, c->scope, c->nscorers);
        memcpy(c->ranked, c->scope, c->nscorers * sizeof(*c->ranked));
        r = scorers_new(&c->scorer, c->nscorers, cfg, have);
        if (r < 0)
                goto fail;

        controller_set_intervals(c, cfg);
        engine_params_from_config(&c->base, cfg);
        biased_params(c, &params);
        for (unsigned i = 0; i < c->nengines; i++) {
                engine_init(&c->engine[i], l, &params, 0);
                engine_switched(&c->engine[i], 0, now);
        }
        return 0;
fail:
        controller_done(c);
        return r;
}

void controller_done(struct bl_controller *c)
{
        scorers_free(c->scorer, c->nscorers);
        free(c->engine);
        free(c->demand);
        free(c->scope);
        free(c->ranked);
        free(c->window_busy);
        *c = (struct bl_controller){ 0 };
}

int controller_reconfigure(struct bl_controller *c, const struct bl_config *cfg, unsigned have)
{
        struct bl_scorer *fresh;
        int r;

        r = scorers_new(&fresh, c->nscorers, cfg, have);
        if (r < 0)
                return r;
        scorers_free(c->scorer, c->nscorers);
        c->scorer = fresh;
        /* New instances: their problems are new too. */
        c->told = (struct bl_scorer_told){ 0 };
        controller_set_params(c, cfg);
        return 0;
}

void controller_set_params(struct bl_controller *c, const struct bl_config *cfg)
{
        struct bl_engine_params params;

        controller_set_intervals(c, cfg);
        engine_params_from_config(&c->base, cfg);
        biased_params(c, &params);
        for (unsigned i = 0; i < c->nengines; i++)
                engine_set_params(&c->engine[i], &params);
}

/* The record of 'cpu' in a sample: at its index when the sample is laid out
 * by CPU number (as the sources and blsim make them), else by search. */
static const struct bl_cpu_sample *find_cpu(const struct bl_sample *s, unsigned cpu)
{
        if (cpu < s->ncpus && s->cpu[cpu].cpu == cpu)
                return &s->cpu[cpu];
        for (unsigned i = 0; i < s->ncpus; i++)
                if (s->cpu[i].cpu == cpu)
                        return &s->cpu[i];
        return NULL;
}

/* 'in' (NULL: every CPU): the CPUs the level runs work on; the others read
 * as offline. 'up_us': what the switch up from the level stalls. */
static double score_cpus(struct bl_scorer *scorer, const struct bl_sample *s, const unsigned *cpus,
                         unsigned n, const bl_cpumask *in, double up_us, bl_usec_t now)
{
        struct bl_cpu_sample records[2];
        struct bl_sample view = *s;

        view.switch_up_us = up_us;
        view.ncpus = 0;
        view.cpu = records;
        for (unsigned i = 0; i < n && i < 2; i++) {
                const struct bl_cpu_sample *rec = find_cpu(s, cpus[i]);

                records[view.ncpus] = rec ? *rec : (struct bl_cpu_sample){ .cpu = cpus[i] };
                if (in && !cpumask_isset(in, cpus[i]))
                        records[view.ncpus].online = false;
                view.ncpus++;
        }
        return scorer_score(scorer, &view, now);
}

/* A CPU's demand as the sample shows it (offline or not in 'in': none). */
static double cpu_demand(const struct bl_sample *s, unsigned cpu, const bl_cpumask *in)
{
        const struct bl_cpu_sample *rec = find_cpu(s, cpu);

        return rec && rec->online && cpumask_isset(in, cpu) ? (double)rec->busy * rec->capacity : -1.0;
}

/* mp: scorer k follows the k-th busiest CPU of each sample, not one CPU.
 * The scheduler moves a thread to a big CPU as soon as one is added; a
 * scorer tied to the LITTLE CPU it left would keep the demand it saw there
 * (headroom holds it through gaps) and count the thread twice, once on the
 * big CPU and once on the LITTLE one, and the set would grow by a CPU for
 * every thread that already has one. Ranked, the k-th heaviest thread's
 * history stays with the k-th scorer wherever the thread runs. Ties keep
 * the last ranking (stable insertion from it): idle CPUs do not trade
 * places, and a scorer does not see its CPU change for nothing.
 * Only the CPUs of the level count ('in'): the cpuset backend leaves the
 * others online, running what it does not confine (the daemon itself, the
 * kernel's threads), which a fast CPU more in the level would not help
 * (on the real kernel they added a second big CPU for one thread). */
static void rank_cpus(struct bl_controller *c, const struct bl_sample *s, const bl_cpumask *in)
{
        for (unsigned i = 0; i < c->nscorers; i++) {
                const unsigned cpu = c->ranked[i];
                const double d = cpu_demand(s, cpu, in);
                unsigned j = i;

                for (; j > 0 && cpu_demand(s, c->ranked[j - 1], in) < d; j--)
                        c->ranked[j] = c->ranked[j - 1];
                c->ranked[j] = cpu;
        }
}

/* A CPU busy over this share of the interval carries a load (engine rule
 * 2b): a start that blinked on a CPU for a moment is not one, the thread
 * that keeps it busy is by its second sample. Over half, with a margin for
 * what else ran there: a thread the scheduler moved within the interval
 * shows on the CPU it left and on the one it went to, and is over half
 * busy on one of them at most (on the real kernel, with the cpuset
 * backend, each such move read as two loaded CPUs and took a second big
 * CPU, whose removal moved the thread again). */
#define LOADED_BUSY 0.6

/* How many CPUs of 'in' the sample shows carrying a load. */
static unsigned loaded_cpus(const struct bl_sample *s, const bl_cpumask *in)
{
        unsigned n = 0;

        for (unsigned i = 0; i < s->ncpus; i++)
                if (s->cpu[i].online && cpumask_isset(in, s->cpu[i].cpu) && s->cpu[i].busy > LOADED_BUSY)
                        n++;
        return n;
}

/* Keeps the 'size' largest values of 'v', largest first (insertion: mp
 * ladders have few levels). */
static unsigned largest(const double *v, unsigned n, double *top, unsigned size)
{
        unsigned k = 0;

        for (unsigned i = 0; i < n; i++) {
                unsigned j;

                if (k < size)
                        k++;
                else if (v[i] <= top[k - 1])
                        continue;
                for (j = k - 1; j > 0 && top[j - 1] < v[i]; j--)
                        top[j] = top[j - 1];
                top[j] = v[i];
        }
        return k;
}

void controller_set_switch_cost(struct bl_controller *c, const struct bl_switch_cost *cost)
{
        for (unsigned i = 0; i < c->nengines; i++)
                engine_set_switch_cost(&c->engine[i], cost);
}

void controller_set_energy_model(struct bl_controller *c, const struct bl_energy_model *m)
{
        for (unsigned i = 0; i < c->nengines; i++)
                engine_set_energy_model(&c->engine[i], m);
}

void controller_explain(struct bl_controller *c, bool all)
{
        for (unsigned i = 0; i < c->nengines; i++)
                engine_explain(&c->engine[i], all);
}

/* A person's hold, else the profile's hold of the top level. */
static void resolve_hold(struct bl_controller *c)
{
        const char *who = NULL;

        c->hold_level = -1;
        if (c->user_hold >= 0) {
                c->hold_level = c->user_hold;
                who = c->user_who;
        } else if (c->profile.hold_top) {
                c->hold_level = (int)c->ladder->nlevels - 1;
                who = c->profile.who;
        }
        /* Called every tick: no formatting to copy a string, or none. */
        c->hold_who[0] = '\0';
        if (c->hold_level >= 0 && who) {
                size_t n = strnlen(who, sizeof(c->hold_who) - 1);

                memcpy(c->hold_who, who, n);
                c->hold_who[n] = '\0';
        }
}

void controller_set_hold(struct bl_controller *c, int level, const char *who)
{
        c->user_hold = level < 0 || (unsigned)level >= c->ladder->nlevels ? -1 : level;
        c->user_who[0] = '\0';
        if (c->user_hold >= 0 && who)
                strncat(c->user_who, who, sizeof(c->user_who) - 1);
        resolve_hold(c);
}

void controller_set_profile(struct bl_controller *c, const struct bl_profile_effect *e)
{
        const bool same = profile_effect_same(&c->profile, e);
        struct bl_engine_params params;

        c->profile = *e;
        resolve_hold(c);
        for (unsigned i = 0; i < c->nengines; i++)
                engine_set_ceiling(&c->engine[i], e->cap >= 0 ? (unsigned)e->cap : UINT_MAX, e->who);
        if (same)
                return;
        biased_params(c, &params);
        for (unsigned i = 0; i < c->nengines; i++)
                engine_set_params(&c->engine[i], &params);
}

/* With a hold in force, each engine applies it; the scores are still
 * computed, for status and so that automatic choices resume from a current
 * estimate. */
static unsigned decide_held(struct bl_controller *c, const int *temp, bl_usec_t now, struct bl_decision *d)
{
        unsigned changes = 0;

        for (unsigned i = 0; i < c->nengines; i++) {
                engine_decide_hold(&c->engine[i], (unsigned)c->hold_level, c->hold_who, temp, now, &d[i]);
                changes += d[i].change;
        }
        return changes;
}

unsigned controller_decide(struct bl_controller *c, const struct bl_sample *s, bl_usec_t now,
                           struct bl_decision *d)
{
        const struct bl_ladder *l = c->ladder;
        const int *temp = s->has_temp ? &s->temp_mc : NULL;
        unsigned changes = 0;

        switch (l->mode) {
        case BL_MODE_PAIR:
                for (unsigned p = 0; p < l->npairs; p++) {
                        const unsigned cpus[2] = { l->pairs[p].little, l->pairs[p].big };
                        const double up_us = engine_switch_up_us(&c->engine[p]);

                        c->demand[p] = score_cpus(&c->scorer[p], s, cpus, 2, NULL, up_us, now);
                        if (c->hold_level < 0)
                                engine_decide(&c->engine[p], c->demand[p], temp, now, &d[p]);
                        changes += c->hold_level < 0 && d[p].change;
                }
                return c->hold_level < 0 ? changes : decide_held(c, temp, now, d);
        case BL_MODE_MP: {
                const bl_cpumask *in = &l->levels[c->engine[0].level].cpus;
                const double up_us = engine_switch_up_us(&c->engine[0]);

                rank_cpus(c, s, in);
                for (unsigned i = 0; i < c->nscorers; i++)
                        c->demand[i] = score_cpus(&c->scorer[i], s, &c->ranked[i], 1, in, up_us, now);
                c->ntop = largest(c->demand, c->nscorers, c->top, l->nlevels);
                if (c->hold_level >= 0)
                        return decide_held(c, temp, now, d);
                engine_decide_ranked(&c->engine[0], c->top, c->ntop, loaded_cpus(s, in), temp, now, &d[0]);
                return d[0].change;
        }
        default: {
                struct bl_sample view = *s;

                view.switch_up_us = engine_switch_up_us(&c->engine[0]);
                c->demand[0] = scorer_score(&c->scorer[0], &view, now);
                if (c->hold_level >= 0)
                        return decide_held(c, temp, now, d);
                engine_decide(&c->engine[0], c->demand[0], temp, now, &d[0]);
                return d[0].change;
        }
        }
}

void controller_cpus(const struct bl_controller *c, const struct bl_decision *d, bl_cpumask *cpus)
{
        const struct bl_ladder *l = c->ladder;

        cpumask_zero(cpus);
        if (l->mode != BL_MODE_PAIR) {
                unsigned level = d && d[0].change ? d[0].to : c->engine[0].level;

                *cpus = l->levels[level].cpus;
                return;
        }
        for (unsigned p = 0; p < l->npairs; p++) {
                unsigned level = d && d[p].change ? d[p].to : c->engine[p].level;

                cpumask_set(cpus, level ? l->pairs[p].big : l->pairs[p].little);
        }
}

void controller_switched(struct bl_controller *c, const struct bl_decision *d, bl_usec_t now)
{
        for (unsigned i = 0; i < c->nengines; i++)
                if (d[i].change)
                        engine_switched(&c->engine[i], d[i].to, now);
}

unsigned controller_state(const struct bl_controller *c)
{
        unsigned state = 0;

        if (c->ladder->mode != BL_MODE_PAIR)
                return c->engine[0].level;
        for (unsigned p = 0; p < c->nengines && p < 32; p++)
                if (c->engine[p].level)
                        state |= 1u << p;
        return state;
}

void controller_state_name(const struct bl_controller *c, char *buf, size_t size)
{
        size_t n = 0;

        if (size == 0)
                return;
        if (c->ladder->mode != BL_MODE_PAIR) {
                snprintf(buf, size, "%s", c->ladder->levels[c->engine[0].level].name);
                return;
        }
        for (unsigned p = 0; p < c->nengines && n + 1 < size; p++)
                buf[n++] = c->engine[p].level ? 'B' : 'L';
        buf[n] = '\0';
}

bool controller_has_warnings(const struct bl_controller *c)
{
        for (unsigned k = 0; k < c->nscorers; k++) {
                const struct bl_scorer *s = &c->scorer[k];

                if (s->overflow && !c->told.overflow)
                        return true;
                for (unsigned i = 0; i < s->n; i++)
                        if (s->bad[i] && !c->told.heuristic[i])
                                return true;
        }
        return false;
}

unsigned controller_warnings(struct bl_controller *c, struct bl_diag *diag)
{
        unsigned n = 0;

        for (unsigned k = 0; k < c->nscorers; k++)
                n += scorer_warnings(&c->scorer[k], &c->told, diag);
        return n;
}

double controller_demand(const struct bl_controller *c)
{
        double best = 0.0;

        for (unsigned i = 0; i < c->nscorers; i++)
                if (c->demand[i] > best)
                        best = c->demand[i];
        return best;
}

/* Idle: every CPU busy less than this share of the time. Timers and
 * housekeeping (this daemon's own included) cost a machine that does nothing
 * a few %; what is measured adds its own error, and busy fractions are
 * clamped at 0, so the error only adds (on the fake board, publishing every
 * 5 ms, an idle LITTLE CPU sampled every 10 ms averages 3% busy, more when
 * the machine is loaded). Anything more is load that may grow. */
#define IDLE_MAX_BUSY 0.10
/* How long the machine must be idle at the full rate before sampling backs
 * off. Work that comes after a backed-off stretch is seen only at the next
 * sample, up to idle_sample_interval_ms late, so the window must outlast the
 * pauses of interactive work: with 1 s, bursts after idle spells, typing and
 * page loads ran up to 25x later on the measured suite; with 5 s none ran
 * later (tests/bench/RESULTS.md), and an idle machine still comes down to
 * the idle rate within seconds. Busy time counts in ticks (10 ms at HZ=100)
 * where cpuidle does not count it exactly, so one short sample may read a
 * stray tick as 50% busy: the window sums busy time rather than judging
 * sample by sample, and a longer sample is loaded only beyond one tick more
 * than IDLE_MAX_BUSY. */
#define IDLE_WINDOW_USEC (5 * BL_USEC_PER_SEC)
#define IDLE_TICK_USEC (10 * BL_USEC_PER_MSEC)

/* Nothing for a faster sample to catch whatever the load: every engine at
 * the lowest level with no move pending, no hold and no thermal limit. */
static bool engines_quiet(const struct bl_controller *c)
{
        if (c->idle_interval == 0 || c->hold_level >= 0)
                return false;
        for (unsigned i = 0; i < c->nengines; i++) {
                const struct bl_engine *e = &c->engine[i];

                if (e->level != 0 || e->pending_dir != 0 || e->capped || e->critical)
                        return false;
        }
        return true;
}

/* Adds the sample's busy time to the window's. */
static void window_add(struct bl_controller *c, const struct bl_sample *s)
{
        for (unsigned i = 0; i < s->ncpus; i++)
                if (s->cpu[i].online && s->cpu[i].cpu < c->nwindow)
                        c->window_busy[s->cpu[i].cpu] += (double)s->cpu[i].busy * (double)s->interval;
        c->window_len += s->interval;
}

/* Backed off, and a CPU was busy beyond IDLE_MAX_BUSY and one stray tick. */
static bool wakes_from_idle(const struct bl_controller *c, const struct bl_sample *s)
{
        const double loaded = IDLE_MAX_BUSY * (double)s->interval + (double)IDLE_TICK_USEC;

        if (c->next_interval <= c->interval || !engines_quiet(c))
                return false;
        for (unsigned i = 0; i < s->ncpus; i++)
                if (s->cpu[i].online && (double)s->cpu[i].busy * (double)s->interval >= loaded)
                        return true;
        return false;
}

static bool window_idle(const struct bl_controller *c)
{
        for (unsigned cpu = 0; cpu < c->nwindow; cpu++)
                if (c->window_busy[cpu] >= IDLE_MAX_BUSY * (double)c->window_len)
                        return false;
        return true;
}

void controller_woken(struct bl_controller *c)
{
        if (c->next_interval > c->interval)
                c->woken = true;
}

bl_usec_t controller_next_interval(struct bl_controller *c, const struct bl_sample *s)
{
        bool woken = c->woken;

        c->woken = false;
        if (!engines_quiet(c) || woken || wakes_from_idle(c, s)) {
                window_restart(c);
                c->next_interval = c->interval;
        } else if (c->next_interval > c->interval) {
                /* Backed off and still idle. */
                c->next_interval = c->next_interval < c->idle_interval / 2 ? c->next_interval * 2
                                                                           : c->idle_interval;
        } else {
                window_add(c, s);
                if (c->window_len >= IDLE_WINDOW_USEC) {
                        if (window_idle(c))
                                c->next_interval = c->interval * 2 < c->idle_interval ? c->interval * 2
                                                                                      : c->idle_interval;
                        window_restart(c);
                }
        }
        return c->next_interval;
}
