/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace reader (sim/trace.c): any text gives a trace or problems that
 * name their line, every accepted work value is a finite non-negative number
 * within SIM_TRACE_WORK_MAX, and an accepted trace written back out (as a
 * generator would, nine significant digits) reads back to the same floats. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/trace.h"
#include "tests/fuzz/fuzz.h"

#define FILENAME "fuzz.csv"

static char *write_trace(const struct sim_trace *t, size_t *len)
{
        char *text = NULL;
        FILE *f = fuzz_text_open(&text, len);

        fprintf(f, "# bigLittle-trace v1 step_us=%llu\nt_us", (unsigned long long)t->step_us);
        for (unsigned l = 0; l < t->nlanes; l++)
                fprintf(f, ",lane%u", l);
        for (size_t s = 0; s < t->nsteps; s++) {
                fprintf(f, "\n%llu", (unsigned long long)(s * t->step_us));
                for (unsigned l = 0; l < t->nlanes; l++)
                        fprintf(f, ",%.9g", (double)t->work[s * t->nlanes + l]);
        }
        fputc('\n', f);
        fuzz_text_close(f);
        return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static struct bl_diag diag;
        struct sim_trace t = { 0 }, back = { 0 };
        char *text;
        size_t len = 0;
        int r;

        diag_init(&diag);
        r = trace_parse(&t, FILENAME, (const char *)data, size, &diag);
        FUZZ_ASSERT(r >= 0 && (unsigned)r == diag_count(&diag));
        fuzz_check_places(&diag, FILENAME, false);
        if (r > 0) {
                FUZZ_ASSERT(t.work == NULL);
                return 0;
        }
        FUZZ_ASSERT(t.step_us >= 1 && t.nlanes >= 1 && t.nlanes <= SIM_TRACE_MAX_LANES);
        for (size_t i = 0; i < t.nsteps * t.nlanes; i++)
                FUZZ_ASSERT(isfinite(t.work[i]) && t.work[i] >= 0 && t.work[i] <= SIM_TRACE_WORK_MAX);

        text = write_trace(&t, &len);
        r = trace_parse(&back, FILENAME, text, len, &diag);
        if (r != 0)
                fprintf(stderr, "%s\n", diag.msg[0]);
        FUZZ_ASSERT(r == 0);
        FUZZ_ASSERT(back.step_us == t.step_us && back.nlanes == t.nlanes && back.nsteps == t.nsteps);
        FUZZ_ASSERT(t.nsteps == 0 || memcmp(back.work, t.work, t.nsteps * t.nlanes * sizeof(float)) == 0);
        free(text);
        trace_free(&back);
        trace_free(&t);
        return 0;
}
