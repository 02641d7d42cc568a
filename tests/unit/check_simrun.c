/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulation loop on boards small enough to compute by hand: when the
 * engine decides, what it sees, what a switch costs and what the scores
 * add up to; then the blsim program itself on the trace suite and on bad
 * input. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fileio.h"
#include "loaders/board-file.h"
#include "policy/builtin.h"
#include "sim/presets.h"
#include "sim/report.h"
#include "sim/run.h"
#include "tests/unit/plot-svg.h"

extern char **environ;

#define TOL 1e-6

static const char *const preset_names[] = {
        "ondemand", "conservative", "interactive", "hmp", "exynos5410", "default",
};

static unsigned count(const char *text, const char *what)
{
        unsigned n = 0;

        for (const char *p = text; (p = strstr(p, what)); p++)
                n++;
        return n;
}

/* A heuristic that says what the test tells it to and keeps every sample.
 * The simulator reuses its per-CPU records, so each sample is kept with a
 * copy of them (the test boards have at most PROBE_CPUS CPUs). */
#define PROBE_MAX 640
#define PROBE_CPUS 8
struct probe_sample {
        struct bl_sample s;
        struct bl_cpu_sample cpu[PROBE_CPUS];
};
static struct probe_sample probe_seen[PROBE_MAX];
static bl_usec_t probe_now[PROBE_MAX];
static double probe_demand[PROBE_MAX];
static unsigned probe_calls;

static double probe_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        unsigned i = probe_calls++;

        if (i >= PROBE_MAX)
                return 0.0;
        ck_assert_uint_le(s->ncpus, PROBE_CPUS);
        probe_seen[i].s = *s;
        memcpy(probe_seen[i].cpu, s->cpu, s->ncpus * sizeof(s->cpu[0]));
        probe_seen[i].s.cpu = probe_seen[i].cpu;
        probe_now[i] = now;
        return probe_demand[i];
}

static const struct bl_heuristic_ops probe_ops = {
        .abi = BL_POLICY_ABI,
        .name = "probe",
        .summary = "scripted demand, records samples",
        .score = probe_score,
};

static void probe_reset(void)
{
        probe_calls = 0;
        memset(probe_demand, 0, sizeof(probe_demand));
        memset(probe_now, 0, sizeof(probe_now));
}

/* The probe alone, thresholds 80/60 and no delays, residency or rate limit:
 * the engine then does exactly what the demand says at every decision. */
/* The probe's demand, decided on at once: every rule that would hold a
 * move (delays, residency, the rate limit, the break-even wait) is off, so
 * the tests see the simulator's mechanics alone. */
static void probe_config(struct bl_config *cfg, unsigned interval_ms)
{
        static const struct bl_heuristic_ops *const table[] = { &probe_ops, NULL };

        config_init(cfg, table);
        cfg->nheuristics = 1;
        snprintf(cfg->heuristics[0].name, sizeof(cfg->heuristics[0].name), "probe");
        cfg->heuristics[0].ops = &probe_ops;
        cfg->heuristics[0].weight = 1.0;
        cfg->sample_interval_ms = interval_ms;
        cfg->idle_sample_interval_ms = 0;
        cfg->up_threshold = 80;
        cfg->down_threshold = 60;
        cfg->up_delay_ms = 0;
        cfg->down_delay_ms = 0;
        cfg->min_residency_ms = 0;
        cfg->max_switch_rate_hz = 0;
        cfg->break_even = false;
}

static void add_cluster(struct sim_board *b, const char *name, unsigned cpus, double off_mw)
{
        struct sim_cluster *c = &b->cluster[b->nclusters];

        snprintf(c->name, sizeof(c->name), "%s", name);
        c->cpus = cpus;
        c->order = b->nclusters;
        c->off_mw = off_mw;
        c->first_cpu = b->ncpus;
        b->ncpus += cpus;
        b->nclusters++;
}

static void add_opp(struct sim_board *b, unsigned mhz, unsigned capacity, double core_mw, double idle_mw)
{
        struct sim_cluster *c = &b->cluster[b->nclusters - 1];

        c->opp[c->nopps++] = (struct sim_opp){ mhz, capacity, core_mw, idle_mw };
}

/* little: 1 CPU, capacity 512 at 10 mW busy, 2 mW idle, 1 mW off;
 * big: 1 CPU, 1024 at 40/8 mW, 4 mW off. A switch: 100 us, 5 uJ. */
static struct sim_board board_tiny(unsigned cpus)
{
        struct sim_board b;

        memset(&b, 0, sizeof(b));
        snprintf(b.name, sizeof(b.name), "tiny");
        b.reference_capacity = 1024;
        b.switch_latency_us = 100;
        b.switch_energy_uj = 5;
        add_cluster(&b, "little", cpus, 1);
        add_opp(&b, 500, 512, 10, 2);
        add_cluster(&b, "big", cpus, 4);
        add_opp(&b, 1000, 1024, 40, 8);
        return b;
}

/* The same with a second, slower OPP on little: 256 at 5/1 mW. */
static struct sim_board board_two_opps(void)
{
        struct sim_board b;

        memset(&b, 0, sizeof(b));
        snprintf(b.name, sizeof(b.name), "tiny2");
        b.reference_capacity = 1024;
        b.switch_latency_us = 100;
        b.switch_energy_uj = 5;
        add_cluster(&b, "little", 1, 1);
        add_opp(&b, 250, 256, 5, 1);
        add_opp(&b, 500, 512, 10, 2);
        add_cluster(&b, "big", 1, 4);
        add_opp(&b, 1000, 1024, 40, 8);
        return b;
}

struct tiny_workload {
        struct sim_trace trace;
        struct sim_workload *w;
};

static void tiny_open(struct tiny_workload *tw, bl_usec_t step_us, unsigned nlanes, size_t nsteps,
                      const float *work)
{
        tw->trace = (struct sim_trace){ .step_us = step_us, .nlanes = nlanes, .nsteps = nsteps };
        tw->trace.work = malloc(nsteps * nlanes * sizeof(float));
        ck_assert_ptr_nonnull(tw->trace.work);
        memcpy(tw->trace.work, work, nsteps * nlanes * sizeof(float));
        ck_assert_int_eq(workload_from_trace(&tw->w, "tiny", &tw->trace), 0);
}

static void tiny_close(struct tiny_workload *tw)
{
        workload_free(tw->w);
        trace_free(&tw->trace);
}

/* The cluster mode of a board, as blsim builds it. */
static const struct sim_mode *cluster_mode(const struct sim_board *b)
{
        static struct sim_mode m;
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_int_eq(sim_mode_build(&m, b, BL_MODE_CLUSTER, &diag), 0);
        return &m;
}

START_TEST(fixed_little_by_hand)
{
        static const float work[] = { 256, 0, 600 };
        struct sim_board b = board_tiny(1);
        struct tiny_workload tw;
        struct sim_result r;

        tiny_open(&tw, 1000, 1, 3, work);
        ck_assert_int_eq(sim_run_fixed(&b, tw.w, 0, &r, NULL), 0);
        /* 512 us busy + idle 2 mW + big off 4 mW; idle; 1000 us busy
         * (100 reference-us left over). */
        ck_assert_double_eq_tol(r.energy_uj, (5120.0 + 6000.0 + 6000.0 + 16000.0) / 1000.0, TOL);
        ck_assert_uint_eq(r.steps, 3);
        ck_assert_double_eq_tol(r.total_work, 856.0, TOL);
        ck_assert_double_eq_tol(r.late_work_ratio, 100.0 / 856.0, TOL);
        ck_assert_uint_eq(r.switches, 0);
        ck_assert_uint_eq(r.time_in[0], 3000);
        ck_assert_uint_eq(r.time_in[1], 0);
        tiny_close(&tw);
}
END_TEST

START_TEST(first_step_pays_no_switch)
{
        static const float work[] = { 256, 0, 600 };
        struct sim_board b = board_tiny(1);
        struct tiny_workload tw;
        struct sim_result r;

        /* The run starts on big: no stall, no switch energy. */
        tiny_open(&tw, 1000, 1, 3, work);
        ck_assert_int_eq(sim_run_fixed(&b, tw.w, 1, &r, NULL), 0);
        ck_assert_double_eq_tol(r.energy_uj, (19240.0 + 9000.0 + 33000.0) / 1000.0, TOL);
        ck_assert_double_eq_tol(r.late_work_ratio, 0.0, TOL);
        ck_assert_uint_eq(r.switches, 0);
        ck_assert_uint_eq(r.time_in[1], 3000);
        tiny_close(&tw);
}
END_TEST

START_TEST(fixed_records_arrivals)
{
        static const float work[] = { 1, 2, 3, 4, 5, 6 };
        struct sim_board b = board_tiny(1);
        struct tiny_workload tw;
        struct sim_trace rec;
        struct sim_result r;

        tiny_open(&tw, 1000, 2, 3, work);
        ck_assert_int_eq(sim_run_fixed(&b, tw.w, 1, &r, &rec), 0);
        ck_assert_uint_eq(rec.nsteps, 3);
        ck_assert_uint_eq(rec.nlanes, 2);
        ck_assert_uint_eq(rec.step_us, 1000);
        ck_assert_mem_eq(rec.work, work, sizeof(work));
        trace_free(&rec);
        tiny_close(&tw);
}
END_TEST

/* Up at the first decision (t = 2 ms): steps 0 and 1 ran on little, step 2
 * (starting at 2 ms) is the first on big and pays the switch. */
START_TEST(decision_applies_from_its_time)
{
        static const float work[] = { 100, 100, 100, 100 };
        struct sim_board b = board_tiny(1);
        struct tiny_workload tw;
        struct sim_timeline tl = { 0 };
        struct bl_config cfg;
        struct sim_result r;

        probe_reset();
        probe_demand[0] = 1000;         /* > 80% of 512 */
        probe_demand[1] = 1000;
        probe_config(&cfg, 2);
        tiny_open(&tw, 1000, 1, 4, work);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, &tl), 0);
        ck_assert_uint_eq(probe_calls, 2);      /* at 2 ms and at the end, 4 ms */
        ck_assert_uint_eq(probe_now[0], 2000);
        ck_assert_uint_eq(probe_now[1], 4000);
        ck_assert_uint_eq(r.switches, 1);
        ck_assert_uint_eq(r.time_in[0], 2000);
        ck_assert_uint_eq(r.time_in[1], 2000);
        /* little: 200 us busy, 2 mW idle, 4 mW big off, twice;
         * big, switched: 100 us busy + 5 uJ, then 100 us busy; 8 + 1 mW. */
        ck_assert_double_eq_tol(r.energy_uj,
                                (2 * (2000.0 + 2000.0 + 4000.0) + (4000.0 + 9000.0 + 5000.0) +
                                 (4000.0 + 9000.0)) / 1000.0, TOL);
        ck_assert_double_eq_tol(r.late_work_ratio, 0.0, TOL);

        ck_assert_uint_eq(tl.n, 2);
        ck_assert_uint_eq(tl.p[0].t, 2000);
        ck_assert_double_eq_tol(tl.p[0].demand, 1000, TOL);
        ck_assert_uint_eq(tl.p[0].level, 1);
        ck_assert_double_eq_tol(tl.p[0].energy_uj, 16.0, TOL);
        ck_assert_uint_eq(tl.p[1].t, 4000);
        ck_assert_double_eq_tol(tl.p[1].energy_uj, r.energy_uj, TOL);
        sim_timeline_free(&tl);
        tiny_close(&tw);
}
END_TEST

/* With tl->explain, each decision's reason beside its point: the switch
 * up at 2 ms and why the second decision stays; without it, none kept. */
START_TEST(decision_reasons_noted)
{
        static const float work[] = { 100, 100, 100, 100 };
        struct sim_board b = board_tiny(1);
        struct tiny_workload tw;
        struct sim_timeline tl = { .explain = true };
        struct bl_config cfg;
        struct sim_result r;

        probe_reset();
        probe_demand[0] = 1000;
        probe_demand[1] = 1000;
        probe_config(&cfg, 2);
        tiny_open(&tw, 1000, 1, 4, work);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, &tl), 0);
        ck_assert_uint_eq(tl.n, 2);
        ck_assert_ptr_nonnull(tl.why);
        ck_assert(tl.why[0].switched);
        ck_assert_int_eq(tl.why[0].cause, BL_CAUSE_UP);
        ck_assert_uint_eq(tl.why[0].engine, 0);
        ck_assert_msg(strstr(tl.why[0].reason, "demand 1000 > "), "reason: %s", tl.why[0].reason);
        ck_assert(!tl.why[1].switched);
        ck_assert_int_eq(tl.why[1].cause, BL_CAUSE_NONE);
        ck_assert_str_eq(tl.why[1].reason, "demand 1000 at top level big");
        sim_timeline_free(&tl);

        probe_reset();
        probe_demand[0] = 1000;
        probe_demand[1] = 1000;
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, &tl), 0);
        ck_assert_uint_eq(tl.n, 2);
        ck_assert_ptr_null(tl.why);
        sim_timeline_free(&tl);
        tiny_close(&tw);
}
END_TEST

/* 1.5 ms steps, 2 ms decisions: the step at 1.5 ms started before the
 * decision at 2 ms and stays on little; the next step (3 ms) is on big. The
 * sample at 2 ms holds both steps that started before it, the one at 4 ms
 * only the step of 3 ms. */
START_TEST(straddling_step_keeps_its_cluster)
{
        static const float work[] = { 128, 128, 128, 128 };
        struct sim_board b = board_tiny(1);
        struct tiny_workload tw;
        struct bl_config cfg;
        struct sim_result r;

        probe_reset();
        probe_demand[0] = 1000;
        probe_demand[1] = 1000;
        probe_demand[2] = 1000;
        probe_config(&cfg, 2);
        tiny_open(&tw, 1500, 1, 4, work);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, NULL), 0);
        ck_assert_uint_eq(r.time_in[0], 3000);
        ck_assert_uint_eq(r.time_in[1], 3000);
        ck_assert_uint_eq(r.switches, 1);
        ck_assert_uint_eq(probe_calls, 3);      /* 2, 4 and 6 ms */
        /* little: 256 us busy per step, two steps, over 2 ms */
        ck_assert_float_eq_tol(probe_seen[0].cpu[0].busy, 512.0f / 2000.0f, 1e-6f);
        /* big after the switch: 128 us of the 1400 available */
        ck_assert_uint_eq(probe_seen[1].s.ncpus, 2);
        ck_assert_uint_eq(probe_seen[1].cpu[1].cpu, 1);
        ck_assert_float_eq_tol(probe_seen[1].cpu[1].busy, 128.0f / 2000.0f, 1e-6f);
        ck_assert(probe_seen[1].cpu[1].online);
        ck_assert(!probe_seen[1].cpu[0].online);
        /* the interval [4, 6) ms holds the step of 4.5 ms */
        ck_assert_float_eq_tol(probe_seen[2].cpu[1].busy, 128.0f / 2000.0f, 1e-6f);
        tiny_close(&tw);
}
END_TEST

/* What the engine sees: busy as a fraction of the interval, the capacity of
 * the last step's OPP, the cluster's top capacity, and pressure as the time
 * tasks waited for a CPU: none here, where the one lane runs alone on its
 * CPU, even in the step it cannot finish. */
START_TEST(sample_busy_capacity_pressure)
{
        /* 300 -> OPP 512, 600 us; 100 -> OPP 256, 400 us;
         * 600 -> top, 1000 us, 100 left; 100 pending -> OPP 256, 400 us. */
        static const float work[] = { 300, 100, 600, 0 };
        struct sim_board b = board_two_opps();
        struct tiny_workload tw;
        struct bl_config cfg;
        struct sim_result r;
        const struct bl_sample *s;

        probe_reset();
        probe_config(&cfg, 2);
        tiny_open(&tw, 1000, 1, 4, work);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, NULL), 0);
        ck_assert_uint_eq(probe_calls, 2);

        s = &probe_seen[0].s;
        ck_assert_uint_eq(s->now, 2000);
        ck_assert_uint_eq(s->interval, 2000);
        ck_assert_uint_eq(s->ncpus, 2);
        ck_assert_uint_eq(s->cpu[0].cpu, 0);
        ck_assert_uint_eq(s->cpu[1].cpu, 1);
        ck_assert(s->cpu[0].online);
        ck_assert(!s->cpu[1].online);
        ck_assert_float_eq_tol(s->cpu[0].busy, 0.5f, 1e-6f);
        ck_assert_uint_eq(s->cpu[0].capacity, 256);
        ck_assert_uint_eq(s->cpu[0].max_capacity, 512);
        ck_assert_float_eq_tol(s->cpu[1].busy, 0.0f, 1e-6f);
        ck_assert_uint_eq(s->cpu[1].capacity, 0);
        ck_assert_uint_eq(s->cpu[1].max_capacity, 0);
        ck_assert(s->has_pressure);
        ck_assert_double_eq_tol(s->pressure, 0.0, TOL);
        ck_assert(s->has_running);
        ck_assert_uint_eq(s->running, 0);
        ck_assert(!s->has_temp);

        s = &probe_seen[1].s;
        ck_assert_uint_eq(s->now, 4000);
        ck_assert_float_eq_tol(s->cpu[0].busy, 0.7f, 1e-6f);
        ck_assert_uint_eq(s->cpu[0].capacity, 256);
        ck_assert_double_eq_tol(s->pressure, 0.0, TOL);

        /* the backlog of the third step was done in the fourth */
        ck_assert_uint_eq(s->running, 0);

        ck_assert_double_eq_tol(r.late_work_ratio, 100.0 / 1000.0, TOL);
        tiny_close(&tw);
}
END_TEST

/* Two lanes on little's one CPU: 300 and 100 at OPP 1 (512, the lowest
 * with 1.25 x 400), 800 us busy; they share it until lane 1's 100 is done
 * (400 us), then lane 0 runs its other 200 alone. The sample at 2 ms: busy
 * 0.4, pressure 400 / 2000. */
START_TEST(sample_pressure_is_waiting)
{
        static const float work[] = { 300, 100, 0, 0, 0, 0, 0, 0 };
        struct sim_board b = board_two_opps();
        struct tiny_workload tw;
        struct bl_config cfg;
        struct sim_result r;

        probe_reset();
        probe_config(&cfg, 2);
        tiny_open(&tw, 1000, 2, 4, work);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, NULL), 0);
        ck_assert_uint_eq(probe_calls, 2);
        ck_assert_float_eq_tol(probe_seen[0].cpu[0].busy, 0.4f, 1e-6f);
        ck_assert_double_eq_tol(probe_seen[0].s.pressure, 0.2, TOL);
        ck_assert_double_eq_tol(probe_seen[1].s.pressure, 0.0, TOL);
        tiny_close(&tw);
}
END_TEST

/* The tasks runnable as a sample ends are those of its last step (exec.c
 * rule 8), not those that had work earlier in it. */
START_TEST(sample_running_at_the_end)
{
        /* two lanes on little's one CPU (at most 500 a step): lane 0 has
         * work left after the first step, done in the second (the CPU busy
         * early in it, idle at its end); lane 1 after the third; both after
         * the fourth */
        static const float work[] = { 700, 0, 0, 0, 0, 600, 600, 600 };
        /* one lane that keeps up: 300 a step at OPP 512 is 600 us busy,
         * running more than half the step, then 100 at OPP 256, 400 us */
        static const float keeps_up[] = { 300, 100 };
        struct sim_board b = board_two_opps();
        struct tiny_workload tw;
        struct bl_config cfg;
        struct sim_result r;

        probe_reset();
        probe_config(&cfg, 1);
        tiny_open(&tw, 1000, 2, 4, work);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, NULL), 0);
        ck_assert_uint_ge(probe_calls, 4);
        ck_assert(probe_seen[0].s.has_running);
        ck_assert_uint_eq(probe_seen[0].s.running, 1);
        ck_assert_uint_eq(probe_seen[1].s.running, 0);
        ck_assert_uint_eq(probe_seen[2].s.running, 1);
        ck_assert_uint_eq(probe_seen[3].s.running, 2);
        tiny_close(&tw);

        probe_reset();
        tiny_open(&tw, 1000, 1, 2, keeps_up);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, NULL), 0);
        ck_assert_uint_ge(probe_calls, 2);
        ck_assert_float_eq_tol(probe_seen[0].cpu[0].busy, 0.6f, 1e-6f);
        ck_assert_uint_eq(probe_seen[0].s.running, 1);
        ck_assert_float_eq_tol(probe_seen[1].cpu[0].busy, 0.4f, 1e-6f);
        ck_assert_uint_eq(probe_seen[1].s.running, 0);
        ck_assert_double_eq(r.late_work_ratio, 0);
        tiny_close(&tw);
}
END_TEST

/* Idle back-off: decisions every sample_interval_ms until little has been
 * idle for a window of 5 s, then at doubling intervals up to
 * idle_sample_interval_ms, and at the full rate again from the first
 * decision that sees load; each
 * sample covers exactly the time since the one before. */
START_TEST(idle_backoff_decision_times)
{
        static const bl_usec_t when[] = { 5000000, 5020000, 5060000, 5100000, 5300000, 5340000, 5350000 };
        static const bl_usec_t interval[] = { 10000, 20000, 40000, 40000, 40000, 40000, 10000 };
        static const float busy[] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.5f, 0.5f };
        static const unsigned call[] = { 499, 500, 501, 502, 507, 508, 509 };
        static float work[560];
        struct sim_board b = board_tiny(1);
        struct tiny_workload tw;
        struct bl_config cfg;
        struct sim_result r;

        for (unsigned i = 530; i < 560; i++)
                work[i] = 2500;         /* 5 ms of each 10 ms step on little's 512 */
        probe_reset();
        probe_config(&cfg, 10);
        cfg.idle_sample_interval_ms = 40;
        tiny_open(&tw, 10000, 1, 560, work);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, NULL), 0);
        /* 500 at 10 ms (a window of 5 s), 9 backing off (5020-5340 ms), the
         * last of them the first to see the load, 26 at 10 ms (5350-5600 ms) */
        ck_assert_uint_eq(probe_calls, 535);
        ck_assert_uint_eq(r.samples, 535);
        for (unsigned i = 0; i < sizeof(call) / sizeof(call[0]); i++) {
                ck_assert_uint_eq(probe_now[call[i]], when[i]);
                ck_assert_uint_eq(probe_seen[call[i]].s.interval, interval[i]);
                ck_assert_float_eq_tol(probe_seen[call[i]].cpu[0].busy, busy[i], 1e-6f);
        }
        ck_assert_uint_eq(probe_now[534], 5600000);

        /* Off: every 10 ms, whatever the load. */
        probe_reset();
        cfg.idle_sample_interval_ms = 0;
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, NULL), 0);
        ck_assert_uint_eq(r.samples, 560);
        ck_assert_uint_eq(probe_now[509], 5100000);
        ck_assert_uint_eq(probe_seen[509].s.interval, 10000);
        tiny_close(&tw);
}
END_TEST

/* On 60 s of nothing the default 1 s idle interval takes 559 decisions
 * where the full rate takes 6000: the first 5 s at 10 ms, then 20, 40 ...
 * 640 ms, then one a second. */
START_TEST(idle_trace_samples_less)
{
        static float work[600];
        struct sim_board b = board_tiny(1);
        struct tiny_workload tw;
        struct bl_config cfg;
        struct sim_result r;

        probe_reset();
        probe_config(&cfg, 10);
        cfg.idle_sample_interval_ms = 1000;
        tiny_open(&tw, 100000, 1, 600, work);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, NULL), 0);
        ck_assert_uint_eq(r.samples, 559);
        ck_assert_uint_eq(probe_now[558], 59260000);
        ck_assert_uint_eq(probe_seen[558].s.interval, 1000000);
        cfg.idle_sample_interval_ms = 0;
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, NULL), 0);
        ck_assert_uint_eq(r.samples, 6000);
        tiny_close(&tw);
}
END_TEST

/* Lanes map onto CPUs modulo the cluster's size, and a cluster's CPUs have
 * their global numbers in the sample (big's are 2 and 3 here). */
START_TEST(sample_cpus_of_the_active_cluster)
{
        static const float work[] = { 100, 200, 50, 100, 200, 50, 100, 200, 50, 100, 200, 50 };
        struct sim_board b = board_tiny(2);
        struct tiny_workload tw;
        struct bl_config cfg;
        struct sim_result r;
        const struct bl_sample *s;

        probe_reset();
        probe_demand[0] = 1000;
        probe_demand[1] = 1000;
        probe_config(&cfg, 2);
        tiny_open(&tw, 1000, 3, 4, work);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, NULL), 0);

        s = &probe_seen[0].s;
        ck_assert_uint_eq(s->ncpus, 4);
        for (unsigned cpu = 0; cpu < 4; cpu++)
                ck_assert_uint_eq(s->cpu[cpu].cpu, cpu);
        ck_assert(s->cpu[0].online && s->cpu[1].online);
        ck_assert(!s->cpu[2].online && !s->cpu[3].online);
        /* little, capacity 512: lanes 0 and 2 on CPU 0 (150 -> 300 us), lane 1 on CPU 1 (400 us) */
        ck_assert_float_eq_tol(s->cpu[0].busy, 0.3f, 1e-6f);
        ck_assert_float_eq_tol(s->cpu[1].busy, 0.4f, 1e-6f);
        ck_assert_uint_eq(s->cpu[1].capacity, 512);

        s = &probe_seen[1].s;
        ck_assert_uint_eq(s->ncpus, 4);
        for (unsigned cpu = 0; cpu < 4; cpu++)
                ck_assert_uint_eq(s->cpu[cpu].cpu, cpu);
        ck_assert(!s->cpu[0].online && !s->cpu[1].online);
        ck_assert(s->cpu[2].online && s->cpu[3].online);
        ck_assert_float_eq_tol(s->cpu[0].busy, 0.0f, 1e-6f);
        ck_assert_float_eq_tol(s->cpu[2].busy, 0.15f, 1e-6f);
        ck_assert_float_eq_tol(s->cpu[3].busy, 0.2f, 1e-6f);
        ck_assert_uint_eq(s->cpu[2].capacity, 1024);
        ck_assert_uint_eq(s->cpu[3].max_capacity, 1024);
        ck_assert_uint_eq(s->cpu[0].capacity, 0);
        tiny_close(&tw);
}
END_TEST

/* Down again: demand below 60% of little's 512 at the second decision. */
START_TEST(switch_back_counts_twice)
{
        static const float work[] = { 10, 10, 10, 10, 10, 10 };
        struct sim_board b = board_tiny(1);
        struct tiny_workload tw;
        struct bl_config cfg;
        struct sim_result r;

        probe_reset();
        probe_demand[0] = 1000;
        probe_demand[1] = 100;
        probe_config(&cfg, 2);
        tiny_open(&tw, 1000, 1, 6, work);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, NULL), 0);
        ck_assert_uint_eq(r.switches, 2);
        ck_assert_uint_eq(r.time_in[0], 4000);
        ck_assert_uint_eq(r.time_in[1], 2000);
        ck_assert_uint_eq(r.time_in[0] + r.time_in[1], r.steps * 1000);
        tiny_close(&tw);
}
END_TEST

/* What a switch leaves behind is not load, in blsim as in the daemon
 * (core/settle.h): a 10 ms switch up stalls the work, and the samples
 * after it, where big catches up on that backlog, are cut to what little
 * read before the switch (0.512 busy at 512: 262 of demand, no pressure).
 * Unfiltered, the stall reads pressure 1 and big 1.0 then 0.792 busy. */
START_TEST(switch_aftermath_is_cut_as_in_the_daemon)
{
        float work[40];
        struct sim_board b = board_tiny(1);
        struct tiny_workload tw;
        struct bl_config cfg;
        struct sim_result r;

        for (unsigned i = 0; i < 40; i++)
                work[i] = 256;
        b.switch_latency_us = 10000;
        probe_reset();
        probe_demand[0] = 1000;
        for (unsigned i = 1; i < PROBE_MAX; i++)
                probe_demand[i] = 700;  /* stay on big */
        probe_config(&cfg, 2);
        tiny_open(&tw, 1000, 1, 40, work);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), tw.w, &cfg, &r, NULL), 0);
        ck_assert_uint_eq(r.switches, 1);
        ck_assert_uint_ge(probe_calls, 15);
        /* the decision at 2 ms, before the switch: little 0.512 busy */
        ck_assert_uint_eq(probe_now[0], 2000);
        ck_assert_double_eq_tol(probe_seen[0].cpu[0].busy, 0.512, 1e-6);
        ck_assert_double_eq_tol(probe_seen[0].s.pressure, 0.0, 1e-9);
        /* 14 and 16 ms: big ran on the stall's backlog, which waited;
         * read as 262 of demand and no pressure */
        for (unsigned i = 6; i <= 7; i++) {
                ck_assert_uint_eq(probe_now[i], (i + 1) * 2000);
                ck_assert(probe_seen[i].cpu[1].online);
                ck_assert_double_eq_tol(probe_seen[i].cpu[1].busy, 0.256, 1e-6);
                ck_assert_double_eq_tol(probe_seen[i].s.pressure, 0.0, 1e-9);
        }
        /* the stall itself (8 ms: nothing ran, everything waited) too */
        ck_assert_double_eq_tol(probe_seen[3].s.pressure, 0.0, 1e-9);
        tiny_close(&tw);
}
END_TEST

START_TEST(eta_definition)
{
        double eta;

        ck_assert(sim_eta(100.0, 60.0, 50.0, &eta));
        ck_assert_double_eq_tol(eta, 0.8, TOL);
        ck_assert(sim_eta(100.0, 50.0, 50.0, &eta));
        ck_assert_double_eq_tol(eta, 1.0, TOL);
        ck_assert(sim_eta(100.0, 120.0, 50.0, &eta));
        ck_assert_double_eq_tol(eta, -0.4, TOL);
        ck_assert(!sim_eta(100.0, 60.0, 100.0, &eta));
        ck_assert(!sim_eta(100.0, 60.0, 120.0, &eta));
}
END_TEST

/* A trace of the suite, parsed. */
static void suite_trace(struct sim_trace *t, const char *name)
{
        char path[PATH_MAX];
        struct bl_diag diag;

        snprintf(path, sizeof(path), "%s/%s", WORKLOADS_DIR, name);
        diag_init(&diag);
        ck_assert_msg(trace_load(t, path, &diag) == 0, "%s: %s", path, diag.n ? diag.msg[0] : "?");
}

static void shipped_board(struct sim_board *b, const char *name)
{
        char path[PATH_MAX];
        struct bl_diag diag;

        snprintf(path, sizeof(path), "%s/%s", BOARDS_DIR, name);
        diag_init(&diag);
        ck_assert_msg(board_load(b, path, &diag) == 0, "%s: %s", path, diag.n ? diag.msg[0] : "?");
}

static void default_config(struct bl_config *cfg)
{
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_int_eq(preset_config(preset_find("default"), cfg, &diag), 0);
}

START_TEST(time_in_level_sums_to_run)
{
        struct sim_board b;
        struct sim_trace t;
        struct sim_workload *w;
        struct bl_config cfg;
        struct sim_result r;

        shipped_board(&b, "exynos5422-like.ini");
        suite_trace(&t, "app-launch.csv");
        default_config(&cfg);
        ck_assert_int_eq(workload_from_trace(&w, "app-launch", &t), 0);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), w, &cfg, &r, NULL), 0);
        ck_assert_uint_eq(r.steps, t.nsteps);
        ck_assert_uint_eq(r.time_in[0] + r.time_in[1], t.nsteps * t.step_us);
        /* the launch needs big, the idle tail does not */
        ck_assert_uint_gt(r.time_in[0], 0);
        ck_assert_uint_gt(r.time_in[1], 0);
        ck_assert_uint_gt(r.switches, 0);
        workload_free(w);
        trace_free(&t);
}
END_TEST

/* Each heuristic alone reaches big on a launch that needs it and comes back
 * for the idle tail: a preset whose thresholds its score cannot pass would
 * sit on LITTLE like always-little. */
START_TEST(heuristic_presets_switch)
{
        static const char *const names[] = { "util", "pelt", "psi", "trend" };
        struct sim_board b;
        struct sim_trace t;
        struct sim_workload *w;
        struct bl_config cfg;
        struct bl_diag diag;
        struct sim_result r;

        shipped_board(&b, "exynos5422-like.ini");
        suite_trace(&t, "app-launch.csv");
        ck_assert_int_eq(workload_from_trace(&w, "app-launch", &t), 0);
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
                diag_init(&diag);
                ck_assert_int_eq(preset_config(preset_find(names[i]), &cfg, &diag), 0);
                ck_assert_uint_eq(cfg.up_threshold, 80);
                ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), w, &cfg, &r, NULL), 0);
                ck_assert_msg(r.time_in[1] > 0 && r.switches >= 2, "%s: %lu switches, %llu us on big", names[i],
                              r.switches, (unsigned long long)r.time_in[1]);
        }
        workload_free(w);
        trace_free(&t);
}
END_TEST

/* Exactly equal, bit for bit: no tolerance. */
static void assert_same_result(const struct sim_result *a, const struct sim_result *b)
{
        ck_assert_uint_eq(a->steps, b->steps);
        ck_assert(a->energy_uj == b->energy_uj);
        ck_assert(a->total_work == b->total_work);
        ck_assert(a->late_work_ratio == b->late_work_ratio);
        ck_assert_uint_eq(a->switches, b->switches);
        ck_assert_mem_eq(a->time_in, b->time_in, sizeof(a->time_in));
}

START_TEST(policy_run_is_deterministic)
{
        struct sim_board b;
        struct sim_trace t;
        struct sim_workload *w;
        struct bl_config cfg;
        struct sim_result r1, r2;
        struct sim_timeline tl1 = { 0 }, tl2 = { 0 };

        shipped_board(&b, "exynos5422-like.ini");
        suite_trace(&t, "scrolling-60fps.csv");
        default_config(&cfg);
        ck_assert_int_eq(workload_from_trace(&w, "scrolling", &t), 0);
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), w, &cfg, &r1, &tl1), 0);
        /* the same workload object again: it is reset by the run */
        ck_assert_int_eq(sim_run_policy(&b, cluster_mode(&b), w, &cfg, &r2, &tl2), 0);
        assert_same_result(&r1, &r2);
        ck_assert_uint_eq(tl1.n, tl2.n);
        /* One point per decision; idle back-off decides at most at the full rate. */
        ck_assert_uint_eq(tl1.n, r1.samples);
        ck_assert_uint_le(tl1.n, t.nsteps * t.step_us / (cfg.sample_interval_ms * 1000));
        for (size_t i = 0; i < tl1.n; i++) {
                ck_assert_uint_eq(tl1.p[i].t, tl2.p[i].t);
                ck_assert(tl1.p[i].demand == tl2.p[i].demand);
                ck_assert_uint_eq(tl1.p[i].level, tl2.p[i].level);
                ck_assert(tl1.p[i].energy_uj == tl2.p[i].energy_uj);
        }
        /* The last decision falls within the last (at most idle) interval of the run. */
        ck_assert_uint_le(tl1.p[tl1.n - 1].t, t.nsteps * t.step_us);
        ck_assert_uint_gt(tl1.p[tl1.n - 1].t + cfg.idle_sample_interval_ms * 1000, t.nsteps * t.step_us);
        ck_assert(tl1.p[tl1.n - 1].energy_uj <= r1.energy_uj);
        sim_timeline_free(&tl1);
        sim_timeline_free(&tl2);
        workload_free(w);
        trace_free(&t);
}
END_TEST

/* Running blsim: stdout and stderr land in files of a private directory. */
struct blsim_out {
        int status;
        char *out;
        char *err;
};

static void blsim_out_free(struct blsim_out *o)
{
        free(o->out);
        free(o->err);
}

static char *slurp(const char *path)
{
        char *text = NULL;
        size_t len;

        ck_assert_int_eq(read_file(path, &text, &len), 0);
        return text;
}

/* argv after the program name, NULL-terminated; 'path_env' replaces PATH
 * when not NULL. */
static struct blsim_out blsim_env(const char *path_env, const char *const *args)
{
        char dir[] = "/tmp/check_simrun.XXXXXX", out[PATH_MAX], err[PATH_MAX], pathvar[PATH_MAX];
        const char *argv[32] = { BLSIM_PATH };
        char *envp[] = { pathvar, NULL };
        posix_spawn_file_actions_t fa;
        struct blsim_out o;
        unsigned n = 1;
        pid_t pid;
        int ws;

        for (; args[n - 1] && n < 31; n++)
                argv[n] = args[n - 1];
        argv[n] = NULL;
        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(out, sizeof(out), "%s/out", dir);
        snprintf(err, sizeof(err), "%s/err", dir);
        snprintf(pathvar, sizeof(pathvar), "PATH=%s", path_env ? path_env : "/usr/bin:/bin");
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ck_assert_int_eq(posix_spawn(&pid, BLSIM_PATH, &fa, NULL, (char *const *)argv,
                                     path_env ? envp : environ), 0);
        posix_spawn_file_actions_destroy(&fa);
        ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
        ck_assert_msg(WIFEXITED(ws), "blsim did not exit normally");
        o.status = WEXITSTATUS(ws);
        o.out = slurp(out);
        o.err = slurp(err);
        unlink(out);
        unlink(err);
        rmdir(dir);
        return o;
}

static struct blsim_out blsim(const char *const *args)
{
        return blsim_env(NULL, args);
}

/* A strict little JSON reader: enough to say "well-formed" and to list the
 * keys of the top-level object. */
struct json {
        const char *p;
        unsigned depth;
        char keys[64][40];
        unsigned nkeys;
};

static bool json_value(struct json *j);

static void json_ws(struct json *j)
{
        j->p += strspn(j->p, " \t\r\n");
}

static bool json_string_at(struct json *j, char *copy, size_t size)
{
        size_t n = 0;

        if (*j->p != '"')
                return false;
        for (j->p++; *j->p != '"'; j->p++) {
                if ((unsigned char)*j->p < 0x20 || !*j->p)
                        return false;
                if (*j->p == '\\') {
                        j->p++;
                        if (*j->p == 'u') {
                                for (int i = 1; i <= 4; i++)
                                        if (!strchr("0123456789abcdefABCDEF", j->p[i]) || !j->p[i])
                                                return false;
                                j->p += 4;
                        } else if (!*j->p || !strchr("\"\\/bfnrt", *j->p)) {
                                return false;
                        }
                }
                if (copy && n + 1 < size)
                        copy[n++] = *j->p;
        }
        if (copy)
                copy[n] = '\0';
        j->p++;
        return true;
}

static bool json_number(struct json *j)
{
        const char *start = j->p;

        if (*j->p == '-')
                j->p++;
        if (*j->p == '0')
                j->p++;
        else if (*j->p >= '1' && *j->p <= '9')
                j->p += strspn(j->p, "0123456789");
        else
                return false;
        if (*j->p == '.') {
                j->p++;
                if (!strspn(j->p, "0123456789"))
                        return false;
                j->p += strspn(j->p, "0123456789");
        }
        if (*j->p == 'e' || *j->p == 'E') {
                j->p++;
                if (*j->p == '+' || *j->p == '-')
                        j->p++;
                if (!strspn(j->p, "0123456789"))
                        return false;
                j->p += strspn(j->p, "0123456789");
        }
        return j->p > start;
}

static bool json_members(struct json *j, char open, char close)
{
        bool top = open == '{' && j->depth == 1;

        j->p++;
        json_ws(j);
        if (*j->p == close) {
                j->p++;
                return true;
        }
        for (;;) {
                json_ws(j);
                if (open == '{') {
                        char *key = top && j->nkeys < 64 ? j->keys[j->nkeys++] : NULL;

                        if (!json_string_at(j, key, sizeof(j->keys[0])))
                                return false;
                        json_ws(j);
                        if (*j->p++ != ':')
                                return false;
                }
                if (!json_value(j))
                        return false;
                json_ws(j);
                if (*j->p == ',') {
                        j->p++;
                        continue;
                }
                if (*j->p != close)
                        return false;
                j->p++;
                return true;
        }
}

static bool json_value(struct json *j)
{
        bool ok;

        json_ws(j);
        switch (*j->p) {
        case '{':
        case '[':
                j->depth++;
                ok = json_members(j, *j->p, *j->p == '{' ? '}' : ']');
                j->depth--;
                return ok;
        case '"':
                return json_string_at(j, NULL, 0);
        case 't':
                return strncmp(j->p, "true", 4) == 0 && (j->p += 4);
        case 'f':
                return strncmp(j->p, "false", 5) == 0 && (j->p += 5);
        case 'n':
                return strncmp(j->p, "null", 4) == 0 && (j->p += 4);
        default:
                return json_number(j);
        }
}

static void assert_json_object(const char *text, struct json *j)
{
        memset(j, 0, sizeof(*j));
        j->p = text;
        json_ws(j);
        ck_assert_msg(*j->p == '{', "not a JSON object: %.80s", text);
        ck_assert_msg(json_value(j), "malformed JSON near: %.80s", j->p);
        json_ws(j);
        ck_assert_msg(*j->p == '\0', "text after the JSON object: %.80s", j->p);
}

static bool json_has_key(const struct json *j, const char *key)
{
        for (unsigned i = 0; i < j->nkeys; i++)
                if (strcmp(j->keys[i], key) == 0)
                        return true;
        return false;
}

static const char *const run_keys[] = {
        "board", "workload", "policy", "steps", "step_us", "energy_uj", "late_work_ratio", "switches",
        "samples_per_s", "time_in_level_usec", "oracle_energy_uj", "oracle_switches", "oracle_infeasible_steps",
        "always_big_energy_uj", "always_little_energy_uj", "eta",
};

static void assert_run_json(const char *text, const char *what)
{
        struct json j;

        assert_json_object(text, &j);
        for (size_t i = 0; i < sizeof(run_keys) / sizeof(run_keys[0]); i++)
                ck_assert_msg(json_has_key(&j, run_keys[i]), "%s: no key \"%s\"", what, run_keys[i]);
}

/* A report on the tiny board with made-up numbers, written to memory. */
static void tiny_report(struct sim_report *rep, struct sim_oracle *o, struct sim_mode *m)
{
        struct bl_ladder *l = &m->ladder;

        memset(rep, 0, sizeof(*rep));
        memset(o, 0, sizeof(*o));
        memset(m, 0, sizeof(*m));
        l->nlevels = 2;
        snprintf(l->levels[0].name, sizeof(l->levels[0].name), "little");
        snprintf(l->levels[1].name, sizeof(l->levels[1].name), "big");
        l->levels[0].capacity = 512;
        l->levels[1].capacity = 1024;
        m->nclasses = 2;
        snprintf(m->class_name[0], sizeof(m->class_name[0]), "little");
        snprintf(m->class_name[1], sizeof(m->class_name[1]), "big");
        rep->board = "tiny";
        rep->workload = "odd \"name\"\\with\tescapes.csv";
        rep->steps = 4;
        rep->step_us = 1000;
        rep->mode = m;
        rep->little.steps = 4;
        rep->big.steps = 4;
        rep->policy[0].steps = 4;
        rep->little.energy_uj = 20.0;
        rep->little.time_in[0] = 4000;
        rep->big.energy_uj = 60.0;
        rep->big.time_in[1] = 4000;
        o->energy_uj = 40.0;
        o->time_in[0] = 2000;
        o->time_in[1] = 2000;
        rep->oracle = o;
        rep->npolicies = 1;
        snprintf(rep->policy[0].policy, sizeof(rep->policy[0].policy), "it's");
        rep->policy[0].energy_uj = 45.0;
        rep->policy[0].time_in[0] = 3000;
        rep->policy[0].time_in[1] = 1000;
}

static char *capture(void (*fn)(FILE *f, const struct sim_report *rep), const struct sim_report *rep)
{
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);

        ck_assert_ptr_nonnull(f);
        fn(f, rep);
        ck_assert_int_eq(fclose(f), 0);
        return text;
}

START_TEST(report_json_escapes_and_eta)
{
        struct sim_report rep;
        struct sim_oracle o;
        static struct sim_mode l;
        struct json j;
        char *text;

        tiny_report(&rep, &o, &l);
        text = capture(report_run_json, &rep);
        assert_run_json(text, "report");
        ck_assert_ptr_nonnull(strstr(text, "\"workload\": \"odd \\\"name\\\"\\\\with\\tescapes.csv\""));
        ck_assert_ptr_nonnull(strstr(text, "\"eta\": 0.7500"));
        ck_assert_ptr_nonnull(strstr(text, "\"time_in_level_usec\": {\"little\": 3000, \"big\": 1000}"));
        free(text);

        /* no saving possible: eta is null, not a division by zero */
        o.energy_uj = 60.0;
        text = capture(report_compare_json, &rep);
        assert_json_object(text, &j);
        ck_assert_uint_eq(count(text, "\"eta\": null"), 4);
        free(text);
        text = capture(report_compare_table, &rep);
        ck_assert_uint_eq(count(text, " n/a "), 4);
        /* the policy's row: 45 uJ, 25% saved, 3/4 of the time on little */
        ck_assert_ptr_nonnull(strstr(text, "\nit's                0.045      25.0     n/a     0.0000        0"
                                           "     75.0    25.0\n"));
        ck_assert_ptr_nonnull(strstr(text, "\nit's "));
        free(text);
}
END_TEST

START_TEST(report_plot_script_inline)
{
        struct sim_timeline_point pts[2] = { { 20000, 100.0, 0, 1.0 }, { 40000, 900.0, 1, 2.5 } };
        struct sim_timeline tl = { .n = 2, .size = 2, .p = pts };
        struct sim_report rep;
        struct sim_oracle o;
        static struct sim_mode l;
        char *text = NULL;
        size_t len = 0;
        FILE *f;

        tiny_report(&rep, &o, &l);
        ck_assert_ptr_null(report_plot_terminal("out.pdf"));
        ck_assert_str_eq(report_plot_terminal("OUT.SVG"), "svg");
        ck_assert_str_eq(report_plot_terminal("a.png"), "png");

        struct sim_plot_line lines[SIM_PLOT_MAX_LINES + 1];
        const char *demand, *level;

        for (unsigned i = 0; i < SIM_PLOT_MAX_LINES + 1; i++)
                lines[i] = (struct sim_plot_line){ i == 0 ? "it's" : "no-demand", &tl, i == 0 };
        f = open_memstream(&text, &len);
        ck_assert_int_eq(report_plot_script(f, "x.pdf", &rep, lines, 1), -EINVAL);
        ck_assert_int_eq(report_plot_script(f, "x.svg", &rep, lines, 0), -EINVAL);
        ck_assert_int_eq(report_plot_script(f, "x.svg", &rep, lines, SIM_PLOT_MAX_LINES + 1), -EINVAL);
        ck_assert_int_eq(report_plot_script(f, "it's.svg", &rep, lines, 2), 0);
        ck_assert_int_eq(fclose(f), 0);
        ck_assert_ptr_nonnull(strstr(text, "set terminal svg"));
        ck_assert_ptr_nonnull(strstr(text, "set output 'it''s.svg'\n"));
        ck_assert_ptr_nonnull(strstr(text, "$p0 << EOD\n0.020 100.0 0.000 0.001\n"
                                           "0.040 900.0 1.000 0.003\nEOD\n"));
        ck_assert_ptr_nonnull(strstr(text, "title 'it''s'"));
        ck_assert_ptr_nonnull(strstr(text, "set ytics ('little' 0, 'big' 1)"));
        ck_assert_ptr_nonnull(strstr(text, "unset multiplot\n"));
        /* The demand panel draws the line with a demand only; the level
         * panel both, each in its own colour. */
        demand = strstr(text, "set ylabel 'demand (capacity)'");
        level = strstr(text, "set ylabel 'level'");
        ck_assert_ptr_nonnull(demand);
        ck_assert_ptr_nonnull(level);
        ck_assert_ptr_null(memmem(demand, (size_t)(level - demand), "no-demand", 9));
        ck_assert_ptr_nonnull(strstr(level, "$p1 using 1:3 with steps linecolor rgb"));
        ck_assert_uint_eq(count(text, "linecolor rgb '#1f77b4'"), 3);
        ck_assert_uint_eq(count(text, "linecolor rgb '#d62728'"), 2);
        free(text);

        /* No line with a demand: no demand panel. */
        text = NULL;
        f = open_memstream(&text, &len);
        ck_assert_int_eq(report_plot_script(f, "x.svg", &rep, lines + 1, 3), 0);
        ck_assert_int_eq(fclose(f), 0);
        ck_assert_ptr_null(strstr(text, "demand (capacity)"));
        ck_assert_ptr_nonnull(strstr(text, "layout 2,1"));
        free(text);
}
END_TEST

START_TEST(cli_json_is_byte_identical)
{
        char workload[PATH_MAX], board[PATH_MAX];
        const char *args[] = { "run", "--board", board, "--workload", workload, "--json", NULL };
        struct blsim_out a, b;

        snprintf(board, sizeof(board), "%s/exynos5422-like.ini", BOARDS_DIR);
        snprintf(workload, sizeof(workload), "%s/video-30fps.csv", WORKLOADS_DIR);
        a = blsim(args);
        b = blsim(args);
        ck_assert_msg(a.status == 0, "status %d: %s", a.status, a.err);
        ck_assert_int_eq(b.status, 0);
        ck_assert_str_eq(a.out, b.out);
        assert_run_json(a.out, workload);
        /* video-30fps never needs big: the reactive oracle is the oracle. */
        ck_assert_ptr_nonnull(strstr(a.out, "\"reactive_oracle_interval_ms\": 10,"));
        ck_assert_ptr_nonnull(strstr(a.out, "\"reactive_oracle_late_work_ratio\": 0,"));
        ck_assert_ptr_nonnull(strstr(a.out, "\"reactive_oracle_switches\": 0,"));
        ck_assert_ptr_nonnull(strstr(a.out, "\"reactive_oracle_eta\": 1.0000"));
        ck_assert_str_eq(a.err, "");
        blsim_out_free(&a);
        blsim_out_free(&b);
}
END_TEST

static const char *const boards[] = { "exynos5422-like.ini", "tc2.ini" };

static int csv_filter(const struct dirent *d)
{
        size_t n = strlen(d->d_name);

        return n > 4 && strcmp(d->d_name + n - 4, ".csv") == 0;
}

/* Every trace of the suite on every shipped board: run and compare. */
START_TEST(cli_suite_on_both_boards)
{
        struct dirent **names;
        int n = scandir(WORKLOADS_DIR, &names, csv_filter, alphasort);
        char board[PATH_MAX], workload[PATH_MAX];

        ck_assert_int_ge(n, 8);
        snprintf(board, sizeof(board), "%s/%s", BOARDS_DIR, boards[_i]);
        for (int i = 0; i < n; i++) {
                const char *run[] = { "run", "--board", board, "--workload", workload, "--json", NULL };
                const char *cmp[] = { "compare", "--board", board, "--workload", workload, "--json", NULL };
                struct blsim_out o;
                struct json j;

                snprintf(workload, sizeof(workload), "%s/%s", WORKLOADS_DIR, names[i]->d_name);
                o = blsim(run);
                ck_assert_msg(o.status == 0, "%s on %s: status %d: %s", workload, board, o.status, o.err);
                assert_run_json(o.out, workload);
                blsim_out_free(&o);

                o = blsim(cmp);
                ck_assert_msg(o.status == 0, "compare %s on %s: status %d: %s", workload, board, o.status,
                              o.err);
                assert_json_object(o.out, &j);
                ck_assert(json_has_key(&j, "rows"));
                ck_assert(json_has_key(&j, "oracle_energy_uj"));
                /* 2 fixed + 10 presets + the oracle + the reactive and load-reactive oracles */
                ck_assert_uint_eq(count(o.out, "\"policy\": "), 15);
                ck_assert_uint_eq(count(o.out, "\"policy\": \"reactive-oracle\""), 1);
                ck_assert_uint_eq(count(o.out, "\"policy\": \"load-reactive-oracle\""), 1);
                blsim_out_free(&o);
                free(names[i]);
        }
        free(names);
}
END_TEST

/* Pair and mp mode through the command line: time per class, the mode's
 * references and oracle, and refusals with a reason. */
START_TEST(cli_modes)
{
        char workload[PATH_MAX], board[PATH_MAX], tri[PATH_MAX];
        const char *pair[] = { "compare", "-b", board, "-w", workload, "--mode", "pair", NULL };
        const char *mp[] = { "run", "-b", board, "-w", workload, "--mode", "mp", "--json", NULL };
        const char *bad[] = { "run", "-b", board, "-w", workload, "--mode", "turbo", NULL };
        const char *tri_pair[] = { "run", "-b", tri, "-w", workload, "--mode", "pair", NULL };
        struct blsim_out o;
        struct json j;
        FILE *f;

        snprintf(board, sizeof(board), "%s/exynos5422-like.ini", BOARDS_DIR);
        snprintf(workload, sizeof(workload), "%s/game-loop.csv", WORKLOADS_DIR);

        o = blsim(pair);
        ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
        ck_assert_ptr_nonnull(strstr(o.out, "% 0/4 big"));
        ck_assert_ptr_nonnull(strstr(o.out, "% 4/4 big"));
        ck_assert_ptr_nonnull(strstr(o.out, "\npsi "));
        blsim_out_free(&o);

        o = blsim(mp);
        ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
        assert_json_object(o.out, &j);
        ck_assert(json_has_key(&j, "eta"));
        ck_assert_ptr_nonnull(strstr(o.out, "\"little+1big\": "));
        ck_assert_ptr_nonnull(strstr(o.out, "\"all\": "));
        blsim_out_free(&o);

        o = blsim(bad);
        ck_assert_int_eq(o.status, 64);
        ck_assert_ptr_nonnull(strstr(o.err, "--mode: expected cluster, pair or mp, got \"turbo\""));
        blsim_out_free(&o);

        /* Pair mode needs exactly two clusters. */
        snprintf(tri, sizeof(tri), "%s/tri.ini", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        f = fopen(tri, "w");
        ck_assert_ptr_nonnull(f);
        fputs("[board]\nname = tri\nreference_capacity = 1024\nswitch_latency_us = 20\nswitch_energy_uj = 100\n"
              "[cluster.a]\ncpus = 2\norder = 0\noff_mw = 1\nopp = 500 300 50 10\n"
              "[cluster.b]\ncpus = 2\norder = 1\noff_mw = 1\nopp = 1000 700 300 20\n"
              "[cluster.c]\ncpus = 1\norder = 2\noff_mw = 1\nopp = 2000 1024 900 40\n", f);
        ck_assert_int_eq(fclose(f), 0);
        o = blsim(tri_pair);
        ck_assert_int_eq(o.status, 69);
        ck_assert_msg(strstr(o.err, "pair"), "stderr: %s", o.err);
        blsim_out_free(&o);
        unlink(tri);
}
END_TEST

START_TEST(cli_text_run_and_compare)
{
        char workload[PATH_MAX], board[PATH_MAX];
        const char *run[] = { "run", "-b", board, "-w", workload, "--policy", "ondemand", NULL };
        const char *cmp[] = { "compare", "--board", board, "--workload", workload, NULL };
        struct blsim_out o;
        char line[64];

        snprintf(board, sizeof(board), "%s/exynos5422-like.ini", BOARDS_DIR);
        snprintf(workload, sizeof(workload), "%s/ramp.csv", WORKLOADS_DIR);
        o = blsim(run);
        ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
        snprintf(line, sizeof(line), "%-24s %s\n", "policy", "ondemand");
        ck_assert_ptr_nonnull(strstr(o.out, line));
        ck_assert_ptr_nonnull(strstr(o.out, "\neta "));
        /* Energy in mJ and times in ms, as compare prints them. */
        const char *at = strstr(o.out, "\nenergy ");
        double mj = 0, ms = 0, pct = 0;
        char unit[8] = "";
        ck_assert_ptr_nonnull(at);
        ck_assert_int_eq(sscanf(at, " energy %lf %7s", &mj, unit), 2);
        ck_assert_str_eq(unit, "mJ");
        ck_assert_double_gt(mj, 0);
        at = strstr(o.out, "\ntime little ");
        ck_assert_ptr_nonnull(at);
        ck_assert_int_eq(sscanf(at, " time little %lf ms (%lf%%)", &ms, &pct), 2);
        ck_assert_double_gt(ms + pct, 0);
        ck_assert_ptr_null(strstr(o.out, "energy_uj"));
        blsim_out_free(&o);

        o = blsim(cmp);
        ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
        for (size_t i = 0; i < sizeof(preset_names) / sizeof(preset_names[0]); i++)
                ck_assert_msg(strstr(o.out, preset_names[i]), "no row %s", preset_names[i]);
        ck_assert_ptr_nonnull(strstr(o.out, "\nalways-little "));
        ck_assert_ptr_nonnull(strstr(o.out, "\nalways-big "));
        ck_assert_ptr_nonnull(strstr(o.out, "\noracle "));
        blsim_out_free(&o);
}
END_TEST

static void write_text(const char *path, const char *text)
{
        FILE *f = fopen(path, "w");

        ck_assert_ptr_nonnull(f);
        fputs(text, f);
        ck_assert_int_eq(fclose(f), 0);
}

START_TEST(cli_bad_board_line)
{
        char dir[] = "/tmp/check_simrun.XXXXXX", board[PATH_MAX], workload[PATH_MAX], want[PATH_MAX + 8];
        const char *args[] = { "run", "--board", board, "--workload", workload, NULL };
        struct blsim_out o;

        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(board, sizeof(board), "%s/bad.ini", dir);
        snprintf(workload, sizeof(workload), "%s/ramp.csv", WORKLOADS_DIR);
        write_text(board, "[board]\n"
                          "name = bad\n"
                          "reference_capacity = 1024\n"
                          "switch_latency_us = 20\n"
                          "switch_energy_uj = 160\n"
                          "[cluster.little]\n"
                          "cpus = 4\n"
                          "order = 0\n"
                          "off_mw = 5\n"
                          "opp = 200 fast 15 14\n"
                          "[cluster.big]\n"
                          "cpus = 4\n"
                          "order = 1\n"
                          "off_mw = 20\n"
                          "opp = 2000 1024 2122 542\n");
        o = blsim(args);
        ck_assert_int_eq(o.status, 78);
        snprintf(want, sizeof(want), "%s:10:", board);
        ck_assert_msg(strstr(o.err, want), "stderr does not name %s: %s", want, o.err);
        ck_assert_str_eq(o.out, "");
        blsim_out_free(&o);
        unlink(board);
        rmdir(dir);
}
END_TEST

/* run --trace: a header, then one line per decision; its switched lines
 * are the run's switches, each with its cause and reason. compare and live
 * refuse it; a file that cannot be created is named. */
START_TEST(cli_trace)
{
        char dir[] = "/tmp/check_simrun.XXXXXX", board[PATH_MAX], workload[PATH_MAX], trace[PATH_MAX];
        const char *run[] = { "run", "-b", board, "-w", workload, "--trace", trace, "--json", NULL };
        const char *cmp[] = { "compare", "-b", board, "-w", workload, "--trace", trace, NULL };
        struct blsim_out o;
        unsigned lines = 0, switched = 0;
        char *text, *line, *save = NULL, *sw;
        long switches;

        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(board, sizeof(board), "%s/exynos5422-like.ini", BOARDS_DIR);
        snprintf(workload, sizeof(workload), "%s/ramp.csv", WORKLOADS_DIR);
        snprintf(trace, sizeof(trace), "%s/t.csv", dir);
        o = blsim(run);
        ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
        sw = strstr(o.out, "\"switches\": ");
        ck_assert_ptr_nonnull(sw);
        switches = strtol(sw + 12, NULL, 10);
        ck_assert_int_gt(switches, 0);
        blsim_out_free(&o);
        text = slurp(trace);
        line = strtok_r(text, "\n", &save);
        ck_assert_str_eq(line, "t_ms,level,demand,energy_mj,switched,cause,engine,reason");
        while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
                double t, demand, energy;
                char level[32], cause[32];
                int yes, n = 0;
                unsigned engine;

                lines++;
                ck_assert_msg(sscanf(line, "%lf,%31[^,],%lf,%lf,%d,%31[^,],%u,%n", &t, level, &demand, &energy,
                                     &yes, cause, &engine, &n) == 7 && n > 0,
                              "line %u: %s", lines, line);
                ck_assert_msg(line[n] == '"' && line[strlen(line) - 1] == '"' && strlen(line + n) > 2,
                              "line %u has no reason: %s", lines, line);
                if (yes) {
                        switched++;
                        ck_assert_msg(strcmp(cause, "up") == 0 || strcmp(cause, "down") == 0, "%s", line);
                }
        }
        ck_assert_uint_gt(lines, 100);
        ck_assert_uint_eq(switched, (unsigned)switches);
        free(text);
        unlink(trace);

        o = blsim(cmp);
        ck_assert_int_eq(o.status, 64);
        ck_assert_ptr_nonnull(strstr(o.err, "--trace belongs to blsim run"));
        blsim_out_free(&o);
        snprintf(trace, sizeof(trace), "%s/missing/t.csv", dir);
        o = blsim(run);
        ck_assert_int_eq(o.status, 73);
        ck_assert_msg(strstr(o.err, trace), "stderr does not name %s: %s", trace, o.err);
        blsim_out_free(&o);
        /* a FIFO nobody reads: refused, not waited on */
        snprintf(trace, sizeof(trace), "%s/fifo", dir);
        ck_assert_int_eq(mkfifo(trace, 0600), 0);
        o = blsim(run);
        ck_assert_int_eq(o.status, 73);
        ck_assert_msg(strstr(o.err, trace), "stderr does not name %s: %s", trace, o.err);
        blsim_out_free(&o);
        unlink(trace);
        rmdir(dir);
}
END_TEST

START_TEST(cli_bad_trace_and_config)
{
        char dir[] = "/tmp/check_simrun.XXXXXX", board[PATH_MAX], trace[PATH_MAX], conf[PATH_MAX];
        char want[PATH_MAX + 8];
        const char *bad_trace[] = { "run", "--board", board, "--workload", trace, NULL };
        const char *bad_conf[] = { "run", "--board", board, "--workload", trace, "--config", conf, NULL };
        struct blsim_out o;
        char line[64];

        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(board, sizeof(board), "%s/exynos5422-like.ini", BOARDS_DIR);
        snprintf(trace, sizeof(trace), "%s/t.csv", dir);
        snprintf(conf, sizeof(conf), "%s/c.conf", dir);
        write_text(trace, "# bigLittle-trace v1 step_us=1000\nt_us,lane0\n0,5\n1000,x\n");
        o = blsim(bad_trace);
        ck_assert_int_eq(o.status, 78);
        snprintf(want, sizeof(want), "%s:4:", trace);
        ck_assert_msg(strstr(o.err, want), "stderr does not name %s: %s", want, o.err);
        blsim_out_free(&o);

        write_text(trace, "# bigLittle-trace v1 step_us=1000\nt_us,lane0\n0,5\n1000,6\n");
        write_text(conf, "[hysteresis]\nup_threshold = 80\ndown_threshold = 600\n");
        o = blsim(bad_conf);
        ck_assert_int_eq(o.status, 78);
        snprintf(want, sizeof(want), "%s:3:", conf);
        ck_assert_msg(strstr(o.err, want), "stderr does not name %s: %s", want, o.err);
        blsim_out_free(&o);

        write_text(conf, "[hysteresis]\nup_threshold = 95\n");
        o = blsim(bad_conf);
        ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
        snprintf(line, sizeof(line), "%-24s %s\n", "policy", "config");
        ck_assert_ptr_nonnull(strstr(o.out, line));
        blsim_out_free(&o);

        unlink(trace);
        unlink(conf);
        rmdir(dir);
}
END_TEST

static unsigned long json_ulong_of(const char *text, const char *key)
{
        char pattern[64];
        const char *p;

        snprintf(pattern, sizeof(pattern), "\"%s\": ", key);
        p = strstr(text, pattern);
        ck_assert_msg(p, "no key %s in: %s", key, text);
        return strtoul(p + strlen(pattern), NULL, 10);
}

/* An rt-app task: 2 ms of work every 10 ms for 1 s, on a file whose name
 * does not say what it is (blsim looks at the first character). */
START_TEST(cli_rtapp_run_and_compare)
{
        char dir[] = "/tmp/check_simrun.XXXXXX", board[PATH_MAX], workload[PATH_MAX];
        const char *run[] = { "run", "--board", board, "--workload", workload, "--json", NULL };
        const char *cmp[] = { "compare", "--board", board, "--workload", workload, NULL };
        const char *cmp_json[] = { "compare", "--board", board, "--workload", workload, "--json", NULL };
        struct blsim_out o;
        struct json j;

        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(board, sizeof(board), "%s/exynos5422-like.ini", BOARDS_DIR);
        snprintf(workload, sizeof(workload), "%s/periodic.rtapp", dir);
        write_text(workload, "{\n"
                             "  \"tasks\": {\n"
                             "    \"periodic\": { \"loop\": -1, \"run\": 2000,\n"
                             "                  \"timer\": { \"ref\": \"unique\", \"period\": 10000 } }\n"
                             "  },\n"
                             "  \"global\": { \"duration\": 1 }\n"
                             "}\n");
        o = blsim(run);
        ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
        assert_run_json(o.out, workload);
        assert_json_object(o.out, &j);
        ck_assert(json_has_key(&j, "min_slack_us"));
        ck_assert(json_has_key(&j, "mean_slack_us"));
        ck_assert_uint_ge(json_ulong_of(o.out, "activations"), 95);
        ck_assert_uint_le(json_ulong_of(o.out, "activations"), 100);
        ck_assert_uint_eq(json_ulong_of(o.out, "misses"), 0);
        blsim_out_free(&o);

        o = blsim(cmp);
        ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
        ck_assert_ptr_nonnull(strstr(o.out, " misses\n"));
        ck_assert_ptr_nonnull(strstr(o.out, "work arrivals of the always-little run"));
        blsim_out_free(&o);

        o = blsim(cmp_json);
        ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
        assert_json_object(o.out, &j);
        ck_assert_ptr_nonnull(strstr(o.out, "\"rtapp\": true"));
        /* every row but the oracle's has the QoS keys */
        ck_assert_uint_eq(count(o.out, "\"misses\": "), 12);
        blsim_out_free(&o);

        write_text(workload, "{ \"tasks\": { \"t\": { \"run\": -5 } } }\n");
        o = blsim(run);
        ck_assert_int_eq(o.status, 78);
        ck_assert_msg(strstr(o.err, workload), "stderr does not name %s: %s", workload, o.err);
        blsim_out_free(&o);

        unlink(workload);
        rmdir(dir);
}
END_TEST

/* The shipped rt-app files but the hour-long ones, as they are. */
static int rtapp_filter(const struct dirent *d)
{
        size_t n = strlen(d->d_name);

        return n > 5 && strcmp(d->d_name + n - 5, ".json") == 0 && !strstr(d->d_name, "-long");
}

START_TEST(cli_rtapp_suite)
{
        static const char *const dirs[] = { "rt-app", "rt-app/tutorial" };
        char board[PATH_MAX], dir[PATH_MAX], workload[PATH_MAX * 2];
        unsigned files = 0;

        snprintf(board, sizeof(board), "%s/exynos5422-like.ini", BOARDS_DIR);
        for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
                struct dirent **names;
                int n;

                snprintf(dir, sizeof(dir), "%s/%s", WORKLOADS_DIR, dirs[d]);
                n = scandir(dir, &names, rtapp_filter, alphasort);
                if (n < 0)
                        continue;
                for (int i = 0; i < n; i++) {
                        const char *run[] = {
                                "run", "--board", board, "--workload", workload, "--json", NULL,
                        };
                        struct blsim_out o;
                        struct json j;

                        snprintf(workload, sizeof(workload), "%s/%s", dir, names[i]->d_name);
                        o = blsim(run);
                        ck_assert_msg(o.status == 0, "%s: status %d: %s", workload, o.status, o.err);
                        assert_run_json(o.out, workload);
                        assert_json_object(o.out, &j);
                        ck_assert_msg(json_has_key(&j, "activations") && json_has_key(&j, "misses"),
                                      "%s: no QoS keys", workload);
                        blsim_out_free(&o);
                        free(names[i]);
                        files++;
                }
                free(names);
        }
        /* the suite keeps its rt-app files beside the traces */
        ck_assert_uint_ge(files, 1);
}
END_TEST

/* --policy and --config together: the preset, then the file on top. */
START_TEST(cli_preset_with_config)
{
        char dir[] = "/tmp/check_simrun.XXXXXX", board[PATH_MAX], workload[PATH_MAX], conf[PATH_MAX];
        const char *plain[] = { "run", "-b", board, "-w", workload, "-p", "ondemand", "-j", NULL };
        const char *tuned[] = {
                "run", "-b", board, "-w", workload, "-p", "ondemand", "-c", conf, "-j", NULL,
        };
        struct blsim_out a, b;

        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(board, sizeof(board), "%s/exynos5422-like.ini", BOARDS_DIR);
        snprintf(workload, sizeof(workload), "%s/scrolling-60fps.csv", WORKLOADS_DIR);
        snprintf(conf, sizeof(conf), "%s/c.conf", dir);
        /* a 40 ms residency on top of ondemand's pass-through engine */
        write_text(conf, "[hysteresis]\nmin_residency_ms = 40\n");
        a = blsim(plain);
        b = blsim(tuned);
        ck_assert_msg(a.status == 0 && b.status == 0, "%s %s", a.err, b.err);
        ck_assert_ptr_nonnull(strstr(a.out, "\"policy\": \"ondemand\""));
        ck_assert_ptr_nonnull(strstr(b.out, "\"policy\": \"ondemand+config\""));
        ck_assert_uint_lt(json_ulong_of(b.out, "switches"), json_ulong_of(a.out, "switches"));
        blsim_out_free(&a);
        blsim_out_free(&b);
        unlink(conf);
        rmdir(dir);
}
END_TEST

START_TEST(cli_usage_errors)
{
        char board[PATH_MAX], workload[PATH_MAX];
        const char *none[] = { NULL };
        const char *verb[] = { "simulate", NULL };
        const char *no_board[] = { "run", "--workload", workload, NULL };
        const char *bad_opt[] = { "run", "--board", board, "--workload", workload, "--fast", NULL };
        const char *preset[] = { "run", "--board", board, "--workload", workload, "--policy", "turbo", NULL };
        const char *step[] = { "run", "--board", board, "--workload", workload, "--step-us", "500", NULL };
        const char *plot[] = { "compare", "--board", board, "--workload", workload, "--plot", "x.pdf", NULL };
        const char *policies[][10] = {
                { "compare", "--board", board, "--workload", workload, "--policies", "oracle", NULL },
                { "compare", "--board", board, "--workload", workload, "--plot", "x.svg", "--policies", "turbo", NULL },
                { "compare", "--board", board, "--workload", workload, "--plot", "x.svg", "--policies", "pelt,pelt",
                  NULL },
                { "run", "--board", board, "--workload", workload, "--policies", "oracle", NULL },
        };
        const char *const policies_say[] = { "--plot", "\"turbo\" is no row", "pelt is named twice",
                                             "--policies belongs to blsim compare" };
        const char *missing[] = { "run", "--board", board, "--workload", "/nonexistent/w.csv", NULL };
        const char *version[] = { "--version", NULL };
        struct blsim_out o;

        snprintf(board, sizeof(board), "%s/exynos5422-like.ini", BOARDS_DIR);
        snprintf(workload, sizeof(workload), "%s/ramp.csv", WORKLOADS_DIR);

        o = blsim(none);
        ck_assert_int_eq(o.status, 64);
        ck_assert_ptr_nonnull(strstr(o.err, "Usage:"));
        blsim_out_free(&o);
        o = blsim(verb);
        ck_assert_int_eq(o.status, 64);
        ck_assert_ptr_nonnull(strstr(o.err, "\"simulate\""));
        blsim_out_free(&o);
        o = blsim(no_board);
        ck_assert_int_eq(o.status, 64);
        ck_assert_ptr_nonnull(strstr(o.err, "--board"));
        blsim_out_free(&o);
        o = blsim(bad_opt);
        ck_assert_int_eq(o.status, 64);
        blsim_out_free(&o);
        o = blsim(preset);
        ck_assert_int_eq(o.status, 64);
        ck_assert_ptr_nonnull(strstr(o.err, "\"turbo\""));
        blsim_out_free(&o);
        o = blsim(step);
        ck_assert_int_eq(o.status, 64);
        ck_assert_ptr_nonnull(strstr(o.err, "step_us=1000"));
        blsim_out_free(&o);
        o = blsim(plot);
        ck_assert_int_eq(o.status, 64);
        ck_assert_ptr_nonnull(strstr(o.err, ".svg"));
        blsim_out_free(&o);
        for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
                o = blsim(policies[i]);
                ck_assert_msg(o.status == 64, "case %zu: status %d", i, o.status);
                ck_assert_msg(strstr(o.err, policies_say[i]) != NULL, "case %zu: %s", i, o.err);
                blsim_out_free(&o);
        }
        o = blsim(missing);
        ck_assert_int_eq(o.status, 66);
        ck_assert_ptr_nonnull(strstr(o.err, "/nonexistent/w.csv"));
        blsim_out_free(&o);
        o = blsim(version);
        ck_assert_int_eq(o.status, 0);
        ck_assert_str_eq(o.out, "blsim " PACKAGE_VERSION "\n");
        blsim_out_free(&o);
}
END_TEST

START_TEST(cli_list_presets)
{
        const char *args[] = { "list", NULL };
        struct blsim_out o = blsim(args);

        ck_assert_int_eq(o.status, 0);
        for (size_t i = 0; i < sizeof(preset_names) / sizeof(preset_names[0]); i++)
                ck_assert_msg(strstr(o.out, preset_names[i]), "no preset %s in: %s", preset_names[i], o.out);
        blsim_out_free(&o);
}
END_TEST

/* Every line of a panel drawn, in a colour no other line of it has;
 * returns how many. */
static unsigned assert_panel_lines(const char *svg, char panel, struct plot_svg_line *lines)
{
        unsigned n = plot_svg_panel(svg, panel, lines);

        for (unsigned i = 0; i < n; i++) {
                ck_assert_msg(lines[i].moves >= 2, "panel %c: %s has a key but no line", panel, lines[i].name);
                ck_assert_msg(lines[i].colour[0], "panel %c: %s changes colour", panel, lines[i].name);
                for (unsigned k = 0; k < i; k++)
                        ck_assert_msg(strcmp(lines[i].colour, lines[k].colour) != 0, "panel %c: %s and %s are "
                                      "both %s", panel, lines[k].name, lines[i].name, lines[i].colour);
        }
        return n;
}

/* The compare plot of 'args' (whose --plot is 'svg'): the level panel (b)
 * and the energy panel (c) have the lines 'names' in order, the demand
 * panel (a) those of them the engine ran, each in the same colour in every
 * panel. */
static void assert_compare_plot(const char *const *args, const char *svg, const char *const *names, unsigned n,
                                unsigned with_demand)
{
        struct plot_svg_line demand[PLOT_SVG_MAX_LINES], level[PLOT_SVG_MAX_LINES], energy[PLOT_SVG_MAX_LINES];
        struct blsim_out o = blsim(args);
        unsigned nd;
        char *text;

        ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
        blsim_out_free(&o);
        text = slurp(svg);
        nd = assert_panel_lines(text, 'a', demand);
        ck_assert_uint_eq(nd, with_demand);
        ck_assert_uint_eq(assert_panel_lines(text, 'b', level), n);
        ck_assert_uint_eq(assert_panel_lines(text, 'c', energy), n);
        for (unsigned i = 0; i < n; i++) {
                ck_assert_str_eq(level[i].name, names[i]);
                ck_assert_str_eq(energy[i].name, names[i]);
                ck_assert_str_eq(energy[i].colour, level[i].colour);
        }
        for (unsigned i = 0; i < nd; i++) {
                unsigned k = 0;

                while (k < n && strcmp(level[k].name, demand[i].name) != 0)
                        k++;
                ck_assert_msg(k < n, "%s is in the demand panel only", demand[i].name);
                ck_assert_str_eq(demand[i].colour, level[k].colour);
                ck_assert_msg(strcmp(demand[i].name, "oracle") != 0 && strstr(demand[i].name, "reactive-oracle") == NULL,
                              "%s has no demand", demand[i].name);
        }
        free(text);
        unlink(svg);
}

START_TEST(cli_plot)
{
        char dir[] = "/tmp/check_simrun.XXXXXX", board[PATH_MAX], workload[PATH_MAX], svg[PATH_MAX];
        const char *args[] = { "compare", "--board", board, "--workload", workload, "--plot", svg, NULL };
        const char *chosen[] = {
                "compare", "--board", board, "--workload", workload, "--plot", svg, "--policies",
                "oracle, always-big,trend,always-little,hmp", NULL,
        };
        const char *const chosen_names[] = { "oracle", "always-big", "trend", "always-little", "hmp" };
        const char *every[] = {
                "compare", "--board", board, "--workload", workload, "--plot", svg, "--policies",
                "always-little,always-big,ondemand,conservative,interactive,hmp,exynos5410,util,pelt,psi,trend,"
                "default,oracle,reactive-oracle,load-reactive-oracle", NULL,
        };
        const char *const every_names[] = {
                "always-little", "always-big", "ondemand", "conservative", "interactive", "hmp", "exynos5410",
                "util", "pelt", "psi", "trend", "default", "oracle", "reactive-oracle", "load-reactive-oracle",
        };
        const char *table[] = { "compare", "--board", board, "--workload", workload, NULL };
        const char *defaults[4] = { "default", NULL, "reactive-oracle", "oracle" };
        struct blsim_out o;
        char best[32];
        const char *p;

        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(board, sizeof(board), "%s/exynos5422-like.ini", BOARDS_DIR);
        snprintf(workload, sizeof(workload), "%s/idle-bursts.csv", WORKLOADS_DIR);
        snprintf(svg, sizeof(svg), "%s/timeline.svg", dir);

        /* Without gnuplot on PATH: a clear error naming the package. */
        o = blsim_env("/nonexistent", args);
        ck_assert_int_eq(o.status, 69);
        ck_assert_ptr_nonnull(strstr(o.err, "gnuplot-nox"));
        blsim_out_free(&o);

        /* The table names the best classic policy: the default plot's second line. */
        o = blsim(table);
        ck_assert_int_eq(o.status, 0);
        p = strstr(o.out, "\nbest classic policy: ");
        ck_assert_msg(p != NULL, "%s", o.out);
        p += strlen("\nbest classic policy: ");
        snprintf(best, sizeof(best), "%.*s", (int)strcspn(p, " "), p);
        ck_assert_msg(strstr(" ondemand conservative interactive hmp exynos5410 ", best) != NULL, "%s", best);
        defaults[1] = best;
        blsim_out_free(&o);

        if (access("/usr/bin/gnuplot", X_OK) == 0) {
                assert_compare_plot(args, svg, defaults, 4, 2);
                assert_compare_plot(chosen, svg, chosen_names, 5, 2);
                assert_compare_plot(every, svg, every_names, 15, 10);
        }
        rmdir(dir);
}
END_TEST

/* Of the classic policies, the best by blsim tune's rule: within the
 * lateness limit first, then the least energy; none within: the least late. */
START_TEST(best_policy_ranking)
{
        struct sim_report rep;
        struct sim_oracle o;
        static struct sim_mode l;

        tiny_report(&rep, &o, &l);
        rep.big.late_work_ratio = 0.0;
        rep.npolicies = 4;
        rep.policy[0] = (struct sim_result){ .energy_uj = 10.0, .late_work_ratio = 0.5 };
        rep.policy[1] = (struct sim_result){ .energy_uj = 40.0, .late_work_ratio = 0.005 };
        rep.policy[2] = (struct sim_result){ .energy_uj = 30.0, .late_work_ratio = 0.009 };
        rep.policy[3] = (struct sim_result){ .energy_uj = 20.0, .late_work_ratio = 0.02 };
        ck_assert_uint_eq(report_best_policy(&rep, 0, 4), 2);
        ck_assert_uint_eq(report_best_policy(&rep, 0, 2), 1);
        /* None within: the least late. */
        ck_assert_uint_eq(report_best_policy(&rep, 3, 1), 3);
        rep.policy[1].late_work_ratio = 0.3;
        rep.policy[2].late_work_ratio = 0.03;
        ck_assert_uint_eq(report_best_policy(&rep, 0, 4), 3);
        /* rt-app: by the share of missed activations. */
        rep.rtapp = true;
        rep.policy[0].qos = (struct sim_qos){ .has_activations = true, .activations = 100, .misses = 0 };
        ck_assert_uint_eq(report_best_policy(&rep, 0, 4), 0);
}
END_TEST

static Suite *simrun_suite(void)
{
        Suite *s = suite_create("simrun");
        TCase *tc = tcase_create("loop");
        TCase *cli = tcase_create("blsim");

        tcase_add_test(tc, fixed_little_by_hand);
        tcase_add_test(tc, first_step_pays_no_switch);
        tcase_add_test(tc, fixed_records_arrivals);
        tcase_add_test(tc, decision_applies_from_its_time);
        tcase_add_test(tc, decision_reasons_noted);
        tcase_add_test(tc, straddling_step_keeps_its_cluster);
        tcase_add_test(tc, sample_busy_capacity_pressure);
        tcase_add_test(tc, sample_pressure_is_waiting);
        tcase_add_test(tc, sample_running_at_the_end);
        tcase_add_test(tc, sample_cpus_of_the_active_cluster);
        tcase_add_test(tc, switch_back_counts_twice);
        tcase_add_test(tc, switch_aftermath_is_cut_as_in_the_daemon);
        tcase_add_test(tc, eta_definition);
        tcase_add_test(tc, report_json_escapes_and_eta);
        tcase_add_test(tc, report_plot_script_inline);
        tcase_add_test(tc, best_policy_ranking);
        tcase_add_test(tc, time_in_level_sums_to_run);
        tcase_add_test(tc, heuristic_presets_switch);
        tcase_add_test(tc, policy_run_is_deterministic);
        tcase_add_test(tc, idle_backoff_decision_times);
        tcase_add_test(tc, idle_trace_samples_less);
        suite_add_tcase(s, tc);

        /* The whole suite under the sanitizers takes a while. */
        tcase_set_timeout(cli, 600);
        tcase_add_test(cli, cli_json_is_byte_identical);
        tcase_add_loop_test(cli, cli_suite_on_both_boards, 0, sizeof(boards) / sizeof(boards[0]));
        tcase_add_test(cli, cli_text_run_and_compare);
        tcase_add_test(cli, cli_modes);
        tcase_add_test(cli, cli_bad_board_line);
        tcase_add_test(cli, cli_bad_trace_and_config);
        tcase_add_test(cli, cli_trace);
        tcase_add_test(cli, cli_rtapp_run_and_compare);
        tcase_add_test(cli, cli_rtapp_suite);
        tcase_add_test(cli, cli_preset_with_config);
        tcase_add_test(cli, cli_usage_errors);
        tcase_add_test(cli, cli_list_presets);
        tcase_add_test(cli, cli_plot);
        suite_add_tcase(s, cli);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(simrun_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
