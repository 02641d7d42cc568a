/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "sources/cpuidle.h"

#define PATH_SIZE 512

/* A USER_HZ tick: /proc/stat counts in these (USER_HZ is 100 on every
 * Linux ABI). */
#define USEC_PER_TICK 10000

/* "Contradict each other": both sources this sure, in opposite directions. */
#define SURE_NUM 9
#define SURE_DEN 10

/* The weight the history keeps per period ended since: the idle share is
 * taken over the last ~12 periods, long enough that the count of periods
 * ending per interval (1 or 2 at 11 ms periods read every 20 ms) and their
 * lengths' jitter average out, short in time where periods are short (a
 * busier CPU, whose rhythm changes with its load). Past
 * CYCLE_FORGET_PERIODS at once, the history is gone. */
#define CYCLE_KEEP_PER_PERIOD 0.92
#define CYCLE_FORGET_PERIODS 32
/* A CPU's history starts from its mean since it came online (cpuidle_cpu_busy()),
 * weighing as this many periods, once it has at least CYCLE_PRIOR_MIN. */
#define CYCLE_PRIOR_PERIODS 4
#define CYCLE_PRIOR_MIN 32
/* An interval this busy in at least this many periods that began in it,
 * after this long without a busy tick, outdates the history
 * (history_outdated()). */
#define ONSET_QUIET_US 50000
#define ONSET_BUSY 0.6
#define ONSET_PERIODS 2

static void close_states(struct cpuidle_cpu *c)
{
        for (unsigned k = 0; k < c->nstates; k++) {
                close(c->fd[k]);
                if (c->usage_fd[k] >= 0)
                        close(c->usage_fd[k]);
        }
        c->nstates = 0;
        c->have_usage = false;
        c->have_total = false;
        c->have_idle = false;
        c->skipped = 0;
        c->resumed = false;
        c->est = (struct cpuidle_estimate){ 0 };
}

static int open_state_file(const struct cpuidle_reader *r, unsigned cpu, unsigned k, const char *name)
{
        char path[PATH_SIZE];
        int n;

        n = snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u/%s", r->dir, cpu, k, name);
        if (n < 0 || (size_t)n >= sizeof(path))
                return -ENAMETOOLONG;
        return open_kept(path);
}

/* States are numbered from 0 without gaps; the first whose time does not
 * open ends the list. The count of ended periods needs every state's
 * usage; without, an interval with residency counts as one period. */
static void open_states(const struct cpuidle_reader *r, unsigned cpu, struct cpuidle_cpu *c)
{
        close_states(c);
        c->have_usage = true;
        for (unsigned k = 0; k < CPUIDLE_MAX_STATES; k++) {
                int fd = open_state_file(r, cpu, k, "time");

                if (fd < 0)
                        break;
                c->fd[k] = fd;
                c->usage_fd[k] = open_state_file(r, cpu, k, "usage");
                c->have_usage = c->have_usage && c->usage_fd[k] >= 0;
                c->nstates++;
        }
        if (c->nstates == 0)
                c->have_usage = false;
}

int cpuidle_open(struct cpuidle_reader *r, const char *cpu_dir, const bl_cpumask *cpus)
{
        unsigned span = cpumask_span(cpus);

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
                if (cpumask_isset(cpus, cpu))
                        open_states(r, cpu, &r->cpu[cpu]);
        /* Everything was just opened: not again at the first read. */
        r->read_last = *cpus;
        return 0;
}

/* What the kernel writes, "digits\n" (at most 18 digits: no overflow), is
 * parsed here, every state of every CPU at every tick; anything else goes
 * to parse_int(), for its answer and errors. */
static bool parse_counter(const char *text, uint64_t *ret)
{
        const char *p = text;
        uint64_t v = 0;
        unsigned d;

        while ((d = (unsigned)(unsigned char)*p - '0') <= 9 && p - text < 18) {
                v = v * 10 + d;
                p++;
        }
        if (p == text || *p != '\n' || p[1] != '\0')
                return false;
        *ret = v;
        return true;
}

static int read_state(int fd, uint64_t *ret)
{
        char buf[32];
        long long v;
        int r;

        r = pread_text(fd, buf, sizeof(buf), NULL);
        if (r < 0)
                return r;
        if (parse_counter(buf, ret))
                return 0;
        r = parse_int(buf, &v);
        if (r < 0)
                return r;
        if (v < 0)
                return -ERANGE;
        *ret = (uint64_t)v;
        return 0;
}

/* A state's usage is read only where its time moved: a period that ended
 * added to both (a period of no length aside), and a tick of an idle
 * machine finds most states unchanged. The kernel adds a period's time,
 * then counts it in usage; one ending between the two reads shows as a
 * count without its time (a busier interval, paid back at the next), or at
 * the next read as time without its count (taken as one period). */
static int read_total(struct cpuidle_cpu *c, uint64_t *ret_us, uint64_t *ret_usage)
{
        uint64_t total = 0, usage = 0;

        for (unsigned k = 0; k < c->nstates; k++) {
                uint64_t v, u = 0;
                int r;

                r = read_state(c->fd[k], &v);
                if (r < 0)
                        return r;
                if (c->have_usage) {
                        if (c->have_total && v == c->state_us[k])
                                u = c->state_usage[k];
                        else if ((r = read_state(c->usage_fd[k], &u)) < 0)
                                return r;
                }
                c->state_us[k] = v;
                c->state_usage[k] = u;
                if (__builtin_add_overflow(total, v, &total) || __builtin_add_overflow(usage, u, &usage))
                        return -ERANGE;
        }
        *ret_us = total;
        *ret_usage = usage;
        return 0;
}

static void read_cpu(const struct cpuidle_reader *r, unsigned cpu, struct cpuidle_cpu *c)
{
        uint64_t total, usage;

        c->have_idle = false;
        if (c->nstates == 0)
                return;
        if (read_total(c, &total, &usage) < 0) {
                /* The states went away (the kernel re-created them, or the
                 * CPU went offline between the reads): look them up again,
                 * and start a new interval with what they say. */
                open_states(r, cpu, c);
                if (c->nstates == 0 || read_total(c, &total, &usage) < 0) {
                        close_states(c);
                        return;
                }
        } else if (c->have_total && total >= c->total_us && usage >= c->total_usage) {
                c->idle_us = total - c->total_us;
                c->periods = c->have_usage ? usage - c->total_usage : c->idle_us > 0;
                c->have_idle = true;
        }
        /* A new interval: nothing is known of the CPU, quiet or not. */
        if (!c->have_idle)
                c->est = (struct cpuidle_estimate){ 0 };
        c->total_us = total;
        c->total_usage = usage;
        c->have_total = true;
}

void cpuidle_read(struct cpuidle_reader *r, const bl_cpumask *online, const bl_cpumask *skip)
{
        for (unsigned cpu = 0; cpu < r->ncpus; cpu++) {
                struct cpuidle_cpu *c = &r->cpu[cpu];
                bool on = cpumask_isset(online, cpu);

                /* Back from offline: its states may have been re-created,
                 * or appeared for the first time. */
                if (on && !cpumask_isset(&r->read_last, cpu))
                        open_states(r, cpu, c);
                if (!on) {
                        c->have_total = false;
                        c->have_idle = false;
                        c->est = (struct cpuidle_estimate){ 0 };
                        continue;
                }
                /* Taken as read and unchanged: a period that ended meanwhile
                 * shows at the next read, over the whole span since the CPU
                 * was last seen busy (the estimate's span_us). */
                if (skip && cpumask_isset(skip, cpu) && c->have_total && c->skipped < CPUIDLE_SKIP_MAX) {
                        c->skipped++;
                        c->resumed = false;
                        c->have_idle = true;
                        c->idle_us = 0;
                        c->periods = 0;
                        continue;
                }
                c->resumed = c->skipped > 0;
                c->skipped = 0;
                if (c->nstates > 0)
                        r->cpus_read++;
                read_cpu(r, cpu, c);
        }
        r->read_last = *online;
}

static bool last_below(const struct cpuidle_reader *r, unsigned cpu, float limit)
{
        return cpu < r->ncpus && r->cpu[cpu].est.have_last && r->cpu[cpu].est.last_busy < limit;
}

bool cpuidle_quiet(const struct cpuidle_reader *r, unsigned cpu)
{
        return last_below(r, cpu, CPUIDLE_QUIET_BUSY);
}

bool cpuidle_quiet_own(const struct cpuidle_reader *r, unsigned cpu)
{
        return last_below(r, cpu, CPUIDLE_OWN_QUIET_BUSY);
}

void cpuidle_own_share(struct cpuidle_reader *r, unsigned cpu, double share)
{
        struct cpuidle_estimate *e;

        if (cpu >= r->ncpus || !r->cpu[cpu].est.have_last || !(share > 0))
                return;
        e = &r->cpu[cpu].est;
        e->last_busy = e->last_busy > share ? (float)(e->last_busy - share) : 0.0f;
}

bool cpuidle_has(const struct cpuidle_reader *r, unsigned cpu)
{
        return cpu < r->ncpus && r->cpu[cpu].nstates > 0;
}

/* CYCLE_KEEP_PER_PERIOD to the power 'periods' (0 past CYCLE_FORGET_PERIODS),
 * without pow() on every CPU at every tick. */
static double keep_after(uint64_t periods)
{
        static double table[CYCLE_FORGET_PERIODS + 1];

        if (periods > CYCLE_FORGET_PERIODS)
                return 0.0;
        if (table[0] == 0.0) {
                table[0] = 1.0;
                for (unsigned i = 1; i <= CYCLE_FORGET_PERIODS; i++)
                        table[i] = table[i - 1] * CYCLE_KEEP_PER_PERIOD;
        }
        return table[periods];
}

/* The weight of a read in which 'periods' periods ended, 'keep' being
 * keep_after(periods): as if they had ended evenly over its span and each
 * been read on its own, the older ones already decayed by the newer. A
 * read spanning many periods (a CPU left unread while quiet, see
 * cpuidle_read()) then weighs as the last ~12 of them, as reads one per
 * period would: taken whole, a second of idle would outweigh for many
 * reads the load that woke the CPU. One period: 1, the read as it is. */
static double spread_weight(uint64_t periods, double keep)
{
        return (1.0 - keep) / ((double)periods * (1.0 - CYCLE_KEEP_PER_PERIOD));
}

/* Adds a read's span, the residency of the periods that ended in it and
 * how many to the history, the older reads decayed by as many periods. */
static void add_to_cycle(struct cpuidle_estimate *e, double span_us, double idle_us, uint64_t periods)
{
        double keep = keep_after(periods), weight = spread_weight(periods, keep);

        e->cycle_us = e->cycle_us * keep + span_us * weight;
        e->cycle_idle_us = e->cycle_idle_us * keep + idle_us * weight;
        e->cycle_periods = e->cycle_periods * keep + (double)periods * weight;
}

static float stat_share(uint64_t stat_busy, uint64_t stat_idle)
{
        return (float)((double)stat_busy / (double)(stat_busy + stat_idle));
}

/* No idle period ended in the interval: [busy x][idle], x unknown unless
 * the CPU was idle at its start (x = 0). */
static float busy_without_ended_period(uint64_t interval_us, uint64_t stat_busy, uint64_t stat_idle,
                                       struct cpuidle_estimate *e)
{
        /* An idle CPU has no tick to charge busy time to: a busy tick says
         * the CPU was not idle at the last read after all, or that a wake
         * fell between the last read of /proc/stat and of cpuidle (its
         * period counted then, its busy tick now). The two look alike for
         * one interval: a second in a row without a period ending is not
         * a skew. (Nor does an interval without an idle tick tell them
         * apart: a real kernel charges busy time a whole scheduler tick at
         * a time, 4 ms for a wake of microseconds, and the idle count then
         * need not move in 10 ms.) */
        if (e->idle && (stat_busy == 0 || !e->doubt)) {
                e->doubt = stat_busy > 0;
                e->span_us += interval_us;
                return 0.0f;
        }
        e->doubt = false;
        if (stat_idle > 0) {
                /* Its busy part is reported now, by the ticks: only the
                 * idle part is left for the period's end to account for. */
                e->idle = true;
                e->span_us += interval_us * stat_idle / (stat_busy + stat_idle);
                return stat_share(stat_busy, stat_idle);
        }
        /* Busy through the read: the next period to end begins after it. */
        e->idle = false;
        e->span_us = 0;
        return 1.0f;
}

/* The history restarted from one interval's own residency (at most the
 * interval): the periods before belong to another rhythm. */
static void restart_cycle(struct cpuidle_estimate *e, uint64_t interval_us, uint64_t own_idle_us,
                          uint64_t own_periods)
{
        e->cycle_us = e->cycle_idle_us = e->cycle_periods = 0;
        add_to_cycle(e, (double)interval_us, (double)own_idle_us, own_periods);
        e->span_us = 0;
        e->doubt = false;
        e->quiet_ended = false;
}

/* /proc/stat's busy count moves on every tick's worth of busy time: with
 * 'stat_busy' moves, the CPU was busy less than one more tick's worth. */
static bool ticks_allow(uint64_t busy_us, uint64_t stat_busy)
{
        return busy_us <= (stat_busy + 1) * USEC_PER_TICK;
}

/* Whether the history is of a CPU this interval no longer is: in the
 * interval that ended ONSET_QUIET_US without a busy tick or the next
 * ('after_quiet'), a busy tick, and the interval ONSET_BUSY busy in periods
 * that began in it (at least ONSET_PERIODS beyond the first to end, which
 * may have begun before it): a load with short sleeps woke it. The history,
 * of the quiet CPU's long periods, would average the interval into them for
 * a dozen periods' worth of reads (a CPU at 80 % read 5 %, 12 %, 23 % after
 * 300 ms idle); the interval's own residency, the span of the period open
 * at the last read taken off, is the better account of it, where
 * /proc/stat's busy ticks allow its busy time. The next interval too: the
 * one a load starts in may hold too little of it, and the first read of a
 * CPU left unread while quiet (cpuidle_busy_woken()) cannot tell its
 * periods from the span's. Fewer periods say too little: the idle period
 * in progress at the read is not counted, and on a real kernel a quiet
 * CPU's wakes come in bursts and its busy ticks at random (the scheduler
 * tick charges 4 ms to a wake of microseconds). */
static bool history_outdated(const struct cpuidle_estimate *e, uint64_t idle_us, uint64_t periods,
                             uint64_t interval_us, uint64_t stat_busy, bool after_quiet,
                             uint64_t *own_idle_us, uint64_t *own_periods)
{
        uint64_t own_idle = idle_us > e->span_us ? idle_us - e->span_us : 0;

        if (own_idle > interval_us)
                own_idle = interval_us;
        if (periods < ONSET_PERIODS + 1 || !after_quiet || stat_busy == 0 ||
            (double)own_idle > (1.0 - ONSET_BUSY) * (double)interval_us ||
            !ticks_allow(interval_us - own_idle, stat_busy))
                return false;
        *own_idle_us = own_idle;
        *own_periods = periods - 1;
        return true;
}

float cpuidle_busy(uint64_t idle_us, uint64_t periods, uint64_t interval_us, uint64_t stat_busy,
                   uint64_t stat_idle, struct cpuidle_estimate *e)
{
        uint64_t ticks = stat_busy + stat_idle, own_idle, own_periods;
        bool ends_quiet = stat_busy > 0 && e->quiet_us >= ONSET_QUIET_US, after_quiet;
        double span, busy;

        if (interval_us == 0)
                return 0.0f;
        after_quiet = ends_quiet || e->quiet_ended;
        e->quiet_ended = ends_quiet;
        e->quiet_us = stat_busy == 0 ? e->quiet_us + interval_us : 0;
        /* Time without its count: the period ended between the reads of
         * usage and time (read_total()). */
        if (periods == 0 && idle_us > 0)
                periods = 1;
        if (periods == 0)
                return busy_without_ended_period(interval_us, stat_busy, stat_idle, e);

        if (history_outdated(e, idle_us, periods, interval_us, stat_busy, after_quiet, &own_idle,
                             &own_periods)) {
                restart_cycle(e, interval_us, own_idle, own_periods);
        } else {
                span = (double)e->span_us + (double)interval_us;
                e->span_us = 0;
                e->doubt = false;
                add_to_cycle(e, span, (double)idle_us, periods);
        }
        busy = e->cycle_idle_us >= e->cycle_us ? 0.0 : 1.0 - e->cycle_idle_us / e->cycle_us;
        /* /proc/stat's busy count moves on every USER_HZ tick of busy
         * time: without a move for quiet_us, less than a tick was busy in
         * it, whatever cpuidle is behind with (a wake between the reads, a
         * period's time counted late). */
        if (e->quiet_us > USEC_PER_TICK && busy * (double)e->quiet_us > USEC_PER_TICK)
                busy = (double)USEC_PER_TICK / (double)e->quiet_us;
        if (busy * SURE_DEN >= SURE_NUM && ticks > 0 && stat_idle * SURE_DEN >= ticks * SURE_NUM)
                busy = stat_share(stat_busy, stat_idle);
        /* Mostly idle: most likely in a period at the read, which the next
         * interval's busy ticks would contradict. */
        e->idle = busy < 0.5;
        return (float)busy;
}

float cpuidle_busy_woken(uint64_t idle_us, uint64_t periods, uint64_t interval_us, uint64_t stat_busy,
                         uint64_t stat_idle, struct cpuidle_estimate *e)
{
        uint64_t before, busy_before;

        if (periods < 2 || e->span_us == 0 || stat_busy == 0 || interval_us == 0)
                return cpuidle_busy(idle_us, periods, interval_us, stat_busy, stat_idle, e);
        /* No busy tick in the K ticks of the span: busy a share of it
         * 1 / (K + 2) likely (each tick a trial that found it idle), about
         * one tick's worth, however long. Taken as idle throughout, a CPU
         * at 2 % would put ten quiet ticks' busy time into this interval. */
        busy_before = e->span_us * USEC_PER_TICK / (e->span_us + 2 * USEC_PER_TICK);
        before = e->span_us - busy_before;
        if (before > idle_us)
                before = idle_us;
        add_to_cycle(e, (double)e->span_us, (double)before, periods - 1);
        e->span_us = 0;
        return cpuidle_busy(idle_us - before, 1, interval_us, stat_busy, stat_idle, e);
}

/* cpuidle_cpu_busy()'s answer, kept for cpuidle_quiet(). */
static bool answer(struct cpuidle_estimate *e, float busy, float *ret)
{
        e->last_busy = busy;
        e->have_last = true;
        *ret = busy;
        return true;
}

bool cpuidle_cpu_busy(struct cpuidle_reader *r, unsigned cpu, uint64_t interval_us, uint64_t stat_busy,
                      uint64_t stat_idle, uint64_t online_us, float *ret)
{
        struct cpuidle_cpu *c;

        if (cpu >= r->ncpus || interval_us == 0)
                return false;
        c = &r->cpu[cpu];
        if (c->nstates == 0 || !c->have_idle)
                return false;
        /* Without usage files, periods are not counted: each interval
         * stands alone, from its residency (and the span of a period that
         * lasted through the intervals before). */
        if (!c->have_usage)
                c->est.cycle_us = c->est.cycle_idle_us = c->est.cycle_periods = 0;
        /* Without a history, the first interval's count of periods would
         * be all there is, and it aliases (one period of 11 ms in 20: 46 %
         * busy, on an idle machine, at the daemon's start). The CPU's mean
         * since it came online is a better start, and says whether it is
         * most likely in an idle period now; or /proc/stat's share, coarse
         * but not aliased, until there is one. */
        if (c->est.cycle_periods == 0 && c->have_usage) {
                if (c->total_usage >= CYCLE_PRIOR_MIN && online_us > 0) {
                        double w = CYCLE_PRIOR_PERIODS / (double)c->total_usage;

                        c->est.cycle_us = (double)online_us * w;
                        c->est.cycle_idle_us = (double)c->total_us * w;
                        c->est.cycle_periods = CYCLE_PRIOR_PERIODS;
                        c->est.idle = c->total_us * 2 >= online_us;
                } else if (c->periods > 0 && stat_busy + stat_idle > 0) {
                        float share = stat_share(stat_busy, stat_idle);

                        c->est.cycle_us = (double)c->est.span_us + (double)interval_us;
                        c->est.cycle_idle_us = (double)c->idle_us;
                        c->est.cycle_periods = (double)c->periods;
                        c->est.span_us = 0;
                        c->est.idle = share < 0.5f;
                        return answer(&c->est, share, ret);
                }
        }
        if (c->resumed)
                return answer(&c->est, cpuidle_busy_woken(c->idle_us, c->periods, interval_us, stat_busy,
                                                          stat_idle, &c->est), ret);
        return answer(&c->est, cpuidle_busy(c->idle_us, c->periods, interval_us, stat_busy, stat_idle, &c->est),
                      ret);
}

void cpuidle_restart(struct cpuidle_reader *r)
{
        for (unsigned cpu = 0; cpu < r->ncpus; cpu++) {
                r->cpu[cpu].have_total = false;
                r->cpu[cpu].have_idle = false;
                r->cpu[cpu].est = (struct cpuidle_estimate){ 0 };
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
