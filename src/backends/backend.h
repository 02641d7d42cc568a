/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* A backend makes the kernel run work on the CPUs a level (or, in pair
 * mode, the pairs' levels together) selects, verifies it, and on close
 * restores exactly what it found. apply() is all or nothing: on failure the
 * kernel is back in the previous state. */

#include "core/config.h"
#include "core/diag.h"
#include "core/ladder.h"
#include "core/switch-cost.h"

/* apply()'s answer when the kernel took the writes but nothing changed (a
 * cpufreq cap on a policy with one operating point, a CPU that stays
 * online): the kernel is back where it was, and trying again will not help.
 * Positive: not an error, a fact the caller must handle. */
#define BL_BACKEND_NO_EFFECT 1

struct bl_backend;

struct bl_backend_ops {
        const char *name;
        /* Optional, for the backends auto may pick: whether this one can
         * switch the machine 't'. Returns true with 'why' saying why, or
         * false with 'why' saying why not ("" when there is nothing worth
         * saying). */
        bool (*probe)(const struct bl_topology *t, char *why, size_t size);
        /* Records the state it may change. 'cfg' holds the backends' own
         * settings ([cpuset]); backends without any accept NULL. Problems
         * go to 'diag'; so do warnings when it succeeds. */
        int (*open)(struct bl_backend **ret, const struct bl_topology *t, const struct bl_ladder *l,
                    const struct bl_config *cfg, struct bl_diag *diag);
        /* 'detail' receives a short description of the writes made.
         * Returns 0, a negative errno, or BL_BACKEND_NO_EFFECT ('detail'
         * then says what the kernel ignored). */
        int (*apply)(struct bl_backend *b, const bl_cpumask *cpus, char *detail, size_t size);
        /* Puts back what open() found. */
        int (*restore)(struct bl_backend *b, char *detail, size_t size);
        void (*free)(struct bl_backend *b);
        /* Optional, for backends that change the kernel: what open() recorded,
         * as "key=value" lines, so that a later run can put it back after a
         * crash. Returns 0, or -ENOBUFS when 'size' is too small. */
        int (*save)(struct bl_backend *b, char *buf, size_t size);
        /* Puts back state that save() described, on a machine where no
         * backend is open. Changes nothing when 'text' is not understood:
         * returns -EINVAL and 'detail' starts with the key at fault and a
         * colon ("online: ..."). Otherwise 'detail' says what was done, as
         * restore() does. */
        int (*restore_saved)(const struct bl_topology *t, const char *text, char *detail, size_t size);
        /* Optional: someone else changed these CPUs while the backend was
         * open (an administrator took one offline or brought it back). What
         * they set is what restore() puts back for them, so that leaving
         * does not undo their change. Returns 0 or the read's -errno. */
        int (*adopt)(struct bl_backend *b, const bl_cpumask *cpus);
        /* Optional, for backends that take CPUs on and offline: the online
         * CPUs as its last open(), apply() or restore() found or left them,
         * without asking the kernel again (it read them as it wrote). */
        void (*online)(const struct bl_backend *b, bl_cpumask *online);
        /* What one switch is believed to cost before any is measured: the
         * start of the daemon's estimate (core/switch-cost.h). */
        struct bl_switch_cost prior;
};

/* (saved-value.c) The value of the one setting a backend saves: 'text'
 * must be exactly one line "KEY=VALUE" with KEY == 'key'. 'text' is cut in
 * place and '*value' points into it. Returns 0, or -EINVAL with 'detail'
 * starting with the key at fault ("online: given twice", "bogus: not a
 * setting of the hotplug backend"), as restore_saved() reports it. */
int backend_saved_value(char *text, const char *key, const char *backend, char **value, char *detail,
                        size_t size);

/* (saved-value.c) A saved list of numbers, as cpufreq and switcher keep
 * their limits: "KEY=A:B B:C ...\n", 'per' numbers to an item, 'n' items
 * from 'values' in a row. Returns 0, or -ENOBUFS when 'size' is too small. */
int backend_save_list(char *buf, size_t size, const char *key, const unsigned *values, unsigned n, unsigned per);

/* How backend_saved_list() reads a list backend_save_list() wrote. */
struct backend_saved_form {
        const char *key;        /* "scaling_max_freq" */
        const char *item;       /* the item's form for people: "POLICY:KHZ" */
        unsigned per;           /* numbers to an item (at most 3) */
        unsigned max;           /* items at most, */
        const char *too_many;   /* and what more of them are: "more policies than CPUs" */
        const char *none;       /* what no item at all is: "no policy" */
        /* Whether the numbers make sense (a limit of 0 does not). */
        bool (*valid)(const uint32_t *f);
        /* Takes item 'i' (checks it against the machine); returns 0, or
         * -EINVAL with 'detail' saying why. */
        int (*take)(void *ctx, unsigned i, const uint32_t *f, char *detail, size_t size);
};

/* Reads 'value' (cut in place) item by item, in order, into 'take'.
 * Returns the number of items, or -EINVAL with 'detail' starting with the
 * key ("scaling_max_freq: expected POLICY:KHZ, got \"x\""). */
int backend_saved_list(char *value, const struct backend_saved_form *form, void *ctx, char *detail,
                       size_t size);

extern const struct bl_backend_ops backend_hotplug;
extern const struct bl_backend_ops backend_cpuset;
extern const struct bl_backend_ops backend_cpufreq;
extern const struct bl_backend_ops backend_dryrun;
extern const struct bl_backend_ops backend_switcher;

/* The online CPUs among 'cpus' as the backend last left them when it has
 * online(), read from the kernel otherwise (a backend that does not take
 * CPUs offline may still run beside someone who does). Returns 0 or the
 * first unreadable CPU's -errno ('online' then unchanged). */
int backend_online(const struct bl_backend_ops *ops, const struct bl_backend *b, const bl_cpumask *cpus,
                   bl_cpumask *online);

/* The online CPUs among 'cpus', read from the kernel: for what the daemon
 * did not do itself. Returns 0 or the first unreadable CPU's -errno. */
int backend_read_online(const bl_cpumask *cpus, bl_cpumask *online);

/* The backend for a configured kind; for auto, the first of the backends
 * auto may pick (the switcher, hotplug, cpufreq, in that order) whose
 * probe() says yes, 'why' saying why. Returns NULL (and says why) when
 * none does, or for kinds this version does not have. */
const struct bl_backend_ops *backend_select(enum bl_backend_kind kind, const struct bl_topology *t,
                                            char *why, size_t size);
