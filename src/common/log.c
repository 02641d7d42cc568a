/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
/* CODE_FILE= would name this file for every message, not the caller. */
#define SD_JOURNAL_SUPPRESS_LOCATION
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

void log_field(struct log_fields *f, const char *key, const char *fmt, ...)
{
        size_t room = sizeof(f->text) - f->used;
        va_list ap;
        int k, v;

        if (f->n >= LOG_FIELDS_MAX)
                return;
        k = snprintf(f->text + f->used, room, "%s=", key);
        if (k < 0 || (size_t)k >= room)
                return;
        va_start(ap, fmt);
        v = vsnprintf(f->text + f->used + k, room - (size_t)k, fmt, ap);
        va_end(ap);
        /* A cut value would be read as the whole one: none rather. */
        if (v < 0 || (size_t)k + (size_t)v >= room)
                return;
        f->start[f->n++] = f->used;
        f->used += (size_t)k + (size_t)v + 1;
}

/* The journal takes the message and its fields as one datagram: one
 * iovec per field. The message ('suffix' after ": " when there is one) is
 * cut at LINE_MAX, as sd_journal_printv() cuts it. */
static void journal_send(int level, const char *message_id, const struct log_fields *fields,
                         const char *suffix, const char *fmt, va_list ap)
{
        char message[sizeof("MESSAGE=") + LINE_MAX], priority[16], id[64];
        struct iovec iov[3 + LOG_FIELDS_MAX];
        unsigned n = 0;
        size_t used;

        memcpy(message, "MESSAGE=", strlen("MESSAGE="));
        vsnprintf(message + strlen("MESSAGE="), sizeof(message) - strlen("MESSAGE="), fmt, ap);
        used = strlen(message);
        if (suffix)
                snprintf(message + used, sizeof(message) - used, ": %s", suffix);
        iov[n++] = (struct iovec){ .iov_base = message, .iov_len = strlen(message) };
        snprintf(priority, sizeof(priority), "PRIORITY=%d", level);
        iov[n++] = (struct iovec){ .iov_base = priority, .iov_len = strlen(priority) };
        if (message_id) {
                snprintf(id, sizeof(id), "MESSAGE_ID=%s", message_id);
                iov[n++] = (struct iovec){ .iov_base = id, .iov_len = strlen(id) };
        }
        for (unsigned i = 0; fields && i < fields->n; i++) {
                char *field = (char *)fields->text + fields->start[i];

                iov[n++] = (struct iovec){ .iov_base = field, .iov_len = strlen(field) };
        }
        (void)sd_journal_sendv(iov, (int)n);
}

/* 'suffix' (NULL: none) goes after the message and ": ", as a last "%s"
 * of the format would put it. */
static void log_write(int level, const char *message_id, const struct log_fields *fields, const char *suffix,
                      const char *fmt, va_list ap)
{
        if (level > log_max_level)
                return;
        if (log_target == LOG_TARGET_JOURNAL) {
                journal_send(level, message_id, fields, suffix, fmt, ap);
                return;
        }
        /* Plain lines on stderr: people and tests read them. */
        if (level <= LOG_ERR)
                fputs("error: ", stderr);
        else if (level == LOG_WARNING)
                fputs("warning: ", stderr);
        vfprintf(stderr, fmt, ap);
        if (suffix)
                fprintf(stderr, ": %s", suffix);
        fputc('\n', stderr);
}

void log_msg(int level, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        log_write(level, NULL, NULL, NULL, fmt, ap);
        va_end(ap);
}

void log_event(int level, const char *message_id, const struct log_fields *fields, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        log_write(level, message_id, fields, NULL, fmt, ap);
        va_end(ap);
}

int log_errno(int level, int error, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        log_write(level, NULL, NULL, strerror(-error), fmt, ap);
        va_end(ap);
        return error;
}
