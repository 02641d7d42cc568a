/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Is the current level enough? A demand estimate that answers that question
 * rather than "how busy were the CPUs".
 *
 * 1. Saturation. CPU pressure (work that waited for a CPU) above
 *    min_pressure_pct of the interval while the CPUs of the sample were busy
 *    at least half the interval between them (work waits only where CPUs
 *    are busy, and the waiting may move between CPUs within one interval: a
 *    frame's UI thread, then its render thread), or a CPU busy for
 *    saturated_busy_pct of the interval at its top frequency, says that the
 *    CPUs of the sample are too small, and by how much nobody can tell:
 *    busy x capacity is capped by the capacity. The score is then boost_pct
 *    of their top capacity (at least the measured peak), above the top of
 *    the level, so the engine goes up. (Pressure is
 *    one figure for the whole machine: an instance that looks at an idle CPU
 *    in pair or mp mode is not the one that needs help.) Below saturation,
 *    busy x capacity of the busiest CPU never exceeds the level's capacity:
 *    a level is left upwards only when it is too small, however busy it is,
 *    because a LITTLE cluster at its top frequency is cheaper than a big one
 *    at a low one.
 * 2. Onset. After quiet_ms of quiet (the busiest CPU busy less than
 *    quiet_busy_pct), a sample whose peak is above onset_pct of the top
 *    capacity counts as a saturation: work that starts after an idle spell
 *    (a touch, a page load, a sync) is usually the start of more, and by the
 *    time it saturates LITTLE it is already late. 0 turns this off. The
 *    quiet must have been seen on the CPUs of the sample (the same top
 *    capacity): a light load is quiet on big and load on LITTLE; quiet on
 *    larger CPUs counts on smaller ones after a switch down only if its
 *    peak was quiet there too. A load that starts late in a sample shows
 *    there as a few percent busy. If a task is still runnable when the
 *    sample ends (the machine's runnable count, so in samples of more CPUs
 *    than a pair, as pressure) and the busiest CPU rose to quiet_busy_pct,
 *    that sample is the onset: a key press 2 ms before the tick is late on
 *    LITTLE by the next one. Otherwise that sample ends the quiet, and the
 *    one after it, the first the load fills, may still be the onset (only
 *    that one), by its peak, by a task still runnable at its end (the
 *    busiest CPU at quiet_busy_pct or more), or by tasks waiting
 *    HEADROOM_ONSET_WAITING of it: a CPU saturated right after a sample
 *    that found it idle can read idle for one sample (a busy tick then may
 *    be the kernel's tick accounting; see bigLittled(8), "Busy time"), and
 *    the idle time of the quiet, which the kernel adds when it ends, can
 *    make a start read low for a sample more. A thread alone on its CPU
 *    shows no pressure (it runs, nothing waits), so the runnable task is
 *    then what says the start goes on: on the live board, an app launch's
 *    heavy phase went up two samples later without it. A runnable task
 *    says a start goes on, not how large it is (a kernel counts a decoder
 *    refill at 70 % of a LITTLE CPU as it counts a launch), so an onset by
 *    it alone is a bet, and not made where the switch up stalls at least
 *    HEADROOM_RUN_MIN_STALL of the interval: there a bet that loses pays
 *    two slow switches and the hold until the way down pays for itself
 *    (seconds, at 10 ms / 50 mJ), while waiting a sample to see the size
 *    costs little beside the stall itself. Nor is it made once a start
 *    after quiet has been judged and none of the latest HEADROOM_STARTS
 *    was the start of more (one that saturated, or needed more than
 *    HEADROOM_FIT_MARGIN of the smallest CPUs' top): on screen-off audio a
 *    decoder's refill, then a mixer tick running as the sample ended, took
 *    the machine up 146 times in two minutes, and no refill ever needed
 *    it. Every start after quiet is judged, the ones no onset took too (a
 *    refill at the decoder's cadence, a start under onset_pct with no task
 *    left): they are what says whether the next one is worth a bet. When
 *    only the starts bet on were judged, and two were needed before the
 *    bets stopped, every generated audio trace went up twice in its first
 *    seconds for refills LITTLE carried (T1 and T3 misses at every switch
 *    cost). Before any start has been judged the first one is a bet: the
 *    daemon may start just before an app launch (the demo's), which would
 *    otherwise wait a sample or two on LITTLE.
 *    In a pair's or a CPU's view (pair and mp modes, fewer than
 *    HEADROOM_JUDGED_CPUS), an onset is judged when the quiet comes back:
 *    if nothing before it saturated the CPUs or needed more than
 *    HEADROOM_FIT_MARGIN of the smallest ones' top, it led to nothing, and
 *    onsets count no more there until the next saturation. Periodic work
 *    that starts after quiet and fits LITTLE (an audio decoder's refill
 *    every 40-100 ms between the mixer's light ticks) would otherwise take
 *    a pair up and back at every start. In a cluster's view every start is
 *    an onset: what a start leads to shows only once the load has run on
 *    LITTLE a while, and with CPU pressure as the kernel counts it (a
 *    thread alone on its CPU is running, not waiting) a page load's or a
 *    capture's first short burst never reads as saturation there, so the
 *    judgement turned onsets off before the heavy starts they were for.
 *    Quiet that comes back at a cadence arms no onset: once two quiet
 *    spells ended in a burst, one that at least half of the latest
 *    HEADROOM_SPELLS lasted as long as, ending within HEADROOM_CADENCE_US,
 *    is the gap between frames or timer ticks (a 24 fps preview is quiet
 *    for about 38 ms between frames, longer than quiet_ms), and the start
 *    after it is the next one, not the start of more. On the tuning traces
 *    each such frame taken as an onset cost energy that the classic
 *    policies did not spend.
 * 3. Bursts. A sample that is neither saturated, quiet nor steady (busiest
 *    CPU at least steady_busy_pct busy) comes from work that runs in bursts:
 *    the kernel raises the frequency for each and lowers it after, and busy x
 *    capacity (the capacity read at the end of the interval) says little
 *    about how fast the bursts ran. The score then keeps what was known
 *    (a saturation of the level below, or a steady demand), decaying toward
 *    the measured peak with a half-life of half_life_ms (0 keeps it: a light
 *    load at a low frequency would then hold the level up for ever), and
 *    quiet samples keep it too until the quiet has lasted quiet_ms. So a
 *    frame-paced load that saturated LITTLE stays on big through the gaps
 *    between its frames, and comes down once it stops or turns steady and
 *    small enough.
 *
 * 4. Settling. A steady sample above what is known raises it at once; one
 *    below it is believed only once a load (busiest CPU at least half busy)
 *    has been present without a break for HEADROOM_SETTLE_US. Bursty work
 *    such as a sync of network and database chunks, 10-40 ms each with short
 *    gaps, reads steady and small in a chunk and saturates LITTLE in the
 *    next (its parsing); believing each chunk took the machine down between
 *    bursts, and every burst that started on LITTLE was late. A load that is
 *    steady for longer (a ramp, a long phase of constant work between
 *    bursts) still comes down on its measure, 0.1 s later at most.
 *
 * 5. Frames that fit. The hold of 3. is for loads the smaller CPUs cannot
 *    carry; a frame loop that saturated LITTLE only in a heavy frame, whose
 *    other frames LITTLE carries, would otherwise stay up for seconds after
 *    each heavy one. So on CPUs larger than the smallest seen, once a window
 *    of HEADROOM_FIT_WINDOW_US has been measured since the last saturation
 *    and every sample of it fits the smallest CPUs (its peak at most
 *    HEADROOM_FIT_MARGIN of their top, no busy CPU running faster than
 *    HEADROOM_FIT_SPEED times it: a frame that needed a big CPU's speed
 *    while it ran reads small once averaged over the interval), what is
 *    known is cut to the window's mean demand, and the engine takes the
 *    load down within a few frames. It waits:
 *    - while the gaps between past saturations say the next one is near
 *      (at least half of those that lasted as long as this one ended within
 *      HEADROOM_FIT_STAY_US more);
 *    - after a way down it took that did not pay: a saturation within
 *      HEADROOM_FIT_PROBATION_US of arriving, 4 s and doubling, or a first
 *      sample that waited (the switch stalled the work), 60 s;
 *    - for good where the switch up from the smallest CPUs stalls the work
 *      for over HEADROOM_FIT_MAX_STALL_US (switch_up_us, as last told
 *      there: on the top level there is no switch up to tell of): there
 *      every way down and back costs frames their deadline, and the hold of
 *      3. stays (hotplug, cpuset moves). Not in mp mode's view of one CPU
 *      (HEADROOM_HOLD_CPUS). The stall was once read from the first sample
 *      after a switch up (idle CPUs with work waiting), but that sample
 *      reaches the heuristics through the settle filter (core/settle.h),
 *      which caps its busy time and pressure at what the CPUs below showed
 *      before the switch: it read LITTLE's pressure as the stall, and a
 *      stall as none.
 *    half_life_ms = 0 (hold) turns this rule off.
 *
 * 6. Runs that a switch would not pay for. Where the switch up stalls the
 *    work (switch_up_us: the stall the daemon measures for its backend,
 *    blsim's board cost), going up for a burst that ends soon makes it
 *    later, not sooner, and pays for two switches. So the saturation runs
 *    (saturated samples in a row on the smallest CPUs, onsets included,
 *    carried on larger CPUs after a move up while those stay loaded or have
 *    work waiting) are measured in the smallest CPUs' busy time, and the
 *    latest HEADROOM_RUNS are remembered. A run with r still to go ends at
 *    S + r x f after a move up (S the stall, f the smallest CPUs' top
 *    against the fastest) and at r without one, so going up gains
 *    r(1 - f) - S. A saturated sample on the smallest CPUs is not taken as
 *    a saturation while the remembered runs that lasted as long as this one
 *    make that gain negative on the whole: a key press, a timer's burst, a
 *    camera preview's frame that LITTLE finishes before a hotplug or cpuset
 *    move would. A run longer than all of them, or fewer than
 *    HEADROOM_RUNS_MIN remembered, goes up as before. Only where the
 *    stall is at least HEADROOM_RUN_MIN_STALL of the interval (hotplug's
 *    and cpuset's tens of milliseconds, not the in-kernel switcher's or
 *    cpufreq's microseconds) and in samples of a cluster
 *    (HEADROOM_RUN_CPUS): cluster mode.
 *
 * Steady samples that settled, and quiet ones once the quiet lasts, score
 * the measured peak and it becomes what is known. A sample of length 0 (the
 * first), or whose peak is not finite, scores what is known, or its peak. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "policy/builtin.h"

enum {
        HEADROOM_MIN_PRESSURE_PCT,
        HEADROOM_SATURATED_BUSY_PCT,
        HEADROOM_BOOST_PCT,
        HEADROOM_QUIET_BUSY_PCT,
        HEADROOM_STEADY_BUSY_PCT,
        HEADROOM_HALF_LIFE_MS,
        HEADROOM_QUIET_MS,
        HEADROOM_ONSET_PCT,
};

/* CPUs busy half an interval between them carry load: pressure is charged
 * to them only then, and a load is present while the busiest one is. */
#define HEADROOM_LOADED_BUSY 0.5
/* Pressure that makes the sample after a quiet spell ended the onset
 * whatever the CPUs read (rule 2), in a sample of more CPUs than a pair:
 * pressure is the whole machine's, and pair and mp modes score each pair
 * or CPU on its own (two CPUs at most), where it may be another's. */
#define HEADROOM_ONSET_WAITING 0.5
#define HEADROOM_ONSET_WAITING_CPUS 3
/* Rule 2 judges onsets in views of fewer CPUs than this: a pair's or a
 * CPU's (and a cluster of two, as tc2's big one, where onsets change
 * little: the machine is up already). Measured on the tuning traces with
 * CPU pressure as the kernel counts it: in cluster mode, judging them
 * missed the targets 764 times and not judging them 709; in pair and mp
 * modes not judging them missed more (tests/bench/RESULTS.md, 2026-12-07). */
#define HEADROOM_JUDGED_CPUS 3
/* How long a load must have been present without a break before a steady
 * measure below what is known is believed (see 4. above). */
#define HEADROOM_SETTLE_US (100 * 1000)
/* Rule 5. 100 ms holds three frames at 30 fps and six at 60: each frame's
 * work is seen whole in some sample, at the speed it ran at. The window's
 * largest sample, mean and fastest busy CPU are kept per quarter of it. */
#define HEADROOM_FIT_WINDOW_US (100 * 1000)
#define HEADROOM_FIT_SLOTS 4
#define HEADROOM_FIT_MARGIN 0.97
#define HEADROOM_FIT_SPEED 1.25
/* A CPU this busy counts for the speed it ran at. */
#define HEADROOM_SPEED_BUSY 0.05
#define HEADROOM_FIT_PROBATION_US (100 * 1000)
#define HEADROOM_FIT_BACKOFF_US (4000 * 1000)
#define HEADROOM_FIT_BACKOFF_MAX_US (60ULL * 1000 * 1000)
/* Gaps between saturations remembered, the latest ones. */
#define HEADROOM_GAPS 8
#define HEADROOM_FIT_STAY_US (500 * 1000)
#define HEADROOM_GAP_CAP_US (60ULL * 1000 * 1000)
#define HEADROOM_FIT_MAX_STALL_US 1000.0
/* Rule 2's cadence: quiet spells that ended in a burst, the latest ones,
 * counted up to the longest gap between frames (10 fps); a cadence is seen
 * once two were. */
#define HEADROOM_SPELLS 8
#define HEADROOM_CADENCE_US (100 * 1000)
#define HEADROOM_CADENCE_MIN 2
/* Rule 2's bets on a runnable task: the latest starts after quiet that
 * were judged, one bit each (set: the start of more). */
#define HEADROOM_STARTS 8
_Static_assert(HEADROOM_STARTS <= 8, "headroom_state.starts holds one bit per start in a uint8_t");
/* Rule 6: saturation runs on the smallest CPUs remembered, the latest
 * ones, and how many before they answer. */
#define HEADROOM_RUNS 32
#define HEADROOM_RUNS_MIN 3
/* Rule 6 judges a sample of this many CPUs or more: a whole cluster. In
 * pair and mp modes a move up takes one pair or CPU, and whether it costs
 * energy depends on what the others keep powered (on tc2 a LITTLE pair's
 * move up can let the LITTLE cluster sleep), which one instance does not
 * see; there the stall alone does not say that waiting pays. */
#define HEADROOM_RUN_CPUS 3
/* Rule 5 holds for good in a sample of this many CPUs or more: a cluster's
 * or a pair's, whose way down gives up the fast CPUs a frame loop's next
 * burst needs back. Not in mp mode's view of one CPU, where a way down
 * gives up one fast CPU of those the load has. On the tuning traces
 * (RESULTS.md, 2026-12-07) the hold in mp's views missed the targets 14
 * times more, and without it in pairs' views, 55 more. */
#define HEADROOM_HOLD_CPUS 2
/* Rule 6 weighs a run only where the switch up stalls at least this share
 * of the interval, and rule 2 bets on a runnable task only below it. A
 * shorter stall ends early in the sample after the decision, in time for
 * the rest of a run that goes on, and there waiting on a long run (a
 * camera's capture after its preview's frames) left a sample of its work
 * on LITTLE for the little a needless switch costs. */
#define HEADROOM_RUN_MIN_STALL 0.5

struct headroom_state {
        double min_pressure;            /* share of the interval */
        double saturated_busy;          /* fractions */
        double boost;
        double quiet_busy;
        double steady_busy;
        double half_life_us;            /* 0: hold */
        bl_usec_t quiet_for;            /* needed */
        bl_usec_t quiet;                /* so far */
        double quiet_top;               /* the top capacity of the CPUs it was seen on */
        double quiet_peak;              /* the largest peak of the quiet so far */
        bl_usec_t loaded;               /* so far, up to HEADROOM_SETTLE_US */
        double onset;                   /* share of the top capacity, 0 = none */
        double known;
        bool initialised;
        double smallest_top;            /* the smallest top capacity seen, 0 = none yet */
        bl_usec_t above;                /* measured above them since, up to HEADROOM_FIT_WINDOW_US */
        double window[HEADROOM_FIT_SLOTS]; /* the largest peak of each quarter of that time */
        double work[HEADROOM_FIT_SLOTS];   /* and the work, peak x interval, in it */
        bl_usec_t span[HEADROOM_FIT_SLOTS]; /* and its length */
        double speed[HEADROOM_FIT_SLOTS];  /* and the largest capacity a busy CPU ran at */
        unsigned slot;
        bl_usec_t slot_age;
        bl_usec_t backoff;              /* extra wait after failed ways down, 0 = none */
        bool fit_applied;               /* rule 5 scored the last sample */
        bl_usec_t waited;               /* above the smallest CPUs since the last saturation, up to the wait */
        bool probation;                 /* on the smallest CPUs since rule 5 brought the load there */
        bl_usec_t probation_for;        /* so far */
        double up_stall_us;             /* switch_up_us on the smallest CPUs, the latest told */
        bl_usec_t since_saturated;      /* up to HEADROOM_GAP_CAP_US */
        bl_usec_t gap[HEADROOM_GAPS];   /* between saturations, the latest last */
        unsigned ngaps;
        bool onset_open;                /* an onset not yet judged */
        bool onset_false;               /* one led to nothing since the last saturation */
        bool start_open;                /* a start after quiet that was no onset, not yet judged */
        uint8_t starts;                 /* the latest HEADROOM_STARTS judged, the latest in bit 0 */
        bool started;                   /* one was judged */
        bool starting;                  /* the last sample ended a quiet spell below onset_pct */
        bl_usec_t spell;                /* quiet so far, up to HEADROOM_CADENCE_US + 1 */
        bl_usec_t spells[HEADROOM_SPELLS]; /* those that ended in a burst, the latest last */
        unsigned nspells;
        bl_usec_t run;                  /* the saturation run in progress, in the smallest CPUs' time */
        double run_top;                 /* the top capacity it started on */
        bl_usec_t runs[HEADROOM_RUNS];  /* those that ended, the latest last */
        unsigned nruns;
};

static const struct bl_policy_param headroom_params[] = {
        [HEADROOM_MIN_PRESSURE_PCT] = {
                .key = "min_pressure_pct",
                .unit = "% of the interval",
                .def = 10,
                .min = 0,
                .max = 100,
                .integer = true,
        },
        [HEADROOM_SATURATED_BUSY_PCT] = {
                .key = "saturated_busy_pct",
                .unit = "% busy at the top frequency",
                .def = 100,
                .min = 50,
                .max = 100,
                .integer = true,
        },
        [HEADROOM_BOOST_PCT] = {
                .key = "boost_pct",
                .unit = "% of the top capacity",
                .def = 125,
                .min = 101,
                .max = 400,
                .integer = true,
        },
        [HEADROOM_QUIET_BUSY_PCT] = {
                .key = "quiet_busy_pct",
                .unit = "% busy, below steady_busy_pct",
                .def = 10,
                .min = 0,
                .max = 100,
                .integer = true,
        },
        [HEADROOM_STEADY_BUSY_PCT] = {
                .key = "steady_busy_pct",
                .unit = "% busy",
                .def = 75,
                .min = 0,
                .max = 100,
                .integer = true,
        },
        [HEADROOM_HALF_LIFE_MS] = {
                .key = "half_life_ms",
                .unit = "ms, 0 = hold",
                .def = 2000,
                .min = 0,
                .max = 100000,
                .integer = true,
        },
        [HEADROOM_QUIET_MS] = {
                .key = "quiet_ms",
                .unit = "ms",
                .def = 30,
                .min = 0,
                .max = 10000,
                .integer = true,
        },
        [HEADROOM_ONSET_PCT] = {
                .key = "onset_pct",
                .unit = "% of the top capacity, 0 = never",
                .def = 30,
                .min = 0,
                .max = 100,
                .integer = true,
        },
};

#define HEADROOM_NPARAMS (sizeof(headroom_params) / sizeof(headroom_params[0]))

static bool quiet_below_steady(const double *params)
{
        return params[HEADROOM_QUIET_BUSY_PCT] <= params[HEADROOM_STEADY_BUSY_PCT];
}

static int headroom_validate(const double *params, char *err, size_t size)
{
        if (quiet_below_steady(params))
                return 0;
        snprintf(err, size,
                 "quiet_busy_pct (%g) must not exceed steady_busy_pct (%g): a CPU cannot be nearly idle "
                 "and steadily busy at once.",
                 params[HEADROOM_QUIET_BUSY_PCT], params[HEADROOM_STEADY_BUSY_PCT]);
        return -EINVAL;
}

static int headroom_init(void *state, const double *params)
{
        struct headroom_state *h = state;

        for (unsigned i = 0; i < HEADROOM_NPARAMS; i++)
                if (!(params[i] >= headroom_params[i].min && params[i] <= headroom_params[i].max))
                        return -EINVAL;
        if (!quiet_below_steady(params))
                return -EINVAL;
        *h = (struct headroom_state){
                .min_pressure = params[HEADROOM_MIN_PRESSURE_PCT] / 100.0,
                .saturated_busy = params[HEADROOM_SATURATED_BUSY_PCT] / 100.0,
                .boost = params[HEADROOM_BOOST_PCT] / 100.0,
                .quiet_busy = params[HEADROOM_QUIET_BUSY_PCT] / 100.0,
                .steady_busy = params[HEADROOM_STEADY_BUSY_PCT] / 100.0,
                .half_life_us = params[HEADROOM_HALF_LIFE_MS] * 1000.0,
                .quiet_for = (bl_usec_t)params[HEADROOM_QUIET_MS] * 1000,
                .onset = params[HEADROOM_ONSET_PCT] / 100.0,
        };
        return 0;
}

/* Whether a CPU ran all the time at its top frequency (a CPU that does not
 * know its top is taken to be at it). */
static bool cpu_saturated(const struct bl_cpu_sample *c, double saturated_busy)
{
        return c->busy >= saturated_busy && (c->max_capacity == 0 || c->capacity >= c->max_capacity);
}

/* Durations are counted up to what matters: whether they were reached. */
static bl_usec_t count_up_to(bl_usec_t so_far, bl_usec_t more, bl_usec_t enough)
{
        return so_far + more < enough ? so_far + more : enough;
}

static void window_clear(struct headroom_state *h)
{
        for (unsigned i = 0; i < HEADROOM_FIT_SLOTS; i++) {
                h->window[i] = 0.0;
                h->work[i] = 0.0;
                h->span[i] = 0;
                h->speed[i] = 0.0;
        }
        h->slot = 0;
        h->slot_age = 0;
        h->above = 0;
}

/* A sample as long as the window fills it alone. */
static void window_add(struct headroom_state *h, double peak, double speed, bl_usec_t interval)
{
        if (interval >= HEADROOM_FIT_WINDOW_US)
                window_clear(h);
        if (speed > h->speed[h->slot])
                h->speed[h->slot] = speed;
        if (peak > h->window[h->slot])
                h->window[h->slot] = peak;
        h->work[h->slot] += peak * (double)interval;
        h->span[h->slot] += interval;
        h->above = count_up_to(h->above, interval, HEADROOM_FIT_WINDOW_US);
        h->slot_age += interval;
        if (h->slot_age >= HEADROOM_FIT_WINDOW_US / HEADROOM_FIT_SLOTS) {
                h->slot = (h->slot + 1) % HEADROOM_FIT_SLOTS;
                h->window[h->slot] = 0.0;
                h->work[h->slot] = 0.0;
                h->span[h->slot] = 0;
                h->speed[h->slot] = 0.0;
                h->slot_age = 0;
        }
}

/* The largest of one per-slot figure of the window. */
static double slots_max(const double *slot)
{
        double m = 0.0;

        for (unsigned i = 0; i < HEADROOM_FIT_SLOTS; i++)
                if (slot[i] > m)
                        m = slot[i];
        return m;
}

static double window_max(const struct headroom_state *h)
{
        return slots_max(h->window);
}

static double window_speed(const struct headroom_state *h)
{
        return slots_max(h->speed);
}

static double window_mean(const struct headroom_state *h)
{
        double work = 0.0, span = 0.0;

        for (unsigned i = 0; i < HEADROOM_FIT_SLOTS; i++) {
                work += h->work[i];
                span += (double)h->span[i];
        }
        return span > 0 ? work / span : 0.0;
}

/* 'v' joins the latest 'size' lengths (the latest last; '*n' of them). */
static void remember(bl_usec_t *latest, unsigned size, unsigned *n, bl_usec_t v)
{
        for (unsigned i = 1; i < size; i++)
                latest[i - 1] = latest[i];
        latest[size - 1] = v;
        if (*n < size)
                (*n)++;
}

/* A stretch of samples, counted in '*so_far' up to 'cap' while 'going';
 * once it ends, one that lasted is remembered in 'latest' (the last 'size',
 * the latest last; '*n' of them). */
static void count_stretch(bl_usec_t *so_far, bool going, bl_usec_t interval, bl_usec_t cap, bl_usec_t *latest,
                          unsigned size, unsigned *n)
{
        if (going) {
                *so_far = count_up_to(*so_far, interval, cap);
                return;
        }
        if (*so_far > 0)
                remember(latest, size, n, *so_far);
        *so_far = 0;
}

/* A saturation after samples that were not ends a gap between them. */
static void count_gaps(struct headroom_state *h, bool saturated, bl_usec_t interval)
{
        count_stretch(&h->since_saturated, !saturated, interval, HEADROOM_GAP_CAP_US, h->gap, HEADROOM_GAPS,
                      &h->ngaps);
}

/* Whether the gap in progress is expected to last HEADROOM_FIT_STAY_US more:
 * half the remembered gaps that lasted as long did. Without any that lasted
 * as long, yes: nothing says otherwise. */
static bool gap_lasts(const struct headroom_state *h)
{
        unsigned longer = 0, enough = 0;

        for (unsigned i = HEADROOM_GAPS - h->ngaps; i < HEADROOM_GAPS; i++) {
                if (h->gap[i] <= h->since_saturated)
                        continue;
                longer++;
                if (h->gap[i] >= h->since_saturated + HEADROOM_FIT_STAY_US)
                        enough++;
        }
        return longer == 0 || 2 * enough >= longer;
}

/* Rule 2's cadence: a quiet spell that a burst ended is remembered. */
static void count_spells(struct headroom_state *h, bool quiet, bl_usec_t interval)
{
        count_stretch(&h->spell, quiet, interval, HEADROOM_CADENCE_US + 1, h->spells, HEADROOM_SPELLS,
                      &h->nspells);
}

/* Whether the quiet spell in progress, 'so_far' long, is a gap between the
 * bursts of a load that comes back at a cadence: at least half of the
 * remembered spells lasted as long and ended in a burst within
 * HEADROOM_CADENCE_US (a 24 fps preview's 38 ms between frames, longer
 * than quiet_ms). */
static bool spell_recurs(const struct headroom_state *h, bl_usec_t so_far)
{
        unsigned within = 0;

        if (h->nspells < HEADROOM_CADENCE_MIN)
                return false;
        for (unsigned i = HEADROOM_SPELLS - h->nspells; i < HEADROOM_SPELLS; i++)
                if (h->spells[i] >= so_far && h->spells[i] <= HEADROOM_CADENCE_US)
                        within++;
        return 2 * within >= h->nspells;
}

/* Whether a way down rule 5 took paid: a saturation soon after arriving
 * says it did not. */
static void judge_way_down(struct headroom_state *h, bool saturated, bool stalled, bl_usec_t interval)
{
        if (h->fit_applied) {
                h->fit_applied = false;
                h->probation = true;
                h->probation_for = 0;
        }
        if (!h->probation)
                return;
        if (saturated || (stalled && h->probation_for == 0)) {
                h->probation = false;
                h->backoff = h->probation_for == 0 ? HEADROOM_FIT_BACKOFF_MAX_US :
                             h->backoff == 0 ? HEADROOM_FIT_BACKOFF_US : 2 * h->backoff;
                if (h->backoff > HEADROOM_FIT_BACKOFF_MAX_US)
                        h->backoff = HEADROOM_FIT_BACKOFF_MAX_US;
                return;
        }
        h->probation_for += interval;
        if (h->probation_for >= HEADROOM_FIT_PROBATION_US) {
                h->probation = false;
                h->backoff /= 2;
                if (h->backoff < HEADROOM_FIT_BACKOFF_US)
                        h->backoff = 0;
        }
}

/* Rule 5: what is known is more than the load needs once a window's worth
 * of samples above the smallest CPUs seen each fits them with a margin.
 * Returns the most it needs then, or 0. */
static double carried_below(struct headroom_state *h, bool saturated, bool stalled, double peak, double speed,
                            double top, bl_usec_t interval)
{
        const bl_usec_t wait = h->backoff > HEADROOM_FIT_WINDOW_US ? h->backoff : HEADROOM_FIT_WINDOW_US;

        if (top > 0 && (h->smallest_top == 0 || top < h->smallest_top))
                h->smallest_top = top;
        if (saturated || h->half_life_us <= 0 || top <= h->smallest_top ||
            h->up_stall_us > HEADROOM_FIT_MAX_STALL_US) {
                if (top <= h->smallest_top)
                        judge_way_down(h, saturated, stalled, interval);
                window_clear(h);
                h->waited = 0;
                return 0.0;
        }
        h->probation = false;
        window_add(h, peak, speed, interval);
        h->waited = count_up_to(h->waited, interval, wait);
        h->fit_applied = false;
        if (h->waited < wait || h->above < HEADROOM_FIT_WINDOW_US ||
            window_max(h) > HEADROOM_FIT_MARGIN * h->smallest_top ||
            window_speed(h) > HEADROOM_FIT_SPEED * h->smallest_top || !gap_lasts(h))
                return 0.0;
        h->fit_applied = true;
        return window_mean(h);
}

static void start_judged(struct headroom_state *h, bool of_more)
{
        h->starts = (uint8_t)(h->starts << 1 | of_more);
        h->started = true;
}

/* Whether to bet on a runnable task (rule 2): while one of the latest
 * starts was the start of more, or before any was judged. */
static bool bets_pay(const struct headroom_state *h)
{
        return !h->started || (h->starts & ((1u << HEADROOM_STARTS) - 1)) != 0;
}

/* Whether a sample shows a start to be the start of more: a saturation, or
 * a load the smallest CPUs could not carry. */
static bool start_of_more(const struct headroom_state *h, bool saturated, double peak)
{
        return saturated || peak > HEADROOM_FIT_MARGIN * h->smallest_top;
}

/* Whether the last onset, or start after quiet that was none, was the
 * start of more (start_of_more()) before the quiet came back. */
static void judge_onset(struct headroom_state *h, bool saturated, double peak)
{
        const bool of_more = start_of_more(h, saturated, peak);

        if (h->start_open && (of_more || h->quiet >= h->quiet_for)) {
                start_judged(h, of_more);
                h->start_open = false;
        }
        if (saturated || (h->onset_open && of_more)) {
                if (h->onset_open)
                        start_judged(h, true);
                h->onset_open = false;
                h->onset_false = false;
        } else if (h->onset_open && h->quiet >= h->quiet_for) {
                start_judged(h, false);
                h->onset_open = false;
                h->onset_false = true;
        }
}

/* Rule 2: whether this sample is an onset (one not already saturated is
 * then judged by judge_onset(), as is a start after quiet that is none),
 * and whether it ended a quiet spell below onset_pct, so that the next one
 * may still be. */
static bool is_onset(struct headroom_state *h, bool saturated, double peak, double top, double busiest,
                     double waiting, bool running, bool judged)
{
        const bool was_quiet = h->quiet >= h->quiet_for && !spell_recurs(h, h->spell);

        if (h->onset > 0 && !(judged && h->onset_false) &&
            (((was_quiet || h->starting) &&
              (peak > h->onset * top || (running && busiest >= h->quiet_busy && bets_pay(h)))) ||
             (h->starting && waiting >= HEADROOM_ONSET_WAITING))) {
                h->onset_open = !saturated;
                h->start_open = false;
                if (saturated)
                        start_judged(h, true);
                h->starting = false;
                return true;
        }
        h->starting = was_quiet && busiest >= h->quiet_busy;
        if (h->quiet >= h->quiet_for && busiest >= h->quiet_busy) {
                if (start_of_more(h, saturated, peak))
                        start_judged(h, true);
                else
                        h->start_open = true;
        }
        return false;
}

/* Rule 6: the saturation run in progress goes on or ends with this sample
 * ('smallest': on the smallest CPUs). A run is a stretch of saturated
 * samples on the smallest CPUs, carried on larger ones after a move up for
 * as long as they stay loaded or have work waiting; each sample adds the
 * time its busiest CPU was busy, scaled to the smallest CPUs' speed, and
 * the sample that ends it adds its own. */
static void count_run(struct headroom_state *h, bool smallest, bool saturated, bool loaded, bool waiting,
                      double busiest, double top, bl_usec_t interval)
{
        if (h->run == 0) {
                if (!smallest || !saturated)
                        return;
                h->run_top = top;
        }
        h->run += (bl_usec_t)(busiest * (double)interval * (top > h->run_top ? top / h->run_top : 1.0));
        if ((smallest && saturated) || (!smallest && (loaded || waiting)))
                return;
        remember(h->runs, HEADROOM_RUNS, &h->nruns, h->run);
        h->run = 0;
}

/* Whether the switch up stalls the work long enough for rules 2 and 6 to
 * weigh it: hotplug's and cpuset's tens of milliseconds, not the in-kernel
 * switcher's or cpufreq's microseconds. */
static bool switch_is_slow(double switch_up_us, bl_usec_t interval)
{
        return switch_up_us >= HEADROOM_RUN_MIN_STALL * (double)interval;
}

/* Rule 6: whether a saturated sample on the smallest CPUs, whose busiest CPU
 * was 'busiest' busy, is better not taken up. A run with r still to go (in
 * these CPUs' time) ends at S + r x f after a move up now (S the switch's
 * stall, f their top against the fastest CPUs') and at r without one: going
 * up gains r(1 - f) - S. The remembered runs that lasted as long as this one
 * say what r to expect; none, or too few remembered, and it goes up. */
static bool run_waits(const struct headroom_state *h, double switch_up_us, double top, double busiest,
                      bl_usec_t interval)
{
        const double f = top / BL_CAPACITY_SCALE;
        const bl_usec_t so_far = h->run + (bl_usec_t)(busiest * (double)interval);
        double gain = 0.0;
        unsigned longer = 0;

        if (!switch_is_slow(switch_up_us, interval) || f >= 1.0 ||
            h->nruns < HEADROOM_RUNS_MIN)
                return false;
        for (unsigned i = HEADROOM_RUNS - h->nruns; i < HEADROOM_RUNS; i++) {
                if (h->runs[i] < so_far)
                        continue;
                longer++;
                gain += (double)(h->runs[i] - so_far) * (1.0 - f) - switch_up_us;
        }
        return longer > 0 && gain < 0;
}

static double headroom_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        struct headroom_state *h = state;
        const double peak = bl_sample_peak_demand(s);
        const bool pressure_known = s->has_pressure && isfinite(s->pressure);
        double busiest = 0.0, busy_sum = 0.0, carried, speed = 0.0, top;
        bool saturated = false, quiet, smallest, waits;

        (void)now;
        if (s->interval == 0 || !isfinite(peak))
                return h->initialised ? h->known : peak;
        /* Once: a walk of every CPU, taken up to six times a tick. */
        top = bl_sample_top_capacity(s);

        for (unsigned i = 0; i < s->ncpus; i++) {
                const struct bl_cpu_sample *c = &s->cpu[i];

                if (!c->online)
                        continue;
                if (c->busy > busiest)
                        busiest = c->busy;
                busy_sum += c->busy;
                if (c->busy >= HEADROOM_SPEED_BUSY && c->capacity > speed)
                        speed = c->capacity;
                if (cpu_saturated(c, h->saturated_busy))
                        saturated = true;
        }
        if (pressure_known && s->pressure > h->min_pressure && busy_sum >= HEADROOM_LOADED_BUSY)
                saturated = true;

        if (s->ncpus >= HEADROOM_HOLD_CPUS && top > 0 && (h->smallest_top == 0 || top <= h->smallest_top) &&
            isfinite(s->switch_up_us))
                h->up_stall_us = s->switch_up_us;
        /* Quiet counts on the CPUs it was seen on: a load under
         * quiet_busy_pct of a big CPU can be a fifth of a LITTLE one, and
         * onset would take a switch down straight back up (seen live: the
         * daemon went up and down every 80 ms on 7 % of a big CPU). */
        /* Quiet on larger CPUs is quiet on these too when nothing in it
         * would have been load here: a key press 10 ms after a way down
         * that followed 50 ms of nothing is the start of something. */
        if (top != h->quiet_top) {
                if (!(top < h->quiet_top && h->quiet > 0 && h->quiet_peak < h->quiet_busy * top)) {
                        h->quiet = 0;
                        h->spell = 0;
                }
                h->quiet_top = top;
                h->starting = false;
        }
        judge_onset(h, saturated, peak);
        /* Pressure and the runnable tasks are the whole machine's (see
         * HEADROOM_ONSET_WAITING_CPUS). */
        if (is_onset(h, saturated, peak, top, busiest,
                     pressure_known && s->ncpus >= HEADROOM_ONSET_WAITING_CPUS ? s->pressure : 0.0,
                     s->has_running && s->running > 0 && s->ncpus >= HEADROOM_ONSET_WAITING_CPUS &&
                             !switch_is_slow(s->switch_up_us, s->interval),
                     s->ncpus < HEADROOM_JUDGED_CPUS))
                saturated = true;
        /* Rule 6 judges the sample against the run so far, which it then
         * goes on or ends whatever the level does. A sample that knows no
         * capacity (top 0) is on no CPUs of a size. */
        smallest = top > 0 && top <= h->smallest_top;
        waits = saturated && smallest && s->ncpus >= HEADROOM_RUN_CPUS &&
                run_waits(h, s->switch_up_us, top, busiest, s->interval);
        count_run(h, smallest, saturated, busiest >= HEADROOM_LOADED_BUSY,
                  pressure_known && s->pressure > h->min_pressure, busiest, top, s->interval);
        if (waits)
                saturated = false;
        quiet = busiest < h->quiet_busy && !saturated;
        if (quiet && h->quiet == 0)
                h->quiet_peak = 0.0;
        h->quiet = quiet ? count_up_to(h->quiet, s->interval, h->quiet_for) : 0;
        if (quiet && peak > h->quiet_peak)
                h->quiet_peak = peak;
        count_spells(h, quiet, s->interval);
        h->loaded = busiest >= HEADROOM_LOADED_BUSY && !saturated ?
                    count_up_to(h->loaded, s->interval, HEADROOM_SETTLE_US) : 0;

        if (saturated) {
                double over = h->boost * top;

                h->known = over > peak ? over : peak;
        } else if (!h->initialised || (busiest >= h->steady_busy && h->loaded >= HEADROOM_SETTLE_US) ||
                   h->known <= peak || h->quiet >= h->quiet_for) {
                h->known = peak;
        } else if (h->quiet == 0) {
                double keep = h->half_life_us > 0 ? exp2(-(double)s->interval / h->half_life_us) : 1.0;

                h->known = peak + (h->known - peak) * keep;
        }
        count_gaps(h, saturated, s->interval);
        carried = carried_below(h, saturated, pressure_known && s->pressure > h->min_pressure, peak, speed,
                                top, s->interval);
        if (carried > 0 && h->known > carried)
                h->known = carried;
        h->initialised = true;
        return h->known;
}

static void headroom_reset(void *state)
{
        struct headroom_state *h = state;

        h->known = 0.0;
        h->quiet = 0;
        h->quiet_top = 0.0;
        h->quiet_peak = 0.0;
        h->loaded = 0;
        h->initialised = false;
        h->smallest_top = 0.0;
        window_clear(h);
        h->waited = 0;
        h->backoff = 0;
        h->fit_applied = false;
        h->probation = false;
        h->since_saturated = 0;
        h->ngaps = 0;
        h->up_stall_us = 0.0;
        h->onset_open = false;
        h->onset_false = false;
        h->start_open = false;
        h->starts = 0;
        h->started = false;
        h->starting = false;
        h->spell = 0;
        h->nspells = 0;
        h->run = 0;
        h->nruns = 0;
}

const struct bl_heuristic_ops heuristic_headroom = {
        .abi = BL_POLICY_ABI,
        .name = "headroom",
        .summary = "above the level's top when it saturates, held through bursts, else busy x capacity",
        .params = headroom_params,
        .nparams = HEADROOM_NPARAMS,
        .state_size = sizeof(struct headroom_state),
        .validate = headroom_validate,
        .init = headroom_init,
        .score = headroom_score,
        .reset = headroom_reset,
};
