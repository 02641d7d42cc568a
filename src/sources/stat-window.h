/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * /proc/stat counts a CPU's time in USER_HZ ticks (10 ms). At a 10 ms
 * sample an interval holds one tick or two, so a CPU without cpuidle reads
 * 0 %, 50 % or 100 % busy: a task of a millisecond that spans a tick edge
 * reads as a CPU saturated for the whole interval. On a real kernel (issue
 * 15) such single ticks, from the daemon itself and short-lived processes
 * on an idle machine, read as saturations and onsets and took it to the
 * fast cores and kept it there.
 *
 * So a CPU's busy fraction from ticks is taken over the shortest run of
 * the latest intervals that holds at least STAT_WINDOW_TICKS ticks (all of
 * them while fewer are known): a lone tick weighs 1 / STAT_WINDOW_TICKS,
 * and a CPU busy through the window still reads exactly 100 %. An interval
 * long enough on its own is taken alone, as before.
 *
 * The daemon's own CPU time in those intervals (sources/self-time.h), in
 * ticks, comes off the window's busy ticks: summed over the window, since
 * the kernel charges it a whole tick now and then rather than a little
 * every interval.
 *
 * Pure: no I/O.
 */

#include <stdint.h>

/* 10 ticks (100 ms): one tick is 10 %, at most quiet_busy_pct by default
 * and below the onset share, so a lone tick neither breaks the quiet nor
 * starts an onset; a load saturating a CPU reads so within 100 ms. */
#define STAT_WINDOW_TICKS 10
/* Intervals remembered: STAT_WINDOW_TICKS of them at one tick each. */
#define STAT_WINDOW_INTERVALS STAT_WINDOW_TICKS

/* The daemon's own time is kept in 1/2^20 tick, so that the sums taken
 * off when an interval leaves the window are exact. */
#define STAT_WINDOW_OWN_SCALE (1u << 20)

/* The window's intervals, oldest first from 'first', with their sums: an
 * interval leaves once the newer ones hold STAT_WINDOW_TICKS without it, so
 * a tick costs the same whatever the window holds. */
struct stat_window {
        uint32_t busy[STAT_WINDOW_INTERVALS], total[STAT_WINDOW_INTERVALS];
        uint32_t own[STAT_WINDOW_INTERVALS];    /* the daemon's, STAT_WINDOW_OWN_SCALE per tick */
        uint64_t sum_busy, sum_total, sum_own;
        unsigned first, n;
};

/* Forgets what was counted (the CPU went offline, its counters jumped). */
void stat_window_reset(struct stat_window *w);

/* Adds an interval's busy and idle ticks and the daemon's own time in it
 * (ticks, fractions allowed); returns the busy fraction (0..1) over the
 * window as above, 0 when no tick is known. */
float stat_window_add(struct stat_window *w, uint64_t busy, uint64_t idle, double own);
