/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real bigLittled on a TC2 with the kernel's big.LITTLE switcher active
 * (fake board "tc2-switcher"): it must pick pair mode and the switcher
 * backend by itself and move each pair across the virtual-frequency
 * boundary through its logical CPU's cpufreq limits. The board does not
 * play the switch itself (a CPU's cores swap under it), so the tests assert
 * on the limits the daemon writes and on its log.
 *
 * On that table (175-500 MHz virtual A7, 500-1200 MHz A15, 500 MHz listed
 * by both halves) big is scaling_min_freq 600000, little scaling_max_freq
 * 450000; the limits at start are 175000-1200000.
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
#define START_BOUND_MS 5000
#define SWITCH_BOUND_MS 2000
#define EXIT_BOUND_MS 10000

static const char config_text[] =
        "[daemon]\n"
        "sample_interval_ms = 20\n"
        "[hysteresis]\n"
        "up_threshold = 80\n"
        "down_threshold = 60\n"
        "up_delay_ms = 200\n"
        "down_delay_ms = 300\n"
        "min_residency_ms = 40\n"
        "max_switch_rate_hz = 10\n";

static const unsigned idle_load[] = { 40 };

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

static const char *write_config(const char *text)
{
        static char path[PATH_MAX + 64];
        FILE *f;

        ck_assert_int_lt(snprintf(path, sizeof(path), "%s/bigLittle.conf", workdir), (int)sizeof(path));
        f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        ck_assert_int_ge(fputs(text, f), 0);
        ck_assert_int_eq(fclose(f), 0);
        return path;
}

static void start_daemon(void)
{
        char runtime[PATH_MAX + 8];
        char *argv[] = { (char *)DAEMON_PATH, (char *)"--foreground", (char *)"--config",
                         (char *)write_config(config_text), NULL };
        int r;

        ck_assert_int_eq(fakeboard_new("tc2-switcher", &fb), 0);
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

static unsigned expect_line(unsigned from, const char *needle, unsigned timeout_ms)
{
        struct line_wait w = { .from = from, .needle = needle, .found = -1 };
        int r = fakeboard_run(fb, timeout_ms, line_seen, &w);

        ck_assert_int_ge(r, 0);
        ck_assert_msg(w.found >= 0, "no line containing \"%s\" %s; the daemon said:%s", needle,
                      r == 1 ? "before the daemon exited" : "in time", fakeboard_log_tail(fb));
        return (unsigned)w.found;
}

static void read_limit(unsigned cpu, const char *file, char *buf, size_t size)
{
        char sys[128], full[PATH_MAX];
        FILE *f;

        snprintf(sys, sizeof(sys), "/sys/devices/system/cpu/cpufreq/policy%u/%s", cpu, file);
        ck_assert_int_eq(fakeboard_path(fb, sys, full, sizeof(full)), 0);
        f = fopen(full, "r");
        ck_assert_msg(f != NULL, "%s: %s", sys, strerror(errno));
        buf[0] = '\0';
        ck_assert_ptr_nonnull(fgets(buf, (int)size, f));
        fclose(f);
        buf[strcspn(buf, "\n")] = '\0';
}

static void assert_limits(unsigned cpu, const char *min, const char *max)
{
        char now_min[32], now_max[32];

        read_limit(cpu, "scaling_min_freq", now_min, sizeof(now_min));
        read_limit(cpu, "scaling_max_freq", now_max, sizeof(now_max));
        ck_assert_msg(strcmp(now_min, min) == 0 && strcmp(now_max, max) == 0,
                      "cpu%u limits are %s-%s, expected %s-%s; the daemon said:%s", cpu, now_min, now_max,
                      min, max, fakeboard_log_tail(fb));
}

static int stop_daemon(void)
{
        int status = -1, r;

        ck_assert_int_eq(fakeboard_kill(fb, SIGTERM), 0);
        r = fakeboard_wait(fb, EXIT_BOUND_MS, &status);
        ck_assert_msg(r == 0, "the daemon did not exit; it said:%s", fakeboard_log_tail(fb));
        return status;
}

/* Auto picks pair mode and the switcher backend and says why; the initial
 * level puts both pairs on LITTLE. */
START_TEST(test_auto_picks_pair_and_switcher)
{
        const char *line;
        unsigned started;

        start_daemon();
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        started = expect_line(0, "started: ", START_BOUND_MS);
        line = fakeboard_line(fb, started, NULL);
        ck_assert_msg(strstr(line, "mode pair (mode = auto: the kernel's big.LITTLE switcher is present, "
                                   "so pair)"), "%s", line);
        ck_assert_msg(strstr(line, "0=cpu2/cpu0 1=cpu3/cpu1; unpaired 4 kept offline"), "%s", line);
        ck_assert_msg(strstr(line, "backend switcher (auto: the kernel's big.LITTLE switcher is present; "
                                   "each pair is moved by its logical CPU's cpufreq limits)"), "%s", line);
        ck_assert_msg(strstr(line, "level LL [little: cpu 0-1; 2 writes]"), "%s", line);
        assert_limits(0, "175000", "450000");
        assert_limits(1, "175000", "450000");
        ck_assert_int_eq(WEXITSTATUS(stop_daemon()), 0);
}
END_TEST

/* One busy task: its pair goes big (min above the boundary), the other
 * stays LITTLE; idle again, it comes back; SIGTERM puts back the limits
 * found at start, exactly. */
START_TEST(test_loaded_pair_crosses_the_boundary_and_back)
{
        static const unsigned one_heavy[] = { 600 };
        unsigned up, down, restored;
        int status;

        start_daemon();
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        expect_line(0, "started: ", START_BOUND_MS);
        assert_limits(0, "175000", "450000");

        ck_assert_int_eq(fakeboard_set_load(fb, one_heavy, 1), 0);
        up = expect_line(0, "switch pair 0 little -> big", UP_DELAY_MS + SWITCH_BOUND_MS);
        ck_assert_msg(strstr(fakeboard_line(fb, up, NULL), "[big: cpu 0, little: cpu 1; 2 writes]"), "%s",
                      fakeboard_line(fb, up, NULL));
        assert_limits(0, "600000", "1200000");
        assert_limits(1, "175000", "450000");
        ck_assert_int_lt(fakeboard_find_line(fb, 0, "switch pair 1"), 0);

        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        down = expect_line(up, "switch pair 0 big -> little", SWITCH_BOUND_MS);
        ck_assert_msg(strstr(fakeboard_line(fb, down, NULL), "[little: cpu 0-1; 2 writes]"), "%s",
                      fakeboard_line(fb, down, NULL));
        assert_limits(0, "175000", "450000");

        status = stop_daemon();
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d; the daemon said:%s", status,
                      fakeboard_log_tail(fb));
        restored = expect_line(down, "restored: ", 100);
        ck_assert_msg(strstr(fakeboard_line(fb, restored, NULL),
                             "cpufreq limits as found: cpu0 175000-1200000, cpu1 175000-1200000 kHz"),
                      "%s", fakeboard_line(fb, restored, NULL));
        assert_limits(0, "175000", "1200000");
        assert_limits(1, "175000", "1200000");
}
END_TEST

static Suite *switcher_suite(void)
{
        Suite *s = suite_create("switcher");
        TCase *tc = tcase_create("tc2-switcher");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_auto_picks_pair_and_switcher);
        tcase_add_test(tc, test_loaded_pair_crosses_the_boundary_and_back);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        char tmp[] = "/tmp/bl-check-switcher.XXXXXX";
        SRunner *sr;
        int failed;

        if (!mkdtemp(tmp))
                return EXIT_FAILURE;
        setenv("TMPDIR", tmp, 1);
        sr = srunner_create(switcher_suite());
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
