/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "common/plugin-loader.h"
#include "core/config.h"
#include "daemon/options.h"

/* Runs the daemon until SIGTERM/SIGINT; returns the process exit status. */
int daemon_run(const struct options *o);

/* Validates the configuration (--check-config); returns the exit status. */
int daemon_check_config(const struct options *o);

/* The configuration the command line names, after the plugins it may name
 * (unload them after the last use of 'cfg'). Problems are logged. Returns
 * 0 when valid, the number of problems, or a negative errno. */
int daemon_read_config(const struct options *o, struct bl_plugin_set *plugins, struct bl_config *cfg);
