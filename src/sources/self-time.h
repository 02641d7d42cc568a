/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * The daemon's own CPU time. Its ticks are not load a faster level would
 * help with, yet /proc/stat and cpuidle count them like any other task's:
 * on Debian's kernel under QEMU (issue 15) a tick that ran long, or a run
 * of them, read as a saturated LITTLE CPU and took an idle machine to big.
 * The sampler takes the time the sampling thread used since its previous
 * read off the CPU it runs on.
 */

#include <stdbool.h>
#include <stdint.h>

struct self_time {
        uint64_t prev_ns;
        bool have_prev;
};

/* Forgets the previous reading: the next read gives no time. */
void self_time_reset(struct self_time *st);

/* The CPU time the calling thread used since the previous call, in µs,
 * into *used_us (0 on the first call or when the clock cannot be read),
 * and the CPU it runs on now into *cpu (-1 when unknown). */
void self_time_read(struct self_time *st, uint64_t *used_us, int *cpu);
