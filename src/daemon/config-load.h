/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The configuration and plugins the command line names (config-load.c),
 * for the daemon and for bigLittled record, and the logging of problems
 * gathered in a bl_diag. */

#include "core/config.h"
#include "core/diag.h"
#include "core/thermal-limits.h"
#include "daemon/options.h"
#include "loaders/conf-files.h"
#include "loaders/plugin-loader.h"
#include "sources/thermal.h"

/* Logs each problem at 'level' (warnings at least at LOG_WARNING). */
void daemon_log_diag(const struct bl_diag *diag, int level);

/* Resolves cfg's thermal limits from the trip points of the zones in
 * 'thermal' (core/thermal-limits.h), puts them in 'cfg' and 'limits'; moves
 * made to keep their order are logged as warnings. */
void daemon_resolve_limits(struct bl_config *cfg, const struct thermal_reader *thermal,
                           struct bl_thermal_limits *limits);

/* "thermal: cap 75.0 °C (...), release ..., critical ..." at 'level'. */
void daemon_log_limits(const struct bl_thermal_limits *limits, int level);

/* Loads the external heuristics from the plugin_dir the configuration
 * names (before it is parsed: it may configure them). Refusals are logged;
 * they do not stop the daemon. 'dir' receives the directory used. */
int daemon_load_plugins(const struct options *o, struct bl_plugin_set *set, char *dir, size_t size);

/* Loads the configuration the command line names. Returns 0 when valid,
 * the number of problems, or a negative errno; problems are logged at
 * 'level'. */
int daemon_load_config(const struct options *o, const struct bl_plugin_set *plugins, struct bl_config *cfg,
                       struct bl_conf_files *files, int level);

/* Validates the configuration (--check-config); returns the exit status. */
int daemon_check_config(const struct options *o);

/* The configuration the command line names, after the plugins it may name
 * (unload them after the last use of 'cfg'). Problems are logged. Returns
 * 0 when valid, the number of problems, or a negative errno. */
int daemon_read_config(const struct options *o, struct bl_plugin_set *plugins, struct bl_config *cfg);
