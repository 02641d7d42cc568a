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

static uint32_t own_fixed(double own)
{
        double v;

        /* Every CPU but the sampling thread's, every tick: no arithmetic. */
        if (!(own > 0))
                return 0;
        v = own * STAT_WINDOW_OWN_SCALE + 0.5;
        return v >= (double)UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static void drop_oldest(struct stat_window *w)
{
        unsigned k = w->first;

        w->sum_busy -= w->busy[k];
        w->sum_total -= w->total[k];
        w->sum_own -= w->own[k];
        w->first = k + 1 == STAT_WINDOW_INTERVALS ? 0 : k + 1;
        w->n--;
}

float stat_window_add(struct stat_window *w, uint64_t busy, uint64_t idle, double own)
{
        unsigned k;
        double b;

        if (w->n == STAT_WINDOW_INTERVALS)
                drop_oldest(w);
        k = w->first + w->n;
        if (k >= STAT_WINDOW_INTERVALS)
                k -= STAT_WINDOW_INTERVALS;
        w->busy[k] = clamp32(busy);
        w->total[k] = clamp32(busy + idle);
        w->own[k] = own_fixed(own);
        w->sum_busy += w->busy[k];
        w->sum_total += w->total[k];
        w->sum_own += w->own[k];
        w->n++;
        /* The shortest run of the latest intervals that holds enough ticks. */
        while (w->n > 1 && w->sum_total - w->total[w->first] >= STAT_WINDOW_TICKS)
                drop_oldest(w);
        if (!w->sum_total)
                return 0.0f;
        b = (double)w->sum_busy - (double)w->sum_own / STAT_WINDOW_OWN_SCALE;
        return b > 0 ? (float)(b / (double)w->sum_total) : 0.0f;
}
