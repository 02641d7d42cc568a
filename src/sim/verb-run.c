/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blsim run: one policy against the references; blsim compare: every
 * preset, ranked, and the plot of the rows asked for. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "sim/reactive.h"
#include "sim/scenario.h"
#include "sim/verb-run.h"

/* The policies "compare" runs through the engine, in table order. A
 * --config file goes on top of the last, the shipped defaults, and that row
 * is then called "config". */
static const char *const compare_presets[] = {
        "ondemand", "conservative", "interactive", "hmp", "exynos5410",
        "util", "pelt", "psi", "trend", "default",
};

/* A CSV field: quoted, with its quotes doubled (reasons hold commas). */
static void csv_quoted(FILE *f, const char *text)
{
        fputc('"', f);
        for (; *text; text++) {
                if (*text == '"')
                        fputc('"', f);
                fputc(*text, f);
        }
        fputc('"', f);
}

/* run --trace: one line per decision of the engine. Non-blocking, so that
 * a FIFO nobody reads is refused rather than waited on; only a regular
 * file is written. */
static int write_trace(const char *path, const struct sim_mode *m, const struct sim_timeline *tl)
{
        const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
        const char *why = NULL;
        char other[64];
        struct stat st;
        FILE *f = NULL;
        int err;

        if (fd < 0 || fstat(fd, &st) < 0) {
                why = strerror(errno);
        } else if (!S_ISREG(st.st_mode)) {
                snprintf(other, sizeof(other), "not a regular file (%s)", file_type_name(st.st_mode));
                why = other;
        } else if (!(f = fdopen(fd, "w"))) {
                why = strerror(errno);
        }
        if (why) {
                fprintf(stderr, "blsim run: --trace %s: %s\n", path, why);
                if (fd >= 0)
                        close(fd);
                return EXIT_CANTCREAT;
        }
        fprintf(f, "t_ms,level,demand,energy_mj,switched,cause,engine,reason\n");
        for (size_t i = 0; i < tl->n; i++) {
                const struct sim_timeline_point *p = &tl->p[i];
                const struct sim_decision_note *w = &tl->why[i];

                fprintf(f, "%.3f,%s,%.1f,%.3f,%d,%s,%u,", (double)p->t / BL_USEC_PER_MSEC,
                        m->class_name[p->level], p->demand, p->energy_uj / 1000.0, w->switched,
                        cause_to_string(w->cause), w->engine);
                csv_quoted(f, w->reason);
                fputc('\n', f);
        }
        err = ferror(f);
        if (fclose(f) != 0 || err) {
                fprintf(stderr, "blsim run: --trace %s: %s\n", path, strerror(errno ? errno : EIO));
                return EXIT_IOERR;
        }
        return 0;
}

int sim_verb_run(int argc, char **argv)
{
        struct scenario *sc = NULL;
        struct bl_config *cfg = NULL;
        struct sim_timeline tl = { 0 };
        const char *preset;
        struct options o;
        char name[BL_NAME_MAX];
        int status;

        status = cli_parse_options(argc, argv, false, &o);
        if (status >= 0)
                return status;
        preset = o.policy ? o.policy : "default";
        status = scenario_load_policies(&preset, 1, o.config, &cfg);
        if (status == 0)
                status = scenario_open(&sc, &o, scenario_mode(&o, cfg));
        if (status == 0)
                status = scenario_run_reactive(sc, cfg, o.reactive_us);
        if (status == 0) {
                if (o.config && o.policy)
                        snprintf(name, sizeof(name), "%s+config", o.policy);
                else
                        snprintf(name, sizeof(name), "%s", o.config ? "config" : preset);
                tl.explain = o.trace != NULL;
                status = scenario_run_policy(sc, cfg, name, &sc->report.policy[0], o.trace ? &tl : NULL);
        }
        if (status == 0 && o.trace)
                status = write_trace(o.trace, &sc->mode, &tl);
        if (status == 0) {
                sc->report.npolicies = 1;
                if (o.json)
                        report_run_json(stdout, &sc->report);
                else
                        report_run_text(stdout, &sc->report);
                status = cli_finish_output();
        }
        sim_timeline_free(&tl);
        scenario_free(sc);
        free(cfg);
        return status;
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
        ROW_LOAD_REACTIVE,
};

/* Their names, ROW_LITTLE first. */
static const char *const other_rows[] = {
        "always-little", "always-big", "oracle", "reactive-oracle", "load-reactive-oracle",
};

/* A row of the comparison by its name: an index of compare_presets (whose
 * last is "config" with --config) or ROW_*; -1 for none. */
static int compare_row(const char *name, size_t len, bool custom)
{
        const unsigned n = sizeof(compare_presets) / sizeof(compare_presets[0]);

        for (unsigned i = 0; i < n; i++) {
                const char *row = i == n - 1 && custom ? "config" : compare_presets[i];

                if (strlen(row) == len && strncmp(row, name, len) == 0)
                        return (int)i;
        }
        for (unsigned i = 0; i < sizeof(other_rows) / sizeof(other_rows[0]); i++)
                if (strlen(other_rows[i]) == len && strncmp(other_rows[i], name, len) == 0)
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
                                        "(always-little, always-big, %s, oracle, reactive-oracle, "
                                        "load-reactive-oracle, or a preset of blsim list that compare runs)\n",
                                (int)len, p,
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
 * workload, or the oracle's levels (or the reactive or load-reactive
 * oracle's, taken from them) on the trace the oracle solved. */
static int plot_levels_run(struct scenario *sc, int row, struct sim_timeline *tl)
{
        const struct sim_levels *lv = &sc->mode.levels;
        _cleanup_free_ unsigned char *seq = NULL, *timed = NULL;
        struct sim_workload *w = NULL;
        struct sim_result res;
        int r;

        if (row == ROW_LITTLE || row == ROW_BIG) {
                r = sim_run_levels_timeline(&sc->board, lv, sc->workload, row == ROW_LITTLE ? 0 : lv->nlevels - 1,
                                            NULL, 0, &res, tl);
        } else {
                const unsigned char *levels = sc->oracle.sequence;

                r = workload_from_trace(&w, "oracle", &sc->trace);
                if (r == 0 && row == ROW_LOAD_REACTIVE) {
                        timed = malloc(sc->trace.nsteps ? sc->trace.nsteps : 1);
                        r = timed ? load_timed_sequence(&sc->board, lv, &sc->trace, levels, timed) : -ENOMEM;
                        levels = timed;
                }
                if (r == 0 && (row == ROW_REACTIVE || row == ROW_LOAD_REACTIVE)) {
                        seq = malloc(sc->trace.nsteps ? sc->trace.nsteps : 1);
                        r = seq ? reactive_sequence(lv, levels, sc->trace.nsteps, sc->trace.step_us,
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
                        return cli_run_failed("plot", r);
                cp->line[i] = (struct sim_plot_line){ other_rows[row - ROW_LITTLE], &cp->run[i], false };
        }
        return cli_plot(o, rep, cp->line, cp->n);
}

int sim_verb_compare(int argc, char **argv)
{
        const unsigned n = sizeof(compare_presets) / sizeof(compare_presets[0]);
        struct sim_timeline tl[sizeof(compare_presets) / sizeof(compare_presets[0])] = { 0 };
        struct compare_plot *cp = NULL;
        struct scenario *sc = NULL;
        struct bl_config *cfg = NULL;
        struct options o;
        int status;

        status = cli_parse_options(argc, argv, true, &o);
        if (status >= 0)
                return status;
        if (o.plot && !(cp = calloc(1, sizeof(*cp)))) {
                fprintf(stderr, "blsim: %s\n", strerror(ENOMEM));
                return EXIT_FAILURE;
        }
        if (o.policies)
                status = parse_plot_policies(cp, o.policies, o.config != NULL);
        if (status < 0)
                status = scenario_load_policies(compare_presets, n, o.config, &cfg);
        if (status == 0)
                status = scenario_open(&sc, &o, scenario_mode(&o, &cfg[n - 1]));
        if (status == 0)
                status = scenario_run_reactive(sc, &cfg[n - 1], o.reactive_us);

        for (unsigned i = 0; i < n && status == 0; i++) {
                bool custom = i == n - 1 && o.config;

                status = scenario_run_policy(sc, &cfg[i], custom ? "config" : compare_presets[i],
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
                status = cli_finish_output();
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
