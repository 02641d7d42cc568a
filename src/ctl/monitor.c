/* SPDX-License-Identifier: GPL-2.0-or-later */
/* monitor: one line per switch as the Switched signals come, and on a
 * terminal a status line below them that is redrawn in place every second
 * (demand and temperature change every tick but send no signals). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <systemd/sd-event.h>
#include <time.h>
#include <unistd.h>

#include "ctl/client.h"
#include "ctl/output.h"
#include "ctl/verbs.h"

#define STATUS_LINE_MAX 512
#define REFRESH_USEC (UINT64_C(1000000))

struct monitor {
        sd_event *event;
        sd_bus *bus;
        bool fancy;
        bool status_line;               /* standard output is a terminal */
        size_t shown;                   /* columns of the status line on screen */
        char line[STATUS_LINE_MAX];
        sd_bus_slot *query;             /* a GetAll in flight */
        bool seen;                      /* the daemon was up at some point */
};

static size_t terminal_columns(void)
{
        struct winsize ws;

        if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
                return ws.ws_col;
        return 80;
}

static void status_clear(struct monitor *m)
{
        if (m->shown > 0)
                printf("\r%*s\r", (int)m->shown, "");
        m->shown = 0;
}

/* Cuts the line to the terminal's width (less one, so it never wraps: a
 * wrapped line cannot be redrawn with \r). */
static void status_draw(struct monitor *m)
{
        size_t max = terminal_columns() - 1, cols = 0, i = 0;

        if (!m->status_line || m->line[0] == '\0')
                return;
        status_clear(m);
        while (m->line[i]) {
                if (((unsigned char)m->line[i] & 0xc0) != 0x80) {
                        if (cols == max)
                                break;
                        cols++;
                }
                i++;
        }
        printf("%.*s", (int)i, m->line);
        m->shown = cols;
        fflush(stdout);
}

static void status_compose(struct monitor *m, const struct ctl_status *s)
{
        const char *sep = m->fancy ? " · " : ", ";
        int n;

        n = snprintf(m->line, sizeof(m->line), "%s", s->level ? s->level : "-");
        if (s->target_level && s->level && strcmp(s->level, s->target_level) != 0)
                n += snprintf(m->line + n, sizeof(m->line) - (size_t)n, " %s %s", symbol_arrow(m->fancy),
                              s->target_level);
        if ((size_t)n < sizeof(m->line))
                n += snprintf(m->line + n, sizeof(m->line) - (size_t)n, "%sdemand %.0f", sep, s->demand);
        if ((size_t)n < sizeof(m->line) && s->temperature >= 0)
                n += snprintf(m->line + n, sizeof(m->line) - (size_t)n, "%s%.1f °C", sep,
                              s->temperature / 1000.0);
        if ((size_t)n < sizeof(m->line) && s->thermal_state && strcmp(s->thermal_state, "normal") != 0)
                n += snprintf(m->line + n, sizeof(m->line) - (size_t)n, " %s", s->thermal_state);
        if ((size_t)n < sizeof(m->line) && s->n_holds > 0)
                snprintf(m->line + n, sizeof(m->line) - (size_t)n, "%s%zu hold%s", sep, s->n_holds,
                         s->n_holds == 1 ? "" : "s");
}

static int on_status(sd_bus_message *reply, void *userdata, sd_bus_error *ret_error)
{
        struct monitor *m = userdata;
        struct ctl_status s;

        m->query = sd_bus_slot_unref(m->query);
        if (sd_bus_message_is_method_error(reply, NULL)) {
                /* The daemon is away: say nothing stale. */
                status_clear(m);
                m->line[0] = '\0';
                return 0;
        }
        if (client_parse_status(reply, &s) < 0)
                return 0;
        status_compose(m, &s);
        client_status_done(&s);
        status_draw(m);
        return 0;
}

static int on_refresh(sd_event_source *source, uint64_t usec, void *userdata)
{
        struct monitor *m = userdata;

        if (!m->query)
                (void)sd_bus_call_method_async(m->bus, &m->query, SWITCH1_NAME, SWITCH1_PATH,
                                               "org.freedesktop.DBus.Properties", "GetAll", on_status, m, "s",
                                               SWITCH1_IFACE);
        (void)sd_event_source_set_time(source, usec + REFRESH_USEC);
        return 0;
}

static int on_switched(sd_bus_message *msg, void *userdata, sd_bus_error *ret_error)
{
        struct monitor *m = userdata;
        const char *from, *to, *reason;
        char when[WALL_TEXT_MAX];
        struct timeval tv;

        if (sd_bus_message_read(msg, "sss", &from, &to, &reason) < 0)
                return 0;
        gettimeofday(&tv, NULL);
        status_clear(m);
        printf("%s %s%s %s %s%s%s%s\n",
               format_wall(when, sizeof(when), (uint64_t)tv.tv_sec * 1000000 + (uint64_t)tv.tv_usec),
               ansi(m->fancy, ANSI_BOLD), from, symbol_arrow(m->fancy), to, ansi_reset(m->fancy),
               reason[0] ? ": " : "", reason);
        fflush(stdout);
        status_draw(m);
        /* The level changed: show it now rather than within a second. */
        if (m->status_line && !m->query)
                (void)sd_bus_call_method_async(m->bus, &m->query, SWITCH1_NAME, SWITCH1_PATH,
                                               "org.freedesktop.DBus.Properties", "GetAll", on_status, m, "s",
                                               SWITCH1_IFACE);
        return 0;
}

static int on_owner_changed(sd_bus_message *msg, void *userdata, sd_bus_error *ret_error)
{
        struct monitor *m = userdata;
        const char *name, *old_owner, *new_owner;

        if (sd_bus_message_read(msg, "sss", &name, &old_owner, &new_owner) < 0)
                return 0;
        status_clear(m);
        fflush(stdout);
        fprintf(stderr, "switchctl: %s\n",
                !new_owner[0] ? "bigLittled stopped"
                : m->seen     ? "bigLittled is running again"
                              : "bigLittled is running");
        if (!new_owner[0])
                m->line[0] = '\0';
        else
                m->seen = true;
        status_draw(m);
        return 0;
}

static int monitor_setup(struct monitor *m)
{
        sigset_t mask;
        int r;

        sigemptyset(&mask);
        sigaddset(&mask, SIGINT);
        sigaddset(&mask, SIGTERM);
        if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
                return -errno;
        r = sd_event_default(&m->event);
        /* NULL handlers: the signal ends the loop with status 0. */
        if (r >= 0)
                r = sd_event_add_signal(m->event, NULL, SIGINT, NULL, NULL);
        if (r >= 0)
                r = sd_event_add_signal(m->event, NULL, SIGTERM, NULL, NULL);
        if (r >= 0)
                r = sd_bus_attach_event(m->bus, m->event, SD_EVENT_PRIORITY_NORMAL);
        if (r >= 0)
                r = sd_bus_match_signal(m->bus, NULL, SWITCH1_NAME, SWITCH1_PATH, SWITCH1_IFACE, "Switched",
                                        on_switched, m);
        if (r >= 0)
                r = sd_bus_add_match(m->bus, NULL,
                                     "type='signal',sender='org.freedesktop.DBus',"
                                     "interface='org.freedesktop.DBus',member='NameOwnerChanged',"
                                     "arg0='" SWITCH1_NAME "'",
                                     on_owner_changed, m);
        if (r >= 0 && m->status_line)
                r = sd_event_add_time_relative(m->event, NULL, CLOCK_MONOTONIC, REFRESH_USEC, 0, on_refresh,
                                               m);
        return r;
}

/* Whether the name has an owner; 1 or 0, or a negative errno. Asked of the
 * bus rather than of the name, which could start the daemon by activation. */
static int daemon_is_up(sd_bus *bus, sd_bus_error *error)
{
        _cleanup_(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
        int up = 0, r;

        r = sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "NameHasOwner", error, &reply, "s", SWITCH1_NAME);
        if (r >= 0)
                r = sd_bus_message_read_basic(reply, 'b', &up);
        return r < 0 ? r : up;
}

/* Runs until SIGINT or SIGTERM; returns the exit status. */
static int monitor_loop(struct monitor *m)
{
        int r = sd_event_loop(m->event);

        status_clear(m);
        fflush(stdout);
        return r < 0 ? client_report(NULL, r) : 0;
}

int verb_monitor(const struct ctl_args *a)
{
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(client_status_done) struct ctl_status s = { .temperature = -1 };
        _cleanup_(sd_bus_unrefp) sd_bus *bus = NULL;
        struct monitor m = { .fancy = a->fancy, .status_line = isatty(STDOUT_FILENO) };
        int r, status;

        r = client_open(&bus, false);
        if (r != 0)
                return r;
        m.bus = bus;
        r = monitor_setup(&m);
        if (r >= 0 && a->wait) {
                r = daemon_is_up(bus, &error);
                /* The watch on its name is in place: its start will be seen. */
                if (r == 0) {
                        fprintf(stderr, "switchctl: waiting for bigLittled (%s on the system bus)\n",
                                SWITCH1_NAME);
                        status = monitor_loop(&m);
                        goto out;
                }
        }
        /* Subscribed first, then asked: no switch falls between the two. */
        if (r >= 0)
                r = client_read_status(bus, &s, &error);
        if (r < 0) {
                status = client_report(&error, r);
        } else {
                m.seen = true;
                status_compose(&m, &s);
                status_draw(&m);
                status = monitor_loop(&m);
        }
out:
        sd_bus_slot_unref(m.query);
        if (m.event) {
                sd_bus_detach_event(bus);
                sd_event_unref(m.event);
        }
        return status;
}
