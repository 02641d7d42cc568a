/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Messages for people, collected rather than printed, so that the core can
 * report every problem in a file at once without doing I/O itself. */

#include <stdarg.h>
#include <stdbool.h>
#include "core/types.h"

#define BL_DIAG_MAX 64
#define BL_DIAG_LEN 320

struct bl_diag {
        unsigned n;             /* stored messages */
        unsigned dropped;       /* messages beyond BL_DIAG_MAX */
        /* Warnings added (stored or dropped): said, but no problem (a
         * configuration with only warnings is used). */
        unsigned nwarnings;
        bool warning[BL_DIAG_MAX];
        char msg[BL_DIAG_MAX][BL_DIAG_LEN];
};

void diag_init(struct bl_diag *d);
void diag_add(struct bl_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A problem at a place: "FILE:LINE: message", or "FILE: message" for line 0
 * (the file as a whole). */
void diag_at(struct bl_diag *d, const char *file, unsigned line, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
void diag_atv(struct bl_diag *d, const char *file, unsigned line, const char *fmt, va_list ap)
        __attribute__((format(printf, 4, 0)));
/* diag_at() for something worth saying that is not a problem. */
void diag_warn_at(struct bl_diag *d, const char *file, unsigned line, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
/* Total messages, stored or not, warnings included. */
unsigned diag_count(const struct bl_diag *d);
/* Of those, the problems (not warnings). */
unsigned diag_problems(const struct bl_diag *d);
