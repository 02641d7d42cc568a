/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpumask.h"

#define NWORDS (BL_MAX_CPUS / 64)

unsigned cpuset_count(const bl_cpuset *s)
{
        unsigned n = 0;

        for (unsigned i = 0; i < NWORDS; i++)
                n += (unsigned)__builtin_popcountll(s->bits[i]);
        return n;
}

bool cpuset_equal(const bl_cpuset *a, const bl_cpuset *b)
{
        return memcmp(a->bits, b->bits, sizeof(a->bits)) == 0;
}

bool cpuset_empty(const bl_cpuset *s)
{
        for (unsigned i = 0; i < NWORDS; i++)
                if (s->bits[i])
                        return false;
        return true;
}

void cpuset_or(bl_cpuset *dst, const bl_cpuset *src)
{
        for (unsigned i = 0; i < NWORDS; i++)
                dst->bits[i] |= src->bits[i];
}

void cpuset_and(bl_cpuset *dst, const bl_cpuset *src)
{
        for (unsigned i = 0; i < NWORDS; i++)
                dst->bits[i] &= src->bits[i];
}

void cpuset_andnot(bl_cpuset *dst, const bl_cpuset *src)
{
        for (unsigned i = 0; i < NWORDS; i++)
                dst->bits[i] &= ~src->bits[i];
}

unsigned cpuset_span(const bl_cpuset *s)
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
static int parse_item(const char **p, bl_cpuset *out)
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
                cpuset_set(out, c);
        return 0;
}

int cpuset_parse(bl_cpuset *s, const char *text)
{
        const char *p = text;
        bl_cpuset out;
        int r;

        cpuset_zero(&out);
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

int cpuset_parse_words(bl_cpuset *s, const char *text)
{
        const char *p = text;
        bl_cpuset out;
        int r;

        cpuset_zero(&out);
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

size_t cpuset_format(const bl_cpuset *s, char *buf, size_t size)
{
        size_t len = 0;
        unsigned span = cpuset_span(s);

        if (size)
                buf[0] = '\0';
        for (unsigned c = 0; c < span; c++) {
                unsigned last = c;
                int n;

                if (!cpuset_isset(s, c))
                        continue;
                while (last + 1 < span && cpuset_isset(s, last + 1))
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
