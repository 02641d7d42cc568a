/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Issue 16's T2 against T3 and T4 for every causal policy: the twin
 * argument of src/sim/bound.c on each trace, in cluster mode, one markdown
 * row per trace and a summary line.
 *
 *   twin_bound --board FILE [--switch-cost US,UJ] [--interval-ms N] [--sample-times] TRACE...
 *
 * Columns: the trace's T2 bound (max(0.01, the reactive oracle's late +
 * 0.005) at the interval, 10 ms by default as the shipped configuration
 * samples), the shipped default's late_work_ratio, the forced steps (every
 * schedule on LITTLE there leaves more late than the T2 bound) and how many
 * of them the default ran on LITTLE, their runs, the runs that twins could
 * be built for and the twins built, the steps on big that the twins add,
 * the reactive oracle's eta, and two upper bounds of eta: of every schedule
 * that meets T2 ("free") and of those on big at the forced steps and the
 * steps the twins add ("bound").
 * "T3" marks a trace where the reactive oracle reaches eta >= 0.95 at late
 * <= 0.01 and the bound is below 0.85: no causal policy meets T2 on the
 * trace's twins and T3 on it. "start" marks a trace whose first step is
 * forced: no run that starts on LITTLE meets T2 there. The summary gives
 * the mean of the bound over the traces T4 averages (eta defined, always-big
 * not within 2 % of the oracle), and how many of the default's T2 misses
 * ran a forced step on LITTLE: a miss decided at one step, rather than
 * late work gathered over many.
 * With --sample-times every claim is for the policies that switch only at
 * the interval's sample times, as the daemon and the reactive oracle do
 * (bound.c, "Sample times"), and the forced steps are theirs.
 * Recorded in tests/bench/RESULTS.md. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "core/diag.h"
#include "loaders/board-file.h"
#include "sim/bound.h"
#include "sim/modes.h"
#include "sim/presets.h"
#include "sim/run.h"
#include "sim/trace.h"
#include "sim/workload.h"

static void print_diag(const struct bl_diag *diag)
{
        for (size_t i = 0; i < diag->n; i++)
                fprintf(stderr, "%s\n", diag->msg[i]);
}

static const char *name_of(const char *path)
{
        const char *slash = strrchr(path, '/');

        return slash ? slash + 1 : path;
}

/* The shipped default's level at each step of 't' (a decision at time d
 * sets the steps that start at d or later) and its late_work_ratio. */
static int default_levels(const struct sim_board *b, const struct sim_mode *m, const struct sim_trace *t,
                          unsigned char *level, double *late)
{
        struct sim_timeline tl = { 0 };
        struct sim_workload *w = NULL;
        struct sim_result res;
        struct bl_config cfg;
        struct bl_diag diag;
        unsigned current = 0;
        size_t k = 0;
        int err;

        diag_init(&diag);
        if (preset_config(preset_find("default"), &cfg, &diag) != 0) {
                print_diag(&diag);
                return -EINVAL;
        }
        err = workload_from_trace(&w, "trace", t);
        if (err < 0)
                return err;
        err = sim_run_policy(b, m, w, &cfg, &res, &tl);
        workload_free(w);
        if (err == 0) {
                for (size_t s = 0; s < t->nsteps; s++) {
                        while (k < tl.n && tl.p[k].t <= (bl_usec_t)s * t->step_us)
                                current = tl.p[k++].level;
                        level[s] = (unsigned char)current;
                }
                *late = res.late_work_ratio;
        }
        sim_timeline_free(&tl);
        return err;
}

/* Summed over the traces. */
struct totals {
        double eta_sum;
        unsigned eta_n, t3, t2, t2_forced;
};

static int one_trace(const struct sim_board *b, const struct sim_mode *m, const char *path,
                     const struct bound_twins_options *o, struct totals *sum)
{
        const struct sim_levels *lv = &m->levels;
        unsigned char *forced = NULL, *level = NULL;
        struct sim_trace t;
        struct bound_twins_result r;
        struct bl_diag diag;
        size_t on_little = 0;
        double late = 0;
        bool counted, missed;
        int err;

        diag_init(&diag);
        err = trace_load(&t, path, &diag);
        if (err != 0) {
                print_diag(&diag);
                return err < 0 ? err : -EINVAL;
        }
        forced = calloc(t.nsteps + 1, 1);
        level = calloc(t.nsteps + 1, 1);
        if (o->aligned && o->interval_us % t.step_us != 0) {
                fprintf(stderr, "%s: --sample-times: the interval (%llu us) is not a whole number of steps (%llu us)\n",
                        path, (unsigned long long)o->interval_us, (unsigned long long)t.step_us);
                err = -EINVAL;
        } else {
                err = forced && level ? bound_twins(b, lv, &t, o, &r, forced) : -ENOMEM;
        }
        if (err == 0)
                err = default_levels(b, m, &t, level, &late);
        for (size_t s = 0; err == 0 && s < t.nsteps; s++)
                on_little += forced[s] && level[s] == 0;
        free(forced);
        free(level);
        trace_free(&t);
        if (err < 0) {
                fprintf(stderr, "%s: %s\n", path, strerror(-err));
                return err;
        }
        if (late > r.max_late) {
                sum->t2++;
                sum->t2_forced += on_little > 0;
        }
        counted = !isnan(r.eta_bound) && r.big_uj > 1.02 * r.oracle_uj;
        missed = r.reactive_eta >= 0.95 && r.reactive_late <= 0.01 && r.eta_bound < 0.85;
        if (counted) {
                sum->eta_sum += r.eta_bound;
                sum->eta_n++;
        }
        sum->t3 += missed;
        printf("| %s | %.4f | %.4f | %zu | %zu | %u | %u | %u | %zu | %.3f | %.3f | %.3f | %s%s |\n", name_of(path),
               r.max_late, late, r.forced, on_little, r.runs, r.runs_twinned, r.twins, r.forced_by_twins,
               r.reactive_eta, r.eta_free, r.eta_bound, missed ? "T3" : "", r.start_forced ? " start" : "");
        fflush(stdout);
        return 0;
}

int main(int argc, char **argv)
{
        static const struct option longopts[] = {
                { "board", required_argument, NULL, 'b' },
                { "switch-cost", required_argument, NULL, 's' },
                { "interval-ms", required_argument, NULL, 'i' },
                { "sample-times", no_argument, NULL, 'a' },
                { NULL, 0, NULL, 0 },
        };
        struct bound_twins_options o = { .interval_us = 10000, .max_mismatch = 0.35, .max_twins = 40 };
        const char *board_path = NULL;
        double latency_us = -1, energy_uj = -1;
        unsigned traces = 0;
        struct totals sum = { 0 };
        static struct sim_board board;
        static struct sim_mode mode;
        struct bl_diag diag;
        int c, status = 0;

        while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
                switch (c) {
                case 'b':
                        board_path = optarg;
                        break;
                case 's':
                        if (sscanf(optarg, "%lf,%lf", &latency_us, &energy_uj) != 2 || latency_us < 0 ||
                            energy_uj < 0) {
                                fprintf(stderr, "--switch-cost: expected US,UJ, got \"%s\"\n", optarg);
                                return 64;
                        }
                        break;
                case 'a':
                        o.aligned = true;
                        break;
                case 'i': {
                        char *end;
                        const unsigned long ms = strtoul(optarg, &end, 10);

                        if (*end || ms == 0 || ms > 10000) {
                                fprintf(stderr, "--interval-ms: expected 1-10000, got \"%s\"\n", optarg);
                                return 64;
                        }
                        o.interval_us = (bl_usec_t)ms * 1000;
                        break;
                }
                default:
                        return 64;
                }
        }
        if (!board_path || optind >= argc) {
                fprintf(stderr, "usage: %s --board FILE [--switch-cost US,UJ] [--interval-ms N] [--sample-times] TRACE...\n",
                        argv[0]);
                return 64;
        }
        diag_init(&diag);
        if (board_load(&board, board_path, &diag) != 0) {
                print_diag(&diag);
                return 66;
        }
        if (latency_us >= 0)
                board_override_switch(&board, latency_us, energy_uj);
        if (sim_mode_build(&mode, &board, BL_MODE_CLUSTER, &diag) < 0) {
                print_diag(&diag);
                return 65;
        }
        printf("| trace | T2 bound | default late | forced | default on LITTLE there | runs | twinned | twins | "
               "by twins | reactive eta | eta free | eta bound | |\n"
               "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = optind; i < argc; i++) {
                traces++;
                if (one_trace(&board, &mode, argv[i], &o, &sum) < 0)
                        status = 1;
        }
        printf("\nSUMMARY %u traces, T3 out of reach %u, mean eta bound %.3f over %u; default T2 misses %u, "
               "%u of them with a forced step on LITTLE\n",
               traces, sum.t3, sum.eta_n ? sum.eta_sum / sum.eta_n : NAN, sum.eta_n, sum.t2, sum.t2_forced);
        return status;
}
