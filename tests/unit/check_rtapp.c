/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "sim/exec.h"
#include "sim/rtapp-json.h"
#include "sim/rtapp.h"

#define RTAPP_DIR WORKLOADS_DIR "/rt-app"

/* Two clusters of two CPUs: LITTLE tops at 512 (half the reference), big at
 * the reference 1024, so run times are easy to compute by hand. No switch
 * cost: these tests never switch. */
static const struct sim_board board = {
        .name = "test-2x2",
        .reference_capacity = 1024,
        .nclusters = 2,
        .ncpus = 4,
        .cluster = {
                {
                        .name = "little", .cpus = 2, .order = 0, .off_mw = 5, .nopps = 2, .first_cpu = 0,
                        .opp = { { 500, 256, 30, 20 }, { 1000, 512, 100, 40 } },
                },
                {
                        .name = "big", .cpus = 2, .order = 1, .off_mw = 20, .nopps = 2, .first_cpu = 2,
                        .opp = { { 1000, 512, 300, 80 }, { 2000, 1024, 1500, 300 } },
                },
        },
};

enum { LITTLE = 0, BIG = 1 };

static const char *const shipped[] = {
        "browser-long.json",      "browser-short.json",     "custom-slice.json",
        "dvfs.json",              "mp3-long.json",          "mp3-short.json",
        "spreading-tasks.json",   "template.json",          "video-long.json",
        "video-short.json",       "tutorial/example1.json", "tutorial/example2.json",
        "tutorial/example3.json", "tutorial/example4.json", "tutorial/example5.json",
        "tutorial/example6.json", "tutorial/example7.json", "tutorial/example8.json",
        "tutorial/example9.json", "tutorial/example10.json", "tutorial/example11.json",
};
#define NSHIPPED (sizeof(shipped) / sizeof(shipped[0]))

#define MAX_RECORD 4096

struct outcome {
        size_t steps;                   /* run before the workload said it ended */
        bool ended;                     /* it said so before max_steps */
        double total;
        double lane_work[64];
        double step_work[MAX_RECORD];   /* total new work of each of the first steps */
        size_t first_step[64];          /* of each lane's first work (SIZE_MAX: none) */
        uint64_t digest;                /* of every step's new work and backlog */
        struct sim_qos qos;
};

static struct bl_diag diag;

static void setup(void)
{
        diag_init(&diag);
}

static uint64_t mix(uint64_t h, double v)
{
        uint64_t bits;

        memcpy(&bits, &v, sizeof(bits));
        for (int i = 0; i < 8; i++) {
                h ^= (bits >> (8 * i)) & 0xff;
                h *= 0x100000001b3ULL;
        }
        return h;
}

/* The step engine's loop on a fixed cluster, with exec_step's rules. */
static void drive(struct sim_workload *w, unsigned cluster, size_t max_steps, struct outcome *o)
{
        const struct sim_cluster *c = &board.cluster[cluster];
        double *backlog = calloc(3 * (size_t)w->nlanes, sizeof(double));
        double *new_work = backlog + w->nlanes;
        double *capacity = new_work + w->nlanes;
        struct sim_step st;

        ck_assert_ptr_nonnull(backlog);
        memset(o, 0, sizeof(*o));
        o->digest = 0xcbf29ce484222325ULL;
        for (unsigned i = 0; i < 64; i++)
                o->first_step[i] = SIZE_MAX;
        for (unsigned i = 0; i < w->nlanes; i++)
                capacity[i] = c->opp[c->nopps - 1].capacity;
        for (size_t s = 0; s < max_steps; s++) {
                bl_usec_t t = (bl_usec_t)s * w->step_us;
                int r = w->begin_step(w, s, t, capacity, new_work);

                ck_assert_int_ge(r, 0);
                if (r == 1) {
                        o->ended = true;
                        break;
                }
                exec_step(&board, cluster, false, (double)w->step_us, w->nlanes, backlog, new_work, &st);
                w->end_step(w, s, t + w->step_us, backlog);
                for (unsigned i = 0; i < w->nlanes; i++) {
                        o->total += new_work[i];
                        if (i < 64)
                                o->lane_work[i] += new_work[i];
                        if (i < 64 && new_work[i] > 0 && o->first_step[i] == SIZE_MAX)
                                o->first_step[i] = s;
                        if (s < MAX_RECORD)
                                o->step_work[s] += new_work[i];
                        o->digest = mix(o->digest, new_work[i]);
                        o->digest = mix(o->digest, backlog[i]);
                }
                o->steps++;
        }
        w->qos(w, &o->qos);
        free(backlog);
}

static struct sim_workload *parse_text(const char *text, bl_usec_t default_duration_us)
{
        struct sim_workload *w = NULL;
        int r = rtapp_workload_parse(&w, "test.json", text, strlen(text), 100, default_duration_us, &diag);

        if (r < 0)
                ck_abort_msg("parse failed (%d): %s", r, diag.n ? diag.msg[0] : "no message");
        ck_assert_uint_eq(diag_count(&diag), 0);
        return w;
}

/* Parses and runs on one cluster until the workload ends. */
static void run_text(const char *text, unsigned cluster, struct outcome *o)
{
        struct sim_workload *w = parse_text(text, 0);

        drive(w, cluster, 1000000, o);
        ck_assert(o->ended);
        workload_free(w);
}

static struct rtapp_json *read_ok(const char *text)
{
        struct rtapp_json *root = NULL;
        int r = rtapp_json_parse(&root, "t.json", text, strlen(text), &diag);

        if (r < 0)
                ck_abort_msg("reader failed: %s", diag.n ? diag.msg[0] : "no message");
        return root;
}

START_TEST(reader_dialect)
{
        struct rtapp_json *root = read_ok("\xef\xbb\xbf/* head */ {\n"
                                          "  \"t\" : {\n"
                                          "    \"run\" : 10, // first\n"
                                          "    \"suspend\",\n"
                                          "    \"run\" : -2.5e1,\n"
                                          "    \"run\" : [1, true, false, null, ],\n"
                                          "    \"s\" : "
                                          "\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\",\n"
                                          "  },\n"
                                          "}\n");
        const struct rtapp_json_member *t, *m;

        ck_assert_int_eq(root->type, RTAPP_JSON_OBJECT);
        ck_assert_uint_eq(root->object.n, 1);
        t = &root->object.members[0];
        ck_assert_str_eq(t->key, "t");
        ck_assert_uint_eq(t->line, 2);
        ck_assert_uint_eq(t->col, 3);
        ck_assert_uint_eq(t->value.object.n, 5);
        m = t->value.object.members;
        ck_assert_str_eq(m[0].key, "run");
        ck_assert_int_eq(m[0].value.type, RTAPP_JSON_INT);
        ck_assert_int_eq(m[0].value.integer, 10);
        ck_assert_uint_eq(m[0].line, 3);
        ck_assert_str_eq(m[1].key, "suspend");
        ck_assert(!m[1].has_value);
        ck_assert_int_eq(m[1].value.type, RTAPP_JSON_NULL);
        ck_assert_uint_eq(m[1].line, 4);
        ck_assert_str_eq(m[2].key, "run");
        ck_assert_int_eq(m[2].value.type, RTAPP_JSON_FLOAT);
        ck_assert_double_eq(m[2].value.number, -25.0);
        ck_assert_int_eq(m[3].value.type, RTAPP_JSON_ARRAY);
        ck_assert_uint_eq(m[3].value.array.n, 4);
        ck_assert_int_eq(m[3].value.array.items[0].integer, 1);
        ck_assert_int_eq(m[3].value.array.items[1].type, RTAPP_JSON_BOOL);
        ck_assert(m[3].value.array.items[1].boolean);
        ck_assert(!m[3].value.array.items[2].boolean);
        ck_assert_int_eq(m[3].value.array.items[3].type, RTAPP_JSON_NULL);
        ck_assert_uint_eq(m[3].value.array.items[3].col, 30);
        ck_assert_str_eq(m[4].value.string, "a\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80");
        rtapp_json_free(root);
}
END_TEST

START_TEST(reader_values)
{
        struct rtapp_json *root = read_ok("[-0, 0.5, 1E2, -9223372036854775808, 9223372036854775807, "
                                          "\"\", {}, []]");
        const struct rtapp_json *v = root->array.items;

        ck_assert_uint_eq(root->array.n, 8);
        ck_assert_int_eq(v[0].type, RTAPP_JSON_INT);
        ck_assert_int_eq(v[0].integer, 0);
        ck_assert_double_eq(v[1].number, 0.5);
        ck_assert_int_eq(v[2].type, RTAPP_JSON_FLOAT);
        ck_assert_double_eq(v[2].number, 100.0);
        ck_assert(v[3].integer == INT64_MIN);
        ck_assert(v[4].integer == INT64_MAX);
        ck_assert_str_eq(v[5].string, "");
        ck_assert_int_eq(v[6].type, RTAPP_JSON_OBJECT);
        ck_assert_uint_eq(v[6].object.n, 0);
        ck_assert_int_eq(v[7].type, RTAPP_JSON_ARRAY);
        ck_assert_uint_eq(v[7].array.n, 0);
        rtapp_json_free(root);
        ck_assert_str_eq(rtapp_json_type_name(RTAPP_JSON_FLOAT), "a number");
}
END_TEST

static const struct {
        const char *text;
        const char *message;
} reader_errors[] = {
        { "", "t.json:1:1: expected a value, got end of file" },
        { "  \n ", "t.json:2:2: expected a value, got end of file" },
        { "{", "t.json:1:2: expected a string key or '}', got end of file" },
        { "{\"a\" 1}", "t.json:1:6: expected ':', ',' or '}' after the key, got '1'" },
        { "{\"a\":1 \"b\":2}", "t.json:1:8: expected ',' or '}', got '\"'" },
        { "[1 2]", "t.json:1:4: expected ',' or ']', got '2'" },
        { "{,}", "t.json:1:2: expected a string key or '}', got ','" },
        { "{\"a\":1,,}", "t.json:1:8: expected a string key, got ','" },
        { "[1,,2]", "t.json:1:4: expected a value, got ','" },
        { "[,]", "t.json:1:2: expected a value, got ','" },
        { "{\"a\":tru}", "t.json:1:6: expected a value, got 'tru'" },
        { "{\"a\":nullx}", "t.json:1:6: expected a value, got 'nullx'" },
        { "{\"a\":\"x", "t.json:1:8: expected '\"' to close the string, got end of file" },
        { "{\"a\":\"x\n\"}", "t.json:1:8: expected '\"' to close the string, got a line break" },
        { "\"\\q\"", "t.json:1:3: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after '\\', got "
                     "'q'" },
        { "\"\\", "t.json:1:3: expected an escape character after '\\', got end of file" },
        { "\"\\u12G4\"", "t.json:1:6: expected 4 hex digits after \\u, got 'G4'" },
        { "\"\\uDC00\"", "t.json:1:4: expected a high surrogate \\uD800-\\uDBFF before a low one, got "
                         "'DC00'" },
        { "\"\\uD800x\"", "t.json:1:8: expected a low surrogate \\uDC00-\\uDFFF after a high one, got 'x'" },
        { "\"\\uD800\\u0041\"", "t.json:1:8: expected a low surrogate \\uDC00-\\uDFFF after a high one, "
                                "got '\\'" },
        { "\"\\u0000\"", "t.json:1:2: expected a character other than NUL in a string, got \\u0000" },
        { "\"a\x01\"", "t.json:1:3: expected a printable character or an escape in the string, got byte "
                       "0x01" },
        { "{\n/* open", "t.json:2:8: expected '*/' to close the comment opened at 2:1, got end of file" },
        { "01", "t.json:1:1: expected a number without leading zeros, got '01'" },
        { "1.", "t.json:1:3: expected a digit after the decimal point, got end of file" },
        { "1e+}", "t.json:1:4: expected a digit in the exponent, got '}'" },
        { "12abc", "t.json:1:1: expected a number, got '12abc'" },
        { "-", "t.json:1:1: expected a value, got '-'" },
        { "99999999999999999999", "t.json:1:1: expected an integer that fits in 64 bits, got "
                                  "'99999999999999999999'" },
        { "1e999", "t.json:1:1: expected a finite number, got '1e999'" },
        { "{} x", "t.json:1:4: expected end of file after the top-level value, got 'x'" },
        { "{}/", "t.json:1:3: expected end of file after the top-level value, got '/'" },
        { "{\n  \"a\": ]\n}", "t.json:2:8: expected a value, got ']'" },
        { "\t{\"a\":\x7f}", "t.json:1:7: expected a value, got byte 0x7f" },
};

START_TEST(reader_error)
{
        struct rtapp_json *root = NULL;
        const char *text = reader_errors[_i].text;

        ck_assert_int_eq(rtapp_json_parse(&root, "t.json", text, strlen(text), &diag), -EINVAL);
        ck_assert_ptr_null(root);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], reader_errors[_i].message);
}
END_TEST

START_TEST(reader_nul_byte)
{
        struct rtapp_json *root = NULL;

        ck_assert_int_eq(rtapp_json_parse(&root, "t.json", "{\0}", 3, &diag), -EINVAL);
        ck_assert_str_eq(diag.msg[0], "t.json:1:2: expected a string key or '}', got byte 0x00");
}
END_TEST

START_TEST(reader_limits)
{
        struct rtapp_json *root = NULL;
        size_t big = RTAPP_JSON_MAX_SIZE + 1;
        char *text = malloc(big);
        char deep[200];
        int n;

        ck_assert_ptr_nonnull(text);
        /* A long string: the limit is on decoded bytes. */
        n = snprintf(text, big, "\"");
        memset(text + n, 'x', RTAPP_JSON_MAX_STRING);
        text[n + RTAPP_JSON_MAX_STRING] = '"';
        ck_assert_int_eq(rtapp_json_parse(&root, "t.json", text, n + RTAPP_JSON_MAX_STRING + 1, &diag), 0);
        ck_assert_uint_eq(strlen(root->string), RTAPP_JSON_MAX_STRING);
        rtapp_json_free(root);
        root = NULL;
        text[n + RTAPP_JSON_MAX_STRING] = 'x';
        text[n + RTAPP_JSON_MAX_STRING + 1] = '"';
        ck_assert_int_eq(rtapp_json_parse(&root, "t.json", text, n + RTAPP_JSON_MAX_STRING + 2, &diag),
                         -EINVAL);
        ck_assert_str_eq(diag.msg[0], "t.json:1:4098: expected a string of at most 4096 bytes, got a "
                                      "longer one");

        memset(text, ' ', big);
        text[0] = '1';
        ck_assert_int_eq(rtapp_json_parse(&root, "t.json", text, big, &diag), -EINVAL);
        ck_assert_str_eq(diag.msg[1], "t.json:1:1: expected a file of at most 4194304 bytes, got 4194305");
        ck_assert_int_eq(rtapp_json_parse(&root, "t.json", text, big - 1, &diag), 0);
        ck_assert_int_eq(root->integer, 1);
        rtapp_json_free(root);
        root = NULL;
        free(text);

        /* 64 levels are fine, 65 are not. */
        memset(deep, '[', 64);
        memset(deep + 64, ']', 64);
        ck_assert_int_eq(rtapp_json_parse(&root, "t.json", deep, 128, &diag), 0);
        rtapp_json_free(root);
        root = NULL;
        memset(deep, '[', 65);
        memset(deep + 65, ']', 65);
        ck_assert_int_eq(rtapp_json_parse(&root, "t.json", deep, 130, &diag), -EINVAL);
        ck_assert_str_eq(diag.msg[2], "t.json:1:65: expected at most 64 nested objects and arrays, got more");
        ck_assert_ptr_null(root);
}
END_TEST

static const struct {
        const char *text;
        const char *message;
} model_errors[] = {
        { "[]", "test.json:1: expected an object with \"tasks\", got an array" },
        { "{\"global\": {}}", "test.json:1: expected a \"tasks\" object" },
        { "{\"tasks\": 3}", "test.json:1: \"tasks\": expected an object of tasks, got 3" },
        { "{\"tasks\": {}}", "test.json:1: \"tasks\": no thread to run (every task has \"instance\": 0)" },
        { "{\"tasks\": {\"t\": {\"instance\": 0, \"run\": 1}}}",
          "test.json:1: \"tasks\": no thread to run (every task has \"instance\": 0)" },
        { "{\"tasks\": {\"t\": {\"run\": 1}},\n \"tasks\": {}}",
          "test.json:2: \"tasks\" given twice (first at line 1)" },
        { "{\"tasks\": {\"t\": 5}}", "test.json:1: task \"t\": expected an object, got 5" },
        { "{\"tasks\": {\"t\": {\"run\": 1},\n\"t\": {\"run\": 1}}}",
          "test.json:2: task \"t\": defined twice (first at line 1)" },
        { "{\"tasks\": {\"t\": {\n\"jump\": 5}}}", "test.json:2: task \"t\": unknown event or property "
                                                   "\"jump\"" },
        { "{\"tasks\": {\"t\": {\n\"run\": \"x\"}}}",
          "test.json:2: task \"t\": \"run\": expected a time in us (an integer 0-1000000000000), got \"x\"" },
        { "{\"tasks\": {\"t\": {\"run\": 1,\n\"sleep\": -5}}}",
          "test.json:2: task \"t\": \"sleep\": expected a time in us (an integer 0-1000000000000), got -5" },
        { "{\"tasks\": {\"t\": {\"runtime\": 1.5}}}",
          "test.json:1: task \"t\": \"runtime\": expected a time in us (an integer 0-1000000000000), "
          "got 1.5" },
        { "{\"tasks\": {\"t\": {\"run\",}}}",
          "test.json:1: task \"t\": \"run\": expected a time in us (an integer 0-1000000000000), got "
          "nothing" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"timer\": {\"ref\": \"a\"}}}}",
          "test.json:2: task \"t\": \"timer\": expected a \"period\"" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"timer\": {\"ref\": \"a\",\n\"period\": 0}}}}",
          "test.json:3: task \"t\": \"period\": expected a time in us (an integer 1-1000000000000), got 0" },
        { "{\"tasks\": {\"t\": {\"run\": 10, \"timer\": {\"period\": 10,\n\"mode\": \"abs\"}}}}",
          "test.json:2: task \"t\": \"mode\": expected \"relative\" or \"absolute\", got \"abs\"" },
        { "{\"tasks\": {\"t\": {\"run\": 10, \"timer\": {\"period\": 10,\n\"ref\": 3}}}}",
          "test.json:2: task \"t\": \"ref\": expected a timer name (a string), got 3" },
        { "{\"tasks\": {\"t\": {\"run\": 10, \"timer\": {\"period\": 10,\n\"jitter\": 3}}}}",
          "test.json:2: task \"t\": \"timer\": unknown key \"jitter\" (expected \"ref\", \"period\" or "
          "\"mode\")" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"timer\": 100}}}",
          "test.json:2: task \"t\": \"timer\": expected an object with \"ref\", \"period\" and "
          "\"mode\", got 100" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"resume\": \"nobody\"}}}",
          "test.json:2: task \"t\": \"resume\": no task and no suspend or wait named \"nobody\"" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"resume\": \"\"}}}",
          "test.json:2: task \"t\": \"resume\": expected a task or suspend name (a non-empty string), "
          "got \"\"" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"fork\": \"nobody\"}}}",
          "test.json:2: task \"t\": \"fork\": no task named \"nobody\"" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"suspend\": 4}}}",
          "test.json:2: task \"t\": \"suspend\": expected a name (a string) or nothing, got 4" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"wait\": {\"mutex\": \"m\"}}}}",
          "test.json:2: task \"t\": \"wait\": expected a \"ref\"" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"sync\": [1]}}}",
          "test.json:2: task \"t\": \"sync\": expected an object with \"ref\" and \"mutex\", or a name, "
          "got an array" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"signal\": null}}}",
          "test.json:2: task \"t\": \"signal\": expected a condition name (a non-empty string), got null" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"lock\": true}}}",
          "test.json:2: task \"t\": \"lock\": expected a mutex name (a string), got true" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"barrier\": {}}}}",
          "test.json:2: task \"t\": \"barrier\": expected a barrier name (a non-empty string), got an "
          "empty object" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"mem\": -1}}}",
          "test.json:2: task \"t\": \"mem\": expected a number of bytes (an integer >= 0), got -1" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"instance\": 1025}}}",
          "test.json:2: task \"t\": \"instance\": expected a number of threads (an integer 0-1024), got "
          "1025" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"loop\": -2}}}",
          "test.json:2: task \"t\": \"loop\": expected -1 (forever) or a count >= 0, got -2" },
        { "{\"tasks\": {\"t\": {\"run\": 10,\n\"delay\": -1}}}",
          "test.json:2: task \"t\": \"delay\": expected a time in us (an integer 0-1000000000000), got -1" },
        { "{\"tasks\": {\"t\": {\"priority\": 3}}}", "test.json:1: task \"t\": expected events or "
                                                     "\"phases\"" },
        { "{\"tasks\": {\"t\": {\"run\": 1,\n\"phases\": {\"p\": {\"run\": 1}}}}}",
          "test.json:1: task \"t\": \"run\": events beside \"phases\" are never run; move them into a "
          "phase" },
        { "{\"tasks\": {\"t\": {\n\"phases\": {}}}}",
          "test.json:2: task \"t\": \"phases\": expected an object of one or more phases, got an empty "
          "object" },
        { "{\"tasks\": {\"t\": {\"phases\": {\n\"p\": 1}}}}",
          "test.json:2: task \"t\", phase \"p\": expected an object, got 1" },
        { "{\"tasks\": {\"t\": {\"phases\": {\n\"p\": {\"loop\": 2}}}}}",
          "test.json:2: task \"t\", phase \"p\": expected at least one event" },
        { "{\"tasks\": {\"t\": {\"phases\": {\"p\": {\"run\": 1,\n\"loop\": 0}}}}}",
          "test.json:2: task \"t\", phase \"p\": \"loop\": expected -1 (forever) or a count >= 1, got 0" },
        { "{\"tasks\": {\"t\": {\"phases\": {\"p\": {\"run\": 1,\n\"instance\": 2}}}}}",
          "test.json:2: task \"t\", phase \"p\": \"instance\" belongs to the task, not to a phase" },
        { "{\"global\": {\n\"duration\": -3}, \"tasks\": {\"t\": {\"run\": 1}}}",
          "test.json:2: global: \"duration\": expected a duration in s (-1, or a number 0-1000000), got -3" },
        { "{\"global\": {\"duration\": \"6\"}, \"tasks\": {\"t\": {\"run\": 1}}}",
          "test.json:1: global: \"duration\": expected a duration in s (-1, or a number 0-1000000), got "
          "\"6\"" },
        { "{\"global\": 1, \"tasks\": {\"t\": {\"run\": 1}}}",
          "test.json:1: \"global\": expected an object, got 1" },
        { "{\"tasks\": {\"t\": {\"run\": 1, \"instance\": 1000, \"fork\": \"t\"}}}",
          "test.json:1: \"tasks\": expected at most 1024 threads (instances and forks), got more" },
};

START_TEST(model_error)
{
        struct sim_workload *w = NULL;
        const char *text = model_errors[_i].text;

        ck_assert_int_eq(rtapp_workload_parse(&w, "test.json", text, strlen(text), 100, 0, &diag), -EINVAL);
        ck_assert_ptr_null(w);
        ck_assert_uint_ge(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], model_errors[_i].message);
}
END_TEST

START_TEST(model_errors_all_reported)
{
        static const char text[] = "{\"tasks\": {\"t\": {\n"
                                   "\"run\": -1,\n"
                                   "\"sleep\": \"x\",\n"
                                   "\"resume\": \"ghost\",\n"
                                   "\"bogus\": 1}}}";
        struct sim_workload *w = NULL;

        ck_assert_int_eq(rtapp_workload_parse(&w, "f.json", text, strlen(text), 100, 0, &diag), -EINVAL);
        ck_assert_uint_eq(diag.n, 4);
        ck_assert(strncmp(diag.msg[0], "f.json:2: task \"t\": \"run\"", 25) == 0);
        ck_assert(strncmp(diag.msg[1], "f.json:3: task \"t\": \"sleep\"", 27) == 0);
        ck_assert(strncmp(diag.msg[2], "f.json:5: task \"t\": unknown event", 33) == 0);
        ck_assert(strncmp(diag.msg[3], "f.json:4: task \"t\": \"resume\"", 28) == 0);
}
END_TEST

START_TEST(load_missing_file)
{
        struct sim_workload *w = NULL;

        ck_assert_int_eq(rtapp_workload_load(&w, "/nonexistent/x.json", 0, 0, &diag), -ENOENT);
        ck_assert_str_eq(diag.msg[0], "/nonexistent/x.json: cannot read: No such file or directory");
}
END_TEST

START_TEST(run_scales_with_capacity)
{
        static const char text[] = "{\"tasks\": {\"t\": {\"loop\": 1, \"run\": 1000}}}";
        struct outcome o;

        /* 1000 reference-µs on a CPU of capacity 512: 2000 µs = 20 steps of
         * 50 reference-µs each, the rate of the CPU's top OPP. */
        run_text(text, LITTLE, &o);
        ck_assert_uint_eq(o.steps, 20);
        ck_assert_double_eq(o.total, 1000.0);
        ck_assert_double_eq(o.step_work[0], 50.0);
        ck_assert_double_eq(o.step_work[19], 50.0);
        run_text(text, BIG, &o);
        ck_assert_uint_eq(o.steps, 10);
        ck_assert_double_eq(o.step_work[0], 100.0);
        ck_assert(!o.qos.has_activations);
}
END_TEST

START_TEST(runtime_is_wall_time)
{
        struct outcome o;

        /* 1000 µs busy on a 512 CPU is 500 reference-µs. */
        run_text("{\"tasks\": {\"t\": {\"loop\": 1, \"runtime\": 1000}}}", LITTLE, &o);
        ck_assert_uint_eq(o.steps, 10);
        ck_assert_double_eq(o.total, 500.0);
        run_text("{\"tasks\": {\"t\": {\"loop\": 1, \"runtime7\": 1000}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 10);
        ck_assert_double_eq(o.total, 1000.0);
}
END_TEST

START_TEST(run_starts_inside_a_step)
{
        struct outcome o;

        /* Wakes at 150: the step [100, 200) gets half a step of work, the
         * run ends at 300 (quantised to the step end), then 100 more. */
        run_text("{\"tasks\": {\"t\": {\"loop\": 1, \"sleep\": 150, \"run\": 100, \"run2\": 100}}}", BIG, &o);
        ck_assert_double_eq(o.step_work[0], 0.0);
        ck_assert_double_eq(o.step_work[1], 50.0);
        ck_assert_double_eq(o.step_work[2], 50.0);
        ck_assert_double_eq(o.step_work[3], 100.0);
        ck_assert_uint_eq(o.steps, 4);
}
END_TEST

static const char timer_template[] = "{\"tasks\": {\"t\": {\"loop\": 1, \"phases\": {"
                                     "\"a\": {\"run\": %d, \"timer\": {\"ref\": \"x\", \"period\": 1000%s}},"
                                     "\"b\": {\"loop\": 2, \"run\": 200, \"timer\": {\"ref\": \"x\", "
                                     "\"period\": 1000}}"
                                     "}}}}";

static void run_timer(int first_run, const char *mode, struct outcome *o)
{
        char text[512];

        snprintf(text, sizeof(text), timer_template, first_run, mode);
        run_text(text, BIG, o);
}

START_TEST(timer_relative_overrun)
{
        struct outcome o;

        /* Run 2500 ends at 2500, expiry 1000: slack -1500, a miss, and the
         * grid restarts at 2500. Run 200 ends at 2700, expiry 3500: +800,
         * sleep. Run 200 ends at 3700, expiry 4500: +800, sleep to 4500. */
        run_timer(2500, "", &o);
        ck_assert(o.qos.has_activations);
        ck_assert_uint_eq(o.qos.activations, 3);
        ck_assert_uint_eq(o.qos.misses, 1);
        ck_assert_double_eq(o.qos.min_slack_us, -1500.0);
        ck_assert_double_eq_tol(o.qos.mean_slack_us, 100.0 / 3.0, 1e-9);
        ck_assert_uint_eq(o.steps, 45);
        ck_assert_double_eq(o.total, 2900.0);
}
END_TEST

START_TEST(timer_absolute_overrun_cascades)
{
        struct outcome o;

        /* The grid stays at 0, 1000, 2000, 3000: run 2500 -> slack -1500;
         * run 200 ends at 2700 against 2000 -> -700, a second miss; run 200
         * ends at 2900 against 3000 -> +100, sleep to 3000. */
        run_timer(2500, ", \"mode\": \"absolute\"", &o);
        ck_assert_uint_eq(o.qos.activations, 3);
        ck_assert_uint_eq(o.qos.misses, 2);
        ck_assert_double_eq(o.qos.min_slack_us, -1500.0);
        ck_assert_double_eq(o.qos.mean_slack_us, -700.0);
        ck_assert_uint_eq(o.steps, 30);
}
END_TEST

START_TEST(timer_no_overrun)
{
        struct outcome o;

        /* Run 500 ends at 500: +500 and sleep to 1000; then +800 twice. */
        run_timer(500, ", \"mode\": \"absolute\"", &o);
        ck_assert_uint_eq(o.qos.activations, 3);
        ck_assert_uint_eq(o.qos.misses, 0);
        ck_assert_double_eq(o.qos.min_slack_us, 500.0);
        ck_assert_double_eq(o.qos.mean_slack_us, 700.0);
        ck_assert_uint_eq(o.steps, 30);
}
END_TEST

START_TEST(timer_unique_and_shared)
{
        struct outcome o;

        /* Two instances on one shared timer: the second use of the grid
         * expires one period later. With "unique" each has its own. */
        run_text("{\"tasks\": {\"t\": {\"instance\": 2, \"loop\": 1, \"run\": 100,"
                 " \"timer\": {\"ref\": \"tick\", \"period\": 1000}}}}", BIG, &o);
        ck_assert_uint_eq(o.qos.activations, 2);
        ck_assert_double_eq(o.qos.min_slack_us, 900.0);
        ck_assert_double_eq(o.qos.mean_slack_us, 1400.0);
        ck_assert_uint_eq(o.steps, 20);
        run_text("{\"tasks\": {\"t\": {\"instance\": 2, \"loop\": 1, \"run\": 100,"
                 " \"timer\": {\"ref\": \"unique\", \"period\": 1000}}}}", BIG, &o);
        ck_assert_uint_eq(o.qos.activations, 2);
        ck_assert_double_eq(o.qos.mean_slack_us, 900.0);
        ck_assert_uint_eq(o.steps, 10);
}
END_TEST

START_TEST(timer_starts_after_delay)
{
        struct outcome o;

        /* The grid starts at the thread's start (delay 300): expiry 1300. */
        run_text("{\"tasks\": {\"t\": {\"delay\": 300, \"loop\": 1, \"run\": 100,"
                 " \"timer\": {\"ref\": \"unique\", \"period\": 1000}}}}", BIG, &o);
        ck_assert_double_eq(o.qos.min_slack_us, 900.0);
        ck_assert_uint_eq(o.steps, 13);
}
END_TEST

START_TEST(loops_and_phases)
{
        struct outcome o;

        /* Per pass: 3 x run 100, then 2 x (run 200, sleep 1000) = 2700 µs;
         * two passes end at 5400 with 1400 reference-µs of work. */
        run_text("{\"tasks\": {\"t\": {\"loop\": 2, \"phases\": {"
                 "\"a\": {\"loop\": 3, \"run\": 100},"
                 "\"b\": {\"loop\": 2, \"run\": 200, \"sleep\": 1000}}}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 54);
        ck_assert_double_eq(o.total, 1400.0);
        ck_assert_double_eq(o.step_work[3], 100.0);
        ck_assert_double_eq(o.step_work[5], 0.0);
        ck_assert_double_eq(o.step_work[15], 100.0);

        /* A task with "loop" 0 does nothing. */
        run_text("{\"tasks\": {\"t\": {\"loop\": 0, \"run\": 100}, \"u\": {\"loop\": 1, \"run\": "
                 "100}}}", BIG, &o);
        ck_assert_double_eq(o.lane_work[0], 0.0);
        ck_assert_double_eq(o.lane_work[1], 100.0);
}
END_TEST

START_TEST(instances_share_cpus)
{
        struct sim_workload *w = parse_text("{\"tasks\": {\"a\": {\"instance\": 3, \"loop\": 1, "
                                            "\"run\": 1000},"
                                            " \"b\": {\"loop\": 1, \"run\": 10}}}", 0);
        unsigned instance = 9;
        struct outcome o;

        ck_assert_uint_eq(w->nlanes, 4);
        ck_assert_str_eq(rtapp_workload_lane_task(w, 2, &instance), "a");
        ck_assert_uint_eq(instance, 2);
        ck_assert_str_eq(rtapp_workload_lane_task(w, 3, &instance), "b");
        ck_assert_uint_eq(instance, 0);
        ck_assert_ptr_null(rtapp_workload_lane_task(w, 4, NULL));
        /* Lanes 0 and 2 share CPU 0 of the big cluster while lane 1 keeps
         * CPU 1 busy; once its 1000 µs are done, lane 2 moves to the idle
         * CPU: 16 steps of 100 µs (20 had it stayed). */
        drive(w, BIG, 1000, &o);
        ck_assert(o.ended);
        ck_assert_uint_eq(o.steps, 16);
        for (unsigned i = 0; i < 3; i++)
                ck_assert_double_eq(o.lane_work[i], 1000.0);
        workload_free(w);
}
END_TEST

START_TEST(shared_cpu_does_not_starve)
{
        struct outcome o;

        /* "short" (lane 3) shares CPU 1 with "long2" (lane 1): "long" keeps
         * the other CPU busy, so none is idle for it to move to. It resumes
         * "next" when its 100 reference-µs are done. Each running lane is
         * topped up to one step of work, and exec shares a CPU in
         * proportion to pending work: 50/50 in the first step, then the
         * short lane's remainder
         * shrinks as 50 -> 16.7 -> 2.4 -> 0.055 -> 3e-5 -> 9e-12 and is
         * done at the end of step 5: "next" starts in step 6. */
        run_text("{\"tasks\": {\"long\": {\"loop\": 1, \"run\": 3000},"
                 " \"long2\": {\"loop\": 1, \"run\": 3000},"
                 " \"next\": {\"loop\": 1, \"suspend\", \"run\": 100},"
                 " \"short\": {\"loop\": 1, \"run\": 100, \"resume\": \"next\"}}}", BIG, &o);
        ck_assert_uint_eq(o.first_step[2], 6);
        ck_assert_double_eq(o.lane_work[3], 100.0);
        ck_assert_uint_eq(o.steps, 31);
}
END_TEST

START_TEST(delay_start)
{
        struct outcome o;

        run_text("{\"tasks\": {\"t\": {\"delay\": 500, \"loop\": 1, \"run\": 100}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 6);
        ck_assert_double_eq(o.step_work[4], 0.0);
        ck_assert_double_eq(o.step_work[5], 100.0);
}
END_TEST

START_TEST(suspend_resume)
{
        struct outcome o;

        /* b waits from 0 until a resumes it at 300. */
        run_text("{\"tasks\": {\"a\": {\"loop\": 1, \"run\": 300, \"resume\": \"b\"},"
                 " \"b\": {\"loop\": 1, \"suspend\", \"run\": 100}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 4);
        ck_assert_double_eq(o.step_work[2], 100.0);
        ck_assert_double_eq(o.step_work[3], 100.0);
        /* A named suspend, woken by that name. */
        run_text("{\"tasks\": {\"a\": {\"loop\": 1, \"run\": 300, \"resume\": \"gate\"},"
                 " \"b\": {\"loop\": 1, \"suspend\": \"gate\", \"run\": 100},"
                 " \"c\": {\"loop\": 1, \"suspend\": \"gate\", \"run\": 200}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 5);
        ck_assert_double_eq(o.step_work[3], 200.0);
}
END_TEST

START_TEST(resume_before_suspend)
{
        struct outcome o;

        /* a resumes b at 0 while b runs: lost, as rt-app's condition
         * broadcast loses it, so b's suspend at 500 blocks for ever and the
         * workload ends when nobody can make progress. */
        run_text("{\"tasks\": {\"a\": {\"loop\": 1, \"resume\": \"b\", \"run\": 100},"
                 " \"b\": {\"loop\": 1, \"run\": 500, \"suspend\", \"run\": 100}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 5);
        ck_assert_double_eq(o.lane_work[1], 500.0);
        /* The same resume after b has suspended wakes it. */
        run_text("{\"tasks\": {\"a\": {\"loop\": 1, \"run\": 600, \"resume\": \"b\"},"
                 " \"b\": {\"loop\": 1, \"run\": 500, \"suspend\", \"run\": 100}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 7);
        ck_assert_double_eq(o.lane_work[1], 600.0);
}
END_TEST

START_TEST(wait_signal)
{
        struct outcome o;

        /* a waits at 0; b signals at 200. */
        run_text("{\"tasks\": {\"a\": {\"loop\": 1, \"wait\": {\"ref\": \"q\", \"mutex\": \"m\"}, "
                 "\"run\": 100},"
                 " \"b\": {\"loop\": 1, \"run\": 200, \"lock\": \"m\", \"signal\": \"q\", \"unlock\": \"m\","
                 " \"run\": 100}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 3);
        ck_assert_double_eq(o.step_work[1], 100.0);
        ck_assert_double_eq(o.step_work[2], 200.0);
        /* A signal nobody waits for is lost: a then waits for ever. */
        run_text("{\"tasks\": {\"a\": {\"loop\": 1, \"run\": 300, \"wait\": \"q\", \"run\": 100},"
                 " \"b\": {\"loop\": 1, \"signal\": \"q\", \"run\": 100}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 3);
        ck_assert_double_eq(o.total, 400.0);
        /* signal wakes one waiter (the longest), broad all of them. */
        run_text("{\"tasks\": {\"w\": {\"instance\": 2, \"loop\": 1, \"wait\": \"q\", \"run\": 100},"
                 " \"s\": {\"loop\": 1, \"run\": 100, \"signal\": \"q\"}}}", BIG, &o);
        ck_assert_double_eq(o.lane_work[0], 100.0);
        ck_assert_double_eq(o.lane_work[1], 0.0);
        run_text("{\"tasks\": {\"w\": {\"instance\": 2, \"loop\": 1, \"wait\": \"q\", \"run\": 100},"
                 " \"s\": {\"loop\": 1, \"run\": 100, \"broad\": \"q\"}}}", BIG, &o);
        ck_assert_double_eq(o.lane_work[0], 100.0);
        ck_assert_double_eq(o.lane_work[1], 100.0);
        ck_assert_uint_eq(o.steps, 2);
}
END_TEST

START_TEST(sync_ping_pong)
{
        struct outcome o;

        /* a: run 100, sync (wakes b, waits); b: wait, run 200, signal.
         * a resumes at 300 and runs 100 more. */
        run_text("{\"tasks\": {\"a\": {\"loop\": 1, \"run\": 100, \"sync\": {\"ref\": \"q\", \"mutex\": "
                 "\"m\"},"
                 " \"run2\": 100}, \"b\": {\"loop\": 1, \"wait\": \"q\", \"run\": 200, \"signal\": "
                 "\"q\"}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 4);
        ck_assert_double_eq(o.step_work[0], 100.0);
        ck_assert_double_eq(o.step_work[2], 100.0);
        ck_assert_double_eq(o.step_work[3], 100.0);
}
END_TEST

START_TEST(barrier_release)
{
        struct outcome o;

        /* a reaches the barrier at 3000, b at 2000: both go on at 3000. */
        run_text("{\"tasks\": {\"a\": {\"loop\": 1, \"runtime\": 1000, \"sleep\": 2000, \"barrier\": \"F\","
                 " \"run\": 100}, \"b\": {\"loop\": 1, \"run\": 2000, \"barrier\": \"F\", \"run\": "
                 "100}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 31);
        ck_assert_double_eq(o.step_work[30], 200.0);
        ck_assert_double_eq(o.step_work[25], 0.0);
}
END_TEST

START_TEST(fork_child)
{
        struct sim_workload *w = parse_text("{\"tasks\": {\"child\": {\"instance\": 0, \"loop\": 1, "
                                            "\"run\": 300},"
                                            " \"parent\": {\"loop\": 1, \"run\": 100, \"fork\": \"child\","
                                            " \"run2\": 100}}}", 0);
        struct outcome o;

        ck_assert_uint_eq(w->nlanes, 2);
        ck_assert_str_eq(rtapp_workload_lane_task(w, 0, NULL), "parent");
        ck_assert_str_eq(rtapp_workload_lane_task(w, 1, NULL), "child");
        drive(w, BIG, 1000, &o);
        ck_assert_uint_eq(o.steps, 4);
        ck_assert_double_eq(o.step_work[0], 100.0);
        ck_assert_double_eq(o.step_work[1], 200.0);
        ck_assert_double_eq(o.step_work[3], 100.0);
        ck_assert_double_eq(o.lane_work[1], 300.0);
        workload_free(w);
}
END_TEST

START_TEST(duration_cut_off)
{
        struct sim_workload *w;
        struct outcome o;

        /* Loops forever: cut at 1 ms, 5 runs of 100 done. */
        run_text("{\"global\": {\"duration\": 0.001}, \"tasks\": {\"t\": {\"run\": 100, \"sleep\": "
                 "100}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 10);
        ck_assert_double_eq(o.total, 500.0);
        /* A duration outlasts tasks that end early (rt-app waits it out). */
        run_text("{\"global\": {\"duration\": 0.002}, \"tasks\": {\"t\": {\"loop\": 1, \"run\": "
                 "100}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 20);
        /* No duration and an endless loop: the caller's default. */
        w = parse_text("{\"tasks\": {\"t\": {\"run\": 100, \"sleep\": 100}}}", 3000);
        ck_assert_uint_eq(rtapp_workload_end_us(w), 3000);
        drive(w, BIG, 100000, &o);
        ck_assert_uint_eq(o.steps, 30);
        workload_free(w);
        w = parse_text("{\"global\": {\"duration\": -1}, \"tasks\": {\"t\": {\"run\": 100}}}", 0);
        ck_assert_uint_eq(rtapp_workload_end_us(w), RTAPP_DEFAULT_DURATION_US);
        workload_free(w);
        w = parse_text("{\"tasks\": {\"t\": {\"loop\": 5, \"run\": 100}}}", 0);
        ck_assert_uint_eq(rtapp_workload_end_us(w), RTAPP_MAX_UNTIMED_US);
        workload_free(w);
        ck_assert_uint_eq(rtapp_workload_end_us(NULL), 0);
}
END_TEST

START_TEST(zero_time_loop_is_bounded)
{
        struct outcome o;

        /* Only zero-time events, for ever: each step lets 1000 through. */
        run_text("{\"global\": {\"duration\": 0.001}, \"tasks\": {\"t\": {\"yield\", \"lock\": \"m\","
                 " \"unlock\": \"m\", \"mem\": 10, \"iorun\": 10, \"sleep\": 0, \"run\": 0}}}", BIG, &o);
        ck_assert_uint_eq(o.steps, 10);
        ck_assert_double_eq(o.total, 0.0);
}
END_TEST

START_TEST(reference_capacity)
{
        struct sim_workload *w = parse_text("{\"tasks\": {\"t\": {\"loop\": 1, \"run\": 1000}}}", 0);
        struct outcome o;

        /* With reference 512 the big CPU (1024) runs twice as fast. */
        rtapp_workload_set_reference_capacity(w, 512);
        drive(w, BIG, 1000, &o);
        ck_assert_double_eq(o.step_work[0], 200.0);
        workload_free(w);
}
END_TEST

static struct sim_workload *load_shipped(const char *file, bl_usec_t step_us)
{
        char path[512];
        struct sim_workload *w = NULL;
        int r;

        snprintf(path, sizeof(path), "%s/%s", RTAPP_DIR, file);
        r = rtapp_workload_load(&w, path, step_us, 0, &diag);
        if (r < 0)
                ck_abort_msg("%s: %d: %s", file, r, diag.n ? diag.msg[0] : "");
        return w;
}

START_TEST(shipped_file_runs)
{
        const char *file = shipped[_i];
        /* The 600 s files at 5 ms steps keep the test short. */
        bl_usec_t step_us = strstr(file, "-long") ? 5000 : 100;
        struct sim_workload *w = load_shipped(file, step_us);
        size_t limit = (size_t)(rtapp_workload_end_us(w) / step_us) + 2;
        struct outcome o;

        ck_assert_uint_gt(w->nlanes, 0);
        ck_assert_uint_eq(w->step_us, step_us);
        for (unsigned cluster = 0; cluster < 2; cluster++) {
                drive(w, cluster, limit, &o);
                ck_assert_msg(o.ended, "%s did not end", file);
                ck_assert_msg(o.total > 0, "%s: no work", file);
                ck_assert_uint_le(o.steps, limit);
                w->reset(w);
        }
        workload_free(w);
}
END_TEST

START_TEST(shipped_semantics)
{
        struct sim_workload *w;
        struct outcome o;

        /* mp3: the 6 ms tick for 6 s, never late on big. */
        w = load_shipped("mp3-short.json", 100);
        ck_assert_str_eq(w->name, "mp3-short");
        ck_assert_uint_eq(w->nlanes, 5);
        ck_assert_uint_eq(rtapp_workload_end_us(w), 6000000);
        drive(w, BIG, 100000, &o);
        ck_assert_uint_eq(o.steps, 60000);
        ck_assert_uint_eq(o.qos.activations, 1000);
        ck_assert_uint_eq(o.qos.misses, 0);
        ck_assert_double_eq(o.qos.min_slack_us, 6000.0);
        workload_free(w);

        /* video: hwc_eventmon reaches its 16667 µs timer after a 115 µs
         * run, at k x 16667 + ~200 for k = 0..359; waker reaches its
         * 33333 µs timer at k x 33333 for k = 0..180 (180 x 33333 =
         * 5999940 < 6 s). */
        w = load_shipped("video-short.json", 100);
        ck_assert_uint_eq(w->nlanes, 17);
        drive(w, BIG, 100000, &o);
        ck_assert_uint_eq(o.qos.activations, 360 + 181);
        ck_assert_uint_eq(o.qos.misses, 0);
        workload_free(w);

        /* dvfs: 10 x (timer 1.2 s, run 0.9 s), no duration: ends with the
         * task, after the last run. */
        w = load_shipped("dvfs.json", 1000);
        ck_assert_uint_eq(rtapp_workload_end_us(w), RTAPP_MAX_UNTIMED_US);
        drive(w, BIG, 100000, &o);
        ck_assert(o.ended);
        ck_assert_double_eq(o.total, 9000000.0);
        ck_assert_uint_eq(o.qos.activations, 10);
        workload_free(w);

        /* example9: thread3 forks thread1 and thread2 into two fork lanes. */
        w = load_shipped("tutorial/example9.json", 100);
        ck_assert_uint_eq(w->nlanes, 4);
        ck_assert_str_eq(rtapp_workload_lane_task(w, 2, NULL), "thread1");
        ck_assert_str_eq(rtapp_workload_lane_task(w, 3, NULL), "thread2");
        drive(w, BIG, 100000, &o);
        ck_assert_double_gt(o.lane_work[3], 0.0);
        workload_free(w);

        /* example3: 12 instances of 10 light then 10 heavy periods. */
        w = load_shipped("tutorial/example3.json", 100);
        ck_assert_uint_eq(w->nlanes, 12);
        drive(w, BIG, 100000, &o);
        ck_assert(o.ended);
        ck_assert_uint_eq(o.qos.activations, 12 * 20);
        ck_assert_double_eq_tol(o.total, 12 * (10 * 3000.0 + 10 * 27000.0), 1e-3);
        workload_free(w);
}
END_TEST

START_TEST(determinism)
{
        struct sim_workload *w = load_shipped(shipped[_i], 100);
        size_t limit = 20000;
        struct outcome *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));

        ck_assert_ptr_nonnull(a);
        ck_assert_ptr_nonnull(b);
        drive(w, LITTLE, limit, a);
        ck_assert_int_eq(w->reset(w), 0);
        drive(w, LITTLE, limit, b);
        ck_assert_uint_eq(a->steps, b->steps);
        ck_assert(a->digest == b->digest);
        ck_assert(memcmp(&a->qos, &b->qos, sizeof(a->qos)) == 0);
        ck_assert(memcmp(a->step_work, b->step_work, sizeof(a->step_work)) == 0);
        free(a);
        free(b);
        workload_free(w);
}
END_TEST

static uint64_t prng_next(uint64_t *s)
{
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        return *s;
}

/* One mutation of 'src' into 'dst' (room for 2 x len + 16). */
static size_t mutate(const char *src, size_t len, char *dst, uint64_t *seed)
{
        static const char inserts[] = "{}[],:\"\\/*-0e.";
        size_t pos = len ? prng_next(seed) % len : 0;
        size_t span = len ? prng_next(seed) % (len - pos + 1) : 0;

        if (span > 64)
                span = prng_next(seed) % 64;
        switch (prng_next(seed) % 6) {
        case 0: /* byte flip */
                memcpy(dst, src, len);
                if (len)
                        dst[pos] = (char)(prng_next(seed) & 0xff);
                return len;
        case 1: /* truncation */
                memcpy(dst, src, pos);
                return pos;
        case 2: /* a structural character inserted */
                memcpy(dst, src, pos);
                dst[pos] = inserts[prng_next(seed) % (sizeof(inserts) - 1)];
                memcpy(dst + pos + 1, src + pos, len - pos);
                return len + 1;
        case 3: /* a span deleted */
                memcpy(dst, src, pos);
                memcpy(dst + pos, src + pos + span, len - pos - span);
                return len - span;
        case 4: /* a span duplicated */
                memcpy(dst, src, pos + span);
                memcpy(dst + pos + span, src + pos, span);
                memcpy(dst + pos + 2 * span, src + pos + span, len - pos - span);
                return len + span;
        default: /* a digit run turned into a large or negative number */
                memcpy(dst, src, len);
                for (size_t i = pos; i < len && i < pos + 8; i++)
                        if (dst[i] >= '0' && dst[i] <= '9')
                                dst[i] = (prng_next(seed) & 1) ? '9' : '-';
                return len;
        }
}

START_TEST(mutants)
{
        char path[512];
        _cleanup_free_ char *text = NULL;
        _cleanup_free_ char *buf = NULL;
        size_t len = 0, accepted = 0, rejected = 0;
        uint64_t seed = 0x9e3779b97f4a7c15ULL ^ (uint64_t)(_i + 1);

        snprintf(path, sizeof(path), "%s/%s", RTAPP_DIR, shipped[_i]);
        ck_assert_int_eq(read_file(path, &text, &len), 0);
        buf = malloc(4 * len + 64);
        ck_assert_ptr_nonnull(buf);
        for (int n = 0; n < 2000; n++) {
                struct sim_workload *w = NULL;
                size_t mlen = mutate(text, len, buf, &seed);
                int r;

                /* A second mutation on every other mutant. */
                if (n & 1) {
                        char *tmp = malloc(2 * mlen + 64);

                        ck_assert_ptr_nonnull(tmp);
                        memcpy(tmp, buf, mlen);
                        mlen = mutate(tmp, mlen, buf, &seed);
                        free(tmp);
                }
                diag_init(&diag);
                r = rtapp_workload_parse(&w, "mutant.json", buf, mlen, 1000, 20000, &diag);
                if (r == 0) {
                        struct outcome o;

                        ck_assert_uint_eq(diag_count(&diag), 0);
                        drive(w, n & 2 ? BIG : LITTLE, 50, &o);
                        workload_free(w);
                        accepted++;
                } else {
                        ck_assert_int_eq(r, -EINVAL);
                        ck_assert_ptr_null(w);
                        ck_assert_uint_ge(diag_count(&diag), 1);
                        ck_assert(strncmp(diag.msg[0], "mutant.json:", 12) == 0);
                        rejected++;
                }
        }
        /* Both outcomes must occur, or the mutator is not testing much. */
        ck_assert_uint_gt(accepted, 20);
        ck_assert_uint_gt(rejected, 200);
}
END_TEST

static unsigned approximations_of(const char *text, const char **out, unsigned max)
{
        struct sim_workload *w = parse_text(text, 0);
        unsigned n;

        n = rtapp_workload_approximations(w, out, max);
        workload_free(w);
        return n;
}

START_TEST(approximations_name_what_the_file_uses)
{
        const char *a[RTAPP_MAX_APPROXIMATIONS];

        /* run and sleep are exact: only the rules that always apply. */
        ck_assert_uint_eq(approximations_of("{\"tasks\": {\"a\": {\"loop\": 1, \"run\": 100, \"sleep\": 50}}}", a,
                                            RTAPP_MAX_APPROXIMATIONS),
                          2);
        ck_assert_ptr_nonnull(strstr(a[0], "scheduling properties"));
        ck_assert_ptr_nonnull(strstr(a[1], "wake-up latency"));
        ck_assert_uint_eq(approximations_of("{\"tasks\": {\"a\": {\"loop\": 1, \"lock\": \"m\", \"runtime\": 100,"
                                            " \"unlock\": \"m\", \"mem\": 10}}}",
                                            a, RTAPP_MAX_APPROXIMATIONS),
                          5);
        ck_assert_ptr_nonnull(strstr(a[2], "runtime"));
        ck_assert_ptr_nonnull(strstr(a[3], "lock and unlock"));
        ck_assert_ptr_nonnull(strstr(a[4], "no-ops"));
        /* A short buffer takes the first ones. */
        ck_assert_uint_eq(approximations_of("{\"tasks\": {\"a\": {\"loop\": 1, \"mem\": 10}}}", a, 1), 1);
}
END_TEST

static Suite *rtapp_suite(void)
{
        Suite *s = suite_create("rtapp");
        TCase *tc;

        tc = tcase_create("reader");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, reader_dialect);
        tcase_add_test(tc, reader_values);
        tcase_add_loop_test(tc, reader_error, 0, sizeof(reader_errors) / sizeof(reader_errors[0]));
        tcase_add_test(tc, reader_nul_byte);
        tcase_add_test(tc, reader_limits);
        suite_add_tcase(s, tc);

        tc = tcase_create("model-errors");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_loop_test(tc, model_error, 0, sizeof(model_errors) / sizeof(model_errors[0]));
        tcase_add_test(tc, model_errors_all_reported);
        tcase_add_test(tc, load_missing_file);
        suite_add_tcase(s, tc);

        tc = tcase_create("semantics");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, run_scales_with_capacity);
        tcase_add_test(tc, runtime_is_wall_time);
        tcase_add_test(tc, run_starts_inside_a_step);
        tcase_add_test(tc, timer_relative_overrun);
        tcase_add_test(tc, timer_absolute_overrun_cascades);
        tcase_add_test(tc, timer_no_overrun);
        tcase_add_test(tc, timer_unique_and_shared);
        tcase_add_test(tc, timer_starts_after_delay);
        tcase_add_test(tc, loops_and_phases);
        tcase_add_test(tc, instances_share_cpus);
        tcase_add_test(tc, shared_cpu_does_not_starve);
        tcase_add_test(tc, delay_start);
        tcase_add_test(tc, suspend_resume);
        tcase_add_test(tc, resume_before_suspend);
        tcase_add_test(tc, approximations_name_what_the_file_uses);
        tcase_add_test(tc, wait_signal);
        tcase_add_test(tc, sync_ping_pong);
        tcase_add_test(tc, barrier_release);
        tcase_add_test(tc, fork_child);
        tcase_add_test(tc, duration_cut_off);
        tcase_add_test(tc, zero_time_loop_is_bounded);
        tcase_add_test(tc, reference_capacity);
        suite_add_tcase(s, tc);

        tc = tcase_create("shipped");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_set_timeout(tc, 300);
        tcase_add_loop_test(tc, shipped_file_runs, 0, NSHIPPED);
        tcase_add_test(tc, shipped_semantics);
        tcase_add_loop_test(tc, determinism, 0, NSHIPPED);
        tcase_add_loop_test(tc, mutants, 0, NSHIPPED);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(rtapp_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
