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
        ck_assert_int_eq(cpumask_parse(&topo.present, "0-7"), 0);
        ck_assert_int_eq(cpumask_parse(&topo.online, "0-7"), 0);
        ck_assert_int_eq(cpumask_parse(&topo.can_offline, "1-7"), 0);
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

#define HEADER "# bigLittle saved-state v1\n"

/* As the daemon leaves it: owned by us, mode 0600, whatever the umask. */
static void write_file(const char *text, size_t len)
{
        FILE *f = fopen(file, "w");

        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(fwrite(text, 1, len, f), len);
        ck_assert_int_eq(fchmod(fileno(f), 0600), 0);
        ck_assert_int_eq(fclose(f), 0);
}

/* 'text' under the header line: its first line is line 2. */
static void write_text(const char *text)
{
        char buf[4096];

        ck_assert_int_lt(snprintf(buf, sizeof(buf), "%s%s", HEADER, text), (int)sizeof(buf));
        write_file(buf, strlen(buf));
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
        /* The header, two comment lines, backend=, pid=, then the backend's own. */
        ck_assert_uint_eq(s->backend_line, 4);
        ck_assert_uint_eq(s->line[0], 6);

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
        /* Named by line, the content not repeated. */
        SAID_AT(4, "expected key=value");
        SAID_AT(6, "expected key=value");
        SAID_AT(7, "pid: expected a process id");
        SAID_AT(8, "backend given twice");
        SAID_AT(9, "expected key=value");
        free(s);
}
END_TEST

/* The text alone, as the fuzzer feeds it: the path given is the one named. */
START_TEST(test_parse_in_memory)
{
        struct saved_state *s = malloc(sizeof(*s));
        char text[] = HEADER "backend=hotplug\n# comment\n  online=0-3\n";
        char nul[] = HEADER "backend=hotplug\0online=0-3\n";

        ck_assert_ptr_nonnull(s);
        ck_assert_int_eq(saved_state_parse(s, "mem/saved-state", text, strlen(text), &diag), 0);
        ck_assert_str_eq(s->backend, "hotplug");
        ck_assert_str_eq(s->text, "online=0-3\n");
        ck_assert_uint_eq(s->nkeys, 1);
        ck_assert_uint_eq(s->line[0], 4);
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
        write_file(HEADER "backend=hotplug\0online=0-7\n", sizeof(HEADER) - 1 + 27);
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

/* Reconciling what is at the path must refuse it: -EINVAL, the message at
 * the line, and the file moved aside as it was. */
static void assert_put_aside(unsigned line, const char *message)
{
        struct saved_state_report rep;
        char moved[PATH_MAX + 64];
        struct stat st;

        ck_assert_int_eq(saved_state_reconcile(dir, &topo, &rep, &diag), -EINVAL);
        if (line)
                SAID_AT(line, message);
        else
                SAID(message);
        snprintf(moved, sizeof(moved), "not used; renamed to %s", bad_file);
        SAID(moved);
        ck_assert(lstat(file, &st) < 0 && errno == ENOENT);
        ck_assert(lstat(bad_file, &st) == 0);
        ck_assert_uint_eq(files_in_dir(), 1);
}

/* 'text' under the header line. */
static void assert_refused(const char *text, unsigned line, const char *message)
{
        write_text(text);
        assert_put_aside(line, message);
}

/* 'text' as it is. */
static void assert_refused_raw(const char *text, unsigned line, const char *message)
{
        write_file(text, strlen(text));
        assert_put_aside(line, message);
}

static void assert_refused_mode(const char *text, mode_t mode, const char *message)
{
        write_text(text);
        ck_assert_int_eq(chmod(file, mode), 0);
        assert_put_aside(0, message);
}

static void assert_refused_as_is(const char *message)
{
        assert_put_aside(0, message);
}

START_TEST(test_unknown_backend)
{
        assert_refused("backend=frobnicate\nonline=0-7\n", 2, "backend: not one this bigLittled has");
}
END_TEST

START_TEST(test_backend_that_saves_nothing)
{
        assert_refused("# x\nbackend=dryrun\n", 3, "backend dryrun saves no state to restore");
}
END_TEST

START_TEST(test_damaged_file_is_put_aside)
{
        assert_refused("backend=hotplug\nonline: 0-7\n", 3, "expected key=value");
}
END_TEST

/* The backend's complaints are placed at the line of the key they name,
 * without the value it quotes. */
START_TEST(test_hotplug_bad_list)
{
        assert_refused("backend=hotplug\npid=999999999\nonline=0-7,zz\n", 4, "online: expected a CPU list");
        for (unsigned i = 0; i < diag.n; i++)
                ck_assert_msg(!strstr(diag.msg[i], "zz"), "%s", diag.msg[i]);
}
END_TEST

START_TEST(test_hotplug_cpus_not_present)
{
        assert_refused("backend=hotplug\nonline=0-9\n", 3,
                       "online: names CPUs this machine does not have (8-9)");
}
END_TEST

START_TEST(test_hotplug_unknown_setting)
{
        assert_refused("backend=hotplug\nonline=0-7\nscaling_max_freq=1400000\n", 4,
                       "scaling_max_freq: not a setting of the hotplug backend");
}
END_TEST

START_TEST(test_hotplug_setting_missing_or_twice)
{
        assert_refused("backend=hotplug\n", 0, "online: missing");
        ck_assert_int_eq(unlink(bad_file), 0);
        diag_init(&diag);
        assert_refused("backend=hotplug\nonline=0-3\nonline=0-7\n", 3, "online: given twice");
}
END_TEST

/* Issue 18 item 8: a file without the header line, or of a version this
 * daemon does not know, is not restored: said at line 1 and put aside. */
START_TEST(test_header_missing_or_unknown)
{
        assert_refused_raw("backend=hotplug\nonline=0-7\n", 1,
                           "no \"# bigLittle saved-state v1\" header: not a file bigLittled wrote");
        ck_assert_int_eq(unlink(bad_file), 0);
        diag_init(&diag);
        assert_refused_raw("# bigLittle saved-state v99\nbackend=hotplug\nonline=0-7\n", 1,
                           "format version 99; this bigLittled reads version 1 only");
        ck_assert_int_eq(unlink(bad_file), 0);
        diag_init(&diag);
        assert_refused_raw("# bigLittle saved-state vx\nbackend=hotplug\nonline=0-7\n", 1,
                           "no \"# bigLittle saved-state v1\" header: not a file bigLittled wrote");
        ck_assert_int_eq(unlink(bad_file), 0);
        diag_init(&diag);
        assert_refused_raw("", 0, "empty: not a file bigLittled wrote");
}
END_TEST

/* A secret another file holds, to show it never reaches the log. */
#define SECRET "root:$6$saltsalt$hash:19000:0:99999:7:::"

static void assert_nothing_echoed(void)
{
        for (unsigned i = 0; i < diag.n; i++)
                ck_assert_msg(!strstr(diag.msg[i], "saltsalt") && !strstr(diag.msg[i], "19000"), "echoed: %s",
                              diag.msg[i]);
}

/* Issue 18 item 2: a symbolic link in the file's place (to /etc/shadow, in
 * the attack) is not followed: nothing of its target is read or logged,
 * and the link is put aside. */
START_TEST(test_symlink_not_followed)
{
        struct saved_state_report rep;
        char secret[PATH_MAX + 16], moved[PATH_MAX + 64];
        struct stat st;
        FILE *f;

        snprintf(secret, sizeof(secret), "%s/shadow", dir);
        f = fopen(secret, "w");
        ck_assert_ptr_nonnull(f);
        fputs(HEADER "backend=hotplug\n" SECRET "\nonline=0-7\n", f);
        ck_assert_int_eq(fchmod(fileno(f), 0600), 0);
        ck_assert_int_eq(fclose(f), 0);
        ck_assert_int_eq(symlink(secret, file), 0);

        ck_assert_int_eq(saved_state_reconcile(dir, &topo, &rep, &diag), -EINVAL);
        SAID("is a symbolic link");
        snprintf(moved, sizeof(moved), "not used; renamed to %s", bad_file);
        SAID(moved);
        assert_nothing_echoed();
        ck_assert_int_eq(lstat(bad_file, &st), 0);
        ck_assert(S_ISLNK(st.st_mode));
        ck_assert(exists(secret));

        /* A link to nothing is there as well, and goes aside too. */
        ck_assert_int_eq(unlink(bad_file), 0);
        ck_assert_int_eq(unlink(secret), 0);
        ck_assert_int_eq(symlink(secret, file), 0);
        ck_assert(saved_state_exists(dir));
        diag_init(&diag);
        assert_refused_as_is("is a symbolic link");
}
END_TEST

/* What is on a line is not repeated in what is said about it. */
START_TEST(test_lines_not_echoed)
{
        struct saved_state_report rep;

        write_text("backend=hotplug\n" SECRET "\npid=" SECRET "\nonline=" SECRET "\n");
        ck_assert_int_eq(saved_state_reconcile(dir, &topo, &rep, &diag), -EINVAL);
        SAID_AT(3, "expected key=value");
        SAID_AT(4, "pid: expected a process id");
        assert_nothing_echoed();
        diag_init(&diag);
        ck_assert_int_eq(unlink(bad_file), 0);
        write_text("backend=hotplug\nonline=" SECRET "\n");
        ck_assert_int_eq(saved_state_reconcile(dir, &topo, &rep, &diag), -EINVAL);
        assert_nothing_echoed();
        ck_assert_msg(diag.n == 2, "%u: %s", diag.n, diag.msg[0]);
}
END_TEST

/* Only a file the daemon could have written: its owner, mode 0600. */
START_TEST(test_not_private_put_aside)
{
        assert_refused_mode("backend=hotplug\nonline=0-7\n", 0644, "mode 0644, not 0600");
        if (geteuid() != 0)
                return;
        ck_assert_int_eq(unlink(bad_file), 0);
        diag_init(&diag);
        write_text("backend=hotplug\nonline=0-7\n");
        ck_assert_int_eq(chown(file, 4321, 4321), 0);
        assert_refused_as_is("owned by uid 4321, not by uid 0 that reads it");
}
END_TEST

/* Issue 18 items 3 and 8: a FIFO does not hang the start (the test's
 * timeout fails a hang), a directory does not stop it: both are put aside. */
START_TEST(test_fifo_put_aside)
{
        struct stat st;

        ck_assert_int_eq(mkfifo(file, 0600), 0);
        assert_refused_as_is("not a regular file (FIFO)");
        ck_assert_int_eq(stat(bad_file, &st), 0);
        ck_assert(S_ISFIFO(st.st_mode));
}
END_TEST

START_TEST(test_directory_put_aside)
{
        struct saved_state_report rep;
        char moved[PATH_MAX + 64];
        struct stat st;

        ck_assert_int_eq(mkdir(file, 0700), 0);
        assert_refused_as_is("not a regular file (directory)");
        ck_assert_int_eq(stat(bad_file, &st), 0);
        ck_assert(S_ISDIR(st.st_mode));

        /* A saved-state.bad that a file cannot replace: the next name. */
        diag_init(&diag);
        write_text("backend=hotplug\n");
        ck_assert_int_eq(saved_state_reconcile(dir, &topo, &rep, &diag), -EINVAL);
        snprintf(moved, sizeof(moved), "not used; renamed to %s.1", bad_file);
        SAID(moved);
        ck_assert(!exists(file));
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
        assert_refused(text, 4, "online: names CPUs this machine does not have (8)");
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
        tcase_set_timeout(reconcile, 10);
        tcase_add_test(reconcile, test_no_file_nothing_to_do);
        tcase_add_test(reconcile, test_unknown_backend);
        tcase_add_test(reconcile, test_backend_that_saves_nothing);
        tcase_add_test(reconcile, test_damaged_file_is_put_aside);
        tcase_add_test(reconcile, test_hotplug_bad_list);
        tcase_add_test(reconcile, test_hotplug_cpus_not_present);
        tcase_add_test(reconcile, test_hotplug_unknown_setting);
        tcase_add_test(reconcile, test_hotplug_setting_missing_or_twice);
        tcase_add_test(reconcile, test_writer_still_running);
        tcase_add_test(reconcile, test_header_missing_or_unknown);
        tcase_add_test(reconcile, test_symlink_not_followed);
        tcase_add_test(reconcile, test_lines_not_echoed);
        tcase_add_test(reconcile, test_not_private_put_aside);
        tcase_add_test(reconcile, test_fifo_put_aside);
        tcase_add_test(reconcile, test_directory_put_aside);
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
