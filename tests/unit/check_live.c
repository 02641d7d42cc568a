/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blsim live's parts that need no testbed: the level a set of usable CPUs
 * selects, the thermal RC model, the board's thermal keys, the testbed
 * description of a board, and the driver stepped by hand with made-up
 * kernel states (its numbers must be exec_level_step()'s). */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "loaders/board-file.h"
#include "sim/exec.h"
#include "sim/live.h"
#include "sim/modes.h"
#include "sim/run.h"
#include "sim/trace.h"
#include "sim/workload.h"

#define BOARD_HEADER                                    \
        "[board]\n"                                     \
        "name = test\n"                                 \
        "reference_capacity = 1024\n"                   \
        "switch_latency_us = 100\n"                     \
        "switch_energy_uj = 50\n"
#define LITTLE_SECTION                                  \
        "[cluster.little]\n"                            \
        "cpus = 2\n"                                    \
        "order = 0\n"                                   \
        "off_mw = 2\n"                                  \
        "opp = 100 256 10 4\n"                          \
        "opp = 200 512 30 8\n"
#define BIG_SECTION                                     \
        "[cluster.big]\n"                               \
        "cpus = 2\n"                                    \
        "order = 1\n"                                   \
        "off_mw = 5\n"                                  \
        "opp = 500 512 100 20\n"                        \
        "opp = 1000 1024 400 40\n"

static struct bl_diag diag;
static struct sim_board exynos;

static void setup(void)
{
        diag_init(&diag);
        ck_assert_int_eq(board_load(&exynos, BOARDS_DIR "/exynos5422-like.ini", &diag), 0);
}

static void build(struct sim_levels *lv, enum bl_mode mode)
{
        ck_assert_int_eq(sim_levels_build(lv, &exynos, mode, &diag), 0);
}

static void check_map(const struct sim_levels *lv, uint64_t usable, const char *want, bool want_exact)
{
        bool exact = !want_exact;
        unsigned l = live_map_level(lv, usable, &exact);

        ck_assert_uint_lt(l, lv->nlevels);
        ck_assert_msg(strcmp(lv->level[l].name, want) == 0 && exact == want_exact,
                      "CPUs %#llx: level %s (%s), expected %s (%s)", (unsigned long long)usable,
                      lv->level[l].name, exact ? "exact" : "off", want, want_exact ? "exact" : "off");
}

/* Level mapping */

START_TEST(test_map_cluster)
{
        struct sim_levels lv;

        build(&lv, BL_MODE_CLUSTER);
        check_map(&lv, 0x0f, "little", true);
        check_map(&lv, 0xf0, "big", true);
        /* Part of a cluster: the cluster that holds it. */
        check_map(&lv, 0x03, "little", false);
        check_map(&lv, 0x30, "big", false);
        /* Nothing contains these: the most CPUs in common, the faster on a tie. */
        check_map(&lv, 0xff, "big", false);
        check_map(&lv, 0xf1, "big", false);
        check_map(&lv, 0x1f, "little", false);
        check_map(&lv, 0x33, "big", false);
        /* No CPU at all: every level contains it, the smallest wins. */
        check_map(&lv, 0, "little", false);
}
END_TEST

START_TEST(test_map_mp)
{
        struct sim_levels lv;

        build(&lv, BL_MODE_MP);
        check_map(&lv, 0x0f, "little", true);
        check_map(&lv, 0x1f, "little+1big", true);
        check_map(&lv, 0xff, "all", true);
        /* CPU 5 without 4: the smallest level holding both is little+2big. */
        check_map(&lv, 0x2f, "little+2big", false);
        check_map(&lv, 0x07, "little", false);
        /* Big CPUs without the little ones: only "all" contains them. */
        check_map(&lv, 0xf0, "all", false);
}
END_TEST

START_TEST(test_map_pair)
{
        struct sim_levels lv;

        build(&lv, BL_MODE_PAIR);
        /* Pair p = (CPU p, CPU p + 4); bit p of the level = pair p on big. */
        check_map(&lv, 0x0f, "LLLL", true);
        check_map(&lv, 0x1e, "BLLL", true);
        check_map(&lv, 0xf0, "BBBB", true);
        /* Both CPUs of pair 0 up: no level has that; the most in common. */
        check_map(&lv, 0x1f, "BLLL", false);
}
END_TEST

/* Thermal model */

START_TEST(test_thermal_steady_state)
{
        double t = 25.0;

        /* 100 s at 2 W with R = 3 °C/W, C = 3 J/°C (tau 9 s): 25 + 2 x 3. */
        for (unsigned i = 0; i < 10000; i++)
                t = live_thermal_step(t, 25.0, 3.0, 3.0, 2.0, 0.01);
        ck_assert_double_eq_tol(t, 31.0, 1e-3);
        /* And it stays there. */
        ck_assert_double_eq_tol(live_thermal_step(31.0, 25.0, 3.0, 3.0, 2.0, 60.0), 31.0, 1e-12);
        /* Without power it cools back to ambient. */
        ck_assert_double_eq_tol(live_thermal_step(31.0, 25.0, 3.0, 3.0, 0.0, 1000.0), 25.0, 1e-9);
}
END_TEST

START_TEST(test_thermal_time_constant)
{
        const double tau = 3.0 * 3.0;
        double t = 25.0;

        /* After one time constant, 1 - 1/e of the way. */
        ck_assert_double_eq_tol(live_thermal_step(25.0, 25.0, 3.0, 3.0, 2.0, tau), 25.0 + 6.0 * (1 - exp(-1)),
                                1e-12);
        ck_assert_double_eq_tol(live_thermal_step(80.0, 25.0, 3.0, 3.0, 0.0, tau), 25.0 + 55.0 * exp(-1),
                                1e-12);
        /* Any step length draws the same curve. */
        for (unsigned i = 0; i < 900; i++)
                t = live_thermal_step(t, 25.0, 3.0, 3.0, 2.0, tau / 900);
        ck_assert_double_eq_tol(t, 25.0 + 6.0 * (1 - exp(-1)), 1e-9);
        /* No heat capacity: the steady state at once. */
        ck_assert_double_eq_tol(live_thermal_step(25.0, 25.0, 3.0, 0.0, 2.0, 0.001), 31.0, 1e-12);
}
END_TEST

/* Board keys */

START_TEST(test_board_thermal_defaults)
{
        /* A board file without the keys: the defaults, the old figures unchanged. */
        ck_assert_double_eq(exynos.ambient_c, SIM_DEFAULT_AMBIENT_C);
        ck_assert_uint_eq(exynos.nclusters, 2);
        for (unsigned k = 0; k < exynos.nclusters; k++) {
                ck_assert_double_eq(exynos.cluster[k].thermal_r_c_per_w, 3.0);
                ck_assert_double_eq(exynos.cluster[k].thermal_c_j_per_c, 3.0);
                ck_assert_double_eq(exynos.cluster[k].trip_passive_c, 85.0);
                ck_assert_double_eq(exynos.cluster[k].trip_critical_c, 105.0);
        }
        ck_assert_uint_eq(exynos.cluster[1].nopps, 19);
        ck_assert_uint_eq(exynos.cluster[1].opp[18].capacity, 1024);
        ck_assert_double_eq(exynos.switch_energy_uj, 160);
}
END_TEST

START_TEST(test_board_thermal_keys)
{
        static const char text[] = BOARD_HEADER "ambient_c = 30.5\n" LITTLE_SECTION
                "thermal_r_c_per_w = 2.5\nthermal_c_j_per_c = 4\ntrip_passive_c = 70\ntrip_critical_c = 90\n"
                BIG_SECTION "trip_passive_c = 75\n";
        struct sim_board b;

        ck_assert_uint_eq(board_parse(&b, "b.ini", text, strlen(text), &diag), 0);
        ck_assert_double_eq(b.ambient_c, 30.5);
        ck_assert_double_eq(b.cluster[0].thermal_r_c_per_w, 2.5);
        ck_assert_double_eq(b.cluster[0].thermal_c_j_per_c, 4.0);
        ck_assert_double_eq(b.cluster[0].trip_passive_c, 70.0);
        ck_assert_double_eq(b.cluster[0].trip_critical_c, 90.0);
        ck_assert_double_eq(b.cluster[1].thermal_r_c_per_w, SIM_DEFAULT_THERMAL_R_C_PER_W);
        ck_assert_double_eq(b.cluster[1].trip_passive_c, 75.0);
        ck_assert_double_eq(b.cluster[1].trip_critical_c, SIM_DEFAULT_TRIP_CRITICAL_C);
}
END_TEST

struct bad_board {
        const char *text;
        const char *msg;
};

static const struct bad_board bad_boards[] = {
        { BOARD_HEADER "ambient_c = -3\n" LITTLE_SECTION BIG_SECTION,
          "b.ini:6: ambient_c: expected a number 0-200 (°C), got \"-3\"" },
        { BOARD_HEADER LITTLE_SECTION "thermal_r_c_per_w = lots\n" BIG_SECTION,
          "b.ini:12: thermal_r_c_per_w: expected a number 0-1000 (°C per W), got \"lots\"" },
        { BOARD_HEADER LITTLE_SECTION "thermal_c_j_per_c = 2000\n" BIG_SECTION,
          "b.ini:12: thermal_c_j_per_c: expected a number 0-1000 (J per °C), got \"2000\"" },
        { BOARD_HEADER LITTLE_SECTION BIG_SECTION "trip_critical_c = 0\n",
          "b.ini:18: trip_critical_c: expected a number 1-200 (°C), got \"0\"" },
        { BOARD_HEADER LITTLE_SECTION "trip_passive_c = 110\n" BIG_SECTION,
          "b.ini:12: [cluster.little]: expected trip_passive_c (110) below trip_critical_c (105)" },
        { BOARD_HEADER LITTLE_SECTION "trip_passive_c = 90\ntrip_critical_c = 90\n" BIG_SECTION,
          "b.ini:13: [cluster.little]: expected trip_passive_c (90) below trip_critical_c (90)" },
        { BOARD_HEADER "ambient_c = 90\n" LITTLE_SECTION "trip_critical_c = 120\n" BIG_SECTION
          "trip_passive_c = 95\ntrip_critical_c = 100\n",
          "b.ini:7: [cluster.little]: expected trip_passive_c (85) above ambient_c (90)" },
        { BOARD_HEADER LITTLE_SECTION "thermal_r_c_per_w = 1\nthermal_r_c_per_w = 2\n" BIG_SECTION,
          "b.ini:13: thermal_r_c_per_w: set twice in this section (first at line 12)" },
};

START_TEST(test_board_thermal_errors)
{
        const struct bad_board *t = &bad_boards[_i];
        struct sim_board b;

        ck_assert_uint_eq(board_parse(&b, "b.ini", t->text, strlen(t->text), &diag), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], t->msg);
}
END_TEST

/* Testbed description */

START_TEST(test_desc)
{
        static const char *const groups[] = { "system.slice", "user.slice/user-1000.slice" };
        struct live_desc *ld = malloc(sizeof(*ld));
        const struct fakeboard_desc *d;

        ck_assert_ptr_nonnull(ld);
        ck_assert_int_eq(live_desc_build(ld, &exynos, groups, 2), 0);
        d = &ld->desc;
        ck_assert_str_eq(d->name, "exynos5422-like");
        ck_assert_uint_eq(d->ncpus, 8);
        ck_assert_ptr_null(d->fixed_cpus);
        ck_assert(d->psi && d->cgroup2 && !d->bl_switcher);
        ck_assert_uint_eq(d->ngroups, 2);
        ck_assert_str_eq(d->groups[1], "user.slice/user-1000.slice");
        ck_assert_uint_eq(d->nclusters, 2);
        ck_assert_str_eq(d->clusters[0].cpus, "0-3");
        ck_assert_str_eq(d->clusters[1].cpus, "4-7");
        ck_assert_str_eq(d->clusters[0].core, "Cortex-A7");
        ck_assert_uint_eq(d->clusters[0].capacity, 377);
        ck_assert_uint_eq(d->clusters[1].capacity, 1024);
        ck_assert_uint_eq(d->clusters[0].nopps, 13);
        ck_assert_uint_eq(d->clusters[0].opps_khz[0], 200000);
        ck_assert_uint_eq(d->clusters[0].min_khz, 200000);
        ck_assert_uint_eq(d->clusters[0].max_khz, 1400000);
        ck_assert_uint_eq(d->clusters[1].opps_khz[18], 2000000);
        /* the kernel's energy model in debugfs: a busy core's power in uW
         * (little at 1400 MHz: 204 mW) */
        ck_assert_ptr_nonnull(d->clusters[0].em_uw);
        ck_assert_uint_eq(d->clusters[0].em_uw[12], 204000);
        ck_assert_uint_eq(d->clusters[1].em_uw[0], 89000);
        ck_assert_int_eq(d->clusters[1].cluster_id, 1);
        ck_assert_uint_eq(d->nzones, 2);
        ck_assert_str_eq(d->zones[0].type, "little-thermal");
        ck_assert_str_eq(d->zones[1].type, "big-thermal");
        ck_assert_int_eq(d->zones[1].temp_mc, 25000);
        ck_assert_int_eq(d->zones[1].critical_mc, 105000);
        ck_assert_uint_eq(d->zones[1].ntrips, 1);
        ck_assert_str_eq(d->zones[1].trips[0].type, "passive");
        ck_assert_int_eq(d->zones[1].trips[0].temp_mc, 85000);
        ck_assert_int_eq(live_desc_build(ld, &exynos, groups, FAKEBOARD_MAX_GROUPS + 1), -E2BIG);
        free(ld);
}
END_TEST

/* The driver, stepped by hand */

#define STEP_US 1000
#define NSTEPS 10

struct drive {
        struct sim_trace trace;
        struct sim_workload *w;
        struct sim_mode mode;
        struct sim_live *run;
        unsigned capacity[FAKEBOARD_MAX_CPUS], cpu_policy[FAKEBOARD_MAX_CPUS];
        int temp_mc[BL_MAX_CLUSTERS];
        struct fakeboard_output out;
};

/* Two lanes of 300 reference-µs per 1 ms step, ten steps. */
static void drive_open(struct drive *d)
{
        char text[4096];
        size_t len = (size_t)snprintf(text, sizeof(text),
                                      "# bigLittle-trace v1 step_us=%d\nt_us,lane0,lane1\n", STEP_US);

        memset(d, 0, sizeof(*d));
        for (unsigned i = 0; i < NSTEPS; i++)
                len += (size_t)snprintf(text + len, sizeof(text) - len, "%u,300,300\n", i * STEP_US);
        ck_assert_int_eq(trace_parse(&d->trace, "t.csv", text, len, &diag), 0);
        ck_assert_int_eq(workload_from_trace(&d->w, "t.csv", &d->trace), 0);
        ck_assert_int_eq(sim_mode_build(&d->mode, &exynos, BL_MODE_CLUSTER, &diag), 0);
        ck_assert_int_eq(sim_live_new(&d->run, &exynos, &d->mode, d->w), 0);
        for (unsigned cpu = 0; cpu < 8; cpu++) {
                d->capacity[cpu] = cpu < 4 ? 377 : 1024;
                d->cpu_policy[cpu] = cpu < 4 ? 0 : 1;
        }
        for (unsigned k = 0; k < 2; k++)
                d->temp_mc[k] = 25000;
}

static void drive_close(struct drive *d)
{
        sim_live_free(d->run);
        workload_free(d->w);
        trace_free(&d->trace);
}

/* One board step at 'now' with 'usable' (a CPU list) online and usable;
 * the output starts as the board starts it. */
static void drive_step(struct drive *d, bl_usec_t now, bl_usec_t dt, const char *usable)
{
        struct fakeboard_state st = {
                .now = now,
                .ncpus = 8,
                .capacity = d->capacity,
                .cpu_policy = d->cpu_policy,
                .nzones = 2,
                .temp_mc = d->temp_mc,
        };

        ck_assert_int_eq(cpumask_parse(&st.usable, usable), 0);
        st.online = st.was_online = st.usable;
        memset(&d->out, 0, sizeof(d->out));
        d->out.covered_us = dt;
        for (unsigned z = 0; z < FAKEBOARD_MAX_ZONES; z++)
                d->out.temp_mc[z] = FAKEBOARD_TEMP_KEEP;
        ck_assert_int_eq(sim_live_driver.step(d->run, &st, dt, &d->out), 0);
}

START_TEST(test_driver_run)
{
        /* The levels the steps must run at, as the board's CPUs say below. */
        static const unsigned levels[NSTEPS] = { 0, 0, 0, 1, 1, 1, 1, 1, 1, 1 };
        struct drive d;
        struct sim_result r, want = { 0 };
        const struct sim_switch *sw;
        struct sim_level_step st;
        double backlog[2] = { 0, 0 }, work[2] = { 300, 300 }, energy_nj = 0, late = 0, busy4 = 0;
        unsigned prev = SIM_LEVEL_NONE;

        drive_open(&d);
        /* The boot state, then the command starts: nothing runs yet. */
        drive_step(&d, 100000, 0, "0-7");
        sim_live_arm(d.run, 100000);
        drive_step(&d, 105000, 5000, "0-7");
        ck_assert(!sim_live_started(d.run));
        ck_assert_uint_eq(d.out.covered_us, 5000);
        ck_assert_int_eq(d.out.temp_mc[0], FAKEBOARD_TEMP_KEEP);
        /* The command moves the board to little: the run starts now. */
        drive_step(&d, 110000, 5000, "0-3");
        ck_assert(sim_live_started(d.run));
        ck_assert_uint_eq(d.out.covered_us, 0);
        /* 3.5 ms later: the three steps that have ended, on little. */
        drive_step(&d, 113500, 3500, "0-3");
        ck_assert_uint_eq(d.out.covered_us, 3 * STEP_US);
        /* Lanes 0 and 1 on CPUs 0 and 1: 300 of 1024 at 377 needs 815 µs a step at the top OPP. */
        ck_assert_double_eq_tol(d.out.busy_us[0], 3 * 300.0 * 1024 / 377, 1e-6);
        ck_assert_double_eq_tol(d.out.busy_us[2], 0, 1e-12);
        ck_assert_uint_eq(d.out.cur_khz[0], 1400000);
        ck_assert_uint_eq(d.out.cur_khz[1], 200000);
        ck_assert_int_ge(d.out.temp_mc[0], 25000);
        ck_assert_double_eq(d.out.stall_us, 0);
        /* The daemon brings big up: the next steps run there. */
        drive_step(&d, 115000, 1500, "4-7");
        ck_assert_uint_eq(d.out.covered_us, 2 * STEP_US);
        busy4 += d.out.busy_us[4];
        ck_assert_double_gt(d.out.busy_us[4], 0);
        ck_assert_double_eq(d.out.busy_us[0], 0);
        /* A transient mid-switch: CPU 0 is back beside big, which still runs it (off the ladder). */
        drive_step(&d, 116000, 1000, "0,4-7");
        ck_assert_uint_eq(d.out.covered_us, STEP_US);
        ck_assert_uint_eq(sim_live_off_ladder_us(d.run), STEP_US);
        busy4 += d.out.busy_us[4];
        /* Long enough for the rest: the workload ends. */
        drive_step(&d, 200000, 84000, "4-7");
        busy4 += d.out.busy_us[4];
        ck_assert(sim_live_done(d.run));
        ck_assert_uint_eq(d.out.covered_us, 4 * STEP_US);

        /* The same steps through exec_level_step() by hand. */
        for (unsigned i = 0; i < NSTEPS; i++) {
                ck_assert_int_eq(exec_level_step(&exynos, &d.mode.levels, levels[i], prev, STEP_US, 2,
                                                 backlog, work, &st), 0);
                energy_nj += st.energy_nj;
                late += st.backlog;
                want.switches += st.switched;
                if (levels[i] == 1)
                        busy4 -= st.busy_us[4];
                prev = levels[i];
        }
        ck_assert_double_eq_tol(busy4, 0, 1e-6);
        ck_assert_int_eq(sim_live_result(d.run, &r), 0);
        ck_assert_uint_eq(r.steps, NSTEPS);
        ck_assert_uint_eq(r.switches, 1);
        ck_assert_uint_eq(want.switches, 1);
        ck_assert_double_eq_tol(r.energy_uj, energy_nj / 1000.0, 1e-9);
        ck_assert_double_eq_tol(r.total_work, NSTEPS * 600.0, 1e-9);
        ck_assert_double_eq_tol(r.late_work_ratio, late / (NSTEPS * 600.0), 1e-12);
        ck_assert_uint_eq(r.time_in[0], 3 * STEP_US);
        ck_assert_uint_eq(r.time_in[1], 7 * STEP_US);
        ck_assert_uint_eq(sim_live_switches(d.run, &sw), 1);
        ck_assert_uint_eq(sw[0].t, 3 * STEP_US);
        ck_assert_uint_eq(sw[0].from, 0);
        ck_assert_uint_eq(sw[0].to, 1);

        /* Once done, the board idles: the time since counts as it passes. */
        drive_step(&d, 205000, 5000, "4-7");
        ck_assert_uint_eq(d.out.covered_us, 5000);
        ck_assert_double_eq(d.out.busy_us[4], 0);
        drive_close(&d);
}
END_TEST

START_TEST(test_driver_start_timeout)
{
        struct drive d;

        drive_open(&d);
        drive_step(&d, 1000, 0, "0-7");
        /* Changes before the command starts do not count. */
        drive_step(&d, 2000, 1000, "0-3");
        ck_assert(!sim_live_started(d.run));
        drive_step(&d, 3000, 1000, "0-7");
        sim_live_arm(d.run, 3000);
        /* A change onto no level does not start it either. */
        drive_step(&d, 4000, 1000, "0-5");
        ck_assert(!sim_live_started(d.run));
        drive_step(&d, 3000 + LIVE_START_TIMEOUT_US - 1, 1000, "0-7");
        ck_assert(!sim_live_started(d.run));
        /* A command that never moves the board: the run starts anyway. */
        drive_step(&d, 3000 + LIVE_START_TIMEOUT_US, 1, "0-7");
        ck_assert(sim_live_started(d.run));
        drive_step(&d, 3000 + LIVE_START_TIMEOUT_US + 2500, 2500, "0-7");
        ck_assert_uint_eq(d.out.covered_us, 2 * STEP_US);
        ck_assert_uint_eq(sim_live_off_ladder_us(d.run), 2 * STEP_US);
        drive_close(&d);
}
END_TEST

START_TEST(test_driver_held_temp)
{
        struct drive d;
        int modelled;

        drive_open(&d);
        drive_step(&d, 1000, 0, "0-7");
        sim_live_arm(d.run, 1000);
        ck_assert_uint_eq(sim_live_start_time(d.run), 0);
        drive_step(&d, 2000, 1000, "0-3");
        ck_assert_uint_eq(sim_live_start_time(d.run), 2000);
        /* Big's zone held from outside: it reads the held figure, the model goes on for little. */
        ck_assert_int_eq(sim_live_hold_temp(d.run, 1, 72.5), 0);
        drive_step(&d, 5000, 3000, "0-3");
        ck_assert_int_eq(d.out.temp_mc[1], 72500);
        ck_assert_int_ge(d.out.temp_mc[0], 25000);
        ck_assert_int_lt(d.out.temp_mc[0], 26000);
        drive_step(&d, 7000, 2000, "0-3");
        ck_assert_int_eq(d.out.temp_mc[1], 72500);
        /* Handed back, it cools from there towards the gated cluster's steady state. */
        ck_assert_int_eq(sim_live_hold_temp(d.run, 1, NAN), 0);
        drive_step(&d, 9000, 2000, "0-3");
        modelled = d.out.temp_mc[1];
        ck_assert_int_lt(modelled, 72500);
        ck_assert_int_gt(modelled, 72000);
        ck_assert_int_eq(sim_live_hold_temp(d.run, 2, 50.0), -EINVAL);
        drive_close(&d);
}
END_TEST

static Suite *live_suite(void)
{
        Suite *s = suite_create("live");
        TCase *tc;

        tc = tcase_create("map");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, test_map_cluster);
        tcase_add_test(tc, test_map_mp);
        tcase_add_test(tc, test_map_pair);
        suite_add_tcase(s, tc);

        tc = tcase_create("thermal");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, test_thermal_steady_state);
        tcase_add_test(tc, test_thermal_time_constant);
        tcase_add_test(tc, test_board_thermal_defaults);
        tcase_add_test(tc, test_board_thermal_keys);
        tcase_add_loop_test(tc, test_board_thermal_errors, 0, sizeof(bad_boards) / sizeof(bad_boards[0]));
        suite_add_tcase(s, tc);

        tc = tcase_create("driver");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, test_desc);
        tcase_add_test(tc, test_driver_run);
        tcase_add_test(tc, test_driver_start_timeout);
        tcase_add_test(tc, test_driver_held_temp);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(live_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
