/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* A fixed-size CPU bitmap and the kernel's cpulist text form ("0-3,6"). */

#include "core/types.h"

typedef struct {
        uint64_t bits[BL_MAX_CPUS / 64];
} bl_cpumask;

static inline void cpumask_zero(bl_cpumask *s)
{
        *s = (bl_cpumask){ 0 };
}

static inline void cpumask_set(bl_cpumask *s, unsigned cpu)
{
        if (cpu < BL_MAX_CPUS)
                s->bits[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

static inline void cpumask_clear(bl_cpumask *s, unsigned cpu)
{
        if (cpu < BL_MAX_CPUS)
                s->bits[cpu / 64] &= ~(UINT64_C(1) << (cpu % 64));
}

static inline bool cpumask_isset(const bl_cpumask *s, unsigned cpu)
{
        return cpu < BL_MAX_CPUS && (s->bits[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned cpumask_count(const bl_cpumask *s);
bool cpumask_equal(const bl_cpumask *a, const bl_cpumask *b);
bool cpumask_empty(const bl_cpumask *s);
void cpumask_or(bl_cpumask *dst, const bl_cpumask *src);
void cpumask_and(bl_cpumask *dst, const bl_cpumask *src);
void cpumask_andnot(bl_cpumask *dst, const bl_cpumask *src);
/* Highest set CPU + 1, 0 when empty. */
unsigned cpumask_span(const bl_cpumask *s);

/* Parses a cpulist ("0-3,6", a trailing newline allowed, "" = empty).
 * Returns 0 or -EINVAL (malformed) / -ERANGE (CPU >= BL_MAX_CPUS). */
int cpumask_parse(bl_cpumask *s, const char *text);
/* Parses either form the kernel prints CPU sets in: a cpulist, or CPU
 * numbers separated by spaces (cpufreq related_cpus, affected_cpus: "0 1 2 3 ").
 * Same returns as cpumask_parse(). */
int cpumask_parse_words(bl_cpumask *s, const char *text);
/* Formats as a cpulist; always NUL-terminates, returns the length it needed. */
size_t cpumask_format(const bl_cpumask *s, char *buf, size_t size);
