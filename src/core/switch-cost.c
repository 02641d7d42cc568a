/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

#include "core/switch-cost.h"

double switch_cost_latency_us(const struct bl_switch_cost *c, unsigned ncpus)
{
        return c->latency_us + c->latency_per_cpu_us * ncpus;
}

double switch_cost_energy_uj(const struct bl_switch_cost *c, unsigned ncpus)
{
        return c->energy_uj + c->energy_per_cpu_uj * ncpus;
}

void switch_estimate_init(struct bl_switch_estimate *e, const struct bl_switch_cost *prior)
{
        *e = (struct bl_switch_estimate){ .prior = *prior };
}

void switch_estimate_add(struct bl_switch_estimate *e, double took_us, unsigned ncpus)
{
        const double x = ncpus;

        if (!isfinite(took_us) || took_us < 0)
                return;
        e->w = e->w * BL_SWITCH_ESTIMATE_KEEP + 1.0;
        e->wx = e->wx * BL_SWITCH_ESTIMATE_KEEP + x;
        e->wy = e->wy * BL_SWITCH_ESTIMATE_KEEP + took_us;
        e->wxx = e->wxx * BL_SWITCH_ESTIMATE_KEEP + x * x;
        e->wxy = e->wxy * BL_SWITCH_ESTIMATE_KEEP + x * took_us;
        e->n++;
        e->last_us = took_us;
        e->last_ncpus = ncpus;
        if (took_us > e->max_us)
                e->max_us = took_us;
}

/* Sizes closer than this (in CPUs, as a variance) are one size: a fit
 * through them would be noise. */
#define SPREAD_MIN 0.25

void switch_estimate_cost(const struct bl_switch_estimate *e, struct bl_switch_cost *out)
{
        const struct bl_switch_cost *p = &e->prior;
        double mx, my, var, a, b, prior_at, scale;

        *out = *p;
        if (e->n == 0 || e->w <= 0)
                return;
        mx = e->wx / e->w;
        my = e->wy / e->w;
        var = e->wxx / e->w - mx * mx;
        prior_at = p->latency_us + p->latency_per_cpu_us * mx;
        if (var < SPREAD_MIN) {
                if (prior_at > 0) {
                        a = p->latency_us * my / prior_at;
                        b = p->latency_per_cpu_us * my / prior_at;
                } else {
                        a = my;
                        b = 0;
                }
        } else {
                b = (e->wxy / e->w - mx * my) / var;
                a = my - b * mx;
                if (b < 0) {
                        b = 0;
                        a = my;
                } else if (a < 0) {
                        a = 0;
                        b = e->wxx > 0 ? e->wxy / e->wxx : 0;
                }
        }
        out->latency_us = a;
        out->latency_per_cpu_us = b;
        if (prior_at > 0) {
                scale = (a + b * mx) / prior_at;
                out->energy_uj = p->energy_uj * scale;
                out->energy_per_cpu_uj = p->energy_per_cpu_uj * scale;
        }
}
