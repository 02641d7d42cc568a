/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* bigLittled --record: the machine's own load, written as a trace v1 file
 * (one lane per CPU) that blsim replays, so a device's real workloads can
 * tune and score policies. Nothing is switched while recording. */

#include <stdbool.h>
#include <stdint.h>

#include "core/sample.h"
#include "daemon/options.h"

/* A CPU busy for at least this share of a step was saturated: the work it
 * was offered may have been more than the work recorded. */
#define RECORD_SATURATED 0.98


/* Records until o->record_duration_usec passed (0: until SIGINT or SIGTERM),
 * then writes o->record as a whole (nothing is left half-written). Returns
 * an exit status. */
int record_run(const struct options *o);
