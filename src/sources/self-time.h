/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * The daemon's own CPU time. Its ticks are not load a faster level would
 * help with, yet /proc/stat and cpuidle count them like any other task's:
 * on Debian's kernel under QEMU (issue 15) a tick that ran long, or a run
 * of them, read as a saturated LITTLE CPU and took an idle machine to big.
 * The sampler takes the time the sampling thread used since its previous
 * read off the CPU it runs on.
 *
 * Reading the thread's clock is a system call (no vDSO for it on arm64),
 * 18 us a tick in the TCG guest, and on an idle machine the time is of no
 * use on most ticks: a CPU with nothing counted has nothing to take it off.
 * So the sampler takes it only on the ticks that need it, and spreads what
 * it gets over the time since the previous take.
 */

#include <stdbool.h>
#include <stdint.h>

#include "core/types.h"

struct self_time {
        uint64_t prev_ns;
        bl_usec_t prev_at;
        bool have_prev;
};

/* Forgets the previous take: the next one gives no time. */
void self_time_reset(struct self_time *st);

/* The CPU the calling thread runs on now, -1 when unknown (no system call
 * where the C library keeps it in its rseq area). */
int self_time_cpu(void);

/* The CPU time the calling thread used since the previous take, in us,
 * into *used_us, and how far 'now' (us) moved since then into *since_us;
 * both 0 on the first take or when the clock cannot be read. */
void self_time_take(struct self_time *st, bl_usec_t now, uint64_t *used_us, uint64_t *since_us);

/* The part of 'used_us', used evenly over 'since_us', that fell in the
 * last 'span_us'. */
static inline double self_time_share(uint64_t used_us, uint64_t since_us, uint64_t span_us)
{
        return since_us > span_us ? (double)used_us * (double)span_us / (double)since_us : (double)used_us;
}
