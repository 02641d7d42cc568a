/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reader for rt-app's JSON dialect (see rtapp-json.h). A recursive
 * descent whose depth is bounded by RTAPP_JSON_MAX_DEPTH, so hostile input
 * cannot exhaust the stack. Every function releases what it built before it
 * reports a failure, so an error leaves nothing allocated behind it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "sim/rtapp-json.h"

struct reader {
        const char *filename;
        const char *p, *end;
        const char *line_start;
        unsigned line;
        struct bl_diag *diag;
};

static bool is_digit(char c)
{
        return c >= '0' && c <= '9';
}

/* Characters that continue a number or a literal: what a person would read
 * as one word when we quote it back. */
static bool is_word_char(char c)
{
        return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' ||
               c == '+' || c == '-';
}

static unsigned reader_col(const struct reader *r)
{
        return (unsigned)(r->p - r->line_start) + 1;
}

static void describe_here(const struct reader *r, char *buf, size_t size)
{
        const char *p = r->p;
        unsigned char c;

        if (p >= r->end) {
                snprintf(buf, size, "end of file");
                return;
        }
        c = (unsigned char)*p;
        if (is_word_char((char)c)) {
                int n = 0;

                while (p + n < r->end && n < 24 && is_word_char(p[n]))
                        n++;
                snprintf(buf, size, "'%.*s'%s", n, p, p + n < r->end && is_word_char(p[n]) ? "..." : "");
        } else if (c == '\n' || c == '\r') {
                snprintf(buf, size, "a line break");
        } else if (c > 0x20 && c < 0x7f) {
                snprintf(buf, size, "'%c'", c);
        } else {
                snprintf(buf, size, "byte 0x%02x", c);
        }
}

static int fail_got(struct reader *r, const char *expected, const char *got)
{
        diag_add(r->diag, "%s:%u:%u: expected %s, got %s", r->filename, r->line, reader_col(r), expected,
                 got);
        return -EINVAL;
}

/* The error names what sits at the reader's position. */
static int fail(struct reader *r, const char *expected)
{
        char got[48];

        describe_here(r, got, sizeof(got));
        return fail_got(r, expected, got);
}

static void newline(struct reader *r)
{
        r->p++;
        r->line++;
        r->line_start = r->p;
}

static int skip_block_comment(struct reader *r)
{
        unsigned line = r->line, col = reader_col(r);
        char expected[64];

        r->p += 2;
        for (;;) {
                if (r->p >= r->end) {
                        snprintf(expected, sizeof(expected), "'*/' to close the comment opened at %u:%u",
                                 line, col);
                        return fail(r, expected);
                }
                if (r->p[0] == '*' && r->p + 1 < r->end && r->p[1] == '/') {
                        r->p += 2;
                        return 0;
                }
                if (r->p[0] == '\n')
                        newline(r);
                else
                        r->p++;
        }
}

/* Whitespace and both kinds of C comment. */
static int skip_space(struct reader *r)
{
        while (r->p < r->end) {
                char c = r->p[0];

                if (c == '\n') {
                        newline(r);
                } else if (c == ' ' || c == '\t' || c == '\r') {
                        r->p++;
                } else if (c == '/' && r->p + 1 < r->end && r->p[1] == '*') {
                        int err = skip_block_comment(r);

                        if (err < 0)
                                return err;
                } else if (c == '/' && r->p + 1 < r->end && r->p[1] == '/') {
                        while (r->p < r->end && r->p[0] != '\n')
                                r->p++;
                } else {
                        break;
                }
        }
        return 0;
}

static void clear_value(struct rtapp_json *v)
{
        switch (v->type) {
        case RTAPP_JSON_STRING:
                free(v->string);
                break;
        case RTAPP_JSON_ARRAY:
                for (size_t i = 0; i < v->array.n; i++)
                        clear_value(&v->array.items[i]);
                free(v->array.items);
                break;
        case RTAPP_JSON_OBJECT:
                for (size_t i = 0; i < v->object.n; i++) {
                        free(v->object.members[i].key);
                        clear_value(&v->object.members[i].value);
                }
                free(v->object.members);
                break;
        default:
                break;
        }
        v->type = RTAPP_JSON_NULL;
}

static int hex4(struct reader *r, unsigned *ret)
{
        unsigned v = 0;

        for (int i = 0; i < 4; i++) {
                char c = r->p < r->end ? r->p[0] : '\0';

                if (is_digit(c))
                        v = v * 16 + (unsigned)(c - '0');
                else if (c >= 'a' && c <= 'f')
                        v = v * 16 + (unsigned)(c - 'a' + 10);
                else if (c >= 'A' && c <= 'F')
                        v = v * 16 + (unsigned)(c - 'A' + 10);
                else
                        return fail(r, "4 hex digits after \\u");
                r->p++;
        }
        *ret = v;
        return 0;
}

/* \uXXXX, with surrogate pairs, as UTF-8 into 'out' (at least 4 bytes). */
static int unicode_escape(struct reader *r, char *out, size_t *ret_len)
{
        unsigned cp, low;
        size_t n;
        int err;

        err = hex4(r, &cp);
        if (err < 0)
                return err;
        if (cp >= 0xdc00 && cp <= 0xdfff) {
                r->p -= 4;
                return fail(r, "a high surrogate \\uD800-\\uDBFF before a low one");
        }
        if (cp >= 0xd800 && cp <= 0xdbff) {
                if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
                        return fail(r, "a low surrogate \\uDC00-\\uDFFF after a high one");
                r->p += 2;
                err = hex4(r, &low);
                if (err < 0)
                        return err;
                if (low < 0xdc00 || low > 0xdfff) {
                        r->p -= 6;
                        return fail(r, "a low surrogate \\uDC00-\\uDFFF after a high one");
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        }
        if (cp == 0) {
                r->p -= 6;
                return fail_got(r, "a character other than NUL in a string", "\\u0000");
        }
        if (cp < 0x80) {
                out[0] = (char)cp;
                n = 1;
        } else if (cp < 0x800) {
                out[0] = (char)(0xc0 | (cp >> 6));
                out[1] = (char)(0x80 | (cp & 0x3f));
                n = 2;
        } else if (cp < 0x10000) {
                out[0] = (char)(0xe0 | (cp >> 12));
                out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
                out[2] = (char)(0x80 | (cp & 0x3f));
                n = 3;
        } else {
                out[0] = (char)(0xf0 | (cp >> 18));
                out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
                out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
                out[3] = (char)(0x80 | (cp & 0x3f));
                n = 4;
        }
        *ret_len = n;
        return 0;
}

static int escape(struct reader *r, char *out, size_t *ret_len)
{
        char c;

        r->p++;
        if (r->p >= r->end)
                return fail(r, "an escape character after '\\'");
        c = r->p[0];
        *ret_len = 1;
        switch (c) {
        case '"':
        case '\\':
        case '/':
                out[0] = c;
                break;
        case 'b':
                out[0] = '\b';
                break;
        case 'f':
                out[0] = '\f';
                break;
        case 'n':
                out[0] = '\n';
                break;
        case 'r':
                out[0] = '\r';
                break;
        case 't':
                out[0] = '\t';
                break;
        case 'u':
                r->p++;
                return unicode_escape(r, out, ret_len);
        default:
                return fail(r, "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after '\\'");
        }
        r->p++;
        return 0;
}

/* At the opening quote. */
static int parse_string(struct reader *r, char **ret)
{
        char *buf, *shrunk;
        size_t n = 0;
        int err = 0;

        buf = malloc(RTAPP_JSON_MAX_STRING + 1);
        if (!buf)
                return -ENOMEM;
        r->p++;
        for (;;) {
                const char *at = r->p;
                char piece[4];
                size_t len = 1;
                unsigned char c;

                if (r->p >= r->end) {
                        err = fail(r, "'\"' to close the string");
                        break;
                }
                c = (unsigned char)r->p[0];
                if (c == '"') {
                        r->p++;
                        break;
                }
                if (c == '\n' || c == '\r') {
                        err = fail(r, "'\"' to close the string");
                        break;
                }
                if (c < 0x20) {
                        err = fail(r, "a printable character or an escape in the string");
                        break;
                }
                if (c == '\\') {
                        err = escape(r, piece, &len);
                        if (err < 0)
                                break;
                } else {
                        piece[0] = (char)c;
                        r->p++;
                }
                if (n + len > RTAPP_JSON_MAX_STRING) {
                        r->p = at;
                        err = fail_got(r, "a string of at most 4096 bytes", "a longer one");
                        break;
                }
                memcpy(buf + n, piece, len);
                n += len;
        }
        if (err < 0) {
                free(buf);
                return err;
        }
        buf[n] = '\0';
        shrunk = realloc(buf, n + 1);
        *ret = shrunk ? shrunk : buf;
        return 0;
}

static int parse_number(struct reader *r, struct rtapp_json *v)
{
        const char *start = r->p;
        const char *p = r->p;
        bool is_float = false;
        char text[64];
        size_t len;

        if (p < r->end && p[0] == '-')
                p++;
        if (p >= r->end || !is_digit(p[0]))
                return fail(r, "a value");
        if (p[0] == '0' && p + 1 < r->end && is_digit(p[1]))
                return fail(r, "a number without leading zeros");
        while (p < r->end && is_digit(p[0]))
                p++;
        if (p < r->end && p[0] == '.') {
                is_float = true;
                p++;
                if (p >= r->end || !is_digit(p[0])) {
                        r->p = p;
                        return fail(r, "a digit after the decimal point");
                }
                while (p < r->end && is_digit(p[0]))
                        p++;
        }
        if (p < r->end && (p[0] == 'e' || p[0] == 'E')) {
                is_float = true;
                p++;
                if (p < r->end && (p[0] == '+' || p[0] == '-'))
                        p++;
                if (p >= r->end || !is_digit(p[0])) {
                        r->p = p;
                        return fail(r, "a digit in the exponent");
                }
                while (p < r->end && is_digit(p[0]))
                        p++;
        }
        if (p < r->end && is_word_char(p[0]))
                return fail(r, "a number");
        len = (size_t)(p - start);
        if (len >= sizeof(text))
                return fail(r, "a number of at most 63 characters");
        memcpy(text, start, len);
        text[len] = '\0';
        errno = 0;
        if (is_float) {
                v->type = RTAPP_JSON_FLOAT;
                v->number = strtod(text, NULL);
                if (!isfinite(v->number)) {
                        v->type = RTAPP_JSON_NULL;
                        return fail(r, "a finite number");
                }
        } else {
                v->type = RTAPP_JSON_INT;
                v->integer = strtoll(text, NULL, 10);
                if (errno == ERANGE) {
                        v->type = RTAPP_JSON_NULL;
                        return fail(r, "an integer that fits in 64 bits");
                }
        }
        r->p = p;
        return 0;
}

static int parse_literal(struct reader *r, struct rtapp_json *v)
{
        static const struct {
                const char *word;
                enum rtapp_json_type type;
                bool value;
        } literals[] = {
                { "true", RTAPP_JSON_BOOL, true },
                { "false", RTAPP_JSON_BOOL, false },
                { "null", RTAPP_JSON_NULL, false },
        };

        for (size_t i = 0; i < sizeof(literals) / sizeof(literals[0]); i++) {
                size_t len = strlen(literals[i].word);

                if ((size_t)(r->end - r->p) >= len && memcmp(r->p, literals[i].word, len) == 0 &&
                    (r->p + len == r->end || !is_word_char(r->p[len]))) {
                        v->type = literals[i].type;
                        v->boolean = literals[i].value;
                        r->p += len;
                        return 0;
                }
        }
        return fail(r, "a value");
}

static int parse_value(struct reader *r, struct rtapp_json *v, unsigned depth);

static int too_deep(struct reader *r, unsigned depth)
{
        if (depth <= RTAPP_JSON_MAX_DEPTH)
                return 0;
        return fail_got(r, "at most 64 nested objects and arrays", "more");
}

static int parse_array(struct reader *r, struct rtapp_json *v, unsigned depth)
{
        struct rtapp_json *items = NULL;
        size_t n = 0, capacity = 0;
        int err;

        err = too_deep(r, depth);
        if (err < 0)
                return err;
        r->p++;
        err = skip_space(r);
        if (err < 0)
                return err;
        if (r->p < r->end && r->p[0] == ']') {
                r->p++;
                goto done;
        }
        for (;;) {
                err = array_grow((void **)&items, n, &capacity, sizeof(*items), 4);
                if (err < 0)
                        break;
                err = parse_value(r, &items[n], depth);
                if (err < 0)
                        break;
                n++;
                err = skip_space(r);
                if (err < 0)
                        break;
                if (r->p < r->end && r->p[0] == ',') {
                        r->p++;
                        err = skip_space(r);
                        if (err < 0)
                                break;
                        /* rt-app files leave trailing commas. */
                        if (r->p < r->end && r->p[0] == ']') {
                                r->p++;
                                break;
                        }
                        continue;
                }
                if (r->p < r->end && r->p[0] == ']') {
                        r->p++;
                        break;
                }
                err = fail(r, "',' or ']'");
                break;
        }
        if (err < 0) {
                for (size_t i = 0; i < n; i++)
                        clear_value(&items[i]);
                free(items);
                return err;
        }
done:
        v->type = RTAPP_JSON_ARRAY;
        v->array.items = items;
        v->array.n = n;
        return 0;
}

static int parse_member(struct reader *r, struct rtapp_json_member *m, unsigned depth)
{
        int err;

        *m = (struct rtapp_json_member){ .line = r->line, .col = reader_col(r) };
        err = parse_string(r, &m->key);
        if (err < 0)
                return err;
        err = skip_space(r);
        if (err < 0)
                goto fail;
        if (r->p < r->end && r->p[0] == ':') {
                r->p++;
                m->has_value = true;
                err = parse_value(r, &m->value, depth);
                if (err < 0)
                        goto fail;
                return 0;
        }
        /* A bare member ("suspend",) is an event without a value. */
        if (r->p < r->end && (r->p[0] == ',' || r->p[0] == '}'))
                return 0;
        err = fail(r, "':', ',' or '}' after the key");
fail:
        free(m->key);
        m->key = NULL;
        return err;
}

static int parse_object(struct reader *r, struct rtapp_json *v, unsigned depth)
{
        struct rtapp_json_member *members = NULL;
        size_t n = 0, capacity = 0;
        int err;

        err = too_deep(r, depth);
        if (err < 0)
                return err;
        r->p++;
        for (;;) {
                err = skip_space(r);
                if (err < 0)
                        break;
                /* Either empty, or after a trailing comma. */
                if (r->p < r->end && r->p[0] == '}') {
                        r->p++;
                        break;
                }
                if (r->p >= r->end || r->p[0] != '"') {
                        err = fail(r, n == 0 ? "a string key or '}'" : "a string key");
                        break;
                }
                err = array_grow((void **)&members, n, &capacity, sizeof(*members), 4);
                if (err < 0)
                        break;
                err = parse_member(r, &members[n], depth);
                if (err < 0)
                        break;
                n++;
                err = skip_space(r);
                if (err < 0)
                        break;
                if (r->p < r->end && r->p[0] == ',') {
                        r->p++;
                        continue;
                }
                if (r->p < r->end && r->p[0] == '}') {
                        r->p++;
                        break;
                }
                err = fail(r, "',' or '}'");
                break;
        }
        if (err < 0) {
                for (size_t i = 0; i < n; i++) {
                        free(members[i].key);
                        clear_value(&members[i].value);
                }
                free(members);
                return err;
        }
        v->type = RTAPP_JSON_OBJECT;
        v->object.members = members;
        v->object.n = n;
        return 0;
}

static int parse_value(struct reader *r, struct rtapp_json *v, unsigned depth)
{
        int err;

        *v = (struct rtapp_json){ .type = RTAPP_JSON_NULL };
        err = skip_space(r);
        if (err < 0)
                return err;
        v->line = r->line;
        v->col = reader_col(r);
        if (r->p >= r->end)
                return fail(r, "a value");
        switch (r->p[0]) {
        case '{':
                return parse_object(r, v, depth + 1);
        case '[':
                return parse_array(r, v, depth + 1);
        case '"':
                err = parse_string(r, &v->string);
                if (err < 0)
                        return err;
                v->type = RTAPP_JSON_STRING;
                return 0;
        default:
                if (r->p[0] == '-' || is_digit(r->p[0]))
                        return parse_number(r, v);
                return parse_literal(r, v);
        }
}

int rtapp_json_parse(struct rtapp_json **ret, const char *filename, const char *text, size_t len,
                     struct bl_diag *diag)
{
        struct reader r = {
                .filename = filename,
                .p = text,
                .end = text + len,
                .line_start = text,
                .line = 1,
                .diag = diag,
        };
        struct rtapp_json *root;
        char got[48];
        int err;

        if (len > RTAPP_JSON_MAX_SIZE) {
                snprintf(got, sizeof(got), "%zu", len);
                return fail_got(&r, "a file of at most 4194304 bytes", got);
        }
        if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
                r.p += 3;
                r.line_start = r.p;
        }
        root = calloc(1, sizeof(*root));
        if (!root)
                return -ENOMEM;
        err = parse_value(&r, root, 0);
        if (err >= 0) {
                err = skip_space(&r);
                if (err >= 0 && r.p < r.end)
                        err = fail(&r, "end of file after the top-level value");
                if (err < 0)
                        clear_value(root);
        }
        if (err < 0) {
                free(root);
                return err;
        }
        *ret = root;
        return 0;
}

void rtapp_json_free(struct rtapp_json *root)
{
        if (!root)
                return;
        clear_value(root);
        free(root);
}

const char *rtapp_json_type_name(enum rtapp_json_type type)
{
        switch (type) {
        case RTAPP_JSON_NULL:
                return "null";
        case RTAPP_JSON_BOOL:
                return "a boolean";
        case RTAPP_JSON_INT:
                return "an integer";
        case RTAPP_JSON_FLOAT:
                return "a number";
        case RTAPP_JSON_STRING:
                return "a string";
        case RTAPP_JSON_ARRAY:
                return "an array";
        case RTAPP_JSON_OBJECT:
                return "an object";
        }
        return "a value";
}
