/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sources/stat-window.h"

void stat_window_reset(struct stat_window *w)
{
        *w = (struct stat_window){ 0 };
}

static uint32_t clamp32(uint64_t v)
{
        return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

float stat_window_add(struct stat_window *w, uint64_t busy, uint64_t idle, double own)
{
        uint64_t sum_busy = 0, sum_total = 0;
        double sum_own = 0, b;

        w->busy[w->head] = clamp32(busy);
        w->total[w->head] = clamp32(busy + idle);
        w->own[w->head] = own > 0 ? (float)own : 0.0f;
        w->head = (w->head + 1) % STAT_WINDOW_INTERVALS;
        if (w->n < STAT_WINDOW_INTERVALS)
                w->n++;
        for (unsigned i = 0; i < w->n && sum_total < STAT_WINDOW_TICKS; i++) {
                unsigned k = (w->head + STAT_WINDOW_INTERVALS - 1 - i) % STAT_WINDOW_INTERVALS;

                sum_busy += w->busy[k];
                sum_total += w->total[k];
                sum_own += w->own[k];
        }
        if (!sum_total)
                return 0.0f;
        b = (double)sum_busy - sum_own;
        return b > 0 ? (float)(b / (double)sum_total) : 0.0f;
}
