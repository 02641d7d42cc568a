/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "sources/cpuidle.h"

#define PATH_SIZE 512

/* "Contradict each other": both sources this sure, in opposite directions. */
#define SURE_NUM 9
#define SURE_DEN 10

static void close_states(struct cpuidle_cpu *c)
{
        for (unsigned k = 0; k < c->nstates; k++)
                close(c->fd[k]);
        c->nstates = 0;
        c->have_total = false;
        c->have_idle = false;
        c->pending = (struct cpuidle_pending){ 0 };
}

/* States are numbered from 0 without gaps; the first that does not open
 * ends the list. */
static void open_states(const struct cpuidle_reader *r, unsigned cpu, struct cpuidle_cpu *c)
{
        close_states(c);
        for (unsigned k = 0; k < CPUIDLE_MAX_STATES; k++) {
                char path[PATH_SIZE];
                int n, fd;

                n = snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u/time", r->dir, cpu, k);
                if (n < 0 || (size_t)n >= sizeof(path))
                        break;
                fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
                if (fd < 0)
                        break;
                c->fd[c->nstates++] = fd;
        }
}

int cpuidle_open(struct cpuidle_reader *r, const char *cpu_dir, const bl_cpuset *cpus)
{
        unsigned span = cpuset_span(cpus);

        *r = (struct cpuidle_reader){ 0 };
        if (span > BL_MAX_CPUS)
                span = BL_MAX_CPUS;
        r->dir = strdup(cpu_dir);
        r->cpu = calloc(span ? span : 1, sizeof(*r->cpu));
        if (!r->dir || !r->cpu) {
                cpuidle_close(r);
                return -ENOMEM;
        }
        r->ncpus = span;
        for (unsigned cpu = 0; cpu < span; cpu++)
                if (cpuset_isset(cpus, cpu))
                        open_states(r, cpu, &r->cpu[cpu]);
        /* Everything was just opened: not again at the first read. */
        r->read_last = *cpus;
        return 0;
}

static int read_state(int fd, uint64_t *ret)
{
        char buf[32];
        long long v;
        int r;

        r = pread_text(fd, buf, sizeof(buf), NULL);
        if (r < 0)
                return r;
        r = parse_int(buf, &v);
        if (r < 0)
                return r;
        if (v < 0)
                return -ERANGE;
        *ret = (uint64_t)v;
        return 0;
}

static int read_total(const struct cpuidle_cpu *c, uint64_t *ret)
{
        uint64_t total = 0;

        for (unsigned k = 0; k < c->nstates; k++) {
                uint64_t v;
                int r = read_state(c->fd[k], &v);

                if (r < 0)
                        return r;
                if (__builtin_add_overflow(total, v, &total))
                        return -ERANGE;
        }
        *ret = total;
        return 0;
}

static void read_cpu(const struct cpuidle_reader *r, unsigned cpu, struct cpuidle_cpu *c)
{
        uint64_t total;

        c->have_idle = false;
        if (c->nstates == 0)
                return;
        if (read_total(c, &total) < 0) {
                /* The states went away (the kernel re-created them, or the
                 * CPU went offline between the reads): look them up again,
                 * and start a new interval with what they say. */
                open_states(r, cpu, c);
                if (c->nstates == 0 || read_total(c, &total) < 0) {
                        close_states(c);
                        return;
                }
        } else if (c->have_total && total >= c->total_us) {
                c->idle_us = total - c->total_us;
                c->have_idle = true;
        }
        if (!c->have_idle)
                c->pending = (struct cpuidle_pending){ 0 };
        c->total_us = total;
        c->have_total = true;
}

void cpuidle_read(struct cpuidle_reader *r, const bl_cpuset *online)
{
        for (unsigned cpu = 0; cpu < r->ncpus; cpu++) {
                struct cpuidle_cpu *c = &r->cpu[cpu];

                if (!cpuset_isset(online, cpu)) {
                        c->have_total = false;
                        c->have_idle = false;
                        c->pending = (struct cpuidle_pending){ 0 };
                        continue;
                }
                /* Back from offline: its states may have been re-created,
                 * or appeared for the first time. */
                if (!cpuset_isset(&r->read_last, cpu))
                        open_states(r, cpu, c);
                read_cpu(r, cpu, c);
        }
        r->read_last = *online;
}

bool cpuidle_has(const struct cpuidle_reader *r, unsigned cpu)
{
        return cpu < r->ncpus && r->cpu[cpu].nstates > 0;
}

float cpuidle_busy(uint64_t idle_us, uint64_t interval_us, uint64_t stat_busy, uint64_t stat_idle,
                   struct cpuidle_pending *p)
{
        uint64_t ticks = stat_busy + stat_idle;
        bool ended = false;
        double busy;

        if (interval_us == 0)
                return 0.0f;
        if (p->idle && idle_us == 0 && stat_busy == 0) {
                p->credited_us += interval_us;
                return 0.0f;
        }
        if (p->idle && idle_us > 0) {
                /* The period ended and its whole time came at once: the
                 * intervals it filled were reported idle already. */
                idle_us -= idle_us < p->credited_us ? idle_us : p->credited_us;
                ended = true;
        }
        p->idle = false;
        p->credited_us = 0;
        /* No idle period ended, yet /proc/stat, which counts the current
         * one, saw idle time: the CPU went idle in the interval and still
         * is. How long ago only the ticks tell. */
        if (!ended && idle_us == 0 && stat_idle > 0) {
                p->idle = true;
                return (float)((double)stat_busy / (double)ticks);
        }
        busy = idle_us >= interval_us ? 0.0 : 1.0 - (double)idle_us / (double)interval_us;
        if (busy * SURE_DEN >= SURE_NUM && ticks > 0 && stat_idle * SURE_DEN >= ticks * SURE_NUM)
                return (float)((double)stat_busy / (double)ticks);
        return (float)busy;
}

bool cpuidle_cpu_busy(struct cpuidle_reader *r, unsigned cpu, uint64_t interval_us, uint64_t stat_busy,
                      uint64_t stat_idle, float *ret)
{
        struct cpuidle_cpu *c;

        if (cpu >= r->ncpus || interval_us == 0)
                return false;
        c = &r->cpu[cpu];
        if (c->nstates == 0 || !c->have_idle)
                return false;
        *ret = cpuidle_busy(c->idle_us, interval_us, stat_busy, stat_idle, &c->pending);
        return true;
}

void cpuidle_restart(struct cpuidle_reader *r)
{
        for (unsigned cpu = 0; cpu < r->ncpus; cpu++) {
                r->cpu[cpu].have_total = false;
                r->cpu[cpu].have_idle = false;
                r->cpu[cpu].pending = (struct cpuidle_pending){ 0 };
        }
}

void cpuidle_close(struct cpuidle_reader *r)
{
        for (unsigned cpu = 0; cpu < r->ncpus; cpu++)
                close_states(&r->cpu[cpu]);
        free(r->cpu);
        free(r->dir);
        *r = (struct cpuidle_reader){ 0 };
}
