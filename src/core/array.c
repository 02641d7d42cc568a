/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/array.h"

int array_grow(void **items, size_t n, size_t *capacity, size_t size, size_t first)
{
        size_t cap = *capacity ? *capacity * 2 : first;
        void *p;

        if (n < *capacity)
                return 0;
        if (size == 0 || cap > SIZE_MAX / size)
                return -ENOMEM;
        p = realloc(*items, cap * size);
        if (!p)
                return -ENOMEM;
        *items = p;
        *capacity = cap;
        return 0;
}
