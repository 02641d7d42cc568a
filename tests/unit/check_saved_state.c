/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The saved CPU state on disk: what is written reads back; a damaged file,
 * an unknown backend or settings the backend does not understand are named
 * by line, change nothing and are put aside as saved-state.bad. (Restoring
 * for real writes sysfs: tests/integration/check_crash does it on a fake
 * board.) */
#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/saved-state.h"

static char dir[PATH_MAX];
static char file[PATH_MAX + 32];
static char bad_file[PATH_MAX + 32];
static struct bl_diag diag;
static struct bl_topology topo;

static void setup(void)
{
        snprintf(dir, sizeof(dir), "%s/bl-saved.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(file, sizeof(file), "%s/saved-state", dir);
        snprintf(bad_file, sizeof(bad_file), "%s/saved-state.bad", dir);
        diag_init(&diag);
        /* An Exynos 5422: cpu0 cannot go offline. */
        memset(&topo, 0, sizeof(topo));
        ck_assert_int_eq(cpuset_parse(&topo.present, "0-7"), 0);
        ck_assert_int_eq(cpuset_parse(&topo.online, "0-7"), 0);
        ck_assert_int_eq(cpuset_parse(&topo.can_offline, "1-7"), 0);
        topo.ncpus = 8;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

static void teardown(void)
{
        nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static void write_file(const char *text, size_t len)
{
        FILE *f = fopen(file, "w");

        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(fwrite(text, 1, len, f), len);
        ck_assert_int_eq(fclose(f), 0);
}

static void write_text(const char *text)
{
        write_file(text, strlen(text));
}

static bool exists(const char *path)
{
        return access(path, F_OK) == 0;
}

static unsigned files_in_dir(void)
{
        char cmd[PATH_MAX + 32];
        unsigned n = 0;
        FILE *p;

        snprintf(cmd, sizeof(cmd), "ls -A '%s'", dir);
        p = popen(cmd, "r");
        ck_assert_ptr_nonnull(p);
        for (int c; (c = fgetc(p)) != EOF;)
                n += c == '\n';
        pclose(p);
        return n;
}

/* Asserts diag holds exactly "FILE:LINE: message" ("FILE: message" for
 * line 0), among others. */
static void assert_said(unsigned line, const char *message)
{
        char want[BL_DIAG_LEN + PATH_MAX];

        if (line)
                snprintf(want, sizeof(want), "%s:%u: %s", file, line, message);
        else
                snprintf(want, sizeof(want), "%s: %s", file, message);
        for (unsigned i = 0; i < diag.n; i++)
                if (strcmp(diag.msg[i], want) == 0)
                        return;
        ck_abort_msg("not said: \"%s\"; said %u: \"%s\"", want, diag.n, diag.n ? diag.msg[0] : "");
}

#define SAID_AT(line, message) assert_said((line), (message))
#define SAID(message) assert_said(0, (message))

START_TEST(test_round_trip)
{
        struct saved_state *s = malloc(sizeof(*s));
        struct stat st;

        ck_assert_ptr_nonnull(s);
        ck_assert_int_eq(saved_state_write(dir, "hotplug", "online=0-7\n"), 0);
        ck_assert_int_eq(stat(file, &st), 0);
        ck_assert_uint_eq(st.st_mode & 07777, 0600);
        ck_assert(saved_state_exists(dir));
        ck_assert_int_eq(saved_state_read(dir, s, &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_str_eq(s->backend, "hotplug");
        ck_assert_int_eq(s->pid, getpid());
        ck_assert_str_eq(s->text, "online=0-7\n");
        ck_assert_uint_eq(s->nkeys, 1);
        ck_assert_str_eq(s->key[0], "online");
        /* Two comment lines, backend=, pid=, then the backend's own. */
        ck_assert_uint_eq(s->backend_line, 3);
        ck_assert_uint_eq(s->line[0], 5);

        /* Rewriting replaces it whole; no temporary file stays behind. */
        ck_assert_int_eq(saved_state_write(dir, "hotplug", "online=0,4-7"), 0);
        ck_assert_int_eq(saved_state_read(dir, s, &diag), 0);
        ck_assert_str_eq(s->text, "online=0,4-7\n");
        ck_assert_uint_eq(files_in_dir(), 1);

        ck_assert_int_eq(saved_state_remove(dir), 0);
        ck_assert(!saved_state_exists(dir));
        ck_assert_int_eq(saved_state_remove(dir), 0);
        ck_assert_int_eq(saved_state_read(dir, s, &diag), -ENOENT);
        free(s);
}
END_TEST

START_TEST(test_write_refuses_what_would_not_read_back)
{
        ck_assert_int_eq(saved_state_write(dir, "hotplug", "online 0-7\n"), -EINVAL);
        ck_assert_int_eq(saved_state_write(dir, "hotplug", "online=0-7\npid=1\n"), -EINVAL);
        ck_assert_int_eq(saved_state_write(dir, "hotplug", "backend=cpufreq\n"), -EINVAL);
        ck_assert_int_eq(saved_state_write(dir, "hot plug", "online=0-7\n"), -EINVAL);
        ck_assert_int_eq(saved_state_write(dir, "", "online=0-7\n"), -EINVAL);
        ck_assert_uint_eq(files_in_dir(), 0);
}
END_TEST

START_TEST(test_corrupt_lines_are_named)
{
        struct saved_state *s = malloc(sizeof(*s));

        ck_assert_ptr_nonnull(s);
        write_text("# a comment\n"
                   "backend=hotplug\n"
                   "online 0-7\n"
                   "\n"
                   "=3\n"
                   "pid=abc\n"
                   "backend=cpufreq\n"
                   "Online=0-7\n");
        ck_assert_int_eq(saved_state_read(dir, s, &diag), -EINVAL);
        ck_assert_uint_eq(diag.n, 5);
        SAID_AT(3, "expected key=value, got \"online 0-7\"");
        SAID_AT(5, "expected key=value, got \"=3\"");
        SAID_AT(6, "pid: expected a process id, got \"abc\"");
        SAID_AT(7, "backend given twice");
        SAID_AT(8, "expected key=value, got \"Online=0-7\"");
        free(s);
}
END_TEST

/* The text alone, as the fuzzer feeds it: the path given is the one named. */
START_TEST(test_parse_in_memory)
{
        struct saved_state *s = malloc(sizeof(*s));
        char text[] = "backend=hotplug\n# comment\n  online=0-3\n";
        char nul[] = "backend=hotplug\0online=0-3\n";

        ck_assert_ptr_nonnull(s);
        ck_assert_int_eq(saved_state_parse(s, "mem/saved-state", text, strlen(text), &diag), 0);
        ck_assert_str_eq(s->backend, "hotplug");
        ck_assert_str_eq(s->text, "online=0-3\n");
        ck_assert_uint_eq(s->nkeys, 1);
        ck_assert_uint_eq(s->line[0], 3);
        ck_assert_uint_eq(diag.n, 0);

        ck_assert_int_eq(saved_state_parse(s, "mem/saved-state", nul, sizeof(nul) - 1, &diag), -EINVAL);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], "mem/saved-state: contains a NUL byte: not a file bigLittled wrote");
        free(s);
}
END_TEST

START_TEST(test_file_without_backend)
{
        struct saved_state *s = malloc(sizeof(*s));

        ck_assert_ptr_nonnull(s);
        write_text("online=0-7\n");
        ck_assert_int_eq(saved_state_read(dir, s, &diag), -EINVAL);
        SAID("no backend= line: not a file bigLittled wrote");

        diag_init(&diag);
        write_text("");
        ck_assert_int_eq(saved_state_read(dir, s, &diag), -EINVAL);
        SAID("no backend= line: not a file bigLittled wrote");

        diag_init(&diag);
        write_file("backend=hotplug\0online=0-7\n", 27);
        ck_assert_int_eq(saved_state_read(dir, s, &diag), -EINVAL);
        SAID("contains a NUL byte: not a file bigLittled wrote");
        free(s);
}
END_TEST

START_TEST(test_no_file_nothing_to_do)
{
        struct saved_state_report rep;

        ck_assert_int_eq(saved_state_reconcile(dir, &topo, &rep, &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_uint_eq(files_in_dir(), 0);
}
END_TEST

/* Reconciling a file that must be refused: -EINVAL, the message at the
 * line, and the file moved aside as it was. */
static void assert_refused(const char *text, unsigned line, const char *message)
{
        struct saved_state_report rep;
        char moved[PATH_MAX + 64];

        write_text(text);
        ck_assert_int_eq(saved_state_reconcile(dir, &topo, &rep, &diag), -EINVAL);
        if (line)
                SAID_AT(line, message);
        else
                SAID(message);
        snprintf(moved, sizeof(moved), "not used; renamed to %s", bad_file);
        SAID(moved);
        ck_assert(!exists(file));
        ck_assert(exists(bad_file));
        ck_assert_uint_eq(files_in_dir(), 1);
}

START_TEST(test_unknown_backend)
{
        assert_refused("backend=frobnicate\nonline=0-7\n", 1, "unknown backend \"frobnicate\"");
}
END_TEST

START_TEST(test_backend_that_saves_nothing)
{
        assert_refused("# x\nbackend=dryrun\n", 2, "backend dryrun saves no state to restore");
}
END_TEST

START_TEST(test_damaged_file_is_put_aside)
{
        assert_refused("backend=hotplug\nonline: 0-7\n", 2, "expected key=value, got \"online: 0-7\"");
}
END_TEST

/* The backend's complaints are placed at the line of the key they name. */
START_TEST(test_hotplug_bad_list)
{
        assert_refused("backend=hotplug\npid=999999999\nonline=0-7,zz\n", 3,
                       "online: expected a CPU list, got \"0-7,zz\"");
}
END_TEST

START_TEST(test_hotplug_cpus_not_present)
{
        assert_refused("backend=hotplug\nonline=0-9\n", 2,
                       "online: names CPUs this machine does not have (8-9)");
}
END_TEST

START_TEST(test_hotplug_unknown_setting)
{
        assert_refused("backend=hotplug\nonline=0-7\nscaling_max_freq=1400000\n", 3,
                       "scaling_max_freq: not a setting of the hotplug backend");
}
END_TEST

START_TEST(test_hotplug_setting_missing_or_twice)
{
        assert_refused("backend=hotplug\n", 0, "online: missing");
        ck_assert_int_eq(unlink(bad_file), 0);
        diag_init(&diag);
        assert_refused("backend=hotplug\nonline=0-3\nonline=0-7\n", 2, "online: given twice");
}
END_TEST

/* A second daemon started by hand must not undo the running one's work. */
START_TEST(test_writer_still_running)
{
        struct saved_state_report rep;
        char text[128], want[64];
        int ready[2], status;
        pid_t child;

        ck_assert_int_eq(pipe(ready), 0);
        child = fork();
        ck_assert_int_ge(child, 0);
        if (child == 0) {
                prctl(PR_SET_NAME, "bigLittled");
                prctl(PR_SET_PDEATHSIG, SIGKILL);
                (void)!write(ready[1], "x", 1);
                pause();
                _exit(0);
        }
        ck_assert_int_eq(read(ready[0], text, 1), 1);
        snprintf(text, sizeof(text), "backend=hotplug\npid=%ld\nonline=0-7\n", (long)child);
        write_text(text);
        ck_assert_int_eq(saved_state_reconcile(dir, &topo, &rep, &diag), -EBUSY);
        snprintf(want, sizeof(want), "(pid %ld) still runs", (long)child);
        ck_assert_msg(strstr(rep.detail, want), "%s", rep.detail);
        snprintf(want, sizeof(want), "backend=hotplug pid=%ld online=0-7", (long)child);
        ck_assert_str_eq(rep.saved, want);
        ck_assert(exists(file));
        ck_assert(!exists(bad_file));

        /* Once it is gone, the file is acted on (here: refused for CPUs
         * this topology lacks, so that nothing real is written). */
        kill(child, SIGKILL);
        ck_assert_int_eq(waitpid(child, &status, 0), child);
        snprintf(text, sizeof(text), "backend=hotplug\npid=%ld\nonline=0-8\n", (long)child);
        assert_refused(text, 3, "online: names CPUs this machine does not have (8)");
        close(ready[0]);
        close(ready[1]);
}
END_TEST

static Suite *saved_state_suite(void)
{
        Suite *s = suite_create("saved_state");
        TCase *format = tcase_create("format");
        TCase *reconcile = tcase_create("reconcile");

        tcase_add_checked_fixture(format, setup, teardown);
        tcase_add_test(format, test_round_trip);
        tcase_add_test(format, test_write_refuses_what_would_not_read_back);
        tcase_add_test(format, test_corrupt_lines_are_named);
        tcase_add_test(format, test_parse_in_memory);
        tcase_add_test(format, test_file_without_backend);
        suite_add_tcase(s, format);

        tcase_add_checked_fixture(reconcile, setup, teardown);
        tcase_add_test(reconcile, test_no_file_nothing_to_do);
        tcase_add_test(reconcile, test_unknown_backend);
        tcase_add_test(reconcile, test_backend_that_saves_nothing);
        tcase_add_test(reconcile, test_damaged_file_is_put_aside);
        tcase_add_test(reconcile, test_hotplug_bad_list);
        tcase_add_test(reconcile, test_hotplug_cpus_not_present);
        tcase_add_test(reconcile, test_hotplug_unknown_setting);
        tcase_add_test(reconcile, test_hotplug_setting_missing_or_twice);
        tcase_add_test(reconcile, test_writer_still_running);
        suite_add_tcase(s, reconcile);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(saved_state_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
