/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * Per-CPU idle residency from cpuidle. cpuN/cpuidle/stateK/time is the
 * time in µs CPU N spent in idle state K, so the growth of their sum over
 * an interval is the CPU's idle time to the microsecond, where /proc/stat
 * counts USER_HZ ticks (at a 10 ms sample a CPU reads 0 % or 100 % busy).
 * The files are opened once and re-read with pread().
 *
 * The kernel adds an idle period's time, and counts it in the state's
 * usage, when the period ends (cpuidle_enter_state()): a CPU idle for the
 * whole interval shows no idle time at all, as if it had been busy, and a
 * nearly idle CPU whose periods end at a rhythm near the sample interval
 * shows one period in one interval and two in the next (0 % and ~45 % busy
 * in turn at 11 ms periods read every 20 ms). cpuidle_busy() turns the
 * residency, the count of ended periods and /proc/stat's ticks into an
 * estimate that does neither (see there).
 */

#include <stdbool.h>
#include <stdint.h>

#include "core/cpumask.h"

/* The kernel has at most CPUIDLE_STATE_MAX (10) states per CPU. */
#define CPUIDLE_MAX_STATES 16

/* What cpuidle_busy() carries from one interval to the next, per CPU. */
struct cpuidle_estimate {
        bool idle;              /* believed in an idle period at the last read */
        bool doubt;             /* a busy tick came while believed idle (see cpuidle_busy()) */
        uint64_t quiet_us;      /* since /proc/stat last counted a busy tick */
        bool quiet_ended;       /* the last interval's busy tick ended a quiet of 50 ms or more */
        uint64_t span_us;       /* time since the last read with an ended period, or since it was seen busy */
        /* Decayed sums over the reads with ended periods: the time they
         * spanned, the residency of the periods that ended and how many. */
        double cycle_us, cycle_idle_us, cycle_periods;
        bool have_last;         /* last_busy is cpuidle_cpu_busy()'s latest answer */
        float last_busy;
};

struct cpuidle_cpu {
        int fd[CPUIDLE_MAX_STATES];
        int usage_fd[CPUIDLE_MAX_STATES];       /* -1 where the state has no usage file */
        unsigned nstates;       /* 0: no cpuidle (none found, or lost) */
        bool have_usage;        /* every state has a usage file */
        uint64_t total_us;      /* sum of the states' time at the last read */
        uint64_t total_usage;   /* sum of their usage (0 without usage files) */
        /* per state, as last read */
        uint64_t state_us[CPUIDLE_MAX_STATES], state_usage[CPUIDLE_MAX_STATES];
        bool have_total;        /* total_us is a baseline for the next read */
        bool have_idle;         /* idle_us covers the last interval */
        uint64_t idle_us;       /* idle time between the last two reads */
        uint64_t periods;       /* idle periods that ended between them (without usage: 1 if idle_us > 0) */
        struct cpuidle_estimate est;
        unsigned skipped;       /* reads skipped in a row (cpuidle_read()) */
        bool resumed;           /* the last read was the first after skipped ones */
};

struct cpuidle_reader {
        char *dir;              /* "/sys/devices/system/cpu" */
        unsigned ncpus;
        struct cpuidle_cpu *cpu;
        bl_cpumask read_last;   /* the CPUs the last cpuidle_read() read */
        unsigned long cpus_read;        /* CPUs whose states were read so far, for the cost of a tick */
};

/* Opens the states of the CPUs in 'cpus' (below BL_MAX_CPUS) under
 * 'cpu_dir'. A CPU without cpuidle, or whose state0 does not open, gets
 * none (cpuidle_has() is false). Returns 0, or -ENOMEM. */
int cpuidle_open(struct cpuidle_reader *r, const char *cpu_dir, const bl_cpumask *cpus);

/* Reads the CPUs of 'online'; those offline are not read and start afresh
 * when they are next, giving no idle time for that interval. A CPU that was
 * not online at the previous call is opened again, its states looked up
 * anew. So does a CPU whose states fail to read (they went away: opened
 * again at once) or whose sum went backwards. A CPU in 'skip' (NULL: none)
 * with a baseline is taken as unchanged, for at most CPUIDLE_SKIP_MAX reads
 * in a row: what it did meanwhile shows at its next read. */
#define CPUIDLE_SKIP_MAX 49
void cpuidle_read(struct cpuidle_reader *r, const bl_cpumask *online, const bl_cpumask *skip);

/* Whether cpuidle last found the CPU idle (below CPUIDLE_QUIET_BUSY): until
 * /proc/stat counts it a busy tick, reading it again would most likely
 * show an idle period still running, and a short wake that ended one can
 * wait to be counted. Each file read is a system call, one or two per state
 * and CPU each tick: the daemon's largest cost on an idle machine (issue 15
 * item 5). */
#define CPUIDLE_QUIET_BUSY 0.005f
bool cpuidle_quiet(const struct cpuidle_reader *r, unsigned cpu);

/* The share of the last interval the caller's own thread ran on 'cpu'
 * (sources/self-time.h): it comes off the answer the quiet tests read.
 * The daemon's CPU read its own ticks as busy and never counted as quiet,
 * so its files were read every tick on an idle machine. */
void cpuidle_own_share(struct cpuidle_reader *r, unsigned cpu, double share);

/* cpuidle_quiet() for the CPU the sampling thread runs on, which cannot be
 * in an idle period at the read (the thread runs there), and whose answer
 * net of the thread's share still holds the kernel's work to wake it (the
 * timer interrupt, the switches in and out, leaving and entering idle):
 * 1-3 % at a 10 ms tick under QEMU, so below 0.5 % never. Below one tick
 * in /proc/stat's window is quiet enough when /proc/stat, net of the
 * thread's own time, counts less than a tick else there (the sampler's
 * test). */
#define CPUIDLE_OWN_QUIET_BUSY 0.1f
bool cpuidle_quiet_own(const struct cpuidle_reader *r, unsigned cpu);

/* Whether the CPU has cpuidle states open. */
bool cpuidle_has(const struct cpuidle_reader *r, unsigned cpu);

/* The CPU's busy fraction over the last 'interval_us' (0..1), from its idle
 * time, its ended periods and the interval's /proc/stat ticks (busy, and
 * idle + iowait), by cpuidle_busy(), into *ret. 'online_us' is the CPU's
 * time online so far (/proc/stat's busy + idle): with the count of periods
 * since, its first cycle. Returns false, leaving *ret, where cpuidle does not cover the
 * interval for that CPU. */
bool cpuidle_cpu_busy(struct cpuidle_reader *r, unsigned cpu, uint64_t interval_us, uint64_t stat_busy,
                      uint64_t stat_idle, uint64_t online_us, float *ret);

/* Forgets the baselines: the next read starts a new interval for every CPU. */
void cpuidle_restart(struct cpuidle_reader *r);
void cpuidle_close(struct cpuidle_reader *r);

/*
 * The busy fraction (0..1) of an interval of 'interval_us' in which
 * 'periods' idle periods ended with 'idle_us' of residency between them,
 * and /proc/stat counted 'stat_busy' and 'stat_idle' USER_HZ ticks (its
 * idle time, unlike cpuidle's, includes the period in progress).
 * - No period ended: the interval was busy then idle, [busy x][idle], with
 *   x = 0 if the CPU was idle at the last read (e->idle): idle throughout
 *   unless busy ticks in two such intervals in a row say it was not (one
 *   may be a wake that fell between the reads of /proc/stat and cpuidle);
 *   else /proc/stat's share, busy when it saw no idle.
 * - Periods ended: the residency of the last ~12 ended periods over the
 *   time they spanned (from read to read), not the residency over the
 *   interval. The periods that end in an interval began before it and the
 *   one in progress at its end is not counted, so the residency of one
 *   interval jumps with the count of periods ending in it; summed over a
 *   few periods' worth of reads, it does not.
 * - Unless a load with short sleeps woke a quiet CPU: in the interval that
 *   ends 50 ms without a busy tick, or the next, a busy tick and the
 *   interval 60 % busy in at least two periods that began in it. Then the
 *   history, of the quiet CPU's long periods, restarts from the interval's
 *   own residency (the period open at the last read taken off), where the
 *   busy ticks allow it.
 * - Where /proc/stat counted no busy tick for quiet_us, the CPU was busy
 *   less than a tick in it: at most 10 ms / quiet_us busy.
 * - Either way, where cpuidle says busy (>= 90 %) and /proc/stat idle
 *   (>= 90 % of at least one tick), /proc/stat's share is taken: cpuidle
 *   is behind (a period that began before the interval and has not ended).
 */
float cpuidle_busy(uint64_t idle_us, uint64_t periods, uint64_t interval_us, uint64_t stat_busy,
                   uint64_t stat_idle, struct cpuidle_estimate *e);

/*
 * cpuidle_busy() for the first read of a CPU left unread while quiet
 * (cpuidle_read()) in whose interval /proc/stat counted a busy tick: it
 * woke. Its 'periods' ended over the whole span since its last read with
 * an ended period (e->span_us, which it spent idle: no busy tick, believed
 * idle) and this interval. Taken whole, that span would dilute this
 * interval's busy time, the load that woke it, in a second of idle. The
 * span goes into the history as idle but for the busy time its ticks make
 * likely (about one tick's worth), up to 'idle_us', with all but one of the
 * periods; this interval gets the rest, as one period. Otherwise, or
 * with fewer than two periods (a read of every interval would have seen
 * the same), as cpuidle_busy(), but that the interval's periods cannot be
 * told from the span's: a load that woke it shows at the next read.
 */
float cpuidle_busy_woken(uint64_t idle_us, uint64_t periods, uint64_t interval_us, uint64_t stat_busy,
                         uint64_t stat_idle, struct cpuidle_estimate *e);
