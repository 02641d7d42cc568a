/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

/* Makes room for one more element in the array '*items' of elements of
 * 'size' bytes, 'n' of them in use and '*capacity' allocated: when it is
 * full, doubles it (to 'first' elements when nothing is allocated yet).
 * Returns 0, or -ENOMEM with the array as it was. */
int array_grow(void **items, size_t n, size_t *capacity, size_t size, size_t first);
