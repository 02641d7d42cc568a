/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The configuration reader (core/config.c over core/ini-reader.c): any text
 * gives a configuration whose every value is in its documented range (a bad
 * value leaves the key as it was), every problem names its line, the same
 * text parses the same way twice, and a configuration that validates keeps
 * the rules across keys. */
#include <stdbool.h>
#include <string.h>
#include <syslog.h>

#include "core/config.h"
#include "policy/builtin.h"
#include "tests/fuzz/fuzz.h"

#define FILENAME "fuzz.conf"

static bool terminated(const char *s, size_t size)
{
        return memchr(s, '\0', size) != NULL;
}

static void check_ranges(const struct bl_config *c)
{
        FUZZ_ASSERT(c->sample_interval_ms >= 5 && c->sample_interval_ms <= 1000);
        FUZZ_ASSERT(c->log_level >= LOG_ERR && c->log_level <= LOG_DEBUG);
        FUZZ_ASSERT(c->nheuristics <= BL_MAX_HEURISTICS);
        for (unsigned i = 0; i < c->nheuristics; i++) {
                FUZZ_ASSERT(terminated(c->heuristics[i].name, sizeof(c->heuristics[i].name)));
                FUZZ_ASSERT(c->heuristics[i].ops != NULL);
                FUZZ_ASSERT(strcmp(c->heuristics[i].ops->name, c->heuristics[i].name) == 0);
        }
        FUZZ_ASSERT(terminated(c->plugin_dir, sizeof(c->plugin_dir)));
        FUZZ_ASSERT(c->up_threshold >= 1 && c->up_threshold <= 100);
        FUZZ_ASSERT(c->down_threshold <= 99);
        FUZZ_ASSERT(c->up_delay_ms <= 10000 && c->down_delay_ms <= 60000);
        FUZZ_ASSERT(c->min_residency_ms <= 60000 && c->max_switch_rate_hz <= 1000);
        FUZZ_ASSERT(c->nzones <= BL_MAX_ZONES);
        FUZZ_ASSERT(!c->zones_auto || c->nzones == 0);
        for (unsigned i = 0; i < c->nzones; i++)
                FUZZ_ASSERT(terminated(c->zones[i], sizeof(c->zones[i])) && c->zones[i][0]);
        FUZZ_ASSERT(c->cap_temp_mc >= 20000 && c->cap_temp_mc <= 150000);
        FUZZ_ASSERT(c->release_temp_mc >= 20000 && c->release_temp_mc <= 150000);
        FUZZ_ASSERT(c->critical_temp_mc >= 20000 && c->critical_temp_mc <= 150000);
        FUZZ_ASSERT(c->holds_max_duration_s >= 1 && c->holds_max_duration_s <= 604800);
        FUZZ_ASSERT(c->hold_precedence >= BL_HOLD_NEWEST && c->hold_precedence <= BL_HOLD_HIGHEST);
        for (unsigned i = 0; i < BL_PROFILE_NSECTIONS; i++) {
                const struct bl_profile_conf *p = &c->profiles[i];

                FUZZ_ASSERT(p->action >= BL_PROFILE_NOTHING && p->action <= BL_PROFILE_HOLD_TOP);
                FUZZ_ASSERT(p->bias_pct >= -BL_PROFILE_BIAS_MAX && p->bias_pct <= BL_PROFILE_BIAS_MAX);
                FUZZ_ASSERT(p->action != BL_PROFILE_BIAS || p->bias_pct != 0);
                FUZZ_ASSERT(terminated(p->cap, sizeof(p->cap)) && terminated(p->file, sizeof(p->file)));
                FUZZ_ASSERT(p->action != BL_PROFILE_CAP || p->cap[0]);
        }
        FUZZ_ASSERT(c->ncpuset_groups <= BL_CPUSET_MAX_GROUPS);
        for (unsigned i = 0; i < c->ncpuset_groups; i++) {
                FUZZ_ASSERT(terminated(c->cpuset_groups[i], sizeof(c->cpuset_groups[i])));
                FUZZ_ASSERT(config_cgroup_path_valid(c->cpuset_groups[i]));
        }
        FUZZ_ASSERT(c->nknown <= BL_MAX_KNOWN_HEURISTICS);
        for (unsigned k = 0; k < BL_CONFIG_NKEYS; k++) {
                FUZZ_ASSERT(terminated(c->origin[k].file, sizeof(c->origin[k].file)));
                FUZZ_ASSERT(terminated(c->origin[k].value, sizeof(c->origin[k].value)));
        }
}

/* Rules config_validate() promises once it finds nothing. */
static void check_valid(const struct bl_config *c)
{
        FUZZ_ASSERT(c->nheuristics >= 1);
        FUZZ_ASSERT(c->down_threshold < c->up_threshold);
        if (!c->release_temp_auto && !c->cap_temp_auto)
                FUZZ_ASSERT(c->release_temp_mc < c->cap_temp_mc);
        if (!c->cap_temp_auto && !c->critical_temp_auto)
                FUZZ_ASSERT(c->cap_temp_mc < c->critical_temp_mc);
        if (!c->release_temp_auto && !c->critical_temp_auto)
                FUZZ_ASSERT(c->release_temp_mc < c->critical_temp_mc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static struct bl_config first, second;
        static struct bl_diag diag, again;
        char plugin_dir[BL_PATH_MAX];
        const char *text = (const char *)data;
        unsigned problems;

        diag_init(&diag);
        config_init(&first, policy_builtin);
        problems = config_parse(&first, policy_builtin, FILENAME, text, size, &diag);
        FUZZ_ASSERT(problems == diag_problems(&diag));
        fuzz_check_places(&diag, FILENAME, true);
        check_ranges(&first);

        diag_init(&again);
        config_init(&second, policy_builtin);
        FUZZ_ASSERT(config_parse(&second, policy_builtin, FILENAME, text, size, &again) == problems);
        FUZZ_ASSERT(memcmp(&first, &second, sizeof(first)) == 0);

        if (config_validate(&first, &diag) == 0)
                check_valid(&first);

        /* The same text again as a drop-in over itself. */
        config_parse(&first, policy_builtin, FILENAME, text, size, &again);
        check_ranges(&first);

        if (config_scan_plugin_dir(FILENAME, text, size, plugin_dir, sizeof(plugin_dir)))
                FUZZ_ASSERT(terminated(plugin_dir, sizeof(plugin_dir)));
        return 0;
}
