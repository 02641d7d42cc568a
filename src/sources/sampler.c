/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/sampler.h"

#define PROC_STAT "/proc/stat"
#define PROC_PRESSURE_CPU "/proc/pressure/cpu"
#define PROC_LOADAVG "/proc/loadavg"
#define SYS_CPU_DIR "/sys/devices/system/cpu"

/* The kernel's idle and iowait counters may step back a little (iowait
 * is estimated); a CPU's counters falling by more than a second of ticks
 * (USER_HZ is 100 on every Linux ABI) are not the kernel's. */
#define BACKWARDS_TOLERANCE_TICKS 100
#define USEC_PER_TICK 10000

/* What a source that read badly said, for a person. */
static const char *parse_error(int r)
{
        return r == -EINVAL || r == -ERANGE ? "not in the kernel's format" : strerror(-r);
}

/* Which CPUs measure busy time how, once at start: the two differ in
 * resolution by four orders of magnitude. */
static void say_busy_sources(const struct bl_sampler *s, struct bl_diag *diag)
{
        const bl_cpumask *present = &s->topo->present;
        bl_cpumask with, without;
        char exact[128], ticks[128];

        cpumask_zero(&with);
        for (unsigned cpu = 0; cpu < cpumask_span(present); cpu++)
                if (cpumask_isset(present, cpu) && cpuidle_has(&s->idle, cpu))
                        cpumask_set(&with, cpu);
        without = *present;
        cpumask_andnot(&without, &with);
        cpumask_format(&with, exact, sizeof(exact));
        cpumask_format(&without, ticks, sizeof(ticks));
        if (cpumask_empty(&without))
                diag_add(diag, "busy time: cpuidle residency (exact) on CPUs %s", exact);
        else if (cpumask_empty(&with))
                diag_add(diag, "busy time: %s (USER_HZ ticks) on CPUs %s: no cpuidle states",
                         PROC_STAT, ticks);
        else
                diag_add(diag, "busy time: cpuidle residency (exact) on CPUs %s; "
                         "%s (USER_HZ ticks) on CPUs %s: no cpuidle states", exact, PROC_STAT, ticks);
}

int sampler_open(struct bl_sampler *s, const struct bl_topology *t, const struct bl_config *c,
                 struct bl_diag *diag)
{
        int r;

        memset(s, 0, sizeof(*s));
        s->topo = t;
        s->stat.fd = -1;
        s->psi.fd = -1;
        s->loadavg.fd = -1;
        /* Under umockdev (the tests, blsim live) /proc/stat is a testbed's:
         * it holds none of this process's time, and its counters move in
         * the board's steps, not at the kernel's ticks. */
        s->own_kernel = getenv("UMOCKDEV_DIR") == NULL;

        r = procstat_open(&s->stat, PROC_STAT);
        if (r < 0) {
                diag_add(diag, "%s: cannot open: %s", PROC_STAT, strerror(-r));
                return r;
        }
        r = cpuidle_open(&s->idle, SYS_CPU_DIR, &t->present);
        if (r < 0) {
                sampler_close(s);
                return r;
        }
        say_busy_sources(s, diag);

        r = psi_open(&s->psi, PROC_PRESSURE_CPU);
        if (r == -ENOENT || r == -EOPNOTSUPP)
                diag_add(diag, "%s: CPU pressure (PSI) not available in this kernel: %s; "
                         "samples carry no pressure", PROC_PRESSURE_CPU, strerror(-r));
        else if (r < 0)
                diag_add(diag, "%s: cannot read CPU pressure: %s; samples carry no pressure",
                         PROC_PRESSURE_CPU, strerror(-r));

        r = loadavg_open(&s->loadavg, PROC_LOADAVG);
        if (r < 0)
                diag_add(diag, "%s: cannot read the runnable tasks: %s; samples do not say what runs at "
                         "their end", PROC_LOADAVG, parse_error(r));

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

        (void)sampler_want_counters(s, sampler_counters_wanted(c), diag);
        return 0;
}

bool sampler_counters_wanted(const struct bl_config *c)
{
        for (unsigned i = 0; i < c->nheuristics; i++)
                if (c->heuristics[i].ops && (c->heuristics[i].ops->needs & BL_NEEDS_COUNTERS))
                        return true;
        return false;
}

static void counters_close(struct bl_sampler *s)
{
        perf_close(s->perf);
        s->perf = NULL;
        free(s->counts);
        s->counts = NULL;
        cpumask_zero(&s->counters_failed);
        s->problem[SAMPLER_PROBLEM_COUNTERS][0] = '\0';
}

int sampler_want_counters(struct bl_sampler *s, bool want, struct bl_diag *diag)
{
        struct perf_options opt = {
                .sysfs_root = "/sys",
                .paranoid_path = "/proc/sys/kernel/perf_event_paranoid",
                .cpus = s->topo->present,
                .events = s->perf_events,
                .sys = s->perf_sys,
        };
        char reason[512] = "";
        int r;

        if (!want) {
                counters_close(s);
                return 0;
        }
        if (s->perf || s->perf_tried)
                return 0;
        s->perf_tried = true;
        s->counts = calloc(s->topo->ncpus, sizeof(*s->counts));
        if (!s->counts)
                return -ENOMEM;
        r = perf_open(&s->perf, &opt, reason, sizeof(reason));
        if (r < 0) {
                diag_add(diag, "%s; heuristics that need them are disabled", reason);
                counters_close(s);
                return r;
        }
        s->counters_online = *perf_cpus(s->perf);
        if (perf_third_event(s->perf))
                diag_add(diag, "hardware counters: cycles, instructions and %s on each CPU%s%s",
                         perf_third_event(s->perf), reason[0] ? "; " : "", reason);
        else
                diag_add(diag, "hardware counters: cycles and instructions on each CPU%s%s",
                         reason[0] ? "; " : "", reason);
        return 0;
}

static void __attribute__((format(printf, 3, 4)))
set_problem(struct bl_sampler *s, enum sampler_problem kind, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(s->problem[kind], sizeof(s->problem[kind]), fmt, ap);
        va_end(ap);
}

static void say_counters_failed(struct bl_sampler *s)
{
        bool many = cpumask_count(&s->counters_failed) > 1;
        char list[128];

        if (cpumask_empty(&s->counters_failed)) {
                s->problem[SAMPLER_PROBLEM_COUNTERS][0] = '\0';
                return;
        }
        cpumask_format(&s->counters_failed, list, sizeof(list));
        set_problem(s, SAMPLER_PROBLEM_COUNTERS, "the hardware counters of %s %s did not open when %s online "
                    "(%s); %s without until it next comes online", many ? "CPUs" : "CPU", list,
                    many ? "they came" : "it came", s->counters_error, many ? "each goes" : "it goes");
}

static void counters_cpu_online(struct bl_sampler *s, unsigned cpu)
{
        char reason[SAMPLER_PROBLEM_MAX];
        int r;

        r = perf_cpu_online(s->perf, cpu, reason, sizeof(reason));
        if (r < 0) {
                cpumask_set(&s->counters_failed, cpu);
                snprintf(s->counters_error, sizeof(s->counters_error), "%s", reason);
        } else {
                cpumask_clear(&s->counters_failed, cpu);
        }
        say_counters_failed(s);
}

/* /proc/stat lists the online CPUs; the counters follow them. */
static void counters_follow_hotplug(struct bl_sampler *s)
{
        bl_cpumask came, went;
        unsigned span;

        if (!s->perf || cpumask_equal(&s->cur.cpus, &s->counters_online))
                return;
        came = s->cur.cpus;
        cpumask_andnot(&came, &s->counters_online);
        cpumask_and(&came, &s->topo->present);
        went = s->counters_online;
        cpumask_andnot(&went, &s->cur.cpus);
        s->counters_online = s->cur.cpus;
        span = cpumask_span(&s->cur.cpus);
        if (cpumask_span(&went) > span)
                span = cpumask_span(&went);
        for (unsigned cpu = 0; cpu < span; cpu++) {
                if (cpumask_isset(&went, cpu))
                        perf_cpu_offline(s->perf, cpu);
                else if (cpumask_isset(&came, cpu))
                        counters_cpu_online(s, cpu);
        }
}

void sampler_cpu_offline(struct bl_sampler *s, unsigned cpu)
{
        if (!s->perf)
                return;
        perf_cpu_offline(s->perf, cpu);
        cpumask_clear(&s->counters_online, cpu);
}

/* Counters go with the CPUs' records; a CPU whose group did not run in the
 * interval has none. */
static void read_counters(struct bl_sampler *s, struct bl_sample_buf *buf)
{
        const unsigned n = s->topo->ncpus;

        if (!s->perf)
                return;
        /* A failed read leaves has_counters false where it failed. */
        (void)perf_read(s->perf, s->counts, n);
        for (unsigned cpu = 0; cpu < n && cpu < buf->s.ncpus; cpu++) {
                const struct perf_counts *k = &s->counts[cpu];
                struct bl_cpu_sample *c = &buf->cpu[cpu];

                /* Without the third event nothing says how memory-bound the
                 * work is: no counters rather than an mpki of 0. */
                if (!c->online || !k->has_counters || !k->has_ipc || !k->has_mpki)
                        continue;
                c->has_counters = true;
                c->ipc = (float)k->ipc;
                c->mpki = (float)k->mpki;
        }
}

static void keep_snapshot(struct procstat *dst, const struct procstat *src)
{
        /* Only the CPUs that exist matter; the full array is 16 KiB a tick. */
        dst->cpus = src->cpus;
        dst->ncpus = src->ncpus;
        memcpy(dst->cpu, src->cpu, src->ncpus * sizeof(src->cpu[0]));
}

static uint64_t progress(uint64_t prev, uint64_t cur)
{
        return cur > prev ? cur - prev : 0;
}

/* Replaces /proc/stat's busy fraction of the CPUs online over the interval
 * with cpuidle's where it covers the interval, which checks it against
 * the same ticks. cpuidle's residency is exact, so the daemon's own time
 * comes off its CPU's interval at once. */
static void busy_from_cpuidle(struct bl_sampler *s, bl_usec_t interval, int own_cpu, double own_us)
{
        unsigned span = s->cur.ncpus < s->prev.ncpus ? s->cur.ncpus : s->prev.ncpus;

        for (unsigned cpu = 0; cpu < span; cpu++) {
                const struct procstat_cpu *a = &s->prev.cpu[cpu], *b = &s->cur.cpu[cpu];

                if (!cpumask_isset(&s->online, cpu))
                        continue;
                if (cpuidle_cpu_busy(&s->idle, cpu, interval, progress(a->busy, b->busy),
                                     progress(a->idle, b->idle), (b->busy + b->idle) * USEC_PER_TICK,
                                     &s->busy[cpu]) && (int)cpu == own_cpu) {
                        double own = own_us / (double)interval;
                        double busy = s->busy[cpu] - own;

                        s->busy[cpu] = busy > 0 ? (float)busy : 0.0f;
                        cpuidle_own_share(&s->idle, cpu, own);
                }
        }
}

/* Each online CPU's busy fraction from its latest STAT_WINDOW_TICKS ticks
 * rather than the interval's one or two (sources/stat-window.h); cpuidle
 * replaces it where it covers the interval. */
static void busy_over_window(struct bl_sampler *s, int own_cpu, double own_us)
{
        /* The CPUs /proc/stat lists now or listed at the last read: a CPU
         * beyond was not online at either, and its window was forgotten at
         * the first read without it. Walking BL_MAX_CPUS was half of the
         * tick's instructions on an 8-CPU board. */
        unsigned span = s->cur.ncpus > s->prev.ncpus ? s->cur.ncpus : s->prev.ncpus;

        for (unsigned cpu = 0; cpu < span && cpu < BL_MAX_CPUS; cpu++) {
                const struct procstat_cpu *a = &s->prev.cpu[cpu], *b = &s->cur.cpu[cpu];

                if (!s->have_prev || !cpumask_isset(&s->online, cpu)) {
                        if (s->window[cpu].n)
                                stat_window_reset(&s->window[cpu]);
                        continue;
                }
                s->busy[cpu] = stat_window_add(&s->window[cpu], progress(a->busy, b->busy),
                                               progress(a->idle, b->idle),
                                               (int)cpu == own_cpu ? own_us / USEC_PER_TICK : 0.0);
        }
}

/* Whether this tick has a use for the sampling thread's own time, on its
 * CPU 'cpu': /proc/stat counted busy ticks there that it may account for,
 * or cpuidle's files of the CPU will be read (quiet_cpus()). Otherwise the
 * CPU reads idle with or without it, and it waits for a tick that needs it
 * (sources/self-time.h). */
static bool own_time_needed(const struct bl_sampler *s, int cpu)
{
        if (cpu < 0 || cpu >= BL_MAX_CPUS || !cpumask_isset(&s->online, (unsigned)cpu))
                return false;
        return s->window[cpu].sum_busy > 0 || s->cur.cpu[cpu].busy != s->prev.cpu[cpu].busy ||
               (cpuidle_has(&s->idle, (unsigned)cpu) && !cpuidle_quiet_own(&s->idle, (unsigned)cpu));
}

/* The CPUs whose cpuidle files need no read this tick (cpuidle_read()):
 * idle at cpuidle's last answer, and no busy tick in /proc/stat's window
 * nor in this interval (the window takes the daemon's own time off, which
 * cpuidle's skipped reads would not). The CPU the sampling thread runs on
 * ('own_cpu') is charged whole ticks for the daemon's fractions of them:
 * net of its own time, its window may hold less than a tick of others'
 * work, and cpuidle_quiet_own()'s test applies. Reading every state of every CPU is
 * most of what the daemon costs the kernel on an idle machine. */
static void quiet_cpus(const struct bl_sampler *s, int own_cpu, bl_cpumask *quiet)
{
        cpumask_zero(quiet);
        if (!s->have_prev)
                return;
        /* cpuidle's CPUs only: BL_MAX_CPUS would cost more than it saves */
        for (unsigned cpu = 0; cpu < s->idle.ncpus; cpu++) {
                bool q;

                if (!cpumask_isset(&s->online, cpu))
                        continue;
                if ((int)cpu == own_cpu)
                        q = s->busy[cpu] < CPUIDLE_OWN_QUIET_BUSY && cpuidle_quiet_own(&s->idle, cpu);
                else
                        q = s->busy[cpu] <= 0.0f && s->cur.cpu[cpu].busy == s->prev.cpu[cpu].busy &&
                            cpuidle_quiet(&s->idle, cpu);
                if (q)
                        cpumask_set(quiet, cpu);
        }
}

static void read_pressure(struct bl_sampler *s, bl_usec_t interval, struct bl_sample *out)
{
        uint64_t total;
        int r;

        s->problem[SAMPLER_PROBLEM_PSI][0] = '\0';
        if (s->psi.fd < 0)
                return;
        r = psi_read(&s->psi, &total);
        if (r < 0) {
                set_problem(s, SAMPLER_PROBLEM_PSI, "%s: %s; samples carry no CPU pressure until it reads "
                            "again", PROC_PRESSURE_CPU, parse_error(r));
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

/* The reader itself is one of the runnable tasks /proc/loadavg counts. */
static void read_running(struct bl_sampler *s, struct bl_sample *out)
{
        unsigned running;
        int r;

        s->problem[SAMPLER_PROBLEM_LOADAVG][0] = '\0';
        if (s->loadavg.fd < 0)
                return;
        r = loadavg_read(&s->loadavg, &running);
        if (r < 0) {
                set_problem(s, SAMPLER_PROBLEM_LOADAVG, "%s: %s; samples do not say what runs at their end "
                            "until it reads again", PROC_LOADAVG, parse_error(r));
                return;
        }
        out->has_running = true;
        out->running = running - 1;
}

/* A CPU whose counters fell (beyond the kernel's own wobble): the cpu
 * line is someone else's, or the counters were reset. Returns it, or -1. */
static int counters_went_back(const struct procstat *prev, const struct procstat *cur)
{
        unsigned span = cur->ncpus < prev->ncpus ? cur->ncpus : prev->ncpus;

        for (unsigned cpu = 0; cpu < span; cpu++) {
                const struct procstat_cpu *a = &prev->cpu[cpu], *b = &cur->cpu[cpu];

                if (!cpumask_isset(&prev->cpus, cpu) || !cpumask_isset(&cur->cpus, cpu))
                        continue;
                if (b->busy + BACKWARDS_TOLERANCE_TICKS < a->busy ||
                    b->idle + BACKWARDS_TOLERANCE_TICKS < a->idle)
                        return (int)cpu;
        }
        return -1;
}

/* The policies and zones that did not read, for the log. */
static void note_source_problems(struct bl_sampler *s)
{
        s->problem[SAMPLER_PROBLEM_FREQ][0] = '\0';
        for (unsigned i = 0; i < s->freq.n; i++) {
                const struct cpufreq_policy_reader *p = &s->freq.policy[i];
                char cpus[128];

                if (p->error == 0)
                        continue;
                cpumask_format(&p->cpus, cpus, sizeof(cpus));
                set_problem(s, SAMPLER_PROBLEM_FREQ, "cpufreq policy of CPUs %s: scaling_cur_freq: %s; their "
                            "capacity is taken at the top frequency until it reads again", cpus,
                            parse_error(p->error));
                break;
        }
        /* Every zone left out is named: one going bad, or reading well
         * again, changes the line, so the daemon says each change once. */
        char *line = s->problem[SAMPLER_PROBLEM_THERMAL];
        size_t len = 0, size = sizeof(s->problem[SAMPLER_PROBLEM_THERMAL]);
        unsigned bad = 0;

        line[0] = '\0';
        for (unsigned i = 0; i < s->thermal.n && len < size; i++) {
                const struct thermal_zone *z = &s->thermal.zone[i];

                if (z->error == 0)
                        continue;
                len += (size_t)snprintf(line + len, size - len, "%s%s (%s): temp: ", bad++ ? "; " : "",
                                        z->sysname, z->type);
                if (len >= size)
                        break;
                /* -EDOM: thermal_read()'s answer for a temperature no CPU reaches. */
                if (z->error == -EDOM)
                        len += (size_t)snprintf(line + len, size - len, "outside %d..%d °C, no CPU reads that",
                                                BL_TEMP_PLAUSIBLE_MIN_MC / 1000, BL_TEMP_PLAUSIBLE_MAX_MC / 1000);
                else
                        len += (size_t)snprintf(line + len, size - len, "%s", parse_error(z->error));
        }
        if (bad && len < size)
                snprintf(line + len, size - len, "; %s left out until %s again",
                         bad == 1 ? "the zone is" : "the zones are", bad == 1 ? "it reads" : "they read");
}

int sampler_read(struct bl_sampler *s, bl_usec_t now, struct bl_sample_buf *buf)
{
        const struct bl_topology *t = s->topo;
        struct bl_sample *out = &buf->s;
        bl_cpumask quiet;
        uint64_t own_used, own_since;
        int r, mc, back, own_cpu;

        /* On failure the previous snapshot stays, so the next good read
         * covers the gap. */
        r = procstat_read(&s->stat, &s->cur);
        if (r < 0) {
                set_problem(s, SAMPLER_PROBLEM_STAT, "%s: %s", PROC_STAT, r == -EINVAL ?
                            "not in the kernel's format (empty, cut or garbage)" : strerror(-r));
                return r;
        }
        back = s->have_prev ? counters_went_back(&s->prev, &s->cur) : -1;
        if (back >= 0) {
                set_problem(s, SAMPLER_PROBLEM_STAT, "%s: the counters of cpu%d went backwards; starting a "
                            "new interval", PROC_STAT, back);
                /* Measured from these counters on. */
                keep_snapshot(&s->prev, &s->cur);
                for (unsigned cpu = 0; cpu < BL_MAX_CPUS; cpu++)
                        stat_window_reset(&s->window[cpu]);
                s->prev_now = now;
                return -ERANGE;
        }
        s->problem[SAMPLER_PROBLEM_STAT][0] = '\0';

        sample_buf_init(buf, t->ncpus);
        out->now = now;
        out->interval = s->have_prev && now > s->prev_now ? now - s->prev_now : 0;

        own_cpu = s->own_kernel ? self_time_cpu() : -1;
        own_used = own_since = 0;
        /* Not procstat_busy(): busy_over_window() gives each CPU online
         * over the interval its fraction, and a first read none, so only
         * the online set is needed and 'busy' cleared. Every CPU given a
         * fraction was below the ncpus of a read: clearing BL_MAX_CPUS of
         * them cost more than the 8 CPUs' fractions. */
        if (s->cur.ncpus > s->busy_span)
                s->busy_span = s->cur.ncpus;
        for (unsigned cpu = 0; cpu < s->busy_span; cpu++)
                s->busy[cpu] = 0.0f;
        procstat_online(s->have_prev ? &s->prev : &s->cur, &s->cur, &s->online);
        /* The first sample only starts the count. */
        if (s->own_kernel && (!s->have_prev || own_time_needed(s, own_cpu))) {
                self_time_take(&s->self, now, &own_used, &own_since);
                if (!s->have_prev)
                        own_used = 0;
        }
        busy_over_window(s, own_cpu,
                         self_time_share(own_used, own_since, (uint64_t)STAT_WINDOW_TICKS * USEC_PER_TICK));
        quiet_cpus(s, own_cpu, &quiet);
        cpuidle_read(&s->idle, &s->cur.cpus, &quiet);
        if (out->interval > 0)
                busy_from_cpuidle(s, out->interval, own_cpu, self_time_share(own_used, own_since, out->interval));
        /* A policy that fails to answer is said by note_source_problems(). */
        (void)cpufreq_read(&s->freq, s->busy);
        cpufreq_scale(&s->freq, t, s->capacity);
        /* CPUs the topology does not know are not ours to report. */
        for (unsigned cpu = 0; cpu < out->ncpus; cpu++) {
                struct bl_cpu_sample *c = &buf->cpu[cpu];
                int k = t->cpu_cluster[cpu];

                if (!cpumask_isset(&s->online, cpu))
                        continue;
                c->online = true;
                c->busy = s->busy[cpu];
                c->capacity = s->capacity[cpu];
                if (k >= 0)
                        c->max_capacity = (uint16_t)t->clusters[k].capacity;
        }

        read_pressure(s, out->interval, out);
        read_running(s, out);
        counters_follow_hotplug(s);
        read_counters(s, buf);

        if (thermal_read(&s->thermal, &mc) == 0) {
                out->has_temp = true;
                out->temp_mc = mc;
        }
        note_source_problems(s);

        keep_snapshot(&s->prev, &s->cur);
        s->have_prev = true;
        s->prev_now = now;
        return 0;
}

void sampler_restart(struct bl_sampler *s)
{
        s->have_prev = false;
        s->have_psi_prev = false;
        /* Suspend to RAM takes every CPU but the boot one offline and back,
         * which neither /proc/stat nor udev shows: every group opens anew. */
        cpumask_zero(&s->counters_online);
        cpuidle_restart(&s->idle);
        self_time_reset(&s->self);
}

void sampler_close(struct bl_sampler *s)
{
        procstat_close(&s->stat);
        cpuidle_close(&s->idle);
        psi_close(&s->psi);
        loadavg_close(&s->loadavg);
        cpufreq_close(&s->freq);
        thermal_close(&s->thermal);
        counters_close(s);
}

bool sampler_own_kernel(const struct bl_sampler *s)
{
        return s->own_kernel;
}

unsigned sampler_signals(const struct bl_sampler *s)
{
        return (s->psi.fd >= 0 ? BL_NEEDS_PRESSURE : 0) | (s->perf ? BL_NEEDS_COUNTERS : 0);
}
