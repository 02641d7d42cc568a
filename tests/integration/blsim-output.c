/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/integration/blsim-output.h"
#include "tests/integration/harness.h"

void run_program(char *const argv[], struct run_out *ro)
{
        char out[4096 + 16], err[4096 + 16];
        pid_t pid;

        snprintf(out, sizeof(out), "%s/out", harness_workdir());
        snprintf(err, sizeof(err), "%s/err", harness_workdir());
        pid = harness_exec_to_files(argv, out, err);
        ck_assert_int_eq(waitpid(pid, &ro->status, 0), pid);
        ro->out = read_whole_file(out);
        ro->err = read_whole_file(err);
}

void run_out_free(struct run_out *ro)
{
        free(ro->out);
        free(ro->err);
}

double json_number(const char *json, const char *key)
{
        char pattern[64];
        const char *p;
        char *end;
        double v;

        snprintf(pattern, sizeof(pattern), "\"%s\": ", key);
        p = strstr(json, pattern);
        ck_assert_msg(p != NULL, "no key %s in:\n%s", key, text_tail(json, 2000));
        v = strtod(p + strlen(pattern), &end);
        ck_assert_msg(end != p + strlen(pattern), "key %s is not a number in:\n%s", key, text_tail(json, 2000));
        return v;
}

void json_text(const char *json, const char *key, char *buf, size_t size)
{
        char pattern[64];
        const char *p;
        size_t n;

        snprintf(pattern, sizeof(pattern), "\"%s\": \"", key);
        p = strstr(json, pattern);
        ck_assert_msg(p != NULL, "no string %s in:\n%s", key, text_tail(json, 2000));
        p += strlen(pattern);
        n = strcspn(p, "\"");
        ck_assert_uint_lt(n, size);
        memcpy(buf, p, n);
        buf[n] = '\0';
}

unsigned json_switches(const char *json, struct switch_rec *sw)
{
        const char *p = strstr(json, "\"switch_sequence\": [");
        unsigned n = 0;

        ck_assert_msg(p != NULL, "no switch_sequence in:\n%s", text_tail(json, 2000));
        p = strchr(p, '[') + 1;
        while (*p == '{' || (*p == ',' && *++p == ' ' && *++p == '{')) {
                int used = 0;

                ck_assert_uint_lt(n, BLSIM_MAX_SWITCHES);
                ck_assert_msg(sscanf(p, "{\"t_us\": %llu, \"from\": \"%31[^\"]\", \"to\": \"%31[^\"]\"}%n",
                                     &sw[n].t, sw[n].from, sw[n].to, &used) == 3 && used > 0,
                              "bad switch entry: %.80s", p);
                p += used;
                n++;
        }
        ck_assert_msg(*p == ']', "switch_sequence does not end: %.80s", p);
        return n;
}

unsigned logged_switches(const char *log, struct switch_rec *sw)
{
        unsigned n = 0;

        for (const char *p = log; (p = strstr(p, "switch ")); p++) {
                if (p != log && p[-1] != '\n')
                        continue;
                ck_assert_uint_lt(n, BLSIM_MAX_SWITCHES);
                if (sscanf(p, "switch %31s -> %31[^:]:", sw[n].from, sw[n].to) == 2)
                        n++;
        }
        return n;
}
