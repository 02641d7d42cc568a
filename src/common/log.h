/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Logging to the journal, or to stderr with --foreground. */

#include <stdbool.h>
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
