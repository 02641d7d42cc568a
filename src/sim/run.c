/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulation loop in virtual time (DESIGN.md "Simulator semantics").
 *
 * Steps run back to back from t = 0. The engine decides at t = m x I
 * (m >= 1, I = sample_interval_ms), seeing only the steps that started in
 * [t - I, t); its decision applies to the steps starting at or after t, so
 * before each step every decision time up to the step's start is handled
 * first. What the engine sees is built the way the daemon's sampler fills a
 * sample: the CPUs of the cluster that ran the interval are online, with
 * their busy fraction, the capacity of the last step's OPP and their top
 * capacity; the other CPUs read as offline (busy, capacity and top capacity
 * 0). Busy time and pressure are divided by I as they are, so when steps do
 * not tile the interval (a step length that does not divide I) a fraction
 * can exceed 1 by less than one step's share. The run ends when the
 * workload does; a decision time that falls on the end itself is still taken
 * (it closes the last interval and shows in the timeline), with no step left
 * to apply it to.
 *
 * Levels are clusters: level i of the cluster-mode ladder must be board
 * cluster i, which holds whenever the boards' "order" follows capacity. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "core/sample.h"
#include "core/scorer.h"
#include "sim/exec.h"
#include "sim/run.h"

/* The state every run shares, whoever chooses the cluster. */
struct run {
        const struct sim_board *b;
        struct sim_workload *w;
        struct sim_result *r;
        unsigned nlanes;
        double *backlog;
        double *new_work;
        double *lane_capacity;
        double energy_nj;
        double late;
        unsigned cluster;               /* for the next step */
        unsigned prev_cluster;
        unsigned capacity_cluster;      /* whose capacity lane_capacity holds */
        size_t step;
        bl_usec_t t;                    /* start of the next step */
        struct sim_step st;             /* the last step's outcome */
};

int sim_board_ladder(const struct sim_board *b, struct bl_topology *topo, struct bl_ladder *l)
{
        int r;

        board_topology(b, topo);
        r = ladder_build(l, topo, BL_MODE_CLUSTER, NULL);
        if (r < 0)
                return r;
        if (l->nlevels != b->nclusters)
                return -EINVAL;
        for (unsigned i = 0; i < l->nlevels; i++)
                if (!cpuset_isset(&l->levels[i].cpus, b->cluster[i].first_cpu))
                        return -EINVAL;
        return 0;
}

static unsigned top_capacity(const struct sim_cluster *c)
{
        return c->nopps > 0 ? c->opp[c->nopps - 1].capacity : 0;
}

static int run_open(struct run *run, const struct sim_board *b, struct sim_workload *w, struct sim_result *r,
                    unsigned cluster)
{
        int err;

        *run = (struct run){ .b = b, .w = w, .r = r, .nlanes = w->nlanes, .cluster = cluster,
                             .capacity_cluster = UINT_MAX };
        *r = (struct sim_result){ 0 };
        if (w->nlanes == 0 || w->step_us == 0 || cluster >= b->nclusters)
                return -EINVAL;
        if (w->reset) {
                err = w->reset(w);
                if (err < 0)
                        return err;
        }
        run->backlog = calloc(3 * (size_t)w->nlanes, sizeof(double));
        if (!run->backlog)
                return -ENOMEM;
        run->new_work = run->backlog + w->nlanes;
        run->lane_capacity = run->new_work + w->nlanes;
        return 0;
}

/* Runs the step starting at run->t on run->cluster. Returns 0, 1 when the
 * workload ended before it, or a negative errno from the workload. */
static int run_step(struct run *run)
{
        const struct sim_board *b = run->b;
        const struct sim_cluster *c = &b->cluster[run->cluster];
        struct sim_result *r = run->r;
        const bl_usec_t step_us = run->w->step_us;
        bool switched;
        int err;

        /* Every CPU of a cluster has the same top capacity. */
        if (run->capacity_cluster != run->cluster) {
                for (unsigned i = 0; i < run->nlanes; i++)
                        run->lane_capacity[i] = top_capacity(c);
                run->capacity_cluster = run->cluster;
        }
        err = run->w->begin_step(run->w, run->step, run->t, run->lane_capacity, run->new_work);
        if (err != 0)
                return err;

        switched = run->step > 0 && run->cluster != run->prev_cluster;
        for (unsigned i = 0; i < run->nlanes; i++)
                r->total_work += run->new_work[i];
        exec_step(b, run->cluster, switched, (double)step_us, run->nlanes, run->backlog, run->new_work,
                  &run->st);
        if (run->w->end_step)
                run->w->end_step(run->w, run->step, run->t + step_us, run->backlog);

        run->energy_nj += run->st.energy_nj;
        run->late += run->st.backlog;
        r->time_in[run->cluster] += step_us;
        if (switched)
                r->switches++;
        run->prev_cluster = run->cluster;
        run->step++;
        run->t += step_us;
        return 0;
}

static void run_close(struct run *run)
{
        struct sim_result *r = run->r;

        r->steps = run->step;
        r->energy_uj = run->energy_nj / 1000.0;
        r->late_work_ratio = r->total_work > 0.0 ? run->late / r->total_work : 0.0;
        if (run->w->qos)
                run->w->qos(run->w, &r->qos);
        free(run->backlog);
        run->backlog = NULL;
}

/* What the engine's sample is made of, gathered step by step. */
struct observer {
        bl_usec_t interval;
        unsigned cluster;               /* active in the interval */
        unsigned capacity;              /* of the OPP of the last step run */
        unsigned capacity_cluster;      /* where that step ran */
        double pressure_us;
        double busy_us[SIM_MAX_CPUS];   /* global CPU numbers */
        bl_cpuset online[BL_MAX_CLUSTERS];
        struct bl_sample_buf sample;
};

static void observer_init(struct observer *o, const struct sim_board *b, bl_usec_t interval)
{
        memset(o, 0, sizeof(*o));
        o->interval = interval;
        o->capacity = b->cluster[0].opp[0].capacity;
        for (unsigned k = 0; k < b->nclusters; k++)
                for (unsigned j = 0; j < b->cluster[k].cpus; j++)
                        cpuset_set(&o->online[k], b->cluster[k].first_cpu + j);
        sample_buf_init(&o->sample, b->ncpus);
        o->sample.s.has_pressure = true;
}

static void observer_add(struct observer *o, const struct sim_board *b, const struct run *run)
{
        const struct sim_cluster *c = &b->cluster[run->cluster];

        o->capacity = c->opp[run->st.opp].capacity;
        o->capacity_cluster = run->cluster;
        for (unsigned j = 0; j < c->cpus; j++)
                o->busy_us[c->first_cpu + j] += run->st.busy_us[j];
        if (run->st.backlog > 0.0)
                o->pressure_us += (double)run->w->step_us;
}

/* The sample for the decision at 'now', which ends the interval. An interval
 * in which no step started (steps longer than I) reads as idle, at the lowest
 * OPP if its cluster has not run a step yet. */
static const struct bl_sample *observer_sample(struct observer *o, const struct sim_board *b, bl_usec_t now)
{
        const struct sim_cluster *c = &b->cluster[o->cluster];
        struct bl_sample *s = &o->sample.s;
        const double interval = (double)o->interval;
        const unsigned top = top_capacity(c);
        const unsigned capacity = o->capacity_cluster == o->cluster ? o->capacity : c->opp[0].capacity;

        s->now = now;
        s->interval = o->interval;
        for (unsigned cpu = 0; cpu < b->ncpus && cpu < SIM_MAX_CPUS; cpu++) {
                struct bl_cpu_sample *rec = &o->sample.cpu[cpu];
                bool on = cpuset_isset(&o->online[o->cluster], cpu);

                rec->online = on;
                rec->busy = on ? (float)(o->busy_us[cpu] / interval) : 0.0f;
                rec->capacity = on ? (uint16_t)capacity : 0;
                rec->max_capacity = on ? (uint16_t)top : 0;
                o->busy_us[cpu] = 0.0;
        }
        s->pressure = o->pressure_us / interval;
        o->pressure_us = 0.0;
        return s;
}

static int timeline_add(struct sim_timeline *tl, bl_usec_t t, double demand, unsigned level, double energy_uj)
{
        if (tl->n == tl->size) {
                size_t size = tl->size ? 2 * tl->size : 1024;
                struct sim_timeline_point *p = realloc(tl->p, size * sizeof(*p));

                if (!p)
                        return -ENOMEM;
                tl->p = p;
                tl->size = size;
        }
        tl->p[tl->n++] = (struct sim_timeline_point){ .t = t, .demand = demand, .level = level,
                                                      .energy_uj = energy_uj };
        return 0;
}

/* Everything a policy run needs beyond the shared loop; kept off the stack. */
struct policy_run {
        struct bl_topology topo;
        struct bl_ladder ladder;
        struct bl_scorer scorer;
        struct bl_engine engine;
        struct observer obs;
};

int sim_run_policy(const struct sim_board *b, struct sim_workload *w, const struct bl_config *cfg,
                   struct sim_result *r, struct sim_timeline *tl)
{
        const bl_usec_t interval = (bl_usec_t)cfg->sample_interval_ms * BL_USEC_PER_MSEC;
        struct bl_engine_params params;
        struct policy_run *p;
        struct run run = { 0 };
        bl_usec_t next_decision = interval;
        bool scorer_ready = false;
        int err;

        if (tl)
                tl->n = 0;
        if (interval == 0)
                return -EINVAL;
        p = calloc(1, sizeof(*p));
        if (!p)
                return -ENOMEM;
        err = sim_board_ladder(b, &p->topo, &p->ladder);
        if (err < 0)
                goto out;
        /* The simulator observes backlog as CPU pressure; it has no hardware counters. */
        err = scorer_init(&p->scorer, cfg, BL_NEEDS_PRESSURE);
        if (err < 0)
                goto out;
        scorer_ready = true;
        engine_params_from_config(&params, cfg);
        engine_init(&p->engine, &p->ladder, &params, 0);
        engine_switched(&p->engine, 0, 0);
        observer_init(&p->obs, b, interval);

        err = run_open(&run, b, w, r, 0);
        if (err < 0)
                goto out;
        for (;;) {
                while (next_decision <= run.t) {
                        const struct bl_sample *s = observer_sample(&p->obs, b, next_decision);
                        double demand = scorer_score(&p->scorer, s, next_decision);
                        struct bl_decision d;

                        engine_decide(&p->engine, demand, NULL, next_decision, &d);
                        if (d.change) {
                                engine_switched(&p->engine, d.to, next_decision);
                                run.cluster = d.to;
                                p->obs.cluster = d.to;
                        }
                        if (tl) {
                                err = timeline_add(tl, next_decision, demand, run.cluster,
                                                   run.energy_nj / 1000.0);
                                if (err < 0)
                                        goto out_run;
                        }
                        next_decision += interval;
                }
                err = run_step(&run);
                if (err != 0)
                        break;
                observer_add(&p->obs, b, &run);
        }
        if (err == 1)
                err = 0;
out_run:
        run_close(&run);
out:
        if (scorer_ready)
                scorer_done(&p->scorer);
        free(p);
        return err;
}

static int record_step(struct sim_trace *rec, size_t *size, const double *new_work)
{
        float *row;

        if (rec->nsteps == *size) {
                size_t n = *size ? 2 * *size : 4096;
                float *work = realloc(rec->work, n * rec->nlanes * sizeof(float));

                if (!work)
                        return -ENOMEM;
                rec->work = work;
                *size = n;
        }
        row = rec->work + rec->nsteps * rec->nlanes;
        for (unsigned i = 0; i < rec->nlanes; i++)
                row[i] = (float)new_work[i];
        rec->nsteps++;
        return 0;
}

int sim_run_fixed(const struct sim_board *b, struct sim_workload *w, unsigned cluster, struct sim_result *r,
                  struct sim_trace *record)
{
        struct run run;
        size_t size = 0;
        int err;

        if (record)
                *record = (struct sim_trace){ .step_us = w->step_us, .nlanes = w->nlanes };
        err = run_open(&run, b, w, r, cluster);
        if (err < 0)
                return err;
        while ((err = run_step(&run)) == 0) {
                if (record) {
                        err = record_step(record, &size, run.new_work);
                        if (err < 0)
                                break;
                }
        }
        if (err == 1)
                err = 0;
        run_close(&run);
        if (err < 0 && record)
                trace_free(record);
        return err;
}

void sim_timeline_free(struct sim_timeline *tl)
{
        if (!tl)
                return;
        free(tl->p);
        *tl = (struct sim_timeline){ 0 };
}
