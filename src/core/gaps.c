/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

#include "core/gaps.h"

/* Bin i holds lengths in [2^(i/2), 2^((i+1)/2)) ms; it stands for their
 * geometric middle. */
static unsigned bin_of(bl_usec_t len)
{
        double ms = (double)len / BL_USEC_PER_MSEC;
        int i;

        if (ms < 1.0)
                return 0;
        i = (int)floor(2.0 * log2(ms));
        return i >= BL_GAPS_BINS ? BL_GAPS_BINS - 1 : (unsigned)i;
}

static double bin_length_us(unsigned i)
{
        return exp2((i + 0.5) / 2.0) * BL_USEC_PER_MSEC;
}

void gaps_init(struct bl_gaps *g)
{
        *g = (struct bl_gaps){ 0 };
}

void gaps_record(struct bl_gaps *g, bl_usec_t len)
{
        g->total = 0;
        for (unsigned i = 0; i < BL_GAPS_BINS; i++) {
                g->weight[i] *= BL_GAPS_KEEP;
                g->total += g->weight[i];
        }
        g->weight[bin_of(len)] += 1.0;
        g->total += 1.0;
        if (len > g->longest)
                g->longest = len;
}

void gaps_observe(struct bl_gaps *g, bool fits, bl_usec_t now)
{
        if (fits && !g->open) {
                g->open = true;
                g->since = now;
        } else if (!fits && g->open) {
                g->open = false;
                gaps_record(g, now > g->since ? now - g->since : 0);
        }
}

bl_usec_t gaps_elapsed(const struct bl_gaps *g, bl_usec_t now)
{
        return g->open && now > g->since ? now - g->since : 0;
}

bool gaps_expected_rest(const struct bl_gaps *g, bl_usec_t elapsed, double *ret_us)
{
        double w = 0, sum = 0;

        if (g->total < BL_GAPS_MIN_WEIGHT)
                return false;
        for (unsigned i = 0; i < BL_GAPS_BINS; i++) {
                double len = bin_length_us(i);

                if (g->weight[i] <= 0 || len <= (double)elapsed)
                        continue;
                w += g->weight[i];
                sum += g->weight[i] * (len - (double)elapsed);
        }
        *ret_us = w > 0 ? sum / w : (double)elapsed;
        return true;
}
