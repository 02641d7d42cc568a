/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* blsim list: the presets, the installed boards and workloads. argv[0] is
 * the verb. Returns the exit status (the sysexits.h codes of blsim(1)),
 * after saying on stderr what was wrong. */
int sim_verb_list(int argc, char **argv);
