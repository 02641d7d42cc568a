/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The task driver of the test boards: constant demands or a pattern of
 * phases, placed at every step on the online CPUs (largest task on the
 * fastest CPU, round robin), with schedutil-like DVFS. What a step reports
 * is what the previous placement did in the time since: a task wanting more
 * than its CPU gives keeps it busy all the time and makes the others wait
 * (CPU pressure) for the share it does not get.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fakeboard/fakeboard.h"

/* schedutil's headroom: it asks for 1.25x the utilisation. */
#define DVFS_HEADROOM 1.25

struct taskload {
        struct fakeboard *fb;

        unsigned ntasks;
        unsigned task[FAKEBOARD_MAX_TASKS];     /* demands, largest first */

        struct fakeboard_phase *phases;
        unsigned nphases, phase;
        bool pattern_active, pattern_started;
        bl_usec_t phase_end;

        unsigned order[FAKEBOARD_MAX_CPUS];     /* the CPUs the tasks may use, biggest first */
        unsigned norder;
        double demand[FAKEBOARD_MAX_CPUS];      /* placed on each CPU for the time until the next step */
        double capacity_now[FAKEBOARD_MAX_CPUS];

        /* fakeboard_set_switch_aftermath() */
        unsigned aftermath_ms, aftermath_busy_pct, aftermath_stall_pct;
        bl_cpumask seen_online;
        bool have_seen;
        bl_usec_t aftermath_until;
};

static void order_allowed(struct taskload *t, const struct fakeboard_state *in)
{
        t->norder = 0;
        for (unsigned cpu = 0; cpu < in->ncpus; cpu++) {
                unsigned pos;

                /* The tasks live in the groups: their cpusets confine them. */
                if (!cpumask_isset(&in->allowed, cpu))
                        continue;
                pos = t->norder;
                while (pos > 0 && in->capacity[t->order[pos - 1]] < in->capacity[cpu]) {
                        t->order[pos] = t->order[pos - 1];
                        pos--;
                }
                t->order[pos] = cpu;
                t->norder++;
        }
}

/* A CPU taken offline since the placement did nothing the kernel counts. */
static void account(const struct taskload *t, const struct fakeboard_state *in, bl_usec_t dt,
                    struct fakeboard_output *out)
{
        double stalled = 0, time = (double)dt;

        for (unsigned i = 0; i < t->norder; i++) {
                unsigned cpu = t->order[i];
                double cap = t->capacity_now[cpu], demand = t->demand[cpu];

                if (demand <= 0 || cap <= 0 || !cpumask_isset(&in->was_online, cpu))
                        continue;

                out->busy_us[cpu] = (demand >= cap ? 1.0 : demand / cap) * time;
                /* Part of the time some task waits for a CPU. */
                if (demand > cap && (demand - cap) / demand > stalled)
                        stalled = (demand - cap) / demand;
        }
        out->stall_us = stalled * time;
}

static void load_phase(struct taskload *t, const struct fakeboard_phase *phase)
{
        unsigned n = phase->ntasks < FAKEBOARD_MAX_TASKS ? phase->ntasks : FAKEBOARD_MAX_TASKS;

        for (unsigned i = 0; i < n; i++) {
                unsigned pos = i;

                while (pos > 0 && t->task[pos - 1] < phase->demand[i]) {
                        t->task[pos] = t->task[pos - 1];
                        pos--;
                }
                t->task[pos] = phase->demand[i];
        }
        t->ntasks = n;
}

static void start_phase(struct taskload *t, bl_usec_t now)
{
        char text[256];
        struct fakeboard_event ev = { .kind = FAKEBOARD_PHASE_STARTED, .time = now, .phase = t->phase,
                                      .text = text, .duration_ms = t->phases[t->phase].duration_ms };

        load_phase(t, &t->phases[t->phase]);
        fakeboard_phase_describe(&t->phases[t->phase], text, sizeof(text));
        fakeboard_notify(t->fb, &ev);
}

static void advance_pattern(struct taskload *t, bl_usec_t now)
{
        if (!t->pattern_active)
                return;
        if (!t->pattern_started) {
                t->pattern_started = true;
                t->phase = 0;
                t->phase_end = now + (bl_usec_t)t->phases[0].duration_ms * BL_USEC_PER_MSEC;
                start_phase(t, now);
        }
        while (now >= t->phase_end) {
                if (++t->phase == t->nphases) {
                        struct fakeboard_event ev = { .kind = FAKEBOARD_PATTERN_DONE, .time = now };

                        t->pattern_active = false;
                        t->ntasks = 0;
                        fakeboard_notify(t->fb, &ev);
                        return;
                }
                t->phase_end += (bl_usec_t)t->phases[t->phase].duration_ms * BL_USEC_PER_MSEC;
                start_phase(t, now);
        }
}

static unsigned capacity_at(const struct fakeboard_state *in, const struct fakeboard_policy_state *p,
                            unsigned khz)
{
        return (unsigned)((uint64_t)in->capacity[p->first] * khz / p->max_khz);
}

static unsigned pick_opp(const struct fakeboard_state *in, const struct fakeboard_policy_state *p,
                         double need)
{
        unsigned pick = 0;
        bool found = false;

        for (unsigned i = 0; i < p->nopps; i++) {
                unsigned khz = p->opps_khz[i];

                if (khz < p->min_limit_khz || khz > p->max_limit_khz)
                        continue;
                pick = khz;
                found = true;
                if (capacity_at(in, p, khz) >= need)
                        break;
        }
        if (!found)     /* limits that exclude every OPP: the kernel clamps */
                pick = p->min_limit_khz > p->max_khz ? p->max_khz :
                       p->min_limit_khz < p->opps_khz[0] ? p->opps_khz[0] : p->min_limit_khz;
        return pick;
}

static void place_and_scale(struct taskload *t, const struct fakeboard_state *in,
                            struct fakeboard_output *out)
{
        for (unsigned cpu = 0; cpu < in->ncpus; cpu++)
                t->demand[cpu] = 0;
        if (t->norder > 0)
                for (unsigned i = 0; i < t->ntasks; i++)
                        t->demand[t->order[i % t->norder]] += t->task[i];

        for (unsigned i = 0; i < in->npolicies; i++) {
                const struct fakeboard_policy_state *p = &in->policy[i];
                unsigned khz = p->cur_khz;
                bool active = false;
                double highest = 0;

                for (unsigned cpu = 0; cpu < cpumask_span(&p->cpus); cpu++) {
                        if (!cpumask_isset(&p->cpus, cpu) || !cpumask_isset(&in->online, cpu))
                                continue;
                        active = true;
                        if (t->demand[cpu] > highest)
                                highest = t->demand[cpu];
                }
                /* An inactive policy keeps its frequency. */
                if (active && !p->switcher_offline) {
                        khz = pick_opp(in, p, DVFS_HEADROOM * highest);
                        out->cur_khz[i] = khz;
                }
                for (unsigned cpu = 0; cpu < cpumask_span(&p->cpus); cpu++)
                        if (cpumask_isset(&p->cpus, cpu))
                                t->capacity_now[cpu] = (double)in->capacity[cpu] * khz / p->max_khz;
        }
        out->running = t->ntasks;
}

/* What a real kernel does for a while after CPUs went on or off line:
 * stop_machine, tasks migrating, kworkers. The online set changing starts
 * it; the steps overlapping it add the busy time and waiting. */
static void aftermath(struct taskload *t, const struct fakeboard_state *in, bl_usec_t dt,
                      struct fakeboard_output *out)
{
        const double time = (double)dt;

        if (t->aftermath_ms == 0)
                return;
        if (t->have_seen && !cpumask_equal(&t->seen_online, &in->online))
                t->aftermath_until = in->now + (bl_usec_t)t->aftermath_ms * BL_USEC_PER_MSEC;
        t->seen_online = in->online;
        t->have_seen = true;
        if (in->now >= t->aftermath_until + dt)
                return;
        for (unsigned cpu = 0; cpu < in->ncpus; cpu++) {
                double busy = time * t->aftermath_busy_pct / 100.0;

                if (cpumask_isset(&in->was_online, cpu) && out->busy_us[cpu] < busy)
                        out->busy_us[cpu] = busy;
        }
        if (out->stall_us < time * t->aftermath_stall_pct / 100.0)
                out->stall_us = time * t->aftermath_stall_pct / 100.0;
}

static int taskload_step(void *userdata, const struct fakeboard_state *in, bl_usec_t dt,
                         struct fakeboard_output *out)
{
        struct taskload *t = userdata;

        account(t, in, dt, out);
        aftermath(t, in, dt, out);
        order_allowed(t, in);
        advance_pattern(t, in->now);
        place_and_scale(t, in, out);
        return 0;
}

static void taskload_free(void *userdata)
{
        struct taskload *t = userdata;

        if (!t)
                return;
        free(t->phases);
        free(t);
}

static const struct fakeboard_driver taskload_driver = {
        .step = taskload_step,
        .free = taskload_free,
};

int fakeboard_new(const char *board, struct fakeboard **ret)
{
        const struct fakeboard_desc *d = fakeboard_desc_find(board);
        struct taskload *t;
        int r;

        if (!d)
                return -ENOENT;
        t = calloc(1, sizeof(*t));
        if (!t)
                return -ENOMEM;
        r = fakeboard_new_desc(d, &taskload_driver, t, ret);
        if (r < 0)
                return r;
        t->fb = *ret;
        fakeboard_set_refuse_preload(*ret, FAKEBOARD_REFUSE_WRITES_SO);
        return 0;
}

int fakeboard_set_load(struct fakeboard *fb, const unsigned *demand, unsigned ntasks)
{
        struct taskload *t = fakeboard_driver_data(fb);
        struct fakeboard_phase phase = { .ntasks = ntasks };

        if (ntasks > FAKEBOARD_MAX_TASKS)
                return -E2BIG;
        if (ntasks)
                memcpy(phase.demand, demand, ntasks * sizeof(*demand));
        t->pattern_active = false;
        load_phase(t, &phase);
        return 0;
}

int fakeboard_set_pattern(struct fakeboard *fb, const struct fakeboard_phase *phases, unsigned nphases)
{
        struct taskload *t = fakeboard_driver_data(fb);
        struct fakeboard_phase *copy;

        if (nphases == 0)
                return -EINVAL;
        for (unsigned i = 0; i < nphases; i++)
                if (phases[i].ntasks > FAKEBOARD_MAX_TASKS)
                        return -E2BIG;
        copy = malloc(nphases * sizeof(*copy));
        if (!copy)
                return -ENOMEM;
        memcpy(copy, phases, nphases * sizeof(*copy));
        free(t->phases);
        t->phases = copy;
        t->nphases = nphases;
        t->pattern_active = true;
        t->pattern_started = false;
        return 0;
}

bool fakeboard_pattern_done(const struct fakeboard *fb)
{
        const struct taskload *t = fakeboard_driver_data(fb);

        return t->phases && !t->pattern_active;
}

int fakeboard_set_switch_aftermath(struct fakeboard *fb, unsigned ms, unsigned busy_pct, unsigned stall_pct)
{
        struct taskload *t = fakeboard_driver_data(fb);

        if (busy_pct > 100 || stall_pct > 100)
                return -EINVAL;
        t->aftermath_ms = ms;
        t->aftermath_busy_pct = busy_pct;
        t->aftermath_stall_pct = stall_pct;
        return 0;
}
