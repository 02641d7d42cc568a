/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Durations as people write them on a command line ("30s", "5min", "1h",
 * "2h30min", "1.5h", "90" for seconds) and as switchctl prints them. */

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define USEC_PER_SEC UINT64_C(1000000)

/* Room for any duration_format() result. */
#define DURATION_TEXT_MAX 32

/* Parses 'text' into µs. Components are a number (with an optional
 * fraction) and a unit: us, ms, s, min (or m), h, d, w and their long
 * forms; a plain number without a unit is seconds. Spaces may separate the
 * components. Returns 0, -EINVAL when 'text' is not a duration, or -ERANGE
 * when it does not fit in 64 bits of µs. */
int duration_parse(const char *text, uint64_t *ret_usec);

/* 'usec' as the timespec clock_nanosleep() and timerfd_settime() take. */
static inline struct timespec duration_timespec(uint64_t usec)
{
        return (struct timespec){
                .tv_sec = (time_t)(usec / USEC_PER_SEC),
                .tv_nsec = (long)(usec % USEC_PER_SEC) * 1000,
        };
}

/* Formats 'usec' with its two largest units, e.g. "2h 30min", "1s 500ms",
 * "45s", or one below a second ("250ms"); "0s" for 0. Returns 'buf'. */
char *duration_format(char *buf, size_t size, uint64_t usec);
