/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The daemon's state, shared by the files of src/daemon: start-up and
 * teardown (daemon.c), the loop's handlers (loop.c), what the daemon is at
 * and how it moves (level.c), the bus's actions (actions.c), others'
 * changes (events.c), the bus (bus.c) and the desktop (desktop.c). What
 * each offers the others is in its own header. */

#include <systemd/sd-event.h>

#include "backends/backend.h"
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
#include "daemon/tick-timer.h"
#include "loaders/conf-files.h"
#include "loaders/plugin-loader.h"
#include "sources/activity.h"
#include "sources/sampler.h"

struct bl_bus;
struct bl_desktop_watch;
struct uevent_monitor;

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
 * expects (level.c, daemon_measure()). */
#define SWITCH_OUTLIER 4.0

struct bl_daemon {
        const struct options *opt;
        sd_event *event;
        struct tick_timer tick;
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
        /* Backed off: counters that end the back-off when a CPU gets busy
         * (idle-wake.h), watched by one source each. */
        struct activity activity;
        sd_event_source **wake_source;
        unsigned nwake_sources;
        bl_usec_t *wake_last;           /* per counter: when its last period ended, or the back-off began */
        bool wake_refused;              /* said once: not tried again */
        char wake_refusal[512];         /* the kernel's answer then, for the bus */
        unsigned long idle_wakes;
        unsigned long idle_paced;       /* periods that ended at an idle pace */

        /* The switch in flight, applied on a thread (switch-worker.h). */
        struct switch_worker worker;
        bool worker_open;
        switch_done_fn on_switch_done;  /* the loop's half of a switch (loop.c) */
        struct bl_decision *inflight;   /* the decisions it applies, one per engine */
        bl_usec_t inflight_at;          /* the tick they were made at */
        char inflight_changes[512];     /* "little -> big" */
        bool decide_after_switch;       /* a hold or release came while it ran */
        bool cpus_changed_meanwhile;    /* a CPU uevent came while it ran: checked after */
        bool cpus_physical_meanwhile;   /* one of them added or removed a CPU */
        bool stopping;                  /* no new switch: the daemon is leaving */
        bool switch_abandoned;          /* leaving with one still running */
        bl_cpumask applied_cpus;        /* what the last switch that went through applied */
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
        bl_cpumask known_online;        /* the online CPUs as the daemon's last own change left them */
        bl_cpumask left_out;            /* CPUs others took offline: out of every level until back */
        bool paused;                    /* fewer than two kinds of core left: nothing to switch */
        struct bl_clock_watch clock;
        struct bl_wall_watch wall;      /* steps of the wall clock the history is labelled with */
};

/* Whether a switch is being applied. */
static inline bool daemon_switching(const struct bl_daemon *d)
{
        return d->worker.busy;
}

/* The tick at the configured rate, sample_interval_ms (the controller
 * backs off from it while the machine is idle). */
static inline bl_usec_t daemon_full_rate(const struct bl_config *cfg)
{
        return (bl_usec_t)cfg->sample_interval_ms * BL_USEC_PER_MSEC;
}
