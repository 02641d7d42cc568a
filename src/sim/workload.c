/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A trace replayed as a workload: the work of each step is fixed by the file,
 * whatever the cluster does with it, so the backlog needs no feedback here. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/workload.h"

struct trace_workload {
        struct sim_workload w;
        const struct sim_trace *trace;
        char name[];
};

static int tw_begin_step(struct sim_workload *w, size_t step, bl_usec_t t, const double *lane_capacity,
                         double *new_work)
{
        const struct trace_workload *tw = w->data;
        const struct sim_trace *tr = tw->trace;
        const float *row;

        if (step >= tr->nsteps)
                return 1;
        row = tr->work + step * tr->nlanes;
        for (unsigned i = 0; i < tr->nlanes; i++)
                new_work[i] = row[i];
        return 0;
}

static void tw_end_step(struct sim_workload *w, size_t step, bl_usec_t t_end, const double *backlog)
{
}

static int tw_reset(struct sim_workload *w)
{
        return 0;
}

static void tw_qos(const struct sim_workload *w, struct sim_qos *q)
{
        *q = (struct sim_qos){ .has_activations = false };
}

static void tw_free(struct sim_workload *w)
{
        free(w->data);
}

int workload_from_trace(struct sim_workload **ret, const char *name, const struct sim_trace *t)
{
        size_t len = strlen(name);
        struct trace_workload *tw;

        if (t->nlanes == 0 || t->step_us == 0)
                return -EINVAL;
        tw = calloc(1, sizeof(*tw) + len + 1);
        if (!tw)
                return -ENOMEM;
        memcpy(tw->name, name, len + 1);
        tw->trace = t;
        tw->w = (struct sim_workload){
                .name = tw->name,
                .nlanes = t->nlanes,
                .step_us = t->step_us,
                .data = tw,
                .begin_step = tw_begin_step,
                .end_step = tw_end_step,
                .reset = tw_reset,
                .qos = tw_qos,
                .free = tw_free,
        };
        *ret = &tw->w;
        return 0;
}

void workload_free(struct sim_workload *w)
{
        if (w && w->free)
                w->free(w);
}

struct truncated_workload {
        struct sim_workload w;
        struct sim_workload *inner;
        size_t nsteps;
};

static int cut_begin_step(struct sim_workload *w, size_t step, bl_usec_t t, const double *lane_capacity,
                          double *new_work)
{
        struct truncated_workload *cw = w->data;

        if (step >= cw->nsteps)
                return 1;
        return cw->inner->begin_step(cw->inner, step, t, lane_capacity, new_work);
}

static void cut_end_step(struct sim_workload *w, size_t step, bl_usec_t t_end, const double *backlog)
{
        struct truncated_workload *cw = w->data;

        if (cw->inner->end_step)
                cw->inner->end_step(cw->inner, step, t_end, backlog);
}

static int cut_reset(struct sim_workload *w)
{
        struct truncated_workload *cw = w->data;

        return cw->inner->reset ? cw->inner->reset(cw->inner) : 0;
}

static void cut_qos(const struct sim_workload *w, struct sim_qos *q)
{
        const struct truncated_workload *cw = w->data;

        if (cw->inner->qos)
                cw->inner->qos(cw->inner, q);
        else
                *q = (struct sim_qos){ .has_activations = false };
}

static void cut_free(struct sim_workload *w)
{
        struct truncated_workload *cw = w->data;

        workload_free(cw->inner);
        free(cw);
}

int workload_truncate(struct sim_workload **ret, struct sim_workload *inner, size_t nsteps)
{
        struct truncated_workload *cw = calloc(1, sizeof(*cw));

        if (!cw) {
                workload_free(inner);
                return -ENOMEM;
        }
        cw->inner = inner;
        cw->nsteps = nsteps;
        cw->w = (struct sim_workload){
                .name = inner->name,
                .nlanes = inner->nlanes,
                .step_us = inner->step_us,
                .data = cw,
                .begin_step = cut_begin_step,
                .end_step = cut_end_step,
                .reset = cut_reset,
                .qos = cut_qos,
                .free = cut_free,
        };
        *ret = &cw->w;
        return 0;
}
