/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The baselines' presets. Each selects its heuristic, makes the engine a
 * pass-through (a level is left as soon as the demand is above its capacity
 * or fits the level below, with no delay, residency or rate limit: the
 * heuristic has already decided like the policy it imitates) and samples
 * like that policy:
 * - ondemand, conservative and exynos5410 (which runs ondemand): 20 ms, the
 *   kernel's default sampling_rate on these 32-bit ARM boards: the larger of
 *   two ticks (HZ=100) and min(1000 x transition latency, 10 ms);
 * - interactive: 20 ms, its timer_rate;
 * - hmp: 10 ms. HMP checks migrations from the scheduler tick (one tick at
 *   HZ=100); the tracked load is continuous, so only the reaction time is
 *   quantised by the interval;
 * - always-big, always-little: 20 ms, the shipped interval (any would do).
 * Each keeps that one interval (idle_sample_interval_ms = 0): the policies
 * they imitate have no other.
 * "default" is the shipped configuration as it is; util, pelt, psi and trend
 * are it with that one heuristic. (ipc has no preset: the simulator has no
 * hardware counters, so it would run as util.) */
#include <stdio.h>
#include <string.h>

#include "policy/builtin.h"
#include "sim/presets.h"

#define PASS_THROUGH \
        "[hysteresis]\n" \
        "up_threshold = 100\n" \
        "down_threshold = 99\n" \
        "up_delay_ms = 0\n" \
        "down_delay_ms = 0\n" \
        "min_residency_ms = 0\n" \
        "max_switch_rate_hz = 0\n" \
        "break_even = no\n" \
        "mp_climb_loaded = no\n"

#define BASELINE(heuristic, interval_ms) \
        "[daemon]\n" \
        "sample_interval_ms = " #interval_ms "\n" \
        "idle_sample_interval_ms = 0\n" \
        "[policy]\n" \
        "heuristics = " heuristic "\n" \
        PASS_THROUGH

/* One heuristic alone, in the shipped configuration but with the classic
 * thresholds (80 up, 60 down): the shipped up_threshold of 100 is reachable
 * only by a score that can exceed the level's capacity (headroom's
 * saturation), and util, pelt and trend measure busy x capacity, which
 * cannot, so they would never leave LITTLE. */
#define HEURISTIC(heuristic) \
        "[policy]\n" \
        "heuristics = " heuristic "\n" \
        "[hysteresis]\n" \
        "up_threshold = 80\n" \
        "down_threshold = 60\n"

const struct sim_preset sim_presets[] = {
        { "default", "the shipped configuration", "" },
        { "util", "the shipped configuration, heuristics = util, thresholds 80/60", HEURISTIC("util") },
        { "pelt", "the shipped configuration, heuristics = pelt, thresholds 80/60", HEURISTIC("pelt") },
        { "psi", "the shipped configuration, heuristics = psi, thresholds 80/60", HEURISTIC("psi") },
        { "trend", "the shipped configuration, heuristics = trend, thresholds 80/60", HEURISTIC("trend") },
        { "ondemand", "ondemand governor on the switcher's virtual frequencies", BASELINE("ondemand", 20) },
        { "conservative", "conservative governor on the switcher's virtual frequencies",
          BASELINE("conservative", 20) },
        { "interactive", "Android interactive governor on the switcher's virtual frequencies",
          BASELINE("interactive", 20) },
        { "hmp", "big.LITTLE MP (HMP) up/down migration thresholds", BASELINE("hmp", 10) },
        { "exynos5410", "Exynos 5410 cluster switch (ondemand, A7 halved, 600/800 MHz)",
          BASELINE("exynos5410", 20) },
        { "always-big", "the fastest cluster, through the engine", BASELINE("always-big", 20) },
        { "always-little", "the most efficient cluster, through the engine", BASELINE("always-little", 20) },
        { NULL, NULL, NULL },
};

const struct sim_preset *preset_find(const char *name)
{
        for (const struct sim_preset *p = sim_presets; name && p->name; p++)
                if (strcmp(p->name, name) == 0)
                        return p;
        return NULL;
}

int preset_config(const struct sim_preset *p, struct bl_config *cfg, struct bl_diag *diag)
{
        char filename[BL_NAME_MAX + 16];
        unsigned problems;

        config_init(cfg, policy_builtin);
        snprintf(filename, sizeof(filename), "preset:%s", p->name);
        problems = config_parse(cfg, policy_builtin, filename, p->config_text, strlen(p->config_text), diag);
        problems += config_validate(cfg, diag);
        return (int)problems;
}
