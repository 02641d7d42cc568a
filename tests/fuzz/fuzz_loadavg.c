/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The /proc/loadavg parser (sources/loadavg.c): any text parses or is
 * refused without reading past its end, and an accepted count is the
 * number between the third space of the first line and the '/' after it,
 * at least 1 and no more than the number after the '/'. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/loadavg.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        const char *text = (const char *)data, *eol, *p = text, *slash;
        unsigned running = 0;
        unsigned long long r, total;
        char digits[32];
        size_t n;

        if (loadavg_parse(text, size, &running) < 0)
                return 0;
        eol = memchr(text, '\n', size);
        FUZZ_ASSERT(eol != NULL);
        for (int i = 0; i < 3; i++) {
                p = memchr(p, ' ', (size_t)(eol - p));
                FUZZ_ASSERT(p != NULL);
                p++;
        }
        slash = memchr(p, '/', (size_t)(eol - p));
        FUZZ_ASSERT(slash != NULL && slash > p);
        /* leading zeros are the kernel's to write, not ours to refuse */
        while (*p == '0' && p + 1 < slash)
                p++;
        FUZZ_ASSERT((size_t)(slash - p) < sizeof(digits));
        n = (size_t)(slash - p);
        memcpy(digits, p, n);
        digits[n] = '\0';
        r = strtoull(digits, NULL, 10);
        total = strtoull(slash + 1, NULL, 10);
        FUZZ_ASSERT(r == running && r >= 1 && r <= total);
        return 0;
}
