/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Telling a suspend from a slow tick. CLOCK_MONOTONIC stops while the
 * machine sleeps and CLOCK_BOOTTIME does not, so a sleep shows as boottime
 * running ahead of monotonic between two readings; a stopped or starved
 * process sees both advance alike. Pure: the caller reads the clocks. */

#include "core/types.h"

/* Boottime ahead of monotonic by more than this between two ticks is a
 * sleep; smaller gaps are noise or a sleep too short to matter. */
#define BL_CLOCK_JUMP_MIN_USEC BL_USEC_PER_SEC

struct bl_clock_watch {
        bool primed;
        bl_usec_t mono, boot;           /* the previous reading */
};

void clock_watch_init(struct bl_clock_watch *w);

/* Takes a reading of both clocks (µs) and returns how long the machine
 * slept since the previous one: boottime elapsed minus monotonic elapsed,
 * when that exceeds 'min_sleep', else 0. The first reading only primes; a
 * clock that went backwards (not possible for these two, but the caller
 * may pass anything) re-primes and returns 0. */
bl_usec_t clock_watch_update(struct bl_clock_watch *w, bl_usec_t mono, bl_usec_t boot, bl_usec_t min_sleep);

/* The wall clock (CLOCK_REALTIME) is set by people and NTP; the daemon
 * uses it only to label the history. A step shows as wall minus monotonic
 * changing between two readings; NTP's slewing changes it too slowly to
 * exceed a second between ticks. */
struct bl_wall_watch {
        bool primed;
        int64_t offset;                 /* wall - monotonic, µs, at the previous reading */
};

void wall_watch_init(struct bl_wall_watch *w);

/* Takes a reading of both clocks (µs) and returns by how much the wall
 * clock was stepped since the previous one (negative: set back) when the
 * step exceeds 'min_step' either way, else 0. The first reading only
 * primes. */
int64_t wall_watch_update(struct bl_wall_watch *w, bl_usec_t mono, uint64_t wall, bl_usec_t min_step);
