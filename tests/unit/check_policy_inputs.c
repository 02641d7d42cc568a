/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What blsim tells the policy about the board (sim/policy-inputs.h): the
 * levels' power at a load, worked by hand from the board file's operating
 * points, and the cost of one switch per mode. */
#include <check.h>
#include <stdlib.h>

#include "common/board-file.h"
#include "sim/policy-inputs.h"

#define BOARDS TEST_DATA_DIR "/../../conf/boards"

static void load(struct sim_board *b, struct sim_levels *lv, enum bl_mode mode)
{
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_int_eq(board_load(b, BOARDS "/exynos5422-like.ini", &diag), 0);
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

int main(void)
{
        Suite *s = suite_create("policy-inputs");
        TCase *tc = tcase_create("policy-inputs");
        SRunner *sr;
        int failed;

        tcase_add_test(tc, test_cluster_levels_power);
        tcase_add_test(tc, test_pair_mode_has_no_machine_model);
        tcase_add_test(tc, test_switch_cost_per_mode);
        suite_add_tcase(s, tc);
        sr = srunner_create(s);
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
