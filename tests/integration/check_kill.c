/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kill test: SIGKILL at random moments of a daemon that switches all
 * the time, then a restart, over and over, on the fake Exynos 5422 with
 * the hotplug backend, then the cpufreq one (half the iterations each).
 *
 *     check_kill [ITERATIONS [SEED]]      (default 20 and a seed from the clock)
 *
 * The board starts from a state an administrator left unusual (cpu5
 * offline, policy4 capped at 1.8 GHz). The load swaps between heavy and
 * idle every LOAD_PERIOD_MS, so the daemon switches every few tens of ms,
 * and every write to /sys takes WRITE_DELAY_US (the refusing preload's
 * delay), which makes a switch last long enough to be hit: a kill lands a
 * random 0-KILL_WINDOW_MS after the daemon started. A kill "mid-switch"
 * left the files in neither level's state.
 *
 * After each kill the daemon is started again on an idle board; it must
 * say it found the saved state of the dead run, take the lowest level
 * whole, and save the same original state. After the last iteration
 * SIGTERM must put every file back as it was before the first start. Any
 * of these not holding is an inconsistency; the figures go to stdout:
 *     # check_kill: N iterations, M mid-switch kills, K inconsistencies, T s (seed S)
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "tests/integration/harness.h"

#define CPU "/sys/devices/system/cpu/"
#define NCPUS 8
#define LOAD_PERIOD_MS 60
#define WRITE_DELAY_US "4000"
#define KILL_WINDOW_MS 400
#define SWITCH_BOUND_MS 3000
#define SNAPSHOT_MAX 1024
#define DEFAULT_ITERATIONS 20

/* Switching as fast as the daemon lets itself, and a heuristic that
 * follows the load within a period. */
static const struct fast_timing timing = { 10, 10, 10, 50 };
static const char pelt_section[] = "[policy.pelt]\nhalf_life_ms = 8\n";

static const char *const backends[] = { "hotplug", "cpufreq" };

#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

static const unsigned idle_load[] = { 40 };
static const unsigned heavy_load[NCPUS] = { 600, 600, 600, 600, 600, 600, 600, 600 };

static unsigned iterations = DEFAULT_ITERATIONS;
static unsigned seed;

struct figures {
        unsigned iterations;
        unsigned mid_switch;
        unsigned inconsistencies;
};

/* Every file either backend writes: cpuN/online and the policies' limits. */
static void snapshot(char *buf, size_t size)
{
        static const char *const files[] = {
                CPU "cpufreq/policy0/scaling_min_freq", CPU "cpufreq/policy0/scaling_max_freq",
                CPU "cpufreq/policy4/scaling_min_freq", CPU "cpufreq/policy4/scaling_max_freq",
        };
        size_t len = 0;
        char path[64], value[32];

        buf[0] = '\0';
        for (unsigned cpu = 1; cpu < NCPUS; cpu++) {
                snprintf(path, sizeof(path), CPU "cpu%u/online", cpu);
                read_board_file(path, value, sizeof(value));
                len += (size_t)snprintf(buf + len, size - len, "cpu%u/online=%s\n", cpu, value);
        }
        for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
                read_board_file(files[i], value, sizeof(value));
                len += (size_t)snprintf(buf + len, size - len, "%s=%s\n", files[i] + strlen(CPU), value);
        }
        ck_assert_uint_lt(len, size);
}

static void set_idle(void)
{
        set_load(idle_load, 1);
}

/* Swaps the load between heavy and idle every LOAD_PERIOD_MS. */
static bool swap_load(struct fakeboard *board, void *userdata)
{
        const bl_usec_t *since = userdata;
        bool heavy = (fakeboard_now() - *since) / (LOAD_PERIOD_MS * BL_USEC_PER_MSEC) % 2 == 0;

        (void)board;
        if (heavy)
                set_load(heavy_load, NCPUS);
        else
                set_idle();
        return false;
}

static void run_swapping(unsigned ms)
{
        bl_usec_t since = fakeboard_now();

        ck_assert_int_ge(fakeboard_run(fb, ms, swap_load, &since), 0);
}

struct settle_wait {
        char *state;
        unsigned from;
        const char *line;
};

/* The line seen, and the files the same over two board steps. */
static bool settled(struct fakeboard *board, void *userdata)
{
        struct settle_wait *w = userdata;
        char now[SNAPSHOT_MAX];
        bool same;

        if (fakeboard_find_line(board, w->from, w->line) < 0)
                return false;
        snapshot(now, sizeof(now));
        same = strcmp(now, w->state) == 0;
        snprintf(w->state, SNAPSHOT_MAX, "%s", now);
        return same;
}

/* Runs the board until line 'line' (at or after 'from') is said and the
 * files stop changing; their state goes to 'state'. */
static void settle(unsigned from, const char *line, char *state)
{
        struct settle_wait w = { .state = state, .from = from, .line = line };

        state[0] = '\0';
        ck_assert_msg(fakeboard_run(fb, SWITCH_BOUND_MS, settled, &w) == 1, "no \"%s\" in time; the daemon "
                      "said:%s", line, log_text());
}

static unsigned start(const char *backend)
{
        spawn_daemon(write_fast_config(backend, &timing, pelt_section), NULL);
        return expect_line(0, "started: ", START_BOUND_MS);
}

static void inconsistent(struct figures *f, unsigned iteration, const char *what, const char *detail)
{
        f->inconsistencies++;
        printf("# check_kill: iteration %u: %s: %s\n", iteration, what, detail);
        fflush(stdout);
}

/* One backend's share of the iterations. */
static void kill_and_restart(const char *backend, unsigned n, struct figures *f)
{
        char original[SNAPSHOT_MAX], little[SNAPSHOT_MAX], big[SNAPSHOT_MAX], now[SNAPSHOT_MAX];
        char saved[1024];
        unsigned line;

        new_board("exynos5422");
        set_idle();
        ck_assert_int_eq(fakeboard_set_cpu_online(fb, 5, false), 0);
        write_board_file(CPU "cpufreq/policy4/scaling_max_freq", "1800000\n");
        snapshot(original, sizeof(original));

        /* The two levels' states, as this backend makes them. */
        line = start(backend);
        settle(line, "started: ", little);
        snprintf(saved, sizeof(saved), "%s", harness_saved_settings());
        ck_assert_msg(saved[0], "%s: no saved state", backend);
        set_load(heavy_load, NCPUS);
        settle(line, "-> big: ", big);
        ck_assert_str_ne(little, big);
        set_idle();
        settle(expect_line(line, "-> big: ", 10), "-> little: ", now);

        for (unsigned i = 0; i < n; i++) {
                int status;

                run_swapping((unsigned)(rand() % (KILL_WINDOW_MS + 1)));
                status = stop_daemon(SIGKILL);
                ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
                f->iterations++;
                snapshot(now, sizeof(now));
                if (strcmp(now, little) != 0 && strcmp(now, big) != 0)
                        f->mid_switch++;

                set_idle();
                line = start(backend);
                if (fakeboard_find_line(fb, 0, "found the state a previous run saved (") < 0)
                        inconsistent(f, i, "the restarted daemon did not find the saved state", log_text());
                if (strcmp(harness_saved_settings(), saved) != 0)
                        inconsistent(f, i, "the saved original state changed", harness_saved_settings());
                settle(line, "started: ", now);
                if (strcmp(now, little) != 0)
                        inconsistent(f, i, "not the whole lowest level after the restart", now);
        }
        assert_exit_status(stop_daemon(SIGTERM), 0);
        snapshot(now, sizeof(now));
        if (strcmp(now, original) != 0)
                inconsistent(f, n, "SIGTERM did not put the original state back", now);
        if (harness_saved_settings()[0])
                inconsistent(f, n, "a saved state is left after SIGTERM", harness_saved_settings());
}

START_TEST(test_kill)
{
        struct figures f = { 0 };
        struct timespec t0, t1;

        srand(seed);
        ck_assert_int_eq(setenv("FAKEBOARD_WRITE_DELAY_US", WRITE_DELAY_US, 1), 0);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (unsigned b = 0; b < NBACKENDS; b++) {
                unsigned share = iterations / NBACKENDS + (b < iterations % NBACKENDS);

                kill_and_restart(backends[b], share, &f);
                fakeboard_free(fb);
                fb = NULL;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        printf("# check_kill: %u iterations, %u mid-switch kills, %u inconsistencies, %.0f s (seed %u)\n",
               f.iterations, f.mid_switch, f.inconsistencies,
               (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, seed);
        fflush(stdout);
        ck_assert_uint_eq(f.iterations, iterations);
        ck_assert_uint_eq(f.inconsistencies, 0);
}
END_TEST

static unsigned parse_count(const char *text, const char *what)
{
        char *end;
        unsigned long v;

        errno = 0;
        v = strtoul(text, &end, 10);
        if (errno || end == text || *end || v > UINT_MAX) {
                fprintf(stderr, "check_kill: %s: expected a number, got \"%s\"\n", what, text);
                exit(EXIT_FAILURE);
        }
        return (unsigned)v;
}

int main(int argc, char **argv)
{
        Suite *s = suite_create("kill");
        TCase *tc = tcase_create("kill");

        seed = (unsigned)time(NULL);
        if (argc > 3) {
                fprintf(stderr, "usage: check_kill [ITERATIONS [SEED]]\n");
                return EXIT_FAILURE;
        }
        if (argc > 1)
                iterations = parse_count(argv[1], "ITERATIONS");
        if (argc > 2)
                seed = parse_count(argv[2], "SEED");
        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        /* About half a second an iteration; far more on a loaded machine. */
        tcase_set_timeout(tc, 60 + 5.0 * iterations);
        tcase_add_test(tc, test_kill);
        suite_add_tcase(s, tc);
        return harness_main(s, "check-kill");
}
