/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Reading a board file (core/board.h) from disk, for blsim and the daemon. */

#include "core/board.h"

/* Reads and parses the file at 'path'. Returns the number of problems
 * (>= 0, each in 'diag' naming the file and line) or -errno (described in
 * 'diag'). */
int board_load(struct sim_board *b, const char *path, struct bl_diag *diag);
