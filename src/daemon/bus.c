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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "common/duration.h"
#include "common/log.h"
#include "daemon/actions.h"
#include "daemon/bus-auth.h"
#include "daemon/bus-describe.h"
#include "daemon/bus.h"
#include "daemon/level.h"

#define BUS_NAME "org.bigLittle.Switch1"
#define BUS_PATH "/org/bigLittle/Switch1"
#define BUS_INTERFACE "org.bigLittle.Switch1"
#define BUS_ERROR(name) "org.bigLittle.Switch1.Error." name
#define BUS_DENIED_MESSAGE "not permitted: run as root or grant org.bigLittle.Switch1.manage"

/* After the bus went away, connecting is tried again after 1 s, then at
 * twice the previous wait, up to this: a bus restart is back within a
 * second or two, and a bus that stays away costs a wakeup a minute. */
#define RECONNECT_FIRST_USEC BL_USEC_PER_SEC
#define RECONNECT_MAX_USEC (60 * BL_USEC_PER_SEC)

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

static int now_usec(const struct bl_daemon *d, clockid_t clock, uint64_t *ret)
{
        return sd_event_now(d->event, clock, ret);
}

static int temperature_mc(const struct bl_daemon *d)
{
        return d->sample.s.has_temp ? d->sample.s.temp_mc : -1;
}

static int get_mode(sd_bus *bus, const char *path, const char *interface, const char *property,
                    sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "s", mode_to_string(b->d->ladder.mode));
}

static int get_mode_reason(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "s", b->d->ladder.why);
}

static int get_level(sd_bus *bus, const char *path, const char *interface, const char *property,
                     sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        char name[BL_STATE_NAME_MAX];

        daemon_state_name(b->d, name, sizeof(name));
        return sd_bus_message_append(reply, "s", name);
}

static int get_target_level(sd_bus *bus, const char *path, const char *interface, const char *property,
                            sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        char name[BL_STATE_NAME_MAX];

        daemon_target_name(b->d, name, sizeof(name));
        return sd_bus_message_append(reply, "s", name);
}

static int get_levels(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        int r;

        r = sd_bus_message_open_container(reply, 'a', "s");
        for (unsigned i = 0; r >= 0 && i < b->d->ladder.nlevels; i++)
                r = sd_bus_message_append(reply, "s", b->d->ladder.levels[i].name);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_demand(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "d", b->d->demand);
}

static int get_threshold(sd_bus *bus, const char *path, const char *interface, const char *property,
                         sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        double up, down;

        bus_thresholds(b->d, &up, &down);
        return sd_bus_message_append(reply, "d", strcmp(property, "UpThreshold") == 0 ? up : down);
}

static int get_scores(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_scorer *s = bus_demand_scorer(b->d);
        int r;

        r = sd_bus_message_open_container(reply, 'a', "{sd}");
        for (unsigned i = 0; r >= 0 && s && i < s->n; i++)
                if (!s->disabled[i])
                        r = sd_bus_message_append(reply, "{sd}", s->ops[i]->name, s->last[i]);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_temperature(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "i", (int32_t)temperature_mc(b->d));
}

static int get_thermal_state(sd_bus *bus, const char *path, const char *interface, const char *property,
                             sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "s", daemon_thermal_state(b->d));
}

static int append_limit(sd_bus_message *reply, const char *name, const struct bl_limit *l)
{
        return sd_bus_message_append(reply, "(siss)", name, (int32_t)l->mc, limit_source_to_string(l->source),
                                     l->origin);
}

static int get_thermal_limits(sd_bus *bus, const char *path, const char *interface, const char *property,
                              sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_thermal_limits *l = &b->d->limits;
        int r;

        r = sd_bus_message_open_container(reply, 'a', "(siss)");
        if (r >= 0)
                r = append_limit(reply, "cap", &l->cap);
        if (r >= 0)
                r = append_limit(reply, "release", &l->release);
        if (r >= 0)
                r = append_limit(reply, "critical", &l->critical);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_holds(sd_bus *bus, const char *path, const char *interface, const char *property,
                     sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_holds *hs = &b->d->holds;
        int r;

        r = sd_bus_message_open_container(reply, 'a', "(usuisssttb)");
        for (unsigned i = 0; r >= 0 && i < hs->n; i++) {
                const struct bl_hold *h = &hs->h[i];

                r = sd_bus_message_append(reply, "(usuisssttb)", h->id, daemon_level_name(b->d, h->level), h->uid,
                                          h->pid, h->unit, h->owner, h->reason, h->since_wall, h->until_wall,
                                          (int)h->persist);
        }
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_backend(sd_bus *bus, const char *path, const char *interface, const char *property,
                       sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "s", b->d->backend_ops ? b->d->backend_ops->name : "");
}

static int get_topology(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "s", b->d->topo.how);
}

static int get_energy_model(sd_bus *bus, const char *path, const char *interface, const char *property,
                            sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        char text[512];

        model_in_use_describe(&b->d->energy, &b->d->ladder, text, sizeof(text));
        return sd_bus_message_append(reply, "s", text);
}

static int get_switches(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "t", (uint64_t)b->d->switches);
}

static int get_time_in_level(sd_bus *bus, const char *path, const char *interface, const char *property,
                             sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        bl_usec_t t[BL_MAX_LEVELS];
        int r;

        bus_time_in_levels(b->d, t);
        r = sd_bus_message_open_container(reply, 'a', "{st}");
        for (unsigned i = 0; r >= 0 && i < b->d->ladder.nlevels; i++)
                r = sd_bus_message_append(reply, "{st}", b->d->ladder.levels[i].name, (uint64_t)t[i]);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_last_reason(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "s", b->d->last_reason);
}

static const char *battery_to_string(enum bl_battery b)
{
        return b == BL_BATTERY_YES ? "yes" : b == BL_BATTERY_NO ? "no" : "";
}

static int get_desktop(sd_bus *bus, const char *path, const char *interface, const char *property,
                       sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct bl_daemon *d = ((struct bl_bus *)userdata)->d;
        const char *value = "";

        if (strcmp(property, "PowerProfile") == 0)
                value = ppd_profile_to_string(d->desktop_in.profile);
        else if (strcmp(property, "PowerProfileSource") == 0)
                value = d->desktop_in.profile_source;
        else if (strcmp(property, "OnBattery") == 0)
                value = battery_to_string(d->desktop_in.battery);
        else if (strcmp(property, "ProfileAdjustment") == 0)
                value = d->profile.what;
        return sd_bus_message_append(reply, "s", value);
}

/* The hold that decides, and why it, of those in force: (0, "") when none. */
static int get_winning_hold(sd_bus *bus, const char *path, const char *interface, const char *property,
                            sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct bl_daemon *d = ((struct bl_bus *)userdata)->d;
        const struct bl_hold *h = holds_current(&d->holds, d->cfg.hold_precedence);
        char why[BL_HOLD_WHY_MAX];

        holds_explain(&d->holds, d->cfg.hold_precedence, why, sizeof(why));
        return sd_bus_message_append(reply, "(us)", h ? h->id : 0, why);
}

static int get_switch_cost(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_switch_estimate *e = &b->d->cost;
        struct bl_switch_cost c;

        daemon_switch_cost(b->d, &c);
        return sd_bus_message_append(reply, "(ddudud)", c.latency_us, c.latency_per_cpu_us, e->n, e->last_us,
                                     e->last_ncpus, e->max_us);
}

static int get_settle(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_settle *s = &b->d->settle;

        return sd_bus_message_append(reply, "(tttuut)", (uint64_t)s->last_us, (uint64_t)(s->mean_us + 0.5),
                                     (uint64_t)s->max_us, s->windows, s->bounded, (uint64_t)s->discounted);
}

static int get_unreachable(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_daemon *d = b->d;
        int r;

        r = sd_bus_message_open_container(reply, 'a', "(ss)");
        for (unsigned i = 0; r >= 0 && i < d->ladder.nlevels && i < 64; i++)
                if (d->unreachable & (UINT64_C(1) << i))
                        r = sd_bus_message_append(reply, "(ss)", d->ladder.levels[i].name,
                                                  d->unreachable_why[i]);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_config_files(sd_bus *bus, const char *path, const char *interface, const char *property,
                            sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        int r;

        r = sd_bus_message_open_container(reply, 'a', "s");
        for (unsigned i = 0; r >= 0 && i < b->d->files.n; i++)
                r = sd_bus_message_append(reply, "s", b->d->files.path[i]);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static void owner_free(struct bus_owner *o)
{
        sd_bus_track_unref(o->track);
        free(o);
}

static void owner_remove(struct bl_bus *b, unsigned i)
{
        owner_free(b->owners[i]);
        b->owners[i] = b->owners[--b->nowners];
}

static bool owner_has_holds(const struct bl_daemon *d, const char *name)
{
        for (unsigned i = 0; i < d->holds.n; i++)
                if (!d->holds.h[i].persist && strcmp(d->holds.h[i].owner, name) == 0)
                        return true;
        return false;
}

/* Stops watching names that no longer own a hold that would end with them. */
static void owners_prune(struct bl_bus *b)
{
        for (unsigned i = b->nowners; i-- > 0;)
                if (!owner_has_holds(b->d, b->owners[i]->name))
                        owner_remove(b, i);
}

static int on_owner_gone(sd_bus_track *track, void *userdata)
{
        struct bus_owner *o = userdata;
        struct bl_bus *b = o->b;
        char name[BL_HOLD_OWNER_MAX];

        snprintf(name, sizeof(name), "%s", o->name);
        /* sd-bus holds a reference to the track while this runs. */
        for (unsigned i = 0; i < b->nowners; i++)
                if (b->owners[i] == o) {
                        owner_remove(b, i);
                        break;
                }
        daemon_owner_gone(b->d, name);
        return 0;
}

/* Watches 'name' so that its holds end when it leaves the bus. When it has
 * left already, they end now. */
static void owner_watch(struct bl_bus *b, const char *name)
{
        struct bus_owner *o;
        int r;

        if (!name[0])
                return;
        for (unsigned i = 0; i < b->nowners; i++)
                if (strcmp(b->owners[i]->name, name) == 0)
                        return;
        /* Each watched name has a hold of its own, so after pruning there
         * is room. */
        owners_prune(b);
        if (b->nowners >= BL_MAX_HOLDS)
                return;
        o = calloc(1, sizeof(*o));
        r = o ? sd_bus_track_new(b->bus, &o->track, on_owner_gone, o) : -ENOMEM;
        if (r < 0) {
                log_error("bus: cannot watch %s: %s; its holds stay until they expire", name, strerror(-r));
                free(o);
                return;
        }
        o->b = b;
        snprintf(o->name, sizeof(o->name), "%s", name);
        /* This fails when the name is gone already (it asks the bus). */
        r = sd_bus_track_add_name(o->track, name);
        if (r < 0) {
                owner_free(o);
                log_debug("bus: %s cannot be watched (%s): it left", name, strerror(-r));
                daemon_owner_gone(b->d, name);
                return;
        }
        b->owners[b->nowners++] = o;
}

static int deny(sd_bus_error *error)
{
        return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, BUS_DENIED_MESSAGE);
}

static int reply_now(sd_bus_message *call, bool has_value, uint32_t value)
{
        if (has_value)
                return sd_bus_reply_method_return(call, "u", value);
        return sd_bus_reply_method_return(call, NULL);
}

static void waiter_free(struct waiter *w)
{
        sd_event_source_disable_unref(w->timeout);
        sd_bus_message_unref(w->call);
        free(w);
}

static void waiter_answer(struct waiter *w)
{
        int r = reply_now(w->call, w->has_value, w->value);

        if (r < 0)
                log_debug("bus: cannot answer a call after the switch: %s", strerror(-r));
        for (struct waiter **p = &w->b->waiters; *p; p = &(*p)->next)
                if (*p == w) {
                        *p = w->next;
                        break;
                }
        waiter_free(w);
}

static int on_waiter_timeout(sd_event_source *s, uint64_t usec, void *userdata)
{
        struct waiter *w = userdata;

        log_notice("bus: the switch is still being applied after %llu s; answering without waiting longer",
                   (unsigned long long)(BUS_SWITCH_WAIT_USEC / BL_USEC_PER_SEC));
        waiter_answer(w);
        return 0;
}

/* Answers 'call' once the switch it caused has been applied: a client that
 * reads the level after its hold returns finds it. */
static int reply_after_switch(struct bl_bus *b, sd_bus_message *call, bool has_value, uint32_t value)
{
        struct waiter *w;
        int r;

        if (!daemon_switching(b->d))
                return reply_now(call, has_value, value);
        w = calloc(1, sizeof(*w));
        if (!w)
                return reply_now(call, has_value, value);
        *w = (struct waiter){
                .b = b, .call = sd_bus_message_ref(call), .has_value = has_value, .value = value,
        };
        r = sd_event_add_time_relative(b->d->event, &w->timeout, CLOCK_MONOTONIC, BUS_SWITCH_WAIT_USEC, 0,
                                       on_waiter_timeout, w);
        if (r < 0) {
                waiter_free(w);
                return reply_now(call, has_value, value);
        }
        w->next = b->waiters;
        b->waiters = w;
        return 1;
}

static int perform_hold(struct request *q, sd_bus_error *error)
{
        struct bl_daemon *d = q->b->d;
        struct bl_hold h = { 0 };
        uint64_t mono, wall;
        uint32_t id = 0;
        int r;

        if ((r = now_usec(d, CLOCK_MONOTONIC, &mono)) < 0 || (r = now_usec(d, CLOCK_REALTIME, &wall)) < 0)
                return r;
        h.level = q->level;
        h.uid = q->caller.uid;
        h.pid = q->caller.pid;
        snprintf(h.unit, sizeof(h.unit), "%s", q->caller.unit);
        snprintf(h.owner, sizeof(h.owner), "%s", q->caller.name);
        snprintf(h.reason, sizeof(h.reason), "%s", q->reason);
        h.persist = q->persist;
        h.since = mono;
        h.until = mono + q->duration;
        h.since_wall = wall;
        h.until_wall = wall + q->duration;
        r = daemon_hold(d, &h, &id);
        if (r == -EUSERS)
                return sd_bus_error_setf(error, BUS_ERROR("TooManyHolds"),
                                         "uid %" PRIu32 " has %d holds already, the most one user may have",
                                         h.uid, BL_MAX_HOLDS_PER_UID);
        if (r == -ENOSPC)
                return sd_bus_error_setf(error, BUS_ERROR("TooManyHolds"),
                                         "%d holds are in force already, the most there may be",
                                         BL_MAX_HOLDS);
        if (r == -EINVAL)
                return sd_bus_error_setf(error, BUS_ERROR("UnknownLevel"), "level %u does not exist",
                                         h.level);
        if (r < 0)
                return r;
        if (!h.persist)
                owner_watch(q->b, h.owner);
        return reply_after_switch(q->b, q->call, true, id);
}

static int no_such_hold(sd_bus_error *error, uint32_t id)
{
        return sd_bus_error_setf(error, BUS_ERROR("NoSuchHold"), "no hold has id %" PRIu32, id);
}

static int perform(struct request *q, sd_bus_error *error)
{
        int r;

        switch (q->action) {
        case ACTION_HOLD:
                return perform_hold(q, error);
        case ACTION_RELEASE:
                if (daemon_release(q->b->d, q->id) < 0)
                        return no_such_hold(error, q->id);
                return reply_after_switch(q->b, q->call, false, 0);
        case ACTION_RELOAD:
                r = daemon_reload(q->b->d);
                if (r == -EINVAL)
                        return sd_bus_error_set(error, BUS_ERROR("ReloadRefused"),
                                                "the configuration has errors, see the journal");
                if (r < 0)
                        return r;
                return sd_bus_reply_method_return(q->call, NULL);
        }
        return -EINVAL;
}

static void request_free(struct request *q)
{
        sd_bus_slot_unref(q->slot);
        sd_bus_message_unref(q->call);
        free(q);
}

static void request_unlink(struct request *q)
{
        for (struct request **p = &q->b->pending; *p; p = &(*p)->next)
                if (*p == q) {
                        *p = q->next;
                        return;
                }
}

static int on_polkit_reply(sd_bus_message *reply, void *userdata, sd_bus_error *unused)
{
        struct request *q = userdata;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        int r;

        request_unlink(q);
        if (bus_polkit_allows(reply))
                r = perform(q, &error);
        else
                r = deny(&error);
        if (r < 0 && sd_bus_error_is_set(&error))
                (void)sd_bus_reply_method_error(q->call, &error);
        else if (r < 0)
                (void)sd_bus_reply_method_errno(q->call, r, NULL);
        sd_bus_error_free(&error);
        request_free(q);
        return 0;
}

/* Asks polkit whether the caller may do q; the answer comes to
 * on_polkit_reply(). Returns 1 (the call is answered later) or a negative
 * errno. */
static int polkit_ask(struct request *on_stack)
{
        struct bl_bus *b = on_stack->b;
        struct request *q;
        int r;

        if (!on_stack->caller.name[0])
                return -EACCES;
        q = malloc(sizeof(*q));
        if (!q)
                return -ENOMEM;
        *q = *on_stack;
        q->slot = NULL;
        r = bus_polkit_ask(b->bus, &q->slot, q->caller.name,
                           sd_bus_message_get_allow_interactive_authorization(on_stack->call) > 0, on_polkit_reply,
                           q);
        if (r < 0) {
                free(q);
                return r;
        }
        q->call = sd_bus_message_ref(on_stack->call);
        q->next = b->pending;
        b->pending = q;
        return 1;
}

/* Does q now when the caller may (root; 'open' for what needs no grant;
 * 'by_config' for what [holds] allow_users grants), asks polkit
 * otherwise. Returns what a method handler returns. */
static int authorize(struct request *q, bool open, bool by_config, sd_bus_error *error)
{
        int r;

        if (q->caller.uid == 0 || open || (by_config && q->b->d->cfg.holds_allow_users))
                return perform(q, error);
        r = polkit_ask(q);
        if (r == -EACCES)
                return deny(error);
        return r;
}

static int request_init(struct request *q, struct bl_bus *b, sd_bus_message *m, enum bus_action action,
                        sd_bus_error *error)
{
        memset(q, 0, sizeof(*q));
        q->b = b;
        q->call = m;
        q->action = action;
        if (bus_caller_identify(m, &q->caller) < 0)
                return deny(error);
        return 0;
}

static bool reason_valid(const char *reason)
{
        for (const unsigned char *p = (const unsigned char *)reason; *p; p++) {
                /* C0, DEL, and C1 (U+0080..U+009F, UTF-8 C2 80..C2 9F). */
                if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
                        return false;
        }
        return true;
}

/* Names longer than this are cut in the refusal: a caller's megabyte is
 * not sent back (nor kept in the reply queue). */
#define ECHO_MAX 64

static int unknown_level(struct bl_bus *b, const char *name, sd_bus_error *error)
{
        size_t name_len = strlen(name), shown = name_len;
        char levels[1024], size[32] = "";
        const char *cut = "";
        size_t len = 0;

        if (name_len > ECHO_MAX) {
                shown = ECHO_MAX;
                /* Not inside a UTF-8 sequence (the bus carries valid UTF-8 only). */
                while (shown > 0 && ((unsigned char)name[shown] & 0xc0) == 0x80)
                        shown--;
                cut = "...";
                snprintf(size, sizeof(size), " (%zu bytes)", name_len);
        }

        levels[0] = '\0';
        for (unsigned i = 0; i < b->d->ladder.nlevels && len < sizeof(levels); i++) {
                int n = snprintf(levels + len, sizeof(levels) - len, "%s%s", i ? ", " : "",
                                 b->d->ladder.levels[i].name);

                if (n < 0)
                        break;
                len += (size_t)n;
        }
        return sd_bus_error_setf(error, BUS_ERROR("UnknownLevel"),
                                 "unknown level \"%.*s%s\"%s; the levels are: %s", (int)shown, name, cut,
                                 size, levels);
}

static int hold(sd_bus_message *m, struct bl_bus *b, const char *level, uint64_t duration, const char *reason,
                uint64_t flags, sd_bus_error *error)
{
        uint64_t max = (uint64_t)b->d->cfg.holds_max_duration_s * BL_USEC_PER_SEC;
        struct request q;
        int index, r;

        index = ladder_find(&b->d->ladder, level);
        if (index < 0)
                return unknown_level(b, level, error);
        if (duration == 0 || duration > max) {
                char asked[DURATION_TEXT_MAX], limit[DURATION_TEXT_MAX];

                /* In the units people write, not µs: "2h", "at most 1h"; in µs only
                 * where rounding would show the limit itself. */
                duration_format(asked, sizeof(asked), duration);
                duration_format(limit, sizeof(limit), max);
                if (strcmp(asked, limit) == 0)
                        snprintf(asked, sizeof(asked), "%" PRIu64 "us", duration);
                return sd_bus_error_setf(error, BUS_ERROR("InvalidDuration"),
                                         "a hold of %s is out of range: at most %s ([holds] max_duration_s = %u)",
                                         asked, limit, b->d->cfg.holds_max_duration_s);
        }
        if (strlen(reason) >= BL_HOLD_REASON_MAX)
                return sd_bus_error_setf(error, BUS_ERROR("InvalidReason"),
                                         "the reason is %zu bytes long, longer than %d", strlen(reason),
                                         BL_HOLD_REASON_MAX - 1);
        if (!reason_valid(reason))
                return sd_bus_error_set(error, BUS_ERROR("InvalidReason"),
                                        "the reason contains control characters");
        if (flags & ~HOLD_FLAGS_KNOWN)
                return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
                                         "unknown flags 0x%" PRIx64 " (defined: 0x1, persist)",
                                         flags & ~HOLD_FLAGS_KNOWN);

        r = request_init(&q, b, m, ACTION_HOLD, error);
        if (r < 0)
                return r;
        q.level = (unsigned)index;
        q.duration = duration;
        q.persist = flags & HOLD_FLAG_PERSIST;
        snprintf(q.reason, sizeof(q.reason), "%s", reason);
        return authorize(&q, false, true, error);
}

static int method_hold(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        const char *level, *reason;
        uint64_t duration;
        int r;

        r = sd_bus_message_read(m, "sts", &level, &duration, &reason);
        if (r < 0)
                return r;
        return hold(m, userdata, level, duration, reason, 0, error);
}

static int method_hold_with_flags(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        const char *level, *reason;
        uint64_t duration, flags;
        int r;

        r = sd_bus_message_read(m, "stst", &level, &duration, &reason, &flags);
        if (r < 0)
                return r;
        return hold(m, userdata, level, duration, reason, flags, error);
}

static int method_release(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_hold *h;
        struct request q;
        uint32_t id;
        int r;

        r = sd_bus_message_read(m, "u", &id);
        if (r < 0)
                return r;
        h = holds_find(&b->d->holds, id);
        if (!h)
                return no_such_hold(error, id);
        r = request_init(&q, b, m, ACTION_RELEASE, error);
        if (r < 0)
                return r;
        q.id = id;
        return authorize(&q, h->uid == q.caller.uid, false, error);
}

static int method_release_all(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        struct bus_caller c;

        if (bus_caller_identify(m, &c) < 0)
                return deny(error);
        return reply_after_switch(b, m, true, daemon_release_uid(b->d, c.uid, c.uid == 0));
}

static int method_reload(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct request q;
        int r;

        r = request_init(&q, userdata, m, ACTION_RELOAD, error);
        if (r < 0)
                return r;
        return authorize(&q, false, false, error);
}

static int method_history(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_history *h = &b->d->history;
        sd_bus_message *reply = NULL;
        unsigned kept = history_count(h);
        uint32_t n;
        int r;

        r = sd_bus_message_read(m, "u", &n);
        if (r < 0)
                return r;
        if (n == 0 || n > kept)
                n = kept;
        r = sd_bus_message_new_method_return(m, &reply);
        if (r >= 0)
                r = sd_bus_message_open_container(reply, 'a', "(ttsss)");
        for (unsigned i = n; r >= 0 && i-- > 0;) {
                const struct bl_history_entry *e = history_get(h, i);

                r = sd_bus_message_append(reply, "(ttsss)", e->when_wall, (uint64_t)e->when, e->from, e->to,
                                          e->reason);
        }
        if (r >= 0)
                r = sd_bus_message_close_container(reply);
        if (r >= 0)
                r = sd_bus_send(NULL, reply, NULL);
        sd_bus_message_unref(reply);
        return r;
}

static int method_describe(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        char *text = NULL;
        int r;

        r = bus_describe(b->d, &text);
        if (r < 0)
                return r;
        r = sd_bus_reply_method_return(m, "s", text);
        free(text);
        return r;
}

static const sd_bus_vtable switch_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("Mode", "s", get_mode, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("ModeReason", "s", get_mode_reason, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Level", "s", get_level, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("TargetLevel", "s", get_target_level, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("Levels", "as", get_levels, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        /* These change every tick: read them, do not wait for signals. */
        SD_BUS_PROPERTY("Demand", "d", get_demand, 0, 0),
        SD_BUS_PROPERTY("UpThreshold", "d", get_threshold, 0, 0),
        SD_BUS_PROPERTY("DownThreshold", "d", get_threshold, 0, 0),
        SD_BUS_PROPERTY("Scores", "a{sd}", get_scores, 0, 0),
        SD_BUS_PROPERTY("Temperature", "i", get_temperature, 0, 0),
        SD_BUS_PROPERTY("ThermalState", "s", get_thermal_state, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("ThermalLimits", "a(siss)", get_thermal_limits, 0,
                        SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("Holds", "a(usuisssttb)", get_holds, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("WinningHold", "(us)", get_winning_hold, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        /* What power-profiles-daemon and UPower say ("" where nobody does). */
        SD_BUS_PROPERTY("PowerProfile", "s", get_desktop, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("PowerProfileSource", "s", get_desktop, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("OnBattery", "s", get_desktop, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("ProfileAdjustment", "s", get_desktop, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("Backend", "s", get_backend, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Topology", "s", get_topology, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        /* Changes on reload, which callers ask for: read it. */
        SD_BUS_PROPERTY("EnergyModel", "s", get_energy_model, 0, 0),
        SD_BUS_PROPERTY("Switches", "t", get_switches, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("TimeInLevel", "a{st}", get_time_in_level, 0,
                        SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
        SD_BUS_PROPERTY("LastReason", "s", get_last_reason, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("ConfigFiles", "as", get_config_files, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        /* Change with every switch and settle: read them. */
        SD_BUS_PROPERTY("SwitchCost", "(ddudud)", get_switch_cost, 0, 0),
        SD_BUS_PROPERTY("Settle", "(tttuut)", get_settle, 0, 0),
        SD_BUS_PROPERTY("Unreachable", "a(ss)", get_unreachable, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        /* Unprivileged: sd-bus would otherwise demand CAP_SYS_ADMIN; the
         * handlers decide who may do what. */
        SD_BUS_METHOD_WITH_ARGS("Hold", SD_BUS_ARGS("s", level, "t", duration_usec, "s", reason),
                                SD_BUS_RESULT("u", id), method_hold, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_ARGS("HoldWithFlags",
                                SD_BUS_ARGS("s", level, "t", duration_usec, "s", reason, "t", flags),
                                SD_BUS_RESULT("u", id), method_hold_with_flags, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_ARGS("Release", SD_BUS_ARGS("u", id), SD_BUS_NO_RESULT, method_release,
                                SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_ARGS("ReleaseAll", SD_BUS_NO_ARGS, SD_BUS_RESULT("u", count), method_release_all,
                                SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_ARGS("Reload", SD_BUS_NO_ARGS, SD_BUS_NO_RESULT, method_reload,
                                SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_ARGS("History", SD_BUS_ARGS("u", n), SD_BUS_RESULT("a(ttsss)", switches),
                                method_history, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_ARGS("Describe", SD_BUS_NO_ARGS, SD_BUS_RESULT("s", json), method_describe,
                                SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_SIGNAL_WITH_ARGS("Switched", SD_BUS_ARGS("s", from, "s", to, "s", reason), 0),
        SD_BUS_VTABLE_END,
};

static void emit_changed(struct bl_bus *b, const char *property)
{
        int r;

        if (!b->bus)
                return;
        r = sd_bus_emit_properties_changed(b->bus, BUS_PATH, BUS_INTERFACE, property, NULL);
        if (r < 0)
                log_debug("bus: cannot announce %s: %s", property, strerror(-r));
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
                request_free(q);
        }
        while (b->nowners > 0)
                owner_remove(b, b->nowners - 1);
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
                r = sd_bus_add_object_vtable(b->bus, &b->object, BUS_PATH, BUS_INTERFACE, switch_vtable, b);
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
                log_debug("bus: reconnecting failed: %s", strerror(-r));
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
                log_error("bus: the connection to the bus was lost and cannot be dropped: %s", strerror(-r));
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
                        log_debug("bus: cannot send Switched: %s", strerror(-r));
        }
        announce_state(b);
        r = sd_bus_emit_properties_changed(b->bus, BUS_PATH, BUS_INTERFACE, "Switches", "LastReason",
                                           "TimeInLevel", NULL);
        if (r < 0)
                log_debug("bus: cannot announce the switch: %s", strerror(-r));
}

static void announce_holds(struct bl_bus *b)
{
        owners_prune(b);
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
                        waiter_answer(b->waiters);
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
                waiter_answer(b->waiters);
        bus_disconnect(b);
        sd_event_source_disable_unref(b->reconnect);
        free(b);
}
