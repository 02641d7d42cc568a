/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Suspend detection (core/clock-jump.h) in virtual time: the daemon's only
 * test of suspend, since a test cannot make the machine sleep. */
#include <check.h>
#include <stdlib.h>

#include "core/clock-jump.h"

#define SEC BL_USEC_PER_SEC
#define MSEC BL_USEC_PER_MSEC
#define TICK (20 * MSEC)

/* The clocks of a machine that has been up a while and slept before:
 * boottime is ahead of monotonic by the earlier sleeps. */
#define MONO0 (1000 * SEC)
#define BOOT0 (1234 * SEC)

START_TEST(test_first_reading_primes)
{
        struct bl_clock_watch w;

        clock_watch_init(&w);
        ck_assert(!w.primed);
        /* However far apart the clocks are, the first reading is no sleep. */
        ck_assert_uint_eq(clock_watch_update(&w, MONO0, BOOT0, BL_CLOCK_JUMP_MIN_USEC), 0);
        ck_assert(w.primed);
        ck_assert_uint_eq(w.mono, MONO0);
        ck_assert_uint_eq(w.boot, BOOT0);
}
END_TEST

START_TEST(test_steady_ticks_are_no_sleep)
{
        struct bl_clock_watch w;
        bl_usec_t mono = MONO0, boot = BOOT0;

        clock_watch_init(&w);
        clock_watch_update(&w, mono, boot, BL_CLOCK_JUMP_MIN_USEC);
        for (unsigned i = 0; i < 1000; i++) {
                mono += TICK;
                /* The clocks drift apart by a few µs now and then. */
                boot += TICK + (i % 7 == 0 ? 3 : 0);
                ck_assert_uint_eq(clock_watch_update(&w, mono, boot, BL_CLOCK_JUMP_MIN_USEC), 0);
        }
}
END_TEST

/* A stopped or starved process: both clocks advance alike, however long. */
START_TEST(test_late_tick_is_no_sleep)
{
        struct bl_clock_watch w;

        clock_watch_init(&w);
        clock_watch_update(&w, MONO0, BOOT0, BL_CLOCK_JUMP_MIN_USEC);
        ck_assert_uint_eq(clock_watch_update(&w, MONO0 + 30 * SEC, BOOT0 + 30 * SEC, BL_CLOCK_JUMP_MIN_USEC),
                          0);
        ck_assert_uint_eq(clock_watch_update(&w, MONO0 + 30 * SEC + TICK, BOOT0 + 30 * SEC + TICK,
                                             BL_CLOCK_JUMP_MIN_USEC), 0);
}
END_TEST

START_TEST(test_suspend_is_reported_once)
{
        struct bl_clock_watch w;
        bl_usec_t mono = MONO0, boot = BOOT0;

        clock_watch_init(&w);
        clock_watch_update(&w, mono, boot, BL_CLOCK_JUMP_MIN_USEC);
        mono += TICK;
        boot += TICK;
        ck_assert_uint_eq(clock_watch_update(&w, mono, boot, BL_CLOCK_JUMP_MIN_USEC), 0);
        /* 42.5 s asleep between two ticks (the tick itself was also late). */
        mono += TICK + 5 * MSEC;
        boot += TICK + 5 * MSEC + 42 * SEC + 500 * MSEC;
        ck_assert_uint_eq(clock_watch_update(&w, mono, boot, BL_CLOCK_JUMP_MIN_USEC), 42 * SEC + 500 * MSEC);
        /* The next tick is an ordinary one again. */
        mono += TICK;
        boot += TICK;
        ck_assert_uint_eq(clock_watch_update(&w, mono, boot, BL_CLOCK_JUMP_MIN_USEC), 0);
}
END_TEST

/* Only more than the threshold counts: exactly one second does not, one
 * second and a microsecond does. */
START_TEST(test_threshold_is_exclusive)
{
        struct bl_clock_watch w;

        clock_watch_init(&w);
        clock_watch_update(&w, MONO0, BOOT0, SEC);
        ck_assert_uint_eq(clock_watch_update(&w, MONO0 + TICK, BOOT0 + TICK + SEC, SEC), 0);
        ck_assert_uint_eq(clock_watch_update(&w, MONO0 + 2 * TICK, BOOT0 + 2 * TICK + 2 * SEC + 1, SEC),
                          SEC + 1);
        /* The threshold is the caller's. */
        ck_assert_uint_eq(clock_watch_update(&w, MONO0 + 3 * TICK,
                                             BOOT0 + 3 * TICK + 2 * SEC + 1 + 300 * MSEC, 200 * MSEC),
                          300 * MSEC);
}
END_TEST

/* Small sleeps do not add up into a reported one: each interval is judged
 * on its own. */
START_TEST(test_small_gaps_do_not_accumulate)
{
        struct bl_clock_watch w;
        bl_usec_t mono = MONO0, boot = BOOT0;

        clock_watch_init(&w);
        clock_watch_update(&w, mono, boot, BL_CLOCK_JUMP_MIN_USEC);
        for (unsigned i = 0; i < 10; i++) {
                mono += TICK;
                boot += TICK + 600 * MSEC;
                ck_assert_uint_eq(clock_watch_update(&w, mono, boot, BL_CLOCK_JUMP_MIN_USEC), 0);
        }
}
END_TEST

/* Readings that go backwards (a caller's mistake) re-prime, and the next
 * interval is judged from them. */
START_TEST(test_backwards_reprimes)
{
        struct bl_clock_watch w;

        clock_watch_init(&w);
        clock_watch_update(&w, MONO0, BOOT0, BL_CLOCK_JUMP_MIN_USEC);
        ck_assert_uint_eq(clock_watch_update(&w, MONO0 - SEC, BOOT0 + 10 * SEC, BL_CLOCK_JUMP_MIN_USEC), 0);
        ck_assert_uint_eq(w.mono, MONO0 - SEC);
        ck_assert_uint_eq(w.boot, BOOT0 + 10 * SEC);
        ck_assert_uint_eq(clock_watch_update(&w, MONO0, BOOT0 + 11 * SEC + 5 * SEC, BL_CLOCK_JUMP_MIN_USEC),
                          5 * SEC);
        /* boottime behind: no sleep, re-primed. */
        ck_assert_uint_eq(clock_watch_update(&w, MONO0 + SEC, BOOT0, BL_CLOCK_JUMP_MIN_USEC), 0);
        ck_assert_uint_eq(w.boot, BOOT0);
}
END_TEST

static Suite *events_suite(void)
{
        Suite *s = suite_create("events");
        TCase *tc = tcase_create("clock-jump");

        tcase_add_test(tc, test_first_reading_primes);
        tcase_add_test(tc, test_steady_ticks_are_no_sleep);
        tcase_add_test(tc, test_late_tick_is_no_sleep);
        tcase_add_test(tc, test_suspend_is_reported_once);
        tcase_add_test(tc, test_threshold_is_exclusive);
        tcase_add_test(tc, test_small_gaps_do_not_accumulate);
        tcase_add_test(tc, test_backwards_reprimes);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(events_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
