/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The switcher backend pins each pair of the kernel's big.LITTLE switcher
 * on one side through its logical CPU's cpufreq limits (switcher.c). */

/* Where the LITTLE and big halves of a merged virtual table meet (in any
 * order, kHz; kernel-abi.md 1.7): '*little_max_khz' is the highest limit
 * that keeps a logical CPU on LITTLE, '*big_min_khz' the lowest that keeps
 * it on big. Returns 0, or -EINVAL when the table has no two halves. */
int switcher_boundary(const unsigned *table, unsigned n, unsigned *little_max_khz, unsigned *big_min_khz);
