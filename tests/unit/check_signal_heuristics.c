/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/builtin.h"

#define MS 1000ULL
#define TOL 1e-9
#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* One instance of a heuristic in virtual time, its state in place (the host
 * zeroes the state before init). */
struct run {
        const struct bl_heuristic_ops *ops;
        bl_usec_t now;
        alignas(max_align_t) unsigned char state[8192];
};

static void defaults(const struct bl_heuristic_ops *ops, double *params)
{
        for (unsigned i = 0; i < ops->nparams; i++)
                params[i] = ops->params[i].def;
}

static unsigned param_index(const struct bl_heuristic_ops *ops, const char *key)
{
        for (unsigned i = 0; i < ops->nparams; i++)
                if (strcmp(ops->params[i].key, key) == 0)
                        return i;
        ck_abort_msg("%s has no parameter %s", ops->name, key);
        return 0;
}

static void set_param(const struct bl_heuristic_ops *ops, double *params, const char *key, double v)
{
        params[param_index(ops, key)] = v;
}

static void run_start(struct run *r, const struct bl_heuristic_ops *ops, const double *params)
{
        double def[BL_POLICY_MAX_PARAMS];

        ck_assert_uint_le(ops->state_size, sizeof(r->state));
        memset(r, 0, sizeof(*r));
        r->ops = ops;
        if (!params) {
                defaults(ops, def);
                params = def;
        }
        ck_assert_int_eq(ops->init(r->state, params), 0);
}

/* Scores 's' as the sample of the 'interval' that ends now + interval. */
static double run_feed(struct run *r, struct bl_sample *s, bl_usec_t interval)
{
        r->now += interval;
        s->now = r->now;
        s->interval = interval;
        return r->ops->score(r->state, s, r->now);
}

static struct bl_cpu_sample cpu_on(unsigned n, double busy, uint16_t capacity, uint16_t max_capacity)
{
        return (struct bl_cpu_sample){
                .cpu = n,
                .online = true,
                .busy = (float)busy,
                .capacity = capacity,
                .max_capacity = max_capacity,
        };
}

static struct bl_cpu_sample cpu_counted(unsigned n, double busy, uint16_t capacity, double mpki)
{
        struct bl_cpu_sample c = cpu_on(n, busy, capacity, 1024);

        c.has_counters = true;
        c.ipc = 1.0f;
        c.mpki = (float)mpki;
        return c;
}

static struct bl_sample sample_of(const struct bl_cpu_sample *cpu, unsigned ncpus)
{
        return (struct bl_sample){ .ncpus = ncpus, .cpu = cpu };
}

static void assert_sane(double v)
{
        ck_assert_msg(!isnan(v) && v >= 0.0, "score %g", v);
}

/* psi */

/* The smoothed share after n intervals of one half-life each at pressure p,
 * from 0, as a boost over the default floor of 5%. */
static double psi_expected_excess(double p, unsigned n)
{
        double smoothed = p * (1.0 - pow(0.5, n));

        return smoothed > 0.05 ? (smoothed - 0.05) / 0.95 : 0.0;
}

START_TEST(test_psi_descriptor)
{
        const struct bl_heuristic_ops *o = &heuristic_psi;

        ck_assert_uint_eq(o->abi, BL_POLICY_ABI);
        ck_assert_str_eq(o->name, "psi");
        ck_assert_uint_eq(o->needs, BL_NEEDS_PRESSURE);
        ck_assert_uint_eq(o->nparams, 3);
        ck_assert_ptr_null(o->validate);
        ck_assert_ptr_nonnull(o->reset);
        ck_assert_double_eq(o->params[param_index(o, "min_pressure_pct")].def, 5);
        ck_assert_double_eq(o->params[param_index(o, "gain")].def, 1.0);
        ck_assert_double_eq(o->params[param_index(o, "half_life_ms")].def, 20);
        for (unsigned i = 0; i < o->nparams; i++) {
                ck_assert_ptr_nonnull(o->params[i].unit);
                ck_assert(o->params[i].min <= o->params[i].def && o->params[i].def <= o->params[i].max);
        }
}
END_TEST

START_TEST(test_psi_first_sample)
{
        struct bl_cpu_sample cpu = cpu_on(0, 0.5, 1024, 1024);
        struct bl_sample s = sample_of(&cpu, 1);
        struct run r;

        run_start(&r, &heuristic_psi, NULL);
        s.has_pressure = true;
        s.pressure = 1.0;
        /* No interval, no pressure information: the plain peak. */
        ck_assert_double_eq(run_feed(&r, &s, 0), 512.0);
        /* The smoothed share starts at 0: one full-pressure half-life counts half. */
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 512.0 + psi_expected_excess(1.0, 1) * 1024 * 0.5, TOL);
}
END_TEST

START_TEST(test_psi_steady)
{
        struct bl_cpu_sample cpu = cpu_on(0, 0.5, 1024, 1024);
        struct bl_sample s = sample_of(&cpu, 1);
        struct run r;
        double v = 0.0;

        run_start(&r, &heuristic_psi, NULL);
        s.has_pressure = true;
        s.pressure = 0.5;
        for (unsigned n = 1; n <= 40; n++) {
                v = run_feed(&r, &s, 20 * MS);
                ck_assert_double_eq_tol(v, 512.0 + psi_expected_excess(0.5, n) * 1024 * 0.5, TOL);
        }
        /* Settles at the peak plus the share above the floor, rescaled. */
        ck_assert_double_eq_tol(v, 512.0 + 0.45 / 0.95 * 1024 * 0.5, 1e-6);

        /* The pressure goes: the boost halves every half-life, and under the
         * floor it is gone. */
        s.pressure = 0.0;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 512.0 + (0.25 - 0.05) / 0.95 * 1024 * 0.5, 1e-6);
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 512.0 + (0.125 - 0.05) / 0.95 * 1024 * 0.5, 1e-6);
        ck_assert_double_eq(run_feed(&r, &s, 40 * MS), 512.0);
}
END_TEST

START_TEST(test_psi_interval_independent)
{
        struct bl_cpu_sample cpu = cpu_on(0, 0.25, 1024, 1024);
        struct bl_sample s = sample_of(&cpu, 1);
        struct run a, b;
        double one, two;

        run_start(&a, &heuristic_psi, NULL);
        run_start(&b, &heuristic_psi, NULL);
        s.has_pressure = true;
        s.pressure = 0.8;
        /* 40 ms at 80% pressure, read once or in two halves, or as 5 + 35. */
        one = run_feed(&a, &s, 40 * MS);
        run_feed(&b, &s, 20 * MS);
        two = run_feed(&b, &s, 20 * MS);
        ck_assert_double_eq_tol(one, two, TOL);
        ck_assert_double_eq_tol(one, 256.0 + (0.8 * 0.75 - 0.05) / 0.95 * 1024 * 0.25, TOL);
        run_start(&b, &heuristic_psi, NULL);
        run_feed(&b, &s, 5 * MS);
        ck_assert_double_eq_tol(run_feed(&b, &s, 35 * MS), one, TOL);
}
END_TEST

START_TEST(test_psi_no_pressure_field)
{
        struct bl_cpu_sample cpu = cpu_on(0, 0.5, 1024, 1024);
        struct bl_sample s = sample_of(&cpu, 1);
        struct run r;

        run_start(&r, &heuristic_psi, NULL);
        s.has_pressure = true;
        s.pressure = 1.0;
        ck_assert_double_gt(run_feed(&r, &s, 20 * MS), 512.0);
        /* Without the field: the plain peak, whatever 'pressure' holds. */
        s.has_pressure = false;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 512.0);
        ck_assert_double_eq(run_feed(&r, &s, 0), 512.0);
        /* The interval without it counted as one without pressure: 1/2 -> 1/4 -> 1/8. */
        s.has_pressure = true;
        s.pressure = 0.0;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 512.0 + (0.125 - 0.05) / 0.95 * 1024 * 0.5, TOL);
        /* A pressure that is not a number is no pressure. */
        s.pressure = NAN;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 512.0);
}
END_TEST

START_TEST(test_psi_floor)
{
        struct bl_cpu_sample cpu = cpu_on(0, 0.5, 1024, 1024);
        struct bl_sample s = sample_of(&cpu, 1);
        double params[BL_POLICY_MAX_PARAMS];
        struct run r;

        /* Below the floor, or at it, pressure is noise: exactly the peak. */
        run_start(&r, &heuristic_psi, NULL);
        s.has_pressure = true;
        s.pressure = 0.05;
        for (unsigned n = 0; n < 50; n++)
                ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 512.0);

        /* No smoothing: each interval's share as it is, continuous over the
         * floor, with the gain. */
        defaults(&heuristic_psi, params);
        set_param(&heuristic_psi, params, "half_life_ms", 0);
        set_param(&heuristic_psi, params, "min_pressure_pct", 20);
        set_param(&heuristic_psi, params, "gain", 2.0);
        run_start(&r, &heuristic_psi, params);
        s.pressure = 0.19;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 512.0);
        s.pressure = 0.2;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 512.0);
        s.pressure = 0.6;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 512.0 + 2.0 * 0.5 * 1024 * 0.5, TOL);
        s.pressure = 1.0;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 512.0 + 2.0 * 1024 * 0.5, TOL);
        /* The simulator's share can exceed 1 a little: it counts as 1. */
        s.pressure = 1.05;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 512.0 + 2.0 * 1024 * 0.5, TOL);
}
END_TEST

START_TEST(test_psi_top_capacity)
{
        struct bl_cpu_sample cpu[3] = {
                cpu_on(0, 0.75, 256, 384),
                cpu_on(1, 0.25, 320, 0),
                cpu_on(2, 1.0, 1024, 1024),
        };
        struct bl_sample s = sample_of(cpu, 3);
        double params[BL_POLICY_MAX_PARAMS];
        struct run r;

        cpu[2].online = false;
        defaults(&heuristic_psi, params);
        set_param(&heuristic_psi, params, "half_life_ms", 0);
        set_param(&heuristic_psi, params, "min_pressure_pct", 0);
        run_start(&r, &heuristic_psi, params);
        s.has_pressure = true;
        s.pressure = 0.5;
        /* Peak 192 (CPU 0, also the busiest at 0.75), top 384 (CPU 0's max; the offline CPU does not count). */
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 192.0 + 0.5 * 384 * 0.75, TOL);
        /* CPU 0's top unknown: its current capacity; CPU 1 (320, top unknown) is larger. */
        cpu[0].max_capacity = 0;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 192.0 + 0.5 * 320 * 0.75, TOL);
        cpu[2].online = true;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 1024.0 + 0.5 * 1024, TOL);
}
END_TEST

START_TEST(test_psi_idle_cpus_get_no_boost)
{
        /* What mp mode gives one instance: its own CPU only, while the
         * machine's work waits elsewhere. */
        struct bl_cpu_sample idle = cpu_on(3, 0.0, 1024, 1024);
        struct bl_sample s = sample_of(&idle, 1);
        double params[BL_POLICY_MAX_PARAMS];
        struct run r;

        defaults(&heuristic_psi, params);
        set_param(&heuristic_psi, params, "half_life_ms", 0);
        run_start(&r, &heuristic_psi, params);
        s.has_pressure = true;
        s.pressure = 1.0;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 0.0);
        idle.busy = 0.5f;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 512.0 + 1024 * 0.5, TOL);
}
END_TEST

START_TEST(test_psi_reset)
{
        struct bl_cpu_sample cpu = cpu_on(0, 0.5, 1024, 1024);
        struct bl_sample s = sample_of(&cpu, 1);
        struct run r;

        run_start(&r, &heuristic_psi, NULL);
        s.has_pressure = true;
        s.pressure = 1.0;
        for (unsigned n = 0; n < 10; n++)
                run_feed(&r, &s, 20 * MS);
        heuristic_psi.reset(r.state);
        s.pressure = 0.0;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 512.0);
        /* The parameters stay: the next stalled interval counts as from the start. */
        s.pressure = 1.0;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 512.0 + psi_expected_excess(1.0, 1) * 1024 * 0.5, TOL);
}
END_TEST

START_TEST(test_psi_params)
{
        double params[BL_POLICY_MAX_PARAMS];
        struct run r;

        memset(&r, 0, sizeof(r));
        defaults(&heuristic_psi, params);
        ck_assert_int_eq(heuristic_psi.init(r.state, params), 0);
        set_param(&heuristic_psi, params, "gain", 0.0);
        ck_assert_int_eq(heuristic_psi.init(r.state, params), -EINVAL);
        defaults(&heuristic_psi, params);
        set_param(&heuristic_psi, params, "min_pressure_pct", 60);
        ck_assert_int_eq(heuristic_psi.init(r.state, params), -EINVAL);
        defaults(&heuristic_psi, params);
        set_param(&heuristic_psi, params, "half_life_ms", NAN);
        ck_assert_int_eq(heuristic_psi.init(r.state, params), -EINVAL);
}
END_TEST

START_TEST(test_psi_extremes)
{
        static const double pressures[] = { 0.0, 1.0, -1.0, 7.0, NAN, INFINITY, -INFINITY };
        static const double busies[] = { 0.0, 1.0, 1.5, -0.5, NAN };
        static const uint16_t capacities[] = { 0, 1, 1024, UINT16_MAX };
        static const bl_usec_t intervals[] = { 0, 1, 20 * MS, UINT64_MAX / 4 };
        struct bl_cpu_sample cpu;
        struct bl_sample s;
        struct run r;

        run_start(&r, &heuristic_psi, NULL);
        for (size_t p = 0; p < N_ELEMS(pressures); p++)
                for (size_t b = 0; b < N_ELEMS(busies); b++)
                        for (size_t c = 0; c < N_ELEMS(capacities); c++)
                                for (size_t i = 0; i < N_ELEMS(intervals); i++) {
                                        cpu = cpu_on(0, busies[b], capacities[c], capacities[c]);
                                        s = sample_of(&cpu, 1);
                                        s.has_pressure = true;
                                        s.pressure = pressures[p];
                                        r.now = 0;
                                        assert_sane(run_feed(&r, &s, intervals[i]));
                                }
        /* A huge interval at full pressure: the share as it is; capacity 0: nothing. */
        run_start(&r, &heuristic_psi, NULL);
        cpu = cpu_on(0, 1.0, 1024, 1024);
        s = sample_of(&cpu, 1);
        s.has_pressure = true;
        s.pressure = 1.0;
        ck_assert_double_eq(run_feed(&r, &s, UINT64_MAX / 2), 2048.0);
        cpu = cpu_on(0, 1.0, 0, 0);
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 0.0);
        /* No CPU online: nothing to serve, nothing to add. */
        cpu.online = false;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 0.0);
}
END_TEST

/* trend */

/* One CPU of capacity 1024 with top 1024: integer demands are exact. */
static double trend_feed(struct run *r, double demand, bl_usec_t interval)
{
        struct bl_cpu_sample cpu = cpu_on(0, demand / 1024.0, 1024, 1024);
        struct bl_sample s = sample_of(&cpu, 1);

        return run_feed(r, &s, interval);
}

START_TEST(test_trend_descriptor)
{
        const struct bl_heuristic_ops *o = &heuristic_trend;

        ck_assert_uint_eq(o->abi, BL_POLICY_ABI);
        ck_assert_str_eq(o->name, "trend");
        ck_assert_uint_eq(o->needs, 0);
        ck_assert_uint_eq(o->nparams, 3);
        ck_assert_ptr_nonnull(o->validate);
        ck_assert_double_eq(o->params[param_index(o, "window_ms")].def, 60);
        ck_assert_double_eq(o->params[param_index(o, "horizon_ms")].def, 40);
        ck_assert_double_eq(o->params[param_index(o, "max_predicted_pct")].def, 100);
        for (unsigned i = 0; i < o->nparams; i++)
                ck_assert(o->params[i].min <= o->params[i].def && o->params[i].def <= o->params[i].max);
}
END_TEST

START_TEST(test_trend_first_and_too_few)
{
        double params[BL_POLICY_MAX_PARAMS];
        struct run r;

        run_start(&r, &heuristic_trend, NULL);
        /* Not recorded, the plain peak. */
        ck_assert_double_eq(trend_feed(&r, 100, 0), 100.0);
        /* One and two points rising: no fit yet. */
        ck_assert_double_eq(trend_feed(&r, 100, 20 * MS), 100.0);
        ck_assert_double_eq(trend_feed(&r, 200, 20 * MS), 200.0);
        /* The third (the interval-0 sample did not count): 100, 200, 300 rise
         * 100 per 20 ms; the line is at 300 at the last midpoint, 10 ms ago. */
        ck_assert_double_eq_tol(trend_feed(&r, 300, 20 * MS), 300.0 + 100.0 / 20 * 50, TOL);

        /* 30 ms samples: at most two fit in 60 ms, never a prediction. */
        run_start(&r, &heuristic_trend, NULL);
        for (unsigned n = 1; n <= 6; n++)
                ck_assert_double_eq(trend_feed(&r, 100.0 * n, 30 * MS), 100.0 * n);

        /* A window of three 20 ms samples less 1 ms holds two. */
        defaults(&heuristic_trend, params);
        set_param(&heuristic_trend, params, "window_ms", 59);
        run_start(&r, &heuristic_trend, params);
        for (unsigned n = 1; n <= 6; n++)
                ck_assert_double_eq(trend_feed(&r, 100.0 * n, 20 * MS), 100.0 * n);
}
END_TEST

START_TEST(test_trend_steady_and_falling)
{
        struct run r;

        run_start(&r, &heuristic_trend, NULL);
        for (unsigned n = 0; n < 10; n++)
                ck_assert_double_eq(trend_feed(&r, 400, 20 * MS), 400.0);
        /* Falling: never below what was measured, never a prediction under it. */
        ck_assert_double_eq(trend_feed(&r, 300, 20 * MS), 300.0);
        ck_assert_double_eq(trend_feed(&r, 200, 20 * MS), 200.0);
        ck_assert_double_eq(trend_feed(&r, 100, 20 * MS), 100.0);
        /* A rise after the fall: the window still holds 200 and 100, the line falls. */
        ck_assert_double_eq(trend_feed(&r, 150, 20 * MS), 150.0);
}
END_TEST

START_TEST(test_trend_step)
{
        struct run r;

        run_start(&r, &heuristic_trend, NULL);
        for (unsigned n = 0; n < 5; n++)
                ck_assert_double_eq(trend_feed(&r, 100, 20 * MS), 100.0);
        /* 100, 100, 500 at midpoints -50, -30, -10 ms: slope 10 per ms, mean
         * 233.3 at -30 ms, so 233.3 + 10 x 70 at +40 ms. */
        ck_assert_double_eq_tol(trend_feed(&r, 500, 20 * MS), 700.0 / 3 + 700.0, 1e-6);
        /* 100, 500, 500: the same slope, higher; capped at the CPU's top. */
        ck_assert_double_eq(trend_feed(&r, 500, 20 * MS), 1024.0);
        /* Flat again. */
        ck_assert_double_eq(trend_feed(&r, 500, 20 * MS), 500.0);
}
END_TEST

START_TEST(test_trend_irregular)
{
        /* A linear rise of 2 capacity per ms sampled at 10, 25, 15 and 10 ms:
         * each sample is the mean over its interval, the rise at its midpoint
         * (5, 22.5, 42.5, 55 ms). The fit is exact: at 60 + 40 ms, 200. */
        static const struct {
                bl_usec_t interval;
                double demand;
        } samples[] = { { 10 * MS, 10 }, { 25 * MS, 45 }, { 15 * MS, 85 }, { 10 * MS, 110 } };
        struct run r;
        double v = 0.0;

        run_start(&r, &heuristic_trend, NULL);
        for (size_t i = 0; i < N_ELEMS(samples); i++)
                v = trend_feed(&r, samples[i].demand, samples[i].interval);
        ck_assert_double_eq_tol(v, 200.0, 1e-9);
        /* 7 ms more at the rise's mean (127): the window (start >= 7 ms) drops the first. */
        ck_assert_double_eq_tol(trend_feed(&r, 127, 7 * MS), 2.0 * (67 + 40), 1e-9);
}
END_TEST

START_TEST(test_trend_window_edge)
{
        struct run r;

        run_start(&r, &heuristic_trend, NULL);
        trend_feed(&r, 900, 20 * MS);
        trend_feed(&r, 100, 20 * MS);
        trend_feed(&r, 200, 20 * MS);
        /* At 80 ms the first sample (0-20 ms) is out; the one from 20 ms, exactly
         * at the edge, is in: 100, 200, 300 rise. With 900 in, the line would fall. */
        ck_assert_double_eq_tol(trend_feed(&r, 300, 20 * MS), 550.0, TOL);
}
END_TEST

START_TEST(test_trend_cap_and_cpus)
{
        struct bl_cpu_sample cpu[2] = { cpu_on(0, 0.25, 256, 0), cpu_on(1, 1.0, 1024, 1024) };
        struct bl_sample s = sample_of(cpu, 2);
        double params[BL_POLICY_MAX_PARAMS];
        struct run r;

        /* The offline CPU's top does not count: the cap is CPU 0's current capacity. */
        cpu[1].online = false;
        run_start(&r, &heuristic_trend, NULL);
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 64.0);
        cpu[0].busy = 0.5f;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 128.0);
        cpu[0].busy = 0.75f;
        /* The line says 192 + 3.2 x 50 = 352, above what CPU 0 can serve. */
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 256.0);

        /* With its top known (512) and max_predicted_pct 60: 307.2. */
        cpu[0].max_capacity = 512;
        defaults(&heuristic_trend, params);
        set_param(&heuristic_trend, params, "max_predicted_pct", 60);
        run_start(&r, &heuristic_trend, params);
        cpu[0].busy = 0.25f;
        run_feed(&r, &s, 20 * MS);
        cpu[0].busy = 0.5f;
        run_feed(&r, &s, 20 * MS);
        cpu[0].busy = 0.75f;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 0.6 * 512, TOL);
        /* A cap below the measured peak never lowers it. */
        cpu[0].busy = 1.0f;
        cpu[0].capacity = 512;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 512.0);
}
END_TEST

START_TEST(test_trend_reset_and_time)
{
        struct run r;

        run_start(&r, &heuristic_trend, NULL);
        trend_feed(&r, 100, 20 * MS);
        trend_feed(&r, 200, 20 * MS);
        heuristic_trend.reset(r.state);
        /* Two more points only: no fit. */
        ck_assert_double_eq(trend_feed(&r, 300, 20 * MS), 300.0);
        ck_assert_double_eq(trend_feed(&r, 400, 20 * MS), 400.0);
        ck_assert_double_eq_tol(trend_feed(&r, 500, 20 * MS), 750.0, TOL);

        /* Time going back (a new run) forgets the history. */
        r.now = 0;
        ck_assert_double_eq(trend_feed(&r, 600, 20 * MS), 600.0);
        ck_assert_double_eq(trend_feed(&r, 700, 20 * MS), 700.0);
        ck_assert_double_eq_tol(trend_feed(&r, 800, 20 * MS), 1024.0, TOL);
}
END_TEST

START_TEST(test_trend_overlap_and_ring)
{
        struct bl_cpu_sample cpu = cpu_on(0, 100 / 1024.0, 1024, 1024);
        struct bl_sample s = sample_of(&cpu, 1);
        double params[BL_POLICY_MAX_PARAMS];
        struct run r;

        /* An interval that reaches back into the previous one starts where it
         * ended: 0-20, 20-40, 40-60 ms, a rise of 100 per 20 ms. */
        run_start(&r, &heuristic_trend, NULL);
        trend_feed(&r, 100, 20 * MS);
        trend_feed(&r, 200, 20 * MS);
        r.now += 20 * MS;
        cpu.busy = 300 / 1024.0f;
        s.now = r.now;
        s.interval = 35 * MS;
        ck_assert_double_eq_tol(heuristic_trend.score(r.state, &s, r.now), 550.0, TOL);

        /* 1 ms samples in a 1 s window: the ring keeps the newest 200, whose
         * rise of 1 per ms is still fitted exactly. */
        defaults(&heuristic_trend, params);
        set_param(&heuristic_trend, params, "window_ms", 1000);
        set_param(&heuristic_trend, params, "horizon_ms", 10);
        run_start(&r, &heuristic_trend, params);
        for (unsigned n = 1; n <= 500; n++) {
                double v = trend_feed(&r, n, 1 * MS);

                if (n >= 3)
                        ck_assert_double_eq_tol(v, n + 10.5, 1e-6);
        }
}
END_TEST

START_TEST(test_trend_validate)
{
        double params[BL_POLICY_MAX_PARAMS];
        char err[256] = "";
        struct run r;

        memset(&r, 0, sizeof(r));
        defaults(&heuristic_trend, params);
        ck_assert_int_eq(heuristic_trend.validate(params, err, sizeof(err)), 0);
        set_param(&heuristic_trend, params, "horizon_ms", 60);
        ck_assert_int_eq(heuristic_trend.validate(params, err, sizeof(err)), 0);
        ck_assert_int_eq(heuristic_trend.init(r.state, params), 0);
        set_param(&heuristic_trend, params, "horizon_ms", 80);
        ck_assert_int_eq(heuristic_trend.validate(params, err, sizeof(err)), -EINVAL);
        ck_assert_str_eq(err, "horizon_ms (80) must not exceed window_ms (60): a line fitted over the window "
                              "says little about the demand further ahead than the window is long.");
        ck_assert_int_eq(heuristic_trend.init(r.state, params), -EINVAL);
        /* A small buffer gets a truncated, terminated sentence. */
        ck_assert_int_eq(heuristic_trend.validate(params, err, 11), -EINVAL);
        ck_assert_str_eq(err, "horizon_ms");
        defaults(&heuristic_trend, params);
        set_param(&heuristic_trend, params, "window_ms", 10);
        ck_assert_int_eq(heuristic_trend.init(r.state, params), -EINVAL);
}
END_TEST

START_TEST(test_trend_extremes)
{
        static const double busies[] = { 0.0, 1.0, 0.0, 1.0, 1.5, -0.5, NAN, 1.0, 0.0, 1.0 };
        static const uint16_t capacities[] = { 0, 1, 1024, UINT16_MAX };
        static const bl_usec_t intervals[] = { 1, 20 * MS, 0, UINT64_MAX / 64 };
        struct bl_cpu_sample cpu;
        struct bl_sample s;
        struct run r;

        for (size_t c = 0; c < N_ELEMS(capacities); c++)
                for (size_t i = 0; i < N_ELEMS(intervals); i++) {
                        run_start(&r, &heuristic_trend, NULL);
                        for (size_t b = 0; b < N_ELEMS(busies); b++) {
                                cpu = cpu_on(0, busies[b], capacities[c], capacities[c]);
                                s = sample_of(&cpu, 1);
                                assert_sane(run_feed(&r, &s, intervals[i] ? intervals[i] : 20 * MS));
                                assert_sane(run_feed(&r, &s, intervals[i]));
                        }
                }
        /* A rise over huge intervals: capped, finite. */
        run_start(&r, &heuristic_trend, NULL);
        ck_assert_double_eq(trend_feed(&r, 0, 20 * MS), 0.0);
        ck_assert_double_eq(trend_feed(&r, 512, 20 * MS), 512.0);
        ck_assert_double_eq(trend_feed(&r, 1024, 20 * MS), 1024.0);
        ck_assert_double_eq(trend_feed(&r, 1024, UINT64_MAX / 2), 1024.0);
}
END_TEST

/* ipc */

#define KNEE (0.26 * 1024)

START_TEST(test_ipc_descriptor)
{
        const struct bl_heuristic_ops *o = &heuristic_ipc;

        ck_assert_uint_eq(o->abi, BL_POLICY_ABI);
        ck_assert_str_eq(o->name, "ipc");
        ck_assert_uint_eq(o->needs, BL_NEEDS_COUNTERS);
        ck_assert_uint_eq(o->nparams, 4);
        ck_assert_ptr_nonnull(o->validate);
        ck_assert_double_eq(o->params[param_index(o, "mpki_low")].def, 2);
        ck_assert_double_eq(o->params[param_index(o, "mpki_high")].def, 20);
        ck_assert_double_eq(o->params[param_index(o, "discount")].def, 0.5);
        ck_assert_double_eq(o->params[param_index(o, "knee_capacity_pct")].def, 26);
        for (unsigned i = 0; i < o->nparams; i++)
                ck_assert(o->params[i].min <= o->params[i].def && o->params[i].def <= o->params[i].max);
}
END_TEST

START_TEST(test_ipc_first_sample)
{
        struct bl_cpu_sample cpu = cpu_counted(0, 0.5, 1024, 100);
        struct bl_sample s = sample_of(&cpu, 1);
        struct run r;

        run_start(&r, &heuristic_ipc, NULL);
        ck_assert_double_eq(run_feed(&r, &s, 0), 512.0);
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 0.5 * (KNEE + 0.5 * (1024 - KNEE)), TOL);
}
END_TEST

START_TEST(test_ipc_compute_vs_memory)
{
        struct bl_cpu_sample cpu = cpu_counted(0, 0.5, 1024, 1.0);
        struct bl_sample s = sample_of(&cpu, 1);
        struct run r;

        run_start(&r, &heuristic_ipc, NULL);
        /* Compute-bound (below mpki_low, and at it): busy x capacity, every sample. */
        for (unsigned n = 0; n < 3; n++)
                ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 512.0);
        cpu.mpki = 2.0f;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 512.0);
        /* Halfway (m = 0.5): the capacity above the knee counts 0.75. */
        cpu.mpki = 11.0f;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 0.5 * (KNEE + 0.75 * (1024 - KNEE)), TOL);
        /* Memory-bound (at mpki_high and above): it counts half. 30% busy on
         * the big CPU reads 194, not 307. */
        cpu.mpki = 20.0f;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 0.5 * (KNEE + 0.5 * (1024 - KNEE)), TOL);
        cpu.mpki = 500.0f;
        cpu.busy = 0.3f;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 0.3f * (KNEE + 0.5 * (1024 - KNEE)), TOL);
        ck_assert_int_eq((int)lround(run_feed(&r, &s, 20 * MS)), 194);
        /* Back to compute-bound: at once, nothing remembered. */
        cpu.mpki = 0.5f;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 0.3f * 1024.0);
}
END_TEST

START_TEST(test_ipc_knee)
{
        struct bl_cpu_sample cpu = cpu_counted(0, 1.0, 200, 100);
        struct bl_sample s = sample_of(&cpu, 1);
        double params[BL_POLICY_MAX_PARAMS];
        struct run r;

        run_start(&r, &heuristic_ipc, NULL);
        /* Below the knee, memory-bound work still speeds up: no discount. */
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 200.0);
        /* A saturated LITTLE CPU of 377 counts 322: still above 80% of 377. */
        cpu.capacity = 377;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), KNEE + 0.5 * (377 - KNEE), TOL);
        ck_assert_double_gt(run_feed(&r, &s, 20 * MS), 0.8 * 377);

        /* Knee 0 and discount 1: fully memory-bound work counts nothing; knee
         * 100: never discounted. */
        defaults(&heuristic_ipc, params);
        set_param(&heuristic_ipc, params, "knee_capacity_pct", 0);
        set_param(&heuristic_ipc, params, "discount", 1.0);
        run_start(&r, &heuristic_ipc, params);
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 0.0);
        set_param(&heuristic_ipc, params, "knee_capacity_pct", 100);
        run_start(&r, &heuristic_ipc, params);
        cpu.capacity = 1024;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 1024.0);
}
END_TEST

START_TEST(test_ipc_no_counters)
{
        struct bl_cpu_sample cpu = cpu_counted(0, 0.5, 1024, 100);
        struct bl_sample s = sample_of(&cpu, 1);
        struct run r;

        run_start(&r, &heuristic_ipc, NULL);
        cpu.has_counters = false;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 512.0);
        cpu.has_counters = true;
        cpu.mpki = NAN;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 512.0);
        cpu.mpki = INFINITY;
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), 0.5 * (KNEE + 0.5 * (1024 - KNEE)), TOL);
        cpu.mpki = -5.0f;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 512.0);
}
END_TEST

START_TEST(test_ipc_cpus)
{
        struct bl_cpu_sample cpu[3] = {
                cpu_counted(0, 1.0, 1024, 40),
                cpu_counted(1, 0.625, 1024, 1),
                cpu_on(2, 1.0, 1024, 1024),
        };
        struct bl_sample s = sample_of(cpu, 3);
        struct run r;

        cpu[2].online = false;
        run_start(&r, &heuristic_ipc, NULL);
        /* CPU 0 memory-bound (645.1) beats compute-bound CPU 1 (640); CPU 2 is offline. */
        ck_assert_double_eq_tol(run_feed(&r, &s, 20 * MS), KNEE + 0.5 * (1024 - KNEE), TOL);
        cpu[1].busy = 0.75f;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 768.0);
        /* Online without counters: full demand. */
        cpu[2].online = true;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 1024.0);
        cpu[0].online = cpu[1].online = cpu[2].online = false;
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), 0.0);
}
END_TEST

START_TEST(test_ipc_reset)
{
        struct bl_cpu_sample cpu = cpu_counted(0, 0.5, 1024, 11);
        struct bl_sample s = sample_of(&cpu, 1);
        struct run r;
        double before;

        run_start(&r, &heuristic_ipc, NULL);
        before = run_feed(&r, &s, 20 * MS);
        heuristic_ipc.reset(r.state);
        /* The parameters stay. */
        ck_assert_double_eq(run_feed(&r, &s, 20 * MS), before);
        ck_assert_double_eq_tol(before, 0.5 * (KNEE + 0.75 * (1024 - KNEE)), TOL);
}
END_TEST

START_TEST(test_ipc_validate)
{
        double params[BL_POLICY_MAX_PARAMS];
        char err[256] = "";
        struct run r;

        memset(&r, 0, sizeof(r));
        defaults(&heuristic_ipc, params);
        ck_assert_int_eq(heuristic_ipc.validate(params, err, sizeof(err)), 0);
        set_param(&heuristic_ipc, params, "mpki_low", 20);
        ck_assert_int_eq(heuristic_ipc.validate(params, err, sizeof(err)), -EINVAL);
        ck_assert_str_eq(err, "mpki_low (20) must be below mpki_high (20): between the two the work "
                              "counts as more and more memory-bound.");
        ck_assert_int_eq(heuristic_ipc.init(r.state, params), -EINVAL);
        set_param(&heuristic_ipc, params, "mpki_low", 25.5);
        ck_assert_int_eq(heuristic_ipc.validate(params, err, sizeof(err)), -EINVAL);
        ck_assert_ptr_nonnull(strstr(err, "mpki_low (25.5)"));
        set_param(&heuristic_ipc, params, "mpki_low", 19.5);
        ck_assert_int_eq(heuristic_ipc.validate(params, err, sizeof(err)), 0);
        ck_assert_int_eq(heuristic_ipc.init(r.state, params), 0);
        set_param(&heuristic_ipc, params, "discount", 1.5);
        ck_assert_int_eq(heuristic_ipc.init(r.state, params), -EINVAL);
}
END_TEST

START_TEST(test_ipc_extremes)
{
        static const double busies[] = { 0.0, 1.0, 1.5, -0.5, NAN };
        static const uint16_t capacities[] = { 0, 1, 266, 267, 1024, UINT16_MAX };
        static const double mpkis[] = { 0.0, 2.0, 20.0, 1e30, -1.0, NAN, INFINITY };
        static const bl_usec_t intervals[] = { 0, 1, UINT64_MAX };
        double params[BL_POLICY_MAX_PARAMS];
        struct bl_cpu_sample cpu;
        struct bl_sample s;
        struct run r;

        defaults(&heuristic_ipc, params);
        set_param(&heuristic_ipc, params, "discount", 1.0);
        for (unsigned knee = 0; knee <= 100; knee += 50) {
                set_param(&heuristic_ipc, params, "knee_capacity_pct", knee);
                run_start(&r, &heuristic_ipc, params);
                for (size_t b = 0; b < N_ELEMS(busies); b++)
                        for (size_t c = 0; c < N_ELEMS(capacities); c++)
                                for (size_t m = 0; m < N_ELEMS(mpkis); m++)
                                        for (size_t i = 0; i < N_ELEMS(intervals); i++) {
                                                cpu = cpu_counted(0, busies[b], capacities[c], mpkis[m]);
                                                s = sample_of(&cpu, 1);
                                                r.now = 0;
                                                assert_sane(run_feed(&r, &s, intervals[i]));
                                        }
        }
}
END_TEST

/* headroom */

#define LITTLE_TOP 377
#define BIG_TOP 1024
/* 125% of LITTLE's top: what a saturated LITTLE cluster scores by default. */
#define LITTLE_OVER (1.25 * LITTLE_TOP)

/* Four CPUs of one cluster, CPU 0 at 'busy' and 'capacity', the others idle;
 * pressure 'pressure' (negative: the source has none). */
struct cluster_sample {
        struct bl_cpu_sample cpu[4];
        struct bl_sample s;
};

static struct bl_sample *cluster(struct cluster_sample *c, double busy, uint16_t capacity, uint16_t top,
                                 double pressure)
{
        c->cpu[0] = cpu_on(0, busy, capacity, top);
        for (unsigned i = 1; i < 4; i++)
                c->cpu[i] = cpu_on(i, 0.0, capacity, top);
        c->s = sample_of(c->cpu, 4);
        c->s.has_pressure = pressure >= 0.0;
        c->s.pressure = pressure >= 0.0 ? pressure : 0.0;
        return &c->s;
}

/* 10 ms on the big cluster (CPU 0 at 'busy' and 'capacity'), no pressure. */
static double feed_big(struct run *r, struct cluster_sample *c, double busy, uint16_t capacity)
{
        return run_feed(r, cluster(c, busy, capacity, BIG_TOP, 0.0), 10 * MS);
}

START_TEST(test_headroom_descriptor)
{
        const struct bl_heuristic_ops *o = &heuristic_headroom;

        ck_assert_uint_eq(o->abi, BL_POLICY_ABI);
        ck_assert_str_eq(o->name, "headroom");
        ck_assert_uint_eq(o->needs, 0);
        ck_assert_uint_eq(o->nparams, 8);
        ck_assert_ptr_nonnull(o->validate);
        ck_assert_ptr_nonnull(o->reset);
        ck_assert_double_eq(o->params[param_index(o, "min_pressure_pct")].def, 10);
        ck_assert_double_eq(o->params[param_index(o, "saturated_busy_pct")].def, 100);
        ck_assert_double_eq(o->params[param_index(o, "boost_pct")].def, 125);
        ck_assert_double_eq(o->params[param_index(o, "quiet_busy_pct")].def, 10);
        ck_assert_double_eq(o->params[param_index(o, "steady_busy_pct")].def, 75);
        ck_assert_double_eq(o->params[param_index(o, "half_life_ms")].def, 2000);
        ck_assert_double_eq(o->params[param_index(o, "quiet_ms")].def, 30);
        ck_assert_double_eq(o->params[param_index(o, "onset_pct")].def, 30);
        for (unsigned i = 0; i < o->nparams; i++) {
                ck_assert_ptr_nonnull(o->params[i].unit);
                ck_assert(o->params[i].min <= o->params[i].def && o->params[i].def <= o->params[i].max);
        }
}
END_TEST

START_TEST(test_headroom_first_sample)
{
        struct run r;
        struct cluster_sample c;

        run_start(&r, &heuristic_headroom, NULL);
        /* Saturated, but a sample of length 0 covers nothing. */
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 1.0), 0),
                                LITTLE_TOP, TOL);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.5, 200, LITTLE_TOP, 0.0), 10 * MS), 100, TOL);
        /* Once something is known, a sample of length 0 scores it. */
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.9, 300, LITTLE_TOP, 0.0), 0), 100, TOL);
}
END_TEST

START_TEST(test_headroom_pressure)
{
        struct run r;
        struct cluster_sample c;

        run_start(&r, &heuristic_headroom, NULL);
        /* Busy below the top, no pressure: the measured demand, however high. */
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.95, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS),
                                0.95 * LITTLE_TOP, 1e-3);
        /* At the floor (10%) is not above it. */
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.95, LITTLE_TOP, LITTLE_TOP, 0.10), 10 * MS),
                                0.95 * LITTLE_TOP, 1e-3);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.95, LITTLE_TOP, LITTLE_TOP, 0.11), 10 * MS),
                                LITTLE_OVER, TOL);

        /* Pressure while the CPUs looked at are less than half busy is another CPU's. */
        run_start(&r, &heuristic_headroom, NULL);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.4, LITTLE_TOP, LITTLE_TOP, 0.9), 10 * MS),
                                0.4 * LITTLE_TOP, 1e-3);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.5, LITTLE_TOP, LITTLE_TOP, 0.9), 10 * MS),
                                LITTLE_OVER, TOL);
        /* Half busy between them is enough: the waiting moved from CPU to CPU. */
        run_start(&r, &heuristic_headroom, NULL);
        cluster(&c, 0.3, LITTLE_TOP, LITTLE_TOP, 0.6);
        c.cpu[1].busy = 0.2f;
        ck_assert_double_eq_tol(run_feed(&r, &c.s, 10 * MS), LITTLE_OVER, TOL);
        run_start(&r, &heuristic_headroom, NULL);
        cluster(&c, 0.3, LITTLE_TOP, LITTLE_TOP, 0.6);
        c.cpu[1].busy = 0.1f;
        ck_assert_double_eq_tol(run_feed(&r, &c.s, 10 * MS), 0.3 * LITTLE_TOP, 1e-3);
}
END_TEST

START_TEST(test_headroom_busy_at_top)
{
        struct run r;
        struct cluster_sample c;
        double params[BL_POLICY_MAX_PARAMS];

        run_start(&r, &heuristic_headroom, NULL);
        /* Fully busy below the top frequency: the kernel can still raise it. */
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 1.0, 300, LITTLE_TOP, 0.0), 10 * MS), 300, TOL);
        /* Fully busy at the top, with or without pressure known. */
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS),
                                LITTLE_OVER, TOL);
        run_start(&r, &heuristic_headroom, NULL);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, -1), 10 * MS),
                                LITTLE_OVER, TOL);
        /* 99% busy is not saturated at the default, is at saturated_busy_pct = 95; a
         * CPU that does not know its top counts as at it; boost_pct scales. */
        run_start(&r, &heuristic_headroom, NULL);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.99, LITTLE_TOP, LITTLE_TOP, -1), 10 * MS),
                                0.99 * LITTLE_TOP, 1e-3);
        defaults(&heuristic_headroom, params);
        set_param(&heuristic_headroom, params, "saturated_busy_pct", 95);
        set_param(&heuristic_headroom, params, "boost_pct", 200);
        run_start(&r, &heuristic_headroom, params);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.99, 300, 0, -1), 10 * MS), 600, TOL);
}
END_TEST

START_TEST(test_headroom_held_through_bursts)
{
        struct run r;
        struct cluster_sample c;
        double params[BL_POLICY_MAX_PARAMS];

        defaults(&heuristic_headroom, params);
        set_param(&heuristic_headroom, params, "half_life_ms", 0);
        run_start(&r, &heuristic_headroom, params);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS),
                                LITTLE_OVER, TOL);
        /* On big: bursts (busy 40% read at a low OPP) keep what saturated LITTLE. */
        for (unsigned i = 0; i < 20; i++)
                ck_assert_double_eq_tol(feed_big(&r, &c, 0.4, 205), LITTLE_OVER, TOL);
        /* Gaps between frames shorter than quiet_ms keep it too. */
        ck_assert_double_eq_tol(feed_big(&r, &c, 0.05, 102), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(feed_big(&r, &c, 0.05, 102), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(feed_big(&r, &c, 0.4, 205), LITTLE_OVER, TOL);
        /* A burst above what is kept raises it to the burst's measure. */
        ck_assert_double_eq_tol(feed_big(&r, &c, 0.6, 922), 0.6 * 922, 1e-3);
        /* Quiet for quiet_ms (30): forgotten. */
        ck_assert_double_eq_tol(feed_big(&r, &c, 0.05, 102), 0.6 * 922, 1e-3);
        ck_assert_double_eq_tol(feed_big(&r, &c, 0.05, 102), 0.6 * 922, 1e-3);
        ck_assert_double_eq_tol(feed_big(&r, &c, 0.05, 102), 0.05 * 102, 1e-3);
        /* Nothing kept: bursts are measured as they are. */
        ck_assert_double_eq_tol(feed_big(&r, &c, 0.4, 205), 0.4 * 205, 1e-3);
}
END_TEST

START_TEST(test_headroom_steady)
{
        struct run r;
        struct cluster_sample c;
        double v;

        run_start(&r, &heuristic_headroom, NULL);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS),
                                LITTLE_OVER, TOL);
        /* Steady load on big (75% busy or more) below what is known is believed once
         * a load has been there for 100 ms without a break; until then it is kept,
         * decaying like bursts. */
        for (unsigned i = 1; i < 10; i++) {
                double decayed = 0.8 * 410 + (LITTLE_OVER - 0.8 * 410) * pow(0.5, i * 10.0 / 2000);

                ck_assert_double_eq_tol(feed_big(&r, &c, 0.8, 410), decayed, 1e-3);
        }
        /* Then it is measured: 0.8 x 410 = 328 fits LITTLE. */
        ck_assert_double_eq_tol(feed_big(&r, &c, 0.8, 410), 0.8 * 410, 1e-3);
        ck_assert_double_eq_tol(feed_big(&r, &c, 0.75, 410), 0.75 * 410, 1e-3);
        /* and is what bursts keep afterwards, decaying with the 2 s half-life, but
         * for rule 5: this load has been measured on big for over 100 ms and each
         * sample fits LITTLE, so the score is its mean over the window, below the
         * decayed measure and above the burst. */
        v = feed_big(&r, &c, 0.3, 102);
        ck_assert_double_lt(v, 0.3 * 102 + (0.75 * 410 - 0.3 * 102) * pow(0.5, 10.0 / 2000) - 1.0);
        ck_assert_double_gt(v, 0.3 * 102);
}
END_TEST

START_TEST(test_headroom_settling)
{
        struct run r;
        struct cluster_sample c;
        double params[BL_POLICY_MAX_PARAMS];
        double kept;

        defaults(&heuristic_headroom, params);
        set_param(&heuristic_headroom, params, "half_life_ms", 0);
        run_start(&r, &heuristic_headroom, params);
        run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS);
        /* Chunks of 90 ms, steady and small, with a gap (20% busy) between them:
         * the load is never there for 100 ms on end, so what saturated is kept. */
        for (unsigned chunk = 0; chunk < 5; chunk++) {
                for (unsigned i = 0; i < 9; i++)
                        ck_assert_double_eq_tol(feed_big(&r, &c, 0.8, 307), LITTLE_OVER, TOL);
                ck_assert_double_eq_tol(feed_big(&r, &c, 0.2, 102), LITTLE_OVER, TOL);
        }
        /* A steady sample above what is known raises it at once. */
        ck_assert_double_eq_tol(feed_big(&r, &c, 0.8, 922), 0.8 * 922, 1e-3);
        /* That sample, and half busy ones, count as present (half busy is not steady:
         * kept), and a steady measure after 100 ms of it is believed, in time, not
         * samples: 10 + 50 + 30 ms is not enough, 10 more are. */
        kept = 0.8 * 922;
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.5, 410, BIG_TOP, 0.0), 50 * MS), kept, 1e-3);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.8, 307, BIG_TOP, 0.0), 30 * MS), kept, 1e-3);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.8, 307, BIG_TOP, 0.0), 10 * MS), 0.8 * 307, 1e-3);
        /* A saturation restarts the count. */
        run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.8, 307, BIG_TOP, 0.0), 90 * MS), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.8, 307, BIG_TOP, 0.0), 10 * MS), 0.8 * 307, 1e-3);
}
END_TEST

START_TEST(test_headroom_half_life)
{
        struct run r;
        struct cluster_sample c;
        double params[BL_POLICY_MAX_PARAMS];

        defaults(&heuristic_headroom, params);
        set_param(&heuristic_headroom, params, "half_life_ms", 100);
        run_start(&r, &heuristic_headroom, params);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS),
                                LITTLE_OVER, TOL);
        /* One half-life of bursts measured at 400 (more than LITTLE carries, so
         * rule 5 does not apply): halfway there, in time, not samples. */
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.5, 800, BIG_TOP, 0.0), 100 * MS),
                                400 + (LITTLE_OVER - 400) / 2, 1e-6);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.5, 800, BIG_TOP, 0.0), 50 * MS),
                                400 + (LITTLE_OVER - 400) / 2 * pow(0.5, 0.5), 1e-6);
        /* Quiet samples shorter than quiet_ms neither decay nor forget it. */
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.0, 102, BIG_TOP, 0.0), 20 * MS),
                                400 + (LITTLE_OVER - 400) / 2 * pow(0.5, 0.5), 1e-6);

        /* By default a load LITTLE would not carry (40% of 1000) lets go in
         * seconds: 2 s is the default half-life. One it would carry (40% of 102)
         * is measured once it has been seen for 100 ms (rule 5). */
        run_start(&r, &heuristic_headroom, NULL);
        run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.4, 1000, BIG_TOP, 0.0), 2000 * MS),
                                0.4 * 1000 + (LITTLE_OVER - 0.4 * 1000) / 2, 1e-3);
        run_start(&r, &heuristic_headroom, NULL);
        run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.4, 102, BIG_TOP, 0.0), 2000 * MS), 0.4 * 102, 1e-3);
}
END_TEST

START_TEST(test_headroom_onset)
{
        struct run r;
        struct cluster_sample c;
        double params[BL_POLICY_MAX_PARAMS];

        run_start(&r, &heuristic_headroom, NULL);
        /* No onset before anything was quiet: a load present from the start is measured. */
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.3, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS),
                                0.3 * LITTLE_TOP, 1e-3);
        /* 20 ms of quiet is not enough, */
        run_feed(&r, cluster(&c, 0.0, 54, LITTLE_TOP, 0.0), 10 * MS);
        run_feed(&r, cluster(&c, 0.0, 54, LITTLE_TOP, 0.0), 10 * MS);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.3, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS),
                                0.3 * LITTLE_TOP, 1e-3);
        /* 30 ms is: 0.3 x 377 = 113 > 20% of 377 = 75.4 starts as a saturation. */
        for (unsigned i = 0; i < 3; i++)
                run_feed(&r, cluster(&c, 0.0, 54, LITTLE_TOP, 0.0), 10 * MS);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.3, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS),
                                LITTLE_OVER, TOL);
        /* A long quiet spell counts as long as quiet_ms; a start below onset_pct does not. */
        for (unsigned i = 0; i < 1000; i++)
                run_feed(&r, cluster(&c, 0.0, 54, LITTLE_TOP, 0.0), 10 * MS);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.19, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS),
                                0.19 * LITTLE_TOP, 1e-3);

        /* onset_pct = 0: never. */
        defaults(&heuristic_headroom, params);
        set_param(&heuristic_headroom, params, "onset_pct", 0);
        run_start(&r, &heuristic_headroom, params);
        for (unsigned i = 0; i < 10; i++)
                run_feed(&r, cluster(&c, 0.0, 54, LITTLE_TOP, 0.0), 10 * MS);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.9, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS),
                                0.9 * LITTLE_TOP, 1e-3);
}
END_TEST

/* LITTLE's CPU 0 at 'busy' and its top, with 'running' tasks runnable as the
 * sample ends ('running' < 0: the source has no count). */
static struct bl_sample *little_running(struct cluster_sample *c, double busy, int running)
{
        cluster(c, busy, LITTLE_TOP, LITTLE_TOP, 0.0);
        c->s.has_running = running >= 0;
        c->s.running = running >= 0 ? (unsigned)running : 0;
        return &c->s;
}

/* Quiet seen on big CPUs does not arm onset on LITTLE ones: 9 % of a big CPU
 * (92) is quiet there, and 24 % of a LITTLE one after the switch down, with
 * a task still runnable as the sample ends (which after quiet would be an
 * onset), is load, not the start of a burst. Quiet that then lasts on LITTLE
 * does arm it. */
START_TEST(test_headroom_onset_needs_quiet_on_the_same_cpus)
{
        struct run r;
        struct cluster_sample c;
        const double load = 0.09 * BIG_TOP;

        run_start(&r, &heuristic_headroom, NULL);
        for (unsigned i = 0; i < 10; i++)
                feed_big(&r, &c, 0.09, BIG_TOP);
        ck_assert_double_eq_tol(run_feed(&r, little_running(&c, load / LITTLE_TOP, 1), 10 * MS), load, 1e-3);
        for (unsigned i = 0; i < 3; i++)
                run_feed(&r, cluster(&c, 0.0, 54, LITTLE_TOP, 0.0), 10 * MS);
        ck_assert_double_eq_tol(run_feed(&r, little_running(&c, load / LITTLE_TOP, 1), 10 * MS), LITTLE_OVER, TOL);
}
END_TEST

/* In a pair's view (pair and mp modes), an onset that led to nothing (the
 * quiet came back, and nothing LITTLE could not carry or saturated it
 * before) turns onsets off until the next saturation: an audio decoder's
 * refill after the mixer's quiet ticks, taken for the start of more, took
 * a pair up and back every 40-100 ms. One that led to more (a load over
 * 97 % of LITTLE's top once on big) keeps them. The quiet spells last
 * 110 ms, longer than a cadence headroom learns
 * (test_headroom_no_onset_at_a_cadence). The samples show 'view' CPUs: a
 * cluster's four unless a test says otherwise. */
static unsigned view = 4;

static double feed_view(struct run *r, struct bl_sample *s)
{
        s->ncpus = view;
        return run_feed(r, s, 10 * MS);
}

static double quiet_then(struct run *r, struct cluster_sample *c, double busy)
{
        for (unsigned i = 0; i < 11; i++)
                feed_view(r, cluster(c, 0.0, 54, LITTLE_TOP, 0.0));
        return feed_view(r, cluster(c, busy, LITTLE_TOP, LITTLE_TOP, 0.0));
}

static void refill_on_big(struct run *r, struct cluster_sample *c, double busy)
{
        feed_view(r, cluster(c, busy, BIG_TOP, BIG_TOP, 0.0));
        for (unsigned i = 0; i < 3; i++)
                feed_view(r, cluster(c, 0.0, BIG_TOP, BIG_TOP, 0.0));
}

START_TEST(test_headroom_onset_that_led_to_nothing)
{
        struct run r;
        struct cluster_sample c;

        view = 2;
        run_start(&r, &heuristic_headroom, NULL);
        feed_view(&r, cluster(&c, 0.0, 54, LITTLE_TOP, 0.0));
        ck_assert_double_eq_tol(quiet_then(&r, &c, 0.3), LITTLE_OVER, TOL);
        /* On big the refill reads 10 % of 1024 (102, which LITTLE carries), then quiet. */
        refill_on_big(&r, &c, 0.1);
        /* The next start after quiet is measured, not taken for a saturation. */
        ck_assert_double_eq_tol(quiet_then(&r, &c, 0.3), 0.3 * LITTLE_TOP, 1e-3);
        ck_assert_double_eq_tol(quiet_then(&r, &c, 0.3), 0.3 * LITTLE_TOP, 1e-3);

        /* A saturation turns them on again, */
        ck_assert_double_eq_tol(feed_view(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5)), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(quiet_then(&r, &c, 0.3), LITTLE_OVER, TOL);
        /* and an onset followed by a load LITTLE could not carry (50 % of 1024
         * on big) was the start of more: the next one counts too. */
        refill_on_big(&r, &c, 0.5);
        ck_assert_double_eq_tol(quiet_then(&r, &c, 0.3), LITTLE_OVER, TOL);

        /* reset() forgets what was learned. */
        refill_on_big(&r, &c, 0.1);
        ck_assert_double_eq_tol(quiet_then(&r, &c, 0.3), 0.3 * LITTLE_TOP, 1e-3);
        r.ops->reset(r.state);
        feed_view(&r, cluster(&c, 0.0, 54, LITTLE_TOP, 0.0));
        ck_assert_double_eq_tol(quiet_then(&r, &c, 0.3), LITTLE_OVER, TOL);
}
END_TEST

/* In a cluster's view every start after quiet is an onset, also after
 * ones that led to nothing: what a start leads to shows only once the load
 * has run on LITTLE a while, and with pressure as the kernel counts it a
 * page load's first short burst reads as nothing there. */
START_TEST(test_headroom_onset_in_a_cluster_after_ones_that_led_to_nothing)
{
        struct run r;
        struct cluster_sample c;

        view = 4;
        run_start(&r, &heuristic_headroom, NULL);
        feed_view(&r, cluster(&c, 0.0, 54, LITTLE_TOP, 0.0));
        for (unsigned n = 0; n < 3; n++) {
                ck_assert_msg(fabs(quiet_then(&r, &c, 0.3) - LITTLE_OVER) < TOL, "start %u not an onset", n);
                refill_on_big(&r, &c, 0.1);
        }
}
END_TEST

/* 'quiet' samples of 10 ms, then two at 98 % of LITTLE (over 97 % of its
 * top: an onset there led to more); what the first of the two scored. */
static double frame_after(struct run *r, struct cluster_sample *c, unsigned quiet)
{
        double first;

        for (unsigned i = 0; i < quiet; i++)
                run_feed(r, cluster(c, 0.0, 54, LITTLE_TOP, 0.0), 10 * MS);
        first = run_feed(r, cluster(c, 0.98, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS);
        run_feed(r, cluster(c, 0.98, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS);
        return first;
}

/* A start after quiet that comes back at a cadence is the next frame, not
 * the start of more: once two quiet spells ended in a burst, a spell no
 * longer than half of those remembered arms no onset (a 24 fps preview's
 * 38 ms between frames is longer than quiet_ms, and each frame went up as
 * an onset). A spell longer than the cadence (200 ms) still does. */
START_TEST(test_headroom_no_onset_at_a_cadence)
{
        struct run r;
        struct cluster_sample c;
        const double frame = 0.98 * LITTLE_TOP;

        run_start(&r, &heuristic_headroom, NULL);
        ck_assert_double_eq_tol(frame_after(&r, &c, 4), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(frame_after(&r, &c, 4), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(frame_after(&r, &c, 4), frame, 1e-3);
        ck_assert_double_eq_tol(frame_after(&r, &c, 4), frame, 1e-3);
        /* a spell longer than those remembered */
        ck_assert_double_eq_tol(frame_after(&r, &c, 5), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(frame_after(&r, &c, 20), LITTLE_OVER, TOL);
        /* of the six remembered (40 ms four times, 50, over 100), five
         * lasted 40 ms or more and ended within 100 */
        ck_assert_double_eq_tol(frame_after(&r, &c, 4), frame, 1e-3);

        /* Spells of 110 ms are no cadence: each start is an onset. */
        run_start(&r, &heuristic_headroom, NULL);
        for (unsigned i = 0; i < 5; i++)
                ck_assert_double_eq_tol(frame_after(&r, &c, 11), LITTLE_OVER, TOL);
}
END_TEST

/* A fresh headroom whose quiet spell a sample of CPU 0 at 'busy' ends:
 * what that sample scored, checked to be busy x capacity (no onset). */
static void start_after_quiet(struct run *r, struct cluster_sample *c, double busy)
{
        run_start(r, &heuristic_headroom, NULL);
        run_feed(r, cluster(c, 0.0, 54, LITTLE_TOP, 0.0), 10 * MS);
        ck_assert_double_eq_tol(quiet_then(r, c, busy), busy * LITTLE_TOP, 1e-3);
}

/* A load that starts late in a sample reads there as a few percent busy,
 * below onset_pct: that sample ends the quiet without being an onset, and
 * the next one, the first the load fills, still counts as the start (the
 * live demo's launch went up 30 ms late without this). Only that one. */
START_TEST(test_headroom_onset_starting_late_in_a_sample)
{
        struct run r;
        struct cluster_sample c;

        start_after_quiet(&r, &c, 0.13);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.8, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS),
                                LITTLE_OVER, TOL);
        /* That onset led to more (a saturation): onsets still count. Two
         * small samples after quiet: the third is load, not a start. */
        run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS);
        for (unsigned i = 0; i < 300; i++)
                run_feed(&r, cluster(&c, 0.0, 54, LITTLE_TOP, 0.0), 10 * MS);
        ck_assert_double_eq_tol(quiet_then(&r, &c, 0.13), 0.13 * LITTLE_TOP, 1e-3);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.13, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS),
                                0.13 * LITTLE_TOP, 1e-3);
        ck_assert_double_lt(run_feed(&r, cluster(&c, 0.8, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS), LITTLE_TOP);
}
END_TEST

/* The sample after the one that ended the quiet is the onset where tasks
 * waited half of it or more, whatever its CPUs read: a CPU saturated right
 * after a sample that found it idle can read idle once (the demo's launch,
 * one run in three: CPU 0 read 0.17, then 0.00 at pressure 1.000, and the
 * daemon went up one sample later, at 343 ms instead of 327). Less pressure
 * is not enough, nor is pressure without a quiet spell just ended, nor in
 * a pair's view. */
START_TEST(test_headroom_onset_by_waiting_after_quiet)
{
        struct run r;
        struct cluster_sample c;

        start_after_quiet(&r, &c, 0.17);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.0, LITTLE_TOP, LITTLE_TOP, 1.0), 10 * MS), LITTLE_OVER,
                                TOL);

        start_after_quiet(&r, &c, 0.17);
        ck_assert_double_lt(run_feed(&r, cluster(&c, 0.0, LITTLE_TOP, LITTLE_TOP, 0.4), 10 * MS), LITTLE_TOP);

        run_start(&r, &heuristic_headroom, NULL);
        for (unsigned i = 0; i < 5; i++)
                run_feed(&r, cluster(&c, 0.3, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS);
        ck_assert_double_lt(run_feed(&r, cluster(&c, 0.0, LITTLE_TOP, LITTLE_TOP, 1.0), 10 * MS), LITTLE_TOP);

        /* A pair's view (pair and mp modes: two CPUs): the pressure may be
         * another pair's. */
        start_after_quiet(&r, &c, 0.17);
        cluster(&c, 0.0, LITTLE_TOP, LITTLE_TOP, 1.0);
        c.s.ncpus = 2;
        ck_assert_double_lt(run_feed(&r, &c.s, 10 * MS), LITTLE_TOP);
}
END_TEST

/* 120 ms of nothing on LITTLE: quiet, and longer than a frame's gap. */
static void quiet_on_little(struct run *r, struct cluster_sample *c)
{
        for (unsigned i = 0; i < 12; i++)
                run_feed(r, cluster(c, 0.0, 54, LITTLE_TOP, 0.0), 10 * MS);
}

/* A sample after quiet in which CPU 0 rose to 'busy' and 'running' tasks
 * were runnable as it ended ('running' < 0: the source has no count), in
 * a view of 'ncpus' CPUs: what it scored. */
static double start_with_running(struct run *r, struct cluster_sample *c, double busy, int running, unsigned ncpus,
                                 double stall_us)
{
        run_start(r, &heuristic_headroom, NULL);
        quiet_on_little(r, c);
        little_running(c, busy, running);
        c->s.ncpus = ncpus;
        c->s.switch_up_us = stall_us;
        return run_feed(r, &c->s, 10 * MS);
}

/* A load that starts in the last milliseconds of a sample after quiet (a
 * key press 1-2 ms before the tick) reads 10-19 % busy, under onset_pct;
 * a task still runnable as the sample ends makes it the onset, a sample
 * sooner than the rule for the sample after. Not without the task, nor
 * below quiet_busy_pct, nor in a pair's view (the count is the machine's),
 * nor without quiet before, nor where the switch up stalls half the
 * interval or more (a bet on the start's size that a slow switch makes
 * dear). */
START_TEST(test_headroom_onset_by_a_task_running_at_the_end)
{
        struct run r;
        struct cluster_sample c;

        ck_assert_double_eq_tol(start_with_running(&r, &c, 0.12, 1, 4, 20), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(start_with_running(&r, &c, 0.12, 3, 4, 20), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(start_with_running(&r, &c, 0.12, 0, 4, 20), 0.12 * LITTLE_TOP, 1e-3);
        ck_assert_double_eq_tol(start_with_running(&r, &c, 0.12, -1, 4, 20), 0.12 * LITTLE_TOP, 1e-3);
        ck_assert_double_eq_tol(start_with_running(&r, &c, 0.05, 1, 4, 20), 0.05 * LITTLE_TOP, 1e-3);
        ck_assert_double_eq_tol(start_with_running(&r, &c, 0.12, 1, 2, 20), 0.12 * LITTLE_TOP, 1e-3);
        ck_assert_double_eq_tol(start_with_running(&r, &c, 0.12, 1, 4, 4999), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(start_with_running(&r, &c, 0.12, 1, 4, 5000), 0.12 * LITTLE_TOP, 1e-3);

        run_start(&r, &heuristic_headroom, NULL);
        for (unsigned i = 0; i < 5; i++)
                run_feed(&r, cluster(&c, 0.3, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS);
        ck_assert_double_lt(run_feed(&r, little_running(&c, 0.12, 1), 10 * MS), LITTLE_TOP);
}
END_TEST

/* The sample after the one that ended the quiet is still the onset when a
 * task is runnable as it ends: a launch's light start read 15 % (no task
 * left) and then 25 %, under onset_pct, with its thread still running,
 * alone on its CPU, so with no pressure. Not without the task, nor one
 * sample later, nor with a slow switch up. */
static double second_start(struct run *r, struct cluster_sample *c, int running, unsigned after, double stall_us)
{
        run_start(r, &heuristic_headroom, NULL);
        quiet_on_little(r, c);
        run_feed(r, little_running(c, 0.15, 0), 10 * MS);
        for (unsigned i = 0; i < after; i++)
                run_feed(r, little_running(c, 0.25, 0), 10 * MS);
        little_running(c, 0.25, running);
        c->s.switch_up_us = stall_us;
        return run_feed(r, &c->s, 10 * MS);
}

START_TEST(test_headroom_onset_by_a_task_running_after_the_start)
{
        struct run r;
        struct cluster_sample c;

        ck_assert_double_eq_tol(second_start(&r, &c, 1, 0, 20), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(second_start(&r, &c, 0, 0, 20), 0.25 * LITTLE_TOP, 1e-3);
        ck_assert_double_eq_tol(second_start(&r, &c, 1, 1, 20), 0.25 * LITTLE_TOP, 1e-3);
        /* A slow switch up (hotplug's 10 ms): no bet. */
        ck_assert_double_eq_tol(second_start(&r, &c, 1, 0, 10000), 0.25 * LITTLE_TOP, 1e-3);
}
END_TEST

/* Bets on a runnable task stop once the latest starts after quiet all
 * fitted LITTLE (a screen-off audio decoder's refills, which took the
 * machine up 146 times in two minutes), and come back after a start of
 * more. The first start is a bet; one that fitted is enough to stop them. */
START_TEST(test_headroom_bets_that_keep_losing)
{
        struct run r;
        struct cluster_sample c;

        run_start(&r, &heuristic_headroom, NULL);
        quiet_on_little(&r, &c);
        ck_assert_double_eq_tol(run_feed(&r, little_running(&c, 0.12, 1), 10 * MS), LITTLE_OVER, TOL);
        run_feed(&r, cluster(&c, 0.3, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS);
        for (unsigned i = 0; i < 2; i++) {
                quiet_on_little(&r, &c);
                ck_assert_double_eq_tol(run_feed(&r, little_running(&c, 0.12, 1), 10 * MS), 0.12 * LITTLE_TOP,
                                        1e-3);
                run_feed(&r, cluster(&c, 0.3, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS);
        }
        quiet_on_little(&r, &c);
        ck_assert_double_eq_tol(run_feed(&r, little_running(&c, 0.12, 1), 10 * MS), 0.12 * LITTLE_TOP, 1e-3);
        /* The start goes on and saturates LITTLE: a start of more, although
         * no onset took it. */
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS),
                                LITTLE_OVER, TOL);
        quiet_on_little(&r, &c);
        ck_assert_double_eq_tol(run_feed(&r, little_running(&c, 0.12, 1), 10 * MS), LITTLE_OVER, TOL);

        /* reset() forgets the record with the rest of the history. */
        run_start(&r, &heuristic_headroom, NULL);
        quiet_on_little(&r, &c);
        run_feed(&r, little_running(&c, 0.12, 1), 10 * MS);
        run_feed(&r, cluster(&c, 0.3, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS);
        quiet_on_little(&r, &c);
        r.ops->reset(r.state);
        quiet_on_little(&r, &c);
        ck_assert_double_eq_tol(run_feed(&r, little_running(&c, 0.12, 1), 10 * MS), LITTLE_OVER, TOL);
}
END_TEST

/* A start after quiet that no onset took (under onset_pct, no task left
 * runnable: a decoder's refill) is judged all the same: once it fitted
 * LITTLE, the first runnable start after it is no bet. Without it, or
 * where it went on to saturate LITTLE, that start is one. */
static double runnable_start_after(struct run *r, struct cluster_sample *c, double first_busy, double then_busy)
{
        run_start(r, &heuristic_headroom, NULL);
        quiet_on_little(r, c);
        run_feed(r, little_running(c, first_busy, 0), 10 * MS);
        run_feed(r, cluster(c, then_busy, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS);
        quiet_on_little(r, c);
        return run_feed(r, little_running(c, 0.12, 1), 10 * MS);
}

START_TEST(test_headroom_starts_no_onset_took)
{
        struct run r;
        struct cluster_sample c;

        ck_assert_double_eq_tol(runnable_start_after(&r, &c, 0.2, 0.2), 0.12 * LITTLE_TOP, 1e-3);
        ck_assert_double_eq_tol(runnable_start_after(&r, &c, 0.2, 1.0), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(runnable_start_after(&r, &c, 0.05, 0.05), LITTLE_OVER, TOL);
}
END_TEST

/* Quiet on big counts on LITTLE after the switch down when nothing in it
 * would have been load on LITTLE: a key press 10 ms after the way down
 * followed 50 ms of nothing, and went up one sample later than at any
 * other time. It still needs quiet_ms of it. */
START_TEST(test_headroom_quiet_carried_down)
{
        struct run r;
        struct cluster_sample c;

        run_start(&r, &heuristic_headroom, NULL);
        for (unsigned i = 0; i < 3; i++)
                feed_big(&r, &c, 0.3, 205);
        for (unsigned i = 0; i < 5; i++)
                feed_big(&r, &c, 0.02, 205);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.3, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS),
                                LITTLE_OVER, TOL);

        run_start(&r, &heuristic_headroom, NULL);
        for (unsigned i = 0; i < 3; i++)
                feed_big(&r, &c, 0.3, 205);
        for (unsigned i = 0; i < 2; i++)
                feed_big(&r, &c, 0.0, 205);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.3, LITTLE_TOP, LITTLE_TOP, 0.0), 10 * MS),
                                0.3 * LITTLE_TOP, 1e-3);
}
END_TEST

START_TEST(test_headroom_reset)
{
        struct run r;
        struct cluster_sample c;

        run_start(&r, &heuristic_headroom, NULL);
        run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS);
        r.ops->reset(r.state);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.4, 205, BIG_TOP, 0.0), 0), 0.4 * 205, 1e-3);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.4, 205, BIG_TOP, 0.0), 10 * MS), 0.4 * 205, 1e-3);
}
END_TEST

START_TEST(test_headroom_validate)
{
        const struct bl_heuristic_ops *o = &heuristic_headroom;
        double params[BL_POLICY_MAX_PARAMS];
        char err[256] = "";
        struct run r;

        defaults(o, params);
        ck_assert_int_eq(o->validate(params, err, sizeof(err)), 0);
        set_param(o, params, "quiet_busy_pct", 80);
        ck_assert_int_eq(o->validate(params, err, sizeof(err)), -EINVAL);
        ck_assert_str_eq(err, "quiet_busy_pct (80) must not exceed steady_busy_pct (75): a CPU cannot be "
                              "nearly idle and steadily busy at once.");
        memset(&r, 0, sizeof(r));
        ck_assert_int_eq(o->init(r.state, params), -EINVAL);
        defaults(o, params);
        set_param(o, params, "boost_pct", 100);
        ck_assert_int_eq(o->init(r.state, params), -EINVAL);
        set_param(o, params, "boost_pct", 101);
        ck_assert_int_eq(o->init(r.state, params), 0);
}
END_TEST

START_TEST(test_headroom_extremes)
{
        static const double busies[] = { 0.0, 0.1, 0.5, 0.99, 1.0, 1.5, NAN, INFINITY };
        static const double pressures[] = { -1, 0.0, 0.31, 1.0, 5.0, NAN };
        static const uint16_t capacities[] = { 0, 54, 377, 1024, 65535 };
        struct run r;
        struct cluster_sample c;

        run_start(&r, &heuristic_headroom, NULL);
        for (size_t b = 0; b < N_ELEMS(busies); b++)
                for (size_t p = 0; p < N_ELEMS(pressures); p++)
                        for (size_t k = 0; k < N_ELEMS(capacities); k++) {
                                double v = run_feed(&r, cluster(&c, busies[b], capacities[k], capacities[k],
                                                                pressures[p]), 10 * MS);

                                assert_sane(v);
                                ck_assert(isfinite(v));
                        }
        /* An infinite demand from the sources scores, and leaves, what is known. */
        run_start(&r, &heuristic_headroom, NULL);
        run_feed(&r, cluster(&c, 0.5, 200, 1024, 0.0), 10 * MS);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, INFINITY, 200, 1024, 0.0), 10 * MS), 100, TOL);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 0.5, 200, 1024, 0.0), 0), 100, TOL);
}
END_TEST

/* A frame loop: every period_us its main thread works active_us at 'rate'
 * (capacity units), on CPU 0 of a cluster running at 'capacity'. */
struct frames {
        bl_usec_t period_us, active_us;
        double rate;
};

/* The share of [from, to) in which the loop works. */
static double frames_work(const struct frames *f, bl_usec_t from, bl_usec_t to)
{
        double work = 0.0;

        for (bl_usec_t start = from / f->period_us * f->period_us; start < to; start += f->period_us) {
                bl_usec_t a = start > from ? start : from;
                bl_usec_t b = start + f->active_us < to ? start + f->active_us : to;

                if (b > a)
                        work += (double)(b - a);
        }
        return work * f->rate;
}

/* The next 10 ms of the loop on a cluster at 'capacity' of 'top'. */
/* The next 10 ms of the loop 'f' on a cluster at 'capacity', not fed yet. */
static struct bl_sample *frames_sample(const struct run *r, struct cluster_sample *c, const struct frames *f,
                                       uint16_t capacity, uint16_t top)
{
        double busy = frames_work(f, r->now, r->now + 10 * MS) / ((double)capacity * (double)(10 * MS));

        return cluster(c, busy, capacity, top, 0.0);
}

static double feed_frames(struct run *r, struct cluster_sample *c, const struct frames *f, uint16_t capacity,
                          uint16_t top)
{
        return run_feed(r, frames_sample(r, c, f, capacity, top), 10 * MS);
}

/* Rule 5: a 60 fps loop whose frames LITTLE carries (330 of its 377 while a
 * frame works, 11 of every 16.7 ms) saturated LITTLE once (a heavy frame):
 * on big, once 100 ms of it have been measured, the score falls below the
 * engine's 90 % of LITTLE, within ten frames instead of seconds; back on
 * LITTLE it never asks for more than LITTLE. */
START_TEST(test_headroom_frames_that_fit_little)
{
        const struct frames f = { .period_us = 16667, .active_us = 11000, .rate = 330 };
        struct run r;
        struct cluster_sample c;
        double v = 0.0;
        unsigned i;

        run_start(&r, &heuristic_headroom, NULL);
        feed_frames(&r, &c, &f, LITTLE_TOP, LITTLE_TOP);
        ck_assert_double_eq_tol(run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS),
                                LITTLE_OVER, TOL);
        /* Less than 100 ms on big: still held. */
        for (i = 0; i < 9; i++)
                ck_assert_double_gt(feed_frames(&r, &c, &f, 410, BIG_TOP), LITTLE_TOP);
        for (; i < 16; i++) {
                v = feed_frames(&r, &c, &f, 410, BIG_TOP);
                if (v < 0.9 * LITTLE_TOP)
                        break;
        }
        ck_assert_uint_lt(i, 16);
        /* What it scores is the loop's work per unit of time, not less. */
        ck_assert_double_ge(v, 330.0 * 11000 / 16667 * 0.9);
        for (i = 0; i < 100; i++)
                ck_assert_double_lt(feed_frames(&r, &c, &f, 410, BIG_TOP), 0.9 * LITTLE_TOP);
        /* On LITTLE, at its top, the frames fit: nothing asks to go up. */
        for (i = 0; i < 200; i++)
                ck_assert_double_le(feed_frames(&r, &c, &f, LITTLE_TOP, LITTLE_TOP), LITTLE_TOP);

        /* A second saturation starts the window again. */
        run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS);
        for (i = 0; i < 9; i++)
                ck_assert_double_gt(feed_frames(&r, &c, &f, 410, BIG_TOP), LITTLE_TOP);
}
END_TEST

/* A loop whose frames do not fit LITTLE (450 while a frame works, 14 of
 * 16.7 ms: 378 a period on average, more than LITTLE's 377) keeps the level
 * it went to, decaying with the half-life as before; so does any loop with
 * half_life_ms = 0 (hold). */
START_TEST(test_headroom_frames_that_do_not_fit_little)
{
        const struct frames heavy = { .period_us = 16667, .active_us = 14000, .rate = 450 };
        const struct frames light = { .period_us = 16667, .active_us = 11000, .rate = 330 };
        double params[BL_POLICY_MAX_PARAMS];
        struct run r;
        struct cluster_sample c;

        run_start(&r, &heuristic_headroom, NULL);
        run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS);
        for (unsigned i = 0; i < 100; i++)
                ck_assert_double_gt(feed_frames(&r, &c, &heavy, 512, BIG_TOP), 0.9 * LITTLE_TOP);

        defaults(&heuristic_headroom, params);
        set_param(&heuristic_headroom, params, "half_life_ms", 0);
        run_start(&r, &heuristic_headroom, params);
        run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS);
        for (unsigned i = 0; i < 100; i++)
                ck_assert_double_eq_tol(feed_frames(&r, &c, &light, 410, BIG_TOP), LITTLE_OVER, TOL);
}
END_TEST

/* Only CPUs larger than the smallest seen are judged: a loop that saturated
 * big after LITTLE (a heavy burst) comes down once its frames fit LITTLE; a
 * load never seen on smaller CPUs is held as before. */
START_TEST(test_headroom_frames_judged_against_the_smallest_cpus)
{
        const struct frames f = { .period_us = 16667, .active_us = 11000, .rate = 330 };
        struct run r;
        struct cluster_sample c;
        unsigned i;

        run_start(&r, &heuristic_headroom, NULL);
        feed_frames(&r, &c, &f, LITTLE_TOP, LITTLE_TOP);
        run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS);
        ck_assert_double_eq_tol(feed_big(&r, &c, 1.0, BIG_TOP), 1.25 * BIG_TOP, TOL);
        for (i = 0; i < 30; i++)
                if (feed_frames(&r, &c, &f, 410, BIG_TOP) < 0.9 * LITTLE_TOP)
                        break;
        ck_assert_uint_lt(i, 16);

        run_start(&r, &heuristic_headroom, NULL);
        ck_assert_double_eq_tol(feed_big(&r, &c, 1.0, BIG_TOP), 1.25 * BIG_TOP, TOL);
        for (i = 0; i < 30; i++)
                ck_assert_double_gt(feed_frames(&r, &c, &f, 410, BIG_TOP), BIG_TOP);
}
END_TEST

/* How long the loop of test_headroom_frames_that_fit_little takes on big to
 * score below the engine's 90 % of LITTLE, in samples (0: not within 'most'). */
static unsigned frames_until_down(struct run *r, struct cluster_sample *c, const struct frames *f, unsigned most)
{
        for (unsigned i = 1; i <= most; i++)
                if (feed_frames(r, c, f, 410, BIG_TOP) < 0.9 * LITTLE_TOP)
                        return i;
        return 0;
}

/* 10 ms of 's' seen by 'ncpus' of its CPUs, telling that the switch up
 * stalls 'up_us'. */
static void feed_viewed(struct run *r, struct bl_sample *s, double up_us, unsigned ncpus)
{
        s->switch_up_us = up_us;
        s->ncpus = ncpus;
        run_feed(r, s, 10 * MS);
}

/* Frames on LITTLE, then a sample there with CPU 0 saturated and
 * 'pressure', each of 'ncpus' CPUs (4: a cluster's view, 2: a pair's, 1: an
 * mp CPU's) and telling that the switch up stalls 'up_us'; then the first
 * sample on big as the settle filter passes it on: CPU 0 at LITTLE's
 * demand, the pressure at most LITTLE's (on top, no switch up is told of). */
static void frames_then_up(struct run *r, struct cluster_sample *c, const struct frames *f, double up_us,
                           double pressure, unsigned ncpus)
{
        for (unsigned i = 0; i < 5; i++)
                feed_viewed(r, frames_sample(r, c, f, LITTLE_TOP, LITTLE_TOP), up_us, ncpus);
        feed_viewed(r, cluster(c, 1.0, LITTLE_TOP, LITTLE_TOP, pressure), up_us, ncpus);
        run_feed(r, cluster(c, (double)LITTLE_TOP / BIG_TOP, 410, BIG_TOP, pressure), 10 * MS);
}

/* Where the switch up from LITTLE stalls the work for over 1 ms, as the
 * samples there tell (2 ms: a cpuset move; 10 ms: hotplug), rule 5 stays
 * off and the hold of rule 3 stays, in a cluster's view and in a pair's;
 * with the in-kernel switcher's 20 us the loop comes down, as it does in
 * mp mode's view of one CPU after a slow one. The first sample on big
 * does not decide it: it reaches the heuristic through the settle filter,
 * which caps its busy time and pressure at LITTLE's before the switch.
 * Reading the stall from that sample (idle time with work waiting) let a
 * loop whose main thread saturated LITTLE alone on its CPU (no pressure)
 * down after a 10 ms stall, and held one that saturated with pressure
 * after a 20 us one. */
START_TEST(test_headroom_frames_held_where_switches_stall)
{
        const struct frames f = { .period_us = 16667, .active_us = 11000, .rate = 330 };
        const double up_us[] = { 2000, 10000 };
        struct run r;
        struct cluster_sample c;

        for (unsigned i = 0; i < sizeof(up_us) / sizeof(up_us[0]); i++)
                for (unsigned ncpus = 2; ncpus <= 4; ncpus += 2) {
                        run_start(&r, &heuristic_headroom, NULL);
                        frames_then_up(&r, &c, &f, up_us[i], 0.0, ncpus);
                        ck_assert_uint_eq(frames_until_down(&r, &c, &f, 100), 0);
                }

        run_start(&r, &heuristic_headroom, NULL);
        frames_then_up(&r, &c, &f, 20, 0.5, 4);
        ck_assert_uint_gt(frames_until_down(&r, &c, &f, 100), 0);

        run_start(&r, &heuristic_headroom, NULL);
        frames_then_up(&r, &c, &f, 10000, 0.0, 1);
        ck_assert_uint_gt(frames_until_down(&r, &c, &f, 100), 0);
}
END_TEST

/* A way down that saturates LITTLE at once did not pay: rule 5 waits 4 s
 * after that saturation instead of 100 ms (and rule 3's half-life brings
 * this loop down first). */
START_TEST(test_headroom_frames_back_off_after_a_failed_way_down)
{
        const struct frames f = { .period_us = 16667, .active_us = 11000, .rate = 330 };
        struct run r;
        struct cluster_sample c;
        unsigned n;

        run_start(&r, &heuristic_headroom, NULL);
        feed_frames(&r, &c, &f, LITTLE_TOP, LITTLE_TOP);
        run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS);
        n = frames_until_down(&r, &c, &f, 20);
        ck_assert_uint_gt(n, 0);
        /* Down, and LITTLE saturated in its second sample: back up, and held
         * until rule 3's half-life brings it down, after about 2 s. */
        feed_frames(&r, &c, &f, LITTLE_TOP, LITTLE_TOP);
        run_feed(&r, cluster(&c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.5), 10 * MS);
        n = frames_until_down(&r, &c, &f, 500);
        ck_assert_uint_ge(n, 150);
}
END_TEST

/* Rule 6. LITTLE saturated (CPU 0 busy at its top), the sample telling of
 * a switch up that stalls 'stall_us'. */
static struct bl_sample *little_saturated(struct cluster_sample *c, double stall_us)
{
        cluster(c, 1.0, LITTLE_TOP, LITTLE_TOP, 0.0);
        c->s.switch_up_us = stall_us;
        return &c->s;
}

/* A fresh headroom that has seen LITTLE idle once (so knows its smallest
 * CPUs). */
static void runs_start(struct run *r, struct cluster_sample *c)
{
        run_start(r, &heuristic_headroom, NULL);
        run_feed(r, cluster(c, 0.0, 54, LITTLE_TOP, 0.0), 10 * MS);
}

/* A saturation run on LITTLE of 'nsat' samples (little_saturated(), over
 * the first 'ncpus' CPUs), then 'big' samples on big with CPU 0 at
 * 'big_busy' (a move up was made), then LITTLE idle until the quiet lasts.
 * Returns the run's first score. */
static double saturation_run(struct run *r, struct cluster_sample *c, unsigned nsat, double stall_us,
                             unsigned big, double big_busy, unsigned ncpus)
{
        double first = 0.0;

        for (unsigned i = 0; i < nsat; i++) {
                double v;

                little_saturated(c, stall_us)->ncpus = ncpus;
                v = run_feed(r, &c->s, 10 * MS);
                if (i == 0)
                        first = v;
        }
        for (unsigned i = 0; i < big; i++)
                feed_big(r, c, big_busy, BIG_TOP);
        for (unsigned i = 0; i < 5; i++)
                run_feed(r, cluster(c, 0.0, 54, LITTLE_TOP, 0.0), 10 * MS);
        return first;
}

/* Bursts that LITTLE finishes within the sample that saw them (a key press)
 * are not taken up where the switch stalls 10 ms: it would end after them.
 * Once this one has lasted longer than any remembered, it goes up. With a
 * switch that stalls under half the interval, with nothing remembered, or
 * in a pair's sample, as before. */
START_TEST(test_headroom_runs_a_slow_switch_would_not_pay_for)
{
        struct run r;
        struct cluster_sample c;

        runs_start(&r, &c);
        for (unsigned i = 0; i < 3; i++)
                ck_assert_double_eq_tol(saturation_run(&r, &c, 1, 10000, 0, 0.0, 4), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(saturation_run(&r, &c, 2, 0, 0, 0.0, 4), LITTLE_OVER, TOL);
        /* A pair's sample (pair mode) is not judged, nor a stall under half
         * the interval. */
        ck_assert_double_eq_tol(saturation_run(&r, &c, 1, 10000, 0, 0.0, 2), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(saturation_run(&r, &c, 1, 4999, 0, 0.0, 4), LITTLE_OVER, TOL);
        ck_assert_double_eq_tol(run_feed(&r, little_saturated(&c, 5000), 10 * MS), LITTLE_TOP, 1e-3);
        ck_assert_double_eq_tol(run_feed(&r, little_saturated(&c, 5000), 10 * MS), LITTLE_TOP, 1e-3);
        ck_assert_double_eq_tol(run_feed(&r, little_saturated(&c, 5000), 10 * MS), LITTLE_OVER, TOL);
        r.ops->reset(r.state);
        run_feed(&r, cluster(&c, 0.0, 54, LITTLE_TOP, 0.0), 10 * MS);
        ck_assert_double_eq_tol(run_feed(&r, little_saturated(&c, 10000), 10 * MS), LITTLE_OVER, TOL);
}
END_TEST

/* A run goes on after the move up while big stays loaded, in LITTLE's time:
 * bursts that kept big 55 % busy for three samples after the switch were
 * long (one such sample alone would not pay for a 10 ms stall), and the
 * next one goes up at once. Ones that left big under half busy ended with
 * the sample after the switch, and the next one waits. */
START_TEST(test_headroom_runs_measured_on_big_after_the_switch)
{
        struct run r;
        struct cluster_sample c;

        runs_start(&r, &c);
        for (unsigned i = 0; i < 3; i++)
                saturation_run(&r, &c, 1, 10000, 3, 0.55, 4);
        ck_assert_double_eq_tol(saturation_run(&r, &c, 1, 10000, 3, 0.55, 4), LITTLE_OVER, TOL);

        runs_start(&r, &c);
        for (unsigned i = 0; i < 3; i++)
                saturation_run(&r, &c, 1, 10000, 3, 0.4, 4);
        ck_assert_double_eq_tol(saturation_run(&r, &c, 1, 10000, 3, 0.55, 4), LITTLE_TOP, 1e-3);
}
END_TEST

static Suite *policy_new_suite(void)
{
        Suite *s = suite_create("signal_heuristics");
        TCase *psi = tcase_create("psi");
        TCase *trend = tcase_create("trend");
        TCase *ipc = tcase_create("ipc");
        TCase *headroom = tcase_create("headroom");

        tcase_add_test(psi, test_psi_descriptor);
        tcase_add_test(psi, test_psi_first_sample);
        tcase_add_test(psi, test_psi_steady);
        tcase_add_test(psi, test_psi_interval_independent);
        tcase_add_test(psi, test_psi_no_pressure_field);
        tcase_add_test(psi, test_psi_floor);
        tcase_add_test(psi, test_psi_top_capacity);
        tcase_add_test(psi, test_psi_reset);
        tcase_add_test(psi, test_psi_idle_cpus_get_no_boost);
        tcase_add_test(psi, test_psi_params);
        tcase_add_test(psi, test_psi_extremes);
        suite_add_tcase(s, psi);

        tcase_add_test(trend, test_trend_descriptor);
        tcase_add_test(trend, test_trend_first_and_too_few);
        tcase_add_test(trend, test_trend_steady_and_falling);
        tcase_add_test(trend, test_trend_step);
        tcase_add_test(trend, test_trend_irregular);
        tcase_add_test(trend, test_trend_window_edge);
        tcase_add_test(trend, test_trend_cap_and_cpus);
        tcase_add_test(trend, test_trend_reset_and_time);
        tcase_add_test(trend, test_trend_overlap_and_ring);
        tcase_add_test(trend, test_trend_validate);
        tcase_add_test(trend, test_trend_extremes);
        suite_add_tcase(s, trend);

        tcase_add_test(ipc, test_ipc_descriptor);
        tcase_add_test(ipc, test_ipc_first_sample);
        tcase_add_test(ipc, test_ipc_compute_vs_memory);
        tcase_add_test(ipc, test_ipc_knee);
        tcase_add_test(ipc, test_ipc_no_counters);
        tcase_add_test(ipc, test_ipc_cpus);
        tcase_add_test(ipc, test_ipc_reset);
        tcase_add_test(ipc, test_ipc_validate);
        tcase_add_test(ipc, test_ipc_extremes);
        suite_add_tcase(s, ipc);

        tcase_add_test(headroom, test_headroom_descriptor);
        tcase_add_test(headroom, test_headroom_first_sample);
        tcase_add_test(headroom, test_headroom_pressure);
        tcase_add_test(headroom, test_headroom_busy_at_top);
        tcase_add_test(headroom, test_headroom_held_through_bursts);
        tcase_add_test(headroom, test_headroom_steady);
        tcase_add_test(headroom, test_headroom_settling);
        tcase_add_test(headroom, test_headroom_half_life);
        tcase_add_test(headroom, test_headroom_onset);
        tcase_add_test(headroom, test_headroom_onset_needs_quiet_on_the_same_cpus);
        tcase_add_test(headroom, test_headroom_onset_that_led_to_nothing);
        tcase_add_test(headroom, test_headroom_onset_in_a_cluster_after_ones_that_led_to_nothing);
        tcase_add_test(headroom, test_headroom_onset_starting_late_in_a_sample);
        tcase_add_test(headroom, test_headroom_onset_by_waiting_after_quiet);
        tcase_add_test(headroom, test_headroom_no_onset_at_a_cadence);
        tcase_add_test(headroom, test_headroom_onset_by_a_task_running_at_the_end);
        tcase_add_test(headroom, test_headroom_onset_by_a_task_running_after_the_start);
        tcase_add_test(headroom, test_headroom_bets_that_keep_losing);
        tcase_add_test(headroom, test_headroom_starts_no_onset_took);
        tcase_add_test(headroom, test_headroom_quiet_carried_down);
        tcase_add_test(headroom, test_headroom_reset);
        tcase_add_test(headroom, test_headroom_validate);
        tcase_add_test(headroom, test_headroom_extremes);
        tcase_add_test(headroom, test_headroom_frames_that_fit_little);
        tcase_add_test(headroom, test_headroom_frames_that_do_not_fit_little);
        tcase_add_test(headroom, test_headroom_frames_judged_against_the_smallest_cpus);
        tcase_add_test(headroom, test_headroom_frames_held_where_switches_stall);
        tcase_add_test(headroom, test_headroom_frames_back_off_after_a_failed_way_down);
        tcase_add_test(headroom, test_headroom_runs_a_slow_switch_would_not_pay_for);
        tcase_add_test(headroom, test_headroom_runs_measured_on_big_after_the_switch);
        suite_add_tcase(s, headroom);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(policy_new_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
