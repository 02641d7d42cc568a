/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <systemd/sd-journal.h>

#include "common/log.h"

static enum log_target log_target = LOG_TARGET_STDERR;
static int log_max_level = LOG_INFO;

void log_setup(enum log_target target, int max_level)
{
        log_target = target;
        log_max_level = max_level;
}

void log_set_max_level(int max_level)
{
        log_max_level = max_level;
}

bool log_enabled(int level)
{
        return level <= log_max_level;
}

void log_msg(int level, const char *fmt, ...)
{
        va_list ap;

        if (level > log_max_level)
                return;
        va_start(ap, fmt);
        if (log_target == LOG_TARGET_JOURNAL) {
                sd_journal_printv(level, fmt, ap);
        } else {
                /* Plain lines on stderr: people and tests read them. */
                if (level <= LOG_ERR)
                        fputs("error: ", stderr);
                else if (level == LOG_WARNING)
                        fputs("warning: ", stderr);
                vfprintf(stderr, fmt, ap);
                fputc('\n', stderr);
        }
        va_end(ap);
}
