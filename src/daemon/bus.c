/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * org.bigLittle.Switch1: the daemon's state as properties, holds, reload,
 * history and a JSON description as methods, Switched as a signal.
 *
 * Reading is open to everyone. Changing things is decided here, not by the
 * bus policy (which lets everyone call): root may do everything; a caller
 * may always release its own holds; [holds] allow_users = yes lets anyone
 * place holds; anything else is asked of polkit (action
 * org.bigLittle.Switch1.manage) when it is on the bus, and refused when it
 * is not or says no.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "common/log.h"
#include "daemon/actions.h"
#include "daemon/bus-private.h"
#include "daemon/bus.h"
#include "daemon/level.h"

/* After the bus went away, connecting is tried again after 1 s, then at
 * twice the previous wait, up to this: a bus restart is back within a
 * second or two, and a bus that stays away costs a wakeup a minute. */
#define RECONNECT_FIRST_USEC BL_USEC_PER_SEC
#define RECONNECT_MAX_USEC (60 * BL_USEC_PER_SEC)

static void emit_changed(struct bl_bus *b, const char *property)
{
        int r;

        if (!b->bus)
                return;
        r = sd_bus_emit_properties_changed(b->bus, BUS_PATH, BUS_INTERFACE, property, NULL);
        if (r < 0)
                log_debug_errno(r, "bus: cannot announce %s", property);
}

/* Level, TargetLevel and ThermalState are announced when they differ from
 * what was last announced: the daemon says when they may have. */
static void announce_state(struct bl_bus *b)
{
        char name[BL_STATE_NAME_MAX];
        const char *thermal;

        daemon_state_name(b->d, name, sizeof(name));
        if (strcmp(name, b->level) != 0) {
                snprintf(b->level, sizeof(b->level), "%s", name);
                emit_changed(b, "Level");
        }
        daemon_target_name(b->d, name, sizeof(name));
        if (strcmp(name, b->target) != 0) {
                snprintf(b->target, sizeof(b->target), "%s", name);
                emit_changed(b, "TargetLevel");
        }
        thermal = daemon_thermal_state(b->d);
        if (!b->thermal || strcmp(thermal, b->thermal) != 0) {
                b->thermal = thermal;
                emit_changed(b, "ThermalState");
        }
}

/* Drops the connection and what hangs on it: callers waiting for polkit
 * get no answer (the bus tells them we left) and the names watched for
 * their holds are no longer watched. */
static void bus_disconnect(struct bl_bus *b)
{
        while (b->pending) {
                struct request *q = b->pending;

                b->pending = q->next;
                bus_request_free(q);
        }
        while (b->nowners > 0)
                bus_owner_remove(b, b->nowners - 1);
        b->filter = sd_bus_slot_unref(b->filter);
        b->object = sd_bus_slot_unref(b->object);
        if (b->bus)
                sd_bus_flush_close_unref(b->bus);
        b->bus = NULL;
}

static int on_bus_message(sd_bus_message *m, void *userdata, sd_bus_error *error);

/* Connects, publishes the object and takes the name, attached to the loop. */
static int bus_connect(struct bl_bus *b)
{
        int r;

        r = sd_bus_open_system_with_description(&b->bus, "bigLittled");
        if (r >= 0)
                r = sd_bus_add_filter(b->bus, &b->filter, on_bus_message, b);
        if (r >= 0)
                r = sd_bus_add_object_vtable(b->bus, &b->object, BUS_PATH, BUS_INTERFACE, bus_vtable, b);
        /* Synchronously: a second daemon, or a policy that does not let us
         * own the name, is said at once. */
        if (r >= 0)
                r = sd_bus_request_name(b->bus, BUS_NAME, 0);
        if (r >= 0)
                r = sd_bus_attach_event(b->bus, b->d->event, SD_EVENT_PRIORITY_NORMAL);
        if (r < 0)
                bus_disconnect(b);
        return r;
}

static int on_reconnect(sd_event_source *s, uint64_t usec, void *userdata)
{
        struct bl_bus *b = userdata;
        int r = bus_connect(b);

        if (r < 0) {
                b->reconnect_tries++;
                log_debug_errno(r, "bus: reconnecting failed");
                b->reconnect_wait = b->reconnect_wait * 2 > RECONNECT_MAX_USEC ? RECONNECT_MAX_USEC :
                                    b->reconnect_wait * 2;
                r = sd_event_source_set_time(s, usec + b->reconnect_wait);
                if (r >= 0)
                        r = sd_event_source_set_enabled(s, SD_EVENT_ONESHOT);
                if (r < 0)
                        log_error("bus: cannot try to reconnect again: %s; the daemon goes on without the "
                                  "bus", strerror(-r));
                return 0;
        }
        log_notice("bus: connected again after %u failed tries; %s is back", b->reconnect_tries, BUS_NAME);
        b->reconnect = sd_event_source_disable_unref(b->reconnect);
        /* Listeners that came with the new bus learn the state from scratch. */
        emit_changed(b, "Level");
        emit_changed(b, "Holds");
        return 0;
}

/* The bus went away (the connection's Disconnected): switching is the job
 * and goes on; the bus is only its control plane. Holds tied to a client's
 * connection end, as its connection ended too; persistent holds stay. */
static void bus_lost(struct bl_bus *b)
{
        char names[BL_MAX_HOLDS][BL_HOLD_OWNER_MAX];
        unsigned n = b->nowners;
        int r;

        for (unsigned i = 0; i < n; i++)
                snprintf(names[i], sizeof(names[i]), "%s", b->owners[i]->name);
        bus_disconnect(b);
        log_warning("bus: the connection to the D-Bus system bus was lost; switching goes on, status, holds "
                    "and reload over the bus are unavailable until it is back (trying to reconnect)");
        for (unsigned i = 0; i < n; i++)
                daemon_owner_gone(b->d, names[i]);
        b->reconnect_wait = RECONNECT_FIRST_USEC;
        b->reconnect_tries = 0;
        r = sd_event_add_time_relative(b->d->event, &b->reconnect, CLOCK_MONOTONIC, b->reconnect_wait,
                                       BL_USEC_PER_MSEC * 100, on_reconnect, b);
        if (r < 0)
                log_error("bus: cannot arrange to reconnect: %s; the daemon goes on without the bus",
                          strerror(-r));
}

static int on_lost(sd_event_source *s, void *userdata)
{
        struct bl_bus *b = userdata;

        sd_event_source_disable_unref(s);
        bus_lost(b);
        return 0;
}

/* sd-bus says the connection ended with a local Disconnected signal. The
 * connection cannot be dropped from inside its own dispatch: that happens
 * from the loop, at once. */
static int on_bus_message(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        int r;

        (void)error;
        if (!sd_bus_message_is_signal(m, "org.freedesktop.DBus.Local", "Disconnected"))
                return 0;
        r = sd_event_add_defer(b->d->event, NULL, on_lost, b);
        if (r < 0)
                log_error_errno(r, "bus: the connection to the bus was lost and cannot be dropped");
        return 0;
}

/* One Switched signal per switch the history gained since the last: the
 * oldest first. */
static void announce_switches(struct bl_bus *b)
{
        const struct bl_history *h = &b->d->history;
        unsigned long n = h->total - b->switches_told;
        int r;

        if (n > history_count(h))
                n = history_count(h);
        b->switches_told = h->total;
        /* Those made while the bus was away are not signalled after it. */
        if (!b->bus)
                return;
        while (n-- > 0) {
                const struct bl_history_entry *e = history_get(h, (unsigned)n);

                r = sd_bus_emit_signal(b->bus, BUS_PATH, BUS_INTERFACE, "Switched", "sss", e->from, e->to,
                                       e->reason);
                if (r < 0)
                        log_debug_errno(r, "bus: cannot send Switched");
        }
        announce_state(b);
        r = sd_bus_emit_properties_changed(b->bus, BUS_PATH, BUS_INTERFACE, "Switches", "LastReason",
                                           "TimeInLevel", NULL);
        if (r < 0)
                log_debug_errno(r, "bus: cannot announce the switch");
}

static void announce_holds(struct bl_bus *b)
{
        bus_owners_prune(b);
        /* One signal for both: a flood of holds queues no more than before. */
        if (b->bus && sd_bus_emit_properties_changed(b->bus, BUS_PATH, BUS_INTERFACE, "Holds", "WinningHold",
                                                     NULL) < 0)
                log_debug("bus: cannot announce Holds");
}

/* The daemon's changes of one loop iteration (enum bl_change), announced
 * in the order they happen in a switch: the signal, then what it moved,
 * then the calls that waited for it answered. */
static void on_daemon_changed(unsigned what, void *userdata)
{
        struct bl_bus *b = userdata;

        if (what & BL_CHANGE_SWITCHED)
                announce_switches(b);
        if (what & BL_CHANGE_HOLDS)
                announce_holds(b);
        if (what & BL_CHANGE_CONFIG) {
                emit_changed(b, "ConfigFiles");
                emit_changed(b, "ThermalLimits");
                /* [holds] precedence may have changed. */
                emit_changed(b, "WinningHold");
        } else if (what & BL_CHANGE_LIMITS) {
                emit_changed(b, "ThermalLimits");
        }
        if ((what & BL_CHANGE_PROFILE) && b->bus &&
            sd_bus_emit_properties_changed(b->bus, BUS_PATH, BUS_INTERFACE, "PowerProfile", "PowerProfileSource",
                                           "OnBattery", "ProfileAdjustment", NULL) < 0)
                log_debug("bus: cannot announce the power profile");
        if (what & BL_CHANGE_UNREACHABLE)
                emit_changed(b, "Unreachable");
        if (what & (BL_CHANGE_STATE | BL_CHANGE_HOLDS | BL_CHANGE_CONFIG))
                announce_state(b);
        if (what & BL_CHANGE_SWITCH_DONE)
                while (b->waiters)
                        bus_waiter_answer(b->waiters);
}

int bus_open(struct bl_bus **ret, struct bl_daemon *d)
{
        struct bl_bus *b;
        int r;

        b = calloc(1, sizeof(*b));
        if (!b)
                return -ENOMEM;
        b->d = d;
        daemon_state_name(d, b->level, sizeof(b->level));
        daemon_target_name(d, b->target, sizeof(b->target));
        b->thermal = daemon_thermal_state(d);
        b->switches_told = d->history.total;

        r = bus_connect(b);
        if (r >= 0)
                r = daemon_watch_changes(d, on_daemon_changed, b);
        if (r < 0) {
                bus_close(b);
                return r;
        }
        *ret = b;
        return 0;
}

void bus_close(struct bl_bus *b)
{
        if (!b)
                return;
        /* What changed last is still said. */
        if (b->d->on_change_data == b)
                (void)daemon_watch_changes(b->d, NULL, NULL);
        /* Answered: the client would wait for its timeout otherwise. */
        while (b->waiters)
                bus_waiter_answer(b->waiters);
        bus_disconnect(b);
        sd_event_source_disable_unref(b->reconnect);
        free(b);
}
