/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What no causal policy can do, shown with twins of a trace.
 *
 * Forced steps. A schedule that runs step s on LITTLE has, from s on, at
 * most LITTLE's capacity until it next switches up (at some s' > s, paying
 * the switch's stall), and at most big's after. Its backlog at s is at
 * least zero. So its late work from s on is at least that of the schedule
 * that starts at s with no backlog, runs LITTLE up to s' and big from s'
 * on, for the best s'; and its late work before s is at least always-big's
 * there, which has the most capacity at every step (the execution rules
 * only ever finish less with less capacity or a stall). When that sum is
 * above the bound for every s' (or staying on LITTLE), s is forced: every
 * schedule that meets the bound runs s on big. The search over s' stops as
 * soon as one s' meets the bound, or when LITTLE alone has left more late
 * than the bound allows, and claims nothing past BOUND_REACH_STEPS; a run on
 * big from s' stops once its backlog equals always-big's (then the rest is
 * always-big's), or past the reach, counting always-big's late for the
 * rest, the least any run has.
 *
 * Sample times. A policy that decides only at its samples (the daemon's
 * controller, every sample_interval_ms or a multiple of it while idle; the
 * reactive oracle) switches only at multiples of the interval, so one on
 * LITTLE at s stays there up to the next sample time after s at least. For
 * such schedules s' runs over those times alone, and more steps are
 * forced: LITTLE carries the start of a burst that begins between two
 * samples until the next one, and where that alone leaves more late work
 * than the bound allows, the policy had to be on big at the sample before
 * the burst, when nothing of it had shown.
 *
 * Energy. A schedule pays at least, per step, what its level costs to run
 * that step's own work from no backlog: work it carries costs it no less
 * where it is run (at a raised operating point, or on big); what the
 * level cannot finish in the step is priced at the cheapest rate any CPU
 * runs work at, since a schedule within a late bound runs nearly all of it
 * somewhere, and what it may leave undone at its end (at most the bound) is
 * taken off the total. Each is priced at the cheapest operating point at or
 * above the one the step would run at, as backlog only raises it. In a
 * switch's stall the work may be run later on either level, so those steps
 * are priced at the cheaper level's power with no work, and their work at
 * the cheapest rate. Switch energy is charged as a run
 * pays it. Late work is bounded the same way: a step's own backlog from
 * none, and over a stall what piles up from none while it lasts. The least
 * energy over schedules that start on LITTLE, are on big at the given steps
 * and stay within the late bound is bounded by weak duality: for every
 * multiplier mu >= 0, the least energy + mu x late over all of them (a
 * dynamic programme over step, level and stall left) less mu x the bound.
 * tests/unit/check_bound.c checks both bounds against every schedule of
 * short traces.
 *
 * Twins. A causal policy's level at step s depends only on the work of the
 * steps before s. Take a trace A whose run of forced steps starts at f,
 * after a load that repeats with a period of P steps, and remove j whole
 * periods just before f: the twin A[0, f - jP) + A[f, end) is the same
 * load, with what follows f coming jP steps earlier (a game's heavy burst,
 * a capture, a page load one frame or one timer tick sooner). The twin
 * equals A on every step before f - jP, so a policy runs every step
 * s <= f - jP at the same level on both. Where such a step is forced on the
 * twin (against the twin's own T2 bound), a policy that meets T2 on the
 * twin runs it on big on A as well. Gathering those steps over j gives
 * steps on big that A's own bound does not force, and the energy bound
 * with them bounds eta on A for every policy that meets T2 on A's twins.
 * The twins are not in any set; they are what the family's generator draws
 * with a burst placed otherwise, and a policy meant to hold on unseen seeds
 * meets them or does not generalise. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "sim/bound.h"
#include "sim/exec.h"
#include "sim/oracle.h"
#include "sim/reactive.h"

#define LITTLE 0U
#define BIG 1U
/* The switches up forced_at() tries after a step on LITTLE, at least (and
 * four switch stalls' worth). */
#define BOUND_REACH_STEPS 512U

static int check_levels(const struct sim_levels *lv, const struct sim_trace *t)
{
        if (lv->mode != BL_MODE_CLUSTER || lv->nlevels != 2)
                return -EOPNOTSUPP;
        if (t->nlanes == 0 || t->nlanes > SIM_EXEC_MAX_LANES || t->step_us == 0)
                return -EINVAL;
        return 0;
}

/* The steps a switch from 'from' to 'to' stalls (some of). */
static size_t stall_steps(const struct sim_board *b, const struct sim_levels *lv, unsigned from, unsigned to,
                          bl_usec_t step_us)
{
        return (size_t)ceil(exec_switch_latency_us(b, lv, from, to) / (double)step_us);
}

static void step_work(const struct sim_trace *t, size_t s, double *work)
{
        for (unsigned l = 0; l < t->nlanes; l++)
                work[l] = t->work[s * t->nlanes + l];
}

/* Always-big: its backlog per step and lane, the late work before and from
 * each step, and its energy. */
struct big_run {
        double *backlog;        /* nsteps x nlanes */
        double *before;         /* before[s]: sum of backlog over steps < s (nsteps + 1) */
        double total_work;
        double energy_nj;
};

static void big_run_free(struct big_run *br)
{
        free(br->backlog);
        free(br->before);
        *br = (struct big_run){ 0 };
}

static int big_run(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                   struct big_run *br)
{
        const unsigned nl = t->nlanes;
        _cleanup_free_ double *bl = calloc(2 * (size_t)nl, sizeof(double));
        struct sim_stall stall = { 0, 0 };
        unsigned prev = SIM_LEVEL_NONE;

        *br = (struct big_run){ 0 };
        br->backlog = calloc(t->nsteps * nl + 1, sizeof(double));
        br->before = calloc(t->nsteps + 1, sizeof(double));
        if (!bl || !br->backlog || !br->before) {
                big_run_free(br);
                return -ENOMEM;
        }
        for (size_t s = 0; s < t->nsteps; s++) {
                struct sim_level_step st;
                double *work = bl + nl;
                int err;

                step_work(t, s, work);
                for (unsigned l = 0; l < nl; l++)
                        br->total_work += work[l];
                err = exec_level_step_stalled(b, lv, BIG, prev, &stall, (double)t->step_us, nl, bl, work, &st);
                if (err < 0) {
                        big_run_free(br);
                        return err;
                }
                prev = BIG;
                memcpy(br->backlog + s * nl, bl, nl * sizeof(double));
                br->before[s + 1] = br->before[s] + st.backlog;
                br->energy_nj += st.energy_nj;
        }
        return 0;
}

static bool same_backlog(const double *a, const double *b, unsigned n)
{
        for (unsigned i = 0; i < n; i++)
                if (fabs(a[i] - b[i]) > 1e-9 * (1 + fabs(b[i])))
                        return false;
        return true;
}

/* The least late work from step 'up' on of the schedule that is on big from
 * 'up' (switching there) with backlog 'bl' (per lane, consumed), plus
 * 'late', or a value above 'budget' once it passes it. */
static double late_from_switch(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                               const struct big_run *br, size_t up, size_t reach, double *bl, double late,
                               double budget)
{
        const unsigned nl = t->nlanes;
        struct sim_stall stall = { 0, 0 };
        unsigned prev = LITTLE;
        double work[SIM_EXEC_MAX_LANES];

        for (size_t s = up; s < t->nsteps; s++) {
                struct sim_level_step st;

                step_work(t, s, work);
                (void)exec_level_step_stalled(b, lv, BIG, prev, &stall, (double)t->step_us, nl, bl, work, &st);
                prev = BIG;
                late += st.backlog;
                if (late > budget)
                        return late;
                /* Once its backlog is always-big's, the rest is always-big's;
                 * before that, at least always-big's (the least backlog any
                 * run has at every step), which is all that is counted past
                 * 'reach' steps: a load big too falls behind on would
                 * otherwise be followed to its end. */
                if ((stall.left_us <= 0 && same_backlog(bl, br->backlog + s * nl, nl)) || s + 1 >= up + reach)
                        return late + (br->before[t->nsteps] - br->before[s + 1]);
        }
        return late;
}

/* Whether every schedule on LITTLE at step s leaves more than 'budget'
 * late (the first paragraph of this file), among those that switch only at
 * multiples of 'grid' steps. Switches up are tried up to 'reach' steps
 * after s: LITTLE must have left more than the budget by then, or nothing
 * is claimed (a load that LITTLE nearly carries, a ramp, would otherwise
 * try every later step, each to its end). */
static bool forced_at(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                      const struct big_run *br, size_t s, size_t reach, size_t grid, double budget, double *bl,
                      double *branch)
{
        const unsigned nl = t->nlanes;
        struct sim_stall stall = { 0, 0 };
        double late = br->before[s], work[SIM_EXEC_MAX_LANES];

        memset(bl, 0, nl * sizeof(double));
        for (size_t up = s + 1; up <= s + reach; up++) {
                struct sim_level_step st;

                step_work(t, up - 1, work);
                (void)exec_level_step_stalled(b, lv, LITTLE, LITTLE, &stall, (double)t->step_us, nl, bl, work,
                                              &st);
                late += st.backlog;
                if (late > budget)
                        return true;
                if (up == t->nsteps)
                        return false;   /* staying on LITTLE meets it */
                if (up % grid != 0)
                        continue;
                memcpy(branch, bl, nl * sizeof(double));
                if (late_from_switch(b, lv, t, br, up, reach, branch, late, budget) <= budget)
                        return false;
        }
        return false;
}

static int forced_steps(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                        const struct big_run *br, double max_late, size_t grid, size_t from, size_t to,
                        unsigned char *forced)
{
        /* Claimed only beyond rounding: a bound set at a run's own late
         * work must not force that run's steps. */
        const double budget = max_late * br->total_work * (1 + 1e-9) + 1e-9;
        const size_t window = stall_steps(b, lv, LITTLE, BIG, t->step_us);
        const size_t reach = (4 * window > BOUND_REACH_STEPS ? 4 * window : BOUND_REACH_STEPS) + grid;
        _cleanup_free_ double *bl = calloc(2 * (size_t)t->nlanes, sizeof(double));

        if (!bl)
                return -ENOMEM;
        for (size_t s = from; s < to; s++)
                forced[s - from] = forced_at(b, lv, t, br, s, reach, grid, budget, bl, bl + t->nlanes);
        return 0;
}

int bound_forced_steps(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                       double max_late, size_t grid, size_t from, size_t to, unsigned char *forced)
{
        struct big_run br;
        int err = check_levels(lv, t);

        if (err < 0)
                return err;
        if (from > to || to > t->nsteps || grid == 0)
                return -EINVAL;
        err = big_run(b, lv, t, &br);
        if (err < 0)
                return err;
        err = forced_steps(b, lv, t, &br, max_late, grid, from, to, forced);
        big_run_free(&br);
        return err;
}

/* The least energy (nJ) a unit of work (a reference-µs) costs anywhere on
 * the board: busy time x core power at the cheapest operating point. */
static double cheapest_work_nj(const struct sim_board *b)
{
        double best = INFINITY;

        for (unsigned k = 0; k < b->nclusters; k++)
                for (unsigned i = 0; i < b->cluster[k].nopps; i++) {
                        const struct sim_opp *opp = &b->cluster[k].opp[i];
                        const double nj = opp->capacity ? (double)b->reference_capacity * opp->core_mw /
                                                                  opp->capacity :
                                                          INFINITY;

                        if (nj < best)
                                best = nj;
                }
        return isfinite(best) ? best : 0;
}

/* The least energy a run can spend on a trace, and the late work it can
 * not avoid, per step and level (the second paragraph of this file). */
struct prices {
        size_t nsteps;
        size_t window[2];       /* steps a switch to level L stalls (some of) */
        size_t longest;         /* the longest stall the programme follows */
        double left_nj;         /* a unit of work at the cheapest rate */
        double total_work;      /* what arrives over the trace, reference-µs */
        double switch_nj[2];    /* a switch to level L */
        double *run;            /* [s][L]: step s on L, no stall */
        double *late;           /* [s][L]: its backlog at the step's end from none */
        double *stalled;        /* [s]: step s in a stall, either level */
        double *switch_late;    /* [s][L]: backlog over a switch to L's stall from step s on, from none */
};

static void prices_free(struct prices *p)
{
        free(p->run);
        free(p->late);
        free(p->stalled);
        free(p->switch_late);
        *p = (struct prices){ 0 };
}

/* The least a step's run can cost with its operating points raised by
 * backlog: the energy of 'st' (a step's outcome from no backlog) with each
 * busy CPU's work and each cluster's idle power priced at the cheapest
 * operating point at or above the one it ran at. A higher one never costs
 * less than that; on the shipped boards the cost of a unit of work dips at
 * a few low operating points, so the one that ran is not a floor. */
static double energy_floor(const struct sim_board *b, const struct sim_level_step *st, double step_us)
{
        double e = 0;

        for (unsigned k = 0; k < b->nclusters; k++) {
                const struct sim_cluster *c = &b->cluster[k];
                double rate = INFINITY, idle = INFINITY;

                if (!((st->clusters >> k) & 1)) {
                        e += c->off_mw * step_us;
                        continue;
                }
                for (unsigned i = st->opp[k]; i < c->nopps; i++) {
                        if (c->opp[i].capacity > 0)
                                rate = fmin(rate, c->opp[i].core_mw / c->opp[i].capacity);
                        idle = fmin(idle, c->opp[i].idle_mw);
                }
                e += idle * step_us;
                for (unsigned cpu = c->first_cpu; cpu < c->first_cpu + c->cpus; cpu++)
                        e += st->busy_us[cpu] * c->opp[st->opp[k]].capacity * rate;
        }
        return e;
}

/* Step s on 'level' from no backlog and no switch: the floor of its
 * energy, with what it leaves undone priced at 'left_nj' a unit (a run that
 * meets a late bound runs nearly all of it, somewhere), and its backlog. */
static double step_price(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                         size_t s, unsigned level, double left_nj, double *late)
{
        double bl[SIM_EXEC_MAX_LANES] = { 0 }, work[SIM_EXEC_MAX_LANES], left = 0;
        struct sim_level_step st;

        step_work(t, s, work);
        (void)exec_level_step(b, lv, level, level, (double)t->step_us, t->nlanes, bl, work, &st);
        for (unsigned l = 0; l < t->nlanes; l++)
                left += bl[l];
        *late = left;
        return energy_floor(b, &st, (double)t->step_us) + left * left_nj;
}

/* The backlog summed over the steps of a switch to 'level' at step s
 * stalls, from none: every run that switches there has at least that. */
static double stall_late(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                         size_t s, unsigned level, size_t window)
{
        double bl[SIM_EXEC_MAX_LANES] = { 0 }, work[SIM_EXEC_MAX_LANES], late = 0;
        struct sim_stall stall = { 0, 0 };
        unsigned prev = level == BIG ? LITTLE : BIG;

        for (size_t u = s; u < s + window && u < t->nsteps; u++) {
                struct sim_level_step st;

                step_work(t, u, work);
                (void)exec_level_step_stalled(b, lv, level, prev, &stall, (double)t->step_us, t->nlanes, bl, work,
                                              &st);
                prev = level;
                late += st.backlog;
        }
        return late;
}

static int prices_build(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                        double left_nj, struct prices *p)
{
        const size_t n = t->nsteps;
        double idle[2];

        *p = (struct prices){ .nsteps = n, .left_nj = left_nj };
        p->run = calloc(2 * n + 1, sizeof(double));
        p->late = calloc(2 * n + 1, sizeof(double));
        p->stalled = calloc(n + 1, sizeof(double));
        p->switch_late = calloc(2 * n + 1, sizeof(double));
        if (!p->run || !p->late || !p->stalled || !p->switch_late) {
                prices_free(p);
                return -ENOMEM;
        }
        for (unsigned l = 0; l < 2; l++) {
                const unsigned from = l == BIG ? LITTLE : BIG;
                double bl[SIM_EXEC_MAX_LANES] = { 0 }, none[SIM_EXEC_MAX_LANES] = { 0 };
                struct sim_level_step st;

                p->window[l] = stall_steps(b, lv, from, l, t->step_us);
                p->switch_nj[l] = exec_switch_energy_nj(b, lv, from, l);
                (void)exec_level_step(b, lv, l, l, (double)t->step_us, t->nlanes, bl, none, &st);
                idle[l] = energy_floor(b, &st, (double)t->step_us);
        }
        p->longest = 8 * (p->window[0] > p->window[1] ? p->window[0] : p->window[1]);
        for (size_t s = 0; s < n; s++) {
                double work_left = 0;

                for (unsigned l = 0; l < 2; l++) {
                        p->run[2 * s + l] = step_price(b, lv, t, s, l, left_nj, &p->late[2 * s + l]);
                        p->switch_late[2 * s + l] = stall_late(b, lv, t, s, l, p->window[l]);
                }
                for (unsigned l = 0; l < t->nlanes; l++)
                        work_left += t->work[s * t->nlanes + l];
                p->total_work += work_left;
                /* In a stall the work may be run later, on either level. */
                p->stalled[s] = fmin(idle[0], idle[1]) + work_left * left_nj;
        }
        return 0;
}

/* min over schedules (starting on LITTLE, on big where on_big says) of
 * energy + mu x late, both the lower bounds of 'p'. States: level x steps
 * of stall left (0 .. p->longest). */
static double programme(const struct prices *p, const unsigned char *on_big, double mu, double *cost)
{
        const size_t nr = p->longest + 1, nstates = 2 * nr;
        double *cur = cost, *next = cost + nstates, best = INFINITY;

        for (size_t k = 0; k < nstates; k++)
                cur[k] = INFINITY;
        if (p->nsteps == 0)
                return 0;
        cur[0] = on_big && on_big[0] ? INFINITY : p->run[0] + mu * p->late[0];
        for (size_t s = 1; s < p->nsteps; s++) {
                double *swap;

                for (size_t k = 0; k < nstates; k++)
                        next[k] = INFINITY;
                for (unsigned from = 0; from < 2; from++)
                        for (size_t r = 0; r < nr; r++) {
                                const double c = cur[from * nr + r];
                                const size_t left = r > 0 ? r - 1 : 0;

                                if (!isfinite(c))
                                        continue;
                                for (unsigned to = 0; to < 2; to++) {
                                        size_t rr = left;
                                        double v = c;

                                        if (to != from) {
                                                const size_t extra = s + left;

                                                rr = left + p->window[to];
                                                v += p->switch_nj[to];
                                                /* A switch in a stall lengthens it: the
                                                 * backlog piling up in what it adds, past
                                                 * the steps the stall before it counted
                                                 * (none where the programme stops
                                                 * following it). */
                                                if (rr > p->longest)
                                                        rr = p->longest;
                                                else if (extra < p->nsteps)
                                                        v += mu * p->switch_late[2 * extra + to];
                                        }
                                        if (to == LITTLE && on_big && on_big[s])
                                                continue;
                                        v += rr > 0 ? p->stalled[s] : p->run[2 * s + to] + mu * p->late[2 * s + to];
                                        if (v < next[to * nr + rr])
                                                next[to * nr + rr] = v;
                                }
                        }
                swap = cur;
                cur = next;
                next = swap;
        }
        for (size_t k = 0; k < nstates; k++)
                if (cur[k] < best)
                        best = cur[k];
        return best;
}

/* *energy_uj = bound_energy()'s bound from prices 'p'. Returns 0 or
 * -ENOMEM. */
static int energy_from_prices(const struct prices *p, const unsigned char *on_big, double max_late,
                              double *energy_uj)
{
        _cleanup_free_ double *cost = malloc(4 * (p->longest + 1) * sizeof(double));
        const double budget = max_late * p->total_work;
        double best = -INFINITY;

        if (!cost)
                return -ENOMEM;
        /* Weak duality: for every mu >= 0, min(E + mu x late) - mu x budget
         * is below the least E of a run with late <= budget. The multiplier
         * is searched on a grid around the price of a unit of work. */
        for (int k = -1; k <= 40; k++) {
                const double mu = k < 0 ? 0 : p->left_nj * pow(10, -4 + k * 0.2);
                const double v = programme(p, on_big, mu, cost) - mu * budget;

                if (v > best)
                        best = v;
        }
        /* What a run may leave undone at its end (at most the late bound)
         * was priced above. */
        *energy_uj = (best - p->left_nj * budget) / 1000.0;
        return 0;
}

int bound_energy(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                 const unsigned char *on_big, double max_late, double *energy_uj)
{
        struct prices p;
        int err = check_levels(lv, t);

        if (err < 0)
                return err;
        err = prices_build(b, lv, t, cheapest_work_nj(b), &p);
        if (err < 0)
                return err;
        err = energy_from_prices(&p, on_big, max_late, energy_uj);
        prices_free(&p);
        return err;
}

/* sum |x[s] - x[s - lag]| / sum x[s] over lanes and steps s in [from, to). */
static double mismatch(const struct sim_trace *t, size_t from, size_t to, size_t lag)
{
        double diff = 0, total = 0;

        for (size_t s = from; s < to; s++)
                for (unsigned l = 0; l < t->nlanes; l++) {
                        const double x = t->work[s * t->nlanes + l], y = t->work[(s - lag) * t->nlanes + l];

                        diff += fabs(x - y);
                        total += x;
                }
        if (total <= 0)
                return diff <= 0 ? 0 : INFINITY;
        return diff / total;
}

/* The period (in steps) of the load in [lo, f): the lag up to a third of
 * it that best repeats its last third, if within 'max_mismatch'; else 0. */
#define BOUND_MAX_PERIOD 1000U
static size_t load_period(const struct sim_trace *t, size_t lo, size_t f, double max_mismatch)
{
        size_t longest = (f - lo) / 3, best = 0;
        double best_mismatch = INFINITY;

        if (longest > BOUND_MAX_PERIOD)
                longest = BOUND_MAX_PERIOD;
        for (size_t p = 1; p <= longest; p++) {
                const double m = mismatch(t, f - longest, f, p);

                if (m < best_mismatch) {
                        best_mismatch = m;
                        best = p;
                }
        }
        return best_mismatch <= max_mismatch ? best : 0;
}

/* A with steps [cut, f) removed. */
static int make_twin(const struct sim_trace *a, size_t cut, size_t f, struct sim_trace *twin)
{
        const size_t nl = a->nlanes, n = a->nsteps - (f - cut);

        *twin = (struct sim_trace){ .step_us = a->step_us, .nlanes = a->nlanes, .nsteps = n };
        twin->work = malloc((n * nl + 1) * sizeof(float));
        if (!twin->work)
                return -ENOMEM;
        memcpy(twin->work, a->work, cut * nl * sizeof(float));
        memcpy(twin->work + cut * nl, a->work + f * nl, (a->nsteps - f) * nl * sizeof(float));
        return 0;
}

/* The trace's T2 bound, max(0.01, the reactive oracle's + 0.005), and the
 * oracle's and reactive oracle's energies. */
static int t2_bound(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                    bl_usec_t interval_us, double *max_late, struct sim_result *reactive, double *oracle_uj)
{
        struct sim_level_oracle o;
        int err;

        err = oracle_solve_levels_from(b, lv, t, LITTLE, true, &o);
        if (err < 0)
                return err;
        err = reactive_oracle_run(b, lv, t, o.sequence, interval_us, reactive);
        if (oracle_uj)
                *oracle_uj = o.energy_uj;
        oracle_level_free(&o);
        if (err < 0)
                return err;
        *max_late = fmax(0.01, reactive->late_work_ratio + 0.005);
        return 0;
}

/* The steps between switches the options allow: the interval's where they
 * ask for sample times (bound_twins() checks that it is a whole number of
 * steps), else 1. */
static size_t grid_of(const struct bound_twins_options *o, const struct sim_trace *t)
{
        return o->aligned ? (size_t)(o->interval_us / t->step_us) : 1;
}

/* Twins of the run of forced steps that starts at f, after the previous
 * one ended before lo: the steps they force on A go into on_big. */
static int twin_run(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *a,
                    const struct bound_twins_options *o, size_t lo, size_t f, unsigned char *on_big,
                    struct bound_twins_result *r)
{
        const size_t period = load_period(a, lo, f, o->max_mismatch);
        unsigned char forced[BOUND_MAX_PERIOD + 1];
        unsigned built = 0;
        size_t stride;

        if (period == 0)
                return 0;
        /* Twins far enough apart to cover the span with max_twins of them. */
        stride = (f - lo) / period / (o->max_twins ? o->max_twins : 1) + 1;
        for (size_t j = stride; j * period + period <= f - lo; j += stride) {
                const size_t cut = f - j * period, from = cut - period;
                struct sim_trace twin;
                struct sim_result reactive;
                struct big_run br;
                double max_late;
                int err;

                /* The removed block is whole periods of the same load: what the
                 * twin shows before its seam is what A shows before f. */
                if (mismatch(a, f - period, f, j * period) > o->max_mismatch)
                        break;
                err = make_twin(a, cut, f, &twin);
                if (err < 0)
                        return err;
                err = t2_bound(b, lv, &twin, o->interval_us, &max_late, &reactive, NULL);
                if (err == 0)
                        err = big_run(b, lv, &twin, &br);
                if (err == 0) {
                        err = forced_steps(b, lv, &twin, &br, max_late, grid_of(o, a), from, cut + 1, forced);
                        big_run_free(&br);
                }
                trace_free(&twin);
                if (err < 0)
                        return err;
                built++;
                for (size_t s = from; s <= cut; s++)
                        if (forced[s - from] && !on_big[s]) {
                                on_big[s] = 1;
                                r->forced_by_twins++;
                        }
        }
        r->twins += built;
        r->runs_twinned += built > 0;

        return 0;
}

static double eta(double big, double policy, double oracle)
{
        return big - oracle > 0 ? (big - policy) / (big - oracle) : NAN;
}

int bound_twins(const struct sim_board *b, const struct sim_levels *lv, const struct sim_trace *t,
                const struct bound_twins_options *o, struct bound_twins_result *r, unsigned char *forced_out)
{
        _cleanup_free_ unsigned char *forced = NULL, *on_big = NULL;
        struct sim_result reactive;
        struct big_run br;
        struct prices p;
        size_t lo = 0;
        int err = check_levels(lv, t);

        *r = (struct bound_twins_result){ .steps = t->nsteps };
        if (err < 0)
                return err;
        if (o->aligned && (o->interval_us < t->step_us || o->interval_us % t->step_us != 0))
                return -EINVAL;
        forced = calloc(t->nsteps + 1, 1);
        on_big = calloc(t->nsteps + 1, 1);
        if (!forced || !on_big)
                return -ENOMEM;
        err = t2_bound(b, lv, t, o->interval_us, &r->max_late, &reactive, &r->oracle_uj);
        if (err < 0)
                return err;
        r->reactive_late = reactive.late_work_ratio;
        err = big_run(b, lv, t, &br);
        if (err < 0)
                return err;
        r->big_uj = br.energy_nj / 1000.0;
        err = forced_steps(b, lv, t, &br, r->max_late, grid_of(o, t), 0, t->nsteps, forced);
        big_run_free(&br);
        if (err < 0)
                return err;
        memcpy(on_big, forced, t->nsteps);
        r->start_forced = t->nsteps > 0 && forced[0];
        for (size_t s = 0; s < t->nsteps; s++) {
                if (!forced[s])
                        continue;
                r->forced++;
                if (s == 0 || !forced[s - 1]) {
                        r->runs++;
                        err = twin_run(b, lv, t, o, lo, s, on_big, r);
                        if (err < 0)
                                return err;
                }
                lo = s + 1;
        }
        if (forced_out)
                memcpy(forced_out, forced, t->nsteps);
        err = prices_build(b, lv, t, cheapest_work_nj(b), &p);
        if (err < 0)
                return err;
        err = energy_from_prices(&p, NULL, r->max_late, &r->free_uj);
        if (err == 0)
                err = energy_from_prices(&p, on_big, r->max_late, &r->bound_uj);
        prices_free(&p);
        if (err < 0)
                return err;
        r->reactive_eta = eta(r->big_uj, reactive.energy_uj, r->oracle_uj);
        r->eta_free = eta(r->big_uj, r->free_uj, r->oracle_uj);
        r->eta_bound = eta(r->big_uj, r->bound_uj, r->oracle_uj);
        return 0;
}
