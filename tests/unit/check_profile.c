/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The desktop's profile model: the [profile.NAME] sections and what the
 * services' answers make of them, on a two-level ladder. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/profile.h"
#include "policy/builtin.h"

static struct bl_config cfg;
static struct bl_diag diag;
static struct bl_ladder ladder;

static void setup(void)
{
        config_init(&cfg, policy_builtin);
        diag_init(&diag);
        ladder = (struct bl_ladder){ .mode = BL_MODE_CLUSTER, .nlevels = 2 };
        snprintf(ladder.levels[0].name, sizeof(ladder.levels[0].name), "little");
        snprintf(ladder.levels[1].name, sizeof(ladder.levels[1].name), "big");
}

static unsigned parse(const char *text)
{
        return config_parse(&cfg, policy_builtin, "test.conf", text, strlen(text), &diag);
}

static bool diag_has(const char *text)
{
        for (unsigned i = 0; i < diag.n; i++)
                if (strstr(diag.msg[i], text))
                        return true;
        return false;
}

static void effect_of(enum bl_ppd_profile profile, const char *source, enum bl_battery battery,
                      struct bl_profile_effect *e)
{
        struct bl_desktop in = { .profile = profile, .battery = battery };

        snprintf(in.profile_source, sizeof(in.profile_source), "%s", source);
        profile_effect(cfg.profiles, &ladder, &in, e);
}

START_TEST(test_shipped_defaults)
{
        ck_assert_int_eq(cfg.profiles[BL_PROFILE_POWER_SAVER].action, BL_PROFILE_CAP);
        ck_assert_str_eq(cfg.profiles[BL_PROFILE_POWER_SAVER].cap, "little");
        ck_assert_int_eq(cfg.profiles[BL_PROFILE_BALANCED].action, BL_PROFILE_NOTHING);
        ck_assert_int_eq(cfg.profiles[BL_PROFILE_PERFORMANCE].action, BL_PROFILE_NOTHING);
        ck_assert_int_eq(cfg.profiles[BL_PROFILE_BATTERY].action, BL_PROFILE_BIAS);
        ck_assert_int_eq(cfg.profiles[BL_PROFILE_BATTERY].bias_pct, 10);
        ck_assert_int_eq(cfg.hold_precedence, BL_HOLD_NEWEST);
        ck_assert_uint_eq(profile_check(cfg.profiles, &ladder, &diag), 0);
}
END_TEST

START_TEST(test_sections_parse)
{
        ck_assert_uint_eq(parse("[profile.performance]\nhold_top = yes\n"
                                "[profile.battery]\ncap = none\n"
                                "[profile.balanced]\nbias_pct = -5\n"
                                "[holds]\nprecedence = lowest\n"),
                          0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_int_eq(cfg.profiles[BL_PROFILE_PERFORMANCE].action, BL_PROFILE_HOLD_TOP);
        ck_assert_uint_eq(cfg.profiles[BL_PROFILE_PERFORMANCE].line, 2);
        ck_assert_str_eq(cfg.profiles[BL_PROFILE_PERFORMANCE].file, "test.conf");
        ck_assert_int_eq(cfg.profiles[BL_PROFILE_BATTERY].action, BL_PROFILE_NOTHING);
        ck_assert_int_eq(cfg.profiles[BL_PROFILE_BALANCED].action, BL_PROFILE_BIAS);
        ck_assert_int_eq(cfg.profiles[BL_PROFILE_BALANCED].bias_pct, -5);
        ck_assert_int_eq(cfg.hold_precedence, BL_HOLD_LOWEST);
        /* untouched */
        ck_assert_int_eq(cfg.profiles[BL_PROFILE_POWER_SAVER].action, BL_PROFILE_CAP);
}
END_TEST

START_TEST(test_last_key_replaces)
{
        ck_assert_uint_eq(parse("[profile.power-saver]\nbias_pct = 20\ncap = big\n"), 0);
        ck_assert_int_eq(cfg.profiles[BL_PROFILE_POWER_SAVER].action, BL_PROFILE_CAP);
        ck_assert_str_eq(cfg.profiles[BL_PROFILE_POWER_SAVER].cap, "big");
        ck_assert(diag_has("test.conf:3: [profile.power-saver]: cap replaces bias_pct of line 2"));
        /* A drop-in replaces what the main file said, without a word. */
        diag_init(&diag);
        ck_assert_uint_eq(parse("[profile.power-saver]\nhold_top = no\n"), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_int_eq(cfg.profiles[BL_PROFILE_POWER_SAVER].action, BL_PROFILE_NOTHING);
}
END_TEST

START_TEST(test_bad_values)
{
        ck_assert_uint_eq(parse("[profile.battery]\nbias_pct = 60\ncap = two words\nhold_top = maybe\n"
                                "speed = 3\n[profile.turbo]\n[holds]\nprecedence = oldest\n"),
                          6);
        ck_assert(diag_has("test.conf:2: bias_pct: expected an integer -50 to 50"));
        ck_assert(diag_has("got \"60\""));
        ck_assert(diag_has("test.conf:3: cap: expected none or a level's name"));
        ck_assert(diag_has("test.conf:4: hold_top: expected no or yes, got \"maybe\""));
        ck_assert(diag_has("test.conf:5: [profile.battery]: unknown key \"speed\""));
        ck_assert(diag_has("test.conf:6: unknown section [profile.turbo]"));
        ck_assert(diag_has("test.conf:8: precedence: expected newest, lowest or highest, got \"oldest\""));
        /* bad values leave the defaults */
        ck_assert_int_eq(cfg.profiles[BL_PROFILE_BATTERY].bias_pct, 10);
        ck_assert_int_eq(cfg.hold_precedence, BL_HOLD_NEWEST);
}
END_TEST

START_TEST(test_cap_checked_against_ladder)
{
        struct bl_profile_effect e;

        ck_assert_uint_eq(parse("[profile.power-saver]\n\ncap = mid\n"), 0);
        ck_assert_uint_eq(profile_check(cfg.profiles, &ladder, &diag), 1);
        ck_assert(diag_has("test.conf:3: [profile.power-saver]: cap: expected a level (little, big), got \"mid\""));
        /* and adjusts nothing */
        effect_of(BL_PPD_POWER_SAVER, "power-profiles-daemon", BL_BATTERY_UNKNOWN, &e);
        ck_assert_int_eq(e.cap, -1);
        ck_assert_int_eq(e.bias_pct, 0);
        ck_assert_str_eq(e.what, "power-saver (power-profiles-daemon) → no change");
}
END_TEST

START_TEST(test_nothing_known_adjusts_nothing)
{
        const struct bl_profile_effect none = { .cap = -1 };
        struct bl_profile_effect e;

        effect_of(BL_PPD_UNKNOWN, "", BL_BATTERY_UNKNOWN, &e);
        ck_assert(profile_effect_same(&e, &none));
        ck_assert_str_eq(e.what, "");
        ck_assert_str_eq(e.who, "");
        /* On mains power the battery section does not apply either. */
        effect_of(BL_PPD_UNKNOWN, "", BL_BATTERY_NO, &e);
        ck_assert(profile_effect_same(&e, &none));
        ck_assert_str_eq(e.what, "");
}
END_TEST

START_TEST(test_profiles_map_to_sections)
{
        struct bl_profile_effect e;

        effect_of(BL_PPD_POWER_SAVER, "power-profiles-daemon", BL_BATTERY_NO, &e);
        ck_assert_int_eq(e.cap, 0);
        ck_assert_int_eq(e.bias_pct, 0);
        ck_assert(!e.hold_top);
        ck_assert_str_eq(e.what, "power-saver (power-profiles-daemon) → cap little");
        ck_assert_str_eq(e.who, "profile power-saver");

        effect_of(BL_PPD_BALANCED, "net.hadess.PowerProfiles", BL_BATTERY_YES, &e);
        ck_assert_int_eq(e.cap, -1);
        ck_assert_int_eq(e.bias_pct, 10);
        ck_assert_str_eq(e.what, "balanced (net.hadess.PowerProfiles) → no change; "
                                 "on battery (UPower) → bias +10% toward LITTLE");

        effect_of(BL_PPD_UNKNOWN, "", BL_BATTERY_YES, &e);
        ck_assert_int_eq(e.bias_pct, 10);
        ck_assert_str_eq(e.what, "on battery (UPower) → bias +10% toward LITTLE");
}
END_TEST

START_TEST(test_power_saving_wins)
{
        struct bl_profile_effect e;

        ck_assert_uint_eq(parse("[profile.performance]\nhold_top = yes\n"), 0);
        effect_of(BL_PPD_PERFORMANCE, "power-profiles-daemon", BL_BATTERY_NO, &e);
        ck_assert(e.hold_top);
        ck_assert_str_eq(e.who, "profile performance");
        ck_assert_str_eq(e.what, "performance (power-profiles-daemon) → hold big");

        effect_of(BL_PPD_PERFORMANCE, "power-profiles-daemon", BL_BATTERY_YES, &e);
        ck_assert(!e.hold_top);
        ck_assert_int_eq(e.bias_pct, 10);
        ck_assert_str_eq(e.what, "performance (power-profiles-daemon) → hold big (overruled: power saving wins); "
                                 "on battery (UPower) → bias +10% toward LITTLE");

        /* The lower cap and the larger bias. */
        ck_assert_uint_eq(parse("[profile.battery]\ncap = big\n[profile.power-saver]\ncap = little\n"), 0);
        effect_of(BL_PPD_POWER_SAVER, "power-profiles-daemon", BL_BATTERY_YES, &e);
        ck_assert_int_eq(e.cap, 0);
        ck_assert_str_eq(e.who, "profile power-saver");
        ck_assert_uint_eq(parse("[profile.battery]\nbias_pct = 5\n[profile.balanced]\nbias_pct = 15\n"), 0);
        effect_of(BL_PPD_BALANCED, "power-profiles-daemon", BL_BATTERY_YES, &e);
        ck_assert_int_eq(e.bias_pct, 15);
}
END_TEST

START_TEST(test_names)
{
        ck_assert_int_eq(ppd_profile_from_string("power-saver"), BL_PPD_POWER_SAVER);
        ck_assert_int_eq(ppd_profile_from_string("performance"), BL_PPD_PERFORMANCE);
        ck_assert_int_eq(ppd_profile_from_string("balanced"), BL_PPD_BALANCED);
        ck_assert_int_eq(ppd_profile_from_string("turbo"), BL_PPD_UNKNOWN);
        ck_assert_int_eq(ppd_profile_from_string(NULL), BL_PPD_UNKNOWN);
        ck_assert_str_eq(ppd_profile_to_string(BL_PPD_UNKNOWN), "");
        ck_assert_int_eq(profile_section_from_name("battery"), BL_PROFILE_BATTERY);
        ck_assert_int_eq(profile_section_from_name("turbo"), -1);
        ck_assert_str_eq(profile_section_name(BL_PROFILE_POWER_SAVER), "power-saver");
}
END_TEST

static Suite *profile_suite(void)
{
        Suite *s = suite_create("profile");
        TCase *tc = tcase_create("model");

        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, test_shipped_defaults);
        tcase_add_test(tc, test_sections_parse);
        tcase_add_test(tc, test_last_key_replaces);
        tcase_add_test(tc, test_bad_values);
        tcase_add_test(tc, test_cap_checked_against_ladder);
        tcase_add_test(tc, test_nothing_known_adjusts_nothing);
        tcase_add_test(tc, test_profiles_map_to_sections);
        tcase_add_test(tc, test_power_saving_wins);
        tcase_add_test(tc, test_names);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(profile_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
