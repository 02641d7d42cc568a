/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The energy model (issue 17 item 3) as the daemon on the bus shows it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/integration/bus-test.h"

/* The energy model (issue 17 item 3) on the fake Exynos 5422 (4+4,
 * capacities 377 and 1024): a board file the configuration names, shown
 * over the bus and by switchctl, changed by a reload; one of another
 * machine refused; the kernel's model in the fake debugfs under auto. */

#define EXYNOS_BOARD BOARDS_DIR "/exynos5422.ini"
#define EXYNOS_MODEL "exynos5422 board file " EXYNOS_BOARD ", 2 clusters, 13+19 OPPs"
#define EXIT_CONFIG 78

static const char *model_config(const char *setting)
{
        static char config[sizeof(HARNESS_PELT_NO_BREAK_EVEN_CONFIG) + PATH_MAX + 64];

        snprintf(config, sizeof(config), "%s[policy]\nenergy_model = %s\n", HARNESS_PELT_NO_BREAK_EVEN_CONFIG,
                 setting);
        return write_config("bigLittle.conf", config);
}

START_TEST(test_energy_model_board_file)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        char out[8192], *json;
        unsigned applied;
        int r;

        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        harness_start_bus(NULL);
        start_daemon(model_config(EXYNOS_BOARD));
        expect_line(0, "energy model: " EXYNOS_MODEL, 1000);
        assert_property("EnergyModel", EXYNOS_MODEL);
        ck_assert_int_eq(switchctl("status", out, sizeof(out)), 0);
        ck_assert_msg(strstr(out, "Energy model: " EXYNOS_MODEL "\n"), "%s", out);
        ck_assert_int_eq(switchctl("status --json", out, sizeof(out)), 0);
        json = strstr(out, "\"energy_model\":\"" EXYNOS_MODEL "\"");
        ck_assert_msg(json, "%s", out);

        /* A reload reads the setting again. */
        model_config("none");
        r = call_u(bus, "Reload", &error, NULL, "");
        ck_assert_msg(r >= 0, "Reload: %s", error.message);
        applied = expect_line(0, "reload: energy model: none (energy_model = none)", 1000);
        assert_property("EnergyModel", "none (energy_model = none)");

        /* A board of another machine is refused; the running model stays. */
        model_config(BOARDS_DIR "/rk3399.ini");
        r = call_u(bus, "Reload", &error, NULL, "");
        ck_assert_msg(r < 0, "Reload with the RK3399's board succeeded");
        sd_bus_error_free(&error);
        expect_line(applied, BOARDS_DIR "/rk3399.ini: [cluster.big] (cluster 1, most efficient first): "
                    "expected 4 CPUs as on this machine, got 2", 1000);
        expect_line(applied, "reload: refused, energy_model = " BOARDS_DIR "/rk3399.ini cannot be used", 1000);
        assert_property("EnergyModel", "none (energy_model = none)");
        ck_assert(fakeboard_running(fb));
}
END_TEST

START_TEST(test_energy_model_other_machine_refused)
{
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        spawn_daemon(model_config(BOARDS_DIR "/gs101.ini"), NULL);
        assert_exit_status(wait_exit(), EXIT_CONFIG);
        expect_line(0, BOARDS_DIR "/gs101.ini: board gs101 has 3 clusters, this machine 2", 100);
        expect_line(0, "energy_model = " BOARDS_DIR "/gs101.ini cannot be used; not starting", 100);
        ck_assert_uint_eq(fakeboard_n_online_changes(fb), 0);
        ck_assert_msg(online_equals("0-7"), "online is %s after the refusal", online_text());
}
END_TEST

/* --check-config reads the board file too (it knows no topology: the
 * file alone). */
START_TEST(test_energy_model_check_config)
{
        char *argv[] = { (char *)DAEMON_PATH, (char *)"--check-config", NULL, NULL };
        char where[PATH_MAX + 64], board[PATH_MAX];
        int status = -1;

        new_board("exynos5422");
        argv[2] = (char *)model_config(EXYNOS_BOARD);
        ck_assert_int_eq(fakeboard_spawn(fb, argv, false), 0);
        ck_assert_int_eq(fakeboard_wait(fb, EXIT_BOUND_MS, &status), 0);
        assert_exit_status(status, 0);

        snprintf(board, sizeof(board), "%s",
                 write_config("bad.ini", "[board]\nname = bad\nreference_capacity = many\n"));
        argv[2] = (char *)model_config(board);
        snprintf(where, sizeof(where), "energy_model: %s:3: reference_capacity", board);
        ck_assert_int_eq(fakeboard_spawn(fb, argv, false), 0);
        ck_assert_int_eq(fakeboard_wait(fb, EXIT_BOUND_MS, &status), 0);
        assert_exit_status(status, EXIT_CONFIG);
        expect_line(0, where, 100);
}
END_TEST

static void board_mkdir(const char *path)
{
        char full[PATH_MAX];

        ck_assert_int_eq(fakeboard_path(fb, path, full, sizeof(full)), 0);
        for (char *s = full + 1; *s; s++)
                if (*s == '/') {
                        *s = '\0';
                        ck_assert_msg(mkdir(full, 0755) == 0 || errno == EEXIST, "%s: %s", full, strerror(errno));
                        *s = '/';
                }
        ck_assert_msg(mkdir(full, 0755) == 0 || errno == EEXIST, "%s: %s", full, strerror(errno));
}

/* One performance domain as Linux 6.x shows it: power in uW. */
static void em_domain(const char *name, const char *cpus, const unsigned *khz, const unsigned *uw, unsigned n)
{
        char path[256], value[32];

        snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/%s", name);
        board_mkdir(path);
        snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/%s/cpus", name);
        write_board_file(path, cpus);
        for (unsigned i = 0; i < n; i++) {
                snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/%s/ps:%u", name, khz[i]);
                board_mkdir(path);
                snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/%s/ps:%u/frequency", name, khz[i]);
                snprintf(value, sizeof(value), "%u\n", khz[i]);
                write_board_file(path, value);
                snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/%s/ps:%u/power", name, khz[i]);
                snprintf(value, sizeof(value), "%u\n", uw[i]);
                write_board_file(path, value);
        }
}

static const unsigned a7_khz[] = { 600000, 1000000, 1400000 };
static const unsigned a7_uw[] = { 40000, 90000, 204828 };
static const unsigned a15_khz[] = { 800000, 1200000, 1600000, 2000000 };
static const unsigned a15_uw[] = { 250000, 450000, 700000, 1067233 };

START_TEST(test_energy_model_debugfs)
{
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        em_domain("cpu0", "0-3\n", a7_khz, a7_uw, 3);
        em_domain("cpu4", "4-7\n", a15_khz, a15_uw, 4);
        harness_start_bus(NULL);
        start_daemon(model_config("auto"));
        assert_property("EnergyModel",
                        "kernel energy model from /sys/kernel/debug/energy_model, 2 clusters, 3+4 OPPs");
}
END_TEST

/* auto promises nothing: a kernel model that does not fit the CPUs found
 * (a domain across both clusters) is a warning, and the daemon runs
 * without one. */
START_TEST(test_energy_model_debugfs_misfit)
{
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        em_domain("cpu0", "0-5\n", a7_khz, a7_uw, 3);
        harness_start_bus(NULL);
        start_daemon(model_config("auto"));
        expect_line(0, "/sys/kernel/debug/energy_model: expected one performance domain holding every CPU of "
                    "cluster 1 (capacity 1024), got none, or CPUs split over several", 100);
        assert_property("EnergyModel",
                        "none (the debugfs energy model does not fit the CPUs; set energy_model=)");
}
END_TEST

static Suite *model_suite(void)
{
        Suite *s = suite_create("bus-energy-model");
        TCase *model = tcase_create("energy-model");

        tcase_add_checked_fixture(model, bus_test_setup, bus_test_teardown);
        tcase_set_timeout(model, 60);
        tcase_add_test(model, test_energy_model_board_file);
        tcase_add_test(model, test_energy_model_other_machine_refused);
        tcase_add_test(model, test_energy_model_check_config);
        tcase_add_test(model, test_energy_model_debugfs);
        tcase_add_test(model, test_energy_model_debugfs_misfit);
        suite_add_tcase(s, model);
        return s;
}

int main(void)
{
        return harness_main(model_suite(), "check-bus-energy-model");
}
