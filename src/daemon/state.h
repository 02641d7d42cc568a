/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The daemon's state, shared between its loop (daemon.c), its bus service
 * (bus.c) and its event handling (events.c), and what they may ask of the
 * loop. Only these files include it. */

#include <systemd/sd-event.h>

#include "backends/backend.h"
#include "common/conf-files.h"
#include "common/plugin-loader.h"
#include "core/clock-jump.h"
#include "core/controller.h"
#include "core/history.h"
#include "core/holds.h"
#include "core/settle.h"
#include "core/switch-cost.h"
#include "core/thermal-limits.h"
#include "daemon/model-in-use.h"
#include "daemon/options.h"
#include "daemon/switch-worker.h"
#include "sources/sampler.h"

struct bl_bus;

/* What changed, for whoever announces it (the bus): daemon_changed(). */
enum bl_change {
        BL_CHANGE_SWITCHED = 1u << 0,   /* switches went through: the history's newest entries */
        BL_CHANGE_STATE = 1u << 1,      /* the level, the target or the thermal state may differ */
        BL_CHANGE_HOLDS = 1u << 2,
        BL_CHANGE_CONFIG = 1u << 3,     /* reloaded, or a new ladder */
        BL_CHANGE_LIMITS = 1u << 4,     /* thermal limits resolved anew */
        BL_CHANGE_PROFILE = 1u << 5,    /* what the desktop's profile or the battery adjusts */
        BL_CHANGE_UNREACHABLE = 1u << 6,
        BL_CHANGE_SWITCH_DONE = 1u << 7,        /* no switch runs: calls waiting for one are answered */
};
/* Told once per loop iteration in which something changed, with the
 * changes (enum bl_change) ORed. */
typedef void (*bl_change_fn)(unsigned changes, void *userdata);
struct bl_desktop_watch;
struct uevent_monitor;

/* Runtime state (persistent holds) when systemd does not say where. */
#define BL_RUNTIME_DIR "/run/bigLittle"

/* After a refused switch, wait this long before asking the kernel again. */
#define RETRY_AFTER_FAILURE_USEC BL_USEC_PER_SEC

#define BL_LATENESS_BIN_USEC 10
/* 0-100 ms in bins, and one for every tick later than that. */
#define BL_LATENESS_BINS 10001

/* On SIGTERM, a switch in flight is waited for this long before the CPUs
 * are restored: hotplug under emulation takes seconds, and restoring
 * while it runs would race it. */
#define SWITCH_EXIT_WAIT_USEC (20 * BL_USEC_PER_SEC)
/* One measured switch counts at most this many times what the estimate
 * expects (daemon.c, measure()). */
#define SWITCH_OUTLIER 4.0
/* The settle window's floor, in ticks at sample_interval_ms: the kernel's
 * work after a fast switch still takes a few samples to pass. */
#define SETTLE_MIN_TICKS 5

struct bl_daemon {
        const struct options *opt;
        sd_event *event;
        sd_event_source *timer;
        struct bl_bus *bus;             /* NULL without a bus */
        /* Who is told of changes, and those not told yet: 'announce' is a
         * deferred source enabled only when there are some. */
        bl_change_fn on_change;
        void *on_change_data;
        unsigned changes;
        sd_event_source *announce;
        unsigned target_said[BL_MAX_PAIRS];     /* each engine's target as last announced */

        struct bl_config cfg;           /* thermal limits as resolved (see 'limits') */
        struct bl_thermal_limits limits;        /* and where each came from */
        struct bl_conf_files files;
        struct bl_plugin_set plugins;
        char plugin_dir[BL_PATH_MAX];   /* where the plugins came from */
        struct bl_topology topo;
        struct bl_ladder ladder;
        struct model_in_use energy;     /* what a level costs at a load ([policy] energy_model) */

        const struct bl_backend_ops *backend_ops;
        struct bl_backend *backend;
        struct bl_sampler sampler;
        bool sampler_opened;
        bool controller_ready;
        struct bl_controller ctl;
        struct bl_decision *decisions;  /* one per engine, the last tick's */
        struct bl_sample_buf sample;

        struct bl_holds holds;
        struct bl_history history;
        char runtime_dir[BL_PATH_MAX];  /* where persistent holds are kept */

        /* Following the desktop (desktop.c): what power-profiles-daemon and
         * UPower said, and the adjustment it makes. */
        struct bl_desktop_watch *desktop;       /* NULL without a bus */
        struct bl_desktop desktop_in;
        struct bl_profile_effect profile;

        bl_usec_t interval;
        bl_usec_t next_tick;
        bl_usec_t retry_after;
        /* The kernel's CPUs are not the engines' level (its switch failed
         * and was undone): applied again at the first tick after
         * retry_after, until it goes through. */
        bool level_unapplied;
        unsigned ticks;
        unsigned long switches;         /* per engine that switched (a pair counts one) */
        unsigned read_failures;
        /* The last refused switch's description, and how many times in a
         * row it failed the same way since it was logged. */
        char failed_detail[256];
        unsigned failed_repeats;
        /* The sampler's problems as last logged, and how many ticks in a
         * row /proc/stat lacked a line for a CPU the daemon left online. */
        char problem_said[SAMPLER_PROBLEMS][SAMPLER_PROBLEM_MAX];
        unsigned missing_lines;
        double demand;
        char last_reason[BL_REASON_MAX];
        /* Time each engine spent at each level (pair mode: summed over pairs). */
        bl_usec_t time_in[BL_MAX_LEVELS];
        bl_usec_t accounted_until;
        /* How late each tick's wakeup came, in bins of BL_LATENESS_BIN_USEC
         * (the last bin holds everything later), for the stop line. */
        uint32_t lateness[BL_LATENESS_BINS];
        uint64_t jitter_state;  /* tick_jitter_next()'s */

        /* The switch in flight, applied on a thread (switch-worker.h). */
        struct switch_worker worker;
        bool worker_open;
        struct bl_decision *inflight;   /* the decisions it applies, one per engine */
        bl_usec_t inflight_at;          /* the tick they were made at */
        char inflight_changes[512];     /* "little -> big" */
        bool decide_after_switch;       /* a hold or release came while it ran */
        bool cpus_changed_meanwhile;    /* a CPU uevent came while it ran: checked after */
        bool cpus_physical_meanwhile;   /* one of them added or removed a CPU */
        bool stopping;                  /* no new switch: the daemon is leaving */
        bool switch_abandoned;          /* leaving with one still running */
        bl_cpuset applied_cpus;         /* what the last switch that went through applied */
        /* What a switch costs here (measured, from the backend's prior) and
         * how long the kernel takes to settle after one. */
        struct bl_switch_estimate cost;
        struct bl_settle settle;
        /* Levels the backend cannot reach on this machine: a switch to them
         * did nothing (the kernel ignored it). Not tried again until a
         * restart; bit L is level L. */
        uint64_t unreachable;
        char unreachable_why[BL_MAX_LEVELS][256];

        /* Events: CPUs and thermal zones others change, and suspend. */
        struct uevent_monitor *uevents; /* NULL when udev cannot be watched */
        bl_cpuset known_online;         /* the online CPUs as the daemon's last own change left them */
        bl_cpuset left_out;             /* CPUs others took offline: out of every level until back */
        bool paused;                    /* fewer than two kinds of core left: nothing to switch */
        struct bl_clock_watch clock;
        struct bl_wall_watch wall;      /* steps of the wall clock the history is labelled with */
};

/* Actions for the bus; each takes effect at once (a decision is made on
 * the spot, not at the next tick) and is logged. */

/* Places a hold (h->id is assigned and returned in *id). Returns 0, or
 * -EUSERS / -ENOSPC (too many holds), -EINVAL (level out of range). */
int daemon_hold(struct bl_daemon *d, const struct bl_hold *h, uint32_t *id);

/* Ends hold 'id'. Returns 0 or -ENOENT. */
int daemon_release(struct bl_daemon *d, uint32_t id);

/* Ends every hold of 'uid', or every hold with 'all'; returns how many. */
unsigned daemon_release_uid(struct bl_daemon *d, uint32_t uid, bool all);

/* The bus name 'owner' left: its holds that did not ask to persist end. */
void daemon_owner_gone(struct bl_daemon *d, const char *owner);

/* The journal fields of holds ending (common/log.h): 'id' (0 when several
 * end at once), how many, and why ("released", "expired", "owner-left",
 * "level-gone"). Returns 'f'. */
struct log_fields;
const struct log_fields *daemon_release_fields(struct log_fields *f, uint32_t id, unsigned n, const char *why);

/* Reloads the configuration as SIGHUP does. Returns 0 when applied,
 * -EINVAL when refused (the reasons are in the log). */
int daemon_reload(struct bl_daemon *d);

/* The name of the current state: a level, or one letter per pair. */
void daemon_state_name(const struct bl_daemon *d, char *buf, size_t size);

/* The state the last decisions want (= the current one when none wants a
 * change). */
void daemon_target_name(const struct bl_daemon *d, char *buf, size_t size);

/* "normal", "capped" or "critical". */
const char *daemon_thermal_state(const struct bl_daemon *d);

/* Resolves cfg's thermal limits from the trip points of the zones in
 * 'thermal' (core/thermal-limits.h), puts them in 'cfg' and 'limits'; moves
 * made to keep their order are logged as warnings. */
void daemon_resolve_limits(struct bl_config *cfg, const struct thermal_reader *thermal,
                           struct bl_thermal_limits *limits);
/* "thermal: cap 75.0 °C (...), release ..., critical ..." at 'level'. */
void daemon_log_limits(const struct bl_thermal_limits *limits, int level);

/* For events.c: the loop's own steps. */
void daemon_log_diag(const struct bl_diag *diag, int level);
const char *daemon_level_name(const struct bl_daemon *d, unsigned level);
void daemon_describe_ladder(const struct bl_daemon *d, char *buf, size_t size);
/* The CPUs to run on: the controller's choice (or, with 'dec', what the
 * decisions want), without the CPUs others took offline. */
void daemon_target_cpus(const struct bl_daemon *d, const struct bl_decision *dec, bl_cpuset *cpus);
/* The ladder for d->topo in the mode the configuration asks for (auto:
 * the one the topology suits, 'why' says why). Returns ladder_build()'s. */
int daemon_build_ladder(const struct bl_daemon *d, struct bl_ladder *ladder, enum bl_mode *mode, char *why,
                        size_t size);
/* Remembers the online CPUs the daemon's own change left. */
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
/* Records in saved-state what the backend would put back (at start, and
 * after it adopted someone else's change). */
void daemon_save_state(struct bl_daemon *d);
/* Decides on the last sample now, not at the next tick (after the switch
 * in flight, if one is). */
void daemon_decide_now(struct bl_daemon *d);

/* Records 'what' (enum bl_change) for the watcher; it is told on the loop's
 * next iteration, all changes of this one together. */
void daemon_changed(struct bl_daemon *d, unsigned what);
/* Sets who is told of changes ('fn' NULL: no one; what was not told yet is
 * told first). Returns 0 or a negative errno. */
int daemon_watch_changes(struct bl_daemon *d, bl_change_fn fn, void *userdata);

/* Whether a switch is being applied. */
static inline bool daemon_switching(const struct bl_daemon *d)
{
        return d->worker.busy;
}

/* Waits (at most 'timeout') for the switch in flight to end, for the code
 * that uses the backend itself (re-applying a level). Returns 0, or
 * -ETIMEDOUT when it still runs. */
int daemon_switch_wait(struct bl_daemon *d, bl_usec_t timeout);

/* The current cost estimate of one switch. */
void daemon_switch_cost(const struct bl_daemon *d, struct bl_switch_cost *cost);
