/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Heuristic plugins for check_plugins: one shared object per VARIANT_*
 * (see tests/unit/local.mk), each good or wrong in one way. "test-boost"
 * scores the peak demand times its "factor" (2 by default); "test-broken"
 * (check_daemon) scores what no demand is: NaN with factor 1, a negative
 * number with 2, the largest double from 3. */
#include <float.h>
#include <math.h>

#include "policy/bl-policy.h"

struct boost {
        double factor;
};

static const struct bl_policy_param boost_params[] = {
#ifdef VARIANT_BAD_PARAM
        { .key = "factor", .def = 0.5, .min = 1, .max = 4 },
#else
        { .key = "factor", .def = 2, .min = 1, .max = 4 },
#endif
};

#ifdef VARIANT_UNDEFINED
/* Defined nowhere: RTLD_NOW must refuse the object. */
double test_plugin_missing(double x);
#endif

static int boost_init(void *state, const double *params)
{
        struct boost *b = state;

        b->factor = params[0];
        return 0;
}

static double boost_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        const struct boost *b = state;
        double demand = b->factor * bl_sample_peak_demand(s);

#ifdef VARIANT_UNDEFINED
        demand = test_plugin_missing(demand);
#endif
#ifdef VARIANT_BROKEN
        demand = b->factor < 2 ? NAN : b->factor < 3 ? -1 - demand : DBL_MAX;
#endif
        return demand;
}

static void boost_reset(void *state)
{
}

#if defined(VARIANT_SECOND)
#define HEURISTIC_NAME "test-second"
#elif defined(VARIANT_CLASH)
#define HEURISTIC_NAME "util"
#elif defined(VARIANT_BROKEN)
#define HEURISTIC_NAME "test-broken"
#else
#define HEURISTIC_NAME "test-boost"
#endif

static const struct bl_heuristic_ops heuristic = {
#ifdef VARIANT_HEURISTIC_ABI
        .abi = BL_POLICY_ABI + 1,
#else
        .abi = BL_POLICY_ABI,
#endif
        .name = HEURISTIC_NAME,
        .summary = "peak demand times a factor",
        .params = boost_params,
        .nparams = sizeof(boost_params) / sizeof(boost_params[0]),
        .state_size = sizeof(struct boost),
        .init = boost_init,
        .score = boost_score,
        .reset = boost_reset,
};

#if defined(VARIANT_NO_SYMBOL)
/* Exported, but under another name than the daemon looks for. */
__attribute__((visibility("default"))) const struct bl_heuristic_ops *const bl_policy_heuristics[] = {
        &heuristic,
};
#elif defined(VARIANT_PLUGIN_ABI)
static const struct bl_heuristic_ops *const list[] = { &heuristic };
__attribute__((visibility("default"))) const struct bl_policy_plugin bl_policy_plugin = {
        .abi = 7,
        .nheuristics = 1,
        .heuristics = list,
};
#else
BL_POLICY_EXPORT(&heuristic);
#endif
