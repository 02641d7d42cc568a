/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulation loop in virtual time (DESIGN.md "Simulator semantics").
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
 * capacity and top capacity 0). Busy time and pressure are divided by I as
 * they are, so when steps do not tile the interval (a step length that does
 * not divide I) a fraction can exceed 1 by less than one step's share. The
 * run ends when the workload does; a decision time that falls on the end
 * itself is still taken (it closes the last interval and shows in the
 * timeline), with no step left to apply it to.
 *
 * The engine-driven run works in every mode: the daemon's own controller
 * (core/controller.h) decides, and its state is a system level of
 * sim/modes.h, executed by exec_level_step(). The daemon's ladder and the
 * simulator's levels are built separately from the same board and must
 * agree (sim_mode_build() checks it). In cluster mode, level i of the ladder
 * must be board cluster i, which holds whenever the boards' "order" follows
 * capacity. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "core/array.h"
#include "core/controller.h"
#include "core/sample.h"
#include "sim/exec.h"
#include "sim/policy-inputs.h"
#include "sim/run.h"

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
}

static void observer_add(struct observer *o, const struct sim_board *b, const struct sim_level_step *st,
                         bl_usec_t step_us)
{
        /* A cluster that did not run the last step reads as idle at its lowest OPP. */
        for (unsigned k = 0; k < b->nclusters; k++)
                o->capacity[k] = b->cluster[k].opp[(st->clusters >> k) & 1 ? st->opp[k] : 0].capacity;
        for (unsigned cpu = 0; cpu < b->ncpus && cpu < SIM_MAX_CPUS; cpu++)
                o->busy_us[cpu] += st->busy_us[cpu];
        if (st->backlog > 0.0)
                o->pressure_us += (double)step_us;
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

/* Everything a policy run needs; kept off the stack. */
struct policy_run {
        struct bl_controller ctl;
        struct bl_energy_model model;
        bool ctl_ready;
        struct bl_decision d[BL_MAX_PAIRS];
        struct observer obs;
        struct sim_level_step st;
        struct sim_stall stall;         /* a switch's stall that outlasts its step */
        double *backlog, *new_work, *lane_capacity;
        unsigned *lane_cpu;
};

/* The top capacity of the CPU each lane is placed on at 'level' with its
 * backlog as its pending work (mp mode places lanes by their work). */
static void place_lanes(const struct sim_board *b, const struct sim_levels *lv, unsigned level,
                        unsigned nlanes, struct policy_run *p)
{
        exec_level_lane_cpus(lv, level, nlanes, p->backlog, p->lane_cpu);
        for (unsigned i = 0; i < nlanes; i++)
                p->lane_capacity[i] = top_of(b, lv->cpu_cluster[p->lane_cpu[i]]);
}

int sim_run_policy(const struct sim_board *b, const struct sim_mode *m, struct sim_workload *w,
                   const struct bl_config *cfg, struct sim_result *r, struct sim_timeline *tl)
{
        const struct sim_levels *lv = &m->levels;
        const unsigned nlanes = w->nlanes;
        _cleanup_free_ struct policy_run *p = NULL;
        bl_usec_t next_decision, t = 0;
        unsigned level = 0, prev = SIM_LEVEL_NONE, placed = SIM_LEVEL_NONE;
        double energy_nj = 0, late = 0;
        int err;

        *r = (struct sim_result){ 0 };
        if (tl)
                tl->n = 0;
        if (cfg->sample_interval_ms == 0 || nlanes == 0 || nlanes > SIM_EXEC_MAX_LANES || w->step_us == 0)
                return -EINVAL;
        if (w->reset) {
                err = w->reset(w);
                if (err < 0)
                        return err;
        }
        p = calloc(1, sizeof(*p));
        if (!p)
                return -ENOMEM;
        p->backlog = calloc(3 * (size_t)nlanes, sizeof(double));
        p->lane_cpu = calloc(nlanes, sizeof(unsigned));
        if (!p->backlog || !p->lane_cpu) {
                err = -ENOMEM;
                goto out;
        }
        p->new_work = p->backlog + nlanes;
        p->lane_capacity = p->new_work + nlanes;

        /* The simulator observes backlog as CPU pressure; it has no hardware counters. */
        err = controller_init(&p->ctl, &m->ladder, cfg, BL_NEEDS_PRESSURE, 0);
        if (err < 0)
                goto out;
        p->ctl_ready = true;
        sim_policy_inputs(&p->ctl, b, lv, &p->model);
        observer_init(&p->obs, b, lv);
        next_decision = (bl_usec_t)cfg->sample_interval_ms * BL_USEC_PER_MSEC;

        for (;;) {
                while (next_decision <= t) {
                        const struct bl_sample *s = observer_sample(&p->obs, b, lv, next_decision);

                        if (controller_decide(&p->ctl, s, next_decision, p->d) > 0) {
                                controller_switched(&p->ctl, p->d, next_decision);
                                level = controller_state(&p->ctl);
                                p->obs.active = lv->level[level].active;
                        }
                        if (tl) {
                                err = sim_timeline_add(tl, next_decision, controller_demand(&p->ctl),
                                                   m->class_of[level], energy_nj / 1000.0);
                                if (err < 0)
                                        goto out;
                        }
                        next_decision += controller_next_interval(&p->ctl, s);
                        r->samples++;
                }

                /* In cluster and pair mode a lane's CPU follows from the level. */
                if (lv->mode == BL_MODE_MP || level != placed) {
                        place_lanes(b, lv, level, nlanes, p);
                        placed = level;
                }
                err = w->begin_step(w, r->steps, t, p->lane_capacity, p->new_work);
                if (err != 0)
                        break;
                for (unsigned i = 0; i < nlanes; i++)
                        r->total_work += p->new_work[i];
                err = exec_level_step_stalled(b, lv, level, prev, &p->stall, (double)w->step_us, nlanes,
                                              p->backlog, p->new_work, &p->st);
                if (err < 0)
                        break;
                if (w->end_step)
                        w->end_step(w, r->steps, t + w->step_us, p->backlog);

                energy_nj += p->st.energy_nj;
                late += p->st.backlog;
                r->time_in[m->class_of[level]] += w->step_us;
                r->switches += p->st.switched;
                r->changes += p->st.changes;
                observer_add(&p->obs, b, &p->st, w->step_us);
                prev = level;
                r->steps++;
                t += w->step_us;
        }
        if (err == 1)
                err = 0;
        sim_result_finish(r, energy_nj, late, w);
out:
        if (p && p->ctl_ready)
                controller_done(&p->ctl);
        if (p) {
                free(p->backlog);
                free(p->lane_cpu);
        }
        return err;
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
        *tl = (struct sim_timeline){ 0 };
}

double sim_lateness(const struct sim_result *r, bool rtapp)
{
        if (rtapp && r->qos.activations > 0)
                return (double)r->qos.misses / (double)r->qos.activations;
        return r->late_work_ratio;
}
