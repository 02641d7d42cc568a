/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What every fuzz target shares. A target defines LLVMFuzzerTestOneInput();
 * libFuzzer calls it (tests/fuzz/run.sh), or, built with FUZZ_STANDALONE,
 * the main() of fuzz-common.c does for every file of a corpus (make check). */

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stops the run with the property that failed: abort() is what libFuzzer
 * records as a crash (with the input) and what the corpus replay fails on. */
#define FUZZ_ASSERT(cond)                                                      \
        do {                                                                   \
                if (!(cond))                                                   \
                        fuzz_fail(__FILE__, __LINE__, #cond);                  \
        } while (0)

void fuzz_fail(const char *file, int line, const char *what) __attribute__((noreturn));

/* The input as a NUL-terminated string (the parsers of sysfs values and of
 * the daemon's own files take one); the caller frees it. Aborts on ENOMEM. */
char *fuzz_strndup(const uint8_t *data, size_t size);

/* Whether a diag message names the place as "FILE:LINE: " with LINE >= 1. */
int fuzz_names_line(const char *msg, const char *file);
