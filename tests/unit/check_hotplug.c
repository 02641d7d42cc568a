/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hotplug backend: the order of its writes (pure), and applying,
 * rolling back and restoring against a umockdev testbed shaped like an
 * Exynos 5422, where cpu0 has no online file.
 *
 * A kernel refusing a write for a moment is played by write-watch.c. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <umockdev.h>

#include "backends/backend.h"
#include "backends/hotplug.h"
#include "tests/unit/umockdev-main.h"
#include "tests/unit/write-watch.h"

static bl_cpumask set_of(const char *list)
{
        bl_cpumask s;

        ck_assert_int_eq(cpumask_parse(&s, list), 0);
        return s;
}

static void format_steps(const struct hotplug_step *steps, int n, char *buf, size_t size)
{
        size_t len = 0;

        buf[0] = '\0';
        for (int i = 0; i < n; i++)
                len += (size_t)snprintf(buf + len, size - len, "%s%c%u", i ? " " : "",
                                        steps[i].online ? '+' : '-', steps[i].cpu);
}

static void check_plan(const char *current, const char *target, const char *can_offline, const char *want)
{
        bl_cpumask c = set_of(current), t = set_of(target), o = set_of(can_offline);
        struct hotplug_step steps[BL_MAX_CPUS];
        char got[512];
        int n;

        n = hotplug_plan(&c, &t, &o, steps, BL_MAX_CPUS);
        ck_assert_int_ge(n, 0);
        format_steps(steps, n, got, sizeof(got));
        ck_assert_str_eq(got, want);
}

START_TEST(plan_little_to_big_onlines_first)
{
        /* Exynos 5422: cpu0 (LITTLE) cannot go offline and stays. */
        check_plan("0-3", "4-7", "1-7", "+4 +5 +6 +7 -3 -2 -1");
}
END_TEST

START_TEST(plan_big_to_little)
{
        check_plan("0,4-7", "0-3", "1-7", "+1 +2 +3 -7 -6 -5 -4");
}
END_TEST

START_TEST(plan_nothing_to_do)
{
        check_plan("0-3", "0-3", "1-7", "");
        /* cpu0 is not in the target but cannot go offline: no write for it. */
        check_plan("0,4-7", "4-7", "1-7", "");
}
END_TEST

START_TEST(plan_untouchable_cpu_never_written)
{
        /* cpu2 is offline and cannot be written: it stays offline. */
        check_plan("0-1,3", "0-3", "0-1,3", "");
        check_plan("0-1,3", "4-5", "0-1,3-5", "+4 +5 -3 -1 -0");
}
END_TEST

START_TEST(plan_refuses_to_empty_the_machine)
{
        bl_cpumask c = set_of("0-3"), t = set_of(""), o = set_of("0-7");
        struct hotplug_step steps[8];

        ck_assert_int_eq(hotplug_plan(&c, &t, &o, steps, 8), -EINVAL);
}
END_TEST

START_TEST(plan_reports_short_buffer)
{
        bl_cpumask c = set_of("0-3"), t = set_of("4-7"), o = set_of("0-7");
        struct hotplug_step steps[3];

        ck_assert_int_eq(hotplug_plan(&c, &t, &o, steps, 3), -ENOBUFS);
}
END_TEST

/* --- against a testbed --- */

static UMockdevTestbed *testbed;
static gchar *sys_dir;
static struct bl_topology topo;
static struct bl_ladder ladder;

static void add_cpu(unsigned cpu, const char *online)
{
        char desc[256];
        GError *error = NULL;

        snprintf(desc, sizeof(desc),
                 "P: /devices/system/cpu/cpu%u\nE: SUBSYSTEM=cpu\nA: cpu_capacity=%u\n%s%s%s\n", cpu,
                 cpu < 4 ? 377 : 1024, online ? "A: online=" : "", online ? online : "", online ? "\n" : "");
        ck_assert_msg(umockdev_testbed_add_from_string(testbed, desc, &error), "testbed: %s",
                      error ? error->message : "?");
}

static char *online_path(unsigned cpu)
{
        static char path[512];

        snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/online", sys_dir, cpu);
        return path;
}

/* The testbed's own view, read through real paths, not the preload. */
static void assert_online(const char *want)
{
        bl_cpumask got;
        char list[64];

        cpumask_zero(&got);
        for (unsigned cpu = 0; cpu < 8; cpu++) {
                FILE *f = fopen(online_path(cpu), "r");
                int c = '1';

                if (f) {
                        c = fgetc(f);
                        fclose(f);
                }
                if (c == '1')
                        cpumask_set(&got, cpu);
        }
        cpumask_format(&got, list, sizeof(list));
        ck_assert_str_eq(list, want);
}

static void board_setup(void)
{
        testbed = umockdev_testbed_new();
        sys_dir = umockdev_testbed_get_sys_dir(testbed);
        add_cpu(0, NULL);
        for (unsigned cpu = 1; cpu < 8; cpu++)
                add_cpu(cpu, "1");

        memset(&topo, 0, sizeof(topo));
        topo.ncpus = 8;
        topo.present = set_of("0-7");
        topo.online = set_of("0-7");
        topo.can_offline = set_of("1-7");
        memset(&ladder, 0, sizeof(ladder));
        ladder.mode = BL_MODE_CLUSTER;
        ladder.nlevels = 2;
        snprintf(ladder.levels[0].name, BL_NAME_MAX, "little");
        ladder.levels[0].cpus = set_of("0-3");
        ladder.levels[0].capacity = 377;
        snprintf(ladder.levels[1].name, BL_NAME_MAX, "big");
        ladder.levels[1].cpus = set_of("4-7");
        ladder.levels[1].capacity = 1024;
}

static void board_teardown(void)
{
        g_free(sys_dir);
        g_object_unref(testbed);
}

static struct bl_backend *open_backend(void)
{
        struct bl_backend *b = NULL;
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_int_eq(backend_hotplug.open(&b, &topo, &ladder, NULL, &diag), 0);
        ck_assert_int_eq(diag.n, 0);
        return b;
}

START_TEST(apply_switches_and_restores)
{
        struct bl_backend *b = open_backend();
        char detail[256];

        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[0].cpus, detail, sizeof(detail)), 0);
        assert_online("0-3");
        ck_assert_str_eq(detail, "online 0-3");
        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[1].cpus, detail, sizeof(detail)), 0);
        assert_online("0,4-7");
        ck_assert_str_eq(detail, "online 0,4-7");
        /* Applying the level in force writes nothing and says the same. */
        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[1].cpus, detail, sizeof(detail)), 0);
        assert_online("0,4-7");
        ck_assert_int_eq(backend_hotplug.restore(b, detail, sizeof(detail)), 0);
        assert_online("0-7");
        backend_hotplug.free(b);
}
END_TEST

START_TEST(restore_brings_back_an_unusual_start)
{
        struct bl_backend *b;
        char detail[256];
        FILE *f = fopen(online_path(5), "w");

        ck_assert_ptr_nonnull(f);
        fputs("0\n", f);
        fclose(f);
        b = open_backend();
        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[1].cpus, detail, sizeof(detail)), 0);
        assert_online("0,4-7");
        ck_assert_int_eq(backend_hotplug.restore(b, detail, sizeof(detail)), 0);
        assert_online("0-4,6-7");
        backend_hotplug.free(b);
}
END_TEST

START_TEST(apply_a_pair_mode_set)
{
        struct bl_backend *b = open_backend();
        bl_cpumask want = set_of("0,5-7"), absent = set_of("0,9");
        char detail[256];

        /* Pair mode asks for a mix: pair 0 on LITTLE, pairs 1-3 on big. */
        ck_assert_int_eq(backend_hotplug.apply(b, &want, detail, sizeof(detail)), 0);
        assert_online("0,5-7");
        ck_assert_int_eq(backend_hotplug.apply(b, &absent, detail, sizeof(detail)), -EINVAL);
        ck_assert_str_eq(detail, "CPUs that are not present were asked for");
        assert_online("0,5-7");
        backend_hotplug.free(b);
}
END_TEST

/* The kernel takes the write and keeps the CPU online: the level cannot be
 * had. apply() says so and undoes what it did on the way (CPUs brought up,
 * one taken down), so the kernel stays at the level before. */
START_TEST(ignored_write_has_no_effect)
{
        struct bl_backend *b = open_backend();
        struct write_watch *w;
        char detail[256];

        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[1].cpus, detail, sizeof(detail)), 0);
        assert_online("0,4-7");
        w = write_watch_add(online_path(6));
        w->clamp = "1\n";
        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[0].cpus, detail, sizeof(detail)),
                         BL_BACKEND_NO_EFFECT);
        ck_assert_str_eq(detail, "cpu6: wrote online=0, it stays online; earlier writes undone");
        assert_online("0,4-7");
        ck_assert_uint_eq(w->writes, 1);
        ck_assert_int_eq(backend_hotplug.restore(b, detail, sizeof(detail)), 0);
        assert_online("0-7");
        backend_hotplug.free(b);
}
END_TEST

START_TEST(refused_write_rolls_back)
{
        struct bl_backend *b = open_backend();
        char detail[256];

        /* cpu6 answers reads (no file: online) but every write fails, as a
         * CPU the kernel will not take offline. */
        ck_assert_int_eq(unlink(online_path(6)), 0);
        ck_assert_int_eq(symlink("/nonexistent/bigLittle-test", online_path(6)), 0);

        ck_assert_int_lt(backend_hotplug.apply(b, &ladder.levels[0].cpus, detail, sizeof(detail)), 0);
        ck_assert_msg(strstr(detail, "cpu6") && strstr(detail, "undone"), "detail: %s", detail);
        /* cpu7 went offline before cpu6 refused; it is back, so the machine is
         * still wholly at the level it was. */
        assert_online("0-7");
        backend_hotplug.free(b);
}
END_TEST

static void write_online(unsigned cpu, const char *value)
{
        FILE *f = fopen(online_path(cpu), "w");

        ck_assert_ptr_nonnull(f);
        fputs(value, f);
        ck_assert_int_eq(fclose(f), 0);
}

/* Someone takes cpu6 offline while big is applied: restore() and the saved
 * state leave it offline; a CPU they did not touch is put back as found. */
START_TEST(adopt_keeps_someone_elses_change)
{
        struct bl_backend *b = open_backend();
        bl_cpumask six = set_of("6");
        char detail[256], saved[64];

        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[1].cpus, detail, sizeof(detail)), 0);
        write_online(6, "0\n");
        ck_assert_int_eq(backend_hotplug.adopt(b, &six), 0);
        ck_assert_int_eq(backend_hotplug.save(b, saved, sizeof(saved)), 0);
        ck_assert_str_eq(saved, "online=0-5,7\n");
        ck_assert_int_eq(backend_hotplug.restore(b, detail, sizeof(detail)), 0);
        assert_online("0-5,7");

        /* Brought back by them, it is restored online again. */
        write_online(6, "1\n");
        ck_assert_int_eq(backend_hotplug.adopt(b, &six), 0);
        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[0].cpus, detail, sizeof(detail)), 0);
        assert_online("0-3");
        ck_assert_int_eq(backend_hotplug.restore(b, detail, sizeof(detail)), 0);
        assert_online("0-7");
        backend_hotplug.free(b);
}
END_TEST

static struct write_watch *refuse_writes(const char *path, unsigned n)
{
        struct write_watch *w;

        write_watch_reset();
        w = write_watch_add(path);
        w->fail_next = n;
        return w;
}

/* A refusal that passes on a retry is reported in the detail. */
START_TEST(retry_is_reported)
{
        struct bl_backend *b = open_backend();
        struct write_watch *w;
        char detail[256];

        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[0].cpus, detail, sizeof(detail)), 0);
        w = refuse_writes(online_path(5), 1);
        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[1].cpus, detail, sizeof(detail)), 0);
        ck_assert_uint_eq(w->fail_next, 0);
        ck_assert_uint_eq(w->writes, 2);
        assert_online("0,4-7");
        ck_assert_str_eq(detail, "online 0,4-7; 1 retry");
        refuse_writes(online_path(3), 2);
        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[0].cpus, detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "online 0-3; 2 retries");
        backend_hotplug.free(b);
}
END_TEST

/* Refused on every try: the step before it (cpu4 brought up) is undone and
 * the detail says how often it was tried. */
START_TEST(persistent_refusal_is_undone)
{
        struct bl_backend *b = open_backend();
        char detail[256];

        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[0].cpus, detail, sizeof(detail)), 0);
        refuse_writes(online_path(5), 3);
        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[1].cpus, detail, sizeof(detail)), -EBUSY);
        ck_assert_str_eq(detail, "cpu5: writing online=1 failed after 3 tries: Device or resource busy; "
                                 "earlier writes undone");
        assert_online("0-3");
        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[1].cpus, detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "online 0,4-7");
        backend_hotplug.free(b);
}
END_TEST

/* A restore goes on past a CPU the kernel refuses: every other CPU is put
 * back, and the failure names the one that was not (issue 18 item 4). */
START_TEST(restore_goes_on_past_a_refusal)
{
        struct bl_backend *b = open_backend();
        char detail[256];

        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[0].cpus, detail, sizeof(detail)), 0);
        refuse_writes(online_path(5), 3);
        ck_assert_int_eq(backend_hotplug.restore(b, detail, sizeof(detail)), -EBUSY);
        ck_assert_str_eq(detail, "online 0-4,6-7; cpu5: writing online=1 failed after 3 tries: Device or "
                                 "resource busy");
        assert_online("0-4,6-7");
        /* Two refusals: the first is described, both are counted. */
        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[0].cpus, detail, sizeof(detail)), 0);
        refuse_writes(online_path(5), 3);
        write_watch_add(online_path(7))->fail_next = 3;
        ck_assert_int_eq(backend_hotplug.restore(b, detail, sizeof(detail)), -EBUSY);
        ck_assert_str_eq(detail, "online 0-4,6; cpu5: writing online=1 failed after 3 tries: Device or "
                                 "resource busy; 2 CPUs not put back");
        assert_online("0-4,6");
        ck_assert_int_eq(backend_hotplug.restore(b, detail, sizeof(detail)), 0);
        assert_online("0-7");
        backend_hotplug.free(b);
}
END_TEST

/* cpu6/online reads garbage: switches go on with the other CPUs and name
 * it; the restore puts back the others and fails, naming it. Before, the
 * one file failed every switch and the whole restore. */
START_TEST(unreadable_cpu_is_left_and_named)
{
        struct bl_backend *b = open_backend();
        char detail[256];

        write_online(6, "garbage\n");
        ck_assert_int_eq(backend_hotplug.apply(b, &ladder.levels[0].cpus, detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "online 0-3; cpu6: online reads neither 0 nor 1, left as it is");
        /* 4, 5, 7 offline; cpu6 unwritten (the check reads 'g': offline). */
        assert_online("0-3");
        write_online(5, "x\n");
        ck_assert_int_eq(backend_hotplug.restore(b, detail, sizeof(detail)), -EBADMSG);
        ck_assert_str_eq(detail, "online 0-4,7; CPUs 5-6: online unreadable (cpu5: reads neither 0 nor 1), "
                                 "left as they are");
        assert_online("0-4,7");
        write_online(5, "0\n");
        write_online(6, "1\n");
        ck_assert_int_eq(backend_hotplug.restore(b, detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "online 0-7");
        backend_hotplug.free(b);
}
END_TEST

START_TEST(open_refuses_when_nothing_can_go_offline)
{
        struct bl_backend *b = NULL;
        struct bl_diag diag;

        cpumask_zero(&topo.can_offline);
        diag_init(&diag);
        ck_assert_int_eq(backend_hotplug.open(&b, &topo, &ladder, NULL, &diag), -EOPNOTSUPP);
        ck_assert_ptr_null(b);
        ck_assert_int_eq(diag.n, 1);
}
END_TEST

static Suite *hotplug_suite(void)
{
        Suite *s = suite_create("hotplug");
        TCase *plan = tcase_create("plan"), *board = tcase_create("board");

        tcase_add_test(plan, plan_little_to_big_onlines_first);
        tcase_add_test(plan, plan_big_to_little);
        tcase_add_test(plan, plan_nothing_to_do);
        tcase_add_test(plan, plan_untouchable_cpu_never_written);
        tcase_add_test(plan, plan_refuses_to_empty_the_machine);
        tcase_add_test(plan, plan_reports_short_buffer);
        suite_add_tcase(s, plan);

        tcase_add_checked_fixture(board, board_setup, board_teardown);
        tcase_add_test(board, apply_switches_and_restores);
        tcase_add_test(board, apply_a_pair_mode_set);
        tcase_add_test(board, restore_brings_back_an_unusual_start);
        tcase_add_test(board, restore_goes_on_past_a_refusal);
        tcase_add_test(board, unreadable_cpu_is_left_and_named);
        tcase_add_test(board, refused_write_rolls_back);
        tcase_add_test(board, ignored_write_has_no_effect);
        tcase_add_test(board, adopt_keeps_someone_elses_change);
        tcase_add_test(board, retry_is_reported);
        tcase_add_test(board, persistent_refusal_is_undone);
        tcase_add_test(board, open_refuses_when_nothing_can_go_offline);
        suite_add_tcase(s, board);
        return s;
}

int main(int argc, char **argv)
{
        return umockdev_main(argc, argv, hotplug_suite);
}
