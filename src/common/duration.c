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
static int read_digits(const char **p, uint64_t *ret, uint64_t *ret_scale)
{
        uint64_t v = 0, scale = 1;
        int n = 0;

        while (isdigit((unsigned char)**p)) {
                if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(**p - '0'), &v))
                        return -ERANGE;
                /* A fraction longer than µs precision needs is cut, not refused. */
                if (scale < UINT64_C(1000000000000000000))
                        scale *= 10;
                (*p)++;
                n++;
        }
        *ret = v;
        if (ret_scale)
                *ret_scale = scale;
        return n;
}

/* One component "NUMBER[.FRACTION]UNIT" at *p, added to *total. */
static int parse_component(const char **p, bool alone, uint64_t *total)
{
        const char *q = *p, *unit_start;
        uint64_t whole, frac = 0, frac_scale = 1, unit, v;
        int nwhole, nfrac = 0;

        nwhole = read_digits(&q, &whole, NULL);
        if (nwhole < 0)
                return nwhole;
        if (*q == '.') {
                q++;
                /* Keep at most 18 digits of the fraction: more cannot matter in µs. */
                const char *f = q;
                while (isdigit((unsigned char)*q) && q - f < 18)
                        q++;
                size_t flen = (size_t)(q - f);
                for (size_t i = 0; i < flen; i++) {
                        frac = frac * 10 + (uint64_t)(f[i] - '0');
                        frac_scale *= 10;
                }
                nfrac = (int)flen;
                while (isdigit((unsigned char)*q))
                        q++;
        }
        if (nwhole == 0 && nfrac == 0)
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
        /* frac/frac_scale < 1 and unit < 2^60, so split to stay in range. */
        v += (unit / frac_scale) * frac + (unit % frac_scale) * frac / frac_scale;
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
