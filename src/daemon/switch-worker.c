/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "daemon/switch-worker.h"

bl_usec_t switch_clock_now(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (bl_usec_t)ts.tv_sec * BL_USEC_PER_SEC + (bl_usec_t)ts.tv_nsec / 1000;
}

void switch_job_run(struct switch_job *job)
{
        job->detail[0] = '\0';
        job->started = switch_clock_now();
        job->result = job->ops->apply(job->backend, &job->cpus, job->detail, sizeof(job->detail));
        job->finished = switch_clock_now();
}

static void *run(void *arg)
{
        struct switch_worker *w = arg;
        const uint64_t one = 1;

        switch_job_run(&w->job);
        /* The counter cannot overflow with one switch at a time; a failed
         * write would leave the loop waiting, so it is retried. */
        while (write(w->efd, &one, sizeof(one)) < 0 && errno == EINTR)
                ;
        return NULL;
}

/* The thread ended: joined, and the result handed on. */
static void finish(struct switch_worker *w)
{
        uint64_t n;

        (void)!read(w->efd, &n, sizeof(n));
        (void)pthread_join(w->thread, NULL);
        w->busy = false;
        w->done(&w->job, w->userdata);
}

static int on_done(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct switch_worker *w = userdata;

        (void)s;
        (void)fd;
        (void)revents;
        if (w->busy)
                finish(w);
        return 0;
}

int switch_worker_open(struct switch_worker *w, sd_event *e, switch_done_fn done, void *userdata)
{
        int r;

        *w = (struct switch_worker){ .efd = -1, .done = done, .userdata = userdata };
        w->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (w->efd < 0)
                return -errno;
        r = sd_event_add_io(e, &w->source, w->efd, EPOLLIN, on_done, w);
        /* Before a bus call or a tick due at the same time: they then see
         * the level the kernel is at. */
        if (r >= 0)
                r = sd_event_source_set_priority(w->source, SD_EVENT_PRIORITY_IMPORTANT);
        if (r < 0) {
                sd_event_source_disable_unref(w->source);
                w->source = NULL;
                close(w->efd);
                w->efd = -1;
                return r;
        }
        return 0;
}

int switch_worker_start(struct switch_worker *w, const struct bl_backend_ops *ops, struct bl_backend *backend,
                        const bl_cpumask *cpus)
{
        int r;

        if (w->busy)
                return -EBUSY;
        w->job = (struct switch_job){ .ops = ops, .backend = backend, .cpus = *cpus };
        r = pthread_create(&w->thread, NULL, run, w);
        if (r != 0)
                return -r;
        w->busy = true;
        return 0;
}

int switch_worker_wait(struct switch_worker *w, bl_usec_t timeout)
{
        const bl_usec_t until = switch_clock_now() + timeout;

        while (w->busy) {
                struct pollfd p = { .fd = w->efd, .events = POLLIN };
                bl_usec_t now = switch_clock_now();
                int r;

                if (now >= until)
                        return -ETIMEDOUT;
                r = poll(&p, 1, (int)((until - now + 999) / 1000));
                if (r < 0 && errno != EINTR)
                        return -errno;
                if (r > 0)
                        finish(w);
        }
        return 0;
}

void switch_worker_close(struct switch_worker *w)
{
        sd_event_source_disable_unref(w->source);
        w->source = NULL;
        /* A thread still running writes to the eventfd when it ends: it is
         * left open for it, the process is about to exit. */
        if (w->busy) {
                (void)pthread_detach(w->thread);
                w->busy = false;
                return;
        }
        if (w->efd >= 0)
                close(w->efd);
        w->efd = -1;
}
