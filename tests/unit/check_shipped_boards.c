/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The boards conf/boards ships for real SoCs: each is what blsim board
 * import makes of its committed device tree input (byte for byte), each
 * agrees with the kernel's capacity and energy-model arithmetic worked out
 * here again from the trees' values, and blsim compare runs on each. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fileio.h"
#include "core/board.h"
#include "loaders/board-file.h"
#include "sim/board-import.h"

#define DTS_DIR TEST_DATA_DIR "/dts/boards"

static const char *const boards[] = { "rk3399", "rk3588", "gs101", "mt8183", "exynos5422", "sdm845" };
#define NBOARDS (sizeof(boards) / sizeof(boards[0]))

START_TEST(test_reimport_matches_shipped_board)
{
        const char *name = boards[_i];
        char dts[512], ini[512], *text = NULL, *shipped = NULL;
        size_t len = 0, shipped_len = 0;
        struct import_model *m = calloc(1, sizeof(*m));
        struct bl_diag diag;
        FILE *f;

        ck_assert_ptr_nonnull(m);
        diag_init(&diag);
        snprintf(dts, sizeof(dts), "%s/%s/%s.dts", DTS_DIR, name, name);
        snprintf(ini, sizeof(ini), "%s/%s.ini", BOARDS_DIR, name);
        ck_assert_msg(import_from_dts(m, dts, &diag) == 0, "%s: %s", name, diag.n ? diag.msg[0] : "");
        f = open_memstream(&text, &len);
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(import_write(f, m, NULL), 0);
        ck_assert_int_eq(fclose(f), 0);
        ck_assert_int_eq(read_file(ini, &shipped, &shipped_len), 0);
        ck_assert_msg(len == shipped_len && memcmp(text, shipped, len) == 0,
                      "%s differs from what blsim board import --dts %s writes", ini, dts);
        free(shipped);
        free(text);
        free(m);
}
END_TEST

/* One OPP per cluster, with the tree's values it depends on ('microwatt':
 * the OPP's opp-microwatt, which the energy model takes over the formula). */
struct em_case {
        const char *board;
        unsigned order;
        double dmips, dpc, fmax_hz, hz, microvolt, microwatt;
};

/* The largest capacity-dmips-mhz x top frequency on each board (its
 * fastest kind). */
static double board_scale(const char *board)
{
        static const struct { const char *board; double dmips, fmax_hz; } top[] = {
                { "rk3399", 1024, 1800e6 }, { "rk3588", 1024, 2400e6 }, { "gs101", 1024, 2802e6 },
                { "mt8183", 1024, 1989e6 }, { "exynos5422", 1024, 2000e6 }, { "sdm845", 1024, 2803.2e6 },
        };

        for (unsigned i = 0; i < sizeof(top) / sizeof(top[0]); i++)
                if (strcmp(top[i].board, board) == 0)
                        return top[i].dmips * (top[i].fmax_hz / 1000);
        ck_abort_msg("no scale for %s", board);
        return 0;
}

static const struct em_case em_cases[] = {
        { "rk3399", 0, 485, 100, 1416e6, 1008e6, 925000, 0 },
        { "rk3399", 1, 1024, 436, 1800e6, 1608e6, 1100000, 0 },
        { "rk3588", 0, 530, 228, 1800e6, 1416e6, 762500, 0 },
        { "rk3588", 1, 1024, 416, 2400e6, 2016e6, 925000, 0 },
        { "gs101", 0, 250, 70, 1803e6, 1197e6, 731250, 0 },
        { "gs101", 1, 620, 284, 2253e6, 1491e6, 731250, 0 },
        { "gs101", 2, 1024, 650, 2802e6, 2048e6, 793750, 0 },
        { "mt8183", 0, 741, 84, 1989e6, 1508e6, 868750, 0 },
        { "mt8183", 1, 1024, 211, 1989e6, 1508e6, 875000, 0 },
        /* exynos5800.dtsi's voltages, over exynos5420.dtsi's */
        { "exynos5422", 0, 539, 90, 1400e6, 1000e6, 1100000, 0 },
        { "exynos5422", 1, 1024, 310, 2000e6, 1700e6, 1250000, 0 },
        /* sdm845.dts's opp-microwatt: freqbench's 132.015 and 880.330 mW */
        { "sdm845", 0, 607, 100, 1766.4e6, 1228.8e6, 0, 132015 },
        { "sdm845", 1, 1024, 396, 2803.2e6, 2400e6, 0, 880330 },
};

START_TEST(test_capacity_and_power_by_the_kernel_formula)
{
        const struct em_case *c = &em_cases[_i];
        struct sim_board *b = calloc(1, sizeof(*b));
        struct bl_diag diag;
        char ini[512];
        const struct sim_cluster *cl;
        const struct sim_opp *opp = NULL;
        double fmax_khz = c->fmax_hz / 1000, khz = c->hz / 1000, mv = floor(c->microvolt / 1000);
        double cpu_capacity = floor(c->dmips * fmax_khz * 1024 / board_scale(c->board));
        double capacity = floor(cpu_capacity * khz / fmax_khz);
        double core_mw = c->microwatt > 0 ? c->microwatt / 1000
                                          : floor(c->dpc * mv * mv * floor(c->hz / 1e6) / 1e6) / 1000;

        ck_assert_ptr_nonnull(b);
        diag_init(&diag);
        snprintf(ini, sizeof(ini), "%s/%s.ini", BOARDS_DIR, c->board);
        ck_assert_int_eq(board_load(b, ini, &diag), 0);
        ck_assert_uint_gt(b->nclusters, c->order);
        cl = &b->cluster[c->order];
        for (unsigned o = 0; o < cl->nopps; o++)
                if (cl->opp[o].mhz == (unsigned)(c->hz / 1e6))
                        opp = &cl->opp[o];
        ck_assert_msg(opp != NULL, "%s: no %g MHz OPP in cluster %u", c->board, c->hz / 1e6, c->order);
        ck_assert_uint_eq(opp->capacity, (unsigned)capacity);
        ck_assert_double_eq_tol(opp->core_mw, core_mw, 5e-4);
        free(b);
}
END_TEST

/* The tree alone has no voltages: refused, with the way out named. */
START_TEST(test_sdm845_tree_without_voltages_refused)
{
        struct import_model *m = calloc(1, sizeof(*m));
        struct bl_diag diag;

        ck_assert_ptr_nonnull(m);
        diag_init(&diag);
        ck_assert_int_eq(import_from_dts(m, DTS_DIR "/sdm845/sdm845.dtsi", &diag), -EINVAL);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_msg(strncmp(diag.msg[0], "sdm845.dtsi:", 12) == 0, "%s", diag.msg[0]);
        ck_assert_msg(strstr(diag.msg[0], ": /cpu0_opp_table/opp-300000000: expected \"opp-microvolt\" or "
                             "\"opp-microwatt\"") != NULL, "%s", diag.msg[0]);
        ck_assert_msg(strstr(diag.msg[0], "overlay .dts") != NULL, "%s", diag.msg[0]);
        free(m);
}
END_TEST

/* The command line: --out writes what the library gives; a refused tree
 * exits 65 (EX_DATAERR) with the place on standard error and no board. */
static int run(const char *cmd, char *buf, size_t size)
{
        FILE *p = popen(cmd, "r");
        size_t n;
        int status;

        ck_assert_ptr_nonnull(p);
        n = fread(buf, 1, size - 1, p);
        buf[n] = '\0';
        while (fgetc(p) != EOF)
                ;
        status = pclose(p);
        ck_assert(WIFEXITED(status));
        return WEXITSTATUS(status);
}

START_TEST(test_command_line)
{
        char dir[] = "/tmp/check_shipped_boards.XXXXXX", cmd[2048], out[512], buf[4096];
        char *text = NULL, *shipped = NULL;
        size_t len, shipped_len;

        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(out, sizeof(out), "%s/gs101.ini", dir);
        snprintf(cmd, sizeof(cmd), "'%s' board import --dts '%s/gs101/gs101.dts' --out '%s' 2>&1", BLSIM_PATH,
                 DTS_DIR, out);
        ck_assert_int_eq(run(cmd, buf, sizeof(buf)), 0);
        ck_assert_str_eq(buf, "");
        ck_assert_int_eq(read_file(out, &text, &len), 0);
        ck_assert_int_eq(read_file(BOARDS_DIR "/gs101.ini", &shipped, &shipped_len), 0);
        ck_assert(len == shipped_len && memcmp(text, shipped, len) == 0);
        ck_assert_int_eq(unlink(out), 0);
        snprintf(cmd, sizeof(cmd), "'%s' board import --dts '%s/sdm845/sdm845.dtsi' --out '%s' 2>&1", BLSIM_PATH,
                 DTS_DIR, out);
        ck_assert_int_eq(run(cmd, buf, sizeof(buf)), 65);
        ck_assert_msg(strncmp(buf, "sdm845.dtsi:", 12) == 0, "%s", buf);
        ck_assert_int_eq(access(out, F_OK), -1);
        snprintf(cmd, sizeof(cmd), "'%s' board import --dts a.dts --sysfs / 2>&1", BLSIM_PATH);
        ck_assert_int_eq(run(cmd, buf, sizeof(buf)), 64);
        ck_assert_int_eq(rmdir(dir), 0);
        free(text);
        free(shipped);
}
END_TEST

START_TEST(test_compare_runs)
{
        const char *name = boards[_i];
        char cmd[1024], buf[4096], expect[128];
        size_t n;
        FILE *p;
        int status;

        snprintf(cmd, sizeof(cmd), "'%s' compare --board '%s/%s.ini' --workload '%s/app-launch.csv' 2>&1",
                 BLSIM_PATH, BOARDS_DIR, name, WORKLOADS_DIR);
        p = popen(cmd, "r");
        ck_assert_ptr_nonnull(p);
        n = fread(buf, 1, sizeof(buf) - 1, p);
        buf[n] = '\0';
        while (fread(expect, 1, sizeof(expect), p) > 0)
                ;
        status = pclose(p);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: %s", name, buf);
        snprintf(expect, sizeof(expect), "board %s, workload", name);
        ck_assert_msg(strstr(buf, expect) != NULL, "%s", buf);
        ck_assert_msg(strstr(buf, "\noracle ") != NULL, "%s", buf);
}
END_TEST

static Suite *shipped_suite(void)
{
        Suite *s = suite_create("shipped_boards");
        TCase *tc = tcase_create("boards");

        tcase_set_timeout(tc, 60);
        tcase_add_loop_test(tc, test_reimport_matches_shipped_board, 0, NBOARDS);
        tcase_add_loop_test(tc, test_capacity_and_power_by_the_kernel_formula, 0,
                            sizeof(em_cases) / sizeof(em_cases[0]));
        tcase_add_test(tc, test_sdm845_tree_without_voltages_refused);
        tcase_add_test(tc, test_command_line);
        tcase_add_loop_test(tc, test_compare_runs, 0, NBOARDS);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(shipped_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
