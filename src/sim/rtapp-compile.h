/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Compiling an rt-app file into the struct rtapp of rtapp-model.h, and the
 * limits the compiler holds a file to. */

#include <stddef.h>

#include "core/diag.h"
#include "core/types.h"

/* Cut-off of a file without "duration" whose loops are all finite. */
#define RTAPP_MAX_UNTIMED_US (3600ULL * BL_USEC_PER_SEC)
#define RTAPP_MAX_LANES 1024U
#define RTAPP_MAX_EVENTS 65536U

struct rtapp;

/* Compiles the rt-app text 'text' of 'filename' into '*ret' (its reference
 * capacity left 0, its run state zero): a run without "duration" is cut at
 * 'default_duration_us' when some task loops forever. Problems go to 'diag'
 * as "FILE:LINE:COL: ..." (syntax) or "FILE:LINE: ..." (model) and return
 * -EINVAL; -ENOMEM when memory runs out. Free the result with rtapp_free(). */
int rtapp_compile(struct rtapp **ret, const char *filename, const char *text, size_t len,
                  bl_usec_t default_duration_us, struct bl_diag *diag);

void rtapp_free(struct rtapp *ra);
