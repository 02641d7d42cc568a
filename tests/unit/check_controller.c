/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The controller in its three modes, in virtual time, on the Exynos 5422
 * topology (LITTLE 0-3 at 377, big 4-7 at 1024). */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/controller.h"
#include "policy/builtin.h"

#define MS BL_USEC_PER_MSEC
#define TICK (20 * MS)

static struct bl_topology topo;
static struct bl_ladder ladder;
static struct bl_config cfg;
static struct bl_sample_buf buf;

static void exynos(void)
{
        struct bl_cpu_info cpus[8];

        for (unsigned cpu = 0; cpu < 8; cpu++)
                cpus[cpu] = (struct bl_cpu_info){
                        .present = true, .online = true, .can_offline = cpu != 0,
                        .capacity = cpu < 4 ? 377 : 1024, .max_freq_khz = cpu < 4 ? 1400000 : 2000000,
                        .policy = cpu < 4 ? 0 : 4, .policy_size = 4, .cluster_id = cpu < 4 ? 1 : 0,
                };
        ck_assert_int_eq(topology_build(&topo, cpus, 8), 0);
}

static void configure_text(const char *text)
{
        struct bl_diag diag;

        diag_init(&diag);
        config_init(&cfg, policy_builtin);
        ck_assert_uint_eq(config_parse(&cfg, policy_builtin, "test.conf", text, strlen(text), &diag), 0);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 0);
}

/* util, the thresholds 80/60 and no delays: each decision follows the sample it
 * is given, whatever the shipped hysteresis is. */
static void configure(const char *extra)
{
        char text[1024];

        snprintf(text, sizeof(text),
                 "[policy]\nheuristics = util\n[hysteresis]\nup_threshold = 80\ndown_threshold = 60\n"
                 "up_delay_ms = 0\ndown_delay_ms = 0\n"
                 "min_residency_ms = 0\nmax_switch_rate_hz = 0\n%s", extra);
        configure_text(text);
}

static void setup_mode(enum bl_mode mode)
{
        exynos();
        ck_assert_int_eq(ladder_build(&ladder, &topo, mode, NULL), 0);
        configure("");
}

/* A sample in which the CPUs of 'online' run at their top capacity with the
 * given busy fractions (CPUs not listed are idle). */
static const struct bl_sample *sample(bl_usec_t now, const bl_cpumask *online, const float *busy)
{
        sample_buf_init(&buf, 8);
        sample_set_online(&buf, online);
        buf.s.now = now;
        buf.s.interval = TICK;
        for (unsigned cpu = 0; cpu < 8; cpu++) {
                buf.cpu[cpu].capacity = buf.cpu[cpu].online ? (cpu < 4 ? 377 : 1024) : 0;
                buf.cpu[cpu].max_capacity = buf.cpu[cpu].capacity;
                buf.cpu[cpu].busy = buf.cpu[cpu].online ? busy[cpu] : 0.0f;
        }
        return &buf.s;
}

static bl_cpumask set_of(const char *list)
{
        bl_cpumask s;

        ck_assert_int_eq(cpumask_parse(&s, list), 0);
        return s;
}

static void assert_cpus(const struct bl_controller *c, const struct bl_decision *d, const char *want)
{
        bl_cpumask cpus;
        char got[64];

        controller_cpus(c, d, &cpus);
        cpumask_format(&cpus, got, sizeof(got));
        ck_assert_str_eq(got, want);
}

static void assert_state(const struct bl_controller *c, unsigned state, const char *name)
{
        char got[64];

        controller_state_name(c, got, sizeof(got));
        ck_assert_str_eq(got, name);
        ck_assert_uint_eq(controller_state(c), state);
}

static double nan_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        return NAN;
}

static const struct bl_heuristic_ops nan_ops = {
        .abi = BL_POLICY_ABI,
        .name = "nan",
        .score = nan_score,
};

/* Four pair scorers run the broken heuristic: one warning, naming it, until
 * a reload makes new instances. */
START_TEST(test_broken_heuristic_said_once)
{
        static const float busy[8] = { 0, 1.0f, 0, 0, 0, 0, 0, 0 };
        struct bl_controller c;
        struct bl_decision d[4];
        struct bl_diag diag;
        bl_cpumask little = set_of("0-3");

        setup_mode(BL_MODE_PAIR);
        cfg.heuristics[0].ops = &nan_ops;
        ck_assert_int_eq(controller_init(&c, &ladder, &cfg, 0, 0), 0);
        ck_assert(!controller_has_warnings(&c));
        diag_init(&diag);
        ck_assert_uint_eq(controller_warnings(&c, &diag), 0);
        /* NaN counts as 0: nothing moves. */
        ck_assert_uint_eq(controller_decide(&c, sample(TICK, &little, busy), TICK, d), 0);
        ck_assert(controller_has_warnings(&c));
        ck_assert_uint_eq(controller_warnings(&c, &diag), 1);
        ck_assert_msg(strstr(diag.msg[0], "heuristic util returned nan") != NULL, "%s", diag.msg[0]);
        ck_assert(!controller_has_warnings(&c));
        controller_decide(&c, sample(2 * TICK, &little, busy), 2 * TICK, d);
        ck_assert(!controller_has_warnings(&c));
        ck_assert_uint_eq(controller_warnings(&c, &diag), 0);

        ck_assert_int_eq(controller_reconfigure(&c, &cfg, 0), 0);
        controller_decide(&c, sample(3 * TICK, &little, busy), 3 * TICK, d);
        ck_assert_uint_eq(controller_warnings(&c, &diag), 1);
        ck_assert_uint_eq(diag.n, 2);
        controller_done(&c);
}
END_TEST

START_TEST(test_cluster_mode)
{
        static const float busy[8] = { 0.9f, 0.1f, 0, 0, 0, 0, 0, 0 };
        static const float light[8] = { 0, 0, 0, 0, 0.1f, 0, 0, 0 };
        struct bl_controller c;
        struct bl_decision d[1];
        bl_cpumask little = set_of("0-3"), big = set_of("4-7");

        setup_mode(BL_MODE_CLUSTER);
        ck_assert_int_eq(controller_init(&c, &ladder, &cfg, 0, 0), 0);
        ck_assert_uint_eq(c.nengines, 1);
        ck_assert_uint_eq(c.nscorers, 1);
        assert_cpus(&c, NULL, "0-3");
        assert_state(&c, 0, "little");

        /* 0.9 x 377 = 339 > 80% of 377 */
        ck_assert_uint_eq(controller_decide(&c, sample(TICK, &little, busy), TICK, d), 1);
        ck_assert_str_eq(d[0].reason, "demand 339 > 80% of little (377) for 0 ms");
        assert_cpus(&c, d, "4-7");
        assert_cpus(&c, NULL, "0-3");   /* not applied yet */
        controller_switched(&c, d, TICK);
        assert_state(&c, 1, "big");
        ck_assert_double_eq_tol(controller_demand(&c), 339.3, 0.1);

        /* 0.1 x 1024 = 102 < 60% of 377 = 226 */
        ck_assert_uint_eq(controller_decide(&c, sample(2 * TICK, &big, light), 2 * TICK, d), 1);
        ck_assert_uint_eq(d[0].to, 0);
        controller_done(&c);
}
END_TEST

/* A heuristic that records what each call was told of the switch up, and
 * scores 'probe_demand'. */
static double probe_demand;
static double probe_up_us[8];
static unsigned probe_calls;

static double probe_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        (void)state;
        (void)now;
        probe_up_us[probe_calls++ % 8] = s->switch_up_us;
        return probe_demand;
}

static const struct bl_heuristic_ops probe_ops = {
        .abi = BL_POLICY_ABI,
        .name = "probe",
        .score = probe_score,
};

static void probe_start(struct bl_controller *c, enum bl_mode mode)
{
        /* 1 ms a switch and 250 us a CPU that changes */
        static const struct bl_switch_cost cost = { .latency_us = 1000, .latency_per_cpu_us = 250 };

        setup_mode(mode);
        cfg.heuristics[0].ops = &probe_ops;
        ck_assert_int_eq(controller_init(c, &ladder, &cfg, 0, 0), 0);
        controller_set_switch_cost(c, &cost);
        probe_calls = 0;
        probe_demand = 0.0;
}

/* Every scorer is told what the switch up from its engine's level stalls:
 * the heuristics that bet on load to come weigh the bet with it. */
START_TEST(test_heuristics_told_the_switch_up)
{
        static const float idle[8] = { 0 };
        struct bl_controller c;
        struct bl_decision d[4] = { 0 };
        bl_cpumask little = set_of("0-3"), big = set_of("4-7");

        /* Cluster mode: little -> big changes all eight CPUs; at big there
         * is no way up. */
        probe_start(&c, BL_MODE_CLUSTER);
        controller_decide(&c, sample(TICK, &little, idle), TICK, d);
        ck_assert_uint_eq(probe_calls, 1);
        ck_assert_double_eq_tol(probe_up_us[0], 3000.0, 1e-9);
        d[0] = (struct bl_decision){ .from = 0, .to = 1, .change = true };
        controller_switched(&c, d, TICK);
        controller_decide(&c, sample(2 * TICK, &big, idle), 2 * TICK, d);
        ck_assert_double_eq(probe_up_us[1], 0.0);
        controller_done(&c);

        /* Pair mode: a pair's switch changes its two CPUs; a big pair has none. */
        probe_start(&c, BL_MODE_PAIR);
        memset(d, 0, sizeof(d));
        d[1] = (struct bl_decision){ .from = 0, .to = 1, .change = true };
        controller_switched(&c, d, 0);
        controller_decide(&c, sample(TICK, &little, idle), TICK, d);
        ck_assert_uint_eq(probe_calls, 4);
        ck_assert_double_eq_tol(probe_up_us[0], 1500.0, 1e-9);
        ck_assert_double_eq(probe_up_us[1], 0.0);
        ck_assert_double_eq_tol(probe_up_us[2], 1500.0, 1e-9);
        controller_done(&c);

        /* mp mode: one fast CPU more, for every CPU's scorer. */
        probe_start(&c, BL_MODE_MP);
        controller_decide(&c, sample(TICK, &little, idle), TICK, d);
        ck_assert_uint_eq(probe_calls, 8);
        for (unsigned i = 0; i < 8; i++)
                ck_assert_double_eq_tol(probe_up_us[i], 1250.0, 1e-9);
        controller_done(&c);
}
END_TEST

START_TEST(test_pair_mode_switches_one_pair)
{
        static const float pair1[8] = { 0, 1.0f, 0, 0, 0, 0, 0, 0 };
        struct bl_controller c;
        struct bl_decision d[4];
        bl_cpumask little = set_of("0-3");

        setup_mode(BL_MODE_PAIR);
        ck_assert_int_eq(controller_init(&c, &ladder, &cfg, 0, 0), 0);
        ck_assert_uint_eq(c.nengines, 4);
        ck_assert_uint_eq(c.nscorers, 4);
        assert_state(&c, 0, "LLLL");

        ck_assert_uint_eq(controller_decide(&c, sample(TICK, &little, pair1), TICK, d), 1);
        ck_assert(!d[0].change && d[1].change && !d[2].change && !d[3].change);
        ck_assert_str_eq(d[1].reason, "demand 377 > 80% of little (377) for 0 ms");
        ck_assert_str_eq(d[0].reason, "demand 0 at lowest level little");
        assert_cpus(&c, d, "0,2-3,5");
        controller_switched(&c, d, TICK);
        assert_state(&c, 2, "LBLL");
        ck_assert_double_eq_tol(controller_demand(&c), 377.0, 0.01);
        controller_done(&c);
}
END_TEST

START_TEST(test_pair_mode_sees_only_its_pair)
{
        /* Pair 1 now runs on cpu5; 0.3 x 1024 = 307 keeps it big (> 60% of
         * 377 = 226) while pair 2, on cpu2 at 0.5 x 377 = 188, stays little. */
        static const float busy[8] = { 0, 0, 0.5f, 0, 0, 0.3f, 0, 0 };
        static const float idle[8] = { 0 };
        struct bl_controller c;
        struct bl_decision d[4] = { 0 };
        bl_cpumask mixed = set_of("0,2-3,5");

        setup_mode(BL_MODE_PAIR);
        ck_assert_int_eq(controller_init(&c, &ladder, &cfg, 0, 0), 0);
        d[1] = (struct bl_decision){ .from = 0, .to = 1, .change = true };
        controller_switched(&c, d, 0);
        assert_state(&c, 2, "LBLL");

        ck_assert_uint_eq(controller_decide(&c, sample(TICK, &mixed, busy), TICK, d), 0);
        ck_assert_double_eq_tol(c.demand[1], 307.2, 0.1);
        ck_assert_double_eq_tol(c.demand[2], 188.5, 0.1);
        ck_assert_double_eq(c.demand[0], 0.0);

        ck_assert_uint_eq(controller_decide(&c, sample(2 * TICK, &mixed, idle), 2 * TICK, d), 1);
        ck_assert(d[1].change && d[1].to == 0);
        assert_cpus(&c, d, "0-3");
        controller_done(&c);
}
END_TEST

START_TEST(test_pair_mode_thermal_caps_every_pair)
{
        static const float full[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
        struct bl_controller c;
        struct bl_decision d[4];
        bl_cpumask little = set_of("0-3");
        const struct bl_sample *s;

        setup_mode(BL_MODE_PAIR);
        ck_assert_int_eq(controller_init(&c, &ladder, &cfg, 0, 0), 0);
        s = sample(TICK, &little, full);
        buf.s.has_temp = true;
        buf.s.temp_mc = 90000;
        ck_assert_uint_eq(controller_decide(&c, s, TICK, d), 0);
        for (unsigned p = 0; p < 4; p++)
                ck_assert_int_eq(d[p].cause, BL_CAUSE_THERMAL_CAP);
        controller_done(&c);
}
END_TEST

START_TEST(test_mp_mode_adds_one_big_per_heavy_cpu)
{
        /* Two LITTLE CPUs saturated: two CPUs need more than a LITTLE one. */
        static const float two[8] = { 1.0f, 1.0f, 0.2f, 0, 0, 0, 0, 0 };
        struct bl_controller c;
        struct bl_decision d[1];
        bl_cpumask little = set_of("0-3");

        setup_mode(BL_MODE_MP);
        ck_assert_int_eq(controller_init(&c, &ladder, &cfg, 0, 0), 0);
        ck_assert_uint_eq(c.nengines, 1);
        ck_assert_uint_eq(c.nscorers, 8);
        assert_state(&c, 0, "little");

        ck_assert_uint_eq(controller_decide(&c, sample(TICK, &little, two), TICK, d), 1);
        ck_assert_uint_eq(d[0].to, 2);
        ck_assert_str_eq(d[0].reason, "busiest CPU 377 > 80% of little (377) for 0 ms");
        ck_assert_uint_eq(c.ntop, 5);
        ck_assert_double_eq_tol(c.top[0], 377.0, 0.01);
        ck_assert_double_eq_tol(c.top[2], 75.4, 0.01);
        assert_cpus(&c, d, "0-5");
        controller_switched(&c, d, TICK);
        assert_state(&c, 2, "little+2big");
        controller_done(&c);
}
END_TEST

START_TEST(test_mp_mode_drops_the_big_cores_no_longer_needed)
{
        /* At little+2big, one task left on cpu4 (0.3 x 1024 = 307, above 60%
         * of 377 = 226), cpu5 idle: one fast core is enough. */
        static const float one[8] = { 0, 0, 0, 0, 0.3f, 0, 0, 0 };
        static const float both[8] = { 0, 0, 0, 0, 0.3f, 0.25f, 0, 0 };
        struct bl_controller c;
        struct bl_decision d[1] = { { .from = 0, .to = 2, .change = true } };
        bl_cpumask at2 = set_of("0-5");

        setup_mode(BL_MODE_MP);
        ck_assert_int_eq(controller_init(&c, &ladder, &cfg, 0, 0), 0);
        controller_switched(&c, d, 0);

        /* 0.25 x 1024 = 256 still needs its fast core. */
        ck_assert_uint_eq(controller_decide(&c, sample(TICK, &at2, both), TICK, d), 0);
        ck_assert_str_eq(d[0].reason, "demand 256 within thresholds of little+2big");

        ck_assert_uint_eq(controller_decide(&c, sample(2 * TICK, &at2, one), 2 * TICK, d), 1);
        ck_assert_uint_eq(d[0].to, 1);
        ck_assert_str_eq(d[0].reason, "2nd busiest CPU 0 < 60% of little (377) for 0 ms");
        assert_cpus(&c, d, "0-4");
        controller_done(&c);
}
END_TEST

START_TEST(test_mp_mode_all)
{
        static const float full[8] = { 1, 1, 1, 1, 0, 0, 0, 0 };
        struct bl_controller c;
        struct bl_decision d[1];
        bl_cpumask little = set_of("0-3");

        setup_mode(BL_MODE_MP);
        ck_assert_int_eq(controller_init(&c, &ladder, &cfg, 0, 0), 0);
        ck_assert_uint_eq(controller_decide(&c, sample(TICK, &little, full), TICK, d), 1);
        ck_assert_uint_eq(d[0].to, 4);
        assert_cpus(&c, d, "0-7");
        controller_switched(&c, d, TICK);
        assert_state(&c, 4, "all");
        controller_done(&c);
}
END_TEST

/* The shipped heuristic (headroom holds a saturated CPU's demand through the
 * gaps of its load) with no delays, so each decision follows its sample. */
static void setup_mp_headroom(void)
{
        exynos();
        ck_assert_int_eq(ladder_build(&ladder, &topo, BL_MODE_MP, NULL), 0);
        configure_text("[policy]\nheuristics = headroom\n[hysteresis]\nup_threshold = 100\n"
                       "down_threshold = 90\nup_delay_ms = 0\ndown_delay_ms = 0\nmin_residency_ms = 0\n"
                       "max_switch_rate_hz = 0\nbreak_even = no\n");
}

/* What the CPUs of 'online' show for 'samples' samples, and the level wanted
 * after each of them. */
struct mp_phase {
        const char *online;
        float busy[8];
        unsigned samples;
        unsigned level;
};

/* Runs the phases one after another from little, deciding every TICK and
 * applying each decision. */
static void assert_mp_phases(const struct mp_phase *phase, unsigned nphases)
{
        struct bl_controller c;
        struct bl_decision d[1];
        bl_usec_t now = 0;

        setup_mp_headroom();
        ck_assert_int_eq(controller_init(&c, &ladder, &cfg, 0, 0), 0);
        for (unsigned p = 0; p < nphases; p++) {
                bl_cpumask online = set_of(phase[p].online);

                for (unsigned i = 0; i < phase[p].samples; i++) {
                        now += TICK;
                        if (controller_decide(&c, sample(now, &online, phase[p].busy), now, d))
                                controller_switched(&c, d, now);
                        ck_assert_uint_eq(c.engine[0].level, phase[p].level);
                }
        }
        controller_done(&c);
}

/* mp with the shipped heuristic, phase by phase:
 * - one heavy thread saturates a LITTLE CPU: one big CPU, and when the
 *   scheduler has moved the thread there, still one (the LITTLE CPU it left
 *   is idle; its saturation moved with the thread and is not counted
 *   again);
 * - four heavy threads: four big CPUs, kept while the threads run there;
 * - a second heavy thread where one big CPU runs already: one more, not two;
 * - idle: nothing;
 * - busy CPUs outside the level (the cpuset backend leaves them online,
 *   running what it does not confine): nothing either;
 * - one thread that starts after quiet beside two CPUs that blink (an
 *   onset on three ranks, none of them loaded yet): nothing until the
 *   thread's CPU is loaded, then one big CPU, and still one once the
 *   thread runs there, though the blinks' scorers remember an onset;
 * - one thread the scheduler moves to the big CPU within a sample, half
 *   busy on each (the LITTLE CPU's scorer reads an onset): still one. */
static const struct mp_case {
        struct mp_phase phase[4];
        unsigned nphases;
} mp_cases[] = {
        { { { "0-3", { 1.0f, 0.1f, 0, 0, 0, 0, 0, 0 }, 1, 1 },
            { "0-4", { 0, 0.1f, 0, 0, 0.6f, 0, 0, 0 }, 18, 1 } }, 2 },
        { { { "0-3", { 1, 1, 1, 1, 0, 0, 0, 0 }, 1, 4 },
            { "0-7", { 0.05f, 0, 0, 0, 0.6f, 0.6f, 0.5f, 0.5f }, 18, 4 } }, 2 },
        { { { "0-3", { 1.0f, 0, 0, 0, 0, 0, 0, 0 }, 1, 1 },
            { "0-4", { 1.0f, 0.05f, 0, 0, 0.6f, 0, 0, 0 }, 1, 2 },
            { "0-5", { 0.05f, 0, 0, 0, 0.6f, 0.5f, 0, 0 }, 17, 2 } }, 3 },
        { { { "0-3", { 0.02f, 0.01f, 0, 0.03f, 0, 0, 0, 0 }, 50, 0 } }, 1 },
        { { { "0-7", { 0.02f, 0, 0, 0, 1.0f, 0, 1.0f, 0.5f }, 50, 0 } }, 1 },
        { { { "0-3", { 0, 0, 0, 0, 0, 0, 0, 0 }, 3, 0 },
            { "0-3", { 0.4f, 0.3f, 0.3f, 0, 0, 0, 0, 0 }, 1, 0 },
            { "0-3", { 1.0f, 0, 0, 0, 0, 0, 0, 0 }, 1, 1 },
            { "0-4", { 0, 0, 0, 0, 1.0f, 0, 0, 0 }, 18, 1 } }, 4 },
        { { { "0-3", { 0, 0, 0, 0, 0, 0, 0, 0 }, 3, 0 },
            { "0-3", { 0, 0, 1.0f, 0, 0, 0, 0, 0 }, 1, 1 },
            { "0-4", { 0, 0, 0.5f, 0, 0.5f, 0, 0, 0 }, 1, 1 },
            { "0-4", { 0, 0, 0, 0, 1.0f, 0, 0, 0 }, 18, 1 } }, 4 },
};

START_TEST(test_mp_big_cpus_for_the_threads_that_need_them)
{
        assert_mp_phases(mp_cases[_i].phase, mp_cases[_i].nphases);
}
END_TEST

START_TEST(test_ranked_reasons)
{
        struct bl_engine e;
        struct bl_engine_params p = { .up_pct = 80, .down_pct = 60, .cap_mc = 85000, .release_mc = 80000,
                                      .critical_mc = 95000 };
        struct bl_decision d;
        const double three[] = { 500, 400, 350, 10 };

        setup_mode(BL_MODE_MP);
        engine_init(&e, &ladder, &p, 1);
        engine_switched(&e, 1, 0);
        /* At little+1big the 2nd busiest CPU (400) needs a fast core, and so
         * does the 3rd (350 > 301): little+3big. */
        engine_decide_ranked(&e, three, 4, BL_ENGINE_ANY_LOAD, NULL, TICK, &d);
        ck_assert(d.change);
        ck_assert_uint_eq(d.to, 3);
        ck_assert_str_eq(d.reason, "2nd busiest CPU 400 > 80% of little (377) for 0 ms");
        engine_switched(&e, 3, TICK);
        /* Ranks beyond those given count as 0. */
        engine_decide_ranked(&e, three, 1, BL_ENGINE_ANY_LOAD, NULL, 2 * TICK, &d);
        ck_assert_uint_eq(d.to, 1);
        ck_assert_str_eq(d.reason, "3rd busiest CPU 0 < 60% of little (377) for 0 ms");
}
END_TEST

/* Rule 2b: three ranks ask for a fast CPU each; the sample decides how many
 * get one now. */
START_TEST(test_ranked_climb_bounded_by_loaded_cpus)
{
        struct bl_engine e;
        struct bl_engine_params p = { .up_pct = 80, .down_pct = 60, .climb_loaded = true };
        struct bl_decision d;
        const double three[] = { 500, 400, 350, 10 };

        setup_mode(BL_MODE_MP);
        engine_init(&e, &ladder, &p, 0);
        engine_switched(&e, 0, 0);
        engine_decide_ranked(&e, three, 4, 0, NULL, TICK, &d);
        ck_assert(!d.change);
        ck_assert_int_eq(d.cause, BL_CAUSE_PENDING);
        ck_assert_str_eq(d.reason, "busiest CPU 500 > 80% of little (377) for 0 ms, waiting: 0 CPUs loaded");
        ck_assert_uint_eq(e.pending_to, 1);
        engine_decide_ranked(&e, three, 4, 1, NULL, 2 * TICK, &d);
        ck_assert(d.change);
        ck_assert_uint_eq(d.to, 1);
        engine_switched(&e, 1, 2 * TICK);
        /* One loaded CPU, already on the fast one: no climb. */
        engine_decide_ranked(&e, three, 4, 1, NULL, 3 * TICK, &d);
        ck_assert(!d.change);
        ck_assert_str_eq(d.reason, "2nd busiest CPU 400 > 80% of little (377) for 0 ms, waiting: 1 CPU loaded");
        /* Two more loaded: both. */
        engine_decide_ranked(&e, three, 4, 3, NULL, 4 * TICK, &d);
        ck_assert(d.change);
        ck_assert_uint_eq(d.to, 3);

        /* mp_climb_loaded = no (a policy that pins a level): every rank
         * that asks, with nothing loaded. */
        p.climb_loaded = false;
        engine_init(&e, &ladder, &p, 0);
        engine_switched(&e, 0, 0);
        engine_decide_ranked(&e, three, 4, 0, NULL, TICK, &d);
        ck_assert(d.change);
        ck_assert_uint_eq(d.to, 3);
}
END_TEST

START_TEST(test_reconfigure_keeps_levels)
{
        static const float pair1[8] = { 0, 1.0f, 0, 0, 0, 0, 0, 0 };
        struct bl_controller c;
        struct bl_decision d[4];
        bl_cpumask little = set_of("0-3");

        setup_mode(BL_MODE_PAIR);
        ck_assert_int_eq(controller_init(&c, &ladder, &cfg, 0, 0), 0);
        controller_decide(&c, sample(TICK, &little, pair1), TICK, d);
        controller_switched(&c, d, TICK);
        configure("[policy.pelt]\nhalf_life_ms = 8\n");
        cfg.up_threshold = 90;
        ck_assert_int_eq(controller_reconfigure(&c, &cfg, 0), 0);
        assert_state(&c, 2, "LBLL");
        for (unsigned p = 0; p < 4; p++)
                ck_assert_uint_eq(c.engine[p].p.up_pct, 90);
        controller_done(&c);
}
END_TEST

/* A hold applies at once, every pair; thermal limits win over it; when it
 * ends the automatic choice resumes. */
START_TEST(test_hold_precedence)
{
        static const float idle[8] = { 0 };
        struct bl_controller c;
        struct bl_decision d[4];
        bl_cpumask little = set_of("0-3"), big = set_of("4-7");
        const struct bl_sample *s;

        setup_mode(BL_MODE_PAIR);
        ck_assert_int_eq(controller_init(&c, &ladder, &cfg, 0, 0), 0);
        controller_set_hold(&c, 1, "hold 3 by uid 0 (benchmark)");
        ck_assert_uint_eq(controller_decide(&c, sample(TICK, &little, idle), TICK, d), 4);
        for (unsigned p = 0; p < 4; p++) {
                ck_assert_int_eq(d[p].cause, BL_CAUSE_HOLD);
                ck_assert_str_eq(d[p].reason, "hold 3 by uid 0 (benchmark): big");
        }
        controller_switched(&c, d, TICK);
        assert_state(&c, 15, "BBBB");

        /* The cap wins over the hold. */
        s = sample(2 * TICK, &big, idle);
        buf.s.has_temp = true;
        buf.s.temp_mc = 86000;
        ck_assert_uint_eq(controller_decide(&c, s, 2 * TICK, d), 4);
        ck_assert_int_eq(d[0].cause, BL_CAUSE_THERMAL_CAP);
        controller_switched(&c, d, 2 * TICK);
        s = sample(3 * TICK, &little, idle);
        buf.s.has_temp = true;
        buf.s.temp_mc = 86000;
        ck_assert_uint_eq(controller_decide(&c, s, 3 * TICK, d), 0);
        ck_assert_str_eq(d[0].reason, "hold 3 by uid 0 (benchmark) wants big, held at little: "
                                      "temperature 86.0 C >= cap 85.0 C");

        /* Hold over: idle load goes back to (stays at) little by itself. */
        controller_set_hold(&c, -1, NULL);
        ck_assert_uint_eq(controller_decide(&c, sample(4 * TICK, &little, idle), 4 * TICK, d), 0);
        ck_assert_int_ne(d[0].cause, BL_CAUSE_HOLD);
        controller_set_hold(&c, 7, "out of range");
        ck_assert_int_eq(c.hold_level, -1);
        controller_done(&c);
}
END_TEST

START_TEST(test_init_refuses_an_empty_ladder)
{
        struct bl_controller c;
        struct bl_ladder empty = { .mode = BL_MODE_CLUSTER };

        configure("");
        ck_assert_int_eq(controller_init(&c, &empty, &cfg, 0, 0), -EINVAL);
}
END_TEST

/* A controller on the Exynos topology in 'mode' with 'extra' configured. */
static void idle_setup(struct bl_controller *c, enum bl_mode mode, const char *extra)
{
        exynos();
        ck_assert_int_eq(ladder_build(&ladder, &topo, mode, NULL), 0);
        configure(extra);
        ck_assert_int_eq(controller_init(c, &ladder, &cfg, 0, 0), 0);
}

/* As the daemon runs it: a decision on the sample of the 'interval' ending
 * at 'now', applied, then the time to the next one. */
static bl_usec_t tick(struct bl_controller *c, bl_usec_t now, bl_usec_t interval, const bl_cpumask *online,
                      const float *busy)
{
        struct bl_decision d[4];

        sample(now, online, busy);
        buf.s.interval = interval;
        controller_decide(c, &buf.s, now, d);
        controller_switched(c, d, now);
        return controller_next_interval(c, &buf.s);
}

/* Idle samples of 'online' at 'busy' until 'until'; the time of the last. */
static bl_usec_t run_idle(struct bl_controller *c, bl_usec_t t, bl_usec_t until, const bl_cpumask *online,
                          const float *busy)
{
        bl_usec_t next = c->next_interval;

        while (t + next <= until) {
                t += next;
                next = tick(c, t, next, online, busy);
        }
        return t;
}

/* The longest interval asked for over 8 s of samples of 'online' at 'busy',
 * the engines left as they are. */
static bl_usec_t longest_interval(struct bl_controller *c, const bl_cpumask *online, const float *busy)
{
        bl_usec_t longest = 0, next = 10 * MS;

        for (bl_usec_t t = next; t < 8000 * MS; t += next) {
                sample(t, online, busy);
                buf.s.interval = next;
                next = controller_next_interval(c, &buf.s);
                longest = next > longest ? next : longest;
        }
        return longest;
}

/* Idle for 5 s at the full rate (one sample reading 50% busy, a stray tick,
 * does not matter), then the interval doubles at each idle sample up
 * to idle_sample_interval_ms, and the first sample with a CPU busy 10% of it
 * plus 10 ms brings the full rate back, without a switch. */
START_TEST(test_idle_backs_off_and_returns)
{
        static const float idle[8] = { 0.099f, 0.02f, 0, 0, 0, 0, 0, 0 };
        static const float stray[8] = { 0, 0, 0, 0.5f, 0, 0, 0, 0 };
        static const float below[8] = { 0, 0, 0.19f, 0, 0, 0, 0, 0 };
        static const float some[8] = { 0, 0, 0.21f, 0, 0, 0, 0, 0 };
        static const bl_usec_t backing_off[] = { 20 * MS, 40 * MS, 80 * MS, 100 * MS, 100 * MS, 100 * MS };
        struct bl_controller c;
        bl_cpumask little = set_of("0-3");
        bl_usec_t t, next = 10 * MS;

        idle_setup(&c, BL_MODE_CLUSTER, "[daemon]\nsample_interval_ms = 10\nidle_sample_interval_ms = 100\n");

        ck_assert_uint_eq(tick(&c, 10 * MS, 10 * MS, &little, stray), 10 * MS);
        for (t = 20 * MS; t < 5000 * MS; t += 10 * MS)
                ck_assert_uint_eq(tick(&c, t, 10 * MS, &little, idle), 10 * MS);
        for (unsigned i = 0; i < sizeof(backing_off) / sizeof(backing_off[0]); i++) {
                ck_assert_uint_eq(tick(&c, t, next, &little, idle), backing_off[i]);
                next = backing_off[i];
                t += next;
        }
        ck_assert_uint_eq(tick(&c, t, 100 * MS, &little, below), 100 * MS);
        t += 100 * MS;
        ck_assert_uint_eq(tick(&c, t, 100 * MS, &little, some), 10 * MS);
        assert_state(&c, 0, "little");
        /* A new window of 5 s before backing off again. */
        t += 10 * MS;
        ck_assert_uint_eq(tick(&c, t, 10 * MS, &little, idle), 10 * MS);
        t = run_idle(&c, t, t + 4980 * MS, &little, idle);
        ck_assert_uint_eq(c.next_interval, 10 * MS);
        t = run_idle(&c, t, t + 10 * MS, &little, idle);
        ck_assert_uint_eq(c.next_interval, 20 * MS);

        /* A switch up is load too. */
        t = run_idle(&c, t, t + 2000 * MS, &little, idle);
        ck_assert_uint_eq(c.next_interval, 100 * MS);
        t += 100 * MS;
        ck_assert_uint_eq(tick(&c, t, 100 * MS, &little, (const float[8]){ 0.9f }), 10 * MS);
        assert_state(&c, 1, "big");

        /* A reload starts again at the full rate. */
        c.engine[0].level = 0;
        t = run_idle(&c, t, t + 7000 * MS, &little, idle);
        ck_assert_uint_eq(c.next_interval, 100 * MS);
        ck_assert_int_eq(controller_reconfigure(&c, &cfg, 0), 0);
        ck_assert_uint_eq(c.next_interval, 10 * MS);
        ck_assert_uint_eq(tick(&c, t + 100 * MS, 100 * MS, &little, idle), 10 * MS);
        controller_done(&c);
}
END_TEST

/* A wake (a CPU switching tasks while backed off, sources/activity.h) ends
 * the back-off though the sample it cuts short reads idle: the full rate,
 * and a new window of 5 s before backing off again. At the full rate a
 * wake changes nothing. */
START_TEST(test_idle_woken)
{
        static const float idle[8] = { 0.02f, 0, 0, 0, 0, 0, 0, 0 };
        struct bl_controller c;
        bl_cpumask little = set_of("0-3");
        bl_usec_t t;

        idle_setup(&c, BL_MODE_CLUSTER, "[daemon]\nsample_interval_ms = 10\nidle_sample_interval_ms = 100\n");
        controller_woken(&c);
        ck_assert_uint_eq(tick(&c, 10 * MS, 10 * MS, &little, idle), 10 * MS);
        t = run_idle(&c, 10 * MS, 7000 * MS, &little, idle);
        ck_assert_uint_eq(c.next_interval, 100 * MS);
        /* Not woken: still backed off. */
        t += 100 * MS;
        ck_assert_uint_eq(tick(&c, t, 100 * MS, &little, idle), 100 * MS);
        /* Woken 30 ms into a sample: decided on those 30 ms, then the full rate. */
        controller_woken(&c);
        t += 30 * MS;
        ck_assert_uint_eq(tick(&c, t, 30 * MS, &little, idle), 10 * MS);
        assert_state(&c, 0, "little");
        t = run_idle(&c, t, t + 4990 * MS, &little, idle);
        ck_assert_uint_eq(c.next_interval, 10 * MS);
        t = run_idle(&c, t, t + 20 * MS, &little, idle);
        ck_assert_uint_eq(c.next_interval, 20 * MS);
        /* Told once: the wake does not carry over to a later sample. */
        t = run_idle(&c, t, t + 2000 * MS, &little, idle);
        ck_assert_uint_eq(c.next_interval, 100 * MS);
        controller_done(&c);
}
END_TEST

/* Nothing backs off while a CPU is busy 10% of the window, a hold is in
 * force, a level above the lowest runs, a move waits for its delay, or a
 * thermal limit holds; nor when it is off (0). The defaults: every 10 ms,
 * idle every 1000 ms. */
START_TEST(test_idle_never_backs_off_when_watched)
{
        static const float idle[8] = { 0 };
        static const float busy10[8] = { 0, 0, 0, 0.10f, 0, 0, 0, 0 };
        struct bl_controller c;
        bl_cpumask little = set_of("0-3"), big = set_of("4-7");

        idle_setup(&c, BL_MODE_CLUSTER, "");
        ck_assert_uint_eq(longest_interval(&c, &little, busy10), 10 * MS);
        ck_assert_uint_eq(longest_interval(&c, &little, idle), 1000 * MS);

        controller_set_hold(&c, 0, "hold 0");
        ck_assert_uint_eq(longest_interval(&c, &little, idle), 10 * MS);
        controller_set_hold(&c, -1, NULL);

        c.engine[0].level = 1;
        ck_assert_uint_eq(longest_interval(&c, &big, idle), 10 * MS);
        c.engine[0].level = 0;

        c.engine[0].pending_dir = 1;
        ck_assert_uint_eq(longest_interval(&c, &little, idle), 10 * MS);
        c.engine[0].pending_dir = 0;

        c.engine[0].capped = true;
        ck_assert_uint_eq(longest_interval(&c, &little, idle), 10 * MS);
        c.engine[0].capped = false;
        c.engine[0].critical = true;
        ck_assert_uint_eq(longest_interval(&c, &little, idle), 10 * MS);
        c.engine[0].critical = false;

        ck_assert_uint_eq(longest_interval(&c, &little, idle), 1000 * MS);
        configure("[daemon]\nsample_interval_ms = 10\nidle_sample_interval_ms = 0\n");
        ck_assert_int_eq(controller_reconfigure(&c, &cfg, 0), 0);
        ck_assert_uint_eq(longest_interval(&c, &little, idle), 10 * MS);
        controller_done(&c);
}
END_TEST

/* In pair mode one pair on big is enough to keep the full rate. */
START_TEST(test_idle_pair_mode)
{
        static const float idle[8] = { 0 };
        struct bl_controller c;
        bl_cpumask little = set_of("0-3"), mixed = set_of("0,1,3,6");

        idle_setup(&c, BL_MODE_PAIR, "[daemon]\nidle_sample_interval_ms = 500\n");
        c.engine[2].level = 1;
        ck_assert_uint_eq(longest_interval(&c, &mixed, idle), 10 * MS);
        c.engine[2].level = 0;
        ck_assert_uint_eq(longest_interval(&c, &little, idle), 500 * MS);
        controller_done(&c);
}
END_TEST

/* A load that climbs and falls: every kind of decision of the engine. */
static const float *wave(unsigned i)
{
        static float busy[8];
        const unsigned heavy = (i / 8) % 5;     /* 0-4 busy CPUs, each phase 8 ticks */

        for (unsigned cpu = 0; cpu < 8; cpu++)
                busy[cpu] = cpu % 4 < heavy ? 0.95f : 0.05f;
        return busy;
}

/* Where neither power-profiles-daemon nor UPower runs, the profile model
 * gives the effect of unknown inputs: the decisions are those of a
 * controller never told of a profile, in every mode. */
START_TEST(test_profile_unknown_changes_nothing)
{
        static const enum bl_mode modes[] = { BL_MODE_CLUSTER, BL_MODE_PAIR, BL_MODE_MP };
        const struct bl_desktop nothing = { .profile = BL_PPD_UNKNOWN, .battery = BL_BATTERY_UNKNOWN };

        for (unsigned m = 0; m < 3; m++) {
                struct bl_controller plain, told;
                struct bl_decision a[4], b[4];
                struct bl_profile_effect e;
                bl_cpumask online = set_of("0-7");
                unsigned switches = 0;

                setup_mode(modes[m]);
                ck_assert_int_eq(controller_init(&plain, &ladder, &cfg, 0, 0), 0);
                ck_assert_int_eq(controller_init(&told, &ladder, &cfg, 0, 0), 0);
                for (unsigned i = 1; i <= 200; i++) {
                        bl_usec_t now = i * TICK;

                        profile_effect(cfg.profiles, &ladder, &nothing, &e);
                        controller_set_profile(&told, &e);
                        controller_decide(&plain, sample(now, &online, wave(i)), now, a);
                        controller_decide(&told, sample(now, &online, wave(i)), now, b);
                        for (unsigned p = 0; p < plain.nengines; p++) {
                                ck_assert_uint_eq(a[p].to, b[p].to);
                                ck_assert_int_eq(a[p].change, b[p].change);
                                ck_assert_int_eq(a[p].cause, b[p].cause);
                                ck_assert_str_eq(a[p].reason, b[p].reason);
                                switches += a[p].change;
                        }
                        controller_switched(&plain, a, now);
                        controller_switched(&told, b, now);
                }
                /* The load moved the levels, so the comparison saw switches. */
                ck_assert_uint_ge(switches, 10);
                controller_done(&plain);
                controller_done(&told);
        }
}
END_TEST

START_TEST(test_profile_cap_bias_and_hold)
{
        static const float busy[8] = { 0.95f, 0, 0, 0, 0, 0, 0, 0 };
        static const float some[8] = { 0.8f, 0, 0, 0, 0, 0, 0, 0 };
        struct bl_profile_effect cap = { .cap = 0 }, bias = { .cap = -1, .bias_pct = 10 },
                                 top = { .cap = -1, .hold_top = true }, none = { .cap = -1 };
        struct bl_controller c;
        struct bl_decision d[1];
        bl_cpumask little = set_of("0-3"), big = set_of("4-7");

        snprintf(cap.who, sizeof(cap.who), "profile power-saver");
        snprintf(top.who, sizeof(top.who), "profile performance");
        setup_mode(BL_MODE_CLUSTER);
        ck_assert_int_eq(controller_init(&c, &ladder, &cfg, 0, 0), 0);
        ck_assert_uint_eq(controller_decide(&c, sample(TICK, &little, busy), TICK, d), 1);
        controller_switched(&c, d, TICK);
        assert_state(&c, 1, "big");

        /* The cap takes big away at once, and keeps it away. */
        controller_set_profile(&c, &cap);
        ck_assert_uint_eq(controller_decide(&c, sample(2 * TICK, &big, busy), 2 * TICK, d), 1);
        ck_assert_int_eq(d[0].cause, BL_CAUSE_PROFILE);
        ck_assert_str_eq(d[0].reason, "profile power-saver: highest level little");
        controller_switched(&c, d, 2 * TICK);
        ck_assert_uint_eq(controller_decide(&c, sample(3 * TICK, &little, busy), 3 * TICK, d), 0);
        ck_assert_int_eq(d[0].cause, BL_CAUSE_PROFILE);
        ck_assert_str_eq(d[0].reason, "demand 358 > 80% of little (377), held at little: profile power-saver");

        /* A person's hold is not capped. */
        controller_set_hold(&c, 1, "hold 1 by uid 0");
        ck_assert_uint_eq(controller_decide(&c, sample(4 * TICK, &little, busy), 4 * TICK, d), 1);
        ck_assert_int_eq(d[0].cause, BL_CAUSE_HOLD);
        controller_switched(&c, d, 4 * TICK);
        controller_set_hold(&c, -1, NULL);

        /* The bias: 80% + 10 points; 0.8 x 377 = 302 < 90% of 377 goes down. */
        controller_set_profile(&c, &bias);
        ck_assert_uint_eq(c.engine[0].p.up_pct, 90);
        ck_assert_uint_eq(c.engine[0].p.down_pct, 70);
        ck_assert_uint_eq(controller_decide(&c, sample(5 * TICK, &big, some), 5 * TICK, d), 1);
        ck_assert_uint_eq(d[0].to, 0);
        controller_switched(&c, d, 5 * TICK);
        /* 302 > 80% of 377 would go up without the bias. */
        ck_assert_uint_eq(controller_decide(&c, sample(6 * TICK, &little, some), 6 * TICK, d), 0);

        /* The profile's hold of the top level, and a person's over it. */
        controller_set_profile(&c, &top);
        ck_assert_uint_eq(c.engine[0].p.up_pct, 80);
        ck_assert_uint_eq(controller_decide(&c, sample(7 * TICK, &little, some), 7 * TICK, d), 1);
        ck_assert_int_eq(d[0].cause, BL_CAUSE_HOLD);
        ck_assert_str_eq(d[0].reason, "profile performance: big");
        controller_switched(&c, d, 7 * TICK);
        controller_set_hold(&c, 0, "hold 2 by uid 1000");
        ck_assert_uint_eq(controller_decide(&c, sample(8 * TICK, &big, some), 8 * TICK, d), 1);
        ck_assert_str_eq(d[0].reason, "hold 2 by uid 1000: little");
        controller_switched(&c, d, 8 * TICK);
        controller_set_hold(&c, -1, NULL);
        ck_assert_int_eq(c.hold_level, 1);
        controller_set_profile(&c, &none);
        ck_assert_int_eq(c.hold_level, -1);
        controller_done(&c);
}
END_TEST

static Suite *controller_suite(void)
{
        Suite *s = suite_create("controller");
        TCase *tc = tcase_create("modes");

        tcase_add_test(tc, test_cluster_mode);
        tcase_add_test(tc, test_broken_heuristic_said_once);
        tcase_add_test(tc, test_heuristics_told_the_switch_up);
        tcase_add_test(tc, test_pair_mode_switches_one_pair);
        tcase_add_test(tc, test_pair_mode_sees_only_its_pair);
        tcase_add_test(tc, test_pair_mode_thermal_caps_every_pair);
        tcase_add_test(tc, test_mp_mode_adds_one_big_per_heavy_cpu);
        tcase_add_test(tc, test_mp_mode_drops_the_big_cores_no_longer_needed);
        tcase_add_test(tc, test_mp_mode_all);
        tcase_add_loop_test(tc, test_mp_big_cpus_for_the_threads_that_need_them, 0,
                            sizeof(mp_cases) / sizeof(mp_cases[0]));
        tcase_add_test(tc, test_ranked_reasons);
        tcase_add_test(tc, test_ranked_climb_bounded_by_loaded_cpus);
        tcase_add_test(tc, test_reconfigure_keeps_levels);
        tcase_add_test(tc, test_init_refuses_an_empty_ladder);
        tcase_add_test(tc, test_hold_precedence);
        tcase_add_test(tc, test_profile_unknown_changes_nothing);
        tcase_add_test(tc, test_profile_cap_bias_and_hold);
        tcase_add_test(tc, test_idle_backs_off_and_returns);
        tcase_add_test(tc, test_idle_woken);
        tcase_add_test(tc, test_idle_never_backs_off_when_watched);
        tcase_add_test(tc, test_idle_pair_mode);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(controller_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
