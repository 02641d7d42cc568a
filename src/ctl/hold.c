/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hold, release, auto. A hold that does not persist ends when its owner
 * leaves the bus, so "hold" stays connected while it should last: until
 * --for runs out, a signal, the hold's release by someone else, or the end
 * of the command it was given. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <systemd/sd-event.h>
#include <unistd.h>

#include "ctl/client.h"
#include "common/duration.h"
#include "ctl/output.h"
#include "ctl/verbs.h"

#define HOLD_FLAG_PERSIST UINT64_C(1)

struct hold_wait {
        sd_event *event;
        sd_bus *bus;
        uint32_t id;
        pid_t child;                    /* the command, 0 when none or ended */
        bool gone;                      /* the hold ended without us */
        sd_bus_slot *holds_query;       /* a Get(Holds) in flight */
};

/* Ends the wait. The hold is released here, while the bus is still open:
 * the event loop closes it on its way out. Leaving the bus would end the
 * hold too; saying so ends it at once, and visibly. */
static void wait_end(struct hold_wait *w, int status)
{
        if (!w->gone) {
                sd_bus_error error = SD_BUS_ERROR_NULL;

                (void)client_call(w->bus, "Release", &error, NULL, "u", w->id);
                sd_bus_error_free(&error);
                w->gone = true;
        }
        sd_event_exit(w->event, status);
}

static int on_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
        struct hold_wait *w = userdata;

        /* With a command, it decides how to end; we end when it does. */
        if (w->child > 0)
                kill(w->child, (int)si->ssi_signo);
        else
                wait_end(w, 0);
        return 0;
}

static int on_expired(sd_event_source *s, uint64_t usec, void *userdata)
{
        struct hold_wait *w = userdata;

        if (w->child <= 0)
                wait_end(w, 0);
        return 0;
}

static int on_child(sd_event_source *s, const siginfo_t *si, void *userdata)
{
        struct hold_wait *w = userdata;

        w->child = 0;
        wait_end(w, si->si_code == CLD_EXITED ? si->si_status : 128 + si->si_status);
        return 0;
}

static int on_holds(sd_bus_message *reply, void *userdata, sd_bus_error *ret_error)
{
        struct hold_wait *w = userdata;
        struct ctl_hold *holds = NULL;
        size_t n = 0;
        bool found = false;

        w->holds_query = sd_bus_slot_unref(w->holds_query);
        if (sd_bus_message_is_method_error(reply, NULL) ||
            sd_bus_message_enter_container(reply, 'v', "a(usuisssttb)") < 0 ||
            client_read_holds(reply, &holds, &n) < 0)
                return 0;
        for (size_t i = 0; i < n; i++)
                found = found || holds[i].id == w->id;
        client_holds_free(holds, n);
        if (!found && !w->gone) {
                w->gone = true;
                fprintf(stderr, "switchctl: hold %" PRIu32 " was released\n", w->id);
                if (w->child <= 0)
                        sd_event_exit(w->event, 0);
        }
        return 0;
}

static int on_properties_changed(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
        struct hold_wait *w = userdata;
        const char *iface;

        if (sd_bus_message_read_basic(m, 's', &iface) < 0 || strcmp(iface, SWITCH1_IFACE) != 0 ||
            w->holds_query)
                return 0;
        /* Whether Holds came with a value or was only invalidated, ask for it. */
        (void)sd_bus_call_method_async(w->bus, &w->holds_query, SWITCH1_NAME, SWITCH1_PATH,
                                       "org.freedesktop.DBus.Properties", "Get", on_holds, w, "ss",
                                       SWITCH1_IFACE, "Holds");
        return 0;
}

static int on_owner_changed(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
        struct hold_wait *w = userdata;
        const char *name, *old_owner, *new_owner;

        if (sd_bus_message_read(m, "sss", &name, &old_owner, &new_owner) < 0 || new_owner[0] || w->gone)
                return 0;
        w->gone = true;
        fprintf(stderr, "switchctl: bigLittled stopped; hold %" PRIu32 " ended\n", w->id);
        if (w->child <= 0)
                sd_event_exit(w->event, EXIT_FAILURE);
        return 0;
}

/* Signals become events; SIGCHLD too, for the command. */
static int wait_prepare(struct hold_wait *w, sigset_t *old_mask)
{
        sigset_t mask;
        int r;

        sigemptyset(&mask);
        sigaddset(&mask, SIGINT);
        sigaddset(&mask, SIGTERM);
        sigaddset(&mask, SIGCHLD);
        if (sigprocmask(SIG_BLOCK, &mask, old_mask) < 0)
                return -errno;
        r = sd_event_default(&w->event);
        if (r >= 0)
                r = sd_event_add_signal(w->event, NULL, SIGINT, on_signal, w);
        if (r >= 0)
                r = sd_event_add_signal(w->event, NULL, SIGTERM, on_signal, w);
        if (r >= 0)
                r = sd_bus_attach_event(w->bus, w->event, SD_EVENT_PRIORITY_NORMAL);
        if (r >= 0)
                r = sd_bus_match_signal(w->bus, NULL, SWITCH1_NAME, SWITCH1_PATH,
                                        "org.freedesktop.DBus.Properties", "PropertiesChanged",
                                        on_properties_changed, w);
        if (r >= 0)
                r = sd_bus_add_match(w->bus, NULL,
                                     "type='signal',sender='org.freedesktop.DBus',"
                                     "interface='org.freedesktop.DBus',member='NameOwnerChanged',"
                                     "arg0='" SWITCH1_NAME "'",
                                     on_owner_changed, w);
        return r;
}

static int run_command(struct hold_wait *w, char **command, const sigset_t *old_mask)
{
        pid_t pid;

        fflush(stdout);
        pid = fork();
        if (pid < 0)
                return -errno;
        if (pid == 0) {
                sigprocmask(SIG_SETMASK, old_mask, NULL);
                execvp(command[0], command);
                fprintf(stderr, "switchctl: cannot run %s: %s\n", command[0], strerror(errno));
                _exit(errno == ENOENT ? 127 : 126);
        }
        w->child = pid;
        return sd_event_add_child(w->event, NULL, pid, WEXITED, on_child, w);
}

static int hold_place(sd_bus *bus, const struct ctl_args *a, uint32_t *id, sd_bus_error *error)
{
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
        const char *reason = a->reason ? a->reason : "";
        int r;

        /* Plain Hold() unless persisting, so a daemon without flags still works. */
        if (a->persist)
                r = client_call(bus, "HoldWithFlags", error, &reply, "stst", a->positional[0], a->duration,
                                reason, HOLD_FLAG_PERSIST);
        else
                r = client_call(bus, "Hold", error, &reply, "sts", a->positional[0], a->duration, reason);
        if (r >= 0)
                r = sd_bus_message_read_basic(reply, 'u', id);
        return r;
}

int verb_hold(const struct ctl_args *a)
{
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(sd_bus_unrefp) sd_bus *bus = NULL;
        struct hold_wait w = { 0 };
        sigset_t old_mask;
        int r, status;

        r = client_open(&bus, a->ask_password);
        if (r != 0)
                return r;
        w.bus = bus;
        /* Watch before holding, so a release right after the Hold() is not missed. */
        if (!a->persist) {
                r = wait_prepare(&w, &old_mask);
                if (r < 0) {
                        status = client_report(NULL, r);
                        goto out;
                }
        }
        r = hold_place(bus, a, &w.id, &error);
        if (r < 0) {
                status = client_report(&error, r);
                goto out;
        }
        printf("%" PRIu32 "\n", w.id);
        fflush(stdout);
        status = 0;
        if (a->persist)
                goto out;

        if (a->command)
                r = run_command(&w, a->command, &old_mask);
        else
                r = sd_event_add_time_relative(w.event, NULL, CLOCK_MONOTONIC, a->duration, 0, on_expired,
                                               &w);
        if (r < 0) {
                status = client_report(NULL, r);
        } else {
                if (!a->command && isatty(STDERR_FILENO)) {
                        char text[DURATION_TEXT_MAX];

                        fprintf(stderr, "Holding %s for %s (hold %" PRIu32 "); Ctrl-C releases it.\n",
                                a->positional[0], duration_format(text, sizeof(text), a->duration), w.id);
                }
                r = sd_event_loop(w.event);
                status = r < 0 ? client_report(NULL, r) : r;
        }
out:
        sd_bus_slot_unref(w.holds_query);
        if (w.event) {
                sd_bus_detach_event(bus);
                sd_event_unref(w.event);
                sigprocmask(SIG_SETMASK, &old_mask, NULL);
        }
        return status;
}

static int parse_id(const char *text, uint32_t *ret)
{
        char *end;
        unsigned long v;

        /* Digits only: strtoul() skips blanks and negates " -1", which on a
         * 32-bit long is 4294967295 and in range. */
        if (text[0] < '0' || text[0] > '9')
                return -EINVAL;
        errno = 0;
        v = strtoul(text, &end, 10);
        if (errno || *end || v == 0 || v > UINT32_MAX)
                return -EINVAL;
        *ret = (uint32_t)v;
        return 0;
}

static int release_all(sd_bus *bus, unsigned *count, sd_bus_error *error)
{
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
        uint32_t n = 0;
        int r;

        r = client_call(bus, "ReleaseAll", error, &reply, "");
        if (r >= 0)
                r = sd_bus_message_read_basic(reply, 'u', &n);
        *count = n;
        return r;
}

/* ReleaseAll, and what it leaves: a caller who held nothing is told so
 * rather than "Released 0 holds", and holds of others that it may not
 * release keep the level held. */
static int release_mine(const struct ctl_args *a)
{
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
        _cleanup_(sd_bus_unrefp) sd_bus *bus = NULL;
        struct ctl_hold *holds = NULL;
        size_t left = 0;
        unsigned count;
        int r;

        r = client_open(&bus, a->ask_password);
        if (r != 0)
                return r;
        r = release_all(bus, &count, &error);
        if (r < 0)
                return client_report(&error, r);
        if (count == 0)
                puts("You held nothing to release.");
        else
                printf("Released %u hold%s.\n", count, count == 1 ? "" : "s");

        r = sd_bus_get_property(bus, SWITCH1_NAME, SWITCH1_PATH, SWITCH1_IFACE, "Holds", &error, &reply,
                                "a(usuisssttb)");
        if (r >= 0 && client_read_holds(reply, &holds, &left) >= 0 && left > 0) {
                printf("%zu hold%s of other users remain%s in force (hold%s", left, left == 1 ? "" : "s",
                       left == 1 ? "s" : "", left == 1 ? "" : "s");
                for (size_t i = 0; i < left; i++)
                        printf(" %" PRIu32, holds[i].id);
                puts("); see switchctl status.");
        }
        client_holds_free(holds, left);
        return 0;
}

int verb_release(const struct ctl_args *a)
{
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(sd_bus_unrefp) sd_bus *bus = NULL;
        uint32_t id = 0;
        int r;

        if (a->all)
                return release_mine(a);
        if (parse_id(a->positional[0], &id) < 0) {
                fprintf(stderr,
                        "switchctl: release: \"%s\" is not a hold id (a number, see switchctl status)\n",
                        a->positional[0]);
                return EXIT_USAGE;
        }
        r = client_open(&bus, a->ask_password);
        if (r != 0)
                return r;
        r = client_call(bus, "Release", &error, NULL, "u", id);
        return r < 0 ? client_report(&error, r) : 0;
}

int verb_auto(const struct ctl_args *a)
{
        return release_mine(a);
}
