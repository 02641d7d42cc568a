/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Following the desktop end to end: the real bigLittled on a fake board,
 * with fakes of power-profiles-daemon (both names) and UPower on a private
 * dbus-daemon (fake-desktop.c): services coming after the daemon and
 * before it, changing their minds, and leaving; what the level does about
 * it, and what switchctl status says. Timing as in bus-test.h.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "tests/integration/fake-desktop.h"
#include "tests/integration/harness.h"

#define BUS_NAME "org.bigLittle.Switch1"
#define BUS_PATH "/org/bigLittle/Switch1"
#define BUS_IFACE "org.bigLittle.Switch1"

#define UP_DELAY_MS 200
#define DOWN_DELAY_MS 300
#define SWITCH_BOUND_MS 2000
/* The reconnect waits 1 s, then 2 s, ...: the first try after the bus is back. */
#define RECONNECT_BOUND_MS 5000
/* Long enough for a move the profile should prevent to have happened. */
#define STAYS_MS 1000

#define LITTLE "0-3"
#define BIG "0,4-7"

static const unsigned idle_load[] = { 40 };
static const unsigned heavy_load[] = { 600, 600 };

static sd_bus *bus;

static void setup(void)
{
        harness_setup();
        bus = NULL;
}

static void teardown(void)
{
        if (bus)
                sd_bus_flush_close_unref(bus);
        bus = NULL;
        harness_teardown();
}

/* The board at 'load', a bus with the test's own connection in 'bus', and
 * the daemon's configuration with the sections 'extra'. */
static void start(const unsigned *load, unsigned n, const char *extra)
{
        char config[2048];

        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, load, n), 0);
        harness_start_bus(NULL);
        ck_assert_int_ge(sd_bus_open_system(&bus), 0);
        snprintf(config, sizeof(config), "%sbreak_even = no\n%s", HARNESS_PELT_CONFIG, extra);
        write_config("bigLittle.conf", config);
}

static void start_daemon(void)
{
        spawn_daemon(work_file("bigLittle.conf"), NULL);
        expect_line(0, "started: ", START_BOUND_MS);
}

static char *property(const char *name)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        char *value = NULL;
        int r = sd_bus_get_property_string(bus, BUS_NAME, BUS_PATH, BUS_IFACE, name, &error, &value);

        ck_assert_msg(r >= 0, "Get(%s): %s", name, error.message);
        sd_bus_error_free(&error);
        return value;
}

static void assert_property(const char *name, const char *want)
{
        char *value = property(name);

        ck_assert_msg(strcmp(value, want) == 0, "%s is \"%s\", not \"%s\"", name, value, want);
        free(value);
}

/* switchctl ARGS's output (and its exit status, which must be 0). */
static const char *switchctl(const char *args)
{
        static char out[8192];
        char cmd[1024];
        int status;

        /* A client that hangs fails the test with its output, not by timeout. */
        snprintf(cmd, sizeof(cmd), "timeout 20 %s %s", SWITCHCTL_PATH, args);
        status = harness_run(cmd, out, sizeof(out));
        ck_assert_msg(status == 0, "%s failed (%d):\n%s\nthe daemon said:%s", cmd, status, out, log_text());
        return out;
}

static void status_has(const char *line)
{
        const char *out = switchctl("status --no-pager");

        ck_assert_msg(strstr(out, line), "status lacks \"%s\":\n%s", line, out);
}

/* power-profiles-daemon appears after the daemon, changes profile and leaves. */
START_TEST(test_profile_after_daemon)
{
        struct fake_desktop ppd;
        unsigned at;

        start(heavy_load, 2, "[profile.performance]\nhold_top = yes\n");
        start_daemon();
        expect_online(BIG, UP_DELAY_MS + SWITCH_BOUND_MS);
        assert_property("PowerProfile", "");
        assert_property("ProfileAdjustment", "");
        ck_assert_ptr_null(strstr(switchctl("status --no-pager"), "Profile:"));

        /* power-saver caps the level at little, whatever the load. */
        fake_desktop_start(&ppd, FAKE_PPD, "power-saver");
        at = expect_line(0, "profile: power-saver (power-profiles-daemon) → cap little", SWITCH_BOUND_MS);
        expect_online(LITTLE, SWITCH_BOUND_MS);
        expect_online_stays(LITTLE, STAYS_MS);
        assert_property("PowerProfile", "power-saver");
        assert_property("PowerProfileSource", "power-profiles-daemon");
        status_has("Profile: power-saver (power-profiles-daemon) → cap little\n");
        ck_assert_msg(strstr(switchctl("status --json"),
                             "\"profile\":{\"power_profile\":\"power-saver\",\"power_profile_source\":"
                             "\"power-profiles-daemon\",\"on_battery\":null,\"adjustment\":"
                             "\"power-saver (power-profiles-daemon) → cap little\"}"),
                      "status --json: %s", switchctl("status --json"));
        ck_assert_msg(strstr(switchctl("history --no-pager"), "profile power-saver: highest level little"),
                      "history does not say why the level went down");

        /* Only the service itself speaks for it: the same signal from
         * another connection changes nothing. */
        ck_assert_int_ge(sd_bus_emit_signal(bus, "/org/freedesktop/UPower/PowerProfiles",
                                            "org.freedesktop.DBus.Properties", "PropertiesChanged", "sa{sv}as",
                                            "org.freedesktop.UPower.PowerProfiles", 1, "ActiveProfile", "s",
                                            "performance", 0),
                         0);
        ck_assert_int_ge(sd_bus_flush(bus), 0);
        expect_online_stays(LITTLE, STAYS_MS);
        ck_assert_uint_eq(count_lines(at, "profile: performance"), 0);

        /* balanced adjusts nothing: the load takes it up again. */
        fake_desktop_set(&ppd, "balanced");
        at = expect_line(at, "profile: balanced (power-profiles-daemon) → no change", SWITCH_BOUND_MS);
        expect_online(BIG, UP_DELAY_MS + SWITCH_BOUND_MS);

        /* performance holds the top level, idle or not. */
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        fake_desktop_set(&ppd, "performance");
        at = expect_line(at, "profile: performance (power-profiles-daemon) → hold big", SWITCH_BOUND_MS);
        expect_online_stays(BIG, DOWN_DELAY_MS + STAYS_MS);

        /* Gone: its adjustment ends with it, and idle goes down. */
        fake_desktop_stop(&ppd);
        expect_line(at, "desktop: power-profiles-daemon left the bus", SWITCH_BOUND_MS);
        expect_line(at, "profile: nothing to adjust", SWITCH_BOUND_MS);
        expect_online(LITTLE, DOWN_DELAY_MS + SWITCH_BOUND_MS);
        assert_property("PowerProfile", "");
        ck_assert_ptr_null(strstr(switchctl("status --no-pager"), "Profile:"));
}
END_TEST

/* UPower's OnBattery flips, and UPower leaves while on battery. */
START_TEST(test_battery_flips)
{
        struct fake_desktop upower;
        unsigned at;

        start(heavy_load, 2, "[profile.battery]\ncap = little\n");
        start_daemon();
        expect_online(BIG, UP_DELAY_MS + SWITCH_BOUND_MS);

        fake_desktop_start(&upower, FAKE_UPOWER, "no");
        at = expect_line(0, "desktop: UPower is on the bus", SWITCH_BOUND_MS);
        expect_online_stays(BIG, STAYS_MS);
        assert_property("OnBattery", "no");
        ck_assert_uint_eq(count_lines(0, "profile: "), 0);

        fake_desktop_set(&upower, "yes");
        at = expect_line(at, "profile: on battery (UPower) → cap little", SWITCH_BOUND_MS);
        expect_online(LITTLE, SWITCH_BOUND_MS);
        assert_property("OnBattery", "yes");
        status_has("Profile: on battery (UPower) → cap little\n");

        fake_desktop_set(&upower, "no");
        at = expect_line(at, "profile: nothing to adjust", SWITCH_BOUND_MS);
        expect_online(BIG, UP_DELAY_MS + SWITCH_BOUND_MS);

        fake_desktop_set(&upower, "yes");
        at = expect_line(at, "profile: on battery (UPower) → cap little", SWITCH_BOUND_MS);
        expect_online(LITTLE, SWITCH_BOUND_MS);
        fake_desktop_stop(&upower);
        expect_line(at, "desktop: UPower left the bus", SWITCH_BOUND_MS);
        expect_online(BIG, UP_DELAY_MS + SWITCH_BOUND_MS);
        assert_property("OnBattery", "");
}
END_TEST

/* The older name, there before the daemon: its profile is read at start;
 * the current name, once it comes, speaks instead. */
START_TEST(test_old_name_before_daemon)
{
        struct fake_desktop old, ppd;
        unsigned at;

        start(heavy_load, 2, "");
        fake_desktop_start(&old, FAKE_PPD_OLD, "power-saver");
        start_daemon();
        at = expect_line(0, "profile: power-saver (net.hadess.PowerProfiles) → cap little", SWITCH_BOUND_MS);
        expect_online_stays(LITTLE, UP_DELAY_MS + STAYS_MS);
        assert_property("PowerProfileSource", "net.hadess.PowerProfiles");
        status_has("Profile: power-saver (net.hadess.PowerProfiles) → cap little\n");

        fake_desktop_start(&ppd, FAKE_PPD, "balanced");
        at = expect_line(at, "profile: balanced (power-profiles-daemon) → no change", SWITCH_BOUND_MS);
        expect_online(BIG, UP_DELAY_MS + SWITCH_BOUND_MS);
        fake_desktop_stop(&ppd);
        expect_line(at, "profile: power-saver (net.hadess.PowerProfiles) → cap little", SWITCH_BOUND_MS);
        expect_online(LITTLE, SWITCH_BOUND_MS);
        fake_desktop_stop(&old);
}
END_TEST

/* One process under both names, as power-profiles-daemon from 0.20: when
 * it leaves, what it said under its older name is not taken for its last
 * word while the second signal is on its way. */
START_TEST(test_both_names_leave_together)
{
        struct fake_desktop ppd;
        unsigned at;

        start(heavy_load, 2, "");
        start_daemon();
        fake_desktop_start(&ppd, FAKE_PPD_BOTH, "power-saver");
        at = expect_line(0, "profile: power-saver (power-profiles-daemon) → cap little", SWITCH_BOUND_MS);
        expect_online(LITTLE, SWITCH_BOUND_MS);
        fake_desktop_set(&ppd, "performance");
        at = expect_line(at, "profile: performance (power-profiles-daemon) → no change", SWITCH_BOUND_MS);
        fake_desktop_stop(&ppd);
        expect_line(at, "profile: nothing to adjust", SWITCH_BOUND_MS);
        expect_line(at, "desktop: net.hadess.PowerProfiles left the bus", SWITCH_BOUND_MS);
        ck_assert_uint_eq(count_lines(at, "(net.hadess.PowerProfiles) →"), 0);
}
END_TEST

/* The bus goes away and comes back: what the services said ends with it,
 * and once the daemon is connected again they are followed again. */
START_TEST(test_bus_comes_back)
{
        struct fake_desktop ppd;
        char address[PATH_MAX + 16];
        unsigned at;

        start(heavy_load, 2, "");
        /* Without the guid of this bus daemon: sd-bus refuses a bus whose
         * guid differs from the address's, and the next one's will. */
        snprintf(address, sizeof(address), "unix:path=%s", work_file("bus"));
        ck_assert_int_eq(setenv("DBUS_SYSTEM_BUS_ADDRESS", address, 1), 0);
        fake_desktop_start(&ppd, FAKE_PPD, "power-saver");
        start_daemon();
        at = expect_line(0, "profile: power-saver (power-profiles-daemon) → cap little", SWITCH_BOUND_MS);
        expect_online(LITTLE, SWITCH_BOUND_MS);

        sd_bus_flush_close_unref(bus);
        bus = NULL;
        harness_stop_bus();
        /* The bus daemon may tell of the fake's leaving before it goes. */
        expect_line(at, "profile: nothing to adjust", SWITCH_BOUND_MS);
        at = expect_line(at, "desktop: the connection to the system bus was lost", SWITCH_BOUND_MS);
        expect_online(BIG, UP_DELAY_MS + SWITCH_BOUND_MS);

        harness_start_bus(NULL);
        ck_assert_int_eq(setenv("DBUS_SYSTEM_BUS_ADDRESS", address, 1), 0);
        fake_desktop_start(&ppd, FAKE_PPD, "power-saver");
        at = expect_line(at, "desktop: connected to the system bus again", RECONNECT_BOUND_MS);
        expect_line(at, "profile: power-saver (power-profiles-daemon) → cap little", SWITCH_BOUND_MS);
        expect_online(LITTLE, SWITCH_BOUND_MS);
}
END_TEST

/* A person's hold wins over the profile's cap; of two holds, the
 * precedence configured decides, and status says which and why. */
START_TEST(test_holds_over_profile)
{
        struct fake_desktop ppd;

        start(idle_load, 1, "[holds]\nprecedence = lowest\n");
        fake_desktop_start(&ppd, FAKE_PPD, "power-saver");
        start_daemon();
        expect_line(0, "profile: power-saver (power-profiles-daemon) → cap little", SWITCH_BOUND_MS);

        switchctl("hold big --for 1min --reason benchmark --persist");
        expect_online(BIG, SWITCH_BOUND_MS);
        status_has("Profile: power-saver (power-profiles-daemon) → cap little (a hold wins over it)\n");
        switchctl("hold little --for 1min --reason quiet --persist");
        expect_online(LITTLE, SWITCH_BOUND_MS);
        status_has("Winning hold: 2 (lowest level of 2)\n");
        ck_assert_msg(strstr(switchctl("status --json"), "\"winning_hold\":{\"id\":2,\"why\":\"lowest level of 2\"}"),
                      "status --json: %s", switchctl("status --json"));
        switchctl("release 2");
        expect_online(BIG, SWITCH_BOUND_MS);
        switchctl("release 1");
        expect_online(LITTLE, SWITCH_BOUND_MS);
}
END_TEST

/* A cap naming no level is said with its file and line, and adjusts
 * nothing; a reload that fixes it applies at once. */
START_TEST(test_bad_cap_then_reload)
{
        struct fake_desktop ppd;
        char config[2048];
        unsigned at;

        start(heavy_load, 2, "[profile.power-saver]\ncap = mid\n");
        fake_desktop_start(&ppd, FAKE_PPD, "power-saver");
        start_daemon();
        /* HARNESS_PELT_CONFIG's 12 lines, break_even, the section: line 15. */
        expect_line(0, "bigLittle.conf:15: [profile.power-saver]: cap: expected a level (little, big), got \"mid\"",
                    SWITCH_BOUND_MS);
        at = expect_line(0, "profile: power-saver (power-profiles-daemon) → no change", SWITCH_BOUND_MS);
        expect_online(BIG, UP_DELAY_MS + SWITCH_BOUND_MS);

        snprintf(config, sizeof(config), "%sbreak_even = no\n[profile.power-saver]\ncap = little\n",
                 HARNESS_PELT_CONFIG);
        write_config("bigLittle.conf", config);
        switchctl("reload");
        expect_line(at, "profile: power-saver (power-profiles-daemon) → cap little", SWITCH_BOUND_MS);
        expect_online(LITTLE, SWITCH_BOUND_MS);
}
END_TEST

static Suite *desktop_suite(void)
{
        Suite *s = suite_create("desktop");
        TCase *tc = tcase_create("services");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_profile_after_daemon);
        tcase_add_test(tc, test_battery_flips);
        tcase_add_test(tc, test_old_name_before_daemon);
        tcase_add_test(tc, test_both_names_leave_together);
        tcase_add_test(tc, test_bus_comes_back);
        tcase_add_test(tc, test_holds_over_profile);
        tcase_add_test(tc, test_bad_cap_then_reload);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(desktop_suite(), "check-desktop");
}
