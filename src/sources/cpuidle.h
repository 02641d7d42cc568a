/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * Per-CPU idle residency from cpuidle. cpuN/cpuidle/stateK/time is the
 * time in µs CPU N spent in idle state K, so the growth of their sum over
 * an interval is the CPU's idle time to the microsecond, where /proc/stat
 * counts USER_HZ ticks (at a 10 ms sample a CPU reads 0 % or 100 % busy).
 * The files are opened once and re-read with pread().
 *
 * The kernel adds an idle period's time when the period ends
 * (cpuidle_enter_state()): a CPU idle for the whole interval shows no idle
 * time at all, as if it had been busy. cpuidle_busy() checks that case
 * against /proc/stat, whose idle time includes the current period.
 */

#include <stdbool.h>
#include <stdint.h>

#include "core/cpuset.h"

/* The kernel has at most CPUIDLE_STATE_MAX (10) states per CPU. */
#define CPUIDLE_MAX_STATES 16

/* An idle period cpuidle has not counted yet (cpuidle_busy()). */
struct cpuidle_pending {
        bool idle;              /* the CPU is in one */
        uint64_t credited_us;   /* of its time, what was reported idle already */
};

struct cpuidle_cpu {
        int fd[CPUIDLE_MAX_STATES];
        unsigned nstates;       /* 0: no cpuidle (none found, or lost) */
        uint64_t total_us;      /* sum of the states' time at the last read */
        bool have_total;        /* total_us is a baseline for the next read */
        bool have_idle;         /* idle_us covers the last interval */
        uint64_t idle_us;       /* idle time between the last two reads */
        struct cpuidle_pending pending;
};

struct cpuidle_reader {
        char *dir;              /* "/sys/devices/system/cpu" */
        unsigned ncpus;
        struct cpuidle_cpu *cpu;
        bl_cpuset read_last;    /* the CPUs the last cpuidle_read() read */
};

/* Opens the states of the CPUs in 'cpus' (below BL_MAX_CPUS) under
 * 'cpu_dir'. A CPU without cpuidle, or whose state0 does not open, gets
 * none (cpuidle_has() is false). Returns 0, or -ENOMEM. */
int cpuidle_open(struct cpuidle_reader *r, const char *cpu_dir, const bl_cpuset *cpus);

/* Reads the CPUs of 'online'; the others are not read and start afresh when
 * they are next. A CPU that was not read at the previous call (it came
 * online) is opened again, its states looked up anew, and gives no idle
 * time for this interval. So does a CPU whose states fail to read (they
 * went away: opened again at once) or whose sum went backwards. */
void cpuidle_read(struct cpuidle_reader *r, const bl_cpuset *online);

/* Whether the CPU has cpuidle states open. */
bool cpuidle_has(const struct cpuidle_reader *r, unsigned cpu);

/* The CPU's busy fraction over the last 'interval_us' (0..1), from its idle
 * time and the interval's /proc/stat ticks (busy, and idle + iowait), into
 * *ret. Returns false, leaving *ret, where cpuidle does not cover the
 * interval for that CPU. */
bool cpuidle_cpu_busy(struct cpuidle_reader *r, unsigned cpu, uint64_t interval_us, uint64_t stat_busy,
                      uint64_t stat_idle, float *ret);

/* Forgets the baselines: the next read starts a new interval for every CPU. */
void cpuidle_restart(struct cpuidle_reader *r);
void cpuidle_close(struct cpuidle_reader *r);

/*
 * Busy fraction 1 - idle_us / interval_us, clamped to [0, 1], checked
 * against /proc/stat's ticks for the same interval, whose idle time
 * includes the idle period in progress:
 * - no cpuidle time but some /proc/stat idle: the CPU went idle in the
 *   interval and still is (p->idle); /proc/stat's share is taken;
 * - while p->idle, an interval without cpuidle time and without a busy
 *   tick was idle throughout (busy 0), even when /proc/stat has no tick to
 *   tell, and its length is credited; the cpuidle time that comes when the
 *   period ends pays the credit back first, so that it is not counted
 *   twice;
 * - cpuidle says busy (>= 90 %) and /proc/stat idle (>= 90 % of at least
 *   one tick): /proc/stat's share is taken.
 * Left: an idle period that began after /proc/stat's last idle tick and
 * has not ended looks busy until either source sees it.
 */
float cpuidle_busy(uint64_t idle_us, uint64_t interval_us, uint64_t stat_busy, uint64_t stat_idle,
                   struct cpuidle_pending *p);
