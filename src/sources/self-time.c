/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <sched.h>
#include <time.h>

#include "sources/self-time.h"

void self_time_reset(struct self_time *st)
{
        *st = (struct self_time){ 0 };
}

void self_time_read(struct self_time *st, uint64_t *used_us, int *cpu)
{
        struct timespec ts;
        uint64_t ns;

        *used_us = 0;
        *cpu = sched_getcpu();
        if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0) {
                st->have_prev = false;
                return;
        }
        ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        if (st->have_prev && ns > st->prev_ns)
                *used_us = (ns - st->prev_ns) / 1000u;
        st->prev_ns = ns;
        st->have_prev = true;
}
