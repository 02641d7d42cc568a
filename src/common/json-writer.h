/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Writes JSON into a growing buffer, placing the commas by nesting. Errors
 * (-ENOMEM, too deep) stick: check j.error once at the end; j.buf is then
 * the caller's to free either way. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 8

struct json {
        char *buf;
        size_t len, size;
        int error;
        unsigned depth;
        bool first[JSON_MAX_DEPTH];     /* nothing written yet in this container */
        bool after_key;
};

void json_open(struct json *j, char c);          /* '{' or '[' */
void json_close(struct json *j, char c);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);
void json_uint(struct json *j, uint64_t v);
void json_int(struct json *j, int64_t v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* Three decimals; NaN and infinity become null. */
void json_double(struct json *j, double v);
