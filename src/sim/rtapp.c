/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rt-app workloads: the tasks of an rt-app file, compiled by
 * rtapp-compile.c, as an event simulation coupled to the step engine
 * (struct sim_workload).
 *
 * Model. Each thread instance is a lane: lanes follow the file's task
 * order, the instances of one task consecutive, then one lane per fork
 * event of each instance that can fork (see the table). A task is an
 * ordered list of phases, each an ordered list of events run "loop" times;
 * the task runs its phases "loop" times (-1: forever; a task with its
 * events directly in it is one phase, and its "loop" counts passes, 0 =
 * none). A thread starts after "delay" µs. Work is in reference-µs: "run"
 * N is N µs of execution on a CPU of the board's reference capacity at its
 * top OPP, so it lasts N x reference / capacity on a slower CPU.
 *
 * Coupling with the step engine. A running task offers its work to its
 * lane as a rate, not all at once: in a step [t, t + step) it tops its
 * lane up to what its CPU could execute in that step at top frequency,
 * adding min(remaining, rate - backlog) with rate = (t + step - from) x
 * lane_capacity / reference, where 'from' is t, or the instant inside the
 * step at which the run began, and 'backlog' is what its lane had left at
 * the previous step's end; it keeps the rest. Alone on its CPU it thus
 * adds a full step's worth every step; sharing a CPU it waits like a
 * runnable thread instead of piling up backlog, so the tasks on one CPU
 * share it evenly rather than in proportion to how long they have run
 * (which starved short tasks behind long ones and broke rt-app's
 * signal/wait hand-offs). Its run completes at the end of the step after
 * which its remaining work is 0 and its lane's backlog (given to end_step)
 * is 0; the task's next events start at that step's end. Sleeps and timers wake
 * at their exact µs, also inside a step, and the zero-time events that
 * follow (resume, signal, suspend of an already resumed task, lock, ...)
 * chain at that instant. Inside a step the tasks advance in time order
 * (ties in lane order), so a resume and the suspend it answers are seen in
 * the order they happen. A lane that runs more than 1000 events in one
 * step without letting time pass (a loop of zero-time events) resumes at
 * the next step.
 *
 * Timers and QoS, as rt-app computes them. A timer's first expiry is the
 * start time (after "delay") of the thread that first reaches it plus its
 * period; each use adds the period of the event that uses it. Reaching a
 * timer ends an activation: slack = expiry - now; a negative slack is a
 * miss. If the expiry is ahead the task sleeps until it; otherwise it goes
 * on at once, and a relative timer (the default) restarts its grid from
 * now while an absolute one keeps it, so overruns cascade. A timer is
 * absolute when any event using it says "mode": "absolute". A ref starting
 * with "unique" is one timer per instance (shared by all the events of
 * that instance with the same ref); other refs are shared by every task.
 * struct sim_qos: activations, misses, minimum and mean slack.
 *
 * Duration. "global"."duration" (s) stops the run at that time, even when
 * every task ended earlier (rt-app waits out the duration). Without it
 * (absent, -1 or 0) the run ends once no task can make progress (all ended,
 * or waiting for something nobody will do), and is cut at
 * default_duration_us (10 s unless the caller says otherwise) if some task
 * loops forever, at RTAPP_MAX_UNTIMED_US (1 h) otherwise.
 *
 * Approximations:
 *
 * | rt-app                 | here                                                               |
 * |------------------------|--------------------------------------------------------------------|
 * | run N                  | N reference-µs of work at the rate above                           |
 * | runtime N              | work = N x lane_capacity / reference when it starts: N µs of wall  |
 * |                        | time only at top OPP with the CPU to itself                        |
 * | sleep N, timer         | exact (µs), rt-app's arithmetic                                    |
 * | suspend / resume       | named conditions (bare or "" = the task's own name); resume wakes  |
 * |                        | every waiter; a resume nobody waits for is lost, as rt-app's       |
 * |                        | pthread_cond_broadcast loses it                                    |
 * | wait/signal/broad/sync | the same named conditions as suspend/resume (as in rt-app); signal |
 * |                        | wakes the longest waiter, broad all; lost when nobody waits; sync  |
 * |                        | = signal then wait; the mutex is ignored                           |
 * | lock / unlock          | no time, no contention, no priority inheritance                    |
 * | barrier                | exact: released when all its users arrived (users counted per      |
 * |                        | event and instance, as rt-app counts them)                         |
 * | yield                  | no-op                                                              |
 * | mem, iorun             | no-op: memory and IO bound loops take no time and no work          |
 * | fork                   | the child runs in a lane reserved for that fork event of that      |
 * |                        | parent instance, from fork time + its delay (its timers too); a    |
 * |                        | fork while that lane's previous child still runs is dropped; forks |
 * |                        | made by forked children are ignored                                |
 * | policy, priority, cpus,| ignored: lanes are placed by the mode's rule (sim/exec.c rule 1:   |
 * | util_min/max, dl-*,    | a lane moves to an idle CPU or pair when its own is taken),        |
 * | taskgroup, nodes       | and the running tasks of one CPU share it evenly (see the          |
 * |                        | coupling), not by priority or CFS weight; no affinity              |
 * | calibration, logs, ... | ignored ("run" is reference work; only "duration" is read)         |
 * | wake-up latency        | 0                                                                  |
 * | run completion         | seen at the end of a step (quantised to the step)                  |
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "sim/rtapp-model.h"
#include "sim/rtapp.h"

#define MAX_EVENTS_PER_STEP 1000U
#define BACKLOG_EPSILON 1e-6            /* reference-µs: what exec's rounding may leave */

/* Lanes advance through their events step by step. */
static const struct event *current_event(const struct rtapp *ra, const struct lane *l)
{
        const struct task *tk = &ra->tasks[l->task];

        return &ra->events[ra->phases[tk->first_phase + l->phase].first_event + l->event];
}

static void next_event(const struct rtapp *ra, struct lane *l)
{
        const struct task *tk = &ra->tasks[l->task];
        const struct phase *ph = &ra->phases[tk->first_phase + l->phase];

        if (++l->event < ph->nevents)
                return;
        l->event = 0;
        if (ph->loop < 0 || ++l->phase_iter < ph->loop)
                return;
        l->phase_iter = 0;
        if (++l->phase < tk->nphases)
                return;
        l->phase = 0;
        if (tk->loop < 0 || ++l->thread_iter < tk->loop)
                return;
        l->ended = true;
}

static void lane_start(struct rtapp *ra, struct lane *l, bl_usec_t start)
{
        const struct task *tk = &ra->tasks[l->task];

        l->state = LANE_TIMED;
        l->t = start;
        l->t_first = start;
        l->phase = 0;
        l->event = 0;
        l->phase_iter = 0;
        l->thread_iter = 0;
        l->ended = tk->loop == 0;
        l->remaining = 0.0;
        for (unsigned k = 0; k < tk->nunique; k++) {
                struct timer *tm = &ra->timers[l->first_timer + k];

                *tm = (struct timer){ .absolute = tm->absolute };
        }
}

static void wake(struct lane *l, bl_usec_t now)
{
        l->state = LANE_READY;
        l->t = now;
}

/* Wakes the longest waiter, or every waiter; returns how many woke. */
static unsigned cond_wake(struct rtapp *ra, unsigned cond, bl_usec_t now, bool all)
{
        struct lane *first = NULL;
        unsigned n = 0;

        for (unsigned i = 0; i < ra->w.nlanes; i++) {
                struct lane *l = &ra->lanes[i];

                if (l->state != LANE_BLOCKED || l->on_barrier || l->blocked_on != cond)
                        continue;
                if (all) {
                        wake(l, now);
                        n++;
                } else if (!first || l->block_seq < first->block_seq) {
                        first = l;
                }
        }
        if (first) {
                wake(first, now);
                n = 1;
        }
        return n;
}

static void block(struct rtapp *ra, struct lane *l, unsigned on, bool barrier)
{
        l->state = LANE_BLOCKED;
        l->blocked_on = on;
        l->on_barrier = barrier;
        l->block_seq = ra->seq++;
}

static void cond_wait(struct rtapp *ra, struct lane *l, unsigned cond)
{
        block(ra, l, cond, false);
}

static void barrier_arrive(struct rtapp *ra, struct lane *l, unsigned idx, bl_usec_t now)
{
        struct barrier *br = &ra->barriers[idx];

        if (++br->arrived < br->users) {
                block(ra, l, idx, true);
                return;
        }
        br->arrived = 0;
        for (unsigned i = 0; i < ra->w.nlanes; i++) {
                struct lane *o = &ra->lanes[i];

                if (o->state == LANE_BLOCKED && o->on_barrier && o->blocked_on == idx)
                        wake(o, now);
        }
}

static void timer_reached(struct rtapp *ra, struct lane *l, const struct event *ev, bl_usec_t now)
{
        struct timer *tm = &ra->timers[ev->unique ? l->first_timer + ev->ref : ev->ref];
        double slack;

        if (!tm->armed) {
                tm->armed = true;
                tm->next = l->t_first;
        }
        tm->next += ev->usec;
        slack = (double)((int64_t)tm->next - (int64_t)now);
        if (ra->activations == 0 || slack < ra->min_slack)
                ra->min_slack = slack;
        ra->activations++;
        ra->sum_slack += slack;
        if (slack < 0.0)
                ra->misses++;
        if (now < tm->next) {
                l->state = LANE_TIMED;
                l->t = tm->next;
        } else if (!tm->absolute) {
                tm->next = now;
        }
}

static void start_run(struct lane *l, double work, bl_usec_t now)
{
        if (work <= 0.0)
                return;
        l->state = LANE_RUN;
        l->remaining = work;
        l->run_from = now;
}

static void execute(struct rtapp *ra, unsigned li, const struct event *ev, bl_usec_t now)
{
        struct lane *l = &ra->lanes[li];
        struct lane *child;

        switch (ev->kind) {
        case EV_RUN:
                start_run(l, (double)ev->usec, now);
                break;
        case EV_RUNTIME:
                start_run(l, (double)ev->usec * ra->capacity[li] / ra->reference, now);
                break;
        case EV_SLEEP:
                if (ev->usec > 0) {
                        l->state = LANE_TIMED;
                        l->t = now + ev->usec;
                }
                break;
        case EV_TIMER:
                timer_reached(ra, l, ev, now);
                break;
        case EV_SUSPEND:
        case EV_WAIT:
                cond_wait(ra, l, ev->ref);
                break;
        case EV_RESUME:
                /* rt-app broadcasts a condition variable: with nobody
                 * waiting, the resume is lost. */
                cond_wake(ra, ev->ref, now, true);
                break;
        case EV_SIGNAL:
                cond_wake(ra, ev->ref, now, false);
                break;
        case EV_BROAD:
                cond_wake(ra, ev->ref, now, true);
                break;
        case EV_SYNC:
                cond_wake(ra, ev->ref, now, false);
                cond_wait(ra, l, ev->ref);
                break;
        case EV_BARRIER:
                barrier_arrive(ra, l, ev->ref, now);
                break;
        case EV_FORK:
                if (l->forked)
                        break;
                child = &ra->lanes[l->first_child + ev->slot];
                if (child->state == LANE_IDLE || child->state == LANE_DONE)
                        lane_start(ra, child, now + ra->tasks[child->task].delay);
                break;
        case EV_LOCK:
        case EV_UNLOCK:
        case EV_YIELD:
        case EV_MEM:
        case EV_IORUN:
                break;
        }
}

/* Runs a lane's events at its time until it runs, sleeps or blocks. */
static void proceed(struct rtapp *ra, unsigned li, bl_usec_t t_end)
{
        struct lane *l = &ra->lanes[li];
        const bl_usec_t now = l->t;

        l->state = LANE_READY;
        if (l->guard_step != ra->step) {
                l->guard_step = ra->step;
                l->guard = 0;
        }
        while (l->state == LANE_READY) {
                const struct event *ev;

                if (l->ended) {
                        l->state = LANE_DONE;
                        break;
                }
                if (++l->guard > MAX_EVENTS_PER_STEP) {
                        l->state = LANE_TIMED;
                        l->t = t_end;
                        break;
                }
                ev = current_event(ra, l);
                next_event(ra, l);
                execute(ra, li, ev, now);
        }
}

static int rtapp_begin_step(struct sim_workload *w, size_t step, bl_usec_t t, const double *lane_capacity,
                            double *new_work)
{
        struct rtapp *ra = w->data;
        const bl_usec_t t_end = t + w->step_us;
        bool alive = false;

        if (t >= ra->end_us)
                return 1;
        ra->step = step;
        ra->capacity = lane_capacity;
        /* Lanes due inside the step, earliest first, lowest lane on ties. */
        for (;;) {
                unsigned best = UINT_MAX;
                bl_usec_t best_t = t_end;

                for (unsigned i = 0; i < w->nlanes; i++) {
                        const struct lane *l = &ra->lanes[i];

                        if ((l->state == LANE_TIMED || l->state == LANE_READY) && l->t < best_t) {
                                best = i;
                                best_t = l->t;
                        }
                }
                if (best == UINT_MAX)
                        break;
                proceed(ra, best, t_end);
        }
        ra->capacity = NULL;
        for (unsigned i = 0; i < w->nlanes; i++) {
                struct lane *l = &ra->lanes[i];
                double rate, room, offer;

                new_work[i] = 0.0;
                if (l->state == LANE_TIMED || l->state == LANE_READY)
                        alive = true;
                if (l->state != LANE_RUN)
                        continue;
                alive = true;
                rate = (double)(t_end - (l->run_from > t ? l->run_from : t)) * lane_capacity[i] /
                       ra->reference;
                room = rate > l->backlog ? rate - l->backlog : 0.0;
                offer = l->remaining <= room ? l->remaining : room;
                l->remaining = l->remaining <= room ? 0.0 : l->remaining - room;
                new_work[i] = offer;
        }
        if (!alive && !ra->has_duration)
                return 1;
        return 0;
}

static void rtapp_end_step(struct sim_workload *w, size_t step, bl_usec_t t_end, const double *backlog)
{
        struct rtapp *ra = w->data;

        for (unsigned i = 0; i < w->nlanes; i++) {
                struct lane *l = &ra->lanes[i];

                l->backlog = backlog[i];
                if (l->state == LANE_RUN && l->remaining <= 0.0 && backlog[i] <= BACKLOG_EPSILON)
                        wake(l, t_end);
        }
}

static int rtapp_reset(struct sim_workload *w)
{
        struct rtapp *ra = w->data;

        ra->seq = 0;
        ra->activations = 0;
        ra->misses = 0;
        ra->min_slack = 0.0;
        ra->sum_slack = 0.0;
        for (size_t i = 0; i < ra->nbarriers; i++)
                ra->barriers[i].arrived = 0;
        for (size_t i = 0; i < ra->ntimers; i++)
                ra->timers[i] = (struct timer){ .absolute = ra->timers[i].absolute };
        for (unsigned i = 0; i < w->nlanes; i++) {
                struct lane *l = &ra->lanes[i];

                l->guard_step = SIZE_MAX;
                l->guard = 0;
                l->on_barrier = false;
                l->blocked_on = 0;
                l->block_seq = 0;
                l->run_from = 0;
                l->backlog = 0.0;
                if (l->forked) {
                        l->state = LANE_IDLE;
                        l->ended = true;
                        l->t = 0;
                        l->remaining = 0.0;
                } else {
                        lane_start(ra, l, ra->tasks[l->task].delay);
                }
        }
        return 0;
}

static void rtapp_qos(const struct sim_workload *w, struct sim_qos *q)
{
        const struct rtapp *ra = w->data;

        *q = (struct sim_qos){
                .has_activations = ra->has_timers,
                .activations = ra->activations,
                .misses = ra->misses,
                .min_slack_us = ra->activations ? ra->min_slack : 0.0,
                .mean_slack_us = ra->activations ? ra->sum_slack / (double)ra->activations : 0.0,
        };
}

static void rtapp_workload_free(struct sim_workload *w)
{
        rtapp_free(w->data);
}

static struct rtapp *rtapp_of(const struct sim_workload *w)
{
        return w && w->begin_step == rtapp_begin_step ? w->data : NULL;
}

/* "dir/mp3-short.json" -> "mp3-short". */
static char *name_from_path(const char *path)
{
        const char *base = strrchr(path, '/');
        size_t len;

        base = base ? base + 1 : path;
        len = strlen(base);
        if (len > 5 && strcmp(base + len - 5, ".json") == 0)
                len -= 5;
        return strndup(base, len);
}

int rtapp_workload_parse(struct sim_workload **ret, const char *filename, const char *text, size_t len,
                         bl_usec_t step_us, bl_usec_t default_duration_us, struct bl_diag *diag)
{
        struct rtapp *ra;
        int r;

        r = rtapp_compile(&ra, filename, text, len,
                          default_duration_us ? default_duration_us : RTAPP_DEFAULT_DURATION_US, diag);
        if (r < 0)
                return r;
        ra->name = name_from_path(filename);
        if (!ra->name) {
                rtapp_free(ra);
                return -ENOMEM;
        }
        ra->reference = BL_CAPACITY_SCALE;
        ra->w = (struct sim_workload){
                .name = ra->name,
                .nlanes = ra->w.nlanes,
                .step_us = step_us ? step_us : RTAPP_DEFAULT_STEP_US,
                .data = ra,
                .begin_step = rtapp_begin_step,
                .end_step = rtapp_end_step,
                .reset = rtapp_reset,
                .qos = rtapp_qos,
                .free = rtapp_workload_free,
        };
        rtapp_reset(&ra->w);
        *ret = &ra->w;
        return 0;
}

int rtapp_workload_load(struct sim_workload **ret, const char *path, bl_usec_t step_us,
                        bl_usec_t default_duration_us, struct bl_diag *diag)
{
        _cleanup_free_ char *text = NULL;
        char why[256];
        size_t len = 0;
        int r;

        r = read_regular_file(path, 0, READ_FILE_MAX, &text, &len, why, sizeof(why));
        if (r < 0) {
                diag_add(diag, "%s: %s", path, why);
                return r;
        }
        return rtapp_workload_parse(ret, path, text, len, step_us, default_duration_us, diag);
}

void rtapp_workload_set_reference_capacity(struct sim_workload *w, unsigned reference_capacity)
{
        struct rtapp *ra = rtapp_of(w);

        if (ra && reference_capacity > 0)
                ra->reference = reference_capacity;
}

bl_usec_t rtapp_workload_end_us(const struct sim_workload *w)
{
        const struct rtapp *ra = rtapp_of(w);

        return ra ? ra->end_us : 0;
}

unsigned rtapp_workload_approximations(const struct sim_workload *w, const char **out, unsigned max)
{
        static const struct {
                enum ev_kind kinds[4];
                unsigned nkinds;
                const char *text;
        } by_event[] = {
                { { EV_RUNTIME }, 1, "runtime is converted to work at the lane's top capacity when it starts" },
                { { EV_LOCK, EV_UNLOCK }, 2, "lock and unlock take no time: no contention" },
                { { EV_WAIT, EV_SIGNAL, EV_BROAD, EV_SYNC }, 4, "wait, signal, broad and sync ignore their mutex" },
                { { EV_YIELD, EV_MEM, EV_IORUN }, 3, "yield, mem and iorun are no-ops" },
                { { EV_FORK }, 1, "fork: one lane per fork event and parent instance; forks of forked "
                                  "children are ignored" },
        };
        const struct rtapp *ra = rtapp_of(w);
        unsigned n = 0;

        if (!ra)
                return 0;
        if (n < max)
                out[n++] = "scheduling properties are ignored: lanes go to CPUs by the mode's placement and "
                           "the running tasks of one CPU share it evenly";
        if (n < max)
                out[n++] = "wake-up latency is 0; a run ends at the end of its step";
        for (size_t i = 0; i < sizeof(by_event) / sizeof(by_event[0]) && n < max; i++) {
                bool used = false;

                for (size_t e = 0; e < ra->nevents && !used; e++)
                        for (unsigned k = 0; k < by_event[i].nkinds; k++)
                                used = used || ra->events[e].kind == by_event[i].kinds[k];
                if (used)
                        out[n++] = by_event[i].text;
        }
        return n;
}

const char *rtapp_workload_lane_task(const struct sim_workload *w, unsigned lane, unsigned *instance)
{
        const struct rtapp *ra = rtapp_of(w);

        if (!ra || lane >= w->nlanes)
                return NULL;
        if (instance)
                *instance = ra->lanes[lane].instance;
        return ra->tasks[ra->lanes[lane].task].name;
}
