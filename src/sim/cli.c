/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blsim's command line (cli.h): the help, the options run, compare and live
 * read, and what every verb does with an error or its report. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loaders/board-file.h"
#include "sim/cli.h"
#include "sim/rtapp.h"
#include "sim/tune.h"

#define PLOT_PACKAGE "gnuplot-nox"

void cli_usage(FILE *f)
{
        fprintf(f,
                "Usage: blsim run --board B --workload W [--mode M] [--config C] [--policy NAME]\n"
                "                 [--step-us N] [--duration S] [--reactive-interval MS]\n"
                "                 [--oracle-start S] [--trace FILE] [--json]\n"
                "       blsim compare --board B --workload W [--mode M] [--config C] [--step-us N]\n"
                "                 [--duration S] [--reactive-interval MS] [--oracle-start S] [--json]\n"
                "                 [--plot FILE [--policies LIST]]\n"
                "       blsim tune --board B --workload W [--workload W ...] [--holdout W ...] [--mode M]\n"
                "                 [--config C] [--heuristics LIST] [--max-late R] [--budget N] [--seed S]\n"
                "                 [--out FILE [--force]] [--jobs N] [--step-us N] [--duration S] [--json]\n"
                "       blsim live --board B --workload W [--mode M] [--config C] [--step-us N]\n"
                "                 [--duration S] [--testbed DIR] [--residency step|kernel] [--plot FILE]\n"
                "                 [--json] -- COMMAND [ARG]...\n"
                "       blsim generate FAMILY --seed N [--duration S] [--out FILE]\n"
                "       blsim generate --all --seeds A-B --out-dir DIR [--duration S]\n"
                "       blsim generate --list\n"
                "       blsim board import (--dts FILE | --sysfs ROOT) [--name NAME] [--out FILE]\n"
                "       blsim list\n"
                "       blsim --help | --version\n"
                "Simulate bigLittle's engine and heuristics in virtual time on a board model.\n\n"
                "  -b, --board B         board model (a file, or the name of an installed board)\n"
                "  -w, --workload W      trace (.csv) or rt-app description (.json)\n"
                "  -m, --mode M          cluster, pair or mp (default: the configuration's, else cluster)\n"
                "  -c, --config C        bigLittle.conf-style file (and C.d/*.conf) on top of the policy\n"
                "  -p, --policy NAME     preset to run (default \"default\"; see blsim list)\n"
                "      --step-us N       step of an rt-app simulation in us (default %llu)\n"
                "      --duration S      length of an rt-app workload that sets none, in s (default %llu)\n"
                "      --backend NAME    the switch cost of that backend (switcher, cpufreq, cpuset,\n"
                "                        hotplug), from the board's [backend.NAME] (default: the plain\n"
                "                        switch_latency_us and switch_energy_uj)\n"
                "      --switch-cost US,UJ\n"
                "                        every switch stalls US us and costs UJ uJ (over --backend)\n"
                "      --oracle-start S  lowest: the oracle starts on the lowest level, as every run does,\n"
                "                        and pays the switch up from it (default); free: its first step\n"
                "                        is free on any level\n"
                "      --reactive-interval MS\n"
                "                        run, compare: the reactive oracle's sampling interval\n"
                "                        (default: the configuration's sample_interval_ms)\n"
                "  -j, --json            one JSON object instead of text (tune: --json only)\n"
                "  -j, --jobs N          tune: simulate up to N workloads at once (default: the online\n"
                "                        CPUs); the result is the same for any N\n"
                "      --trace FILE      run: every decision of the engine into FILE (CSV): its time,\n"
                "                        level, demand, energy so far, whether it switched, and why\n"
                "      --plot FILE       compare, live: draw the timelines with gnuplot (.svg or .png)\n"
                "      --policies LIST   compare: the rows to plot, \"a,b,c\" (default: default or config,\n"
                "                        the best classic policy, reactive-oracle, oracle)\n"
                "      --holdout W       tune: a workload reported on but never searched on\n"
                "      --heuristics LIST tune: the heuristics to tune (default: the configuration's)\n"
                "      --max-late R      tune: lateness allowed beyond always-big's (default %g)\n"
                "      --budget N        tune: configurations to simulate (default %u)\n"
                "      --seed S          tune: seed of the random restarts (default 1)\n"
                "  -o, --out FILE        tune: write the drop-in configuration to FILE (not when it does\n"
                "                        worse on a held-out workload)\n"
                "      --force           tune: write --out even when it does worse on a held-out workload\n"
                "      --testbed DIR     live: make DIR a link to the board's testbed while it runs\n"
                "      --residency R     live: cpuidle residency per board step (step, the default),\n"
                "                        or as a kernel credits it, when an idle period ends (kernel)\n"
                "  -h, --help            show this help\n"
                "  -V, --version         show the version\n",
                (unsigned long long)RTAPP_DEFAULT_STEP_US,
                (unsigned long long)(RTAPP_DEFAULT_DURATION_US / BL_USEC_PER_SEC), TUNE_DEFAULT_MAX_LATE,
                TUNE_DEFAULT_BUDGET);
}

int cli_help_or_usage(int c)
{
        cli_usage(c == 'h' ? stdout : stderr);
        return c == 'h' ? EXIT_SUCCESS : EXIT_USAGE;
}

/* Messages that name their place (FILE:LINE) are printed as they are. */
void cli_print_diag(const struct bl_diag *diag)
{
        for (unsigned i = 0; i < diag->n; i++)
                fprintf(stderr, "%s\n", diag->msg[i]);
        if (diag->dropped > 0)
                fprintf(stderr, "blsim: %u more problems not shown\n", diag->dropped);
}

static bool parse_usec(const char *text, double scale, bl_usec_t *ret)
{
        char *end;
        double v;

        errno = 0;
        v = strtod(text, &end);
        if (errno != 0 || end == text || *end != '\0' || !(v > 0.0) || v * scale > 1e15)
                return false;
        *ret = (bl_usec_t)(v * scale + 0.5);
        return *ret > 0;
}

/* "US,UJ": two numbers of at most 1e6 each, as a board file's. */
static bool parse_switch_cost(const char *text, double *latency_us, double *energy_uj)
{
        char *end;

        errno = 0;
        *latency_us = strtod(text, &end);
        if (errno != 0 || end == text || *end != ',' || !(*latency_us >= 0 && *latency_us <= 1e6))
                return false;
        text = end + 1;
        *energy_uj = strtod(text, &end);
        return errno == 0 && end != text && *end == '\0' && *energy_uj >= 0 && *energy_uj <= 1e6;
}

/* One option of those every verb shares (--mode, --config, --step-us,
 * --duration, --json). Returns -1 when it was one and is valid, 0 when it is
 * not one of them, or EXIT_USAGE after saying what is wrong. */
int cli_parse_shared_option(int c, const char *verb, struct options *o)
{
        switch (c) {
        case 'm':
                if (strcmp(optarg, "cluster") == 0)
                        o->mode = BL_MODE_CLUSTER;
                else if (strcmp(optarg, "pair") == 0)
                        o->mode = BL_MODE_PAIR;
                else if (strcmp(optarg, "mp") == 0)
                        o->mode = BL_MODE_MP;
                else {
                        fprintf(stderr, "blsim %s: --mode: expected cluster, pair or mp, got \"%s\"\n", verb,
                                optarg);
                        return EXIT_USAGE;
                }
                return -1;
        case 'c':
                o->config = optarg;
                return -1;
        case OPT_STEP_US:
                if (!parse_usec(optarg, 1.0, &o->step_us)) {
                        fprintf(stderr, "blsim %s: --step-us: expected a positive number of us, got \"%s\"\n",
                                verb, optarg);
                        return EXIT_USAGE;
                }
                return -1;
        case OPT_DURATION:
                if (!parse_usec(optarg, 1e6, &o->duration_us)) {
                        fprintf(stderr, "blsim %s: --duration: expected a positive number of seconds, got "
                                        "\"%s\"\n", verb, optarg);
                        return EXIT_USAGE;
                }
                return -1;
        case 'j':
                o->json = true;
                return -1;
        case OPT_BACKEND:
                if (board_backend_find(optarg) < 0) {
                        fprintf(stderr, "blsim %s: --backend: expected switcher, cpufreq, cpuset or hotplug, "
                                        "got \"%s\"\n", verb, optarg);
                        return EXIT_USAGE;
                }
                o->backend = optarg;
                return -1;
        case OPT_SWITCH_COST:
                if (!parse_switch_cost(optarg, &o->switch_latency_us, &o->switch_energy_uj)) {
                        fprintf(stderr, "blsim %s: --switch-cost: expected US,UJ (two numbers 0-1000000), "
                                        "got \"%s\"\n", verb, optarg);
                        return EXIT_USAGE;
                }
                o->switch_cost_given = true;
                return -1;
        case OPT_ORACLE_START:
                if (strcmp(optarg, "free") != 0 && strcmp(optarg, "lowest") != 0) {
                        fprintf(stderr, "blsim %s: --oracle-start: expected free or lowest, got \"%s\"\n", verb,
                                optarg);
                        return EXIT_USAGE;
                }
                o->oracle_start_free = strcmp(optarg, "free") == 0;
                return -1;
        default:
                return 0;
        }
}

static bool gnuplot_installed(void)
{
        const char *path = getenv("PATH");
        char file[PATH_MAX];

        if (!path)
                path = "/usr/bin:/bin";
        for (const char *p = path; *p;) {
                size_t n = strcspn(p, ":");
                /* An empty entry is the current directory, as for the shell. */
                int len = snprintf(file, sizeof(file), "%.*s/gnuplot", (int)(n ? n : 1), n ? p : ".");

                if (len > 0 && (size_t)len < sizeof(file) && access(file, X_OK) == 0)
                        return true;
                p += n;
                if (*p == ':')
                        p++;
        }
        return false;
}

int cli_parse_options(int argc, char **argv, bool compare, struct options *o)
{
        enum { OPT_PLOT = OPT_VERB_FIRST, OPT_TESTBED, OPT_REACTIVE, OPT_RESIDENCY, OPT_POLICIES, OPT_TRACE };
        static const struct option longopts[] = {
                { "board", required_argument, NULL, 'b' },
                { "workload", required_argument, NULL, 'w' },
                { "mode", required_argument, NULL, 'm' },
                { "config", required_argument, NULL, 'c' },
                { "policy", required_argument, NULL, 'p' },
                CLI_SHARED_LONG_OPTIONS,
                { "json", no_argument, NULL, 'j' },
                { "plot", required_argument, NULL, OPT_PLOT },
                { "testbed", required_argument, NULL, OPT_TESTBED },
                { "reactive-interval", required_argument, NULL, OPT_REACTIVE },
                { "residency", required_argument, NULL, OPT_RESIDENCY },
                { "policies", required_argument, NULL, OPT_POLICIES },
                { "trace", required_argument, NULL, OPT_TRACE },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        const char *verb = argv[0];
        /* live stops at the command: its options are its own. */
        const bool live = strcmp(verb, "live") == 0;
        int c, r;

        *o = (struct options){ 0 };
        optind = 1;
        while ((c = getopt_long(argc, argv, live ? "+b:w:m:c:p:jh" : "b:w:m:c:p:jh", longopts, NULL)) != -1) {
                r = cli_parse_shared_option(c, verb, o);
                if (r > 0)
                        return r;
                if (r < 0)
                        continue;
                switch (c) {
                case 'b':
                        o->board = optarg;
                        break;
                case 'w':
                        o->workload = optarg;
                        break;
                case 'p':
                        if (live) {
                                fprintf(stderr, "blsim live: --policy does not apply: the command decides\n");
                                return EXIT_USAGE;
                        }
                        if (compare) {
                                fprintf(stderr, "blsim compare: --policy does not apply: compare runs every "
                                                "preset\n");
                                return EXIT_USAGE;
                        }
                        o->policy = optarg;
                        break;
                case OPT_PLOT:
                        if (!compare && !live) {
                                fprintf(stderr, "blsim %s: --plot belongs to blsim compare and blsim live\n",
                                        verb);
                                return EXIT_USAGE;
                        }
                        if (!report_plot_terminal(optarg)) {
                                fprintf(stderr, "blsim %s: --plot %s: the file name must end in .svg or "
                                                ".png\n", verb, optarg);
                                return EXIT_USAGE;
                        }
                        o->plot = optarg;
                        break;
                case OPT_TRACE:
                        if (compare || live) {
                                fprintf(stderr, "blsim %s: --trace belongs to blsim run\n", verb);
                                return EXIT_USAGE;
                        }
                        o->trace = optarg;
                        break;
                case OPT_POLICIES:
                        if (!compare) {
                                fprintf(stderr, "blsim %s: --policies belongs to blsim compare\n", verb);
                                return EXIT_USAGE;
                        }
                        o->policies = optarg;
                        break;
                case OPT_TESTBED:
                        if (!live) {
                                fprintf(stderr, "blsim %s: --testbed belongs to blsim live\n", verb);
                                return EXIT_USAGE;
                        }
                        o->testbed = optarg;
                        break;
                case OPT_RESIDENCY:
                        if (!live) {
                                fprintf(stderr, "blsim %s: --residency belongs to blsim live\n", verb);
                                return EXIT_USAGE;
                        }
                        if (strcmp(optarg, "step") == 0) {
                                o->residency = FAKEBOARD_RESIDENCY_STEP;
                        } else if (strcmp(optarg, "kernel") == 0) {
                                o->residency = FAKEBOARD_RESIDENCY_KERNEL;
                        } else {
                                fprintf(stderr, "blsim live: --residency: expected step or kernel, got "
                                                "\"%s\"\n", optarg);
                                return EXIT_USAGE;
                        }
                        break;
                case OPT_REACTIVE:
                        /* Below the daemon's 5 ms floor too: what faster sampling would buy. */
                        if (live) {
                                fprintf(stderr, "blsim live: --reactive-interval belongs to blsim run and "
                                                "blsim compare\n");
                                return EXIT_USAGE;
                        }
                        if (!parse_usec(optarg, 1e3, &o->reactive_us)) {
                                fprintf(stderr, "blsim %s: --reactive-interval: expected a positive "
                                                "number of ms, got \"%s\"\n", verb, optarg);
                                return EXIT_USAGE;
                        }
                        break;
                default:
                        return cli_help_or_usage(c);
                }
        }
        if (live && optind < argc)
                o->command = argv + optind;
        else if (live) {
                fprintf(stderr, "blsim live: expected the command to run after the options "
                                "(-- COMMAND ...)\n");
                return EXIT_USAGE;
        } else if (optind < argc) {
                fprintf(stderr, "blsim %s: unexpected argument \"%s\"\n", verb, argv[optind]);
                return EXIT_USAGE;
        }
        if (!o->board || !o->workload) {
                fprintf(stderr, "blsim %s: --board and --workload are required\n", verb);
                return EXIT_USAGE;
        }
        if (o->policies && !o->plot) {
                fprintf(stderr, "blsim %s: --policies chooses the lines of --plot, which is not given\n", verb);
                return EXIT_USAGE;
        }
        if (o->plot && !gnuplot_installed()) {
                fprintf(stderr, "blsim: --plot needs gnuplot, which is not installed (package %s)\n",
                        PLOT_PACKAGE);
                return EXIT_UNAVAILABLE;
        }
        return -1;
}

int cli_run_failed(const char *what, int r)
{
        fprintf(stderr, "blsim: %s: %s\n", what, strerror(-r));
        return r == -ENOMEM ? EXIT_FAILURE : EXIT_SOFTWARE;
}

int cli_finish_output(void)
{
        if (fflush(stdout) != 0 || ferror(stdout)) {
                fprintf(stderr, "blsim: cannot write the report: %s\n", strerror(errno));
                return EXIT_IOERR;
        }
        return EXIT_SUCCESS;
}

int cli_plot(const struct options *o, const struct sim_report *rep, const struct sim_plot_line *lines,
             unsigned nlines)
{
        FILE *gp;
        int r, wstatus;

        /* A gnuplot that dies early must not kill us with SIGPIPE. */
        signal(SIGPIPE, SIG_IGN);
        gp = popen("gnuplot", "w");
        if (!gp) {
                fprintf(stderr, "blsim: cannot run gnuplot: %s\n", strerror(errno));
                return EXIT_UNAVAILABLE;
        }
        r = report_plot_script(gp, o->plot, rep, lines, nlines);
        wstatus = pclose(gp);
        if (r < 0 || wstatus == -1 || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
                fprintf(stderr, "blsim: gnuplot could not draw %s\n", o->plot);
                return EXIT_IOERR;
        }
        return 0;
}

bool cli_has_suffix(const char *s, const char *suffix)
{
        size_t n = strlen(s), m = strlen(suffix);

        return n >= m && strcasecmp(s + n - m, suffix) == 0;
}
