/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Combines the sources into one bl_sample per tick. */

#include "core/config.h"
#include "core/sample.h"
#include "sources/cpufreq.h"
#include "sources/cpuidle.h"
#include "sources/perf.h"
#include "sources/procstat.h"
#include "sources/stat-window.h"
#include "sources/loadavg.h"
#include "sources/psi.h"
#include "sources/self-time.h"
#include "sources/thermal.h"

/* What may read badly while the daemon runs: a kernel gone wrong, or
 * files that are not what they claim. */
enum sampler_problem {
        SAMPLER_PROBLEM_STAT,           /* /proc/stat: the tick is skipped */
        SAMPLER_PROBLEM_PSI,            /* the sample carries no pressure */
        SAMPLER_PROBLEM_LOADAVG,        /* nor what runs at its end */
        SAMPLER_PROBLEM_FREQ,           /* a policy's last frequency stands */
        SAMPLER_PROBLEM_THERMAL,        /* a zone is left out */
        SAMPLER_PROBLEM_COUNTERS,       /* CPUs back online go without counters */
        SAMPLER_PROBLEMS,
};

/* Room for a line naming each thermal zone left out. */
#define SAMPLER_PROBLEM_MAX 512

struct bl_sampler {
        const struct bl_topology *topo;
        struct procstat_reader stat;
        struct cpuidle_reader idle;
        struct psi_reader psi;
        struct loadavg_reader loadavg;
        struct cpufreq_reader freq;
        struct thermal_reader thermal;
        struct procstat prev, cur;
        bool have_prev;
        uint64_t psi_prev;
        bool have_psi_prev;
        bl_usec_t prev_now;
        /* what the readers fill, per CPU number, before it goes into records */
        float busy[BL_MAX_CPUS];
        /* The most CPUs /proc/stat listed so far: 'busy' is 0 from there
         * on, so a tick clears only below it. */
        unsigned busy_span;
        /* Each CPU's latest ticks, for its busy fraction without cpuidle. */
        struct stat_window window[BL_MAX_CPUS];
        /* The sampling thread's own time, taken off the CPU it ran on. */
        struct self_time self;
        bool own_kernel;        /* see sampler_own_kernel() */
        uint16_t capacity[BL_MAX_CPUS];
        bl_cpumask online;
        /* Hardware counters, opened only while a heuristic needs them. */
        struct perf_source *perf;
        struct perf_counts *counts;     /* per CPU number, topo->ncpus of them */
        bool perf_tried;                /* refused once: not asked again */
        /* What the counters are opened with; NULL: the kernel and the
         * hardware events (tests count software events through a stand-in). */
        const struct perf_syscalls *perf_sys;
        const struct perf_event_list *perf_events;
        /* The CPUs in /proc/stat when the counters last looked: one that
         * joins them gets a fresh group, one that leaves loses its own. */
        bl_cpumask counters_online;
        /* CPUs whose group did not open when they came online: tried again
         * when they next come online, said once until then. */
        bl_cpumask counters_failed;
        char counters_error[SAMPLER_PROBLEM_MAX];      /* why the last of them failed */
        /* For the log, per kind: what reads badly at the last read, for a
         * person ("" when it reads well). The text stays the same while
         * the problem does, so that a change is worth a line. */
        char problem[SAMPLER_PROBLEMS][SAMPLER_PROBLEM_MAX];
};

/* Opens every source. PSI, /proc/loadavg, cpufreq and thermal are optional and reported
 * through 'diag' when absent; /proc/stat is required. A CPU's busy time
 * comes from its cpuidle residency where it has cpuidle states, from
 * /proc/stat otherwise: 'diag' says which CPUs use which. */
int sampler_open(struct bl_sampler *s, const struct bl_topology *t, const struct bl_config *c, struct bl_diag *diag);
/* Reads all sources for the tick at 'now' (CLOCK_MONOTONIC µs). The first
 * call yields a sample with interval 0 and no busy time. Fails when
 * /proc/stat cannot be read or parsed, or its counters went backwards
 * (they start a new interval); s->problem says what reads badly, also of
 * the optional sources when it succeeds. */
int sampler_read(struct bl_sampler *s, bl_usec_t now, struct bl_sample_buf *out);
void sampler_close(struct bl_sampler *s);

/* Forgets the previous readings, so that the next sampler_read() starts a
 * fresh interval (interval 0, no busy time) as the first one does: counters
 * that ran on across a suspend would otherwise look like a burst of load.
 * That read also opens every hardware counter group anew: suspend to RAM
 * takes the CPUs offline and back unseen. */
void sampler_restart(struct bl_sampler *s);

/* Whether the sources are the running kernel's, which schedules this
 * process and counts its time (not a testbed's under umockdev). */
bool sampler_own_kernel(const struct bl_sampler *s);

/* The BL_NEEDS_* signals the open sources provide. */
unsigned sampler_signals(const struct bl_sampler *s);

/* Whether any heuristic 'c' selects needs hardware counters. */
bool sampler_counters_wanted(const struct bl_config *c);

/* Opens the hardware counters when 'want' and they are not open (only the
 * first attempt: a machine that refused them once is not asked again, so
 * the reason is said once), closes them when not 'want'. What was found
 * goes to 'diag' for the log. Returns 0, or the errno of a refusal (the
 * sampler works on without counters either way). */
int sampler_want_counters(struct bl_sampler *s, bool want, struct bl_diag *diag);

/* The kernel never counts a CPU's events again once the CPU went offline,
 * so sampler_read() gives a CPU that appears in /proc/stat a fresh group of
 * counters (reporting none for it until the read after) and closes the group
 * of one that leaves. A CPU whose group does not open goes without, until it
 * next comes online; s->problem[SAMPLER_PROBLEM_COUNTERS] says which and
 * why. Only a change of the online CPUs costs anything.
 *
 * For a CPU that udev says went offline: its group is closed now, and the
 * next read that finds it online opens a fresh one, also when it came back
 * before that read saw it gone. */
void sampler_cpu_offline(struct bl_sampler *s, unsigned cpu);
