/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulator's bulk paths on the target size: one hour of an
 * 8-lane trace at 1 ms steps (3.6 M steps). A deterministic synthetic trace
 * (fixed-seed PRNG; phases of 20 ms to 3 s: idle stretches 35%, frame-like
 * periodic work on three lanes 30%, steady load on some lanes 25%, bursts on
 * all lanes that now and then overload even the big cluster 10%) is built in
 * memory, written as CSV text and parsed back, then every step is executed on
 * a fixed cluster and the oracle is solved. Wall-clock times (CLOCK_MONOTONIC) are
 * printed; they are recorded in tests/bench/RESULTS.md, not asserted.
 * Then the whole simulation loop runs on it: fixed on each cluster
 * (sim_run_fixed) and driven by the daemon's engine with the "default"
 * preset and the baselines (sim_run_policy), as blsim runs them.
 *
 *   bench_sim [--board FILE] [--csv FILE] [--minutes N]
 *
 * --csv also writes the trace to FILE and times trace_load() on it (the
 * read from disk included). */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/fileio.h"
#include "core/board.h"
#include "loaders/board-file.h"
#include "sim/exec.h"
#include "sim/oracle.h"
#include "sim/presets.h"
#include "sim/run.h"
#include "sim/trace.h"

#define NLANES 8
#define STEP_US 1000

static double now_s(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t rng_next(uint64_t *state)
{
        uint64_t x = *state;

        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        *state = x;
        return x * 0x2545F4914F6CDD1DULL;
}

static unsigned rng_range(uint64_t *state, unsigned lo, unsigned hi)
{
        return lo + (unsigned)(rng_next(state) % (hi - lo + 1));
}

/* Work in quarters of a reference-µs, exact in floats and short in CSV. */
static float quarters(unsigned q)
{
        return (float)q / 4.0f;
}

enum phase_kind {
        PHASE_IDLE,
        PHASE_FRAMES,
        PHASE_STEADY,
        PHASE_BURST,
};

static void synthesize(struct sim_trace *t, size_t nsteps)
{
        uint64_t state = 0x0b16b1a5e5eedULL;
        size_t s = 0;

        t->step_us = STEP_US;
        t->nlanes = NLANES;
        t->nsteps = nsteps;
        t->work = calloc(nsteps * NLANES, sizeof(float));
        if (!t->work) {
                fprintf(stderr, "bench_sim: out of memory\n");
                exit(EXIT_FAILURE);
        }
        while (s < nsteps) {
                unsigned dice = rng_range(&state, 0, 99);
                enum phase_kind kind = dice < 35 ? PHASE_IDLE : dice < 65 ? PHASE_FRAMES
                                       : dice < 90 ? PHASE_STEADY : PHASE_BURST;
                size_t len = rng_range(&state, 20, 3000), end = s + len < nsteps ? s + len : nsteps;
                unsigned period = rng_range(&state, 0, 1) ? 16 : 33, run = rng_range(&state, 2, 8);
                unsigned active = rng_range(&state, 1, NLANES);

                for (size_t start = s; s < end; s++) {
                        float *row = t->work + s * NLANES;

                        for (unsigned i = 0; i < NLANES; i++) {
                                switch (kind) {
                                case PHASE_IDLE:
                                        if (rng_next(&state) % 100 < 2)
                                                row[i] = quarters(rng_range(&state, 200, 800));
                                        break;
                                case PHASE_FRAMES:
                                        if (i < 3 && (s - start + 3 * i) % period < run)
                                                row[i] = quarters(rng_range(&state, 400, 1400));
                                        break;
                                case PHASE_STEADY:
                                        if (i < active)
                                                row[i] = quarters(rng_range(&state, 200, 1000));
                                        break;
                                case PHASE_BURST:
                                        row[i] = quarters(rng_range(&state, 600, 2200));
                                        break;
                                }
                        }
                }
        }
}

static char *append_uint(char *p, unsigned long long v)
{
        char digits[24];
        int n = 0;

        do
                digits[n++] = (char)('0' + v % 10);
        while ((v /= 10) > 0);
        while (n > 0)
                *p++ = digits[--n];
        return p;
}

/* Quarters written as "12", "12.25", "12.5", "12.75". */
static char *append_work(char *p, float w)
{
        unsigned q = (unsigned)(w * 4.0f);
        static const char *const frac[4] = { "", ".25", ".5", ".75" };

        p = append_uint(p, q / 4);
        for (const char *f = frac[q % 4]; *f; f++)
                *p++ = *f;
        return p;
}

static char *write_csv(const struct sim_trace *t, size_t *ret_len)
{
        /* Worst case per row: a 20-digit time and 8 fields of "1234.75,". */
        size_t size = 64 + t->nsteps * (24 + NLANES * 10);
        char *text = malloc(size), *p;

        if (!text) {
                fprintf(stderr, "bench_sim: out of memory\n");
                exit(EXIT_FAILURE);
        }
        p = text + snprintf(text, size, "# bigLittle-trace v1 step_us=%u\nt_us", STEP_US);
        for (unsigned i = 0; i < NLANES; i++)
                p += sprintf(p, ",lane%u", i);
        *p++ = '\n';
        for (size_t s = 0; s < t->nsteps; s++) {
                const float *row = t->work + s * NLANES;

                p = append_uint(p, (unsigned long long)s * STEP_US);
                for (unsigned i = 0; i < NLANES; i++) {
                        *p++ = ',';
                        p = append_work(p, row[i]);
                }
                *p++ = '\n';
        }
        *ret_len = (size_t)(p - text);
        return text;
}

static void print_diag(const struct bl_diag *d)
{
        for (unsigned i = 0; i < d->n; i++)
                fprintf(stderr, "%s\n", d->msg[i]);
}

static int check_same(const struct sim_trace *a, const struct sim_trace *b)
{
        if (a->nsteps != b->nsteps || a->nlanes != b->nlanes || a->step_us != b->step_us ||
            memcmp(a->work, b->work, a->nsteps * a->nlanes * sizeof(float)) != 0) {
                fprintf(stderr, "bench_sim: the parsed trace differs from the one written\n");
                return -EINVAL;
        }
        return 0;
}

/* Every step on one cluster, backlog carried, as a fixed run does it. */
static void bench_exec(const struct sim_board *b, const struct sim_trace *t, unsigned cluster)
{
        double backlog[NLANES] = { 0 }, work[NLANES], energy = 0, late = 0, total = 0, t0, dt;
        struct sim_step out;

        t0 = now_s();
        for (size_t s = 0; s < t->nsteps; s++) {
                const float *row = t->work + s * NLANES;

                for (unsigned i = 0; i < NLANES; i++) {
                        work[i] = row[i];
                        total += work[i];
                }
                exec_step(b, cluster, false, STEP_US, NLANES, backlog, work, &out);
                energy += out.energy_nj;
                late += out.backlog;
        }
        dt = now_s() - t0;
        printf("exec on %-8s %.3f s (%.0f ns/step)  energy %.1f J  late_work_ratio %.4f\n",
               b->cluster[cluster].name, dt, dt * 1e9 / (double)t->nsteps, energy / 1e9,
               total > 0 ? late / total : 0);
}

/* Time is per cluster in fixed runs, per class of the mode in policy runs. */
static void print_run(const struct sim_board *b, const struct sim_mode *m, const char *what, double dt,
                      const struct sim_result *r)
{
        unsigned n = m ? m->nclasses : b->nclusters;

        printf("%-30s %.3f s (%.0f ns/step)  energy %.1f J  late_work_ratio %.4f  switches %lu", what, dt,
               dt * 1e9 / (double)r->steps, r->energy_uj / 1e6, r->late_work_ratio, r->switches);
        for (unsigned k = 0; k < n; k++)
                printf("  %s %.1f%%", m ? m->class_name[k] : b->cluster[k].name,
                       100.0 * (double)r->time_in[k] / ((double)r->steps * STEP_US));
        printf("\n");
}

/* The simulation loop as blsim runs it: the workload interface, the
 * per-step bookkeeping and, for policies, the samples, heuristics and
 * engine every sample_interval_ms. */
static int bench_runs(const struct sim_board *b, const struct sim_trace *t)
{
        static const char *const presets[] = { "default", "ondemand", "interactive", "hmp", "exynos5410" };
        static struct sim_mode mode;
        struct sim_workload *w;
        struct sim_result res;
        struct bl_config cfg;
        struct bl_diag diag;
        char what[64];
        double t0;
        int r;

        diag_init(&diag);
        r = sim_mode_build(&mode, b, BL_MODE_CLUSTER, &diag);
        if (r < 0) {
                print_diag(&diag);
                return r;
        }
        r = workload_from_trace(&w, "synthetic", t);
        if (r < 0)
                return r;
        for (unsigned k = 0; k < b->nclusters && r == 0; k++) {
                t0 = now_s();
                r = sim_run_fixed(b, w, k, &res, NULL);
                snprintf(what, sizeof(what), "sim_run_fixed %s", b->cluster[k].name);
                if (r == 0)
                        print_run(b, NULL, what, now_s() - t0, &res);
        }
        for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]) && r == 0; i++) {
                diag_init(&diag);
                if (preset_config(preset_find(presets[i]), &cfg, &diag) != 0) {
                        print_diag(&diag);
                        r = -EINVAL;
                        break;
                }
                t0 = now_s();
                r = sim_run_policy(b, &mode, w, &cfg, &res, NULL);
                snprintf(what, sizeof(what), "sim_run_policy %s", presets[i]);
                if (r == 0)
                        print_run(b, &mode, what, now_s() - t0, &res);
        }
        workload_free(w);
        return r;
}

/* The other modes: the default policy and the oracle over their levels. */
static int bench_modes(const struct sim_board *b, const struct sim_trace *t)
{
        static const enum bl_mode modes[] = { BL_MODE_PAIR, BL_MODE_MP };
        static struct sim_mode mode;
        struct sim_level_oracle o;
        struct sim_workload *w;
        struct sim_result res;
        struct bl_config cfg;
        struct bl_diag diag;
        char what[64];
        double t0, dt;
        int r;

        r = workload_from_trace(&w, "synthetic", t);
        if (r < 0)
                return r;
        for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]) && r == 0; i++) {
                diag_init(&diag);
                if (sim_mode_build(&mode, b, modes[i], &diag) < 0) {
                        print_diag(&diag);
                        continue;
                }
                diag_init(&diag);
                if (preset_config(preset_find("default"), &cfg, &diag) != 0) {
                        print_diag(&diag);
                        r = -EINVAL;
                        break;
                }
                t0 = now_s();
                r = sim_run_policy(b, &mode, w, &cfg, &res, NULL);
                snprintf(what, sizeof(what), "sim_run_policy default, %s mode", mode_to_string(modes[i]));
                if (r < 0)
                        break;
                print_run(b, &mode, what, now_s() - t0, &res);
                t0 = now_s();
                r = oracle_solve_levels(b, &mode.levels, t, false, &o);
                dt = now_s() - t0;
                if (r < 0)
                        break;
                printf("oracle_solve_levels, %s mode (%u levels): %.3f s (%.0f ns/step)  energy %.1f J  "
                       "level changes %lu  infeasible steps %zu\n", mode_to_string(modes[i]), mode.levels.nlevels,
                       dt, dt * 1e9 / (double)t->nsteps, o.energy_uj / 1e6, o.switches, o.infeasible_steps);
                oracle_level_free(&o);
        }
        workload_free(w);
        return r;
}

int main(int argc, char **argv)
{
        static const struct option options[] = {
                { "board", required_argument, NULL, 'b' },
                { "csv", required_argument, NULL, 'c' },
                { "minutes", required_argument, NULL, 'm' },
                { NULL, 0, NULL, 0 },
        };
        const char *board_path = BOARDS_DIR "/exynos5422-like.ini", *csv_path = NULL;
        unsigned long minutes = 60;
        struct sim_board board;
        struct sim_trace trace, parsed;
        struct sim_oracle oracle;
        struct bl_diag diag;
        _cleanup_free_ char *text = NULL;
        size_t len;
        double t0, dt;
        int opt, r;

        while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
                switch (opt) {
                case 'b':
                        board_path = optarg;
                        break;
                case 'c':
                        csv_path = optarg;
                        break;
                case 'm':
                        minutes = strtoul(optarg, NULL, 10);
                        if (minutes == 0 || minutes > 24 * 60) {
                                fprintf(stderr, "bench_sim: --minutes: expected 1-1440, got \"%s\"\n",
                                        optarg);
                                return EXIT_FAILURE;
                        }
                        break;
                default:
                        fprintf(stderr, "usage: bench_sim [--board FILE] [--csv FILE] [--minutes N]\n");
                        return EXIT_FAILURE;
                }
        }

        diag_init(&diag);
        if (board_load(&board, board_path, &diag) != 0) {
                print_diag(&diag);
                return EXIT_FAILURE;
        }

        t0 = now_s();
        synthesize(&trace, (size_t)minutes * 60 * 1000000 / STEP_US);
        dt = now_s() - t0;
        printf("trace: %zu steps x %u lanes (%lu min at %u us), board %s; built in %.3f s\n", trace.nsteps,
               trace.nlanes, minutes, STEP_US, board.name, dt);

        text = write_csv(&trace, &len);
        t0 = now_s();
        r = trace_parse(&parsed, "synthetic.csv", text, len, &diag);
        dt = now_s() - t0;
        if (r != 0) {
                print_diag(&diag);
                return EXIT_FAILURE;
        }
        printf("trace_parse: %.1f MB in %.3f s (%.0f MB/s, %.0f ns/row)\n", (double)len / 1e6, dt,
               (double)len / 1e6 / dt, dt * 1e9 / (double)parsed.nsteps);
        r = check_same(&trace, &parsed);
        trace_free(&parsed);
        if (r < 0)
                return EXIT_FAILURE;

        if (csv_path) {
                FILE *f = fopen(csv_path, "we");

                if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
                        fprintf(stderr, "bench_sim: %s: cannot write: %s\n", csv_path, strerror(errno));
                        return EXIT_FAILURE;
                }
                t0 = now_s();
                r = trace_load(&parsed, csv_path, &diag);
                dt = now_s() - t0;
                if (r != 0) {
                        print_diag(&diag);
                        return EXIT_FAILURE;
                }
                printf("trace_load: %s in %.3f s (read and parse)\n", csv_path, dt);
                r = check_same(&trace, &parsed);
                trace_free(&parsed);
                if (r < 0)
                        return EXIT_FAILURE;
        }
        free(text);
        text = NULL;

        for (unsigned k = 0; k < board.nclusters; k++)
                bench_exec(&board, &trace, k);
        r = bench_runs(&board, &trace);
        if (r < 0) {
                fprintf(stderr, "bench_sim: simulation: %s\n", strerror(-r));
                return EXIT_FAILURE;
        }

        t0 = now_s();
        r = oracle_solve(&board, &trace, true, &oracle);
        dt = now_s() - t0;
        if (r < 0) {
                fprintf(stderr, "bench_sim: oracle: %s\n", strerror(-r));
                return EXIT_FAILURE;
        }
        printf("oracle_solve: %.3f s (%.0f ns/step)  energy %.1f J  switches %lu  infeasible steps %zu",
               dt, dt * 1e9 / (double)trace.nsteps, oracle.energy_uj / 1e6, oracle.switches,
               oracle.infeasible_steps);
        for (unsigned k = 0; k < board.nclusters; k++)
                printf("  %s %.1f%%", board.cluster[k].name,
                       100.0 * (double)oracle.time_in[k] / ((double)trace.nsteps * STEP_US));
        printf("\n");
        oracle_free(&oracle);
        r = bench_modes(&board, &trace);
        trace_free(&trace);
        if (r < 0) {
                fprintf(stderr, "bench_sim: modes: %s\n", strerror(-r));
                return EXIT_FAILURE;
        }
        return EXIT_SUCCESS;
}
