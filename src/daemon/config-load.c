/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The configuration and the plugins as the command line names them, for
 * the daemon and for bigLittled record; and how their problems are logged. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/fileio.h"
#include "common/log.h"
#include "daemon/config-load.h"
#include "daemon/model-in-use.h"

void daemon_log_diag(const struct bl_diag *diag, int level)
{
        for (unsigned i = 0; i < diag->n; i++)
                log_msg(diag->warning[i] && level < LOG_WARNING ? LOG_WARNING : level, "%s", diag->msg[i]);
        if (diag->dropped)
                log_msg(level, "... and %u more problems", diag->dropped);
}

void daemon_resolve_limits(struct bl_config *cfg, const struct thermal_reader *thermal,
                           struct bl_thermal_limits *limits)
{
        _cleanup_free_ struct bl_diag *diag = malloc(sizeof(*diag));
        struct bl_trip_zone zones[BL_THERMAL_MAX];
        unsigned n = thermal_trip_zones(thermal, zones);

        /* without memory for the messages the limits are still right */
        if (diag)
                diag_init(diag);
        thermal_limits_resolve(cfg, zones, n, limits, diag);
        if (diag)
                daemon_log_diag(diag, LOG_WARNING);
        thermal_limits_apply(cfg, limits);
}

void daemon_log_limits(const struct bl_thermal_limits *limits, int level)
{
        char text[3 * BL_LIMIT_ORIGIN_MAX + 160];

        thermal_limits_format(limits, text, sizeof(text));
        log_msg(level, "thermal: %s", text);
}

static const char *daemon_config_path(const struct options *o)
{
        return o->config ? o->config : BL_DEFAULT_CONFIG;
}

/* Loads the external heuristics from the plugin_dir the configuration
 * names (before it is parsed: it may configure them). Refusals are logged;
 * they do not stop the daemon. 'dir' receives the directory used. */
int daemon_load_plugins(const struct options *o, struct bl_plugin_set *set, char *dir, size_t size)
{
        _cleanup_free_ struct bl_diag *diag = malloc(sizeof(*diag));
        int r;

        if (!diag)
                return -ENOMEM;
        diag_init(diag);
        /* A file that cannot be read is reported by the parse that follows. */
        r = conf_files_plugin_dir(daemon_config_path(o), !o->config, dir, size, diag);
        diag_init(diag);
        if (r < 0 || !dir[0])
                snprintf(dir, size, "%s", BL_PLUGIN_DIR);
        r = plugins_load(set, dir, 0, diag);
        daemon_log_diag(diag, LOG_WARNING);
        if (r < 0)
                return r;
        for (unsigned i = 0; i < set->n; i++)
                for (unsigned k = 0; k < set->plugins[i].plugin->nheuristics; k++)
                        log_info("plugin %s/%s: heuristic %s", dir, set->plugins[i].file,
                                 set->plugins[i].plugin->heuristics[k]->name);
        return 0;
}

/* Loads the configuration the command line names. Returns 0 when valid,
 * the number of problems, or a negative errno; problems are logged at
 * 'level'. */
int daemon_load_config(const struct options *o, const struct bl_plugin_set *plugins, struct bl_config *cfg,
                       struct bl_conf_files *files, int level)
{
        const struct bl_heuristic_ops *const *table = plugins_table(plugins);
        struct bl_diag *diag;
        int r;

        diag = malloc(sizeof(*diag));
        if (!diag)
                return -ENOMEM;
        diag_init(diag);
        config_init(cfg, table);
        r = conf_files_load(cfg, table, daemon_config_path(o), !o->config, files, diag);
        daemon_log_diag(diag, level);
        free(diag);
        return r;
}

int daemon_read_config(const struct options *o, struct bl_plugin_set *plugins, struct bl_config *cfg)
{
        struct bl_conf_files files;
        char dir[BL_PATH_MAX];
        int r;

        r = daemon_load_plugins(o, plugins, dir, sizeof(dir));
        if (r < 0)
                return r;
        return daemon_load_config(o, plugins, cfg, &files, LOG_ERR);
}

int daemon_check_config(const struct options *o)
{
        struct bl_plugin_set plugins = { 0 };
        struct bl_config cfg;
        struct bl_conf_files files;
        char dir[BL_PATH_MAX];
        int r;

        log_setup(LOG_TARGET_STDERR, LOG_INFO);
        r = daemon_load_plugins(o, &plugins, dir, sizeof(dir));
        if (r >= 0)
                r = daemon_load_config(o, &plugins, &cfg, &files, LOG_ERR);
        plugins_unload(&plugins);
        if (r < 0)
                return EXIT_CONFIG;
        if (r > 0) {
                fprintf(stderr, "%d problem%s found\n", r, r == 1 ? "" : "s");
                return EXIT_CONFIG;
        }
        r = model_in_use_check_file(cfg.energy_model);
        if (r != 0)
                return EXIT_CONFIG;
        if (files.n == 0)
                printf("%s: not present, the built-in defaults apply\n", BL_DEFAULT_CONFIG);
        for (unsigned i = 0; i < files.n; i++)
                printf("%s: OK\n", files.path[i]);
        return 0;
}
