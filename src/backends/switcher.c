/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The switcher backend: the kernel's big.LITTLE switcher (IKS) moves each
 * logical CPU between the two cores of its pair when its cpufreq target
 * crosses the boundary of the merged "virtual" table (kernel-abi.md 1.7:
 * LITTLE frequencies halved, then the big ones). This backend pins every
 * pair on one side by its logical CPU's limits: big is scaling_min_freq at
 * the first big entry (and scaling_max_freq at the top), LITTLE is
 * scaling_max_freq at the last LITTLE entry (and scaling_min_freq at the
 * bottom). The governor stays in charge within the side.
 *
 * The model of the machine: with the switcher active only one core of each
 * pair is online, as a logical CPU with a cpufreq policy of its own; its
 * partners and the cores left unpaired are offline, and the kernel refuses
 * to bring them up. The daemon's pair ladder pairs the n-th LITTLE CPU with
 * the n-th big one as sysfs lists them, which gives every pair exactly one
 * logical CPU (the kernel keeps the first CPUs of the boot CPU's cluster
 * online) and an offline CPU of the other kind. The kernel's own pairing
 * may differ, but does not matter: the offline half only names the side the
 * pair is asked to run on.
 *
 * The boundary, from the table alone. The driver leaves big only for a
 * target below the lowest big clock and LITTLE only for one above the
 * highest LITTLE clock halved. Older drivers list a clock both halves have
 * (500 MHz on TC2) twice: that entry is the boundary, LITTLE is capped one
 * entry below it and big starts one above. Otherwise a LITTLE entry is a
 * LITTLE clock halved and no LITTLE core clocks above the big ones, so the
 * LITTLE half is every entry up to half the top one. That guess fails where
 * the big clocks span more than twice over and newer drivers dropped a
 * shared clock from the table; the limits found would then not move the
 * pair, which the kernel does not report (the switch is asynchronous). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/sysfs.h"
#include "backends/switcher.h"
#include "common/fileio.h"

#define SWITCHER_ACTIVE "/sys/kernel/bL_switcher/active"
#define TABLE_MAX 64

struct logical_cpu {
        unsigned cpu;
        unsigned bottom_khz, top_khz;           /* of the merged table */
        unsigned little_max_khz, big_min_khz;   /* the limits that pin a side */
        unsigned saved_min_khz, saved_max_khz;  /* found at open(), put back on close */
        unsigned asked_min_khz, asked_max_khz;
        unsigned want_min_khz, want_max_khz;
        unsigned little_token, big_token;       /* the pair's CPUs in the ladder */
        bool big;                               /* the side last applied */
};

struct bl_backend {
        unsigned n;
        struct logical_cpu cpus[BL_MAX_PAIRS];
        struct sysfs_undo undo;
};

static void cpufreq_path(unsigned cpu, const char *file, char *buf, size_t size)
{
        snprintf(buf, size, "/sys/devices/system/cpu/cpu%u/cpufreq/%s", cpu, file);
}

static int read_khz(unsigned cpu, const char *file, unsigned *khz)
{
        char path[SYSFS_PATH_MAX];

        cpufreq_path(cpu, file, path, sizeof(path));
        return sysfs_read_khz(path, khz);
}

int switcher_boundary(const unsigned *table, unsigned n, unsigned *little_max_khz, unsigned *big_min_khz)
{
        unsigned top = 0, shared = 0, last_little = 0, below = 0, first_big = 0;

        for (unsigned i = 0; i < n; i++) {
                if (table[i] == 0)
                        return -EINVAL;
                if (table[i] > top)
                        top = table[i];
                for (unsigned j = 0; j < i; j++)
                        if (table[j] == table[i])
                                shared = table[i];
        }
        for (unsigned i = 0; i < n; i++)
                if ((uint64_t)table[i] * 2 <= top && table[i] > last_little)
                        last_little = table[i];
        if (shared)
                last_little = shared;
        if (last_little == 0)
                return -EINVAL;
        for (unsigned i = 0; i < n; i++) {
                if (table[i] < last_little && table[i] > below)
                        below = table[i];
                else if (table[i] > last_little && (first_big == 0 || table[i] < first_big))
                        first_big = table[i];
        }
        if (first_big == 0 || (shared && below == 0))
                return -EINVAL;
        *little_max_khz = shared ? below : last_little;
        *big_min_khz = first_big;
        return 0;
}

static int read_table(unsigned cpu, unsigned *table, unsigned *n)
{
        char path[SYSFS_PATH_MAX], text[TABLE_MAX * 12];
        char *save = NULL;
        int r;

        cpufreq_path(cpu, "scaling_available_frequencies", path, sizeof(path));
        r = read_line(path, text, sizeof(text));
        if (r < 0)
                return r;
        *n = 0;
        for (char *word = strtok_r(text, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
                long long v;

                if (*n == TABLE_MAX)
                        return -E2BIG;
                if (parse_int(word, &v) < 0 || v <= 0 || v > (long long)UINT32_MAX)
                        return -EINVAL;
                table[(*n)++] = (unsigned)v;
        }
        return *n ? 0 : -EINVAL;
}

static bool has_cpufreq(unsigned cpu)
{
        char path[SYSFS_PATH_MAX];

        cpufreq_path(cpu, "scaling_available_frequencies", path, sizeof(path));
        return access(path, R_OK) == 0;
}

static int logical_cpu_read(struct logical_cpu *c, unsigned cpu, struct bl_diag *diag)
{
        unsigned table[TABLE_MAX], n;
        int r;

        c->cpu = cpu;
        r = read_table(cpu, table, &n);
        if (r < 0) {
                diag_add(diag, "switcher: cpu%u/cpufreq/scaling_available_frequencies: %s", cpu,
                         strerror(-r));
                return r;
        }
        r = switcher_boundary(table, n, &c->little_max_khz, &c->big_min_khz);
        if (r < 0) {
                diag_add(diag, "switcher: cpu%u/cpufreq/scaling_available_frequencies has no LITTLE and big "
                         "half (a LITTLE half is at most half the top frequency)", cpu);
                return r;
        }
        c->bottom_khz = table[0];
        c->top_khz = table[0];
        for (unsigned i = 1; i < n; i++) {
                if (table[i] < c->bottom_khz)
                        c->bottom_khz = table[i];
                if (table[i] > c->top_khz)
                        c->top_khz = table[i];
        }
        if ((r = read_khz(cpu, "scaling_min_freq", &c->saved_min_khz)) < 0 ||
            (r = read_khz(cpu, "scaling_max_freq", &c->saved_max_khz)) < 0) {
                diag_add(diag, "switcher: cpu%u: cannot read its cpufreq limits: %s", cpu, strerror(-r));
                return r;
        }
        c->asked_min_khz = c->saved_min_khz;
        c->asked_max_khz = c->saved_max_khz;
        return 0;
}

static int switcher_check_active(struct bl_diag *diag)
{
        char value[SYSFS_VALUE_MAX];
        int r = read_line(SWITCHER_ACTIVE, value, sizeof(value));

        if (r < 0) {
                diag_add(diag, "switcher: the in-kernel switcher is not active (" SWITCHER_ACTIVE ": %s)",
                         strerror(-r));
                return r == -ENOENT ? -ENODEV : r;
        }
        if (strcmp(value, "1") != 0) {
                diag_add(diag, "switcher: the in-kernel switcher is not active (" SWITCHER_ACTIVE " reads "
                         "\"%.8s\"); the backend does not turn it on, as that re-creates every cpufreq "
                         "policy", value);
                return -ENODEV;
        }
        return 0;
}

static int switcher_open(struct bl_backend **ret, const struct bl_topology *t, const struct bl_ladder *l,
                         const struct bl_config *cfg, struct bl_diag *diag)
{
        struct bl_backend *b;
        int r;

        (void)t;
        r = switcher_check_active(diag);
        if (r < 0)
                return r;
        if (l->mode != BL_MODE_PAIR || l->npairs == 0) {
                diag_add(diag, "switcher: it moves each pair on its own and needs mode pair, not %s",
                         mode_to_string(l->mode));
                return -EOPNOTSUPP;
        }
        b = calloc(1, sizeof(*b));
        if (!b)
                return -ENOMEM;
        for (unsigned p = 0; p < l->npairs; p++) {
                bool little = has_cpufreq(l->pairs[p].little), big = has_cpufreq(l->pairs[p].big);

                if (little == big) {
                        diag_add(diag, "switcher: pair %u (cpu%u/cpu%u): %s of its CPUs has a cpufreq "
                                 "policy, the switcher leaves exactly one online", p, l->pairs[p].little,
                                 l->pairs[p].big, little ? "each" : "neither");
                        free(b);
                        return -EOPNOTSUPP;
                }
                r = logical_cpu_read(&b->cpus[p], little ? l->pairs[p].little : l->pairs[p].big, diag);
                if (r < 0) {
                        free(b);
                        return r;
                }
                b->cpus[p].little_token = l->pairs[p].little;
                b->cpus[p].big_token = l->pairs[p].big;
                /* Where the limits found hold the pair, for a pair the first level leaves out. */
                b->cpus[p].big = b->cpus[p].saved_min_khz >= b->cpus[p].big_min_khz;
        }
        b->n = l->npairs;
        *ret = b;
        return 0;
}

/* Writes one limit and judges the read-back: the kernel shows the tightest
 * of every request, so a maximum may read lower, a minimum higher; the
 * other way the write did not take. */
static int write_limit(struct bl_backend *b, struct logical_cpu *c, bool max, struct sysfs_write_stats *st,
                       char *detail, size_t size)
{
        const char *file = max ? "scaling_max_freq" : "scaling_min_freq";
        unsigned want = max ? c->want_max_khz : c->want_min_khz;
        unsigned *asked = max ? &c->asked_max_khz : &c->asked_min_khz;
        char path[SYSFS_PATH_MAX], value[SYSFS_VALUE_MAX], back[SYSFS_VALUE_MAX], before[SYSFS_VALUE_MAX];
        unsigned tries = 0;
        long long got;
        int r;

        cpufreq_path(c->cpu, file, path, sizeof(path));
        snprintf(value, sizeof(value), "%u", want);
        r = sysfs_write_read_back(path, value, back, sizeof(back), &tries);
        st->retries += tries > 1 ? tries - 1 : 0;
        if (r < 0) {
                snprintf(detail, size, "cpu%u: writing %s=%u failed after %u %s: %s", c->cpu, file, want,
                         tries, tries == 1 ? "try" : "tries", strerror(-r));
                return r;
        }
        snprintf(before, sizeof(before), "%u", *asked);
        r = sysfs_undo_push(&b->undo, path, before, max ? SYSFS_CHECK_AT_MOST : SYSFS_CHECK_EQUAL);
        if (r < 0) {
                snprintf(detail, size, "cpu%u: cannot record %s for an undo: %s", c->cpu, file, strerror(-r));
                return r;
        }
        st->writes++;
        *asked = want;
        r = parse_int(back, &got);
        if (r < 0 || got <= 0 || (max ? got > (long long)want : got < (long long)want)) {
                snprintf(detail, size, "cpu%u: wrote %s=%u, it reads \"%.32s\"", c->cpu, file, want, back);
                return -EIO;
        }
        return 0;
}

/* Takes one logical CPU to its wanted limits, never through min > max
 * (which older kernels refuse): the limit that widens the range goes first. */
static int change_cpu(struct bl_backend *b, struct logical_cpu *c, struct sysfs_write_stats *st, char *detail,
                      size_t size)
{
        unsigned now_min, now_max;
        bool write_min, write_max, max_first;
        int r;

        if ((r = read_khz(c->cpu, "scaling_min_freq", &now_min)) < 0 ||
            (r = read_khz(c->cpu, "scaling_max_freq", &now_max)) < 0) {
                snprintf(detail, size, "cpu%u: cannot read its cpufreq limits: %s", c->cpu, strerror(-r));
                return r;
        }
        /* Asking again for what we asked changes nothing; a file past it is
         * someone undoing our limit. */
        write_min = c->want_min_khz != c->asked_min_khz || now_min < c->want_min_khz;
        write_max = c->want_max_khz != c->asked_max_khz || now_max > c->want_max_khz;
        max_first = c->want_max_khz >= now_max;
        for (int step = 0; step < 2; step++) {
                bool max = (step == 0) == max_first;

                if (!(max ? write_max : write_min))
                        continue;
                r = write_limit(b, c, max, st, detail, size);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* With 'all_or_nothing' the first failure undoes every write of the change;
 * otherwise (restore) every CPU is tried. */
static int change(struct bl_backend *b, bool all_or_nothing, struct sysfs_write_stats *st, char *detail,
                  size_t size)
{
        *st = (struct sysfs_write_stats){ 0 };
        sysfs_undo_init(&b->undo);
        for (unsigned i = 0; i < b->n; i++) {
                struct logical_cpu *c = &b->cpus[i];
                int r = change_cpu(b, c, st, detail, size);

                if (r >= 0)
                        continue;
                if (all_or_nothing) {
                        unsigned undo_failed = sysfs_undo_run(&b->undo);

                        sysfs_append(detail, size, "; %s",
                               undo_failed ? "could not undo every earlier write" : "earlier writes undone");
                        return undo_failed ? -EIO : r;
                }
                if (st->failed++ == 0)
                        st->first_error = r;
        }
        return 0;
}

/* Each pair runs big when the level asks for its big CPU; a pair none of
 * whose CPUs is asked for (the daemon leaves out CPUs others took offline)
 * stays where it is. */
static int switcher_apply(struct bl_backend *b, const bl_cpumask *cpus, char *detail, size_t size)
{
        struct logical_cpu before[BL_MAX_PAIRS];
        struct sysfs_write_stats st;
        bl_cpumask on_big, on_little;
        char list[128];
        int r;

        if (cpumask_empty(cpus)) {
                snprintf(detail, size, "no CPU was asked for");
                return -EINVAL;
        }
        memcpy(before, b->cpus, b->n * sizeof(before[0]));
        cpumask_zero(&on_big);
        cpumask_zero(&on_little);
        for (unsigned i = 0; i < b->n; i++) {
                struct logical_cpu *c = &b->cpus[i];
                bool big = cpumask_isset(cpus, c->big_token) ? true
                           : cpumask_isset(cpus, c->little_token) ? false
                                                                   : c->big;

                c->want_min_khz = big ? c->big_min_khz : c->bottom_khz;
                c->want_max_khz = big ? c->top_khz : c->little_max_khz;
                c->big = big;
                cpumask_set(big ? &on_big : &on_little, c->cpu);
        }
        detail[0] = '\0';
        r = change(b, true, &st, detail, size);
        if (r < 0) {
                /* The kernel is back where it was, and so is what was asked. */
                memcpy(b->cpus, before, b->n * sizeof(before[0]));
                return r;
        }
        if (!cpumask_empty(&on_big)) {
                cpumask_format(&on_big, list, sizeof(list));
                sysfs_append(detail, size, "big: cpu %s", list);
        }
        if (!cpumask_empty(&on_little)) {
                cpumask_format(&on_little, list, sizeof(list));
                sysfs_append(detail, size, "%slittle: cpu %s", cpumask_empty(&on_big) ? "" : ", ", list);
        }
        sysfs_describe_writes(&st, detail, size);
        return 0;
}

static int switcher_restore(struct bl_backend *b, char *detail, size_t size)
{
        struct sysfs_write_stats st;
        int r;

        for (unsigned i = 0; i < b->n; i++) {
                b->cpus[i].want_min_khz = b->cpus[i].saved_min_khz;
                b->cpus[i].want_max_khz = b->cpus[i].saved_max_khz;
        }
        detail[0] = '\0';
        r = change(b, false, &st, detail, size);
        if (r >= 0 && st.failed)
                r = st.first_error;
        if (r < 0) {
                if (st.failed > 1)
                        sysfs_append(detail, size, "; %u CPUs not put back", st.failed);
                return r;
        }
        snprintf(detail, size, "cpufreq limits as found:");
        for (unsigned i = 0; i < b->n; i++)
                sysfs_append(detail, size, "%s cpu%u %u-%u", i ? "," : "", b->cpus[i].cpu,
                             b->cpus[i].saved_min_khz, b->cpus[i].saved_max_khz);
        sysfs_append(detail, size, " kHz");
        sysfs_describe_writes(&st, detail, size);
        return 0;
}

static void switcher_free(struct bl_backend *b)
{
        free(b);
}

/* One line: "switcher_limits=0:175000:1200000 1:175000:1200000" (CPU:MIN:MAX). */
static int switcher_save(struct bl_backend *b, char *buf, size_t size)
{
        unsigned values[3 * BL_MAX_PAIRS];

        for (unsigned i = 0; i < b->n; i++) {
                values[3 * i] = b->cpus[i].cpu;
                values[3 * i + 1] = b->cpus[i].saved_min_khz;
                values[3 * i + 2] = b->cpus[i].saved_max_khz;
        }
        return backend_save_list(buf, size, "switcher_limits", values, b->n, 3);
}

static bool saved_limits_valid(const uint32_t *f)
{
        return f[1] != 0 && f[2] >= f[1];
}

static int take_saved_limits(void *ctx, unsigned i, const uint32_t *f, char *detail, size_t size)
{
        struct logical_cpu *c = &((struct bl_backend *)ctx)->cpus[i];

        /* What the files say now: a value already right is not written again. */
        if (read_khz(f[0], "scaling_min_freq", &c->asked_min_khz) < 0 ||
            read_khz(f[0], "scaling_max_freq", &c->asked_max_khz) < 0) {
                snprintf(detail, size, "switcher_limits: cpu%u has no cpufreq limits here", f[0]);
                return -EINVAL;
        }
        c->cpu = f[0];
        c->saved_min_khz = f[1];
        c->saved_max_khz = f[2];
        return 0;
}

static const struct backend_saved_form saved_limits = {
        .key = "switcher_limits",
        .item = "CPU:MIN:MAX",
        .per = 3,
        .max = BL_MAX_PAIRS,
        .too_many = "more CPUs than pairs",
        .none = "no CPU",
        .valid = saved_limits_valid,
        .take = take_saved_limits,
};

/* Only "switcher_limits=..." is understood; anything else was not written
 * by this backend, and nothing is touched. */
static int switcher_restore_saved(const struct bl_topology *t, const char *text, char *detail, size_t size)
{
        _cleanup_free_ char *copy = strdup(text);
        _cleanup_free_ struct bl_backend *b = calloc(1, sizeof(*b));
        char *value;
        int r;

        (void)t;
        if (!copy || !b)
                return -ENOMEM;
        r = backend_saved_value(copy, "switcher_limits", "switcher", &value, detail, size);
        if (r < 0)
                return r;
        r = backend_saved_list(value, &saved_limits, b, detail, size);
        if (r < 0)
                return r;
        b->n = (unsigned)r;
        return switcher_restore(b, detail, size);
}

static bool switcher_probe(const struct bl_topology *t, char *why, size_t size)
{
        if (!t->switcher)
                return false;
        snprintf(why, size, "the kernel's big.LITTLE switcher is present; each pair is moved by its logical "
                            "CPU's cpufreq limits");
        return true;
}

const struct bl_backend_ops backend_switcher = {
        .name = "switcher",
        /* The in-kernel switcher moves a pair by transferring the CPU's
         * state to its partner core: tens of microseconds (N. Pitre, "The
         * Linaro big.LITTLE in-kernel switcher", 2013; the board models'
         * switch_latency_us of 20), about 15 us per CPU moved. */
        .prior = { .latency_per_cpu_us = 15 },
        .open = switcher_open,
        .apply = switcher_apply,
        .restore = switcher_restore,
        .free = switcher_free,
        .save = switcher_save,
        .restore_saved = switcher_restore_saved,
        .probe = switcher_probe,
};
