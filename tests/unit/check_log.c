/* SPDX-License-Identifier: GPL-2.0-or-later */
/* log_errno(): the line it writes is the one log_msg() wrote with ": %s"
 * and strerror(-r) spelt out, byte for byte, and it hands back the error. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"

/* What the calls in between wrote to stderr (a file in its place). */
static FILE *capture;
static int saved_stderr = -1;

static void capture_start(void)
{
        fflush(stderr);
        capture = tmpfile();
        ck_assert_ptr_nonnull(capture);
        saved_stderr = dup(STDERR_FILENO);
        ck_assert_int_ge(saved_stderr, 0);
        ck_assert_int_eq(dup2(fileno(capture), STDERR_FILENO), STDERR_FILENO);
}

static void capture_end(char *buf, size_t size)
{
        size_t n;

        fflush(stderr);
        ck_assert_int_eq(dup2(saved_stderr, STDERR_FILENO), STDERR_FILENO);
        close(saved_stderr);
        rewind(capture);
        n = fread(buf, 1, size - 1, capture);
        buf[n] = '\0';
        fclose(capture);
}

static const int levels[] = { LOG_ERR, LOG_WARNING, LOG_NOTICE, LOG_INFO };

START_TEST(test_reads_as_the_format_spelt_out)
{
        int level = levels[_i];
        char spelt[512], helper[512];
        int r;

        log_setup(LOG_TARGET_STDERR, LOG_DEBUG);
        capture_start();
        log_msg(level, "cannot read %s of cpu%u: %s", "online", 3u, strerror(ENOENT));
        capture_end(spelt, sizeof(spelt));

        capture_start();
        r = log_errno(level, -ENOENT, "cannot read %s of cpu%u", "online", 3u);
        capture_end(helper, sizeof(helper));

        ck_assert_int_eq(r, -ENOENT);
        ck_assert_ptr_nonnull(strstr(spelt, "cannot read online of cpu3: "));
        ck_assert_str_eq(helper, spelt);
}
END_TEST

START_TEST(test_level_macros)
{
        char spelt[512], helper[512];

        log_setup(LOG_TARGET_STDERR, LOG_DEBUG);
        capture_start();
        log_error("a: %s", strerror(EIO));
        log_warning("b %d: %s", 2, strerror(EBUSY));
        log_info("c: %s", strerror(EAGAIN));
        capture_end(spelt, sizeof(spelt));

        capture_start();
        ck_assert_int_eq(log_error_errno(-EIO, "a"), -EIO);
        ck_assert_int_eq(log_warning_errno(-EBUSY, "b %d", 2), -EBUSY);
        ck_assert_int_eq(log_info_errno(-EAGAIN, "c"), -EAGAIN);
        capture_end(helper, sizeof(helper));

        ck_assert_str_eq(helper, spelt);
}
END_TEST

/* Below the level nothing is written, and the error still comes back. */
START_TEST(test_quiet_level_still_returns_the_error)
{
        char out[64];

        log_setup(LOG_TARGET_STDERR, LOG_ERR);
        capture_start();
        ck_assert_int_eq(log_warning_errno(-EPERM, "not written"), -EPERM);
        ck_assert_int_eq(log_debug_errno(-EINVAL, "nor this"), -EINVAL);
        capture_end(out, sizeof(out));
        ck_assert_str_eq(out, "");
}
END_TEST

static Suite *log_suite(void)
{
        Suite *s = suite_create("log");
        TCase *tc = tcase_create("errno");

        tcase_add_loop_test(tc, test_reads_as_the_format_spelt_out, 0, sizeof(levels) / sizeof(levels[0]));
        tcase_add_test(tc, test_level_macros);
        tcase_add_test(tc, test_quiet_level_still_returns_the_error);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(log_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
