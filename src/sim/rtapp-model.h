/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* An rt-app file compiled for the simulation: its tasks as phases of
 * events, the named conditions, barriers and timers the events use, and a
 * lane per thread instance. rtapp-compile.c builds it (with rtapp-builder.c)
 * and reports every model error; rtapp.c simulates it, in the fields marked
 * as the run's. The semantics are at the top of rtapp.c. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/types.h"
#include "sim/workload.h"

enum ev_kind {
        EV_RUN,
        EV_RUNTIME,
        EV_SLEEP,
        EV_TIMER,
        EV_SUSPEND,
        EV_RESUME,
        EV_WAIT,
        EV_SIGNAL,
        EV_BROAD,
        EV_SYNC,
        EV_BARRIER,
        EV_FORK,
        EV_LOCK,
        EV_UNLOCK,
        EV_YIELD,
        EV_MEM,
        EV_IORUN,
};

struct event {
        enum ev_kind kind;
        unsigned line;
        bl_usec_t usec;                 /* run, runtime, sleep: duration; timer: period */
        unsigned ref;                   /* condition, barrier, timer (or unique slot), fork target task */
        unsigned slot;                  /* fork: index among its task's fork events */
        bool unique;                    /* timer: one per instance */
};

struct phase {
        size_t first_event, nevents;
        long long loop;                 /* -1: forever */
};

struct task {
        char *name;
        unsigned line;
        unsigned instances;
        bl_usec_t delay;
        long long loop;                 /* -1: forever */
        size_t first_phase, nphases;
        unsigned nunique;               /* distinct "unique..." timer refs */
        unsigned nforks;                /* fork events */
        bool has_lanes;
};

struct cond {
        char *name;
        bool waited;                    /* some suspend, wait or sync uses it */
};

struct barrier {
        char *name;
        unsigned users;
        unsigned arrived;
};

struct timer {
        bool absolute;
        bool armed;
        bl_usec_t next;
};

enum lane_state {
        LANE_IDLE,                      /* a fork lane with no child yet */
        LANE_TIMED,                     /* proceeds at t (delay, sleep, timer) */
        LANE_READY,                     /* proceeds now, at t */
        LANE_RUN,
        LANE_BLOCKED,
        LANE_DONE,
};

struct lane {
        unsigned task, instance;
        bool forked;
        unsigned first_timer;           /* its unique timers */
        unsigned first_child;           /* lane of the child of its first fork event */
        enum lane_state state;
        bool ended;                     /* no events left */
        bl_usec_t t;
        bl_usec_t t_first;              /* start, for timers */
        bl_usec_t run_from;
        double remaining;
        double backlog;                 /* its lane's, at the last step's end */
        size_t phase, event;            /* the next event */
        long long phase_iter, thread_iter;
        bool on_barrier;
        unsigned blocked_on;
        uint64_t block_seq;
        size_t guard_step;
        unsigned guard;
};

struct rtapp {
        struct sim_workload w;
        char *name;
        unsigned reference;
        bool has_duration;
        bool has_timers;
        bl_usec_t end_us;
        struct task *tasks;
        size_t ntasks, tasks_cap;
        struct phase *phases;
        size_t nphases, phases_cap;
        struct event *events;
        size_t nevents, events_cap;
        struct cond *conds;
        size_t nconds, conds_cap;
        struct barrier *barriers;
        size_t nbarriers, barriers_cap;
        struct timer *timers;
        size_t ntimers;
        struct lane *lanes;
        /* the run's state */
        uint64_t seq;
        size_t step;
        const double *capacity;
        unsigned long activations, misses;
        double min_slack, sum_slack;
};
