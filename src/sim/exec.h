/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The execution rules of DESIGN.md "Execution, cluster mode", steps 2-5,
 * for one step. Pure arithmetic shared by policy runs, fixed runs and the
 * oracle, so that all of them are scored by the same rules. */

#include "core/board.h"
#include "sim/modes.h"

/* Lanes one step can place (the ranking of mp mode sorts them on the stack);
 * every workload stays below it (SIM_TRACE_MAX_LANES, RTAPP_MAX_LANES). */
#define SIM_EXEC_MAX_LANES 1024U

struct sim_step {
        unsigned opp;                   /* chosen by the in-cluster DVFS rule */
        double avail_us;                /* A: step minus switch stall */
        double busy_us[SIM_MAX_CPUS];   /* per CPU of the active cluster (index within it) */
        double energy_nj;               /* including the switch energy when switched */
        double backlog;                 /* total backlog left at the step's end, reference-µs */
};

/* Runs one step of 'step_us' on 'cluster'. 'backlog' (per lane) is the work
 * left from earlier steps and is updated in place; 'new_work' arrives now.
 * 'switched' charges the switch latency and energy. */
void exec_step(const struct sim_board *b, unsigned cluster, bool switched, double step_us, unsigned nlanes,
               double *backlog, const double *new_work, struct sim_step *out);

/* The in-cluster DVFS rule: the lowest OPP whose capacity is at least
 * 1.25 x reference_capacity x max_pending / avail_us, else the top one; with
 * no time available (avail_us <= 0) the top one, work or not. */
unsigned exec_pick_opp(const struct sim_cluster *c, unsigned reference_capacity, double max_pending,
                       double avail_us);

/* One step on a system level of any mode (exec.c states the rules;
 * cluster mode gives exactly exec_step()'s numbers). */
struct sim_level_step {
        double busy_us[SIM_MAX_CPUS];   /* per board CPU (global number); 0 when not active */
        unsigned opp[BL_MAX_CLUSTERS];  /* per board cluster with an active CPU; 0 for the others */
        unsigned clusters;              /* bit k: board cluster k had an active CPU */
        uint64_t stalled;               /* CPUs that paid the switch stall */
        double stall_us;                /* how much of this step they were stalled */
        bool switched;                  /* the level differs from the previous step's */
        unsigned changes;               /* sim_levels_changes(): pairs or CPUs that changed */
        double energy_nj;               /* including the switch energy */
        double backlog;                 /* total backlog left at the step's end, reference-µs */
        double waiting_us;              /* CPU pressure: time tasks waited for a CPU (rule 7) */
        unsigned running;               /* tasks runnable at the step's end (rule 8) */
};

/* A switch's stall that outlasts its step: what is left of it and the CPUs
 * it stops. A run keeps one from step to step (zeroed at its start). */
struct sim_stall {
        double left_us;
        uint64_t cpus;
};

/* Runs one step of 'step_us' on 'level' of 'lv' (built for board 'b'),
 * coming from level 'prev' (SIM_LEVEL_NONE for the run's first step, which
 * pays no switch). 'backlog' (per lane) is updated in place as by
 * exec_step(); 'new_work' arrives now. Returns 0, or -EINVAL when a level is
 * out of range or nlanes exceeds SIM_EXEC_MAX_LANES ('out' is then left as
 * it was). Allocation-free. */
int exec_level_step(const struct sim_board *b, const struct sim_levels *lv, unsigned level, unsigned prev,
                    double step_us, unsigned nlanes, double *backlog, const double *new_work,
                    struct sim_level_step *out);

/* The same with the stall carried in 'stall' (updated in place): a switch
 * adds its latency to what is left of the stall before it (switches queue
 * behind each other) and stops its CPUs until the stall has passed, over as
 * many steps as it takes; every step charges the part of the stall that
 * falls in it. exec_level_step() is this with a stall that ends with its
 * step (what does not fit in the step is not charged further). */
int exec_level_step_stalled(const struct sim_board *b, const struct sim_levels *lv, unsigned level,
                            unsigned prev, struct sim_stall *stall, double step_us, unsigned nlanes,
                            double *backlog, const double *new_work, struct sim_level_step *out);

/* The stall and energy of a switch from level 'from' to 'to' (SIM_LEVEL_NONE
 * or equal: none), and the CPUs it stops. */
double exec_switch_latency_us(const struct sim_board *b, const struct sim_levels *lv, unsigned from,
                              unsigned to);
double exec_switch_energy_nj(const struct sim_board *b, const struct sim_levels *lv, unsigned from,
                             unsigned to);
uint64_t exec_switch_stalls(const struct sim_board *b, const struct sim_levels *lv, unsigned from,
                            unsigned to);

/* The board CPU each lane runs on at 'level' when 'pending' (per lane) is
 * its pending work. nlanes <= SIM_EXEC_MAX_LANES. */
void exec_level_lane_cpus(const struct sim_levels *lv, unsigned level, unsigned nlanes, const double *pending,
                          unsigned *lane_cpu);

/* Cluster and pair mode's placement (exec.c rule 1): lane_slot[i] = the
 * slot (0 .. nslots - 1: a CPU of the cluster, or a pair) lane i runs on,
 * a lane having work when its 'backlog' (per lane; NULL: none) or 'work'
 * is above 0: its own (i mod nslots) unless a lower lane with work has it,
 * then the lowest slot still without work, else its own. Depends on which
 * lanes have work only, so the oracles place a step as a run does.
 * nslots <= SIM_MAX_CPUS. */
void exec_place_lanes(unsigned nlanes, const double *backlog, const double *work, unsigned nslots,
                      unsigned *lane_slot);

/* mp mode's ranking: rank[i] = the position of lane i when lanes are sorted
 * by 'pending' descending, ties by lane index. nlanes <= SIM_EXEC_MAX_LANES. */
void exec_rank_lanes(unsigned nlanes, const double *pending, unsigned *rank);
