/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* blsim tune: searches the heuristics' parameters on the workloads and
 * writes the drop-in configuration (sim/tune.h). argv[0] is the verb.
 * Returns the exit status (the sysexits.h codes of blsim(1)), after saying
 * on stderr what was wrong. */
int sim_verb_tune(int argc, char **argv);
