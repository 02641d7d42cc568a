/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* switchctl's side of org.bigLittle.Switch1: the connection, the calls,
 * the properties read into plain structs, and D-Bus errors turned into
 * messages for people and exit statuses. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

#include "common/cleanup.h"
#include "common/exit-status.h"

#define SWITCH1_NAME "org.bigLittle.Switch1"
#define SWITCH1_PATH "/org/bigLittle/Switch1"
#define SWITCH1_IFACE "org.bigLittle.Switch1"
#define SWITCH1_ERROR_PREFIX "org.bigLittle.Switch1.Error."

/* Exit statuses, documented in switchctl(1) EXIT STATUS. */
#define EXIT_NOT_PERMITTED 4
#define EXIT_NOT_RUNNING EXIT_UNAVAILABLE

#define MSG_NOT_RUNNING "bigLittled is not running (no " SWITCH1_NAME " on the system bus)"
#define MSG_NOT_PERMITTED "not permitted: run as root or grant org.bigLittle.Switch1.manage"

struct ctl_hold {
        uint32_t id;
        char *level;
        uint32_t uid;
        int32_t pid;            /* 0 when unknown */
        char *unit;             /* "" when unknown */
        char *owner;            /* the bus name that placed it */
        char *reason;
        uint64_t since_wall;    /* CLOCK_REALTIME µs */
        uint64_t until_wall;
        bool persist;
};

struct ctl_named_double {
        char *name;
        double value;
};

struct ctl_named_usec {
        char *name;
        uint64_t usec;
};

/* One thermal limit: "cap", "release" or "critical", and where it came
 * from ("trip", "configured", "built-in"; origin for people). */
struct ctl_limit {
        char *name;
        int32_t mc;
        char *source;
        char *origin;
};

/* What a switch costs, as the daemon estimates it (SwitchCost). */
struct ctl_switch_cost {
        bool known;             /* the daemon sent it */
        double fixed_us, per_cpu_us;
        uint32_t measured;      /* switches measured; 0: the backend's prior */
        double last_us;
        uint32_t last_cpus;
        double max_us;
};

/* How long the kernel took to settle after switches (Settle). */
struct ctl_settle {
        bool known;
        uint64_t last_usec, mean_usec, max_usec;
        uint32_t windows, bounded;
        uint64_t discounted;    /* samples that counted less than they read */
};

/* The idle wake (IdleWake): its state for people, the wakes, the periods
 * that ended at an idle pace. */
struct ctl_idle_wake {
        bool known;
        char *state;
        uint64_t wakes, idle_paced;
};

/* A level the backend cannot reach, and what the kernel did instead. */
struct ctl_unreachable {
        char *level;
        char *why;
};

/* The properties of the object; strings are NULL and counts 0 for what
 * the daemon did not send. */
struct ctl_status {
        char *mode, *mode_reason;
        char *level, *target_level;
        char **levels;
        double demand, up_threshold, down_threshold;
        struct ctl_named_double *scores;
        size_t n_scores;
        int32_t temperature;    /* m°C, -1: no zone watched */
        char *thermal_state;
        struct ctl_limit *limits;
        size_t n_limits;
        struct ctl_hold *holds;
        size_t n_holds;
        char *backend;
        char *topology;         /* how the daemon told the kinds of core apart */
        char *energy_model;     /* the model in use and where it came from; NULL from older daemons */
        uint64_t switches;
        struct ctl_named_usec *time_in_level;
        size_t n_time_in_level;
        char *last_reason;
        char **config_files;
        struct ctl_switch_cost cost;
        struct ctl_settle settle;
        struct ctl_unreachable *unreachable;
        size_t n_unreachable;
        struct ctl_idle_wake idle_wake;
        /* The hold that decides (0: none, or a daemon that does not say)
         * and why it ("newest of 3"). */
        uint32_t winning_hold;
        char *winning_hold_why;
        /* What the desktop's profile and the battery adjust; "" or NULL: nothing. */
        char *profile_adjustment;
};

struct ctl_switch {
        uint64_t when_wall, when_monotonic;
        char *from, *to, *reason;
};

/* Connects to the system bus ($DBUS_SYSTEM_BUS_ADDRESS when set). With
 * 'interactive' and standard input a terminal, polkit may ask for a
 * password. Returns 0, or prints why not and returns EXIT_NOT_RUNNING. */
int client_open(sd_bus **ret, bool interactive);

/* Prints 'error' (or 'r') for people and returns the exit status it maps to. */
int client_report(const sd_bus_error *error, int r);

/* Calls a method of the object; arguments as for sd_bus_call_method(). */
int client_call(sd_bus *bus, const char *member, sd_bus_error *error, sd_bus_message **reply,
                const char *types, ...);

/* GetAll, into 's' (reset first; on failure too). Returns 0 or a negative errno. */
int client_read_status(sd_bus *bus, struct ctl_status *s, sd_bus_error *error);
/* Connects, reads the status into 's' and disconnects. Returns 0, or the
 * exit status after saying what went wrong. */
int client_fetch_status(struct ctl_status *s);
/* The same from a GetAll reply. */
int client_parse_status(sd_bus_message *m, struct ctl_status *s);
void client_status_done(struct ctl_status *s);

/* Reads an a(usuisssttb) from 'm' (the Holds property's value). */
int client_read_holds(sd_bus_message *m, struct ctl_hold **ret, size_t *ret_n);
void client_holds_free(struct ctl_hold *h, size_t n);

/* History(n): the last n switches, oldest first (n = 0: all kept). */
int client_read_history(sd_bus *bus, uint32_t n, struct ctl_switch **ret, size_t *ret_n, sd_bus_error *error);
void client_history_free(struct ctl_switch *s, size_t n);

/* Frees a NULL-terminated string array; NULL is fine. */
void strv_free(char **l);

/* The time 'level' spent, 0 when the daemon did not say. */
uint64_t client_time_in(const struct ctl_status *s, const char *level);
