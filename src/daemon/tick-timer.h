/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The sampling tick: a periodic timerfd the loop watches, not an sd-event
 * time source. sd-event re-arms its timer on every expiry, a
 * timerfd_settime() per tick; a periodic timer runs on and is only read.
 * It is re-armed when the period changes: the idle back-off, a reload, or
 * a new phase against the kernel's jiffy (core/tick-jitter.h), which the
 * daemon draws every few ticks instead of every tick. Part of keeping the
 * daemon's cost per tick near the bare reading of its files (issue 15). */

#include <stdint.h>
#include <systemd/sd-event.h>

#include "core/types.h"

struct tick_timer;
/* Called on the loop with the time the tick was due (CLOCK_MONOTONIC, µs):
 * the latest expiry when the loop was late by more than a period (missed
 * ones are skipped, not fired back to back). */
typedef int (*tick_timer_fn)(struct tick_timer *t, bl_usec_t due, void *userdata);

struct tick_timer {
        int fd;
        sd_event_source *source;
        bl_usec_t first;                /* the first expiry since the last arming */
        bl_usec_t period;
        uint64_t expired;               /* expiries read since the last arming */
        tick_timer_fn fn;
        void *userdata;
};

/* Watches a new timer on 'e', not armed yet. Returns 0 or a negative errno. */
int tick_timer_open(struct tick_timer *t, sd_event *e, tick_timer_fn fn, void *userdata);

/* Fires first at 'first', then every 'period' µs (> 0). Returns 0 or a
 * negative errno. */
int tick_timer_arm(struct tick_timer *t, bl_usec_t first, bl_usec_t period);

/* Expiries read since the last arming. */
static inline uint64_t tick_timer_expired(const struct tick_timer *t)
{
        return t->expired;
}

/* Stops and frees an opened timer; nothing for one never opened (zeroed). */
void tick_timer_close(struct tick_timer *t);
