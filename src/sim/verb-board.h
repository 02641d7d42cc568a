/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* blsim board import: writes a board model from a device tree or a sysfs
 * tree (sim/board-import.h). argv[0] is "board". Returns the exit status
 * (the sysexits.h codes of blsim(1)), after saying on stderr what was wrong. */
int sim_verb_board(int argc, char **argv);
