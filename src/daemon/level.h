/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What the daemon is at and how it moves (level.c): names, the controller,
 * the one way a level reaches the kernel, the start of a switch, and the
 * hook the bus is told of changes through. It calls nothing above it. */

#include "daemon/state.h"

/* The journal fields of holds ending (common/log.h): 'id' (0 when several
 * end at once), how many, and why ("released", "expired", "owner-left",
 * "level-gone"). Returns 'f'. */
struct log_fields;
const struct log_fields *daemon_release_fields(struct log_fields *f, uint32_t id, unsigned n, const char *why);

/* The name of the current state: a level, or one letter per pair. */
void daemon_state_name(const struct bl_daemon *d, char *buf, size_t size);

/* The state the last decisions want (= the current one when none wants a
 * change). */
void daemon_target_name(const struct bl_daemon *d, char *buf, size_t size);

/* "normal", "capped" or "critical". */
const char *daemon_thermal_state(const struct bl_daemon *d);

/* A level's name ("?" out of range); and the whole ladder, each level with
 * its CPUs, for the log. */
const char *daemon_level_name(const struct bl_daemon *d, unsigned level);
void daemon_describe_ladder(const struct bl_daemon *d, char *buf, size_t size);


/* The ladder for d->topo in the mode the configuration asks for (auto:
 * the one the topology suits, 'why' says why). Returns ladder_build()'s. */
int daemon_build_ladder(const struct bl_daemon *d, struct bl_ladder *ladder, enum bl_mode *mode, char *why,
                        size_t size);

/* Remembers the online CPUs the daemon's own change left: the backend's
 * word when it takes CPUs offline itself, read from the kernel otherwise. */
void daemon_note_online(struct bl_daemon *d);

/* The one way a level reaches the kernel on the loop (start-up, and again
 * after others' changes; switches decided at a tick go through the same
 * switch_job_run() on the worker): the engines' current level, without the
 * CPUs others took offline, and the online CPUs it left noted. Returns the
 * backend's apply() result; 'job' has its detail and times. */
int daemon_apply_level(struct bl_daemon *d, struct switch_job *job);

/* Persistent holds saved, the bus told. */
void daemon_holds_changed(struct bl_daemon *d);

/* (Re)creates the controller for d->ladder, every engine at level 0 applied
 * at 'now', with one decision slot per engine. Returns 0 or a negative errno
 * (then no controller is in place). */
int daemon_start_controller(struct bl_daemon *d, bl_usec_t now);

/* Decides on the last sample now, not at the next tick (after the switch
 * in flight, if one is). */
void daemon_decide_now(struct bl_daemon *d);

/* Records 'what' (enum bl_change) for the watcher; it is told on the loop's
 * next iteration, all changes of this one together. */
void daemon_changed(struct bl_daemon *d, unsigned what);

/* Sets who is told of changes ('fn' NULL: no one; what was not told yet is
 * told first). Returns 0 or a negative errno. */
int daemon_watch_changes(struct bl_daemon *d, bl_change_fn fn, void *userdata);

/* Waits (at most 'timeout') for the switch in flight to end, for the code
 * that uses the backend itself (re-applying a level). Returns 0, or
 * -ETIMEDOUT when it still runs. */
int daemon_switch_wait(struct bl_daemon *d, bl_usec_t timeout);

/* The current cost estimate of one switch. */
void daemon_switch_cost(const struct bl_daemon *d, struct bl_switch_cost *cost);

/* The holds' current winner handed to the controller; the bus told when
 * holds expired. */
void daemon_sync_holds(struct bl_daemon *d, bl_usec_t now);
/* The journal fields of a hold placed (BIGLITTLE_HOLD_*). Returns 'f'. */
const struct log_fields *daemon_hold_fields(struct log_fields *f, const struct bl_daemon *d,
                                            const struct bl_hold *h, uint32_t id);
/* After decisions: the watcher told when an engine's target moved. */
void daemon_note_target(struct bl_daemon *d);
/* Logs what the heuristics could not score, once per change. */
void daemon_log_scoring_problems(struct bl_daemon *d);
/* Starts applying what d->decisions want (switch-worker.h); its end goes
 * to d->on_switch_done. */
void daemon_start_switch(struct bl_daemon *d, bl_usec_t now);
/* A switch that went through: its time goes into the cost estimate. */
void daemon_measure(struct bl_daemon *d, const struct switch_job *job);
/* The kernel ignored the switch in flight: its target levels are left out. */
void daemon_mark_unreachable(struct bl_daemon *d, const char *detail);
/* The status line systemd shows. */
void daemon_notify_status(const struct bl_daemon *d);
/* CLOCK_REALTIME in microseconds, the history's labels. */
uint64_t daemon_wall_usec(void);
