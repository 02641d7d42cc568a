/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Holds: manual overrides of the automatic choice, each with an owner, a
 * reason and an expiry. When several are in force, one wins by the
 * precedence configured ([holds] precedence, the newest by default);
 * thermal limits still win over it (the engine applies them). Pure
 * bookkeeping: who may place or release a hold is decided at the edge (the
 * bus), and time is passed in. */

#include "core/types.h"

#define BL_MAX_HOLDS 64
#define BL_MAX_HOLDS_PER_UID 8
#define BL_HOLD_REASON_MAX 256
#define BL_HOLD_UNIT_MAX 128
#define BL_HOLD_OWNER_MAX 64

/* Which hold wins when several are in force. Among holds of the same
 * level, lowest and highest pick the newest, so every rule names one. */
enum bl_hold_precedence {
        BL_HOLD_NEWEST,                 /* the last one placed */
        BL_HOLD_LOWEST,                 /* the most power-saving level */
        BL_HOLD_HIGHEST,                /* the fastest level */
};

/* Room for holds_explain()'s text ("lowest level of 64"). */
#define BL_HOLD_WHY_MAX 32

struct bl_hold {
        uint32_t id;
        unsigned level;                 /* index into the ladder */
        uint32_t uid;
        int32_t pid;                    /* 0 when unknown */
        char unit[BL_HOLD_UNIT_MAX];    /* the owner's systemd unit, "" when unknown */
        char owner[BL_HOLD_OWNER_MAX];  /* bus name that placed it; "" once it no longer matters */
        char reason[BL_HOLD_REASON_MAX];
        bool persist;                   /* survives its owner leaving and a daemon restart */
        bl_usec_t since;                /* CLOCK_MONOTONIC */
        bl_usec_t until;                /* CLOCK_MONOTONIC; the hold ends at it */
        uint64_t since_wall;            /* CLOCK_REALTIME µs, for people and for persistence */
        uint64_t until_wall;
};

struct bl_holds {
        unsigned n;                     /* oldest first */
        struct bl_hold h[BL_MAX_HOLDS];
        uint32_t next_id;               /* the id the next hold gets (never 0) */
};

void holds_init(struct bl_holds *hs);

/* Adds a copy of 'h' with a fresh id, returned in '*id'. Returns 0,
 * -EUSERS when its uid already holds BL_MAX_HOLDS_PER_UID, -ENOSPC when
 * BL_MAX_HOLDS are in force, -EINVAL when until <= since. */
int holds_add(struct bl_holds *hs, const struct bl_hold *h, uint32_t *id);

/* Adds a hold read back after a restart with its own id (ids stay unique:
 * next_id moves past it). Returns as holds_add(), or -EEXIST. */
int holds_restore(struct bl_holds *hs, const struct bl_hold *h);

/* The hold with 'id', or NULL. */
const struct bl_hold *holds_find(const struct bl_holds *hs, uint32_t id);

/* Removes the hold with 'id'. Returns 0 or -ENOENT. */
int holds_release(struct bl_holds *hs, uint32_t id);

/* Removes every hold of 'uid' (or every hold, with 'all'); returns how many. */
unsigned holds_release_uid(struct bl_holds *hs, uint32_t uid, bool all);

/* Removes the holds placed by bus name 'owner' that did not ask to
 * persist; returns how many. */
unsigned holds_release_owner(struct bl_holds *hs, const char *owner);

/* Removes the holds whose time is up at 'now'; returns how many. Their ids
 * are written to 'ids' (room for 'size'), for the log. */
unsigned holds_expire(struct bl_holds *hs, bl_usec_t now, uint32_t *ids, unsigned size);

/* The hold in force by 'precedence', or NULL when there is none. */
const struct bl_hold *holds_current(const struct bl_holds *hs, enum bl_hold_precedence precedence);

/* Why holds_current() chose its hold, for people: "only hold", "newest of
 * 3", "lowest level of 2"; "" when no hold is in force. */
void holds_explain(const struct bl_holds *hs, enum bl_hold_precedence precedence, char *buf, size_t size);

const char *hold_precedence_to_string(enum bl_hold_precedence p);

/* When the next hold ends, or 0 when none is in force. */
bl_usec_t holds_next_expiry(const struct bl_holds *hs);
