/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real bigLittled with each backend other than hotplug on a fake board,
 * asserting on the files the backend writes and on the daemon's log.
 * Bounds are generous: the machines running this are shared.
 */
#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/fakeboard/fakeboard.h"

#define START_BOUND_MS 5000
#define SWITCH_BOUND_MS 3000
#define EXIT_BOUND_MS 10000

static const char config_text[] =
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

static const unsigned idle_load[] = { 40 };
/* The fake board places tasks on the biggest CPUs first and knows nothing
 * of caps: eight tasks so that the LITTLE CPUs get work as well. */
static const unsigned heavy_load[] = { 600, 600, 600, 600, 600, 600, 600, 600 };

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

static const char *log_text(void)
{
        return fakeboard_log_tail(fb);
}

static void start_daemon(const char *backend)
{
        char config[PATH_MAX + 32], runtime[PATH_MAX + 8];
        char *argv[] = { (char *)DAEMON_PATH, (char *)"--foreground", (char *)"--backend", (char *)backend,
                         (char *)"--config", config, NULL };
        FILE *f;
        int r;

        snprintf(config, sizeof(config), "%s/bigLittle.conf", workdir);
        f = fopen(config, "w");
        ck_assert_ptr_nonnull(f);
        ck_assert_int_ge(fputs(config_text, f), 0);
        ck_assert_int_eq(fclose(f), 0);
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
                      r == 1 ? "before the daemon exited" : "in time", log_text());
        return (unsigned)w.found;
}

static void read_file_line(const char *path, char *buf, size_t size)
{
        char full[PATH_MAX];
        FILE *f;

        buf[0] = '\0';
        ck_assert_int_eq(fakeboard_path(fb, path, full, sizeof(full)), 0);
        f = fopen(full, "r");
        ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
        if (!fgets(buf, (int)size, f))
                buf[0] = '\0';
        fclose(f);
        buf[strcspn(buf, "\n")] = '\0';
}

struct file_wait {
        const char *path;
        const char *want;
};

static bool file_matches(struct fakeboard *board, void *userdata)
{
        const struct file_wait *w = userdata;
        char now[64];

        (void)board;
        read_file_line(w->path, now, sizeof(now));
        return strcmp(now, w->want) == 0;
}

static void expect_file(const char *path, const char *want, unsigned timeout_ms)
{
        struct file_wait w = { .path = path, .want = want };
        char now[64];
        int r = fakeboard_run(fb, timeout_ms, file_matches, &w);

        ck_assert_int_ge(r, 0);
        read_file_line(path, now, sizeof(now));
        ck_assert_msg(r == 1, "%s is \"%s\", not \"%s\", after %u ms; the daemon said:%s", path, now, want,
                      timeout_ms, log_text());
}

static void assert_file(const char *path, const char *want)
{
        char now[64];

        read_file_line(path, now, sizeof(now));
        ck_assert_msg(strcmp(now, want) == 0, "%s is \"%s\", expected \"%s\"", path, now, want);
}

static void set_load(const unsigned *demand, unsigned n)
{
        ck_assert_int_eq(fakeboard_set_load(fb, demand, n), 0);
}

#define LITTLE_MAX "/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq"
#define BIG_MAX "/sys/devices/system/cpu/cpufreq/policy4/scaling_max_freq"

/* cpufreq on the Exynos 5422: every CPU stays online, the unused cluster is
 * capped at 200 MHz, and SIGTERM puts back the limits found at start. */
START_TEST(test_cpufreq_caps_the_unused_cluster)
{
        bl_cpuset online, all;
        unsigned line;
        int status = -1;

        ck_assert_int_eq(fakeboard_new("exynos5422", &fb), 0);
        set_load(idle_load, 1);
        start_daemon("cpufreq");
        line = expect_line(0, "started: ", START_BOUND_MS);
        ck_assert_msg(strstr(fakeboard_line(fb, line, NULL), "backend cpufreq (configured)"),
                      "start line: %s", fakeboard_line(fb, line, NULL));
        expect_file(BIG_MAX, "200000", SWITCH_BOUND_MS);
        assert_file(LITTLE_MAX, "1400000");

        set_load(heavy_load, 8);
        expect_file(LITTLE_MAX, "200000", SWITCH_BOUND_MS);
        assert_file(BIG_MAX, "2000000");
        line = expect_line(line, "switch little -> big: ", 1000);
        ck_assert_msg(strstr(fakeboard_line(fb, line, NULL), "capped 0-3"), "switch line: %s",
                      fakeboard_line(fb, line, NULL));

        set_load(idle_load, 1);
        expect_file(LITTLE_MAX, "1400000", SWITCH_BOUND_MS);
        assert_file(BIG_MAX, "200000");
        expect_line(line, "switch big -> little: ", 1000);

        /* No CPU ever went offline. */
        fakeboard_online(fb, &online);
        ck_assert_int_eq(cpuset_parse(&all, "0-7"), 0);
        ck_assert(cpuset_equal(&online, &all));
        ck_assert_uint_eq(fakeboard_n_online_changes(fb), 0);

        ck_assert_int_eq(fakeboard_kill(fb, SIGTERM), 0);
        ck_assert_int_eq(fakeboard_wait(fb, EXIT_BOUND_MS, &status), 0);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit status %d; the daemon said:%s",
                      status, log_text());
        expect_line(0, "restored: scaling_max_freq as found: policy0 1400000, policy4 2000000 kHz", 100);
        assert_file(LITTLE_MAX, "1400000");
        assert_file(BIG_MAX, "2000000");
}
END_TEST

static Suite *backends_suite(void)
{
        Suite *s = suite_create("backends");
        TCase *tc = tcase_create("cpufreq");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_cpufreq_caps_the_unused_cluster);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        char tmp[] = "/tmp/bl-check-backends.XXXXXX";
        SRunner *sr;
        int failed;

        /* What a failed test leaves behind (Check ends its process at once). */
        if (!mkdtemp(tmp))
                return EXIT_FAILURE;
        setenv("TMPDIR", tmp, 1);
        sr = srunner_create(backends_suite());
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
