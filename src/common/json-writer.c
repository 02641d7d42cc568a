/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON text for people and programs (the bus's Describe(), switchctl):
 * strings escaped per RFC 8259, numbers independent of the locale. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json-writer.h"

static void json_append(struct json *j, const char *s, size_t n)
{
        if (j->error)
                return;
        if (j->len + n + 1 > j->size) {
                size_t size = j->size ? j->size : 4096;
                char *p;

                while (j->len + n + 1 > size)
                        size *= 2;
                p = realloc(j->buf, size);
                if (!p) {
                        j->error = -ENOMEM;
                        return;
                }
                j->buf = p;
                j->size = size;
        }
        memcpy(j->buf + j->len, s, n);
        j->len += n;
        j->buf[j->len] = '\0';
}

__attribute__((format(printf, 2, 3))) static void json_printf(struct json *j, const char *fmt, ...)
{
        char buf[64];
        va_list ap;
        int n;

        va_start(ap, fmt);
        n = vsnprintf(buf, sizeof(buf), fmt, ap);
        va_end(ap);
        if (n < 0 || (size_t)n >= sizeof(buf)) {
                j->error = -EINVAL;
                return;
        }
        json_append(j, buf, (size_t)n);
}

/* Before a value or a key: a comma unless it is the first in its container
 * or the value of a key just written. */
static void json_separate(struct json *j)
{
        if (j->after_key) {
                j->after_key = false;
                return;
        }
        if (j->depth == 0)
                return;
        if (!j->first[j->depth - 1])
                json_append(j, ",", 1);
        j->first[j->depth - 1] = false;
}

void json_open(struct json *j, char c)
{
        json_separate(j);
        if (j->depth >= JSON_MAX_DEPTH) {
                j->error = -E2BIG;
                return;
        }
        json_append(j, &c, 1);
        j->first[j->depth++] = true;
}

void json_close(struct json *j, char c)
{
        if (j->depth > 0)
                j->depth--;
        json_append(j, &c, 1);
}

/* The length of the UTF-8 sequence at s, or 0 when it is not valid UTF-8
 * (overlong forms, surrogates and code points past U+10FFFF included). */
static size_t utf8_length(const unsigned char *s)
{
        unsigned n, cp;

        if (s[0] < 0x80)
                return 1;
        if ((s[0] & 0xe0) == 0xc0)
                n = 1, cp = s[0] & 0x1f;
        else if ((s[0] & 0xf0) == 0xe0)
                n = 2, cp = s[0] & 0x0f;
        else if ((s[0] & 0xf8) == 0xf0)
                n = 3, cp = s[0] & 0x07;
        else
                return 0;
        for (unsigned i = 1; i <= n; i++) {
                if ((s[i] & 0xc0) != 0x80)
                        return 0;
                cp = cp << 6 | (s[i] & 0x3f);
        }
        if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
            (cp >= 0xd800 && cp <= 0xdfff))
                return 0;
        return n + 1;
}

static void json_control(struct json *j, unsigned char c)
{
        switch (c) {
        case '\b':
                json_append(j, "\\b", 2);
                break;
        case '\f':
                json_append(j, "\\f", 2);
                break;
        case '\n':
                json_append(j, "\\n", 2);
                break;
        case '\r':
                json_append(j, "\\r", 2);
                break;
        case '\t':
                json_append(j, "\\t", 2);
                break;
        default:
                json_printf(j, "\\u%04x", c);
        }
}

/* RFC 8259 section 7; bytes that are not UTF-8 (a path, say) become U+FFFD
 * so that the document stays valid. */
static void json_quote(struct json *j, const char *s)
{
        const unsigned char *p = (const unsigned char *)s;

        json_append(j, "\"", 1);
        while (*p) {
                size_t n = utf8_length(p);

                if (n == 0) {
                        json_append(j, "\\ufffd", 6);
                        p++;
                } else if (*p == '"' || *p == '\\') {
                        char esc[2] = { '\\', (char)*p };

                        json_append(j, esc, 2);
                        p++;
                } else if (*p < 0x20) {
                        json_control(j, *p);
                        p++;
                } else {
                        json_append(j, (const char *)p, n);
                        p += n;
                }
        }
        json_append(j, "\"", 1);
}

void json_key(struct json *j, const char *key)
{
        json_separate(j);
        json_quote(j, key);
        json_append(j, ":", 1);
        j->after_key = true;
}

void json_string(struct json *j, const char *s)
{
        json_separate(j);
        json_quote(j, s);
}

void json_uint(struct json *j, uint64_t v)
{
        json_separate(j);
        json_printf(j, "%" PRIu64, v);
}

void json_int(struct json *j, int64_t v)
{
        json_separate(j);
        json_printf(j, "%" PRId64, v);
}

void json_bool(struct json *j, bool v)
{
        json_separate(j);
        json_append(j, v ? "true" : "false", v ? 4 : 5);
}

void json_null(struct json *j)
{
        json_separate(j);
        json_append(j, "null", 4);
}

/* Three decimals, written from integers: printf's %f would follow the
 * locale's decimal separator. JSON has no NaN or infinity. */
void json_double(struct json *j, double v)
{
        if (!isfinite(v)) {
                json_null(j);
                return;
        }
        json_separate(j);
        if (fabs(v) < 1e15) {
                long long milli = llround(v * 1000.0);
                unsigned long long a = (unsigned long long)(milli < 0 ? -milli : milli);

                json_printf(j, "%s%llu.%03llu", milli < 0 ? "-" : "", a / 1000, a % 1000);
        } else {
                json_printf(j, "%.0f", v);
        }
}

