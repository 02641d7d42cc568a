/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A switch applied on a thread (daemon/switch-worker.h): the loop runs on
 * while it does, hears its end once, and can wait for it boundedly. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-event.h>
#include <time.h>

#include "daemon/switch-worker.h"

#define MS BL_USEC_PER_MSEC

/* A backend whose apply() takes 'delay' and answers 'result'. */
struct bl_backend {
        bl_usec_t delay;
        int result;
        unsigned applied;
        bl_cpumask last;
};

static int slow_apply(struct bl_backend *b, const bl_cpumask *cpus, char *detail, size_t size)
{
        struct timespec ts = { .tv_sec = (time_t)(b->delay / BL_USEC_PER_SEC),
                               .tv_nsec = (long)(b->delay % BL_USEC_PER_SEC) * 1000 };

        nanosleep(&ts, NULL);
        b->applied++;
        b->last = *cpus;
        snprintf(detail, size, "applied %u", b->applied);
        return b->result;
}

static const struct bl_backend_ops slow_ops = { .name = "slow", .apply = slow_apply };

struct loop {
        sd_event *event;
        struct switch_worker w;
        unsigned done, ticks;
        bl_usec_t tick_at[256];
        struct switch_job job;          /* the last one handed on */
        bl_usec_t done_at;
};

static void on_done(struct switch_job *job, void *userdata)
{
        struct loop *l = userdata;

        l->done++;
        l->job = *job;
        l->done_at = switch_clock_now();
        (void)sd_event_exit(l->event, 0);
}

static int on_tick(sd_event_source *s, uint64_t usec, void *userdata)
{
        struct loop *l = userdata;
        bl_usec_t now = switch_clock_now();

        (void)usec;
        if (l->ticks < sizeof(l->tick_at) / sizeof(l->tick_at[0]))
                l->tick_at[l->ticks] = now;
        l->ticks++;
        return sd_event_source_set_time(s, now + 10 * MS);
}

static void loop_open(struct loop *l)
{
        memset(l, 0, sizeof(*l));
        ck_assert_int_ge(sd_event_new(&l->event), 0);
        ck_assert_int_eq(switch_worker_open(&l->w, l->event, on_done, l), 0);
}

static void loop_close(struct loop *l)
{
        switch_worker_close(&l->w);
        sd_event_unref(l->event);
}

/* 300 ms of apply(): the loop's 10 ms timer keeps firing meanwhile, the end
 * comes once, with the result, the detail and the time it took. */
START_TEST(loop_runs_during_the_switch)
{
        struct bl_backend b = { .delay = 300 * MS, .result = 0 };
        sd_event_source *timer = NULL;
        unsigned during;
        struct loop l;
        bl_cpumask cpus;
        uint64_t now;

        loop_open(&l);
        cpumask_zero(&cpus);
        cpumask_set(&cpus, 4);
        ck_assert_int_ge(sd_event_now(l.event, CLOCK_MONOTONIC, &now), 0);
        /* accuracy 1 us: 0 would be sd-event's default of 250 ms */
        ck_assert_int_ge(sd_event_add_time(l.event, &timer, CLOCK_MONOTONIC, now + 10 * MS, 1, on_tick, &l),
                         0);
        ck_assert_int_ge(sd_event_source_set_enabled(timer, SD_EVENT_ON), 0);
        ck_assert_int_eq(switch_worker_start(&l.w, &slow_ops, &b, &cpus), 0);
        ck_assert(l.w.busy);
        /* one switch at a time */
        ck_assert_int_eq(switch_worker_start(&l.w, &slow_ops, &b, &cpus), -EBUSY);
        ck_assert_int_ge(sd_event_loop(l.event), 0);
        ck_assert_uint_eq(l.done, 1);
        ck_assert(!l.w.busy);
        ck_assert_uint_eq(b.applied, 1);
        ck_assert(cpumask_isset(&b.last, 4));
        ck_assert_int_eq(l.job.result, 0);
        ck_assert_str_eq(l.job.detail, "applied 1");
        ck_assert_uint_ge(l.job.finished - l.job.started, 300 * MS);
        ck_assert_uint_ge(l.done_at, l.job.finished);
        /* the loop ran while apply() did: ticks before its end (30 on an
         * idle machine, a few on a loaded one) */
        during = 0;
        for (unsigned i = 0; i < l.ticks && i < 256; i++)
                if (l.tick_at[i] < l.job.finished)
                        during++;
        ck_assert_msg(during >= 2, "%u of %u ticks during the 300 ms of apply()", during, l.ticks);
        sd_event_source_unref(timer);
        loop_close(&l);
}
END_TEST

/* Waiting: too short a wait leaves the switch running (and the backend the
 * thread's); a long enough one hands the end on before returning. */
START_TEST(wait_is_bounded)
{
        struct bl_backend b = { .delay = 200 * MS, .result = BL_BACKEND_NO_EFFECT };
        struct loop l;
        bl_cpumask cpus;
        bl_usec_t t0;

        loop_open(&l);
        cpumask_zero(&cpus);
        ck_assert_int_eq(switch_worker_wait(&l.w, 10 * MS), 0);     /* none runs */
        ck_assert_int_eq(switch_worker_start(&l.w, &slow_ops, &b, &cpus), 0);
        t0 = switch_clock_now();
        ck_assert_int_eq(switch_worker_wait(&l.w, 20 * MS), -ETIMEDOUT);
        ck_assert_uint_lt(switch_clock_now() - t0, 150 * MS);
        ck_assert(l.w.busy);
        ck_assert_uint_eq(l.done, 0);
        ck_assert_int_eq(switch_worker_wait(&l.w, 5 * BL_USEC_PER_SEC), 0);
        ck_assert_uint_eq(l.done, 1);
        ck_assert(!l.w.busy);
        ck_assert_int_eq(l.job.result, BL_BACKEND_NO_EFFECT);
        /* the next one starts at once */
        b.delay = 0;
        ck_assert_int_eq(switch_worker_start(&l.w, &slow_ops, &b, &cpus), 0);
        ck_assert_int_eq(switch_worker_wait(&l.w, 5 * BL_USEC_PER_SEC), 0);
        ck_assert_uint_eq(l.done, 2);
        ck_assert_uint_eq(b.applied, 2);
        loop_close(&l);
}
END_TEST

/* Closing while a switch runs leaves it to end on its own. */
START_TEST(close_while_running)
{
        static struct bl_backend b = { .delay = 100 * MS };
        struct loop l;
        bl_cpumask cpus;
        struct timespec ts = { .tv_nsec = 200000000 };

        loop_open(&l);
        cpumask_zero(&cpus);
        ck_assert_int_eq(switch_worker_start(&l.w, &slow_ops, &b, &cpus), 0);
        loop_close(&l);
        ck_assert(!l.w.busy);
        nanosleep(&ts, NULL);
        ck_assert_uint_eq(b.applied, 1);
        ck_assert_uint_eq(l.done, 0);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("switch-worker");
        TCase *tc = tcase_create("switch-worker");
        SRunner *sr;
        int failed;

        tcase_add_test(tc, loop_runs_during_the_switch);
        tcase_add_test(tc, wait_is_bounded);
        tcase_add_test(tc, close_while_running);
        suite_add_tcase(s, tc);
        sr = srunner_create(s);
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
