/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a switch costs in the simulator per backend: the board file's
 * [backend.NAME] sections and their errors, the stall charged over as many
 * steps as it lasts (worked by hand), the oracle that prices the same stall
 * (against every sequence on small traces), what the policy is told, and
 * blsim's --backend and --switch-cost. */
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
#include "sim/policy-inputs.h"

extern char **environ;

/* Two clusters of one CPU each: LITTLE at half big's capacity. */
#define TINY_BOARD                                      \
        "[board]\n"                                     \
        "name = tiny\n"                                 \
        "reference_capacity = 1024\n"                   \
        "switch_latency_us = 2500\n"                    \
        "switch_energy_uj = 7\n"                        \
        "[cluster.little]\n"                            \
        "cpus = 1\n"                                    \
        "order = 0\n"                                   \
        "off_mw = 1\n"                                  \
        "opp = 1000 512 100 10\n"                       \
        "[cluster.big]\n"                               \
        "cpus = 1\n"                                    \
        "order = 1\n"                                   \
        "off_mw = 2\n"                                  \
        "opp = 1000 1024 400 40\n"

/* Two clusters of two CPUs, two OPPs each, for mp mode and the oracle. */
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

#define BACKENDS                                        \
        "[backend.switcher]\n"                          \
        "latency_us = 20\n"                             \
        "energy_uj = 160\n"                             \
        "[backend.hotplug]\n"                           \
        "latency_us = 1000\n"                           \
        "latency_per_cpu_us = 1250.5\n"                 \
        "energy_uj = 0\n"                               \
        "energy_per_cpu_uj = 6000\n"                    \
        "stalls = all\n"                                \
        "powered = busy\n"

static unsigned parse(struct sim_board *b, const char *text, struct bl_diag *diag)
{
        diag_init(diag);
        return board_parse(b, "b.ini", text, strlen(text), diag);
}

static void parse_ok(struct sim_board *b, const char *text)
{
        struct bl_diag diag;

        ck_assert_uint_eq(parse(b, text, &diag), 0);
}

START_TEST(test_sections_parsed)
{
        struct sim_board b;

        parse_ok(&b, TINY_BOARD BACKENDS);
        ck_assert(b.has_backend[SIM_BACKEND_SWITCHER]);
        ck_assert(b.has_backend[SIM_BACKEND_HOTPLUG]);
        ck_assert(!b.has_backend[SIM_BACKEND_CPUFREQ]);
        ck_assert(!b.has_backend[SIM_BACKEND_CPUSET]);
        /* Left out: no per-CPU part, the switched CPUs, idle. */
        ck_assert_double_eq(b.backend[SIM_BACKEND_SWITCHER].latency_us, 20);
        ck_assert_double_eq(b.backend[SIM_BACKEND_SWITCHER].energy_uj, 160);
        ck_assert_double_eq(b.backend[SIM_BACKEND_SWITCHER].latency_per_cpu_us, 0);
        ck_assert(!b.backend[SIM_BACKEND_SWITCHER].stall_all);
        ck_assert(!b.backend[SIM_BACKEND_SWITCHER].stall_busy);
        ck_assert_double_eq(b.backend[SIM_BACKEND_HOTPLUG].latency_per_cpu_us, 1250.5);
        ck_assert_double_eq(b.backend[SIM_BACKEND_HOTPLUG].energy_per_cpu_uj, 6000);
        ck_assert(b.backend[SIM_BACKEND_HOTPLUG].stall_all);
        ck_assert(b.backend[SIM_BACKEND_HOTPLUG].stall_busy);
        /* Until one is selected, the plain figures are in effect. */
        ck_assert_double_eq(b.switch_latency_us, 2500);
        ck_assert_double_eq(b.switch_energy_uj, 7);
        ck_assert_str_eq(b.switch_source, "board");
}
END_TEST

START_TEST(test_select_and_override)
{
        struct sim_board b;

        parse_ok(&b, TINY_BOARD BACKENDS);
        ck_assert_int_eq(board_select_backend(&b, SIM_BACKEND_CPUSET), -ENODATA);
        ck_assert_double_eq(b.switch_latency_us, 2500);
        ck_assert_int_eq(board_select_backend(&b, SIM_BACKEND_HOTPLUG), 0);
        ck_assert_str_eq(b.switch_source, "backend hotplug");
        ck_assert_double_eq(b.switch_latency_us, 1000);
        ck_assert_double_eq(board_switch_latency_us(&b, 2), 1000 + 2 * 1250.5);
        ck_assert(b.stall_all && b.stall_busy);
        ck_assert(!board_switch_plain(&b, 1e9));
        board_override_switch(&b, 2000, 5000);
        ck_assert_str_eq(b.switch_source, "override");
        ck_assert_double_eq(board_switch_latency_us(&b, 2), 2000);
        ck_assert_double_eq(b.switch_energy_uj, 5000);
        ck_assert_double_eq(b.switch_energy_per_cpu_uj, 0);
        /* The override keeps who stalls and how. */
        ck_assert(b.stall_all && b.stall_busy);
        ck_assert_int_eq(board_backend_find("hotplug"), SIM_BACKEND_HOTPLUG);
        ck_assert_int_eq(board_backend_find("Hotplug"), -ENOENT);
        ck_assert_str_eq(board_backend_name(SIM_BACKEND_CPUFREQ), "cpufreq");
}
END_TEST

static const struct {
        const char *extra;
        const char *msg;
} bad_sections[] = {
        { "[backend.gpu]\nlatency_us = 1\nenergy_uj = 1\n",
          "b.ini:16: [backend.gpu]: expected a backend switcher, cpufreq, cpuset or hotplug, got \"gpu\"" },
        { "[backend.cpuset]\nlatency_us = -1\nenergy_uj = 1\n",
          "b.ini:17: latency_us: expected a number 0-1000000 (µs), got \"-1\"" },
        { "[backend.cpuset]\nlatency_us = 1\nenergy_uj = 1e3\n",
          "b.ini:18: energy_uj: expected a number 0-1000000 (µJ), got \"1e3\"" },
        { "[backend.cpuset]\nlatency_us = 1\nenergy_uj = 1\nlatency_per_cpu_us = 2000000\n",
          "b.ini:19: latency_per_cpu_us: expected a number 0-1000000 (µs), got \"2000000\"" },
        { "[backend.cpuset]\nlatency_us = 1\nenergy_uj = 1\nstalls = some\n",
          "b.ini:19: stalls: expected switched or all, got \"some\"" },
        { "[backend.cpuset]\nlatency_us = 1\nenergy_uj = 1\npowered = off\n",
          "b.ini:19: powered: expected idle or busy, got \"off\"" },
        { "[backend.cpuset]\nlatency_us = 1\nenergy_uj = 1\nlatency = 4\n",
          "b.ini:19: [backend.cpuset]: unknown key \"latency\" (known: latency_us, energy_uj, "
          "latency_per_cpu_us, energy_per_cpu_uj, stalls, powered)" },
        { "[backend.cpuset]\nlatency_us = 1\nlatency_us = 2\nenergy_uj = 1\n",
          "b.ini:18: latency_us: set twice in this section (first at line 17)" },
        { "[backend.hotplug]\nlatency_us = 1\n",
          "b.ini:16: [backend.hotplug]: missing key \"energy_uj\" (a number of µJ)" },
        { "[backend.hotplug]\nenergy_uj = 1\n",
          "b.ini:16: [backend.hotplug]: missing key \"latency_us\" (a number of µs)" },
        { "[backend.switcher]\nlatency_us = 1\nenergy_uj = 1\n[backend.switcher]\n",
          "b.ini:19: duplicate section [backend.switcher] (first at line 16)" },
};

START_TEST(test_bad_sections)
{
        struct sim_board b;
        struct bl_diag diag;
        char text[2048];

        snprintf(text, sizeof(text), "%s%s", TINY_BOARD, bad_sections[_i].extra);
        ck_assert_uint_eq(parse(&b, text, &diag), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], bad_sections[_i].msg);
}
END_TEST

static void levels(struct sim_levels *lv, const struct sim_board *b, enum bl_mode mode)
{
        struct bl_diag diag;

        diag_init(&diag);
        ck_assert_int_eq(sim_levels_build(lv, b, mode, &diag), 0);
}

/* tiny, 1 lane bringing 200 reference-µs a step, 1 ms steps: little takes
 * 400 µs of it a step. Little, then big from step 1 on: the 2.5 ms stall
 * keeps big from working in steps 1 and 2 and for half of step 3, so 200,
 * 400 and then 600 - 500 = 100 are left; step 4 clears the 300. */
START_TEST(test_stall_over_steps)
{
        static const unsigned seq[5] = { 0, 1, 1, 1, 1 };
        static const double stall_us[5] = { 0, 1000, 1000, 500, 0 };
        static const double left[5] = { 0, 200, 400, 100, 0 };
        struct sim_board b;
        struct sim_levels lv;
        struct sim_stall stall = { 0, 0 };
        struct sim_level_step out;
        double backlog = 0, work = 200;
        unsigned prev = SIM_LEVEL_NONE;

        parse_ok(&b, TINY_BOARD);
        levels(&lv, &b, BL_MODE_CLUSTER);
        for (unsigned s = 0; s < 5; s++) {
                ck_assert_int_eq(exec_level_step_stalled(&b, &lv, seq[s], prev, &stall, 1000, 1, &backlog,
                                                         &work, &out), 0);
                ck_assert_double_eq_tol(out.stall_us, stall_us[s], 1e-9);
                ck_assert_double_eq_tol(backlog, left[s], 1e-9);
                ck_assert_uint_eq(out.switched, s == 1);
                if (s == 1)
                        /* nothing done: big's idle + little off + the switch */
                        ck_assert_double_eq_tol(out.energy_nj, 40 * 1000 + 1 * 1000 + 7000, 1e-6);
                prev = seq[s];
        }
        ck_assert_double_eq(stall.left_us, 0);

        /* Without the carry the stall ends with its step: step 2 works. */
        backlog = 200;
        ck_assert_int_eq(exec_level_step(&b, &lv, 1, 1, 1000, 1, &backlog, &work, &out), 0);
        ck_assert_double_eq(out.stall_us, 0);
        ck_assert_double_eq(backlog, 0);
}
END_TEST

/* A second switch during a stall queues behind it; busy stalled CPUs draw
 * their busy power for it. */
START_TEST(test_stall_queues_and_busy)
{
        struct sim_board b;
        struct sim_levels lv;
        struct sim_stall stall = { 0, 0 };
        struct sim_level_step out;
        double backlog = 0, work = 0;

        parse_ok(&b, TINY_BOARD);
        levels(&lv, &b, BL_MODE_CLUSTER);
        b.stall_busy = true;
        ck_assert_int_eq(exec_level_step_stalled(&b, &lv, 0, SIM_LEVEL_NONE, &stall, 1000, 1, &backlog, &work,
                                                 &out), 0);
        ck_assert_int_eq(exec_level_step_stalled(&b, &lv, 1, 0, &stall, 1000, 1, &backlog, &work, &out), 0);
        ck_assert_double_eq(stall.left_us, 1500);
        /* big idle + little off + switch + 1000 µs of big's busy power */
        ck_assert_double_eq_tol(out.energy_nj, 40 * 1000 + 1000 + 7000 + 400 * 1000, 1e-6);
        ck_assert_int_eq(exec_level_step_stalled(&b, &lv, 0, 1, &stall, 1000, 1, &backlog, &work, &out), 0);
        ck_assert_double_eq(stall.left_us, 1500 + 2500 - 1000);
        ck_assert_uint_eq(out.stalled, 1u << 0);
}
END_TEST

/* mp mode on duo: little (CPUs 0-1), little+1big (CPU 2 too), all. Going
 * from little to all stalls CPUs 2 and 3 only, or every CPU with
 * stalls = all; the per-CPU parts count the CPUs that changed. */
START_TEST(test_stall_all_and_per_cpu)
{
        struct sim_board b;
        struct sim_levels lv;
        struct sim_level_step out;
        double backlog[4] = { 0 }, work[4] = { 0 };

        parse_ok(&b, DUO_BOARD);
        levels(&lv, &b, BL_MODE_MP);
        ck_assert_uint_eq(lv.nlevels, 3);
        b.switch_latency_per_cpu_us = 100;
        b.switch_energy_per_cpu_uj = 5;
        ck_assert_double_eq(exec_switch_latency_us(&b, &lv, 0, 2), 30 + 2 * 100);
        ck_assert_double_eq(exec_switch_latency_us(&b, &lv, 1, 1), 0);
        /* the fixed 40 µJ shared per CPU of the big cluster, + 5 per CPU */
        ck_assert_double_eq_tol(exec_switch_energy_nj(&b, &lv, 0, 2), 40000 + 2 * 5000, 1e-9);
        ck_assert_uint_eq(exec_switch_stalls(&b, &lv, 0, 2), 0xcu);
        ck_assert_int_eq(exec_level_step(&b, &lv, 2, 0, 1000, 4, backlog, work, &out), 0);
        ck_assert_uint_eq(out.stalled, 0xcu);
        ck_assert_double_eq(out.stall_us, 230);
        b.stall_all = true;
        ck_assert_uint_eq(exec_switch_stalls(&b, &lv, 0, 2), 0xfu);
        ck_assert_int_eq(exec_level_step(&b, &lv, 2, 0, 1000, 4, backlog, work, &out), 0);
        ck_assert_uint_eq(out.stalled, 0xfu);
}
END_TEST

/* Idle and heavy phases (heavy: more than LITTLE does in a step), so that
 * a switch pays in some and not in others (work a stall holds back is
 * dropped, which the oracle avoids before anything else). */
static void random_trace(struct sim_trace *t, unsigned nlanes, size_t nsteps, unsigned max_work,
                         uint64_t *state)
{
        bool heavy = false;

        *t = (struct sim_trace){ .step_us = 1000, .nlanes = nlanes, .nsteps = nsteps };
        t->work = malloc(nsteps * nlanes * sizeof(float));
        ck_assert_ptr_nonnull(t->work);
        for (size_t s = 0; s < nsteps; s++) {
                *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
                if ((*state >> 33) % 4 == 0)
                        heavy = !heavy;
                for (unsigned i = 0; i < nlanes; i++) {
                        const unsigned half = max_work / 2;

                        *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
                        t->work[s * nlanes + i] = heavy ? (float)(half + (*state >> 40) % half) : 0.0f;
                }
        }
}

struct best {
        double dropped, energy_nj;
        bool found;
};

/* Every sequence that does not switch while a stall runs, each step from no
 * backlog with the stall carried, by (dropped, energy). */
static struct best brute_force(const struct sim_board *b, const struct sim_levels *lv,
                               const struct sim_trace *t)
{
        struct best best = { 0 };
        unsigned long total = 1;
        double backlog[8], work[8];

        for (size_t s = 0; s < t->nsteps; s++)
                total *= lv->nlevels;
        for (unsigned long code = 0; code < total; code++) {
                struct best cur = { .found = true };
                struct sim_stall stall = { 0, 0 };
                unsigned long rest = code;
                unsigned prev = SIM_LEVEL_NONE;

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

/* Returns the switches the oracle made over the runs. */
static unsigned long check_oracle(struct sim_board *b, enum bl_mode mode, size_t nsteps, uint64_t seed,
                                  unsigned runs)
{
        struct sim_levels lv;
        uint64_t state = seed;
        unsigned long switches = 0;

        levels(&lv, b, mode);
        for (unsigned run = 0; run < runs; run++) {
                struct sim_trace t;
                struct sim_level_oracle o;
                struct best bf;

                random_trace(&t, 2, nsteps, 900, &state);
                ck_assert_int_eq(oracle_solve_levels(b, &lv, &t, false, &o), 0);
                bf = brute_force(b, &lv, &t);
                ck_assert(bf.found);
                ck_assert_msg(fabs(o.energy_uj * 1000 - bf.energy_nj) <= 1e-9 * bf.energy_nj,
                              "run %u: oracle %.6f µJ, every sequence %.6f µJ", run, o.energy_uj,
                              bf.energy_nj / 1000);
                switches += o.switches;
                oracle_level_free(&o);
                trace_free(&t);
        }
        return switches;
}

/* Stalls of 2.5 steps, all CPUs, busy, per-CPU parts: the oracle finds
 * the best sequence there is. */
START_TEST(test_oracle_pays_long_stalls)
{
        struct sim_board b;

        parse_ok(&b, DUO_BOARD);
        b.switch_latency_us = 1500;
        b.switch_latency_per_cpu_us = 250;
        b.switch_energy_per_cpu_uj = 3;
        b.stall_all = true;
        /* Switching must be worth it somewhere, or nothing is tested. */
        ck_assert_uint_gt(check_oracle(&b, BL_MODE_CLUSTER, 12, 11, 8), 0);
        ck_assert_uint_gt(check_oracle(&b, BL_MODE_MP, 7, 12, 4), 0);
        /* Busy while stalled, with a LITTLE cheap enough to spin on. */
        b.stall_all = false;
        b.stall_busy = true;
        b.cluster[0].opp[1].core_mw = 5;
        ck_assert_uint_gt(check_oracle(&b, BL_MODE_CLUSTER, 12, 14, 8), 0);
        ck_assert_uint_gt(check_oracle(&b, BL_MODE_PAIR, 8, 13, 4), 0);
}
END_TEST

/* The oracle for long stalls, on a plain cost that only differs from the
 * one of the single-step oracles by a negligible per-CPU part, finds their
 * optimum; and a stall it cannot afford keeps it from switching. */
START_TEST(test_oracle_long_stall_matches_plain)
{
        struct sim_board b, nudged;
        struct sim_levels lv;
        struct sim_trace t;
        struct sim_level_oracle plain, span;
        struct sim_oracle cluster;
        uint64_t state = 5;

        parse_ok(&b, DUO_BOARD);
        nudged = b;
        nudged.switch_latency_per_cpu_us = 1e-9;
        levels(&lv, &b, BL_MODE_CLUSTER);
        random_trace(&t, 2, 400, 900, &state);
        ck_assert_int_eq(oracle_solve_levels(&b, &lv, &t, false, &plain), 0);
        ck_assert_int_eq(oracle_solve_levels(&nudged, &lv, &t, false, &span), 0);
        ck_assert_int_eq(oracle_solve(&b, &t, false, &cluster), 0);
        ck_assert_uint_gt(plain.switches, 0);
        ck_assert_double_eq_tol(span.energy_uj, plain.energy_uj, 1e-6 * plain.energy_uj);
        ck_assert_double_eq_tol(span.energy_uj, cluster.energy_uj, 1e-6 * plain.energy_uj);
        oracle_level_free(&plain);
        oracle_level_free(&span);
        oracle_free(&cluster);

        /* A stall of 50 steps costs more than any saving here. */
        nudged.switch_latency_us = 50000;
        ck_assert_int_eq(oracle_solve_levels(&nudged, &lv, &t, false, &span), 0);
        ck_assert_uint_eq(span.switches, 0);
        oracle_level_free(&span);
        trace_free(&t);
}
END_TEST

START_TEST(test_policy_told_backend)
{
        struct sim_board b;
        struct sim_levels lv;
        struct bl_switch_cost c;

        parse_ok(&b, DUO_BOARD BACKENDS);
        levels(&lv, &b, BL_MODE_CLUSTER);
        ck_assert_int_eq(board_select_backend(&b, SIM_BACKEND_HOTPLUG), 0);
        sim_switch_cost(&b, &lv, &c);
        ck_assert_double_eq(c.latency_us, 1000);
        ck_assert_double_eq(c.latency_per_cpu_us, 1250.5);
        ck_assert_double_eq(c.energy_uj, 0);
        ck_assert_double_eq(c.energy_per_cpu_uj, 6000);
        board_override_switch(&b, 2000, 5000);
        sim_switch_cost(&b, &lv, &c);
        ck_assert_double_eq(c.latency_us, 2000);
        ck_assert_double_eq(c.latency_per_cpu_us, 0);
        ck_assert_double_eq(c.energy_uj, 5000);
        ck_assert_double_eq(c.energy_per_cpu_uj, 0);
}
END_TEST

/* blsim itself: output in 'out', status returned. */
static int blsim(char *out, size_t size, const char *const *args)
{
        const char *argv[24] = { BLSIM_PATH };
        char file[] = "/tmp/check_backend_cost.XXXXXX";
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

#define EXYNOS BOARDS_DIR "/exynos5422-like.ini"
#define TRACE WORKLOADS_DIR "/idle-bursts.csv"

START_TEST(test_cli_backend)
{
        static char out[65536];
        const char *hotplug[] = { "run", "--board", EXYNOS, "--workload", TRACE, "--backend", "hotplug",
                                  "--json", NULL };
        const char *plain[] = { "run", "--board", EXYNOS, "--workload", TRACE, "--json", NULL };
        const char *cost[] = { "run", "--board", EXYNOS, "--workload", TRACE, "--backend", "hotplug",
                               "--switch-cost", "2000,5000.5", "--json", NULL };

        ck_assert_int_eq(blsim(out, sizeof(out), hotplug), 0);
        ck_assert_ptr_nonnull(strstr(out, "\"switch_cost_source\": \"backend hotplug\""));
        ck_assert_ptr_nonnull(strstr(out, "\"switch_latency_per_cpu_us\": 1250.000"));
        ck_assert_ptr_nonnull(strstr(out, "\"switch_stalls\": \"all\""));
        ck_assert_ptr_nonnull(strstr(out, "\"switch_stall_powered\": \"busy\""));
        ck_assert_int_eq(blsim(out, sizeof(out), plain), 0);
        ck_assert_ptr_nonnull(strstr(out, "\"switch_cost_source\": \"board\""));
        ck_assert_ptr_nonnull(strstr(out, "\"switch_latency_us\": 20.000"));
        ck_assert_int_eq(blsim(out, sizeof(out), cost), 0);
        ck_assert_ptr_nonnull(strstr(out, "\"switch_cost_source\": \"override\""));
        ck_assert_ptr_nonnull(strstr(out, "\"switch_latency_us\": 2000.000"));
        ck_assert_ptr_nonnull(strstr(out, "\"switch_energy_uj\": 5000.500"));
        ck_assert_ptr_nonnull(strstr(out, "\"switch_latency_per_cpu_us\": 0.000"));
}
END_TEST

static const struct {
        const char *option, *value;
        int status;
        const char *msg;
} bad_options[] = {
        { "--backend", "gpu", 64,
          "blsim run: --backend: expected switcher, cpufreq, cpuset or hotplug, got \"gpu\"" },
        { "--switch-cost", "2000", 64,
          "blsim run: --switch-cost: expected US,UJ (two numbers 0-1000000), got \"2000\"" },
        { "--switch-cost", "2000,", 64, "got \"2000,\"" },
        { "--switch-cost", "-1,5", 64, "got \"-1,5\"" },
        { "--switch-cost", "1,5x", 64, "got \"1,5x\"" },
        { "--switch-cost", "1,2000000", 64, "got \"1,2000000\"" },
};

START_TEST(test_cli_bad_options)
{
        static char out[4096];
        const char *args[] = { "run", "--board", EXYNOS, "--workload", TRACE, bad_options[_i].option,
                               bad_options[_i].value, NULL };

        ck_assert_int_eq(blsim(out, sizeof(out), args), bad_options[_i].status);
        ck_assert_msg(strstr(out, bad_options[_i].msg), "got: %s", out);
}
END_TEST

START_TEST(test_cli_board_without_backend)
{
        static char out[4096];
        char board[] = "/tmp/check_backend_cost_board.XXXXXX";
        const char *args[] = { "run", "--board", board, "--workload", TRACE, "--backend", "cpuset", NULL };
        FILE *f;
        int fd = mkstemp(board);

        ck_assert_int_ge(fd, 0);
        f = fdopen(fd, "w");
        ck_assert_ptr_nonnull(f);
        fputs(DUO_BOARD, f);
        fclose(f);
        ck_assert_int_eq(blsim(out, sizeof(out), args), 78);
        unlink(board);
        ck_assert_ptr_nonnull(strstr(out, "--backend cpuset: the board duo has no [backend.cpuset] section"));
}
END_TEST

static Suite *backend_cost_suite(void)
{
        Suite *s = suite_create("backend_cost");
        TCase *board = tcase_create("board");
        TCase *exec = tcase_create("exec");
        TCase *oracle = tcase_create("oracle");
        TCase *cli = tcase_create("cli");

        tcase_add_test(board, test_sections_parsed);
        tcase_add_test(board, test_select_and_override);
        tcase_add_loop_test(board, test_bad_sections, 0, sizeof(bad_sections) / sizeof(bad_sections[0]));
        tcase_add_test(board, test_policy_told_backend);
        suite_add_tcase(s, board);
        tcase_add_test(exec, test_stall_over_steps);
        tcase_add_test(exec, test_stall_queues_and_busy);
        tcase_add_test(exec, test_stall_all_and_per_cpu);
        suite_add_tcase(s, exec);
        tcase_set_timeout(oracle, 120);
        tcase_add_test(oracle, test_oracle_pays_long_stalls);
        tcase_add_test(oracle, test_oracle_long_stall_matches_plain);
        suite_add_tcase(s, oracle);
        tcase_set_timeout(cli, 60);
        tcase_add_test(cli, test_cli_backend);
        tcase_add_loop_test(cli, test_cli_bad_options, 0, sizeof(bad_options) / sizeof(bad_options[0]));
        tcase_add_test(cli, test_cli_board_without_backend);
        suite_add_tcase(s, cli);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(backend_cost_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
