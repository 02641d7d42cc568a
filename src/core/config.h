/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The configuration model: defaults, the text parser and validation. Reading
 * files from disk happens at the edge (loaders/conf-files.c); here a file is
 * just a name and its text, so every error path is testable in memory. */

#include "core/diag.h"
#include "core/heuristic.h"
#include "core/holds.h"
#include "core/ini-reader.h"
#include "core/profile.h"

#define BL_MAX_HEURISTICS 8
#define BL_MAX_ZONES 16
/* The longest line accepted (see core/ini-reader.h). */
#define BL_CONFIG_LINE_MAX INI_READ_LINE_MAX
#define BL_CONFIG_FILE_MAX 256
#define BL_CONFIG_VALUE_MAX 48
#define BL_PATH_MAX 256
/* [cpuset] groups: how many, and the longest path (relative to the cgroup root). */
#define BL_CPUSET_MAX_GROUPS 16
#define BL_CPUSET_GROUP_MAX 128
/* The thermal limits when neither the configuration nor a trip point sets them. */
#define BL_CAP_TEMP_DEFAULT_MC 85000
#define BL_RELEASE_TEMP_DEFAULT_MC 80000
#define BL_CRITICAL_TEMP_DEFAULT_MC 95000

enum bl_backend_kind {
        BL_BACKEND_AUTO,
        BL_BACKEND_SWITCHER,
        BL_BACKEND_HOTPLUG,
        BL_BACKEND_CPUSET,
        BL_BACKEND_CPUFREQ,
        BL_BACKEND_DRYRUN,
};

/* Who changes the CPUs of the cgroups the cpuset backend confines. */
enum bl_cpuset_manager {
        BL_CPUSET_MANAGER_AUTO,         /* systemd when it answers on the bus, else cgroupfs */
        BL_CPUSET_MANAGER_SYSTEMD,      /* AllowedCPUs= of the units, through systemd's D-Bus API */
        BL_CPUSET_MANAGER_CGROUPFS,     /* cpuset.cpus of the cgroups, written directly */
};

enum bl_combine {
        BL_COMBINE_MAX,
        BL_COMBINE_WEIGHTED,
};

struct bl_heuristic_conf {
        char name[BL_NAME_MAX];
        const struct bl_heuristic_ops *ops;
        double weight;
        double params[BL_POLICY_MAX_PARAMS];
};

/* Settings of one available heuristic ([policy.NAME]), kept for every known
 * heuristic whether or not it is selected: a section applies wherever it
 * appears relative to the heuristics= line, and in any file. */
#define BL_MAX_KNOWN_HEURISTICS 32
struct bl_heuristic_settings {
        const struct bl_heuristic_ops *ops;
        double weight;
        double params[BL_POLICY_MAX_PARAMS];
        /* Where its section last set a key (line 0: never), for the
         * heuristic's own rules across its keys. */
        unsigned line;
        char file[BL_CONFIG_FILE_MAX];
};

/* The scalar keys, for remembering where each value was set. */
enum bl_config_key {
        BL_KEY_MODE,
        BL_KEY_BACKEND,
        BL_KEY_SAMPLE_INTERVAL_MS,
        BL_KEY_IDLE_SAMPLE_INTERVAL_MS,
        BL_KEY_LOG_LEVEL,
        BL_KEY_AUTO_MODE,
        BL_KEY_HEURISTICS,
        BL_KEY_COMBINE,
        BL_KEY_PLUGIN_DIR,
        BL_KEY_ENERGY_MODEL,
        BL_KEY_UP_THRESHOLD,
        BL_KEY_DOWN_THRESHOLD,
        BL_KEY_UP_DELAY_MS,
        BL_KEY_DOWN_DELAY_MS,
        BL_KEY_MIN_RESIDENCY_MS,
        BL_KEY_MAX_SWITCH_RATE_HZ,
        BL_KEY_BREAK_EVEN,
        BL_KEY_MP_CLIMB_LOADED,
        BL_KEY_ZONES,
        BL_KEY_CAP_TEMP_C,
        BL_KEY_RELEASE_TEMP_C,
        BL_KEY_CRITICAL_TEMP_C,
        BL_KEY_ALLOW_USERS,
        BL_KEY_MAX_DURATION_S,
        BL_KEY_HOLD_PRECEDENCE,
        BL_KEY_CPUSET_GROUPS,
        BL_KEY_CPUSET_MANAGER,
        BL_CONFIG_NKEYS,
};


/* Where a key's value came from. The file name is copied because the
 * caller frees its buffers after parsing; both strings are truncated to fit. */
struct bl_config_origin {
        unsigned line;                          /* 0: the built-in default */
        unsigned long seq;                      /* assignment order across all files */
        char file[BL_CONFIG_FILE_MAX];
        char value[BL_CONFIG_VALUE_MAX];        /* as written */
};

struct bl_config {
        /* [daemon] */
        enum bl_mode mode;
        enum bl_backend_kind backend;
        unsigned sample_interval_ms;
        unsigned idle_sample_interval_ms;       /* the longest when idle; 0 = off */
        int log_level;                  /* syslog priority: LOG_ERR .. LOG_DEBUG */
        enum bl_mode auto_mode;         /* what mode = auto picks without the in-kernel switcher */

        /* [policy] */
        unsigned nheuristics;
        struct bl_heuristic_conf heuristics[BL_MAX_HEURISTICS];
        enum bl_combine combine;
        char plugin_dir[BL_PATH_MAX];   /* external heuristics; "" = the built-in default */
        /* What a level costs at a load: "auto" (the kernel's energy model in
         * debugfs where readable), "none", or the absolute path of a board
         * file. */
        char energy_model[BL_PATH_MAX];

        /* [hysteresis] */
        unsigned up_threshold;          /* percent */
        unsigned down_threshold;        /* percent */
        unsigned up_delay_ms;
        unsigned down_delay_ms;
        unsigned min_residency_ms;
        unsigned max_switch_rate_hz;    /* 0 = unlimited */
        bool break_even;                /* moves down wait until the stay pays for the switches */
        bool mp_climb_loaded;           /* mp: a move up adds fast CPUs for loaded CPUs only */

        /* [thermal] */
        bool zones_auto;
        unsigned nzones;
        char zones[BL_MAX_ZONES][BL_NAME_MAX];  /* thermal zone types */
        /* With *_auto the value comes from the zones' trip points
         * (core/thermal-limits.h): the built-in default until the daemon
         * has resolved it. */
        int cap_temp_mc;
        int release_temp_mc;
        int critical_temp_mc;
        bool cap_temp_auto;
        bool release_temp_auto;
        bool critical_temp_auto;

        /* [holds] */
        bool holds_allow_users;         /* users may place and release their own holds */
        unsigned holds_max_duration_s;
        enum bl_hold_precedence hold_precedence;

        /* [profile.NAME]: what the desktop's power profile and the battery change */
        struct bl_profile_conf profiles[BL_PROFILE_NSECTIONS];

        /* [cpuset] */
        unsigned ncpuset_groups;
        char cpuset_groups[BL_CPUSET_MAX_GROUPS][BL_CPUSET_GROUP_MAX];  /* relative to the cgroup root */
        enum bl_cpuset_manager cpuset_manager;

        /* Parser bookkeeping: per-heuristic settings and where keys were set. */
        unsigned nknown;
        struct bl_heuristic_settings known[BL_MAX_KNOWN_HEURISTICS];
        unsigned long nassigned;
        struct bl_config_origin origin[BL_CONFIG_NKEYS];
};

/* The shipped defaults. 'table' lists the heuristics that exist (built in
 * or loaded); the default policy must be among them (if it is not, no
 * heuristic is selected and config_validate() says so). Only the first
 * BL_MAX_KNOWN_HEURISTICS entries of a table can be configured. */
void config_init(struct bl_config *c, const struct bl_heuristic_ops *const *table);

/* Parses one file's text on top of what 'c' already holds (so drop-ins
 * override the main file key by key). Every problem is added to 'diag' as
 * "file:line: key: what was expected, got \"value\"", and a bad value leaves
 * the key as it was. heuristics[] is resolved against the [policy.NAME]
 * settings at the end of every call. Returns the number of problems found
 * in this text (0 = clean). */
unsigned config_parse(struct bl_config *c, const struct bl_heuristic_ops *const *table,
                      const char *filename, const char *text, size_t len, struct bl_diag *diag);

/* The plugin_dir of [policy] in one file's text, if it sets one: plugins
 * must be loaded before a file that names their heuristics is parsed. Says
 * nothing about problems (config_parse() reports them). Returns true when
 * the text sets it (the last assignment wins). */
bool config_scan_plugin_dir(const char *filename, const char *text, size_t len, char *buf, size_t size);

/* Checks rules across keys (down < up, release < cap < critical, ...) after
 * every file has been parsed. Thermal keys set to auto are left out (their
 * order is kept when they are resolved); with cap auto, release must still
 * be below critical. Returns the number of problems added. */
unsigned config_validate(const struct bl_config *c, struct bl_diag *diag);

const char *backend_kind_to_string(enum bl_backend_kind b);
const char *log_level_to_string(int level);
const char *cpuset_manager_to_string(enum bl_cpuset_manager m);
/* A cgroup path as [cpuset] groups takes it: relative to the cgroup root,
 * no "." or ".." and no empty components, no white space. */
bool config_cgroup_path_valid(const char *path);
