/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every number goes through a fixed printf format and nothing else is
 * printed (no time, no addresses), so outputs can be compared byte for byte.
 * A value that is not finite would not be JSON: it is written as null. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "sim/report.h"

#define ORACLE_NOTE_RTAPP \
        "the oracle of an rt-app workload is solved on the per-step work arrivals of the always-little run"

bool sim_eta(double big_uj, double policy_uj, double oracle_uj, double *eta)
{
        double span = big_uj - oracle_uj;

        *eta = 0.0;
        if (!(span > 0.0))
                return false;
        *eta = (big_uj - policy_uj) / span;
        return true;
}

/* Runs of an rt-app workload without a duration can end at different
 * times, so shares are of each run's own length. */
static double run_length_us(const struct sim_report *rep, size_t steps)
{
        return (double)steps * (double)rep->step_us;
}

/* Decisions per second of simulated time: what the daemon's timer would cost. */
static double samples_per_s(const struct sim_report *rep, const struct sim_result *r)
{
        const double length = run_length_us(rep, r->steps);

        return length > 0.0 ? (double)r->samples * 1e6 / length : 0.0;
}

static double share_pct(bl_usec_t part, double whole)
{
        return whole > 0.0 ? 100.0 * (double)part / whole : 0.0;
}

static double saving_pct(const struct sim_report *rep, double energy_uj)
{
        return rep->big.energy_uj > 0.0 ? 100.0 * (rep->big.energy_uj - energy_uj) / rep->big.energy_uj : 0.0;
}

void report_json_string(FILE *f, const char *s)
{
        fputc('"', f);
        for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
                if (*p == '"' || *p == '\\')
                        fprintf(f, "\\%c", *p);
                else if (*p == '\n')
                        fputs("\\n", f);
                else if (*p == '\t')
                        fputs("\\t", f);
                else if (*p < 0x20 || *p == 0x7f)
                        fprintf(f, "\\u%04x", *p);
                else
                        fputc(*p, f);
        }
        fputc('"', f);
}

static void json_key(FILE *f, const char *indent, const char *key)
{
        fprintf(f, ",\n%s", indent);
        report_json_string(f, key);
        fputs(": ", f);
}

/* 'decimals' < 0: six significant digits, for ratios that can be tiny. */
static void json_double(FILE *f, const char *indent, const char *key, int decimals, double v)
{
        json_key(f, indent, key);
        if (!isfinite(v))
                fputs("null", f);
        else if (decimals < 0)
                fprintf(f, "%.6g", v);
        else
                fprintf(f, "%.*f", decimals, v);
}

static void json_ulong(FILE *f, const char *indent, const char *key, unsigned long long v)
{
        json_key(f, indent, key);
        fprintf(f, "%llu", v);
}

static void json_eta_key(FILE *f, const char *indent, const char *key, const struct sim_report *rep,
                         double energy_uj)
{
        double eta;

        if (sim_eta(rep->big.energy_uj, energy_uj, rep->oracle->energy_uj, &eta))
                json_double(f, indent, key, 4, eta);
        else {
                json_key(f, indent, key);
                fputs("null", f);
        }
}

static void json_eta(FILE *f, const char *indent, const struct sim_report *rep, double energy_uj)
{
        json_eta_key(f, indent, "eta", rep, energy_uj);
}

static void json_time_in_level(FILE *f, const char *indent, const struct sim_report *rep,
                                const bl_usec_t *time_in)
{
        json_key(f, indent, "time_in_level_usec");
        fputc('{', f);
        for (unsigned i = 0; i < rep->mode->nclasses; i++) {
                fputs(i ? ", " : "", f);
                report_json_string(f, rep->mode->class_name[i]);
                fprintf(f, ": %llu", (unsigned long long)time_in[i]);
        }
        fputc('}', f);
}

static void json_qos(FILE *f, const char *indent, const struct sim_qos *q)
{
        json_ulong(f, indent, "activations", q->activations);
        json_ulong(f, indent, "misses", q->misses);
        if (q->activations > 0) {
                json_double(f, indent, "min_slack_us", 1, q->min_slack_us);
                json_double(f, indent, "mean_slack_us", 1, q->mean_slack_us);
        } else {
                json_key(f, indent, "min_slack_us");
                fputs("null", f);
                json_key(f, indent, "mean_slack_us");
                fputs("null", f);
        }
}

/* The switch cost every run of the report paid (policies, references,
 * oracles alike). */
static void json_switch_cost(FILE *f, const char *indent, const struct sim_board *b)
{
        json_key(f, indent, "switch_cost_source");
        report_json_string(f, b->switch_source);
        json_double(f, indent, "switch_latency_us", 3, b->switch_latency_us);
        json_double(f, indent, "switch_latency_per_cpu_us", 3, b->switch_latency_per_cpu_us);
        json_double(f, indent, "switch_energy_uj", 3, b->switch_energy_uj);
        json_double(f, indent, "switch_energy_per_cpu_uj", 3, b->switch_energy_per_cpu_uj);
        json_key(f, indent, "switch_stalls");
        report_json_string(f, b->stall_all ? "all" : "switched");
        json_key(f, indent, "switch_stall_powered");
        report_json_string(f, b->stall_busy ? "busy" : "idle");
}

static void json_header(FILE *f, const char *indent, const struct sim_report *rep)
{
        fprintf(f, "{\n%s", indent);
        report_json_string(f, "board");
        fputs(": ", f);
        report_json_string(f, rep->board);
        json_key(f, indent, "workload");
        report_json_string(f, rep->workload);
        if (rep->model)
                json_switch_cost(f, indent, rep->model);
        if (rep->napprox == 0)
                return;
        json_key(f, indent, "approximations");
        fputc('[', f);
        for (unsigned i = 0; i < rep->napprox; i++) {
                if (i)
                        fputs(", ", f);
                report_json_string(f, rep->approx[i]);
        }
        fputc(']', f);
}

static void json_steps(FILE *f, const char *indent, const struct sim_report *rep, size_t steps)
{
        json_ulong(f, indent, "steps", steps);
        json_ulong(f, indent, "step_us", rep->step_us);
}

static void json_live(FILE *f, const char *indent, const struct sim_report *rep)
{
        const struct sim_levels *lv = &rep->mode->levels;

        json_key(f, indent, "switch_sequence");
        fputc('[', f);
        for (size_t i = 0; i < rep->nswitches; i++) {
                const struct sim_switch *s = &rep->switches[i];

                fprintf(f, "%s{\"t_us\": %llu, \"from\": ", i ? ", " : "", (unsigned long long)s->t);
                report_json_string(f, lv->level[s->from].name);
                fputs(", \"to\": ", f);
                report_json_string(f, lv->level[s->to].name);
                fputc('}', f);
        }
        fputc(']', f);
        json_ulong(f, indent, "off_ladder_us", rep->off_ladder_us);
        json_key(f, indent, "online_at_exit");
        report_json_string(f, rep->online_at_exit ? rep->online_at_exit : "");
}

/* Where the oracle started: "free", "lowest", or "level N" for a start
 * blsim does not offer. */
static const char *oracle_start_name(unsigned start, char *buf, size_t size)
{
        if (start == ORACLE_START_FREE)
                return "free";
        if (start == 0)
                return "lowest";
        snprintf(buf, size, "level %u", start);
        return buf;
}

static void json_references(FILE *f, const char *indent, const struct sim_report *rep)
{
        char buf[32];

        json_key(f, indent, "oracle_start");
        report_json_string(f, oracle_start_name(rep->oracle->start, buf, sizeof(buf)));
        json_double(f, indent, "oracle_energy_uj", 3, rep->oracle->energy_uj);
        json_ulong(f, indent, "oracle_switches", rep->oracle->switches);
        json_ulong(f, indent, "oracle_infeasible_steps", rep->oracle->infeasible_steps);
        json_double(f, indent, "always_big_energy_uj", 3, rep->big.energy_uj);
        json_double(f, indent, "always_little_energy_uj", 3, rep->little.energy_uj);
}

void report_run_json(FILE *f, const struct sim_report *rep)
{
        const struct sim_result *p = &rep->policy[0];
        const char *in = "  ";

        json_header(f, in, rep);
        json_key(f, in, "policy");
        report_json_string(f, p->policy);
        json_steps(f, in, rep, p->steps);
        json_double(f, in, "energy_uj", 3, p->energy_uj);
        json_double(f, in, "late_work_ratio", -1, p->late_work_ratio);
        json_ulong(f, in, "switches", p->switches);
        json_double(f, in, "samples_per_s", 1, samples_per_s(rep, p));
        json_time_in_level(f, in, rep, p->time_in);
        json_eta(f, in, rep, p->energy_uj);
        if (rep->rtapp)
                json_qos(f, in, &p->qos);
        json_references(f, in, rep);
        if (rep->reactive) {
                const struct sim_result *r = rep->reactive;

                json_double(f, in, "reactive_oracle_interval_ms", -1,
                            (double)rep->reactive_interval_us / 1000.0);
                json_double(f, in, "reactive_oracle_energy_uj", 3, r->energy_uj);
                json_double(f, in, "reactive_oracle_late_work_ratio", -1, r->late_work_ratio);
                json_ulong(f, in, "reactive_oracle_switches", r->switches);
                json_eta_key(f, in, "reactive_oracle_eta", rep, r->energy_uj);
        }
        if (rep->load_reactive) {
                const struct sim_result *r = rep->load_reactive;

                json_double(f, in, "load_reactive_oracle_energy_uj", 3, r->energy_uj);
                json_double(f, in, "load_reactive_oracle_late_work_ratio", -1, r->late_work_ratio);
                json_ulong(f, in, "load_reactive_oracle_switches", r->switches);
                json_eta_key(f, in, "load_reactive_oracle_eta", rep, r->energy_uj);
        }
        if (rep->live)
                json_live(f, in, rep);
        fputs("\n}\n", f);
}

/* One line, the label padded to 'w'. */
static void text_switch_cost(FILE *f, int w, const struct sim_board *m)
{
        fprintf(f, "%-*s %s: %g us + %g us per CPU, %g uJ + %g uJ per CPU, stalls %s, %s while stalled\n", w,
                "switch cost", m->switch_source, m->switch_latency_us, m->switch_latency_per_cpu_us,
                m->switch_energy_uj, m->switch_energy_per_cpu_uj, m->stall_all ? "all" : "switched",
                m->stall_busy ? "busy" : "idle");
}

/* One line for a reference run scored against the oracle. */
static void print_reference(FILE *f, int w, const char *name, const struct sim_report *rep,
                            const struct sim_result *r)
{
        double eta;

        fprintf(f, "%-*s %.3f mJ, late_work_ratio %.6g, %lu switches, eta ", w, name, r->energy_uj / 1000.0,
                r->late_work_ratio, r->switches);
        if (sim_eta(rep->big.energy_uj, r->energy_uj, rep->oracle->energy_uj, &eta))
                fprintf(f, "%.4f", eta);
        else
                fputs("n/a", f);
        fprintf(f, " (sampling every %g ms)\n", (double)rep->reactive_interval_us / 1000.0);
}

void report_run_text(FILE *f, const struct sim_report *rep)
{
        const struct sim_result *p = &rep->policy[0];
        const double length = run_length_us(rep, p->steps);
        const int w = 24;
        char buf[32];
        double eta;

        fprintf(f, "%-*s %s\n", w, "board", rep->board);
        if (rep->model)
                text_switch_cost(f, w, rep->model);
        fprintf(f, "%-*s %s\n", w, "workload", rep->workload);
        fprintf(f, "%-*s %s\n", w, "policy", p->policy);
        fprintf(f, "%-*s %zu x %llu us\n", w, "steps", p->steps, (unsigned long long)rep->step_us);
        fprintf(f, "%-*s %.3f mJ\n", w, "energy", p->energy_uj / 1000.0);
        fprintf(f, "%-*s %.6g\n", w, "late_work_ratio", p->late_work_ratio);
        fprintf(f, "%-*s %lu\n", w, "switches", p->switches);
        fprintf(f, "%-*s %.1f\n", w, "samples_per_s", samples_per_s(rep, p));
        for (unsigned i = 0; i < rep->mode->nclasses; i++) {
                char key[BL_NAME_MAX + 8];

                snprintf(key, sizeof(key), "time %s", rep->mode->class_name[i]);
                fprintf(f, "%-*s %.1f ms (%.1f%%)\n", w, key, (double)p->time_in[i] / 1000.0,
                        share_pct(p->time_in[i], length));
        }
        fprintf(f, "%-*s %s\n", w, "oracle_start", oracle_start_name(rep->oracle->start, buf, sizeof(buf)));
        fprintf(f, "%-*s %.3f mJ\n", w, "oracle_energy", rep->oracle->energy_uj / 1000.0);
        fprintf(f, "%-*s %lu\n", w, "oracle_switches", rep->oracle->switches);
        fprintf(f, "%-*s %zu\n", w, "oracle_infeasible_steps", rep->oracle->infeasible_steps);
        fprintf(f, "%-*s %.3f mJ\n", w, "always_big_energy", rep->big.energy_uj / 1000.0);
        fprintf(f, "%-*s %.3f mJ\n", w, "always_little_energy", rep->little.energy_uj / 1000.0);
        if (sim_eta(rep->big.energy_uj, p->energy_uj, rep->oracle->energy_uj, &eta))
                fprintf(f, "%-*s %.4f\n", w, "eta", eta);
        else
                fprintf(f, "%-*s n/a (always-big cannot be improved on)\n", w, "eta");
        if (rep->reactive)
                print_reference(f, w, "reactive_oracle", rep, rep->reactive);
        if (rep->load_reactive)
                print_reference(f, w, "load_reactive_oracle", rep, rep->load_reactive);
        if (rep->rtapp) {
                fprintf(f, "%-*s %lu\n", w, "activations", p->qos.activations);
                fprintf(f, "%-*s %lu\n", w, "misses", p->qos.misses);
                if (p->qos.activations > 0) {
                        fprintf(f, "%-*s %.3f ms\n", w, "min_slack", p->qos.min_slack_us / 1000.0);
                        fprintf(f, "%-*s %.3f ms\n", w, "mean_slack", p->qos.mean_slack_us / 1000.0);
                }
                fprintf(f, "note: %s\n", ORACLE_NOTE_RTAPP);
                for (unsigned i = 0; i < rep->napprox; i++)
                        fprintf(f, "approximated: %s\n", rep->approx[i]);
        }
        if (rep->live) {
                const struct sim_levels *lv = &rep->mode->levels;

                fprintf(f, "%-*s %.3f ms\n", w, "off_ladder", (double)rep->off_ladder_us / 1000.0);
                fprintf(f, "%-*s %s\n", w, "online_at_exit", rep->online_at_exit ? rep->online_at_exit : "");
                fprintf(f, "switch sequence (ms: from -> to):\n");
                for (size_t i = 0; i < rep->nswitches; i++)
                        fprintf(f, "  %.3f %s -> %s\n", (double)rep->switches[i].t / 1000.0,
                                lv->level[rep->switches[i].from].name, lv->level[rep->switches[i].to].name);
        }
}

/* One row of the comparison, whatever produced it. */
struct row {
        const char *policy;
        size_t steps;
        double energy_uj;
        bool has_late;
        double late_work_ratio;
        unsigned long switches;
        const bl_usec_t *time_in;
        const struct sim_qos *qos;      /* NULL: not applicable (the oracles) */
        double samples_per_s;           /* < 0: samples nothing (fixed runs, the oracle) */
};

static struct row row_of(const struct sim_result *r)
{
        return (struct row){ .policy = r->policy, .steps = r->steps, .energy_uj = r->energy_uj,
                             .has_late = true, .late_work_ratio = r->late_work_ratio,
                             .switches = r->switches, .time_in = r->time_in, .qos = &r->qos,
                             .samples_per_s = -1.0 };
}

/* The oracle clears every step it can, so it leaves no late work unless
 * some step could not be cleared at all. */
static struct row row_of_oracle(const struct sim_oracle *o, size_t steps)
{
        return (struct row){ .policy = "oracle", .steps = steps, .energy_uj = o->energy_uj,
                             .has_late = o->infeasible_steps == 0, .late_work_ratio = 0.0,
                             .switches = o->switches, .time_in = o->time_in, .samples_per_s = -1.0 };
}

static unsigned collect_rows(const struct sim_report *rep, struct row *rows)
{
        unsigned n = 0;

        rows[n] = row_of(&rep->little);
        rows[n++].policy = "always-little";
        rows[n] = row_of(&rep->big);
        rows[n++].policy = "always-big";
        for (unsigned i = 0; i < rep->npolicies; i++) {
                rows[n] = row_of(&rep->policy[i]);
                rows[n++].samples_per_s = samples_per_s(rep, &rep->policy[i]);
        }
        rows[n++] = row_of_oracle(rep->oracle, rep->steps);
        if (rep->reactive) {
                /* Scored on the oracle's trace: no QoS of its own. */
                rows[n] = row_of(rep->reactive);
                rows[n].qos = NULL;
                rows[n++].samples_per_s = samples_per_s(rep, rep->reactive);
        }
        if (rep->load_reactive) {
                rows[n] = row_of(rep->load_reactive);
                rows[n].qos = NULL;
                rows[n++].samples_per_s = samples_per_s(rep, rep->load_reactive);
        }
        return n;
}

void report_compare_table(FILE *f, const struct sim_report *rep)
{
        struct row rows[SIM_REPORT_MAX_POLICIES + 5];
        const unsigned n = collect_rows(rep, rows);
        int name_w = 6, level_w[BL_MAX_LEVELS];

        for (unsigned i = 0; i < n; i++)
                if ((int)strlen(rows[i].policy) > name_w)
                        name_w = (int)strlen(rows[i].policy);

        fprintf(f, "board %s, workload %s: %zu steps of %llu us\n", rep->board, rep->workload, rep->steps,
                (unsigned long long)rep->step_us);
        if (rep->model)
                text_switch_cost(f, 0, rep->model);
        fputc('\n', f);
        fprintf(f, "%-*s %11s %9s %7s %10s %8s", name_w, "policy", "energy mJ", "saving %", "eta",
                "late work", "switches");
        for (unsigned l = 0; l < rep->mode->nclasses; l++) {
                char head[BL_NAME_MAX + 4];

                snprintf(head, sizeof(head), "%% %s", rep->mode->class_name[l]);
                level_w[l] = (int)strlen(head) > 7 ? (int)strlen(head) : 7;
                fprintf(f, " %*s", level_w[l], head);
        }
        if (rep->rtapp)
                fprintf(f, " %7s", "misses");
        fputc('\n', f);

        for (unsigned i = 0; i < n; i++) {
                const struct row *r = &rows[i];
                double eta;

                fprintf(f, "%-*s %11.3f %9.1f", name_w, r->policy, r->energy_uj / 1000.0,
                        saving_pct(rep, r->energy_uj));
                if (sim_eta(rep->big.energy_uj, r->energy_uj, rep->oracle->energy_uj, &eta))
                        fprintf(f, " %7.3f", eta);
                else
                        fprintf(f, " %7s", "n/a");
                if (r->has_late)
                        fprintf(f, " %10.4f", r->late_work_ratio);
                else
                        fprintf(f, " %10s", "-");
                fprintf(f, " %8lu", r->switches);
                for (unsigned l = 0; l < rep->mode->nclasses; l++)
                        fprintf(f, " %*.1f", level_w[l],
                                share_pct(r->time_in[l], run_length_us(rep, r->steps)));
                if (rep->rtapp) {
                        if (r->qos)
                                fprintf(f, " %7lu", r->qos->misses);
                        else
                                fprintf(f, " %7s", "-");
                }
                fputc('\n', f);
        }

        fputs("\nsaving % = energy saved against always-big; "
              "eta = (E_always-big - E) / (E_always-big - E_oracle)\n", f);
        if (rep->oracle->start == ORACLE_START_FREE)
                fputs("oracle: its first step is free on any level (--oracle-start free)\n", f);
        else if (rep->oracle->start == 0)
                fputs("oracle: starts on the lowest level, as every run does, and pays the switch up from it\n",
                      f);
        if (rep->reactive)
                fprintf(f, "reactive-oracle = the oracle's levels, taken at the first sample (every %g ms) "
                        "after it needed them (see blsim(1))\n", (double)rep->reactive_interval_us / 1000.0);
        if (rep->load_reactive)
                fputs("load-reactive-oracle = the same, but up only after the load has shown on the level it is on "
                      "(see blsim(1))\n", f);
        if (rep->oracle->infeasible_steps > 0)
                fprintf(f, "oracle: %zu steps could not be cleared on any cluster (see blsim(1))\n",
                        rep->oracle->infeasible_steps);
        if (rep->best_classic) {
                const struct sim_result *best = &rep->policy[rep->best_classic_index];

                if (sim_lateness(best, rep->rtapp) <= sim_lateness(&rep->big, rep->rtapp) + REPORT_RANK_MAX_LATE)
                        fprintf(f, "best classic policy: %s (the least energy with lateness within "
                                   "always-big's + %g)\n", best->policy, REPORT_RANK_MAX_LATE);
                else
                        fprintf(f, "best classic policy: %s (the least late: none keeps its lateness within "
                                   "always-big's + %g)\n", best->policy, REPORT_RANK_MAX_LATE);
        }
        if (rep->rtapp) {
                fprintf(f, "%s\n", ORACLE_NOTE_RTAPP);
                for (unsigned i = 0; i < rep->napprox; i++)
                        fprintf(f, "approximated: %s\n", rep->approx[i]);
        }
}

void report_compare_json(FILE *f, const struct sim_report *rep)
{
        struct row rows[SIM_REPORT_MAX_POLICIES + 5];
        const unsigned n = collect_rows(rep, rows);
        const char *in = "  ", *in2 = "      ";

        json_header(f, in, rep);
        json_key(f, in, "rtapp");
        fputs(rep->rtapp ? "true" : "false", f);
        json_steps(f, in, rep, rep->steps);
        json_references(f, in, rep);
        json_key(f, in, "rows");
        fputc('[', f);
        for (unsigned i = 0; i < n; i++) {
                const struct row *r = &rows[i];

                fprintf(f, "%s\n    {\n%s", i ? "," : "", in2);
                report_json_string(f, "policy");
                fputs(": ", f);
                report_json_string(f, r->policy);
                json_ulong(f, in2, "steps", r->steps);
                json_double(f, in2, "energy_uj", 3, r->energy_uj);
                json_double(f, in2, "saving_pct", 3, saving_pct(rep, r->energy_uj));
                json_eta(f, in2, rep, r->energy_uj);
                if (r->has_late)
                        json_double(f, in2, "late_work_ratio", -1, r->late_work_ratio);
                else {
                        json_key(f, in2, "late_work_ratio");
                        fputs("null", f);
                }
                json_ulong(f, in2, "switches", r->switches);
                if (r->samples_per_s >= 0.0)
                        json_double(f, in2, "samples_per_s", 1, r->samples_per_s);
                json_time_in_level(f, in2, rep, r->time_in);
                if (rep->rtapp && r->qos)
                        json_qos(f, in2, r->qos);
                fputs("\n    }", f);
        }
        fputs("\n  ]\n}\n", f);
}

static bool ends_with(const char *s, const char *suffix)
{
        size_t n = strlen(s), m = strlen(suffix);

        return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

const char *report_plot_terminal(const char *output)
{
        if (ends_with(output, ".svg"))
                return "svg";
        if (ends_with(output, ".png"))
                return "png";
        return NULL;
}

/* gnuplot's single-quoted strings take everything literally but the quote,
 * which is doubled. */
static void gnuplot_string(FILE *f, const char *s)
{
        fputc('\'', f);
        for (; *s; s++) {
                if (*s == '\'')
                        fputc('\'', f);
                if (*s != '\n')
                        fputc(*s, f);
        }
        fputc('\'', f);
}

/* Distinct at a glance on white, dark enough for thin lines, none twice. */
static const char *const plot_colours[SIM_PLOT_MAX_LINES] = {
        "#1f77b4", "#d62728", "#2ca02c", "#000000", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
        "#17becf", "#bcbd22", "#7f7f7f", "#00008b", "#8b0000", "#006400", "#ff00ff", "#b8860b",
};

/* One panel: 'column' of the lines (those with a demand only, when 'demand_only'). */
static void plot_panel(FILE *f, const struct sim_plot_line *lines, unsigned nlines, unsigned column,
                       const char *style, bool demand_only)
{
        bool first = true;

        fputs("plot ", f);
        for (unsigned i = 0; i < nlines; i++) {
                if (demand_only && !lines[i].demand)
                        continue;
                fprintf(f, "%s$p%u using 1:%u with %s linecolor rgb '%s' title ", first ? "" : ", \\\n     ", i,
                        column, style, plot_colours[i]);
                gnuplot_string(f, lines[i].name);
                first = false;
        }
        fputc('\n', f);
}

int report_plot_script(FILE *f, const char *output, const struct sim_report *rep,
                       const struct sim_plot_line *lines, unsigned nlines)
{
        const char *terminal = report_plot_terminal(output);
        unsigned with_demand = 0;
        char title[512];

        if (!terminal || nlines == 0 || nlines > SIM_PLOT_MAX_LINES)
                return -EINVAL;
        for (unsigned i = 0; i < nlines; i++)
                with_demand += lines[i].demand;
        if (strcmp(terminal, "svg") == 0)
                fputs("set terminal svg size 1200,900 dynamic font 'sans,10'\n", f);
        else
                fputs("if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
                      "    set terminal pngcairo size 1200,900 font 'sans,10'\n"
                      "} else {\n"
                      "    set terminal png size 1200,900\n"
                      "}\n", f);
        fputs("set termoption noenhanced\nset output ", f);
        gnuplot_string(f, output);
        fputc('\n', f);

        /* Each line's level is offset a little so that equal lines stay
         * visible side by side. A line without a demand has none to give:
         * its column is never drawn. */
        for (unsigned i = 0; i < nlines; i++) {
                const struct sim_timeline *tl = lines[i].tl;

                fprintf(f, "$p%u << EOD\n", i);
                for (size_t k = 0; k < tl->n; k++) {
                        const struct sim_timeline_point *p = &tl->p[k];

                        fprintf(f, "%.3f %.1f %.3f %.3f\n", (double)p->t / 1e6, lines[i].demand ? p->demand : 0.0,
                                p->level + 0.04 * i, p->energy_uj / 1000.0);
                }
                fputs("EOD\n", f);
        }

        snprintf(title, sizeof(title), "%s on %s", rep->workload, rep->board);
        fprintf(f, "set multiplot layout %u,1 title ", with_demand ? 3 : 2);
        gnuplot_string(f, title);
        /* Margins fixed, so that the panels' time axes line up whatever
         * their keys hold. */
        fputs("\nset grid\nset key outside right\nset xlabel 'time (s)'\n"
              "set lmargin at screen 0.07\nset rmargin at screen 0.82\n", f);

        /* Baselines that want "any level above" say so with demands far
         * beyond the top; they would flatten everything else. */
        if (with_demand) {
                fprintf(f, "set ylabel 'demand (capacity)'\nset yrange [0:%u]\n",
                        rep->mode->ladder.levels[rep->mode->ladder.nlevels - 1].capacity * 5 / 4);
                plot_panel(f, lines, nlines, 2, "steps", true);
        }

        fputs("set ylabel 'level'\nset ytics (", f);
        for (unsigned l = 0; l < rep->mode->nclasses; l++) {
                fputs(l ? ", " : "", f);
                gnuplot_string(f, rep->mode->class_name[l]);
                fprintf(f, " %u", l);
        }
        fprintf(f, ")\nset yrange [-0.2:%u.%u]\n", rep->mode->nclasses - 1, nlines > 12 ? 7 : 5);
        plot_panel(f, lines, nlines, 3, "steps", false);

        fputs("set ylabel 'energy (mJ)'\nset ytics autofreq\nset autoscale y\n", f);
        plot_panel(f, lines, nlines, 4, "lines", false);
        fputs("unset multiplot\n", f);
        return 0;
}

unsigned report_best_policy(const struct sim_report *rep, unsigned first, unsigned n)
{
        const double limit = sim_lateness(&rep->big, rep->rtapp) + REPORT_RANK_MAX_LATE;
        unsigned best = first;

        for (unsigned i = first + 1; i < first + n; i++) {
                const struct sim_result *a = &rep->policy[i], *b = &rep->policy[best];
                double late_a = sim_lateness(a, rep->rtapp), late_b = sim_lateness(b, rep->rtapp);
                bool within_a = late_a <= limit, within_b = late_b <= limit;

                if (within_a != within_b ? within_a :
                    within_a ? a->energy_uj < b->energy_uj : late_a < late_b)
                        best = i;
        }
        return best;
}
