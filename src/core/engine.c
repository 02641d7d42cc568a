/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The decision rules, in the order engine_decide() applies them. cap(L) is the
 * capacity of level L; levels run 0 (efficient) .. n-1 (fast).
 *
 * 1. Thermal (only with a temperature): temp >= critical sets "critical",
 *    temp >= cap sets "capped"; both clear only once temp < release. Critical
 *    forces level 0 at once; capped makes n-2 the highest level and forces a
 *    higher current level down to it at once. These moves ignore dwell,
 *    residency and the rate limit.
 * 2. Wanted level. Level L is tested with its rank-th largest demand
 *    against its fit (core/ladder.h: in cluster and pair mode the peak
 *    demand against cap(L)). Up when the current level's demand > up% of its
 *    fit: the lowest higher level whose up% covers its demand, or the top.
 *    Down when demand(current-1) < down% of fit(current-1): the lowest level
 *    L with demand(L) < down% of fit(L), so a collapse goes straight down.
 *    Clamped to the thermal maximum.
 * 2b. mp mode, with climb_loaded: a move up climbs no higher than the
 *    lowest level with as many fast CPUs as the sample shows CPUs carrying
 *    a load (busy over 60% of the interval), and waits while that is the
 *    current level. The per-rank demands come from scorers that remember:
 *    an onset (a CPU that wakes up after quiet) scores as a saturation, so
 *    a start that shows on several LITTLE CPUs at once (the thread's, and
 *    others that blinked beside it) asked for a fast CPU per rank, and on
 *    the real kernel one thread's start went little -> little+3big. A
 *    saturation always has its CPU loaded, so only such onsets are
 *    bounded; a CPU that stays busy is counted at the next sample and the
 *    level climbs further then. Policies that pin a level whatever the
 *    load (always-big) turn it off.
 * 3. Dwell: the same direction must be seen on consecutive decisions; the
 *    timer starts at the first decision that saw it and any other decision
 *    resets it. The move is due once now - since >= up_delay (down_delay).
 * 3b. Break-even (with break_even): a due move down to L also waits until
 *    the stay on L is expected to pay for the switch there and back. Its
 *    break-even time B is the two switches' energy over what L saves per
 *    unit of time idle (at the demand seen where L does not idle cheaper:
 *    engine_break_even_us()); in mp mode what the threads that leave the
 *    fast CPUs cost less on LITTLE ones, engine_break_even_ranked_us(),
 *    against the CPUs changed. How long L will still do is learned: the
 *    lengths of past periods in which L did (core/gaps.h) give the
 *    expected rest R of the current one, which has lasted t: the move goes
 *    once R >= B (a gap longer than any recorded is expected to last as
 *    long again, so an idle machine goes down once t >= B). Before there
 *    is history, once t >= B: by then, waiting longer costs as much as the
 *    switches could have (the ski-rental rule, never worse than twice the
 *    best choice in hindsight). With cheap switches B is below down_delay
 *    and nothing changes; with hotplug's it is seconds, and a frame's or a
 *    timer's gap no longer takes the machine down.
 * 3c. The way up (with break_even): a due move up also waits until the
 *    demand over the current level has been seen for as long as the switch
 *    up takes (its latency, measured): a burst shorter than that is over
 *    before the faster CPUs are there, and the switch would stall it
 *    besides. Waiting that long is again the ski-rental rule, at most twice
 *    the lateness of the best choice in hindsight. The first sample that
 *    saw the demand counts from the decision before it (it covers that
 *    interval). With the in-kernel switcher's, cpufreq's or blsim's boards'
 *    costs the switch takes less than a sample interval and nothing
 *    changes; with hotplug's, one sample of a CPU waking up after an idle
 *    spell no longer takes an idle machine up and back.
 * 4. Residency: a due move waits until the current level has been applied for
 *    min_residency (not before engine_switched() has been called once).
 * 5. Rate: with max_rate_hz > 0, a due move waits while max_rate_hz switches
 *    happened at times > now - 1 s. Thermal moves are counted, never held.
 *
 * 1b. Ceiling (engine_set_ceiling(), the desktop's profile): like the
 *    thermal cap, a lower highest level, and a higher current level goes
 *    down to it at once.
 *
 * A hold (engine_decide_hold()) replaces steps 1b-5: the held level at once,
 * clamped by rule 1, so the order is critical > thermal cap > hold >
 * ceiling > automatic.
 *
 * Every decision carries a reason for people, e.g. "demand 612 > 80% of
 * little (377) for 40 ms": up names the current level, down the next lower
 * one. While a thermal limit holds the level (at 0 when critical, at the
 * capped maximum when more is wanted) the cause is CRITICAL or THERMAL_CAP
 * with no change. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/engine.h"

#define TEMP_FMT "%.1f C"
#define TEMP_ARG(mc) ((double)(mc) / 1000.0)

static unsigned clamp_rate(unsigned hz)
{
        return hz > BL_ENGINE_MAX_RATE ? BL_ENGINE_MAX_RATE : hz;
}

void engine_params_from_config(struct bl_engine_params *p, const struct bl_config *c)
{
        *p = (struct bl_engine_params){
                .up_pct = c->up_threshold,
                .down_pct = c->down_threshold,
                .up_delay = (bl_usec_t)c->up_delay_ms * BL_USEC_PER_MSEC,
                .down_delay = (bl_usec_t)c->down_delay_ms * BL_USEC_PER_MSEC,
                .min_residency = (bl_usec_t)c->min_residency_ms * BL_USEC_PER_MSEC,
                .max_rate_hz = clamp_rate(c->max_switch_rate_hz),
                .cap_mc = c->cap_temp_mc,
                .release_mc = c->release_temp_mc,
                .critical_mc = c->critical_temp_mc,
                .break_even = c->break_even,
                .climb_loaded = c->mp_climb_loaded,
        };
}

void engine_init(struct bl_engine *e, const struct bl_ladder *l, const struct bl_engine_params *p,
                 unsigned level)
{
        *e = (struct bl_engine){ .ladder = l, .p = *p, .explain_all = true, .ceiling = UINT_MAX };
        e->p.max_rate_hz = clamp_rate(p->max_rate_hz);
        e->level = l->nlevels > 0 && level >= l->nlevels ? l->nlevels - 1 : level;
}

void engine_explain(struct bl_engine *e, bool all)
{
        e->explain_all = all;
}

void engine_set_params(struct bl_engine *e, const struct bl_engine_params *p)
{
        e->p = *p;
        e->p.max_rate_hz = clamp_rate(p->max_rate_hz);
        e->pending_dir = 0;
        e->pending_since = 0;
}

void engine_set_ceiling(struct bl_engine *e, unsigned level, const char *who)
{
        e->ceiling = level;
        e->ceiling_who[0] = '\0';
        if (who)
                strncat(e->ceiling_who, who, sizeof(e->ceiling_who) - 1);
}

void engine_set_switch_cost(struct bl_engine *e, const struct bl_switch_cost *c)
{
        e->cost = *c;
}

void engine_set_energy_model(struct bl_engine *e, const struct bl_energy_model *m)
{
        e->model = m && m->known ? m : NULL;
}

double engine_switch_up_us(const struct bl_engine *e)
{
        if (e->level + 1 >= e->ladder->nlevels)
                return 0.0;
        return switch_cost_latency_us(&e->cost, e->ladder->levels[e->level].cpus_up);
}

/* The break-even time of the switches from 'from' to 'to' and back when the
 * stay on 'to' saves 'saved_mw' (called only with a model). */
static double break_even_for(const struct bl_engine *e, unsigned from, unsigned to, double saved_mw)
{
        const unsigned ncpus = ladder_cpus_changed(e->ladder, from, to);
        const double energy_uj = 2 * switch_cost_energy_uj(&e->cost, ncpus);

        if (!(saved_mw > 0))
                return INFINITY;
        /* µJ / mW = ms */
        return energy_uj / saved_mw * BL_USEC_PER_MSEC;
}

/* 0 when switching costs nothing, the bound without a model; else -1: the
 * model decides. */
static double break_even_without_model(const struct bl_engine *e, unsigned from, unsigned to)
{
        const unsigned ncpus = ladder_cpus_changed(e->ladder, from, to);
        const double energy_uj = 2 * switch_cost_energy_uj(&e->cost, ncpus);
        const double latency_us = 2 * switch_cost_latency_us(&e->cost, ncpus);

        if (energy_uj <= 0 && latency_us <= 0)
                return 0;
        if (!e->model)
                return fmin(BL_BREAK_EVEN_PER_LATENCY * latency_us, BL_BREAK_EVEN_MAX_NO_MODEL_US);
        return -1;
}

/* What level 'to' saves against 'from' per unit of time over a stay: what
 * it saves idle. A stay below is a gap between bursts or the quiet after a
 * load, and the demand reported through a gap is held on purpose (headroom
 * keeps a burst's) and rises in the sample a burst begins in: a saving read
 * from it ended the wait just as a burst came (tests/bench/RESULTS.md,
 * "the break-even at the idle saving"). Where 'to' does not idle cheaper,
 * what it saves at 'demand'. */
static double stay_saving_mw(const struct bl_engine *e, unsigned from, unsigned to, double demand)
{
        const double idle = energy_model_power(e->model, from, 0) - energy_model_power(e->model, to, 0);

        if (idle > 0)
                return idle;
        return energy_model_power(e->model, from, demand) - energy_model_power(e->model, to, demand);
}

double engine_break_even_us(const struct bl_engine *e, unsigned from, unsigned to, double demand)
{
        const double bound = break_even_without_model(e, from, to);

        if (bound >= 0)
                return bound;
        return break_even_for(e, from, to, stay_saving_mw(e, from, to, demand));
}

void engine_switched(struct bl_engine *e, unsigned level, bl_usec_t now)
{
        if (e->started) {
                e->recent[e->recent_head] = now;
                e->recent_head = (e->recent_head + 1) % BL_ENGINE_MAX_RATE;
                if (e->recent_n < BL_ENGINE_MAX_RATE)
                        e->recent_n++;
        }
        e->level = level;
        e->level_since = now;
        e->started = true;
        e->pending_dir = 0;
        e->pending_since = 0;
}

static bl_usec_t elapsed(bl_usec_t now, bl_usec_t since)
{
        return now > since ? now - since : 0;
}

static unsigned long long to_ms(bl_usec_t usec)
{
        return (unsigned long long)(usec / BL_USEC_PER_MSEC);
}

/* demand * 100 against pct * capacity: exact for integer demand, so a
 * demand of exactly the threshold is on the documented side. */
static bool above_pct(double demand, unsigned pct, unsigned capacity)
{
        return demand * 100.0 > (double)pct * capacity;
}

static bool below_pct(double demand, unsigned pct, unsigned capacity)
{
        return demand * 100.0 < (double)pct * capacity;
}

static bool rate_limited(const struct bl_engine *e, bl_usec_t now)
{
        unsigned in_window = 0;

        if (e->p.max_rate_hz == 0)
                return false;
        /* Times are recorded in order, so only the newest max_rate_hz matter. */
        for (unsigned i = 0; i < e->recent_n && i < e->p.max_rate_hz; i++) {
                unsigned idx = (e->recent_head + BL_ENGINE_MAX_RATE - 1 - i) % BL_ENGINE_MAX_RATE;

                if (e->recent[idx] + BL_USEC_PER_SEC > now)
                        in_window++;
        }
        return in_window >= e->p.max_rate_hz;
}

static void decide_thermal_state(struct bl_engine *e, const int *temp_mc)
{
        if (!temp_mc) {
                e->critical = false;
                e->capped = false;
                return;
        }
        if (*temp_mc >= e->p.critical_mc)
                e->critical = true;
        else if (*temp_mc < e->p.release_mc)
                e->critical = false;
        if (*temp_mc >= e->p.cap_mc)
                e->capped = true;
        else if (*temp_mc < e->p.release_mc)
                e->capped = false;
}

/* A decision that changes nothing is explained only when someone reads it
 * (e->explain_all): formatting numbers every tick was a tenth of the
 * daemon's tick for a text the log drops. */
__attribute__((format(printf, 3, 4))) static void set_reason(const struct bl_engine *e, struct bl_decision *d,
                                                             const char *fmt, ...)
{
        va_list ap;

        if (!e->explain_all && !d->change)
                return;

        va_start(ap, fmt);
        vsnprintf(d->reason, sizeof(d->reason), fmt, ap);
        va_end(ap);
}

/* "temperature 96.0 C >= critical 95.0 C", or why a limit still holds below it. */
static void format_thermal(char *buf, size_t size, int temp_mc, const char *limit, int limit_mc,
                           int release_mc)
{
        if (temp_mc >= limit_mc)
                snprintf(buf, size, "temperature " TEMP_FMT " >= %s " TEMP_FMT, TEMP_ARG(temp_mc), limit,
                         TEMP_ARG(limit_mc));
        else
                snprintf(buf, size,
                         "temperature " TEMP_FMT " not below release " TEMP_FMT " after %s " TEMP_FMT,
                         TEMP_ARG(temp_mc), TEMP_ARG(release_mc), limit, TEMP_ARG(limit_mc));
}

/* Rule 1, which comes before automatic choices and holds alike. Sets
 * '*highest' to the highest level allowed and 'thermal' to why a limit holds;
 * returns true when the thermal state decides this tick on its own. */
static bool thermal_decides(struct bl_engine *e, const int *temp_mc, struct bl_decision *d, unsigned *highest,
                            char *thermal, size_t size)
{
        const struct bl_ladder *l = e->ladder;
        const unsigned n = l->nlevels, cur = e->level;

        decide_thermal_state(e, temp_mc);
        *highest = n > 0 ? n - 1 : 0;
        if (e->critical) {
                format_thermal(thermal, size, *temp_mc, "critical", e->p.critical_mc, e->p.release_mc);
                e->pending_dir = 0;
                d->cause = BL_CAUSE_CRITICAL;
                d->to = 0;
                d->change = cur != 0;
                set_reason(e, d, "%s: %s %s", thermal, d->change ? "forced to" : "held at", l->levels[0].name);
                return true;
        }
        if (e->capped) {
                if (n >= 2)
                        *highest = n - 2;
                format_thermal(thermal, size, *temp_mc, "cap", e->p.cap_mc, e->p.release_mc);
                if (cur > *highest) {
                        e->pending_dir = 0;
                        d->cause = BL_CAUSE_THERMAL_CAP;
                        d->to = *highest;
                        d->change = true;
                        set_reason(e, d, "%s: highest level %s", thermal, l->levels[*highest].name);
                        return true;
                }
        }
        return false;
}

void engine_decide_hold(struct bl_engine *e, unsigned level, const char *who, const int *temp_mc,
                        bl_usec_t now, struct bl_decision *d)
{
        const struct bl_ladder *l = e->ladder;
        const unsigned cur = e->level;
        char thermal[96] = "";
        unsigned highest;

        *d = (struct bl_decision){ .from = cur, .to = cur, .cause = BL_CAUSE_HOLD };
        /* Automatic choices resume from scratch when the hold ends. */
        e->pending_dir = 0;
        e->last_decision = now;
        e->decided = true;
        if (thermal_decides(e, temp_mc, d, &highest, thermal, sizeof(thermal)))
                return;
        if (level >= l->nlevels)
                level = l->nlevels - 1;
        d->to = level < highest ? level : highest;
        d->change = d->to != cur;
        if (d->to < level)
                set_reason(e, d, "%s wants %s, held at %s: %s", who, l->levels[level].name,
                           l->levels[d->to].name, thermal);
        else
                set_reason(e, d, "%s: %s", who, l->levels[d->to].name);
}

/* The demand the engine tests level 'i' with (its rank-th largest). */
static double rung_demand(const struct bl_ladder *l, unsigned i, const double *top, unsigned ntop)
{
        unsigned rank = l->levels[i].rank;

        return rank < ntop ? top[rank] : 0.0;
}

/* mp: what running one thread of demand 'd' on a LITTLE CPU instead of a
 * fast one saves, with the fast cluster on either way: the busy power at d
 * of level 'from' (the fast cluster's) less that of level 0 (LITTLE's),
 * each above its own idle floor. The model's levels above 0 all run the
 * same clusters, so their whole-machine figures are alike; what a smaller
 * fast set saves is what its threads cost less on LITTLE. */
static double moved_thread_saving_mw(const struct bl_energy_model *m, unsigned from, double d)
{
        return (energy_model_power(m, from, d) - energy_model_power(m, from, 0)) -
               (energy_model_power(m, 0, d) - energy_model_power(m, 0, 0));
}

double engine_break_even_ranked_us(const struct bl_engine *e, unsigned from, unsigned to, const double *top,
                                   unsigned ntop)
{
        const struct bl_ladder *l = e->ladder;
        const double bound = break_even_without_model(e, from, to);
        double saved_mw = 0;

        if (bound >= 0)
                return bound;
        if (l->mode != BL_MODE_MP || from <= to)
                return engine_break_even_us(e, from, to, rung_demand(l, to, top, ntop));
        /* The threads of ranks to .. from - 1 move to LITTLE CPUs; with
         * no fast CPU left, the fast cluster's idle power goes too. */
        for (unsigned r = l->levels[to].rank; r < l->levels[from].rank; r++)
                saved_mw += moved_thread_saving_mw(e->model, from, r < ntop ? top[r] : 0.0);
        if (to == 0)
                saved_mw += energy_model_power(e->model, from, 0) - energy_model_power(e->model, 0, 0);
        return break_even_for(e, from, to, saved_mw);
}

static const char *ordinal_suffix(unsigned n)
{
        if (n % 100 >= 11 && n % 100 <= 13)
                return "th";
        return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

/* "demand 612 > 80% of little (377)", or in mp mode, where a level is
 * tested with the rank-th busiest CPU against the little capacity,
 * "2nd busiest CPU 412 > 80% of little (377)". */
struct condition {
        unsigned level;
        double demand;
        char op;
        unsigned pct;
};

/* Writes the condition into 'buf'; returns how much of 'buf' it used. */
static size_t format_condition(char *buf, size_t size, const struct bl_ladder *l, const struct condition *c)
{
        const struct bl_level *lv = &l->levels[c->level];
        const double demand = c->demand;
        const char op = c->op;
        const unsigned pct = c->pct;
        int n;

        if (l->mode != BL_MODE_MP)
                n = snprintf(buf, size, "demand %.0f %c %u%% of %s (%u)", demand, op, pct, lv->name, lv->fit);
        else if (lv->rank == 0)
                n = snprintf(buf, size, "busiest CPU %.0f %c %u%% of %s (%u)", demand, op, pct, l->levels[0].name,
                         lv->fit);
        else
                n = snprintf(buf, size, "%u%s busiest CPU %.0f %c %u%% of %s (%u)", lv->rank + 1,
                             ordinal_suffix(lv->rank + 1), demand, op, pct, l->levels[0].name, lv->fit);
        return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* set_reason() for the reasons that start with the condition that moves
 * the level ("demand 612 > 80% of little (377) for 40 ms, ..."). */
__attribute__((format(printf, 4, 5))) static void set_reason_after(const struct bl_engine *e, struct bl_decision *d,
                                                                   const struct condition *c, const char *fmt, ...)
{
        size_t n;
        va_list ap;

        if (!e->explain_all && !d->change)
                return;
        n = format_condition(d->reason, sizeof(d->reason), e->ladder, c);
        va_start(ap, fmt);
        vsnprintf(d->reason + n, sizeof(d->reason) - n, fmt, ap);
        va_end(ap);
}

/* Rule 3c for a move up to 'to'; when it must wait, why. */
static bool up_switch_pays(const struct bl_engine *e, unsigned to, bl_usec_t now, char *why, size_t size)
{
        const double latency = switch_cost_latency_us(&e->cost, ladder_cpus_changed(e->ladder, e->level, to));
        const bl_usec_t seen = elapsed(now, e->pending_seen_from);

        /* At the first decision nothing says how long the demand has been
         * there: as without the rule. */
        if (!e->p.break_even || e->pending_seen_from == 0 || (double)seen >= latency)
                return true;
        if (e->explain_all)
                snprintf(why, size, "the switch up takes %.0f ms", latency / BL_USEC_PER_MSEC);
        return false;
}

/* Each level below the top did for this sample when no move up from it would
 * be wanted: the gaps its history learns (rule 3b). */
static void observe_gaps(struct bl_engine *e, const double *top, unsigned ntop, bl_usec_t now)
{
        const struct bl_ladder *l = e->ladder;

        for (unsigned i = 0; i + 1 < l->nlevels && i < BL_ENGINE_GAP_LEVELS; i++)
                gaps_observe(&e->gaps[i], !above_pct(rung_demand(l, i, top, ntop), e->p.up_pct, l->levels[i].fit),
                             now);
}

/* Rule 3b for a move down to 'to' at the per-CPU demands 'top' (largest
 * first, 'ntop' of them); when it must wait, why
 * (only where the reason is written: a wait switches nothing). */
static bool break_even_reached(const struct bl_engine *e, unsigned to, const double *top, unsigned ntop,
                               bl_usec_t now, char *why, size_t size)
{
        double be, rest;
        bl_usec_t lasted;

        if (!e->p.break_even)
                return true;
        be = BL_BREAK_EVEN_MARGIN * engine_break_even_ranked_us(e, e->level, to, top, ntop);
        if (be <= 0)
                return true;
        if (to >= BL_ENGINE_GAP_LEVELS) {
                lasted = elapsed(now, e->pending_since);
                if ((double)lasted >= be)
                        return true;
                if (e->explain_all)
                        snprintf(why, size, "break-even %.0f ms", be / BL_USEC_PER_MSEC);
                return false;
        }
        lasted = gaps_elapsed(&e->gaps[to], now);
        if (gaps_expected_rest(&e->gaps[to], lasted, &rest)) {
                if (rest >= be)
                        return true;
                if (e->explain_all)
                        snprintf(why, size, "%s expected for %.0f ms more, break-even %.0f ms",
                                 e->ladder->levels[to].name, rest / BL_USEC_PER_MSEC, be / BL_USEC_PER_MSEC);
                return false;
        }
        if ((double)lasted >= be)
                return true;
        if (e->explain_all)
                snprintf(why, size, "break-even %.0f ms", be / BL_USEC_PER_MSEC);
        return false;
}

void engine_decide(struct bl_engine *e, double demand, const int *temp_mc, bl_usec_t now,
                   struct bl_decision *d)
{
        engine_decide_ranked(e, &demand, 1, BL_ENGINE_ANY_LOAD, temp_mc, now, d);
}

/* Rule 2b: the lowest level with fast CPUs for 'loaded' CPUs (mp), or the
 * top. */
static unsigned level_for_loaded(const struct bl_ladder *l, unsigned loaded)
{
        if (l->mode != BL_MODE_MP)
                return l->nlevels - 1;
        for (unsigned i = 0; i < l->nlevels; i++)
                if (l->levels[i].rank >= loaded)
                        return i;
        return l->nlevels - 1;
}

void engine_decide_ranked(struct bl_engine *e, const double *top, unsigned ntop, unsigned loaded,
                          const int *temp_mc, bl_usec_t now, struct bl_decision *d)
{
        const struct bl_ladder *l = e->ladder;
        const unsigned n = l->nlevels;
        const unsigned cur = e->level;
        char thermal[96] = "", why[96];
        struct condition cond = { 0 };
        unsigned highest = n > 0 ? n - 1 : 0;
        unsigned want = cur;
        enum bl_cause limit = BL_CAUSE_THERMAL_CAP;
        bl_usec_t delay, held, previous;
        int dir;

        *d = (struct bl_decision){ .from = cur, .to = cur, .cause = BL_CAUSE_NONE };
        previous = e->decided ? e->last_decision : 0;
        e->last_decision = now;
        e->decided = true;
        observe_gaps(e, top, ntop, now);
        if (thermal_decides(e, temp_mc, d, &highest, thermal, sizeof(thermal)))
                return;
        if (e->ceiling < highest) {
                highest = e->ceiling;
                limit = BL_CAUSE_PROFILE;
                snprintf(thermal, sizeof(thermal), "%s", e->ceiling_who);
                if (cur > highest) {
                        e->pending_dir = 0;
                        d->cause = BL_CAUSE_PROFILE;
                        d->to = highest;
                        d->change = true;
                        set_reason(e, d, "%s: highest level %s", thermal, l->levels[highest].name);
                        return;
                }
        }

        if (cur + 1 < n && above_pct(rung_demand(l, cur, top, ntop), e->p.up_pct, l->levels[cur].fit)) {
                want = n - 1;
                for (unsigned i = cur + 1; i < n; i++)
                        if (!above_pct(rung_demand(l, i, top, ntop), e->p.up_pct, l->levels[i].fit)) {
                                want = i;
                                break;
                        }
                cond = (struct condition){ cur, rung_demand(l, cur, top, ntop), '>', e->p.up_pct };
        } else if (cur > 0 &&
                   below_pct(rung_demand(l, cur - 1, top, ntop), e->p.down_pct, l->levels[cur - 1].fit)) {
                for (want = 0; want < cur - 1; want++)
                        if (below_pct(rung_demand(l, want, top, ntop), e->p.down_pct, l->levels[want].fit))
                                break;
                cond = (struct condition){ cur - 1, rung_demand(l, cur - 1, top, ntop), '<', e->p.down_pct };
        }

        if (want > highest) {
                want = highest;
                if (want == cur) {
                        e->pending_dir = 0;
                        d->cause = limit;
                        set_reason_after(e, d, &cond, ", held at %s: %s", l->levels[cur].name, thermal);
                        return;
                }
        }

        if (want == cur) {
                /* Staying is justified by the demand that keeps the level
                 * (the one its down test reads); at either end of the
                 * ladder, by the one that would move it. */
                double up = rung_demand(l, cur, top, ntop);
                double keep = rung_demand(l, cur ? cur - 1 : 0, top, ntop);

                e->pending_dir = 0;
                if (cur + 1 == n && above_pct(up, e->p.up_pct, l->levels[cur].fit))
                        set_reason(e, d, "demand %.0f at top level %s", up, l->levels[cur].name);
                else if (cur == 0 && below_pct(up, e->p.down_pct, l->levels[0].fit))
                        set_reason(e, d, "demand %.0f at lowest level %s", up, l->levels[cur].name);
                else
                        set_reason(e, d, "demand %.0f within thresholds of %s", keep, l->levels[cur].name);
                return;
        }

        dir = want > cur ? 1 : -1;
        if (e->pending_dir != dir) {
                e->pending_dir = dir;
                e->pending_since = now;
                e->pending_seen_from = previous < now ? previous : now;
        }
        e->pending_to = want;
        held = elapsed(now, e->pending_since);
        delay = dir > 0 ? e->p.up_delay : e->p.down_delay;

        if (held < delay) {
                d->cause = BL_CAUSE_PENDING;
                set_reason_after(e, d, &cond, " for %llu ms, waiting for %llu ms", to_ms(held), to_ms(delay));
                return;
        }

        if (dir > 0 && e->p.climb_loaded) {
                const unsigned bound = level_for_loaded(l, loaded);

                if (want > bound) {
                        want = bound;
                        /* where it goes once one more CPU is loaded (status) */
                        e->pending_to = want > cur ? want : cur + 1;
                        if (want <= cur) {
                                d->cause = BL_CAUSE_PENDING;
                                set_reason_after(e, d, &cond, " for %llu ms, waiting: %u CPU%s loaded",
                                                 to_ms(held), loaded, loaded == 1 ? "" : "s");
                                return;
                        }
                }
        }

        if ((dir < 0 && !break_even_reached(e, want, top, ntop, now, why, sizeof(why))) ||
            (dir > 0 && !up_switch_pays(e, want, now, why, sizeof(why)))) {
                d->cause = BL_CAUSE_PENDING;
                set_reason_after(e, d, &cond, " for %llu ms, waiting: %s", to_ms(held), why);
                return;
        }

        if (e->started && elapsed(now, e->level_since) < e->p.min_residency) {
                d->cause = BL_CAUSE_RESIDENCY;
                set_reason_after(e, d, &cond,
                                 " for %llu ms, held: minimum residency %llu ms not reached (%llu ms at %s)",
                                 to_ms(held), to_ms(e->p.min_residency), to_ms(elapsed(now, e->level_since)),
                                 l->levels[cur].name);
                return;
        }

        if (rate_limited(e, now)) {
                d->cause = BL_CAUSE_RATE;
                set_reason_after(e, d, &cond, " for %llu ms, held: rate limit %u switches/s reached", to_ms(held),
                                 e->p.max_rate_hz);
                return;
        }

        d->to = want;
        d->change = true;
        d->cause = dir > 0 ? BL_CAUSE_UP : BL_CAUSE_DOWN;
        set_reason_after(e, d, &cond, " for %llu ms", to_ms(held));
}

const char *cause_to_string(enum bl_cause c)
{
        switch (c) {
        case BL_CAUSE_NONE:
                return "none";
        case BL_CAUSE_PENDING:
                return "pending";
        case BL_CAUSE_RESIDENCY:
                return "residency";
        case BL_CAUSE_RATE:
                return "rate";
        case BL_CAUSE_UP:
                return "up";
        case BL_CAUSE_DOWN:
                return "down";
        case BL_CAUSE_THERMAL_CAP:
                return "thermal-cap";
        case BL_CAUSE_CRITICAL:
                return "critical";
        case BL_CAUSE_HOLD:
                return "hold";
        case BL_CAUSE_PROFILE:
                return "profile";
        }
        return "?";
}
