/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "core/heuristic.h"

const struct bl_heuristic_ops *heuristic_find(const struct bl_heuristic_ops *const *table, const char *name)
{
        for (; table && *table; table++)
                if (strcmp((*table)->name, name) == 0)
                        return *table;
        return NULL;
}
