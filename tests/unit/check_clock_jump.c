/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Suspend and wall-clock step detection (core/clock-jump.h) in virtual
 * time; tests/integration/check_faults plays both on the real daemon with
 * a preload that moves its clocks. */
#include <check.h>
#include <stdint.h>
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

/* The wall clock of a machine that has been up a while: 2026-12-03. */
#define WALL0 (UINT64_C(1796256000) * SEC)

/* A wall clock and the monotonic one, a tick apart at each reading. */
struct two_clocks {
        struct bl_wall_watch w;
        bl_usec_t mono;
        uint64_t wall;
};

/* However far apart the clocks are, the first reading is no step. */
static void clocks_start(struct two_clocks *c, bl_usec_t min_step)
{
        wall_watch_init(&c->w);
        ck_assert(!c->w.primed);
        c->mono = MONO0;
        c->wall = WALL0;
        ck_assert_int_eq(wall_watch_update(&c->w, c->mono, c->wall, min_step), 0);
        ck_assert(c->w.primed);
        ck_assert_int_eq(c->w.offset, (int64_t)(WALL0 - MONO0));
}

/* A tick later, the wall clock 'step' µs off besides. */
static int64_t clocks_tick(struct two_clocks *c, int64_t step, bl_usec_t min_step)
{
        c->mono += TICK;
        c->wall += (uint64_t)((int64_t)TICK + step);
        return wall_watch_update(&c->w, c->mono, c->wall, min_step);
}

/* Set back a day, then forward again: each step reported once, signed. */
START_TEST(test_wall_steps_are_reported_once)
{
        static const int64_t steps[] = {
                0, -(int64_t)(86400 * SEC), 0, (int64_t)(86400 * SEC + 250 * MSEC), 0,
        };
        struct two_clocks c;

        clocks_start(&c, BL_CLOCK_JUMP_MIN_USEC);
        for (unsigned i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
                ck_assert_int_eq(clocks_tick(&c, steps[i], BL_CLOCK_JUMP_MIN_USEC), steps[i]);
}
END_TEST

/* NTP's slewing (at most 500 ppm) and steps up to the threshold pass. */
START_TEST(test_wall_slew_is_no_step)
{
        struct two_clocks c;

        clocks_start(&c, SEC);
        for (unsigned i = 0; i < 1000; i++)
                ck_assert_int_eq(clocks_tick(&c, TICK / 2000, SEC), 0);
        ck_assert_int_eq(clocks_tick(&c, SEC, SEC), 0);
        ck_assert_int_eq(clocks_tick(&c, -(int64_t)SEC, SEC), 0);
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
        tc = tcase_create("wall-clock");
        tcase_add_test(tc, test_wall_steps_are_reported_once);
        tcase_add_test(tc, test_wall_slew_is_no_step);
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
