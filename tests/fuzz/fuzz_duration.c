/* SPDX-License-Identifier: GPL-2.0-or-later */
/* duration_parse() (common/duration.c: switchctl's --for, the daemon's
 * --record-duration and --record-interval) against a reference written here
 * with nothing in common with it: a scanner of its own for the grammar and
 * binary multi-word integers for the value. Every component N.F UNIT is
 * floor(NF x UNIT / 10^len(F)) with NF the digits of N and F written
 * together, computed exactly however many digits there are; the components
 * are summed exactly too. Then:
 *   - text the reference accepts with a sum below 2^64 parses to that sum;
 *   - an accepted text whose sum is 2^64 or more is -ERANGE, never a value;
 *   - text it refuses is -EINVAL or -ERANGE, never a value;
 * and what duration_format() writes of an accepted value parses back to at
 * most that value (it drops the smaller units) and to 0 only for 0. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/duration.h"
#include "tests/fuzz/fuzz.h"

/* Non-negative integer, little-endian 32-bit words. */
struct big {
        uint32_t *w;
        size_t n, cap;
};

static void big_push(struct big *b, uint32_t word)
{
        if (b->n == b->cap) {
                b->cap = b->cap ? 2 * b->cap : 8;
                b->w = realloc(b->w, b->cap * sizeof(*b->w));
                if (!b->w)
                        abort();
        }
        b->w[b->n++] = word;
}

static void big_trim(struct big *b)
{
        while (b->n > 0 && b->w[b->n - 1] == 0)
                b->n--;
}

/* b = b x m + a */
static void big_mul_add(struct big *b, uint32_t m, uint32_t a)
{
        uint64_t carry = a;

        for (size_t i = 0; i < b->n; i++) {
                uint64_t t = (uint64_t)b->w[i] * m + carry;

                b->w[i] = (uint32_t)t;
                carry = t >> 32;
        }
        if (carry)
                big_push(b, (uint32_t)carry);
}

/* b = floor(b / d), d > 0 */
static void big_div(struct big *b, uint32_t d)
{
        uint64_t rem = 0;

        for (size_t i = b->n; i-- > 0;) {
                uint64_t t = (rem << 32) | b->w[i];

                b->w[i] = (uint32_t)(t / d);
                rem = t % d;
        }
        big_trim(b);
}

static void big_add(struct big *sum, const struct big *b)
{
        uint64_t carry = 0;

        while (sum->n < b->n)
                big_push(sum, 0);
        for (size_t i = 0; i < sum->n; i++) {
                uint64_t t = (uint64_t)sum->w[i] + (i < b->n ? b->w[i] : 0) + carry;

                sum->w[i] = (uint32_t)t;
                carry = t >> 32;
        }
        if (carry)
                big_push(sum, (uint32_t)carry);
}

/* The value if it fits in 64 bits. */
static bool big_u64(const struct big *b, uint64_t *ret)
{
        struct big t = *b;

        big_trim(&t);
        if (t.n > 2)
                return false;
        *ret = (t.n > 0 ? t.w[0] : 0) | (t.n > 1 ? (uint64_t)t.w[1] << 32 : 0);
        return true;
}

/* The units of systemd.time(7) that duration.h promises, written as
 * factors below 2^32 (a week of µs is not one). */
static const struct {
        const char *name;
        uint32_t f1, f2;
} units[] = {
        { "us", 1, 1 }, { "usec", 1, 1 }, { "\xc2\xb5s", 1, 1 },
        { "ms", 1000, 1 }, { "msec", 1000, 1 },
        { "s", 1000000, 1 }, { "sec", 1000000, 1 }, { "second", 1000000, 1 }, { "seconds", 1000000, 1 },
        { "m", 1000000, 60 }, { "min", 1000000, 60 }, { "minute", 1000000, 60 }, { "minutes", 1000000, 60 },
        { "h", 1000000, 3600 }, { "hr", 1000000, 3600 }, { "hour", 1000000, 3600 },
        { "hours", 1000000, 3600 },
        { "d", 1000000, 86400 }, { "day", 1000000, 86400 }, { "days", 1000000, 86400 },
        { "w", 1000000, 604800 }, { "week", 1000000, 604800 }, { "weeks", 1000000, 604800 },
};

static int find_unit(const char *s, size_t len)
{
        for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
                if (strlen(units[i].name) == len && memcmp(units[i].name, s, len) == 0)
                        return (int)i;
        return -1;
}

/* The component's value added to 'sum': digits [d, d_end) without the
 * point, 'nfrac' of them after it. */
static void add_component(struct big *sum, const char *d, const char *d_end, size_t nfrac, int unit)
{
        struct big v = { 0 };

        for (const char *p = d; p < d_end; p++)
                if (*p != '.')
                        big_mul_add(&v, 10, (uint32_t)(*p - '0'));
        big_mul_add(&v, units[unit].f1, 0);
        big_mul_add(&v, units[unit].f2, 0);
        for (; nfrac >= 9; nfrac -= 9)
                big_div(&v, 1000000000);
        for (; nfrac > 0; nfrac--)
                big_div(&v, 10);
        big_add(sum, &v);
        free(v.w);
}

/* Spaces, then components "DIGITS[.DIGITS] [spaces] UNIT" separated by
 * spaces, or one number and nothing else (seconds). Returns whether 'text'
 * is a duration, its exact value in 'sum'. */
static bool reference(const char *text, struct big *sum)
{
        const char *p = text + strspn(text, " ");
        bool bare = p[strspn(p, "0123456789. ")] == '\0';

        if (*p == '\0')
                return false;
        while (*p != '\0') {
                const char *d = p, *d_end, *u;
                size_t nint, nfrac = 0;
                int unit;

                nint = strspn(p, "0123456789");
                p += nint;
                if (*p == '.') {
                        nfrac = strspn(p + 1, "0123456789");
                        p += 1 + nfrac;
                }
                d_end = p;
                if (nint + nfrac == 0)
                        return false;
                p += strspn(p, " ");
                u = p;
                while (*p != '\0' && (isalpha((unsigned char)*p) || (unsigned char)*p >= 0x80))
                        p++;
                if (bare) {
                        /* only "NUMBER" and spaces: one number of seconds */
                        if (*p != '\0')
                                return false;
                        unit = find_unit("s", 1);
                } else {
                        unit = find_unit(u, (size_t)(p - u));
                        if (unit < 0)
                                return false;
                }
                add_component(sum, d, d_end, nfrac, unit);
                p += strspn(p, " ");
        }
        return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *text = fuzz_strndup(data, size);
        struct big sum = { 0 };
        uint64_t got = UINT64_C(0xdeadbeef), want = 0;
        bool valid = reference(text, &sum);
        bool fits = valid && big_u64(&sum, &want);
        int r = duration_parse(text, &got);

        FUZZ_ASSERT(r == 0 || r == -EINVAL || r == -ERANGE);
        if (!valid)
                FUZZ_ASSERT(r < 0);
        else if (!fits)
                FUZZ_ASSERT(r == -ERANGE);
        else
                FUZZ_ASSERT(r == 0 && got == want);
        if (r < 0)
                FUZZ_ASSERT(got == UINT64_C(0xdeadbeef));
        if (r == 0) {
                char buf[DURATION_TEXT_MAX];
                uint64_t back = 0;

                FUZZ_ASSERT(duration_parse(duration_format(buf, sizeof(buf), got), &back) == 0);
                FUZZ_ASSERT(back <= got && (back == 0) == (got == 0));
        }
        free(sum.w);
        free(text);
        return 0;
}
