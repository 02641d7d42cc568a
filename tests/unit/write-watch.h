/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* A kernel that refuses or clamps writes, for the backends' unit tests.
 * Linking write-watch.c overrides libc's write() for the whole test program
 * (the backends are linked in statically): for a watched file it counts the
 * writes, fails them with a chosen errno, or stores another value than the
 * one written, as a kernel does when a thermal limit is tighter than the
 * request. It also records the order of the writes to watched files.
 * Every other write goes through untouched. */

#include <sys/types.h>

#define WRITE_WATCH_MAX 8

struct write_watch {
        dev_t dev;
        ino_t ino;
        char name[32];          /* for messages; the test may set it */
        unsigned writes;        /* write() calls on it */
        unsigned fail_next;     /* this many of them fail with 'error' */
        int error;              /* EBUSY unless set */
        const char *clamp;      /* stored instead of what is written */
};

/* Watches the file at 'path' (a real path, not one the preload redirects).
 * Fails the test when the file is missing or WRITE_WATCH_MAX are in use. */
struct write_watch *write_watch_add(const char *path);

/* Forgets every watch and the order; fixtures call it before each test. */
void write_watch_reset(void);

/* The writes to watched files since the last reset or clear, in order, as
 * "NAME=VALUE, NAME=VALUE" (refused ones included). */
const char *write_watch_order(void);
void write_watch_clear_order(void);
