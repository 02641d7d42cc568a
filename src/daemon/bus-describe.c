/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Describe()'s JSON document, and the views of the daemon's state it shares
 * with the bus's properties. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json-writer.h"
#include "daemon/bus-describe.h"
#include "daemon/idle-wake.h"
#include "daemon/level.h"

/* The demand above which the engine goes up, and below which it goes down,
 * from the first engine's level (0 where there is no level that way). */
void bus_thresholds(const struct bl_daemon *d, double *up, double *down)
{
        const struct bl_engine *e;
        const struct bl_ladder *l = &d->ladder;

        *up = *down = 0.0;
        if (!d->controller_ready || d->ctl.nengines == 0)
                return;
        e = &d->ctl.engine[0];
        if (e->level + 1 < l->nlevels)
                *up = (double)e->p.up_pct * l->levels[e->level].fit / 100.0;
        if (e->level > 0 && e->level <= l->nlevels)
                *down = (double)e->p.down_pct * l->levels[e->level - 1].fit / 100.0;
}

/* The scorer behind Demand: the only one in cluster mode, otherwise the
 * pair's or CPU's with the largest demand (as controller_demand() picks). */
const struct bl_scorer *bus_demand_scorer(const struct bl_daemon *d)
{
        const struct bl_controller *c = &d->ctl;
        unsigned best = 0;

        if (!d->controller_ready || c->nscorers == 0)
                return NULL;
        for (unsigned i = 1; i < c->nscorers; i++)
                if (c->demand[i] > c->demand[best])
                        best = i;
        return &c->scorer[best];
}

/* Time at each level, including the stretch since the daemon last
 * accounted it (pair mode: summed over pairs, as the daemon counts). */
void bus_time_in_levels(const struct bl_daemon *d, bl_usec_t *t)
{
        uint64_t now;

        memcpy(t, d->time_in, sizeof(d->time_in));
        if (!d->controller_ready || sd_event_now(d->event, CLOCK_MONOTONIC, &now) < 0 || now <= d->accounted_until)
                return;
        for (unsigned i = 0; i < d->ctl.nengines; i++)
                if (d->ctl.engine[i].level < BL_MAX_LEVELS)
                        t[d->ctl.engine[i].level] += now - d->accounted_until;
}

/* "profile": what the desktop says and the adjustment it makes; null
 * where nobody says. */
static void describe_profile(struct json *j, const struct bl_daemon *d)
{
        const struct bl_desktop *in = &d->desktop_in;

        json_key(j, "profile");
        json_open(j, '{');
        json_key(j, "power_profile");
        if (in->profile != BL_PPD_UNKNOWN)
                json_string(j, ppd_profile_to_string(in->profile));
        else
                json_null(j);
        json_key(j, "power_profile_source");
        if (in->profile != BL_PPD_UNKNOWN)
                json_string(j, in->profile_source);
        else
                json_null(j);
        json_key(j, "on_battery");
        if (in->battery != BL_BATTERY_UNKNOWN)
                json_bool(j, in->battery == BL_BATTERY_YES);
        else
                json_null(j);
        json_key(j, "adjustment");
        json_string(j, d->profile.what);
        json_close(j, '}');
}

static void describe_holds(struct json *j, const struct bl_daemon *d)
{
        const struct bl_hold *winner = holds_current(&d->holds, d->cfg.hold_precedence);
        char why[BL_HOLD_WHY_MAX];

        json_key(j, "hold_precedence");
        json_string(j, hold_precedence_to_string(d->cfg.hold_precedence));
        json_key(j, "winning_hold");
        if (winner) {
                holds_explain(&d->holds, d->cfg.hold_precedence, why, sizeof(why));
                json_open(j, '{');
                json_key(j, "id");
                json_uint(j, winner->id);
                json_key(j, "why");
                json_string(j, why);
                json_close(j, '}');
        } else
                json_null(j);
        json_key(j, "holds");
        json_open(j, '[');
        for (unsigned i = 0; i < d->holds.n; i++) {
                const struct bl_hold *h = &d->holds.h[i];

                json_open(j, '{');
                json_key(j, "id");
                json_uint(j, h->id);
                json_key(j, "level");
                json_string(j, daemon_level_name(d, h->level));
                json_key(j, "uid");
                json_uint(j, h->uid);
                json_key(j, "pid");
                json_int(j, h->pid);
                json_key(j, "unit");
                json_string(j, h->unit);
                json_key(j, "owner");
                json_string(j, h->owner);
                json_key(j, "reason");
                json_string(j, h->reason);
                json_key(j, "since_wall_usec");
                json_uint(j, h->since_wall);
                json_key(j, "until_wall_usec");
                json_uint(j, h->until_wall);
                json_key(j, "persist");
                json_bool(j, h->persist);
                json_close(j, '}');
        }
        json_close(j, ']');
}

static void describe_limit(struct json *j, const char *name, const struct bl_limit *l)
{
        char key[32];

        snprintf(key, sizeof(key), "%s_mc", name);
        json_key(j, key);
        json_int(j, l->mc);
        snprintf(key, sizeof(key), "%s_source", name);
        json_key(j, key);
        json_string(j, limit_source_to_string(l->source));
        snprintf(key, sizeof(key), "%s_origin", name);
        json_key(j, key);
        json_string(j, l->origin);
}

static void describe_limits(struct json *j, const struct bl_thermal_limits *l)
{
        json_key(j, "thermal_limits");
        json_open(j, '{');
        describe_limit(j, "cap", &l->cap);
        describe_limit(j, "release", &l->release);
        describe_limit(j, "critical", &l->critical);
        json_close(j, '}');
}

/* What switches cost here and how long the kernel took to settle after
 * them; the levels the backend cannot reach; the idle wake. */
static void describe_switching(struct json *j, const struct bl_daemon *d)
{
        const struct bl_switch_estimate *e = &d->cost;
        const struct bl_settle *s = &d->settle;
        struct bl_switch_cost c;
        char state[600];

        daemon_switch_cost(d, &c);
        json_key(j, "switch_cost");
        json_open(j, '{');
        json_key(j, "fixed_usec");
        json_double(j, c.latency_us);
        json_key(j, "per_cpu_usec");
        json_double(j, c.latency_per_cpu_us);
        json_key(j, "measured");
        json_uint(j, e->n);
        json_key(j, "last_usec");
        json_double(j, e->last_us);
        json_key(j, "last_cpus");
        json_uint(j, e->last_ncpus);
        json_key(j, "longest_usec");
        json_double(j, e->max_us);
        json_close(j, '}');
        json_key(j, "settle");
        json_open(j, '{');
        json_key(j, "last_usec");
        json_uint(j, s->last_us);
        json_key(j, "mean_usec");
        json_uint(j, (uint64_t)(s->mean_us + 0.5));
        json_key(j, "longest_usec");
        json_uint(j, s->max_us);
        json_key(j, "windows");
        json_uint(j, s->windows);
        json_key(j, "bounded");
        json_uint(j, s->bounded);
        json_key(j, "discounted_samples");
        json_uint(j, s->discounted);
        json_close(j, '}');
        json_key(j, "unreachable");
        json_open(j, '{');
        for (unsigned i = 0; i < d->ladder.nlevels && i < 64; i++)
                if (d->unreachable & (UINT64_C(1) << i)) {
                        json_key(j, d->ladder.levels[i].name);
                        json_string(j, d->unreachable_why[i]);
                }
        json_close(j, '}');
        idle_wake_describe(d, state, sizeof(state));
        json_key(j, "idle_wake");
        json_open(j, '{');
        json_key(j, "state");
        json_string(j, state);
        json_key(j, "wakes");
        json_uint(j, d->idle_wakes);
        json_key(j, "idle_paced");
        json_uint(j, d->idle_paced);
        json_close(j, '}');
}

static void describe_state(struct json *j, const struct bl_daemon *d)
{
        const struct bl_scorer *s = bus_demand_scorer(d);
        bl_usec_t t[BL_MAX_LEVELS];
        char name[BL_STATE_NAME_MAX];
        double up, down;

        daemon_state_name(d, name, sizeof(name));
        json_key(j, "level");
        json_string(j, name);
        daemon_target_name(d, name, sizeof(name));
        json_key(j, "target_level");
        json_string(j, name);
        json_key(j, "demand");
        json_double(j, d->demand);
        bus_thresholds(d, &up, &down);
        json_key(j, "thresholds");
        json_open(j, '{');
        /* 0 from bus_thresholds() is "no level that way": null here, 0 over D-Bus. */
        json_key(j, "up");
        if (up > 0)
                json_double(j, up);
        else
                json_null(j);
        json_key(j, "down");
        if (down > 0)
                json_double(j, down);
        else
                json_null(j);
        json_close(j, '}');
        json_key(j, "scores");
        json_open(j, '{');
        for (unsigned i = 0; s && i < s->n; i++)
                if (!s->disabled[i]) {
                        json_key(j, s->ops[i]->name);
                        json_double(j, s->last[i]);
                }
        json_close(j, '}');
        json_key(j, "thermal");
        json_open(j, '{');
        json_key(j, "state");
        json_string(j, daemon_thermal_state(d));
        json_key(j, "temperature_mc");
        if (d->sample.s.has_temp)
                json_int(j, d->sample.s.temp_mc);
        else
                json_null(j);
        json_close(j, '}');
        describe_limits(j, &d->limits);
        json_key(j, "switches");
        json_uint(j, d->switches);
        bus_time_in_levels(d, t);
        json_key(j, "time_in_level_usec");
        json_open(j, '{');
        for (unsigned i = 0; i < d->ladder.nlevels; i++) {
                json_key(j, d->ladder.levels[i].name);
                json_uint(j, t[i]);
        }
        json_close(j, '}');
        json_key(j, "last_reason");
        json_string(j, d->last_reason);
        describe_switching(j, d);
}

/* Describe()'s document; the keys are documented in switchctl(1). */
int bus_describe(const struct bl_daemon *d, char **ret)
{
        struct json j = { 0 };
        char model[512];

        json_open(&j, '{');
        json_key(&j, "mode");
        json_string(&j, mode_to_string(d->ladder.mode));
        json_key(&j, "mode_reason");
        json_string(&j, d->ladder.why);
        json_key(&j, "topology");
        json_string(&j, d->topo.how);
        json_key(&j, "levels");
        json_open(&j, '[');
        for (unsigned i = 0; i < d->ladder.nlevels; i++)
                json_string(&j, d->ladder.levels[i].name);
        json_close(&j, ']');
        describe_state(&j, d);
        describe_holds(&j, d);
        describe_profile(&j, d);
        json_key(&j, "backend");
        json_string(&j, d->backend_ops ? d->backend_ops->name : "");
        model_in_use_describe(&d->energy, &d->ladder, model, sizeof(model));
        json_key(&j, "energy_model");
        json_string(&j, model);
        json_key(&j, "config_files");
        json_open(&j, '[');
        for (unsigned i = 0; i < d->files.n; i++)
                json_string(&j, d->files.path[i]);
        json_close(&j, ']');
        json_close(&j, '}');
        if (j.error) {
                free(j.buf);
                return j.error;
        }
        *ret = j.buf;
        return 0;
}
