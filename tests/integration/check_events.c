/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real bigLittled on a fake board, told of changes through udev events
 * (fakeboard_uevent()): CPUs someone else takes off line, the daemon's own
 * hotplug writes coming back as events, thermal zones that change. The
 * helpers follow check_daemon.c.
 *
 * Suspend cannot be played here (the test cannot stop CLOCK_MONOTONIC while
 * CLOCK_BOOTTIME runs on); tests/unit/check_events.c covers the detection
 * with virtual clocks.
 */
#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/fakeboard/fakeboard.h"

#define UP_DELAY_MS 200
#define DOWN_DELAY_MS 300
/* Bounds for things that must happen: far above what the delays need. */
#define START_BOUND_MS 5000
#define SWITCH_BOUND_MS 2000
#define EVENT_BOUND_MS 3000
#define EXIT_BOUND_MS 10000

static const char base_config[] =
        "[daemon]\n"
        "sample_interval_ms = 20\n"
        "backend = hotplug\n"
        "[hysteresis]\n"
        "up_threshold = 80\n"
        "down_threshold = 60\n"
        "up_delay_ms = 200\n"
        "down_delay_ms = 300\n"
        "min_residency_ms = 40\n"
        "max_switch_rate_hz = 10\n";

/* Events that change nothing are said at debug level only: the tests wait
 * for those lines to know an event was handled before the next change. */
static const char debug_config[] = "[daemon]\nlog_level = debug\n";

static const unsigned idle_load[] = { 40 };
static const unsigned heavy_load[] = { 600, 600 };

/* One test's world; Check runs each test in its own process. */
static struct fakeboard *fb;
static char workdir[PATH_MAX];

static void setup(void)
{
        const char *tmp = getenv("TMPDIR");

        fb = NULL;
        snprintf(workdir, sizeof(workdir), "%s/bl-test.XXXXXX", tmp ? tmp : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(workdir));
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

static void teardown(void)
{
        fakeboard_free(fb);
        fb = NULL;
        nftw(workdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void new_board(const char *name)
{
        int r = fakeboard_new(name, &fb);

        ck_assert_msg(r == 0, "fakeboard_new(%s): %s", name, strerror(-r));
}

static const char *write_config(const char *name, const char *text)
{
        static char path[PATH_MAX + 64];
        FILE *f;

        ck_assert_int_lt(snprintf(path, sizeof(path), "%s/%s", workdir, name), (int)sizeof(path));
        f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        ck_assert_int_ge(fputs(text, f), 0);
        ck_assert_int_eq(fclose(f), 0);
        return path;
}

/* The daemon's log so far, for failure messages. */
static const char *log_text(void)
{
        return fakeboard_log_tail(fb);
}

static const char *default_config(void)
{
        char text[sizeof(base_config) + sizeof(debug_config)];

        snprintf(text, sizeof(text), "%s%s", base_config, debug_config);
        return write_config("bigLittle.conf", text);
}

static void start_daemon(const char *config)
{
        char runtime[PATH_MAX + 8];
        char *argv[] = {
                (char *)DAEMON_PATH, (char *)"--foreground", (char *)"--config", (char *)config, NULL,
        };
        int r;

        /* Saved state and holds go to the test's own directory, not /run. */
        snprintf(runtime, sizeof(runtime), "%s/run", workdir);
        ck_assert_int_eq(setenv("RUNTIME_DIRECTORY", runtime, 1), 0);
        ck_assert_int_eq(setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/bus", 1), 0);
        r = fakeboard_spawn(fb, argv, false);
        ck_assert_msg(r == 0, "cannot start %s: %s", DAEMON_PATH, strerror(-r));
}

struct line_wait {
        unsigned from;
        const char *needle;
        int found;
};

static bool line_seen(struct fakeboard *board, void *userdata)
{
        struct line_wait *w = userdata;

        w->found = fakeboard_find_line(board, w->from, w->needle);
        return w->found >= 0 || !fakeboard_running(board);
}

/* Runs the board until a line containing needle appears at or after from;
 * returns its index. */
static unsigned expect_line(unsigned from, const char *needle, unsigned timeout_ms)
{
        struct line_wait w = { .from = from, .needle = needle, .found = -1 };
        int r = fakeboard_run(fb, timeout_ms, line_seen, &w);

        ck_assert_int_ge(r, 0);
        ck_assert_msg(w.found >= 0, "no line containing \"%s\" %s; the daemon said:%s", needle,
                      r == 1 ? "before the daemon exited" : "in time", log_text());
        return (unsigned)w.found;
}

static bool online_equals(const char *list)
{
        bl_cpuset want, now;

        ck_assert_int_eq(cpuset_parse(&want, list), 0);
        fakeboard_online(fb, &now);
        return cpuset_equal(&want, &now);
}

static bool online_matches(struct fakeboard *board, void *userdata)
{
        (void)board;
        return online_equals(userdata);
}

static const char *online_text(void)
{
        static char buf[256];
        bl_cpuset now;

        fakeboard_online(fb, &now);
        cpuset_format(&now, buf, sizeof(buf));
        return buf;
}

static void expect_online(const char *list, unsigned timeout_ms)
{
        int r = fakeboard_run(fb, timeout_ms, online_matches, (void *)list);

        ck_assert_int_ge(r, 0);
        ck_assert_msg(r == 1, "online is %s, not %s, after %u ms; the daemon said:%s", online_text(), list,
                      timeout_ms, log_text());
}

static void set_load(const unsigned *demand, unsigned n)
{
        ck_assert_int_eq(fakeboard_set_load(fb, demand, n), 0);
}

/* Sends a udev event; the daemon's monitor must be there to get it. */
static void send_uevent(const char *path, const char *action)
{
        int r = fakeboard_uevent(fb, path, action);

        ck_assert_msg(r == 1, "fakeboard_uevent(%s, %s) reached %d monitors, expected the daemon's", path,
                      action, r);
}

static void stop_daemon(void)
{
        int status = -1, r;

        ck_assert_int_eq(fakeboard_kill(fb, SIGTERM), 0);
        r = fakeboard_wait(fb, EXIT_BOUND_MS, &status);
        ck_assert_msg(r == 0, "the daemon did not exit within %u ms; it said:%s", EXIT_BOUND_MS, log_text());
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit status %d; the daemon said:%s",
                      status, log_text());
}

static unsigned count_lines(unsigned from, const char *needle)
{
        unsigned n = 0;
        int i;

        while ((i = fakeboard_find_line(fb, from, needle)) >= 0) {
                n++;
                from = (unsigned)i + 1;
        }
        return n;
}

/* Someone else takes cpu6 off line while the daemon runs on the big
 * cluster: the daemon says so, finds the same kinds of core, leaves cpu6
 * out of its levels and goes on switching; when someone brings cpu6 back,
 * the levels use it again. Before that, an event the daemon's own switch
 * caused (cpu4 came on line with big) passes quietly. */
START_TEST(test_foreign_offline_is_noticed)
{
        unsigned started, line;
        const char *text;

        new_board("exynos5422");
        set_load(idle_load, 1);
        start_daemon(default_config());
        started = expect_line(0, "started: ", START_BOUND_MS);
        expect_online("0-3", SWITCH_BOUND_MS);

        set_load(heavy_load, 2);
        expect_online("0,4-7", UP_DELAY_MS + SWITCH_BOUND_MS);
        line = expect_line(started, "switch little -> big: ", 1000);

        /* The kernel's echo of the daemon's own write. */
        send_uevent("/sys/devices/system/cpu/cpu4", "online");
        expect_line(line, "cpu4 online: the CPUs are as the daemon left them", EVENT_BOUND_MS);

        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 6, false), 0);
        send_uevent("/sys/devices/system/cpu/cpu6", "offline");
        line = expect_line(line, "someone else changed the CPUs", EVENT_BOUND_MS);
        text = fakeboard_line(fb, line, NULL);
        ck_assert_msg(strstr(text, "cpu6 offline: ") && strstr(text, "online 0,4-5,7, the daemon left 0,4-7"),
                      "unexpected line: %s", text);
        /* The cpu4 event was the daemon's own. */
        ck_assert_uint_eq(count_lines(started, "someone else"), 1);
        ck_assert_int_eq(fakeboard_find_line(fb, started, "cpu4 online: someone else"), -ENOENT);

        /* cpu6 stays offline: the daemon does not fight whoever took it down. */
        line = expect_line(line, "CPUs 6 are left out of every level until someone brings them back",
                           EVENT_BOUND_MS);
        line = expect_line(line, "kinds of core unchanged: level big re-applied [online 0,4-5,7]",
                           EVENT_BOUND_MS);
        expect_online("0,4-5,7", SWITCH_BOUND_MS);
        ck_assert_int_eq(fakeboard_find_line(fb, started, "new ladder"), -ENOENT);

        /* It keeps working, without cpu6. */
        set_load(idle_load, 1);
        expect_online("0-3", DOWN_DELAY_MS + SWITCH_BOUND_MS);
        line = expect_line(line, "switch big -> little: ", 1000);
        set_load(heavy_load, 2);
        expect_online("0,4-5,7", UP_DELAY_MS + SWITCH_BOUND_MS);
        line = expect_line(line, "switch little -> big: ", 1000);

        /* Brought back by someone, cpu6 is the levels' again. */
        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 6, true), 0);
        send_uevent("/sys/devices/system/cpu/cpu6", "online");
        line = expect_line(line, "CPUs 6 are back: the levels use them again", EVENT_BOUND_MS);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        ck_assert_uint_eq(count_lines(started, "someone else"), 2);
        ck_assert(fakeboard_running(fb));
        stop_daemon();
        ck_assert_msg(online_equals("0-7"), "online is %s after exit", online_text());
}
END_TEST

/* At little, someone brings a big CPU on line: the daemon takes it off
 * again, since the level says little. */
START_TEST(test_foreign_online_is_undone)
{
        unsigned started, line;

        new_board("exynos5422");
        set_load(idle_load, 1);
        start_daemon(default_config());
        started = expect_line(0, "started: ", START_BOUND_MS);
        expect_online("0-3", SWITCH_BOUND_MS);

        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 5, true), 0);
        send_uevent("/sys/devices/system/cpu/cpu5", "online");
        line = expect_line(started,
                           "cpu5 online: someone else changed the CPUs (online 0-3,5, the daemon left 0-3)",
                           EVENT_BOUND_MS);
        expect_line(line, "kinds of core unchanged: level little re-applied [online 0-3]", EVENT_BOUND_MS);
        expect_online("0-3", SWITCH_BOUND_MS);
        stop_daemon();
}
END_TEST

static void set_capacity(unsigned cpu, unsigned capacity)
{
        char sys[64], path[PATH_MAX];
        FILE *f;

        snprintf(sys, sizeof(sys), "/sys/devices/system/cpu/cpu%u/cpu_capacity", cpu);
        ck_assert_int_eq(fakeboard_path(fb, sys, path, sizeof(path)), 0);
        f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        ck_assert_int_ge(fprintf(f, "%u\n", capacity), 0);
        ck_assert_int_eq(fclose(f), 0);
}

/* The kinds of core change under the daemon (played here by rewriting
 * cpu_capacity, since the board cannot unplug devices): with one kind left
 * it keeps running and does nothing; when two come back it builds a new
 * ladder and switches again. */
START_TEST(test_kinds_of_core_change)
{
        unsigned started, line;

        new_board("exynos5422");
        set_load(idle_load, 1);
        start_daemon(default_config());
        started = expect_line(0, "started: ", START_BOUND_MS);
        expect_online("0-3", SWITCH_BOUND_MS);

        for (unsigned cpu = 4; cpu < 8; cpu++)
                set_capacity(cpu, 377);
        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 5, true), 0);
        send_uevent("/sys/devices/system/cpu/cpu5", "online");
        line = expect_line(started, "cpu5 online: someone else changed the CPUs", EVENT_BOUND_MS);
        line = expect_line(line, "the kinds of core changed: ", EVENT_BOUND_MS);
        line = expect_line(line, "one kind of core left: not switching until another comes back",
                           EVENT_BOUND_MS);
        /* Paused: the load does not move it, and cpu5 stays as it was left. */
        set_load(heavy_load, 2);
        ck_assert_int_eq(fakeboard_run_for(fb, UP_DELAY_MS + 800), 0);
        ck_assert_msg(online_equals("0-3,5"), "online is %s while paused; the daemon said:%s", online_text(),
                      log_text());
        ck_assert_int_eq(fakeboard_find_line(fb, started, "switch "), -ENOENT);
        ck_assert(fakeboard_running(fb));

        for (unsigned cpu = 4; cpu < 8; cpu++)
                set_capacity(cpu, 1024);
        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 5, false), 0);
        send_uevent("/sys/devices/system/cpu/cpu5", "offline");
        line = expect_line(line, "cpu5 offline: someone else changed the CPUs", EVENT_BOUND_MS);
        line = expect_line(line, "new ladder: mode cluster", EVENT_BOUND_MS);
        ck_assert_ptr_nonnull(strstr(fakeboard_line(fb, line, NULL),
                                     "levels little (cpus 0-3, capacity 377), "
                                     "big (cpus 4-7, capacity 1024)"));
        line = expect_line(line, "new ladder: level little re-applied", EVENT_BOUND_MS);
        /* Under the load that is still there, it goes big, without cpu5:
         * whoever took it offline last is not overruled. */
        expect_online("0,4,6-7", UP_DELAY_MS + SWITCH_BOUND_MS);
        expect_line(line, "switch little -> big: ", 1000);
        /* Leaving puts back what the daemon found, except cpu5: whoever
         * took it offline meant it. */
        stop_daemon();
        ck_assert_msg(online_equals("0-4,6-7"), "online is %s after exit", online_text());
}
END_TEST

/* A thermal zone that changes: with zones = auto the daemon picks again,
 * and says so only when the watched set changed. */
START_TEST(test_thermal_change_reopens_zones)
{
        char path[PATH_MAX];
        unsigned started, line;
        FILE *f;

        new_board("exynos5422");
        set_load(idle_load, 1);
        start_daemon(default_config());
        started = expect_line(0, "started: ", START_BOUND_MS);

        /* Nothing changed: no notice. */
        send_uevent("/sys/devices/virtual/thermal/thermal_zone0", "change");
        expect_line(started, "thermal_zone0 change: the same thermal zones", EVENT_BOUND_MS);
        /* gpu-thermal becomes a zone that auto picks. */
        ck_assert_int_eq(fakeboard_path(fb, "/sys/devices/virtual/thermal/thermal_zone4/type", path,
                                        sizeof(path)), 0);
        f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        ck_assert_int_ge(fputs("soc-thermal\n", f), 0);
        ck_assert_int_eq(fclose(f), 0);
        send_uevent("/sys/devices/virtual/thermal/thermal_zone4", "change");

        line = expect_line(started, "thermal_zone4 change: thermal zones changed; watching ", EVENT_BOUND_MS);
        ck_assert_msg(strstr(fakeboard_line(fb, line, NULL),
                             "watching thermal_zone0 (cpu0-thermal), thermal_zone1 (cpu1-thermal), "
                             "thermal_zone2 (cpu2-thermal), thermal_zone3 (cpu3-thermal), "
                             "thermal_zone4 (soc-thermal)"),
                      "unexpected line: %s", fakeboard_line(fb, line, NULL));
        ck_assert_uint_eq(count_lines(started, "thermal zones changed"), 1);
        ck_assert(fakeboard_running(fb));
        stop_daemon();
}
END_TEST

static Suite *events_suite(void)
{
        Suite *s = suite_create("events");
        TCase *tc = tcase_create("exynos5422");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_foreign_offline_is_noticed);
        tcase_add_test(tc, test_foreign_online_is_undone);
        tcase_add_test(tc, test_kinds_of_core_change);
        tcase_add_test(tc, test_thermal_change_reopens_zones);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        char tmp[] = "/tmp/bl-check-events.XXXXXX";
        SRunner *sr;
        int failed;

        /* Everything a test leaves behind when it fails is under here. */
        if (!mkdtemp(tmp))
                return EXIT_FAILURE;
        setenv("TMPDIR", tmp, 1);
        sr = srunner_create(events_suite());
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
