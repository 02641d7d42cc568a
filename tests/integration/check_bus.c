/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * org.bigLittle.Switch1 end to end, its status: the properties and
 * Describe(), History() and the signals of switches the load made, the
 * arguments refused, Reload(), pair mode, and switchctl against the real
 * daemon. The holds, authorization, hostile callers, slow switches and the
 * energy model have check_bus_*.c of their own; what they share is in
 * bus-test.c.
 */
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/integration/bus-test.h"
#include "tests/integration/json-reader.h"

static char *describe(sd_bus *b)
{
        sd_bus_message *reply = call_ok(b, BUS_IFACE, "Describe", NULL);
        const char *text;
        char *copy;

        ck_assert_int_ge(sd_bus_message_read(reply, "s", &text), 0);
        copy = strdup(text);
        sd_bus_message_unref(reply);
        ck_assert_ptr_nonnull(copy);
        return copy;
}

/* The initial level took CPUs 4-7 offline: one switch of 4 CPUs measured,
 * its time in the estimate; the kernel settled after it, within the
 * window's bound; no level found unreachable; no idle wake on a test board. */
static void assert_cost_properties(void)
{
        sd_bus_message *reply;
        double fixed, per_cpu, last, longest;
        uint64_t settle_last, settle_mean, settle_max, discounted;
        uint32_t measured, last_cpus, windows, bounded;
        const char *level, *why;
        uint64_t wakes, paced;

        reply = get_struct("SwitchCost", "ddudud");
        ck_assert_int_gt(sd_bus_message_read(reply, "ddudud", &fixed, &per_cpu, &measured, &last, &last_cpus,
                                             &longest), 0);
        sd_bus_message_unref(reply);
        ck_assert_uint_eq(measured, 1);
        ck_assert_uint_eq(last_cpus, 4);
        /* a fake kernel: more than nothing, far less than a second */
        ck_assert_msg(last > 0 && last < 1e6, "last switch %g us", last);
        ck_assert_double_eq_tol(longest, last, 1e-9);
        /* one size measured: the mean, split as the hotplug prior splits it */
        ck_assert_double_eq_tol(fixed + 4 * per_cpu, last, 1e-6);
        ck_assert_double_eq_tol(per_cpu / fixed, 30000.0 / 5000.0, 1e-6);

        reply = get_struct("Settle", "tttuut");
        ck_assert_int_gt(sd_bus_message_read(reply, "tttuut", &settle_last, &settle_mean, &settle_max,
                                             &windows, &bounded, &discounted), 0);
        sd_bus_message_unref(reply);
        ck_assert_uint_eq(windows, 1);
        ck_assert_uint_le(bounded, 1);
        ck_assert_uint_le(settle_last, 10 * SEC);
        ck_assert_uint_eq(settle_max, settle_last);
        ck_assert_uint_eq(settle_mean, settle_last);

        reply = get_container("Unreachable", "a", "(ss)");
        ck_assert_int_eq(sd_bus_message_read(reply, "(ss)", &level, &why), 0);
        sd_bus_message_unref(reply);

        /* A test board: no idle wake, and it says why. */
        reply = get_struct("IdleWake", "stt");
        ck_assert_int_gt(sd_bus_message_read(reply, "stt", &level, &wakes, &paced), 0);
        ck_assert_str_eq(level, "off: a test board's CPUs are not this machine's");
        ck_assert_uint_eq(wakes, 0);
        ck_assert_uint_eq(paced, 0);
        sd_bus_message_unref(reply);
}

START_TEST(test_properties)
{
        static const char *const expected[][2] = {
                { "Mode", "s" },
                { "ModeReason", "s" },
                { "Level", "s" },
                { "TargetLevel", "s" },
                { "Levels", "as" },
                { "Demand", "d" },
                { "UpThreshold", "d" },
                { "DownThreshold", "d" },
                { "Scores", "a{sd}" },
                { "Temperature", "i" },
                { "ThermalState", "s" },
                { "ThermalLimits", "a(siss)" },
                { "Holds", "a(usuisssttb)" },
                { "WinningHold", "(us)" },
                { "PowerProfile", "s" },
                { "PowerProfileSource", "s" },
                { "OnBattery", "s" },
                { "ProfileAdjustment", "s" },
                { "Backend", "s" },
                { "Topology", "s" },
                { "EnergyModel", "s" },
                { "Switches", "t" },
                { "TimeInLevel", "a{st}" },
                { "LastReason", "s" },
                { "ConfigFiles", "as" },
                { "SwitchCost", "(ddudud)" },
                { "Settle", "(tttuut)" },
                { "Unreachable", "a(ss)" },
                { "IdleWake", "(stt)" },
        };
        const unsigned nexpected = sizeof(expected) / sizeof(expected[0]);
        bool found[sizeof(expected) / sizeof(expected[0])] = { false };
        sd_bus_message *reply = NULL;
        const char *name, *contents, *config, *s1, *s2;
        char **strv = NULL;
        uint64_t t, little = 0, big = UINT64_MAX, switches = 1;
        int32_t temp = 0;
        double score;
        unsigned nscores = 0;
        int r;

        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        harness_start_bus(NULL);
        config = write_config("bigLittle.conf", HARNESS_PELT_NO_BREAK_EVEN_CONFIG);
        start_daemon(config);
        ck_assert_int_eq(fakeboard_run_for(fb, 200), 0);

        /* GetAll has every property, each with its signature. */
        reply = call_ok(bus, "org.freedesktop.DBus.Properties", "GetAll", "s", BUS_IFACE);
        ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', "{sv}"), 0);
        while ((r = sd_bus_message_enter_container(reply, 'e', "sv")) > 0) {
                unsigned i;

                ck_assert_int_ge(sd_bus_message_read(reply, "s", &name), 0);
                ck_assert_int_ge(sd_bus_message_peek_type(reply, NULL, &contents), 0);
                for (i = 0; i < nexpected; i++)
                        if (strcmp(expected[i][0], name) == 0)
                                break;
                ck_assert_msg(i < nexpected, "unexpected property %s", name);
                ck_assert_msg(strcmp(expected[i][1], contents) == 0, "%s has signature %s, not %s", name,
                              contents, expected[i][1]);
                found[i] = true;
                ck_assert_int_ge(sd_bus_message_skip(reply, "v"), 0);
                ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
        }
        ck_assert_int_eq(r, 0);
        sd_bus_message_unref(reply);
        for (unsigned i = 0; i < nexpected; i++)
                ck_assert_msg(found[i], "GetAll lacks %s", expected[i][0]);

        assert_property("Mode", "cluster");
        s1 = get_string("ModeReason");
        ck_assert_msg(strstr(s1, "auto"), "ModeReason: %s", s1);
        free((char *)s1);
        assert_property("Level", "little");
        assert_property("TargetLevel", "little");
        assert_property("ThermalState", "normal");
        assert_property("Backend", "hotplug");
        assert_property("Topology", "cpufreq related_cpus + cpu_capacity");
        /* the fake board has no debugfs, and energy_model is left at auto */
        assert_property("EnergyModel", "none (no debugfs energy model; set energy_model=)");
        assert_property("LastReason", "");

        ck_assert_int_ge(sd_bus_get_property_strv(bus, BUS_NAME, BUS_PATH, BUS_IFACE, "Levels", NULL, &strv),
                         0);
        ck_assert_ptr_nonnull(strv[0]);
        ck_assert_str_eq(strv[0], "little");
        ck_assert_ptr_nonnull(strv[1]);
        ck_assert_str_eq(strv[1], "big");
        ck_assert_ptr_null(strv[2]);
        for (char **p = strv; *p; p++)
                free(*p);
        free(strv);
        ck_assert_int_ge(
                sd_bus_get_property_strv(bus, BUS_NAME, BUS_PATH, BUS_IFACE, "ConfigFiles", NULL, &strv), 0);
        ck_assert_ptr_nonnull(strv[0]);
        ck_assert_str_eq(strv[0], config);
        ck_assert_ptr_null(strv[1]);
        free(strv[0]);
        free(strv);

        /* Thresholds from the current level: up at 80% of little's 377,
         * nothing below little. */
        ck_assert_double_eq_tol(get_double("UpThreshold"), 301.6, 1e-9);
        ck_assert_double_eq_tol(get_double("DownThreshold"), 0.0, 1e-9);
        ck_assert(get_double("Demand") >= 0.0 && get_double("Demand") < 200.0);

        reply = get_container("Scores", "a", "{sd}");
        while (sd_bus_message_read(reply, "{sd}", &s2, &score) > 0) {
                ck_assert_msg(isfinite(score) && score >= 0.0, "score of %s: %g", s2, score);
                nscores++;
        }
        sd_bus_message_unref(reply);
        ck_assert_uint_ge(nscores, 1);

        get_trivial("Switches", 't', &switches);
        ck_assert_uint_eq(switches, 0);

        /* The hottest watched zone, as the last tick read it. */
        ck_assert_int_eq(fakeboard_set_temp(fb, 1, 61500), 0);
        ck_assert_int_eq(fakeboard_run_for(fb, 200), 0);
        get_trivial("Temperature", 'i', &temp);
        ck_assert_int_eq(temp, 61500);

        /* Limits from the board's trips: passive 70 °C, hot 85 °C. */
        reply = get_container("ThermalLimits", "a", "(siss)");
        ck_assert_int_gt(sd_bus_message_read(reply, "(siss)", &s1, &temp, &s2, &name), 0);
        ck_assert_str_eq(s1, "cap");
        ck_assert_int_eq(temp, 65000);
        ck_assert_str_eq(s2, "trip");
        ck_assert_str_eq(name, "thermal_zone0 cpu0-thermal passive trip 70.0 °C − 5");
        ck_assert_int_gt(sd_bus_message_read(reply, "(siss)", &s1, &temp, &s2, &name), 0);
        ck_assert_str_eq(s1, "release");
        ck_assert_int_eq(temp, 60000);
        ck_assert_int_gt(sd_bus_message_read(reply, "(siss)", &s1, &temp, &s2, &name), 0);
        ck_assert_str_eq(s1, "critical");
        ck_assert_int_eq(temp, 80000);
        ck_assert_str_eq(name, "thermal_zone0 cpu0-thermal hot trip 85.0 °C − 5");
        ck_assert_int_eq(sd_bus_message_read(reply, "(siss)", &s1, &temp, &s2, &name), 0);
        sd_bus_message_unref(reply);

        /* Time at little grows while it runs; none at big. */
        reply = get_container("TimeInLevel", "a", "{st}");
        while (sd_bus_message_read(reply, "{st}", &s2, &t) > 0) {
                if (strcmp(s2, "little") == 0)
                        little = t;
                else if (strcmp(s2, "big") == 0)
                        big = t;
        }
        sd_bus_message_unref(reply);
        ck_assert_msg(little >= 300000 && little < 60 * SEC, "time at little %" PRIu64 " us", little);
        ck_assert_uint_eq(big, 0);
        ck_assert_uint_eq(count_holds(), 0);
        assert_cost_properties();
}
END_TEST

START_TEST(test_describe_json)
{
        static const char reason[] = "say \"hi\" \\ caf\xc3\xa9 / {not json}";
        char *text, path[64];
        uint32_t id;

        start_idle(NULL);
        text = describe(bus);
        ck_assert_msg(json_valid(text), "not JSON: %s", text);
        ck_assert_str_eq(json_get_string(text, "mode"), "cluster");
        ck_assert_str_eq(json_get_string(text, "level"), "little");
        ck_assert_str_eq(json_get_string(text, "target_level"), "little");
        ck_assert_str_eq(json_get_string(text, "levels.0"), "little");
        ck_assert_str_eq(json_get_string(text, "levels.1"), "big");
        ck_assert_ptr_null(json_get(text, "levels.2"));
        ck_assert_str_eq(json_get_string(text, "backend"), "hotplug");
        ck_assert_str_eq(json_get_string(text, "topology"), "cpufreq related_cpus + cpu_capacity");
        ck_assert_str_eq(json_get_string(text, "thermal.state"), "normal");
        ck_assert_double_eq_tol(json_get_number(text, "thermal.temperature_mc"), 47000, 1e-9);
        ck_assert_double_eq_tol(json_get_number(text, "thermal_limits.cap_mc"), 65000, 1e-9);
        ck_assert_str_eq(json_get_string(text, "thermal_limits.cap_source"), "trip");
        ck_assert_str_eq(json_get_string(text, "thermal_limits.cap_origin"),
                         "thermal_zone0 cpu0-thermal passive trip 70.0 °C − 5");
        ck_assert_double_eq_tol(json_get_number(text, "thermal_limits.release_mc"), 60000, 1e-9);
        ck_assert_str_eq(json_get_string(text, "thermal_limits.release_origin"), "cap 65.0 °C − 5");
        ck_assert_double_eq_tol(json_get_number(text, "thermal_limits.critical_mc"), 80000, 1e-9);
        ck_assert_str_eq(json_get_string(text, "thermal_limits.critical_source"), "trip");
        ck_assert_double_eq_tol(json_get_number(text, "thresholds.up"), 301.6, 1e-9);
        /* At the lowest level there is no way down: null, not 0. */
        ck_assert_int_eq(strncmp(json_get(text, "thresholds.down"), "null", 4), 0);
        ck_assert_double_eq_tol(json_get_number(text, "switches"), 0, 1e-9);
        ck_assert(json_get_number(text, "demand") >= 0);
        ck_assert(json_get_number(text, "time_in_level_usec.little") > 0);
        ck_assert_double_eq_tol(json_get_number(text, "time_in_level_usec.big"), 0, 1e-9);
        ck_assert_str_eq(json_get_string(text, "last_reason"), "");
        ck_assert_ptr_nonnull(json_get(text, "config_files.0"));
        ck_assert_ptr_nonnull(json_get(text, "scores"));
        ck_assert(*json_get(text, "scores") == '{');
        ck_assert(*json_get(text, "holds") == '[');
        ck_assert_ptr_null(json_get(text, "holds.0"));
        free(text);

        /* A hold with characters JSON must escape. */
        id = hold_ok(bus, "big", 600 * SEC, reason, 1);
        text = describe(bus);
        ck_assert_msg(json_valid(text), "not JSON: %s", text);
        ck_assert_msg(strstr(text, "say \\\"hi\\\" \\\\ caf\xc3\xa9 / {not json}"),
                      "reason escaped wrongly: %s", text);
        ck_assert_str_eq(json_get_string(text, "level"), "big");
        ck_assert_double_eq_tol(json_get_number(text, "holds.0.id"), id, 1e-9);
        ck_assert_str_eq(json_get_string(text, "holds.0.level"), "big");
        ck_assert_double_eq_tol(json_get_number(text, "holds.0.uid"), 0, 1e-9);
        ck_assert_double_eq_tol(json_get_number(text, "holds.0.pid"), getpid(), 1e-9);
        ck_assert_ptr_nonnull(json_get(text, "holds.0.unit"));
        ck_assert_str_eq(json_get_string(text, "holds.0.reason"), reason);
        ck_assert(*json_get(text, "holds.0.persist") == 't');
        ck_assert(json_get_number(text, "holds.0.until_wall_usec") -
                          json_get_number(text, "holds.0.since_wall_usec") ==
                  600.0 * SEC);
        ck_assert_ptr_null(json_get(text, "holds.1"));
        snprintf(path, sizeof(path), "holds.0.since_wall_usec");
        ck_assert(fabs(json_get_number(text, path) - (double)wall_now()) < 60.0 * SEC);
        free(text);
}
END_TEST

/* History after switches the load made: oldest first, with reasons and
 * both clocks. */
START_TEST(test_history_and_switched_by_load)
{
        sd_bus_message *reply = NULL;
        uint64_t wall0 = wall_now(), mono0 = mono_now(), when_wall, when_mono;
        const char *from, *to, *reason;
        unsigned want = 2, n = 0;
        uint64_t switches = 0;
        int r;

        start_idle(NULL);
        ck_assert_int_eq(fakeboard_set_load(fb, heavy_load, 2), 0);
        expect_online("0,4-7", UP_DELAY_MS + SWITCH_BOUND_MS);
        expect_changed("TargetLevel");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        expect_online("0-3", DOWN_DELAY_MS + SWITCH_BOUND_MS);
        ck_assert_int_eq(fakeboard_run(fb, SWITCH_BOUND_MS, switched_seen, &want), 1);
        ck_assert_str_eq(seen.from[0], "little");
        ck_assert_str_eq(seen.to[0], "big");
        ck_assert_str_eq(seen.from[1], "big");
        ck_assert_str_eq(seen.to[1], "little");
        ck_assert_msg(strstr(seen.reason[0], "demand"), "reason: %s", seen.reason[0]);
        get_trivial("Switches", 't', &switches);
        ck_assert_uint_eq(switches, 2);

        /* n = 0: all kept, oldest first. */
        reply = call_ok(bus, BUS_IFACE, "History", "u", 0);
        ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', "(ttsss)"), 0);
        while (sd_bus_message_read(reply, "(ttsss)", &when_wall, &when_mono, &from, &to, &reason) > 0) {
                ck_assert_uint_lt(n, 2);
                ck_assert_str_eq(from, seen.from[n]);
                ck_assert_str_eq(to, seen.to[n]);
                ck_assert_str_eq(reason, seen.reason[n]);
                ck_assert(when_wall >= wall0 && when_wall <= wall_now());
                ck_assert(when_mono >= mono0 && when_mono <= mono_now());
                n++;
        }
        sd_bus_message_unref(reply);
        ck_assert_uint_eq(n, 2);

        /* n = 1: the newest only. */
        reply = call_ok(bus, BUS_IFACE, "History", "u", 1);
        ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', "(ttsss)"), 0);
        r = sd_bus_message_read(reply, "(ttsss)", &when_wall, &when_mono, &from, &to, &reason);
        ck_assert_int_gt(r, 0);
        ck_assert_str_eq(from, "big");
        ck_assert_str_eq(to, "little");
        r = sd_bus_message_read(reply, "(ttsss)", &when_wall, &when_mono, &from, &to, &reason);
        ck_assert_int_eq(r, 0);
        sd_bus_message_unref(reply);
}
END_TEST

START_TEST(test_bad_arguments)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        char reason[300];
        uint32_t id;
        int r;

        start_idle(NULL);
        r = hold_with_flags(bus, "medium", 60 * SEC, "", 0, &id, &error);
        expect_error(r, &error, ERR("UnknownLevel"), "unknown level \"medium\"; the levels are: little, big");
        r = hold_with_flags(bus, "", 60 * SEC, "", 0, &id, &error);
        expect_error(r, &error, ERR("UnknownLevel"), NULL);
        r = hold_with_flags(bus, "big", 0, "", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidDuration"), "max_duration_s");
        r = hold_with_flags(bus, "big", 3600 * SEC + 1, "", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidDuration"),
                     "a hold of 3600000001us is out of range: at most 1h ([holds] max_duration_s = 3600)");
        r = hold_with_flags(bus, "big", 2 * 3600 * SEC, "", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidDuration"),
                     "a hold of 2h is out of range: at most 1h ([holds] max_duration_s = 3600)");
        r = hold_with_flags(bus, "big", UINT64_MAX, "", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidDuration"), NULL);

        memset(reason, 'x', 256);
        reason[256] = '\0';
        r = hold_with_flags(bus, "big", 60 * SEC, reason, 0, &id, &error);
        expect_error(r, &error, ERR("InvalidReason"), "256 bytes");
        r = hold_with_flags(bus, "big", 60 * SEC, "two\nlines", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidReason"), "control characters");
        r = hold_with_flags(bus, "big", 60 * SEC, "bell\a", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidReason"), NULL);
        r = hold_with_flags(bus, "big", 60 * SEC, "", 2, &id, &error);
        expect_error(r, &error, SD_BUS_ERROR_INVALID_ARGS, "unknown flags 0x2");
        r = call_u(bus, "Release", &error, NULL, "u", 4242);
        expect_error(r, &error, ERR("NoSuchHold"), "4242");
        ck_assert_uint_eq(count_holds(), 0);
        assert_property("Level", "little");

        /* The limits themselves are fine: 255 bytes, the maximum duration. */
        reason[255] = '\0';
        hold_ok(bus, "little", 3600 * SEC, reason, 0);
        /* One uid may have 8. */
        for (unsigned i = 1; i < 8; i++)
                hold_ok(bus, "little", 60 * SEC, "", 0);
        r = hold_with_flags(bus, "little", 60 * SEC, "", 0, &id, &error);
        expect_error(r, &error, ERR("TooManyHolds"), "8 holds");
        ck_assert_uint_eq(count_holds(), 8);

        /* ReleaseAll as root ends them all. */
        ck_assert_int_ge(call_u(bus, "ReleaseAll", &error, &id, ""), 0);
        ck_assert_uint_eq(id, 8);
        ck_assert_uint_eq(count_holds(), 0);
        ck_assert(fakeboard_running(fb));
}
END_TEST

START_TEST(test_reload)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        const char *config;
        unsigned applied;
        int r;

        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        harness_start_bus(NULL);
        config = write_config("bigLittle.conf", HARNESS_PELT_NO_BREAK_EVEN_CONFIG);
        start_daemon(config);

        r = call_u(bus, "Reload", &error, NULL, "");
        ck_assert_msg(r >= 0, "Reload: %s", error.message);
        applied = expect_line(0, "reload: applied", 1000);
        expect_changed("ConfigFiles");

        write_config("bigLittle.conf", "[hysteresis]\nup_threshold = 120\n");
        r = call_u(bus, "Reload", &error, NULL, "");
        ck_assert_msg(r < 0 && strcmp(error.message, "the configuration has errors, see the journal") == 0,
                      "Reload of a bad file: %s", r < 0 ? error.message : "succeeded");
        expect_error(r, &error, ERR("ReloadRefused"), NULL);
        expect_line(applied, "reload: refused", 1000);
        ck_assert(fakeboard_running(fb));
        ck_assert_double_eq_tol(get_double("UpThreshold"), 301.6, 1e-9);
}
END_TEST

/* Pair mode: one letter per pair; a hold names a level of the pair ladder. */
START_TEST(test_pair_mode)
{
        char *text;

        start_idle("[daemon]\nmode = pair\n");
        assert_property("Mode", "pair");
        assert_property("Level", "LLLL");
        assert_property("TargetLevel", "LLLL");
        hold_ok(bus, "big", 60 * SEC, "all pairs", 0);
        expect_property("Level", "BBBB", SWITCH_BOUND_MS);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        text = describe(bus);
        ck_assert_msg(json_valid(text), "%s", text);
        ck_assert_str_eq(json_get_string(text, "level"), "BBBB");
        ck_assert_str_eq(json_get_string(text, "levels.1"), "big");
        free(text);
}
END_TEST

/* The real client against the real daemon on the fake board: every verb
 * that talks to it, as a person would use them. */
START_TEST(test_switchctl_end_to_end)
{
        char out[8192];

        start_idle(NULL);
        expect_online("0-3", SWITCH_BOUND_MS);

        ck_assert_int_eq(switchctl("status", out, sizeof(out)), 0);
        ck_assert_msg(strstr(out, "Level: little") && strstr(out, "Holds: none"), "%s", out);
        ck_assert_int_eq(switchctl("status --json", out, sizeof(out)), 0);
        ck_assert_msg(strstr(out, "\"level\":\"little\"") && strstr(out, "\"levels\":[\"little\",\"big\"]"),
                      "%s", out);

        ck_assert_int_eq(switchctl("hold big --for 5min --reason 'e2e test' --persist", out, sizeof(out)), 0);
        ck_assert_msg(strtoul(out, NULL, 10) > 0, "hold printed: %s", out);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        ck_assert_int_eq(switchctl("status", out, sizeof(out)), 0);
        ck_assert_msg(strstr(out, "Level: big") && strstr(out, "e2e test"), "%s", out);
        ck_assert_int_eq(switchctl("history --no-pager", out, sizeof(out)), 0);
        ck_assert_msg(strstr(out, "little -> big") && strstr(out, "(e2e test): big"), "%s", out);
        ck_assert_int_eq(switchctl("stats", out, sizeof(out)), 0);
        ck_assert_msg(strstr(out, "big"), "%s", out);

        ck_assert_int_eq(switchctl("hold turbo", out, sizeof(out)), 64);
        ck_assert_msg(strstr(out, "unknown level \"turbo\""), "%s", out);

        ck_assert_int_eq(switchctl("release --all", out, sizeof(out)), 0);
        expect_online("0-3", SWITCH_BOUND_MS);
        ck_assert_int_eq(switchctl("reload", out, sizeof(out)), 0);
        ck_assert_int_eq(stop_daemon(SIGTERM), 0);
        ck_assert_int_eq(switchctl("status", out, sizeof(out)), 69);
        ck_assert_msg(strstr(out, "not running"), "%s", out);
}
END_TEST

static Suite *bus_suite(void)
{
        Suite *s = suite_create("bus");
        TCase *tc = tcase_create("service");

        tcase_add_checked_fixture(tc, bus_test_setup, bus_test_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_properties);
        tcase_add_test(tc, test_describe_json);
        tcase_add_test(tc, test_history_and_switched_by_load);
        tcase_add_test(tc, test_bad_arguments);
        tcase_add_test(tc, test_reload);
        tcase_add_test(tc, test_pair_mode);
        tcase_add_test(tc, test_switchctl_end_to_end);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(bus_suite(), "check-bus");
}
