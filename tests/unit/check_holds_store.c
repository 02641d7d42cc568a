/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Persistent holds on disk: what is saved comes back, placed in the new
 * monotonic time; what ran out is dropped; a damaged file is read as far
 * as it can be, each bad line named. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/holds-store.h"

#define SEC BL_USEC_PER_SEC
/* Some wall-clock time, and the monotonic clock of a machine up an hour. */
#define WALL0 (UINT64_C(1700000000) * SEC)
#define MONO0 (UINT64_C(3600) * SEC)

static char dir[PATH_MAX];
static char file[PATH_MAX + 16];
static struct bl_diag diag;

static void setup(void)
{
        snprintf(dir, sizeof(dir), "%s/bl-holds.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(file, sizeof(file), "%s/holds", dir);
        diag_init(&diag);
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

static struct bl_hold make_hold(unsigned level, uint32_t uid, const char *reason, bool persist,
                                uint64_t since_wall, uint64_t duration)
{
        struct bl_hold h = {
                .level = level,
                .uid = uid,
                .pid = 4242,
                .persist = persist,
                .since = MONO0,
                .until = MONO0 + duration,
                .since_wall = since_wall,
                .until_wall = since_wall + duration,
        };

        snprintf(h.unit, sizeof(h.unit), "video-call.service");
        snprintf(h.owner, sizeof(h.owner), ":1.%u", uid);
        snprintf(h.reason, sizeof(h.reason), "%s", reason);
        return h;
}

static uint32_t add(struct bl_holds *hs, const struct bl_hold *h)
{
        uint32_t id = 0;

        ck_assert_int_eq(holds_add(hs, h, &id), 0);
        return id;
}

/* As the daemon leaves it: owned by us, mode 0600, whatever the umask. */
static void write_text(const char *text)
{
        FILE *f = fopen(file, "w");

        ck_assert_ptr_nonnull(f);
        ck_assert_int_ge(fputs(text, f), 0);
        ck_assert_int_eq(fchmod(fileno(f), 0600), 0);
        ck_assert_int_eq(fclose(f), 0);
}

/* Whether one of the messages says all of 'a' and 'b'. */
static bool diag_says(const char *a, const char *b)
{
        for (unsigned i = 0; i < diag.n; i++)
                if (strstr(diag.msg[i], a) && strstr(diag.msg[i], b))
                        return true;
        return false;
}

static const char *diag_text(void)
{
        static char buf[BL_DIAG_MAX * (BL_DIAG_LEN + 8)];
        size_t len = 0;

        buf[0] = '\0';
        for (unsigned i = 0; i < diag.n; i++)
                len += (size_t)snprintf(buf + len, sizeof(buf) - len, "\n  %s", diag.msg[i]);
        return buf;
}

/* "FILE:LINE:" of the holds file. */
static const char *at(unsigned line)
{
        static char buf[PATH_MAX + 32];

        snprintf(buf, sizeof(buf), "%s:%u: ", file, line);
        return buf;
}

START_TEST(test_round_trip)
{
        /* Spaces, a backslash, '=', UTF-8 and a tab survive the escaping. */
        static const char reason[] = "video call = 2 h\\ 30 min, caf\xc3\xa9\tok";
        struct bl_holds saved, loaded;
        struct bl_hold a = make_hold(1, 1000, reason, true, WALL0 - 10 * SEC, 600 * SEC);
        struct bl_hold b = make_hold(0, 0, "gone with its owner", false, WALL0 - 5 * SEC, 600 * SEC);
        struct bl_hold c = make_hold(2, 0, "", true, WALL0 - 2 * SEC, 60 * SEC);
        const struct bl_hold *h;
        uint32_t ida, idc;
        struct stat st;

        c.pid = 0;
        c.unit[0] = '\0';
        holds_init(&saved);
        ida = add(&saved, &a);
        add(&saved, &b);
        idc = add(&saved, &c);
        ck_assert_int_eq(holds_store_save(&saved, dir), 0);
        ck_assert_int_eq(stat(file, &st), 0);
        ck_assert_uint_eq(st.st_mode & 07777, 0600);

        /* The daemon starts again 30 s later, on a monotonic clock at 500 s. */
        holds_init(&loaded);
        ck_assert_int_eq(holds_store_load(&loaded, dir, WALL0 + 30 * SEC, 500 * SEC, &diag), 2);
        ck_assert_msg(diag.n == 0, "unexpected problems:%s", diag_text());
        ck_assert_uint_eq(loaded.n, 2);

        h = &loaded.h[0];
        ck_assert_uint_eq(h->id, ida);
        ck_assert_uint_eq(h->level, 1);
        ck_assert_uint_eq(h->uid, 1000);
        ck_assert_int_eq(h->pid, 4242);
        ck_assert_str_eq(h->unit, "video-call.service");
        ck_assert_str_eq(h->reason, reason);
        ck_assert_str_eq(h->owner, "");
        ck_assert(h->persist);
        ck_assert_uint_eq(h->since_wall, a.since_wall);
        ck_assert_uint_eq(h->until_wall, a.until_wall);
        /* 40 s old, 560 s left. */
        ck_assert_uint_eq(h->since, 460 * SEC);
        ck_assert_uint_eq(h->until, 1060 * SEC);

        h = &loaded.h[1];
        ck_assert_uint_eq(h->id, idc);
        ck_assert_uint_eq(h->level, 2);
        ck_assert_int_eq(h->pid, 0);
        ck_assert_str_eq(h->unit, "");
        ck_assert_str_eq(h->reason, "");
        ck_assert_uint_eq(h->until, 528 * SEC);

        /* Ids stay unique: the next one is past every restored id. */
        ck_assert_uint_gt(loaded.next_id, idc);
}
END_TEST

/* The text alone, as the fuzzer feeds it: holds_store_parse() names the
 * path it is given, and holds_store_print() writes what save() writes. */
START_TEST(test_parse_and_print_in_memory)
{
        char text[] = "# comment\n"
                      "id=7 level=2 uid=5 pid=9 since_wall=1 until_wall=99999999999999999 unit=a.service "
                      "reason=two\\x20words\n"
                      "id=8 level=2 uid=5\n";
        char *printed = NULL;
        size_t len = 0;
        struct bl_holds hs;
        FILE *f;

        holds_init(&hs);
        ck_assert_int_eq(holds_store_parse(&hs, "mem/holds", text, WALL0, 500 * SEC, &diag), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], "mem/holds:3: since_wall missing");
        ck_assert_str_eq(hs.h[0].reason, "two words");

        f = open_memstream(&printed, &len);
        ck_assert_ptr_nonnull(f);
        holds_store_print(f, &hs);
        ck_assert_int_eq(fclose(f), 0);
        ck_assert_str_eq(printed, "# bigLittle persistent holds; written by bigLittled, do not edit\n"
                                  "id=7 level=2 uid=5 pid=9 since_wall=1 until_wall=99999999999999999 "
                                  "unit=a.service reason=two\\x20words\n");
        free(printed);
}
END_TEST

START_TEST(test_nothing_to_keep_removes_the_file)
{
        struct bl_holds hs;
        struct bl_hold h = make_hold(1, 0, "x", true, WALL0, 60 * SEC);
        uint32_t id;

        holds_init(&hs);
        id = add(&hs, &h);
        ck_assert_int_eq(holds_store_save(&hs, dir), 0);
        ck_assert_int_eq(access(file, F_OK), 0);
        ck_assert_int_eq(holds_release(&hs, id), 0);
        h.persist = false;
        add(&hs, &h);
        ck_assert_int_eq(holds_store_save(&hs, dir), 0);
        ck_assert_int_eq(access(file, F_OK), -1);
        ck_assert_int_eq(errno, ENOENT);

        /* No file: nothing to restore, and nothing wrong. */
        holds_init(&hs);
        ck_assert_int_eq(holds_store_load(&hs, dir, WALL0, MONO0, &diag), 0);
        ck_assert_uint_eq(hs.n, 0);
        ck_assert_uint_eq(diag.n, 0);
}
END_TEST

START_TEST(test_save_leaves_one_file_and_creates_the_directory)
{
        char sub[PATH_MAX + 16];
        struct bl_holds hs;
        struct bl_hold h = make_hold(1, 0, "x", true, WALL0, 60 * SEC);
        struct dirent *e;
        unsigned files = 0;
        DIR *dp;

        snprintf(sub, sizeof(sub), "%s/run", dir);
        holds_init(&hs);
        add(&hs, &h);
        for (int i = 0; i < 3; i++)
                ck_assert_int_eq(holds_store_save(&hs, sub), 0);
        dp = opendir(sub);
        ck_assert_ptr_nonnull(dp);
        /* No temporary file is left beside it. */
        while ((e = readdir(dp))) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                        continue;
                ck_assert_str_eq(e->d_name, "holds");
                files++;
        }
        closedir(dp);
        ck_assert_uint_eq(files, 1);

        /* A directory that cannot be made is an error, not a crash. */
        ck_assert_int_eq(holds_store_save(&hs, "/proc/no-such-dir/bigLittle"), -ENOENT);
}
END_TEST

START_TEST(test_expired_are_dropped)
{
        struct bl_holds saved, loaded;
        struct bl_hold over = make_hold(1, 0, "over", true, WALL0 - 120 * SEC, 60 * SEC);
        struct bl_hold left = make_hold(1, 0, "left", true, WALL0 - 120 * SEC, 600 * SEC);
        struct bl_hold edge = make_hold(0, 0, "ends now", true, WALL0 - 60 * SEC, 60 * SEC);
        uint32_t id_over, id_left;

        holds_init(&saved);
        id_over = add(&saved, &over);
        id_left = add(&saved, &left);
        add(&saved, &edge);
        ck_assert_int_eq(holds_store_save(&saved, dir), 0);

        holds_init(&loaded);
        ck_assert_int_eq(holds_store_load(&loaded, dir, WALL0, MONO0, &diag), 1);
        ck_assert_uint_eq(loaded.n, 1);
        ck_assert_uint_eq(loaded.h[0].id, id_left);
        ck_assert_str_eq(loaded.h[0].reason, "left");
        ck_assert_uint_eq(loaded.h[0].until, MONO0 + 480 * SEC);
        /* Each drop is said, at its line (the header is line 1). */
        ck_assert_uint_eq(diag.n, 2);
        ck_assert_msg(diag_says(at(2), "ran out while the daemon was stopped"), "%s", diag_text());
        ck_assert_msg(diag_says(at(4), "ran out"), "%s", diag_text());
        {
                char want[32];

                snprintf(want, sizeof(want), "hold %u ", id_over);
                ck_assert_msg(diag_says(at(2), want), "%s", diag_text());
        }
}
END_TEST

START_TEST(test_corrupted_lines_are_named)
{
        struct bl_holds hs;

        write_text("# comment\n"
                   "id=abc level=1 uid=0 since_wall=1 until_wall=99999999999999999\n"
                   "id=2 level=1 uid=0 since_wall=1 until_wall=99999999999999999 colour=red\n"
                   "id=3 level=1 uid=0 since_wall=1\n"
                   "id=4 level=1 uid=0 since_wall=1 until_wall=99999999999999999 reason=a\\q\n"
                   "id=5 level=1 uid=0 since_wall=1 until_wall=99999999999999999 garbage\n"
                   "id=6 id=7 level=1 uid=0 since_wall=1 until_wall=99999999999999999\n"
                   "id=8 level=99 uid=0 since_wall=1 until_wall=99999999999999999\n"
                   "id=9 level=1 uid=-1 since_wall=1 until_wall=99999999999999999\n"
                   "id=10 level=1 uid=0 since_wall=5 until_wall=5\n"
                   "id=11 level=1 uid=0 since_wall=1 until_wall=99999999999999999 reason=\\xff\\xfe\n"
                   "\n"
                   "   id=12 level=1 uid=7 pid=99 since_wall=1 until_wall=99999999999999999 unit=a.service "
                   "reason=still\\x20fine\n"
                   "id=13 level=1 uid=0 since_wall=1 until_wall=99999999999999999 reason=\\x00\n");
        holds_init(&hs);
        ck_assert_int_eq(holds_store_load(&hs, dir, WALL0, MONO0, &diag), 1);
        ck_assert_uint_eq(hs.n, 1);
        ck_assert_uint_eq(hs.h[0].id, 12);
        ck_assert_uint_eq(hs.h[0].uid, 7);
        ck_assert_int_eq(hs.h[0].pid, 99);
        ck_assert_str_eq(hs.h[0].unit, "a.service");
        ck_assert_str_eq(hs.h[0].reason, "still fine");

        ck_assert_msg(diag.n == 11, "%u problems:%s", diag.n, diag_text());
        /* Named by line and field, what is on them not repeated. */
        ck_assert_msg(diag_says(at(2), "id: expected a number 1-4294967295"), "%s", diag_text());
        ck_assert_msg(diag_says(at(3), "field 6: unknown key"), "%s", diag_text());
        ck_assert_msg(diag_says(at(4), "until_wall missing"), "%s", diag_text());
        ck_assert_msg(diag_says(at(5), "reason: bad escape at byte 2"), "%s", diag_text());
        ck_assert_msg(diag_says(at(6), "field 6: expected key=value"), "%s", diag_text());
        ck_assert_msg(diag_says(at(7), "id given twice"), "%s", diag_text());
        ck_assert_msg(diag_says(at(8), "level: expected a number 0-63"), "%s", diag_text());
        for (unsigned i = 0; i < diag.n; i++)
                ck_assert_msg(!strchr(diag.msg[i], '"'), "quotes the file: %s", diag.msg[i]);
        ck_assert_msg(diag_says(at(9), "uid: expected a number"), "%s", diag_text());
        ck_assert_msg(diag_says(at(10), "until_wall 5 is not after since_wall 5"), "%s", diag_text());
        ck_assert_msg(diag_says(at(11), "reason: not valid UTF-8"), "%s", diag_text());
        ck_assert_msg(diag_says(at(14), "reason: bad escape"), "%s", diag_text());
}
END_TEST

START_TEST(test_refusals_of_restore_are_named)
{
        struct bl_holds hs;
        char text[4096];
        size_t len = 0;

        /* The same id twice, then more holds of one uid than it may have. */
        len += (size_t)snprintf(text + len, sizeof(text) - len,
                                "id=1 level=1 uid=5 since_wall=1 until_wall=99999999999999999\n"
                                "id=1 level=0 uid=6 since_wall=1 until_wall=99999999999999999\n");
        for (unsigned i = 0; i < BL_MAX_HOLDS_PER_UID; i++)
                len += (size_t)snprintf(text + len, sizeof(text) - len,
                                        "id=%u level=1 uid=5 since_wall=1 until_wall=99999999999999999\n",
                                        100 + i);
        write_text(text);
        holds_init(&hs);
        ck_assert_int_eq(holds_store_load(&hs, dir, WALL0, MONO0, &diag), BL_MAX_HOLDS_PER_UID);
        ck_assert_uint_eq(hs.h[0].id, 1);
        ck_assert_uint_eq(hs.h[0].uid, 5);
        ck_assert_msg(diag_says(at(2), "hold 1 is already in force; dropped"), "%s", diag_text());
        ck_assert_msg(diag_says(at(2 + BL_MAX_HOLDS_PER_UID), "uid 5 already has 8 holds; hold 107 dropped"),
                      "%s", diag_text());
        ck_assert_uint_eq(diag.n, 2);
        ck_assert_uint_eq(hs.next_id, 107);
}
END_TEST

START_TEST(test_unreadable_file)
{
        struct bl_holds hs;

        ck_assert_int_eq(mkdir(file, 0700), 0);
        holds_init(&hs);
        ck_assert_int_eq(holds_store_load(&hs, dir, WALL0, MONO0, &diag), -EISDIR);
        ck_assert_msg(diag_says(file, ": not a regular file (directory); no hold restored"), "%s", diag_text());
}
END_TEST

/* Issue 18 item 2: a link in the store's place (to /etc/shadow, in the
 * attack) is not followed: none of its lines is read, or logged. */
START_TEST(test_symlink_not_followed)
{
        char secret[PATH_MAX + 16];
        struct bl_holds hs;
        FILE *f;

        snprintf(secret, sizeof(secret), "%s/shadow", dir);
        f = fopen(secret, "w");
        ck_assert_ptr_nonnull(f);
        fputs("root:$6$saltsalt$hash:19000:0:99999:7:::\n"
              "id=1 level=1 uid=0 since_wall=1 until_wall=99999999999999999\n", f);
        ck_assert_int_eq(fchmod(fileno(f), 0600), 0);
        ck_assert_int_eq(fclose(f), 0);
        ck_assert_int_eq(symlink(secret, file), 0);
        holds_init(&hs);
        ck_assert_int_eq(holds_store_load(&hs, dir, WALL0, MONO0, &diag), -ELOOP);
        ck_assert_uint_eq(hs.n, 0);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_msg(diag_says(file, ": is a symbolic link; no hold restored"), "%s", diag_text());
        ck_assert(!diag_says("saltsalt", ""));
}
END_TEST

/* Only what the daemon could have written: its owner, mode 0600. */
START_TEST(test_not_private)
{
        struct bl_holds hs;

        write_text("id=1 level=1 uid=0 since_wall=1 until_wall=99999999999999999\n");
        ck_assert_int_eq(chmod(file, 0666), 0);
        holds_init(&hs);
        ck_assert_int_eq(holds_store_load(&hs, dir, WALL0, MONO0, &diag), -EPERM);
        ck_assert_msg(diag_says(file, ": mode 0666, not 0600; no hold restored"), "%s", diag_text());
        ck_assert_uint_eq(hs.n, 0);
        if (geteuid() != 0)
                return;
        diag_init(&diag);
        ck_assert_int_eq(chmod(file, 0600), 0);
        ck_assert_int_eq(chown(file, 4321, 0), 0);
        ck_assert_int_eq(holds_store_load(&hs, dir, WALL0, MONO0, &diag), -EPERM);
        ck_assert_msg(diag_says(file, ": owned by uid 4321"), "%s", diag_text());
}
END_TEST

/* Issue 18 item 3: a FIFO does not hang the start (the test's timeout
 * fails a hang). */
START_TEST(test_fifo_refused)
{
        struct bl_holds hs;

        ck_assert_int_eq(mkfifo(file, 0600), 0);
        holds_init(&hs);
        ck_assert_int_eq(holds_store_load(&hs, dir, WALL0, MONO0, &diag), -EINVAL);
        ck_assert_msg(diag_says(file, ": not a regular file (FIFO); no hold restored"), "%s", diag_text());
}
END_TEST

/* A monotonic clock younger than the hold (the machine did not reboot, but
 * the numbers say it did): the hold starts at 0 rather than wrapping. */
START_TEST(test_young_monotonic_clock)
{
        struct bl_holds saved, loaded;
        struct bl_hold h = make_hold(1, 0, "old", true, WALL0 - 100 * SEC, 200 * SEC);

        holds_init(&saved);
        add(&saved, &h);
        ck_assert_int_eq(holds_store_save(&saved, dir), 0);
        holds_init(&loaded);
        ck_assert_int_eq(holds_store_load(&loaded, dir, WALL0, 10 * SEC, &diag), 1);
        ck_assert_uint_eq(loaded.h[0].since, 0);
        ck_assert_uint_eq(loaded.h[0].until, 110 * SEC);
}
END_TEST

static Suite *holds_store_suite(void)
{
        Suite *s = suite_create("holds-store");
        TCase *tc = tcase_create("store");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, test_round_trip);
        tcase_add_test(tc, test_parse_and_print_in_memory);
        tcase_add_test(tc, test_nothing_to_keep_removes_the_file);
        tcase_add_test(tc, test_save_leaves_one_file_and_creates_the_directory);
        tcase_add_test(tc, test_expired_are_dropped);
        tcase_add_test(tc, test_corrupted_lines_are_named);
        tcase_add_test(tc, test_refusals_of_restore_are_named);
        tcase_add_test(tc, test_unreadable_file);
        tcase_add_test(tc, test_symlink_not_followed);
        tcase_add_test(tc, test_not_private);
        tcase_add_test(tc, test_fifo_refused);
        tcase_add_test(tc, test_young_monotonic_clock);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(holds_store_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
