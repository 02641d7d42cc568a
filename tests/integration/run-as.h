/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Calls to the bus as another user, from a child process (run-as.c). */

#include <stdio.h>
#include <sys/types.h>
#include <systemd/sd-bus.h>

#define NOBODY 65534
/* How long a child may take: far above what its calls need. */
#define CHILD_BOUND_MS 20000

/* Runs in the child with its own connection to the system bus; writes to
 * 'out' one line per thing it found wrong. */
typedef void (*nobody_fn)(sd_bus *b, FILE *out, void *userdata);

/* Forks a child that becomes 'uid' (no supplementary groups), connects to
 * the system bus and runs 'fn', while the parent runs the board; fails the
 * test when the child hangs, cannot become 'uid' or reports anything. Needs
 * root. */
void run_as(uid_t uid, nobody_fn fn, void *userdata);
void run_as_nobody(nobody_fn fn, void *userdata);
/* In the child: report unless the call failed with 'name' and 'message'
 * (NULL: any message). Frees 'error'. */
void child_expect_error(FILE *out, const char *what, int r, sd_bus_error *error, const char *name,
                        const char *message);
/* In the child: report if the call failed. Frees 'error'. */
void child_expect_ok(FILE *out, const char *what, int r, sd_bus_error *error);
