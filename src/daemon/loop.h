/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The loop's handlers (loop.c): the tick, the end of a switch, signals. */

#include <sys/signalfd.h>

#include "daemon/state.h"

/* Arms the tick timer, the first tick one interval after 'now'. Returns 0
 * or a negative errno. */
int daemon_start_ticks(struct bl_daemon *d, bl_usec_t now);

/* A tick now, out of turn (idle-wake.c); the timer is re-armed from now. */
int daemon_tick_now(struct bl_daemon *d);

/* The loop's half of a switch: what the backend's apply() said. */
void daemon_switch_done(struct switch_job *job, void *userdata);

/* SIGHUP reloads; SIGTERM and SIGINT leave the loop. */
int daemon_on_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata);

/* The sample at debug level, 'what' saying which ("read", "settling"). */
void daemon_log_sample(const struct bl_daemon *d, const char *what);
