/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The verbs of switchctl(1). Each returns the exit status. */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ctl_args {
        char **storage;                 /* owned by args_parse() */
        const char *verb;
        char **positional;              /* the arguments after the verb */
        unsigned n_positional;
        char **command;                 /* hold: what follows "--", NULL-terminated; NULL if none */
        bool json;
        bool legend;                    /* header and footer lines (--no-legend clears it) */
        bool pager;
        bool ask_password;
        bool fancy;                     /* colours and symbols on standard output */
        uint64_t duration;              /* hold --for, µs */
        const char *reason;             /* hold --reason, NULL when not given */
        bool persist;
        bool all;                       /* release --all */
        bool wait;                      /* monitor --wait */
        bool help;                      /* --help: the verb's help, or the global one without a verb */
        uint32_t lines;                 /* history -n, 0: all */
        const char *record_duration;    /* record --duration, NULL when not given */
        const char *record_interval;    /* record --interval */
};

/* Without --for, a hold lasts this long: the daemon's default maximum. */
#define HOLD_DEFAULT_USEC (UINT64_C(3600) * 1000000)

int verb_status(const struct ctl_args *a);
int verb_get(const struct ctl_args *a);
/* The keys "get" knows, one a line with what each is, for its help. */
void get_keys_print(FILE *f);
int verb_history(const struct ctl_args *a);
int verb_stats(const struct ctl_args *a);
int verb_hold(const struct ctl_args *a);
int verb_release(const struct ctl_args *a);
int verb_auto(const struct ctl_args *a);
int verb_monitor(const struct ctl_args *a);
int verb_reload(const struct ctl_args *a);
int verb_check_config(const struct ctl_args *a);
int verb_record(const struct ctl_args *a);
/* For the shell completion: the level names, and the ids of the holds, one a line. */
int verb_list_levels(const struct ctl_args *a);
int verb_list_holds(const struct ctl_args *a);
/* The keys of get, with the daemon's levels, scores and limits where it runs. */
int verb_list_keys(const struct ctl_args *a);
