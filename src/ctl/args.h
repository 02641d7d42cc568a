/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* switchctl's command line: options anywhere (as systemctl takes them),
 * a verb, its arguments, and for hold a command after "--". */

#include "ctl/verbs.h"

typedef int (*verb_fn)(const struct ctl_args *a);

/* Parses argv into 'a' and finds the verb's function. Returns 0 with *fn
 * set, or 1 when the program should exit with *exit_status (after --help,
 * --version, or a usage error that was printed). */
int args_parse(int argc, char **argv, struct ctl_args *a, verb_fn *fn, int *exit_status);

/* Releases what args_parse() allocated. */
void args_done(struct ctl_args *a);
