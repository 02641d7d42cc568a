/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Holds and the switch history: pure bookkeeping, virtual time. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/history.h"
#include "core/holds.h"

static struct bl_hold hold_of(unsigned level, uint32_t uid, const char *owner, bl_usec_t since, bl_usec_t until,
                              bool persist)
{
        struct bl_hold h = { .level = level, .uid = uid, .pid = 42, .persist = persist, .since = since,
                             .until = until };

        snprintf(h.owner, sizeof(h.owner), "%s", owner);
        snprintf(h.reason, sizeof(h.reason), "test %u", level);
        return h;
}

START_TEST(test_newest_wins_and_release)
{
        struct bl_holds hs;
        struct bl_hold a = hold_of(1, 0, ":1.1", 0, 1000, false), b = hold_of(0, 1000, ":1.2", 10, 500, false);
        uint32_t ida, idb;

        holds_init(&hs);
        ck_assert_ptr_null(holds_current(&hs, BL_HOLD_NEWEST));
        ck_assert_uint_eq(holds_next_expiry(&hs), 0);
        ck_assert_int_eq(holds_add(&hs, &a, &ida), 0);
        ck_assert_int_eq(holds_add(&hs, &b, &idb), 0);
        ck_assert_uint_eq(ida, 1);
        ck_assert_uint_eq(idb, 2);
        ck_assert_uint_eq(holds_current(&hs, BL_HOLD_NEWEST)->id, idb);
        ck_assert_uint_eq(holds_current(&hs, BL_HOLD_NEWEST)->level, 0);
        ck_assert_uint_eq(holds_next_expiry(&hs), 500);
        ck_assert_str_eq(holds_find(&hs, ida)->reason, "test 1");
        ck_assert_int_eq(holds_release(&hs, idb), 0);
        ck_assert_int_eq(holds_release(&hs, idb), -ENOENT);
        ck_assert_uint_eq(holds_current(&hs, BL_HOLD_NEWEST)->id, ida);
        /* Ids are never reused within a run. */
        ck_assert_int_eq(holds_add(&hs, &b, &idb), 0);
        ck_assert_uint_eq(idb, 3);
}
END_TEST

START_TEST(test_precedence)
{
        struct bl_holds hs;
        struct bl_hold big = hold_of(2, 0, ":1.1", 0, 1000, false), little = hold_of(0, 1000, ":1.2", 0, 1000, false),
                       mid = hold_of(1, 0, ":1.3", 0, 1000, false);
        uint32_t ib, il, im, il2;
        char why[BL_HOLD_WHY_MAX];

        holds_init(&hs);
        holds_explain(&hs, BL_HOLD_LOWEST, why, sizeof(why));
        ck_assert_str_eq(why, "");
        ck_assert_ptr_null(holds_current(&hs, BL_HOLD_LOWEST));
        ck_assert_int_eq(holds_add(&hs, &big, &ib), 0);
        holds_explain(&hs, BL_HOLD_LOWEST, why, sizeof(why));
        ck_assert_str_eq(why, "only hold");
        ck_assert_int_eq(holds_add(&hs, &little, &il), 0);
        ck_assert_int_eq(holds_add(&hs, &mid, &im), 0);

        ck_assert_uint_eq(holds_current(&hs, BL_HOLD_NEWEST)->id, im);
        ck_assert_uint_eq(holds_current(&hs, BL_HOLD_LOWEST)->id, il);
        ck_assert_uint_eq(holds_current(&hs, BL_HOLD_HIGHEST)->id, ib);
        holds_explain(&hs, BL_HOLD_NEWEST, why, sizeof(why));
        ck_assert_str_eq(why, "newest of 3");
        holds_explain(&hs, BL_HOLD_LOWEST, why, sizeof(why));
        ck_assert_str_eq(why, "lowest level of 3");
        holds_explain(&hs, BL_HOLD_HIGHEST, why, sizeof(why));
        ck_assert_str_eq(why, "highest level of 3");

        /* Two holds of one level: the newer one wins. */
        ck_assert_int_eq(holds_add(&hs, &little, &il2), 0);
        ck_assert_uint_eq(holds_current(&hs, BL_HOLD_LOWEST)->id, il2);
        ck_assert_int_eq(holds_release(&hs, il2), 0);
        ck_assert_int_eq(holds_release(&hs, il), 0);
        ck_assert_uint_eq(holds_current(&hs, BL_HOLD_LOWEST)->id, im);
        ck_assert_str_eq(hold_precedence_to_string(BL_HOLD_LOWEST), "lowest");
}
END_TEST

START_TEST(test_expiry)
{
        struct bl_holds hs;
        struct bl_hold a = hold_of(1, 0, ":1.1", 0, 100, false), b = hold_of(1, 0, ":1.1", 0, 300, false);
        uint32_t ids[4], id;

        holds_init(&hs);
        ck_assert_int_eq(holds_add(&hs, &a, &id), 0);
        ck_assert_int_eq(holds_add(&hs, &b, &id), 0);
        ck_assert_uint_eq(holds_expire(&hs, 99, ids, 4), 0);
        ck_assert_uint_eq(holds_expire(&hs, 100, ids, 4), 1);
        ck_assert_uint_eq(ids[0], 1);
        ck_assert_uint_eq(hs.n, 1);
        ck_assert_uint_eq(holds_expire(&hs, 1000, ids, 0), 1);
        ck_assert_uint_eq(hs.n, 0);
}
END_TEST

START_TEST(test_owner_gone_keeps_persistent)
{
        struct bl_holds hs;
        struct bl_hold a = hold_of(1, 0, ":1.7", 0, 100, false), b = hold_of(1, 0, ":1.7", 0, 100, true),
                       c = hold_of(1, 0, ":1.8", 0, 100, false);
        uint32_t id;

        holds_init(&hs);
        ck_assert_int_eq(holds_add(&hs, &a, &id), 0);
        ck_assert_int_eq(holds_add(&hs, &b, &id), 0);
        ck_assert_int_eq(holds_add(&hs, &c, &id), 0);
        ck_assert_uint_eq(holds_release_owner(&hs, ""), 0);
        ck_assert_uint_eq(holds_release_owner(&hs, ":1.7"), 1);
        ck_assert_uint_eq(hs.n, 2);
        ck_assert(holds_find(&hs, 2)->persist);
        ck_assert_ptr_nonnull(holds_find(&hs, 3));
}
END_TEST

START_TEST(test_limits)
{
        struct bl_holds hs;
        struct bl_hold h = hold_of(0, 1000, ":1.1", 0, 10, false), bad = hold_of(0, 0, "", 10, 10, false);
        uint32_t id;

        holds_init(&hs);
        ck_assert_int_eq(holds_add(&hs, &bad, &id), -EINVAL);
        for (unsigned i = 0; i < BL_MAX_HOLDS_PER_UID; i++)
                ck_assert_int_eq(holds_add(&hs, &h, &id), 0);
        /* One user cannot crowd out the others. */
        ck_assert_int_eq(holds_add(&hs, &h, &id), -EUSERS);
        for (uint32_t uid = 1; hs.n < BL_MAX_HOLDS; uid++) {
                h.uid = 2000 + uid;
                ck_assert_int_eq(holds_add(&hs, &h, &id), 0);
        }
        h.uid = 99999;
        ck_assert_int_eq(holds_add(&hs, &h, &id), -ENOSPC);
        ck_assert_uint_eq(holds_release_uid(&hs, 1000, false), BL_MAX_HOLDS_PER_UID);
        ck_assert_uint_eq(holds_release_uid(&hs, 0, true), BL_MAX_HOLDS - BL_MAX_HOLDS_PER_UID);
        ck_assert_uint_eq(hs.n, 0);
}
END_TEST

START_TEST(test_restore_keeps_ids_unique)
{
        struct bl_holds hs;
        struct bl_hold h = hold_of(1, 0, "", 0, 10, true);
        uint32_t id;

        holds_init(&hs);
        h.id = 41;
        ck_assert_int_eq(holds_restore(&hs, &h), 0);
        ck_assert_int_eq(holds_restore(&hs, &h), -EEXIST);
        h.id = 0;
        ck_assert_int_eq(holds_restore(&hs, &h), -EEXIST);
        ck_assert_int_eq(holds_add(&hs, &h, &id), 0);
        ck_assert_uint_eq(id, 42);
}
END_TEST

START_TEST(test_strings_end_inside)
{
        struct bl_holds hs;
        struct bl_hold h = hold_of(1, 0, "", 0, 10, false);
        uint32_t id;

        holds_init(&hs);
        memset(h.reason, 'x', sizeof(h.reason));
        memset(h.unit, 'u', sizeof(h.unit));
        ck_assert_int_eq(holds_add(&hs, &h, &id), 0);
        ck_assert_uint_eq(strlen(holds_find(&hs, id)->reason), BL_HOLD_REASON_MAX - 1);
        ck_assert_uint_eq(strlen(holds_find(&hs, id)->unit), BL_HOLD_UNIT_MAX - 1);
}
END_TEST

START_TEST(test_history_ring)
{
        struct bl_history *h = malloc(sizeof(*h));
        char to[16];

        ck_assert_ptr_nonnull(h);
        history_init(h);
        ck_assert_uint_eq(history_count(h), 0);
        ck_assert_ptr_null(history_get(h, 0));
        for (unsigned i = 0; i < BL_HISTORY_MAX + 3; i++) {
                snprintf(to, sizeof(to), "L%u", i);
                history_add(h, i, 1000 + i, "from", to, "because");
        }
        ck_assert_uint_eq(history_count(h), BL_HISTORY_MAX);
        ck_assert_str_eq(history_get(h, 0)->to, "L514");
        ck_assert_uint_eq(history_get(h, 0)->when_wall, 1514);
        ck_assert_str_eq(history_get(h, BL_HISTORY_MAX - 1)->to, "L3");
        ck_assert_ptr_null(history_get(h, BL_HISTORY_MAX));
        free(h);
}
END_TEST

static Suite *holds_suite(void)
{
        Suite *s = suite_create("holds");
        TCase *tc = tcase_create("holds");

        tcase_add_test(tc, test_newest_wins_and_release);
        tcase_add_test(tc, test_precedence);
        tcase_add_test(tc, test_expiry);
        tcase_add_test(tc, test_owner_gone_keeps_persistent);
        tcase_add_test(tc, test_limits);
        tcase_add_test(tc, test_restore_keeps_ids_unique);
        tcase_add_test(tc, test_strings_end_inside);
        tcase_add_test(tc, test_history_ring);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(holds_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
