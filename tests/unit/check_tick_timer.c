/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The daemon's tick (daemon/tick-timer.h): a periodic timer that hands on
 * the time each tick was due, skips what a late loop missed, and starts
 * over when re-armed. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "common/duration.h"
#include "daemon/switch-worker.h"
#include "daemon/tick-timer.h"

#define MS BL_USEC_PER_MSEC
#define MAX_CALLS 16

struct calls {
        unsigned n;
        bl_usec_t due[MAX_CALLS], at[MAX_CALLS];
        uint64_t expired[MAX_CALLS];
};

static int record(struct tick_timer *t, bl_usec_t due, void *userdata)
{
        struct calls *c = userdata;

        if (c->n < MAX_CALLS) {
                c->due[c->n] = due;
                c->at[c->n] = switch_clock_now();
                c->expired[c->n] = tick_timer_expired(t);
        }
        c->n++;
        return 0;
}

static void run_until(sd_event *e, const struct calls *c, unsigned n)
{
        const bl_usec_t give_up = switch_clock_now() + 5 * BL_USEC_PER_SEC;

        while (c->n < n) {
                ck_assert_int_ge(sd_event_run(e, 100 * MS), 0);
                ck_assert_msg(switch_clock_now() < give_up, "%u of %u ticks in 5 s", c->n, n);
        }
}

static void sleep_us(bl_usec_t us)
{
        struct timespec ts = duration_timespec(us);

        while (nanosleep(&ts, &ts) != 0)
                ;
}

/* Each tick is handed the time it was due, one period after the last, and
 * never comes before it. */
START_TEST(test_due_times_follow_the_period)
{
        sd_event *e = NULL;
        struct tick_timer t;
        struct calls c = { 0 };
        bl_usec_t first;

        ck_assert_int_ge(sd_event_new(&e), 0);
        ck_assert_int_ge(tick_timer_open(&t, e, record, &c), 0);
        first = switch_clock_now() + 5 * MS;
        ck_assert_int_eq(tick_timer_arm(&t, first, 5 * MS), 0);
        run_until(e, &c, 4);
        for (unsigned i = 0; i < 4; i++) {
                ck_assert_uint_eq(c.due[i], first + (c.expired[i] - 1) * 5 * MS);
                ck_assert_uint_ge(c.at[i], c.due[i]);
                if (i > 0)
                        ck_assert_uint_gt(c.due[i], c.due[i - 1]);
        }
        tick_timer_close(&t);
        sd_event_unref(e);
}
END_TEST

/* A loop that comes back late gets one tick, due at the latest expiry: the
 * missed ones are not fired back to back. */
START_TEST(test_late_loop_skips_missed_ticks)
{
        sd_event *e = NULL;
        struct tick_timer t;
        struct calls c = { 0 };
        bl_usec_t first, before;

        ck_assert_int_ge(sd_event_new(&e), 0);
        ck_assert_int_ge(tick_timer_open(&t, e, record, &c), 0);
        first = switch_clock_now() + 2 * MS;
        ck_assert_int_eq(tick_timer_arm(&t, first, 2 * MS), 0);
        sleep_us(15 * MS);
        before = switch_clock_now();
        ck_assert_int_ge(sd_event_run(e, 100 * MS), 0);
        ck_assert_uint_eq(c.n, 1);
        ck_assert_uint_ge(c.expired[0], 7);
        ck_assert_uint_eq(c.due[0], first + (c.expired[0] - 1) * 2 * MS);
        ck_assert_uint_gt(c.due[0] + 2 * MS, before);
        tick_timer_close(&t);
        sd_event_unref(e);
}
END_TEST

/* Re-armed, it counts from the new first expiry at the new period. */
START_TEST(test_rearm_starts_over)
{
        sd_event *e = NULL;
        struct tick_timer t;
        struct calls c = { 0 };
        bl_usec_t first;

        ck_assert_int_ge(sd_event_new(&e), 0);
        ck_assert_int_ge(tick_timer_open(&t, e, record, &c), 0);
        ck_assert_int_eq(tick_timer_arm(&t, switch_clock_now() + 2 * MS, 2 * MS), 0);
        run_until(e, &c, 2);
        first = switch_clock_now() + 7 * MS;
        ck_assert_int_eq(tick_timer_arm(&t, first, 3 * MS), 0);
        ck_assert_uint_eq(tick_timer_expired(&t), 0);
        run_until(e, &c, 4);
        ck_assert_uint_eq(c.due[2], first + (c.expired[2] - 1) * 3 * MS);
        ck_assert_uint_eq(c.due[3], first + (c.expired[3] - 1) * 3 * MS);
        ck_assert_uint_ge(c.at[2], first);
        ck_assert_int_eq(tick_timer_arm(&t, first, 0), -EINVAL);
        tick_timer_close(&t);
        sd_event_unref(e);
}
END_TEST

/* Closing one never opened (the daemon's state is zeroed, fd 0) leaves
 * descriptor 0 alone. */
START_TEST(test_close_unopened_leaves_fd_0)
{
        struct tick_timer t = { 0 };
        int fd = open("/dev/null", O_RDONLY);

        ck_assert_int_ge(fd, 0);
        if (fd != 0) {
                ck_assert_int_eq(dup2(fd, 0), 0);
                close(fd);
        }
        tick_timer_close(&t);
        ck_assert_int_ge(fcntl(0, F_GETFD), 0);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("tick-timer");
        TCase *tc = tcase_create("tick-timer");
        SRunner *sr;
        int failed;

        tcase_add_test(tc, test_due_times_follow_the_period);
        tcase_add_test(tc, test_late_loop_skips_missed_ticks);
        tcase_add_test(tc, test_rearm_starts_over);
        tcase_add_test(tc, test_close_unopened_leaves_fd_0);
        suite_add_tcase(s, tc);
        sr = srunner_create(s);
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
