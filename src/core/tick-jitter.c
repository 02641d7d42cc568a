/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/tick-jitter.h"

int64_t tick_jitter_next(uint64_t *state, uint64_t seed, bl_usec_t interval)
{
        uint64_t x = *state ? *state : seed | 1u;
        uint64_t span = interval / 10;

        if (span == 0)
                return 0;
        /* xorshift64: a period of 2^64 - 1 and no zero state */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *state = x;
        return (int64_t)(x % (2 * span + 1)) - (int64_t)span;
}
