/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * A random offset for the next full-rate tick. The kernel charges busy time
 * a whole jiffy at a time to whatever runs when its tick comes; a daemon
 * that wakes every 10 ms at one phase against a 4 ms jiffy is caught
 * running at the same few phases every time. On Debian's kernel under QEMU
 * (issue 15) that read as twice its real CPU time, 17 % of a LITTLE CPU
 * against 8 %, which no discount of its own time removes and which kept the
 * idle back-off from ever starting. At random phases the charge is its real
 * time on average.
 *
 * Pure: the state is the caller's.
 */

#include <stdint.h>

#include "core/types.h"

/* Offsets spread evenly over [-interval / 10, +interval / 10] µs, so the
 * mean interval stays the configured one. *state starts at any value (0
 * is replaced by 'seed'); returns 0 for intervals under 10 µs. */
int64_t tick_jitter_next(uint64_t *state, uint64_t seed, bl_usec_t interval);
