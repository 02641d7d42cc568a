/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Runs a workload on a board in virtual time: with the daemon's own engine
 * and heuristics choosing the cluster, or with the cluster fixed. */

#include "core/board.h"
#include "core/config.h"
#include "core/engine.h"
#include "core/ladder.h"
#include "sim/modes.h"
#include "sim/workload.h"

struct sim_result {
        char policy[BL_NAME_MAX];
        size_t steps;
        double energy_uj;
        double total_work;              /* reference-µs that arrived */
        double late_work_ratio;         /* sum of end-of-step backlog / total work */
        unsigned long switches;         /* steps whose level differs from the previous step's */
        unsigned long changes;          /* pairs or CPUs switched (sim_levels_changes()); = switches
                                         * in cluster mode */
        unsigned long samples;          /* engine decisions (0 for fixed runs) */
        bl_usec_t time_in[SIM_MAX_LEVELS];      /* per class of struct sim_mode (per cluster in fixed runs) */
        struct sim_qos qos;
};

/* One point per engine decision, for plots. */
struct sim_timeline_point {
        bl_usec_t t;
        double demand;                  /* what the heuristics said */
        unsigned level;
        double energy_uj;               /* cumulative */
};

/* A level change: from the step at t on, the run is at level 'to' (of
 * struct sim_levels) instead of 'from'. */
struct sim_switch {
        bl_usec_t t;
        unsigned from, to;
};

/* Why the engine decided as it did at a point (blsim run --trace): the
 * decision of the first engine that switched, else the first engine's. */
struct sim_decision_note {
        enum bl_cause cause;
        bool switched;
        unsigned engine;                /* its pair in pair mode, else 0 */
        char reason[BL_REASON_MAX];
};

struct sim_timeline {
        size_t n, size;
        struct sim_timeline_point *p;
        bool explain;                   /* set by the caller: engine runs note every decision in 'why' */
        struct sim_decision_note *why;  /* n of them with 'explain' (engine runs only) */
        size_t why_size;
};

/* A mode as blsim runs it: the daemon's ladder for the board and the system
 * levels the simulator executes (sim/modes.h), which must agree, and the
 * classes time is reported in: the levels, except in pair mode, where a
 * class is the number of pairs on big ("2/4 big"), as 2^P combinations are
 * too many to read. */
struct sim_mode {
        enum bl_mode mode;
        struct bl_topology topo;
        struct bl_ladder ladder;
        struct sim_levels levels;
        unsigned nclasses;
        char class_name[SIM_MAX_LEVELS][BL_NAME_MAX];
        unsigned char class_of[SIM_MAX_LEVELS];         /* per system level */
};

/* Builds 'mode' (CLUSTER, PAIR or MP) for board 'b'. Returns 0, or a
 * negative errno with the reason in 'diag' (what sim_levels_build() or
 * ladder_build() refuse; -EINVAL when the two disagree). */
int sim_mode_build(struct sim_mode *m, const struct sim_board *b, enum bl_mode mode, struct bl_diag *diag);

/* Engine-driven run in mode 'm' (built for 'b'). 'cfg' supplies the
 * heuristics and the engine's parameters exactly as the daemon reads them
 * (its mode key is not looked at: 'm' is the mode). The workload is reset
 * first, so one workload serves several runs. r->policy is left empty for
 * the caller to name. With 'tl', one point per decision (its level is the
 * class), and with tl->explain its reason in tl->why (the engine then
 * explains every decision, as the daemon does at log_level = debug); free
 * it with sim_timeline_free() whatever the result. Returns 0 or
 * a negative errno (-EINVAL: a workload it cannot run, or what the
 * heuristics' init or the workload said). */
int sim_run_policy(const struct sim_board *b, const struct sim_mode *m, struct sim_workload *w,
                   const struct bl_config *cfg, struct sim_result *r, struct sim_timeline *tl);

/* The same rules with the cluster fixed for the whole run (always-big,
 * always-little). When 'record' is not NULL it receives the work that arrived
 * in each step (an rt-app run becomes a trace the oracle can solve; free it
 * with trace_free()); on failure it holds nothing. r->policy is left empty. */
int sim_run_fixed(const struct sim_board *b, struct sim_workload *w, unsigned cluster, struct sim_result *r,
                  struct sim_trace *record);

/* A run with the system level fixed (always-little = level 0, always-big =
 * nlevels - 1), by the execution rules of exec_level_step(), as
 * sim_run_fixed() does it for clusters: the same fields of 'r', except that
 * r->time_in[k] is the time board cluster k had an active CPU (in cluster
 * mode, the time in level k). 'record' as for sim_run_fixed(). An rt-app lane
 * is told the top capacity of the CPU it is placed on by the backlog it has
 * at the step's start (the new work is not known before the step). Returns 0,
 * -EINVAL (no lane, no step length, a level out of range, more lanes than
 * SIM_EXEC_MAX_LANES) or what the workload returns. */
int sim_run_fixed_level(const struct sim_board *b, const struct sim_levels *lv, struct sim_workload *w,
                        unsigned level, struct sim_result *r, struct sim_trace *record);

/* The same rules with the level of step s given by seq[s] (nseq levels), as
 * a policy that knew its levels in advance would run: switches are charged
 * where consecutive levels differ, backlog carries from step to step. The
 * run ends when the workload or the sequence does. r->time_in as for
 * sim_run_fixed_level() (per board cluster); r->switches and r->changes
 * count the changes. Returns 0, -EINVAL (as sim_run_fixed_level(), or a
 * level of 'seq' out of range) or what the workload returns. */
int sim_run_sequence(const struct sim_board *b, const struct sim_levels *lv, struct sim_workload *w,
                     const unsigned char *seq, size_t nseq, struct sim_result *r);

/* sim_run_sequence(), or with 'seq' NULL sim_run_fixed_level() at 'level',
 * recording the run into 'tl' for plots: a point (the level of 'lv', the
 * cumulative energy, a NAN demand: nothing estimated one) at every level
 * change, at least every SIM_TIMELINE_US, and at the end. Free 'tl' with
 * sim_timeline_free() whatever the result. */
#define SIM_TIMELINE_US (20 * BL_USEC_PER_MSEC)
int sim_run_levels_timeline(const struct sim_board *b, const struct sim_levels *lv, struct sim_workload *w,
                            unsigned level, const unsigned char *seq, size_t nseq, struct sim_result *r,
                            struct sim_timeline *tl);

/* Appends a point; -ENOMEM. */
int sim_timeline_add(struct sim_timeline *tl, bl_usec_t t, double demand, unsigned level, double energy_uj);
void sim_timeline_free(struct sim_timeline *tl);

/* Fills in what every run reports at its end: energy in µJ from nJ, the
 * late-work ratio from the summed end-of-step backlog, the workload's QoS. */
void sim_result_finish(struct sim_result *r, double energy_nj, double late, const struct sim_workload *w);

/* What a run's lateness is judged by (blsim tune, compare's ranking): the
 * share of missed activations for an rt-app workload that has them, which
 * is what its deadlines mean, else late_work_ratio. */
double sim_lateness(const struct sim_result *r, bool rtapp);
