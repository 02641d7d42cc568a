/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* A switch is applied on a thread of its own, so that a slow kernel (CPU
 * hotplug under emulation takes seconds) stalls neither the sampling tick
 * nor the bus. One switch at a time: while it runs, the backend belongs to
 * the thread and the loop does not touch it. When it ends, an eventfd
 * wakes the loop, which joins the thread and hands the result on. */

#include <pthread.h>
#include <stdbool.h>
#include <systemd/sd-event.h>

#include "backends/backend.h"
#include "core/cpumask.h"

struct switch_job {
        const struct bl_backend_ops *ops;
        struct bl_backend *backend;
        bl_cpumask cpus;                /* what to run on */
        int result;                     /* apply()'s */
        char detail[256];
        /* CLOCK_MONOTONIC around apply(): its first write (after reading
         * the kernel's state) to its last read-back. */
        bl_usec_t started, finished;
};

struct switch_worker;
typedef void (*switch_done_fn)(struct switch_job *job, void *userdata);

struct switch_worker {
        sd_event_source *source;        /* the eventfd, watched by the loop */
        int efd;
        pthread_t thread;
        bool busy;                      /* a thread runs, or ended and is not joined yet */
        struct switch_job job;
        switch_done_fn done;
        void *userdata;
};

/* The microseconds of CLOCK_MONOTONIC, sd-event's clock. */
bl_usec_t switch_clock_now(void);

/* Applies the job's CPUs on the calling thread and times it. */
void switch_job_run(struct switch_job *job);

/* Watches for ends of switches on 'e'; 'done' is called on the loop for
 * each. Returns 0 or a negative errno. */
int switch_worker_open(struct switch_worker *w, sd_event *e, switch_done_fn done, void *userdata);

/* Starts applying 'cpus'. Returns 0, -EBUSY while a switch runs, or the
 * errno of a thread that could not start (nothing was applied). */
int switch_worker_start(struct switch_worker *w, const struct bl_backend_ops *ops, struct bl_backend *backend,
                        const bl_cpumask *cpus);

/* Waits up to 'timeout' for the running switch to end and, when it did,
 * calls 'done' before returning 0. Returns 0 at once when none runs, or
 * -ETIMEDOUT (the switch goes on: the backend is still the thread's). */
int switch_worker_wait(struct switch_worker *w, bl_usec_t timeout);

/* Stops watching. A switch still running is left to end on its own
 * (detached): the process is about to exit. */
void switch_worker_close(struct switch_worker *w);
