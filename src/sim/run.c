/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulation loop in virtual time (DESIGN.md "Simulator semantics"),
 * the only one: every run, whatever chooses its levels (one fixed level, a
 * sequence known in advance, or the daemon's engine), is stepped and scored
 * by run_steps() below.
 *
 * Steps run back to back from t = 0. The engine decides at the times the
 * controller asks for (core/controller.h: sample_interval_ms, backing off
 * towards idle_sample_interval_ms while the machine is idle; the first at
 * sample_interval_ms), each seeing only the steps that started since the
 * decision before (I = the time between the two); its decision applies to
 * the steps starting at or after it, so before each step every decision time
 * up to the step's start is handled first. What the engine sees is built the
 * way the daemon's sampler fills a sample: the CPUs of the cluster that ran
 * the interval are online, with their busy fraction, the capacity of the last
 * step's OPP and their top capacity; the other CPUs read as offline (busy,
 * capacity and top capacity 0); CPU pressure is the time tasks waited for a
 * CPU (sim/exec.c rule 7: as the kernel's PSI counts it, so not a thread
 * alone on its CPU that runs behind its work); the tasks running at its end
 * are those of the last step (sim/exec.c rule 8). Busy time and pressure
 * are divided by I as they are, so when steps do not tile the interval (a
 * step length that does not divide I) a fraction can exceed 1 by less than
 * one step's share. The run ends when the workload does; a decision time
 * that falls on the end itself is still taken (it closes the last interval
 * and shows in the timeline), with no step left to apply it to.
 *
 * The engine-driven run works in every mode: the daemon's own controller
 * (core/controller.h) decides, and its state is a system level of
 * sim/modes.h, executed by exec_level_step(). The daemon's ladder and the
 * simulator's levels are built separately from the same board and must
 * agree (sim_mode_build() checks it). In cluster mode, level i of the ladder
 * must be board cluster i, which holds whenever the boards' "order" follows
 * capacity. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "core/array.h"
#include "core/controller.h"
#include "core/sample.h"
#include "core/settle.h"
#include "sim/exec.h"
#include "sim/policy-inputs.h"
#include "sim/rtapp.h"
#include "sim/run.h"

_Static_assert(SIM_TRACE_MAX_LANES <= SIM_EXEC_MAX_LANES && RTAPP_MAX_LANES <= SIM_EXEC_MAX_LANES,
               "every workload's lanes can be placed");

static unsigned top_capacity(const struct sim_cluster *c)
{
        return c->nopps > 0 ? c->opp[c->nopps - 1].capacity : 0;
}

void sim_result_finish(struct sim_result *r, double energy_nj, double late, const struct sim_workload *w)
{
        r->energy_uj = energy_nj / 1000.0;
        r->late_work_ratio = r->total_work > 0.0 ? late / r->total_work : 0.0;
        if (w->qos)
                w->qos(w, &r->qos);
}

int sim_mode_build(struct sim_mode *m, const struct sim_board *b, enum bl_mode mode, struct bl_diag *diag)
{
        int r;

        *m = (struct sim_mode){ .mode = mode };
        r = sim_levels_build(&m->levels, b, mode, diag);
        if (r < 0)
                return r;
        board_topology(b, &m->topo);
        r = ladder_build(&m->ladder, &m->topo, mode, NULL);
        if (r < 0) {
                diag_add(diag, "%s: no %s ladder for this board: %s", b->name, mode_to_string(mode),
                         strerror(-r));
                return r;
        }

        /* The engine's levels (or pairs) must be the ones executed. */
        if (mode == BL_MODE_PAIR) {
                if (m->ladder.npairs != m->levels.npairs)
                        goto mismatch;
                for (unsigned p = 0; p < m->ladder.npairs; p++)
                        if (m->ladder.pairs[p].little != m->levels.pair_cpu[p][0] ||
                            m->ladder.pairs[p].big != m->levels.pair_cpu[p][1])
                                goto mismatch;
                /* Time is shown per number of pairs on big: 2^P levels are too many to read. */
                m->nclasses = m->levels.npairs + 1;
                for (unsigned c = 0; c < m->nclasses; c++)
                        snprintf(m->class_name[c], sizeof(m->class_name[c]), "%u/%u big", c,
                                 m->levels.npairs);
                for (unsigned l = 0; l < m->levels.nlevels; l++)
                        m->class_of[l] = (unsigned char)__builtin_popcount(l);
                return 0;
        }
        if (m->ladder.nlevels != m->levels.nlevels)
                goto mismatch;
        for (unsigned l = 0; l < m->ladder.nlevels; l++) {
                for (unsigned cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
                        if (cpumask_isset(&m->ladder.levels[l].cpus, cpu) !=
                            ((m->levels.level[l].active >> cpu) & 1))
                                goto mismatch;
                memcpy(m->class_name[l], m->ladder.levels[l].name, sizeof(m->class_name[l]));
                m->class_of[l] = (unsigned char)l;
        }
        m->nclasses = m->ladder.nlevels;
        return 0;
mismatch:
        diag_add(diag, "%s: the %s levels the engine sees do not match the ones simulated "
                 "(the clusters' order does not follow their capacity)", b->name, mode_to_string(mode));
        return -EINVAL;
}

/* What the engine's sample is made of, gathered step by step. */
struct observer {
        bl_usec_t since;                /* the previous decision */
        uint64_t active;                /* the CPUs of the level the interval ran at */
        unsigned capacity[BL_MAX_CLUSTERS];     /* of each cluster's OPP in the last step */
        double pressure_us;
        unsigned running;               /* tasks runnable at the last step's end */
        double busy_us[SIM_MAX_CPUS];   /* global CPU numbers */
        struct bl_sample_buf sample;
};

static unsigned top_of(const struct sim_board *b, unsigned cluster)
{
        return top_capacity(&b->cluster[cluster]);
}

static void observer_init(struct observer *o, const struct sim_board *b, const struct sim_levels *lv)
{
        memset(o, 0, sizeof(*o));
        o->active = lv->level[0].active;
        for (unsigned k = 0; k < b->nclusters; k++)
                o->capacity[k] = b->cluster[k].opp[0].capacity;
        sample_buf_init(&o->sample, b->ncpus);
        o->sample.s.has_pressure = true;
        o->sample.s.has_running = true;
}

static void observer_add(struct observer *o, const struct sim_board *b, const struct sim_level_step *st)
{
        /* A cluster that did not run the last step reads as idle at its lowest OPP. */
        for (unsigned k = 0; k < b->nclusters; k++)
                o->capacity[k] = b->cluster[k].opp[(st->clusters >> k) & 1 ? st->opp[k] : 0].capacity;
        for (unsigned cpu = 0; cpu < b->ncpus && cpu < SIM_MAX_CPUS; cpu++)
                o->busy_us[cpu] += st->busy_us[cpu];
        o->pressure_us += st->waiting_us;
        o->running = st->running;
}

/* The sample for the decision at 'now', which ends the interval: the CPUs
 * of the level decided at its start are online, each at the capacity of its
 * cluster's OPP in the last step (the lowest OPP if the cluster did not run
 * it). An interval in which no step started (steps longer than I) reads as
 * idle. */
static const struct bl_sample *observer_sample(struct observer *o, const struct sim_board *b,
                                               const struct sim_levels *lv, bl_usec_t now)
{
        struct bl_sample *s = &o->sample.s;
        const double interval = (double)(now - o->since);

        s->now = now;
        s->interval = now - o->since;
        o->since = now;
        for (unsigned cpu = 0; cpu < b->ncpus && cpu < SIM_MAX_CPUS; cpu++) {
                struct bl_cpu_sample *rec = &o->sample.cpu[cpu];
                const unsigned k = lv->cpu_cluster[cpu];
                bool on = (o->active >> cpu) & 1;

                rec->online = on;
                rec->busy = on ? (float)(o->busy_us[cpu] / interval) : 0.0f;
                rec->capacity = on ? (uint16_t)o->capacity[k] : 0;
                rec->max_capacity = on ? (uint16_t)top_of(b, k) : 0;
                o->busy_us[cpu] = 0.0;
        }
        s->pressure = o->pressure_us / interval;
        o->pressure_us = 0.0;
        s->running = o->running;
        return s;
}

int sim_timeline_add(struct sim_timeline *tl, bl_usec_t t, double demand, unsigned level, double energy_uj)
{
        if (array_grow((void **)&tl->p, tl->n, &tl->size, sizeof(*tl->p), 1024) < 0)
                return -ENOMEM;
        tl->p[tl->n++] = (struct sim_timeline_point){ .t = t, .demand = demand, .level = level,
                                                      .energy_uj = energy_uj };
        return 0;
}

/* Notes why the decisions 'd' (one per engine) went as they did, beside
 * the point just added. */
static int timeline_note(struct sim_timeline *tl, const struct bl_decision *d, unsigned n, bool switched)
{
        struct sim_decision_note *note;
        unsigned i = 0;

        if (array_grow((void **)&tl->why, tl->n - 1, &tl->why_size, sizeof(*tl->why), 1024) < 0)
                return -ENOMEM;
        while (switched && i + 1 < n && !d[i].change)
                i++;
        note = &tl->why[tl->n - 1];
        *note = (struct sim_decision_note){ .cause = d[i].cause, .switched = switched, .engine = i };
        snprintf(note->reason, sizeof(note->reason), "%s", d[i].reason);
        return 0;
}

/* The daemon's engine as a chooser: its controller decides at the times it
 * asks for, on samples the observer builds from the steps run since. */
struct engine_chooser {
        const struct sim_mode *m;
        const struct bl_config *cfg;
        struct bl_controller ctl;
        struct bl_energy_model model;
        bool ctl_ready;
        struct bl_decision d[BL_MAX_PAIRS];
        struct observer obs;
        /* What a switch leaves behind is not load, as in the daemon
         * (core/settle.h): a stall's backlog on the level it went to. */
        struct bl_settle settle;
        bl_usec_t next_decision;
        unsigned level;
};

/* What chooses each step's level: one level throughout, a sequence known in
 * advance (the oracles'), or the engine. The engine's runs report time per
 * class of its mode and put a timeline point at every decision; the others
 * report time per board cluster and put one at every change of level. */
struct chooser {
        unsigned level;                 /* with neither of the two below */
        const unsigned char *seq;       /* nseq levels, or NULL */
        size_t nseq;
        struct engine_chooser *engine;  /* or NULL */
};

/* 'explain': every decision's reason is read (a timeline that notes them);
 * otherwise reasons are formatted for switches only (engine_explain()). */
static int chooser_engine_start(struct engine_chooser *e, const struct sim_board *b, bool explain)
{
        /* The simulator models CPU pressure (exec.c rule 7); it has no hardware counters. */
        int err = controller_init(&e->ctl, &e->m->ladder, e->cfg, BL_NEEDS_PRESSURE, 0);

        if (err < 0)
                return err;
        e->ctl_ready = true;
        controller_explain(&e->ctl, explain);
        sim_policy_inputs(&e->ctl, b, &e->m->levels, &e->model);
        observer_init(&e->obs, b, &e->m->levels);
        e->next_decision = (bl_usec_t)e->cfg->sample_interval_ms * BL_USEC_PER_MSEC;
        settle_init(&e->settle, BL_SETTLE_MIN_TICKS * e->next_decision);
        return 0;
}

/* Takes every decision due by 't', the start of the next step. */
static int chooser_engine_decide(struct engine_chooser *e, const struct sim_board *b, bl_usec_t t,
                                 double energy_nj, struct sim_result *r, struct sim_timeline *tl)
{
        const struct sim_levels *lv = &e->m->levels;
        const bool explain = tl && tl->explain;

        while (e->next_decision <= t) {
                const struct bl_sample *s = observer_sample(&e->obs, b, lv, e->next_decision);
                const bool settling = settle_filter(&e->settle, &e->obs.sample, e->next_decision);
                bool switched = false;

                if (controller_decide(&e->ctl, s, e->next_decision, e->d) > 0 &&
                    !settle_holds(settling, e->d, e->ctl.nengines)) {
                        const unsigned from = e->level;

                        switched = true;
                        settle_begin(&e->settle, e->next_decision);
                        controller_switched(&e->ctl, e->d, e->next_decision);
                        e->level = controller_state(&e->ctl);
                        e->obs.active = lv->level[e->level].active;
                        /* The switch is over once its stall is. */
                        settle_applied(&e->settle, e->next_decision +
                                                           (bl_usec_t)exec_switch_latency_us(b, lv, from, e->level));
                }
                if (tl) {
                        int err = sim_timeline_add(tl, e->next_decision, controller_demand(&e->ctl),
                                                   e->m->class_of[e->level], energy_nj / 1000.0);

                        if (err == 0 && explain)
                                err = timeline_note(tl, e->d, e->ctl.nengines, switched);
                        if (err < 0)
                                return err;
                }
                e->next_decision += controller_next_interval(&e->ctl, s);
                r->samples++;
        }
        return 0;
}

static int chooser_check(const struct chooser *c, const struct sim_levels *lv)
{
        if (c->engine)
                return c->engine->cfg->sample_interval_ms == 0 ? -EINVAL : 0;
        if (!c->seq)
                return c->level < lv->nlevels ? 0 : -EINVAL;
        for (size_t s = 0; s < c->nseq; s++)
                if (c->seq[s] >= lv->nlevels)
                        return -EINVAL;
        return 0;
}

/* The level of the step that starts at 't' into 'level': 0, 1 when the
 * sequence has ended, or a negative errno. */
static int choose(struct chooser *c, const struct sim_board *b, bl_usec_t t, double energy_nj,
                  struct sim_result *r, struct sim_timeline *tl, unsigned *level)
{
        int err;

        if (c->engine) {
                err = chooser_engine_decide(c->engine, b, t, energy_nj, r, tl);
                *level = c->engine->level;
                return err;
        }
        if (!c->seq) {
                *level = c->level;
                return 0;
        }
        if (r->steps == c->nseq)
                return 1;
        *level = c->seq[r->steps];
        return 0;
}

/* The top capacity of the CPU each lane is placed on at 'level' with its
 * backlog as its pending work (mp mode places lanes by their work). */
static void place_lanes(const struct sim_board *b, const struct sim_levels *lv, unsigned level,
                        unsigned nlanes, const double *backlog, unsigned *lane_cpu, double *capacity)
{
        exec_level_lane_cpus(lv, level, nlanes, backlog, lane_cpu);
        for (unsigned i = 0; i < nlanes; i++)
                capacity[i] = top_of(b, lv->cpu_cluster[lane_cpu[i]]);
}

static void count_time(struct sim_result *r, const struct chooser *c, const struct sim_board *b,
                       const struct sim_level_step *st, unsigned level, bl_usec_t step_us)
{
        if (c->engine) {
                r->time_in[c->engine->m->class_of[level]] += step_us;
                return;
        }
        for (unsigned k = 0; k < b->nclusters; k++)
                if ((st->clusters >> k) & 1)
                        r->time_in[k] += step_us;
}

/* The only step loop: every run, whatever chooses its levels, is executed
 * and scored here, step after step by exec_level_step_stalled(), until the
 * workload (or the chooser's sequence) ends. 'record' and 'tl' may be NULL. */
static int run_steps(const struct sim_board *b, const struct sim_levels *lv, struct sim_workload *w,
                     struct chooser *c, struct sim_result *r, struct sim_trace *record,
                     struct sim_timeline *tl)
{
        const unsigned nlanes = w->nlanes;
        _cleanup_free_ double *backlog = NULL;
        _cleanup_free_ unsigned *lane_cpu = NULL;
        double *new_work, *capacity, energy_nj = 0, late = 0;
        unsigned prev = SIM_LEVEL_NONE, placed = SIM_LEVEL_NONE;
        struct sim_level_step st;
        struct sim_stall stall = { 0, 0 };
        bl_usec_t t = 0, last_point = 0;
        size_t size = 0;
        int err;

        *r = (struct sim_result){ 0 };
        if (tl)
                tl->n = 0;
        if (record)
                *record = (struct sim_trace){ .step_us = w->step_us, .nlanes = nlanes };
        if (nlanes == 0 || nlanes > SIM_EXEC_MAX_LANES || w->step_us == 0 || chooser_check(c, lv) < 0)
                return -EINVAL;
        if (w->reset) {
                err = w->reset(w);
                if (err < 0)
                        return err;
        }
        backlog = calloc(3 * (size_t)nlanes, sizeof(double));
        lane_cpu = calloc(nlanes, sizeof(unsigned));
        if (!backlog || !lane_cpu)
                return -ENOMEM;
        new_work = backlog + nlanes;
        capacity = new_work + nlanes;
        if (c->engine) {
                err = chooser_engine_start(c->engine, b, tl && tl->explain);
                if (err < 0)
                        return err;
        }

        for (;;) {
                unsigned level;

                err = choose(c, b, t, energy_nj, r, tl, &level);
                if (err != 0)
                        break;
                /* In cluster and pair mode a lane's CPU follows from the level. */
                if (lv->mode == BL_MODE_MP || level != placed) {
                        place_lanes(b, lv, level, nlanes, backlog, lane_cpu, capacity);
                        placed = level;
                }
                err = w->begin_step(w, r->steps, t, capacity, new_work);
                if (err != 0)
                        break;
                if (tl && !c->engine && (level != prev || t >= last_point + SIM_TIMELINE_US)) {
                        last_point = t;
                        err = sim_timeline_add(tl, t, NAN, level, energy_nj / 1000.0);
                        if (err < 0)
                                break;
                }
                for (unsigned i = 0; i < nlanes; i++)
                        r->total_work += new_work[i];
                err = exec_level_step_stalled(b, lv, level, prev, &stall, (double)w->step_us, nlanes, backlog,
                                              new_work, &st);
                if (err < 0)
                        break;
                if (w->end_step)
                        w->end_step(w, r->steps, t + w->step_us, backlog);
                if (record) {
                        err = trace_append(record, &size, new_work);
                        if (err < 0)
                                break;
                }
                energy_nj += st.energy_nj;
                late += st.backlog;
                count_time(r, c, b, &st, level, w->step_us);
                r->switches += st.switched;
                r->changes += st.changes;
                if (c->engine)
                        observer_add(&c->engine->obs, b, &st);
                prev = level;
                r->steps++;
                t += w->step_us;
        }
        if (err == 1)
                err = 0;
        if (err == 0 && tl && !c->engine && prev != SIM_LEVEL_NONE)
                err = sim_timeline_add(tl, t, NAN, prev, energy_nj / 1000.0);
        sim_result_finish(r, energy_nj, late, w);
        if (err < 0 && record)
                trace_free(record);
        return err;
}

int sim_run_policy(const struct sim_board *b, const struct sim_mode *m, struct sim_workload *w,
                   const struct bl_config *cfg, struct sim_result *r, struct sim_timeline *tl)
{
        /* Kept off the stack: the controller and the sample are large. */
        _cleanup_free_ struct engine_chooser *e = calloc(1, sizeof(*e));
        struct chooser c = { .engine = e };
        int err;

        if (!e)
                return -ENOMEM;
        e->m = m;
        e->cfg = cfg;
        err = run_steps(b, &m->levels, w, &c, r, NULL, tl);
        if (e->ctl_ready)
                controller_done(&e->ctl);
        return err;
}

int sim_run_fixed_level(const struct sim_board *b, const struct sim_levels *lv, struct sim_workload *w,
                        unsigned level, struct sim_result *r, struct sim_trace *record)
{
        struct chooser c = { .level = level };

        return run_steps(b, lv, w, &c, r, record, NULL);
}

int sim_run_sequence(const struct sim_board *b, const struct sim_levels *lv, struct sim_workload *w,
                     const unsigned char *seq, size_t nseq, struct sim_result *r)
{
        struct chooser c = { .seq = seq, .nseq = nseq };

        return run_steps(b, lv, w, &c, r, NULL, NULL);
}

int sim_run_levels_timeline(const struct sim_board *b, const struct sim_levels *lv, struct sim_workload *w,
                            unsigned level, const unsigned char *seq, size_t nseq, struct sim_result *r,
                            struct sim_timeline *tl)
{
        struct chooser c = { .level = level, .seq = seq, .nseq = nseq };

        return run_steps(b, lv, w, &c, r, NULL, tl);
}

int sim_run_fixed(const struct sim_board *b, struct sim_workload *w, unsigned cluster, struct sim_result *r,
                  struct sim_trace *record)
{
        struct sim_levels *lv = malloc(sizeof(*lv));
        struct bl_diag diag;
        int err;

        if (!lv)
                return -ENOMEM;
        diag_init(&diag);
        err = sim_levels_build(lv, b, BL_MODE_CLUSTER, &diag);
        if (err == 0)
                err = sim_run_fixed_level(b, lv, w, cluster, r, record);
        free(lv);
        return err;
}

void sim_timeline_free(struct sim_timeline *tl)
{
        if (!tl)
                return;
        free(tl->p);
        free(tl->why);
        *tl = (struct sim_timeline){ 0 };
}

double sim_lateness(const struct sim_result *r, bool rtapp)
{
        if (rtapp && r->qos.activations > 0)
                return (double)r->qos.misses / (double)r->qos.activations;
        return r->late_work_ratio;
}
