/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/duration.h"

struct unit {
        const char *name;
        uint64_t usec;
};

/* "m" is minutes, as in systemd.time(7): nobody holds a level for months. */
static const struct unit units[] = {
        { "us", 1 },
        { "usec", 1 },
        { "µs", 1 },
        { "ms", 1000 },
        { "msec", 1000 },
        { "s", USEC_PER_SEC },
        { "sec", USEC_PER_SEC },
        { "second", USEC_PER_SEC },
        { "seconds", USEC_PER_SEC },
        { "m", 60 * USEC_PER_SEC },
        { "min", 60 * USEC_PER_SEC },
        { "minute", 60 * USEC_PER_SEC },
        { "minutes", 60 * USEC_PER_SEC },
        { "h", 3600 * USEC_PER_SEC },
        { "hr", 3600 * USEC_PER_SEC },
        { "hour", 3600 * USEC_PER_SEC },
        { "hours", 3600 * USEC_PER_SEC },
        { "d", 86400 * USEC_PER_SEC },
        { "day", 86400 * USEC_PER_SEC },
        { "days", 86400 * USEC_PER_SEC },
        { "w", 604800 * USEC_PER_SEC },
        { "week", 604800 * USEC_PER_SEC },
        { "weeks", 604800 * USEC_PER_SEC },
};

static bool is_unit_char(char c)
{
        /* Bytes of "µ" are above 0x7f. */
        return isalpha((unsigned char)c) || (unsigned char)c >= 0x80;
}

static int lookup_unit(const char *name, size_t len, uint64_t *ret)
{
        for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
                if (strlen(units[i].name) == len && memcmp(units[i].name, name, len) == 0) {
                        *ret = units[i].usec;
                        return 0;
                }
        return -EINVAL;
}

/* Reads digits into *ret; returns how many there were, or -ERANGE. */
static int read_digits(const char **p, uint64_t *ret)
{
        uint64_t v = 0;
        int n = 0;

        while (isdigit((unsigned char)**p)) {
                if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(**p - '0'), &v))
                        return -ERANGE;
                (*p)++;
                n++;
        }
        *ret = v;
        return n;
}

/* floor(unit x 0.DDD...) for the digits in [digits, end), exactly: from
 * the last digit back, each step adds a digit's share and divides by ten
 * (the floor of a floor divided is the floor of the whole), and what is
 * carried stays below 'unit'. Any number of digits: with a scale of
 * 10^digits, "0.50000000000000s" overflowed 64 bits into 131065 µs. */
static uint64_t fraction_of(uint64_t unit, const char *digits, const char *end)
{
        uint64_t part = 0;

        while (end > digits) {
                end--;
                part = (part + (uint64_t)(*end - '0') * unit) / 10;
        }
        return part;
}

/* One component "NUMBER[.FRACTION]UNIT" at *p, added to *total. */
static int parse_component(const char **p, bool alone, uint64_t *total)
{
        const char *q = *p, *unit_start, *frac = NULL, *frac_end = NULL;
        uint64_t whole, unit, v;
        int nwhole;

        nwhole = read_digits(&q, &whole);
        if (nwhole < 0)
                return nwhole;
        if (*q == '.') {
                frac = ++q;
                while (isdigit((unsigned char)*q))
                        q++;
                frac_end = q;
        }
        if (nwhole == 0 && frac == frac_end)
                return -EINVAL;

        while (*q == ' ')
                q++;
        unit_start = q;
        while (is_unit_char(*q))
                q++;
        if (q == unit_start) {
                /* A bare number is seconds, but only on its own: "1h30" is a typo, not 1h 30s. */
                if (!alone)
                        return -EINVAL;
                unit = USEC_PER_SEC;
        } else if (lookup_unit(unit_start, (size_t)(q - unit_start), &unit) < 0)
                return -EINVAL;

        if (__builtin_mul_overflow(whole, unit, &v))
                return -ERANGE;
        if (frac && __builtin_add_overflow(v, fraction_of(unit, frac, frac_end), &v))
                return -ERANGE;
        if (__builtin_add_overflow(*total, v, total))
                return -ERANGE;
        *p = q;
        return 0;
}

int duration_parse(const char *text, uint64_t *ret_usec)
{
        const char *p = text;
        uint64_t total = 0;
        bool alone;
        int r;

        while (*p == ' ')
                p++;
        if (*p == '\0')
                return -EINVAL;
        /* A bare number is allowed only when it is the whole text. */
        alone = strspn(p, "0123456789. ") == strlen(p);
        while (*p != '\0') {
                r = parse_component(&p, alone, &total);
                if (r < 0)
                        return r;
                while (*p == ' ')
                        p++;
                if (alone && *p != '\0')
                        return -EINVAL;
        }
        *ret_usec = total;
        return 0;
}

char *duration_format(char *buf, size_t size, uint64_t usec)
{
        static const struct unit table[] = {
                { "d", 86400 * USEC_PER_SEC },
                { "h", 3600 * USEC_PER_SEC },
                { "min", 60 * USEC_PER_SEC },
                { "s", USEC_PER_SEC },
                { "ms", 1000 },
                { "us", 1 },
        };
        const size_t n = sizeof(table) / sizeof(table[0]);
        size_t i = 0;

        if (usec == 0) {
                snprintf(buf, size, "0s");
                return buf;
        }
        while (i < n && usec < table[i].usec)
                i++;
        uint64_t first = usec / table[i].usec, rest = usec % table[i].usec;
        /* Below a second, one unit says enough ("8ms", not "8ms 733us"). */
        if (i + 1 < n && table[i].usec >= USEC_PER_SEC && rest / table[i + 1].usec > 0)
                snprintf(buf, size, "%" PRIu64 "%s %" PRIu64 "%s", first, table[i].name,
                         rest / table[i + 1].usec, table[i + 1].name);
        else
                snprintf(buf, size, "%" PRIu64 "%s", first, table[i].name);
        return buf;
}
