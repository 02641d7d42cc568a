/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* blsim live: a command, the daemon, switches a fake board that plays the
 * workload in real time (sim/live.h). argv[0] is the verb. Returns the exit
 * status (the sysexits.h codes of blsim(1)), after saying on stderr what was
 * wrong. */
int sim_verb_live(int argc, char **argv);
