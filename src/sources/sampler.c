/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <string.h>

#include "sources/sampler.h"

#define PROC_STAT "/proc/stat"
#define PROC_PRESSURE_CPU "/proc/pressure/cpu"

int sampler_open(struct bl_sampler *s, const struct bl_topology *t, const struct bl_config *c,
                 struct bl_diag *diag)
{
        int r;

        memset(s, 0, sizeof(*s));
        s->topo = t;
        s->stat.fd = -1;
        s->psi.fd = -1;

        r = procstat_open(&s->stat, PROC_STAT);
        if (r < 0) {
                diag_add(diag, "%s: cannot open: %s", PROC_STAT, strerror(-r));
                return r;
        }

        r = psi_open(&s->psi, PROC_PRESSURE_CPU);
        if (r == -ENOENT || r == -EOPNOTSUPP)
                diag_add(diag, "%s: CPU pressure (PSI) not available in this kernel: %s; "
                         "samples carry no pressure", PROC_PRESSURE_CPU, strerror(-r));
        else if (r < 0)
                diag_add(diag, "%s: cannot read CPU pressure: %s; samples carry no pressure",
                         PROC_PRESSURE_CPU, strerror(-r));

        r = cpufreq_open(&s->freq);
        if (r < 0)
                diag_add(diag, "cpufreq: cannot read the policies: %s; capacity at top frequency assumed",
                         strerror(-r));
        else if (s->freq.n == 0)
                diag_add(diag, "cpufreq: no policy found; capacity at top frequency assumed");

        r = thermal_open(&s->thermal, c, diag);
        if (r < 0) {
                sampler_close(s);
                return r;
        }
        if (s->thermal.n == 0)
                diag_add(diag, "no thermal zone: thermal limits disabled");
        return 0;
}

static void keep_snapshot(struct procstat *dst, const struct procstat *src)
{
        /* Only the CPUs that exist matter; the full array is 16 KiB a tick. */
        dst->cpus = src->cpus;
        dst->ncpus = src->ncpus;
        memcpy(dst->cpu, src->cpu, src->ncpus * sizeof(src->cpu[0]));
}

static void read_pressure(struct bl_sampler *s, bl_usec_t interval, struct bl_sample *out)
{
        uint64_t total;

        if (s->psi.fd < 0)
                return;
        if (psi_read(&s->psi, &total) < 0) {
                /* the next good read starts a new interval */
                s->have_psi_prev = false;
                return;
        }
        if (s->have_psi_prev && interval > 0) {
                uint64_t stalled = total > s->psi_prev ? total - s->psi_prev : 0;
                double share = (double)stalled / (double)interval;

                out->pressure = share > 1.0 ? 1.0 : share;
                out->has_pressure = true;
        }
        s->psi_prev = total;
        s->have_psi_prev = true;
}

int sampler_read(struct bl_sampler *s, bl_usec_t now, struct bl_sample *out)
{
        const struct bl_topology *t = s->topo;
        int r, mc;

        /* On failure the previous snapshot stays, so the next good read
         * covers the gap. */
        r = procstat_read(&s->stat, &s->cur);
        if (r < 0)
                return r;

        memset(out, 0, sizeof(*out));
        out->now = now;
        out->interval = s->have_prev && now > s->prev_now ? now - s->prev_now : 0;
        out->ncpus = t->ncpus;

        procstat_busy(s->have_prev ? &s->prev : &s->cur, &s->cur, out->busy, &out->online);
        /* CPUs the topology does not know are not ours to report. */
        for (unsigned cpu = t->ncpus, span = cpuset_span(&out->online); cpu < span; cpu++) {
                cpuset_clear(&out->online, cpu);
                out->busy[cpu] = 0.0f;
        }

        /* A policy that fails to answer keeps its last frequency. */
        (void)cpufreq_read(&s->freq);
        cpufreq_scale(&s->freq, t, out->capacity);
        for (unsigned cpu = 0; cpu < t->ncpus; cpu++) {
                int k = t->cpu_cluster[cpu];

                if (!cpuset_isset(&out->online, cpu))
                        out->capacity[cpu] = 0;
                else if (k >= 0)
                        out->max_capacity[cpu] = (uint16_t)t->clusters[k].capacity;
        }

        read_pressure(s, out->interval, out);

        if (thermal_read(&s->thermal, &mc) == 0) {
                out->has_temp = true;
                out->temp_mc = mc;
        }

        keep_snapshot(&s->prev, &s->cur);
        s->have_prev = true;
        s->prev_now = now;
        return 0;
}

void sampler_close(struct bl_sampler *s)
{
        procstat_close(&s->stat);
        psi_close(&s->psi);
        cpufreq_close(&s->freq);
        thermal_close(&s->thermal);
}
