/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blsim live: the workload played on a fake board (live.c) while a
 * command, the daemon, switches it; stopped as a service manager would
 * stop it, and reported as blsim run reports. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/live.h"
#include "sim/scenario.h"
#include "sim/verb-live.h"

/* How long a live board's command may take to exit after SIGTERM. */
#define LIVE_STOP_TIMEOUT_MS 10000

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
                return cli_run_failed("live board", r);
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
                return cli_run_failed("live board", r);
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

        status = scenario_run_policy(sc, cfg, "simulated", &rep->policy[1], &tl[1]);
        if (status == 0)
                status = cli_plot(o, rep, lines, sizeof(lines) / sizeof(lines[0]));
        return status;
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
                return cli_run_failed("live run", r);
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
        return cli_finish_output();
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

int sim_verb_live(int argc, char **argv)
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

        status = cli_parse_options(argc, argv, false, &o);
        if (status >= 0)
                return status;
        status = scenario_load_policies(&preset, 1, o.config, &cfg);
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
                        status = cli_run_failed("live board", r);
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
