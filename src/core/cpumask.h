/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* A fixed-size CPU bitmap and the kernel's cpulist text form ("0-3,6"). */

#include "core/types.h"

typedef struct {
        uint64_t bits[BL_MAX_CPUS / 64];
} bl_cpuset;

static inline void cpuset_zero(bl_cpuset *s)
{
        *s = (bl_cpuset){ 0 };
}

static inline void cpuset_set(bl_cpuset *s, unsigned cpu)
{
        if (cpu < BL_MAX_CPUS)
                s->bits[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

static inline void cpuset_clear(bl_cpuset *s, unsigned cpu)
{
        if (cpu < BL_MAX_CPUS)
                s->bits[cpu / 64] &= ~(UINT64_C(1) << (cpu % 64));
}

static inline bool cpuset_isset(const bl_cpuset *s, unsigned cpu)
{
        return cpu < BL_MAX_CPUS && (s->bits[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned cpuset_count(const bl_cpuset *s);
bool cpuset_equal(const bl_cpuset *a, const bl_cpuset *b);
bool cpuset_empty(const bl_cpuset *s);
void cpuset_or(bl_cpuset *dst, const bl_cpuset *src);
void cpuset_and(bl_cpuset *dst, const bl_cpuset *src);
void cpuset_andnot(bl_cpuset *dst, const bl_cpuset *src);
/* Highest set CPU + 1, 0 when empty. */
unsigned cpuset_span(const bl_cpuset *s);

/* Parses a cpulist ("0-3,6", a trailing newline allowed, "" = empty).
 * Returns 0 or -EINVAL (malformed) / -ERANGE (CPU >= BL_MAX_CPUS). */
int cpuset_parse(bl_cpuset *s, const char *text);
/* Parses either form the kernel prints CPU sets in: a cpulist, or CPU
 * numbers separated by spaces (cpufreq related_cpus, affected_cpus: "0 1 2 3 ").
 * Same returns as cpuset_parse(). */
int cpuset_parse_words(bl_cpuset *s, const char *text);
/* Formats as a cpulist; always NUL-terminates, returns the length it needed. */
size_t cpuset_format(const bl_cpuset *s, char *buf, size_t size);
