/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Holds that asked to persist, kept in DIR/holds (under $RUNTIME_DIRECTORY)
 * so that they survive a daemon restart, but not a reboot. One hold per
 * line, "key=value" fields separated by spaces, values escaped (\\, \xHH for
 * spaces and control bytes):
 *
 *   id=3 level=1 uid=1000 pid=4242 since_wall=1700000000000000
 *   until_wall=1700000600000000 unit=foo.service reason=video\x20call
 *
 * (one line). level is the ladder index; times are CLOCK_REALTIME µs, since
 * CLOCK_MONOTONIC starts again with the daemon. Lines starting with '#' are
 * comments. */

#include <stdio.h>

#include "core/diag.h"
#include "core/holds.h"

#define HOLDS_STORE_FILE "holds"

/* Writes the persistent holds of 'hs' to DIR/holds atomically (a temporary
 * file renamed over it, mode 0600); removes the file when there are none.
 * Creates DIR (mode 0755) if it is missing. Returns 0 or a negative errno. */
int holds_store_save(const struct bl_holds *hs, const char *dir);
/* The text holds_store_save() writes, to 'f'. */
void holds_store_print(FILE *f, const struct bl_holds *hs);

/* Restores the holds of DIR/holds into 'hs' with holds_restore(), each
 * hold's monotonic times placed relative to 'now_mono' as its wall times are
 * to 'now_wall'. Restored holds have no owner bus name (it was another
 * connection) and persist. Holds whose time ran out are dropped, and so are
 * lines that cannot be read; both are said in 'diag' as "FILE:LINE: ...",
 * naming the field rather than repeating it. Returns the number of holds
 * restored (0 when the file does not exist), or a negative errno when it
 * cannot be read or is not a file this daemon could have written (a
 * symbolic link, not a regular file, another owner, a mode other than
 * 0600: said in 'diag'). */
int holds_store_load(struct bl_holds *hs, const char *dir, uint64_t now_wall, bl_usec_t now_mono,
                     struct bl_diag *diag);
/* The same for the file's text, read by the caller from 'path' (named in
 * 'diag'); 'text' is NUL-terminated and cut into lines in place. Returns
 * the number of holds restored. */
int holds_store_parse(struct bl_holds *hs, const char *path, char *text, uint64_t now_wall,
                      bl_usec_t now_mono, struct bl_diag *diag);
