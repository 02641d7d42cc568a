/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blsim compare and blsim live on every shipped SoC board (conf/boards/,
 * issue 17's targets), with tests/data/live/idle-heavy-idle.csv: 1 s idle,
 * 1 s of four lanes at 70 % of a big core, 1 s idle, the burst again, 1 s
 * idle. Three clusters (GS101) in cluster and in mp mode.
 *
 * compare must simulate every policy on the board's own levels; live must
 * run the real bigLittled on the board played in real time: up to the top
 * level during each burst (unless the lowest level carries it), back on
 * the lowest by the end of the idle second after it, the switches the board
 * saw being the ones the daemon logged (one of which the board may see in
 * steps), and every CPU online after SIGTERM.
 * Only that order of events is asserted, not the switches' timing, which
 * check_live.c covers on one board.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/integration/blsim-output.h"
#include "tests/integration/harness.h"

#define WORKLOAD TEST_DATA_DIR "/live/idle-heavy-idle.csv"
#define STEPS 2500
#define STEP_US 2000
#define MAX_LEVELS 8

static const char base_config[] =
        "[daemon]\n"
        "sample_interval_ms = 20\n"
        "idle_sample_interval_ms = 0\n"
        "log_level = info\n";

struct soc_case {
        const char *board;
        const char *mode;
        const char *levels[MAX_LEVELS]; /* lowest first; NULL-terminated */
        const char *all;                /* every CPU of the board */
        /* A lane of the burst (70 % of a big core, 717) fits a CPU of the
         * lowest level: leaving it is the policy's choice, not a need. */
        bool burst_fits_lowest;
};

static const struct soc_case cases[] = {
        { "rk3399", "cluster", { "little", "big" }, "0-5", false },
        { "rk3588", "cluster", { "little", "big" }, "0-7", false },
        { "gs101", "cluster", { "little", "mid", "big" }, "0-7", false },
        { "gs101", "mp", { "little", "little+1big", "little+2big", "little+2big+1mid", "all" }, "0-7", false },
        /* The A53s' capacity is 741: the burst fits them, and the oracle
         * keeps them (blsim compare). */
        { "mt8183", "cluster", { "little", "big" }, "0-7", true },
        { "exynos5422", "cluster", { "little", "big" }, "0-7", false },
        { "sdm845", "cluster", { "little", "big" }, "0-7", false },
};

static const char *board_path(const struct soc_case *c)
{
        static char path[4096];

        snprintf(path, sizeof(path), "%s/%s.ini", BOARDS_DIR, c->board);
        return path;
}

/* blsim to its end, which must succeed. */
static void run(char *const argv[], struct run_out *ro)
{
        run_program(argv, ro);
        ck_assert_msg(WIFEXITED(ro->status) && WEXITSTATUS(ro->status) == 0, "blsim %s: status %#x; it said:\n%s",
                      argv[1], ro->status, text_tail(ro->err, 2000));
}

/* The row of policy 'name' of blsim compare --json: from its opening brace
 * to the next row (a pointer into json; its end is where the next "{" of a
 * row begins, which the callers' searches stay within by key order). */
static const char *compare_row(const char *json, const char *name)
{
        char pattern[64];
        const char *p;

        snprintf(pattern, sizeof(pattern), "\"policy\": \"%s\",", name);
        p = strstr(json, pattern);
        ck_assert_msg(p != NULL, "compare has no row %s:\n%s", name, text_tail(json, 2000));
        return p;
}

/* time_in_level_usec of a row: the levels it names must be the case's, in
 * order, and their times must add up to the workload's length. */
static void assert_levels(const struct soc_case *c, const char *row, const char *policy)
{
        const char *p = strstr(row, "\"time_in_level_usec\": {");
        unsigned long long total = 0;
        unsigned n = 0;

        ck_assert_msg(p != NULL, "%s %s: row %s has no time_in_level_usec", c->board, c->mode, policy);
        p = strchr(p, '{') + 1;
        while (*p != '}') {
                char name[32];
                unsigned long long us;
                int used = 0;

                ck_assert_msg(sscanf(p, " \"%31[^\"]\": %llu%n", name, &us, &used) == 2 && used > 0,
                              "%s %s: bad time_in_level_usec entry: %.80s", c->board, c->mode, p);
                ck_assert_msg(n < MAX_LEVELS && c->levels[n] && strcmp(name, c->levels[n]) == 0,
                              "%s %s: row %s's level %u is %s, not %s", c->board, c->mode, policy, n, name,
                              n < MAX_LEVELS && c->levels[n] ? c->levels[n] : "(none)");
                total += us;
                n++;
                p += used;
                if (*p == ',')
                        p++;
        }
        ck_assert_msg(n < MAX_LEVELS && c->levels[n] == NULL, "%s %s: row %s names %u levels", c->board, c->mode,
                      policy, n);
        ck_assert_msg(total == (unsigned long long)STEPS * STEP_US, "%s %s: row %s spends %llu us on its levels",
                      c->board, c->mode, policy, total);
}

START_TEST(test_compare_on_board)
{
        const struct soc_case *c = &cases[_i];
        static const char *const policies[] = { "always-little", "always-big", "default", "oracle" };
        char *argv[] = {
                (char *)BLSIM_PATH, (char *)"compare", (char *)"--board", (char *)board_path(c),
                (char *)"--workload", (char *)WORKLOAD, (char *)"--mode", (char *)c->mode, (char *)"--json", NULL,
        };
        struct run_out ro;
        double little, big, oracle;
        char text[64];

        run(argv, &ro);
        json_text(ro.out, "board", text, sizeof(text));
        ck_assert_str_eq(text, c->board);
        ck_assert_double_eq(json_number(ro.out, "steps"), STEPS);
        little = json_number(ro.out, "always_little_energy_uj");
        big = json_number(ro.out, "always_big_energy_uj");
        oracle = json_number(ro.out, "oracle_energy_uj");
        ck_assert_msg(isfinite(little) && little > 0 && little < big, "%s %s: always-little %.0f uJ, always-big %.0f",
                      c->board, c->mode, little, big);
        ck_assert_msg(isfinite(oracle) && oracle > 0 && oracle <= big, "%s %s: oracle %.0f uJ, always-big %.0f",
                      c->board, c->mode, oracle, big);
        for (unsigned i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
                assert_levels(c, compare_row(ro.out, policies[i]), policies[i]);
        /* The default policy leaves the lowest level for the bursts. */
        ck_assert_double_ge(json_number(compare_row(ro.out, "default"), "switches"), 2);
        run_out_free(&ro);
}
END_TEST

/* Whether some switch in [from_us, to_us) went to 'level'. */
static bool reached(const struct switch_rec *sw, unsigned n, unsigned long long from_us, unsigned long long to_us,
                    const char *level)
{
        for (unsigned i = 0; i < n; i++)
                if (sw[i].t >= from_us && sw[i].t < to_us && strcmp(sw[i].to, level) == 0)
                        return true;
        return false;
}

/* The level the board is on at time t: where the last switch before it went. */
static const char *level_at(const struct switch_rec *sw, unsigned n, unsigned long long t, const char *lowest)
{
        const char *level = lowest;

        for (unsigned i = 0; i < n && sw[i].t < t; i++)
                level = sw[i].to;
        return level;
}

/* Where 'level' is on the case's ladder. */
static int level_index(const struct soc_case *c, const char *level)
{
        for (int i = 0; i < MAX_LEVELS && c->levels[i]; i++)
                if (strcmp(c->levels[i], level) == 0)
                        return i;
        ck_abort_msg("%s %s: level %s is not on the ladder", c->board, c->mode, level);
        return -1;
}

/*
 * The board's switches are the daemon's logged ones, except that one logged
 * switch may show on the board as several: the backend writes one CPU at a
 * time, and a board step that falls between two writes sees the set half
 * made (in mp mode, often a level of its own). So each logged A -> B must be
 * a run of board switches from A to B that only moves towards B.
 */
static void assert_board_saw_logged(const struct soc_case *c, const struct switch_rec *board, unsigned n,
                                    const struct switch_rec *logged, unsigned nlogged, const char *log)
{
        unsigned j = 0;

        for (unsigned i = 0; i < nlogged; i++) {
                int from = level_index(c, logged[i].from), to = level_index(c, logged[i].to);
                int at = from;

                ck_assert_msg(j < n && strcmp(board[j].from, logged[i].from) == 0,
                              "%s %s: the daemon logged switch %u, %s -> %s, the board saw %s; the daemon said:\n%s",
                              c->board, c->mode, i, logged[i].from, logged[i].to, j < n ? board[j].from : "nothing",
                              text_tail(log, 2000));
                while (at != to) {
                        int next;

                        ck_assert_msg(j < n, "%s %s: the board never reached %s (switch %u); the daemon said:\n%s",
                                      c->board, c->mode, logged[i].to, i, text_tail(log, 2000));
                        next = level_index(c, board[j].to);
                        ck_assert_msg(to > from ? next > at && next <= to : next < at && next >= to,
                                      "%s %s: the daemon logged %s -> %s, the board went %s -> %s on the way",
                                      c->board, c->mode, logged[i].from, logged[i].to, board[j].from, board[j].to);
                        at = next;
                        j++;
                }
        }
        ck_assert_msg(j == n, "%s %s: the board saw %u switches past the daemon's %u logged ones (%s -> %s first)",
                      c->board, c->mode, n - j, nlogged, board[j].from, board[j].to);
}

START_TEST(test_live_on_board)
{
        const struct soc_case *c = &cases[_i];
        struct switch_rec board[BLSIM_MAX_SWITCHES], logged[BLSIM_MAX_SWITCHES];
        char config[sizeof(base_config) + 64], text[64], restored[64];
        const char *lowest = c->levels[0], *top = lowest;
        struct run_out ro;
        const char *path;
        unsigned n;

        for (unsigned i = 1; i < MAX_LEVELS && c->levels[i]; i++)
                top = c->levels[i];
        snprintf(config, sizeof(config), "%s[daemon]\nmode = %s\n", base_config, c->mode);
        path = write_config("live.conf", config);
        {
                char *argv[] = {
                        (char *)BLSIM_PATH, (char *)"live", (char *)"--board", (char *)board_path(c),
                        (char *)"--workload", (char *)WORKLOAD, (char *)"--mode", (char *)c->mode,
                        (char *)"--config", (char *)path, (char *)"--json", (char *)"--", (char *)DAEMON_PATH,
                        (char *)"--foreground", (char *)"--config", (char *)path, NULL,
                };

                run(argv, &ro);
        }
        json_text(ro.out, "board", text, sizeof(text));
        ck_assert_str_eq(text, c->board);
        ck_assert_double_eq(json_number(ro.out, "steps"), STEPS);
        ck_assert_double_gt(json_number(ro.out, "energy_uj"), 0);

        n = json_switches(ro.out, board);
        ck_assert_msg(n >= (c->burst_fits_lowest ? 0 : 4), "%s %s: %u switches; the daemon said:\n%s", c->board,
                      c->mode, n, text_tail(ro.err, 2000));
        ck_assert_msg(n == 0 || board[0].t >= 1000000, "%s %s: a switch at %llu us, in the first idle second",
                      c->board, c->mode, board[0].t);
        for (unsigned burst = 0; burst < 2; burst++) {
                unsigned long long start = 1000000 + burst * 2000000ULL;

                ck_assert_msg(c->burst_fits_lowest || reached(board, n, start, start + 1000000, top),
                              "%s %s: burst %u did not reach %s; the daemon said:\n%s", c->board, c->mode, burst,
                              top, text_tail(ro.err, 2000));
                ck_assert_msg(strcmp(level_at(board, n, start + 2000000, lowest), lowest) == 0,
                              "%s %s: on %s, not %s, 1 s after burst %u; the daemon said:\n%s", c->board, c->mode,
                              level_at(board, n, start + 2000000, lowest), lowest, burst,
                              text_tail(ro.err, 2000));
        }
        /* What the board saw is what the daemon says it did. */
        assert_board_saw_logged(c, board, n, logged, logged_switches(ro.err, logged), ro.err);
        /* SIGTERM put the board back as it booted. */
        json_text(ro.out, "online_at_exit", text, sizeof(text));
        ck_assert_str_eq(text, c->all);
        snprintf(restored, sizeof(restored), "restored: online %s", c->all);
        ck_assert_msg(strstr(ro.err, restored), "%s %s: the daemon did not say \"%s\":\n%s", c->board, c->mode,
                      restored, text_tail(ro.err, 2000));
        run_out_free(&ro);
}
END_TEST

static Suite *soc_blsim_suite(void)
{
        Suite *s = suite_create("soc-blsim");
        TCase *tc = tcase_create("boards");
        int n = (int)(sizeof(cases) / sizeof(cases[0]));

        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_loop_test(tc, test_compare_on_board, 0, n);
        tcase_add_loop_test(tc, test_live_on_board, 0, n);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(soc_blsim_suite(), "check-soc-blsim");
}
