/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The whole decision for one sample, in every mode: which heuristic
 * instances look at which CPUs, how many engines decide, and which CPUs the
 * result runs on. The daemon and blsim both drive this, so a mode behaves
 * the same in both.
 *
 *   cluster  one scorer over every CPU, one engine on the cluster ladder.
 *   pair     per pair, a scorer over its two CPUs and an engine on the
 *            little/big ladder; each pair switches on its own.
 *   mp       a scorer per rank (the k-th busiest CPU of each sample, where
 *            the k-th heaviest thread runs), one engine on the mp ladder,
 *            fed the per-rank demands largest first.
 *
 * Pure: no I/O, time is an argument. */

#include "core/engine.h"
#include "core/profile.h"
#include "core/scorer.h"

struct bl_controller {
        const struct bl_ladder *ladder;
        unsigned nengines;              /* 1, or the number of pairs */
        struct bl_engine *engine;
        unsigned nscorers;
        struct bl_scorer *scorer;
        unsigned *scope;                /* mp: the CPUs the scorers look at */
        unsigned *ranked;               /* mp: the CPU scorer k looked at last, the k-th busiest */
        double *demand;                 /* each scorer's last combined demand */
        double top[BL_MAX_LEVELS];      /* mp: the largest per-CPU demands, largest first */
        unsigned ntop;
        bl_usec_t interval;             /* sample_interval_ms */
        bl_usec_t idle_interval;        /* idle_sample_interval_ms; 0 = off */
        bl_usec_t next_interval;        /* the last one controller_next_interval() gave */
        unsigned nwindow;               /* the ladder's highest CPU + 1 */
        double *window_busy;            /* each CPU's busy time (us) in the idle window */
        bl_usec_t window_len;
        bool woken;                     /* controller_woken() since the last interval */
        int hold_level;                 /* the hold deciding: a person's, else the profile's; -1: none */
        char hold_who[BL_REASON_MAX / 2];
        int user_hold;                  /* controller_set_hold()'s, -1: none */
        char user_who[BL_REASON_MAX / 2];
        struct bl_engine_params base;   /* from the configuration, before the profile's bias */
        struct bl_profile_effect profile;
        struct bl_scorer_told told;     /* scorer problems said (new scorers: none) */
};

/* Every engine starts at level 0, applied at 'now'. Returns 0, -ENOMEM, or
 * what a heuristic's init said. 'have' as for scorer_init(). */
int controller_init(struct bl_controller *c, const struct bl_ladder *l, const struct bl_config *cfg,
                    unsigned have, bl_usec_t now);
void controller_done(struct bl_controller *c);

/* A new configuration (reload): fresh heuristic instances and new engine
 * parameters, levels kept. On failure nothing changed. */
int controller_reconfigure(struct bl_controller *c, const struct bl_config *cfg, unsigned have);

/* New engine parameters from 'cfg' (thermal limits found again when the
 * zones change); heuristics, levels and thermal state kept. */
void controller_set_params(struct bl_controller *c, const struct bl_config *cfg);

/* What one switch costs with the backend in use (every engine). */
void controller_set_switch_cost(struct bl_controller *c, const struct bl_switch_cost *cost);

/* The power of each level (every engine), or NULL; it must outlive the
 * controller's use of it. */
void controller_set_energy_model(struct bl_controller *c, const struct bl_energy_model *m);

/* Whether every decision is explained, or only switches (engine_explain()). */
void controller_explain(struct bl_controller *c, bool all);

/* Puts a hold in force (every engine, every pair, at 'level'; thermal
 * limits still apply, the profile's cap does not) or, with level < 0, ends
 * it. 'who' describes it for the reasons. The heuristics keep scoring while
 * it holds. */
void controller_set_hold(struct bl_controller *c, int level, const char *who);

/* The desktop's profile adjustment (core/profile.h): its bias moves both
 * thresholds of every engine, its cap is every engine's ceiling, and its
 * hold of the top level applies while no hold of controller_set_hold() is
 * in force. A new effect that decides alike changes nothing (pending moves
 * are kept). Until called, and with a zero effect, nothing is adjusted. */
void controller_set_profile(struct bl_controller *c, const struct bl_profile_effect *e);

/* Decides every engine for the sample ending at 'now'; 'd' has room for
 * nengines decisions (d[p] is pair p's in pair mode). Returns the number of
 * engines that want a change. */
unsigned controller_decide(struct bl_controller *c, const struct bl_sample *s, bl_usec_t now,
                           struct bl_decision *d);

/* Adds to 'diag' what went wrong in scoring and was not said yet: each
 * heuristic's first broken score, once whichever scorer (pair, CPU) saw
 * it, and an overflowing combination. Returns how many were added; the
 * caller logs them (the core does no I/O). */
unsigned controller_warnings(struct bl_controller *c, struct bl_diag *diag);
/* Whether controller_warnings() would add anything (checked every tick). */
bool controller_has_warnings(const struct bl_controller *c);

/* The CPUs that run work with the engines at their levels, or (with 'd')
 * at the levels the decisions want. */
void controller_cpus(const struct bl_controller *c, const struct bl_decision *d, bl_cpumask *cpus);

/* Records that the decisions' changes are applied. */
void controller_switched(struct bl_controller *c, const struct bl_decision *d, bl_usec_t now);

/* The time from the decision on 's' (with the switches it made recorded)
 * to the next one, called once per decision. Idle back-off: while every
 * engine is at level 0 with no move pending and no thermal limit, and no
 * hold is in force, the busy time of each CPU is summed over a window of
 * 5 s at sample_interval_ms; if every CPU was busy under 10% of it, the
 * interval doubles at each sample up to idle_sample_interval_ms, until a
 * sample finds a CPU busy 10% of it plus 10 ms (a stray /proc/stat tick) or
 * an engine no longer quiet: then sample_interval_ms again, and a new
 * window. Always sample_interval_ms when idle_sample_interval_ms is 0. A new
 * configuration starts again at the full rate. */
bl_usec_t controller_next_interval(struct bl_controller *c, const struct bl_sample *s);

/* Backed off, the daemon was told that a CPU got busy (sources/activity.h)
 * and decides at once: the next interval is sample_interval_ms, with a new
 * window, as when a sample finds a CPU busy. Nothing when not backed off. */
void controller_woken(struct bl_controller *c);

/* One number for the whole state: the level in cluster and mp mode; in pair
 * mode the pairs on big as a bitmask (bit p = pair p), as blsim numbers
 * pair-mode system levels. */
unsigned controller_state(const struct bl_controller *c);

/* The state for people: the level's name, or in pair mode one letter per
 * pair, pair 0 first ("LBLL"). */
void controller_state_name(const struct bl_controller *c, char *buf, size_t size);

/* The demand that stands for the whole machine in status and plots: the
 * scorer's in cluster mode, the largest pair's or CPU's otherwise. */
double controller_demand(const struct bl_controller *c);
