/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loading a scenario (scenario.h): a board by file or name, a workload
 * (trace or rt-app) by file or name, the policies' configurations, and the
 * reference runs every verb reports against. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "loaders/board-file.h"
#include "loaders/conf-files.h"
#include "policy/builtin.h"
#include "sim/presets.h"
#include "sim/reactive.h"
#include "sim/rtapp.h"
#include "sim/scenario.h"

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
const struct sim_datadir *scenario_datadir(void)
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

/* What a file loader's result 'r' means, once its messages are out: the
 * file could not be read (r < 0) or says something wrong (r > 0). */
static int loaded(const struct bl_diag *diag, int r)
{
        cli_print_diag(diag);
        if (r < 0)
                return EXIT_NOINPUT;
        return r > 0 ? EXIT_CONFIG : 0;
}

/* A board is a file, or the name of one in the boards directory. */
static int load_board(struct scenario *sc, const char *arg)
{
        char installed[PATH_MAX];
        const char *path = arg;
        struct bl_diag diag;

        if (!strchr(arg, '/') && access(arg, F_OK) < 0 &&
            (size_t)snprintf(installed, sizeof(installed), "%s/%s.ini", scenario_datadir()->boards, arg) <
                    sizeof(installed) &&
            access(installed, F_OK) == 0)
                path = installed;

        diag_init(&diag);
        return loaded(&diag, board_load(&sc->board, path, &diag));
}

static int build_mode(struct scenario *sc, enum bl_mode mode)
{
        struct bl_diag diag;
        int r;

        diag_init(&diag);
        r = sim_mode_build(&sc->mode, &sc->board, mode, &diag);
        cli_print_diag(&diag);
        if (r == -EOPNOTSUPP || r == -E2BIG)
                return EXIT_UNAVAILABLE;
        return r < 0 ? EXIT_CONFIG : 0;
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

        if (cli_has_suffix(path, ".json") || cli_has_suffix(path, ".csv")) {
                *rtapp = cli_has_suffix(path, ".json");
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
        cli_print_diag(&diag);
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
        cli_print_diag(&diag);
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
            sim_datadir_workload(scenario_datadir(), given->workload, path, sizeof(path)) == 0) {
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

/* The references every verb reports against: always-little (which also
 * records what an rt-app workload asked for), always-big and the oracle.
 * rt-app tasks offer work at the pace of the CPU they run on, so the
 * always-little run's arrivals are the least bursty any policy can see: an
 * oracle on the always-big arrivals would have to clear big's pace on
 * LITTLE and could hardly ever use it. */
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
                        return cli_run_failed("always-little", r);
                r = sim_run_fixed(&sc->board, sc->workload, top, &rep->big, NULL);
        } else {
                r = sim_run_fixed_level(&sc->board, &m->levels, sc->workload, 0, &rep->little,
                                        sc->rtapp ? &sc->trace : NULL);
                if (r < 0)
                        return cli_run_failed("always-little", r);
                r = sim_run_fixed_level(&sc->board, &m->levels, sc->workload, top, &rep->big, NULL);
                /* Reported per class, like the engine-driven runs. */
                memset(rep->little.time_in, 0, sizeof(rep->little.time_in));
                memset(rep->big.time_in, 0, sizeof(rep->big.time_in));
                rep->little.time_in[m->class_of[0]] = (bl_usec_t)rep->little.steps * sc->workload->step_us;
                rep->big.time_in[m->class_of[top]] = (bl_usec_t)rep->big.steps * sc->workload->step_us;
        }
        if (r < 0)
                return cli_run_failed("always-big", r);
        snprintf(rep->little.policy, sizeof(rep->little.policy), "always-little");
        snprintf(rep->big.policy, sizeof(rep->big.policy), "always-big");

        /* The cluster oracle prices the plain cost only. */
        r = m->mode == BL_MODE_CLUSTER && board_switch_plain(&sc->board, (double)sc->trace.step_us) ?
                oracle_solve_from(&sc->board, &sc->trace, start, true, &sc->oracle) : solve_levels(sc, start);
        if (r < 0)
                return cli_run_failed("oracle", r);

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

void scenario_free(struct scenario *sc)
{
        if (!sc)
                return;
        workload_free(sc->workload);
        trace_free(&sc->trace);
        oracle_free(&sc->oracle);
        free(sc);
}

int scenario_open(struct scenario **ret, const struct options *o, enum bl_mode mode)
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

/* Per level of the mode -> per class, as the oracle is reported. */
static void time_in_classes(const struct scenario *sc, struct sim_result *res)
{
        bl_usec_t time_in[SIM_MAX_LEVELS];

        memcpy(time_in, res->time_in, sizeof(time_in));
        memset(res->time_in, 0, sizeof(res->time_in));
        for (unsigned l = 0; l < sc->mode.levels.nlevels; l++)
                res->time_in[sc->mode.class_of[l]] += time_in[l];
}

/* The reactive and load-reactive oracles at 'interval_us' (0: the
 * configuration's sampling interval), reported per class like the oracle;
 * on the trace the oracle solves (for rt-app, the always-little arrivals). */
int scenario_run_reactive(struct scenario *sc, const struct bl_config *cfg, bl_usec_t interval_us)
{
        const bl_usec_t interval = interval_us ? interval_us :
                                                 (bl_usec_t)cfg->sample_interval_ms * BL_USEC_PER_MSEC;
        int r;

        r = reactive_oracle_run(&sc->board, &sc->mode.levels, &sc->trace, sc->oracle.sequence, interval,
                                &sc->reactive);
        if (r < 0)
                return cli_run_failed("reactive oracle", r);
        r = load_reactive_oracle_run(&sc->board, &sc->mode.levels, &sc->trace, sc->oracle.sequence, interval,
                                     &sc->load_reactive);
        if (r < 0)
                return cli_run_failed("load-reactive oracle", r);
        time_in_classes(sc, &sc->reactive);
        time_in_classes(sc, &sc->load_reactive);
        sc->report.reactive = &sc->reactive;
        sc->report.load_reactive = &sc->load_reactive;
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
                cli_print_diag(&diag);
                return EXIT_SOFTWARE;
        }
        if (config)
                return loaded(&diag, conf_files_load(cfg, policy_builtin, config, false, &files, &diag));
        return 0;
}

/* Every policy's configuration, read before anything runs so that a bad
 * file is reported at once; the --config file goes on top of the last. */
int scenario_load_policies(const char *const *presets, unsigned n, const char *config, struct bl_config **ret)
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

int scenario_run_policy(struct scenario *sc, const struct bl_config *cfg, const char *name,
                        struct sim_result *res, struct sim_timeline *tl)
{
        int r = sim_run_policy(&sc->board, &sc->mode, sc->workload, cfg, res, tl);

        if (r < 0)
                return cli_run_failed(name, r);
        snprintf(res->policy, sizeof(res->policy), "%s", name);
        return 0;
}

/* --mode, else the mode the configuration names (a board has no in-kernel
 * switcher, so auto means auto_mode). */
enum bl_mode scenario_mode(const struct options *o, const struct bl_config *cfg)
{
        if (o->mode != BL_MODE_AUTO)
                return o->mode;
        return cfg->mode != BL_MODE_AUTO ? cfg->mode : cfg->auto_mode;
}

/* An interrupted run is scored against references of the same length:
 * the workload, and the trace the oracle solves, end after the 'steps' that
 * ran. A trace workload reads the trace's length as it goes; an rt-app one
 * is cut, and its always-little arrivals recorded again. */
int scenario_truncate(struct scenario *sc, const struct options *o, size_t steps)
{
        int r;

        if (sc->rtapp) {
                r = workload_truncate(&sc->workload, sc->workload, steps);
                if (r < 0) {
                        sc->workload = NULL;
                        return cli_run_failed("live run", r);
                }
                trace_free(&sc->trace);
        } else if (steps < sc->trace.nsteps) {
                sc->trace.nsteps = steps;
        }
        oracle_free(&sc->oracle);
        return run_references(sc, o);
}
