/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What a switch leaves behind is not load.
 *
 * A switch makes the kernel work: CPU hotplug runs stop_machine, migrates
 * every task off the CPUs going away and wakes kworkers for a while after;
 * a cpuset move migrates tasks; both show as CPU pressure and busy time on
 * the CPUs that stay. Read as demand, that work asks for the level the
 * switch just left (a real kernel, idle, went little -> big -> little every
 * 3-4 s on it). So from the first write of a switch until the machine is
 * back where it was before it, each sample counts at most what the machine
 * did before the switch started: the k-th busiest CPU's demand (busy x
 * capacity) up to the peak of the k-th busiest's in the samples just before,
 * the pressure up to theirs. Load that was there before still counts in
 * full, so a switch up under load keeps its reason; only what the switch
 * added is left out. Rank by rank, not one peak for every CPU: in mp mode
 * the k-th busiest CPU is what adds the k-th fast CPU, and with the busiest
 * one's peak as every CPU's limit a kworker on an idle LITTLE CPU could read
 * as heavy as the thread the switch was for (on the real kernel, 4+4 in
 * mp mode with one thread: 75 switches in check-vm's scenario, 22 after).
 *
 * The window ends once the samples after the switch have their own (raw)
 * pressure and peak demand back at the baseline a few times in a row, which
 * measures how long the kernel took to settle (to the first of them); or at
 * a bound that grows with the switch's own duration (the work it leaves
 * behind scales with the work it did), between a floor (a few ticks, less
 * after a switch of microseconds) and a ceiling, so that real load arriving
 * just after a switch waits at most that long. A switch made
 * inside a window keeps the baseline from before the first one: one
 * switch's aftermath never triggers the next.
 *
 * Pure: no I/O, time is an argument. */

#include <stdbool.h>

#include "core/engine.h"
#include "core/sample.h"
#include "core/types.h"

/* The window's floor, in ticks at sample_interval_ms: the kernel's work
 * after a switch of milliseconds (a cpuset move, a CPU's hotplug) still
 * takes a few samples to pass... */
#define BL_SETTLE_MIN_TICKS 5
/* ...but the floor is at most this many times the switch's own duration.
 * A switch of microseconds (the in-kernel switcher's, a cpufreq cap)
 * leaves no kernel work behind, and a window of five ticks after it only
 * hid the load that came. With the floor bounded so, blsim (which runs
 * this filter as the daemon does) found 39 fewer misses of issue 16's
 * targets on the tuning traces in cluster mode and no row with more late
 * work (tests/bench/RESULTS.md). */
#define BL_SETTLE_FLOOR_PER_SWITCH 10
/* Quiet samples the baseline is the peak of. */
#define BL_SETTLE_BASE_SAMPLES 4
/* Ranks with a baseline of their own; CPUs below them share the last one's
 * (mp ladders test the first few ranks, the others are noise). */
#define BL_SETTLE_RANKS 16
/* The window's bound is this many times the switch's own duration... */
#define BL_SETTLE_BOUND_PER_SWITCH 3
/* ...at most this long: load that arrives just after a switch is not seen
 * for up to this long, and is the price of not taking the switch's own
 * work for load. */
#define BL_SETTLE_MAX_BOUND_USEC (2 * BL_USEC_PER_SEC)
/* Back at the baseline: within this much demand (capacity units, 1024 = the
 * biggest core at its top speed; noise on an idle CPU and one kworker's
 * wakeup stay under it) or this share of the baseline, whichever is larger... */
#define BL_SETTLE_DEMAND_SLACK 48.0
#define BL_SETTLE_DEMAND_SLACK_SHARE 0.25
/* ...and within this much pressure (share of the interval)... */
#define BL_SETTLE_PRESSURE_SLACK 0.05
/* ...for this many samples in a row: one quiet sample between two bursts
 * of kernel work is not the end of it. */
#define BL_SETTLE_QUIET_SAMPLES 3

enum bl_settle_phase {
        BL_SETTLE_QUIET,        /* no switch since the machine was last back at its baseline */
        BL_SETTLE_SWITCHING,    /* a switch is being applied */
        BL_SETTLE_SETTLING,     /* applied; waiting for the machine to settle */
};

struct bl_settle {
        bl_usec_t min_bound;            /* the floor of the bound (a few ticks) */
        enum bl_settle_phase phase;
        /* The last quiet samples' largest demands, busiest CPU first, and
         * pressure (a ring). */
        double recent_demand[BL_SETTLE_BASE_SAMPLES][BL_SETTLE_RANKS];
        double recent_pressure[BL_SETTLE_BASE_SAMPLES];
        unsigned recent_n, recent_head;
        /* What the window lets each sample count, frozen when it opens:
         * the k-th busiest CPU's demand, [0] the peak. */
        double base_demand[BL_SETTLE_RANKS];
        double base_pressure;
        bl_usec_t started;              /* the switch's first write */
        bl_usec_t applied;              /* its last read-back */
        bl_usec_t deadline;             /* the window closes here at the latest */
        unsigned quiet;                 /* samples in a row back at the baseline */
        bl_usec_t quiet_since;          /* the end of the first of them */
        /* What was measured, for status: */
        unsigned windows;               /* windows closed */
        unsigned bounded;               /* of them, closed by the bound, not settled */
        bl_usec_t last_us;              /* the last window, applied to settled (or bound) */
        bl_usec_t max_us;
        double mean_us;                 /* decayed mean, about the last ten windows */
        unsigned long discounted;       /* samples that counted less than they read */
};

/* No window open; 'min_bound' is the shortest bound a window gets. */
void settle_init(struct bl_settle *s, bl_usec_t min_bound);

/* A switch's first write is about to happen at 'now'. */
void settle_begin(struct bl_settle *s, bl_usec_t now);

/* The same for the level set at start-up, which answers no load: its
 * baseline is the median of the samples taken before it, what the machine
 * did steadily, not their peak. Those samples are the daemon's own start
 * and whatever started beside it (a boot's other services; on the real
 * kernel under QEMU the test's own processes put one LITTLE CPU at full
 * speed for 10 ms), and with that burst as the baseline the window cut
 * nothing: the hotplug's aftermath then took the machine up and back. Not
 * their least either: a steady load that one sample missed (a loaded fake
 * board published late) would then be cut to nothing through the window
 * and read as an onset once it closed. */
void settle_begin_at_start(struct bl_settle *s, bl_usec_t now);

/* The switch's last read-back came at 'now'. The window runs from here,
 * also after a switch that failed or did nothing (it may have written and
 * undone), and for at least as long as the switch took (within its bound):
 * the kernel's deferred work comes in bursts (on the real kernel a LITTLE
 * CPU went to 0.6-1.0 busy 50-90 ms after a 700 ms hotplug, after three
 * quiet samples had closed the window). */
void settle_applied(struct bl_settle *s, bl_usec_t now);

/* Filters the sample ending at 'now' in place before anything decides on
 * it: outside a window it becomes part of the baseline and is unchanged;
 * inside one, each CPU's busy time (by its rank among the CPUs) and the
 * pressure are cut to the baseline, and the window closes when the sample
 * read (before the cut) is back at it, or its bound has passed. Returns true when the sample lies in
 * a window. */
bool settle_filter(struct bl_settle *s, struct bl_sample_buf *b, bl_usec_t now);

/* Whether the 'n' decisions made on a sample that lay in a window (as
 * settle_filter() said: 'in_window') must wait: the sample cut to the
 * baseline hides load that arrived while the switch ran, so it may keep the
 * machine where it is but not take it down. Only the policy's own moves
 * down wait (a thermal limit's or a hold's go at once), and only when no
 * decision goes up. On the real kernel a thread started during a hotplug
 * read 0.12 busy through the window, and big went back to little with the
 * thread still running (check-vm one-thread). */
bool settle_holds(bool in_window, const struct bl_decision *d, unsigned n);

/* Whether a window is open (a switch in flight or settling). */
static inline bool settle_active(const struct bl_settle *s)
{
        return s->phase != BL_SETTLE_QUIET;
}
