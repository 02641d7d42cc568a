/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Board files are INI, read like the daemon's configuration (core/ini-reader)
 * so that every problem names its line. Checks that need the whole file
 * (required keys, orders, capacities against reference_capacity, clusters
 * ordered by capacity) run at the end and point at the line that made the
 * rule fail: a section's header for what is missing, the key otherwise.
 *
 * Clusters must get faster with their order: the daemon's topology orders
 * clusters by capacity and merges CPUs of equal capacity, and the simulator
 * hands the engine that topology, so the engine's levels and the board's
 * clusters only line up when order and top capacity agree.
 *
 * The thermal keys are optional (boards older than blsim live have none):
 * absent, they take the defaults of board.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "core/ladder.h"
#include "core/ini-reader.h"

#define CLUSTER_PREFIX "cluster."
#define BACKEND_PREFIX "backend."
/* The parser's 'current' while it reads a [backend.NAME] section. */
#define CURRENT_BACKEND (-2)
#define MHZ_MAX 100000
#define CAPACITY_MAX 1000000
#define DECIMAL_MAX 1000000.0
#define TEMP_MAX_C 200
#define THERMAL_MAX 1000
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

enum board_key {
        KEY_NAME,
        KEY_REFERENCE_CAPACITY,
        KEY_SWITCH_LATENCY_US,
        KEY_SWITCH_ENERGY_UJ,
        KEY_AMBIENT_C,
        NBOARD_KEYS,
};

enum cluster_key {
        KEY_CPUS,
        KEY_ORDER,
        KEY_OFF_MW,
        KEY_CORE,
        KEY_THERMAL_R,
        KEY_THERMAL_C,
        KEY_TRIP_PASSIVE,
        KEY_TRIP_CRITICAL,
        NCLUSTER_KEYS,
};

static const char *const board_keys[NBOARD_KEYS] = {
        [KEY_NAME] = "name",
        [KEY_REFERENCE_CAPACITY] = "reference_capacity",
        [KEY_SWITCH_LATENCY_US] = "switch_latency_us",
        [KEY_SWITCH_ENERGY_UJ] = "switch_energy_uj",
        [KEY_AMBIENT_C] = "ambient_c",
};

static const char *const cluster_keys[NCLUSTER_KEYS] = {
        [KEY_CPUS] = "cpus",
        [KEY_ORDER] = "order",
        [KEY_OFF_MW] = "off_mw",
        [KEY_CORE] = "core",
        [KEY_THERMAL_R] = "thermal_r_c_per_w",
        [KEY_THERMAL_C] = "thermal_c_j_per_c",
        [KEY_TRIP_PASSIVE] = "trip_passive_c",
        [KEY_TRIP_CRITICAL] = "trip_critical_c",
};

enum backend_key {
        KEY_LATENCY_US,
        KEY_ENERGY_UJ,
        KEY_LATENCY_PER_CPU_US,
        KEY_ENERGY_PER_CPU_UJ,
        KEY_STALLS,
        KEY_POWERED,
        NBACKEND_KEYS,
};

static const char *const backend_keys[NBACKEND_KEYS] = {
        [KEY_LATENCY_US] = "latency_us",
        [KEY_ENERGY_UJ] = "energy_uj",
        [KEY_LATENCY_PER_CPU_US] = "latency_per_cpu_us",
        [KEY_ENERGY_PER_CPU_UJ] = "energy_per_cpu_uj",
        [KEY_STALLS] = "stalls",
        [KEY_POWERED] = "powered",
};

static const char *const backend_names[SIM_NBACKENDS] = {
        [SIM_BACKEND_SWITCHER] = "switcher",
        [SIM_BACKEND_CPUFREQ] = "cpufreq",
        [SIM_BACKEND_CPUSET] = "cpuset",
        [SIM_BACKEND_HOTPLUG] = "hotplug",
};

/* Where each thing was set (0 = not set), for the checks at the end. */
struct cluster_lines {
        unsigned header;
        unsigned key[NCLUSTER_KEYS];
        unsigned opp[SIM_MAX_OPPS];
        unsigned first_opp;             /* the first opp line, even if rejected */
        bool order_valid;
};

struct board_parser {
        struct sim_board *b;
        const char *filename;
        struct bl_diag *diag;
        unsigned line;
        unsigned problems;
        unsigned board_header;
        unsigned board_key[NBOARD_KEYS];
        struct cluster_lines cl[BL_MAX_CLUSTERS];
        unsigned backend_header[SIM_NBACKENDS];
        unsigned backend_key[SIM_NBACKENDS][NBACKEND_KEYS];
        int backend;            /* the backend being read */
        int current;            /* index of the cluster being read, -1 for [board],
                                 * CURRENT_BACKEND for a [backend.NAME] */
};

static void report_atv(struct board_parser *p, unsigned line, const char *fmt, va_list ap)
        __attribute__((format(printf, 3, 0)));
static void report_atv(struct board_parser *p, unsigned line, const char *fmt, va_list ap)
{
        diag_atv(p->diag, p->filename, line, fmt, ap);
        p->problems++;
}

/* At 'line' (0: the file as a whole). */
static void report_at(struct board_parser *p, unsigned line, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
static void report_at(struct board_parser *p, unsigned line, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        report_atv(p, line, fmt, ap);
        va_end(ap);
}

/* At the line being read. */
static void report(struct board_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(struct board_parser *p, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        report_atv(p, p->line, fmt, ap);
        va_end(ap);
}

static bool streq(const char *a, const char *b)
{
        return strcmp(a, b) == 0;
}

/* Digits only: no sign, no spaces (inih has trimmed the value). Large
 * values saturate, which keeps them out of every range. */
static bool parse_uint(const char *s, size_t n, unsigned long *ret)
{
        unsigned long v = 0;

        if (n == 0)
                return false;
        for (size_t i = 0; i < n; i++) {
                if (!isdigit((unsigned char)s[i]))
                        return false;
                if (v < 100000000000UL)
                        v = v * 10 + (unsigned long)(s[i] - '0');
        }
        *ret = v;
        return true;
}

/* Digits with an optional fraction ("12.5"). By hand because strtod() would
 * also take signs, exponents, hex, "inf" and the locale's decimal point. */
static bool parse_decimal(const char *s, size_t n, double *ret)
{
        double v = 0, scale = 1;
        size_t i = 0;

        if (n == 0 || !isdigit((unsigned char)s[0]))
                return false;
        for (; i < n && isdigit((unsigned char)s[i]); i++)
                if (v < 1e12)
                        v = v * 10 + (s[i] - '0');
        if (i < n && s[i] == '.') {
                if (++i == n)
                        return false;
                for (; i < n; i++) {
                        if (!isdigit((unsigned char)s[i]))
                                return false;
                        scale /= 10;
                        v += (s[i] - '0') * scale;
                }
        }
        if (i != n)
                return false;
        *ret = v;
        return true;
}

/* Names end up in reports and JSON: keep them to a safe alphabet. */
static bool name_valid(const char *s, size_t max, const char *extra)
{
        size_t n = strlen(s);

        if (n == 0 || n > max)
                return false;
        for (; *s; s++)
                if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
                        return false;
        return true;
}

static unsigned enter_section(struct board_parser *p, const char *section)
{
        struct sim_board *b = p->b;
        const char *name;

        if (streq(section, "board")) {
                if (p->board_header) {
                        report(p, "duplicate section [board] (first at line %u)", p->board_header);
                        return 1;
                }
                p->board_header = p->line;
                p->current = -1;
                return 0;
        }
        if (strncmp(section, BACKEND_PREFIX, strlen(BACKEND_PREFIX)) == 0) {
                int k = board_backend_find(section + strlen(BACKEND_PREFIX));

                if (k < 0) {
                        report(p, "[%s]: expected a backend switcher, cpufreq, cpuset or hotplug, got \"%s\"",
                                  section, section + strlen(BACKEND_PREFIX));
                        return 1;
                }
                if (p->backend_header[k]) {
                        report(p, "duplicate section [%s] (first at line %u)", section, p->backend_header[k]);
                        return 1;
                }
                p->backend_header[k] = p->line;
                p->backend = k;
                p->current = CURRENT_BACKEND;
                return 0;
        }
        if (strncmp(section, CLUSTER_PREFIX, strlen(CLUSTER_PREFIX)) != 0) {
                report(p, "unknown section [%s] (expected [board], [cluster.NAME] or [backend.NAME])",
                          section);
                return 1;
        }

        name = section + strlen(CLUSTER_PREFIX);
        if (!name_valid(name, BL_NAME_MAX - 1, "_-")) {
                report(p, "[%s]: expected a cluster name of letters, digits, \"_\" and \"-\" "
                          "(at most %d characters), got \"%s\"", section, BL_NAME_MAX - 1, name);
                return 1;
        }
        for (unsigned k = 0; k < b->nclusters; k++)
                if (streq(b->cluster[k].name, name)) {
                        report(p, "duplicate section [%s] (first at line %u)", section,
                                  p->cl[k].header);
                        return 1;
                }
        if (b->nclusters == BL_MAX_CLUSTERS) {
                report(p, "[%s]: expected at most %d clusters, got another", section,
                          BL_MAX_CLUSTERS);
                return 1;
        }
        p->current = (int)b->nclusters;
        memset(&p->cl[p->current], 0, sizeof(p->cl[p->current]));
        p->cl[p->current].header = p->line;
        snprintf(b->cluster[b->nclusters].name, BL_NAME_MAX, "%s", name);
        b->nclusters++;
        return 0;
}

/* 'key' has been set before in this section: opp is the only key that may
 * repeat. */
static bool check_twice(struct board_parser *p, unsigned *seen, const char *key)
{
        if (*seen) {
                report(p, "%s: set twice in this section (first at line %u)", key, *seen);
                return false;
        }
        *seen = p->line;
        return true;
}

static void set_board_key(struct board_parser *p, const char *key, const char *value)
{
        struct sim_board *b = p->b;
        size_t n = strlen(value);
        unsigned long v;
        double d;
        int k;

        for (k = 0; k < NBOARD_KEYS; k++)
                if (streq(board_keys[k], key))
                        break;
        if (k == NBOARD_KEYS) {
                report(p, "[board]: unknown key \"%s\" (known: name, reference_capacity, "
                          "switch_latency_us, switch_energy_uj, ambient_c)", key);
                return;
        }
        if (!check_twice(p, &p->board_key[k], key))
                return;

        switch ((enum board_key)k) {
        case KEY_NAME:
                if (name_valid(value, sizeof(b->name) - 1, "_-.+"))
                        snprintf(b->name, sizeof(b->name), "%s", value);
                else
                        report(p, "name: expected letters, digits, \"_\", \"-\", \".\" and \"+\" "
                                  "(at most %zu characters), got \"%s\"", sizeof(b->name) - 1, value);
                break;
        case KEY_REFERENCE_CAPACITY:
                if (parse_uint(value, n, &v) && v >= 1 && v <= CAPACITY_MAX)
                        b->reference_capacity = (unsigned)v;
                else
                        report(p, "reference_capacity: expected an integer 1-%d, got \"%s\"",
                                  CAPACITY_MAX, value);
                break;
        case KEY_SWITCH_LATENCY_US:
                if (parse_decimal(value, n, &d) && d <= DECIMAL_MAX)
                        b->switch_latency_us = d;
                else
                        report(p, "switch_latency_us: expected a number 0-%.0f (µs), got \"%s\"",
                                  DECIMAL_MAX, value);
                break;
        case KEY_SWITCH_ENERGY_UJ:
                if (parse_decimal(value, n, &d) && d <= DECIMAL_MAX)
                        b->switch_energy_uj = d;
                else
                        report(p, "switch_energy_uj: expected a number 0-%.0f (µJ), got \"%s\"",
                                  DECIMAL_MAX, value);
                break;
        case KEY_AMBIENT_C:
                if (parse_decimal(value, n, &d) && d <= TEMP_MAX_C)
                        b->ambient_c = d;
                else
                        report(p, "ambient_c: expected a number 0-%d (°C), got \"%s\"", TEMP_MAX_C, value);
                break;
        case NBOARD_KEYS:
                break;
        }
}

static void set_backend_key(struct board_parser *p, const char *section, const char *key, const char *value)
{
        struct sim_switch_model *m = &p->b->backend[p->backend];
        size_t n = strlen(value);
        double d;
        int k;

        for (k = 0; k < NBACKEND_KEYS; k++)
                if (streq(backend_keys[k], key))
                        break;
        if (k == NBACKEND_KEYS) {
                report(p, "[%s]: unknown key \"%s\" (known: latency_us, energy_uj, latency_per_cpu_us, "
                          "energy_per_cpu_uj, stalls, powered)", section, key);
                return;
        }
        if (!check_twice(p, &p->backend_key[p->backend][k], key))
                return;

        switch ((enum backend_key)k) {
        case KEY_LATENCY_US:
        case KEY_LATENCY_PER_CPU_US:
        case KEY_ENERGY_UJ:
        case KEY_ENERGY_PER_CPU_UJ: {
                const bool latency = k == KEY_LATENCY_US || k == KEY_LATENCY_PER_CPU_US;

                if (!parse_decimal(value, n, &d) || d > DECIMAL_MAX) {
                        report(p, "%s: expected a number 0-%.0f (%s), got \"%s\"", key, DECIMAL_MAX,
                                  latency ? "µs" : "µJ", value);
                        return;
                }
                *(k == KEY_LATENCY_US ? &m->latency_us :
                  k == KEY_LATENCY_PER_CPU_US ? &m->latency_per_cpu_us :
                  k == KEY_ENERGY_UJ ? &m->energy_uj : &m->energy_per_cpu_uj) = d;
                break;
        }
        case KEY_STALLS:
                if (streq(value, "switched") || streq(value, "all"))
                        m->stall_all = streq(value, "all");
                else
                        report(p, "stalls: expected switched or all, got \"%s\"", value);
                break;
        case KEY_POWERED:
                if (streq(value, "idle") || streq(value, "busy"))
                        m->stall_busy = streq(value, "busy");
                else
                        report(p, "powered: expected idle or busy, got \"%s\"", value);
                break;
        case NBACKEND_KEYS:
                break;
        }
}

/* The next whitespace-separated field of an opp line. */
static bool next_field(const char **cursor, const char **start, size_t *n)
{
        const char *s = *cursor;

        while (isspace((unsigned char)*s))
                s++;
        if (!*s)
                return false;
        *start = s;
        while (*s && !isspace((unsigned char)*s))
                s++;
        *n = (size_t)(s - *start);
        *cursor = s;
        return true;
}

static void add_opp(struct board_parser *p, struct sim_cluster *c, struct cluster_lines *cl,
                    const char *value)
{
        static const char *const what[4] = { "MHz", "capacity", "core_mW", "idle_mW" };
        const char *cursor = value, *field[5];
        size_t len[5];
        unsigned nfields = 0;
        unsigned long mhz, capacity;
        double core_mw, idle_mw;
        const struct sim_opp *prev;

        while (nfields < 5 && next_field(&cursor, &field[nfields], &len[nfields]))
                nfields++;
        if (nfields != 4) {
                report(p, "opp: expected 4 numbers \"MHz capacity core_mW idle_mW\", got \"%s\"",
                          value);
                return;
        }
        if (!parse_uint(field[0], len[0], &mhz) || mhz < 1 || mhz > MHZ_MAX) {
                report(p, "opp: expected %s as an integer 1-%d, got \"%.*s\"", what[0], MHZ_MAX,
                          (int)len[0], field[0]);
                return;
        }
        if (!parse_uint(field[1], len[1], &capacity) || capacity < 1 || capacity > CAPACITY_MAX) {
                report(p, "opp: expected %s as an integer 1-%d, got \"%.*s\"", what[1],
                          CAPACITY_MAX, (int)len[1], field[1]);
                return;
        }
        if (!parse_decimal(field[2], len[2], &core_mw) || core_mw > DECIMAL_MAX) {
                report(p, "opp: expected %s as a number 0-%.0f, got \"%.*s\"", what[2],
                          DECIMAL_MAX, (int)len[2], field[2]);
                return;
        }
        if (!parse_decimal(field[3], len[3], &idle_mw) || idle_mw > DECIMAL_MAX) {
                report(p, "opp: expected %s as a number 0-%.0f, got \"%.*s\"", what[3],
                          DECIMAL_MAX, (int)len[3], field[3]);
                return;
        }
        if (c->nopps == SIM_MAX_OPPS) {
                report(p, "opp: expected at most %d opp lines per cluster, got another", SIM_MAX_OPPS);
                return;
        }
        prev = c->nopps ? &c->opp[c->nopps - 1] : NULL;
        if (prev && mhz <= prev->mhz) {
                report(p, "opp: expected MHz above %u (the opp of line %u), got \"%lu\"", prev->mhz,
                          cl->opp[c->nopps - 1], mhz);
                return;
        }
        if (prev && capacity <= prev->capacity) {
                report(p, "opp: expected capacity above %u (the opp of line %u), got \"%lu\"",
                          prev->capacity, cl->opp[c->nopps - 1], capacity);
                return;
        }
        cl->opp[c->nopps] = p->line;
        c->opp[c->nopps++] = (struct sim_opp){
                .mhz = (unsigned)mhz,
                .capacity = (unsigned)capacity,
                .core_mw = core_mw,
                .idle_mw = idle_mw,
        };
}

static void set_cluster_key(struct board_parser *p, const char *section, const char *key, const char *value)
{
        struct sim_cluster *c = &p->b->cluster[p->current];
        struct cluster_lines *cl = &p->cl[p->current];
        size_t n = strlen(value);
        unsigned long v;
        double d;
        int k;

        if (streq(key, "opp")) {
                if (!cl->first_opp)
                        cl->first_opp = p->line;
                add_opp(p, c, cl, value);
                return;
        }
        for (k = 0; k < NCLUSTER_KEYS; k++)
                if (streq(cluster_keys[k], key))
                        break;
        if (k == NCLUSTER_KEYS) {
                report(p, "[%s]: unknown key \"%s\" (known: cpus, order, off_mw, core, opp, "
                          "thermal_r_c_per_w, thermal_c_j_per_c, trip_passive_c, trip_critical_c)", section,
                          key);
                return;
        }
        if (!check_twice(p, &cl->key[k], key))
                return;

        switch ((enum cluster_key)k) {
        case KEY_CPUS:
                if (parse_uint(value, n, &v) && v >= 1 && v <= SIM_MAX_CPUS)
                        c->cpus = (unsigned)v;
                else
                        report(p, "cpus: expected an integer 1-%d, got \"%s\"", SIM_MAX_CPUS, value);
                break;
        case KEY_ORDER:
                if (parse_uint(value, n, &v) && v < BL_MAX_CLUSTERS) {
                        c->order = (unsigned)v;
                        cl->order_valid = true;
                } else
                        report(p, "order: expected an integer 0-%d, got \"%s\"", BL_MAX_CLUSTERS - 1,
                                  value);
                break;
        case KEY_OFF_MW:
                if (parse_decimal(value, n, &d) && d <= DECIMAL_MAX)
                        c->off_mw = d;
                else
                        report(p, "off_mw: expected a number 0-%.0f (mW), got \"%s\"", DECIMAL_MAX,
                                  value);
                break;
        case KEY_CORE:
                if (name_valid(value, BL_NAME_MAX - 1, "_-.+"))
                        snprintf(c->core, sizeof(c->core), "%s", value);
                else
                        report(p, "core: expected letters, digits, \"_\", \"-\", \".\" and \"+\" "
                                  "(at most %d characters), got \"%s\"", BL_NAME_MAX - 1, value);
                break;
        case KEY_THERMAL_R:
                if (parse_decimal(value, n, &d) && d <= THERMAL_MAX)
                        c->thermal_r_c_per_w = d;
                else
                        report(p, "thermal_r_c_per_w: expected a number 0-%d (°C per W), got \"%s\"",
                                  THERMAL_MAX, value);
                break;
        case KEY_THERMAL_C:
                if (parse_decimal(value, n, &d) && d <= THERMAL_MAX)
                        c->thermal_c_j_per_c = d;
                else
                        report(p, "thermal_c_j_per_c: expected a number 0-%d (J per °C), got \"%s\"",
                                  THERMAL_MAX, value);
                break;
        case KEY_TRIP_PASSIVE:
        case KEY_TRIP_CRITICAL:
                if (parse_decimal(value, n, &d) && d >= 1 && d <= TEMP_MAX_C)
                        *(k == KEY_TRIP_PASSIVE ? &c->trip_passive_c : &c->trip_critical_c) = d;
                else
                        report(p, "%s: expected a number 1-%d (°C), got \"%s\"", key, TEMP_MAX_C, value);
                break;
        case NCLUSTER_KEYS:
                break;
        }
}

static unsigned handle_line(void *userdata, const char *section, const char *key, const char *value,
                            unsigned line)
{
        struct board_parser *p = userdata;
        unsigned before = p->problems;

        p->line = line;
        if (!key)
                return enter_section(p, section);
        if (p->current == CURRENT_BACKEND)
                set_backend_key(p, section, key, value);
        else if (p->current < 0)
                set_board_key(p, key, value);
        else
                set_cluster_key(p, section, key, value);
        return p->problems - before;
}

/* A key that was given but rejected was reported where it stood; only keys
 * never written are reported as missing. */
static void check_complete(struct board_parser *p)
{
        static const char *const board_expect[NBOARD_KEYS] = {
                [KEY_NAME] = "a board name",
                [KEY_REFERENCE_CAPACITY] = "an integer 1-" STRINGIFY(CAPACITY_MAX),
                [KEY_SWITCH_LATENCY_US] = "a number of µs",
                [KEY_SWITCH_ENERGY_UJ] = "a number of µJ",
        };
        char cluster_expect[KEY_CORE][48];
        const struct sim_board *b = p->b;

        snprintf(cluster_expect[KEY_CPUS], sizeof(cluster_expect[0]), "an integer 1-%d", SIM_MAX_CPUS);
        snprintf(cluster_expect[KEY_ORDER], sizeof(cluster_expect[0]), "an integer 0-%d, 0 = most efficient",
                 BL_MAX_CLUSTERS - 1);
        snprintf(cluster_expect[KEY_OFF_MW], sizeof(cluster_expect[0]), "a number of mW");
        if (!p->board_header)
                report_at(p, 0, "missing section [board]");
        else
                for (unsigned k = 0; k < NBOARD_KEYS; k++)
                        if (!p->board_key[k] && k != KEY_AMBIENT_C)
                                report_at(p, p->board_header, "[board]: missing key \"%s\" (%s)",
                                          board_keys[k], board_expect[k]);
        if (b->nclusters == 0)
                report_at(p, 0, "expected at least one [cluster.NAME] section, got none");
        /* A backend's fixed parts must be given: 0 is a claim, not a default. */
        for (unsigned k = 0; k < SIM_NBACKENDS; k++)
                for (unsigned key = KEY_LATENCY_US; key <= KEY_ENERGY_UJ && p->backend_header[k]; key++)
                        if (!p->backend_key[k][key])
                                report_at(p, p->backend_header[k], "[backend.%s]: missing key \"%s\" (%s)",
                                          backend_names[k], backend_keys[key],
                                          key == KEY_LATENCY_US ? "a number of µs" : "a number of µJ");
        for (unsigned i = 0; i < b->nclusters; i++) {
                const struct cluster_lines *cl = &p->cl[i];

                for (unsigned k = 0; k < KEY_CORE; k++)
                        if (!cl->key[k])
                                report_at(p, cl->header, "[cluster.%s]: missing key \"%s\" (%s)",
                                          b->cluster[i].name, cluster_keys[k], cluster_expect[k]);
                if (!cl->first_opp)
                        report_at(p, cl->header, "[cluster.%s]: expected at least one \"opp = MHz capacity "
                                  "core_mW idle_mW\" line, got none", b->cluster[i].name);
        }
}

/* The passive trip is where the daemon backs off: it must come before the
 * critical one, and above the ambient temperature the zones start at. */
static void check_trips(struct board_parser *p)
{
        const struct sim_board *b = p->b;

        for (unsigned i = 0; i < b->nclusters; i++) {
                const struct sim_cluster *c = &b->cluster[i];
                const struct cluster_lines *cl = &p->cl[i];
                unsigned passive = cl->key[KEY_TRIP_PASSIVE] ? cl->key[KEY_TRIP_PASSIVE] : cl->header;
                unsigned critical = cl->key[KEY_TRIP_CRITICAL] ? cl->key[KEY_TRIP_CRITICAL] : passive;

                if (c->trip_passive_c >= c->trip_critical_c)
                        report_at(p, critical, "[cluster.%s]: expected trip_passive_c (%g) below "
                                  "trip_critical_c (%g)", c->name, c->trip_passive_c, c->trip_critical_c);
                else if (c->trip_passive_c <= b->ambient_c)
                        report_at(p, passive, "[cluster.%s]: expected trip_passive_c (%g) above ambient_c "
                                  "(%g)", c->name, c->trip_passive_c, b->ambient_c);
        }
}

static void check_orders(struct board_parser *p)
{
        const struct sim_board *b = p->b;

        for (unsigned i = 0; i < b->nclusters; i++) {
                const struct sim_cluster *c = &b->cluster[i];

                if (!p->cl[i].order_valid)
                        continue;
                if (c->order >= b->nclusters) {
                        report_at(p, p->cl[i].key[KEY_ORDER],
                                  "order: expected 0-%u (one per cluster), got \"%u\"", b->nclusters - 1,
                                  c->order);
                        continue;
                }
                for (unsigned j = 0; j < i; j++)
                        if (p->cl[j].order_valid && b->cluster[j].order == c->order) {
                                report_at(p, p->cl[i].key[KEY_ORDER],
                                          "order: expected a value no other cluster has, got \"%u\" "
                                          "(also [cluster.%s], line %u)", c->order, b->cluster[j].name,
                                          p->cl[j].key[KEY_ORDER]);
                                break;
                        }
        }
}

static void check_capacities(struct board_parser *p)
{
        const struct sim_board *b = p->b;
        unsigned ncpus = 0;

        for (unsigned i = 0; i < b->nclusters; i++) {
                const struct sim_cluster *c = &b->cluster[i];

                ncpus += c->cpus;
                if (ncpus > SIM_MAX_CPUS && ncpus - c->cpus <= SIM_MAX_CPUS)
                        report_at(p, p->cl[i].key[KEY_CPUS], "cpus: expected at most %d CPUs on the board, "
                                  "got %u with [cluster.%s]", SIM_MAX_CPUS, ncpus, c->name);
                if (!p->board_key[KEY_REFERENCE_CAPACITY] || !b->reference_capacity)
                        continue;
                for (unsigned o = 0; o < c->nopps; o++)
                        if (c->opp[o].capacity > b->reference_capacity) {
                                report_at(p, p->cl[i].opp[o], "opp: expected a capacity of at most "
                                          "reference_capacity (%u, line %u), got \"%u\"",
                                          b->reference_capacity, p->board_key[KEY_REFERENCE_CAPACITY],
                                          c->opp[o].capacity);
                                break;
                        }
        }
}

static unsigned top_capacity(const struct sim_cluster *c)
{
        return c->nopps ? c->opp[c->nopps - 1].capacity : 0;
}

static int cmp_order(const void *a, const void *b)
{
        const struct sim_cluster *x = a, *y = b;

        return (x->order > y->order) - (x->order < y->order);
}

/* Runs on a board whose orders are known to be 0..n-1, each once. */
static void sort_clusters(struct board_parser *p)
{
        struct sim_board *b = p->b;
        unsigned header[BL_MAX_CLUSTERS];

        for (unsigned i = 0; i < b->nclusters; i++)
                header[b->cluster[i].order] = p->cl[i].header;
        qsort(b->cluster, b->nclusters, sizeof(b->cluster[0]), cmp_order);
        b->ncpus = 0;
        for (unsigned k = 0; k < b->nclusters; k++) {
                struct sim_cluster *c = &b->cluster[k];

                c->first_cpu = b->ncpus;
                b->ncpus += c->cpus;
                if (k > 0 && top_capacity(c) <= top_capacity(&b->cluster[k - 1]))
                        report_at(p, header[k], "[cluster.%s]: expected a top capacity above %u (that of "
                                  "[cluster.%s], order %u: clusters get faster with their order), got %u",
                                  c->name, top_capacity(&b->cluster[k - 1]), b->cluster[k - 1].name, k - 1,
                                  top_capacity(c));
        }
}

unsigned board_parse(struct sim_board *b, const char *filename, const char *text, size_t len,
                     struct bl_diag *diag)
{
        struct board_parser p = {
                .b = b,
                .filename = filename,
                .diag = diag,
                .current = -1,
        };

        memset(b, 0, sizeof(*b));
        b->ambient_c = SIM_DEFAULT_AMBIENT_C;
        for (unsigned k = 0; k < BL_MAX_CLUSTERS; k++)
                b->cluster[k] = (struct sim_cluster){
                        .thermal_r_c_per_w = SIM_DEFAULT_THERMAL_R_C_PER_W,
                        .thermal_c_j_per_c = SIM_DEFAULT_THERMAL_C_J_PER_C,
                        .trip_passive_c = SIM_DEFAULT_TRIP_PASSIVE_C,
                        .trip_critical_c = SIM_DEFAULT_TRIP_CRITICAL_C,
                };
        p.problems = ini_read(filename, text, len, handle_line, &p, diag);
        for (unsigned k = 0; k < SIM_NBACKENDS; k++)
                b->has_backend[k] = p.backend_header[k] != 0;
        snprintf(b->switch_source, sizeof(b->switch_source), "board");
        check_complete(&p);
        check_trips(&p);
        check_orders(&p);
        check_capacities(&p);
        if (p.problems == 0)
                sort_clusters(&p);
        return p.problems;
}

const char *board_backend_name(enum sim_backend backend)
{
        return (unsigned)backend < SIM_NBACKENDS ? backend_names[backend] : NULL;
}

int board_backend_find(const char *name)
{
        for (int k = 0; k < SIM_NBACKENDS; k++)
                if (streq(backend_names[k], name))
                        return k;
        return -ENOENT;
}

int board_select_backend(struct sim_board *b, enum sim_backend backend)
{
        const struct sim_switch_model *m;

        if ((unsigned)backend >= SIM_NBACKENDS || !b->has_backend[backend])
                return -ENODATA;
        m = &b->backend[backend];
        b->switch_latency_us = m->latency_us;
        b->switch_latency_per_cpu_us = m->latency_per_cpu_us;
        b->switch_energy_uj = m->energy_uj;
        b->switch_energy_per_cpu_uj = m->energy_per_cpu_uj;
        b->stall_all = m->stall_all;
        b->stall_busy = m->stall_busy;
        snprintf(b->switch_source, sizeof(b->switch_source), "backend %s", backend_names[backend]);
        return 0;
}

void board_override_switch(struct sim_board *b, double latency_us, double energy_uj)
{
        b->switch_latency_us = latency_us;
        b->switch_energy_uj = energy_uj;
        b->switch_latency_per_cpu_us = 0;
        b->switch_energy_per_cpu_uj = 0;
        snprintf(b->switch_source, sizeof(b->switch_source), "override");
}

bool board_switch_plain(const struct sim_board *b, double step_us)
{
        return b->switch_latency_per_cpu_us == 0 && b->switch_energy_per_cpu_uj == 0 && !b->stall_all &&
               !b->stall_busy && b->switch_latency_us <= step_us;
}

double board_switch_latency_us(const struct sim_board *b, unsigned ncpus)
{
        return b->switch_latency_us + b->switch_latency_per_cpu_us * ncpus;
}

void board_topology(const struct sim_board *b, struct bl_topology *t)
{
        struct bl_cpu_info cpus[SIM_MAX_CPUS];

        for (unsigned k = 0; k < b->nclusters; k++) {
                const struct sim_cluster *c = &b->cluster[k];

                for (unsigned i = 0; i < c->cpus; i++)
                        cpus[c->first_cpu + i] = (struct bl_cpu_info){
                                .present = true,
                                .online = true,
                                .can_offline = c->first_cpu + i != 0,
                                .capacity = (int)top_capacity(c),
                                .max_freq_khz = (int)(c->opp[c->nopps - 1].mhz * 1000),
                                .policy = (int)c->first_cpu,
                                .policy_size = (int)c->cpus,
                                .cluster_id = (int)k,
                        };
        }
        /* Cannot fail on a parsed board: CPUs exist and capacities are
         * distinct per cluster, at most BL_MAX_CLUSTERS of them. */
        (void)topology_build(t, cpus, b->ncpus);
}

int board_check_topology(const struct sim_board *b, const struct bl_topology *t, const char *where,
                         struct bl_diag *diag)
{
        const unsigned n = diag_count(diag);

        if (b->nclusters != t->nclusters) {
                diag_add(diag, "%s: board %s has %u clusters, this machine %u", where, b->name, b->nclusters,
                         t->nclusters);
                return -EINVAL;
        }
        for (unsigned k = 0; k < b->nclusters; k++) {
                const struct sim_cluster *c = &b->cluster[k];
                const unsigned cpus = cpumask_count(&t->clusters[k].cpus);
                /* in the kernel's units, where the biggest CPU is 1024 */
                const double board_cap = (double)top_capacity(c) * BL_CAPACITY_SCALE / b->reference_capacity;
                const double kernel_cap = t->clusters[k].capacity;

                if (c->cpus != cpus)
                        diag_add(diag, "%s: [cluster.%s] (cluster %u, most efficient first): expected %u CPUs "
                                 "as on this machine, got %u", where, c->name, k, cpus, c->cpus);
                if (t->capacity_from_kernel && (board_cap > kernel_cap ? board_cap - kernel_cap : kernel_cap - board_cap) > 0.05 * kernel_cap)
                        diag_add(diag, "%s: [cluster.%s] (cluster %u): expected a top capacity near the "
                                 "kernel's cpu_capacity %u (in 1024ths of the biggest CPU), got %.0f", where,
                                 c->name, k, t->clusters[k].capacity, board_cap);
        }
        return diag_count(diag) > n ? -EINVAL : 0;
}

/* The domain that holds every CPU of cluster 'k', or NULL. */
static const struct em_domain *domain_of(const struct em_domains *em, const struct bl_topology *t, unsigned k)
{
        for (unsigned d = 0; d < em->n; d++) {
                bool all = true, any = false;

                for (unsigned cpu = 0; cpu < t->ncpus; cpu++)
                        if (cpumask_isset(&t->clusters[k].cpus, cpu)) {
                                bool in = cpu < 64 && (em->d[d].cpus >> cpu & 1);

                                all = all && in;
                                any = any || in;
                        }
                if (any)
                        return all ? &em->d[d] : NULL;
        }
        return NULL;
}

int board_from_em(struct sim_board *b, const struct em_domains *em, const struct bl_topology *t,
                  const char *where, struct bl_diag *diag)
{
        *b = (struct sim_board){ .reference_capacity = BL_CAPACITY_SCALE, .ambient_c = SIM_DEFAULT_AMBIENT_C };
        snprintf(b->name, sizeof(b->name), "kernel energy model");
        snprintf(b->switch_source, sizeof(b->switch_source), "board");
        if (t->ncpus > 64 || t->ncpus > SIM_MAX_CPUS) {
                diag_add(diag, "%s: expected at most 64 CPUs, this machine has %u", where, t->ncpus);
                return -E2BIG;
        }
        for (unsigned k = 0; k < t->nclusters; k++) {
                const struct em_domain *dom = domain_of(em, t, k);
                struct sim_cluster *c = &b->cluster[k];
                unsigned top;

                if (!dom || dom->nps == 0) {
                        diag_add(diag, "%s: expected one performance domain holding every CPU of cluster %u "
                                 "(capacity %u), got %s", where, k, t->clusters[k].capacity,
                                 dom ? "one without states" : "none, or CPUs split over several");
                        return -ENODATA;
                }
                top = dom->khz[dom->nps - 1];
                ladder_cluster_level_name(c->name, sizeof(c->name), k, t->nclusters);
                c->cpus = cpumask_count(&t->clusters[k].cpus);
                c->order = k;
                c->first_cpu = b->ncpus;
                b->ncpus += c->cpus;
                c->nopps = dom->nps;
                for (unsigned o = 0; o < dom->nps; o++) {
                        c->opp[o].mhz = dom->khz[o] / 1000;
                        c->opp[o].capacity =
                                (unsigned)((uint64_t)t->clusters[k].capacity * dom->khz[o] / top);
                        c->opp[o].core_mw = (double)dom->uw[o] / 1000.0;
                        c->opp[o].idle_mw = c->opp[o].core_mw * BOARD_DEFAULT_IDLE_SHARE;
                }
                c->off_mw = c->opp[c->nopps - 1].core_mw * BOARD_DEFAULT_OFF_SHARE;
                c->thermal_r_c_per_w = SIM_DEFAULT_THERMAL_R_C_PER_W;
                c->thermal_c_j_per_c = SIM_DEFAULT_THERMAL_C_J_PER_C;
                c->trip_passive_c = SIM_DEFAULT_TRIP_PASSIVE_C;
                c->trip_critical_c = SIM_DEFAULT_TRIP_CRITICAL_C;
        }
        b->nclusters = t->nclusters;
        return 0;
}
