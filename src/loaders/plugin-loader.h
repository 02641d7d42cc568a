/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* External heuristics: shared objects in one directory, each exporting a
 * struct bl_policy_plugin (policy/bl-policy.h). Code that runs as root is
 * taken only from places only root can change: the directory and every file
 * must be owned by the trusted user and not writable by group or others, and
 * what is checked is exactly what is loaded (one descriptor for the
 * directory, one per file, dlopen() through /proc/self/fd). Those rules are
 * the protection: a plugin's constructors run as soon as it is loaded,
 * before its descriptor is checked. The default directory is BL_PLUGIN_DIR,
 * $(pkglibdir)/policy, defined by the build. */

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/diag.h"
#include "policy/bl-policy.h"

struct bl_plugin {
        char file[NAME_MAX + 1];                /* its name in the directory */
        void *handle;
        /* Open for as long as the object is loaded: the loader knows it by
         * the name "/proc/self/fd/N", and another file opened under the same
         * number would be taken for it. */
        int fd;
        const struct bl_policy_plugin *plugin;
};

/* A zeroed set is empty: its table holds the built-in heuristics only. */
struct bl_plugin_set {
        unsigned n;
        struct bl_plugin *plugins;
        const struct bl_heuristic_ops **table;  /* NULL until something is loaded */
};

/* Loads every "NAME.so" in 'dir' (hidden files and other names are ignored),
 * in byte order of the names, and adds their heuristics to the set. A
 * missing directory holds no plugins and is not a problem. Every refusal --
 * of the directory (then nothing is loaded from it) or of one file (the
 * others still load) -- is added to 'diag' with the path and the reason:
 *     "plugin directory /x: owned by uid 1000, not root; no plugins loaded"
 *     "plugin /x/a.so: ABI 7, this daemon speaks 1; not loaded"
 * 'trusted_uid' owns the directory and the files: 0 for the daemon. Can be
 * called again to load more; a name already known is refused. Returns the
 * number of files loaded by this call, or -ENOMEM (the set then still holds
 * what was loaded before, and plugins_unload() frees it). */
int plugins_load(struct bl_plugin_set *set, const char *dir, uid_t trusted_uid, struct bl_diag *diag);

/* The NULL-terminated table for config_init()/config_parse(): the built-in
 * heuristics (policy_builtin), then the loaded plugins' heuristics in load
 * order. Valid until the next plugins_load() or plugins_unload(); the
 * descriptors themselves live until plugins_unload(). */
const struct bl_heuristic_ops *const *plugins_table(const struct bl_plugin_set *set);

/* dlclose()s every plugin and empties the set. Nothing taken from the
 * plugins (descriptors, names, state of their instances) may be used after. */
void plugins_unload(struct bl_plugin_set *set);

/* Checks a plugin's descriptor against the ABI and the names already taken
 * in 'set' (built-ins included), the way plugins_load() does after dlopen().
 * Returns 0, or -EINVAL with the reason in 'err'. */
int plugin_check(const struct bl_plugin_set *set, const struct bl_policy_plugin *plugin, char *err,
                 size_t size);
