/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The classic policies as heuristics, run through the scorer and the engine
 * with their blsim presets, on hand-made samples: which level each decision
 * leaves the system on, for steps and ramps of work. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "core/scorer.h"
#include "policy/builtin.h"
#include "sim/presets.h"

#define LITTLE_TOP 377
#define MID_TOP 700
#define BIG_TOP 1024
#define NOPPS 4
#define TRACE_MAX 256

/* A board the test plays the kernel of: 4 little CPUs (0-3) and 4 big ones
 * (4-7), or 4 little, 2 mid (4-5) and 2 big (6-7). Each cluster has four
 * OPPs at a quarter, half, three quarters and all of its top, and runs at the
 * lowest one with 25% headroom over its busiest CPU, as blsim does. */
struct rig {
        struct bl_topology topo;
        struct bl_ladder ladder;
        struct bl_config cfg;
        struct bl_scorer scorer;
        struct bl_engine engine;
        bl_usec_t interval;
        bl_usec_t now;
        unsigned level;
        double demand;                  /* the last one */
        char trace[TRACE_MAX];          /* the level after each decision */
        size_t ntrace;
};

static void build_ladder(struct rig *r, unsigned nclusters)
{
        struct bl_cpu_info cpus[8];

        for (unsigned i = 0; i < 8; i++) {
                unsigned cap = i < 4 ? LITTLE_TOP : nclusters == 3 && i < 6 ? MID_TOP : BIG_TOP;

                cpus[i] = (struct bl_cpu_info){
                        .present = true,
                        .online = true,
                        .can_offline = i > 0,
                        .capacity = (int)cap,
                        .max_freq_khz = -1,
                        .policy = i < 4 ? 0 : nclusters == 3 ? (i < 6 ? 4 : 6) : 4,
                        .policy_size = i < 4 ? 4 : nclusters == 3 ? 2 : 4,
                        .cluster_id = -1,
                };
        }
        ck_assert_int_eq(topology_build(&r->topo, cpus, 8), 0);
        ck_assert_uint_eq(r->topo.nclusters, nclusters);
        ck_assert_int_eq(ladder_build(&r->ladder, &r->topo, BL_MODE_CLUSTER, NULL), 0);
        ck_assert_uint_eq(r->ladder.nlevels, nclusters);
}

/* The preset's configuration, then 'extra' on top as a drop-in would be. */
static struct rig *rig_start(const char *preset, const char *extra, unsigned nclusters, unsigned level)
{
        const struct sim_preset *p = preset_find(preset);
        struct bl_engine_params params;
        struct bl_diag diag;
        struct rig *r;

        ck_assert_ptr_nonnull(p);
        r = calloc(1, sizeof(*r));
        ck_assert_ptr_nonnull(r);
        build_ladder(r, nclusters);
        diag_init(&diag);
        ck_assert_int_eq(preset_config(p, &r->cfg, &diag), 0);
        if (extra) {
                ck_assert_uint_eq(config_parse(&r->cfg, policy_builtin, "extra.conf", extra, strlen(extra),
                                               &diag), 0);
                ck_assert_uint_eq(config_validate(&r->cfg, &diag), 0);
        }
        ck_assert_uint_eq(diag_count(&diag), 0);
        /* What the rig's samples hold, as in blsim: pressure, no counters. */
        ck_assert_int_eq(scorer_init(&r->scorer, &r->cfg, BL_NEEDS_PRESSURE), 0);
        ck_assert_uint_eq(r->scorer.nenabled, r->scorer.n);
        engine_params_from_config(&params, &r->cfg);
        engine_init(&r->engine, &r->ladder, &params, level);
        engine_switched(&r->engine, level, 0);
        r->level = level;
        r->interval = (bl_usec_t)r->cfg.sample_interval_ms * BL_USEC_PER_MSEC;
        return r;
}

static void rig_done(struct rig *r)
{
        scorer_done(&r->scorer);
        free(r);
}

static unsigned level_top(const struct rig *r, unsigned level)
{
        return r->ladder.levels[level].capacity;
}

/* One interval on the current level: lane i's work (capacity units: what a
 * CPU of capacity 1 would need per unit of time x capacity) runs on the
 * level's i-th CPU, the others idle. Then the decision, applied at once. */
static unsigned step_lanes(struct rig *r, const double *work, unsigned nlanes)
{
        const struct bl_level *lv = &r->ladder.levels[r->level];
        const unsigned top = level_top(r, r->level);
        struct bl_sample_buf smp;
        struct bl_decision d;
        double peak = 0.0;
        unsigned opp, lane = 0;

        for (unsigned i = 0; i < nlanes; i++)
                if (work[i] > peak)
                        peak = work[i];
        for (opp = 1; opp < NOPPS; opp++)
                if ((double)top * opp / NOPPS >= 1.25 * peak)
                        break;

        sample_buf_init(&smp, 8);
        r->now += r->interval;
        smp.s.now = r->now;
        smp.s.interval = r->interval;
        sample_set_online(&smp, &lv->cpus);
        smp.s.has_pressure = true;
        for (unsigned cpu = 0; cpu < 8; cpu++) {
                double capacity = (double)top * opp / NOPPS;
                double w;

                if (!cpumask_isset(&lv->cpus, cpu))
                        continue;
                w = lane < nlanes ? work[lane] : 0.0;
                lane++;
                smp.cpu[cpu].capacity = (uint16_t)capacity;
                smp.cpu[cpu].max_capacity = (uint16_t)top;
                smp.cpu[cpu].busy = (float)(w < capacity ? w / smp.cpu[cpu].capacity : 1.0);
                if (w > capacity)
                        smp.s.pressure = 1.0;
        }

        r->demand = scorer_score(&r->scorer, &smp.s, r->now);
        engine_decide(&r->engine, r->demand, NULL, r->now, &d);
        if (d.change) {
                engine_switched(&r->engine, d.to, r->now);
                r->level = d.to;
        }
        ck_assert_uint_lt(r->ntrace + 1, TRACE_MAX);
        r->trace[r->ntrace++] = (char)('0' + r->level);
        r->trace[r->ntrace] = '\0';
        return r->level;
}

static unsigned step(struct rig *r, double work)
{
        return step_lanes(r, &work, 1);
}

/* 'n' intervals of the same work on lane 0. */
static void steps(struct rig *r, double work, unsigned n)
{
        for (unsigned i = 0; i < n; i++)
                step(r, work);
}

/* config_parse() of a text, with the built-in heuristics. */
static unsigned parse(struct bl_config *cfg, const char *filename, const char *text, struct bl_diag *diag)
{
        return config_parse(cfg, policy_builtin, filename, text, strlen(text), diag);
}

#define assert_trace(r, expected) \
        ck_assert_msg(strcmp((r)->trace, (expected)) == 0, "levels %s, expected %s (last demand %.1f)", \
                      (r)->trace, (expected), (r)->demand)

/* --- presets --- */

START_TEST(test_preset_names)
{
        static const char *const names[] = { "default", "util", "pelt", "psi", "trend", "ondemand",
                                             "conservative", "interactive", "hmp", "exynos5410", "always-big",
                                             "always-little" };
        unsigned n = 0;

        for (const struct sim_preset *p = sim_presets; p->name; p++) {
                ck_assert_uint_lt(n, sizeof(names) / sizeof(names[0]));
                ck_assert_str_eq(p->name, names[n]);
                ck_assert_ptr_nonnull(p->summary);
                ck_assert_ptr_nonnull(p->config_text);
                ck_assert_ptr_eq(preset_find(names[n]), p);
                n++;
        }
        ck_assert_uint_eq(n, sizeof(names) / sizeof(names[0]));
        ck_assert_ptr_null(preset_find("Ondemand"));
        ck_assert_ptr_null(preset_find("ipc"));
        ck_assert_ptr_null(preset_find(""));
        ck_assert_ptr_null(preset_find(NULL));
}
END_TEST

/* A heuristic's preset is the shipped configuration with only that
 * heuristic and the thresholds 80/60, which a busy x capacity score can
 * pass (heuristic_presets_switch in check_simrun runs them). */
START_TEST(test_preset_heuristics_keep_the_shipped_engine)
{
        static const char *const names[] = { "util", "pelt", "psi", "trend" };
        struct bl_config shipped, cfg;
        struct bl_diag diag;

        config_init(&shipped, policy_builtin);
        for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
                diag_init(&diag);
                ck_assert_int_eq(preset_config(preset_find(names[i]), &cfg, &diag), 0);
                ck_assert_uint_eq(cfg.nheuristics, 1);
                ck_assert_str_eq(cfg.heuristics[0].name, names[i]);
                ck_assert_uint_eq(cfg.up_threshold, 80);
                ck_assert_uint_eq(cfg.down_threshold, 60);
                ck_assert_uint_eq(cfg.up_delay_ms, shipped.up_delay_ms);
                ck_assert_uint_eq(cfg.down_delay_ms, shipped.down_delay_ms);
                ck_assert_uint_eq(cfg.min_residency_ms, shipped.min_residency_ms);
                ck_assert_uint_eq(cfg.sample_interval_ms, shipped.sample_interval_ms);
        }
}
END_TEST

START_TEST(test_preset_default_is_shipped)
{
        struct bl_config shipped, cfg;
        struct bl_diag diag;

        config_init(&shipped, policy_builtin);
        diag_init(&diag);
        ck_assert_str_eq(preset_find("default")->config_text, "");
        ck_assert_int_eq(preset_config(preset_find("default"), &cfg, &diag), 0);
        ck_assert_uint_eq(cfg.nheuristics, shipped.nheuristics);
        ck_assert_str_eq(cfg.heuristics[0].name, shipped.heuristics[0].name);
        ck_assert_uint_eq(cfg.sample_interval_ms, shipped.sample_interval_ms);
        ck_assert_uint_eq(cfg.up_threshold, shipped.up_threshold);
        ck_assert_uint_eq(cfg.down_threshold, shipped.down_threshold);
        ck_assert_uint_eq(cfg.up_delay_ms, shipped.up_delay_ms);
        ck_assert_uint_eq(cfg.down_delay_ms, shipped.down_delay_ms);
        ck_assert_uint_eq(cfg.min_residency_ms, shipped.min_residency_ms);
        ck_assert_uint_eq(cfg.max_switch_rate_hz, shipped.max_switch_rate_hz);
}
END_TEST

START_TEST(test_preset_baselines_pass_through)
{
        static const struct {
                const char *name;
                unsigned interval_ms;
        } expect[] = {
                { "ondemand", 20 }, { "conservative", 20 }, { "interactive", 20 }, { "hmp", 10 },
                { "exynos5410", 20 }, { "always-big", 20 }, { "always-little", 20 },
        };

        for (unsigned i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
                const struct sim_preset *p = preset_find(expect[i].name);
                struct bl_config cfg;
                struct bl_diag diag;

                ck_assert_ptr_nonnull(p);
                diag_init(&diag);
                ck_assert_int_eq(preset_config(p, &cfg, &diag), 0);
                ck_assert_uint_eq(diag_count(&diag), 0);
                ck_assert_uint_eq(cfg.nheuristics, 1);
                ck_assert_str_eq(cfg.heuristics[0].name, expect[i].name);
                ck_assert_ptr_eq(cfg.heuristics[0].ops, heuristic_find(policy_builtin, expect[i].name));
                ck_assert_uint_eq(cfg.sample_interval_ms, expect[i].interval_ms);
                ck_assert_uint_eq(cfg.up_threshold, 100);
                ck_assert_uint_eq(cfg.down_threshold, 99);
                ck_assert_uint_eq(cfg.up_delay_ms, 0);
                ck_assert_uint_eq(cfg.down_delay_ms, 0);
                ck_assert_uint_eq(cfg.min_residency_ms, 0);
                ck_assert_uint_eq(cfg.max_switch_rate_hz, 0);
                /* The heuristic runs at its kernel defaults. */
                for (unsigned k = 0; k < cfg.heuristics[0].ops->nparams; k++) {
                        const struct bl_policy_param *param = &cfg.heuristics[0].ops->params[k];

                        ck_assert_double_eq(cfg.heuristics[0].params[k], param->def);
                }
        }
}
END_TEST

START_TEST(test_preset_problems_name_the_preset)
{
        static const struct sim_preset broken = {
                "broken", "a preset with mistakes",
                "[policy]\nheuristics = ondemand\n[hysteresis]\nup_threshold = 50\ndown_threshold = 60\n"
                "[policy.ondemand]\nup_threshold = 5\n",
        };
        struct bl_config cfg;
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_int_eq(preset_config(&broken, &cfg, &diag), 2);
        ck_assert_uint_eq(diag.n, 2);
        ck_assert_str_eq(diag.msg[0],
                         "preset:broken:7: up_threshold: expected an integer 11-100 (%), got \"5\"");
        ck_assert_str_eq(diag.msg[1], "preset:broken:5: down_threshold: must be below up_threshold "
                         "(50, set at preset:broken:4), got \"60\"");
}
END_TEST

/* --- configuration of the baselines --- */

START_TEST(test_builtin_order)
{
        static const char *const names[] = { "util", "pelt", "psi", "trend", "ipc", "headroom", "always-big",
                                             "always-little", "ondemand", "conservative", "interactive",
                                             "hmp", "exynos5410" };
        unsigned n = 0;

        for (; policy_builtin[n]; n++) {
                ck_assert_uint_lt(n, sizeof(names) / sizeof(names[0]));
                ck_assert_str_eq(policy_builtin[n]->name, names[n]);
                ck_assert_uint_eq(policy_builtin[n]->abi, BL_POLICY_ABI);
                ck_assert_ptr_nonnull(policy_builtin[n]->summary);
                ck_assert_uint_le(policy_builtin[n]->nparams, BL_POLICY_MAX_PARAMS);
        }
        ck_assert_uint_eq(n, sizeof(names) / sizeof(names[0]));
}
END_TEST

/* Section names with '-' are heuristic names like any other. */
START_TEST(test_dashed_sections)
{
        static const char text[] = "[policy]\nheuristics = always-little\n"
                                   "[policy.always-big]\nweight = 2\n"
                                   "[policy.always-little]\nweight = 3\n";
        struct bl_config cfg;
        struct bl_diag diag;

        config_init(&cfg, policy_builtin);
        diag_init(&diag);
        ck_assert_uint_eq(parse(&cfg, "dash.conf", text, &diag), 0);
        ck_assert_uint_eq(cfg.nheuristics, 1);
        ck_assert_ptr_eq(cfg.heuristics[0].ops, &heuristic_always_little);
        ck_assert_double_eq(cfg.heuristics[0].weight, 3);

        ck_assert_uint_eq(parse(&cfg, "dash.conf", "[policy.always-big]\nkey = 1\n", &diag), 1);
        ck_assert_str_eq(diag.msg[0], "dash.conf:2: [policy.always-big]: unknown key \"key\"");
}
END_TEST

/* Every parameter of every baseline can be set from a file, lands in the
 * selected heuristic's parameters, and is refused just outside its range. */
START_TEST(test_every_param_configurable)
{
        unsigned first = 0;

        /* The baselines are always-big and what follows it in the table. */
        while (policy_builtin[first] && policy_builtin[first] != &heuristic_always_big)
                first++;
        ck_assert_ptr_nonnull(policy_builtin[first]);
        for (unsigned h = first; policy_builtin[h]; h++) {
                const struct bl_heuristic_ops *ops = policy_builtin[h];

                for (unsigned k = 0; k < ops->nparams; k++) {
                        const struct bl_policy_param *param = &ops->params[k];
                        double value = param->def < param->max ? param->def + 1 : param->def - 1;
                        char text[256], expected[BL_DIAG_LEN];
                        struct bl_config cfg;
                        struct bl_diag diag;

                        ck_assert(param->integer);
                        snprintf(text, sizeof(text), "[policy]\nheuristics = %s\n[policy.%s]\n%s = %.0f\n",
                                 ops->name, ops->name, param->key, value);
                        config_init(&cfg, policy_builtin);
                        diag_init(&diag);
                        ck_assert_msg(parse(&cfg, "p.conf", text, &diag) == 0, "%s: %s", text,
                                      diag.n ? diag.msg[0] : "");
                        ck_assert_ptr_eq(cfg.heuristics[0].ops, ops);
                        for (unsigned j = 0; j < ops->nparams; j++) {
                                double expect = j == k ? value : ops->params[j].def;

                                ck_assert_double_eq(cfg.heuristics[0].params[j], expect);
                        }

                        snprintf(text, sizeof(text), "[policy.%s]\n%s = %.0f\n", ops->name, param->key,
                                 param->max + 1);
                        ck_assert_uint_eq(parse(&cfg, "p.conf", text, &diag), 1);
                        snprintf(expected, sizeof(expected),
                                 "p.conf:2: %s: expected an integer %.0f-%.0f (%s), got \"%.0f\"", param->key,
                                 param->min, param->max, param->unit, param->max + 1);
                        ck_assert_str_eq(diag.msg[0], expected);
                }
        }
}
END_TEST

/* Rules across parameters that the descriptor cannot state: init refuses. */
START_TEST(test_init_refuses_crossed_thresholds)
{
        static const struct {
                const char *name, *text;
        } bad[] = {
                { "conservative", "[policy.conservative]\nup_threshold = 30\ndown_threshold = 30\n" },
                { "hmp", "[policy.hmp]\nup_threshold = 500\ndown_threshold = 512\n" },
                { "exynos5410", "[policy.exynos5410]\nup_virtual_mhz = 2000\n" },
                { "exynos5410", "[policy.exynos5410]\ndown_virtual_mhz = 2001\n" },
                { "exynos5410", "[policy.exynos5410]\nup_threshold = 20\ndown_differential = 20\n" },
        };

        for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                struct bl_config cfg;
                struct bl_scorer scorer;
                struct bl_diag diag;

                diag_init(&diag);
                ck_assert_int_eq(preset_config(preset_find(bad[i].name), &cfg, &diag), 0);
                ck_assert_uint_eq(parse(&cfg, "x.conf", bad[i].text, &diag), 0);
                ck_assert_int_eq(scorer_init(&scorer, &cfg, BL_NEEDS_PRESSURE), -EINVAL);
                scorer_done(&scorer);
        }
}
END_TEST

/* --- always-big, always-little --- */

START_TEST(test_always_big)
{
        struct rig *r = rig_start("always-big", NULL, 2, 0);

        steps(r, 0, 3);
        steps(r, 1000, 2);
        assert_trace(r, "11111");
        rig_done(r);

        r = rig_start("always-big", NULL, 3, 0);
        steps(r, 0, 2);
        assert_trace(r, "22");
        rig_done(r);
}
END_TEST

START_TEST(test_always_little)
{
        struct rig *r = rig_start("always-little", NULL, 2, 1);

        steps(r, 1000, 3);
        steps(r, 0, 2);
        assert_trace(r, "00000");
        ck_assert_double_eq(r->demand, 0);
        rig_done(r);

        r = rig_start("always-little", NULL, 3, 2);
        steps(r, 1000, 2);
        assert_trace(r, "00");
        rig_done(r);
}
END_TEST

/* --- ondemand --- */

/* A load above up_threshold goes to the top at once; a load that fits
 * little comes straight back. */
START_TEST(test_ondemand_step)
{
        struct rig *r = rig_start("ondemand", NULL, 2, 0);

        steps(r, 0, 2);
        steps(r, 600, 4);
        steps(r, 0, 2);
        assert_trace(r, "00111100");
        rig_done(r);
}
END_TEST

/* Idle, then 16 at the bottom (51): the target, 356, stays little. There
 * 300 is an 84% load: the proportional target (870) goes big and the next
 * one, 386, stays there; with up_threshold = 80 the target is the top, and
 * the next one, 336, fits little. */
static void ondemand_84_percent(struct rig *r)
{
        steps(r, 0, 2);
        step(r, 16);
        ck_assert_double_eq_tol(r->demand, 51 + 973 * 16.0 / 51, 1e-3);
        steps(r, 300, 2);
}

START_TEST(test_ondemand_up_threshold_configurable)
{
        struct rig *r = rig_start("ondemand", NULL, 2, 0);

        ondemand_84_percent(r);
        assert_trace(r, "000" "11");
        ck_assert_double_eq_tol(r->demand, 386.4, 0.1);
        rig_done(r);

        r = rig_start("ondemand", "[policy.ondemand]\nup_threshold = 80\n", 2, 0);
        ondemand_84_percent(r);
        assert_trace(r, "000" "10");
        ck_assert_double_eq_tol(r->demand, 51 + 973 * 300.0 / 1024, 1e-3);
        rig_done(r);

        /* A bottom of 0: 16 at 0 is a full load. */
        r = rig_start("ondemand", "[policy.ondemand]\nmin_freq = 0\n", 2, 0);
        steps(r, 0, 2);
        step(r, 16);
        assert_trace(r, "001");
        rig_done(r);
}
END_TEST

/* After a jump to the top, sampling_down_factor samples pass before the
 * load is looked at again. */
START_TEST(test_ondemand_sampling_down_factor)
{
        struct rig *r = rig_start("ondemand", NULL, 2, 0);

        step(r, 0);
        step(r, 600);
        steps(r, 0, 3);
        assert_trace(r, "01000");
        rig_done(r);

        r = rig_start("ondemand", "[policy.ondemand]\nsampling_down_factor = 3\n", 2, 0);
        step(r, 0);
        step(r, 600);
        steps(r, 0, 3);
        assert_trace(r, "01110");
        rig_done(r);
}
END_TEST

/* A steady light load: the target is proportional to a load measured at
 * the previous target, so it swings across the little/big boundary while
 * closing in on the fixed point f = 51 + 973 x 100 / f = 338.5, on little. */
START_TEST(test_ondemand_swings_then_settles)
{
        struct rig *r = rig_start("ondemand", NULL, 2, 0);

        step(r, 0);
        steps(r, 100, 40);
        ck_assert_msg(strncmp(r->trace, "0101010101", 10) == 0, "levels %s", r->trace);
        ck_assert_msg(strcmp(r->trace + 26, "000000000000000") == 0, "levels %s", r->trace);
        ck_assert_double_eq_tol(r->demand, 338.5, 1.0);
        rig_done(r);
}
END_TEST

/* A ramp of 10 per sample: each target is proportional to the load at the
 * last one (51, 242, 131, 273, 194, 302, 245, 330, 287, 356, 324, 381), so
 * the level goes up at 110, and the next target (357) comes back. */
START_TEST(test_ondemand_ramp)
{
        struct rig *r = rig_start("ondemand", NULL, 2, 0);

        for (unsigned i = 0; i <= 12; i++)
                step(r, 10.0 * i);
        assert_trace(r, "00000000000" "1" "0");
        rig_done(r);
}
END_TEST

/* Three clusters: a target at the top skips the middle, a target the middle
 * covers lands there. */
START_TEST(test_ondemand_three_clusters)
{
        struct rig *r = rig_start("ondemand", NULL, 3, 0);

        step(r, 0);
        step(r, 1000);
        ck_assert_uint_eq(r->level, 2);
        ck_assert_double_eq(r->demand, BIG_TOP);
        /* 550 at 1024: load 53.7%, target 574, which mid's 700 covers. */
        step(r, 550);
        ck_assert_uint_eq(r->level, 1);
        assert_trace(r, "021");
        rig_done(r);
}
END_TEST

/* --- conservative --- */

/* Stepping up from an idle little: 5% of 1024 per sample, up when the
 * target passes little's top; then on big the load sits between the
 * thresholds and the target stays. */
START_TEST(test_conservative_steps_up)
{
        struct rig *r = rig_start("conservative", NULL, 2, 0);

        steps(r, 0, 2);
        steps(r, 300, 10);
        assert_trace(r, "00" "000000" "1111");
        ck_assert_double_eq_tol(r->demand, 51 + 7 * 51.2, 1e-6);
        rig_done(r);
}
END_TEST

/* Stepping down: a small load on big lowers the target a step per sample;
 * the level follows once the target fits little (below 99% of 377). */
START_TEST(test_conservative_steps_down)
{
        struct rig *r = rig_start("conservative", NULL, 2, 0);

        steps(r, 600, 3);
        ck_assert_double_eq_tol(r->demand, 377 + 3 * 51.2, 1e-6);
        steps(r, 50, 5);
        assert_trace(r, "111" "111" "00");
        rig_done(r);
}
END_TEST

START_TEST(test_conservative_params_configurable)
{
        /* freq_step 25: 256 per sample, up at the second. */
        struct rig *r = rig_start("conservative", "[policy.conservative]\nfreq_step = 25\n", 2, 0);

        steps(r, 0, 2);
        steps(r, 300, 2);
        assert_trace(r, "0001");
        rig_done(r);

        /* sampling_down_factor 2: a step down every other sample. */
        r = rig_start("conservative", "[policy.conservative]\nsampling_down_factor = 2\n", 2, 0);
        steps(r, 600, 3);
        steps(r, 50, 8);
        assert_trace(r, "111" "1111111" "0");
        rig_done(r);

        /* up_threshold 70: the load of 73% on big keeps raising the target. */
        r = rig_start("conservative", NULL, 2, 0);
        steps(r, 0, 2);
        steps(r, 300, 10);
        ck_assert_double_eq_tol(r->demand, 51 + 7 * 51.2, 1e-6);
        rig_done(r);
        r = rig_start("conservative", "[policy.conservative]\nup_threshold = 70\n", 2, 0);
        steps(r, 0, 2);
        steps(r, 300, 10);
        ck_assert_double_eq_tol(r->demand, 51 + 8 * 51.2, 1e-6);
        rig_done(r);

        /* down_threshold 30: a work of 100 on big at 530.6 is a load of 18.8%,
         * one step lower 20.9%: the default stops there, on big; with 30 the
         * target steps on until 325.8 (30.7%), on little. */
        r = rig_start("conservative", NULL, 2, 0);
        steps(r, 600, 3);
        steps(r, 100, 8);
        ck_assert_uint_eq(r->level, 1);
        ck_assert_double_eq_tol(r->demand, 530.6 - 51.2, 1e-6);
        rig_done(r);
        r = rig_start("conservative", "[policy.conservative]\ndown_threshold = 30\n", 2, 0);
        steps(r, 600, 3);
        steps(r, 100, 8);
        ck_assert_uint_eq(r->level, 0);
        ck_assert_double_eq_tol(r->demand, 530.6 - 4 * 51.2, 1e-6);
        rig_done(r);

        /* A bottom of 200: the target never goes below it. */
        r = rig_start("conservative", "[policy.conservative]\nmin_freq = 200\n", 2, 0);
        steps(r, 0, 12);
        ck_assert_double_eq(r->demand, 200);
        rig_done(r);
}
END_TEST

/* Three clusters: the stepping target passes through mid. */
START_TEST(test_conservative_three_clusters)
{
        struct rig *r = rig_start("conservative", NULL, 3, 0);

        steps(r, 1000, 8);
        assert_trace(r, "1" "11111" "22");
        steps(r, 0, 20);
        ck_assert_uint_eq(r->level, 0);
        ck_assert_msg(strstr(r->trace, "2221") && strstr(r->trace, "10"), "levels %s", r->trace);
        rig_done(r);
}
END_TEST

/* --- interactive --- */

/* A burst from idle jumps to hispeed (the top by default); after it the
 * level holds for min_sample_time (80 ms = 4 samples) from the jump. */
START_TEST(test_interactive_burst_and_hold)
{
        struct rig *r = rig_start("interactive", NULL, 2, 0);

        steps(r, 0, 4);
        step(r, 600);
        step(r, 600);
        steps(r, 0, 4);
        assert_trace(r, "0000" "11" "1100");
        rig_done(r);
}
END_TEST

START_TEST(test_interactive_min_sample_time_configurable)
{
        struct rig *r = rig_start("interactive", "[policy.interactive]\nmin_sample_time_ms = 20\n", 2, 0);

        steps(r, 0, 4);
        step(r, 600);
        step(r, 600);
        steps(r, 0, 4);
        assert_trace(r, "0000" "11" "0000");
        rig_done(r);
}
END_TEST

/* hispeed_freq at little's top: a burst first fills little; rising above
 * hispeed waits for above_hispeed_delay. */
START_TEST(test_interactive_hispeed_delay)
{
        struct rig *r = rig_start("interactive", "[policy.interactive]\nhispeed_freq = 377\n", 2, 0);

        steps(r, 0, 4);
        steps(r, 600, 3);
        assert_trace(r, "0000" "011");
        rig_done(r);

        r = rig_start("interactive",
                      "[policy.interactive]\nhispeed_freq = 377\nabove_hispeed_delay_ms = 40\n", 2, 0);
        steps(r, 0, 4);
        steps(r, 600, 3);
        assert_trace(r, "0000" "001");
        rig_done(r);
}
END_TEST

/* A ramp of 5% per sample: the load at the last target stays at 94.5%,
 * below go_hispeed_load, and the target follows work / target_load up to
 * little's top: 40 x 1.05^44 = 342.3, / 0.9 = 380.3 > 377 (k = 43: 362.2). */
START_TEST(test_interactive_ramp)
{
        struct rig *r = rig_start("interactive", NULL, 2, 0);
        unsigned first_big = 0;
        double work = 40;

        steps(r, 0, 4);
        for (unsigned k = 0; k < 60 && !first_big; k++, work *= 1.05)
                if (step(r, work) == 1)
                        first_big = k;
        ck_assert_uint_eq(first_big, 44);
        ck_assert_double_eq_tol(r->demand, 40 * pow(1.05, 44) / 0.9, 1e-3);
        rig_done(r);
}
END_TEST

/* A ramp faster than the target: 60 at the bottom (51) is a full load,
 * which jumps to hispeed (the top). */
START_TEST(test_interactive_steep_ramp)
{
        struct rig *r = rig_start("interactive", NULL, 2, 0);

        steps(r, 0, 4);
        step(r, 30);
        step(r, 60);
        assert_trace(r, "0000" "01");
        ck_assert_double_eq(r->demand, BIG_TOP);
        rig_done(r);
}
END_TEST

/* After the jump and min_sample_time, 340 / 0.9 = 377.8 stays big;
 * 340 / 0.95 = 357.9 fits little. */
START_TEST(test_interactive_target_load_configurable)
{
        struct rig *r = rig_start("interactive", NULL, 2, 0);

        steps(r, 0, 4);
        steps(r, 340, 6);
        assert_trace(r, "0000" "1" "11111");
        ck_assert_double_eq_tol(r->demand, 340 / 0.9, 1e-3);
        rig_done(r);

        r = rig_start("interactive", "[policy.interactive]\ntarget_load = 95\n", 2, 0);
        steps(r, 0, 4);
        steps(r, 340, 6);
        assert_trace(r, "0000" "1" "111" "00");
        rig_done(r);

        /* go_hispeed_load 50: 30 at the bottom (51) is a 59% load, a burst. */
        r = rig_start("interactive", "[policy.interactive]\ngo_hispeed_load = 50\n", 2, 0);
        steps(r, 0, 4);
        step(r, 30);
        assert_trace(r, "0000" "1");
        rig_done(r);
}
END_TEST

/* --- hmp --- */

/* A full load on little: the averaged load passes 700 after 60 ms (6
 * samples: 1024 x (1 - 2^(-60/32)) = 745); on big it settles at 600 and
 * stays; once idle, it falls below 512 at the second sample. */
START_TEST(test_hmp_averaging_delay)
{
        struct rig *r = rig_start("hmp", NULL, 2, 0);

        steps(r, 0, 2);
        steps(r, 600, 10);
        steps(r, 0, 3);
        assert_trace(r, "00" "00000" "1" "1111" "1" "00");
        rig_done(r);
}
END_TEST

/* The alternative pair 512/256: up after 4 samples (594 > 512); down only
 * once the average (598 after the load) falls below 256, at the fourth idle
 * sample. */
START_TEST(test_hmp_alternative_thresholds)
{
        struct rig *r = rig_start("hmp", "[policy.hmp]\nup_threshold = 512\ndown_threshold = 256\n", 2, 0);

        steps(r, 0, 2);
        steps(r, 600, 10);
        steps(r, 0, 5);
        assert_trace(r, "00" "000" "1111111" "111" "00");
        rig_done(r);
}
END_TEST

START_TEST(test_hmp_half_life_configurable)
{
        /* Half-life 16 ms: 1024 x (1 - 2^(-30/16)) = 745 after 3 samples. */
        struct rig *r = rig_start("hmp", "[policy.hmp]\nload_avg_period_ms = 16\n", 2, 0);

        steps(r, 600, 4);
        assert_trace(r, "0011");
        rig_done(r);
}
END_TEST

/* Every lane counts for up, every lane must be light for down; a lane keeps
 * its history across the switch. */
START_TEST(test_hmp_lanes)
{
        struct rig *r = rig_start("hmp", NULL, 2, 0);
        const double busy2[] = { 0, 600 };
        const double light4[] = { 100, 100, 100, 100 };

        for (unsigned i = 0; i < 6; i++)
                step_lanes(r, busy2, 2);
        assert_trace(r, "000001");
        /* On big lane 1 keeps its 745 and decays towards 100: 620, 519, then
         * 438 < 512 at the third sample. Lanes at 100 never hold big. */
        for (unsigned i = 0; i < 3; i++)
                step_lanes(r, light4, 4);
        assert_trace(r, "000001" "110");
        rig_done(r);
}
END_TEST

/* Three clusters: up one level at a time, down one level at a time. */
START_TEST(test_hmp_three_clusters)
{
        struct rig *r = rig_start("hmp", NULL, 3, 0);

        steps(r, 1000, 8);
        assert_trace(r, "00000" "12" "2");
        steps(r, 0, 8);
        ck_assert_uint_eq(r->level, 0);
        ck_assert_msg(strstr(r->trace + 8, "21") && strstr(r->trace + 8, "10") && !strstr(r->trace + 8, "20"),
                      "levels %s", r->trace);
        rig_done(r);
}
END_TEST

/* --- exynos5410 --- */

/* From idle little, a burst first stops at the A7's top (600 virtual MHz,
 * the up guard), switches at the next sample; a drop from the A15's high
 * frequencies first stops at 800 MHz (the down guard), then switches. At
 * the A7 the work of 100 then settles (load 92%). */
START_TEST(test_exynos5410_guards)
{
        struct rig *r = rig_start("exynos5410", NULL, 2, 0);

        step(r, 0);
        steps(r, 600, 3);
        steps(r, 100, 4);
        assert_trace(r, "0" "011" "1000");
        rig_done(r);

        r = rig_start("exynos5410", "[policy.exynos5410]\nup_guard_mhz = 0\ndown_guard_mhz = 2000\n", 2, 0);
        step(r, 0);
        steps(r, 600, 3);
        steps(r, 100, 4);
        assert_trace(r, "0" "111" "0000");
        rig_done(r);
}
END_TEST

/* Work that fits neither side (about 95% of 600 MHz to 92% of 800 MHz
 * virtual, 292-377 capacity) goes back and forth; work below settles on the
 * A7 (250: at 272, a load of 92%), above on the A15 (450: at 489). */
START_TEST(test_exynos5410_dead_band)
{
        struct rig *r = rig_start("exynos5410", NULL, 2, 0);

        steps(r, 250, 8);
        assert_trace(r, "00000000");
        rig_done(r);

        r = rig_start("exynos5410", NULL, 2, 0);
        steps(r, 450, 8);
        assert_trace(r, "11111111");
        ck_assert_double_eq_tol(r->demand, BIG_TOP, 1e-9);
        rig_done(r);

        /* 330: a full load at the A7's 307, a target of 359 < 410 on the A15. */
        r = rig_start("exynos5410", NULL, 2, 0);
        steps(r, 330, 9);
        assert_trace(r, "101010101");
        rig_done(r);

        /* Thresholds at 700 and 900 MHz: 330 now settles on the A7's 358. */
        r = rig_start("exynos5410", "[policy.exynos5410]\nup_virtual_mhz = 700\ndown_virtual_mhz = 900\n", 2,
                      0);
        steps(r, 330, 8);
        assert_trace(r, "00000000");
        rig_done(r);
}
END_TEST

/* Three clusters: the switch chooses between the lowest and the top. */
START_TEST(test_exynos5410_three_clusters)
{
        struct rig *r = rig_start("exynos5410", NULL, 3, 0);

        step(r, 0);
        steps(r, 1000, 3);
        steps(r, 50, 3);
        assert_trace(r, "0" "022" "200");
        rig_done(r);
}
END_TEST

static Suite *baselines_suite(void)
{
        Suite *s = suite_create("baselines");
        TCase *presets = tcase_create("presets");
        TCase *config = tcase_create("config");
        TCase *fixed = tcase_create("always");
        TCase *ondemand = tcase_create("ondemand");
        TCase *conservative = tcase_create("conservative");
        TCase *interactive = tcase_create("interactive");
        TCase *hmp = tcase_create("hmp");
        TCase *exynos = tcase_create("exynos5410");

        tcase_add_test(presets, test_preset_names);
        tcase_add_test(presets, test_preset_default_is_shipped);
        tcase_add_test(presets, test_preset_heuristics_keep_the_shipped_engine);
        tcase_add_test(presets, test_preset_baselines_pass_through);
        tcase_add_test(presets, test_preset_problems_name_the_preset);
        suite_add_tcase(s, presets);

        tcase_add_test(config, test_builtin_order);
        tcase_add_test(config, test_dashed_sections);
        tcase_add_test(config, test_every_param_configurable);
        tcase_add_test(config, test_init_refuses_crossed_thresholds);
        suite_add_tcase(s, config);

        tcase_add_test(fixed, test_always_big);
        tcase_add_test(fixed, test_always_little);
        suite_add_tcase(s, fixed);

        tcase_add_test(ondemand, test_ondemand_step);
        tcase_add_test(ondemand, test_ondemand_up_threshold_configurable);
        tcase_add_test(ondemand, test_ondemand_sampling_down_factor);
        tcase_add_test(ondemand, test_ondemand_swings_then_settles);
        tcase_add_test(ondemand, test_ondemand_ramp);
        tcase_add_test(ondemand, test_ondemand_three_clusters);
        suite_add_tcase(s, ondemand);

        tcase_add_test(conservative, test_conservative_steps_up);
        tcase_add_test(conservative, test_conservative_steps_down);
        tcase_add_test(conservative, test_conservative_params_configurable);
        tcase_add_test(conservative, test_conservative_three_clusters);
        suite_add_tcase(s, conservative);

        tcase_add_test(interactive, test_interactive_burst_and_hold);
        tcase_add_test(interactive, test_interactive_min_sample_time_configurable);
        tcase_add_test(interactive, test_interactive_hispeed_delay);
        tcase_add_test(interactive, test_interactive_ramp);
        tcase_add_test(interactive, test_interactive_steep_ramp);
        tcase_add_test(interactive, test_interactive_target_load_configurable);
        suite_add_tcase(s, interactive);

        tcase_add_test(hmp, test_hmp_averaging_delay);
        tcase_add_test(hmp, test_hmp_alternative_thresholds);
        tcase_add_test(hmp, test_hmp_half_life_configurable);
        tcase_add_test(hmp, test_hmp_lanes);
        tcase_add_test(hmp, test_hmp_three_clusters);
        suite_add_tcase(s, hmp);

        tcase_add_test(exynos, test_exynos5410_guards);
        tcase_add_test(exynos, test_exynos5410_dead_band);
        tcase_add_test(exynos, test_exynos5410_three_clusters);
        suite_add_tcase(s, exynos);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(baselines_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
