/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulator's ground floor: board files, traces, the execution rules of
 * one step and the oracle. Expected numbers are worked out by hand in the
 * comments; the test boards use powers of two so that they are exact. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "core/board.h"
#include "core/ladder.h"
#include "loaders/board-file.h"
#include "sim/exec.h"
#include "sim/oracle.h"
#include "sim/trace.h"

#define BOARDS TEST_DATA_DIR "/../../conf/boards"

static struct bl_diag diag;

static void setup(void)
{
        diag_init(&diag);
}

#define ck_assert_diag(i, expected)                                 \
        do {                                                        \
                ck_assert_uint_gt(diag.n, (i));                     \
                ck_assert_str_eq(diag.msg[(i)], (expected));        \
        } while (0)

/* Lines 1-5. */
#define BOARD_SECTION                           \
        "[board]\n"                             \
        "name = test\n"                         \
        "reference_capacity = 1024\n"           \
        "switch_latency_us = 100\n"             \
        "switch_energy_uj = 50\n"
/* 7 lines. */
#define LITTLE_SECTION                          \
        "[cluster.little]\n"                    \
        "cpus = 3\n"                            \
        "order = 0\n"                           \
        "off_mw = 2\n"                          \
        "opp = 100 256 10 4\n"                  \
        "opp = 200 512 30 8\n"                  \
        "opp = 300 768 60 12\n"
/* 6 lines. */
#define BIG_SECTION                             \
        "[cluster.big]\n"                       \
        "cpus = 2\n"                            \
        "order = 1\n"                           \
        "off_mw = 5\n"                          \
        "opp = 500 512 100 20\n"                \
        "opp = 1000 1024 400 40\n"

/* Two clusters of different sizes (3 LITTLE, 2 big, like TC2). */
static const char board2_text[] = BOARD_SECTION LITTLE_SECTION BIG_SECTION;

static const char board3_text[] =
        "[board]\n"
        "name = three\n"
        "reference_capacity = 1024\n"
        "switch_latency_us = 50\n"
        "switch_energy_uj = 20\n"
        "[cluster.big]\n"
        "cpus = 1\n"
        "order = 2\n"
        "off_mw = 8\n"
        "opp = 1000 800 200 30\n"
        "opp = 1500 1024 450 60\n"
        "[cluster.little]\n"
        "cpus = 4\n"
        "order = 0\n"
        "off_mw = 1\n"
        "opp = 200 128 5 2\n"
        "opp = 400 256 12 4\n"
        "[cluster.mid]\n"
        "cpus = 2\n"
        "order = 1\n"
        "off_mw = 3\n"
        "opp = 300 300 40 10\n"
        "opp = 600 600 90 20\n";

static void load_board(struct sim_board *b, const char *text)
{
        ck_assert_uint_eq(board_parse(b, "test.ini", text, strlen(text), &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
}

static unsigned parse_board(const char *text)
{
        struct sim_board b;

        return board_parse(&b, "b.ini", text, strlen(text), &diag);
}

static uint64_t rng_next(uint64_t *state)
{
        uint64_t x = *state;

        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        *state = x;
        return x * 0x2545F4914F6CDD1DULL;
}

/* One to four random edits: a byte replaced, inserted or deleted, from an
 * alphabet that makes near-misses likely. */
static void mutate(char *text, size_t *len, size_t size, uint64_t *state)
{
        static const char alphabet[] = "0123456789.,-+eE \t\r\n[]=#;abx\0";
        unsigned edits = 1 + (unsigned)(rng_next(state) % 4);

        for (unsigned e = 0; e < edits && *len > 0; e++) {
                size_t at = (size_t)(rng_next(state) % *len);
                char c = alphabet[rng_next(state) % (sizeof(alphabet) - 1)];

                switch (rng_next(state) % 3) {
                case 0:
                        text[at] = c;
                        break;
                case 1:
                        if (*len + 1 < size) {
                                memmove(text + at + 1, text + at, *len - at);
                                text[at] = c;
                                (*len)++;
                        }
                        break;
                default:
                        memmove(text + at, text + at + 1, *len - at - 1);
                        (*len)--;
                        break;
                }
        }
}

/* Boards */

START_TEST(test_board_values)
{
        struct sim_board b;

        load_board(&b, board2_text);
        ck_assert_str_eq(b.name, "test");
        ck_assert_uint_eq(b.reference_capacity, 1024);
        ck_assert_double_eq(b.switch_latency_us, 100);
        ck_assert_double_eq(b.switch_energy_uj, 50);
        ck_assert_uint_eq(b.nclusters, 2);
        ck_assert_uint_eq(b.ncpus, 5);
        ck_assert_str_eq(b.cluster[0].name, "little");
        ck_assert_uint_eq(b.cluster[0].cpus, 3);
        ck_assert_uint_eq(b.cluster[0].first_cpu, 0);
        ck_assert_uint_eq(b.cluster[0].nopps, 3);
        ck_assert_uint_eq(b.cluster[0].opp[2].mhz, 300);
        ck_assert_uint_eq(b.cluster[0].opp[2].capacity, 768);
        ck_assert_double_eq(b.cluster[0].opp[2].core_mw, 60);
        ck_assert_double_eq(b.cluster[0].opp[2].idle_mw, 12);
        ck_assert_double_eq(b.cluster[0].off_mw, 2);
        ck_assert_str_eq(b.cluster[1].name, "big");
        ck_assert_uint_eq(b.cluster[1].first_cpu, 3);
        ck_assert_uint_eq(b.cluster[1].cpus, 2);
        ck_assert_uint_eq(b.cluster[1].opp[1].capacity, 1024);
        ck_assert_str_eq(b.cluster[1].core, "");
}
END_TEST

/* Sections in any order; clusters come out sorted by order with their CPUs
 * numbered cluster by cluster. */
START_TEST(test_board_sorted)
{
        struct sim_board b;
        struct bl_topology topo;
        struct bl_ladder ladder;

        load_board(&b, board3_text);
        ck_assert_uint_eq(b.nclusters, 3);
        ck_assert_str_eq(b.cluster[0].name, "little");
        ck_assert_str_eq(b.cluster[1].name, "mid");
        ck_assert_str_eq(b.cluster[2].name, "big");
        ck_assert_uint_eq(b.cluster[0].first_cpu, 0);
        ck_assert_uint_eq(b.cluster[1].first_cpu, 4);
        ck_assert_uint_eq(b.cluster[2].first_cpu, 6);
        ck_assert_uint_eq(b.ncpus, 7);
        ck_assert_double_eq(b.cluster[2].opp[1].core_mw, 450);

        board_topology(&b, &topo);
        ck_assert_uint_eq(topo.ncpus, 7);
        ck_assert_uint_eq(topo.nclusters, 3);
        ck_assert_uint_eq(topo.clusters[0].capacity, 256);
        ck_assert_uint_eq(topo.clusters[1].capacity, 600);
        ck_assert_uint_eq(topo.clusters[2].capacity, 1024);
        ck_assert_uint_eq(topo.clusters[2].max_freq_khz, 1500000);
        ck_assert_int_eq(topo.cpu_cluster[3], 0);
        ck_assert_int_eq(topo.cpu_cluster[4], 1);
        ck_assert_int_eq(topo.cpu_cluster[6], 2);
        ck_assert_int_eq(ladder_build(&ladder, &topo, BL_MODE_CLUSTER, NULL), 0);
        ck_assert_str_eq(ladder.levels[1].name, "mid");
        ck_assert_uint_eq(ladder.levels[2].capacity, 1024);
}
END_TEST

START_TEST(test_board_exynos)
{
        struct sim_board b;
        struct bl_topology topo;

        ck_assert_int_eq(board_load(&b, BOARDS "/exynos5422-like.ini", &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_str_eq(b.name, "exynos5422-like");
        ck_assert_uint_eq(b.nclusters, 2);
        ck_assert_str_eq(b.cluster[0].core, "Cortex-A7");
        ck_assert_uint_eq(b.cluster[0].nopps, 13);
        ck_assert_uint_eq(b.cluster[0].opp[12].capacity, 377);
        ck_assert_uint_eq(b.cluster[1].nopps, 19);
        ck_assert_uint_eq(b.cluster[1].opp[18].capacity, 1024);
        ck_assert_double_eq(b.cluster[1].opp[18].core_mw, 2122);
        ck_assert_double_eq(b.switch_energy_uj, 160);
        board_topology(&b, &topo);
        ck_assert_uint_eq(topo.nclusters, 2);
        ck_assert_uint_eq(topo.clusters[0].capacity, 377);
        ck_assert_uint_eq(topo.clusters[1].capacity, 1024);
}
END_TEST

START_TEST(test_board_tc2)
{
        struct sim_board b;
        struct bl_topology topo;

        ck_assert_int_eq(board_load(&b, BOARDS "/tc2.ini", &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_str_eq(b.name, "tc2");
        ck_assert_uint_eq(b.ncpus, 5);
        ck_assert_uint_eq(b.cluster[0].cpus, 3);
        ck_assert_uint_eq(b.cluster[1].cpus, 2);
        ck_assert_uint_eq(b.cluster[0].nopps, 8);
        ck_assert_uint_eq(b.cluster[1].nopps, 8);
        ck_assert_uint_eq(b.cluster[0].opp[0].mhz, 350);
        ck_assert_uint_eq(b.cluster[0].opp[0].capacity, 150);
        ck_assert_uint_eq(b.cluster[0].opp[7].capacity, 430);
        ck_assert_uint_eq(b.cluster[1].opp[0].capacity, 426);
        ck_assert_uint_eq(b.cluster[1].opp[7].mhz, 1200);
        ck_assert_uint_eq(b.cluster[1].opp[7].capacity, 1024);
        /* 6997 and 15200 EAS units at 0.18719 mW each. */
        ck_assert_double_eq_tol(b.cluster[1].opp[7].core_mw, 6997 * 0.18719, 0.05);
        ck_assert_double_eq_tol(b.cluster[1].opp[7].idle_mw, 15200 * 0.18719, 0.05);
        ck_assert_double_eq_tol(b.cluster[0].opp[0].idle_mw, 2967 * 0.18719, 0.05);
        board_topology(&b, &topo);
        ck_assert_uint_eq(topo.nclusters, 2);
        ck_assert_uint_eq(topo.clusters[0].capacity, 430);
        ck_assert_int_eq(topo.cpu_cluster[2], 0);
        ck_assert_int_eq(topo.cpu_cluster[3], 1);
}
END_TEST

START_TEST(test_board_missing_file)
{
        struct sim_board b;

        ck_assert_int_eq(board_load(&b, BOARDS "/no-such-board.ini", &diag), -ENOENT);
        ck_assert_diag(0, BOARDS "/no-such-board.ini: cannot read: No such file or directory");
}
END_TEST

/* A FIFO given as the board or the trace is refused at once, not waited
 * on (issue 18 item 3). */
START_TEST(test_fifo_refused)
{
        char path[64], want[128];
        struct sim_board b;
        struct sim_trace t;

        snprintf(path, sizeof(path), "%s/bl-sim-fifo.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(path));
        strcat(path, "/board.ini");
        ck_assert_int_eq(mkfifo(path, 0644), 0);
        ck_assert_int_eq(board_load(&b, path, &diag), -EINVAL);
        snprintf(want, sizeof(want), "%s: not a regular file (FIFO)", path);
        ck_assert_diag(0, want);
        diag_init(&diag);
        ck_assert_int_eq(trace_load(&t, path, &diag), -EINVAL);
        ck_assert_diag(0, want);
        ck_assert_int_eq(unlink(path), 0);
        *strrchr(path, '/') = '\0';
        ck_assert_int_eq(rmdir(path), 0);
}
END_TEST

struct bad_board {
        const char *text;
        const char *msg[2];
};

static const struct bad_board bad_boards[] = {
        { "[boards]\n" BOARD_SECTION LITTLE_SECTION BIG_SECTION,
          { "b.ini:1: unknown section [boards] (expected [board], [cluster.NAME] or [backend.NAME])" } },
        { BOARD_SECTION "nmae = x\n" LITTLE_SECTION BIG_SECTION,
          { "b.ini:6: [board]: unknown key \"nmae\" (known: name, reference_capacity, switch_latency_us, "
            "switch_energy_uj, ambient_c)" } },
        { BOARD_SECTION LITTLE_SECTION "cpu = 3\n" BIG_SECTION,
          { "b.ini:13: [cluster.little]: unknown key \"cpu\" (known: cpus, order, off_mw, core, opp, "
            "thermal_r_c_per_w, thermal_c_j_per_c, trip_passive_c, trip_critical_c)" } },
        { "[board]\nname = test\nreference_capacity = 1024\nswitch_latency_us = 100\n"
          LITTLE_SECTION BIG_SECTION,
          { "b.ini:1: [board]: missing key \"switch_energy_uj\" (a number of µJ)" } },
        { BOARD_SECTION LITTLE_SECTION "[cluster.big]\ncpus = 2\noff_mw = 5\nopp = 500 512 100 20\n",
          { "b.ini:13: [cluster.big]: missing key \"order\" (an integer 0-7, 0 = most efficient)" } },
        { BOARD_SECTION LITTLE_SECTION "[cluster.big]\ncpus = 2\norder = 1\noff_mw = 5\n",
          { "b.ini:13: [cluster.big]: expected at least one \"opp = MHz capacity core_mW idle_mW\" line, "
            "got none" } },
        { BOARD_SECTION "[cluster.little]\ncpus = 0\norder = 0\noff_mw = 2\n"
          "opp = 100 256 10 4\n" BIG_SECTION,
          { "b.ini:7: cpus: expected an integer 1-64, got \"0\"" } },
        { BOARD_SECTION "[cluster.little]\ncpus = -1\norder = 0\noff_mw = 2\n"
          "opp = 100 256 10 4\n" BIG_SECTION,
          { "b.ini:7: cpus: expected an integer 1-64, got \"-1\"" } },
        { BOARD_SECTION "[cluster.little]\ncpus = 2.5\norder = 0\noff_mw = 2\n"
          "opp = 100 256 10 4\n" BIG_SECTION,
          { "b.ini:7: cpus: expected an integer 1-64, got \"2.5\"" } },
        { BOARD_SECTION "[cluster.little]\ncpus = 65\norder = 0\noff_mw = 2\n"
          "opp = 100 256 10 4\n" BIG_SECTION,
          { "b.ini:7: cpus: expected an integer 1-64, got \"65\"" } },
        { BOARD_SECTION "[cluster.little]\ncpus = 3\norder = 0\noff_mw = -1\n"
          "opp = 100 256 10 4\n" BIG_SECTION,
          { "b.ini:9: off_mw: expected a number 0-1000000 (mW), got \"-1\"" } },
        { BOARD_SECTION "[cluster.little]\ncpus = 3\norder = x\noff_mw = 1\n"
          "opp = 100 256 10 4\n" BIG_SECTION,
          { "b.ini:8: order: expected an integer 0-7, got \"x\"" } },
        { "[board]\nname = test\nreference_capacity = 0\nswitch_latency_us = 100\nswitch_energy_uj = 50\n"
          LITTLE_SECTION BIG_SECTION,
          { "b.ini:3: reference_capacity: expected an integer 1-1000000, got \"0\"" } },
        { "[board]\nname = test\nreference_capacity = 1024\nswitch_latency_us = 1e3\nswitch_energy_uj = 50\n"
          LITTLE_SECTION BIG_SECTION,
          { "b.ini:4: switch_latency_us: expected a number 0-1000000 (µs), got \"1e3\"" } },
        { "[board]\nname = test\nreference_capacity = 1024\nswitch_latency_us = 1\nswitch_energy_uj = .5\n"
          LITTLE_SECTION BIG_SECTION,
          { "b.ini:5: switch_energy_uj: expected a number 0-1000000 (µJ), got \".5\"" } },
        { "[board]\nname = my board\nreference_capacity = 1024\nswitch_latency_us = 1\nswitch_energy_uj = 5\n"
          LITTLE_SECTION BIG_SECTION,
          { "b.ini:2: name: expected letters, digits, \"_\", \"-\", \".\" and \"+\" (at most 63 characters), "
            "got \"my board\"" } },
        { BOARD_SECTION LITTLE_SECTION "opp = 400 900\n" BIG_SECTION,
          { "b.ini:13: opp: expected 4 numbers \"MHz capacity core_mW idle_mW\", got \"400 900\"" } },
        { BOARD_SECTION LITTLE_SECTION "opp = 400 900 1 2 3\n" BIG_SECTION,
          { "b.ini:13: opp: expected 4 numbers \"MHz capacity core_mW idle_mW\", got \"400 900 1 2 3\"" } },
        { BOARD_SECTION LITTLE_SECTION "opp = 0 900 1 2\n" BIG_SECTION,
          { "b.ini:13: opp: expected MHz as an integer 1-100000, got \"0\"" } },
        { BOARD_SECTION LITTLE_SECTION "opp = 400 9x 1 2\n" BIG_SECTION,
          { "b.ini:13: opp: expected capacity as an integer 1-1000000, got \"9x\"" } },
        { BOARD_SECTION LITTLE_SECTION "opp = 400 900 -1 2\n" BIG_SECTION,
          { "b.ini:13: opp: expected core_mW as a number 0-1000000, got \"-1\"" } },
        { BOARD_SECTION LITTLE_SECTION "opp = 400 900 1 nan\n" BIG_SECTION,
          { "b.ini:13: opp: expected idle_mW as a number 0-1000000, got \"nan\"" } },
        { BOARD_SECTION LITTLE_SECTION "opp = 300 900 1 2\n" BIG_SECTION,
          { "b.ini:13: opp: expected MHz above 300 (the opp of line 12), got \"300\"" } },
        { BOARD_SECTION LITTLE_SECTION "opp = 400 768 1 2\n" BIG_SECTION,
          { "b.ini:13: opp: expected capacity above 768 (the opp of line 12), got \"768\"" } },
        { BOARD_SECTION LITTLE_SECTION
          "[cluster.big]\ncpus = 2\norder = 1\noff_mw = 5\nopp = 500 1025 100 20\n",
          { "b.ini:17: opp: expected a capacity of at most reference_capacity (1024, line 3), "
            "got \"1025\"" } },
        { BOARD_SECTION LITTLE_SECTION
          "[cluster.big]\ncpus = 2\norder = 2\noff_mw = 5\nopp = 500 1024 100 20\n",
          { "b.ini:15: order: expected 0-1 (one per cluster), got \"2\"" } },
        { BOARD_SECTION LITTLE_SECTION
          "[cluster.big]\ncpus = 2\norder = 0\noff_mw = 5\nopp = 500 1024 100 20\n",
          { "b.ini:15: order: expected a value no other cluster has, got \"0\" "
            "(also [cluster.little], line 8)" } },
        { BOARD_SECTION LITTLE_SECTION
          "[cluster.big]\ncpus = 2\norder = 1\noff_mw = 5\nopp = 500 768 100 20\n",
          { "b.ini:13: [cluster.big]: expected a top capacity above 768 (that of [cluster.little], order 0: "
            "clusters get faster with their order), got 768" } },
        { BOARD_SECTION LITTLE_SECTION "cpus = 4\n" BIG_SECTION,
          { "b.ini:13: cpus: set twice in this section (first at line 7)" } },
        { BOARD_SECTION LITTLE_SECTION BIG_SECTION "[cluster.little]\ncpus = 1\n",
          { "b.ini:19: duplicate section [cluster.little] (first at line 6)" } },
        { BOARD_SECTION LITTLE_SECTION BIG_SECTION "[board]\nname = again\n",
          { "b.ini:19: duplicate section [board] (first at line 1)" } },
        { BOARD_SECTION "[cluster.]\ncpus = 1\n" LITTLE_SECTION BIG_SECTION,
          { "b.ini:6: [cluster.]: expected a cluster name of letters, digits, \"_\" and \"-\" (at most 31 "
            "characters), got \"\"" } },
        { BOARD_SECTION "[cluster.a.b]\n" LITTLE_SECTION BIG_SECTION,
          { "b.ini:6: [cluster.a.b]: expected a cluster name of letters, digits, \"_\" and \"-\" (at most 31 "
            "characters), got \"a.b\"" } },
        { LITTLE_SECTION BIG_SECTION,
          { "b.ini: missing section [board]" } },
        { BOARD_SECTION,
          { "b.ini: expected at least one [cluster.NAME] section, got none" } },
        { BOARD_SECTION "garbage\n" LITTLE_SECTION BIG_SECTION,
          { "b.ini:6: expected \"key = value\" or \"[section]\", got \"garbage\"" } },
        { "name = x\n" BOARD_SECTION LITTLE_SECTION BIG_SECTION,
          { "b.ini:1: key \"name\" outside of any section" } },
        /* Problems reported where the value stood do not come back as missing keys. */
        { BOARD_SECTION "[cluster.little]\ncpus = 3\norder = 0\noff_mw = 2\nopp = 100 256 10\n" BIG_SECTION,
          { "b.ini:10: opp: expected 4 numbers \"MHz capacity core_mW idle_mW\", got \"100 256 10\"" } },
        /* Two problems in one file, in line order. */
        { BOARD_SECTION "[cluster.little]\ncpus = 3\norder = 0\nopp = 100 256 10 4\n"
          "[cluster.big]\ncpus = 2\norder = 1\noff_mw = 5\nopp = 500 1024 100 20\nopp = 400 1024 1 1\n",
          { "b.ini:15: opp: expected MHz above 500 (the opp of line 14), got \"400\"",
            "b.ini:6: [cluster.little]: missing key \"off_mw\" (a number of mW)" } },
};

START_TEST(test_board_errors)
{
        const struct bad_board *t = &bad_boards[_i];
        unsigned expected = t->msg[1] ? 2 : 1;

        ck_assert_uint_eq(parse_board(t->text), expected);
        ck_assert_uint_eq(diag.n, expected);
        ck_assert_diag(0, t->msg[0]);
        if (t->msg[1])
                ck_assert_diag(1, t->msg[1]);
}
END_TEST

START_TEST(test_board_too_many_clusters)
{
        char text[4096];
        size_t used = (size_t)snprintf(text, sizeof(text), "%s", BOARD_SECTION);

        /* Lines 6, 12, ... 54: the ninth header is refused. */
        for (unsigned k = 0; k < 9; k++)
                used += (size_t)snprintf(text + used, sizeof(text) - used,
                                         "[cluster.c%u]\ncpus = 1\norder = %u\noff_mw = 0\nopp = 100 %u 1 1\n"
                                         "core = x\n", k, k, 100 * (k + 1));
        ck_assert_uint_eq(parse_board(text), 1);
        ck_assert_diag(0, "b.ini:54: [cluster.c8]: expected at most 8 clusters, got another");
}
END_TEST

START_TEST(test_board_too_many_cpus)
{
        static const char text[] = BOARD_SECTION
                "[cluster.little]\ncpus = 40\norder = 0\noff_mw = 2\nopp = 100 256 10 4\n"
                "[cluster.big]\ncpus = 30\norder = 1\noff_mw = 5\nopp = 500 1024 100 20\n";

        ck_assert_uint_eq(parse_board(text), 1);
        ck_assert_diag(0, "b.ini:12: cpus: expected at most 64 CPUs on the board, got 70 with [cluster.big]");
}
END_TEST

START_TEST(test_board_too_many_opps)
{
        char text[8192];
        size_t used = (size_t)snprintf(text, sizeof(text),
                                       "%s[cluster.one]\ncpus = 1\norder = 0\noff_mw = 0\n", BOARD_SECTION);

        /* OPP lines start at line 10; the 33rd is line 42. */
        for (unsigned o = 0; o < 33; o++)
                used += (size_t)snprintf(text + used, sizeof(text) - used, "opp = %u %u 1 1\n", 100 + o,
                                         10 + o);
        ck_assert_uint_eq(parse_board(text), 1);
        ck_assert_diag(0, "b.ini:42: opp: expected at most 32 opp lines per cluster, got another");
}
END_TEST

/* A single cluster is a valid board (only fixed runs make sense on it). */
START_TEST(test_board_one_cluster)
{
        struct sim_board b;

        load_board(&b, BOARD_SECTION "[cluster.only]\ncpus = 4\norder = 0\noff_mw = 0\nopp = 100 1024 1 1\n"
                       "core = Cortex-X1\n");
        ck_assert_uint_eq(b.nclusters, 1);
        ck_assert_str_eq(b.cluster[0].core, "Cortex-X1");
}
END_TEST

START_TEST(test_board_errors_file)
{
        _cleanup_free_ char *text = NULL, *expected = NULL;
        struct sim_board b;
        char *line, *save = NULL;
        unsigned i = 0;
        size_t len;

        ck_assert_int_eq(read_file(TEST_DATA_DIR "/sim/board-errors.ini", &text, &len), 0);
        ck_assert_int_eq(read_file(TEST_DATA_DIR "/sim/board-errors.expected", &expected, NULL), 0);
        ck_assert_uint_eq(board_parse(&b, "board-errors.ini", text, len, &diag), 9);
        for (line = strtok_r(expected, "\n", &save); line; line = strtok_r(NULL, "\n", &save), i++)
                ck_assert_diag(i, line);
        ck_assert_uint_eq(i, 9);
        ck_assert_uint_eq(diag.n, 9);
}
END_TEST

/* Traces */

static int parse_trace(struct sim_trace *t, const char *text)
{
        return trace_parse(t, "t.csv", text, strlen(text), &diag);
}

START_TEST(test_trace_values)
{
        static const char *const texts[] = {
                "# bigLittle-trace v1 step_us=1000\nt_us,lane0,lane1\n0,1.5,2\n1000,0.25,1e3\n2000,0,7\n",
                /* CRLF, no final newline, blanks around fields and names. */
                "# bigLittle-trace v1 step_us=1000\r\nt_us, lane0 ,lane1\r\n0, 1.5 ,2\r\n1000,\t0.25,1E+3\r\n"
                "2000 ,0.000,7.0",
                /* Comments before the header, as a recording writes them. */
                "# bigLittle-trace v1 step_us=1000\n# recorded by bigLittled\n#\n"
                "# saturated: lane1 2 of 3 steps\n"
                "t_us,lane0,lane1\n0,1.5,2\n1000,0.25,1e3\n2000,0,7\n",
        };

        for (unsigned i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
                struct sim_trace t;

                ck_assert_int_eq(parse_trace(&t, texts[i]), 0);
                ck_assert_uint_eq(diag.n, 0);
                ck_assert_uint_eq(t.step_us, 1000);
                ck_assert_uint_eq(t.nlanes, 2);
                ck_assert_uint_eq(t.nsteps, 3);
                ck_assert_float_eq(t.work[0], 1.5f);
                ck_assert_float_eq(t.work[1], 2.0f);
                ck_assert_float_eq(t.work[2], 0.25f);
                ck_assert_float_eq(t.work[3], 1000.0f);
                ck_assert_float_eq(t.work[4], 0.0f);
                ck_assert_float_eq(t.work[5], 7.0f);
                trace_free(&t);
                ck_assert_ptr_null(t.work);
        }
}
END_TEST

/* The hand-written number parser agrees with strtod() to the last bit of
 * the float it stores. */
START_TEST(test_trace_numbers)
{
        static const char *const numbers[] = {
                "0.1", "123456.789", "1e-3", "0.000001", "3.14159265358979323846264338327950288",
                "999999999999", "1000000000000", "12345678901234567890123", "0.00000000000000000000000001",
                "7E2", "1.0e+0", "00012.50", "4503599627370497", "0.3333333333333333333333333",
        };
        char text[256];

        for (unsigned i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
                struct sim_trace t;
                float expect = (float)strtod(numbers[i], NULL);
                int r;

                snprintf(text, sizeof(text), "# bigLittle-trace v1 step_us=10\nt_us,lane0\n0,%s\n",
                         numbers[i]);
                r = parse_trace(&t, text);
                if (strtod(numbers[i], NULL) > SIM_TRACE_WORK_MAX) {
                        ck_assert_int_eq(r, 1);
                        continue;
                }
                ck_assert_msg(r == 0, "%s: %s", numbers[i], diag.n ? diag.msg[0] : "");
                ck_assert_msg(t.work[0] == expect, "%s: got %.9g, expected %.9g", numbers[i], t.work[0],
                              expect);
                trace_free(&t);
        }
}
END_TEST

struct bad_trace {
        const char *text;
        const char *msg;
};

#define HEAD "# bigLittle-trace v1 step_us=1000\nt_us,lane0,lane1\n"

static const struct bad_trace bad_traces[] = {
        { "", "t.csv:1: expected \"# bigLittle-trace v1 step_us=N\", got an empty file" },
        { "t_us,lane0\n0,1\n", "t.csv:1: expected \"# bigLittle-trace v1 step_us=N\", got \"t_us,lane0\"" },
        { "# bigLittle-trace v2 step_us=1000\nt_us,lane0\n0,1\n",
          "t.csv:1: unsupported trace version \"v2\" (expected v1)" },
        { "# bigLittle-trace v1 step=1000\nt_us,lane0\n0,1\n",
          "t.csv:1: expected \" step_us=N\" after \"# bigLittle-trace v1\", got \" step=1000\"" },
        { "# bigLittle-trace v1 step_us=0\nt_us,lane0\n0,1\n",
          "t.csv:1: step_us: expected an integer 1-1000000000 (µs), got \"0\"" },
        { "# bigLittle-trace v1 step_us=-5\nt_us,lane0\n0,1\n",
          "t.csv:1: step_us: expected an integer 1-1000000000 (µs), got \"-5\"" },
        { "# bigLittle-trace v1 step_us=2.5\nt_us,lane0\n0,1\n",
          "t.csv:1: step_us: expected an integer 1-1000000000 (µs), got \"2.5\"" },
        { "# bigLittle-trace v1 step_us=1000",
          "t.csv:2: expected a header \"t_us,lane0,...\", got the end of the file" },
        { "# bigLittle-trace v1 step_us=1000\ntime,lane0\n0,1\n",
          "t.csv:2: header: expected \"t_us\" as column 1, got \"time\"" },
        { "# bigLittle-trace v1 step_us=1000\nt_us,lane0,lane2\n0,1,2\n",
          "t.csv:2: header: expected \"lane1\" as column 3, got \"lane2\"" },
        { "# bigLittle-trace v1 step_us=1000\nt_us,lane0,\n0,1,2\n",
          "t.csv:2: header: expected \"lane1\" as column 3, got \"\"" },
        { "# bigLittle-trace v1 step_us=1000\n# a comment\n",
          "t.csv:3: expected a header \"t_us,lane0,...\", got the end of the file" },
        { "# bigLittle-trace v1 step_us=1000\n# a comment\ntime,lane0\n0,1\n",
          "t.csv:3: header: expected \"t_us\" as column 1, got \"time\"" },
        { HEAD "0,1,2\n# not here\n", "t.csv:4: expected 3 fields (t_us and 2 lanes), got 1" },
        { "# bigLittle-trace v1 step_us=1000\nt_us\n0\n",
          "t.csv:2: header: expected at least one lane column after \"t_us\", got none" },
        { HEAD, "t.csv:3: expected at least one row after the header, got none" },
        { HEAD "0,1,2\n1000,1\n", "t.csv:4: expected 3 fields (t_us and 2 lanes), got 2" },
        { HEAD "0,1,2\n1000,1,2,3\n", "t.csv:4: expected 3 fields (t_us and 2 lanes), got 4" },
        { HEAD "0,1,2\n2000,1,2\n3000,1,2\n",
          "t.csv:4: t_us: expected 1000 (the previous row's + step_us), got \"2000\"" },
        { HEAD "1000,1,2\n", "t.csv:3: t_us: expected 0 in the first row, got \"1000\"" },
        { HEAD "x,1,2\n", "t.csv:3: t_us: expected an integer, got \"x\"" },
        { HEAD "0,1,abc\n", "t.csv:3: lane1: expected a non-negative number (reference-µs), got \"abc\"" },
        { HEAD "0,-1,2\n", "t.csv:3: lane0: expected a non-negative number (reference-µs), got \"-1\"" },
        { HEAD "0,1.,2\n", "t.csv:3: lane0: expected a non-negative number (reference-µs), got \"1.\"" },
        { HEAD "0,.5,2\n", "t.csv:3: lane0: expected a non-negative number (reference-µs), got \".5\"" },
        { HEAD "0,1e,2\n", "t.csv:3: lane0: expected a non-negative number (reference-µs), got \"1e\"" },
        { HEAD "0,nan,2\n", "t.csv:3: lane0: expected a non-negative number (reference-µs), got \"nan\"" },
        { HEAD "0,1 2,2\n", "t.csv:3: lane0: expected a non-negative number (reference-µs), got \"1 2\"" },
        { HEAD "0,1,\n", "t.csv:3: lane1: expected a non-negative number (reference-µs), got \"\"" },
        { HEAD "0,2e12,2\n", "t.csv:3: lane0: expected at most 1e+12 reference-µs, got \"2e12\"" },
        { HEAD "0,1,2\n\n1000,1,2\n", "t.csv:4: expected a row of 3 fields, got an empty line" },
        { HEAD "0,1,2\n1000,1,2\n\n", "t.csv:5: expected a row of 3 fields, got an empty line" },
};

START_TEST(test_trace_errors)
{
        const struct bad_trace *b = &bad_traces[_i];
        struct sim_trace t;

        ck_assert_int_eq(parse_trace(&t, b->text), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_diag(0, b->msg);
        ck_assert_ptr_null(t.work);
        ck_assert_uint_eq(t.nsteps, 0);
}
END_TEST

START_TEST(test_trace_errors_file)
{
        _cleanup_free_ char *expected = NULL;
        struct sim_trace t;
        char *line, *save = NULL;
        unsigned i = 0;

        ck_assert_int_eq(trace_load(&t, TEST_DATA_DIR "/sim/trace-errors.csv", &diag), 6);
        ck_assert_int_eq(read_file(TEST_DATA_DIR "/sim/trace-errors.expected", &expected, NULL), 0);
        for (line = strtok_r(expected, "\n", &save); line; line = strtok_r(NULL, "\n", &save), i++) {
                char full[BL_DIAG_LEN];

                snprintf(full, sizeof(full), "%s/sim/%s", TEST_DATA_DIR, line);
                ck_assert_diag(i, full);
        }
        ck_assert_uint_eq(i, 6);
        ck_assert_uint_eq(diag.n, 6);
        ck_assert_ptr_null(t.work);
}
END_TEST

START_TEST(test_trace_load)
{
        struct sim_trace t;

        ck_assert_int_eq(trace_load(&t, TEST_DATA_DIR "/sim/small.csv", &diag), 0);
        ck_assert_uint_eq(t.step_us, 500);
        ck_assert_uint_eq(t.nlanes, 4);
        ck_assert_uint_eq(t.nsteps, 6);
        ck_assert_float_eq(t.work[4 * 4 + 3], 75.5f);
        trace_free(&t);
        ck_assert_int_eq(trace_load(&t, TEST_DATA_DIR "/sim/no-such.csv", &diag), -ENOENT);
        ck_assert_diag(0, TEST_DATA_DIR "/sim/no-such.csv: cannot read: No such file or directory");
        ck_assert_int_eq(trace_load(&t, TEST_DATA_DIR "/sim", &diag), -EISDIR);
}
END_TEST

/* Many bad rows: every one is counted, the first 64 are kept. */
START_TEST(test_trace_many_errors)
{
        char text[8192];
        size_t used = (size_t)snprintf(text, sizeof(text), "%s", HEAD);
        struct sim_trace t;

        for (unsigned s = 0; s < 100; s++)
                used += (size_t)snprintf(text + used, sizeof(text) - used, "%u,1,x\n", s * 1000);
        ck_assert_int_eq(parse_trace(&t, text), 100);
        ck_assert_uint_eq(diag.n, BL_DIAG_MAX);
        ck_assert_uint_eq(diag_count(&diag), 100);
        ck_assert_diag(63, "t.csv:66: lane1: expected a non-negative number (reference-µs), got \"x\"");
}
END_TEST

/* Random damage to valid files: never a crash, and a file either parses
 * or every message names it and a line. */
static void check_messages(const char *prefix)
{
        for (unsigned i = 0; i < diag.n; i++)
                ck_assert_msg(strncmp(diag.msg[i], prefix, strlen(prefix)) == 0, "%s", diag.msg[i]);
}

START_TEST(test_trace_mutations)
{
        static const char base[] = "# bigLittle-trace v1 step_us=1000\nt_us,lane0,lane1\n0,1.5,2\n"
                                   "1000,0.25,1e3\n2000,0,7\n3000,12,0\n";
        uint64_t state = 42;

        for (unsigned run = 0; run < 3000; run++) {
                char text[256];
                size_t len = sizeof(base) - 1;
                struct sim_trace t;
                int r;

                memcpy(text, base, len);
                mutate(text, &len, sizeof(text), &state);
                diag_init(&diag);
                r = trace_parse(&t, "t.csv", text, len, &diag);
                ck_assert_int_ge(r, 0);
                ck_assert_uint_eq((unsigned)r, diag_count(&diag));
                check_messages("t.csv:");
                if (r == 0) {
                        ck_assert_uint_gt(t.nsteps, 0);
                        ck_assert_ptr_nonnull(t.work);
                        for (size_t i = 0; i < t.nsteps * t.nlanes; i++)
                                ck_assert(t.work[i] >= 0 && t.work[i] <= SIM_TRACE_WORK_MAX);
                } else {
                        ck_assert_ptr_null(t.work);
                }
                trace_free(&t);
        }
}
END_TEST

START_TEST(test_board_mutations)
{
        uint64_t state = 7;

        for (unsigned run = 0; run < 3000; run++) {
                char text[1024];
                size_t len = sizeof(board2_text) - 1;
                struct sim_board b;
                unsigned problems;

                memcpy(text, board2_text, len);
                mutate(text, &len, sizeof(text), &state);
                diag_init(&diag);
                problems = board_parse(&b, "b.ini", text, len, &diag);
                ck_assert_uint_eq(problems, diag_count(&diag));
                check_messages("b.ini");
                if (problems == 0) {
                        ck_assert_uint_ge(b.nclusters, 1);
                        for (unsigned k = 0; k < b.nclusters; k++) {
                                ck_assert_uint_eq(b.cluster[k].order, k);
                                ck_assert_uint_ge(b.cluster[k].nopps, 1);
                        }
                }
        }
}
END_TEST

/* Execution rules */

static struct sim_board board2, board3;

static void exec_setup(void)
{
        diag_init(&diag);
        load_board(&board2, board2_text);
        load_board(&board3, board3_text);
}

START_TEST(test_dvfs_boundaries)
{
        const struct sim_cluster *little = &board2.cluster[0];

        /* OPP 0 (256) serves pending p while 256 x 1000 >= 1.25 x 1024 x p, i.e. p <= 200. */
        ck_assert_uint_eq(exec_pick_opp(little, 1024, 0, 1000), 0);
        ck_assert_uint_eq(exec_pick_opp(little, 1024, 200, 1000), 0);
        ck_assert_uint_eq(exec_pick_opp(little, 1024, nextafter(200, 1000), 1000), 1);
        ck_assert_uint_eq(exec_pick_opp(little, 1024, 200, nextafter(1000, 0)), 1);
        /* 512 serves up to 400, 768 up to 600, above that the top one anyway. */
        ck_assert_uint_eq(exec_pick_opp(little, 1024, 400, 1000), 1);
        ck_assert_uint_eq(exec_pick_opp(little, 1024, 400.001, 1000), 2);
        ck_assert_uint_eq(exec_pick_opp(little, 1024, 600, 1000), 2);
        ck_assert_uint_eq(exec_pick_opp(little, 1024, 5000, 1000), 2);
        /* Less time needs more capacity: 200 in 400 µs needs 640, 100 in 500
         * exactly 256. */
        ck_assert_uint_eq(exec_pick_opp(little, 1024, 200, 400), 2);
        ck_assert_uint_eq(exec_pick_opp(little, 1024, 100, 500), 0);
        /* No time at all: the top OPP, with or without work. */
        ck_assert_uint_eq(exec_pick_opp(little, 1024, 10, 0), 2);
        ck_assert_uint_eq(exec_pick_opp(little, 1024, 0, 0), 2);
        /* The reference capacity scales the need: with 512, p = 400 fits OPP 0. */
        ck_assert_uint_eq(exec_pick_opp(little, 512, 400, 1000), 0);
}
END_TEST

START_TEST(test_exec_idle)
{
        double backlog[2] = { 0, 0 }, work[2] = { 0, 0 };
        struct sim_step out;

        /* LITTLE at OPP 0: idle 4 mW x 1000 µs, big off 5 mW x 1000 µs. */
        exec_step(&board2, 0, false, 1000, 2, backlog, work, &out);
        ck_assert_uint_eq(out.opp, 0);
        ck_assert_double_eq(out.avail_us, 1000);
        ck_assert_double_eq(out.energy_nj, 9000);
        ck_assert_double_eq(out.backlog, 0);
        for (unsigned cpu = 0; cpu < 3; cpu++)
                ck_assert_double_eq(out.busy_us[cpu], 0);

        /* big: idle 20 mW, LITTLE off 2 mW. */
        exec_step(&board2, 1, false, 1000, 2, backlog, work, &out);
        ck_assert_double_eq(out.energy_nj, 22000);

        /* A switch into it adds 50 µJ and takes 100 µs, but idle and off power
         * are paid for the whole step. */
        exec_step(&board2, 1, true, 1000, 2, backlog, work, &out);
        ck_assert_double_eq(out.avail_us, 900);
        ck_assert_double_eq(out.energy_nj, 72000);

        /* Three clusters: the two others are both off. little idle 2, mid off 3, big off 8. */
        exec_step(&board3, 0, false, 1000, 2, backlog, work, &out);
        ck_assert_double_eq(out.energy_nj, 13000);
        exec_step(&board3, 1, false, 1000, 2, backlog, work, &out);
        ck_assert_double_eq(out.energy_nj, 19000);
}
END_TEST

START_TEST(test_exec_lanes_spread)
{
        double backlog[5] = { 0 }, work[5] = { 10, 20, 0, 40, 50 };
        struct sim_step out;

        /* 3 LITTLE CPUs: lanes 0 and 1 on CPUs 0 and 1 as their own; lane 3
         * (on CPU 0 by its number) moves to CPU 2, idle without lane 2's
         * work; lane 4 finds no idle CPU and shares CPU 1: 10, 70, 40 (by
         * number alone 50, 70, 0). The busiest needs 1.25 x 1024 x 70 =
         * 89600 <= 256 x 1000: OPP 0, busy = 4 x pending. */
        exec_step(&board2, 0, false, 1000, 5, backlog, work, &out);
        ck_assert_uint_eq(out.opp, 0);
        ck_assert_double_eq(out.busy_us[0], 40);
        ck_assert_double_eq(out.busy_us[1], 280);
        ck_assert_double_eq(out.busy_us[2], 160);
        /* 480 µs x 10 mW + 4 mW idle + 5 mW big off, over 1000 µs. */
        ck_assert_double_eq(out.energy_nj, 13800);
        ck_assert_double_eq(out.backlog, 0);

        /* 2 big CPUs, both with a lane of their own: the others stay where
         * their numbers put them, 0 + 4 and 1 + 3: 60, 60. OPP 0 (512), busy
         * = 2 x pending. */
        exec_step(&board2, 1, false, 1000, 5, backlog, work, &out);
        ck_assert_uint_eq(out.opp, 0);
        ck_assert_double_eq(out.busy_us[0], 120);
        ck_assert_double_eq(out.busy_us[1], 120);
        /* 240 µs x 100 mW + 20 mW idle + 2 mW LITTLE off. */
        ck_assert_double_eq(out.energy_nj, 46000);

        /* One lane on three CPUs: the others stay idle. */
        exec_step(&board2, 0, false, 1000, 1, backlog, work, &out);
        ck_assert_double_eq(out.busy_us[0], 40);
        ck_assert_double_eq(out.busy_us[1], 0);
        ck_assert_double_eq(out.busy_us[2], 0);
}
END_TEST

START_TEST(test_exec_backlog_shared)
{
        double backlog[4] = { 150, 0, 0, 0 }, work[4] = { 350, 600, 600, 500 }, none[4] = { 0 };
        struct sim_step out;

        /* Four lanes with work on three LITTLE CPUs: lane 3 has no idle CPU
         * to go to and shares CPU 0 with lane 0 (its backlog first): 1000
         * pending, more than the top OPP (768) does in 1000 µs. Busy capped
         * at 1000, 750 done, a quarter left, shared as the lanes brought it;
         * CPUs 1 and 2 finish their 600 in 800 µs. */
        exec_step(&board2, 0, false, 1000, 4, backlog, work, &out);
        ck_assert_uint_eq(out.opp, 2);
        ck_assert_double_eq(out.busy_us[0], 1000);
        ck_assert_double_eq(out.busy_us[1], 800);
        ck_assert_double_eq(out.busy_us[2], 800);
        ck_assert_double_eq(backlog[0], 125);
        ck_assert_double_eq(backlog[1], 0);
        ck_assert_double_eq(backlog[2], 0);
        ck_assert_double_eq(backlog[3], 125);
        ck_assert_double_eq(out.backlog, 250);
        /* 2600 µs x 60 mW + 12 mW idle + 5 mW off. */
        ck_assert_double_eq(out.energy_nj, 173000);

        /* The next step carries it, lane 3 on CPU 1, idle now: 125 pending
         * each fits OPP 0 (256), busy 500 µs each, all done (together on
         * CPU 0, 250 would need OPP 1 and 500 µs of one CPU). */
        exec_step(&board2, 0, false, 1000, 4, backlog, none, &out);
        ck_assert_uint_eq(out.opp, 0);
        ck_assert_double_eq(out.busy_us[0], 500);
        ck_assert_double_eq(out.busy_us[1], 500);
        ck_assert_double_eq(out.busy_us[2], 0);
        ck_assert_double_eq(out.backlog, 0);
        ck_assert_double_eq(backlog[0], 0);
        ck_assert_double_eq(backlog[3], 0);
        /* 1000 x 10 + 4 x 1000 + 5 x 1000. */
        ck_assert_double_eq(out.energy_nj, 19000);
}
END_TEST

START_TEST(test_exec_switch_stall)
{
        double backlog[1] = { 0 }, work[1] = { 400 };
        struct sim_step out;

        /* Without a switch 400 fits OPP 0 of big exactly (1.25 x 1024 x 400 =
         * 512 x 1000): busy 800 µs x 100 mW + 20 idle + 2 off. */
        exec_step(&board2, 1, false, 1000, 1, backlog, work, &out);
        ck_assert_uint_eq(out.opp, 0);
        ck_assert_double_eq(out.busy_us[0], 800);
        ck_assert_double_eq(out.energy_nj, 102000);

        /* With one, 900 µs are left: OPP 1, busy 400 µs x 400 mW + 40 idle + 2
         * off + 50 µJ. */
        exec_step(&board2, 1, true, 1000, 1, backlog, work, &out);
        ck_assert_uint_eq(out.opp, 1);
        ck_assert_double_eq(out.avail_us, 900);
        ck_assert_double_eq(out.busy_us[0], 400);
        ck_assert_double_eq(out.energy_nj, 252000);
        ck_assert_double_eq(out.backlog, 0);

        /* 1000 of work in 900 µs at 1024: busy capped at 900, 100 left. */
        work[0] = 1000;
        exec_step(&board2, 1, true, 1000, 1, backlog, work, &out);
        ck_assert_double_eq(out.busy_us[0], 900);
        ck_assert_double_eq(backlog[0], 100);
        ck_assert_double_eq(out.energy_nj, 452000);
}
END_TEST

/* A stall longer than the step leaves no time at all: top OPP, nothing
 * done, everything kept. */
START_TEST(test_exec_no_time)
{
        double backlog[2] = { 10, 0 }, work[2] = { 30, 5 };
        struct sim_step out;

        exec_step(&board2, 0, true, 80, 2, backlog, work, &out);
        ck_assert_double_eq(out.avail_us, 0);
        ck_assert_uint_eq(out.opp, 2);
        ck_assert_double_eq(out.busy_us[0], 0);
        ck_assert_double_eq(backlog[0], 40);
        ck_assert_double_eq(backlog[1], 5);
        ck_assert_double_eq(out.backlog, 45);
        /* 12 mW idle + 5 mW off over 80 µs, and the switch. */
        ck_assert_double_eq(out.energy_nj, 17 * 80 + 50000);
}
END_TEST

/* Oracle */

static void make_trace(struct sim_trace *t, unsigned nlanes, size_t nsteps, const float *work)
{
        t->step_us = 1000;
        t->nlanes = nlanes;
        t->nsteps = nsteps;
        t->work = malloc(nlanes * nsteps * sizeof(float));
        ck_assert_ptr_nonnull(t->work);
        memcpy(t->work, work, nlanes * nsteps * sizeof(float));
}

/* From the execution tests: on LITTLE 100 costs 13000 nJ (63000 entered with
 * a switch); 900 does not fit LITTLE; on big 900 costs 402000 (452000 with a
 * switch, which still leaves 900 µs for it at 1024) and 100 costs 42000.
 * Best: L L L B L L L = 3 x 13000 + 452000 + 63000 + 2 x 13000 = 580000 nJ.
 * (All big: 6 x 42000 + 402000 = 654000; staying on big after the burst:
 * 617000.) */
START_TEST(test_oracle_hand)
{
        static const float work[] = { 100, 100, 100, 900, 100, 100, 100 };
        struct sim_trace t;
        struct sim_oracle o;

        make_trace(&t, 1, 7, work);
        ck_assert_int_eq(oracle_solve(&board2, &t, true, &o), 0);
        ck_assert_double_eq_tol(o.energy_uj, 580, 1e-9);
        ck_assert_uint_eq(o.switches, 2);
        ck_assert_uint_eq(o.infeasible_steps, 0);
        ck_assert_uint_eq(o.time_in[0], 6000);
        ck_assert_uint_eq(o.time_in[1], 1000);
        ck_assert_ptr_nonnull(o.sequence);
        for (unsigned s = 0; s < 7; s++)
                ck_assert_uint_eq(o.sequence[s], s == 3 ? 1 : 0);
        oracle_free(&o);
        ck_assert_ptr_null(o.sequence);

        /* Without the sequence, the same numbers. */
        ck_assert_int_eq(oracle_solve(&board2, &t, false, &o), 0);
        ck_assert_ptr_null(o.sequence);
        ck_assert_double_eq_tol(o.energy_uj, 580, 1e-9);
        trace_free(&t);
}
END_TEST

/* 1200 in one step fits nowhere: on big 200 are dropped (busy 1000 µs x 400
 * + 40 idle + 2 off = 442000 nJ), on LITTLE 450. The oracle drops the least. */
START_TEST(test_oracle_infeasible)
{
        static const float work[] = { 1200 };
        struct sim_trace t;
        struct sim_oracle o;

        make_trace(&t, 1, 1, work);
        ck_assert_int_eq(oracle_solve(&board2, &t, true, &o), 0);
        ck_assert_double_eq_tol(o.energy_uj, 442, 1e-9);
        ck_assert_uint_eq(o.infeasible_steps, 1);
        ck_assert_uint_eq(o.sequence[0], 1);
        ck_assert_uint_eq(o.switches, 0);
        oracle_free(&o);
        trace_free(&t);
}
END_TEST

/* A single-cluster board has one sequence; an empty trace costs nothing. */
START_TEST(test_oracle_trivial)
{
        static const float work[] = { 100, 0, 500 };
        struct sim_board one;
        struct sim_trace t;
        struct sim_oracle o;

        load_board(&one, BOARD_SECTION "[cluster.only]\ncpus = 1\norder = 0\noff_mw = 0\n"
                         "opp = 100 512 10 4\nopp = 200 1024 20 8\n");
        make_trace(&t, 1, 3, work);
        ck_assert_int_eq(oracle_solve(&one, &t, false, &o), 0);
        /* 100: OPP 0, 200 µs x 10 + 4000; 0: 4000; 500 needs 640000 > 512 x 1000:
         * OPP 1, 500 µs x 20 + 8000. */
        ck_assert_double_eq_tol(o.energy_uj, 6 + 4 + 18, 1e-9);
        ck_assert_uint_eq(o.switches, 0);
        ck_assert_uint_eq(o.time_in[0], 3000);
        t.nsteps = 0;
        ck_assert_int_eq(oracle_solve(&one, &t, true, &o), 0);
        ck_assert_double_eq(o.energy_uj, 0);
        ck_assert_ptr_null(o.sequence);
        trace_free(&t);
}
END_TEST

struct brute {
        double dropped;
        double energy_nj;
        size_t infeasible;
        bool found;
};

/* Every cluster sequence, scored by the execution rules. 'carry' keeps the
 * backlog and accepts only sequences that never leave any (DESIGN.md's
 * definition); otherwise a step's leftover is dropped and sequences compare
 * by (dropped, energy) as oracle.c defines them. */
static struct brute brute_force(const struct sim_board *b, const struct sim_trace *t, bool carry)
{
        struct brute best = { 0 };
        unsigned long total = 1;
        double backlog[16], work[16];

        ck_assert_uint_le(t->nlanes, 16);
        for (size_t s = 0; s < t->nsteps; s++)
                total *= b->nclusters;
        for (unsigned long code = 0; code < total; code++) {
                struct brute cur = { .found = true };
                unsigned long rest = code;
                unsigned prev = 0;

                memset(backlog, 0, sizeof(backlog));
                for (size_t s = 0; s < t->nsteps && cur.found; s++) {
                        unsigned k = (unsigned)(rest % b->nclusters);
                        struct sim_step out;

                        rest /= b->nclusters;
                        for (unsigned i = 0; i < t->nlanes; i++) {
                                work[i] = t->work[s * t->nlanes + i];
                                if (!carry)
                                        backlog[i] = 0;
                        }
                        exec_step(b, k, s > 0 && k != prev, (double)t->step_us, t->nlanes, backlog, work,
                                  &out);
                        cur.energy_nj += out.energy_nj;
                        cur.dropped += out.backlog;
                        cur.infeasible += out.backlog > 0;
                        if (carry && out.backlog > 0)
                                cur.found = false;
                        prev = k;
                }
                if (!cur.found)
                        continue;
                if (!best.found || cur.dropped < best.dropped ||
                    (cur.dropped == best.dropped && cur.energy_nj < best.energy_nj))
                        best = cur;
        }
        return best;
}

/* Uniform in [0, max), in steps of 1/16 so that values stay exact in floats. */
static float rng_work(uint64_t *state, unsigned max)
{
        return (float)(rng_next(state) % (max * 16)) / 16.0f;
}

/* The replayed sequence gives the oracle's numbers exactly. */
static void check_sequence(const struct sim_board *b, const struct sim_trace *t, const struct sim_oracle *o)
{
        double backlog[16], work[16], energy = 0;
        unsigned long switches = 0;
        bl_usec_t time_in[BL_MAX_CLUSTERS] = { 0 };

        for (size_t s = 0; s < t->nsteps; s++) {
                bool switched = s > 0 && o->sequence[s] != o->sequence[s - 1];
                struct sim_step out;

                for (unsigned i = 0; i < t->nlanes; i++) {
                        work[i] = t->work[s * t->nlanes + i];
                        backlog[i] = 0;
                }
                exec_step(b, o->sequence[s], switched, (double)t->step_us, t->nlanes, backlog, work, &out);
                energy += out.energy_nj;
                switches += switched;
                time_in[o->sequence[s]] += t->step_us;
        }
        ck_assert_double_eq(energy / 1000, o->energy_uj);
        ck_assert_uint_eq(switches, o->switches);
        for (unsigned k = 0; k < b->nclusters; k++)
                ck_assert_uint_eq(time_in[k], o->time_in[k]);
}

static void check_against_brute_force(const struct sim_board *b, unsigned nlanes, size_t nsteps,
                                      unsigned max_work, uint64_t seed, unsigned runs, unsigned *ninfeasible)
{
        uint64_t state = seed;

        for (unsigned run = 0; run < runs; run++) {
                float work[16 * 10];
                struct sim_trace t;
                struct sim_oracle o;
                struct brute drop, carry;

                /* Light and heavy steps mixed, so that switching can pay. */
                for (size_t step = 0; step < nsteps; step++) {
                        static const float level[] = { 0, 0.25f, 0.5f, 1 };
                        float scale = level[rng_next(&state) % 4];

                        for (unsigned i = 0; i < nlanes; i++)
                                work[step * nlanes + i] = scale * rng_work(&state, max_work);
                }
                /* Some steps idle, some lanes silent: the cases policies see. */
                work[rng_next(&state) % (nlanes * nsteps)] = 0;
                make_trace(&t, nlanes, nsteps, work);
                ck_assert_int_eq(oracle_solve(b, &t, true, &o), 0);
                drop = brute_force(b, &t, false);
                ck_assert_msg(fabs(o.energy_uj * 1000 - drop.energy_nj) <= 1e-9 * drop.energy_nj,
                              "run %u: oracle %.6f µJ, brute force %.6f µJ", run, o.energy_uj,
                              drop.energy_nj / 1000);
                ck_assert_uint_eq(o.infeasible_steps, drop.infeasible);
                carry = brute_force(b, &t, true);
                ck_assert_int_eq(carry.found, drop.infeasible == 0);
                if (carry.found)
                        ck_assert(fabs(carry.energy_nj - drop.energy_nj) <= 1e-9 * drop.energy_nj);
                check_sequence(b, &t, &o);
                *ninfeasible += o.infeasible_steps > 0;
                oracle_free(&o);
                trace_free(&t);
        }
}

START_TEST(test_oracle_brute_force_2)
{
        unsigned ninfeasible = 0;

        /* Below 300 per lane every step fits every cluster, even after a
         * switch (big CPU 0: 3 lanes < 900 in 900 µs; LITTLE CPU 0: 2 lanes <
         * 600 < 768 x 0.9): the choice is energy alone. */
        check_against_brute_force(&board2, 5, 10, 300, 0x5eed, 30, &ninfeasible);
        ck_assert_uint_eq(ninfeasible, 0);
        /* Heavier: steps that nothing clears, and steps that lanes 0, 2, 4
         * piled on one big CPU make possible on LITTLE only. */
        ninfeasible = 0;
        check_against_brute_force(&board2, 5, 10, 900, 0xfeed, 30, &ninfeasible);
        ck_assert_uint_gt(ninfeasible, 0);
        /* Two lanes: each its own CPU on both clusters. */
        check_against_brute_force(&board2, 2, 10, 1100, 0xbeef, 30, &ninfeasible);
}
END_TEST

START_TEST(test_oracle_brute_force_3)
{
        unsigned ninfeasible = 0;

        /* Below 250 per lane big (one CPU: 750 in 950 µs) always can. */
        check_against_brute_force(&board3, 3, 8, 250, 0x1234, 20, &ninfeasible);
        ck_assert_uint_eq(ninfeasible, 0);
        check_against_brute_force(&board3, 4, 8, 700, 0x4321, 20, &ninfeasible);
        ck_assert_uint_gt(ninfeasible, 0);
}
END_TEST

/* Light and heavy steps in turn: LITTLE is worth it only when switches are
 * cheap. Costs as in test_oracle_hand. */
START_TEST(test_oracle_switch_cost)
{
        static const float work[] = { 100, 900, 100, 900, 100, 900 };
        struct sim_trace t;
        struct sim_oracle o;

        make_trace(&t, 1, 6, work);
        /* At 50 µJ a light step on LITTLE between bursts costs 63 + 452
         * against 42 + 402 on big, and even the first one (13 + 452 against
         * 42 + 402): all big, 3 x 42 + 3 x 402. */
        ck_assert_int_eq(oracle_solve(&board2, &t, true, &o), 0);
        ck_assert_uint_eq(o.switches, 0);
        for (unsigned s = 0; s < 6; s++)
                ck_assert_uint_eq(o.sequence[s], 1);
        ck_assert_double_eq_tol(o.energy_uj, 1332, 1e-9);
        oracle_free(&o);

        /* Free switches: every light step goes back to LITTLE, each burst is
         * entered with the stall (900 still fits in 900 µs). */
        board2.switch_energy_uj = 0;
        ck_assert_int_eq(oracle_solve(&board2, &t, true, &o), 0);
        ck_assert_uint_eq(o.switches, 5);
        for (unsigned s = 0; s < 6; s++)
                ck_assert_uint_eq(o.sequence[s], s % 2);
        /* 3 x 13 + 3 x 402 */
        ck_assert_double_eq_tol(o.energy_uj, 1245, 1e-9);
        oracle_free(&o);
        trace_free(&t);
}
END_TEST

static Suite *sim_suite(void)
{
        Suite *s = suite_create("sim");
        TCase *tc;

        tc = tcase_create("board");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, test_board_values);
        tcase_add_test(tc, test_board_sorted);
        tcase_add_test(tc, test_board_exynos);
        tcase_add_test(tc, test_board_tc2);
        tcase_add_test(tc, test_board_missing_file);
        tcase_add_test(tc, test_fifo_refused);
        tcase_add_loop_test(tc, test_board_errors, 0, sizeof(bad_boards) / sizeof(bad_boards[0]));
        tcase_add_test(tc, test_board_too_many_clusters);
        tcase_add_test(tc, test_board_too_many_cpus);
        tcase_add_test(tc, test_board_too_many_opps);
        tcase_add_test(tc, test_board_one_cluster);
        tcase_add_test(tc, test_board_errors_file);
        tcase_add_test(tc, test_board_mutations);
        suite_add_tcase(s, tc);

        tc = tcase_create("trace");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, test_trace_values);
        tcase_add_test(tc, test_trace_numbers);
        tcase_add_loop_test(tc, test_trace_errors, 0, sizeof(bad_traces) / sizeof(bad_traces[0]));
        tcase_add_test(tc, test_trace_errors_file);
        tcase_add_test(tc, test_trace_load);
        tcase_add_test(tc, test_trace_many_errors);
        tcase_add_test(tc, test_trace_mutations);
        suite_add_tcase(s, tc);

        tc = tcase_create("exec");
        tcase_add_checked_fixture(tc, exec_setup, NULL);
        tcase_add_test(tc, test_dvfs_boundaries);
        tcase_add_test(tc, test_exec_idle);
        tcase_add_test(tc, test_exec_lanes_spread);
        tcase_add_test(tc, test_exec_backlog_shared);
        tcase_add_test(tc, test_exec_switch_stall);
        tcase_add_test(tc, test_exec_no_time);
        suite_add_tcase(s, tc);

        tc = tcase_create("oracle");
        tcase_add_checked_fixture(tc, exec_setup, NULL);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_oracle_hand);
        tcase_add_test(tc, test_oracle_infeasible);
        tcase_add_test(tc, test_oracle_trivial);
        tcase_add_test(tc, test_oracle_switch_cost);
        tcase_add_test(tc, test_oracle_brute_force_2);
        tcase_add_test(tc, test_oracle_brute_force_3);
        suite_add_tcase(s, tc);

        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(sim_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
