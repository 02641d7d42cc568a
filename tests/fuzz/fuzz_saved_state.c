/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reader of the daemon's saved-state file (daemon/saved-state.c), which
 * a start after a crash trusts to put the CPUs back, and the cpuset
 * backend's parser of its part: any text is accepted or refused with every
 * problem naming the file; an accepted file has a backend name, its keys in
 * file order with their lines, and reads back the same from the text
 * bigLittled would write for it. Each input is read as it is (the header
 * line checked) and under the header line (so that the rest is reached
 * from inputs that lack it). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpuset.h"
#include "daemon/saved-state.h"
#include "tests/fuzz/fuzz.h"

#define PATH "/run/bigLittle/saved-state"
#define HEADER "# bigLittle saved-state v1\n"

static void check_state(const struct saved_state *s)
{
        const char *line = s->text;

        FUZZ_ASSERT(s->backend[0] && s->backend_line >= 1);
        FUZZ_ASSERT(strspn(s->backend, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(s->backend));
        FUZZ_ASSERT(s->pid >= 0 && s->nkeys <= SAVED_STATE_MAX_LINES);
        for (unsigned i = 0; i < s->nkeys; i++) {
                size_t keylen = strlen(s->key[i]);

                FUZZ_ASSERT(keylen > 0 && strncmp(line, s->key[i], keylen) == 0 && line[keylen] == '=');
                FUZZ_ASSERT(strcmp(s->key[i], "backend") != 0 && strcmp(s->key[i], "pid") != 0);
                FUZZ_ASSERT(s->line[i] >= 1 && (i == 0 || s->line[i] > s->line[i - 1]));
                line = strchr(line, '\n');
                FUZZ_ASSERT(line != NULL);
                line++;
        }
        FUZZ_ASSERT(*line == '\0');
}

static void check_rewritten(const struct saved_state *s)
{
        static struct saved_state back;
        struct bl_diag diag;
        char *text = NULL;
        size_t len = 0;
        FILE *f = fuzz_text_open(&text, &len);

        fprintf(f, HEADER "backend=%s\n", s->backend);
        if (s->pid > 0)
                fprintf(f, "pid=%d\n", (int)s->pid);
        fputs(s->text, f);
        fuzz_text_close(f);
        diag_init(&diag);
        FUZZ_ASSERT(saved_state_parse(&back, PATH, text, len, &diag) == 0);
        FUZZ_ASSERT(strcmp(back.backend, s->backend) == 0 && back.pid == s->pid);
        FUZZ_ASSERT(strcmp(back.text, s->text) == 0 && back.nkeys == s->nkeys);
        free(text);
}

static void check_cpuset_part(const char *text)
{
        static struct cpuset_saved cs;
        char detail[256];
        int r = cpuset_saved_parse(text, &cs, detail, sizeof(detail));

        FUZZ_ASSERT(r == 0 || r == -EINVAL);
        if (r < 0)
                return;
        FUZZ_ASSERT(cs.manager == BL_CPUSET_MANAGER_SYSTEMD || cs.manager == BL_CPUSET_MANAGER_CGROUPFS);
        FUZZ_ASSERT(cs.ngroups >= 1 && cs.ngroups <= BL_CPUSET_MAX_GROUPS);
        for (unsigned i = 0; i < cs.ngroups; i++)
                FUZZ_ASSERT(config_cgroup_path_valid(cs.groups[i].path));
}

static void check_text(char *text, size_t size)
{
        static struct saved_state s;
        struct bl_diag diag;
        int r;

        diag_init(&diag);
        r = saved_state_parse(&s, PATH, text, size, &diag);
        FUZZ_ASSERT(r == 0 || r == -EINVAL);
        fuzz_check_places(&diag, PATH, false);
        if (r == 0) {
                FUZZ_ASSERT(diag_count(&diag) == 0);
                check_state(&s);
                check_rewritten(&s);
                check_cpuset_part(s.text);
        } else {
                FUZZ_ASSERT(diag_count(&diag) > 0);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *text = fuzz_strndup(data, size);
        char *under = malloc(sizeof(HEADER) + size);

        FUZZ_ASSERT(under != NULL);
        memcpy(under, HEADER, sizeof(HEADER) - 1);
        memcpy(under + sizeof(HEADER) - 1, data, size);
        under[sizeof(HEADER) - 1 + size] = '\0';
        check_text(text, size);
        check_text(under, sizeof(HEADER) - 1 + size);
        free(under);
        free(text);
        return 0;
}
