/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reader of persistent holds (daemon/holds-store.c), which a restarted
 * daemon trusts: any text restores only holds that are whole and still in
 * force (unique ids, a valid level, ending after now), every line it drops
 * is named, and what it restored, written back out as holds_store_save()
 * writes it, restores to the same holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/holds-store.h"
#include "tests/fuzz/fuzz.h"

#define PATH "/run/bigLittle/holds"
/* 2023-11-14 22:13:20 UTC, and a daemon up for 1000 s. */
#define NOW_WALL UINT64_C(1700000000000000)
#define NOW_MONO UINT64_C(1000000000)

static void check_holds(const struct bl_holds *hs)
{
        for (unsigned i = 0; i < hs->n; i++) {
                const struct bl_hold *h = &hs->h[i];

                FUZZ_ASSERT(h->id >= 1 && h->level < BL_MAX_LEVELS && h->persist);
                FUZZ_ASSERT(h->until_wall > NOW_WALL && h->until_wall > h->since_wall);
                FUZZ_ASSERT(h->until > NOW_MONO && h->since <= NOW_MONO);
                FUZZ_ASSERT(memchr(h->unit, '\0', sizeof(h->unit)) != NULL);
                FUZZ_ASSERT(memchr(h->reason, '\0', sizeof(h->reason)) != NULL);
                FUZZ_ASSERT(h->owner[0] == '\0');
                for (unsigned j = 0; j < i; j++)
                        FUZZ_ASSERT(hs->h[j].id != h->id);
        }
}

static void check_rewritten(const struct bl_holds *hs)
{
        static struct bl_holds back;
        struct bl_diag diag;
        char *text = NULL;
        size_t len = 0;
        FILE *f = fuzz_text_open(&text, &len);

        holds_store_print(f, hs);
        fuzz_text_close(f);
        holds_init(&back);
        diag_init(&diag);
        FUZZ_ASSERT(holds_store_parse(&back, PATH, text, NOW_WALL, NOW_MONO, &diag) == (int)hs->n);
        FUZZ_ASSERT(diag_count(&diag) == 0 && back.n == hs->n);
        for (unsigned i = 0; i < hs->n; i++) {
                const struct bl_hold *a = &hs->h[i], *b = &back.h[i];

                FUZZ_ASSERT(a->id == b->id && a->level == b->level && a->uid == b->uid && a->pid == b->pid);
                FUZZ_ASSERT(strcmp(a->unit, b->unit) == 0 && strcmp(a->reason, b->reason) == 0);
                FUZZ_ASSERT(a->since_wall == b->since_wall && a->until_wall == b->until_wall);
                FUZZ_ASSERT(a->since == b->since && a->until == b->until);
        }
        free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static struct bl_holds hs;
        struct bl_diag diag;
        char *text = fuzz_strndup(data, size);
        int restored;

        holds_init(&hs);
        diag_init(&diag);
        restored = holds_store_parse(&hs, PATH, text, NOW_WALL, NOW_MONO, &diag);
        FUZZ_ASSERT(restored >= 0 && (unsigned)restored == hs.n);
        fuzz_check_places(&diag, PATH, true);
        check_holds(&hs);
        check_rewritten(&hs);
        free(text);
        return 0;
}
