/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* A tiny JSON reader for what the daemon and the tools print (json-reader.c). */

#include <stdbool.h>

/* Whether 'text' is one valid RFC 8259 document (and nothing after it). */
bool json_valid(const char *text);
/* The value at a path of member names and array indexes ("holds.0.reason")
 * in a valid document, or NULL. */
const char *json_get(const char *text, const char *path);
/* The string or number at 'path'; fails the test when it is not one. The
 * string is a static buffer, valid until the next call. */
const char *json_get_string(const char *text, const char *path);
double json_get_number(const char *text, const char *path);
