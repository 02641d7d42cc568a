/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The services are watched on a connection of this file's own, so that
 * org.bigLittle.Switch1 (bus.c) and its reconnecting stay as they are.
 *
 * For each service: NameOwnerChanged says when it appears and vanishes,
 * GetNameOwner() at start whether it is there already, and then one
 * Properties.Get() of its property, answered asynchronously: the loop's
 * tick never waits for a service. PropertiesChanged keeps the value
 * current; it is taken only from the name's owner of the moment, so
 * nobody else on the bus can speak for the service. When a service
 * vanishes, what it said is forgotten and its adjustment ends.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

#include "common/log.h"
#include "daemon/config-load.h"
#include "daemon/desktop.h"
#include "daemon/level.h"

#define DBUS_NAME "org.freedesktop.DBus"
#define DBUS_PATH "/org/freedesktop/DBus"
#define PROPERTIES_INTERFACE "org.freedesktop.DBus.Properties"

/* After the bus went away, connecting again is tried after 1 s, then at
 * twice the previous wait, up to a minute (as bus.c does). */
#define RECONNECT_FIRST_USEC BL_USEC_PER_SEC
#define RECONNECT_MAX_USEC (60 * BL_USEC_PER_SEC)

enum service_kind {
        SERVICE_PPD,            /* power-profiles-daemon under its current name */
        SERVICE_PPD_OLD,        /* and under the name of its versions before 0.20 */
        SERVICE_UPOWER,
        NSERVICES,
};

struct service_desc {
        const char *name, *path, *interface, *property;
        const char *label;      /* who said it, for people */
};

static const struct service_desc services[NSERVICES] = {
        [SERVICE_PPD] = { "org.freedesktop.UPower.PowerProfiles", "/org/freedesktop/UPower/PowerProfiles",
                          "org.freedesktop.UPower.PowerProfiles", "ActiveProfile", "power-profiles-daemon" },
        [SERVICE_PPD_OLD] = { "net.hadess.PowerProfiles", "/net/hadess/PowerProfiles", "net.hadess.PowerProfiles",
                              "ActiveProfile", "net.hadess.PowerProfiles" },
        [SERVICE_UPOWER] = { "org.freedesktop.UPower", "/org/freedesktop/UPower", "org.freedesktop.UPower",
                             "OnBattery", "UPower" },
};

struct service {
        struct bl_desktop_watch *w;
        enum service_kind kind;
        char owner[BL_HOLD_OWNER_MAX];  /* its unique name; "" while it is not on the bus */
        int value;                      /* enum bl_ppd_profile or enum bl_battery; 0: unknown */
        sd_bus_slot *owner_match, *changed_match, *query;
};

struct bl_desktop_watch {
        struct bl_daemon *d;
        sd_bus *bus;
        sd_bus_slot *disconnected;
        sd_event_source *reconnect;     /* armed while the bus is away */
        bl_usec_t reconnect_wait;
        struct service s[NSERVICES];
};

static void watch_changed(struct bl_desktop_watch *w)
{
        const struct service *ppd = &w->s[SERVICE_PPD], *old = &w->s[SERVICE_PPD_OLD];
        /* Versions from 0.20 on answer under both names: the current one
         * speaks for them while it knows a profile. */
        const struct service *from = ppd->value != BL_PPD_UNKNOWN ? ppd : old;
        struct bl_desktop in = {
                .profile = (enum bl_ppd_profile)from->value,
                .battery = (enum bl_battery)w->s[SERVICE_UPOWER].value,
        };

        if (in.profile != BL_PPD_UNKNOWN)
                snprintf(in.profile_source, sizeof(in.profile_source), "%s", services[from->kind].label);
        if (in.profile == w->d->desktop_in.profile && in.battery == w->d->desktop_in.battery &&
            strcmp(in.profile_source, w->d->desktop_in.profile_source) == 0)
                return;
        w->d->desktop_in = in;
        desktop_apply(w->d);
}

/* The property's value out of a variant; 'm' is at the variant. */
static int read_value(struct service *s, sd_bus_message *m)
{
        const char *profile;
        int on_battery, r;

        if (s->kind == SERVICE_UPOWER) {
                r = sd_bus_message_read(m, "v", "b", &on_battery);
                if (r >= 0)
                        s->value = on_battery ? BL_BATTERY_YES : BL_BATTERY_NO;
                return r;
        }
        r = sd_bus_message_read(m, "v", "s", &profile);
        if (r < 0)
                return r;
        s->value = ppd_profile_from_string(profile);
        if (s->value == BL_PPD_UNKNOWN)
                log_notice("desktop: %s: profile \"%s\" is none this daemon knows; no adjustment",
                           services[s->kind].label, profile);
        return r;
}

static int on_value(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
        struct service *s = userdata;
        const sd_bus_error *e = sd_bus_message_get_error(m);

        s->query = sd_bus_slot_unref(s->query);
        if (e) {
                log_info("desktop: %s: %s unreadable: %s", services[s->kind].label, services[s->kind].property,
                         e->message);
                return 0;
        }
        if (read_value(s, m) < 0)
                log_info("desktop: %s: %s is not of the type expected", services[s->kind].label,
                         services[s->kind].property);
        watch_changed(s->w);
        return 0;
}

static void ask_value(struct service *s)
{
        const struct service_desc *sd = &services[s->kind];
        int r;

        s->query = sd_bus_slot_unref(s->query);
        r = sd_bus_call_method_async(s->w->bus, &s->query, s->owner, sd->path, PROPERTIES_INTERFACE, "Get",
                                     on_value, s, "ss", sd->interface, sd->property);
        if (r < 0)
                log_warning_errno(r, "desktop: cannot ask %s for %s", sd->label, sd->property);
}

/* The name has a new owner, or none (""). */
static void set_owner(struct service *s, const char *owner)
{
        const struct service_desc *sd = &services[s->kind];

        if (strcmp(owner, s->owner) == 0)
                return;
        if (owner[0])
                log_info("desktop: %s is on the bus (%s as %s)", sd->label, sd->name, owner);
        else {
                log_info("desktop: %s left the bus; its adjustment ends", sd->label);
                /* A process leaving loses all its names, one signal each:
                 * what it said under its other name (power-profiles-daemon
                 * owns both) is not taken for a moment as its last word. */
                for (unsigned i = 0; i < NSERVICES; i++)
                        if (s->w->s[i].owner[0] && strcmp(s->w->s[i].owner, s->owner) == 0)
                                s->w->s[i].value = 0;
        }
        snprintf(s->owner, sizeof(s->owner), "%s", owner);
        s->value = 0;
        s->query = sd_bus_slot_unref(s->query);
        if (owner[0])
                ask_value(s);
        watch_changed(s->w);
}

static int on_owner_changed(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
        const char *name, *old_owner, *new_owner;

        if (sd_bus_message_read(m, "sss", &name, &old_owner, &new_owner) >= 0)
                set_owner(userdata, new_owner);
        return 0;
}

static int on_owner_reply(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
        struct service *s = userdata;
        const char *owner;

        s->query = sd_bus_slot_unref(s->query);
        /* An error is NameHasNoOwner: the service is not there (yet). */
        if (!sd_bus_message_is_method_error(m, NULL) && sd_bus_message_read(m, "s", &owner) >= 0)
                set_owner(s, owner);
        return 0;
}

static int on_properties_changed(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
        struct service *s = userdata;
        const struct service_desc *sd = &services[s->kind];
        const char *sender = sd_bus_message_get_sender(m), *iface, *key;
        bool invalidated = false;
        int r;

        if (!s->owner[0] || !sender || strcmp(sender, s->owner) != 0)
                return 0;
        r = sd_bus_message_read(m, "s", &iface);
        if (r < 0 || strcmp(iface, sd->interface) != 0)
                return 0;
        r = sd_bus_message_enter_container(m, 'a', "{sv}");
        while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
                r = sd_bus_message_read(m, "s", &key);
                if (r >= 0 && strcmp(key, sd->property) == 0)
                        r = read_value(s, m);
                else if (r >= 0)
                        r = sd_bus_message_skip(m, "v");
                if (r >= 0)
                        r = sd_bus_message_exit_container(m);
        }
        if (r >= 0)
                r = sd_bus_message_exit_container(m);
        if (r >= 0)
                r = sd_bus_message_enter_container(m, 'a', "s");
        while (r >= 0 && (r = sd_bus_message_read(m, "s", &key)) > 0)
                invalidated |= strcmp(key, sd->property) == 0;
        if (r < 0) {
                log_info_errno(r, "desktop: %s: a PropertiesChanged that does not parse", sd->label);
                return 0;
        }
        if (invalidated)
                ask_value(s);
        watch_changed(s->w);
        return 0;
}

static void forget(struct bl_desktop_watch *w)
{
        for (unsigned i = 0; i < NSERVICES; i++) {
                struct service *s = &w->s[i];

                s->owner_match = sd_bus_slot_unref(s->owner_match);
                s->changed_match = sd_bus_slot_unref(s->changed_match);
                s->query = sd_bus_slot_unref(s->query);
                s->owner[0] = '\0';
                s->value = 0;
        }
        w->disconnected = sd_bus_slot_unref(w->disconnected);
        if (w->bus)
                sd_bus_flush_close_unref(w->bus);
        w->bus = NULL;
}

static int watch_service(struct service *s)
{
        const struct service_desc *sd = &services[s->kind];
        char match[512];
        int r;

        snprintf(match, sizeof(match),
                 "type='signal',sender='" DBUS_NAME "',path='" DBUS_PATH "',interface='" DBUS_NAME "',"
                 "member='NameOwnerChanged',arg0='%s'", sd->name);
        r = sd_bus_add_match_async(s->w->bus, &s->owner_match, match, on_owner_changed, NULL, s);
        if (r < 0)
                return r;
        /* No sender: the daemon would match it by the well-known name, sd-bus
         * only by the unique one; on_properties_changed() checks it. */
        snprintf(match, sizeof(match),
                 "type='signal',path='%s',interface='" PROPERTIES_INTERFACE "',member='PropertiesChanged',"
                 "arg0='%s'", sd->path, sd->interface);
        r = sd_bus_add_match_async(s->w->bus, &s->changed_match, match, on_properties_changed, NULL, s);
        if (r < 0)
                return r;
        /* After the matches, on the same connection: an owner that comes
         * after this answer is announced by NameOwnerChanged. */
        return sd_bus_call_method_async(s->w->bus, &s->query, DBUS_NAME, DBUS_PATH, DBUS_NAME, "GetNameOwner",
                                        on_owner_reply, s, "s", sd->name);
}

static int on_disconnected(sd_bus_message *m, void *userdata, sd_bus_error *ret_error);

/* Connects, watches every service, and attaches to the loop. */
static int connect_bus(struct bl_desktop_watch *w)
{
        int r;

        r = sd_bus_open_system_with_description(&w->bus, "bigLittled-desktop");
        if (r >= 0)
                r = sd_bus_match_signal(w->bus, &w->disconnected, "org.freedesktop.DBus.Local",
                                        "/org/freedesktop/DBus/Local", "org.freedesktop.DBus.Local",
                                        "Disconnected", on_disconnected, w);
        for (unsigned i = 0; r >= 0 && i < NSERVICES; i++) {
                w->s[i] = (struct service){ .w = w, .kind = (enum service_kind)i };
                r = watch_service(&w->s[i]);
        }
        if (r >= 0)
                r = sd_bus_attach_event(w->bus, w->d->event, SD_EVENT_PRIORITY_NORMAL);
        if (r < 0)
                forget(w);
        return r;
}

static int on_reconnect(sd_event_source *source, uint64_t usec, void *userdata)
{
        struct bl_desktop_watch *w = userdata;
        int r = connect_bus(w);

        if (r >= 0) {
                log_info("desktop: connected to the system bus again; following power profiles and the battery");
                w->reconnect = sd_event_source_disable_unref(w->reconnect);
                return 0;
        }
        w->reconnect_wait = w->reconnect_wait * 2 > RECONNECT_MAX_USEC ? RECONNECT_MAX_USEC : w->reconnect_wait * 2;
        r = sd_event_source_set_time(source, usec + w->reconnect_wait);
        if (r >= 0)
                r = sd_event_source_set_enabled(source, SD_EVENT_ONESHOT);
        if (r < 0)
                log_warning("desktop: cannot try to reconnect again (%s): power profiles and the battery are not "
                            "followed any more", strerror(-r));
        return 0;
}

/* Without a bus no service can say anything: whatever they said ends,
 * until the bus is back. */
static int on_disconnected(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
        struct bl_desktop_watch *w = userdata;
        int r;

        log_warning("desktop: the connection to the system bus was lost; power profiles and the battery are "
                    "not followed until it is back (trying to reconnect)");
        forget(w);
        watch_changed(w);
        w->reconnect_wait = RECONNECT_FIRST_USEC;
        r = sd_event_add_time_relative(w->d->event, &w->reconnect, CLOCK_MONOTONIC, w->reconnect_wait, 0,
                                       on_reconnect, w);
        if (r < 0)
                log_warning("desktop: cannot try to reconnect (%s): power profiles and the battery are not "
                            "followed any more", strerror(-r));
        return 0;
}

int desktop_open(struct bl_desktop_watch **ret, struct bl_daemon *d)
{
        struct bl_desktop_watch *w = calloc(1, sizeof(*w));
        int r;

        if (!w)
                return -ENOMEM;
        w->d = d;
        r = connect_bus(w);
        if (r < 0) {
                free(w);
                return r;
        }
        *ret = w;
        return 0;
}

void desktop_close(struct bl_desktop_watch *w)
{
        if (!w)
                return;
        w->reconnect = sd_event_source_disable_unref(w->reconnect);
        forget(w);
        free(w);
}

void desktop_apply(struct bl_daemon *d)
{
        struct bl_profile_effect e;

        profile_effect(d->cfg.profiles, &d->ladder, &d->desktop_in, &e);
        if (strcmp(e.what, d->profile.what) != 0) {
                if (e.what[0])
                        log_notice("profile: %s", e.what);
                else
                        log_notice("profile: nothing to adjust (no power profile known, not on battery)");
        }
        d->profile = e;
        if (d->controller_ready)
                controller_set_profile(&d->ctl, &e);
        daemon_changed(d, BL_CHANGE_PROFILE);
        daemon_decide_now(d);
}

void desktop_check_config(const struct bl_daemon *d, const struct bl_config *cfg, int level)
{
        struct bl_diag *diag = malloc(sizeof(*diag));

        if (!diag)
                return;
        diag_init(diag);
        profile_check(cfg->profiles, &d->ladder, diag);
        daemon_log_diag(diag, level);
        free(diag);
}
