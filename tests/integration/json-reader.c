/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tiny JSON reader for the tests: validates RFC 8259 and finds members by
 * path. Not a parser to build on: it reads what the daemon and the tools
 * print, and fails the test (Check) where a value is not what was asked.
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "common/fileio.h"
#include "tests/integration/json-reader.h"

static const char *json_value(const char *p, int depth);

static const char *json_ws(const char *p)
{
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
                p++;
        return p;
}

/* A string at p (its opening quote); decoded into out (ASCII escapes only
 * are decoded, \uXXXX beyond ASCII becomes '?'). Returns the end, or NULL. */
static const char *json_string(const char *p, char *out, size_t size)
{
        size_t n = 0;

        if (*p++ != '"')
                return NULL;
        while (*p != '"') {
                char c = *p;

                if ((unsigned char)c < 0x20)
                        return NULL;
                if (c == '\\') {
                        p++;
                        switch (*p) {
                        case '"':
                        case '\\':
                        case '/':
                                c = *p;
                                break;
                        case 'b':
                                c = '\b';
                                break;
                        case 'f':
                                c = '\f';
                                break;
                        case 'n':
                                c = '\n';
                                break;
                        case 'r':
                                c = '\r';
                                break;
                        case 't':
                                c = '\t';
                                break;
                        case 'u': {
                                int v = 0;

                                for (int i = 1; i <= 4; i++) {
                                        if (hex_digit(p[i]) < 0)
                                                return NULL;
                                        v = v * 16 + hex_digit(p[i]);
                                }
                                c = v < 0x80 ? (char)v : '?';
                                p += 4;
                                break;
                        }
                        default:
                                return NULL;
                        }
                }
                if (out && n + 1 < size)
                        out[n++] = c;
                p++;
        }
        if (out && size)
                out[n] = '\0';
        return p + 1;
}

static const char *json_number(const char *p)
{
        if (*p == '-')
                p++;
        if (*p == '0')
                p++;
        else if (*p >= '1' && *p <= '9')
                while (*p >= '0' && *p <= '9')
                        p++;
        else
                return NULL;
        if (*p == '.') {
                if (*++p < '0' || *p > '9')
                        return NULL;
                while (*p >= '0' && *p <= '9')
                        p++;
        }
        if (*p == 'e' || *p == 'E') {
                if (*++p == '+' || *p == '-')
                        p++;
                if (*p < '0' || *p > '9')
                        return NULL;
                while (*p >= '0' && *p <= '9')
                        p++;
        }
        return p;
}

static const char *json_container(const char *p, int depth, char close, bool keys)
{
        p = json_ws(p + 1);
        if (*p == close)
                return p + 1;
        for (;;) {
                if (keys) {
                        p = json_string(p, NULL, 0);
                        if (!p)
                                return NULL;
                        p = json_ws(p);
                        if (*p++ != ':')
                                return NULL;
                }
                p = json_value(p, depth + 1);
                if (!p)
                        return NULL;
                p = json_ws(p);
                if (*p == close)
                        return p + 1;
                if (*p++ != ',')
                        return NULL;
                p = json_ws(p);
        }
}

static const char *json_value(const char *p, int depth)
{
        p = json_ws(p);
        if (depth > 32)
                return NULL;
        switch (*p) {
        case '{':
                return json_container(p, depth, '}', true);
        case '[':
                return json_container(p, depth, ']', false);
        case '"':
                return json_string(p, NULL, 0);
        case 't':
                return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
        case 'f':
                return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
        case 'n':
                return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
        default:
                return json_number(p);
        }
}

bool json_valid(const char *text)
{
        const char *end = json_value(text, 0);

        return end && *json_ws(end) == '\0';
}

/* The value at a path of member names and array indexes ("holds.0.reason")
 * in a valid document, or NULL. */
const char *json_get(const char *text, const char *path)
{
        const char *p = json_ws(text);
        char part[64], key[64];

        while (*path) {
                size_t len = strcspn(path, ".");

                snprintf(part, sizeof(part), "%.*s", (int)len, path);
                path += len + (path[len] == '.');
                if (*p == '{') {
                        p = json_ws(p + 1);
                        for (;;) {
                                if (*p != '"')
                                        return NULL;
                                p = json_ws(json_string(p, key, sizeof(key)));
                                p = json_ws(p + 1);
                                if (strcmp(key, part) == 0)
                                        break;
                                p = json_ws(json_value(p, 0));
                                if (*p != ',')
                                        return NULL;
                                p = json_ws(p + 1);
                        }
                } else if (*p == '[') {
                        long index = strtol(part, NULL, 10);

                        p = json_ws(p + 1);
                        for (long i = 0; i < index; i++) {
                                if (*p == ']')
                                        return NULL;
                                p = json_ws(json_value(p, 0));
                                if (*p != ',')
                                        return NULL;
                                p = json_ws(p + 1);
                        }
                        if (*p == ']')
                                return NULL;
                } else {
                        return NULL;
                }
        }
        return p;
}

const char *json_get_string(const char *text, const char *path)
{
        static char buf[512];
        const char *v = json_get(text, path);

        ck_assert_msg(v && *v == '"', "%s is not a string in %s", path, text);
        json_string(v, buf, sizeof(buf));
        return buf;
}

double json_get_number(const char *text, const char *path)
{
        const char *v = json_get(text, path);

        ck_assert_msg(v && (*v == '-' || (*v >= '0' && *v <= '9')), "%s is not a number in %s", path, text);
        return strtod(v, NULL);
}
