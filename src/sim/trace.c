/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace format, as read here:
 *
 *   # bigLittle-trace v1 step_us=N        exactly, N a positive integer
 *   # any comment                         any number of lines starting with '#'
 *   t_us,lane0,lane1,...,laneK            at least one lane, named in order
 *   0,12.5,0,...                          one row per step, t_us = 0, N, 2N, ...
 *
 * Work values are non-negative decimals ("12", "0.25", "1.5e3"; no sign, no
 * "inf"/"nan", no leading or trailing '.'), in reference-µs, at most
 * SIM_TRACE_WORK_MAX. Blanks (spaces, tabs) around header names and fields
 * are allowed. Lines may end in LF or CRLF (spreadsheets write CRLF and the
 * CR carries no meaning); the newline after the last row is optional; an
 * empty line is an error (it would otherwise hide a lost row).
 *
 * Hour-long traces at 1 ms have millions of rows, so rows are parsed in one
 * pass by hand: strtod() takes the locale into account and costs several
 * times more. Values go through a 19-digit integer mantissa and one exact
 * power of ten, which gives the correctly rounded double for any field a
 * generator writes, then float. Errors are diagnosed on a slow path that only
 * runs for a bad row, and after a t_us out of sequence the parser follows the
 * file's own count, so one lost row is one error and not thousands. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "sim/trace.h"

#define TRACE_MAGIC "# bigLittle-trace "
#define TRACE_VERSION "v1"
#define TRACE_STEP_KEY " step_us="
#define STEP_MAX 1000000000ULL
#define SHOW_MAX 40             /* characters of a bad field quoted in a message */

struct trace_parser {
        const char *filename;
        const char *pos, *end;
        unsigned line;
        struct bl_diag *diag;
        unsigned problems;
        unsigned nlanes;
        size_t nrows, size;     /* rows stored, rows allocated */
        float *work;
};

static void report(struct trace_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(struct trace_parser *p, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        diag_atv(p->diag, p->filename, p->line, fmt, ap);
        va_end(ap);
        p->problems++;
}

static inline bool is_digit(char c)
{
        return (unsigned char)(c - '0') < 10;
}

static inline const char *skip_blank(const char *s, const char *end)
{
        while (s < end && (*s == ' ' || *s == '\t'))
                s++;
        return s;
}

/* The current line without its terminator; moves past it. */
static void next_line(struct trace_parser *p, const char **start, const char **stop)
{
        const char *eol = memchr(p->pos, '\n', (size_t)(p->end - p->pos));

        *start = p->pos;
        *stop = eol ? eol : p->end;
        p->pos = eol ? eol + 1 : p->end;
        if (*stop > *start && (*stop)[-1] == '\r')
                (*stop)--;
        p->line++;
}

static const double exact_pow10[] = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* D+[.D+][(e|E)[+-]D+], for any length. Returns the end of the number, or
 * NULL when 's' does not start one. */
static const char *scan_number_long(const char *s, const char *end, double *ret)
{
        uint64_t mantissa = 0;
        int digits = 0, exp10 = 0;
        double v;

        if (s == end || !is_digit(*s))
                return NULL;
        do {
                if (digits < 19) {
                        mantissa = mantissa * 10 + (unsigned)(*s - '0');
                        digits += mantissa != 0;
                } else {
                        exp10++;
                }
        } while (++s < end && is_digit(*s));
        if (s < end && *s == '.') {
                if (++s == end || !is_digit(*s))
                        return NULL;
                do {
                        if (digits < 19) {
                                mantissa = mantissa * 10 + (unsigned)(*s - '0');
                                digits += mantissa != 0;
                                exp10--;
                        }
                } while (++s < end && is_digit(*s));
        }
        if (s < end && (*s == 'e' || *s == 'E')) {
                bool negative = false;
                int e = 0;

                if (++s < end && (*s == '+' || *s == '-'))
                        negative = *s++ == '-';
                if (s == end || !is_digit(*s))
                        return NULL;
                do {
                        if (e < 100000)
                                e = e * 10 + (*s - '0');
                } while (++s < end && is_digit(*s));
                exp10 += negative ? -e : e;
        }

        v = (double)mantissa;
        if (mantissa == 0 || exp10 == 0)
                ;
        else if (exp10 > 22)
                v = SIM_TRACE_WORK_MAX * 10;    /* far out of range either way */
        else if (exp10 > 0)
                v *= exact_pow10[exp10];
        else if (exp10 >= -22)
                v /= exact_pow10[-exp10];
        else
                v = exp10 >= -44 ? v / 1e22 / exact_pow10[-exp10 - 22] : 0;
        *ret = v;
        return s;
}

/* The same for what generators write: at most 19 characters of digits and
 * a point, no exponent. Gives the same double as scan_number_long(). */
static inline const char *scan_number(const char *s, const char *end, double *ret)
{
        const char *start = s, *point;
        uint64_t mantissa = 0;

        if (s == end || !is_digit(*s))
                return NULL;
        do
                mantissa = mantissa * 10 + (unsigned)(*s - '0');
        while (++s < end && is_digit(*s));
        point = s;
        if (s < end && *s == '.') {
                if (++s == end || !is_digit(*s))
                        return NULL;
                do
                        mantissa = mantissa * 10 + (unsigned)(*s - '0');
                while (++s < end && is_digit(*s));
        }
        if (s - start > 19 || (s < end && (*s == 'e' || *s == 'E')))
                return scan_number_long(start, end, ret);
        *ret = s == point ? (double)mantissa : (double)mantissa / exact_pow10[s - point - 1];
        return s;
}

/* Digits only; saturates far above any valid value. */
static const char *scan_uint(const char *s, const char *end, uint64_t *ret)
{
        uint64_t v = 0;

        if (s == end || !is_digit(*s))
                return NULL;
        do {
                if (v < 100000000000000000ULL)
                        v = v * 10 + (unsigned)(*s - '0');
        } while (++s < end && is_digit(*s));
        *ret = v;
        return s;
}

static bool parse_magic(struct trace_parser *p, bl_usec_t *step_us)
{
        const char *s, *e, *v;
        uint64_t step;
        size_t n;

        if (p->pos == p->end) {
                p->line = 1;
                report(p, "expected \"" TRACE_MAGIC TRACE_VERSION " step_us=N\", got an empty file");
                return false;
        }
        next_line(p, &s, &e);
        n = (size_t)(e - s);
        if (n < strlen(TRACE_MAGIC) || memcmp(s, TRACE_MAGIC, strlen(TRACE_MAGIC)) != 0) {
                report(p, "expected \"" TRACE_MAGIC TRACE_VERSION " step_us=N\", got \"%.*s\"",
                       (int)(n < SHOW_MAX ? n : SHOW_MAX), s);
                return false;
        }
        s += strlen(TRACE_MAGIC);
        for (v = s; v < e && *v != ' '; v++)
                ;
        if ((size_t)(v - s) != strlen(TRACE_VERSION) ||
            memcmp(s, TRACE_VERSION, strlen(TRACE_VERSION)) != 0) {
                report(p, "unsupported trace version \"%.*s\" (expected " TRACE_VERSION ")",
                       (int)(v - s < SHOW_MAX ? v - s : SHOW_MAX), s);
                return false;
        }
        if ((size_t)(e - v) < strlen(TRACE_STEP_KEY) ||
            memcmp(v, TRACE_STEP_KEY, strlen(TRACE_STEP_KEY)) != 0) {
                report(p, "expected \" step_us=N\" after \"" TRACE_MAGIC TRACE_VERSION "\", got \"%.*s\"",
                       (int)(e - v < SHOW_MAX ? e - v : SHOW_MAX), v);
                return false;
        }
        v += strlen(TRACE_STEP_KEY);
        s = scan_uint(v, e, &step);
        if (!s || s != e || step < 1 || step > STEP_MAX) {
                report(p, "step_us: expected an integer 1-%llu (µs), got \"%.*s\"", STEP_MAX,
                       (int)(e - v < SHOW_MAX ? e - v : SHOW_MAX), v);
                return false;
        }
        *step_us = step;
        return true;
}

/* One comma-separated field, blanks trimmed. */
static const char *field_end(const char *s, const char *e)
{
        const char *comma = memchr(s, ',', (size_t)(e - s));

        return comma ? comma : e;
}

static void trim(const char **s, const char **e)
{
        *s = skip_blank(*s, *e);
        while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
                (*e)--;
}

static bool parse_header(struct trace_parser *p)
{
        const char *s, *e, *f, *fe;
        unsigned column = 0;

        /* Comments between the first line and the header say where a
         * trace came from (a recording notes its machine and saturation). */
        do {
                if (p->pos == p->end) {
                        p->line++;
                        report(p, "expected a header \"t_us,lane0,...\", got the end of the file");
                        return false;
                }
                next_line(p, &s, &e);
        } while (s < e && *s == '#');
        for (f = s;; f = fe + 1) {
                const char *ns, *ne;
                char want[32];

                fe = field_end(f, e);
                ns = f;
                ne = fe;
                trim(&ns, &ne);
                if (column == 0)
                        snprintf(want, sizeof(want), "t_us");
                else
                        snprintf(want, sizeof(want), "lane%u", column - 1);
                if ((size_t)(ne - ns) != strlen(want) || memcmp(ns, want, strlen(want)) != 0) {
                        report(p, "header: expected \"%s\" as column %u, got \"%.*s\"", want, column + 1,
                               (int)(ne - ns < SHOW_MAX ? ne - ns : SHOW_MAX), ns);
                        return false;
                }
                column++;
                if (fe == e)
                        break;
                if (column > SIM_TRACE_MAX_LANES) {
                        report(p, "header: expected at most %d lanes, got more", SIM_TRACE_MAX_LANES);
                        return false;
                }
        }
        if (column < 2) {
                report(p, "header: expected at least one lane column after \"t_us\", got none");
                return false;
        }
        p->nlanes = column - 1;
        return true;
}

static int grow(struct trace_parser *p)
{
        size_t size = p->size ? p->size * 2 : 4096;
        float *work;

        if (size > SIZE_MAX / sizeof(float) / p->nlanes)
                return -ENOMEM;
        work = realloc(p->work, size * p->nlanes * sizeof(float));
        if (!work)
                return -ENOMEM;
        p->work = work;
        p->size = size;
        return 0;
}

/* The slow path: says what is wrong with a row the fast path refused. */
static void diagnose_row(struct trace_parser *p, const char *s, const char *e, uint64_t expect_t, bool first)
{
        unsigned fields = 1, column = 0;
        const char *f, *fe;

        if (s == e) {
                report(p, "expected a row of %u fields, got an empty line", p->nlanes + 1);
                return;
        }
        for (f = s; f < e; f++)
                fields += *f == ',';
        if (fields != p->nlanes + 1) {
                report(p, "expected %u fields (t_us and %u lane%s), got %u", p->nlanes + 1, p->nlanes,
                       p->nlanes == 1 ? "" : "s", fields);
                return;
        }
        for (f = s;; f = fe + 1, column++) {
                const char *ns, *ne, *end;
                int shown;

                fe = field_end(f, e);
                ns = f;
                ne = fe;
                trim(&ns, &ne);
                shown = (int)(ne - ns < SHOW_MAX ? ne - ns : SHOW_MAX);
                if (column == 0) {
                        uint64_t t;

                        end = scan_uint(ns, ne, &t);
                        if (!end || end != ne) {
                                report(p, "t_us: expected an integer, got \"%.*s\"", shown, ns);
                                return;
                        }
                        if (t != expect_t) {
                                const char *why = first ? "in the first row"
                                                        : "(the previous row's + step_us)";

                                report(p, "t_us: expected %llu %s, got \"%.*s\"",
                                       (unsigned long long)expect_t, why, shown, ns);
                                return;
                        }
                } else {
                        double v;

                        end = scan_number(ns, ne, &v);
                        if (!end || end != ne) {
                                report(p, "lane%u: expected a non-negative number (reference-µs), "
                                       "got \"%.*s\"", column - 1, shown, ns);
                                return;
                        }
                        if (v > SIM_TRACE_WORK_MAX) {
                                report(p, "lane%u: expected at most %g reference-µs, got \"%.*s\"",
                                       column - 1, SIM_TRACE_WORK_MAX, shown, ns);
                                return;
                        }
                }
                if (fe == e)
                        break;
        }
        /* Not reached for a row the fast path refused; kept so that a row is
         * never dropped without a word. */
        report(p, "cannot parse this row");
}

/* The fast path: a well-formed row into 'out'. Returns where the line ends
 * (at its '\n' or the end of the text), or NULL when anything is off. */
static const char *parse_row(const char *s, const char *end, unsigned nlanes, uint64_t expect_t, float *out)
{
        uint64_t t;

        s = scan_uint(skip_blank(s, end), end, &t);
        if (!s || t != expect_t)
                return NULL;
        for (unsigned i = 0; i < nlanes; i++) {
                double v;

                s = skip_blank(s, end);
                if (s == end || *s != ',')
                        return NULL;
                s = scan_number(skip_blank(s + 1, end), end, &v);
                if (!s || v > SIM_TRACE_WORK_MAX)
                        return NULL;
                out[i] = (float)v;
        }
        s = skip_blank(s, end);
        if (s < end && *s == '\r')
                s++;
        if (s < end && *s != '\n')
                return NULL;
        return s;
}

static int parse_rows(struct trace_parser *p, bl_usec_t step_us)
{
        uint64_t expect_t = 0;
        bool first = true;
        int r;

        while (p->pos < p->end) {
                const char *eol;

                if (p->nrows == p->size && (r = grow(p)) < 0)
                        return r;
                eol = parse_row(p->pos, p->end, p->nlanes, expect_t, p->work + p->nrows * p->nlanes);
                if (eol) {
                        p->line++;
                        p->pos = eol < p->end ? eol + 1 : eol;
                        p->nrows++;
                        expect_t += step_us;
                        first = false;
                } else {
                        const char *s, *e, *after;
                        uint64_t t;

                        next_line(p, &s, &e);
                        diagnose_row(p, s, e, expect_t, first);
                        first = false;
                        /* Follow the file's own time, so that one lost row is
                         * one error; a blank line is no row at all. */
                        after = scan_uint(skip_blank(s, e), e, &t);
                        if (after && t <= UINT64_MAX - step_us)
                                expect_t = t + step_us;
                        else if (s != e)
                                expect_t += step_us;
                }
        }
        if (p->nrows == 0 && p->problems == 0) {
                p->line++;
                report(p, "expected at least one row after the header, got none");
        }
        return 0;
}

void trace_free(struct sim_trace *t)
{
        free(t->work);
        *t = (struct sim_trace){ 0 };
}

int trace_parse(struct sim_trace *t, const char *filename, const char *text, size_t len, struct bl_diag *diag)
{
        struct trace_parser p = {
                .filename = filename,
                .pos = text,
                .end = text + len,
                .diag = diag,
        };
        bl_usec_t step_us = 0;
        int r = 0;

        *t = (struct sim_trace){ 0 };
        if (parse_magic(&p, &step_us) && parse_header(&p))
                r = parse_rows(&p, step_us);
        if (r < 0 || p.problems > 0) {
                free(p.work);
                return r < 0 ? r : (int)p.problems;
        }
        /* Give back what the last doubling did not use. */
        if (p.nrows < p.size) {
                float *work = realloc(p.work, p.nrows * p.nlanes * sizeof(float));

                if (work)
                        p.work = work;
        }
        t->step_us = step_us;
        t->nlanes = p.nlanes;
        t->nsteps = p.nrows;
        t->work = p.work;
        return 0;
}

int trace_load(struct sim_trace *t, const char *path, struct bl_diag *diag)
{
        _cleanup_free_ char *text = NULL;
        char why[256];
        size_t len = 0;
        int r;

        *t = (struct sim_trace){ 0 };
        /* Not at config-file sizes: an hour of trace is ~100 MB. */
        r = read_regular_file(path, 0, SIZE_MAX / 2, &text, &len, why, sizeof(why));
        if (r < 0) {
                diag_add(diag, "%s: %s", path, why);
                return r;
        }
        r = trace_parse(t, path, text, len, diag);
        if (r == -ENOMEM)
                diag_add(diag, "%s: cannot parse: out of memory", path);
        return r;
}

int trace_append(struct sim_trace *t, size_t *room, const double *work)
{
        float *row;

        if (t->nsteps == *room) {
                size_t n = *room ? 2 * *room : 4096;
                float *grown = realloc(t->work, n * t->nlanes * sizeof(float));

                if (!grown)
                        return -ENOMEM;
                t->work = grown;
                *room = n;
        }
        row = t->work + t->nsteps * t->nlanes;
        for (unsigned i = 0; i < t->nlanes; i++)
                row[i] = (float)work[i];
        t->nsteps++;
        return 0;
}
