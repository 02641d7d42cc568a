/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/holds.h"

void holds_init(struct bl_holds *hs)
{
        memset(hs, 0, sizeof(*hs));
        hs->next_id = 1;
}

static unsigned count_uid(const struct bl_holds *hs, uint32_t uid)
{
        unsigned n = 0;

        for (unsigned i = 0; i < hs->n; i++)
                n += hs->h[i].uid == uid;
        return n;
}

static int check_room(const struct bl_holds *hs, const struct bl_hold *h)
{
        if (h->until <= h->since)
                return -EINVAL;
        if (count_uid(hs, h->uid) >= BL_MAX_HOLDS_PER_UID)
                return -EUSERS;
        if (hs->n >= BL_MAX_HOLDS)
                return -ENOSPC;
        return 0;
}

static void append(struct bl_holds *hs, const struct bl_hold *h, uint32_t id)
{
        struct bl_hold *slot = &hs->h[hs->n++];

        *slot = *h;
        slot->id = id;
        /* Copies of strings from outside must end inside their arrays. */
        slot->unit[sizeof(slot->unit) - 1] = '\0';
        slot->owner[sizeof(slot->owner) - 1] = '\0';
        slot->reason[sizeof(slot->reason) - 1] = '\0';
}

int holds_add(struct bl_holds *hs, const struct bl_hold *h, uint32_t *id)
{
        int r = check_room(hs, h);

        if (r < 0)
                return r;
        *id = hs->next_id++;
        if (hs->next_id == 0)
                hs->next_id = 1;
        append(hs, h, *id);
        return 0;
}

int holds_restore(struct bl_holds *hs, const struct bl_hold *h)
{
        int r;

        if (h->id == 0 || holds_find(hs, h->id))
                return -EEXIST;
        r = check_room(hs, h);
        if (r < 0)
                return r;
        append(hs, h, h->id);
        if (h->id >= hs->next_id)
                hs->next_id = h->id + 1 ? h->id + 1 : 1;
        return 0;
}

const struct bl_hold *holds_find(const struct bl_holds *hs, uint32_t id)
{
        for (unsigned i = 0; i < hs->n; i++)
                if (hs->h[i].id == id)
                        return &hs->h[i];
        return NULL;
}

static void remove_at(struct bl_holds *hs, unsigned i)
{
        memmove(&hs->h[i], &hs->h[i + 1], (hs->n - i - 1) * sizeof(hs->h[0]));
        hs->n--;
}

int holds_release(struct bl_holds *hs, uint32_t id)
{
        for (unsigned i = 0; i < hs->n; i++)
                if (hs->h[i].id == id) {
                        remove_at(hs, i);
                        return 0;
                }
        return -ENOENT;
}

unsigned holds_release_uid(struct bl_holds *hs, uint32_t uid, bool all)
{
        unsigned n = 0;

        for (unsigned i = hs->n; i-- > 0;)
                if (all || hs->h[i].uid == uid) {
                        remove_at(hs, i);
                        n++;
                }
        return n;
}

unsigned holds_release_owner(struct bl_holds *hs, const char *owner)
{
        unsigned n = 0;

        if (!owner || !owner[0])
                return 0;
        for (unsigned i = hs->n; i-- > 0;)
                if (!hs->h[i].persist && strcmp(hs->h[i].owner, owner) == 0) {
                        remove_at(hs, i);
                        n++;
                }
        return n;
}

unsigned holds_expire(struct bl_holds *hs, bl_usec_t now, uint32_t *ids, unsigned size)
{
        unsigned n = 0;

        for (unsigned i = 0; i < hs->n;) {
                if (hs->h[i].until > now) {
                        i++;
                        continue;
                }
                if (n < size)
                        ids[n] = hs->h[i].id;
                n++;
                remove_at(hs, i);
        }
        return n;
}

const struct bl_hold *holds_current(const struct bl_holds *hs, enum bl_hold_precedence precedence)
{
        const struct bl_hold *best = NULL;

        /* Newest first, so that a level held twice goes to its newest hold. */
        for (unsigned i = hs->n; i-- > 0;) {
                const struct bl_hold *h = &hs->h[i];

                if (!best || (precedence == BL_HOLD_LOWEST && h->level < best->level) ||
                    (precedence == BL_HOLD_HIGHEST && h->level > best->level))
                        best = h;
                if (precedence == BL_HOLD_NEWEST)
                        break;
        }
        return best;
}

const char *hold_precedence_to_string(enum bl_hold_precedence p)
{
        switch (p) {
        case BL_HOLD_NEWEST:
                return "newest";
        case BL_HOLD_LOWEST:
                return "lowest";
        case BL_HOLD_HIGHEST:
                return "highest";
        }
        return "?";
}

void holds_explain(const struct bl_holds *hs, enum bl_hold_precedence precedence, char *buf, size_t size)
{
        if (hs->n == 0)
                snprintf(buf, size, "%s", "");
        else if (hs->n == 1)
                snprintf(buf, size, "only hold");
        else if (precedence == BL_HOLD_NEWEST)
                snprintf(buf, size, "newest of %u", hs->n);
        else
                snprintf(buf, size, "%s level of %u", hold_precedence_to_string(precedence), hs->n);
}

bl_usec_t holds_next_expiry(const struct bl_holds *hs)
{
        bl_usec_t next = 0;

        for (unsigned i = 0; i < hs->n; i++)
                if (next == 0 || hs->h[i].until < next)
                        next = hs->h[i].until;
        return next;
}
