/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blsim: runs the daemon's engine and heuristics in virtual time on a board
 * model and scores them against always-big, always-little and the oracle.
 * One function per verb; everything they share is a "scenario": the board,
 * the workload and the three references every verb reports against. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/fileio.h"
#include "loaders/board-file.h"
#include "loaders/conf-files.h"
#include "policy/builtin.h"
#include "sim/datadir.h"
#include "sim/live.h"
#include "sim/presets.h"
#include "sim/reactive.h"
#include "sim/report.h"
#include "sim/rtapp.h"
#include "sim/tune.h"
#include "sim/verb-board.h"
#include "sim/verb-generate.h"

/* Exit statuses (sysexits.h), documented in blsim(1). */
#define EXIT_USAGE 64
#define EXIT_DATAERR 65
#define EXIT_NOINPUT 66
#define EXIT_UNAVAILABLE 69
#define EXIT_SOFTWARE 70
#define EXIT_IOERR 74
#define EXIT_CONFIG 78

#define PLOT_PACKAGE "gnuplot-nox"
/* How long a live board's command may take to exit after SIGTERM. */
#define LIVE_STOP_TIMEOUT_MS 10000

/* The policies "compare" runs through the engine, in table order. A
 * --config file goes on top of the last, the shipped defaults, and that row
 * is then called "config". */
static const char *const compare_presets[] = {
        "ondemand", "conservative", "interactive", "hmp", "exynos5410",
        "util", "pelt", "psi", "trend", "default",
};

struct options {
        const char *board;
        const char *workload;
        const char *config;
        const char *policy;
        const char *plot;
        const char *policies;           /* compare: the lines of the plot, "a,b,c"; NULL: the default */
        bl_usec_t step_us;              /* 0: the trace's own, rt-app's default */
        bl_usec_t duration_us;          /* rt-app without a duration of its own; 0: default */
        bl_usec_t reactive_us;          /* the reactive oracle's interval; 0: sample_interval_ms */
        enum bl_mode mode;              /* AUTO: the configuration's, else cluster */
        const char *backend;            /* whose switch cost to simulate; NULL: the board's plain one */
        bool switch_cost_given;         /* --switch-cost: the plain figures below instead */
        double switch_latency_us, switch_energy_uj;
        bool oracle_start_free;         /* --oracle-start free; else the lowest level, where runs start */
        bool json;
        const char *testbed;            /* live: a link to the testbed, for other commands */
        enum fakeboard_residency residency;     /* live: how the board credits cpuidle residency */
        char **command;                 /* live: what switches the board */
};

struct scenario {
        struct sim_board board;
        struct sim_mode mode;
        bool rtapp;
        struct sim_trace trace;         /* the CSV, or the always-little arrivals of an rt-app run */
        struct sim_workload *workload;
        struct sim_oracle oracle;       /* with its sequence, for the reactive oracle */
        struct sim_result reactive;
        struct sim_report report;
};

static void usage(FILE *f)
{
        fprintf(f,
                "Usage: blsim run --board B --workload W [--mode M] [--config C] [--policy NAME]\n"
                "                 [--step-us N] [--duration S] [--reactive-interval MS]\n"
                "                 [--oracle-start S] [--json]\n"
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

/* Messages that name their place (FILE:LINE) are printed as they are. */
static void print_diag(const struct bl_diag *diag)
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

/* Returns -1 to go on, or the status to exit with. */
/* Options every verb reads the same way (the verb's own enum starts after
 * these). */
enum { OPT_STEP_US = 0x100, OPT_DURATION, OPT_BACKEND, OPT_SWITCH_COST, OPT_ORACLE_START, OPT_VERB_FIRST };

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
static int parse_shared_option(int c, const char *verb, struct options *o)
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

static int parse_options(int argc, char **argv, bool compare, struct options *o)
{
        enum { OPT_PLOT = OPT_VERB_FIRST, OPT_TESTBED, OPT_REACTIVE, OPT_RESIDENCY, OPT_POLICIES };
        static const struct option longopts[] = {
                { "board", required_argument, NULL, 'b' },
                { "workload", required_argument, NULL, 'w' },
                { "mode", required_argument, NULL, 'm' },
                { "config", required_argument, NULL, 'c' },
                { "policy", required_argument, NULL, 'p' },
                { "step-us", required_argument, NULL, OPT_STEP_US },
                { "duration", required_argument, NULL, OPT_DURATION },
                { "backend", required_argument, NULL, OPT_BACKEND },
                { "switch-cost", required_argument, NULL, OPT_SWITCH_COST },
                { "oracle-start", required_argument, NULL, OPT_ORACLE_START },
                { "json", no_argument, NULL, 'j' },
                { "plot", required_argument, NULL, OPT_PLOT },
                { "testbed", required_argument, NULL, OPT_TESTBED },
                { "reactive-interval", required_argument, NULL, OPT_REACTIVE },
                { "residency", required_argument, NULL, OPT_RESIDENCY },
                { "policies", required_argument, NULL, OPT_POLICIES },
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
                r = parse_shared_option(c, verb, o);
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
                case 'h':
                        usage(stdout);
                        return EXIT_SUCCESS;
                default:
                        usage(stderr);
                        return EXIT_USAGE;
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

/* The switch cost the options ask for: a backend's figures, then the
 * plain override on top. */
static int select_switch_cost(struct sim_board *b, const struct options *o)
{
        if (o->backend && board_select_backend(b, (enum sim_backend)board_backend_find(o->backend)) < 0) {
                fprintf(stderr, "blsim: --backend %s: the board %s has no [backend.%s] section\n", o->backend,
                        b->name, o->backend);
                return EXIT_CONFIG;
        }
        if (o->switch_cost_given)
                board_override_switch(b, o->switch_latency_us, o->switch_energy_uj);
        return 0;
}

/* The boards and workloads directories, found once (sim/datadir.h). */
static const struct sim_datadir *datadir(void)
{
        static struct sim_datadir d;
        static bool found;

        if (!found) {
                int r = sim_datadir_find(&d, BOARDSDIR, WORKLOADSDIR);

                if (r < 0)
                        fprintf(stderr, "blsim: BLSIM_DATADIR or blsim.srcdir: %s; using %s\n", strerror(-r),
                                d.boards);
                found = true;
        }
        return &d;
}

/* A board is a file, or the name of one in the boards directory. */
static int load_board(struct scenario *sc, const char *arg)
{
        char installed[PATH_MAX];
        const char *path = arg;
        struct bl_diag diag;
        int r;

        if (!strchr(arg, '/') && access(arg, F_OK) < 0 &&
            (size_t)snprintf(installed, sizeof(installed), "%s/%s.ini", datadir()->boards, arg) < sizeof(installed) &&
            access(installed, F_OK) == 0)
                path = installed;

        diag_init(&diag);
        r = board_load(&sc->board, path, &diag);
        print_diag(&diag);
        if (r < 0)
                return EXIT_NOINPUT;
        if (r > 0)
                return EXIT_CONFIG;
        return 0;
}

static int build_mode(struct scenario *sc, enum bl_mode mode)
{
        struct bl_diag diag;
        int r;

        diag_init(&diag);
        r = sim_mode_build(&sc->mode, &sc->board, mode, &diag);
        print_diag(&diag);
        if (r == -EOPNOTSUPP || r == -E2BIG)
                return EXIT_UNAVAILABLE;
        return r < 0 ? EXIT_CONFIG : 0;
}

static bool has_suffix(const char *s, const char *suffix)
{
        size_t n = strlen(s), m = strlen(suffix);

        return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* By extension, else by the first character: rt-app files are JSON objects.
 * Only the start is read here: traces can be far larger than read_file()
 * takes, and trace_load() reads them itself. */
static int looks_like_rtapp(const char *path, bool *rtapp, char *why, size_t size)
{
        char head[256];
        size_t n;
        FILE *f;
        int fd;

        if (has_suffix(path, ".json") || has_suffix(path, ".csv")) {
                *rtapp = has_suffix(path, ".json");
                return 0;
        }
        /* A FIFO would hang here; trace_load() refuses it all the same. */
        fd = open_regular(AT_FDCWD, path, 0, NULL, why, size);
        if (fd < 0)
                return fd;
        f = fdopen(fd, "r");
        if (!f) {
                int r = -errno;

                close(fd);
                snprintf(why, size, "cannot read: %s", strerror(-r));
                return r;
        }
        errno = 0;
        n = fread(head, 1, sizeof(head) - 1, f);
        head[n] = '\0';
        if (ferror(f)) {
                int r = errno ? -errno : -EIO;

                fclose(f);
                snprintf(why, size, "cannot read: %s", strerror(-r));
                return r;
        }
        fclose(f);
        *rtapp = head[strspn(head, " \t\r\n")] == '{';
        return 0;
}

static int load_rtapp(struct scenario *sc, const struct options *o)
{
        struct bl_diag diag;
        int r;

        diag_init(&diag);
        r = rtapp_workload_load(&sc->workload, o->workload, o->step_us, o->duration_us, &diag);
        print_diag(&diag);
        if (r == -ENOMEM)
                return EXIT_FAILURE;
        if (r == -EINVAL) {
                if (diag.n == 0)
                        fprintf(stderr, "%s: not a valid rt-app workload\n", o->workload);
                return EXIT_CONFIG;
        }
        if (r < 0)
                return EXIT_NOINPUT;
        rtapp_workload_set_reference_capacity(sc->workload, sc->board.reference_capacity);
        return 0;
}

static int load_trace(struct scenario *sc, const struct options *o)
{
        struct bl_diag diag;
        int r;

        diag_init(&diag);
        r = trace_load(&sc->trace, o->workload, &diag);
        print_diag(&diag);
        if (r == -ENOMEM)
                return EXIT_FAILURE;
        if (r < 0)
                return EXIT_NOINPUT;
        if (r > 0)
                return EXIT_CONFIG;
        if (o->step_us && o->step_us != sc->trace.step_us) {
                fprintf(stderr, "blsim: --step-us %llu: %s has step_us=%llu; --step-us only sets the step of "
                                "rt-app workloads\n", (unsigned long long)o->step_us, o->workload,
                        (unsigned long long)sc->trace.step_us);
                return EXIT_USAGE;
        }
        r = workload_from_trace(&sc->workload, o->workload, &sc->trace);
        if (r < 0) {
                fprintf(stderr, "%s: %s\n", o->workload, strerror(-r));
                return EXIT_FAILURE;
        }
        return 0;
}

/* A workload is a file, or the name of one in the workloads directory
 * ("idle-bursts", "holdout/typing", "rt-app/mp3-short": blsim list). */
static int load_workload(struct scenario *sc, const struct options *given)
{
        struct options named = *given;
        const struct options *o = given;
        char path[PATH_MAX], why[256];
        int r;

        if (given->workload[0] != '/' && access(given->workload, F_OK) < 0 &&
            sim_datadir_workload(datadir(), given->workload, path, sizeof(path)) == 0) {
                named.workload = path;
                o = &named;
        }
        r = looks_like_rtapp(o->workload, &sc->rtapp, why, sizeof(why));

        if (r < 0) {
                fprintf(stderr, "%s: %s\n", o->workload, why);
                return EXIT_NOINPUT;
        }
        return sc->rtapp ? load_rtapp(sc, o) : load_trace(sc, o);
}

static int run_failed(const char *what, int r)
{
        fprintf(stderr, "blsim: %s: %s\n", what, strerror(-r));
        return r == -ENOMEM ? EXIT_FAILURE : EXIT_SOFTWARE;
}

/* The references every verb reports against: always-little (which also
 * records what an rt-app workload asked for), always-big and the oracle.
 * rt-app tasks offer work at the pace of the CPU they run on, so the
 * always-little run's arrivals are the least bursty any policy can see: an
 * oracle on the always-big arrivals would have to clear big's pace on
 * LITTLE and could hardly ever use it. */
/* The oracle over the mode's system levels, reported like the cluster
 * oracle: time per class. */
static int solve_levels(struct scenario *sc, unsigned start)
{
        struct sim_level_oracle lo;
        int r;

        r = oracle_solve_levels_from(&sc->board, &sc->mode.levels, &sc->trace, start, true, &lo);
        if (r < 0)
                return r;
        sc->oracle = (struct sim_oracle){ .energy_uj = lo.energy_uj, .switches = lo.switches, .start = lo.start,
                                          .infeasible_steps = lo.infeasible_steps, .sequence = lo.sequence };
        for (unsigned l = 0; l < sc->mode.levels.nlevels; l++)
                sc->oracle.time_in[sc->mode.class_of[l]] += lo.time_in[l];
        return 0;
}

static int run_references(struct scenario *sc, const struct options *o)
{
        struct sim_report *rep = &sc->report;
        const struct sim_mode *m = &sc->mode;
        const unsigned top = m->levels.nlevels - 1;
        /* Level 0 is where every run starts (and the daemon, which applies
         * it first): an oracle starting anywhere else for free has a head
         * start no policy has. */
        const unsigned start = o->oracle_start_free ? ORACLE_START_FREE : 0;
        int r;

        if (m->mode == BL_MODE_CLUSTER) {
                r = sim_run_fixed(&sc->board, sc->workload, 0, &rep->little, sc->rtapp ? &sc->trace : NULL);
                if (r < 0)
                        return run_failed("always-little", r);
                r = sim_run_fixed(&sc->board, sc->workload, top, &rep->big, NULL);
        } else {
                r = sim_run_fixed_level(&sc->board, &m->levels, sc->workload, 0, &rep->little,
                                        sc->rtapp ? &sc->trace : NULL);
                if (r < 0)
                        return run_failed("always-little", r);
                r = sim_run_fixed_level(&sc->board, &m->levels, sc->workload, top, &rep->big, NULL);
                /* Reported per class, like the engine-driven runs. */
                memset(rep->little.time_in, 0, sizeof(rep->little.time_in));
                memset(rep->big.time_in, 0, sizeof(rep->big.time_in));
                rep->little.time_in[m->class_of[0]] = (bl_usec_t)rep->little.steps * sc->workload->step_us;
                rep->big.time_in[m->class_of[top]] = (bl_usec_t)rep->big.steps * sc->workload->step_us;
        }
        if (r < 0)
                return run_failed("always-big", r);
        snprintf(rep->little.policy, sizeof(rep->little.policy), "always-little");
        snprintf(rep->big.policy, sizeof(rep->big.policy), "always-big");

        /* The cluster oracle prices the plain cost only. */
        r = m->mode == BL_MODE_CLUSTER && board_switch_plain(&sc->board, (double)sc->trace.step_us) ?
                oracle_solve_from(&sc->board, &sc->trace, start, true, &sc->oracle) : solve_levels(sc, start);
        if (r < 0)
                return run_failed("oracle", r);

        rep->board = sc->board.name;
        rep->model = &sc->board;
        rep->workload = o->workload;
        rep->rtapp = sc->rtapp;
        if (sc->rtapp)
                rep->napprox = rtapp_workload_approximations(sc->workload, rep->approx,
                                                             sizeof(rep->approx) / sizeof(rep->approx[0]));
        rep->steps = sc->trace.nsteps;
        rep->step_us = sc->workload->step_us;
        rep->mode = m;
        rep->oracle = &sc->oracle;
        return 0;
}

static void scenario_free(struct scenario *sc)
{
        if (!sc)
                return;
        workload_free(sc->workload);
        trace_free(&sc->trace);
        oracle_free(&sc->oracle);
        free(sc);
}

static int scenario_open(struct scenario **ret, const struct options *o, enum bl_mode mode)
{
        struct scenario *sc = calloc(1, sizeof(*sc));
        int status;

        if (!sc) {
                fprintf(stderr, "blsim: %s\n", strerror(ENOMEM));
                return EXIT_FAILURE;
        }
        status = load_board(sc, o->board);
        if (status == 0)
                status = select_switch_cost(&sc->board, o);
        if (status == 0)
                status = build_mode(sc, mode);
        if (status == 0)
                status = load_workload(sc, o);
        if (status == 0)
                status = run_references(sc, o);
        if (status != 0) {
                scenario_free(sc);
                return status;
        }
        *ret = sc;
        return 0;
}

/* The reactive oracle at 'interval_us' (0: the configuration's sampling
 * interval), reported per class like the oracle; on the trace the oracle
 * solves (for rt-app, the always-little arrivals). */
static int run_reactive(struct scenario *sc, const struct bl_config *cfg, bl_usec_t interval_us)
{
        const bl_usec_t interval = interval_us ? interval_us :
                                                 (bl_usec_t)cfg->sample_interval_ms * BL_USEC_PER_MSEC;
        struct sim_result *res = &sc->reactive;
        bl_usec_t time_in[SIM_MAX_LEVELS];
        int r;

        r = reactive_oracle_run(&sc->board, &sc->mode.levels, &sc->trace, sc->oracle.sequence, interval, res);
        if (r < 0)
                return run_failed("reactive oracle", r);
        memcpy(time_in, res->time_in, sizeof(time_in));
        memset(res->time_in, 0, sizeof(res->time_in));
        for (unsigned l = 0; l < sc->mode.levels.nlevels; l++)
                res->time_in[sc->mode.class_of[l]] += time_in[l];
        sc->report.reactive = res;
        sc->report.reactive_interval_us = interval;
        return 0;
}

/* A preset, then the --config file (and its drop-ins) on top of it. */
static int load_policy(struct bl_config *cfg, const char *preset_name, const char *config)
{
        const struct sim_preset *preset = preset_find(preset_name);
        struct bl_conf_files files;
        struct bl_diag diag;
        int r;

        if (!preset) {
                fprintf(stderr, "blsim: unknown policy \"%s\" (blsim list shows the presets)\n", preset_name);
                return EXIT_USAGE;
        }
        diag_init(&diag);
        r = preset_config(preset, cfg, &diag);
        if (r != 0) {
                fprintf(stderr, "blsim: the preset \"%s\" does not parse:\n", preset_name);
                print_diag(&diag);
                return EXIT_SOFTWARE;
        }
        if (config) {
                r = conf_files_load(cfg, policy_builtin, config, false, &files, &diag);
                print_diag(&diag);
                if (r < 0)
                        return EXIT_NOINPUT;
                if (r > 0)
                        return EXIT_CONFIG;
        }
        return 0;
}

/* Every policy's configuration, read before anything runs so that a bad
 * file is reported at once; the --config file goes on top of the last. */
static int load_policies(const char *const *presets, unsigned n, const char *config,
                         struct bl_config **ret)
{
        struct bl_config *cfg = calloc(n, sizeof(*cfg));
        int status = 0;

        if (!cfg) {
                fprintf(stderr, "blsim: %s\n", strerror(ENOMEM));
                return EXIT_FAILURE;
        }
        for (unsigned i = 0; i < n && status == 0; i++)
                status = load_policy(&cfg[i], presets[i], i == n - 1 ? config : NULL);
        if (status != 0) {
                free(cfg);
                return status;
        }
        *ret = cfg;
        return 0;
}

static int run_policy(struct scenario *sc, const struct bl_config *cfg, const char *name,
                      struct sim_result *res, struct sim_timeline *tl)
{
        int r = sim_run_policy(&sc->board, &sc->mode, sc->workload, cfg, res, tl);

        if (r < 0)
                return run_failed(name, r);
        snprintf(res->policy, sizeof(res->policy), "%s", name);
        return 0;
}

/* --mode, else the mode the configuration names (a board has no in-kernel
 * switcher, so auto means auto_mode). */
static enum bl_mode scenario_mode(const struct options *o, const struct bl_config *cfg)
{
        if (o->mode != BL_MODE_AUTO)
                return o->mode;
        return cfg->mode != BL_MODE_AUTO ? cfg->mode : cfg->auto_mode;
}

static int finish_output(void)
{
        if (fflush(stdout) != 0 || ferror(stdout)) {
                fprintf(stderr, "blsim: cannot write the report: %s\n", strerror(errno));
                return EXIT_IOERR;
        }
        return EXIT_SUCCESS;
}

static int verb_run(int argc, char **argv)
{
        struct scenario *sc = NULL;
        struct bl_config *cfg = NULL;
        const char *preset;
        struct options o;
        char name[BL_NAME_MAX];
        int status;

        status = parse_options(argc, argv, false, &o);
        if (status >= 0)
                return status;
        preset = o.policy ? o.policy : "default";
        status = load_policies(&preset, 1, o.config, &cfg);
        if (status == 0)
                status = scenario_open(&sc, &o, scenario_mode(&o, cfg));
        if (status == 0)
                status = run_reactive(sc, cfg, o.reactive_us);
        if (status == 0) {
                if (o.config && o.policy)
                        snprintf(name, sizeof(name), "%s+config", o.policy);
                else
                        snprintf(name, sizeof(name), "%s", o.config ? "config" : preset);
                status = run_policy(sc, cfg, name, &sc->report.policy[0], NULL);
        }
        if (status == 0) {
                sc->report.npolicies = 1;
                if (o.json)
                        report_run_json(stdout, &sc->report);
                else
                        report_run_text(stdout, &sc->report);
                status = finish_output();
        }
        scenario_free(sc);
        free(cfg);
        return status;
}

static int plot(const struct options *o, const struct sim_report *rep, const struct sim_plot_line *lines,
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

/* The classic policies, the governors and switchers that came before:
 * compare_presets[0 .. NCLASSIC - 1]. */
#define NCLASSIC 5

/* The rows of the comparison that no engine runs, by the name the table gives them. */
enum {
        ROW_LITTLE = SIM_REPORT_MAX_POLICIES,
        ROW_BIG,
        ROW_ORACLE,
        ROW_REACTIVE,
};

/* A row of the comparison by its name: an index of compare_presets (whose
 * last is "config" with --config) or ROW_*; -1 for none. */
static int compare_row(const char *name, size_t len, bool custom)
{
        static const char *const others[] = { "always-little", "always-big", "oracle", "reactive-oracle" };
        const unsigned n = sizeof(compare_presets) / sizeof(compare_presets[0]);

        for (unsigned i = 0; i < n; i++) {
                const char *row = i == n - 1 && custom ? "config" : compare_presets[i];

                if (strlen(row) == len && strncmp(row, name, len) == 0)
                        return (int)i;
        }
        for (unsigned i = 0; i < sizeof(others) / sizeof(others[0]); i++)
                if (strlen(others[i]) == len && strncmp(others[i], name, len) == 0)
                        return ROW_LITTLE + (int)i;
        return -1;
}

/* The lines of compare's plot, in the order given. */
struct compare_plot {
        int row[SIM_PLOT_MAX_LINES];
        unsigned n;
        struct sim_timeline run[SIM_PLOT_MAX_LINES];    /* of the rows no engine runs */
        struct sim_plot_line line[SIM_PLOT_MAX_LINES];
};

/* --policies "a,b,c". Returns -1 to go on, or EXIT_USAGE after saying why. */
static int parse_plot_policies(struct compare_plot *cp, const char *list, bool custom)
{
        for (const char *p = list;; p++) {
                size_t len;
                int row;

                p += strspn(p, " ");
                len = strcspn(p, ",");
                while (len > 0 && p[len - 1] == ' ')
                        len--;
                row = compare_row(p, len, custom);
                if (row < 0) {
                        fprintf(stderr, "blsim compare: --policies: \"%.*s\" is no row of the comparison "
                                        "(always-little, always-big, %s, oracle, reactive-oracle, or a preset "
                                        "of blsim list that compare runs)\n", (int)len, p,
                                custom ? "config" : "default");
                        return EXIT_USAGE;
                }
                for (unsigned i = 0; i < cp->n; i++)
                        if (cp->row[i] == row) {
                                fprintf(stderr, "blsim compare: --policies: %.*s is named twice\n", (int)len,
                                        p);
                                return EXIT_USAGE;
                        }
                cp->row[cp->n++] = row;
                p += strcspn(p, ",");
                if (!*p)
                        return -1;
        }
}

/* A row no engine runs, replayed with its timeline: a fixed level on the
 * workload, or the oracle's levels (or the reactive oracle's, taken from
 * them) on the trace the oracle solved. */
static int plot_levels_run(struct scenario *sc, int row, struct sim_timeline *tl)
{
        const struct sim_levels *lv = &sc->mode.levels;
        _cleanup_free_ unsigned char *seq = NULL;
        struct sim_workload *w = NULL;
        struct sim_result res;
        int r;

        if (row == ROW_LITTLE || row == ROW_BIG) {
                r = sim_run_levels_timeline(&sc->board, lv, sc->workload, row == ROW_LITTLE ? 0 : lv->nlevels - 1,
                                            NULL, 0, &res, tl);
        } else {
                r = workload_from_trace(&w, "oracle", &sc->trace);
                if (r == 0 && row == ROW_REACTIVE) {
                        seq = malloc(sc->trace.nsteps ? sc->trace.nsteps : 1);
                        r = seq ? reactive_sequence(lv, sc->oracle.sequence, sc->trace.nsteps, sc->trace.step_us,
                                                    sc->report.reactive_interval_us, seq) : -ENOMEM;
                }
                if (r == 0)
                        r = sim_run_levels_timeline(&sc->board, lv, w, 0, seq ? seq : sc->oracle.sequence,
                                                    sc->trace.nsteps, &res, tl);
                workload_free(w);
        }
        for (size_t k = 0; r == 0 && k < tl->n; k++)
                tl->p[k].level = sc->mode.class_of[tl->p[k].level];
        return r;
}

/* The plot's lines: --policies, or what a person compares first: the
 * configuration in force, the best classic policy, and what no policy can
 * beat, the reactive oracle and the oracle. */
static int compare_plot(struct scenario *sc, const struct options *o, const struct sim_timeline *tl,
                        struct compare_plot *cp)
{
        const unsigned n = sizeof(compare_presets) / sizeof(compare_presets[0]);
        const struct sim_report *rep = &sc->report;
        int r;

        if (cp->n == 0) {
                cp->row[cp->n++] = (int)n - 1;
                cp->row[cp->n++] = (int)rep->best_classic_index;
                cp->row[cp->n++] = ROW_REACTIVE;
                cp->row[cp->n++] = ROW_ORACLE;
        }
        for (unsigned i = 0; i < cp->n; i++) {
                int row = cp->row[i];

                if (row < ROW_LITTLE) {
                        cp->line[i] = (struct sim_plot_line){ rep->policy[row].policy, &tl[row], true };
                        continue;
                }
                r = plot_levels_run(sc, row, &cp->run[i]);
                if (r < 0)
                        return run_failed("plot", r);
                cp->line[i] = (struct sim_plot_line){
                        row == ROW_LITTLE ? "always-little" : row == ROW_BIG ? "always-big" :
                        row == ROW_ORACLE ? "oracle" : "reactive-oracle",
                        &cp->run[i], false,
                };
        }
        return plot(o, rep, cp->line, cp->n);
}

static int verb_compare(int argc, char **argv)
{
        const unsigned n = sizeof(compare_presets) / sizeof(compare_presets[0]);
        struct sim_timeline tl[sizeof(compare_presets) / sizeof(compare_presets[0])] = { 0 };
        struct compare_plot *cp = NULL;
        struct scenario *sc = NULL;
        struct bl_config *cfg = NULL;
        struct options o;
        int status;

        status = parse_options(argc, argv, true, &o);
        if (status >= 0)
                return status;
        if (o.plot && !(cp = calloc(1, sizeof(*cp)))) {
                fprintf(stderr, "blsim: %s\n", strerror(ENOMEM));
                return EXIT_FAILURE;
        }
        if (o.policies)
                status = parse_plot_policies(cp, o.policies, o.config != NULL);
        if (status < 0)
                status = load_policies(compare_presets, n, o.config, &cfg);
        if (status == 0)
                status = scenario_open(&sc, &o, scenario_mode(&o, &cfg[n - 1]));
        if (status == 0)
                status = run_reactive(sc, &cfg[n - 1], o.reactive_us);

        for (unsigned i = 0; i < n && status == 0; i++) {
                bool custom = i == n - 1 && o.config;

                status = run_policy(sc, &cfg[i], custom ? "config" : compare_presets[i],
                                    &sc->report.policy[i], o.plot ? &tl[i] : NULL);
        }
        if (status == 0) {
                sc->report.npolicies = n;
                sc->report.best_classic = true;
                sc->report.best_classic_index = report_best_policy(&sc->report, 0, NCLASSIC);
                if (o.plot)
                        status = compare_plot(sc, &o, tl, cp);
        }
        if (status == 0) {
                if (o.json)
                        report_compare_json(stdout, &sc->report);
                else
                        report_compare_table(stdout, &sc->report);
                status = finish_output();
        }
        for (unsigned i = 0; i < n; i++)
                sim_timeline_free(&tl[i]);
        for (unsigned i = 0; cp && i < SIM_PLOT_MAX_LINES; i++)
                sim_timeline_free(&cp->run[i]);
        free(cp);
        scenario_free(sc);
        free(cfg);
        return status;
}

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
                { "step-us", required_argument, NULL, OPT_STEP_US },
                { "duration", required_argument, NULL, OPT_DURATION },
                { "backend", required_argument, NULL, OPT_BACKEND },
                { "switch-cost", required_argument, NULL, OPT_SWITCH_COST },
                { "oracle-start", required_argument, NULL, OPT_ORACLE_START },
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
                r = parse_shared_option(c, "tune", &t->o);
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
                case 'h':
                        usage(stdout);
                        return EXIT_SUCCESS;
                default:
                        usage(stderr);
                        return EXIT_USAGE;
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
        print_diag(&st->diag);
        if (r == -EINVAL)
                return EXIT_USAGE;
        if (r < 0)
                return run_failed("tune", r);
        r = tune_results(b, m, st->tw, t->nw, cfg, "base", t->opt.jobs, st->base);
        if (r == 0)
                r = tune_results(b, m, st->tw, t->nw, &st->out.tuned_config, "tuned", t->opt.jobs, st->tuned);
        if (r < 0)
                return run_failed("tune", r);
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
        status = finish_output();
        if (status == 0 && refused) {
                fprintf(stderr, "blsim tune: not writing %s: the tuned configuration does worse than the base on "
                                "held-out workloads (--force writes it all the same):\n", t->out);
                tune_print_worse(stderr, &rep);
                status = EXIT_DATAERR;
        }
        return status;
}

static int verb_tune(int argc, char **argv)
{
        const char *preset = "default";
        struct tune_run_state *st = NULL;
        struct bl_config *cfg = NULL;
        struct tune_cli t;
        int status;

        status = parse_tune_options(argc, argv, &t);
        if (status >= 0)
                return status;
        status = load_policies(&preset, 1, t.o.config, &cfg);
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

/* Set from blsim live's SIGINT/SIGTERM handler: a handler has nowhere else
 * to put it. */
static volatile sig_atomic_t live_interrupted;

static void on_live_signal(int sig)
{
        live_interrupted = sig;
}

static const char *live_signal_name(void)
{
        return live_interrupted == SIGINT ? "SIGINT" : "SIGTERM";
}

/* The command's output goes to stderr, so that stdout is the report. */
static void live_observe(struct fakeboard *fb, const struct fakeboard_event *ev, void *userdata)
{
        (void)fb;
        (void)userdata;
        if (ev->kind == FAKEBOARD_OUTPUT_LINE)
                fprintf(stderr, "%s\n", ev->text);
}

struct live_wait {
        const struct sim_live *run;
};

static bool live_over(struct fakeboard *fb, void *userdata)
{
        const struct live_wait *w = userdata;

        return live_interrupted || !fakeboard_running(fb) || sim_live_done(w->run);
}

/* Stops the command as its service manager would, and lets the board see
 * what it put back. Returns its waitpid() status, or -1 when it had to be
 * killed. */
static int live_stop(struct fakeboard *fb)
{
        int status = -1;

        if (fakeboard_running(fb)) {
                (void)fakeboard_kill(fb, SIGTERM);
                if (fakeboard_wait(fb, LIVE_STOP_TIMEOUT_MS, &status) < 0) {
                        fprintf(stderr, "blsim live: the command did not exit within %u ms of SIGTERM; "
                                        "killed\n", LIVE_STOP_TIMEOUT_MS);
                        (void)fakeboard_kill(fb, SIGKILL);
                        (void)fakeboard_wait(fb, LIVE_STOP_TIMEOUT_MS, NULL);
                        status = -1;
                }
        } else if (fakeboard_exit_status(fb, &status) < 0) {
                status = -1;
        }
        (void)fakeboard_step(fb, fakeboard_now());
        return status;
}

/* A command that exits on SIGTERM, cleanly or by the signal, did its job. */
static bool live_status_ok(int status)
{
        return status >= 0 && ((WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
                               (WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM));
}

static void live_describe_status(int status, char *buf, size_t size)
{
        if (status < 0)
                snprintf(buf, size, "had to be killed");
        else if (WIFEXITED(status))
                snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
        else
                snprintf(buf, size, "died of signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* The board until the workload ends, or the command does, or we are told to stop. */
static int live_play(struct fakeboard *fb, struct sim_live *run, const struct options *o)
{
        struct live_wait w = { .run = run };
        char how[64];
        int r, status;

        fakeboard_set_observer(fb, live_observe, NULL);
        /* The boot state: what the command changes starts the run. */
        r = fakeboard_step(fb, fakeboard_now());
        if (r < 0)
                return run_failed("live board", r);
        r = fakeboard_spawn(fb, o->command, false);
        if (r < 0) {
                fprintf(stderr, "blsim live: cannot start %s: %s\n", o->command[0], strerror(-r));
                return EXIT_UNAVAILABLE;
        }
        sim_live_arm(run, fakeboard_now());
        do
                r = fakeboard_run(fb, 1000, live_over, &w);
        while (r == 0);
        if (r < 0) {
                live_stop(fb);
                return run_failed("live board", r);
        }
        if (live_interrupted) {
                /* What ran is reported (live_report()); before the run
                 * started nothing did. */
                live_stop(fb);
                if (sim_live_started(run))
                        return 0;
                fprintf(stderr, "blsim live: interrupted (%s) before the run started; no report\n",
                        live_signal_name());
                return 128 + live_interrupted;
        }
        if (!sim_live_done(run)) {
                status = live_stop(fb);
                live_describe_status(status, how, sizeof(how));
                fprintf(stderr, "blsim live: %s %s before the workload ended%s\n", o->command[0], how,
                        sim_live_started(run) ? "" : " (and before the run started)");
                return EXIT_SOFTWARE;
        }
        status = live_stop(fb);
        if (!live_status_ok(status)) {
                live_describe_status(status, how, sizeof(how));
                fprintf(stderr, "blsim live: %s %s when stopped\n", o->command[0], how);
                return EXIT_SOFTWARE;
        }
        return 0;
}

/* The live run's timeline beside blsim run's of the same configuration
 * (policy[1], drawn only: the report is the live run's). */
static int live_plot(struct scenario *sc, const struct bl_config *cfg, const struct options *o,
                     struct sim_timeline *tl)
{
        struct sim_report *rep = &sc->report;
        const struct sim_plot_line lines[] = {
                { "live", &tl[0], false },      /* the daemon's demand is its own */
                { "simulated", &tl[1], true },
        };
        int status;

        status = run_policy(sc, cfg, "simulated", &rep->policy[1], &tl[1]);
        if (status == 0)
                status = plot(o, rep, lines, sizeof(lines) / sizeof(lines[0]));
        return status;
}

/* An interrupted run is scored against references of the same length:
 * the workload, and the trace the oracle solves, end after the 'steps' that
 * ran. A trace workload reads the trace's length as it goes; an rt-app one
 * is cut, and its always-little arrivals recorded again. */
static int scenario_truncate(struct scenario *sc, const struct options *o, size_t steps)
{
        int r;

        if (sc->rtapp) {
                r = workload_truncate(&sc->workload, sc->workload, steps);
                if (r < 0) {
                        sc->workload = NULL;
                        return run_failed("live run", r);
                }
                trace_free(&sc->trace);
        } else if (steps < sc->trace.nsteps) {
                sc->trace.nsteps = steps;
        }
        oracle_free(&sc->oracle);
        return run_references(sc, o);
}

static int live_report(struct scenario *sc, const struct sim_live *run, struct fakeboard *fb,
                       const struct bl_config *cfg, const struct options *o, struct sim_timeline *tl)
{
        struct sim_report *rep = &sc->report;
        char online[256];
        bl_cpumask now;
        int r, status;

        r = sim_live_result(run, &rep->policy[0]);
        if (r < 0)
                return run_failed("live run", r);
        snprintf(rep->policy[0].policy, sizeof(rep->policy[0].policy), "live");
        fakeboard_online(fb, &now);
        cpumask_format(&now, online, sizeof(online));
        rep->npolicies = 1;
        rep->live = true;
        rep->nswitches = sim_live_switches(run, &rep->switches);
        rep->off_ladder_us = sim_live_off_ladder_us(run);
        rep->online_at_exit = online;
        if (live_interrupted) {
                fprintf(stderr, "blsim live: interrupted (%s) after %.3f s of the workload: the report and the "
                                "plot are of what ran, the references cut to the same length\n",
                        live_signal_name(), (double)rep->policy[0].steps * (double)sc->workload->step_us / 1e6);
                status = scenario_truncate(sc, o, rep->policy[0].steps);
                if (status != 0)
                        return status;
        }
        /* After the live result: the simulated run resets the workload. */
        if (o->plot && (status = live_plot(sc, cfg, o, tl)) != 0)
                return status;
        if (o->json)
                report_run_json(stdout, rep);
        else
                report_run_text(stdout, rep);
        return finish_output();
}

/* The daemon keeps its saved state in $RUNTIME_DIRECTORY (systemd's
 * RuntimeDirectory=); on a simulated board it belongs to the board. */
static int live_environment(struct fakeboard *fb, const struct options *o)
{
        char dir[PATH_MAX];

        if (!getenv("RUNTIME_DIRECTORY")) {
                snprintf(dir, sizeof(dir), "%s/run", fakeboard_root(fb));
                if (setenv("RUNTIME_DIRECTORY", dir, 1) < 0)
                        return EXIT_FAILURE;
        }
        if (o->testbed && symlink(fakeboard_root(fb), o->testbed) < 0) {
                fprintf(stderr, "blsim live: --testbed %s: %s\n", o->testbed, strerror(errno));
                return errno == EEXIST ? EXIT_USAGE : EXIT_IOERR;
        }
        return 0;
}

static int verb_live(int argc, char **argv)
{
        struct sigaction sa = { .sa_handler = on_live_signal };
        const char *preset = "default";
        struct scenario *sc = NULL;
        struct bl_config *cfg = NULL;
        struct live_desc *ld = NULL;
        struct sim_live *run = NULL;
        struct fakeboard *fb = NULL;
        struct sim_timeline tl[2] = { 0 };
        const char *groups[BL_CPUSET_MAX_GROUPS];
        bool linked = false;
        struct options o;
        int status, r;

        status = parse_options(argc, argv, false, &o);
        if (status >= 0)
                return status;
        status = load_policies(&preset, 1, o.config, &cfg);
        if (status == 0)
                status = scenario_open(&sc, &o, scenario_mode(&o, cfg));
        if (status == 0 && !(ld = malloc(sizeof(*ld)))) {
                fprintf(stderr, "blsim: %s\n", strerror(ENOMEM));
                status = EXIT_FAILURE;
        }
        if (status == 0) {
                for (unsigned i = 0; i < cfg->ncpuset_groups; i++)
                        groups[i] = cfg->cpuset_groups[i];
                r = live_desc_build(ld, &sc->board, groups, cfg->ncpuset_groups);
                ld->desc.residency = o.residency;
                if (r == 0)
                        r = sim_live_new(&run, &sc->board, &sc->mode, sc->workload);
                if (r == 0 && o.plot)
                        sim_live_record(run, &tl[0]);
                if (r == 0)
                        r = fakeboard_new_desc(&ld->desc, &sim_live_driver, run, &fb);
                if (r < 0)
                        status = run_failed("live board", r);
        }
        if (status == 0) {
                status = live_environment(fb, &o);
                linked = status == 0 && o.testbed;
        }
        if (status == 0) {
                sigaction(SIGINT, &sa, NULL);
                sigaction(SIGTERM, &sa, NULL);
                status = live_play(fb, run, &o);
        }
        if (status == 0)
                status = live_report(sc, run, fb, cfg, &o, tl);
        /* Told to stop, and stopped cleanly: said by the status, as a shell would. */
        if (status == 0 && live_interrupted)
                status = 128 + live_interrupted;
        if (linked)
                unlink(o.testbed);
        fakeboard_free(fb);
        sim_live_free(run);
        sim_timeline_free(&tl[0]);
        sim_timeline_free(&tl[1]);
        free(ld);
        scenario_free(sc);
        free(cfg);
        return status;
}

static int board_filter(const struct dirent *d)
{
        return d->d_name[0] != '.' && has_suffix(d->d_name, ".ini");
}

static void list_boards(const char *dir)
{
        struct dirent **names = NULL;
        int n = scandir(dir, &names, board_filter, alphasort);

        printf("boards (%s):\n", dir);
        if (n < 0) {
                printf("  none installed (%s)\n", strerror(errno));
                return;
        }
        for (int i = 0; i < n; i++) {
                char path[PATH_MAX];
                struct sim_board b;
                struct bl_diag diag;

                diag_init(&diag);
                if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name) >= sizeof(path))
                        printf("  %-20s (path too long)\n", names[i]->d_name);
                else if (board_load(&b, path, &diag) != 0) {
                        printf("  %-20s (does not load; blsim run --board %s says why)\n", names[i]->d_name,
                               path);
                } else {
                        printf("  %-20s", b.name);
                        for (unsigned k = 0; k < b.nclusters; k++)
                                printf("%s%ux %s (%u)", k ? " + " : " ", b.cluster[k].cpus, b.cluster[k].name,
                                       b.cluster[k].opp[b.cluster[k].nopps - 1].capacity);
                        putchar('\n');
                }
                free(names[i]);
        }
        free(names);
}

static int workload_filter(const struct dirent *d)
{
        return d->d_name[0] != '.' && (has_suffix(d->d_name, ".csv") || has_suffix(d->d_name, ".json"));
}

/* The workloads of one directory, by the name --workload takes. Returns the
 * count, or -errno. */
static int list_workload_dir(const char *top, const char *sub)
{
        struct dirent **names = NULL;
        char dir[PATH_MAX];
        int n;

        if ((size_t)snprintf(dir, sizeof(dir), "%s%s%s", top, *sub ? "/" : "", sub) >= sizeof(dir))
                return -ENAMETOOLONG;
        n = scandir(dir, &names, workload_filter, alphasort);
        if (n < 0)
                return -errno;
        for (int i = 0; i < n; i++) {
                printf("  %s%s%s\n", sub, *sub ? "/" : "", names[i]->d_name);
                free(names[i]);
        }
        free(names);
        return n;
}

/* The traces, the held-out traces and the rt-app descriptions. */
static void list_workloads(const char *dir)
{
        static const char *const subdirs[] = { "", "holdout", "rt-app" };
        int total = 0, first_error = 0;

        printf("workloads (%s):\n", dir);
        for (size_t i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
                int n = list_workload_dir(dir, subdirs[i]);

                if (n > 0)
                        total += n;
                else if (n < 0 && i == 0)
                        first_error = n;
        }
        if (total == 0)
                printf("  none installed (%s)\n", first_error ? strerror(-first_error) : "no .csv or .json");
}

static int verb_list(int argc, char **argv)
{
        if (argc > 1) {
                fprintf(stderr, "blsim list: unexpected argument \"%s\"\n", argv[1]);
                return EXIT_USAGE;
        }
        printf("presets (--policy):\n");
        for (const struct sim_preset *p = sim_presets; p->name; p++)
                printf("  %-14s %s\n", p->name, p->summary);
        putchar('\n');
        list_boards(datadir()->boards);
        putchar('\n');
        list_workloads(datadir()->workloads);
        return finish_output();
}

int main(int argc, char **argv)
{
        static const struct {
                const char *name;
                int (*fn)(int argc, char **argv);
        } verbs[] = {
                { "run", verb_run },
                { "compare", verb_compare },
                { "tune", verb_tune },
                { "live", verb_live },
                { "generate", sim_verb_generate },
                { "board", sim_verb_board },
                { "list", verb_list },
        };

        if (argc < 2) {
                usage(stderr);
                return EXIT_USAGE;
        }
        if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
                usage(stdout);
                return finish_output();
        }
        if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
                printf("blsim %s\n", PACKAGE_VERSION);
                return finish_output();
        }
        for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
                if (strcmp(argv[1], verbs[i].name) == 0)
                        return verbs[i].fn(argc - 1, argv + 1);
        fprintf(stderr, "blsim: unknown verb \"%s\"\n", argv[1]);
        usage(stderr);
        return EXIT_USAGE;
}
