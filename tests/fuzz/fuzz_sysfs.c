/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parsers of sysfs (and systemd) values, which the sources and backends
 * apply to what they read: the cpulist ("0-3,5": online, possible, cpuset
 * files), the word list of cpufreq's related_cpus ("0 1 2 3 "), decimal
 * values (cpu_capacity, cpufreq kHz, thermal millidegrees, through
 * parse_int()) and systemd's AllowedCPUs mask in hex. The first byte of the
 * input picks the parser, the rest is the value. Each accepted value must
 * come back the same from its canonical form. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/systemd-unit.h"
#include "common/fileio.h"
#include "core/cpumask.h"
#include "tests/fuzz/fuzz.h"

/* "0,2,4,...": the longest cpulist of BL_MAX_CPUS CPUs. */
#define LIST_MAX (BL_MAX_CPUS * 5 + 1)

static void check_cpulist(const char *text, bool words)
{
        static char list[LIST_MAX];
        bl_cpumask set, back;
        int r = words ? cpumask_parse_words(&set, text) : cpumask_parse(&set, text);

        FUZZ_ASSERT(r == 0 || r == -EINVAL || r == -ERANGE);
        if (r < 0)
                return;
        FUZZ_ASSERT(cpumask_format(&set, list, sizeof(list)) < sizeof(list));
        FUZZ_ASSERT(cpumask_parse(&back, list) == 0 && cpumask_equal(&set, &back));
}

static void check_decimal(const char *text)
{
        char buf[32];
        long long v, back;

        if (parse_int(text, &v) < 0)
                return;
        snprintf(buf, sizeof(buf), "%lld\n", v);
        FUZZ_ASSERT(parse_int(buf, &back) == 0 && back == v);
}

static void check_systemd_mask(const char *text)
{
        static char hex[2 * SYSTEMD_CPUS_MAX_BYTES + 1];
        struct systemd_cpus mask, back;
        bl_cpumask set;
        int r = systemd_cpus_parse_hex(text, &mask);

        FUZZ_ASSERT(r == 0 || r == -EINVAL || r == -E2BIG);
        if (r < 0)
                return;
        FUZZ_ASSERT(systemd_cpus_format_hex(&mask, hex, sizeof(hex)) == strlen(text));
        FUZZ_ASSERT(strcasecmp(hex, text) == 0);
        systemd_cpus_to_set(&mask, &set);
        systemd_cpus_from_set(&set, &back);
        FUZZ_ASSERT(back.n <= mask.n && memcmp(back.bytes, mask.bytes, back.n) == 0);
        for (size_t i = back.n; i < mask.n; i++)
                FUZZ_ASSERT(mask.bytes[i] == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *text;

        if (size == 0)
                return 0;
        text = fuzz_strndup(data + 1, size - 1);
        switch (data[0] % 4) {
        case 0:
                check_cpulist(text, false);
                break;
        case 1:
                check_cpulist(text, true);
                break;
        case 2:
                check_decimal(text);
                break;
        default:
                check_systemd_mask(text);
                break;
        }
        free(text);
        return 0;
}
