/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel state a backend may change, kept in DIR/saved-state (under
 * $RUNTIME_DIRECTORY) while the daemon runs, so that a run that dies
 * without restoring it (SIGKILL, a crash) is undone by the next start. A
 * clean exit removes the file; finding it at start means the previous run
 * did not get to restore. The format, a header line and then lines of
 * key=value ('#' starts a comment):
 *
 *   # bigLittle saved-state v1 the format and its version, always line 1
 *   backend=hotplug            the backend that wrote it, always first
 *   pid=4242                   the daemon that wrote it
 *   online=0-7                 the rest is the backend's, from its save()
 */

#include <stdbool.h>
#include <sys/types.h>

#include "backends/backend.h"
#include "core/diag.h"

#define SAVED_STATE_FILE "saved-state"
#define SAVED_STATE_BAD_FILE "saved-state.bad"
/* Far more than any backend needs ("online=" and a CPU list). */
#define SAVED_STATE_MAX 8192
#define SAVED_STATE_MAX_LINES 64

struct saved_state {
        char backend[BL_NAME_MAX];
        unsigned backend_line;
        pid_t pid;
        /* The backend's lines, without comments, each ending in '\n'. */
        char text[SAVED_STATE_MAX];
        /* Where each of the backend's keys is, to name the line at fault. */
        unsigned nkeys;
        char key[SAVED_STATE_MAX_LINES][BL_NAME_MAX];
        unsigned line[SAVED_STATE_MAX_LINES];
};

/* Writes DIR/saved-state atomically (a temporary file, fsync, renamed over
 * it, mode 0600) with the backend's 'text' (key=value lines from its
 * save()) and our pid. Creates DIR (0755) if missing. Returns 0, -EINVAL
 * when 'text' is not key=value lines, or a negative errno. */
int saved_state_write(const char *dir, const char *backend, const char *text);

/* Reads DIR/saved-state. Returns 0, -ENOENT when there is none, -EINVAL
 * when it is damaged or not a file this daemon could have written (a
 * symbolic link, not a regular file, another owner, a mode other than
 * 0600, no header or another version: every problem said in 'diag' as
 * "FILE:LINE: ...", without repeating what is on the line), or a negative
 * errno when it cannot be read. Whether 'backend' is one this daemon knows
 * is not checked here. */
int saved_state_read(const char *dir, struct saved_state *s, struct bl_diag *diag);
/* The same for the file's text, read by the caller from 'path' (named in
 * 'diag'): 'content' is NUL-terminated after 'len' bytes and is cut into
 * lines in place. Returns 0 or -EINVAL. */
int saved_state_parse(struct saved_state *s, const char *path, char *content, size_t len,
                      struct bl_diag *diag);

/* Whether DIR/saved-state is there. */
bool saved_state_exists(const char *dir);

/* Removes DIR/saved-state; 0 also when there was none. */
int saved_state_remove(const char *dir);

/* What reconciling found and did, for the log. */
struct saved_state_report {
        char saved[512];        /* the file's settings: "backend=hotplug pid=4242 online=0-7" */
        char detail[256];       /* what restoring did ("online 0-7"), or why it failed */
};

/* Undoes what a run that died left: reads DIR/saved-state and has the
 * backend that wrote it put back its state. Returns
 *   0          no file: the last run ended cleanly (or never ran);
 *   1          restored, and the file removed;
 *   -EINVAL    the file is damaged, not one the daemon could have written
 *              (see saved_state_read()), names an unknown backend, or one
 *              that cannot restore: said in 'diag' with FILE:LINE; nothing
 *              was changed and the file was renamed to saved-state.bad (or
 *              saved-state.bad.N when that cannot be replaced);
 *   -EBUSY     the daemon that wrote it still runs; nothing was changed;
 *   other <0   restoring failed (rep->detail says how); the file stays for
 *              the next start to try again. */
int saved_state_reconcile(const char *dir, const struct bl_topology *t, struct saved_state_report *rep,
                          struct bl_diag *diag);
