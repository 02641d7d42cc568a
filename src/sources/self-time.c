/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <sched.h>
#include <time.h>

#include "sources/self-time.h"

void self_time_reset(struct self_time *st)
{
        *st = (struct self_time){ 0 };
}

int self_time_cpu(void)
{
        return sched_getcpu();
}

void self_time_take(struct self_time *st, bl_usec_t now, uint64_t *used_us, uint64_t *since_us)
{
        struct timespec ts;
        uint64_t ns;

        *used_us = 0;
        *since_us = 0;
        if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0) {
                st->have_prev = false;
                return;
        }
        ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        if (st->have_prev) {
                *used_us = ns > st->prev_ns ? (ns - st->prev_ns) / 1000u : 0;
                *since_us = now > st->prev_at ? now - st->prev_at : 0;
        }
        st->prev_ns = ns;
        st->prev_at = now;
        st->have_prev = true;
}
