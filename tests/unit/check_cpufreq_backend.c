/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cpufreq backend against a umockdev testbed shaped like an Exynos 5422
 * (policy0: Cortex-A7 CPUs 0-3, policy4: Cortex-A15 CPUs 4-7), the shared
 * write/read-back/undo helpers of sysfs.c, and backend_select().
 *
 * The kernel's refusals and its clamping are played by write-watch.c. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <umockdev.h>

#include "backends/backend.h"
#include "backends/cpufreq.h"
#include "backends/sysfs.h"
#include "tests/unit/umockdev-main.h"
#include "tests/unit/write-watch.h"

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

/* The real path of a testbed file given as the backend sees it. */
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

static void assert_max(unsigned policy, const char *want)
{
        char text[64] = "";
        FILE *f = fopen(policy_file(policy, "scaling_max_freq"), "r");

        ck_assert_ptr_nonnull(f);
        ck_assert_ptr_nonnull(fgets(text, sizeof(text), f));
        fclose(f);
        text[strcspn(text, "\n")] = '\0';
        ck_assert_msg(strcmp(text, want) == 0, "policy%u/scaling_max_freq is \"%s\", expected \"%s\"", policy,
                      text, want);
}

static struct write_watch *watch(unsigned policy)
{
        return write_watch_add(policy_file(policy, "scaling_max_freq"));
}

/* As the kernel presents it: related_cpus and affected_cpus as words with a
 * trailing space, frequencies in kHz. */
static void add_policy(unsigned first, const char *words, unsigned min_khz, unsigned max_khz)
{
        char dir[512], value[32];

        snprintf(dir, sizeof(dir), "%s/devices/system/cpu/cpufreq/policy%u", sys_dir, first);
        ck_assert_int_eq(g_mkdir_with_parents(dir, 0755), 0);
        put(policy_file(first, "related_cpus"), words);
        put(policy_file(first, "affected_cpus"), words);
        snprintf(value, sizeof(value), "%u\n", min_khz);
        put(policy_file(first, "cpuinfo_min_freq"), value);
        put(policy_file(first, "scaling_min_freq"), value);
        snprintf(value, sizeof(value), "%u\n", max_khz);
        put(policy_file(first, "cpuinfo_max_freq"), value);
        put(policy_file(first, "scaling_max_freq"), value);
}

static void board_setup(void)
{
        GError *error = NULL;

        write_watch_reset();
        testbed = umockdev_testbed_new();
        sys_dir = umockdev_testbed_get_sys_dir(testbed);
        for (unsigned cpu = 0; cpu < 8; cpu++) {
                char desc[256];

                snprintf(desc, sizeof(desc),
                         "P: /devices/system/cpu/cpu%u\nE: SUBSYSTEM=cpu\nA: cpu_capacity=%u\n", cpu,
                         cpu < 4 ? 377 : 1024);
                ck_assert_msg(umockdev_testbed_add_from_string(testbed, desc, &error), "testbed: %s",
                              error ? error->message : "?");
        }
        add_policy(0, "0 1 2 3 \n", 200000, 1400000);
        add_policy(4, "4 5 6 7 \n", 200000, 2000000);

        memset(&topo, 0, sizeof(topo));
        topo.ncpus = 8;
        topo.present = set_of("0-7");
        topo.online = set_of("0-7");
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
        write_watch_reset();
        g_free(sys_dir);
        g_object_unref(testbed);
}

static struct bl_backend *open_backend(void)
{
        struct bl_backend *b = NULL;
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_int_eq(backend_cpufreq.open(&b, &topo, &ladder, NULL, &diag), 0);
        ck_assert_int_eq(diag.n, 0);
        ck_assert_ptr_nonnull(b);
        return b;
}

static int apply(struct bl_backend *b, const char *cpus, char *detail, size_t size)
{
        bl_cpumask s = set_of(cpus);

        return backend_cpufreq.apply(b, &s, detail, size);
}

START_TEST(switch_big_little_and_back)
{
        struct bl_backend *b = open_backend();
        char detail[256];

        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "capped 0-3; 1 write");
        assert_max(0, "200000");
        assert_max(4, "2000000");

        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "capped 4-7; 2 writes");
        assert_max(0, "1400000");
        assert_max(4, "200000");

        /* An mp level using CPUs of both clusters caps nothing. */
        ck_assert_int_eq(apply(b, "0-4", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "nothing capped; 1 write");
        assert_max(0, "1400000");
        assert_max(4, "2000000");
        backend_cpufreq.free(b);
}
END_TEST

START_TEST(unchanged_level_writes_nothing)
{
        struct bl_backend *b = open_backend();
        struct write_watch *w0 = watch(0), *w4 = watch(4);
        char detail[256];

        /* Any write would fail the apply. */
        w0->fail_next = w4->fail_next = 100;
        w0->error = w4->error = EBUSY;
        /* At start, with every CPU wanted, there is nothing to do. */
        ck_assert_int_eq(apply(b, "0-7", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "nothing capped; no write");
        ck_assert_uint_eq(w0->writes + w4->writes, 0);

        w0->fail_next = w4->fail_next = 0;
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        ck_assert_uint_eq(w0->writes, 1);
        w0->fail_next = w4->fail_next = 100;
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "capped 0-3; no write");
        ck_assert_uint_eq(w0->writes, 1);
        ck_assert_uint_eq(w4->writes, 0);
        assert_max(0, "200000");
        backend_cpufreq.free(b);
}
END_TEST

/* A policy whose table has one operating point cannot be capped: the
 * level that caps it is not there. apply() says so and puts back what it
 * raised on the way, so the kernel stays at the level before. */
START_TEST(cap_on_one_opp_has_no_effect)
{
        struct bl_backend *b;
        char detail[256];

        put(policy_file(0, "cpuinfo_min_freq"), "1400000\n");
        b = open_backend();
        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        assert_max(4, "200000");
        /* big caps policy0: raising policy4 first, then nothing to cap */
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), BL_BACKEND_NO_EFFECT);
        ck_assert_str_eq(detail, "policy0 cannot be capped: its lowest frequency is its highest "
                                 "(1400000 kHz, one operating point)");
        assert_max(4, "200000");
        assert_max(0, "1400000");
        /* nothing was taken for asked: little again writes nothing */
        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "capped 4-7; no write");
        ck_assert_int_eq(backend_cpufreq.restore(b, detail, sizeof(detail)), 0);
        assert_max(4, "2000000");
        assert_max(0, "1400000");
        backend_cpufreq.free(b);
}
END_TEST

START_TEST(someone_else_lowered_the_limit)
{
        struct bl_backend *b = open_backend();
        struct write_watch *w0;
        char detail[256];

        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        assert_max(4, "200000");
        /* Thermal (or another daemon's QoS request) now holds policy0 lower. */
        put(policy_file(0, "scaling_max_freq"), "1000000\n");
        w0 = watch(0);
        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail,
                         "capped 4-7; no write; another limit holds policy0 at 1000000 kHz (asked 1400000)");
        /* Asking again for what we asked would change nothing. */
        ck_assert_uint_eq(w0->writes, 0);
        assert_max(0, "1000000");
        backend_cpufreq.free(b);
}
END_TEST

START_TEST(kernel_clamps_the_written_value)
{
        struct bl_backend *b = open_backend();
        struct write_watch *w4;
        char detail[256];

        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        /* The write of 2000000 reads back 1500000: a tighter vote wins. */
        w4 = watch(4);
        w4->clamp = "1500000\n";
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail,
                         "capped 0-3; 2 writes; another limit holds policy4 at 1500000 kHz (asked 2000000)");
        ck_assert_uint_eq(w4->writes, 1);
        assert_max(4, "1500000");
        assert_max(0, "200000");
        backend_cpufreq.free(b);
}
END_TEST

START_TEST(refused_write_mid_switch_rolls_back)
{
        struct bl_backend *b = open_backend();
        struct write_watch *w0, *w4;
        char detail[256];

        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        /* little -> big raises policy4 first, then caps policy0, which the
         * kernel keeps refusing. */
        w0 = watch(0);
        w0->fail_next = 100;
        w0->error = EBUSY;
        w4 = watch(4);
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), -EBUSY);
        ck_assert_str_eq(detail, "policy0: writing scaling_max_freq=200000 failed after 3 tries: "
                                 "Device or resource busy; earlier writes undone");
        ck_assert_uint_eq(w0->writes, SYSFS_WRITE_TRIES);
        /* Raised to 2000000, then put back. */
        ck_assert_uint_eq(w4->writes, 2);
        assert_max(0, "1400000");
        assert_max(4, "200000");

        /* Once the kernel takes it, the same switch goes through. */
        w0->fail_next = 0;
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "capped 0-3; 2 writes");
        assert_max(0, "200000");
        assert_max(4, "2000000");
        backend_cpufreq.free(b);
}
END_TEST

START_TEST(retries_are_counted)
{
        struct bl_backend *b = open_backend();
        struct write_watch *w0;
        char detail[256];

        w0 = watch(0);
        w0->fail_next = 2;
        w0->error = EIO;
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "capped 0-3; 1 write, 2 retries");
        ck_assert_uint_eq(w0->writes, 3);
        assert_max(0, "200000");

        /* An error that will not pass is not tried again. */
        w0->fail_next = 1;
        w0->error = EROFS;
        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), -EROFS);
        ck_assert_uint_eq(w0->writes, 4);
        ck_assert_msg(strstr(detail, "policy0") && strstr(detail, "after 1 try") && strstr(detail, "undone"),
                      "detail: %s", detail);
        /* policy0 is raised before policy4 is capped: refused at once,
         * nothing else was written. */
        assert_max(0, "200000");
        assert_max(4, "2000000");
        backend_cpufreq.free(b);
}
END_TEST

START_TEST(unreadable_policy_changes_nothing)
{
        struct bl_backend *b = open_backend();
        struct write_watch *w4 = watch(4);
        char detail[256];

        /* A directory in place of the file: it can be neither read nor written. */
        ck_assert_int_eq(unlink(policy_file(0, "scaling_max_freq")), 0);
        ck_assert_int_eq(mkdir(policy_file(0, "scaling_max_freq"), 0755), 0);
        ck_assert_int_lt(apply(b, "0-3", detail, sizeof(detail)), 0);
        ck_assert_msg(strstr(detail, "policy0") && strstr(detail, "scaling_max_freq"), "detail: %s", detail);
        ck_assert_uint_eq(w4->writes, 0);
        assert_max(4, "2000000");
        backend_cpufreq.free(b);
}
END_TEST

START_TEST(restore_puts_back_exactly_what_was_found)
{
        struct bl_backend *b;
        char detail[256];

        /* An administrator's own limit on the LITTLE cluster. */
        put(policy_file(0, "scaling_max_freq"), "1300000\n");
        b = open_backend();
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        assert_max(0, "200000");
        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        assert_max(0, "1300000");
        assert_max(4, "200000");
        ck_assert_int_eq(backend_cpufreq.restore(b, detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "scaling_max_freq as found: policy0 1300000, policy4 2000000 kHz; 1 write");
        assert_max(0, "1300000");
        assert_max(4, "2000000");
        /* Restoring twice writes nothing more. */
        ck_assert_int_eq(backend_cpufreq.restore(b, detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "scaling_max_freq as found: policy0 1300000, policy4 2000000 kHz; no write");
        backend_cpufreq.free(b);
}
END_TEST

START_TEST(restore_goes_on_after_a_failure)
{
        struct bl_backend *b = open_backend();
        struct write_watch *w4;
        char detail[256];

        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        assert_max(4, "200000");
        /* Someone raised policy0 above what was found: restore lowers it
         * again after trying (and failing) to raise policy4. */
        put(policy_file(0, "scaling_max_freq"), "1500000\n");
        w4 = watch(4);
        w4->fail_next = 100;
        w4->error = EBUSY;
        ck_assert_int_eq(backend_cpufreq.restore(b, detail, sizeof(detail)), -EBUSY);
        ck_assert_msg(strstr(detail, "policy4") && strstr(detail, "3 tries"), "detail: %s", detail);
        ck_assert_uint_eq(w4->writes, SYSFS_WRITE_TRIES);
        assert_max(0, "1400000");
        assert_max(4, "200000");
        backend_cpufreq.free(b);
}
END_TEST

START_TEST(saved_state_restores_after_a_crash)
{
        struct bl_backend *b;
        struct write_watch *w0;
        char text[256], detail[256];

        put(policy_file(0, "scaling_max_freq"), "1300000\n");
        b = open_backend();
        ck_assert_int_eq(backend_cpufreq.save(b, text, 3), -ENOBUFS);
        ck_assert_int_eq(backend_cpufreq.save(b, text, sizeof(text)), 0);
        ck_assert_str_eq(text, "scaling_max_freq=0:1300000 4:2000000\n");
        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        assert_max(4, "200000");
        /* The daemon dies here; the next start puts back what was saved,
         * writing only what differs. */
        backend_cpufreq.free(b);
        w0 = watch(0);
        ck_assert_int_eq(backend_cpufreq.restore_saved(&topo, text, detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "scaling_max_freq as found: policy0 1300000, policy4 2000000 kHz; 1 write");
        ck_assert_uint_eq(w0->writes, 0);
        assert_max(0, "1300000");
        assert_max(4, "2000000");
}
END_TEST

START_TEST(saved_state_not_understood_changes_nothing)
{
        static const struct {
                const char *text, *detail;
        } bad[] = {
                { "online=0-7\n", "online: not a setting of the cpufreq backend" },
                { "scaling_max_freq=0:1400000 9:2000000\n",
                  "scaling_max_freq: policy9 is not on this machine" },
                { "scaling_max_freq=0:fast\n", "scaling_max_freq: expected POLICY:KHZ, got \"0:fast\"" },
                /* sscanf()'s %u wrapped this to policy 0, and took signs */
                { "scaling_max_freq=4294967296:1400000\n",
                  "scaling_max_freq: expected POLICY:KHZ, got \"4294967296:1400000\"" },
                { "scaling_max_freq=0:+1400000\n", "scaling_max_freq: expected POLICY:KHZ, got \"0:+1400000\"" },
                { "scaling_max_freq=0:1400000:\n", "scaling_max_freq: expected POLICY:KHZ, got \"0:1400000:\"" },
                { "scaling_max_freq=0:1400000\nscaling_max_freq=4:2000000\n",
                  "scaling_max_freq: given twice" },
                { "# nothing\n", "# nothing: expected key=value" },
                { "", "scaling_max_freq: missing" },
        };
        struct write_watch *w0 = watch(0);
        char detail[256];

        for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                ck_assert_int_eq(backend_cpufreq.restore_saved(&topo, bad[i].text, detail, sizeof(detail)),
                                 -EINVAL);
                ck_assert_str_eq(detail, bad[i].detail);
        }
        ck_assert_uint_eq(w0->writes, 0);
}
END_TEST

START_TEST(open_needs_two_policies)
{
        struct bl_backend *b = NULL;
        struct bl_diag diag;
        char command[600];

        snprintf(command, sizeof(command), "rm -rf '%s/devices/system/cpu/cpufreq/policy4'", sys_dir);
        ck_assert_int_eq(system(command), 0);
        diag_init(&diag);
        ck_assert_int_eq(backend_cpufreq.open(&b, &topo, &ladder, NULL, &diag), -EOPNOTSUPP);
        ck_assert_ptr_null(b);
        ck_assert_int_eq(diag.n, 1);
        ck_assert_int_eq(cpufreq_writable_policies(), 1);
}
END_TEST

START_TEST(select_cpufreq)
{
        char why[256];

        ck_assert_ptr_eq(backend_select(BL_BACKEND_CPUFREQ, &topo, why, sizeof(why)), &backend_cpufreq);
        ck_assert_str_eq(why, "configured");
        /* Nothing can go offline: auto falls back to capping. */
        ck_assert_ptr_eq(backend_select(BL_BACKEND_AUTO, &topo, why, sizeof(why)), &backend_cpufreq);
        ck_assert_str_eq(why, "auto: no CPU can be taken offline; 2 cpufreq policies can be capped");
        /* Hotplug stays auto's first choice. */
        topo.can_offline = set_of("1-7");
        ck_assert_ptr_eq(backend_select(BL_BACKEND_AUTO, &topo, why, sizeof(why)), &backend_hotplug);
}
END_TEST

START_TEST(select_without_cpufreq)
{
        char why[256], command[600];

        snprintf(command, sizeof(command), "rm -rf '%s/devices/system/cpu/cpufreq'", sys_dir);
        ck_assert_int_eq(system(command), 0);
        ck_assert_int_eq(cpufreq_writable_policies(), 0);
        ck_assert_ptr_null(backend_select(BL_BACKEND_AUTO, &topo, why, sizeof(why)));
        ck_assert_msg(strstr(why, "no CPU can be taken offline") && strstr(why, "writable scaling_max_freq"),
                      "why: %s", why);
}
END_TEST

/* --- the shared helpers --- */

START_TEST(undo_runs_newest_first_and_judges_limits)
{
        struct sysfs_undo *u = malloc(sizeof(*u));
        const char *p0 = "/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq";
        const char *p4 = "/sys/devices/system/cpu/cpufreq/policy4/scaling_max_freq";
        struct write_watch *w4;

        ck_assert_ptr_nonnull(u);
        sysfs_undo_init(u);
        /* Two entries for one file: the older value must win. */
        ck_assert_int_eq(sysfs_undo_push(u, p0, "900000", SYSFS_CHECK_EQUAL), 0);
        ck_assert_int_eq(sysfs_undo_push(u, p0, "800000", SYSFS_CHECK_EQUAL), 0);
        ck_assert_int_eq(sysfs_undo_run(u), 0);
        ck_assert_uint_eq(u->n, 0);
        assert_max(0, "900000");

        /* A limit read back lower is put back; one read back as other text is not. */
        w4 = watch(4);
        w4->clamp = "1500000\n";
        ck_assert_int_eq(sysfs_undo_push(u, p4, "1800000", SYSFS_CHECK_AT_MOST), 0);
        ck_assert_uint_eq(sysfs_undo_run(u), 0);
        ck_assert_int_eq(sysfs_undo_push(u, p4, "1800000", SYSFS_CHECK_EQUAL), 0);
        ck_assert_uint_eq(sysfs_undo_run(u), 1);
        free(u);
}
END_TEST

START_TEST(write_read_back_tries)
{
        const char *p0 = "/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq";
        struct write_watch *w0 = watch(0);
        char now[32];
        unsigned tries = 0;

        w0->fail_next = 5;
        w0->error = EACCES;
        ck_assert_int_eq(sysfs_write_read_back(p0, "600000", now, sizeof(now), &tries), -EACCES);
        ck_assert_uint_eq(tries, SYSFS_WRITE_TRIES);
        ck_assert_uint_eq(w0->fail_next, 5 - SYSFS_WRITE_TRIES);
        w0->fail_next = 1;
        w0->error = EINVAL;
        ck_assert_int_eq(sysfs_write_read_back(p0, "600000", now, sizeof(now), &tries), 0);
        ck_assert_uint_eq(tries, 2);
        ck_assert_str_eq(now, "600000");
        ck_assert_int_eq(sysfs_write_read_back("/sys/devices/system/cpu/cpufreq/policy9/scaling_max_freq",
                                               "1", now, sizeof(now), &tries),
                         -ENOENT);
        ck_assert_uint_eq(tries, 1);
}
END_TEST

static Suite *cpufreq_suite(void)
{
        Suite *s = suite_create("cpufreq");
        TCase *board = tcase_create("board"), *select = tcase_create("select");
        TCase *helpers = tcase_create("sysfs");

        tcase_add_checked_fixture(board, board_setup, board_teardown);
        tcase_add_test(board, switch_big_little_and_back);
        tcase_add_test(board, unchanged_level_writes_nothing);
        tcase_add_test(board, someone_else_lowered_the_limit);
        tcase_add_test(board, kernel_clamps_the_written_value);
        tcase_add_test(board, refused_write_mid_switch_rolls_back);
        tcase_add_test(board, retries_are_counted);
        tcase_add_test(board, unreadable_policy_changes_nothing);
        tcase_add_test(board, restore_puts_back_exactly_what_was_found);
        tcase_add_test(board, restore_goes_on_after_a_failure);
        tcase_add_test(board, saved_state_restores_after_a_crash);
        tcase_add_test(board, saved_state_not_understood_changes_nothing);
        tcase_add_test(board, open_needs_two_policies);
        tcase_add_test(board, cap_on_one_opp_has_no_effect);
        suite_add_tcase(s, board);

        tcase_add_checked_fixture(select, board_setup, board_teardown);
        tcase_add_test(select, select_cpufreq);
        tcase_add_test(select, select_without_cpufreq);
        suite_add_tcase(s, select);

        tcase_add_checked_fixture(helpers, board_setup, board_teardown);
        tcase_add_test(helpers, undo_runs_newest_first_and_judges_limits);
        tcase_add_test(helpers, write_read_back_tries);
        suite_add_tcase(s, helpers);
        return s;
}

int main(int argc, char **argv)
{
        return umockdev_main(argc, argv, cpufreq_suite);
}
