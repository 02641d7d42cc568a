/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Loads a config file and its drop-ins (FILE.d/ *.conf, in name order; later
 * files win) into the config model. */

#include "core/config.h"

#define BL_DEFAULT_CONFIG SYSCONFDIR "/bigLittle.conf"
#define BL_MAX_CONFIG_FILES 64

struct bl_conf_files {
        unsigned n;
        char path[BL_MAX_CONFIG_FILES][512];    /* what was read, in order */
};

/* Parses 'path', then its drop-ins, on top of 'c' (normally fresh from
 * config_init()), and validates the result. 'files' lists what was read.
 * Returns the number of problems (0 = valid config), or a negative errno
 * when a file could not be read at all (also described in 'diag'). A missing
 * main file is fine when 'optional' is true (defaults apply). */
int conf_files_load(struct bl_config *c, const struct bl_heuristic_ops *const *table, const char *path,
                    bool optional, struct bl_conf_files *files, struct bl_diag *diag);

/* The plugin_dir the files set (the last assignment wins), or "" in 'buf'
 * when none does: what to load before the files can be parsed, since they
 * may configure the plugins' heuristics. Returns 0 or a negative errno as
 * conf_files_load() does; problems in the text are left to it. */
int conf_files_plugin_dir(const char *path, bool optional, char *buf, size_t size, struct bl_diag *diag);
