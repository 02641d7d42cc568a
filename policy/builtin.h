/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "core/heuristic.h"

extern const struct bl_heuristic_ops heuristic_util;
extern const struct bl_heuristic_ops heuristic_pelt;

/* NULL-terminated table of the heuristics compiled in. */
extern const struct bl_heuristic_ops *const policy_builtin[];
