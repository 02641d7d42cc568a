/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What blsim tells the policy about the board (sim/policy-inputs.h): the
 * levels' power at a load, worked by hand from the board file's operating
 * points, and the cost of one switch per mode; and the same model as the
 * daemon builds it from a board file for its own ladder
 * (core/energy-model.h), with the check of a board against the machine. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/board-file.h"
#include "sim/policy-inputs.h"

#define BOARDS TEST_DATA_DIR "/../../conf/boards"

static void load_board(struct sim_board *b, const char *name)
{
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_int_eq(board_load(b, name, &diag), 0);
}

static void load(struct sim_board *b, struct sim_levels *lv, enum bl_mode mode)
{
        struct bl_diag diag;

        diag_init(&diag);
        load_board(b, BOARDS "/exynos5422-like.ini");
        ck_assert_int_eq(sim_levels_build(lv, b, mode, &diag), 0);
}

/* exynos5422-like: little idle at 200 MHz 14 mW, off 5 mW; big idle at
 * 200 MHz 56 mW, off 20 mW; little's top (1400 MHz, capacity 377) 112 mW
 * idle + 204 mW busy. */
START_TEST(test_cluster_levels_power)
{
        struct sim_board b;
        struct sim_levels lv;
        struct bl_energy_model m;

        load(&b, &lv, BL_MODE_CLUSTER);
        sim_energy_model(&b, &lv, &m);
        ck_assert(m.known);
        ck_assert_uint_eq(m.nlevels, 2);
        ck_assert_double_eq_tol(energy_model_power(&m, 0, 0), 14 + 20, 1e-9);
        ck_assert_double_eq_tol(energy_model_power(&m, 1, 0), 56 + 5, 1e-9);
        /* 448 is beyond little's top: every OPP point is the top, fully busy */
        ck_assert_double_eq_tol(energy_model_power(&m, 0, energy_model_point(7)), 112 + 204 + 20, 1e-9);
        /* 64 on big: the lowest OPP covering 80 is 102 at 200 MHz: 56 + 89 x 64/102 */
        ck_assert_double_eq_tol(energy_model_power(&m, 1, energy_model_point(1)), 56 + 89.0 * 64 / 102 + 5,
                                1e-9);
}
END_TEST

START_TEST(test_pair_mode_has_no_machine_model)
{
        struct sim_board b;
        struct sim_levels lv;
        struct bl_energy_model m;

        load(&b, &lv, BL_MODE_PAIR);
        sim_energy_model(&b, &lv, &m);
        ck_assert(!m.known);
}
END_TEST

START_TEST(test_switch_cost_per_mode)
{
        struct sim_board b;
        struct sim_levels lv;
        struct bl_switch_cost c;

        load(&b, &lv, BL_MODE_CLUSTER);
        sim_switch_cost(&b, &lv, &c);
        ck_assert_double_eq_tol(c.latency_us, b.switch_latency_us, 1e-9);
        ck_assert_double_eq_tol(c.energy_uj, b.switch_energy_uj, 1e-9);
        ck_assert_double_eq_tol(c.energy_per_cpu_uj, 0, 1e-9);
        load(&b, &lv, BL_MODE_MP);
        sim_switch_cost(&b, &lv, &c);
        ck_assert_double_eq_tol(c.energy_uj, 0, 1e-9);
        ck_assert_double_eq_tol(c.energy_per_cpu_uj, b.switch_energy_uj / 4, 1e-9);
}
END_TEST

/* The daemon's ladder on the board's topology: the same level names and
 * the same power at every point as blsim's levels, in cluster and mp mode,
 * on two clusters (4+4) and three (gs101: 4+2+2). */
static const char *const model_boards[] = { BOARDS "/exynos5422-like.ini", BOARDS "/gs101.ini" };

START_TEST(test_daemon_model_is_blsims)
{
        static const enum bl_mode modes[] = { BL_MODE_CLUSTER, BL_MODE_MP };
        struct sim_board b;
        struct bl_topology t;
        struct bl_diag diag;

        load_board(&b, model_boards[_i]);
        board_topology(&b, &t);
        for (unsigned k = 0; k < 2; k++) {
                struct sim_levels lv;
                struct bl_ladder l;
                struct bl_energy_model sim, daemon;

                diag_init(&diag);
                ck_assert_int_eq(sim_levels_build(&lv, &b, modes[k], &diag), 0);
                ck_assert_int_eq(ladder_build(&l, &t, modes[k], NULL), 0);
                sim_energy_model(&b, &lv, &sim);
                energy_model_for_ladder(&daemon, &b, &l, &t, "test");
                ck_assert(sim.known && daemon.known);
                ck_assert_uint_eq(daemon.nlevels, lv.nlevels);
                ck_assert_str_eq(daemon.source, "test");
                for (unsigned L = 0; L < lv.nlevels; L++) {
                        ck_assert_str_eq(l.levels[L].name, lv.level[L].name);
                        for (unsigned i = 0; i < BL_POWER_POINTS; i++)
                                ck_assert_double_eq_tol(daemon.mw[L][i], sim.mw[L][i], 1e-9);
                }
        }
}
END_TEST

/* mp mode on exynos5422-like, worked by hand: little+1big at demand 0 is
 * little idle at 200 MHz (14) and big idle at 200 MHz (56); "little" leaves
 * big power-gated (20). */
START_TEST(test_daemon_model_mp_by_hand)
{
        struct sim_board b;
        struct bl_topology t;
        struct bl_ladder l;
        struct bl_energy_model m;

        load_board(&b, BOARDS "/exynos5422-like.ini");
        board_topology(&b, &t);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_MP, NULL), 0);
        energy_model_for_ladder(&m, &b, &l, &t, "test");
        ck_assert(m.known);
        ck_assert_int_eq(ladder_find(&l, "little+1big"), 1);
        ck_assert_double_eq_tol(energy_model_power(&m, 0, 0), 14 + 20, 1e-9);
        ck_assert_double_eq_tol(energy_model_power(&m, 1, 0), 14 + 56, 1e-9);
        ck_assert_int_eq(ladder_build(&l, &t, BL_MODE_PAIR, NULL), 0);
        energy_model_for_ladder(&m, &b, &l, &t, "test");
        ck_assert(!m.known);
}
END_TEST

static bool diag_has(const struct bl_diag *d, const char *a, const char *b)
{
        for (unsigned i = 0; i < d->n; i++)
                if (strstr(d->msg[i], a) && strstr(d->msg[i], b))
                        return true;
        return false;
}

START_TEST(test_board_against_machine)
{
        struct sim_board exynos, tc2, gs101;
        struct bl_topology t;
        struct bl_diag diag;

        load_board(&exynos, BOARDS "/exynos5422-like.ini");
        load_board(&tc2, BOARDS "/tc2.ini");
        load_board(&gs101, BOARDS "/gs101.ini");
        board_topology(&exynos, &t);
        ck_assert(t.capacity_from_kernel);

        diag_init(&diag);
        ck_assert_int_eq(board_check_topology(&exynos, &t, "/etc/x.ini", &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
        /* 3 A7 + 2 A15 against 4 + 4 */
        ck_assert_int_eq(board_check_topology(&tc2, &t, "/etc/tc2.ini", &diag), -EINVAL);
        ck_assert_msg(diag_has(&diag, "/etc/tc2.ini: [cluster.", "expected 4 CPUs"), "%s", diag.msg[0]);
        diag_init(&diag);
        ck_assert_int_eq(board_check_topology(&gs101, &t, "/etc/gs101.ini", &diag), -EINVAL);
        ck_assert_msg(diag_has(&diag, "/etc/gs101.ini", "3 clusters, this machine 2"), "%s", diag.msg[0]);

        /* the kernel says big is 10 % slower than the board does */
        t.clusters[1].capacity = t.clusters[1].capacity * 9 / 10;
        diag_init(&diag);
        ck_assert_int_eq(board_check_topology(&exynos, &t, "/etc/x.ini", &diag), -EINVAL);
        ck_assert_msg(diag_has(&diag, "/etc/x.ini", "near the kernel's cpu_capacity"), "%s", diag.msg[0]);
        /* capacities the daemon estimated from frequencies prove nothing */
        t.capacity_from_kernel = false;
        diag_init(&diag);
        ck_assert_int_eq(board_check_topology(&exynos, &t, "/etc/x.ini", &diag), 0);
}
END_TEST

/* A board from the kernel's model, for the Exynos 5422's topology (377 and
 * 1024): capacity scaled by kHz / top kHz, rounded down; power in mW; idle
 * and gated power the importer's defaults. */
START_TEST(test_board_from_kernel_model)
{
        struct em_domains em = {
                .n = 2,
                .d = {
                        { .cpus = 0xf0, .nps = 2, .khz = { 1000000, 2000000 }, .uw = { 300000, 1067233 } },
                        { .cpus = 0x0f, .nps = 3, .khz = { 600000, 1000000, 1400000 },
                          .uw = { 40000, 90000, 204828 } },
                },
        };
        struct sim_board exynos, b;
        struct bl_topology t;
        struct bl_diag diag;

        load_board(&exynos, BOARDS "/exynos5422-like.ini");
        board_topology(&exynos, &t);
        diag_init(&diag);
        ck_assert_int_eq(board_from_em(&b, &em, &t, "em", &diag), 0);
        ck_assert_uint_eq(b.nclusters, 2);
        ck_assert_uint_eq(b.ncpus, 8);
        ck_assert_str_eq(b.cluster[0].name, "little");
        ck_assert_uint_eq(b.cluster[0].nopps, 3);
        ck_assert_uint_eq(b.cluster[0].opp[0].capacity, 377 * 600 / 1400);     /* 161 */
        ck_assert_uint_eq(b.cluster[0].opp[0].mhz, 600);
        ck_assert_uint_eq(b.cluster[0].opp[2].capacity, 377);
        ck_assert_double_eq_tol(b.cluster[0].opp[1].core_mw, 90, 1e-9);
        ck_assert_double_eq_tol(b.cluster[0].opp[1].idle_mw, 45, 1e-9);
        ck_assert_double_eq_tol(b.cluster[0].off_mw, 2.04828, 1e-9);
        ck_assert_uint_eq(b.cluster[1].opp[0].capacity, 512);
        ck_assert_double_eq_tol(b.cluster[1].opp[1].core_mw, 1067.233, 1e-9);
        /* it fits the machine it was made for */
        ck_assert_int_eq(board_check_topology(&b, &t, "em", &diag), 0);

        /* CPU 3 in no domain: the LITTLE cluster's model is not known whole */
        em.d[1].cpus = 0x07;
        ck_assert_int_eq(board_from_em(&b, &em, &t, "em", &diag), -ENODATA);
        ck_assert_msg(diag_has(&diag, "em: expected one performance domain holding every CPU of cluster",
                               "split"), "%s", diag.msg[0]);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("policy-inputs");
        TCase *tc = tcase_create("policy-inputs");
        SRunner *sr;
        int failed;

        tcase_add_test(tc, test_cluster_levels_power);
        tcase_add_test(tc, test_pair_mode_has_no_machine_model);
        tcase_add_test(tc, test_switch_cost_per_mode);
        tcase_add_loop_test(tc, test_daemon_model_is_blsims, 0, 2);
        tcase_add_test(tc, test_daemon_model_mp_by_hand);
        tcase_add_test(tc, test_board_against_machine);
        tcase_add_test(tc, test_board_from_kernel_model);
        suite_add_tcase(s, tc);
        sr = srunner_create(s);
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
