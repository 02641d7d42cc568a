/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* How long a lower level would do: the lengths of the periods in which the
 * demand fits a level (no move up from it would be wanted), learned from
 * the samples as they come, as cpuidle's menu governor learns how long idle
 * periods last. A frame-paced load has gaps of a frame period between its
 * bursts; a phone in the pocket seconds between timer blips; a sync
 * hundreds of milliseconds. Whether going down pays depends on how much of
 * the current gap is still to come, which the history answers better than
 * any fixed delay.
 *
 * Lengths go into half-octave bins from 1 ms (the last bin is open-ended),
 * each new gap weighing 1 and the older ones BL_GAPS_KEEP of what they
 * weighed: about the last thirty gaps count. Pure: no I/O, time is an
 * argument. */

#include "core/types.h"

#define BL_GAPS_BINS 32
#define BL_GAPS_KEEP 0.97
/* Below this weight of history (three gaps, with the older ones decayed)
 * the model does not answer. */
#define BL_GAPS_MIN_WEIGHT 2.5

struct bl_gaps {
        double weight[BL_GAPS_BINS];
        double total;
        bool open;                      /* a gap is in progress */
        bl_usec_t since;                /* its start */
        bl_usec_t longest;              /* the longest gap recorded */
};

void gaps_init(struct bl_gaps *g);

/* The sample at 'now' fits (true) or does not fit the level. A gap starts
 * at the first fitting sample and is recorded at the first that does not. */
void gaps_observe(struct bl_gaps *g, bool fits, bl_usec_t now);

/* How long the current gap has lasted at 'now' (0 when none is open). */
bl_usec_t gaps_elapsed(const struct bl_gaps *g, bl_usec_t now);

/* Adds one finished gap of 'len' µs. */
void gaps_record(struct bl_gaps *g, bl_usec_t len);

/* The expected rest of a gap that has lasted 'elapsed': the mean of
 * (length - elapsed) over the recorded gaps longer than 'elapsed'. A gap
 * longer than every one recorded is expected to last as long again.
 * Returns false (nothing in *ret) while the history weighs less than
 * BL_GAPS_MIN_WEIGHT. */
bool gaps_expected_rest(const struct bl_gaps *g, bl_usec_t elapsed, double *ret_us);
