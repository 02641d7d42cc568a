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
