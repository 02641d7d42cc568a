/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The /proc/stat parser (sources/procstat.c): any text parses or is refused
 * without reading past its end; what it accepts lists each CPU once with
 * ncpus one past the highest, reads back the same from the canonical
 * four-column form, and gives busy fractions within 0..1 against any other
 * accepted snapshot (here: the first half of the input). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/procstat.h"
#include "tests/fuzz/fuzz.h"

static char *write_procstat(const struct procstat *ps, size_t *len)
{
        char *text = NULL;
        FILE *f = fuzz_text_open(&text, len);

        fputs("cpu  1 2 3 4 5 6 7 8 0 0\n", f);
        for (unsigned cpu = 0; cpu < ps->ncpus; cpu++)
                if (cpumask_isset(&ps->cpus, cpu))
                        fprintf(f, "cpu%u %llu 0 0 %llu\n", cpu, (unsigned long long)ps->cpu[cpu].busy,
                                (unsigned long long)ps->cpu[cpu].idle);
        fputs("intr 0\n", f);
        fuzz_text_close(f);
        return text;
}

static void check_busy(const struct procstat *prev, const struct procstat *cur)
{
        float busy[BL_MAX_CPUS];
        bl_cpumask online, both = cur->cpus;

        procstat_busy(prev, cur, busy, &online);
        cpumask_and(&both, &prev->cpus);
        FUZZ_ASSERT(cpumask_equal(&online, &both));
        for (unsigned cpu = 0; cpu < BL_MAX_CPUS; cpu++) {
                FUZZ_ASSERT(busy[cpu] >= 0.0f && busy[cpu] <= 1.0f);
                if (!cpumask_isset(&online, cpu))
                        FUZZ_ASSERT(busy[cpu] == 0.0f);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static struct procstat ps, back, half;
        char *text;
        size_t len = 0;
        int r;

        r = procstat_parse(&ps, (const char *)data, size);
        FUZZ_ASSERT(r == 0 || r == -EINVAL || r == -ERANGE);
        if (r < 0)
                return 0;
        FUZZ_ASSERT(!cpumask_empty(&ps.cpus) && ps.ncpus >= 1 && ps.ncpus <= BL_MAX_CPUS);
        FUZZ_ASSERT(cpumask_isset(&ps.cpus, ps.ncpus - 1) && cpumask_span(&ps.cpus) == ps.ncpus);

        text = write_procstat(&ps, &len);
        FUZZ_ASSERT(procstat_parse(&back, text, len) == 0);
        free(text);
        FUZZ_ASSERT(cpumask_equal(&back.cpus, &ps.cpus) && back.ncpus == ps.ncpus);
        for (unsigned cpu = 0; cpu < ps.ncpus; cpu++)
                if (cpumask_isset(&ps.cpus, cpu))
                        FUZZ_ASSERT(back.cpu[cpu].busy == ps.cpu[cpu].busy &&
                                    back.cpu[cpu].idle == ps.cpu[cpu].idle);

        check_busy(&ps, &ps);
        if (procstat_parse(&half, (const char *)data, size / 2) == 0) {
                check_busy(&half, &ps);
                check_busy(&ps, &half);
        }
        return 0;
}
