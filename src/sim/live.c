/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live driver (live.h). Its accounting mirrors sim_run_policy()
 * step for step, with the level read from the board instead of decided by
 * the engine: placement by exec_level_lane_cpus(), execution by
 * exec_level_step(), the same sums for energy, lateness, switches and time
 * per class. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "sim/exec.h"
#include "sim/live.h"

unsigned live_map_level(const struct sim_levels *lv, uint64_t usable, bool *exact)
{
        unsigned superset = SIM_LEVEL_NONE, overlap = 0;
        int best_common = -1;

        for (unsigned l = 0; l < lv->nlevels; l++) {
                uint64_t active = lv->level[l].active;
                int common = __builtin_popcountll(active & usable);

                if (active == usable) {
                        *exact = true;
                        return l;
                }
                if ((active & usable) == usable &&
                    (superset == SIM_LEVEL_NONE || lv->level[l].nslots < lv->level[superset].nslots))
                        superset = l;
                if (common >= best_common) {
                        best_common = common;
                        overlap = l;
                }
        }
        *exact = false;
        return superset != SIM_LEVEL_NONE ? superset : overlap;
}

double live_thermal_step(double temp_c, double ambient_c, double r_c_per_w, double c_j_per_c, double power_w,
                         double dt_s)
{
        double steady = ambient_c + power_w * r_c_per_w, tau = r_c_per_w * c_j_per_c;

        if (!(tau > 0))
                return steady;
        return steady + (temp_c - steady) * exp(-dt_s / tau);
}

int live_desc_build(struct live_desc *ld, const struct sim_board *b, const char *const *groups,
                    unsigned ngroups)
{
        if (ngroups > FAKEBOARD_MAX_GROUPS)
                return -E2BIG;
        memset(ld, 0, sizeof(*ld));
        for (unsigned k = 0; k < b->nclusters; k++) {
                const struct sim_cluster *c = &b->cluster[k];
                const unsigned top = c->opp[c->nopps - 1].capacity;

                for (unsigned o = 0; o < c->nopps; o++) {
                        ld->opps_khz[k][o] = c->opp[o].mhz * 1000;
                        ld->em_uw[k][o] = (unsigned)lround(c->opp[o].core_mw * 1000);
                }
                snprintf(ld->cpus[k], sizeof(ld->cpus[k]), "%u-%u", c->first_cpu, c->first_cpu + c->cpus - 1);
                snprintf(ld->zone_type[k], sizeof(ld->zone_type[k]), "%s-thermal", c->name);
                /* cpu_capacity is on the kernel's scale, whatever the board's reference. */
                ld->cluster[k] = (struct fakeboard_cluster_desc){
                        .core = c->core[0] ? c->core : c->name,
                        .cpus = ld->cpus[k],
                        .capacity = (unsigned)(((uint64_t)top * BL_CAPACITY_SCALE +
                                                b->reference_capacity / 2) / b->reference_capacity),
                        .cluster_id = (int)k,
                        .package_id = 0,
                        .min_khz = ld->opps_khz[k][0],
                        .max_khz = ld->opps_khz[k][c->nopps - 1],
                        .opps_khz = ld->opps_khz[k],
                        .nopps = c->nopps,
                        .driver = "cpufreq-dt",
                        .governor = "schedutil",
                        .governors = "conservative ondemand userspace powersave performance schedutil",
                        .list_frequencies = true,
                        .transition_latency_ns = (int)(b->switch_latency_us * 1000),
                        /* what the daemon reads under energy_model = auto */
                        .em_uw = ld->em_uw[k],
                };
                ld->trip[k] = (struct fakeboard_trip_desc){ "passive", (int)lround(c->trip_passive_c * 1000),
                                                            2000 };
                ld->zone[k] = (struct fakeboard_zone_desc){
                        .type = ld->zone_type[k],
                        .temp_mc = (int)lround(b->ambient_c * 1000),
                        .critical_mc = (int)lround(c->trip_critical_c * 1000),
                        .trips = &ld->trip[k],
                        .ntrips = 1,
                };
        }
        for (unsigned i = 0; i < ngroups; i++)
                ld->groups[i] = groups[i];
        ld->desc = (struct fakeboard_desc){
                .name = b->name,
                .summary = "a blsim board model",
                .ncpus = b->ncpus,
                .kernel_max = b->ncpus - 1,
                .clusters = ld->cluster,
                .nclusters = b->nclusters,
                .zones = ld->zone,
                .nzones = b->nclusters,
                .psi = true,
                .cgroup2 = true,
                .groups = ld->groups,
                .ngroups = ngroups,
        };
        return 0;
}

struct sim_live {
        const struct sim_board *b;
        const struct sim_mode *m;
        struct sim_workload *w;

        bool armed, seen_boot, started, done;
        bl_usec_t armed_at, t0;
        uint64_t boot;                  /* the usable CPUs before the command changed anything */
        int error;

        bl_usec_t t;                    /* sim time of the next step */
        unsigned prev, placed;
        double energy_nj, late;
        struct sim_result r;
        bl_usec_t off_ladder_us;
        double temp_c[BL_MAX_CLUSTERS];
        bool temp_held[BL_MAX_CLUSTERS];

        struct sim_switch *switches;
        size_t nswitches, switches_size;
        struct sim_timeline *timeline;
        bl_usec_t last_point;

        struct sim_level_step st;
        struct sim_stall stall;         /* a switch's stall that outlasts its step */
        double *backlog, *new_work, *lane_capacity;
        unsigned *lane_cpu;
};

int sim_live_new(struct sim_live **ret, const struct sim_board *b, const struct sim_mode *m,
                 struct sim_workload *w)
{
        const unsigned nlanes = w->nlanes;
        struct sim_live *l;
        int r;

        if (nlanes == 0 || nlanes > SIM_EXEC_MAX_LANES || w->step_us == 0 || b->ncpus > FAKEBOARD_MAX_CPUS)
                return -EINVAL;
        if (w->reset && (r = w->reset(w)) < 0)
                return r;
        l = calloc(1, sizeof(*l));
        if (!l)
                return -ENOMEM;
        l->backlog = calloc(3 * (size_t)nlanes, sizeof(double));
        l->lane_cpu = calloc(nlanes, sizeof(unsigned));
        if (!l->backlog || !l->lane_cpu) {
                sim_live_free(l);
                return -ENOMEM;
        }
        l->new_work = l->backlog + nlanes;
        l->lane_capacity = l->new_work + nlanes;
        l->b = b;
        l->m = m;
        l->w = w;
        l->prev = l->placed = SIM_LEVEL_NONE;
        for (unsigned k = 0; k < b->nclusters; k++)
                l->temp_c[k] = b->ambient_c;
        *ret = l;
        return 0;
}

void sim_live_free(struct sim_live *l)
{
        if (!l)
                return;
        free(l->backlog);
        free(l->lane_cpu);
        free(l->switches);
        free(l);
}

void sim_live_arm(struct sim_live *l, bl_usec_t now)
{
        l->armed = true;
        l->armed_at = now;
}

bool sim_live_started(const struct sim_live *l)
{
        return l->started;
}

bl_usec_t sim_live_start_time(const struct sim_live *l)
{
        return l->started ? l->t0 : 0;
}

int sim_live_hold_temp(struct sim_live *l, unsigned k, double temp_c)
{
        if (k >= l->b->nclusters)
                return -EINVAL;
        l->temp_held[k] = !isnan(temp_c);
        if (l->temp_held[k])
                l->temp_c[k] = temp_c;
        return 0;
}

bool sim_live_done(const struct sim_live *l)
{
        return l->done;
}

int sim_live_result(const struct sim_live *l, struct sim_result *r)
{
        *r = l->r;
        sim_result_finish(r, l->energy_nj, l->late, l->w);
        return l->error;
}

size_t sim_live_switches(const struct sim_live *l, const struct sim_switch **ret)
{
        *ret = l->switches;
        return l->nswitches;
}

void sim_live_record(struct sim_live *l, struct sim_timeline *tl)
{
        l->timeline = tl;
}

bl_usec_t sim_live_off_ladder_us(const struct sim_live *l)
{
        return l->off_ladder_us;
}

static int log_switch(struct sim_live *l, bl_usec_t t, unsigned from, unsigned to)
{
        if (array_grow((void **)&l->switches, l->nswitches, &l->switches_size, sizeof(*l->switches), 32) < 0)
                return -ENOMEM;
        l->switches[l->nswitches++] = (struct sim_switch){ .t = t, .from = from, .to = to };
        return 0;
}

/* Each cluster's power over the step (busy cores, the cluster powered or
 * gated; the switch energy is not heat in one cluster) heats its zone. */
static void heat(struct sim_live *l, const struct sim_level_step *st, double step_us)
{
        const struct sim_board *b = l->b;

        for (unsigned k = 0; k < b->nclusters; k++) {
                const struct sim_cluster *c = &b->cluster[k];
                double power_mw;

                if (l->temp_held[k])
                        continue;
                if ((st->clusters >> k) & 1) {
                        const struct sim_opp *opp = &c->opp[st->opp[k]];
                        double busy = 0;

                        for (unsigned i = 0; i < c->cpus; i++)
                                busy += st->busy_us[c->first_cpu + i];
                        power_mw = opp->idle_mw + busy / step_us * opp->core_mw;
                } else {
                        power_mw = c->off_mw;
                }
                l->temp_c[k] = live_thermal_step(l->temp_c[k], b->ambient_c, c->thermal_r_c_per_w,
                                                 c->thermal_c_j_per_c, power_mw / 1000.0, step_us / 1e6);
        }
}

/* One step of the workload at 'level'. Returns 0, 1 when the workload has
 * ended, or a negative errno. */
static int run_step(struct sim_live *l, unsigned level, bool exact, struct fakeboard_output *out)
{
        const struct sim_board *b = l->b;
        const struct sim_levels *lv = &l->m->levels;
        struct sim_workload *w = l->w;
        const unsigned nlanes = w->nlanes;
        struct sim_level_step *st = &l->st;
        int r;

        /* In cluster and pair mode a lane's CPU follows from the level. */
        if (lv->mode == BL_MODE_MP || level != l->placed) {
                exec_level_lane_cpus(lv, level, nlanes, l->backlog, l->lane_cpu);
                for (unsigned i = 0; i < nlanes; i++) {
                        const struct sim_cluster *c = &b->cluster[lv->cpu_cluster[l->lane_cpu[i]]];

                        l->lane_capacity[i] = c->opp[c->nopps - 1].capacity;
                }
                l->placed = level;
        }
        r = w->begin_step(w, l->r.steps, l->t, l->lane_capacity, l->new_work);
        if (r != 0)
                return r;
        for (unsigned i = 0; i < nlanes; i++)
                l->r.total_work += l->new_work[i];
        r = exec_level_step_stalled(b, lv, level, l->prev, &l->stall, (double)w->step_us, nlanes, l->backlog,
                                    l->new_work, st);
        if (r < 0)
                return r;
        if (w->end_step)
                w->end_step(w, l->r.steps, l->t + w->step_us, l->backlog);

        if (st->switched && (r = log_switch(l, l->t, l->prev, level)) < 0)
                return r;
        l->energy_nj += st->energy_nj;
        if (l->timeline &&
            (l->r.steps == 0 || level != l->prev || l->t - l->last_point >= LIVE_TIMELINE_US)) {
                r = sim_timeline_add(l->timeline, l->t, NAN, l->m->class_of[level], l->energy_nj / 1000.0);
                if (r < 0)
                        return r;
                l->last_point = l->t;
        }
        l->late += st->backlog;
        l->r.time_in[l->m->class_of[level]] += w->step_us;
        l->r.switches += st->switched;
        l->r.changes += st->changes;
        if (!exact)
                l->off_ladder_us += w->step_us;
        for (unsigned cpu = 0; cpu < b->ncpus; cpu++)
                out->busy_us[cpu] += st->busy_us[cpu];
        out->stall_us += st->waiting_us;
        heat(l, st, (double)w->step_us);
        l->prev = level;
        l->r.steps++;
        l->t += w->step_us;
        return 0;
}

/* What the board shows after the steps: the DVFS rule's OPP of each
 * cluster that ran (the lowest for the others), the temperatures. Policy k
 * is cluster k: the description has one policy per cluster, in order. */
static void publish(const struct sim_live *l, struct fakeboard_output *out)
{
        const struct sim_board *b = l->b;

        for (unsigned k = 0; k < b->nclusters; k++) {
                const struct sim_cluster *c = &b->cluster[k];
                unsigned opp = l->r.steps > 0 && ((l->st.clusters >> k) & 1) ? l->st.opp[k] : 0;

                out->cur_khz[k] = c->opp[opp].mhz * 1000;
                out->temp_mc[k] = (int)lround(l->temp_c[k] * 1000);
        }
        out->running = l->r.steps > 0 ? l->st.running : 0;
}

static int live_step(void *userdata, const struct fakeboard_state *in, bl_usec_t dt,
                     struct fakeboard_output *out)
{
        struct sim_live *l = userdata;
        const bl_usec_t step_us = l->w->step_us;
        uint64_t usable = 0;
        unsigned level;
        bool exact;

        for (unsigned cpu = 0; cpu < l->b->ncpus; cpu++)
                if (cpumask_isset(&in->usable, cpu))
                        usable |= UINT64_C(1) << cpu;
        level = live_map_level(&l->m->levels, usable, &exact);
        if (!l->seen_boot) {
                l->boot = usable;
                l->seen_boot = true;
        }
        if (!l->started) {
                bool moved = usable != l->boot && exact;

                if (!l->armed || !(moved || in->now - l->armed_at >= LIVE_START_TIMEOUT_US))
                        return 0;
                l->started = true;
                l->t0 = in->now;
        }
        out->covered_us = 0;
        while (!l->done && l->t + step_us <= in->now - l->t0) {
                int r = run_step(l, level, exact, out);

                if (r != 0) {
                        l->done = true;
                        l->error = r < 0 ? r : 0;
                        break;
                }
                out->covered_us += step_us;
        }
        if (l->done && out->covered_us == 0)
                out->covered_us = dt;   /* an idle board from now on */
        publish(l, out);
        return 0;
}

const struct fakeboard_driver sim_live_driver = {
        .step = live_step,
};
