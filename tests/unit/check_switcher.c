/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The switcher backend against a umockdev testbed shaped like a TC2 with
 * the kernel's big.LITTLE switcher active: logical CPUs 0 and 1 with a
 * policy each and the merged virtual table, the A7s 2-4 offline without
 * cpufreq; and the boundary of merged tables on its own.
 *
 * The kernel's refusals, and the order of the writes to the limit files,
 * come from write-watch.c. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <umockdev.h>

#include "backends/backend.h"
#include "backends/switcher.h"
#include "backends/sysfs.h"
#include "tests/unit/umockdev-main.h"
#include "tests/unit/write-watch.h"

#define TC2_TABLE "175000 200000 250000 300000 350000 400000 450000 500000 500000 600000 700000 800000 " \
                  "900000 1000000 1100000 1200000 \n"

static UMockdevTestbed *testbed;
static gchar *sys_dir;
static struct bl_topology topo;
static struct bl_ladder ladder;

static bl_cpumask set_of(const char *list)
{
        bl_cpumask s;

        ck_assert_int_eq(cpumask_parse(&s, list), 0);
        return s;
}

static const char *real_path(const char *sys_path)
{
        static char path[4][512];
        static unsigned next;
        char *p = path[next++ % 4];

        ck_assert(strncmp(sys_path, "/sys/", 5) == 0);
        snprintf(p, sizeof(path[0]), "%s/%s", sys_dir, sys_path + 5);
        return p;
}

static const char *policy_file(unsigned policy, const char *name)
{
        char path[256];

        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpufreq/policy%u/%s", policy, name);
        return real_path(path);
}

static void put(const char *path, const char *text)
{
        FILE *f = fopen(path, "w");

        ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
        fputs(text, f);
        ck_assert_int_eq(fclose(f), 0);
}

static void assert_limits(unsigned cpu, const char *min, const char *max)
{
        char now[2][64] = { "", "" };
        const char *files[2] = { "scaling_min_freq", "scaling_max_freq" };

        for (int i = 0; i < 2; i++) {
                FILE *f = fopen(policy_file(cpu, files[i]), "r");

                ck_assert_ptr_nonnull(f);
                ck_assert_ptr_nonnull(fgets(now[i], sizeof(now[i]), f));
                fclose(f);
                now[i][strcspn(now[i], "\n")] = '\0';
        }
        ck_assert_msg(strcmp(now[0], min) == 0 && strcmp(now[1], max) == 0, "cpu%u: %s-%s, expected %s-%s",
                      cpu, now[0], now[1], min, max);
}

static struct write_watch *watch(unsigned cpu, bool max)
{
        const char *file = max ? "scaling_max_freq" : "scaling_min_freq";
        struct write_watch *w = write_watch_add(policy_file(cpu, file));

        snprintf(w->name, sizeof(w->name), "cpu%u %s", cpu, max ? "max" : "min");
        return w;
}

static void add_policy(unsigned cpu)
{
        char dir[512], words[16];

        snprintf(dir, sizeof(dir), "%s/devices/system/cpu/cpufreq/policy%u", sys_dir, cpu);
        ck_assert_int_eq(g_mkdir_with_parents(dir, 0755), 0);
        snprintf(words, sizeof(words), "%u \n", cpu);
        put(policy_file(cpu, "related_cpus"), words);
        put(policy_file(cpu, "affected_cpus"), words);
        put(policy_file(cpu, "cpuinfo_min_freq"), "175000\n");
        put(policy_file(cpu, "cpuinfo_max_freq"), "1200000\n");
        put(policy_file(cpu, "scaling_min_freq"), "175000\n");
        put(policy_file(cpu, "scaling_max_freq"), "1200000\n");
        put(policy_file(cpu, "scaling_available_frequencies"), TC2_TABLE);
}

static void set_active(const char *value)
{
        char dir[512];

        snprintf(dir, sizeof(dir), "%s/kernel/bL_switcher", sys_dir);
        ck_assert_int_eq(g_mkdir_with_parents(dir, 0755), 0);
        put(real_path("/sys/kernel/bL_switcher/active"), value);
}

static void board_setup(void)
{
        GError *error = NULL;

        write_watch_reset();
        testbed = umockdev_testbed_new();
        sys_dir = umockdev_testbed_get_sys_dir(testbed);
        for (unsigned cpu = 0; cpu < 5; cpu++) {
                char desc[256];

                snprintf(desc, sizeof(desc),
                         "P: /devices/system/cpu/cpu%u\nE: SUBSYSTEM=cpu\nA: cpu_capacity=%u\n%s", cpu,
                         cpu < 2 ? 1024 : 430, cpu < 2 ? "L: cpufreq=../cpufreq/policy" : "A: online=0\n");
                if (cpu < 2)
                        snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), "%u\n", cpu);
                ck_assert_msg(umockdev_testbed_add_from_string(testbed, desc, &error), "testbed: %s",
                              error ? error->message : "?");
        }
        add_policy(0);
        add_policy(1);
        set_active("1\n");

        memset(&topo, 0, sizeof(topo));
        topo.ncpus = 5;
        topo.present = set_of("0-4");
        topo.online = set_of("0-1");
        topo.switcher = true;
        memset(&ladder, 0, sizeof(ladder));
        ladder.mode = BL_MODE_PAIR;
        ladder.nlevels = 2;
        snprintf(ladder.levels[0].name, BL_NAME_MAX, "little");
        snprintf(ladder.levels[1].name, BL_NAME_MAX, "big");
        ladder.npairs = 2;
        ladder.pairs[0] = (struct bl_pair){ .little = 2, .big = 0 };
        ladder.pairs[1] = (struct bl_pair){ .little = 3, .big = 1 };
        ladder.unpaired = set_of("4");
}

static void board_teardown(void)
{
        write_watch_reset();
        g_free(sys_dir);
        g_object_unref(testbed);
}

static struct bl_backend *open_backend(void)
{
        struct bl_backend *b = NULL;
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_int_eq(backend_switcher.open(&b, &topo, &ladder, NULL, &diag), 0);
        ck_assert_int_eq(diag.n, 0);
        ck_assert_ptr_nonnull(b);
        return b;
}

static int apply(struct bl_backend *b, const char *cpus, char *detail, size_t size)
{
        bl_cpumask s = set_of(cpus);

        return backend_switcher.apply(b, &s, detail, size);
}

static int boundary(const unsigned *table, unsigned n, unsigned *little, unsigned *big)
{
        *little = *big = 0;
        return switcher_boundary(table, n, little, big);
}

START_TEST(boundary_of_a_table_listing_the_shared_clock_twice)
{
        static const unsigned tc2[] = { 175000, 200000, 250000, 300000, 350000, 400000, 450000, 500000,
                                        500000, 600000, 700000, 800000, 900000, 1000000, 1100000, 1200000 };
        unsigned little, big;

        /* On A15 a target of 500 MHz stays there: LITTLE is capped below it. */
        ck_assert_int_eq(boundary(tc2, 16, &little, &big), 0);
        ck_assert_uint_eq(little, 450000);
        ck_assert_uint_eq(big, 600000);
}
END_TEST

START_TEST(boundary_of_separate_halves)
{
        /* A7 500-1200 MHz halved, A15 900-1600 MHz, in any order. */
        static const unsigned table[] = { 1600000, 250000, 300000, 400000, 500000, 600000, 900000, 1000000,
                                          1200000 };
        unsigned little, big;

        ck_assert_int_eq(boundary(table, 9, &little, &big), 0);
        ck_assert_uint_eq(little, 600000);
        ck_assert_uint_eq(big, 900000);
}
END_TEST

START_TEST(boundary_needs_two_halves)
{
        static const unsigned big_only[] = { 900000, 1000000, 1200000 };
        static const unsigned one[] = { 500000 };
        static const unsigned shared_lowest[] = { 500000, 500000, 1200000 };
        static const unsigned zero[] = { 0, 500000, 1200000 };
        unsigned little, big;

        ck_assert_int_eq(boundary(big_only, 3, &little, &big), -EINVAL);
        ck_assert_int_eq(boundary(one, 1, &little, &big), -EINVAL);
        ck_assert_int_eq(boundary(shared_lowest, 3, &little, &big), -EINVAL);
        ck_assert_int_eq(boundary(zero, 3, &little, &big), -EINVAL);
        ck_assert_int_eq(boundary(NULL, 0, &little, &big), -EINVAL);
        ck_assert_uint_eq(little, 0);
}
END_TEST

START_TEST(open_refuses_an_inactive_switcher)
{
        struct bl_backend *b = NULL;
        struct bl_diag diag;

        set_active("0\n");
        diag_init(&diag);
        ck_assert_int_eq(backend_switcher.open(&b, &topo, &ladder, NULL, &diag), -ENODEV);
        ck_assert_ptr_null(b);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_msg(strstr(diag.msg[0], "the in-kernel switcher is not active "
                                          "(/sys/kernel/bL_switcher/active reads \"0\")"), "%s", diag.msg[0]);

        ck_assert_int_eq(unlink(real_path("/sys/kernel/bL_switcher/active")), 0);
        diag_init(&diag);
        ck_assert_int_eq(backend_switcher.open(&b, &topo, &ladder, NULL, &diag), -ENODEV);
        ck_assert_msg(strstr(diag.msg[0], "the in-kernel switcher is not active "
                                          "(/sys/kernel/bL_switcher/active: No such file or directory)"),
                      "%s", diag.msg[0]);
        assert_limits(0, "175000", "1200000");
}
END_TEST

START_TEST(open_needs_pair_mode_and_one_logical_cpu_per_pair)
{
        struct bl_backend *b = NULL;
        struct bl_diag diag;

        ladder.mode = BL_MODE_CLUSTER;
        diag_init(&diag);
        ck_assert_int_eq(backend_switcher.open(&b, &topo, &ladder, NULL, &diag), -EOPNOTSUPP);
        ck_assert_str_eq(diag.msg[0],
                         "switcher: it moves each pair on its own and needs mode pair, not cluster");

        ladder.mode = BL_MODE_PAIR;
        ladder.pairs[1] = (struct bl_pair){ .little = 3, .big = 4 };
        diag_init(&diag);
        ck_assert_int_eq(backend_switcher.open(&b, &topo, &ladder, NULL, &diag), -EOPNOTSUPP);
        ck_assert_str_eq(diag.msg[0], "switcher: pair 1 (cpu3/cpu4): neither of its CPUs has a cpufreq "
                                      "policy, the switcher leaves exactly one online");
        ck_assert_ptr_null(b);
}
END_TEST

START_TEST(pairs_cross_the_boundary_and_back)
{
        struct bl_backend *b = open_backend();
        char detail[256];

        watch(0, false);
        watch(0, true);
        ck_assert_int_eq(apply(b, "2-3", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "little: cpu 0-1; 2 writes");
        assert_limits(0, "175000", "450000");
        assert_limits(1, "175000", "450000");
        ck_assert_str_eq(write_watch_order(), "cpu0 max=450000");

        /* little -> big: the maximum goes up before the minimum, never min > max. */
        write_watch_clear_order();
        ck_assert_int_eq(apply(b, "0,3", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "big: cpu 0, little: cpu 1; 2 writes");
        ck_assert_str_eq(write_watch_order(), "cpu0 max=1200000, cpu0 min=600000");
        assert_limits(0, "600000", "1200000");
        assert_limits(1, "175000", "450000");

        /* big -> little: the minimum comes down first. */
        write_watch_clear_order();
        ck_assert_int_eq(apply(b, "2-3", detail, sizeof(detail)), 0);
        ck_assert_str_eq(write_watch_order(), "cpu0 min=175000, cpu0 max=450000");
        assert_limits(0, "175000", "450000");

        /* The same level again writes nothing. */
        write_watch_clear_order();
        ck_assert_int_eq(apply(b, "2-3", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "little: cpu 0-1; no write");
        ck_assert_str_eq(write_watch_order(), "");
        backend_switcher.free(b);
}
END_TEST

START_TEST(pair_left_out_stays_where_it_is)
{
        struct bl_backend *b = open_backend();
        char detail[256];

        ck_assert_int_eq(apply(b, "0-1", detail, sizeof(detail)), 0);
        assert_limits(1, "600000", "1200000");
        /* Pair 1 named by neither of its CPUs. */
        ck_assert_int_eq(apply(b, "2", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "big: cpu 1, little: cpu 0; 2 writes");
        assert_limits(0, "175000", "450000");
        assert_limits(1, "600000", "1200000");
        backend_switcher.free(b);
}
END_TEST

START_TEST(refused_write_mid_switch_rolls_back)
{
        struct bl_backend *b = open_backend();
        struct write_watch *min1;
        char detail[256];

        ck_assert_int_eq(apply(b, "2-3", detail, sizeof(detail)), 0);
        /* Both pairs go big; cpu0 goes through, cpu1's minimum is refused. */
        min1 = watch(1, false);
        min1->fail_next = 100;
        min1->error = EBUSY;
        watch(0, false);
        watch(0, true);
        ck_assert_int_eq(apply(b, "0-1", detail, sizeof(detail)), -EBUSY);
        ck_assert_str_eq(detail, "cpu1: writing scaling_min_freq=600000 failed after 3 tries: "
                                 "Device or resource busy; earlier writes undone");
        ck_assert_uint_eq(min1->writes, SYSFS_WRITE_TRIES);
        /* Every limit is back, cpu1's raised maximum too. */
        assert_limits(0, "175000", "450000");
        assert_limits(1, "175000", "450000");
        ck_assert_str_eq(write_watch_order(),
                         "cpu0 max=1200000, cpu0 min=600000, cpu1 min=600000, cpu1 min=600000, "
                         "cpu1 min=600000, cpu0 min=175000, cpu0 max=450000");

        /* Once the kernel takes it, the same switch goes through. */
        min1->fail_next = 0;
        ck_assert_int_eq(apply(b, "0-1", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "big: cpu 0-1; 4 writes");
        assert_limits(0, "600000", "1200000");
        assert_limits(1, "600000", "1200000");
        backend_switcher.free(b);
}
END_TEST

START_TEST(restore_puts_back_exactly_what_was_found)
{
        struct bl_backend *b;
        char detail[256];

        /* Someone's own limits at start. */
        put(policy_file(0, "scaling_min_freq"), "200000\n");
        put(policy_file(0, "scaling_max_freq"), "1000000\n");
        b = open_backend();
        ck_assert_int_eq(apply(b, "0,3", detail, sizeof(detail)), 0);
        assert_limits(0, "600000", "1200000");
        assert_limits(1, "175000", "450000");
        ck_assert_int_eq(backend_switcher.restore(b, detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail,
                         "cpufreq limits as found: cpu0 200000-1000000, cpu1 175000-1200000 kHz; 3 writes");
        assert_limits(0, "200000", "1000000");
        assert_limits(1, "175000", "1200000");
        backend_switcher.free(b);
}
END_TEST

START_TEST(saved_state_restores_after_a_crash)
{
        struct bl_backend *b = open_backend();
        char text[256], detail[256];

        ck_assert_int_eq(backend_switcher.save(b, text, sizeof(text)), 0);
        ck_assert_str_eq(text, "switcher_limits=0:175000:1200000 1:175000:1200000\n");
        ck_assert_int_eq(backend_switcher.save(b, text, 20), -ENOBUFS);
        ck_assert_int_eq(apply(b, "0-1", detail, sizeof(detail)), 0);
        backend_switcher.free(b);

        ck_assert_int_eq(backend_switcher.restore_saved(&topo, "bogus=1\n", detail, sizeof(detail)), -EINVAL);
        ck_assert_str_eq(detail, "bogus: not a setting of the switcher backend");
        ck_assert_int_eq(backend_switcher.restore_saved(&topo, "switcher_limits=0:1\n", detail,
                                                        sizeof(detail)), -EINVAL);
        ck_assert_str_eq(detail, "switcher_limits: expected CPU:MIN:MAX, got \"0:1\"");
        /* sscanf()'s %u wrapped this to CPU 0 */
        ck_assert_int_eq(backend_switcher.restore_saved(&topo, "switcher_limits=4294967296:175000:1200000\n",
                                                        detail, sizeof(detail)), -EINVAL);
        ck_assert_str_eq(detail, "switcher_limits: expected CPU:MIN:MAX, got \"4294967296:175000:1200000\"");
        assert_limits(0, "600000", "1200000");

        ck_assert_int_eq(backend_switcher.restore_saved(&topo,
                                                        "switcher_limits=0:175000:1200000 1:175000:1200000\n",
                                                        detail, sizeof(detail)), 0);
        assert_limits(0, "175000", "1200000");
        assert_limits(1, "175000", "1200000");
}
END_TEST

START_TEST(auto_picks_the_switcher_where_it_is)
{
        char why[256];

        ck_assert_ptr_eq(backend_select(BL_BACKEND_AUTO, &topo, why, sizeof(why)), &backend_switcher);
        ck_assert_str_eq(why, "auto: the kernel's big.LITTLE switcher is present; each pair is moved by its "
                              "logical CPU's cpufreq limits");
        ck_assert_ptr_eq(backend_select(BL_BACKEND_SWITCHER, &topo, why, sizeof(why)), &backend_switcher);
        ck_assert_str_eq(why, "configured");
        topo.switcher = false;
        topo.can_offline = set_of("1-4");
        ck_assert_ptr_eq(backend_select(BL_BACKEND_AUTO, &topo, why, sizeof(why)), &backend_hotplug);
}
END_TEST

static Suite *switcher_suite(void)
{
        Suite *s = suite_create("switcher");
        TCase *table = tcase_create("boundary");
        TCase *board = tcase_create("tc2");

        tcase_add_test(table, boundary_of_a_table_listing_the_shared_clock_twice);
        tcase_add_test(table, boundary_of_separate_halves);
        tcase_add_test(table, boundary_needs_two_halves);
        suite_add_tcase(s, table);

        tcase_add_checked_fixture(board, board_setup, board_teardown);
        tcase_add_test(board, open_refuses_an_inactive_switcher);
        tcase_add_test(board, open_needs_pair_mode_and_one_logical_cpu_per_pair);
        tcase_add_test(board, pairs_cross_the_boundary_and_back);
        tcase_add_test(board, pair_left_out_stays_where_it_is);
        tcase_add_test(board, refused_write_mid_switch_rolls_back);
        tcase_add_test(board, restore_puts_back_exactly_what_was_found);
        tcase_add_test(board, saved_state_restores_after_a_crash);
        tcase_add_test(board, auto_picks_the_switcher_where_it_is);
        suite_add_tcase(s, board);
        return s;
}

int main(int argc, char **argv)
{
        return umockdev_main(argc, argv, switcher_suite);
}
