/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The switches the daemon made, newest last, in a ring of fixed size: what
 * `switchctl history` and the bus's History() show, with each reason. */

#include "core/types.h"

#define BL_HISTORY_MAX 512
#define BL_STATE_NAME_MAX 72            /* a level's name, or one letter per pair */

struct bl_history_entry {
        bl_usec_t when;                 /* CLOCK_MONOTONIC */
        uint64_t when_wall;             /* CLOCK_REALTIME µs */
        char from[BL_STATE_NAME_MAX];
        char to[BL_STATE_NAME_MAX];
        char reason[BL_REASON_MAX];
};

struct bl_history {
        unsigned long total;            /* entries ever added */
        unsigned head;                  /* where the next one goes */
        struct bl_history_entry e[BL_HISTORY_MAX];
};

void history_init(struct bl_history *h);

/* Strings are truncated to fit. */
void history_add(struct bl_history *h, bl_usec_t when, uint64_t when_wall, const char *from, const char *to,
                 const char *reason);

/* How many entries are kept (at most BL_HISTORY_MAX). */
unsigned history_count(const struct bl_history *h);

/* The i-th newest entry kept (0 = the newest), or NULL. */
const struct bl_history_entry *history_get(const struct bl_history *h, unsigned i);
