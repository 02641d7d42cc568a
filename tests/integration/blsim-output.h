/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Running blsim (run, live, compare) from a test and reading what it
 * prints: its --json report and the daemon's "switch A -> B:" log lines.
 * Every reader fails the test, naming the key, when the text is not as
 * blsim writes it. */

#include <stddef.h>

#define BLSIM_MAX_SWITCHES 32

struct switch_rec {
        unsigned long long t;   /* µs from the workload's start (the report's t_us) */
        char from[32], to[32];   /* level names (BL_NAME_MAX) */
};

struct run_out {
        int status;             /* as waitpid() gives it */
        char *out, *err;
};

/* Runs argv to its end, stdout and stderr into files of the work
 * directory, and reads both back. */
void run_program(char *const argv[], struct run_out *ro);
void run_out_free(struct run_out *ro);

/* The number or string a top-level "key" of the report holds. */
double json_number(const char *json, const char *key);
void json_text(const char *json, const char *key, char *buf, size_t size);

/* The report's switch_sequence, in order, into sw (BLSIM_MAX_SWITCHES at
 * most); returns how many. */
unsigned json_switches(const char *json, struct switch_rec *sw);

/* The daemon's own account: its "switch FROM -> TO: ..." lines, in order
 * (no times). */
unsigned logged_switches(const char *log, struct switch_rec *sw);
