/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Logging to the journal, or to stderr with --foreground. */

#include <stdbool.h>
#include <stddef.h>
#include <syslog.h>

enum log_target {
        LOG_TARGET_JOURNAL,
        LOG_TARGET_STDERR,
};

void log_setup(enum log_target target, int max_level);
void log_set_max_level(int max_level);
/* Whether messages of 'level' go anywhere: costly ones are built only then. */
bool log_enabled(int level);
void log_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_notice(...) log_msg(LOG_NOTICE, __VA_ARGS__)
#define log_warning(...) log_msg(LOG_WARNING, __VA_ARGS__)
#define log_error(...) log_msg(LOG_ERR, __VA_ARGS__)

/* log_msg() of the message, ": " and strerror(-error), for the negative
 * errno the functions here return. Returns 'error', so that a failure is
 * logged and passed up in one statement: return log_error_errno(r, "...");. */
int log_errno(int level, int error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define log_debug_errno(error, ...) log_errno(LOG_DEBUG, error, __VA_ARGS__)
#define log_info_errno(error, ...) log_errno(LOG_INFO, error, __VA_ARGS__)
#define log_notice_errno(error, ...) log_errno(LOG_NOTICE, error, __VA_ARGS__)
#define log_warning_errno(error, ...) log_errno(LOG_WARNING, error, __VA_ARGS__)
#define log_error_errno(error, ...) log_errno(LOG_ERR, error, __VA_ARGS__)

/* The journal fields of one event ("BIGLITTLE_TO=big", ...), beside its
 * message: what `journalctl MESSAGE_ID=...` filters and scripts read. A
 * field that does not fit is left out (the message still says it).
 * Start from LOG_FIELDS_INIT. */
#define LOG_FIELDS_MAX 16
#define LOG_FIELDS_TEXT 1024
struct log_fields {
        unsigned n;
        size_t used;
        size_t start[LOG_FIELDS_MAX];
        char text[LOG_FIELDS_TEXT];
};
#define LOG_FIELDS_INIT { .n = 0 }

/* Adds "KEY=value"; key is upper case, as the journal wants. */
void log_field(struct log_fields *f, const char *key, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
/* log_msg() with a MESSAGE_ID (32 hex digits, daemon/message-ids.h) and
 * 'fields' for the journal; on stderr it reads as log_msg(). */
void log_event(int level, const char *message_id, const struct log_fields *fields, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
