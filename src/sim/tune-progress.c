/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The progress line of blsim tune on a terminal (tune.h). A search takes
 * minutes and says nothing until it is over: one line, rewritten in place
 * at most every PROGRESS_PERIOD_NS so that a fast search does not spend
 * its time writing to the terminal. */
#include <time.h>

#include "sim/tune.h"

#define PROGRESS_PERIOD_NS 200000000LL

static long long monotonic_ns(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Whole seconds, so that 59.6 s reads "1 min 00 s", not "0 min 60 s". */
static void duration_text(char *buf, size_t size, double seconds)
{
        unsigned long long s = seconds > 0 ? (unsigned long long)(seconds + 0.5) : 0;

        if (s < 60)
                snprintf(buf, size, "%llu s", s);
        else if (s < 3600)
                snprintf(buf, size, "%llu min %02llu s", s / 60, s % 60);
        else
                snprintf(buf, size, "%llu h %02llu min", s / 3600, s % 3600 / 60);
}

void tune_progress_line_start(struct tune_progress_line *pl, FILE *f)
{
        *pl = (struct tune_progress_line){ .f = f, .start_ns = monotonic_ns() };
}

void tune_progress_line_show(const struct tune_progress *p, void *userdata)
{
        struct tune_progress_line *pl = userdata;
        long long now = monotonic_ns();
        double elapsed = (double)(now - pl->start_ns) / 1e9;
        char best[64], left[32], line[160];
        int len;

        if (p->evaluations < p->budget && now - pl->shown_ns < PROGRESS_PERIOD_NS)
                return;
        pl->shown_ns = now;
        if (p->best.over == 0)
                snprintf(best, sizeof(best), "%.4f", p->best.objective);
        else
                snprintf(best, sizeof(best), "%.4f (%u over the limit)", p->best.objective, p->best.over);
        duration_text(left, sizeof(left), elapsed / p->evaluations * (p->budget - p->evaluations));
        len = snprintf(line, sizeof(line), "blsim tune: %u/%u evaluated, best %s, about %s left",
                       p->evaluations, p->budget, best, left);
        if (len >= (int)sizeof(line))
                len = (int)sizeof(line) - 1;
        /* Spaces blank what a longer line before left behind. */
        fprintf(pl->f, "\r%s%*s", line, pl->width > len ? pl->width - len : 0, "");
        fflush(pl->f);
        pl->width = len;
}

void tune_progress_line_end(struct tune_progress_line *pl, const struct tune_outcome *out)
{
        char took[32], line[96];
        int len;

        if (pl->width == 0)
                return;
        duration_text(took, sizeof(took), (double)(monotonic_ns() - pl->start_ns) / 1e9);
        len = snprintf(line, sizeof(line), "blsim tune: %u evaluated in %s", out->evaluations, took);
        fprintf(pl->f, "\r%s%*s\n", line, pl->width > len ? pl->width - len : 0, "");
        fflush(pl->f);
}
