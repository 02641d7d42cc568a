/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Both sources end in the same list of CPU kinds (one per future cluster):
 * how many CPUs, their capacity before normalisation, their OPPs and the
 * power of one busy CPU at each. finish() turns that list into the model:
 * the kernel's capacities, clusters slowest first, names. CPUs are grouped
 * by what makes them behave alike (the same OPP table and capacity), not by
 * cpu-map's clusters: DynamIQ trees put every CPU in one cpu-map cluster,
 * and the daemon too merges CPUs of equal capacity into one level. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "loaders/energy-model-dir.h"
#include "sim/board-import.h"
#include "sim/dts-reader.h"

#define PATH_LEN 4096
#define HZ_MAX UINT64_C(100000000000)
#define MICROVOLT_MAX 10000000
#define DMIPS_MAX 100000

struct kind {
        uint64_t raw_capacity;          /* capacity-dmips-mhz, or cpu_capacity (sysfs) */
        uint32_t dpc;
        unsigned cpus;
        char core[BL_NAME_MAX];
        char origin[IMPORT_NOTE_LEN];
        char cpu_names[IMPORT_NOTE_LEN / 2];
        unsigned nopps;
        unsigned khz[SIM_MAX_OPPS];
        uint64_t uw[SIM_MAX_OPPS];
};

uint64_t import_em_power_uw(uint32_t dpc, uint64_t hz, uint64_t microvolt)
{
        uint64_t mv = microvolt / 1000;

        return (uint64_t)dpc * mv * mv * (hz / 1000000) / 1000000;
}

static void note(struct import_model *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct import_model *m, const char *fmt, ...)
{
        va_list ap;

        if (m->nnotes == IMPORT_MAX_NOTES)
                return;
        va_start(ap, fmt);
        vsnprintf(m->note[m->nnotes++], IMPORT_NOTE_LEN, fmt, ap);
        va_end(ap);
}

/* "arm,cortex-a53" -> "Cortex-A53"; other vendors' names as they are. */
static void core_name(const char *compatible, char *buf, size_t size)
{
        const char *comma = compatible ? strchr(compatible, ',') : NULL;
        const char *model = comma ? comma + 1 : compatible ? compatible : "";
        size_t n = 0;
        bool start = true;

        for (; *model && n + 1 < size; model++) {
                char c = *model;

                if (!isalnum((unsigned char)c) && c != '-' && c != '_' && c != '.' && c != '+')
                        break;
                if (start || (n > 0 && buf[n - 1] == '-'))
                        c = (char)toupper((unsigned char)c);
                buf[n++] = c;
                start = false;
        }
        buf[n] = '\0';
}

static int cmp_kind_capacity(const void *a, const void *b)
{
        const struct import_cluster *x = a, *y = b;
        unsigned cx = x->opp[x->nopps - 1].capacity, cy = y->opp[y->nopps - 1].capacity;

        return (cx > cy) - (cx < cy);
}

/* The kinds into clusters. 'normalise': the raw capacities are
 * capacity-dmips-mhz, to be multiplied by the top frequency and scaled to
 * 1024 (topology_normalize_cpu_scale()); otherwise they are the kernel's
 * cpu_capacity already. */
static int finish(struct import_model *m, struct kind *k, unsigned nkinds, bool normalise, const char *where,
                  struct bl_diag *diag)
{
        static const char *const names2[] = { "little", "big" };
        static const char *const names3[] = { "little", "mid", "big" };
        uint64_t scale = 1;

        if (nkinds < 2) {
                diag_add(diag, "%s: expected CPUs of at least two kinds (capacity or OPP table), got %s; "
                         "bigLittled refuses a machine with one kind of core, and so does the importer", where,
                         nkinds ? "one kind only" : "no CPU");
                return -EINVAL;
        }
        if (nkinds > BL_MAX_CLUSTERS) {
                diag_add(diag, "%s: expected at most %d kinds of CPU, got %u", where, BL_MAX_CLUSTERS, nkinds);
                return -EINVAL;
        }
        for (unsigned i = 0; i < nkinds && normalise; i++) {
                uint64_t c = k[i].raw_capacity * k[i].khz[k[i].nopps - 1];

                if (c > scale)
                        scale = c;
        }
        m->nclusters = nkinds;
        for (unsigned i = 0; i < nkinds; i++) {
                struct import_cluster *c = &m->cluster[i];
                unsigned fmax = k[i].khz[k[i].nopps - 1];
                uint64_t cap = normalise ? (k[i].raw_capacity * fmax << 10) / scale : k[i].raw_capacity;

                textf(c->core, sizeof(c->core), "%s", k[i].core);
                textf(c->origin, sizeof(c->origin), "%s", k[i].origin);
                c->cpus = k[i].cpus;
                c->nopps = k[i].nopps;
                for (unsigned o = 0; o < k[i].nopps; o++)
                        c->opp[o] = (struct import_opp){
                                .khz = k[i].khz[o],
                                .capacity = (unsigned)(cap * k[i].khz[o] / fmax),
                                .core_uw = k[i].uw[o],
                        };
        }
        qsort(m->cluster, m->nclusters, sizeof(m->cluster[0]), cmp_kind_capacity);
        for (unsigned i = 0; i < m->nclusters; i++) {
                struct import_cluster *c = &m->cluster[i];

                if (i > 0 && c->opp[c->nopps - 1].capacity == m->cluster[i - 1].opp[m->cluster[i - 1].nopps - 1].capacity) {
                        diag_add(diag, "%s: expected kinds of CPU with different top capacities, got two with %u "
                                 "(%s; %s): the daemon would take them for one kind", where,
                                 c->opp[c->nopps - 1].capacity, m->cluster[i - 1].origin, c->origin);
                        return -EINVAL;
                }
                if (m->nclusters == 2)
                        textf(c->name, sizeof(c->name), "%s", names2[i]);
                else if (m->nclusters == 3)
                        textf(c->name, sizeof(c->name), "%s", names3[i]);
                else
                        textf(c->name, sizeof(c->name), "cluster%u", i);
        }
        return 0;
}

/* ---- device tree ---- */

struct dts_ctx {
        struct dts_tree t;
        struct bl_diag *diag;
};

static int node_fail(struct dts_ctx *x, const char *file, unsigned line, const struct dts_node *n,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int node_fail(struct dts_ctx *x, const char *file, unsigned line, const struct dts_node *n,
                     const char *fmt, ...)
{
        char path[512], msg[BL_DIAG_LEN];
        va_list ap;

        dts_path(n, path, sizeof(path));
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        diag_at(x->diag, dts_basename(file), line, "%s: %s", path, msg);
        return -EINVAL;
}

/* A one-cell u32 property, required or optional (*ret untouched when absent). */
static int prop_u32(struct dts_ctx *x, const struct dts_node *n, const char *name, bool required, uint32_t *ret)
{
        const struct dts_prop *p = dts_prop(n, name);

        if (!p) {
                if (required)
                        return node_fail(x, n->file, n->line, n, "expected a \"%s\" property, got none", name);
                return 0;
        }
        if (p->unknown)
                return node_fail(x, p->file, p->line, n, "%s: expected a number, got a macro the importer cannot "
                                 "evaluate (define it with #define NAME number in the file)", name);
        if (p->ncells < 1 || p->refs[0] || p->cells[0] > UINT32_MAX)
                return node_fail(x, p->file, p->line, n, "%s: expected one 32-bit cell, got %zu cells", name,
                                 p->ncells);
        *ret = (uint32_t)p->cells[0];
        return 0;
}

/* opp-hz is 64 bits: /bits/ 64 <hz>, or two 32-bit cells <hi lo> (what dtc
 * gives back from a DTB), or one cell. */
static int opp_hz(struct dts_ctx *x, const struct dts_node *opp, uint64_t *hz)
{
        const struct dts_prop *p = dts_prop(opp, "opp-hz");

        if (!p)
                return 1;
        if (p->unknown || p->ncells == 0 || p->refs[0])
                return node_fail(x, p->file, p->line, opp, "opp-hz: expected a frequency in Hz, got %s",
                                 p->unknown ? "a macro the importer cannot evaluate" : "no number");
        if (p->bits == 64 || p->ncells == 1)
                *hz = p->cells[0];
        else
                *hz = p->cells[0] << 32 | p->cells[1];
        /* the bounds keep the kernel's 64-bit arithmetic (and the board's MHz) from overflowing */
        if (*hz < 1000000 || *hz > HZ_MAX)
                return node_fail(x, p->file, p->line, opp, "opp-hz: expected 1 MHz to 100 GHz, got %llu Hz",
                                 (unsigned long long)*hz);
        return 0;
}

static bool disabled(const struct dts_node *n)
{
        const struct dts_prop *p = dts_prop(n, "status");

        return p && p->string && strcmp(p->string, "okay") != 0 && strcmp(p->string, "ok") != 0;
}

/* The OPPs of 'table' for a CPU of coefficient 'dpc' (0: none given). */
static int read_opps(struct dts_ctx *x, const struct dts_node *cpu, const struct dts_node *table, uint32_t dpc,
                     struct kind *k)
{
        k->nopps = 0;
        for (const struct dts_node *o = table->child; o; o = o->next) {
                const struct dts_prop *uv = dts_prop(o, "opp-microvolt");
                const struct dts_prop *uw = dts_prop(o, "opp-microwatt");
                uint64_t hz = 0, power;
                unsigned at;
                int r;

                if (disabled(o))
                        continue;
                r = opp_hz(x, o, &hz);
                if (r < 0)
                        return r;
                if (r > 0)
                        continue;       /* not an OPP (a child of another kind) */
                if (uw && !uw->unknown && uw->ncells >= 1 && !uw->refs[0]) {
                        power = uw->cells[0];
                } else {
                        if (!dpc)
                                return node_fail(x, cpu->file, cpu->line, cpu,
                                                 "expected \"dynamic-power-coefficient\" (or opp-microwatt on its "
                                                 "OPPs), got none: the kernel's energy model has no power without it; "
                                                 "give it in an overlay .dts that includes this file");
                        if (!uv)
                                return node_fail(x, o->file, o->line, o, "expected \"opp-microvolt\" or "
                                                 "\"opp-microwatt\" (the energy model needs one), got neither; "
                                                 "trees whose voltages come from firmware have none: give them "
                                                 "in an overlay .dts that includes this file");
                        if (uv->unknown || uv->ncells < 1 || uv->refs[0] || uv->cells[0] < 1000 ||
                            uv->cells[0] > MICROVOLT_MAX)
                                return node_fail(x, uv->file, uv->line, o, "opp-microvolt: expected a voltage in "
                                                 "uV (1 mV to 10 V), got %s", uv->unknown ? "a macro the "
                                                 "importer cannot evaluate" : "no usable number");
                        power = import_em_power_uw(dpc, hz, uv->cells[0]);
                }
                if (k->nopps == SIM_MAX_OPPS)
                        return node_fail(x, o->file, o->line, table, "expected at most %d OPPs, got more",
                                         SIM_MAX_OPPS);
                /* insertion in frequency order: tables are written either way up */
                at = k->nopps;
                while (at > 0 && k->khz[at - 1] > hz / 1000) {
                        k->khz[at] = k->khz[at - 1];
                        k->uw[at] = k->uw[at - 1];
                        at--;
                }
                if (at > 0 && k->khz[at - 1] == hz / 1000)
                        return node_fail(x, o->file, o->line, o, "opp-hz: expected one OPP per frequency, got "
                                         "%llu Hz twice (opp-supported-hw variants are not told apart)",
                                         (unsigned long long)hz);
                k->khz[at] = (unsigned)(hz / 1000);
                k->uw[at] = power;
                k->nopps++;
        }
        if (k->nopps == 0)
                return node_fail(x, table->file, table->line, table, "expected OPP nodes with opp-hz, got none");
        return 0;
}

/* cpu-map: every "cpu = <&x>" must name a CPU node; nested clusters are
 * walked the same way. Which cluster a CPU is in does not decide its board
 * cluster (see the top of this file), so nothing else is kept. */
static int check_cpu_map(struct dts_ctx *x, const struct dts_node *n, const struct dts_node **cpu_nodes,
                         unsigned ncpus)
{
        for (const struct dts_node *c = n->child; c; c = c->next) {
                const struct dts_prop *p = dts_prop(c, "cpu");

                if (p) {
                        const struct dts_node *target = dts_ref(&x->t, p, 0);
                        unsigned i;

                        if (p->ncells < 1 || !target) {
                                if (p->ncells >= 1 && p->refs[0])
                                        return node_fail(x, p->file, p->line, c, "cpu: points at &%s, which is "
                                                         "not defined", p->refs[0]);
                                return node_fail(x, p->file, p->line, c, "cpu: expected a reference to a CPU "
                                                 "node, got none that resolves");
                        }
                        for (i = 0; i < ncpus && cpu_nodes[i] != target; i++)
                                ;
                        if (i == ncpus) {
                                char path[512];

                                dts_path(target, path, sizeof(path));
                                return node_fail(x, p->file, p->line, c, "cpu: expected a CPU under /cpus, got "
                                                 "%s", path);
                        }
                }
                if (strncmp(c->name, "cluster", 7) == 0 || strncmp(c->name, "socket", 6) == 0 ||
                    strncmp(c->name, "core", 4) == 0 || strncmp(c->name, "thread", 6) == 0) {
                        int r = check_cpu_map(x, c, cpu_nodes, ncpus);

                        if (r < 0)
                                return r;
                }
        }
        return 0;
}

static void list_append(char *buf, size_t size, const char *item)
{
        size_t used = strlen(buf);

        if (used + 1 < size)
                textf(buf + used, size - used, "%s%s", used ? " " : "", item);
}

/* Adds CPU node 'c' to its kind in 'k' (a new one when none matches);
 * 'k' has room for one kind beyond BL_MAX_CLUSTERS, read before refusing. */
static int add_cpu(struct dts_ctx *x, const struct dts_node *c, struct kind *k, unsigned *nkinds)
{
        const struct dts_prop *opp = dts_prop(c, "operating-points-v2");
        const struct dts_node *table;
        uint32_t dmips = 0, dpc = 0;
        struct kind *kd;
        unsigned j;
        int r;

        r = prop_u32(x, c, "capacity-dmips-mhz", false, &dmips);
        if (r == 0 && dmips > DMIPS_MAX)
                return node_fail(x, c->file, c->line, c, "capacity-dmips-mhz: expected 1-%d, got %u",
                                 DMIPS_MAX, dmips);
        if (r == 0 && !dmips)
                return node_fail(x, c->file, c->line, c, "expected \"capacity-dmips-mhz\", got none: "
                                 "without it on every CPU the kernel gives them all capacity 1024, one "
                                 "kind of core");
        if (r == 0)
                r = prop_u32(x, c, "dynamic-power-coefficient", false, &dpc);
        if (r < 0)
                return r;
        if (!opp)
                return node_fail(x, c->file, c->line, c, "expected \"operating-points-v2\" (a table of "
                                 "OPPs), got none");
        table = dts_ref(&x->t, opp, 0);
        if (!table) {
                if (opp->ncells >= 1 && opp->refs[0])
                        return node_fail(x, opp->file, opp->line, c, "operating-points-v2 points at "
                                         "&%s, which is not defined", opp->refs[0]);
                return node_fail(x, opp->file, opp->line, c, "operating-points-v2: expected a "
                                 "reference to an OPP table, got %s", opp->ncells ?
                                 "a phandle no node has" : "no cell");
        }
        /* Same kind: same capacity, coefficient and OPPs, whichever node holds
         * them (RK3588 gives each pair of A76 an identical table of its own). */
        kd = &k[*nkinds];
        memset(kd, 0, sizeof(*kd));
        r = read_opps(x, c, table, dpc, kd);
        if (r < 0)
                return r;
        for (j = 0; j < *nkinds; j++)
                if (k[j].raw_capacity == dmips && k[j].dpc == dpc && k[j].nopps == kd->nopps &&
                    memcmp(k[j].khz, kd->khz, sizeof(kd->khz[0]) * kd->nopps) == 0 &&
                    memcmp(k[j].uw, kd->uw, sizeof(kd->uw[0]) * kd->nopps) == 0)
                        break;
        if (j < *nkinds) {
                char tpath[256];

                kd = &k[j];
                dts_path(table, tpath, sizeof(tpath));
                if (!strstr(kd->origin, tpath))
                        list_append(kd->origin, sizeof(kd->origin), tpath);
        } else {
                char tpath[256];
                const struct dts_prop *cc = dts_prop(c, "compatible");

                if (*nkinds == BL_MAX_CLUSTERS)
                        return node_fail(x, c->file, c->line, c, "expected at most %d kinds of CPU, "
                                         "got more", BL_MAX_CLUSTERS);
                (*nkinds)++;
                kd->raw_capacity = dmips;
                kd->dpc = dpc;
                core_name(cc ? cc->string : NULL, kd->core, sizeof(kd->core));
                dts_path(table, tpath, sizeof(tpath));
                textf(kd->origin, sizeof(kd->origin), "capacity-dmips-mhz %u, dynamic-power-coefficient "
                      "%u%s, OPPs %s", dmips, dpc, dts_prop(table, "opp-shared") ? "" : " (not opp-shared)",
                      tpath);
        }
        kd->cpus++;
        list_append(kd->cpu_names, sizeof(kd->cpu_names), c->name);
        return 0;
}

static int import_tree(struct dts_ctx *x, struct import_model *m, const char *path)
{
        const struct dts_node *cpus = dts_find(&x->t, "/cpus"), *root_cpu_nodes[SIM_MAX_CPUS];
        const struct dts_node *cpu_map;
        struct kind k[BL_MAX_CLUSTERS + 1];
        unsigned ncpus = 0, nkinds = 0;
        const struct dts_prop *compat = dts_prop(x->t.root, "compatible");
        int r;

        memset(k, 0, sizeof(k));
        if (!cpus) {
                diag_add(x->diag, "%s: expected a /cpus node, got none", dts_basename(path));
                return -EINVAL;
        }
        for (const struct dts_node *c = cpus->child; c; c = c->next) {
                const struct dts_prop *type = dts_prop(c, "device_type");

                if (!(type && type->string && strcmp(type->string, "cpu") == 0) && strncmp(c->name, "cpu@", 4) != 0)
                        continue;
                if (disabled(c))
                        continue;
                if (ncpus == SIM_MAX_CPUS)
                        return node_fail(x, c->file, c->line, c, "expected at most %d CPUs, got more",
                                         SIM_MAX_CPUS);
                root_cpu_nodes[ncpus++] = c;
        }
        if (ncpus == 0) {
                diag_add(x->diag, "%s: /cpus: expected CPU nodes (device_type = \"cpu\"), got none",
                         dts_basename(path));
                return -EINVAL;
        }
        cpu_map = dts_find(&x->t, "/cpus/cpu-map");
        if (cpu_map) {
                r = check_cpu_map(x, cpu_map, root_cpu_nodes, ncpus);
                if (r < 0)
                        return r;
        }
        for (unsigned i = 0; i < ncpus; i++) {
                r = add_cpu(x, root_cpu_nodes[i], k, &nkinds);
                if (r < 0)
                        return r;
        }
        for (unsigned j = 0; j < nkinds; j++) {
                char origin[IMPORT_NOTE_LEN];

                textf(origin, sizeof(origin), "%s: %s", k[j].cpu_names, k[j].origin);
                textf(k[j].origin, sizeof(k[j].origin), "%s", origin);
        }
        if (compat && compat->string) {
                const char *comma = strchr(compat->string, ',');

                textf(m->name, sizeof(m->name), "%s", comma ? comma + 1 : compat->string);
                /* to the board parser's alphabet for names */
                for (char *ch = m->name; *ch; ch++)
                        if (!isalnum((unsigned char)*ch) && !strchr("_-.+", *ch))
                                *ch = '-';
        } else {
                textf(m->name, sizeof(m->name), "imported");
        }
        return finish(m, k, nkinds, true, dts_basename(path), x->diag);
}

/* Lines of the top file that start with "// source:" name where its
 * values came from; the board repeats them. */
static void source_notes(struct import_model *m, const char *path)
{
        _cleanup_free_ char *text = NULL;
        size_t len;

        if (read_file(path, &text, &len) < 0)
                return;
        for (char *line = text, *end; line && *line; line = end ? end + 1 : NULL) {
                end = strchr(line, '\n');
                if (end)
                        *end = '\0';
                if (strncmp(line, "// source:", 10) == 0)
                        note(m, "source:%s", line + 10);
                if (!end)
                        break;
        }
}

int import_from_dts(struct import_model *m, const char *path, struct bl_diag *diag)
{
        struct dts_ctx x = { .diag = diag };
        int r;

        memset(m, 0, sizeof(*m));
        r = dts_load(&x.t, path, diag);
        if (r == 0)
                r = import_tree(&x, m, path);
        if (r == 0) {
                char files[IMPORT_NOTE_LEN] = "";

                for (size_t i = 1; i < x.t.nfiles; i++)
                        list_append(files, sizeof(files), dts_basename(x.t.file[i]));
                note(m, "Imported from the device tree %s%s%s.", dts_basename(path),
                     files[0] ? ", which includes " : "", files);
                source_notes(m, path);
        }
        dts_free(&x.t);
        return r;
}

/* ---- sysfs ---- */

static int cmp_uint(const void *a, const void *b)
{
        unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

        return (x > y) - (x < y);
}

/* Frequencies of CPU 'cpu' in kHz: its cpufreq directory (a link to
 * policyN on a live system, a copy in a tarball), or the policy that lists
 * it in related_cpus. */
static int cpu_freqs(const char *cpudir, unsigned cpu, unsigned *khz, unsigned *n, char *where, size_t wsize)
{
        char path[PATH_LEN], buf[1024];
        int r;

        textf(path, sizeof(path), "%s/cpu%u/cpufreq/scaling_available_frequencies", cpudir, cpu);
        r = read_line(path, buf, sizeof(buf));
        for (unsigned p = 0; r < 0 && p < SIM_MAX_CPUS; p++) {
                char related[256];
                uint64_t mask;

                textf(path, sizeof(path), "%s/cpufreq/policy%u/related_cpus", cpudir, p);
                if (read_line(path, related, sizeof(related)) < 0)
                        continue;
                for (char *s = related; *s; s++)        /* "0 1 2 3" */
                        if (*s == ' ')
                                *s = ',';
                if (em_parse_cpulist(related, &mask) == 0 && cpu < 64 && (mask >> cpu & 1)) {
                        textf(path, sizeof(path), "%s/cpufreq/policy%u/scaling_available_frequencies", cpudir,
                                 p);
                        r = read_line(path, buf, sizeof(buf));
                }
        }
        if (r < 0)
                return r;
        textf(where, wsize, "%s", path);
        *n = 0;
        for (char *s = buf, *end; *s; s = end) {
                unsigned long v = strtoul(s, &end, 10);

                if (end == s)
                        break;
                if (*n == SIM_MAX_OPPS)
                        return -E2BIG;
                khz[(*n)++] = (unsigned)v;
                while (*end == ' ')
                        end++;
        }
        qsort(khz, *n, sizeof(*khz), cmp_uint);
        return *n ? 0 : -ENODATA;
}

/* The default power without an energy model: a big core near its top
 * draws about 1.5 W, power grows with capacity squared across kinds and with
 * frequency squared within one (voltage rises with frequency). */
static uint64_t default_power_uw(unsigned capacity, unsigned khz, unsigned fmax)
{
        double top = 1.5e6 * (capacity / 1024.0) * (capacity / 1024.0);
        double f = (double)khz / fmax;

        return (uint64_t)(top * f * f);
}

int import_from_sysfs(struct import_model *m, const char *root, struct bl_diag *diag)
{
        char cpudir[PATH_LEN], emdir[PATH_LEN], path[PATH_LEN];
        struct em_domains em;
        unsigned problems;
        struct kind k[BL_MAX_CLUSTERS];
        unsigned nkinds = 0, ncpus = 0;
        bool all_em = true;
        int r;

        memset(m, 0, sizeof(*m));
        memset(k, 0, sizeof(k));
        textf(cpudir, sizeof(cpudir), "%s/sys/devices/system/cpu", root);
        textf(emdir, sizeof(emdir), "%s/sys/kernel/debug/energy_model", root);
        /* no directory (nothing in diag): no model, the frequencies are read instead */
        problems = diag_count(diag);
        r = em_read_domains(emdir, &em, diag);
        if (r < 0 && diag_count(diag) > problems)
                return r;
        for (unsigned cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
                uint64_t capacity;
                unsigned khz[SIM_MAX_OPPS], nfreq = 0, j;
                uint64_t uw[SIM_MAX_OPPS];
                const struct em_domain *dom = NULL;
                char where[PATH_LEN] = "";

                textf(path, sizeof(path), "%s/cpu%u", cpudir, cpu);
                if (access(path, F_OK) != 0)
                        break;
                ncpus++;
                textf(path, sizeof(path), "%s/cpu%u/cpu_capacity", cpudir, cpu);
                r = read_u64_line(path, &capacity);
                if (r < 0 || capacity == 0 || capacity > 1024) {
                        diag_add(diag, "%s: expected the kernel's capacity (1-1024), got %s", path,
                                 r < 0 ? strerror(-r) : "a number out of range");
                        return r < 0 ? r : -EINVAL;
                }
                for (unsigned d = 0; d < em.n; d++)
                        if (em.d[d].cpus >> cpu & 1)
                                dom = &em.d[d];
                if (dom) {
                        nfreq = dom->nps;
                        memcpy(khz, dom->khz, sizeof(khz[0]) * nfreq);
                        memcpy(uw, dom->uw, sizeof(uw[0]) * nfreq);
                } else {
                        r = cpu_freqs(cpudir, cpu, khz, &nfreq, where, sizeof(where));
                        if (r < 0) {
                                diag_add(diag, "%s/cpu%u: expected cpufreq/scaling_available_frequencies (or a "
                                         "policy listing this CPU in related_cpus), or an energy model in %s, "
                                         "got %s", cpudir, cpu, emdir, strerror(-r));
                                return r;
                        }
                        all_em = false;
                        for (unsigned o = 0; o < nfreq; o++)
                                uw[o] = default_power_uw((unsigned)capacity, khz[o], khz[nfreq - 1]);
                }
                for (j = 0; j < nkinds; j++)
                        if (k[j].raw_capacity == capacity && k[j].nopps == nfreq &&
                            memcmp(k[j].khz, khz, sizeof(khz[0]) * nfreq) == 0 &&
                            memcmp(k[j].uw, uw, sizeof(uw[0]) * nfreq) == 0)
                                break;
                if (j == nkinds) {
                        if (nkinds == BL_MAX_CLUSTERS) {
                                diag_add(diag, "%s: expected at most %d kinds of CPU, got more", cpudir,
                                         BL_MAX_CLUSTERS);
                                return -EINVAL;
                        }
                        nkinds++;
                        k[j].raw_capacity = capacity;
                        k[j].nopps = nfreq;
                        memcpy(k[j].khz, khz, sizeof(khz[0]) * nfreq);
                        memcpy(k[j].uw, uw, sizeof(uw[0]) * nfreq);
                        textf(k[j].origin, sizeof(k[j].origin), "cpu_capacity %llu, %s, from cpu%u",
                                 (unsigned long long)capacity, dom ? "energy model" : "cpufreq frequencies", cpu);
                }
                k[j].cpus++;
        }
        if (ncpus == 0) {
                diag_add(diag, "%s: expected cpu0, cpu1, ... directories, got none", cpudir);
                return -ENOENT;
        }
        textf(path, sizeof(path), "%s/cpu%u", cpudir, ncpus);
        if (ncpus == SIM_MAX_CPUS && access(path, F_OK) == 0) {
                diag_add(diag, "%s: expected at most %d CPUs (what a board model holds), got more", cpudir,
                         SIM_MAX_CPUS);
                return -E2BIG;
        }
        r = finish(m, k, nkinds, false, cpudir, diag);
        if (r < 0)
                return r;
        textf(m->name, sizeof(m->name), "imported");
        m->power_default = !all_em;
        note(m, "Imported from sysfs (cpu_capacity, cpufreq)%s.",
             all_em ? " and the kernel's energy model in debugfs" : "");
        return 0;
}

/* ---- the board file ---- */

/* Up to three decimals, no trailing zeros: the board parser's numbers. */
static void mw(char *buf, size_t size, double v)
{
        char *dot;

        textf(buf, size, "%.3f", v);
        dot = strchr(buf, '.');
        if (dot) {
                char *end = buf + strlen(buf) - 1;

                while (end > dot && *end == '0')
                        *end-- = '\0';
                if (end == dot)
                        *end = '\0';
        }
}

#define DEFAULT_MARK "# default, not from the source: replace with a measurement"

int import_write(FILE *f, const struct import_model *m, const char *name)
{
        const char *board = name ? name : m->name;

        fprintf(f, "# bigLittle board model v1: %s", board);
        for (unsigned i = 0; i < m->nclusters; i++)
                fprintf(f, "%s%ux %s", i ? " + " : " (", m->cluster[i].cpus,
                        m->cluster[i].core[0] ? m->cluster[i].core : m->cluster[i].name);
        fprintf(f, "), written by blsim board import.\n");
        for (unsigned i = 0; i < m->nnotes; i++)
                fprintf(f, "# %s\n", m->note[i]);
        fprintf(f, "#\n"
                "# Capacity: the kernel's. Each CPU's capacity-dmips-mhz times its top frequency, scaled so the\n"
                "#   fastest CPU is 1024 (as the kernel's cpu_capacity), then times f / f_top at each OPP,\n"
                "#   rounded down (the energy model's performance).\n");
        if (m->power_default)
                fprintf(f, "# core_mW: %s.\n"
                        "#   No energy model was readable, so one busy core draws 1.5 W x (capacity / 1024)^2 at\n"
                        "#   its top OPP and (f / f_top)^2 of that below.\n",
                        DEFAULT_MARK + 2);
        else
                fprintf(f, "# core_mW: the kernel energy model's power of one busy CPU at the OPP: the OPP's\n"
                        "#   opp-microwatt, or dynamic-power-coefficient x (uV / 1000)^2 x (Hz / 10^6) / 10^6 uW,\n"
                        "#   every division rounded down as the kernel's integer arithmetic does.\n");
        fprintf(f, "# idle_mW: %s.\n"
                "#   The cluster powered with every core idle: half a busy core's power at the OPP. The\n"
                "#   clusters measured for the Exynos 5422 board sit between a quarter of one busy core and\n"
                "#   all of it; half is the middle.\n"
                "# off_mw: %s.\n"
                "#   The cluster power-gated: 1%% of a busy core at the top OPP, within what the Exynos 5422\n"
                "#   board estimates for its gated clusters (1-2.5%%).\n",
                DEFAULT_MARK + 2, DEFAULT_MARK + 2);
        fprintf(f, "\n[board]\nname = %s\nreference_capacity = 1024\n", board);
        fprintf(f, "%s\n# The in-kernel switcher's state transfer (~20 000 cycles, 20 us at 1 GHz) and the energy\n"
                "# of powering one cluster up and the other down around it: the Exynos 5422 board's figures.\n"
                "switch_latency_us = 20\nswitch_energy_uj = 160\n", DEFAULT_MARK);
        for (unsigned i = 0; i < m->nclusters; i++) {
                const struct import_cluster *c = &m->cluster[i];
                char a[32], b[32];

                fprintf(f, "\n[cluster.%s]\n", c->name);
                fprintf(f, "# %s\n", c->origin);
                if (c->core[0])
                        fprintf(f, "core = %s\n", c->core);
                fprintf(f, "cpus = %u\norder = %u\n", c->cpus, i);
                mw(a, sizeof(a), (double)c->opp[c->nopps - 1].core_uw / 1000.0 * BOARD_DEFAULT_OFF_SHARE);
                fprintf(f, "%s\noff_mw = %s\n", DEFAULT_MARK, a);
                fprintf(f, "# opp = MHz capacity core_mW idle_mW (idle_mW: %s)\n", DEFAULT_MARK + 2);
                for (unsigned o = 0; o < c->nopps; o++) {
                        double core = (double)c->opp[o].core_uw / 1000.0;

                        mw(a, sizeof(a), core);
                        mw(b, sizeof(b), core * BOARD_DEFAULT_IDLE_SHARE);
                        fprintf(f, "opp = %u %u %s %s\n", c->opp[o].khz / 1000, c->opp[o].capacity, a, b);
                }
        }
        fprintf(f, "\n# Switch cost per backend (see the Exynos 5422 board for what each key means). Every figure\n"
                "# below is a default, not from the source: replace with a measurement.\n"
                "# switcher: as the plain figure above.\n"
                "# cpufreq: one frequency transition per policy, ~140 us (the Exynos 5420 clock-latency-ns).\n"
                "# cpuset: the cgroup write, a migration per task and cold caches: 1 ms plus 250 us per CPU.\n"
                "# hotplug: stop_machine holds every CPU while each one goes: 1 ms plus 1.25 ms per CPU, and\n"
                "#   ~6 mJ of work per CPU brought up or down.\n"
                "\n[backend.switcher]\nlatency_us = 20\nenergy_uj = 160\nstalls = switched\npowered = idle\n"
                "\n[backend.cpufreq]\nlatency_us = 140\nenergy_uj = 20\nstalls = switched\npowered = idle\n"
                "\n[backend.cpuset]\nlatency_us = 1000\nlatency_per_cpu_us = 250\nenergy_uj = 160\n"
                "energy_per_cpu_uj = 100\nstalls = switched\npowered = busy\n"
                "\n[backend.hotplug]\nlatency_us = 1000\nlatency_per_cpu_us = 1250\nenergy_uj = 0\n"
                "energy_per_cpu_uj = 6000\nstalls = all\npowered = busy\n");
        return ferror(f) ? -EIO : 0;
}
