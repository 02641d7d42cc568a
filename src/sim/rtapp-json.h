/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* A reader for rt-app's JSON dialect. The shipped rt-app files are not
 * strict JSON: keys repeat inside one object and their order is the
 * program (several "run" and "sleep" events in a row), an event may be a
 * bare string member ("suspend",), commas may trail, and C comments
 * appear. The reader keeps every member in file order, with the line and
 * column where it starts, so that the model can name the place of a
 * mistake. */

#include "core/diag.h"

#define RTAPP_JSON_MAX_SIZE (4U << 20)         /* bytes of text */
#define RTAPP_JSON_MAX_DEPTH 64                 /* nested objects and arrays */
#define RTAPP_JSON_MAX_STRING 4096              /* bytes of one decoded string */

enum rtapp_json_type {
        RTAPP_JSON_NULL,
        RTAPP_JSON_BOOL,
        RTAPP_JSON_INT,
        RTAPP_JSON_FLOAT,
        RTAPP_JSON_STRING,
        RTAPP_JSON_ARRAY,
        RTAPP_JSON_OBJECT,
};

struct rtapp_json_member;

struct rtapp_json {
        enum rtapp_json_type type;
        unsigned line, col;
        union {
                bool boolean;
                long long integer;
                double number;
                char *string;                   /* UTF-8, NUL-terminated, no NUL inside */
                struct {
                        struct rtapp_json *items;
                        size_t n;
                } array;
                struct {
                        struct rtapp_json_member *members;      /* in file order, duplicates kept */
                        size_t n;
                } object;
        };
};

struct rtapp_json_member {
        char *key;
        unsigned line, col;                     /* of the key */
        bool has_value;                         /* false for a bare "key" member */
        struct rtapp_json value;                /* RTAPP_JSON_NULL when bare */
};

/* Parses 'len' bytes of 'text' (no NUL needed). On success '*ret' is the
 * root value, to be released with rtapp_json_free(). The first syntax error
 * stops the reader: it goes to 'diag' as "FILE:LINE:COL: expected ..., got
 * ..." and -EINVAL is returned; -ENOMEM when memory runs out. Nothing is
 * allocated on failure. */
int rtapp_json_parse(struct rtapp_json **ret, const char *filename, const char *text, size_t len,
                     struct bl_diag *diag);

void rtapp_json_free(struct rtapp_json *root);

/* "an integer", "a string", ... for messages. */
const char *rtapp_json_type_name(enum rtapp_json_type type);
