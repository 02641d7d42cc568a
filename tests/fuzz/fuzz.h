/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What every fuzz target shares. A target defines LLVMFuzzerTestOneInput();
 * libFuzzer calls it (tests/fuzz/run.sh), or, built with FUZZ_STANDALONE,
 * the main() of fuzz-common.c does for every file of a corpus (make check). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/diag.h"

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

/* A text written in memory (open_memstream()); fuzz_text_close() leaves it
 * in '*text' (freed by the caller) and its length in '*len'. Both abort on
 * ENOMEM. */
FILE *fuzz_text_open(char **text, size_t *len);
void fuzz_text_close(FILE *f);

/* Checks that every message of 'diag' names the place: "FILE:LINE: " with
 * LINE >= 1 when 'line' is set, else "FILE:" (the file as a whole allowed). */
void fuzz_check_places(const struct bl_diag *diag, const char *file, bool line);
