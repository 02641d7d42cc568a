/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <string.h>

#include "core/history.h"

void history_init(struct bl_history *h)
{
        memset(h, 0, sizeof(*h));
}

void history_add(struct bl_history *h, bl_usec_t when, uint64_t when_wall, const char *from, const char *to,
                 const char *reason)
{
        struct bl_history_entry *e = &h->e[h->head];

        e->when = when;
        e->when_wall = when_wall;
        snprintf(e->from, sizeof(e->from), "%s", from);
        snprintf(e->to, sizeof(e->to), "%s", to);
        snprintf(e->reason, sizeof(e->reason), "%s", reason);
        h->head = (h->head + 1) % BL_HISTORY_MAX;
        h->total++;
}

unsigned history_count(const struct bl_history *h)
{
        return h->total < BL_HISTORY_MAX ? (unsigned)h->total : BL_HISTORY_MAX;
}

const struct bl_history_entry *history_get(const struct bl_history *h, unsigned i)
{
        if (i >= history_count(h))
                return NULL;
        return &h->e[(h->head + BL_HISTORY_MAX - 1 - i) % BL_HISTORY_MAX];
}
