/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A preload for tests: moves CLOCK_REALTIME and CLOCK_BOOTTIME of the
 * process by the seconds written in the file $CLOCK_SHIFT_FILE names,
 * "REALTIME_SHIFT BOOTTIME_SHIFT" (signed), read again at every call so
 * that a test can make the clocks jump while the process runs: the wall
 * clock set back or forward, and a suspend (boottime running ahead of
 * monotonic), which a test cannot otherwise play. CLOCK_MONOTONIC is left
 * alone. Raw system calls only: this runs under the process's sanitizers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef int (*clock_gettime_fn)(clockid_t clock, struct timespec *ts);

/* Parses a signed decimal at *p, moving past it and the blanks after it. */
static long long parse_signed(const char **p, const char *end)
{
        bool negative = false;
        long long v = 0;

        while (*p < end && (**p == ' ' || **p == '\n'))
                (*p)++;
        if (*p < end && **p == '-') {
                negative = true;
                (*p)++;
        }
        for (; *p < end && **p >= '0' && **p <= '9' && v < 1000000000LL; (*p)++)
                v = v * 10 + (**p - '0');
        return negative ? -v : v;
}

/* The shift of 'clock' in seconds, 0 when there is none. */
static long long shift_of(clockid_t clock)
{
        const char *path = getenv("CLOCK_SHIFT_FILE"), *p, *end;
        char text[64];
        long long realtime, boottime;
        long n;
        int fd;

        if (!path || (clock != CLOCK_REALTIME && clock != CLOCK_BOOTTIME))
                return 0;
        fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return 0;
        n = syscall(SYS_read, fd, text, sizeof(text));
        syscall(SYS_close, fd);
        if (n <= 0)
                return 0;
        p = text;
        end = text + n;
        realtime = parse_signed(&p, end);
        boottime = parse_signed(&p, end);
        return clock == CLOCK_REALTIME ? realtime : boottime;
}

__attribute__((visibility("default"))) int clock_gettime(clockid_t clock, struct timespec *ts)
{
        static clock_gettime_fn next;
        int saved = errno, r;

        if (!next)
                next = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
        if (!next) {
                errno = ENOSYS;
                return -1;
        }
        r = next(clock, ts);
        if (r == 0) {
                ts->tv_sec += (time_t)shift_of(clock);
                errno = saved;
        }
        return r;
}
