/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* blsim generate: writes the workload families' traces (sim/generate.h) to
 * files or stdout. argv[0] is "generate". Returns the exit status (the
 * sysexits.h codes of blsim(1)), after saying on stderr what was wrong. */
int sim_verb_generate(int argc, char **argv);
