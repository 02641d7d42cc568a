/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The engine in virtual time: every rule, on both sides of its boundary. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"

#define MS(x) ((bl_usec_t)(x) * BL_USEC_PER_MSEC)

static const int *const no_temp = NULL;

static struct bl_ladder ladder_of(unsigned c0, unsigned c1, unsigned c2)
{
        struct bl_ladder l;

        memset(&l, 0, sizeof(l));
        l.mode = BL_MODE_CLUSTER;
        l.nlevels = c2 ? 3 : 2;
        strcpy(l.levels[0].name, "little");
        l.levels[0].capacity = c0;
        if (c2) {
                strcpy(l.levels[1].name, "mid");
                l.levels[1].capacity = c1;
                strcpy(l.levels[2].name, "big");
                l.levels[2].capacity = c2;
        } else {
                strcpy(l.levels[1].name, "big");
                l.levels[1].capacity = c1;
        }
        for (unsigned i = 0; i < l.nlevels; i++)
                l.levels[i].fit = l.levels[i].capacity;
        return l;
}

/* Thresholds 80/60, no delays, no residency, no rate limit, 85/80/95 C. */
static struct bl_engine_params params_plain(void)
{
        return (struct bl_engine_params){
                .up_pct = 80,
                .down_pct = 60,
                .cap_mc = 85000,
                .release_mc = 80000,
                .critical_mc = 95000,
        };
}

/* An engine that has applied 'level' at time 'at'. */
static void start(struct bl_engine *e, const struct bl_ladder *l, const struct bl_engine_params *p,
                  unsigned level, bl_usec_t at)
{
        engine_init(e, l, p, level);
        engine_switched(e, level, at);
}

static struct bl_decision decide(struct bl_engine *e, double demand, bl_usec_t now)
{
        struct bl_decision d;

        memset(&d, 0xa5, sizeof(d));
        engine_decide(e, demand, no_temp, now, &d);
        return d;
}

static struct bl_decision decide_hot(struct bl_engine *e, double demand, int temp_mc, bl_usec_t now)
{
        struct bl_decision d;

        memset(&d, 0xa5, sizeof(d));
        engine_decide(e, demand, &temp_mc, now, &d);
        return d;
}

static void assert_stay(const struct bl_decision *d, unsigned level, enum bl_cause cause)
{
        ck_assert_msg(d->cause == cause, "cause %s, expected %s (%s)", cause_to_string(d->cause),
                      cause_to_string(cause), d->reason);
        ck_assert(!d->change);
        ck_assert_uint_eq(d->from, level);
        ck_assert_uint_eq(d->to, level);
}

static void assert_move(const struct bl_decision *d, unsigned from, unsigned to, enum bl_cause cause)
{
        ck_assert_msg(d->cause == cause, "cause %s, expected %s (%s)", cause_to_string(d->cause),
                      cause_to_string(cause), d->reason);
        ck_assert(d->change);
        ck_assert_uint_eq(d->from, from);
        ck_assert_uint_eq(d->to, to);
}

START_TEST(test_up_at_threshold)
{
        /* 80% of 500 = 400: exactly 400 is not above it. */
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        start(&e, &l, &p, 0, 0);
        d = decide(&e, 400, MS(10));
        assert_stay(&d, 0, BL_CAUSE_NONE);
        d = decide(&e, 400.001, MS(20));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
        /* Deciding applies nothing: the engine still sits at little. */
        ck_assert_uint_eq(e.level, 0);
        d = decide(&e, 400.001, MS(30));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
}
END_TEST

START_TEST(test_up_delay)
{
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.up_delay = MS(20);
        start(&e, &l, &p, 0, 0);
        d = decide(&e, 500, MS(100));
        assert_stay(&d, 0, BL_CAUSE_PENDING);
        d = decide(&e, 500, MS(120) - 1);
        assert_stay(&d, 0, BL_CAUSE_PENDING);
        d = decide(&e, 500, MS(120));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
}
END_TEST

START_TEST(test_interruption_resets_timer)
{
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.up_delay = MS(20);
        start(&e, &l, &p, 0, 0);
        d = decide(&e, 500, MS(100));
        assert_stay(&d, 0, BL_CAUSE_PENDING);
        d = decide(&e, 100, MS(110));
        assert_stay(&d, 0, BL_CAUSE_NONE);
        d = decide(&e, 500, MS(115));
        assert_stay(&d, 0, BL_CAUSE_PENDING);
        /* 20 ms after the first sighting, but only 19 since the restart. */
        d = decide(&e, 500, MS(134));
        assert_stay(&d, 0, BL_CAUSE_PENDING);
        d = decide(&e, 500, MS(135));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
}
END_TEST

START_TEST(test_opposite_direction_resets_timer)
{
        struct bl_ladder l = ladder_of(325, 828, 1024);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.up_delay = MS(20);
        p.down_delay = MS(20);
        start(&e, &l, &p, 1, 0);
        d = decide(&e, 100, MS(100));
        assert_stay(&d, 1, BL_CAUSE_PENDING);
        ck_assert_int_eq(e.pending_dir, -1);
        d = decide(&e, 900, MS(110));
        assert_stay(&d, 1, BL_CAUSE_PENDING);
        ck_assert_int_eq(e.pending_dir, 1);
        d = decide(&e, 100, MS(120));
        assert_stay(&d, 1, BL_CAUSE_PENDING);
        d = decide(&e, 900, MS(125));
        assert_stay(&d, 1, BL_CAUSE_PENDING);
        d = decide(&e, 900, MS(144));
        assert_stay(&d, 1, BL_CAUSE_PENDING);
        d = decide(&e, 900, MS(145));
        assert_move(&d, 1, 2, BL_CAUSE_UP);
}
END_TEST

START_TEST(test_down_threshold_of_lower_level)
{
        /* Down from big is measured against 60% of little (300), not of big. */
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        start(&e, &l, &p, 1, 0);
        d = decide(&e, 550, MS(10));
        assert_stay(&d, 1, BL_CAUSE_NONE);
        d = decide(&e, 300, MS(20));
        assert_stay(&d, 1, BL_CAUSE_NONE);
        d = decide(&e, 299.999, MS(30));
        assert_move(&d, 1, 0, BL_CAUSE_DOWN);
}
END_TEST

START_TEST(test_down_delay)
{
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.up_delay = MS(20);
        p.down_delay = MS(100);
        start(&e, &l, &p, 1, 0);
        d = decide(&e, 100, MS(200));
        assert_stay(&d, 1, BL_CAUSE_PENDING);
        d = decide(&e, 100, MS(220));
        assert_stay(&d, 1, BL_CAUSE_PENDING);
        d = decide(&e, 100, MS(300) - 1);
        assert_stay(&d, 1, BL_CAUSE_PENDING);
        d = decide(&e, 100, MS(300));
        assert_move(&d, 1, 0, BL_CAUSE_DOWN);
}
END_TEST

START_TEST(test_skip_down)
{
        /* Down thresholds: 60% of 325 = 195, 60% of 828 = 496.8. */
        struct bl_ladder l = ladder_of(325, 828, 1024);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        start(&e, &l, &p, 2, 0);
        d = decide(&e, 100, MS(10));
        assert_move(&d, 2, 0, BL_CAUSE_DOWN);
        d = decide(&e, 194, MS(20));
        assert_move(&d, 2, 0, BL_CAUSE_DOWN);
        d = decide(&e, 195, MS(30));
        assert_move(&d, 2, 1, BL_CAUSE_DOWN);
        d = decide(&e, 496, MS(40));
        assert_move(&d, 2, 1, BL_CAUSE_DOWN);
        d = decide(&e, 497, MS(50));
        assert_stay(&d, 2, BL_CAUSE_NONE);

        /* From mid only little is below. */
        engine_switched(&e, 1, MS(60));
        d = decide(&e, 195, MS(70));
        assert_stay(&d, 1, BL_CAUSE_NONE);
        d = decide(&e, 194, MS(80));
        assert_move(&d, 1, 0, BL_CAUSE_DOWN);
}
END_TEST

START_TEST(test_skip_up)
{
        /* Up thresholds: 80% of 325 = 260, 80% of 828 = 662.4. */
        struct bl_ladder l = ladder_of(325, 828, 1024);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        start(&e, &l, &p, 0, 0);
        d = decide(&e, 260, MS(10));
        assert_stay(&d, 0, BL_CAUSE_NONE);
        d = decide(&e, 261, MS(20));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
        d = decide(&e, 662, MS(30));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
        d = decide(&e, 663, MS(40));
        assert_move(&d, 0, 2, BL_CAUSE_UP);
        d = decide(&e, 5000, MS(50));
        assert_move(&d, 0, 2, BL_CAUSE_UP);
}
END_TEST

START_TEST(test_residency)
{
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.min_residency = MS(40);
        start(&e, &l, &p, 0, MS(1000));
        d = decide(&e, 900, MS(1040) - 1);
        assert_stay(&d, 0, BL_CAUSE_RESIDENCY);
        ck_assert_str_eq(d.reason, "demand 900 > 80% of little (500) for 0 ms, "
                                   "held: minimum residency 40 ms not reached (39 ms at little)");
        d = decide(&e, 900, MS(1040));
        assert_move(&d, 0, 1, BL_CAUSE_UP);

        engine_switched(&e, 1, MS(1040));
        d = decide(&e, 0, MS(1050));
        assert_stay(&d, 1, BL_CAUSE_RESIDENCY);
        d = decide(&e, 0, MS(1079));
        assert_stay(&d, 1, BL_CAUSE_RESIDENCY);
        d = decide(&e, 0, MS(1080));
        assert_move(&d, 1, 0, BL_CAUSE_DOWN);
}
END_TEST

START_TEST(test_residency_needs_start)
{
        /* Before the initial level is confirmed there is no residency to keep. */
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.min_residency = MS(40);
        engine_init(&e, &l, &p, 0);
        ck_assert(!e.started);
        d = decide(&e, 900, MS(1));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
}
END_TEST

START_TEST(test_rate_limit)
{
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.max_rate_hz = 2;
        start(&e, &l, &p, 0, 0);
        d = decide(&e, 900, MS(100));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
        engine_switched(&e, 1, MS(100));
        d = decide(&e, 0, MS(200));
        assert_move(&d, 1, 0, BL_CAUSE_DOWN);
        engine_switched(&e, 0, MS(200));

        d = decide(&e, 900, MS(300));
        assert_stay(&d, 0, BL_CAUSE_RATE);
        ck_assert_str_eq(d.reason,
                         "demand 900 > 80% of little (500) for 0 ms, held: rate limit 2 switches/s reached");
        d = decide(&e, 900, MS(1100) - 1);
        assert_stay(&d, 0, BL_CAUSE_RATE);
        /* The switch at 100 ms is no longer later than now - 1 s. */
        d = decide(&e, 900, MS(1100));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
        engine_switched(&e, 1, MS(1100));

        d = decide(&e, 0, MS(1199));
        assert_stay(&d, 1, BL_CAUSE_RATE);
        d = decide(&e, 0, MS(1200));
        assert_move(&d, 1, 0, BL_CAUSE_DOWN);
}
END_TEST

START_TEST(test_initial_switch_not_counted)
{
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.max_rate_hz = 1;
        start(&e, &l, &p, 0, 0);
        ck_assert_uint_eq(e.recent_n, 0);
        d = decide(&e, 900, MS(10));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
        engine_switched(&e, 1, MS(10));
        ck_assert_uint_eq(e.recent_n, 1);
        d = decide(&e, 0, MS(20));
        assert_stay(&d, 1, BL_CAUSE_RATE);
}
END_TEST

START_TEST(test_rate_limit_clamped)
{
        /* Many switches at the highest rate the ring can count. */
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;
        bl_usec_t now = 0;

        p.max_rate_hz = BL_ENGINE_MAX_RATE * 10;
        start(&e, &l, &p, 0, 0);
        ck_assert_uint_eq(e.p.max_rate_hz, BL_ENGINE_MAX_RATE);
        for (unsigned i = 0; i < BL_ENGINE_MAX_RATE; i++) {
                now += 100;
                d = decide(&e, e.level ? 0 : 900, now);
                ck_assert_msg(d.change, "switch %u held: %s", i, d.reason);
                engine_switched(&e, d.to, now);
        }
        d = decide(&e, e.level ? 0 : 900, now + 100);
        assert_stay(&d, e.level, BL_CAUSE_RATE);
        d = decide(&e, e.level ? 0 : 900, 100 + BL_USEC_PER_SEC);
        ck_assert(d.change);
}
END_TEST

START_TEST(test_thermal_cap_forces_down)
{
        struct bl_ladder l = ladder_of(377, 1024, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.up_delay = MS(20);
        p.down_delay = MS(100);
        p.min_residency = MS(40);
        p.max_rate_hz = 1;
        start(&e, &l, &p, 0, 0);
        engine_switched(&e, 1, MS(10));
        d = decide_hot(&e, 900, 84999, MS(20));
        assert_stay(&d, 1, BL_CAUSE_NONE);
        d = decide_hot(&e, 900, 85000, MS(21));
        assert_move(&d, 1, 0, BL_CAUSE_THERMAL_CAP);
        ck_assert_str_eq(d.reason, "temperature 85.0 C >= cap 85.0 C: highest level little");
        ck_assert(e.capped);
}
END_TEST

START_TEST(test_thermal_cap_blocks_up_with_hysteresis)
{
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        start(&e, &l, &p, 0, 0);
        d = decide_hot(&e, 900, 86000, MS(10));
        assert_stay(&d, 0, BL_CAUSE_THERMAL_CAP);
        ck_assert_str_eq(d.reason, "demand 900 > 80% of little (500), held at little: "
                                   "temperature 86.0 C >= cap 85.0 C");
        /* Between release and cap: still capped. */
        d = decide_hot(&e, 900, 82000, MS(20));
        assert_stay(&d, 0, BL_CAUSE_THERMAL_CAP);
        ck_assert_str_eq(d.reason, "demand 900 > 80% of little (500), held at little: "
                                   "temperature 82.0 C not below release 80.0 C after cap 85.0 C");
        d = decide_hot(&e, 900, 80000, MS(30));
        assert_stay(&d, 0, BL_CAUSE_THERMAL_CAP);
        d = decide_hot(&e, 900, 79999, MS(40));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
        ck_assert(!e.capped);

        /* Below the cap from the start: never capped, whatever the release. */
        start(&e, &l, &p, 0, 0);
        d = decide_hot(&e, 900, 84999, MS(10));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
}
END_TEST

START_TEST(test_thermal_cap_three_levels)
{
        struct bl_ladder l = ladder_of(325, 828, 1024);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        start(&e, &l, &p, 2, 0);
        d = decide_hot(&e, 5000, 90000, MS(10));
        assert_move(&d, 2, 1, BL_CAUSE_THERMAL_CAP);
        ck_assert_str_eq(d.reason, "temperature 90.0 C >= cap 85.0 C: highest level mid");

        /* Capped, from little: up as far as mid, by the normal rules. */
        start(&e, &l, &p, 0, 0);
        d = decide_hot(&e, 5000, 90000, MS(10));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
        engine_switched(&e, 1, MS(10));
        d = decide_hot(&e, 5000, 90000, MS(20));
        assert_stay(&d, 1, BL_CAUSE_THERMAL_CAP);
        /* Down is still allowed while capped. */
        d = decide_hot(&e, 10, 90000, MS(30));
        assert_move(&d, 1, 0, BL_CAUSE_DOWN);
}
END_TEST

START_TEST(test_critical)
{
        struct bl_ladder l = ladder_of(325, 828, 1024);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.min_residency = MS(40);
        p.max_rate_hz = 1;
        start(&e, &l, &p, 0, 0);
        engine_switched(&e, 2, MS(10));
        d = decide_hot(&e, 5000, 94999, MS(11));
        assert_move(&d, 2, 1, BL_CAUSE_THERMAL_CAP);
        /* Residency not reached and rate exhausted: critical goes anyway. */
        d = decide_hot(&e, 5000, 96000, MS(11));
        assert_move(&d, 2, 0, BL_CAUSE_CRITICAL);
        ck_assert_str_eq(d.reason, "temperature 96.0 C >= critical 95.0 C: forced to little");
        engine_switched(&e, 0, MS(12));

        d = decide_hot(&e, 5000, 90000, MS(100));
        assert_stay(&d, 0, BL_CAUSE_CRITICAL);
        ck_assert_str_eq(d.reason, "temperature 90.0 C not below release 80.0 C after critical 95.0 C: "
                                   "held at little");
        d = decide_hot(&e, 5000, 80000, MS(200));
        assert_stay(&d, 0, BL_CAUSE_CRITICAL);
        ck_assert(e.critical);

        /* Released; the forced switch at 12 ms counts against the rate. */
        d = decide_hot(&e, 5000, 79999, MS(1011));
        assert_stay(&d, 0, BL_CAUSE_RATE);
        ck_assert(!e.critical);
        ck_assert(!e.capped);
        d = decide_hot(&e, 5000, 79999, MS(1012));
        assert_move(&d, 0, 2, BL_CAUSE_UP);
}
END_TEST

START_TEST(test_critical_from_mid)
{
        struct bl_ladder l = ladder_of(325, 828, 1024);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.up_delay = MS(1000);
        p.down_delay = MS(1000);
        start(&e, &l, &p, 1, 0);
        d = decide_hot(&e, 0, 95000, MS(1));
        assert_move(&d, 1, 0, BL_CAUSE_CRITICAL);
}
END_TEST

START_TEST(test_no_temperature)
{
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        start(&e, &l, &p, 0, 0);
        d = decide_hot(&e, 900, 99000, MS(10));
        assert_stay(&d, 0, BL_CAUSE_CRITICAL);
        d = decide(&e, 900, MS(20));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
        ck_assert(!e.capped);
        ck_assert(!e.critical);
        engine_switched(&e, 1, MS(20));
        d = decide(&e, 900, MS(30));
        assert_stay(&d, 1, BL_CAUSE_NONE);
}
END_TEST

START_TEST(test_reason_up)
{
        struct bl_ladder l = ladder_of(377, 1024, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.up_delay = MS(40);
        start(&e, &l, &p, 0, 0);
        d = decide(&e, 612, MS(100));
        ck_assert_str_eq(d.reason, "demand 612 > 80% of little (377) for 0 ms, waiting for 40 ms");
        d = decide(&e, 611.6, MS(120));
        ck_assert_str_eq(d.reason, "demand 612 > 80% of little (377) for 20 ms, waiting for 40 ms");
        d = decide(&e, 612.4, MS(140));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
        ck_assert_str_eq(d.reason, "demand 612 > 80% of little (377) for 40 ms");
}
END_TEST

START_TEST(test_reason_down)
{
        struct bl_ladder l = ladder_of(377, 1024, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.down_delay = MS(100);
        start(&e, &l, &p, 1, 0);
        d = decide(&e, 150, MS(100));
        ck_assert_str_eq(d.reason, "demand 150 < 60% of little (377) for 0 ms, waiting for 100 ms");
        d = decide(&e, 150, MS(200));
        assert_move(&d, 1, 0, BL_CAUSE_DOWN);
        ck_assert_str_eq(d.reason, "demand 150 < 60% of little (377) for 100 ms");

        /* A skip still names the next lower level. */
        {
                struct bl_ladder l3 = ladder_of(325, 828, 1024);

                start(&e, &l3, &p, 2, 0);
                decide(&e, 10, MS(100));
                d = decide(&e, 10, MS(200));
                assert_move(&d, 2, 0, BL_CAUSE_DOWN);
                ck_assert_str_eq(d.reason, "demand 10 < 60% of mid (828) for 100 ms");
        }
}
END_TEST

/* With explain_all off (the daemon below debug level) only switches are
 * explained, and with the text they have when every decision is. */
START_TEST(test_reason_only_switches)
{
        struct bl_ladder l = ladder_of(377, 1024, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.up_delay = MS(40);
        start(&e, &l, &p, 0, 0);
        engine_explain(&e, false);
        d = decide(&e, 250, MS(10));
        assert_stay(&d, 0, BL_CAUSE_NONE);
        ck_assert_str_eq(d.reason, "");
        d = decide(&e, 612, MS(100));
        assert_stay(&d, 0, BL_CAUSE_PENDING);
        ck_assert_str_eq(d.reason, "");
        d = decide(&e, 612.4, MS(140));
        assert_move(&d, 0, 1, BL_CAUSE_UP);
        ck_assert_str_eq(d.reason, "demand 612 > 80% of little (377) for 40 ms");
        engine_switched(&e, 1, MS(140));

        engine_decide_hold(&e, 1, "hold 1 by uid 0", no_temp, MS(150), &d);
        ck_assert(!d.change);
        ck_assert_str_eq(d.reason, "");
        engine_decide_hold(&e, 0, "hold 1 by uid 0", no_temp, MS(160), &d);
        ck_assert(d.change);
        ck_assert_str_eq(d.reason, "hold 1 by uid 0: little");

        d = decide_hot(&e, 900, 85000, MS(170));
        assert_move(&d, 1, 0, BL_CAUSE_THERMAL_CAP);
        ck_assert_str_eq(d.reason, "temperature 85.0 C >= cap 85.0 C: highest level little");

        /* Back on: staying is explained again. */
        engine_explain(&e, true);
        d = decide(&e, 1000, MS(180));
        ck_assert_str_eq(d.reason, "demand 1000 at top level big");
}
END_TEST

START_TEST(test_reason_none)
{
        struct bl_ladder l = ladder_of(377, 1024, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        start(&e, &l, &p, 0, 0);
        d = decide(&e, 250, MS(10));
        assert_stay(&d, 0, BL_CAUSE_NONE);
        ck_assert_str_eq(d.reason, "demand 250 within thresholds of little");
        d = decide(&e, 10, MS(20));
        ck_assert_str_eq(d.reason, "demand 10 at lowest level little");
        start(&e, &l, &p, 1, 0);
        d = decide(&e, 2000, MS(10));
        assert_stay(&d, 1, BL_CAUSE_NONE);
        ck_assert_str_eq(d.reason, "demand 2000 at top level big");
        d = decide(&e, 500, MS(20));
        ck_assert_str_eq(d.reason, "demand 500 within thresholds of big");
        ck_assert_str_eq(cause_to_string(d.cause), "none");
}
END_TEST

START_TEST(test_switched_clears_pending)
{
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;
        struct bl_decision d;

        p.down_delay = MS(100);
        start(&e, &l, &p, 1, 0);
        d = decide(&e, 100, MS(100));
        assert_stay(&d, 1, BL_CAUSE_PENDING);
        /* Something else (a hold) switched; the engine starts counting afresh. */
        engine_switched(&e, 1, MS(150));
        ck_assert_int_eq(e.pending_dir, 0);
        ck_assert_uint_eq(e.level_since, MS(150));
        d = decide(&e, 100, MS(200));
        assert_stay(&d, 1, BL_CAUSE_PENDING);
        d = decide(&e, 100, MS(300));
        assert_move(&d, 1, 0, BL_CAUSE_DOWN);
}
END_TEST

START_TEST(test_set_params)
{
        struct bl_ladder l = ladder_of(377, 1024, 0);
        struct bl_engine_params p = params_plain(), q;
        struct bl_engine e;
        struct bl_decision d;

        p.down_delay = MS(100);
        start(&e, &l, &p, 0, 0);
        engine_switched(&e, 1, MS(10));
        d = decide(&e, 100, MS(100));
        assert_stay(&d, 1, BL_CAUSE_PENDING);
        decide_hot(&e, 100, 82000, MS(101));
        d = decide_hot(&e, 100, 86000, MS(102));
        assert_move(&d, 1, 0, BL_CAUSE_THERMAL_CAP);

        q = params_plain();
        q.down_pct = 50;
        q.down_delay = MS(50);
        q.max_rate_hz = 1;
        engine_set_params(&e, &q);
        ck_assert_uint_eq(e.level, 1);
        ck_assert_uint_eq(e.level_since, MS(10));
        ck_assert(e.started);
        ck_assert(e.capped);
        ck_assert_int_eq(e.pending_dir, 0);
        ck_assert_uint_eq(e.recent_n, 1);
        ck_assert_uint_eq(e.p.down_pct, 50);

        /* Pending restarted under the new rules (not counted from 100 ms). */
        d = decide(&e, 100, MS(120));
        assert_stay(&d, 1, BL_CAUSE_PENDING);
        ck_assert_str_eq(d.reason, "demand 100 < 50% of little (377) for 0 ms, waiting for 50 ms");
        /* The ring survived: the switch at 10 ms still counts against 1/s. */
        d = decide(&e, 100, MS(170));
        assert_stay(&d, 1, BL_CAUSE_RATE);
        d = decide(&e, 100, MS(1010));
        assert_move(&d, 1, 0, BL_CAUSE_DOWN);
}
END_TEST

START_TEST(test_params_from_config)
{
        struct bl_config c;
        struct bl_engine_params p;

        memset(&c, 0, sizeof(c));
        c.up_threshold = 80;
        c.down_threshold = 60;
        c.up_delay_ms = 20;
        c.down_delay_ms = 100;
        c.min_residency_ms = 40;
        c.max_switch_rate_hz = 10;
        c.cap_temp_mc = 85000;
        c.release_temp_mc = 80000;
        c.critical_temp_mc = 95000;
        engine_params_from_config(&p, &c);
        ck_assert_uint_eq(p.up_pct, 80);
        ck_assert_uint_eq(p.down_pct, 60);
        ck_assert_uint_eq(p.up_delay, 20000);
        ck_assert_uint_eq(p.down_delay, 100000);
        ck_assert_uint_eq(p.min_residency, 40000);
        ck_assert_uint_eq(p.max_rate_hz, 10);
        ck_assert_int_eq(p.cap_mc, 85000);
        ck_assert_int_eq(p.release_mc, 80000);
        ck_assert_int_eq(p.critical_mc, 95000);

        c.max_switch_rate_hz = BL_ENGINE_MAX_RATE + 1;
        c.up_delay_ms = 4000000;
        engine_params_from_config(&p, &c);
        ck_assert_uint_eq(p.max_rate_hz, BL_ENGINE_MAX_RATE);
        ck_assert_uint_eq(p.up_delay, 4000000ULL * 1000);
}
END_TEST

START_TEST(test_init)
{
        struct bl_ladder l = ladder_of(500, 1000, 0);
        struct bl_engine_params p = params_plain();
        struct bl_engine e;

        memset(&e, 0x5a, sizeof(e));
        engine_init(&e, &l, &p, 1);
        ck_assert_ptr_eq(e.ladder, &l);
        ck_assert_uint_eq(e.level, 1);
        ck_assert(!e.started);
        ck_assert(!e.capped);
        ck_assert(!e.critical);
        ck_assert_int_eq(e.pending_dir, 0);
        ck_assert_uint_eq(e.recent_n, 0);
        engine_init(&e, &l, &p, 7);
        ck_assert_uint_eq(e.level, 1);
}
END_TEST

START_TEST(test_cause_strings)
{
        ck_assert_str_eq(cause_to_string(BL_CAUSE_NONE), "none");
        ck_assert_str_eq(cause_to_string(BL_CAUSE_PENDING), "pending");
        ck_assert_str_eq(cause_to_string(BL_CAUSE_RESIDENCY), "residency");
        ck_assert_str_eq(cause_to_string(BL_CAUSE_RATE), "rate");
        ck_assert_str_eq(cause_to_string(BL_CAUSE_UP), "up");
        ck_assert_str_eq(cause_to_string(BL_CAUSE_DOWN), "down");
        ck_assert_str_eq(cause_to_string(BL_CAUSE_THERMAL_CAP), "thermal-cap");
        ck_assert_str_eq(cause_to_string(BL_CAUSE_CRITICAL), "critical");
        ck_assert_str_eq(cause_to_string(BL_CAUSE_HOLD), "hold");
        ck_assert_str_eq(cause_to_string(BL_CAUSE_PROFILE), "profile");
}
END_TEST

static Suite *engine_suite(void)
{
        Suite *s = suite_create("engine");
        TCase *thresholds = tcase_create("thresholds");
        TCase *timing = tcase_create("timing");
        TCase *thermal = tcase_create("thermal");
        TCase *misc = tcase_create("misc");

        tcase_add_test(thresholds, test_up_at_threshold);
        tcase_add_test(thresholds, test_down_threshold_of_lower_level);
        tcase_add_test(thresholds, test_skip_down);
        tcase_add_test(thresholds, test_skip_up);
        suite_add_tcase(s, thresholds);

        tcase_add_test(timing, test_up_delay);
        tcase_add_test(timing, test_interruption_resets_timer);
        tcase_add_test(timing, test_opposite_direction_resets_timer);
        tcase_add_test(timing, test_down_delay);
        tcase_add_test(timing, test_residency);
        tcase_add_test(timing, test_residency_needs_start);
        tcase_add_test(timing, test_rate_limit);
        tcase_add_test(timing, test_initial_switch_not_counted);
        tcase_add_test(timing, test_rate_limit_clamped);
        tcase_add_test(timing, test_switched_clears_pending);
        suite_add_tcase(s, timing);

        tcase_add_test(thermal, test_thermal_cap_forces_down);
        tcase_add_test(thermal, test_thermal_cap_blocks_up_with_hysteresis);
        tcase_add_test(thermal, test_thermal_cap_three_levels);
        tcase_add_test(thermal, test_critical);
        tcase_add_test(thermal, test_critical_from_mid);
        tcase_add_test(thermal, test_no_temperature);
        suite_add_tcase(s, thermal);

        tcase_add_test(misc, test_reason_up);
        tcase_add_test(misc, test_reason_down);
        tcase_add_test(misc, test_reason_none);
        tcase_add_test(misc, test_reason_only_switches);
        tcase_add_test(misc, test_set_params);
        tcase_add_test(misc, test_params_from_config);
        tcase_add_test(misc, test_init);
        tcase_add_test(misc, test_cause_strings);
        suite_add_tcase(s, misc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(engine_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
