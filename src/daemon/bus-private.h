/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What the files of the bus service share (bus.c: the connection and the
 * announcements; bus-properties.c: the properties and the vtable;
 * bus-methods.c: the methods, the calls that wait, the holders watched).
 * Only they include it. */

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

#include "daemon/bus-auth.h"
#include "daemon/state.h"

#define BUS_NAME "org.bigLittle.Switch1"
#define BUS_PATH "/org/bigLittle/Switch1"
#define BUS_INTERFACE "org.bigLittle.Switch1"
#define BUS_ERROR(name) "org.bigLittle.Switch1.Error." name
#define BUS_DENIED_MESSAGE "not permitted: run as root or grant org.bigLittle.Switch1.manage"


/* The longest a call waits for the switch it caused before it is answered
 * anyway: well within a client's default timeout of 25 s. */
#define BUS_SWITCH_WAIT_USEC (10 * BL_USEC_PER_SEC)

/* HoldWithFlags() flags. */
#define HOLD_FLAG_PERSIST (UINT64_C(1) << 0)
#define HOLD_FLAGS_KNOWN HOLD_FLAG_PERSIST

/* The bus name of a client with non-persistent holds, watched so that its
 * holds end when it leaves the bus. */
struct bus_owner {
        struct bl_bus *b;
        sd_bus_track *track;
        char name[BL_HOLD_OWNER_MAX];
};

enum bus_action {
        ACTION_HOLD,
        ACTION_RELEASE,
        ACTION_RELOAD,
};

/* A checked call that waits for polkit's answer (or is done at once). */
struct request {
        struct request *next;
        struct bl_bus *b;
        sd_bus_message *call;
        sd_bus_slot *slot;              /* the CheckAuthorization() call */
        enum bus_action action;
        struct bus_caller caller;
        /* ACTION_HOLD */
        unsigned level;
        bl_usec_t duration;
        bool persist;
        char reason[BL_HOLD_REASON_MAX];
        /* ACTION_RELEASE */
        uint32_t id;
};

/* A call whose answer waits for the switch it caused (a hold, a release):
 * answered when no switch runs any more, or after BUS_SWITCH_WAIT_USEC. */
struct waiter {
        struct waiter *next;
        struct bl_bus *b;
        sd_bus_message *call;
        sd_event_source *timeout;
        bool has_value;
        uint32_t value;                 /* the "u" the call returns */
};

struct bl_bus {
        struct bl_daemon *d;
        struct waiter *waiters;
        sd_bus *bus;                    /* NULL while the bus is away */
        sd_bus_slot *object;
        sd_bus_slot *filter;            /* watches for the connection's end */
        sd_event_source *reconnect;     /* armed while the bus is away */
        bl_usec_t reconnect_wait;
        unsigned reconnect_tries;
        struct request *pending;
        unsigned nowners;
        struct bus_owner *owners[BL_MAX_HOLDS];
        /* What was last announced, to signal only real changes. */
        char level[BL_STATE_NAME_MAX];
        char target[BL_STATE_NAME_MAX];
        const char *thermal;
        unsigned long switches_told;    /* the history's entries signalled */
};

/* The object's members; its userdata is the struct bl_bus. */
extern const sd_bus_vtable bus_vtable[];

/* The methods (bus-methods.c), for the vtable. */
int bus_method_hold(sd_bus_message *m, void *userdata, sd_bus_error *error);
int bus_method_hold_with_flags(sd_bus_message *m, void *userdata, sd_bus_error *error);
int bus_method_release(sd_bus_message *m, void *userdata, sd_bus_error *error);
int bus_method_release_all(sd_bus_message *m, void *userdata, sd_bus_error *error);
int bus_method_reload(sd_bus_message *m, void *userdata, sd_bus_error *error);
int bus_method_history(sd_bus_message *m, void *userdata, sd_bus_error *error);
int bus_method_describe(sd_bus_message *m, void *userdata, sd_bus_error *error);

/* Answers a call that waited for a switch, and forgets it. */
void bus_waiter_answer(struct waiter *w);
/* Stops watching the holders that have no hold left. */
void bus_owners_prune(struct bl_bus *b);
/* Stops watching holder 'i'. */
void bus_owner_remove(struct bl_bus *b, unsigned i);
/* Frees a request waiting for polkit (its call unanswered). */
void bus_request_free(struct request *q);
