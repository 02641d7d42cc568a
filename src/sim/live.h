/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * blsim live: a board model played in real time as the load driver of a
 * fake board (fakeboard/board.h), so that an unmodified daemon can switch it.
 *
 * The testbed shows the board as a kernel would: one CPU per board CPU,
 * numbered cluster by cluster, each with an online file (as on arm64); a
 * cpufreq policy per cluster with the board's OPPs; a thermal zone per
 * cluster ("NAME-thermal") with a passive and a critical trip; /proc/stat,
 * /proc/pressure/cpu; a cgroup2 tree with the configuration's [cpuset]
 * groups.
 *
 * At every board tick the driver runs the workload's steps up to the wall
 * clock (steps that have ended by now since the run started), each with
 * exec_level_step(), the rules blsim run scores with. The level of those
 * steps is the one the CPUs the daemon left usable select (the kernel
 * state's 'usable': online, within the groups' cpusets, not capped to the
 * lowest OPP), by live_map_level(). What the steps did is published: busy
 * time per CPU, the OPP the DVFS rule chose per cluster (the lowest for a
 * cluster without an active CPU), CPU pressure while backlog is left at a
 * step's end, and each cluster's temperature (live_thermal_step()).
 *
 * The run starts when the command has switched the board away from its boot
 * state onto a level of the ladder, or LIVE_START_TIMEOUT_US after it was
 * started (sim_live_arm()) if it never does; until then nothing runs.
 */

#include "core/board.h"
#include "sim/modes.h"
#include "sim/run.h"
#include "sim/workload.h"
#include "fakeboard/board.h"

#define LIVE_START_TIMEOUT_US (3 * BL_USEC_PER_SEC)

/* The level that an active set (board CPUs) selects: the level whose
 * active set equals it (*exact = true); else the level with the fewest
 * CPUs whose set contains it (the nearest superset; the lowest level on a
 * tie); else, when no level contains it, the level sharing the most CPUs
 * with it (the highest on a tie). *exact is false in the last two cases:
 * "off the ladder". */
unsigned live_map_level(const struct sim_levels *lv, uint64_t usable, bool *exact);

/* One RC stage: the temperature after dt_s seconds at a constant power_w,
 * from temp_c. Steady state ambient_c + power_w x r_c_per_w, approached
 * with time constant r_c_per_w x c_j_per_c (exactly: the exponential, so
 * any step length gives the same curve); with a time constant of 0, the
 * steady state at once. */
double live_thermal_step(double temp_c, double ambient_c, double r_c_per_w, double c_j_per_c, double power_w,
                         double dt_s);

/* The testbed description of a board, and the storage it points into. */
struct live_desc {
        struct fakeboard_desc desc;
        struct fakeboard_cluster_desc cluster[BL_MAX_CLUSTERS];
        struct fakeboard_zone_desc zone[BL_MAX_CLUSTERS];
        struct fakeboard_trip_desc trip[BL_MAX_CLUSTERS];
        unsigned opps_khz[BL_MAX_CLUSTERS][SIM_MAX_OPPS];
        unsigned em_uw[BL_MAX_CLUSTERS][SIM_MAX_OPPS];  /* the board's core_mW as the kernel's model */
        char cpus[BL_MAX_CLUSTERS][16];
        char zone_type[BL_MAX_CLUSTERS][BL_NAME_MAX + 16];
        const char *groups[FAKEBOARD_MAX_GROUPS];
};

/* Describes board 'b' for fakeboard_new_desc(); work runs in the cgroups
 * 'groups' (paths below the cgroup root, as [cpuset] groups takes them;
 * they must outlive the description). -E2BIG: more groups than the testbed
 * takes. */
int live_desc_build(struct live_desc *ld, const struct sim_board *b, const char *const *groups,
                    unsigned ngroups);

struct sim_live;

/* A live run of workload 'w' on board 'b' in mode 'm' (which must outlive
 * it); the workload is reset. */
int sim_live_new(struct sim_live **ret, const struct sim_board *b, const struct sim_mode *m,
                 struct sim_workload *w);
void sim_live_free(struct sim_live *l);

/* The driver to hand fakeboard_new_desc() with the run as its userdata.
 * The board does not free the run. */
extern const struct fakeboard_driver sim_live_driver;

/* The command that is to switch the board has been started at 'now': the
 * run may start (see above). */
void sim_live_arm(struct sim_live *l, bl_usec_t now);
bool sim_live_started(const struct sim_live *l);
/* The board time (fakeboard_now()) of the run's time 0, once it started;
 * 0 before. A switch at t_us of sim_live_switches() was seen at about
 * this + t_us. */
bl_usec_t sim_live_start_time(const struct sim_live *l);
/* The workload has ended (or failed: sim_live_result() says). */
bool sim_live_done(const struct sim_live *l);

/* The run's scores, by the rules of sim_run_policy(): r->policy is left
 * empty. Returns 0, or the error that stopped the workload. */
int sim_live_result(const struct sim_live *l, struct sim_result *r);
/* The level changes the board saw, in order; the pointer is valid until the run is freed. */
size_t sim_live_switches(const struct sim_live *l, const struct sim_switch **ret);
/* Heat from outside the model (a test's thermal ramp): the zone of
 * cluster k reads temp_c from the board's next step on, whatever the
 * cluster's power; NAN hands the zone back to the model, which goes on
 * from the temperature it was held at. -EINVAL: no such cluster. */
int sim_live_hold_temp(struct sim_live *l, unsigned k, double temp_c);

/* Records the run's timeline into 'tl' (which must outlive the run), as
 * sim_run_policy() does for plots: a point (class, cumulative energy) at
 * every level change and at least every LIVE_TIMELINE_US, with a NAN
 * demand: the daemon's estimate is its own. */
#define LIVE_TIMELINE_US (20 * BL_USEC_PER_MSEC)
void sim_live_record(struct sim_live *l, struct sim_timeline *tl);

/* Simulated time spent on steps whose CPUs were not exactly a level. */
bl_usec_t sim_live_off_ladder_us(const struct sim_live *l);
