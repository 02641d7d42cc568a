/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The PSI parser (sources/psi.c): any text parses or is refused without
 * reading past its end, and an accepted total is the number written after
 * the last "total=" of the first line, which starts with "some ". */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sources/psi.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        const char *text = (const char *)data;
        const char *eol, *end, *last = NULL;
        char digits[32];
        uint64_t total = 0;
        size_t n;

        if (psi_parse(text, size, &total) < 0)
                return 0;
        eol = memchr(text, '\n', size);
        FUZZ_ASSERT(eol && size >= 5 && memcmp(text, "some ", 5) == 0);
        for (const char *p = text + 4; p + 7 <= eol; p++)
                if (memcmp(p, " total=", 7) == 0)
                        last = p + 7;
        FUZZ_ASSERT(last != NULL);
        end = memchr(last, ' ', (size_t)(eol - last));
        if (!end)
                end = eol;
        /* leading zeros are the kernel's to write, not ours to refuse */
        while (*last == '0' && last + 1 < end)
                last++;
        n = (size_t)snprintf(digits, sizeof(digits), "%" PRIu64, total);
        FUZZ_ASSERT((size_t)(end - last) == n && memcmp(last, digits, n) == 0);
        return 0;
}
