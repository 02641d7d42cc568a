/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Heuristics as the core sees them: the public plugin ABI (policy/bl-policy.h,
 * the one header from outside core that core includes: types only), and a
 * lookup in a table of descriptors. */

#include "policy/bl-policy.h"

/* NULL-terminated lookup in a table of descriptors. */
const struct bl_heuristic_ops *heuristic_find(const struct bl_heuristic_ops *const *table, const char *name);
