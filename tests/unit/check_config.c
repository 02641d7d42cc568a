/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "common/fileio.h"
#include "core/config.h"
#include "loaders/conf-files.h"
#include "policy/builtin.h"

/* A table of our own, so these tests do not depend on how the built-in
 * heuristics are tuned: an integer parameter with a unit and a fractional
 * one without, and a stand-in for the default heuristic. */
static const struct bl_policy_param pelt_params[] = {
        { .key = "half_life_ms", .unit = "ms", .def = 32, .min = 1, .max = 10000, .integer = true },
};

static const struct bl_policy_param headroom_params[] = {
        { .key = "quiet_ms", .unit = "ms", .def = 30, .min = 0, .max = 10000, .integer = true },
};

static const struct bl_policy_param fake_params[] = {
        { .key = "window", .unit = "samples", .def = 10, .min = 1, .max = 100, .integer = true },
        { .key = "gain", .unit = NULL, .def = 1.0, .min = 0.1, .max = 2.5, .integer = false },
};

static const struct bl_heuristic_ops test_util = { .abi = BL_POLICY_ABI, .name = "util" };
static const struct bl_heuristic_ops test_pelt = {
        .abi = BL_POLICY_ABI, .name = "pelt", .params = pelt_params, .nparams = 1,
};
static const struct bl_heuristic_ops test_fake = {
        .abi = BL_POLICY_ABI, .name = "fake", .params = fake_params, .nparams = 2,
};

static const struct bl_heuristic_ops test_headroom = {
        .abi = BL_POLICY_ABI, .name = "headroom", .params = headroom_params, .nparams = 1,
};

static const struct bl_heuristic_ops *const test_table[] = {
        &test_util, &test_pelt, &test_fake, &test_headroom, NULL,
};

static struct bl_config cfg;
static struct bl_diag diag;

static void setup(void)
{
        config_init(&cfg, test_table);
        diag_init(&diag);
}

static unsigned parse_as(const char *filename, const char *text)
{
        return config_parse(&cfg, test_table, filename, text, strlen(text), &diag);
}

static unsigned parse(const char *text)
{
        return parse_as("test.conf", text);
}

#define ck_assert_diag(i, expected)                                 \
        do {                                                        \
                ck_assert_uint_gt(diag.n, (i));                     \
                ck_assert_str_eq(diag.msg[(i)], (expected));        \
        } while (0)

/* The numeric or enum value of a scalar key, for table-driven tests. */
static long long key_value(const struct bl_config *c, const char *key)
{
        if (strcmp(key, "mode") == 0)
                return c->mode;
        if (strcmp(key, "backend") == 0)
                return c->backend;
        if (strcmp(key, "sample_interval_ms") == 0)
                return c->sample_interval_ms;
        if (strcmp(key, "idle_sample_interval_ms") == 0)
                return c->idle_sample_interval_ms;
        if (strcmp(key, "log_level") == 0)
                return c->log_level;
        if (strcmp(key, "combine") == 0)
                return c->combine;
        if (strcmp(key, "up_threshold") == 0)
                return c->up_threshold;
        if (strcmp(key, "down_threshold") == 0)
                return c->down_threshold;
        if (strcmp(key, "up_delay_ms") == 0)
                return c->up_delay_ms;
        if (strcmp(key, "down_delay_ms") == 0)
                return c->down_delay_ms;
        if (strcmp(key, "min_residency_ms") == 0)
                return c->min_residency_ms;
        if (strcmp(key, "max_switch_rate_hz") == 0)
                return c->max_switch_rate_hz;
        if (strcmp(key, "cap_temp_c") == 0)
                return c->cap_temp_mc;
        if (strcmp(key, "release_temp_c") == 0)
                return c->release_temp_mc;
        if (strcmp(key, "critical_temp_c") == 0)
                return c->critical_temp_mc;
        ck_abort_msg("no such key %s", key);
        return -1;
}

START_TEST(test_defaults)
{
        ck_assert_int_eq(cfg.mode, BL_MODE_AUTO);
        ck_assert_int_eq(cfg.backend, BL_BACKEND_AUTO);
        ck_assert_uint_eq(cfg.sample_interval_ms, 10);
        ck_assert_uint_eq(cfg.idle_sample_interval_ms, 1000);
        ck_assert_int_eq(cfg.log_level, LOG_INFO);
        ck_assert_uint_eq(cfg.nheuristics, 1);
        ck_assert_str_eq(cfg.heuristics[0].name, "headroom");
        ck_assert_ptr_eq(cfg.heuristics[0].ops, &test_headroom);
        ck_assert_double_eq(cfg.heuristics[0].weight, 1.0);
        ck_assert_double_eq(cfg.heuristics[0].params[0], 30);
        ck_assert_int_eq(cfg.combine, BL_COMBINE_MAX);
        ck_assert_uint_eq(cfg.up_threshold, 100);
        ck_assert_uint_eq(cfg.down_threshold, 90);
        ck_assert_uint_eq(cfg.up_delay_ms, 0);
        ck_assert_uint_eq(cfg.down_delay_ms, 50);
        ck_assert_uint_eq(cfg.min_residency_ms, 0);
        ck_assert_uint_eq(cfg.max_switch_rate_hz, 20);
        ck_assert(cfg.zones_auto);
        ck_assert_uint_eq(cfg.nzones, 0);
        ck_assert_int_eq(cfg.cap_temp_mc, 85000);
        ck_assert_int_eq(cfg.release_temp_mc, 80000);
        ck_assert_int_eq(cfg.critical_temp_mc, 95000);
        ck_assert(cfg.cap_temp_auto && cfg.release_temp_auto && cfg.critical_temp_auto);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
}
END_TEST

START_TEST(test_default_heuristic_missing)
{
        static const struct bl_heuristic_ops *const only_util[] = { &test_util, NULL };

        config_init(&cfg, only_util);
        ck_assert_uint_eq(cfg.nheuristics, 0);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 1);
        ck_assert_diag(0, "defaults: heuristics: expected at least one heuristic, "
                          "the default \"headroom\" is not available");
}
END_TEST

START_TEST(test_all_keys)
{
        static const char text[] =
                "[daemon]\n"
                "mode = mp\n"
                "backend = dryrun\n"
                "sample_interval_ms = 50\n"
                "log_level = debug\n"
                "[policy]\n"
                "heuristics = util, fake\n"
                "combine = weighted\n"
                "[hysteresis]\n"
                "up_threshold = 90\n"
                "down_threshold = 30\n"
                "up_delay_ms = 0\n"
                "down_delay_ms = 250\n"
                "min_residency_ms = 1000\n"
                "max_switch_rate_hz = 0\n"
                "[thermal]\n"
                "zones = cpu-thermal, soc_thermal,x86_pkg_temp\n"
                "cap_temp_c = 84.5\n"
                "release_temp_c = 70.25\n"
                "critical_temp_c = 100\n";

        ck_assert_uint_eq(parse(text), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_int_eq(cfg.mode, BL_MODE_MP);
        ck_assert_int_eq(cfg.backend, BL_BACKEND_DRYRUN);
        ck_assert_uint_eq(cfg.sample_interval_ms, 50);
        ck_assert_int_eq(cfg.log_level, LOG_DEBUG);
        ck_assert_uint_eq(cfg.nheuristics, 2);
        ck_assert_str_eq(cfg.heuristics[0].name, "util");
        ck_assert_ptr_eq(cfg.heuristics[0].ops, &test_util);
        ck_assert_str_eq(cfg.heuristics[1].name, "fake");
        ck_assert_ptr_eq(cfg.heuristics[1].ops, &test_fake);
        ck_assert_double_eq(cfg.heuristics[1].params[0], 10);
        ck_assert_double_eq(cfg.heuristics[1].params[1], 1.0);
        ck_assert_int_eq(cfg.combine, BL_COMBINE_WEIGHTED);
        ck_assert_uint_eq(cfg.up_threshold, 90);
        ck_assert_uint_eq(cfg.down_threshold, 30);
        ck_assert_uint_eq(cfg.up_delay_ms, 0);
        ck_assert_uint_eq(cfg.down_delay_ms, 250);
        ck_assert_uint_eq(cfg.min_residency_ms, 1000);
        ck_assert_uint_eq(cfg.max_switch_rate_hz, 0);
        ck_assert(!cfg.zones_auto);
        ck_assert_uint_eq(cfg.nzones, 3);
        ck_assert_str_eq(cfg.zones[0], "cpu-thermal");
        ck_assert_str_eq(cfg.zones[1], "soc_thermal");
        ck_assert_str_eq(cfg.zones[2], "x86_pkg_temp");
        ck_assert_int_eq(cfg.cap_temp_mc, 84500);
        ck_assert_int_eq(cfg.release_temp_mc, 70250);
        ck_assert_int_eq(cfg.critical_temp_mc, 100000);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 0);

        /* Where each key was set is remembered. */
        ck_assert_uint_eq(cfg.origin[BL_KEY_MODE].line, 2);
        ck_assert_str_eq(cfg.origin[BL_KEY_MODE].file, "test.conf");
        ck_assert_uint_eq(cfg.origin[BL_KEY_CRITICAL_TEMP_C].line, 20);
        ck_assert_str_eq(cfg.origin[BL_KEY_CAP_TEMP_C].value, "84.5");
}
END_TEST

struct good_value {
        const char *section, *key, *value;
        long long expected;
};

static const struct good_value good_values[] = {
        { "daemon", "mode", "auto", BL_MODE_AUTO },
        { "daemon", "mode", "cluster", BL_MODE_CLUSTER },
        { "daemon", "mode", "pair", BL_MODE_PAIR },
        { "daemon", "mode", "mp", BL_MODE_MP },
        { "daemon", "backend", "auto", BL_BACKEND_AUTO },
        { "daemon", "backend", "switcher", BL_BACKEND_SWITCHER },
        { "daemon", "backend", "hotplug", BL_BACKEND_HOTPLUG },
        { "daemon", "backend", "cpuset", BL_BACKEND_CPUSET },
        { "daemon", "backend", "cpufreq", BL_BACKEND_CPUFREQ },
        { "daemon", "backend", "dryrun", BL_BACKEND_DRYRUN },
        { "daemon", "sample_interval_ms", "5", 5 },
        { "daemon", "sample_interval_ms", "1000", 1000 },
        { "daemon", "sample_interval_ms", "085", 85 },
        { "daemon", "sample_interval_ms", "+40", 40 },
        { "daemon", "idle_sample_interval_ms", "0", 0 },
        { "daemon", "idle_sample_interval_ms", "10000", 10000 },
        { "daemon", "log_level", "err", LOG_ERR },
        { "daemon", "log_level", "warning", LOG_WARNING },
        { "daemon", "log_level", "notice", LOG_NOTICE },
        { "daemon", "log_level", "info", LOG_INFO },
        { "daemon", "log_level", "debug", LOG_DEBUG },
        { "policy", "combine", "max", BL_COMBINE_MAX },
        { "policy", "combine", "weighted", BL_COMBINE_WEIGHTED },
        { "hysteresis", "up_threshold", "1", 1 },
        { "hysteresis", "up_threshold", "100", 100 },
        { "hysteresis", "down_threshold", "0", 0 },
        { "hysteresis", "down_threshold", "59", 59 },
        { "hysteresis", "up_delay_ms", "0", 0 },
        { "hysteresis", "up_delay_ms", "10000", 10000 },
        { "hysteresis", "down_delay_ms", "0", 0 },
        { "hysteresis", "down_delay_ms", "60000", 60000 },
        { "hysteresis", "min_residency_ms", "0", 0 },
        { "hysteresis", "min_residency_ms", "60000", 60000 },
        { "hysteresis", "max_switch_rate_hz", "0", 0 },
        { "hysteresis", "max_switch_rate_hz", "1000", 1000 },
        { "thermal", "cap_temp_c", "20", 20000 },
        { "thermal", "cap_temp_c", "150", 150000 },
        { "thermal", "cap_temp_c", "84.125", 84125 },
        { "thermal", "cap_temp_c", "90.0", 90000 },
        { "thermal", "release_temp_c", "20.5", 20500 },
        { "thermal", "release_temp_c", "0079", 79000 },
        { "thermal", "critical_temp_c", "150.0", 150000 },
        { "thermal", "critical_temp_c", "99.999", 99999 },
};

START_TEST(test_good_value)
{
        const struct good_value *g = &good_values[_i];
        char text[256];

        snprintf(text, sizeof(text), "[%s]\n%s = %s\n", g->section, g->key, g->value);
        ck_assert_uint_eq(parse(text), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_int_eq(key_value(&cfg, g->key), g->expected);
}
END_TEST

struct bad_value {
        const char *section, *key, *value, *expected;
};

#define MODES "auto, cluster, pair or mp"
#define BACKENDS "auto, switcher, hotplug, cpuset, cpufreq or dryrun"
#define LEVELS "err, warning, notice, info or debug"
#define TEMP "auto or a temperature 20-150 (degrees Celsius)"

static const struct bad_value bad_values[] = {
        { "daemon", "mode", "big", MODES },
        { "daemon", "mode", "Auto", MODES },
        { "daemon", "mode", "", MODES },
        { "daemon", "mode", "auto,mp", MODES },
        { "daemon", "backend", "sysfs", BACKENDS },
        { "daemon", "backend", "", BACKENDS },
        { "daemon", "sample_interval_ms", "4", "an integer 5-1000 (ms)" },
        { "daemon", "idle_sample_interval_ms", "-1", "an integer 0-10000 (ms, 0 = off)" },
        { "daemon", "idle_sample_interval_ms", "10001", "an integer 0-10000 (ms, 0 = off)" },
        { "daemon", "sample_interval_ms", "1001", "an integer 5-1000 (ms)" },
        { "daemon", "sample_interval_ms", "-20", "an integer 5-1000 (ms)" },
        { "daemon", "sample_interval_ms", "abc", "an integer 5-1000 (ms)" },
        { "daemon", "sample_interval_ms", "20ms", "an integer 5-1000 (ms)" },
        { "daemon", "sample_interval_ms", "20.0", "an integer 5-1000 (ms)" },
        { "daemon", "sample_interval_ms", "1e2", "an integer 5-1000 (ms)" },
        { "daemon", "sample_interval_ms", "0x14", "an integer 5-1000 (ms)" },
        { "daemon", "sample_interval_ms", "2 0", "an integer 5-1000 (ms)" },
        { "daemon", "sample_interval_ms", "", "an integer 5-1000 (ms)" },
        { "daemon", "sample_interval_ms", "99999999999999999999999", "an integer 5-1000 (ms)" },
        { "daemon", "log_level", "verbose", LEVELS },
        { "daemon", "log_level", "7", LEVELS },
        { "daemon", "log_level", "", LEVELS },
        { "policy", "combine", "sum", "max or weighted" },
        { "policy", "energy_model", "boards/rk3399.ini", "auto, none or the absolute path of a board file" },
        { "policy", "energy_model", "", "auto, none or the absolute path of a board file" },
        { "policy", "energy_model", "Auto", "auto, none or the absolute path of a board file" },
        { "policy", "combine", "", "max or weighted" },
        { "hysteresis", "up_threshold", "0", "a percentage 1-100" },
        { "hysteresis", "up_threshold", "101", "a percentage 1-100" },
        { "hysteresis", "up_threshold", "80%", "a percentage 1-100" },
        { "hysteresis", "up_threshold", "eighty", "a percentage 1-100" },
        { "hysteresis", "up_threshold", "", "a percentage 1-100" },
        { "hysteresis", "down_threshold", "-1", "a percentage 0-99" },
        { "hysteresis", "down_threshold", "100", "a percentage 0-99" },
        { "hysteresis", "down_threshold", "60.5", "a percentage 0-99" },
        { "hysteresis", "down_threshold", "", "a percentage 0-99" },
        { "hysteresis", "up_delay_ms", "-1", "an integer 0-10000 (ms)" },
        { "hysteresis", "up_delay_ms", "10001", "an integer 0-10000 (ms)" },
        { "hysteresis", "up_delay_ms", "20 ms", "an integer 0-10000 (ms)" },
        { "hysteresis", "up_delay_ms", "", "an integer 0-10000 (ms)" },
        { "hysteresis", "down_delay_ms", "-1", "an integer 0-60000 (ms)" },
        { "hysteresis", "down_delay_ms", "60001", "an integer 0-60000 (ms)" },
        { "hysteresis", "down_delay_ms", "1s", "an integer 0-60000 (ms)" },
        { "hysteresis", "min_residency_ms", "-1", "an integer 0-60000 (ms)" },
        { "hysteresis", "min_residency_ms", "60001", "an integer 0-60000 (ms)" },
        { "hysteresis", "min_residency_ms", "4O", "an integer 0-60000 (ms)" },
        { "hysteresis", "max_switch_rate_hz", "-1", "an integer 0-1000 (Hz, 0 = unlimited)" },
        { "hysteresis", "max_switch_rate_hz", "1001", "an integer 0-1000 (Hz, 0 = unlimited)" },
        { "hysteresis", "max_switch_rate_hz", "10Hz", "an integer 0-1000 (Hz, 0 = unlimited)" },
        { "thermal", "cap_temp_c", "19.9", TEMP },
        { "thermal", "cap_temp_c", "150.5", TEMP },
        { "thermal", "cap_temp_c", "85C", TEMP },
        { "thermal", "cap_temp_c", "85,5", TEMP },
        { "thermal", "cap_temp_c", "1e2", TEMP },
        { "thermal", "cap_temp_c", ".5", TEMP },
        { "thermal", "cap_temp_c", "85.", TEMP },
        { "thermal", "cap_temp_c", "", TEMP },
        { "thermal", "release_temp_c", "19", TEMP },
        { "thermal", "release_temp_c", "151", TEMP },
        { "thermal", "release_temp_c", "warm", TEMP },
        { "thermal", "critical_temp_c", "-95", TEMP },
        { "thermal", "critical_temp_c", "200", TEMP },
        { "thermal", "critical_temp_c", "", TEMP },
};

/* A bad value is reported with the file, line, key and the value as
 * written, and changes nothing. */
/* energy_model keeps its word or path as written; a later file wins. */
START_TEST(test_energy_model_values)
{
        ck_assert_str_eq(cfg.energy_model, "auto");
        ck_assert_uint_eq(parse("[policy]\nenergy_model = none\n"), 0);
        ck_assert_str_eq(cfg.energy_model, "none");
        ck_assert_uint_eq(parse("[policy]\nenergy_model = /etc/bigLittle/rk3399.ini\n"), 0);
        ck_assert_str_eq(cfg.energy_model, "/etc/bigLittle/rk3399.ini");
        ck_assert_uint_eq(parse("[policy]\nenergy_model = auto\n"), 0);
        ck_assert_str_eq(cfg.energy_model, "auto");
}
END_TEST

START_TEST(test_bad_value)
{
        const struct bad_value *b = &bad_values[_i];
        struct bl_config fresh;
        char text[256], expected[BL_DIAG_LEN];

        config_init(&fresh, test_table);
        snprintf(text, sizeof(text), "[%s]\n%s = %s\n", b->section, b->key, b->value);
        snprintf(expected, sizeof(expected), "test.conf:2: %s: expected %s, got \"%s\"", b->key, b->expected,
                 b->value);
        ck_assert_uint_eq(parse(text), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], expected);
        ck_assert(memcmp(&cfg, &fresh, sizeof(cfg)) == 0);
}
END_TEST

START_TEST(test_later_wins)
{
        ck_assert_uint_eq(parse("[daemon]\nmode = mp\n[hysteresis]\nup_threshold = 90\n"
                                "[daemon]\nmode = pair\n"), 0);
        ck_assert_int_eq(cfg.mode, BL_MODE_PAIR);
        ck_assert_uint_eq(cfg.origin[BL_KEY_MODE].line, 6);
        ck_assert_uint_eq(parse_as("second.conf", "[hysteresis]\nup_threshold = 95\n"), 0);
        ck_assert_uint_eq(cfg.up_threshold, 95);
        ck_assert_str_eq(cfg.origin[BL_KEY_UP_THRESHOLD].file, "second.conf");
        ck_assert_uint_eq(cfg.origin[BL_KEY_UP_THRESHOLD].line, 2);
        ck_assert_int_eq(cfg.mode, BL_MODE_PAIR);
        /* Set twice in one file: said (a warning, not a problem); across
         * files it is what drop-ins are for. */
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_uint_eq(diag_problems(&diag), 0);
        ck_assert_diag(0, "test.conf:6: [daemon]: mode: set again (also on line 2); this line's value applies");
}
END_TEST

START_TEST(test_unknown_section)
{
        ck_assert_uint_eq(parse("[foo]\nbar = 1\nbaz = 2\n[daemon]\nmode = mp\n[Daemon]\nmode = pair\n"), 2);
        ck_assert_uint_eq(diag.n, 2);
        ck_assert_diag(0, "test.conf:1: unknown section [foo]");
        ck_assert_diag(1, "test.conf:6: unknown section [Daemon]");
        /* Keys of an unknown section are not reported again, nor applied. */
        ck_assert_int_eq(cfg.mode, BL_MODE_MP);
}
END_TEST

START_TEST(test_unknown_key)
{
        ck_assert_uint_eq(parse("[hysteresis]\nup_threshold = 90\nfoo = 1\n"
                                "[daemon]\nup_threshold = 95\n"), 2);
        ck_assert_diag(0, "test.conf:3: [hysteresis]: unknown key \"foo\"");
        ck_assert_diag(1, "test.conf:5: [daemon]: unknown key \"up_threshold\" (it belongs in [hysteresis])");
        ck_assert_uint_eq(cfg.up_threshold, 90);
}
END_TEST

START_TEST(test_key_outside_section)
{
        ck_assert_uint_eq(parse("# leading comment\nmode = mp\n[daemon]\nbackend = dryrun\n"), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_diag(0, "test.conf:2: key \"mode\" outside of any section");
        ck_assert_int_eq(cfg.mode, BL_MODE_AUTO);
        ck_assert_int_eq(cfg.backend, BL_BACKEND_DRYRUN);
}
END_TEST

/* Each file starts outside any section: a drop-in cannot continue the
 * section its predecessor ended in. */
START_TEST(test_section_per_file)
{
        ck_assert_uint_eq(parse("[daemon]\nmode = mp\n"), 0);
        ck_assert_uint_eq(parse_as("drop.conf", "backend = dryrun\n"), 1);
        ck_assert_diag(0, "drop.conf:1: key \"backend\" outside of any section");
}
END_TEST

START_TEST(test_syntax_errors)
{
        static const char text[] =
                "[daemon]\n"
                "mode\n"
                "[hysteresis\n"
                "up_threshold = 90\n"
                "[thermal] junk\n"
                "cap_temp_c = 90\n"
                "[daemon]\n"
                "= dryrun\n"
                "backend ; = dryrun\n"
                "log_level = debug\n";

        ck_assert_uint_eq(parse(text), 5);
        ck_assert_uint_eq(diag.n, 5);
        ck_assert_diag(0, "test.conf:2: expected \"key = value\" or \"[section]\", got \"mode\"");
        ck_assert_diag(1, "test.conf:3: expected \"key = value\" or \"[section]\", got \"[hysteresis\"");
        ck_assert_diag(2, "test.conf:5: expected \"key = value\" or \"[section]\", got \"[thermal] junk\"");
        ck_assert_diag(3, "test.conf:8: expected \"key = value\" or \"[section]\", got \"= dryrun\"");
        ck_assert_diag(4, "test.conf:9: expected \"key = value\" or \"[section]\", "
                          "got \"backend\" (a comment starts at \";\" after a space)");
        /* Keys below a broken section header belong to no known section. */
        ck_assert_uint_eq(cfg.up_threshold, 100);
        ck_assert_int_eq(cfg.cap_temp_mc, 85000);
        ck_assert_int_eq(cfg.backend, BL_BACKEND_AUTO);
        ck_assert_int_eq(cfg.log_level, LOG_DEBUG);
}
END_TEST

START_TEST(test_long_line)
{
        char text[1024], value[256];

        /* "mode = " + 200 characters: 207 in all. */
        memset(value, 'x', 200);
        value[200] = '\0';
        snprintf(text, sizeof(text), "[daemon]\nmode = %s\nbackend = dryrun\nsample_interval_ms = 3\n",
                 value);
        ck_assert_uint_eq(parse(text), 2);
        ck_assert_uint_eq(diag.n, 2);
        ck_assert_diag(0, "test.conf:2: line too long (207 characters, at most 198)");
        ck_assert_diag(1, "test.conf:4: sample_interval_ms: expected an integer 5-1000 (ms), got \"3\"");
        ck_assert_int_eq(cfg.mode, BL_MODE_AUTO);
        ck_assert_int_eq(cfg.backend, BL_BACKEND_DRYRUN);
        ck_assert_uint_eq(cfg.origin[BL_KEY_BACKEND].line, 3);
}
END_TEST

START_TEST(test_line_length_limit)
{
        char text[1024], comment[256];

        /* 198 characters are fine, 199 are not; a CR before the newline does
         * not count, nor do white space and a comment after the value. */
        memset(comment, 'x', 191);
        comment[191] = '\0';
        snprintf(text, sizeof(text), "[daemon]\r\nmode = %s  ; note\r\nmode = %sx\r\nbackend = dryrun\r\n",
                 comment, comment);
        ck_assert_uint_eq(parse(text), 2);
        ck_assert_uint_eq(diag.n, 2);
        ck_assert(strncmp(diag.msg[0], "test.conf:2: mode: expected auto, cluster, pair or mp, got \"xxx", 63) == 0);
        ck_assert_diag(1, "test.conf:3: line too long (199 characters, at most 198)");
        ck_assert_int_eq(cfg.backend, BL_BACKEND_DRYRUN);
}
END_TEST

START_TEST(test_long_section_header)
{
        char text[1024], name[256];

        memset(name, 'p', 210);
        name[210] = '\0';
        snprintf(text, sizeof(text), "[hysteresis]\n[%s]\nup_threshold = 90\n", name);
        ck_assert_uint_eq(parse(text), 1);
        ck_assert_diag(0, "test.conf:2: line too long (212 characters, at most 198)");
        /* The key is not taken for one of [hysteresis]. */
        ck_assert_uint_eq(cfg.up_threshold, 100);
}
END_TEST

START_TEST(test_nul_byte)
{
        static const char text[] = "[daemon]\nmode = m\0p\nbackend = dryrun\n";

        ck_assert_uint_eq(config_parse(&cfg, test_table, "test.conf", text, sizeof(text) - 1, &diag), 1);
        ck_assert_diag(0, "test.conf:2: line contains a NUL byte");
        ck_assert_int_eq(cfg.backend, BL_BACKEND_DRYRUN);
}
END_TEST

START_TEST(test_many_errors)
{
        static const char text[] =
                "[daemon]\n"
                "mode = big\n"
                "bogus line\n"
                "[nosuch]\n"
                "x = 1\n"
                "[hysteresis]\n"
                "up_threshold = 101\n"
                "foo = 1\n"
                "[policy.nope]\n"
                "weight = 0\n"
                "[thermal]\n"
                "cap_temp_c = hot\n"
                "release_temp_c = 70\n";

        ck_assert_uint_eq(parse(text), 7);
        ck_assert_uint_eq(diag.n, 7);
        ck_assert_diag(0, "test.conf:2: mode: expected auto, cluster, pair or mp, got \"big\"");
        ck_assert_diag(1, "test.conf:3: expected \"key = value\" or \"[section]\", got \"bogus line\"");
        ck_assert_diag(2, "test.conf:4: unknown section [nosuch]");
        ck_assert_diag(3, "test.conf:7: up_threshold: expected a percentage 1-100, got \"101\"");
        ck_assert_diag(4, "test.conf:8: [hysteresis]: unknown key \"foo\"");
        ck_assert_diag(5, "test.conf:9: unknown heuristic \"nope\" in [policy.nope] "
                          "(known: util, pelt, fake, headroom)");
        ck_assert_diag(6, "test.conf:12: cap_temp_c: expected auto or a temperature 20-150 "
                          "(degrees Celsius), got \"hot\"");
        ck_assert_int_eq(cfg.release_temp_mc, 70000);
}
END_TEST

/* inih alone would take an indented line for the continuation of the
 * previous value. */
START_TEST(test_indentation)
{
        ck_assert_uint_eq(parse("  [daemon]\n\tmode = mp\n    backend = dryrun\n"
                                "\t [hysteresis]\n  up_threshold = 90  \n"), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_int_eq(cfg.mode, BL_MODE_MP);
        ck_assert_int_eq(cfg.backend, BL_BACKEND_DRYRUN);
        ck_assert_uint_eq(cfg.up_threshold, 90);
}
END_TEST

START_TEST(test_comments)
{
        static const char text[] =
                "\xef\xbb\xbf; a comment\n"
                "# another\n"
                "\n"
                "   \n"
                "[daemon] ; section comment\n"
                "mode = mp ; inline comment\n"
                "  # indented comment\n"
                "backend: dryrun\n"
                "[hysteresis]#comment\n"
                "up_threshold = 90 # a comment as well, like \"; \"\n"
                "down_threshold = 20#not a comment: no space before it\n"
                "[thermal]\n"
                "zones = cpu-thermal\t# a tab is white space too\n";

        ck_assert_uint_eq(parse(text), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_diag(0, "test.conf:11: down_threshold: expected a percentage 0-99, "
                          "got \"20#not a comment: no space before it\"");
        ck_assert_int_eq(cfg.mode, BL_MODE_MP);
        ck_assert_int_eq(cfg.backend, BL_BACKEND_DRYRUN);
        ck_assert_uint_eq(cfg.up_threshold, 90);
        ck_assert_uint_eq(cfg.nzones, 1);
        ck_assert_str_eq(cfg.zones[0], "cpu-thermal");
}
END_TEST

/* A comment is not read, so no length limit applies to it. */
START_TEST(test_long_comments)
{
        char text[2048], note[400];

        memset(note, '-', 300);
        note[300] = '\0';
        snprintf(text, sizeof(text),
                 "#%s\n"
                 "[daemon]\n"
                 "   ;%s\n"
                 "mode = pair ; %s\n"
                 "backend = dryrun # %s\n",
                 note, note, note, note);
        ck_assert_uint_eq(parse(text), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_int_eq(cfg.mode, BL_MODE_PAIR);
        ck_assert_int_eq(cfg.backend, BL_BACKEND_DRYRUN);
        ck_assert_uint_eq(cfg.origin[BL_KEY_BACKEND].line, 5);
        ck_assert_str_eq(cfg.origin[BL_KEY_BACKEND].value, "dryrun");
}
END_TEST

/* Set twice in one file: the last one applies, and both lines are named,
 * as a warning (the configuration is used). */
START_TEST(test_key_set_twice)
{
        ck_assert_uint_eq(parse("[hysteresis]\nup_threshold = 90\ndown_threshold = 20\n"
                                "[thermal]\ncap_temp_c = auto\ncap_temp_c = 80\n"
                                "[hysteresis]\nup_threshold = 95\nup_threshold = 96\n"
                                "[policy.pelt]\nhalf_life_ms = 40\nweight = 2\nhalf_life_ms = 50\n"
                                "half_life_ms = 0\n"), 1);
        ck_assert_uint_eq(diag.n, 5);
        ck_assert_uint_eq(diag_problems(&diag), 1);
        ck_assert_diag(0, "test.conf:6: [thermal]: cap_temp_c: set again (also on line 5); "
                          "this line's value applies");
        ck_assert_diag(1, "test.conf:8: [hysteresis]: up_threshold: set again (also on line 2); "
                          "this line's value applies");
        ck_assert_diag(2, "test.conf:9: [hysteresis]: up_threshold: set again (also on line 8); "
                          "this line's value applies");
        ck_assert_diag(3, "test.conf:13: [policy.pelt]: half_life_ms: set again (also on line 11); "
                          "this line's value applies");
        /* A refused value is a problem of its own, not one more assignment. */
        ck_assert(strncmp(diag.msg[4], "test.conf:14: half_life_ms: expected", 36) == 0);
        ck_assert(diag.warning[0] && diag.warning[3] && !diag.warning[4]);
        ck_assert_uint_eq(cfg.up_threshold, 96);
        ck_assert_int_eq(cfg.cap_temp_mc, 80000);

        /* In two files it is what drop-ins are for. */
        setup();
        ck_assert_uint_eq(parse("[hysteresis]\nup_threshold = 90\n"), 0);
        ck_assert_uint_eq(parse_as("drop-in.conf", "[hysteresis]\nup_threshold = 95\n"), 0);
        ck_assert_uint_eq(diag.n, 0);
}
END_TEST

/* What was probably meant: the right section, or the near spelling. */
START_TEST(test_unknown_key_hints)
{
        static const struct {
                const char *text, *said;
        } cases[] = {
                { "[hysteresis]\nup_treshold = 90\n",
                  "test.conf:2: [hysteresis]: unknown key \"up_treshold\" (did you mean \"up_threshold\"?)" },
                { "[hysteresis]\nup_threhsold = 90\n",
                  "test.conf:2: [hysteresis]: unknown key \"up_threhsold\" (did you mean \"up_threshold\"?)" },
                { "[daemon]\nzones = cpu\n",
                  "test.conf:2: [daemon]: unknown key \"zones\" (it belongs in [thermal])" },
                { "[daemon]\nup_treshold = 90\n",
                  "test.conf:2: [daemon]: unknown key \"up_treshold\" "
                  "(did you mean \"up_threshold\" in [hysteresis]?)" },
                { "[policy]\nhalf_lfe_ms = 3\n",
                  "test.conf:2: [policy]: unknown key \"half_lfe_ms\" "
                  "(did you mean \"half_life_ms\" in [policy.pelt]?)" },
                { "[policy.pelt]\nweigth = 2\n",
                  "test.conf:2: [policy.pelt]: unknown key \"weigth\" (did you mean \"weight\"?)" },
                { "[policy]\nweight = 2\n",
                  "test.conf:2: [policy]: unknown key \"weight\" (it belongs in [policy.util] or "
                  "[policy.pelt] or [policy.fake] or [policy.headroom])" },
                { "[hysteresis]\nfoo = 1\n", "test.conf:2: [hysteresis]: unknown key \"foo\"" },
                { "[holds]\nab = 1\n", "test.conf:2: [holds]: unknown key \"ab\"" },
        };

        for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                setup();
                ck_assert_uint_eq(parse(cases[i].text), 1);
                ck_assert_str_eq(diag.msg[0], cases[i].said);
        }
}
END_TEST

START_TEST(test_empty_text)
{
        struct bl_config fresh;

        config_init(&fresh, test_table);
        ck_assert_uint_eq(parse(""), 0);
        ck_assert_uint_eq(parse("\n\n# only comments\n"), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert(memcmp(&cfg, &fresh, sizeof(cfg)) == 0);
}
END_TEST

/* A file with one mistake of each kind: everything is reported, in order,
 * and the valid keys between the mistakes still apply. */
START_TEST(test_errors_file)
{
        _cleanup_free_ char *text = NULL, *expected = NULL;
        char *line, *save = NULL;
        size_t len;
        unsigned problems, i = 0;

        ck_assert_int_eq(read_file(TEST_DATA_DIR "/config/errors.conf", &text, &len), 0);
        ck_assert_int_eq(read_file(TEST_DATA_DIR "/config/errors.expected", &expected, NULL), 0);
        problems = config_parse(&cfg, test_table, "errors.conf", text, len, &diag);
        problems += config_validate(&cfg, &diag);

        for (line = strtok_r(expected, "\n", &save); line; line = strtok_r(NULL, "\n", &save), i++)
                ck_assert_diag(i, line);
        ck_assert_uint_eq(i, 12);
        ck_assert_uint_eq(diag.n, i);
        ck_assert_uint_eq(problems, i);
        ck_assert_int_eq(cfg.backend, BL_BACKEND_DRYRUN);
        ck_assert_int_eq(cfg.combine, BL_COMBINE_WEIGHTED);
        /* "pelt, pelt" is refused, so the default heuristic stays, untouched by [policy.pelt]. */
        ck_assert_uint_eq(cfg.nheuristics, 1);
        ck_assert_str_eq(cfg.heuristics[0].name, "headroom");
        ck_assert_double_eq(cfg.heuristics[0].weight, 1);
        ck_assert_double_eq(cfg.heuristics[0].params[0], 30);
}
END_TEST

START_TEST(test_cross_thresholds)
{
        ck_assert_uint_eq(parse("[hysteresis]\nup_threshold = 80\ndown_threshold = 85\n"), 0);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 1);
        ck_assert_diag(0, "test.conf:3: down_threshold: must be below up_threshold (80, set at test.conf:2), "
                          "got \"85\"");
}
END_TEST

START_TEST(test_cross_thresholds_reversed)
{
        ck_assert_uint_eq(parse("[hysteresis]\ndown_threshold = 50\n\nup_threshold = 50\n"), 0);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 1);
        ck_assert_diag(0, "test.conf:4: up_threshold: must be above down_threshold (50, set at test.conf:2), "
                          "got \"50\"");
}
END_TEST

START_TEST(test_cross_thresholds_default)
{
        ck_assert_uint_eq(parse("[hysteresis]\nup_threshold = 85\n"), 0);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 1);
        ck_assert_diag(0, "test.conf:2: up_threshold: must be above down_threshold (90, the default), "
                          "got \"85\"");
}
END_TEST

START_TEST(test_cross_both_defaults)
{
        /* Not reachable through a file, but the message must still make sense. */
        cfg.up_threshold = 50;
        ck_assert_uint_eq(config_validate(&cfg, &diag), 1);
        ck_assert_diag(0, "defaults: down_threshold: must be below up_threshold (50, the default), "
                          "got \"90\"");
}
END_TEST

/* The idle interval must be at least the full rate's, unless it is off;
 * the key set last is the one blamed. */
static const struct {
        const char *text;
        unsigned problems;
        const char *diag;
} interval_cases[] = {
        { "[daemon]\nsample_interval_ms = 50\nidle_sample_interval_ms = 49\n", 1,
          "test.conf:3: idle_sample_interval_ms: must be at least sample_interval_ms (50, set at "
          "test.conf:2), got \"49\"" },
        { "[daemon]\nidle_sample_interval_ms = 9\n", 1,
          "test.conf:2: idle_sample_interval_ms: must be at least sample_interval_ms (10, the default), "
          "got \"9\"" },
        { "[daemon]\nidle_sample_interval_ms = 30\nsample_interval_ms = 40\n", 1,
          "test.conf:3: sample_interval_ms: must be at most idle_sample_interval_ms (30, set at "
          "test.conf:2), got \"40\"" },
        { "[daemon]\nsample_interval_ms = 1000\n", 0, NULL },
        { "[daemon]\nsample_interval_ms = 20\nidle_sample_interval_ms = 20\n", 0, NULL },
};

START_TEST(test_cross_intervals)
{
        ck_assert_uint_eq(parse(interval_cases[_i].text), 0);
        ck_assert_uint_eq(config_validate(&cfg, &diag), interval_cases[_i].problems);
        if (interval_cases[_i].diag)
                ck_assert_diag(0, interval_cases[_i].diag);
}
END_TEST

START_TEST(test_cross_intervals_off)
{
        ck_assert_uint_eq(parse("[daemon]\nsample_interval_ms = 5\nidle_sample_interval_ms = 0\n"), 0);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 0);
        ck_assert_uint_eq(cfg.idle_sample_interval_ms, 0);
}
END_TEST

START_TEST(test_cross_across_files)
{
        ck_assert_uint_eq(parse_as("main.conf", "[thermal]\ncap_temp_c = 90\n"), 0);
        ck_assert_uint_eq(parse_as("drop.conf", "\n[thermal]\nrelease_temp_c = 90.5\n"), 0);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 1);
        ck_assert_diag(0, "drop.conf:3: release_temp_c: must be below cap_temp_c (90, set at main.conf:2), "
                          "got \"90.5\"");
}
END_TEST

START_TEST(test_cross_temperatures)
{
        ck_assert_uint_eq(parse("[thermal]\ncap_temp_c = 85\ncritical_temp_c = 84.5\n"), 0);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 1);
        ck_assert_diag(0, "test.conf:3: critical_temp_c: must be above cap_temp_c (85, set at test.conf:2), "
                          "got \"84.5\"");

        setup();
        ck_assert_uint_eq(parse("[thermal]\ncap_temp_c = 96\nrelease_temp_c = 97\n"
                                "critical_temp_c = 95\n"), 0);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 2);
        ck_assert_diag(0, "test.conf:3: release_temp_c: must be below cap_temp_c (96, set at test.conf:2), "
                          "got \"97\"");
        ck_assert_diag(1, "test.conf:4: critical_temp_c: must be above cap_temp_c (96, set at test.conf:2), "
                          "got \"95\"");

        setup();
        ck_assert_uint_eq(parse("[thermal]\ncap_temp_c = 80.5\nrelease_temp_c = 80.25\n"
                                "critical_temp_c = 81\n"), 0);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 0);
}
END_TEST

/* A key left to auto takes no part in the checks: its value comes from the
 * trip points, and their order is kept when they are resolved. */
START_TEST(test_cross_temperatures_auto)
{
        ck_assert_uint_eq(parse("[thermal]\ncritical_temp_c = 50\n"), 0);
        ck_assert(cfg.cap_temp_auto && cfg.release_temp_auto && !cfg.critical_temp_auto);
        ck_assert_int_eq(cfg.critical_temp_mc, 50000);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 0);

        setup();
        ck_assert_uint_eq(parse("[thermal]\ncap_temp_c = 96\nrelease_temp_c = 97\nrelease_temp_c = auto\n"),
                          0);
        ck_assert(cfg.release_temp_auto && !cfg.cap_temp_auto);
        ck_assert_int_eq(cfg.release_temp_mc, 80000);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 0);

        /* with cap auto, release must still be below critical */
        setup();
        ck_assert_uint_eq(parse("[thermal]\ncritical_temp_c = 70\ncap_temp_c = auto\n"
                                "release_temp_c = 75\n"), 0);
        ck_assert_uint_eq(config_validate(&cfg, &diag), 1);
        ck_assert_diag(0, "test.conf:4: release_temp_c: must be below critical_temp_c "
                          "(70, set at test.conf:2), got \"75\"");
}
END_TEST

START_TEST(test_temperature_auto)
{
        ck_assert_uint_eq(parse("[thermal]\ncap_temp_c = 70\nrelease_temp_c = 60\n"
                                "critical_temp_c = 90\n"), 0);
        ck_assert(!cfg.cap_temp_auto && !cfg.release_temp_auto && !cfg.critical_temp_auto);
        ck_assert_int_eq(cfg.cap_temp_mc, 70000);
        /* a drop-in puts one back to auto: the built-in value until resolved */
        ck_assert_uint_eq(parse_as("drop.conf", "[thermal]\ncap_temp_c = auto\n"
                                           "critical_temp_c =  auto \n"), 0);
        ck_assert(cfg.cap_temp_auto && !cfg.release_temp_auto && cfg.critical_temp_auto);
        ck_assert_int_eq(cfg.cap_temp_mc, 85000);
        ck_assert_int_eq(cfg.release_temp_mc, 60000);
        ck_assert_int_eq(cfg.critical_temp_mc, 95000);
        ck_assert_uint_eq(cfg.origin[BL_KEY_CAP_TEMP_C].line, 2);
        ck_assert_str_eq(cfg.origin[BL_KEY_CAP_TEMP_C].value, "auto");
        ck_assert_str_eq(cfg.origin[BL_KEY_CAP_TEMP_C].file, "drop.conf");

        ck_assert_uint_eq(parse("[thermal]\ncap_temp_c = Auto\n"), 1);
        ck_assert_diag(0, "test.conf:2: cap_temp_c: expected auto or a temperature 20-150 (degrees Celsius), "
                          "got \"Auto\"");
}
END_TEST

START_TEST(test_policy_unknown_heuristic)
{
        ck_assert_uint_eq(parse("[policy.nope]\nweight = 2\nwhatever = 1\n[policy.]\n"
                                "[policy.headroom]\nweight = 2\n"), 2);
        ck_assert_uint_eq(diag.n, 2);
        ck_assert_diag(0, "test.conf:1: unknown heuristic \"nope\" in [policy.nope] "
                          "(known: util, pelt, fake, headroom)");
        ck_assert_diag(1, "test.conf:4: unknown heuristic \"\" in [policy.] "
                          "(known: util, pelt, fake, headroom)");
        ck_assert_double_eq(cfg.heuristics[0].weight, 2);
}
END_TEST

START_TEST(test_heuristic_params)
{
        static const char text[] =
                "[policy.pelt]\n"
                "half_life_ms = 64\n"
                "[policy.fake]\n"
                "window = 100\n"
                "gain = 0.25\n"
                "[policy]\n"
                "heuristics = fake, pelt\n";

        ck_assert_uint_eq(parse(text), 0);
        ck_assert_uint_eq(cfg.nheuristics, 2);
        ck_assert_str_eq(cfg.heuristics[0].name, "fake");
        ck_assert_double_eq(cfg.heuristics[0].params[0], 100);
        ck_assert_double_eq(cfg.heuristics[0].params[1], 0.25);
        ck_assert_str_eq(cfg.heuristics[1].name, "pelt");
        ck_assert_double_eq(cfg.heuristics[1].params[0], 64);
}
END_TEST

struct bad_param {
        const char *section, *key, *value, *expected;
};

static const struct bad_param bad_params[] = {
        { "pelt", "half_life_ms", "0", "half_life_ms: expected an integer 1-10000 (ms)" },
        { "pelt", "half_life_ms", "10001", "half_life_ms: expected an integer 1-10000 (ms)" },
        { "pelt", "half_life_ms", "1.5", "half_life_ms: expected an integer 1-10000 (ms)" },
        { "pelt", "half_life_ms", "32ms", "half_life_ms: expected an integer 1-10000 (ms)" },
        { "pelt", "half_life_ms", "", "half_life_ms: expected an integer 1-10000 (ms)" },
        { "fake", "window", "0", "window: expected an integer 1-100 (samples)" },
        { "fake", "window", "101", "window: expected an integer 1-100 (samples)" },
        { "fake", "gain", "0.05", "gain: expected a number 0.1-2.5" },
        { "fake", "gain", "2.51", "gain: expected a number 0.1-2.5" },
        { "fake", "gain", "1,5", "gain: expected a number 0.1-2.5" },
        { "fake", "gain", "big", "gain: expected a number 0.1-2.5" },
        { "pelt", "weight", "0", "weight: expected a number above 0 and at most 100" },
        { "pelt", "weight", "-1", "weight: expected a number above 0 and at most 100" },
        { "pelt", "weight", "100.5", "weight: expected a number above 0 and at most 100" },
        { "util", "weight", "heavy", "weight: expected a number above 0 and at most 100" },
        { "util", "weight", "", "weight: expected a number above 0 and at most 100" },
};

START_TEST(test_bad_param)
{
        const struct bad_param *b = &bad_params[_i];
        struct bl_config fresh;
        char text[256], expected[BL_DIAG_LEN];

        config_init(&fresh, test_table);
        snprintf(text, sizeof(text), "[policy.%s]\n%s = %s\n", b->section, b->key, b->value);
        snprintf(expected, sizeof(expected), "test.conf:2: %s, got \"%s\"", b->expected, b->value);
        ck_assert_uint_eq(parse(text), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], expected);
        ck_assert(memcmp(&cfg, &fresh, sizeof(cfg)) == 0);
}
END_TEST

START_TEST(test_heuristic_unknown_key)
{
        ck_assert_uint_eq(parse("[policy.util]\nhalf_life_ms = 32\n[policy.headroom]\nheuristics = util\n"),
                          2);
        ck_assert_diag(0, "test.conf:2: [policy.util]: unknown key \"half_life_ms\" (it belongs in [policy.pelt])");
        ck_assert_diag(1, "test.conf:4: [policy.headroom]: unknown key \"heuristics\" (it belongs in [policy])");
        ck_assert_str_eq(cfg.heuristics[0].name, "headroom");
}
END_TEST

START_TEST(test_weight)
{
        ck_assert_uint_eq(parse("[policy]\nheuristics = util, pelt\n[policy.util]\nweight = 0.5\n"
                                "[policy.pelt]\nweight = 100\n"), 0);
        ck_assert_double_eq(cfg.heuristics[0].weight, 0.5);
        ck_assert_double_eq(cfg.heuristics[1].weight, 100);
}
END_TEST

/* Settings of a heuristic survive a later heuristics= line in another file
 * and apply when it is selected there. */
START_TEST(test_heuristic_settings_across_files)
{
        ck_assert_uint_eq(parse_as("main.conf", "[policy]\nheuristics = pelt, fake\n"
                                                "[policy.fake]\nwindow = 20\nweight = 3\n"), 0);
        ck_assert_uint_eq(cfg.nheuristics, 2);
        ck_assert_double_eq(cfg.heuristics[1].params[0], 20);
        ck_assert_double_eq(cfg.heuristics[1].weight, 3);

        ck_assert_uint_eq(parse_as("a.conf", "[policy]\nheuristics = util\n"), 0);
        ck_assert_uint_eq(cfg.nheuristics, 1);
        ck_assert_str_eq(cfg.heuristics[0].name, "util");
        ck_assert_ptr_eq(cfg.heuristics[0].ops, &test_util);

        ck_assert_uint_eq(parse_as("b.conf", "[policy.fake]\ngain = 2\n[policy]\nheuristics = fake\n"), 0);
        ck_assert_uint_eq(cfg.nheuristics, 1);
        ck_assert_ptr_eq(cfg.heuristics[0].ops, &test_fake);
        ck_assert_double_eq(cfg.heuristics[0].weight, 3);
        ck_assert_double_eq(cfg.heuristics[0].params[0], 20);
        ck_assert_double_eq(cfg.heuristics[0].params[1], 2);
        ck_assert_uint_eq(diag.n, 0);
}
END_TEST

START_TEST(test_heuristics_list)
{
        ck_assert_uint_eq(parse("[policy]\nheuristics =util ,pelt  ,\tfake\n"), 0);
        ck_assert_uint_eq(cfg.nheuristics, 3);
        ck_assert_str_eq(cfg.heuristics[0].name, "util");
        ck_assert_str_eq(cfg.heuristics[1].name, "pelt");
        ck_assert_str_eq(cfg.heuristics[2].name, "fake");
}
END_TEST

struct bad_list {
        const char *value, *expected;
};

static const struct bad_list bad_heuristics[] = {
        { "pelt, pelt", "heuristics: \"pelt\" is listed twice, got \"pelt, pelt\"" },
        { "util,fake, util", "heuristics: \"util\" is listed twice, got \"util,fake, util\"" },
        { "pelt, nope",
          "heuristics: unknown heuristic \"nope\" (known: util, pelt, fake, headroom), got \"pelt, nope\"" },
        { "Pelt",
          "heuristics: unknown heuristic \"Pelt\" (known: util, pelt, fake, headroom), got \"Pelt\"" },
        { "pelt util",
          "heuristics: unknown heuristic \"pelt util\" (known: util, pelt, fake, headroom), "
          "got \"pelt util\"" },
        { "", "heuristics: expected a comma-separated list of heuristic names, got \"\"" },
        { "pelt,,util",
          "heuristics: expected a comma-separated list of heuristic names, got \"pelt,,util\"" },
        { "pelt,", "heuristics: expected a comma-separated list of heuristic names, got \"pelt,\"" },
        { ", pelt", "heuristics: expected a comma-separated list of heuristic names, got \", pelt\"" },
};

START_TEST(test_bad_heuristics)
{
        const struct bad_list *b = &bad_heuristics[_i];
        char text[256], expected[BL_DIAG_LEN];

        snprintf(text, sizeof(text), "[policy]\nheuristics = util\nheuristics = %s\n", b->value);
        snprintf(expected, sizeof(expected), "test.conf:3: %s", b->expected);
        ck_assert_uint_eq(parse(text), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], expected);
        /* The list set before stays. */
        ck_assert_uint_eq(cfg.nheuristics, 1);
        ck_assert_str_eq(cfg.heuristics[0].name, "util");
        ck_assert_uint_eq(cfg.origin[BL_KEY_HEURISTICS].line, 2);
}
END_TEST

START_TEST(test_too_many_heuristics)
{
        static struct bl_heuristic_ops many[BL_MAX_HEURISTICS + 2];
        static const struct bl_heuristic_ops *table[BL_MAX_HEURISTICS + 3];
        static char names[BL_MAX_HEURISTICS + 2][8];
        char list[128] = "", text[256];
        unsigned i;

        for (i = 0; i < BL_MAX_HEURISTICS + 2; i++) {
                snprintf(names[i], sizeof(names[i]), "h%u", i);
                many[i] = (struct bl_heuristic_ops){ .abi = BL_POLICY_ABI, .name = names[i] };
                table[i] = &many[i];
        }
        table[i] = NULL;
        config_init(&cfg, table);

        for (i = 0; i < BL_MAX_HEURISTICS; i++)
                snprintf(list + strlen(list), sizeof(list) - strlen(list), "%sh%u", i ? ", " : "", i);
        snprintf(text, sizeof(text), "[policy]\nheuristics = %s\n", list);
        ck_assert_uint_eq(config_parse(&cfg, table, "test.conf", text, strlen(text), &diag), 0);
        ck_assert_uint_eq(cfg.nheuristics, BL_MAX_HEURISTICS);
        ck_assert_str_eq(cfg.heuristics[BL_MAX_HEURISTICS - 1].name, "h7");

        snprintf(text, sizeof(text), "[policy]\nheuristics = %s, h9\n", list);
        ck_assert_uint_eq(config_parse(&cfg, table, "test.conf", text, strlen(text), &diag), 1);
        ck_assert_diag(0, "test.conf:2: heuristics: expected at most 8 heuristics, "
                          "got \"h0, h1, h2, h3, h4, h5, h6, h7, h9\"");
}
END_TEST

START_TEST(test_zones)
{
        ck_assert_uint_eq(parse("[thermal]\nzones = cpu-thermal,gpu.thermal ,A_1\n"), 0);
        ck_assert(!cfg.zones_auto);
        ck_assert_uint_eq(cfg.nzones, 3);
        ck_assert_str_eq(cfg.zones[1], "gpu.thermal");
        ck_assert_str_eq(cfg.zones[2], "A_1");
        ck_assert_uint_eq(parse("[thermal]\nzones = auto\n"), 0);
        ck_assert(cfg.zones_auto);
        ck_assert_uint_eq(cfg.nzones, 0);
        ck_assert_uint_eq(diag.n, 0);
}
END_TEST

#define ZONE_LIST "expected auto or a comma-separated list of thermal zone types " \
                  "(letters, digits, \"_\", \".\", \"-\")"

static const struct bad_list bad_zones[] = {
        { "", "zones: " ZONE_LIST ", got \"\"" },
        { "cpu thermal", "zones: " ZONE_LIST ", got \"cpu thermal\"" },
        { "cpu,,gpu", "zones: " ZONE_LIST ", got \"cpu,,gpu\"" },
        { "cpu/0", "zones: " ZONE_LIST ", got \"cpu/0\"" },
        { "cpu, cpu", "zones: \"cpu\" is listed twice, got \"cpu, cpu\"" },
        { "a23456789012345678901234567890123", "zones: expected zone types of at most 31 characters, "
                                               "got \"a23456789012345678901234567890123\"" },
        { "z0,z1,z2,z3,z4,z5,z6,z7,z8,z9,z10,z11,z12,z13,z14,z15,z16",
          "zones: expected at most 16 zone types, "
          "got \"z0,z1,z2,z3,z4,z5,z6,z7,z8,z9,z10,z11,z12,z13,z14,z15,z16\"" },
};

START_TEST(test_bad_zones)
{
        const struct bad_list *b = &bad_zones[_i];
        char text[256], expected[BL_DIAG_LEN];

        snprintf(text, sizeof(text), "[thermal]\nzones = soc\n\nzones = %s\n", b->value);
        snprintf(expected, sizeof(expected), "test.conf:4: %s", b->expected);
        ck_assert_uint_eq(parse(text), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], expected);
        ck_assert(!cfg.zones_auto);
        ck_assert_uint_eq(cfg.nzones, 1);
        ck_assert_str_eq(cfg.zones[0], "soc");
}
END_TEST

START_TEST(test_zone_limits)
{
        /* 31 characters and 16 zones are the most that fit. */
        ck_assert_uint_eq(parse("[thermal]\nzones = a234567890123456789012345678901\n"), 0);
        ck_assert_str_eq(cfg.zones[0], "a234567890123456789012345678901");
        ck_assert_uint_eq(parse("[thermal]\n"
                                "zones = z0,z1,z2,z3,z4,z5,z6,z7,z8,z9,z10,z11,z12,z13,z14,z15\n"), 0);
        ck_assert_uint_eq(cfg.nzones, 16);
        ck_assert_str_eq(cfg.zones[15], "z15");
}
END_TEST

START_TEST(test_cpuset)
{
        ck_assert_uint_eq(cfg.ncpuset_groups, 2);
        ck_assert_str_eq(cfg.cpuset_groups[0], "system.slice");
        ck_assert_str_eq(cfg.cpuset_groups[1], "user.slice");
        ck_assert_int_eq(cfg.cpuset_manager, BL_CPUSET_MANAGER_AUTO);
        ck_assert_uint_eq(parse("[cpuset]\ngroups = bigLittle.slice/work , machine.slice,a.b/c-d_e@1\n"
                                "manager = cgroupfs\n"), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_uint_eq(cfg.ncpuset_groups, 3);
        ck_assert_str_eq(cfg.cpuset_groups[0], "bigLittle.slice/work");
        ck_assert_str_eq(cfg.cpuset_groups[1], "machine.slice");
        ck_assert_str_eq(cfg.cpuset_groups[2], "a.b/c-d_e@1");
        ck_assert_int_eq(cfg.cpuset_manager, BL_CPUSET_MANAGER_CGROUPFS);
        ck_assert_uint_eq(parse("[cpuset]\nmanager = systemd\ngroups = user.slice\n"), 0);
        ck_assert_int_eq(cfg.cpuset_manager, BL_CPUSET_MANAGER_SYSTEMD);
        ck_assert_uint_eq(cfg.ncpuset_groups, 1);
        ck_assert_str_eq(cpuset_manager_to_string(BL_CPUSET_MANAGER_SYSTEMD), "systemd");
        /* 16 groups are the most. */
        ck_assert_uint_eq(parse("[cpuset]\n"
                                "groups = g0,g1,g2,g3,g4,g5,g6,g7,g8,g9,g10,g11,g12,g13,g14,g15\n"), 0);
        ck_assert_uint_eq(cfg.ncpuset_groups, 16);
        ck_assert_str_eq(cfg.cpuset_groups[15], "g15");
}
END_TEST

#define GROUP_LIST "expected a comma-separated list of cgroup paths relative to the cgroup root " \
                   "(no leading \"/\", no \"..\", no empty components, no spaces)"

static const struct bad_list bad_groups[] = {
        { "", "groups: " GROUP_LIST ", got \"\"" },
        { "/system.slice", "groups: " GROUP_LIST ", got \"/system.slice\"" },
        { "a/../b", "groups: " GROUP_LIST ", got \"a/../b\"" },
        { "..", "groups: " GROUP_LIST ", got \"..\"" },
        { "a/./b", "groups: " GROUP_LIST ", got \"a/./b\"" },
        { "a//b", "groups: " GROUP_LIST ", got \"a//b\"" },
        { "a/", "groups: " GROUP_LIST ", got \"a/\"" },
        { "a,,b", "groups: " GROUP_LIST ", got \"a,,b\"" },
        { "my group", "groups: " GROUP_LIST ", got \"my group\"" },
        { "user.slice, user.slice",
          "groups: \"user.slice\" is listed twice, got \"user.slice, user.slice\"" },
        { "g0,g1,g2,g3,g4,g5,g6,g7,g8,g9,g10,g11,g12,g13,g14,g15,g16",
          "groups: expected at most 16 cgroups, "
          "got \"g0,g1,g2,g3,g4,g5,g6,g7,g8,g9,g10,g11,g12,g13,g14,g15,g16\"" },
};

START_TEST(test_bad_groups)
{
        const struct bad_list *b = &bad_groups[_i];
        char text[256], expected[BL_DIAG_LEN];

        snprintf(text, sizeof(text), "[cpuset]\ngroups = a.slice\n\ngroups = %s\n", b->value);
        snprintf(expected, sizeof(expected), "test.conf:4: %s", b->expected);
        ck_assert_uint_eq(parse(text), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], expected);
        ck_assert_uint_eq(cfg.ncpuset_groups, 1);
        ck_assert_str_eq(cfg.cpuset_groups[0], "a.slice");
}
END_TEST

START_TEST(test_bad_cpuset_keys)
{
        static const char long_group[] = "a234567890123456789012345678901234567890123456789012345678901234"
                                         "5678901234567890123456789012345678901234567890123456789012345678";
        char text[256];

        ck_assert_uint_eq(parse("[cpuset]\nmanager = docker\nslices = a\n"), 2);
        ck_assert_diag(0, "test.conf:2: manager: expected auto, systemd or cgroupfs, got \"docker\"");
        ck_assert_diag(1, "test.conf:3: [cpuset]: unknown key \"slices\"");
        ck_assert_int_eq(cfg.cpuset_manager, BL_CPUSET_MANAGER_AUTO);
        diag_init(&diag);
        ck_assert_uint_eq(strlen(long_group), BL_CPUSET_GROUP_MAX);
        snprintf(text, sizeof(text), "[cpuset]\ngroups = %s\n", long_group);
        ck_assert_uint_eq(parse_as("x.conf", text), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_msg(strstr(diag.msg[0],
                             "x.conf:2: groups: expected cgroup paths of at most 127 characters"),
                      "%s", diag.msg[0]);
        ck_assert_uint_eq(cfg.ncpuset_groups, 2);
}
END_TEST

START_TEST(test_to_string)
{
        ck_assert_str_eq(backend_kind_to_string(BL_BACKEND_AUTO), "auto");
        ck_assert_str_eq(backend_kind_to_string(BL_BACKEND_SWITCHER), "switcher");
        ck_assert_str_eq(backend_kind_to_string(BL_BACKEND_HOTPLUG), "hotplug");
        ck_assert_str_eq(backend_kind_to_string(BL_BACKEND_CPUSET), "cpuset");
        ck_assert_str_eq(backend_kind_to_string(BL_BACKEND_CPUFREQ), "cpufreq");
        ck_assert_str_eq(backend_kind_to_string(BL_BACKEND_DRYRUN), "dryrun");
        ck_assert_str_eq(backend_kind_to_string((enum bl_backend_kind)99), "?");
        ck_assert_str_eq(log_level_to_string(LOG_ERR), "err");
        ck_assert_str_eq(log_level_to_string(LOG_WARNING), "warning");
        ck_assert_str_eq(log_level_to_string(LOG_NOTICE), "notice");
        ck_assert_str_eq(log_level_to_string(LOG_INFO), "info");
        ck_assert_str_eq(log_level_to_string(LOG_DEBUG), "debug");
        ck_assert_str_eq(log_level_to_string(LOG_EMERG), "?");
}
END_TEST

/* Files on disk: a private directory per test. */
static char tmpdir[64];

static void write_text(const char *name, const char *text)
{
        char path[256];
        FILE *f;

        snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
        f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(fputs(text, f) >= 0, 1);
        ck_assert_int_eq(fclose(f), 0);
}

static void make_dir(const char *name)
{
        char path[256];

        snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
        ck_assert_int_eq(mkdir(path, 0755), 0);
}

static const char *in_tmp(const char *name)
{
        static char path[4][256];
        static unsigned next;
        char *p = path[next++ % 4];

        snprintf(p, sizeof(path[0]), "%s/%s", tmpdir, name);
        return p;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        return remove(path);
}

static void files_setup(void)
{
        setup();
        snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_config.XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static int load(const char *name, bool optional, struct bl_conf_files *files)
{
        return conf_files_load(&cfg, test_table, in_tmp(name), optional, files, &diag);
}

static void files_teardown(void)
{
        nftw(tmpdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

START_TEST(test_dropins)
{
        struct bl_conf_files files;
        char expected[BL_DIAG_LEN];

        write_text("bigLittle.conf", "[daemon]\nmode = cluster\nbackend = hotplug\n"
                                     "[hysteresis]\nup_threshold = 70\n");
        make_dir("bigLittle.conf.d");
        write_text("bigLittle.conf.d/20-b.conf", "[daemon]\nmode = pair\n[hysteresis]\nup_threshold = 75\n");
        write_text("bigLittle.conf.d/10-a.conf", "[daemon]\nmode = mp\nsample_interval_ms = 40\n");
        write_text("bigLittle.conf.d/30-c.conf", "[hysteresis]\n\ndown_threshold = 72\n");
        /* Not drop-ins: other suffixes, hidden files, a link to /dev/null
         * (masks a file of that name). */
        write_text("bigLittle.conf.d/README", "not a config\n");
        write_text("bigLittle.conf.d/40-d.conf.bak", "broken\n");
        write_text("bigLittle.conf.d/.hidden.conf", "broken\n");
        ck_assert_int_eq(symlink("/dev/null", in_tmp("bigLittle.conf.d/60-masked.conf")), 0);

        ck_assert_int_eq(load("bigLittle.conf", false, &files), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_uint_eq(files.n, 4);
        ck_assert_str_eq(files.path[0], in_tmp("bigLittle.conf"));
        ck_assert_str_eq(files.path[1], in_tmp("bigLittle.conf.d/10-a.conf"));
        ck_assert_str_eq(files.path[2], in_tmp("bigLittle.conf.d/20-b.conf"));
        ck_assert_str_eq(files.path[3], in_tmp("bigLittle.conf.d/30-c.conf"));
        ck_assert_int_eq(cfg.mode, BL_MODE_PAIR);
        ck_assert_int_eq(cfg.backend, BL_BACKEND_HOTPLUG);
        ck_assert_uint_eq(cfg.sample_interval_ms, 40);
        ck_assert_uint_eq(cfg.up_threshold, 75);
        ck_assert_uint_eq(cfg.down_threshold, 72);

        /* A later drop-in breaking a rule across files is reported at its line. */
        setup();
        write_text("bigLittle.conf.d/30-c.conf", "[hysteresis]\n\ndown_threshold = 75\n");
        ck_assert_int_eq(load("bigLittle.conf", false, &files), 1);
        snprintf(expected, sizeof(expected),
                 "%s/bigLittle.conf.d/30-c.conf:3: down_threshold: must be below up_threshold "
                 "(75, set at %s/bigLittle.conf.d/20-b.conf:4), got \"75\"", tmpdir, tmpdir);
        ck_assert_diag(0, expected);
}
END_TEST

START_TEST(test_dropin_errors_counted)
{
        struct bl_conf_files files;
        char expected[BL_DIAG_LEN];

        write_text("main.conf", "[daemon]\nmode = nope\n");
        make_dir("main.conf.d");
        write_text("main.conf.d/x.conf", "[daemon]\nbackend = nope\n[hysteresis]\nup_threshold = 10\n");
        ck_assert_int_eq(load("main.conf", false, &files), 3);
        ck_assert_uint_eq(diag.n, 3);
        snprintf(expected, sizeof(expected), "%s/main.conf:2: mode: expected auto, cluster, pair or mp, "
                 "got \"nope\"", tmpdir);
        ck_assert_diag(0, expected);
        snprintf(expected, sizeof(expected), "%s/main.conf.d/x.conf:2: backend: expected auto, switcher, "
                 "hotplug, cpuset, cpufreq or dryrun, got \"nope\"", tmpdir);
        ck_assert_diag(1, expected);
        snprintf(expected, sizeof(expected), "%s/main.conf.d/x.conf:4: up_threshold: must be above "
                 "down_threshold (90, the default), got \"10\"", tmpdir);
        ck_assert_diag(2, expected);
}
END_TEST

START_TEST(test_missing_optional)
{
        struct bl_conf_files files;
        struct bl_config fresh;

        config_init(&fresh, test_table);
        ck_assert_int_eq(load("absent.conf", true, &files), 0);
        ck_assert_uint_eq(files.n, 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert(memcmp(&cfg, &fresh, sizeof(cfg)) == 0);

        /* Drop-ins still apply without the main file. */
        make_dir("absent.conf.d");
        write_text("absent.conf.d/a.conf", "[daemon]\nmode = mp\n");
        ck_assert_int_eq(load("absent.conf", true, &files), 0);
        ck_assert_uint_eq(files.n, 1);
        ck_assert_str_eq(files.path[0], in_tmp("absent.conf.d/a.conf"));
        ck_assert_int_eq(cfg.mode, BL_MODE_MP);
}
END_TEST

START_TEST(test_missing_explicit)
{
        struct bl_conf_files files;
        char expected[BL_DIAG_LEN];

        ck_assert_int_eq(load("absent.conf", false, &files), -ENOENT);
        ck_assert_uint_eq(files.n, 0);
        ck_assert_uint_eq(diag.n, 1);
        snprintf(expected, sizeof(expected), "%s/absent.conf: cannot read: No such file or directory",
                 tmpdir);
        ck_assert_diag(0, expected);
}
END_TEST

/* Names that look like drop-ins but cannot be read as one are skipped, one
 * line each with the reason; none is a problem in the configuration. */
START_TEST(test_dropins_skipped_are_said)
{
        static const char *const want[] = {
                "10-dir.conf: skipped: not a regular file (directory)",
                "20-fifo.conf: skipped: not a regular file (FIFO)",
                "30-dangling.conf: skipped: a symbolic link to nothing",
                "40-to-fifo.conf: skipped: not a regular file (FIFO)",
        };
        struct bl_conf_files files;
        char expected[BL_DIAG_LEN];

        write_text("main.conf", "[daemon]\nmode = mp\n");
        make_dir("main.conf.d");
        write_text("main.conf.d/50-ok.conf", "[daemon]\nbackend = dryrun\n");
        make_dir("main.conf.d/10-dir.conf");
        ck_assert_int_eq(mkfifo(in_tmp("main.conf.d/20-fifo.conf"), 0644), 0);
        ck_assert_int_eq(symlink(in_tmp("main.conf.d/gone"), in_tmp("main.conf.d/30-dangling.conf")), 0);
        ck_assert_int_eq(symlink(in_tmp("main.conf.d/20-fifo.conf"), in_tmp("main.conf.d/40-to-fifo.conf")),
                         0);

        ck_assert_int_eq(load("main.conf", false, &files), 0);
        ck_assert_uint_eq(files.n, 2);
        ck_assert_str_eq(files.path[1], in_tmp("main.conf.d/50-ok.conf"));
        ck_assert_int_eq(cfg.backend, BL_BACKEND_DRYRUN);
        ck_assert_uint_eq(diag.n, 4);
        ck_assert_uint_eq(diag_problems(&diag), 0);
        /* Said in directory order, not name order: each line is looked for. */
        for (unsigned i = 0; i < 4; i++) {
                bool found = false;

                snprintf(expected, sizeof(expected), "%s/main.conf.d/%s", tmpdir, want[i]);
                for (unsigned k = 0; k < diag.n; k++)
                        found |= strcmp(diag.msg[k], expected) == 0;
                ck_assert_msg(found, "not said: %s", expected);
        }
}
END_TEST

/* A FIFO in the config file's place is refused at once, not waited on (the
 * test's timeout fails it if the read blocks). */
START_TEST(test_main_is_fifo)
{
        struct bl_conf_files files;
        char expected[BL_DIAG_LEN];

        ck_assert_int_eq(mkfifo(in_tmp("fifo.conf"), 0644), 0);
        ck_assert_int_eq(load("fifo.conf", false, &files), -EINVAL);
        ck_assert_uint_eq(diag.n, 1);
        snprintf(expected, sizeof(expected), "%s/fifo.conf: not a regular file (FIFO)", tmpdir);
        ck_assert_diag(0, expected);
        ck_assert_uint_eq(files.n, 0);
}
END_TEST

/* "--config /dev/null" is the defaults, as for other programs. */
START_TEST(test_main_is_dev_null)
{
        struct bl_conf_files files;

        ck_assert_int_eq(conf_files_load(&cfg, test_table, "/dev/null", false, &files, &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_uint_eq(files.n, 1);
}
END_TEST

START_TEST(test_main_is_directory)
{
        struct bl_conf_files files;
        char expected[BL_DIAG_LEN];

        make_dir("dir.conf");
        ck_assert_int_eq(load("dir.conf", true, &files), -EISDIR);
        snprintf(expected, sizeof(expected), "%s/dir.conf: not a regular file (directory)", tmpdir);
        ck_assert_diag(0, expected);
}
END_TEST

START_TEST(test_unreadable_dropin)
{
        struct bl_conf_files files;
        char expected[BL_DIAG_LEN];
        int fd;

        write_text("main.conf", "[daemon]\nmode = mp\n");
        make_dir("main.conf.d");
        write_text("main.conf.d/a.conf", "[daemon]\nbackend = dryrun\n");
        /* Tests may run as root, where permissions do not stop reading: a
         * file too big for a config file fails to read for everyone. */
        fd = open(in_tmp("main.conf.d/b.conf"), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(ftruncate(fd, 5 << 20), 0);
        close(fd);

        ck_assert_int_eq(load("main.conf", false, &files), -EFBIG);
        ck_assert_uint_eq(files.n, 2);
        ck_assert_uint_eq(diag.n, 1);
        snprintf(expected, sizeof(expected), "%s/main.conf.d/b.conf: cannot read: File too large", tmpdir);
        ck_assert_diag(0, expected);
}
END_TEST

/* The shipped file documents every key at its default: parsing it must
 * give exactly what config_init() gives. */
START_TEST(test_shipped_config)
{
        struct bl_config def;
        struct bl_conf_files files;
        int r;

        config_init(&def, policy_builtin);
        config_init(&cfg, policy_builtin);
        r = conf_files_load(&cfg, policy_builtin, TEST_DATA_DIR "/../../conf/bigLittle.conf", false, &files,
                            &diag);
        for (unsigned i = 0; i < diag.n; i++)
                fprintf(stderr, "%s\n", diag.msg[i]);
        ck_assert_int_eq(r, 0);
        ck_assert_uint_eq(files.n, 1);

        ck_assert_int_eq(cfg.mode, def.mode);
        ck_assert_int_eq(cfg.backend, def.backend);
        ck_assert_uint_eq(cfg.sample_interval_ms, def.sample_interval_ms);
        ck_assert_uint_eq(cfg.idle_sample_interval_ms, def.idle_sample_interval_ms);
        ck_assert_int_eq(cfg.log_level, def.log_level);
        ck_assert_int_eq(cfg.auto_mode, def.auto_mode);
        ck_assert_str_eq(cfg.plugin_dir, def.plugin_dir);
        ck_assert_str_eq(cfg.energy_model, def.energy_model);
        ck_assert_uint_eq(cfg.nheuristics, def.nheuristics);
        for (unsigned i = 0; i < def.nheuristics; i++) {
                ck_assert_str_eq(cfg.heuristics[i].name, def.heuristics[i].name);
                ck_assert_ptr_eq(cfg.heuristics[i].ops, def.heuristics[i].ops);
                ck_assert_double_eq(cfg.heuristics[i].weight, def.heuristics[i].weight);
                for (unsigned p = 0; p < BL_POLICY_MAX_PARAMS; p++)
                        ck_assert_double_eq(cfg.heuristics[i].params[p], def.heuristics[i].params[p]);
        }
        ck_assert_uint_eq(cfg.nknown, def.nknown);
        for (unsigned i = 0; i < def.nknown; i++) {
                ck_assert_ptr_eq(cfg.known[i].ops, def.known[i].ops);
                ck_assert_double_eq(cfg.known[i].weight, def.known[i].weight);
                for (unsigned p = 0; p < BL_POLICY_MAX_PARAMS; p++)
                        ck_assert_double_eq(cfg.known[i].params[p], def.known[i].params[p]);
        }
        ck_assert_int_eq(cfg.combine, def.combine);
        ck_assert_uint_eq(cfg.up_threshold, def.up_threshold);
        ck_assert_uint_eq(cfg.down_threshold, def.down_threshold);
        ck_assert_uint_eq(cfg.up_delay_ms, def.up_delay_ms);
        ck_assert_uint_eq(cfg.down_delay_ms, def.down_delay_ms);
        ck_assert_uint_eq(cfg.min_residency_ms, def.min_residency_ms);
        ck_assert_uint_eq(cfg.max_switch_rate_hz, def.max_switch_rate_hz);
        ck_assert_int_eq(cfg.zones_auto, def.zones_auto);
        ck_assert_uint_eq(cfg.nzones, def.nzones);
        ck_assert_int_eq(cfg.cap_temp_mc, def.cap_temp_mc);
        ck_assert_int_eq(cfg.release_temp_mc, def.release_temp_mc);
        ck_assert_int_eq(cfg.critical_temp_mc, def.critical_temp_mc);
        ck_assert_int_eq(cfg.holds_allow_users, def.holds_allow_users);
        ck_assert_uint_eq(cfg.holds_max_duration_s, def.holds_max_duration_s);
        ck_assert_int_eq(cfg.hold_precedence, def.hold_precedence);
        for (unsigned i = 0; i < BL_PROFILE_NSECTIONS; i++) {
                ck_assert_int_eq(cfg.profiles[i].action, def.profiles[i].action);
                ck_assert_int_eq(cfg.profiles[i].bias_pct, def.profiles[i].bias_pct);
                ck_assert_str_eq(cfg.profiles[i].cap, def.profiles[i].cap);
                /* and written out, not left to the default */
                ck_assert_msg(cfg.profiles[i].line > 0, "[profile.%s] is missing from the shipped file",
                              profile_section_name(i));
        }
        ck_assert_uint_eq(cfg.ncpuset_groups, def.ncpuset_groups);
        for (unsigned i = 0; i < def.ncpuset_groups; i++)
                ck_assert_str_eq(cfg.cpuset_groups[i], def.cpuset_groups[i]);
        ck_assert_int_eq(cfg.cpuset_manager, def.cpuset_manager);

        /* Every key is present in the file, not just left at its default. */
        for (unsigned k = 0; k < BL_CONFIG_NKEYS; k++)
                ck_assert_msg(cfg.origin[k].line > 0, "key %u is missing from the shipped file", k);
}
END_TEST

static Suite *config_suite(void)
{
        Suite *s = suite_create("config");
        TCase *tc;

        tc = tcase_create("values");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, test_defaults);
        tcase_add_test(tc, test_default_heuristic_missing);
        tcase_add_test(tc, test_all_keys);
        tcase_add_loop_test(tc, test_good_value, 0, sizeof(good_values) / sizeof(good_values[0]));
        tcase_add_loop_test(tc, test_bad_value, 0, sizeof(bad_values) / sizeof(bad_values[0]));
        tcase_add_test(tc, test_later_wins);
        tcase_add_test(tc, test_energy_model_values);
        tcase_add_test(tc, test_to_string);
        suite_add_tcase(s, tc);

        tc = tcase_create("syntax");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, test_unknown_section);
        tcase_add_test(tc, test_unknown_key);
        tcase_add_test(tc, test_key_outside_section);
        tcase_add_test(tc, test_section_per_file);
        tcase_add_test(tc, test_syntax_errors);
        tcase_add_test(tc, test_long_line);
        tcase_add_test(tc, test_line_length_limit);
        tcase_add_test(tc, test_long_comments);
        tcase_add_test(tc, test_key_set_twice);
        tcase_add_test(tc, test_unknown_key_hints);
        tcase_add_test(tc, test_long_section_header);
        tcase_add_test(tc, test_nul_byte);
        tcase_add_test(tc, test_many_errors);
        tcase_add_test(tc, test_indentation);
        tcase_add_test(tc, test_comments);
        tcase_add_test(tc, test_empty_text);
        suite_add_tcase(s, tc);

        tc = tcase_create("validate");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, test_cross_thresholds);
        tcase_add_test(tc, test_cross_thresholds_reversed);
        tcase_add_test(tc, test_cross_thresholds_default);
        tcase_add_test(tc, test_cross_both_defaults);
        tcase_add_loop_test(tc, test_cross_intervals, 0, sizeof(interval_cases) / sizeof(interval_cases[0]));
        tcase_add_test(tc, test_cross_intervals_off);
        tcase_add_test(tc, test_cross_across_files);
        tcase_add_test(tc, test_cross_temperatures);
        tcase_add_test(tc, test_cross_temperatures_auto);
        tcase_add_test(tc, test_temperature_auto);
        tcase_add_test(tc, test_errors_file);
        suite_add_tcase(s, tc);

        tc = tcase_create("policy");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, test_policy_unknown_heuristic);
        tcase_add_test(tc, test_heuristic_params);
        tcase_add_loop_test(tc, test_bad_param, 0, sizeof(bad_params) / sizeof(bad_params[0]));
        tcase_add_test(tc, test_heuristic_unknown_key);
        tcase_add_test(tc, test_weight);
        tcase_add_test(tc, test_heuristic_settings_across_files);
        tcase_add_test(tc, test_heuristics_list);
        tcase_add_loop_test(tc, test_bad_heuristics, 0, sizeof(bad_heuristics) / sizeof(bad_heuristics[0]));
        tcase_add_test(tc, test_too_many_heuristics);
        tcase_add_test(tc, test_zones);
        tcase_add_loop_test(tc, test_bad_zones, 0, sizeof(bad_zones) / sizeof(bad_zones[0]));
        tcase_add_test(tc, test_cpuset);
        tcase_add_loop_test(tc, test_bad_groups, 0, sizeof(bad_groups) / sizeof(bad_groups[0]));
        tcase_add_test(tc, test_bad_cpuset_keys);
        tcase_add_test(tc, test_zone_limits);
        suite_add_tcase(s, tc);

        tc = tcase_create("files");
        tcase_add_checked_fixture(tc, files_setup, files_teardown);
        tcase_add_test(tc, test_dropins);
        tcase_add_test(tc, test_dropin_errors_counted);
        tcase_add_test(tc, test_missing_optional);
        tcase_add_test(tc, test_missing_explicit);
        tcase_add_test(tc, test_main_is_directory);
        tcase_add_test(tc, test_main_is_fifo);
        tcase_add_test(tc, test_main_is_dev_null);
        tcase_add_test(tc, test_dropins_skipped_are_said);
        tcase_add_test(tc, test_unreadable_dropin);
        tcase_add_test(tc, test_shipped_config);
        suite_add_tcase(s, tc);

        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(config_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
