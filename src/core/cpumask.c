/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"

#define NWORDS (BL_MAX_CPUS / 64)

unsigned cpumask_count(const bl_cpumask *s)
{
        unsigned n = 0;

        for (unsigned i = 0; i < NWORDS; i++)
                n += (unsigned)__builtin_popcountll(s->bits[i]);
        return n;
}

bool cpumask_equal(const bl_cpumask *a, const bl_cpumask *b)
{
        return memcmp(a->bits, b->bits, sizeof(a->bits)) == 0;
}

bool cpumask_empty(const bl_cpumask *s)
{
        for (unsigned i = 0; i < NWORDS; i++)
                if (s->bits[i])
                        return false;
        return true;
}

void cpumask_or(bl_cpumask *dst, const bl_cpumask *src)
{
        for (unsigned i = 0; i < NWORDS; i++)
                dst->bits[i] |= src->bits[i];
}

void cpumask_and(bl_cpumask *dst, const bl_cpumask *src)
{
        for (unsigned i = 0; i < NWORDS; i++)
                dst->bits[i] &= src->bits[i];
}

void cpumask_andnot(bl_cpumask *dst, const bl_cpumask *src)
{
        for (unsigned i = 0; i < NWORDS; i++)
                dst->bits[i] &= ~src->bits[i];
}

unsigned cpumask_span(const bl_cpumask *s)
{
        for (unsigned i = NWORDS; i-- > 0;)
                if (s->bits[i])
                        return i * 64 + 64 - (unsigned)__builtin_clzll(s->bits[i]);
        return 0;
}

static int parse_cpu(const char **p, unsigned *ret)
{
        char *end;
        unsigned long v;

        if (**p < '0' || **p > '9')
                return -EINVAL;
        errno = 0;
        v = strtoul(*p, &end, 10);
        if (errno || v >= BL_MAX_CPUS)
                return -ERANGE;
        *p = end;
        *ret = (unsigned)v;
        return 0;
}

static bool is_separator(char c)
{
        return c == ' ' || c == ',' || c == '\t' || c == '\n';
}

/* One "N" or "N-M" item at *p, added to 'out'. */
static int parse_item(const char **p, bl_cpumask *out)
{
        unsigned first, last;
        int r;

        r = parse_cpu(p, &first);
        if (r < 0)
                return r;
        last = first;
        if (**p == '-') {
                (*p)++;
                r = parse_cpu(p, &last);
                if (r < 0)
                        return r;
                if (last < first)
                        return -EINVAL;
        }
        for (unsigned c = first; c <= last; c++)
                cpumask_set(out, c);
        return 0;
}

int cpumask_parse(bl_cpumask *s, const char *text)
{
        const char *p = text;
        bl_cpumask out;
        int r;

        cpumask_zero(&out);
        while (*p == ' ' || *p == '\t')
                p++;
        while (*p && *p != '\n') {
                r = parse_item(&p, &out);
                if (r < 0)
                        return r;
                if (*p == ',') {
                        p++;
                        if (*p == '\0' || *p == '\n')
                                return -EINVAL;
                } else if (*p && *p != '\n')
                        return -EINVAL;
        }
        if (*p == '\n' && p[1] != '\0')
                return -EINVAL;
        *s = out;
        return 0;
}

int cpumask_parse_words(bl_cpumask *s, const char *text)
{
        const char *p = text;
        bl_cpumask out;
        int r;

        cpumask_zero(&out);
        for (;;) {
                while (is_separator(*p))
                        p++;
                if (*p == '\0')
                        break;
                r = parse_item(&p, &out);
                if (r < 0)
                        return r;
                if (*p && !is_separator(*p))
                        return -EINVAL;
        }
        *s = out;
        return 0;
}

size_t cpumask_format(const bl_cpumask *s, char *buf, size_t size)
{
        size_t len = 0;
        unsigned span = cpumask_span(s);

        if (size)
                buf[0] = '\0';
        for (unsigned c = 0; c < span; c++) {
                unsigned last = c;
                int n;

                if (!cpumask_isset(s, c))
                        continue;
                while (last + 1 < span && cpumask_isset(s, last + 1))
                        last++;
                if (last == c)
                        n = snprintf(buf + (len < size ? len : size), len < size ? size - len : 0, "%s%u",
                                     len ? "," : "", c);
                else
                        n = snprintf(buf + (len < size ? len : size), len < size ? size - len : 0, "%s%u-%u",
                                     len ? "," : "", c, last);
                len += (size_t)n;
                c = last;
        }
        return len;
}
