/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>

#include "core/diag.h"

void diag_init(struct bl_diag *d)
{
        d->n = 0;
        d->dropped = 0;
        d->nwarnings = 0;
}

static void __attribute__((format(printf, 2, 0))) diag_addv(struct bl_diag *d, const char *fmt, va_list ap)
{
        if (d->n >= BL_DIAG_MAX) {
                d->dropped++;
                return;
        }
        d->warning[d->n] = false;
        vsnprintf(d->msg[d->n++], BL_DIAG_LEN, fmt, ap);
}

void diag_add(struct bl_diag *d, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        diag_addv(d, fmt, ap);
        va_end(ap);
}

void diag_atv(struct bl_diag *d, const char *file, unsigned line, const char *fmt, va_list ap)
{
        char msg[BL_DIAG_LEN];

        vsnprintf(msg, sizeof(msg), fmt, ap);
        if (line)
                diag_add(d, "%s:%u: %s", file, line, msg);
        else
                diag_add(d, "%s: %s", file, msg);
}

void diag_at(struct bl_diag *d, const char *file, unsigned line, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        diag_atv(d, file, line, fmt, ap);
        va_end(ap);
}

void diag_warn_at(struct bl_diag *d, const char *file, unsigned line, const char *fmt, ...)
{
        unsigned stored = d->n;
        va_list ap;

        va_start(ap, fmt);
        diag_atv(d, file, line, fmt, ap);
        va_end(ap);
        d->nwarnings++;
        if (d->n > stored)
                d->warning[stored] = true;
}

unsigned diag_count(const struct bl_diag *d)
{
        return d->n + d->dropped;
}

unsigned diag_problems(const struct bl_diag *d)
{
        return diag_count(d) - d->nwarnings;
}
