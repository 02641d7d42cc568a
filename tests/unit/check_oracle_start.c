/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the oracle starts: free (its first step on any level at no cost) or
 * on a level, from which the first step pays the switch. All three
 * programmes (the cluster one, the level solver, the one for stalls over
 * several steps) against every sequence on small traces, for both starts;
 * the free start never worse; the reactive oracle's first level; blsim's
 * --oracle-start. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fileio.h"
#include "sim/exec.h"
#include "sim/oracle.h"
#include "sim/reactive.h"

extern char **environ;

/* Two clusters of two CPUs, two OPPs each. */
#define DUO_BOARD                                       \
        "[board]\n"                                     \
        "name = duo\n"                                  \
        "reference_capacity = 1024\n"                   \
        "switch_latency_us = 30\n"                      \
        "switch_energy_uj = 40\n"                       \
        "[cluster.little]\n"                            \
        "cpus = 2\n"                                    \
        "order = 0\n"                                   \
        "off_mw = 1\n"                                  \
        "opp = 500 256 30 8\n"                          \
        "opp = 1000 512 100 10\n"                       \
        "[cluster.big]\n"                               \
        "cpus = 2\n"                                    \
        "order = 1\n"                                   \
        "off_mw = 2\n"                                  \
        "opp = 500 512 150 30\n"                        \
        "opp = 1000 1024 400 40\n"

static void board(struct sim_board *b)
{
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_uint_eq(board_parse(b, "duo.ini", DUO_BOARD, strlen(DUO_BOARD), &diag), 0);
}

static void levels(struct sim_levels *lv, const struct sim_board *b, enum bl_mode mode)
{
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_int_eq(sim_levels_build(lv, b, mode, &diag), 0);
}

static uint64_t next(uint64_t *state)
{
        *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
        return *state >> 33;
}

/* Idle and heavy phases (heavy: more than LITTLE does in a step); half the
 * traces start heavy, where a free start goes straight to big. */
static void random_trace(struct sim_trace *t, unsigned nlanes, size_t nsteps, unsigned max_work,
                         uint64_t *state)
{
        bool heavy = next(state) % 2 == 0;

        *t = (struct sim_trace){ .step_us = 1000, .nlanes = nlanes, .nsteps = nsteps };
        t->work = malloc(nsteps * nlanes * sizeof(float));
        ck_assert_ptr_nonnull(t->work);
        for (size_t s = 0; s < nsteps; s++) {
                if (s > 0 && next(state) % 4 == 0)
                        heavy = !heavy;
                for (unsigned i = 0; i < nlanes; i++) {
                        const unsigned half = max_work / 2;

                        t->work[s * nlanes + i] = heavy ? (float)(half + next(state) % half) : 0.0f;
                }
        }
}

struct best {
        double dropped, energy_nj;
        unsigned first;
        bool found;
};

/* Every sequence that does not switch while a stall runs, coming from
 * 'start' (SIM_LEVEL_NONE: from nowhere, so the first step switches from
 * nothing), each step from no backlog with the stall carried, by (dropped,
 * energy). The execution rules are the judge, not the programmes. */
static struct best brute_force(const struct sim_board *b, const struct sim_levels *lv,
                               const struct sim_trace *t, unsigned start)
{
        struct best best = { 0 };
        unsigned long total = 1;
        double backlog[8], work[8];

        for (size_t s = 0; s < t->nsteps; s++)
                total *= lv->nlevels;
        for (unsigned long code = 0; code < total; code++) {
                struct best cur = { .found = true, .first = (unsigned)(code % lv->nlevels) };
                struct sim_stall stall = { 0, 0 };
                unsigned long rest = code;
                unsigned prev = start;

                for (size_t s = 0; s < t->nsteps && cur.found; s++) {
                        unsigned l = (unsigned)(rest % lv->nlevels);
                        struct sim_level_step out;

                        rest /= lv->nlevels;
                        if (prev != SIM_LEVEL_NONE && l != prev && stall.left_us > 0) {
                                cur.found = false;
                                break;
                        }
                        for (unsigned i = 0; i < t->nlanes; i++) {
                                work[i] = t->work[s * t->nlanes + i];
                                backlog[i] = 0;
                        }
                        if (exec_level_step_stalled(b, lv, l, prev, &stall, (double)t->step_us, t->nlanes,
                                                    backlog, work, &out) != 0)
                                cur.found = false;
                        cur.energy_nj += out.energy_nj;
                        cur.dropped += out.backlog;
                        prev = l;
                }
                if (!cur.found)
                        continue;
                if (!best.found || cur.dropped < best.dropped - 1e-9 * best.dropped ||
                    (cur.dropped <= best.dropped + 1e-9 * best.dropped && cur.energy_nj < best.energy_nj))
                        best = cur;
        }
        return best;
}

enum solver { CLUSTER_SOLVER, LEVEL_SOLVER };

struct tally {
        unsigned costlier;      /* traces where the lowest start cost more than the free one */
        unsigned free_up;       /* traces where the free start's first step was above the lowest level */
};

/* One trace, one start: the programme finds the best sequence there is and
 * says where it started. Returns the best there is. */
static struct best solve_and_check(const struct sim_board *b, const struct sim_levels *lv, enum solver which,
                              const struct sim_trace *t, unsigned start, unsigned *first)
{
        struct best bf = brute_force(b, lv, t, start);
        double energy_uj;
        unsigned long switches;
        unsigned got_start;

        ck_assert(bf.found);
        if (which == CLUSTER_SOLVER) {
                struct sim_oracle o;

                ck_assert_int_eq(oracle_solve_from(b, t, start, true, &o), 0);
                energy_uj = o.energy_uj;
                switches = o.switches;
                got_start = o.start;
                *first = o.sequence[0];
                oracle_free(&o);
        } else {
                struct sim_level_oracle o;

                ck_assert_int_eq(oracle_solve_levels_from(b, lv, t, start, true, &o), 0);
                energy_uj = o.energy_uj;
                switches = o.switches;
                got_start = o.start;
                *first = o.sequence[0];
                oracle_level_free(&o);
        }
        ck_assert_uint_eq(got_start, start);
        ck_assert_msg(fabs(energy_uj * 1000 - bf.energy_nj) <= 1e-9 * bf.energy_nj,
                      "start %u: oracle %.6f µJ, every sequence %.6f µJ", start, energy_uj, bf.energy_nj / 1000);
        /* Leaving the start is counted as a switch. */
        if (start != ORACLE_START_FREE && *first != start)
                ck_assert_uint_ge(switches, 1);
        return bf;
}

static void check_starts(const struct sim_board *b, enum bl_mode mode, enum solver which, size_t nsteps,
                         uint64_t seed, unsigned runs, struct tally *tally)
{
        struct sim_levels lv;
        uint64_t state = seed;

        levels(&lv, b, mode);
        for (unsigned run = 0; run < runs; run++) {
                struct sim_trace t;
                unsigned free_first, low_first, top_first;
                struct best fr, low;

                random_trace(&t, 2, nsteps, 900, &state);
                fr = solve_and_check(b, &lv, which, &t, ORACLE_START_FREE, &free_first);
                low = solve_and_check(b, &lv, which, &t, 0, &low_first);
                /* Any level can be a start, not only the lowest. */
                (void)solve_and_check(b, &lv, which, &t, lv.nlevels - 1, &top_first);
                /* Every sequence from the lowest level is one from nowhere
                 * too, at no more cost: never worse in the oracle's order
                 * (a stall can save energy by dropping work, so energy
                 * alone can be lower from the lowest start). */
                ck_assert_msg(fr.dropped < low.dropped - 1e-9 * low.dropped ||
                                      (fr.dropped <= low.dropped + 1e-9 * low.dropped &&
                                       fr.energy_nj <= low.energy_nj * (1 + 1e-12)),
                              "run %u: free (%g dropped, %.6f µJ) worse than lowest (%g, %.6f µJ)", run,
                              fr.dropped, fr.energy_nj / 1000, low.dropped, low.energy_nj / 1000);
                tally->costlier += fr.dropped < low.dropped - 1e-9 * low.dropped ||
                                   fr.energy_nj < low.energy_nj * (1 - 1e-9);
                tally->free_up += free_first > 0;
                trace_free(&t);
        }
}

/* The plain switch cost (a stall within one step): the cluster programme
 * and the level solver in all three modes. */
START_TEST(test_plain_cost_every_solver)
{
        struct sim_board b;
        struct tally tally = { 0 };

        board(&b);
        check_starts(&b, BL_MODE_CLUSTER, CLUSTER_SOLVER, 12, 1, 8, &tally);
        check_starts(&b, BL_MODE_CLUSTER, LEVEL_SOLVER, 12, 2, 8, &tally);
        check_starts(&b, BL_MODE_PAIR, LEVEL_SOLVER, 7, 3, 4, &tally);
        check_starts(&b, BL_MODE_MP, LEVEL_SOLVER, 7, 4, 4, &tally);
        /* The start must have mattered somewhere, or nothing was tested. */
        ck_assert_uint_gt(tally.costlier, 0);
        ck_assert_uint_gt(tally.free_up, 0);
}
END_TEST

/* Stalls over several steps, all CPUs or only the switched ones, busy or
 * idle: the programme that carries the stall. */
START_TEST(test_long_stalls_every_mode)
{
        struct sim_board b;
        struct tally tally = { 0 };

        board(&b);
        b.switch_latency_us = 1500;
        b.switch_latency_per_cpu_us = 250;
        b.switch_energy_per_cpu_uj = 3;
        b.stall_all = true;
        check_starts(&b, BL_MODE_CLUSTER, LEVEL_SOLVER, 10, 11, 6, &tally);
        check_starts(&b, BL_MODE_MP, LEVEL_SOLVER, 7, 12, 3, &tally);
        b.stall_all = false;
        b.stall_busy = true;
        b.cluster[0].opp[1].core_mw = 5;
        check_starts(&b, BL_MODE_CLUSTER, LEVEL_SOLVER, 10, 14, 6, &tally);
        check_starts(&b, BL_MODE_PAIR, LEVEL_SOLVER, 7, 13, 3, &tally);
        ck_assert_uint_gt(tally.costlier, 0);
        ck_assert_uint_gt(tally.free_up, 0);
}
END_TEST

/* Heavy from the first step, at a switch cost high enough that the free
 * oracle never leaves big: from the lowest level it must pay to get there
 * (or stay and drop work), and the reactive oracle built from either starts
 * on the lowest level, as every run does. */
START_TEST(test_heavy_start_and_reactive)
{
        struct sim_board b;
        struct sim_levels lv;
        struct sim_trace t = { .step_us = 1000, .nlanes = 2, .nsteps = 40 };
        struct sim_oracle free_o, low_o;
        unsigned char seq[40];

        board(&b);
        b.switch_latency_us = 300;
        b.switch_energy_uj = 5000;
        levels(&lv, &b, BL_MODE_CLUSTER);
        t.work = malloc(t.nsteps * t.nlanes * sizeof(float));
        ck_assert_ptr_nonnull(t.work);
        /* 700 reference-µs per lane and ms: more than LITTLE's 512 at its top OPP. */
        for (size_t i = 0; i < t.nsteps * t.nlanes; i++)
                t.work[i] = 700.0f;

        ck_assert_int_eq(oracle_solve_from(&b, &t, ORACLE_START_FREE, true, &free_o), 0);
        ck_assert_int_eq(oracle_solve_from(&b, &t, 0, true, &low_o), 0);
        ck_assert_uint_eq(free_o.sequence[0], 1);
        ck_assert_uint_eq(free_o.switches, 0);
        ck_assert_uint_eq(free_o.infeasible_steps, 0);
        /* Big clears 700 in the 700 µs a 300 µs stall leaves, LITTLE
         * cannot: the lowest start goes up at once and pays the switch. */
        ck_assert_uint_eq(low_o.sequence[0], 1);
        ck_assert_uint_eq(low_o.switches, 1);
        ck_assert_uint_eq(low_o.infeasible_steps, 0);
        ck_assert_double_ge(low_o.energy_uj - free_o.energy_uj, 5000 - 1e-6);

        ck_assert_int_eq(reactive_sequence(&lv, low_o.sequence, t.nsteps, t.step_us, 10000, seq), 0);
        ck_assert_uint_eq(low_o.start, 0);
        ck_assert_uint_eq(seq[0], low_o.start);
        ck_assert_uint_eq(seq[9], 0);
        ck_assert_uint_eq(seq[10], 1);
        ck_assert_int_eq(reactive_sequence(&lv, free_o.sequence, t.nsteps, t.step_us, 10000, seq), 0);
        ck_assert_uint_eq(seq[0], 0);
        oracle_free(&free_o);
        oracle_free(&low_o);

        /* No such level. */
        ck_assert_int_eq(oracle_solve_from(&b, &t, 2, true, &low_o), -EINVAL);
        {
                struct sim_level_oracle lo;

                ck_assert_int_eq(oracle_solve_levels_from(&b, &lv, &t, lv.nlevels, true, &lo), -EINVAL);
        }
        free(t.work);
}
END_TEST

/* blsim itself: output in 'out', status returned. */
static int blsim(char *out, size_t size, const char *const *args)
{
        const char *argv[24] = { BLSIM_PATH };
        char file[] = "/tmp/check_oracle_start.XXXXXX";
        posix_spawn_file_actions_t fa;
        _cleanup_free_ char *text = NULL;
        size_t len;
        unsigned n = 1;
        int fd, status;
        pid_t pid;

        for (; args[n - 1]; n++)
                argv[n] = args[n - 1];
        argv[n] = NULL;
        fd = mkstemp(file);
        ck_assert_int_ge(fd, 0);
        close(fd);
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, file, O_WRONLY | O_TRUNC, 0600);
        posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
        ck_assert_int_eq(posix_spawn(&pid, BLSIM_PATH, &fa, NULL, (char *const *)argv, environ), 0);
        posix_spawn_file_actions_destroy(&fa);
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert_int_eq(read_file(file, &text, &len), 0);
        unlink(file);
        snprintf(out, size, "%s", text);
        ck_assert(WIFEXITED(status));
        return WEXITSTATUS(status);
}

static double json_number(const char *text, const char *key)
{
        char quoted[128];
        const char *p;

        snprintf(quoted, sizeof(quoted), "\"%s\": ", key);
        p = strstr(text, quoted);
        ck_assert_msg(p != NULL, "no key %s in %s", key, text);
        return strtod(p + strlen(quoted), NULL);
}

#define EXYNOS BOARDS_DIR "/exynos5422-like.ini"
#define TRACE WORKLOADS_DIR "/idle-bursts.csv"

/* The default is the lowest start; JSON says which; at hotplug's cost the
 * free start costs no more, and the text output names the start. */
START_TEST(test_cli_oracle_start)
{
        static char out[65536];
        const char *deflt[] = { "run", "--board", EXYNOS, "--workload", TRACE, "--backend", "hotplug",
                                "--json", NULL };
        const char *lowest[] = { "run", "--board", EXYNOS, "--workload", TRACE, "--backend", "hotplug",
                                 "--oracle-start", "lowest", "--json", NULL };
        const char *free_start[] = { "compare", "--board", EXYNOS, "--workload", TRACE, "--backend",
                                     "hotplug", "--oracle-start", "free", "--json", NULL };
        const char *text[] = { "run", "--board", EXYNOS, "--workload", TRACE, NULL };
        const char *bad[] = { "run", "--board", EXYNOS, "--workload", TRACE, "--oracle-start", "big", NULL };
        double deflt_uj, low_uj, free_uj;

        ck_assert_int_eq(blsim(out, sizeof(out), deflt), 0);
        ck_assert_ptr_nonnull(strstr(out, "\"oracle_start\": \"lowest\""));
        deflt_uj = json_number(out, "oracle_energy_uj");
        ck_assert_int_eq(blsim(out, sizeof(out), lowest), 0);
        ck_assert_ptr_nonnull(strstr(out, "\"oracle_start\": \"lowest\""));
        low_uj = json_number(out, "oracle_energy_uj");
        ck_assert_double_eq(deflt_uj, low_uj);
        ck_assert_int_eq(blsim(out, sizeof(out), free_start), 0);
        ck_assert_ptr_nonnull(strstr(out, "\"oracle_start\": \"free\""));
        free_uj = json_number(out, "oracle_energy_uj");
        ck_assert_double_le(free_uj, low_uj);
        ck_assert_int_eq(blsim(out, sizeof(out), text), 0);
        ck_assert_ptr_nonnull(strstr(out, "oracle_start"));
        ck_assert_ptr_nonnull(strstr(out, "lowest"));
        ck_assert_int_eq(blsim(out, sizeof(out), bad), 64);
        ck_assert_msg(strstr(out, "blsim run: --oracle-start: expected free or lowest, got \"big\""), "got: %s",
                      out);
}
END_TEST

static Suite *oracle_start_suite(void)
{
        Suite *s = suite_create("oracle_start");
        TCase *oracle = tcase_create("oracle");
        TCase *cli = tcase_create("cli");

        tcase_set_timeout(oracle, 120);
        tcase_add_test(oracle, test_plain_cost_every_solver);
        tcase_add_test(oracle, test_long_stalls_every_mode);
        tcase_add_test(oracle, test_heavy_start_and_reactive);
        suite_add_tcase(s, oracle);
        tcase_set_timeout(cli, 60);
        tcase_add_test(cli, test_cli_oracle_start);
        suite_add_tcase(s, cli);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(oracle_start_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
