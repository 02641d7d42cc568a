/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What "blsim tune" prints. Like report.c: fixed formats, no clock, so the
 * same inputs give the same bytes. */
#include <math.h>
#include <string.h>

#include "sim/report.h"
#include "sim/tune.h"

/* The reader of configuration files refuses lines longer than this, comments too. */
#define HEADER_LINE_MAX 160

/* Lateness is the share of missed activations (see tune_lateness()). */
static bool is_rtapp_row(const struct tune_workload *w, const struct sim_result *r)
{
        return w->rtapp && r->qos.activations > 0;
}

static unsigned count_held_out(const struct tune_report *rep)
{
        unsigned n = 0;

        for (unsigned i = 0; i < rep->nw; i++)
                n += rep->w[i].held_out;
        return n;
}

static void score_text(FILE *f, const struct tune_score *s)
{
        fprintf(f, "%.4f", s->objective);
        if (s->over == 0)
                fputs(" (every search workload within its limit)", f);
        else
                fprintf(f, " (%u search workload%s over the limit)", s->over, s->over == 1 ? "" : "s");
}

/* One comment line of the header, shortened from the left if it is too long. */
static void header_line(FILE *f, const char *what, const char *value)
{
        size_t room = HEADER_LINE_MAX - strlen(what) - 4, len = strlen(value);

        if (len > room)
                fprintf(f, "# %s: ...%s\n", what, value + len - (room - 3));
        else
                fprintf(f, "# %s: %s\n", what, value);
}

void tune_print_dropin(FILE *f, const struct tune_report *rep)
{
        const struct tune_outcome *out = rep->out;
        char line[HEADER_LINE_MAX];

        fputs("# Written by blsim tune (see blsim(1)): the keys that differ from the base "
              "configuration.\n", f);
        header_line(f, "base", rep->base_name);
        snprintf(line, sizeof(line), "%s, %s mode", rep->board, rep->mode);
        header_line(f, "board", line);
        for (unsigned i = 0; i < rep->nw; i++)
                if (!rep->w[i].held_out)
                        header_line(f, "searched", rep->w[i].name);
        for (unsigned i = 0; i < rep->nw; i++)
                if (rep->w[i].held_out)
                        header_line(f, "held out", rep->w[i].name);
        if (count_held_out(rep) == 0)
                fputs("# held out: none\n", f);
        fprintf(f, "# budget: %u evaluations (%u used), seed %llu, max-late %g\n", rep->opt->budget,
                out->evaluations, (unsigned long long)rep->opt->seed, rep->opt->max_late);
        fprintf(f, "# objective (mean energy / always-big energy over the searched workloads):\n");
        fputs("#   base  ", f);
        score_text(f, &out->base);
        fputs("\n#   tuned ", f);
        score_text(f, &out->tuned);
        fputc('\n', f);
        if (!out->dropin[0])
                fputs("# Nothing better than the base configuration was found: nothing to change.\n", f);
        fputs(out->dropin, f);
}

static void eta_text(FILE *f, const struct tune_workload *w, double energy_uj)
{
        double eta;

        if (sim_eta(w->big_energy_uj, energy_uj, w->oracle_energy_uj, &eta))
                fprintf(f, " %8.4f", eta);
        else
                fprintf(f, " %8s", "n/a");
}

void tune_print_text(FILE *f, const struct tune_report *rep)
{
        const struct tune_outcome *out = rep->out;
        const struct tune_options *opt = rep->opt;
        unsigned held = count_held_out(rep);
        int width = 8;

        fprintf(f, "board %s, %s mode; base: %s\n", rep->board, rep->mode, rep->base_name);
        fprintf(f, "objective: mean over the %u searched workloads of energy / always-big's energy,\n",
                rep->nw - held);
        fprintf(f, "  with on each: lateness <= always-big's + %g (late_work_ratio; rt-app with activations: "
                   "the share missed)\n", opt->max_late);
        fprintf(f, "search: %u of %u evaluations, %u invalid candidates skipped, %u random restarts, "
                   "seed %llu\n",
                out->evaluations, opt->budget, out->skipped_invalid, out->restarts,
                (unsigned long long)opt->seed);
        fputs("base:  ", f);
        score_text(f, &out->base);
        fputs("\ntuned: ", f);
        score_text(f, &out->tuned);
        fputs("\n\n", f);

        fprintf(f, "%-40s %10s %10s\n", "parameter", "base", "tuned");
        for (unsigned i = 0; i < out->space.n; i++) {
                const struct tune_param *p = &out->space.p[i];
                char name[96];

                snprintf(name, sizeof(name), "[%s] %s", p->section, p->key);
                fprintf(f, "%-40s %10g %10g%s\n", name, out->base_value[i], out->tuned_value[i],
                        out->base_value[i] != out->tuned_value[i] ? "  *" : "");
        }
        fputc('\n', f);

        for (unsigned i = 0; i < rep->nw; i++)
                if ((int)strlen(rep->w[i].name) > width)
                        width = (int)strlen(rep->w[i].name);
        fprintf(f, "%-*s %-8s %12s %12s %8s %8s %4s %10s %10s %8s %8s %8s\n", width, "workload", "set",
                "base_mJ", "tuned_mJ", "base_eta", "tuned_eta", "late", "base_late", "tuned_late", "limit",
                "base_sw", "tuned_sw");
        for (unsigned i = 0; i < rep->nw; i++) {
                const struct tune_workload *w = &rep->w[i];
                const struct sim_result *b = &rep->base[i], *t = &rep->tuned[i];
                double base_late, tuned_late, limit;

                tune_lateness(w, b, opt->max_late, &base_late, &limit);
                tune_lateness(w, t, opt->max_late, &tuned_late, &limit);
                fprintf(f, "%-*s %-8s %12.3f %12.3f", width, w->name, w->held_out ? "HELD-OUT" : "search",
                        b->energy_uj / 1000.0, t->energy_uj / 1000.0);
                eta_text(f, w, b->energy_uj);
                eta_text(f, w, t->energy_uj);
                fprintf(f, " %4s %10.6g %10.6g %8.4g %8lu %8lu\n", is_rtapp_row(w, t) ? "miss" : "work",
                        base_late, tuned_late, limit, b->switches, t->switches);
        }
        fputs("(late: work = late_work_ratio, miss = share of missed activations; eta n/a: always-big is "
              "already optimal)\n", f);
        if (held == 0)
                fputs("No workload was held out (--holdout): nothing shows how the tuned configuration does "
                      "on workloads it was not tuned on.\n", f);
        if (out->tuned.over > 0)
                fputs("No configuration tried kept every searched workload within its limit: the one "
                      "above leaves the least lateness beyond it.\n", f);
}

static bool held_out_worse(const struct tune_report *rep, unsigned i)
{
        return rep->w[i].held_out && tune_got_worse(&rep->w[i], &rep->base[i], &rep->tuned[i], rep->opt->max_late);
}

unsigned tune_count_worse(const struct tune_report *rep)
{
        unsigned n = 0;

        for (unsigned i = 0; i < rep->nw; i++)
                n += held_out_worse(rep, i);
        return n;
}

void tune_print_worse(FILE *f, const struct tune_report *rep)
{
        for (unsigned i = 0; i < rep->nw; i++) {
                double base_late, tuned_late, limit;

                if (!held_out_worse(rep, i))
                        continue;
                tune_lateness(&rep->w[i], &rep->base[i], rep->opt->max_late, &base_late, &limit);
                tune_lateness(&rep->w[i], &rep->tuned[i], rep->opt->max_late, &tuned_late, &limit);
                fprintf(f, "  %s: late %.6g -> %.6g (limit %.4g), energy %.3f -> %.3f mJ\n", rep->w[i].name,
                        base_late, tuned_late, limit, rep->base[i].energy_uj / 1000.0,
                        rep->tuned[i].energy_uj / 1000.0);
        }
}

/* 'digits' > 0: that many significant digits; otherwise -digits decimals. */
static void json_number(FILE *f, int digits, double v)
{
        if (!isfinite(v))
                fputs("null", f);
        else if (digits > 0)
                fprintf(f, "%.*g", digits, v);
        else
                fprintf(f, "%.*f", -digits, v);
}

static void json_score(FILE *f, const char *key, const struct tune_score *s)
{
        fprintf(f, "    \"%s\": {\"value\": ", key);
        json_number(f, -6, s->objective);
        fputs(", \"violation\": ", f);
        json_number(f, 6, s->violation);
        fprintf(f, ", \"over_limit\": %u, \"feasible\": %s}", s->over, s->over == 0 ? "true" : "false");
}

static void json_result(FILE *f, const char *key, const struct tune_workload *w, const struct sim_result *r,
                        double max_late)
{
        double lateness, limit, eta;

        tune_lateness(w, r, max_late, &lateness, &limit);
        fprintf(f, "\"%s\": {\"energy_uj\": ", key);
        json_number(f, -3, r->energy_uj);
        fputs(", \"eta\": ", f);
        if (sim_eta(w->big_energy_uj, r->energy_uj, w->oracle_energy_uj, &eta))
                json_number(f, -4, eta);
        else
                fputs("null", f);
        fputs(", \"late_work_ratio\": ", f);
        json_number(f, 6, r->late_work_ratio);
        fprintf(f, ", \"switches\": %lu", r->switches);
        if (is_rtapp_row(w, r))
                fprintf(f, ", \"activations\": %lu, \"misses\": %lu", r->qos.activations, r->qos.misses);
        fputs(", \"lateness\": ", f);
        json_number(f, 6, lateness);
        fprintf(f, ", \"within_limit\": %s}", lateness <= limit ? "true" : "false");
}

void tune_print_json(FILE *f, const struct tune_report *rep)
{
        const struct tune_outcome *out = rep->out;
        const struct tune_options *opt = rep->opt;

        fputs("{\n  \"board\": ", f);
        report_json_string(f, rep->board);
        fputs(",\n  \"mode\": ", f);
        report_json_string(f, rep->mode);
        fputs(",\n  \"base\": ", f);
        report_json_string(f, rep->base_name);
        fprintf(f, ",\n  \"budget\": %u,\n  \"evaluations\": %u,\n  \"skipped_invalid\": %u,\n"
                   "  \"restarts\": %u,\n  \"seed\": %llu,\n  \"max_late\": ",
                opt->budget, out->evaluations, out->skipped_invalid, out->restarts,
                (unsigned long long)opt->seed);
        json_number(f, 6, opt->max_late);
        fprintf(f, ",\n  \"held_out\": %u,\n  \"objective\": {\n", count_held_out(rep));
        json_score(f, "base", &out->base);
        fputs(",\n", f);
        json_score(f, "tuned", &out->tuned);
        fputs("\n  },\n  \"params\": [", f);
        for (unsigned i = 0; i < out->space.n; i++) {
                const struct tune_param *p = &out->space.p[i];

                fputs(i ? ",\n    {\"section\": " : "\n    {\"section\": ", f);
                report_json_string(f, p->section);
                fputs(", \"key\": ", f);
                report_json_string(f, p->key);
                fputs(", \"min\": ", f);
                json_number(f, 10, p->min);
                fputs(", \"max\": ", f);
                json_number(f, 10, p->max);
                fputs(", \"base\": ", f);
                json_number(f, 10, out->base_value[i]);
                fputs(", \"tuned\": ", f);
                json_number(f, 10, out->tuned_value[i]);
                fputc('}', f);
        }
        fputs("\n  ],\n  \"dropin\": ", f);
        report_json_string(f, out->dropin);
        fputs(",\n  \"workloads\": [", f);
        for (unsigned i = 0; i < rep->nw; i++) {
                const struct tune_workload *w = &rep->w[i];
                double lateness, limit;

                tune_lateness(w, &rep->tuned[i], opt->max_late, &lateness, &limit);
                fputs(i ? ",\n    {\"workload\": " : "\n    {\"workload\": ", f);
                report_json_string(f, w->name);
                fprintf(f, ", \"held_out\": %s, \"lateness_measure\": \"%s\", \"limit\": ",
                        w->held_out ? "true" : "false",
                        is_rtapp_row(w, &rep->tuned[i]) ? "missed_share" : "late_work_ratio");
                json_number(f, 6, limit);
                fputs(",\n     ", f);
                json_result(f, "base", w, &rep->base[i], opt->max_late);
                fputs(",\n     ", f);
                json_result(f, "tuned", w, &rep->tuned[i], opt->max_late);
                fputc('}', f);
        }
        fputs("\n  ]\n}\n", f);
}
