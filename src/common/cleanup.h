/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Release bound to a variable's scope: what a variable declared with one of
 * these holds is freed, closed or handed to f when the variable goes out of
 * scope, so that every return path of a function releases what it took.
 * f is called with the variable's address. */

#include <stdlib.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))

static inline void freep(void *p)
{
        free(*(void **)p);
}

static inline void closep(int *fd)
{
        if (*fd >= 0)
                close(*fd);
}

#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
