/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The workload families (sim/generate.h) and blsim generate: a seed gives the
 * same bytes, seeds differ, every trace reads back through the trace reader
 * as it was made, draws stay within the ranges the families list, the loads
 * have the periods they claim (measured on the trace, not taken from the
 * generator), and bad arguments are refused naming the argument. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <unistd.h>

#include "common/fileio.h"
#include "sim/generate.h"
#include "sim/verb-generate.h"

struct made {
        struct sim_trace t;
        struct sim_gen_drawn drawn;
        char *text;
        size_t len;
};

static void make(struct made *m, const struct sim_gen_family *f, uint64_t seed, bl_usec_t duration_us)
{
        ck_assert_int_eq(sim_generate(&m->t, &m->drawn, f, seed, duration_us), 0);
        ck_assert_int_eq(sim_generate_format(&m->t, &m->drawn, f, seed, &m->text, &m->len), 0);
        ck_assert_uint_eq(strlen(m->text), m->len);
}

static void unmake(struct made *m)
{
        trace_free(&m->t);
        free(m->text);
}

static const struct sim_gen_family *family(const char *name)
{
        const struct sim_gen_family *f = sim_gen_family_find(name);

        ck_assert_msg(f != NULL, "no family %s", name);
        return f;
}

static float at(const struct sim_trace *t, size_t step, unsigned lane)
{
        return t->work[step * t->nlanes + lane];
}

/* Steps where 'lane' starts working after a step without work: the starts of
 * periodic jobs. Returns how many, and the first and last. */
static size_t onsets(const struct sim_trace *t, unsigned lane, size_t *first, size_t *last)
{
        size_t n = 0;

        for (size_t s = 0; s < t->nsteps; s++)
                if (at(t, s, lane) > 0 && (s == 0 || at(t, s - 1, lane) == 0)) {
                        if (n++ == 0)
                                *first = s;
                        *last = s;
                }
        return n;
}

/* The mean time between onsets, in ms (steps). */
static double mean_period(const struct sim_trace *t, unsigned lane)
{
        size_t first = 0, last = 0, n = onsets(t, lane, &first, &last);

        ck_assert_uint_ge(n, 10);
        return (double)(last - first) / (double)(n - 1);
}

static uint64_t fnv1a(const char *s, size_t len)
{
        uint64_t h = 0xcbf29ce484222325ULL;

        for (size_t i = 0; i < len; i++)
                h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
        return h;
}

START_TEST(test_same_seed_same_bytes)
{
        for (const struct sim_gen_family *const *f = sim_gen_families; *f; f++) {
                struct made a, b;

                make(&a, *f, 1001, 0);
                make(&b, *f, 1001, 0);
                ck_assert_uint_eq(a.len, b.len);
                ck_assert_msg(memcmp(a.text, b.text, a.len) == 0, "%s: seed 1001 gave two traces", (*f)->name);
                unmake(&a);
                unmake(&b);
        }
}
END_TEST

/* The seed sets of tests/workloads/families/README.md must name the same
 * traces on every machine: these bytes were the same with gcc on amd64 and
 * arm64 and with clang. A change to a family changes them: update the pins
 * and say in the commit that the seed sets now name other traces. */
START_TEST(test_pinned_bytes)
{
        static const struct {
                const char *family;
                uint64_t seed, fnv;
        } pins[] = {
                { "game-60fps", 1, 0x7793e7509b4c2498ULL },
                { "mixed", 1001, 0x6a8a3d6392998719ULL },
                { "sensor-batch", 2001, 0xd192b4dbfdfd2bafULL },
        };

        for (size_t i = 0; i < sizeof(pins) / sizeof(pins[0]); i++) {
                struct made m;

                make(&m, family(pins[i].family), pins[i].seed, 0);
                ck_assert_msg(fnv1a(m.text, m.len) == pins[i].fnv, "%s seed %llu: FNV-1a %016llx", pins[i].family,
                              (unsigned long long)pins[i].seed, (unsigned long long)fnv1a(m.text, m.len));
                unmake(&m);
        }
}
END_TEST

START_TEST(test_seeds_and_families_differ)
{
        for (const struct sim_gen_family *const *f = sim_gen_families; *f; f++) {
                struct made a, b;

                make(&a, *f, 1, 0);
                make(&b, *f, 2, 0);
                ck_assert_uint_eq(a.t.nsteps, b.t.nsteps);
                ck_assert_msg(memcmp(a.t.work, b.t.work, a.t.nsteps * a.t.nlanes * sizeof(float)) != 0,
                              "%s: seeds 1 and 2 gave the same work", (*f)->name);
                unmake(&a);
                unmake(&b);
        }
        /* Same seed, same shape: the family's name goes into the PRNG. */
        {
                struct made a, b;

                make(&a, family("game-30fps"), 5, 0);
                make(&b, family("game-60fps"), 5, 0);
                ck_assert(a.drawn.value[1] != b.drawn.value[1]);
                unmake(&a);
                unmake(&b);
        }
}
END_TEST

/* Every family's trace, written and read back by the simulator's reader: no
 * problem, and the very work that was made. */
START_TEST(test_round_trip_through_trace_reader)
{
        for (const struct sim_gen_family *const *f = sim_gen_families; *f; f++)
                for (uint64_t seed = 1; seed <= 3; seed++) {
                        struct made m;
                        struct sim_trace back;
                        struct bl_diag diag;

                        make(&m, *f, seed, 0);
                        diag_init(&diag);
                        ck_assert_int_eq(trace_parse(&back, "gen.csv", m.text, m.len, &diag), 0);
                        ck_assert_uint_eq(back.step_us, SIM_GEN_STEP_US);
                        ck_assert_uint_eq(back.nlanes, (*f)->nlanes);
                        ck_assert_uint_eq(back.nsteps, (*f)->duration_us / SIM_GEN_STEP_US);
                        ck_assert_msg(memcmp(back.work, m.t.work, back.nsteps * back.nlanes * sizeof(float)) == 0,
                                      "%s seed %llu: read back other work", (*f)->name, (unsigned long long)seed);
                        trace_free(&back);
                        unmake(&m);
                }
}
END_TEST

START_TEST(test_draws_and_work_within_ranges)
{
        unsigned nfamilies = 0;

        for (const struct sim_gen_family *const *f = sim_gen_families; *f; f++) {
                double total = 0;

                for (uint64_t seed = 1; seed <= 16; seed++) {
                        struct made m;

                        make(&m, *f, seed, 0);
                        ck_assert_uint_eq(m.drawn.n, (*f)->nparams);
                        for (unsigned i = 0; i < m.drawn.n; i++) {
                                const struct sim_gen_param *p = &(*f)->params[i];
                                double v = m.drawn.value[i];
                                bool listed = p->nchoices == 0;

                                ck_assert_msg(v >= p->lo && v <= p->hi, "%s seed %llu: %s = %g", (*f)->name,
                                              (unsigned long long)seed, p->name, v);
                                if (p->integer)
                                        ck_assert(v == floor(v));
                                for (unsigned k = 0; k < p->nchoices; k++)
                                        listed |= v == p->choices[k];
                                ck_assert_msg(listed, "%s: %s = %g is not one listed", (*f)->name, p->name, v);
                        }
                        for (size_t i = 0; i < m.t.nsteps * m.t.nlanes; i++) {
                                float w = m.t.work[i];

                                ck_assert(w >= 0 && w <= (float)SIM_GEN_STEP_US && w == floorf(w));
                                total += w;
                        }
                        unmake(&m);
                }
                ck_assert_msg(total > 0, "%s: no work in 16 traces", (*f)->name);
                nfamilies++;
        }
        /* Issue 16: at least 200 traces from one set of 16 seeds. */
        ck_assert_uint_ge(nfamilies * 16, 200);
}
END_TEST

/* Game loops: the compositor wakes once a frame, so its onsets give the
 * frame period; the main thread spends most of its steps near LITTLE's top
 * (300-365 per ms), the rest being the ends of frames and heavy bursts. */
START_TEST(test_game_frame_period_and_main_thread)
{
        static const char *const games[] = { "game-30fps", "game-60fps", "game-90fps", "game-120fps" };
        static const double fps[] = { 30, 60, 90, 120 };

        for (unsigned i = 0; i < 4; i++)
                for (uint64_t seed = 1; seed <= 8; seed++) {
                        struct made m;
                        size_t busy = 0, near_top = 0;

                        make(&m, family(games[i]), seed, 0);
                        ck_assert_double_eq_tol(mean_period(&m.t, 3), 1000.0 / fps[i], 0.2);
                        for (size_t s = 0; s < m.t.nsteps; s++) {
                                float w = at(&m.t, s, 0);

                                busy += w > 0;
                                near_top += w >= 300 && w <= 366;
                        }
                        ck_assert_msg(near_top * 2 >= busy, "%s seed %llu: %zu of %zu steps near the top",
                                      games[i], (unsigned long long)seed, near_top, busy);
                        unmake(&m);
                }
}
END_TEST

/* Video: the renderer runs once a frame, at the frame rate drawn. */
START_TEST(test_video_frame_period)
{
        for (uint64_t seed = 1; seed <= 8; seed++) {
                struct made m;

                make(&m, family("video"), seed, 0);
                ck_assert_double_eq_tol(mean_period(&m.t, 3), 1000.0 / m.drawn.value[0], 0.2);
                unmake(&m);
        }
}
END_TEST

/* Sensor batches: one every period_ms, the jitter averaging out. */
START_TEST(test_sensor_batch_period)
{
        for (uint64_t seed = 1; seed <= 8; seed++) {
                struct made m;

                make(&m, family("sensor-batch"), seed, 0);
                ck_assert_double_eq_tol(mean_period(&m.t, 0), m.drawn.value[0], 1.0);
                unmake(&m);
        }
}
END_TEST

/* Audio: a mixer tick every mixer_ms. Camera: the renderer once a preview
 * frame, after the ISP's work. */
START_TEST(test_audio_and_camera_periods)
{
        for (uint64_t seed = 1; seed <= 8; seed++) {
                struct made m;

                make(&m, family("audio"), seed, 0);
                ck_assert_double_eq_tol(mean_period(&m.t, 0), m.drawn.value[0], 0.2);
                unmake(&m);
                make(&m, family("camera"), seed, 0);
                ck_assert_double_eq_tol(mean_period(&m.t, 1), 1000.0 / m.drawn.value[0], 0.5);
                unmake(&m);
        }
}
END_TEST

START_TEST(test_duration)
{
        const struct sim_gen_family *f = family("mixed");
        struct sim_trace t;

        ck_assert_int_eq(sim_generate(&t, NULL, f, 1, 2500 * BL_USEC_PER_MSEC), 0);
        ck_assert_uint_eq(t.nsteps, 2500);
        trace_free(&t);
        ck_assert_int_eq(sim_generate(&t, NULL, f, 1, 0), 0);
        ck_assert_uint_eq(t.nsteps, f->duration_us / SIM_GEN_STEP_US);
        trace_free(&t);
        ck_assert_int_eq(sim_generate(&t, NULL, f, 1, SIM_GEN_STEP_US - 1), -EINVAL);
        ck_assert_int_eq(sim_generate(&t, NULL, f, 1, SIM_GEN_MAX_DURATION_US + 1), -EINVAL);
}
END_TEST

/* Runs blsim generate with 'argv' (NULL-terminated); returns its status and
 * what it said on stderr in 'err'. */
static int run_verb(char *err, size_t size, const char *const *argv)
{
        char *args[16];
        int argc = 0, saved, status;
        FILE *f = tmpfile();
        size_t n;

        ck_assert_ptr_nonnull(f);
        while (argv[argc]) {
                ck_assert_int_lt(argc, 15);
                args[argc] = (char *)argv[argc];
                argc++;
        }
        args[argc] = NULL;
        fflush(stderr);
        saved = dup(STDERR_FILENO);
        ck_assert_int_ge(saved, 0);
        ck_assert_int_ge(dup2(fileno(f), STDERR_FILENO), 0);
        status = sim_verb_generate(argc, args);
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
        close(saved);
        rewind(f);
        n = fread(err, 1, size - 1, f);
        err[n] = '\0';
        fclose(f);
        return status;
}

START_TEST(test_bad_arguments_named)
{
        static const struct {
                const char *argv[10];
                const char *named;
        } cases[] = {
                { { "generate", NULL }, "FAMILY" },
                { { "generate", "no-such-family", "--seed", "1", NULL }, "\"no-such-family\"" },
                { { "generate", "game-60fps", NULL }, "--seed" },
                { { "generate", "game-60fps", "--seed", "x", NULL }, "--seed" },
                { { "generate", "game-60fps", "--seed", "-1", NULL }, "--seed" },
                { { "generate", "game-60fps", "--seed", "18446744073709551616", NULL }, "--seed" },
                { { "generate", "game-60fps", "--seed", "1", "--duration", "0", NULL }, "--duration" },
                { { "generate", "game-60fps", "--seed", "1", "--duration", "nan", NULL }, "--duration" },
                { { "generate", "game-60fps", "--seed", "1", "--duration", "3601", NULL }, "--duration" },
                { { "generate", "game-60fps", "--seed", "1", "spare", NULL }, "\"spare\"" },
                { { "generate", "game-60fps", "--seed", "1", "--out-dir", "d", NULL }, "--out-dir" },
                { { "generate", "--all", "--seeds", "5-1", "--out-dir", "d", NULL }, "--seeds" },
                { { "generate", "--all", "--seeds", "1-", "--out-dir", "d", NULL }, "--seeds" },
                { { "generate", "--all", "--out-dir", "d", NULL }, "--seeds" },
                { { "generate", "--all", "--seeds", "1-2", NULL }, "--out-dir" },
                { { "generate", "--all", "--seeds", "1-2", "--out-dir", "d", "--seed", "3", NULL }, "--seed" },
                { { "generate", "--list", "game-60fps", NULL }, "--list" },
        };
        char err[4096];

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                int status = run_verb(err, sizeof(err), cases[i].argv);

                ck_assert_msg(status == EX_USAGE, "case %zu: status %d", i, status);
                ck_assert_msg(strstr(err, cases[i].named) != NULL, "case %zu: \"%s\" does not name %s", i, err,
                              cases[i].named);
        }
        /* Nothing was written for the refused --all. */
        ck_assert_int_eq(access("d", F_OK), -1);
}
END_TEST

static int csv_filter(const struct dirent *d)
{
        size_t n = strlen(d->d_name);

        return n > 4 && strcmp(d->d_name + n - 4, ".csv") == 0;
}

/* --all writes one file per family and seed, the same bytes as one family's
 * --out, and each loads. */
START_TEST(test_cli_writes_what_it_generates)
{
        char dir[] = "/tmp/check_generate.XXXXXX", sub[PATH_MAX], one[PATH_MAX], path[PATH_MAX], err[4096];
        struct dirent **names = NULL;
        unsigned nfamilies = 0;
        int n;

        ck_assert_ptr_nonnull(mkdtemp(dir));
        snprintf(sub, sizeof(sub), "%s/all", dir);
        snprintf(one, sizeof(one), "%s/one.csv", dir);
        {
                const char *argv[] = { "generate", "--all", "--seeds", "7-8", "--out-dir", sub, "--duration", "1.5",
                                       NULL };

                ck_assert_int_eq(run_verb(err, sizeof(err), argv), EXIT_SUCCESS);
        }
        for (const struct sim_gen_family *const *f = sim_gen_families; *f; f++)
                nfamilies++;
        n = scandir(sub, &names, csv_filter, alphasort);
        ck_assert_int_eq(n, (int)nfamilies * 2);
        for (int i = 0; i < n; i++) {
                struct sim_trace t;
                struct bl_diag diag;

                diag_init(&diag);
                ck_assert_int_eq(path_join(path, sizeof(path), sub, names[i]->d_name), 0);
                ck_assert_int_eq(trace_load(&t, path, &diag), 0);
                ck_assert_uint_eq(t.nsteps, 1500);
                trace_free(&t);
                unlink(path);
                free(names[i]);
        }
        free(names);
        {
                const char *argv[] = { "generate", "typing", "--seed", "8", "--duration", "1.5", "--out", one, NULL };
                _cleanup_free_ char *text = NULL;
                size_t len;
                struct made m;

                ck_assert_int_eq(run_verb(err, sizeof(err), argv), EXIT_SUCCESS);
                ck_assert_int_eq(read_file_limit(one, 1 << 24, &text, &len), 0);
                make(&m, family("typing"), 8, 1500 * BL_USEC_PER_MSEC);
                ck_assert_uint_eq(len, m.len);
                ck_assert(memcmp(text, m.text, len) == 0);
                unmake(&m);
        }
        unlink(one);
        ck_assert_int_eq(rmdir(sub), 0);
        ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("generate");
        TCase *tc = tcase_create("generate");
        SRunner *sr;
        int failed;

        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_same_seed_same_bytes);
        tcase_add_test(tc, test_pinned_bytes);
        tcase_add_test(tc, test_seeds_and_families_differ);
        tcase_add_test(tc, test_round_trip_through_trace_reader);
        tcase_add_test(tc, test_draws_and_work_within_ranges);
        tcase_add_test(tc, test_game_frame_period_and_main_thread);
        tcase_add_test(tc, test_video_frame_period);
        tcase_add_test(tc, test_sensor_batch_period);
        tcase_add_test(tc, test_audio_and_camera_periods);
        tcase_add_test(tc, test_duration);
        tcase_add_test(tc, test_bad_arguments_named);
        tcase_add_test(tc, test_cli_writes_what_it_generates);
        suite_add_tcase(s, tc);
        sr = srunner_create(s);
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
