/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What rtapp-compile.c keeps while it walks an rt-app file's tree: where
 * it is (for the errors it reports), the timer refs and the references
 * resolved once every task is known; and how it reads a value and gives a
 * condition, barrier or timer its index. */

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "sim/rtapp-model.h"
#include "sim/rtapp-json.h"

#define RTAPP_MAX_NAMES 4096U           /* per kind: tasks, conditions, timers, barriers */

struct unique_ref {
        unsigned task, slot;
        char *name;
        bool absolute;
};

struct shared_timer {
        char *name;
        bool absolute;
};

struct late_ref {
        size_t event;
        unsigned task;
        const char *name;               /* in the tree */
        unsigned line;
};

struct builder {
        struct rtapp *ra;
        const char *filename;
        struct bl_diag *diag;
        char where[128];
        struct unique_ref *uniques;
        size_t nuniques, uniques_cap;
        struct shared_timer *shared;
        size_t nshared, shared_cap;
        struct late_ref *late;          /* forks and resumes, resolved once every task is known */
        size_t nlate, late_cap;
};

/* "FILE:LINE: [WHERE: ]MESSAGE" into the builder's diag. */
void rtapp_model_error(struct builder *b, unsigned line, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

/* The member's value as an error shows it: 42, "text", an object, nothing. */
void rtapp_describe(const struct rtapp_json_member *m, char *buf, size_t size);

/* Reports "KEY: expected WHAT, got VALUE" at the member's line. */
void rtapp_bad_value(struct builder *b, const struct rtapp_json_member *m, const char *what);

/* The member's value if it is of that type (and range); false or NULL
 * otherwise. rtapp_get_usec() reports what it refuses. */
bool rtapp_get_int(const struct rtapp_json_member *m, long long min, long long max, long long *ret);
bool rtapp_get_usec(struct builder *b, const struct rtapp_json_member *m, bl_usec_t min, bl_usec_t *ret);
const char *rtapp_get_string(const struct rtapp_json_member *m);

/* Index of the task called 'name', or -1. */
int rtapp_find_task(const struct rtapp *ra, const char *name);

/* Index of a named condition, barrier or shared timer, or of the entry of
 * b->uniques for a per-instance timer of 'task' (its slot in the task is
 * the entry's), created on first use; -E2BIG past RTAPP_MAX_NAMES, -ENOMEM. */
int rtapp_intern_cond(struct rtapp *ra, const char *name);
int rtapp_intern_barrier(struct rtapp *ra, const char *name);
int rtapp_intern_shared_timer(struct builder *b, const char *name);
int rtapp_intern_unique_timer(struct builder *b, unsigned task, const char *name);

/* Turns an rtapp_intern_*() result 'r' into 0 with the index in 'ret', 1
 * (E2BIG, reported as a model error) or -ENOMEM. */
int rtapp_interned(struct builder *b, const struct rtapp_json_member *m, int r, unsigned *ret);

/* A fork or resume of event 'event' naming 'name', resolved by the caller
 * once every task is known; -ENOMEM. */
int rtapp_add_late(struct builder *b, size_t event, unsigned task, const char *name, unsigned line);

void rtapp_builder_free(struct builder *b);
