/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bus service's methods: holds, releases, reload, history, Describe();
 * who may call them (bus-auth.h), the calls that wait for polkit or for the
 * switch they caused, and the holders watched so that their holds end when
 * they leave the bus. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "common/duration.h"
#include "common/log.h"
#include "daemon/actions.h"
#include "daemon/bus-describe.h"
#include "daemon/bus-private.h"

static int now_usec(const struct bl_daemon *d, clockid_t clock, uint64_t *ret)
{
        return sd_event_now(d->event, clock, ret);
}

static void owner_free(struct bus_owner *o)
{
        sd_bus_track_unref(o->track);
        free(o);
}

void bus_owner_remove(struct bl_bus *b, unsigned i)
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
void bus_owners_prune(struct bl_bus *b)
{
        for (unsigned i = b->nowners; i-- > 0;)
                if (!owner_has_holds(b->d, b->owners[i]->name))
                        bus_owner_remove(b, i);
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
                        bus_owner_remove(b, i);
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
        bus_owners_prune(b);
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

void bus_waiter_answer(struct waiter *w)
{
        int r = reply_now(w->call, w->has_value, w->value);

        if (r < 0)
                log_debug_errno(r, "bus: cannot answer a call after the switch");
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
        bus_waiter_answer(w);
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

void bus_request_free(struct request *q)
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
        bus_request_free(q);
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

int bus_method_hold(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        const char *level, *reason;
        uint64_t duration;
        int r;

        r = sd_bus_message_read(m, "sts", &level, &duration, &reason);
        if (r < 0)
                return r;
        return hold(m, userdata, level, duration, reason, 0, error);
}

int bus_method_hold_with_flags(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        const char *level, *reason;
        uint64_t duration, flags;
        int r;

        r = sd_bus_message_read(m, "stst", &level, &duration, &reason, &flags);
        if (r < 0)
                return r;
        return hold(m, userdata, level, duration, reason, flags, error);
}

int bus_method_release(sd_bus_message *m, void *userdata, sd_bus_error *error)
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

int bus_method_release_all(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        struct bus_caller c;

        if (bus_caller_identify(m, &c) < 0)
                return deny(error);
        return reply_after_switch(b, m, true, daemon_release_uid(b->d, c.uid, c.uid == 0));
}

int bus_method_reload(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        struct request q;
        int r;

        r = request_init(&q, userdata, m, ACTION_RELOAD, error);
        if (r < 0)
                return r;
        return authorize(&q, false, false, error);
}

int bus_method_history(sd_bus_message *m, void *userdata, sd_bus_error *error)
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

int bus_method_describe(sd_bus_message *m, void *userdata, sd_bus_error *error)
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
