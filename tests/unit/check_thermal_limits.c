/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The thermal limits resolved from trip points: each fallback, the margins
 * and hysteresis, numbers from the configuration winning, and the order
 * kept when the trips contradict. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/thermal-limits.h"

static const struct bl_trip exynos_cpu[] = {
        { 0, BL_TRIP_CRITICAL, 120000, 0 },
        { 1, BL_TRIP_ACTIVE, 50000, 5000 },
        { 2, BL_TRIP_PASSIVE, 75000, 2000 },
        { 3, BL_TRIP_PASSIVE, 70000, 2000 },
        { 4, BL_TRIP_HOT, 85000, 0 },
};

static const struct bl_trip gpu[] = {
        { 0, BL_TRIP_PASSIVE, 68000, 8000 },
        { 1, BL_TRIP_CRITICAL, 95000, 0 },
};

static const struct bl_trip only_hot[] = {
        { 0, BL_TRIP_HOT, 90000, 3000 },
};

static const struct bl_trip only_critical[] = {
        { 0, BL_TRIP_CRITICAL, 100000, 0 },
};

static const struct bl_trip disabled[] = {
        { 0, BL_TRIP_PASSIVE, 0, 0 },
        { 1, BL_TRIP_PASSIVE, -274000, 0 },
        { 2, BL_TRIP_OTHER, 40000, 0 },
};

/* The critical trip below the passive one: a contradicting driver. */
static const struct bl_trip contradicting[] = {
        { 0, BL_TRIP_PASSIVE, 80000, 0 },
        { 1, BL_TRIP_CRITICAL, 60000, 0 },
};

static struct bl_config auto_config(void)
{
        struct bl_config c;

        config_init(&c, NULL);
        return c;
}

static struct bl_trip_zone zone(const char *sysname, const char *type, const struct bl_trip *trips,
                                unsigned n)
{
        return (struct bl_trip_zone){ .sysname = sysname, .type = type, .trips = trips, .ntrips = n };
}

#define ZONE(sys, type, a) zone(sys, type, a, sizeof(a) / sizeof((a)[0]))

static struct bl_diag diag;

START_TEST(test_defaults_are_auto)
{
        struct bl_config c = auto_config();

        ck_assert(c.cap_temp_auto && c.release_temp_auto && c.critical_temp_auto);
        ck_assert_int_eq(c.cap_temp_mc, 85000);
        ck_assert_int_eq(c.release_temp_mc, 80000);
        ck_assert_int_eq(c.critical_temp_mc, 95000);
}
END_TEST

START_TEST(test_passive_trip_sets_cap)
{
        struct bl_config c = auto_config();
        struct bl_trip_zone z = ZONE("thermal_zone0", "cpu0-thermal", exynos_cpu);
        struct bl_thermal_limits l;
        char text[1024];

        diag_init(&diag);
        ck_assert_uint_eq(thermal_limits_resolve(&c, &z, 1, &l, &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
        /* the lowest passive trip, not the first listed */
        ck_assert_int_eq(l.cap.mc, 65000);
        ck_assert_int_eq(l.cap.source, BL_LIMIT_TRIP);
        ck_assert_str_eq(l.cap.origin, "thermal_zone0 cpu0-thermal passive trip 70.0 °C − 5");
        /* hyst 2 °C is below the 5 °C margin */
        ck_assert_int_eq(l.release.mc, 60000);
        ck_assert_int_eq(l.release.source, BL_LIMIT_TRIP);
        /* hot (85) is below critical (120) */
        ck_assert_int_eq(l.critical.mc, 80000);
        ck_assert_str_eq(l.critical.origin, "thermal_zone0 cpu0-thermal hot trip 85.0 °C − 5");
        ck_assert(!l.cap.clamped && !l.release.clamped && !l.critical.clamped);

        thermal_limits_format(&l, text, sizeof(text));
        ck_assert_str_eq(text, "cap 65.0 °C (thermal_zone0 cpu0-thermal passive trip 70.0 °C − 5), "
                               "release 60.0 °C, "
                               "critical 80.0 °C (thermal_zone0 cpu0-thermal hot trip 85.0 °C − 5)");

        thermal_limits_apply(&c, &l);
        ck_assert_int_eq(c.cap_temp_mc, 65000);
        ck_assert_int_eq(c.release_temp_mc, 60000);
        ck_assert_int_eq(c.critical_temp_mc, 80000);
        ck_assert(c.cap_temp_auto);
}
END_TEST

START_TEST(test_lowest_trip_across_zones_and_hysteresis)
{
        struct bl_config c = auto_config();
        struct bl_trip_zone z[] = {
                ZONE("thermal_zone0", "cpu0-thermal", exynos_cpu),
                ZONE("thermal_zone4", "gpu-thermal", gpu),
        };
        struct bl_thermal_limits l;

        diag_init(&diag);
        thermal_limits_resolve(&c, z, 2, &l, &diag);
        ck_assert_int_eq(l.cap.mc, 63000);
        ck_assert_str_eq(l.cap.origin, "thermal_zone4 gpu-thermal passive trip 68.0 °C − 5");
        /* the gpu trip's 8 °C hysteresis is wider than the margin */
        ck_assert_int_eq(l.release.mc, 55000);
        ck_assert_str_eq(l.release.origin, "cap 63.0 °C − hysteresis 8");
        ck_assert_int_eq(l.critical.mc, 80000);
}
END_TEST

START_TEST(test_hot_trip_without_passive)
{
        struct bl_config c = auto_config();
        struct bl_trip_zone z = ZONE("thermal_zone1", "soc_thermal", only_hot);
        struct bl_thermal_limits l;

        diag_init(&diag);
        thermal_limits_resolve(&c, &z, 1, &l, &diag);
        ck_assert_int_eq(l.cap.mc, 80000);
        ck_assert_str_eq(l.cap.origin, "thermal_zone1 soc_thermal hot trip 90.0 °C − 10");
        ck_assert_int_eq(l.release.mc, 75000);
        ck_assert_int_eq(l.critical.mc, 85000);
        ck_assert_int_eq(l.critical.source, BL_LIMIT_TRIP);
}
END_TEST

START_TEST(test_builtin_without_trips)
{
        struct bl_config c = auto_config();
        struct bl_trip_zone z[] = {
                ZONE("thermal_zone0", "x86_pkg_temp", disabled),
                ZONE("thermal_zone1", "soc_thermal", only_critical),
        };
        struct bl_thermal_limits l;

        diag_init(&diag);
        /* no zone at all */
        thermal_limits_resolve(&c, NULL, 0, &l, &diag);
        ck_assert_int_eq(l.cap.mc, 85000);
        ck_assert_int_eq(l.cap.source, BL_LIMIT_BUILTIN);
        ck_assert_int_eq(l.release.mc, 80000);
        ck_assert_int_eq(l.release.source, BL_LIMIT_BUILTIN);
        ck_assert_int_eq(l.critical.mc, 95000);
        ck_assert_int_eq(l.critical.source, BL_LIMIT_BUILTIN);

        /* trips at 0 °C or below are disabled; a critical one still counts */
        thermal_limits_resolve(&c, z, 2, &l, &diag);
        ck_assert_int_eq(l.cap.mc, 85000);
        ck_assert_int_eq(l.cap.source, BL_LIMIT_BUILTIN);
        ck_assert_int_eq(l.release.mc, 80000);
        ck_assert_int_eq(l.critical.mc, 95000);
        ck_assert_int_eq(l.critical.source, BL_LIMIT_TRIP);
        ck_assert_str_eq(l.critical.origin, "thermal_zone1 soc_thermal critical trip 100.0 °C − 5");
        ck_assert_uint_eq(diag.n, 0);
}
END_TEST

/* Trips no silicon has (a driver's INT_MAX "no trip", 150.001 °C) count
 * as absent: believed, critical sat at 2147478 °C, never reached, or a
 * trip just above the plausible range set it above what a zone may read. */
static const struct bl_trip impossible[] = {
        { 0, BL_TRIP_PASSIVE, 2147483647, 0 },
        { 1, BL_TRIP_HOT, 150001, 0 },
        { 2, BL_TRIP_CRITICAL, 2147483647, 0 },
};

START_TEST(test_impossible_trips_are_absent)
{
        struct bl_config c = auto_config();
        struct bl_trip_zone z[] = {
                ZONE("thermal_zone0", "cpu-thermal", impossible),
                ZONE("thermal_zone1", "soc_thermal", only_critical),
        };
        struct bl_thermal_limits l;

        diag_init(&diag);
        thermal_limits_resolve(&c, z, 1, &l, &diag);
        ck_assert_int_eq(l.cap.mc, 85000);
        ck_assert_int_eq(l.cap.source, BL_LIMIT_BUILTIN);
        ck_assert_int_eq(l.critical.mc, 95000);
        ck_assert_int_eq(l.critical.source, BL_LIMIT_BUILTIN);
        /* A plausible trip of another zone still counts. */
        thermal_limits_resolve(&c, z, 2, &l, &diag);
        ck_assert_int_eq(l.critical.mc, 95000);
        ck_assert_int_eq(l.critical.source, BL_LIMIT_TRIP);
        ck_assert_str_eq(l.critical.origin, "thermal_zone1 soc_thermal critical trip 100.0 °C − 5");
        /* The bound itself is plausible. */
        z[0].trips = &(const struct bl_trip){ 0, BL_TRIP_HOT, BL_TEMP_PLAUSIBLE_MAX_MC, 0 };
        z[0].ntrips = 1;
        thermal_limits_resolve(&c, z, 1, &l, &diag);
        ck_assert_int_eq(l.critical.mc, BL_TEMP_PLAUSIBLE_MAX_MC - 5000);
        ck_assert_int_eq(l.critical.source, BL_LIMIT_TRIP);
}
END_TEST

START_TEST(test_numbers_win)
{
        struct bl_config c = auto_config();
        struct bl_trip_zone z = ZONE("thermal_zone0", "cpu0-thermal", exynos_cpu);
        struct bl_thermal_limits l;

        c.cap_temp_auto = false;
        c.cap_temp_mc = 72000;
        diag_init(&diag);
        thermal_limits_resolve(&c, &z, 1, &l, &diag);
        ck_assert_int_eq(l.cap.mc, 72000);
        ck_assert_int_eq(l.cap.source, BL_LIMIT_CONFIGURED);
        ck_assert_str_eq(l.cap.origin, "cap_temp_c");
        /* release follows the configured cap */
        ck_assert_int_eq(l.release.mc, 67000);
        ck_assert_int_eq(l.critical.mc, 80000);
        ck_assert_int_eq(l.critical.source, BL_LIMIT_TRIP);

        c.release_temp_auto = false;
        c.release_temp_mc = 71000;
        c.critical_temp_auto = false;
        c.critical_temp_mc = 99000;
        thermal_limits_resolve(&c, &z, 1, &l, &diag);
        ck_assert_int_eq(l.cap.mc, 72000);
        ck_assert_int_eq(l.release.mc, 71000);
        ck_assert_int_eq(l.release.source, BL_LIMIT_CONFIGURED);
        ck_assert_int_eq(l.critical.mc, 99000);
        ck_assert_uint_eq(diag.n, 0);
}
END_TEST

START_TEST(test_contradicting_trips_are_clamped)
{
        struct bl_config c = auto_config();
        struct bl_trip_zone z = ZONE("thermal_zone2", "cpu-thermal", contradicting);
        struct bl_thermal_limits l;

        diag_init(&diag);
        ck_assert_uint_eq(thermal_limits_resolve(&c, &z, 1, &l, &diag), 2);
        /* critical 55 stays (the kernel's own limit); cap goes below it */
        ck_assert_int_eq(l.critical.mc, 55000);
        ck_assert_int_eq(l.cap.mc, 50000);
        ck_assert(l.cap.clamped);
        ck_assert_int_eq(l.release.mc, 45000);
        ck_assert(l.release.clamped);
        ck_assert_uint_eq(diag.n, 2);
        ck_assert_str_eq(diag.msg[0],
                         "thermal: cap 75.0 °C (thermal_zone2 cpu-thermal passive trip 80.0 °C − 5) "
                         "is not below critical 55.0 °C (thermal_zone2 cpu-thermal critical trip "
                         "60.0 °C − 5): cap lowered to 50.0 °C to keep release < cap < critical");
        ck_assert_ptr_nonnull(strstr(diag.msg[1], "release 70.0 °C (cap 75.0 °C − 5) is not below cap 50.0"));
}
END_TEST

START_TEST(test_mix_keeps_order_around_numbers)
{
        struct bl_config c = auto_config();
        struct bl_trip_zone z = ZONE("thermal_zone0", "cpu0-thermal", exynos_cpu);
        struct bl_thermal_limits l;

        /* a configured cap above the trip-derived critical (80): critical moves up */
        c.cap_temp_auto = false;
        c.cap_temp_mc = 90000;
        diag_init(&diag);
        ck_assert_uint_eq(thermal_limits_resolve(&c, &z, 1, &l, &diag), 1);
        ck_assert_int_eq(l.cap.mc, 90000);
        ck_assert_int_eq(l.critical.mc, 95000);
        ck_assert(l.critical.clamped);
        ck_assert_ptr_nonnull(strstr(diag.msg[0], "critical 80.0 °C (thermal_zone0 cpu0-thermal hot trip "
                                                  "85.0 °C − 5) is not above cap 90.0 °C (cap_temp_c)"));

        /* a configured release above the trip-derived cap (65): cap moves up */
        c = auto_config();
        c.release_temp_auto = false;
        c.release_temp_mc = 70000;
        diag_init(&diag);
        ck_assert_uint_eq(thermal_limits_resolve(&c, &z, 1, &l, &diag), 1);
        ck_assert_int_eq(l.release.mc, 70000);
        ck_assert_int_eq(l.cap.mc, 75000);
        ck_assert_int_eq(l.critical.mc, 80000);

        /* release and critical configured close together: cap goes between */
        c.critical_temp_auto = false;
        c.critical_temp_mc = 74000;
        diag_init(&diag);
        thermal_limits_resolve(&c, &z, 1, &l, &diag);
        ck_assert_int_eq(l.cap.mc, 72000);
        ck_assert_int_eq(l.release.mc, 70000);
        ck_assert_int_eq(l.critical.mc, 74000);
}
END_TEST

START_TEST(test_trip_type_names)
{
        ck_assert_int_eq(trip_type_from_string("passive"), BL_TRIP_PASSIVE);
        ck_assert_int_eq(trip_type_from_string("hot"), BL_TRIP_HOT);
        ck_assert_int_eq(trip_type_from_string("critical"), BL_TRIP_CRITICAL);
        ck_assert_int_eq(trip_type_from_string("active"), BL_TRIP_ACTIVE);
        ck_assert_int_eq(trip_type_from_string("ACPI_CRT"), BL_TRIP_OTHER);
        ck_assert_str_eq(trip_type_to_string(BL_TRIP_PASSIVE), "passive");
        ck_assert_str_eq(limit_source_to_string(BL_LIMIT_TRIP), "trip");
        ck_assert_str_eq(limit_source_to_string(BL_LIMIT_CONFIGURED), "configured");
        ck_assert_str_eq(limit_source_to_string(BL_LIMIT_BUILTIN), "built-in");
}
END_TEST

START_TEST(test_equal)
{
        struct bl_config c = auto_config();
        struct bl_trip_zone z = ZONE("thermal_zone0", "cpu0-thermal", exynos_cpu);
        struct bl_thermal_limits a, b;

        thermal_limits_resolve(&c, &z, 1, &a, NULL);
        thermal_limits_resolve(&c, &z, 1, &b, NULL);
        ck_assert(thermal_limits_equal(&a, &b));
        thermal_limits_resolve(&c, NULL, 0, &b, NULL);
        ck_assert(!thermal_limits_equal(&a, &b));
}
END_TEST

static Suite *limits_suite(void)
{
        Suite *s = suite_create("thermal-limits");
        TCase *tc = tcase_create("resolve");

        tcase_add_test(tc, test_defaults_are_auto);
        tcase_add_test(tc, test_passive_trip_sets_cap);
        tcase_add_test(tc, test_lowest_trip_across_zones_and_hysteresis);
        tcase_add_test(tc, test_impossible_trips_are_absent);
        tcase_add_test(tc, test_hot_trip_without_passive);
        tcase_add_test(tc, test_builtin_without_trips);
        tcase_add_test(tc, test_numbers_win);
        tcase_add_test(tc, test_contradicting_trips_are_clamped);
        tcase_add_test(tc, test_mix_keeps_order_around_numbers);
        tcase_add_test(tc, test_trip_type_names);
        tcase_add_test(tc, test_equal);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(limits_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
