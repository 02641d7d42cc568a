/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What the bus (and SIGHUP) ask of the daemon (actions.c); each takes
 * effect at once (a decision is made on the spot, not at the next tick) and
 * is logged. */

#include "daemon/state.h"

/* Places a hold (h->id is assigned and returned in *id). Returns 0, or
 * -EUSERS / -ENOSPC (too many holds), -EINVAL (level out of range). */
int daemon_hold(struct bl_daemon *d, const struct bl_hold *h, uint32_t *id);

/* Ends hold 'id'. Returns 0 or -ENOENT. */
int daemon_release(struct bl_daemon *d, uint32_t id);

/* Ends every hold of 'uid', or every hold with 'all'; returns how many. */
unsigned daemon_release_uid(struct bl_daemon *d, uint32_t uid, bool all);

/* The bus name 'owner' left: its holds that did not ask to persist end. */
void daemon_owner_gone(struct bl_daemon *d, const char *owner);

/* Reloads the configuration as SIGHUP does. Returns 0 when applied,
 * -EINVAL when refused (the reasons are in the log). */
int daemon_reload(struct bl_daemon *d);

/* Records in saved-state what the backend would put back (at start, and
 * after it adopted someone else's change). */
void daemon_save_state(struct bl_daemon *d);

/* The timer's accuracy for ticks 'interval' apart. */
/* Says which heuristics the configuration turned off. */
void daemon_log_disabled_heuristics(const struct bl_daemon *d);
