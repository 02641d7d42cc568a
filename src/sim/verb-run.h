/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* blsim run: one policy against the references; blsim compare: every preset,
 * ranked, with the plot of the rows asked for. argv[0] is the verb. Returns
 * the exit status (the sysexits.h codes of blsim(1)), after saying on stderr
 * what was wrong. */
int sim_verb_run(int argc, char **argv);
int sim_verb_compare(int argc, char **argv);
