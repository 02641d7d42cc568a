/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse_int(): the plain-decimal fast path must answer exactly as the
 * strtoll() path it stands in front of, value and error alike. Files a path
 * someone else could replace: only regular ones are read, at once. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/fileio.h"

/* What parse_int() answered before the fast path: strtoll() alone. */
static int parse_int_by_strtoll(const char *text, long long *ret)
{
        char *end;
        long long v;

        while (*text == ' ' || *text == '\t')
                text++;
        if (*text == '\0')
                return -EINVAL;
        errno = 0;
        v = strtoll(text, &end, 10);
        if (errno)
                return -errno;
        if (end == text)
                return -EINVAL;
        while (*end == ' ' || *end == '\t' || *end == '\n')
                end++;
        if (*end != '\0')
                return -EINVAL;
        *ret = v;
        return 0;
}

static void assert_same_as_strtoll(const char *text)
{
        long long got = 12345, want = 12345;
        int r = parse_int(text, &got), r_want = parse_int_by_strtoll(text, &want);

        ck_assert_msg(r == r_want, "\"%s\": %d, strtoll says %d", text, r, r_want);
        if (r == 0)
                ck_assert_msg(got == want, "\"%s\": %lld, strtoll says %lld", text, got, want);
}

START_TEST(test_values)
{
        static const struct {
                const char *text;
                long long value;
        } ok[] = {
                { "0", 0 },
                { "-0", 0 },
                { "+7", 7 },
                { "1024\n", 1024 },
                { "  42 \t\n", 42 },
                { "-40000", -40000 },
                { "000000000000000000000000017", 17 },
                { "9223372036854775807", LLONG_MAX },
                { "-9223372036854775808", LLONG_MIN },
                { "-9223372036854775807", -LLONG_MAX },
        };
        long long v;

        for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
                ck_assert_msg(parse_int(ok[i].text, &v) == 0, "\"%s\"", ok[i].text);
                ck_assert_msg(v == ok[i].value, "\"%s\": %lld", ok[i].text, v);
        }
}
END_TEST

START_TEST(test_errors)
{
        static const struct {
                const char *text;
                int err;
        } bad[] = {
                { "", -EINVAL },         { "   ", -EINVAL },       { "-", -EINVAL },       { "+", -EINVAL },
                { "12x", -EINVAL },      { "1 2", -EINVAL },       { "0x10", -EINVAL },    { "+-5", -EINVAL },
                { "5\r", -EINVAL },      { "9223372036854775808", -ERANGE },
                { "-9223372036854775809", -ERANGE },                { "99999999999999999999999", -ERANGE },
        };
        long long v = 99;

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                int r = parse_int(bad[i].text, &v);

                ck_assert_msg(r == bad[i].err, "\"%s\": %d, expected %d", bad[i].text, r, bad[i].err);
        }
        /* A refused text leaves the result alone. */
        ck_assert_int_eq(v, 99);
}
END_TEST

START_TEST(test_u32_fields)
{
        static const char *const bad[] = {
                "", ":", "1", "1:", ":1", "1:2:", "1::2", "1:2:3", "+1:2", "1:-2", " 1:2", "1:2 ", "1:2\n",
                "4294967296:1", "1:99999999999999999999", "1;2", "0x1:2",
        };
        uint32_t f[2] = { 7, 7 };

        ck_assert_int_eq(parse_u32_fields("4294967295:0", ':', f, 2), 0);
        ck_assert_uint_eq(f[0], UINT32_MAX);
        ck_assert_uint_eq(f[1], 0);
        ck_assert_int_eq(parse_u32_fields("0004:1400000", ':', f, 2), 0);
        ck_assert_uint_eq(f[0], 4);
        ck_assert_uint_eq(f[1], 1400000);
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                ck_assert_msg(parse_u32_fields(bad[i], ':', f, 2) == -EINVAL, "\"%s\" accepted", bad[i]);
        {
                uint32_t three[3];

                ck_assert_int_eq(parse_u32_fields("1:2:3", ':', three, 3), 0);
                ck_assert(three[0] == 1 && three[1] == 2 && three[2] == 3);
                ck_assert_int_eq(parse_u32_fields("1:2", ':', three, 3), -EINVAL);
        }
}
END_TEST

/* Around every edge of the fast path (signs, digits, overflow, what may
 * follow) and on random short texts of the characters that matter. */
START_TEST(test_agrees_with_strtoll)
{
        static const char *const edges[] = {
                "\n5", "\v5", "5\v", "5\n\n", "5 \n ", "\t-3", "- 3", "1e3", "١", "12\0003",
                "922337203685477580", "9223372036854775806", "-9223372036854775807", "18446744073709551615",
                "18446744073709551616", "-18446744073709551616",
        };
        static const char alphabet[] = "0123456789-+ \t\nx";
        char text[24];
        unsigned seed = 1;

        for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
                assert_same_as_strtoll(edges[i]);
        for (unsigned n = 0; n < 200000; n++) {
                size_t len = (size_t)(rand_r(&seed) % (int)(sizeof(text) - 1));

                for (size_t k = 0; k < len; k++)
                        text[k] = alphabet[rand_r(&seed) % (int)(sizeof(alphabet) - 1)];
                text[len] = '\0';
                assert_same_as_strtoll(text);
        }
}
END_TEST

static char tmpdir[PATH_MAX];

static const char *in_tmp(const char *name)
{
        static char path[2][PATH_MAX + 64];
        static unsigned next;
        char *p = path[next++ % 2];

        snprintf(p, sizeof(path[0]), "%s/%s", tmpdir, name);
        return p;
}

static void make_file(const char *name, const char *text, mode_t mode)
{
        int fd = open(in_tmp(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
        ck_assert_int_eq(fchmod(fd, mode), 0);
        close(fd);
}

static void files_setup(void)
{
        snprintf(tmpdir, sizeof(tmpdir), "%s/bl-fileio.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

static void files_teardown(void)
{
        nftw(tmpdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* Reads 'name' with 'flags': what read_regular_file() returned, the text or
 * the reason in 'out'. */
static int read_named(const char *name, unsigned flags, char *out, size_t size)
{
        char *text = NULL, why[256] = "";
        size_t len = 0;
        int r = read_regular_file(in_tmp(name), flags, 1 << 20, &text, &len, why, sizeof(why));

        snprintf(out, size, "%s", r == 0 ? text : why);
        free(text);
        return r;
}

START_TEST(test_regular_file_read)
{
        char out[256];

        make_file("plain", "a=1\n", 0644);
        ck_assert_int_eq(read_named("plain", 0, out, sizeof(out)), 0);
        ck_assert_str_eq(out, "a=1\n");
        ck_assert_int_eq(read_named("absent", 0, out, sizeof(out)), -ENOENT);
        ck_assert_str_eq(out, "cannot read: No such file or directory");
}
END_TEST

/* A FIFO would block the open until a writer came (and the reads after):
 * it is refused at once (the test's timeout fails a hang), as read_file()
 * and read_line() do. */
START_TEST(test_fifo_refused_at_once)
{
        char out[256], *text = NULL;
        size_t len;

        ck_assert_int_eq(mkfifo(in_tmp("fifo"), 0644), 0);
        ck_assert_int_eq(read_named("fifo", 0, out, sizeof(out)), -EINVAL);
        ck_assert_str_eq(out, "not a regular file (FIFO)");
        ck_assert_int_eq(read_file(in_tmp("fifo"), &text, &len), -EINVAL);
        ck_assert_ptr_null(text);
        ck_assert_int_lt(read_line(in_tmp("fifo"), out, sizeof(out)), 0);
        ck_assert_int_eq(open_regular(AT_FDCWD, in_tmp("fifo"), 0, NULL, NULL, 0), -EINVAL);
}
END_TEST

START_TEST(test_other_types_refused)
{
        char out[256];

        ck_assert_int_eq(mkdir(in_tmp("dir"), 0755), 0);
        ck_assert_int_eq(read_named("dir", 0, out, sizeof(out)), -EISDIR);
        ck_assert_str_eq(out, "not a regular file (directory)");
        ck_assert_int_eq(symlink("/dev/null", in_tmp("null")), 0);
        ck_assert_int_eq(read_named("null", 0, out, sizeof(out)), -EINVAL);
        ck_assert_str_eq(out, "not a regular file (character device)");
}
END_TEST

/* Followed unless FILE_NOFOLLOW; then the link itself is refused, whatever
 * it points to. */
START_TEST(test_symlink)
{
        char out[256];

        make_file("target", "secret\n", 0600);
        ck_assert_int_eq(symlink(in_tmp("target"), in_tmp("link")), 0);
        ck_assert_int_eq(read_named("link", 0, out, sizeof(out)), 0);
        ck_assert_str_eq(out, "secret\n");
        ck_assert_int_eq(read_named("link", FILE_NOFOLLOW, out, sizeof(out)), -ELOOP);
        ck_assert_str_eq(out, "is a symbolic link");
        ck_assert_int_eq(symlink(in_tmp("gone"), in_tmp("dangling")), 0);
        ck_assert_int_eq(read_named("dangling", FILE_NOFOLLOW, out, sizeof(out)), -ELOOP);
}
END_TEST

static int fill_text(FILE *f, const void *text)
{
        return fputs(text, f) < 0 ? -EIO : 0;
}

/* The rename replaces what is at the name: a file or a link (not what it
 * points to), never a FIFO, a device or a directory. */
START_TEST(test_atomic_write_replaces_only_files)
{
        char out[256];
        struct stat st;

        ck_assert_int_eq(write_file_atomic(tmpdir, "new", fill_text, "one\n"), 0);
        ck_assert_int_eq(read_named("new", 0, out, sizeof(out)), 0);
        ck_assert_str_eq(out, "one\n");
        ck_assert_int_eq(write_file_atomic(tmpdir, "new", fill_text, "two\n"), 0);
        ck_assert_int_eq(read_named("new", 0, out, sizeof(out)), 0);
        ck_assert_str_eq(out, "two\n");

        make_file("target", "kept\n", 0644);
        ck_assert_int_eq(symlink(in_tmp("target"), in_tmp("link")), 0);
        ck_assert_int_eq(write_file_atomic(tmpdir, "link", fill_text, "three\n"), 0);
        ck_assert_int_eq(lstat(in_tmp("link"), &st), 0);
        ck_assert(S_ISREG(st.st_mode));
        ck_assert_int_eq(read_named("target", 0, out, sizeof(out)), 0);
        ck_assert_str_eq(out, "kept\n");

        ck_assert_int_eq(mkfifo(in_tmp("fifo"), 0644), 0);
        ck_assert_int_eq(write_file_atomic(tmpdir, "fifo", fill_text, "x\n"), -EEXIST);
        ck_assert_int_eq(lstat(in_tmp("fifo"), &st), 0);
        ck_assert(S_ISFIFO(st.st_mode));
        ck_assert_int_eq(mkdir(in_tmp("dir"), 0755), 0);
        ck_assert_int_eq(write_file_atomic(tmpdir, "dir", fill_text, "x\n"), -EISDIR);
        if (geteuid() == 0) {
                ck_assert_int_eq(mknod(in_tmp("null"), S_IFCHR | 0666, makedev(1, 3)), 0);
                ck_assert_int_eq(write_file_atomic(tmpdir, "null", fill_text, "x\n"), -EEXIST);
                ck_assert_int_eq(lstat(in_tmp("null"), &st), 0);
                ck_assert(S_ISCHR(st.st_mode));
        }
}
END_TEST

/* FILE_PRIVATE: only what we could have written, mode 0600. */
START_TEST(test_private)
{
        char out[256], want[128];

        make_file("state", "x=1\n", 0600);
        ck_assert_int_eq(read_named("state", FILE_PRIVATE, out, sizeof(out)), 0);
        ck_assert_str_eq(out, "x=1\n");
        make_file("state", "x=1\n", 0644);
        ck_assert_int_eq(read_named("state", FILE_PRIVATE, out, sizeof(out)), -EPERM);
        ck_assert_str_eq(out, "mode 0644, not 0600");
        ck_assert_int_eq(read_named("state", 0, out, sizeof(out)), 0);
        make_file("state", "x=1\n", 0400);
        ck_assert_int_eq(read_named("state", FILE_PRIVATE, out, sizeof(out)), -EPERM);
        ck_assert_str_eq(out, "mode 0400, not 0600");
        if (geteuid() != 0)
                return;
        /* Another owner: only root can hand a file over. */
        make_file("state", "x=1\n", 0600);
        ck_assert_int_eq(chown(in_tmp("state"), 1234, 1234), 0);
        ck_assert_int_eq(read_named("state", FILE_PRIVATE, out, sizeof(out)), -EPERM);
        snprintf(want, sizeof(want), "owned by uid 1234, not by uid %u that reads it", (unsigned)geteuid());
        ck_assert_str_eq(out, want);
}
END_TEST

static Suite *fileio_suite(void)
{
        Suite *s = suite_create("fileio");
        TCase *tc = tcase_create("parse_int");

        tcase_add_test(tc, test_values);
        tcase_add_test(tc, test_u32_fields);
        tcase_add_test(tc, test_errors);
        tcase_add_test(tc, test_agrees_with_strtoll);
        suite_add_tcase(s, tc);

        tc = tcase_create("files");
        tcase_add_checked_fixture(tc, files_setup, files_teardown);
        tcase_set_timeout(tc, 10);
        tcase_add_test(tc, test_regular_file_read);
        tcase_add_test(tc, test_fifo_refused_at_once);
        tcase_add_test(tc, test_other_types_refused);
        tcase_add_test(tc, test_symlink);
        tcase_add_test(tc, test_private);
        tcase_add_test(tc, test_atomic_write_replaces_only_files);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(fileio_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
