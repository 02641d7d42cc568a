/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The decision core: demand and temperature in, target level out, with
 * hysteresis, dwell delays, minimum residency, a switch-rate limit and
 * thermal limits. Pure: time is an argument, so the daemon, the simulator
 * and the tests run exactly this code. */

#include <limits.h>

#include "core/config.h"
#include "core/ladder.h"
#include "core/energy-model.h"
#include "core/gaps.h"
#include "core/switch-cost.h"

#define BL_ENGINE_MAX_RATE 1000
/* Levels whose gaps are learned (the rest wait the break-even time). */
#define BL_ENGINE_GAP_LEVELS 8
/* Without a model of the levels' power, the break-even time is this many
 * times the switches' own time there and back: on the boards modelled, what
 * a fast cluster draws idle against an efficient one pays back a switch's
 * energy in 90-300 times its duration. */
#define BL_BREAK_EVEN_PER_LATENCY 200
/* ... but no longer than this. The factor holds for a cluster switch, whose
 * time is spent with both clusters powered; a hotplug's or a cpuset's time is
 * mostly spent waiting (RCU grace periods, stop_machine's handshakes, task
 * migration), so its duration overstates its energy many times: the boards'
 * hotplug figures (tens of mJ for a cluster) break even in about half a
 * second, where 200 x its measured time would say tens of seconds and the
 * machine would never come down after a load. Waiting this long costs at
 * most this long at the upper level's extra power. */
#define BL_BREAK_EVEN_MAX_NO_MODEL_US (1000 * 1000)
/* A move down waits for a stay expected to save this many times what the
 * switches there and back cost, not just as much: the way back up also
 * stalls the work that calls for it, which the energy does not count. */
#define BL_BREAK_EVEN_MARGIN 2

struct bl_engine_params {
        unsigned up_pct;
        unsigned down_pct;
        bl_usec_t up_delay;
        bl_usec_t down_delay;
        bl_usec_t min_residency;
        unsigned max_rate_hz;           /* switches per second, 0 = unlimited */
        int cap_mc;
        int release_mc;
        int critical_mc;
        bool break_even;
        bool climb_loaded;              /* mp: rule 2b */
};

enum bl_cause {
        BL_CAUSE_NONE,          /* staying, nothing pending */
        BL_CAUSE_PENDING,       /* a change waits for its dwell delay */
        BL_CAUSE_RESIDENCY,     /* a change waits for minimum residency */
        BL_CAUSE_RATE,          /* a change waits for the switch-rate limit */
        BL_CAUSE_UP,
        BL_CAUSE_DOWN,
        BL_CAUSE_THERMAL_CAP,
        BL_CAUSE_CRITICAL,
        BL_CAUSE_HOLD,          /* a hold chose the level */
        BL_CAUSE_PROFILE,       /* the desktop's profile caps the level (engine_set_ceiling()) */
};

struct bl_decision {
        unsigned from;
        unsigned to;            /* == from when no switch is wanted now */
        bool change;
        enum bl_cause cause;
        char reason[BL_REASON_MAX];
};

struct bl_engine {
        const struct bl_ladder *ladder;
        struct bl_engine_params p;
        unsigned level;                 /* what the backend has applied */
        bl_usec_t level_since;
        bool started;                   /* level_since is meaningful */
        /* the pending move and since when its condition has held */
        int pending_dir;                /* +1 up, -1 down, 0 none */
        unsigned pending_to;            /* the level it would move to (with pending_dir) */
        bl_usec_t pending_since;
        /* the previous decision's time (with 'decided'), and the pending
         * move's at its start: its first sample covers the time since
         * (rule 3c); 0 when it started at the first decision */
        bool decided;
        bl_usec_t last_decision;
        bl_usec_t pending_seen_from;
        /* thermal state */
        bool capped;
        bool critical;
        /* times of recent switches, for the rate limit (ring buffer) */
        bl_usec_t recent[BL_ENGINE_MAX_RATE];
        unsigned recent_head, recent_n;
        /* what a switch costs on this machine (engine_set_switch_cost()) */
        struct bl_switch_cost cost;
        const struct bl_energy_model *model;    /* NULL: none known */
        /* gaps[L]: how long level L did, learned from the demand */
        struct bl_gaps gaps[BL_ENGINE_GAP_LEVELS];
        /* Every decision gets its reason (the default); when false, only
         * switches do and the rest leave it empty (engine_explain()). */
        bool explain_all;
        /* The highest level automatic choices may take (engine_set_ceiling());
         * >= the ladder's levels: none. */
        unsigned ceiling;
        char ceiling_who[BL_REASON_MAX / 4];
};

void engine_params_from_config(struct bl_engine_params *p, const struct bl_config *c);

void engine_init(struct bl_engine *e, const struct bl_ladder *l, const struct bl_engine_params *p,
                 unsigned level);

/* Whether decisions that switch nothing are explained too: a daemon that
 * does not log them at its log level saves formatting numbers every tick. */
void engine_explain(struct bl_engine *e, bool all);

/* New parameters (reload) keep the current level and thermal state. */
void engine_set_params(struct bl_engine *e, const struct bl_engine_params *p);

/* Decides for the sample ending at 'now'. 'temp_mc' is NULL when no thermal
 * zone is watched. Does not change the level: call engine_switched() once the
 * backend has applied d->to. */
void engine_decide(struct bl_engine *e, double demand, const int *temp_mc, bl_usec_t now,
                   struct bl_decision *d);

/* The same with per-CPU demands, largest first ('ntop' of them; missing
 * ranks count as 0): what mp mode's levels are tested with. 'loaded' is how
 * many CPUs of the level the sample shows carrying a load (busy over 60%
 * of the interval); in mp mode a move up goes no higher than the lowest
 * level with that many fast CPUs (rule 2b, with climb_loaded), and waits
 * while that is the current one. BL_ENGINE_ANY_LOAD: no such bound. */
#define BL_ENGINE_ANY_LOAD UINT_MAX
void engine_decide_ranked(struct bl_engine *e, const double *top, unsigned ntop, unsigned loaded,
                          const int *temp_mc, bl_usec_t now, struct bl_decision *d);

/* Decides with a hold in force: 'level' at once (no dwell, residency or rate
 * limit), unless a thermal limit forbids it; 'who' describes the hold for
 * the reason ("hold 3 by uid 1000 (benchmark)"). */
void engine_decide_hold(struct bl_engine *e, unsigned level, const char *who, const int *temp_mc,
                        bl_usec_t now, struct bl_decision *d);

/* What one switch costs with the backend in use, as measured or modelled;
 * kept across engine_set_params(). Zero until set. */
void engine_set_switch_cost(struct bl_engine *e, const struct bl_switch_cost *c);

/* The power of each level at the load seen, or NULL; kept across
 * engine_set_params(). The model must outlive the engine's use of it. */
void engine_set_energy_model(struct bl_engine *e, const struct bl_energy_model *m);

/* How long the switch from the current level to the next one up would
 * stall work, as the switch cost now says; 0 at the top. */
double engine_switch_up_us(const struct bl_engine *e);

/* How long a stay on level 'to' must last to pay for the switch from 'from'
 * and back: the switches' energy over what 'to' saves per unit of time idle
 * (energy model; at 'demand' where 'to' does not idle cheaper: the demand
 * reported through a gap between bursts is held, and rises as a burst
 * begins), or BL_BREAK_EVEN_PER_LATENCY
 * times their time without a model (at most BL_BREAK_EVEN_MAX_NO_MODEL_US);
 * 0 when switching costs nothing;
 * INFINITY when 'to' saves nothing. */
double engine_break_even_us(const struct bl_engine *e, unsigned from, unsigned to, double demand);

/* The same with the per-CPU demands, largest first, as
 * engine_decide_ranked() has them. In mp mode a move down from 'from' to
 * 'to' puts the threads of ranks to .. from - 1 on LITTLE CPUs: the stay
 * saves what each of them costs less there at its demand (and, at level 0,
 * the fast cluster's idle power), so one CPU's hotplug for a light thread
 * pays back sooner than a cluster's; other modes as engine_break_even_us()
 * at the demand level 'to' is tested with. */
double engine_break_even_ranked_us(const struct bl_engine *e, unsigned from, unsigned to, const double *top,
                                   unsigned ntop);

/* Caps automatic choices at 'level' (a level above it moves down at once,
 * as for the thermal cap), or with level >= the ladder's levels lifts the
 * cap. 'who' names it in reasons ("profile power-saver"). Holds are not
 * capped: engine_decide_hold() ignores it. Kept across engine_set_params(). */
void engine_set_ceiling(struct bl_engine *e, unsigned level, const char *who);

/* Records that 'level' is now applied (also the initial level at start). */
void engine_switched(struct bl_engine *e, unsigned level, bl_usec_t now);

const char *cause_to_string(enum bl_cause c);
