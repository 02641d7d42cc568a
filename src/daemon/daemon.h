/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "daemon/options.h"

/* Runs the daemon until SIGTERM/SIGINT; returns the process exit status. */
int daemon_run(const struct options *o);
