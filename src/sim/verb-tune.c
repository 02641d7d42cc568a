/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blsim tune: its options, the scenario of each workload, the search
 * (tune.c) and its report and drop-in. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/scenario.h"
#include "sim/tune.h"
#include "sim/verb-tune.h"

struct tune_cli {
        struct options o;               /* board, mode, config, step_us, duration_us, json */
        const char *heuristics;
        const char *out;
        bool force;                     /* --out even when held-out workloads got worse */
        unsigned nw;
        const char *workload[TUNE_MAX_WORKLOADS];
        bool held_out[TUNE_MAX_WORKLOADS];
        struct tune_options opt;
};

static bool parse_count(const char *text, unsigned long long max, unsigned long long *ret)
{
        char *end;

        if (text[0] < '0' || text[0] > '9')
                return false;
        errno = 0;
        *ret = strtoull(text, &end, 10);
        return errno == 0 && *end == '\0' && *ret <= max;
}

static int add_tune_workload(struct tune_cli *t, const char *path, bool held_out)
{
        for (unsigned i = 0; i < t->nw; i++)
                if (strcmp(t->workload[i], path) == 0) {
                        fprintf(stderr, "blsim tune: %s is named twice (a held-out workload must not be "
                                        "searched)\n", path);
                        return EXIT_USAGE;
                }
        if (t->nw == TUNE_MAX_WORKLOADS) {
                fprintf(stderr, "blsim tune: at most %u workloads\n", TUNE_MAX_WORKLOADS);
                return EXIT_USAGE;
        }
        t->workload[t->nw] = path;
        t->held_out[t->nw++] = held_out;
        return -1;
}

static unsigned online_cpus(void)
{
        long n = sysconf(_SC_NPROCESSORS_ONLN);

        return n < 1 ? 1U : n > (long)TUNE_MAX_JOBS ? TUNE_MAX_JOBS : (unsigned)n;
}

/* Returns -1 to go on, or the status to exit with. */
static int parse_tune_options(int argc, char **argv, struct tune_cli *t)
{
        enum { OPT_HOLDOUT = OPT_VERB_FIRST, OPT_HEURISTICS, OPT_MAX_LATE, OPT_BUDGET, OPT_SEED, OPT_FORCE,
               OPT_JSON };
        static const struct option longopts[] = {
                { "board", required_argument, NULL, 'b' },
                { "workload", required_argument, NULL, 'w' },
                { "holdout", required_argument, NULL, OPT_HOLDOUT },
                { "mode", required_argument, NULL, 'm' },
                { "config", required_argument, NULL, 'c' },
                { "heuristics", required_argument, NULL, OPT_HEURISTICS },
                { "max-late", required_argument, NULL, OPT_MAX_LATE },
                { "budget", required_argument, NULL, OPT_BUDGET },
                { "seed", required_argument, NULL, OPT_SEED },
                { "out", required_argument, NULL, 'o' },
                { "force", no_argument, NULL, OPT_FORCE },
                CLI_SHARED_LONG_OPTIONS,
                /* -j is --jobs here, as for make: --json has no short form. */
                { "jobs", required_argument, NULL, 'j' },
                { "json", no_argument, NULL, OPT_JSON },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        unsigned long long n;
        char *end;
        int c, r, status = -1;

        *t = (struct tune_cli){
                .opt = { .max_late = TUNE_DEFAULT_MAX_LATE, .budget = TUNE_DEFAULT_BUDGET, .seed = 1,
                         .jobs = online_cpus() },
        };
        optind = 1;
        while (status < 0 && (c = getopt_long(argc, argv, "b:w:m:c:o:j:h", longopts, NULL)) != -1) {
                if (c == 'j') {
                        if (!parse_count(optarg, TUNE_MAX_JOBS, &n) || n == 0) {
                                fprintf(stderr, "blsim tune: -j/--jobs: expected a number of threads 1-%u, got "
                                                "\"%s\" (--json is spelt out in blsim tune)\n", TUNE_MAX_JOBS,
                                        optarg);
                                status = EXIT_USAGE;
                        }
                        t->opt.jobs = (unsigned)n;
                        continue;
                }
                if (c == OPT_JSON)
                        c = 'j';
                r = cli_parse_shared_option(c, "tune", &t->o);
                if (r != 0) {
                        status = r;     /* -1: taken, go on; EXIT_USAGE ends the loop */
                        continue;
                }
                switch (c) {
                case 'b':
                        t->o.board = optarg;
                        break;
                case 'w':
                        status = add_tune_workload(t, optarg, false);
                        break;
                case OPT_HOLDOUT:
                        status = add_tune_workload(t, optarg, true);
                        break;
                case OPT_HEURISTICS:
                        t->heuristics = optarg;
                        break;
                case OPT_MAX_LATE:
                        errno = 0;
                        t->opt.max_late = strtod(optarg, &end);
                        if (errno != 0 || end == optarg || *end != '\0' || !(t->opt.max_late >= 0.0) ||
                            !isfinite(t->opt.max_late)) {
                                fprintf(stderr, "blsim tune: --max-late: expected a ratio >= 0, got "
                                                "\"%s\"\n", optarg);
                                status = EXIT_USAGE;
                        }
                        break;
                case OPT_BUDGET:
                        if (!parse_count(optarg, 10000000, &n) || n == 0) {
                                fprintf(stderr, "blsim tune: --budget: expected a number of evaluations "
                                                "1-10000000, got \"%s\"\n", optarg);
                                status = EXIT_USAGE;
                        }
                        t->opt.budget = (unsigned)n;
                        break;
                case OPT_SEED:
                        if (!parse_count(optarg, UINT64_MAX, &n)) {
                                fprintf(stderr, "blsim tune: --seed: expected a non-negative integer, got "
                                                "\"%s\"\n", optarg);
                                status = EXIT_USAGE;
                        }
                        t->opt.seed = n;
                        break;
                case 'o':
                        t->out = optarg;
                        break;
                case OPT_FORCE:
                        t->force = true;
                        break;
                default:
                        return cli_help_or_usage(c);
                }
        }
        if (status >= 0)
                return status;
        if (optind < argc) {
                fprintf(stderr, "blsim tune: unexpected argument \"%s\"\n", argv[optind]);
                return EXIT_USAGE;
        }
        if (!t->o.board || t->nw == 0) {
                fprintf(stderr, "blsim tune: --board and at least one --workload are required\n");
                return EXIT_USAGE;
        }
        if (t->force && !t->out) {
                fprintf(stderr, "blsim tune: --force goes with --out\n");
                return EXIT_USAGE;
        }
        t->opt.heuristics = t->heuristics;
        return -1;
}

static int write_dropin(const char *path, const struct tune_report *rep)
{
        FILE *f = fopen(path, "we");
        int r;

        if (!f) {
                fprintf(stderr, "blsim tune: cannot write %s: %s\n", path, strerror(errno));
                return EXIT_IOERR;
        }
        tune_print_dropin(f, rep);
        errno = 0;
        r = fflush(f) != 0 || ferror(f) ? (errno ? -errno : -EIO) : 0;
        if (fclose(f) != 0 && r == 0)
                r = errno ? -errno : -EIO;
        if (r < 0) {
                fprintf(stderr, "blsim tune: cannot write %s: %s\n", path, strerror(-r));
                return EXIT_IOERR;
        }
        return 0;
}

/* The references of every workload, as "blsim run" computes them. */
static int open_tune_scenarios(const struct tune_cli *t, enum bl_mode mode, struct scenario **sc,
                               struct tune_workload *tw)
{
        for (unsigned i = 0; i < t->nw; i++) {
                struct options o = t->o;
                const struct sim_qos *q;
                int status;

                o.workload = t->workload[i];
                status = scenario_open(&sc[i], &o, mode);
                if (status != 0)
                        return status;
                q = &sc[i]->report.big.qos;
                tw[i] = (struct tune_workload){
                        .name = t->workload[i],
                        .w = sc[i]->workload,
                        .held_out = t->held_out[i],
                        .rtapp = sc[i]->rtapp,
                        .big_late_work_ratio = sc[i]->report.big.late_work_ratio,
                        .big_energy_uj = sc[i]->report.big.energy_uj,
                        .oracle_energy_uj = sc[i]->oracle.energy_uj,
                        .big_miss_ratio = q->activations > 0 ?
                                                  (double)q->misses / (double)q->activations : 0.0,
                };
        }
        return 0;
}

struct tune_run_state {
        struct scenario *sc[TUNE_MAX_WORKLOADS];
        struct tune_workload tw[TUNE_MAX_WORKLOADS];
        struct sim_result base[TUNE_MAX_WORKLOADS];
        struct sim_result tuned[TUNE_MAX_WORKLOADS];
        struct tune_outcome out;
        struct bl_diag diag;
};

static int tune_and_report(const struct tune_cli *t, const struct bl_config *cfg, struct tune_run_state *st)
{
        const struct sim_board *b = &st->sc[0]->board;
        const struct sim_mode *m = &st->sc[0]->mode;
        struct tune_report rep = {
                .board = b->name,
                .mode = mode_to_string(m->mode),
                .base_name = t->o.config ? t->o.config : "the shipped configuration",
                .opt = &t->opt,
                .w = st->tw,
                .nw = t->nw,
                .base = st->base,
                .tuned = st->tuned,
                .out = &st->out,
        };
        struct tune_progress_line pl;
        struct tune_options opt = t->opt;
        bool refused, progress = isatty(STDERR_FILENO);
        int r, status;

        if (progress) {
                tune_progress_line_start(&pl, stderr);
                opt.on_progress = tune_progress_line_show;
                opt.userdata = &pl;
        }
        diag_init(&st->diag);
        r = tune_run(b, m, st->tw, t->nw, cfg, &opt, &st->out, &st->diag);
        if (progress)
                tune_progress_line_end(&pl, &st->out);
        cli_print_diag(&st->diag);
        if (r == -EINVAL)
                return EXIT_USAGE;
        if (r < 0)
                return cli_run_failed("tune", r);
        r = tune_results(b, m, st->tw, t->nw, cfg, "base", t->opt.jobs, st->base);
        if (r == 0)
                r = tune_results(b, m, st->tw, t->nw, &st->out.tuned_config, "tuned", t->opt.jobs, st->tuned);
        if (r < 0)
                return cli_run_failed("tune", r);
        /* A result fitted to the searched workloads is not written where a
         * daemon would read it; the report still shows it. */
        refused = t->out && !t->force && tune_count_worse(&rep) > 0;
        if (t->out && !refused) {
                status = write_dropin(t->out, &rep);
                if (status != 0)
                        return status;
        }
        if (t->o.json) {
                tune_print_json(stdout, &rep);
        } else {
                tune_print_text(stdout, &rep);
                if (refused)
                        printf("\nThe drop-in was not written to %s: see above and below.\n", t->out);
                else if (t->out)
                        printf("\nThe drop-in is in %s.\n", t->out);
                else {
                        printf("\nThe drop-in (--out FILE writes it):\n\n");
                        tune_print_dropin(stdout, &rep);
                }
        }
        status = cli_finish_output();
        if (status == 0 && refused) {
                fprintf(stderr, "blsim tune: not writing %s: the tuned configuration does worse than the base on "
                                "held-out workloads (--force writes it all the same):\n", t->out);
                tune_print_worse(stderr, &rep);
                status = EXIT_DATAERR;
        }
        return status;
}

int sim_verb_tune(int argc, char **argv)
{
        const char *preset = "default";
        struct tune_run_state *st = NULL;
        struct bl_config *cfg = NULL;
        struct tune_cli t;
        int status;

        status = parse_tune_options(argc, argv, &t);
        if (status >= 0)
                return status;
        status = scenario_load_policies(&preset, 1, t.o.config, &cfg);
        if (status == 0) {
                st = calloc(1, sizeof(*st));
                if (!st) {
                        fprintf(stderr, "blsim: %s\n", strerror(ENOMEM));
                        status = EXIT_FAILURE;
                }
        }
        if (status == 0)
                status = open_tune_scenarios(&t, scenario_mode(&t.o, cfg), st->sc, st->tw);
        if (status == 0)
                status = tune_and_report(&t, cfg, st);
        for (unsigned i = 0; st && i < t.nw; i++)
                scenario_free(st->sc[i]);
        free(st);
        free(cfg);
        return status;
}
