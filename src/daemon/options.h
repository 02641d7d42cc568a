/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "common/exit-status.h"
#include "core/config.h"

/* Exit statuses (common/exit-status.h); documented in bigLittled(8).
 * systemd treats EXIT_NOT_HETEROGENEOUS as success (SuccessExitStatus= in
 * the unit). */
#define EXIT_NOT_HETEROGENEOUS EXIT_UNAVAILABLE /* 69: one kind of core */

struct options {
        const char *config;             /* NULL: the default file, optional */
        const char *backend;            /* NULL: as configured */
        enum bl_backend_kind backend_kind;      /* the one --backend names */
        bool foreground;
        bool check_config;
        const char *record;             /* --record FILE: write a trace, switch nothing */
        uint64_t record_duration_usec;  /* 0: until a signal */
        uint64_t record_interval_usec;  /* 0: sample_interval_ms of the configuration */
};

/* Returns 0 to run, a positive exit status to exit with at once (after
 * --help or --version: 0 is returned through *exit_status). */
int options_parse(struct options *o, int argc, char **argv, int *exit_status);
