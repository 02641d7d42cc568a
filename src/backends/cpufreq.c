/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/cpufreq.h"
#include "backends/sysfs.h"
#include "common/fileio.h"

#define CPUFREQ_DIR "/sys/devices/system/cpu/cpufreq"

struct cpufreq_policy {
        unsigned id;                    /* policyN */
        bl_cpumask cpus;                /* related_cpus: online or not */
        unsigned min_khz;               /* cpuinfo_min_freq, the lowest operating point */
        unsigned saved_khz;             /* scaling_max_freq found at open(), put back on close */
        /* scaling_max_freq is one request among several (thermal, other
         * daemons' QoS) and reads back as the tightest of them, so what we
         * asked for is kept apart from what the file says. */
        unsigned asked_khz;
        /* One change at work: */
        unsigned now_khz;
        unsigned want_khz;
        int pass;                       /* of change(): 0 raise, 1 cap, -1 no write */
        bool capped;
};

struct bl_backend {
        unsigned npolicies;
        struct cpufreq_policy policies[BL_MAX_CPUS];
        struct sysfs_undo undo;
};

static void policy_path(unsigned id, const char *file, char *buf, size_t size)
{
        snprintf(buf, size, CPUFREQ_DIR "/policy%u/%s", id, file);
}

static int read_khz(unsigned id, const char *file, unsigned *khz)
{
        char path[SYSFS_PATH_MAX];

        policy_path(id, file, path, sizeof(path));
        return sysfs_read_khz(path, khz);
}

static int compare_unsigned(const void *a, const void *b)
{
        unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

        return (x > y) - (x < y);
}

/* The policyN directories, in the order of N. */
static int list_policies(unsigned *ids, unsigned max)
{
        DIR *dir = opendir(CPUFREQ_DIR);
        struct dirent *de;
        unsigned n = 0;
        int r = 0;

        if (!dir)
                return errno == ENOENT ? 0 : -errno;
        while ((de = readdir(dir))) {
                unsigned id;
                char tail;

                if (sscanf(de->d_name, "policy%u%c", &id, &tail) != 1)
                        continue;
                if (n >= max) {
                        r = -E2BIG;
                        break;
                }
                ids[n++] = id;
        }
        closedir(dir);
        if (r < 0)
                return r;
        qsort(ids, n, sizeof(ids[0]), compare_unsigned);
        return (int)n;
}

static bool max_freq_writable(unsigned id)
{
        char path[SYSFS_PATH_MAX];

        policy_path(id, "scaling_max_freq", path, sizeof(path));
        return access(path, W_OK) == 0;
}

int cpufreq_writable_policies(void)
{
        _cleanup_free_ unsigned *ids = calloc(BL_MAX_CPUS, sizeof(*ids));
        int n, writable = 0;

        if (!ids)
                return -ENOMEM;
        n = list_policies(ids, BL_MAX_CPUS);
        if (n < 0)
                return n;
        for (int i = 0; i < n; i++)
                if (max_freq_writable(ids[i]))
                        writable++;
        return writable;
}

static int policy_read(struct cpufreq_policy *p, unsigned id, struct bl_diag *diag)
{
        char path[SYSFS_PATH_MAX], value[256];
        int r;

        p->id = id;
        policy_path(id, "related_cpus", path, sizeof(path));
        r = read_line(path, value, sizeof(value));
        if (r >= 0)
                r = cpumask_parse_words(&p->cpus, value);
        if (r < 0) {
                diag_add(diag, "cpufreq: policy%u/related_cpus: %s", id, strerror(-r));
                return r;
        }
        r = read_khz(id, "cpuinfo_min_freq", &p->min_khz);
        if (r < 0) {
                diag_add(diag, "cpufreq: policy%u/cpuinfo_min_freq: %s", id, strerror(-r));
                return r;
        }
        r = read_khz(id, "scaling_max_freq", &p->saved_khz);
        if (r < 0) {
                diag_add(diag, "cpufreq: policy%u/scaling_max_freq: %s", id, strerror(-r));
                return r;
        }
        if (!max_freq_writable(id)) {
                diag_add(diag, "cpufreq: policy%u/scaling_max_freq cannot be written: %s", id,
                         strerror(errno));
                return -EACCES;
        }
        p->asked_khz = p->saved_khz;
        return 0;
}

static int cpufreq_open(struct bl_backend **ret, const struct bl_topology *t, const struct bl_ladder *l,
                        const struct bl_config *cfg, struct bl_diag *diag)
{
        _cleanup_free_ unsigned *ids = calloc(BL_MAX_CPUS, sizeof(*ids));
        struct bl_backend *b;
        int n, r;

        if (!ids)
                return -ENOMEM;
        n = list_policies(ids, BL_MAX_CPUS);
        if (n < 0) {
                diag_add(diag, "cpufreq: cannot list " CPUFREQ_DIR ": %s", strerror(-n));
                return n;
        }
        /* With one policy, capping it would slow every level alike. */
        if (n < 2) {
                diag_add(diag, "cpufreq: %s; it needs a policy per cluster",
                         n ? "one cpufreq policy covers every CPU" : "no cpufreq policy on this machine");
                return -EOPNOTSUPP;
        }
        b = calloc(1, sizeof(*b));
        if (!b)
                return -ENOMEM;
        for (int i = 0; i < n; i++) {
                r = policy_read(&b->policies[i], ids[i], diag);
                if (r < 0) {
                        free(b);
                        return r;
                }
        }
        b->npolicies = (unsigned)n;
        *ret = b;
        return 0;
}

/* Writes one policy's want_khz and judges the read-back. A value below what
 * was written is someone else's tighter limit, which is not a failure; one
 * above means the kernel did not take the write. */
static int write_policy(struct bl_backend *b, struct cpufreq_policy *p, struct sysfs_write_stats *st,
                        char *detail, size_t size)
{
        char path[SYSFS_PATH_MAX], value[SYSFS_VALUE_MAX], back[SYSFS_VALUE_MAX], asked[SYSFS_VALUE_MAX];
        unsigned tries = 0;
        long long got;
        int r;

        policy_path(p->id, "scaling_max_freq", path, sizeof(path));
        snprintf(value, sizeof(value), "%u", p->want_khz);
        r = sysfs_write_read_back(path, value, back, sizeof(back), &tries);
        st->retries += tries > 1 ? tries - 1 : 0;
        if (r < 0) {
                snprintf(detail, size, "policy%u: writing scaling_max_freq=%u failed after %u %s: %s", p->id,
                         p->want_khz, tries, tries == 1 ? "try" : "tries", strerror(-r));
                return r;
        }
        snprintf(asked, sizeof(asked), "%u", p->asked_khz);
        r = sysfs_undo_push(&b->undo, path, asked, SYSFS_CHECK_AT_MOST);
        if (r < 0) {
                snprintf(detail, size, "policy%u: cannot record scaling_max_freq for an undo: %s", p->id,
                         strerror(-r));
                return r;
        }
        st->writes++;
        r = parse_int(back, &got);
        if (r < 0 || got <= 0 || got > (long long)p->want_khz) {
                snprintf(detail, size, "policy%u: wrote scaling_max_freq=%u, it reads \"%.32s\"", p->id,
                         p->want_khz, back);
                return -EIO;
        }
        p->now_khz = (unsigned)got;
        return 0;
}

static bool needs_write(const struct cpufreq_policy *p)
{
        /* Asking again for what we asked changes nothing, even while another
         * limit holds the policy lower; a value above it is someone undoing
         * our cap. */
        return p->want_khz != p->asked_khz || p->now_khz > p->want_khz;
}

/* Takes every policy to its want_khz: raises first, then caps, so that the
 * machine never has less speed than both the old and the new level give.
 * With 'all_or_nothing', the first failure undoes the writes made so far;
 * otherwise (restore) every policy is tried. */
static int change(struct bl_backend *b, bool all_or_nothing, struct sysfs_write_stats *st, char *detail,
                  size_t size)
{
        int r;

        *st = (struct sysfs_write_stats){ 0 };
        for (unsigned i = 0; i < b->npolicies; i++) {
                struct cpufreq_policy *p = &b->policies[i];

                r = read_khz(p->id, "scaling_max_freq", &p->now_khz);
                if (r < 0) {
                        snprintf(detail, size, "policy%u: cannot read scaling_max_freq: %s", p->id,
                                 strerror(-r));
                        if (all_or_nothing)
                                return r;
                        /* Still try to write what open() found. */
                        p->now_khz = 0;
                        p->asked_khz = 0;
                }
        }
        for (unsigned i = 0; i < b->npolicies; i++) {
                struct cpufreq_policy *p = &b->policies[i];

                p->pass = !needs_write(p) ? -1 : p->want_khz > p->now_khz ? 0 : 1;
        }
        sysfs_undo_init(&b->undo);
        for (int pass = 0; pass < 2; pass++)
                for (unsigned i = 0; i < b->npolicies; i++) {
                        struct cpufreq_policy *p = &b->policies[i];

                        if (p->pass != pass)
                                continue;
                        r = write_policy(b, p, st, detail, size);
                        if (r >= 0)
                                continue;
                        if (all_or_nothing) {
                                unsigned undo_failed = sysfs_undo_run(&b->undo);

                                sysfs_append(detail, size, "; %s",
                                       undo_failed ? "could not undo every earlier write"
                                                   : "earlier writes undone");
                                return undo_failed ? -EIO : r;
                        }
                        if (st->failed++ == 0)
                                st->first_error = r;
                }
        for (unsigned i = 0; i < b->npolicies; i++)
                b->policies[i].asked_khz = b->policies[i].want_khz;
        return 0;
}

/* The kernel keeps the tightest of all requests; say when ours is not it. */
static void describe_other_limits(const struct bl_backend *b, char *detail, size_t size)
{
        unsigned held = 0;

        for (unsigned i = 0; i < b->npolicies; i++) {
                const struct cpufreq_policy *p = &b->policies[i];

                if (p->now_khz == 0 || p->now_khz >= p->want_khz)
                        continue;
                if (held++ == 0)
                        sysfs_append(detail, size, "; another limit holds policy%u at %u kHz (asked %u)",
                                     p->id, p->now_khz, p->want_khz);
        }
        if (held > 1)
                sysfs_append(detail, size, " and %u more polic%s", held - 1, held == 2 ? "y" : "ies");
}

/* Whether every policy the level caps runs as fast as it would uncapped:
 * a table with one operating point (cpuinfo_min_freq is the top), or a
 * kernel that keeps scaling_max_freq where it was. Such a cap changes
 * nothing, and the level it makes is the one above it. 'detail' says
 * which policy and what it reads. */
static bool caps_ignored(const struct bl_backend *b, char *detail, size_t size)
{
        const struct cpufreq_policy *first = NULL;

        for (unsigned i = 0; i < b->npolicies; i++) {
                const struct cpufreq_policy *p = &b->policies[i];

                if (!p->capped)
                        continue;
                if (p->now_khz < p->saved_khz)
                        return false;
                if (!first)
                        first = p;
        }
        if (!first)
                return false;
        if (first->min_khz >= first->saved_khz)
                snprintf(detail, size,
                         "policy%u cannot be capped: its lowest frequency is its highest (%u kHz, one "
                         "operating point)", first->id, first->min_khz);
        else
                snprintf(detail, size, "policy%u: scaling_max_freq=%u was written, it stays at %u kHz",
                         first->id, first->want_khz, first->now_khz);
        return true;
}

static int cpufreq_apply(struct bl_backend *b, const bl_cpumask *cpus, char *detail, size_t size)
{
        unsigned asked_before[BL_MAX_CPUS];
        struct sysfs_write_stats st;
        bl_cpumask capped;
        char list[256];
        int r;

        if (cpumask_empty(cpus)) {
                snprintf(detail, size, "no CPU was asked for");
                return -EINVAL;
        }
        cpumask_zero(&capped);
        for (unsigned i = 0; i < b->npolicies; i++) {
                struct cpufreq_policy *p = &b->policies[i];
                bl_cpumask used = p->cpus;

                cpumask_and(&used, cpus);
                p->capped = cpumask_empty(&used);
                p->want_khz = p->capped ? p->min_khz : p->saved_khz;
                if (p->capped)
                        cpumask_or(&capped, &p->cpus);
        }
        for (unsigned i = 0; i < b->npolicies; i++)
                asked_before[i] = b->policies[i].asked_khz;
        detail[0] = '\0';
        r = change(b, true, &st, detail, size);
        if (r < 0)
                return r;
        if (!cpumask_empty(&capped) && caps_ignored(b, detail, size)) {
                /* Nothing slower than before: the level is not there to
                 * be had. Whatever was raised goes back, so that the
                 * kernel stays at the level the daemon thinks it is at. */
                unsigned undo_failed = sysfs_undo_run(&b->undo);

                for (unsigned i = 0; i < b->npolicies; i++)
                        b->policies[i].asked_khz = asked_before[i];
                if (undo_failed)
                        sysfs_append(detail, size, "; could not undo every earlier write");
                return undo_failed ? -EIO : BL_BACKEND_NO_EFFECT;
        }
        if (cpumask_empty(&capped)) {
                snprintf(detail, size, "nothing capped");
        } else {
                cpumask_format(&capped, list, sizeof(list));
                snprintf(detail, size, "capped %s", list);
        }
        sysfs_describe_writes(&st, detail, size);
        describe_other_limits(b, detail, size);
        return 0;
}

static int cpufreq_restore(struct bl_backend *b, char *detail, size_t size)
{
        struct sysfs_write_stats st;
        int r;

        for (unsigned i = 0; i < b->npolicies; i++) {
                b->policies[i].want_khz = b->policies[i].saved_khz;
                b->policies[i].capped = false;
        }
        detail[0] = '\0';
        r = change(b, false, &st, detail, size);
        if (r >= 0 && st.failed)
                r = st.first_error;
        if (r < 0) {
                if (st.failed > 1)
                        sysfs_append(detail, size, "; %u policies not put back", st.failed);
                return r;
        }
        snprintf(detail, size, "scaling_max_freq as found:");
        for (unsigned i = 0; i < b->npolicies; i++)
                sysfs_append(detail, size, "%s policy%u %u", i ? "," : "", b->policies[i].id,
                       b->policies[i].saved_khz);
        sysfs_append(detail, size, " kHz");
        sysfs_describe_writes(&st, detail, size);
        return 0;
}

static void cpufreq_free(struct bl_backend *b)
{
        free(b);
}

/* One line, whatever the number of policies: "scaling_max_freq=0:1400000 4:2000000". */
static int cpufreq_save(struct bl_backend *b, char *buf, size_t size)
{
        unsigned values[2 * BL_MAX_CPUS];

        for (unsigned i = 0; i < b->npolicies; i++) {
                values[2 * i] = b->policies[i].id;
                values[2 * i + 1] = b->policies[i].saved_khz;
        }
        return backend_save_list(buf, size, "scaling_max_freq", values, b->npolicies, 2);
}

static bool saved_policy_valid(const uint32_t *f)
{
        return f[1] != 0;
}

static int take_saved_policy(void *ctx, unsigned i, const uint32_t *f, char *detail, size_t size)
{
        struct cpufreq_policy *p = &((struct bl_backend *)ctx)->policies[i];

        /* What the file says now: a value already right is not written again. */
        if (read_khz(f[0], "scaling_max_freq", &p->asked_khz) < 0) {
                snprintf(detail, size, "scaling_max_freq: policy%u is not on this machine", f[0]);
                return -EINVAL;
        }
        p->id = f[0];
        p->saved_khz = f[1];
        return 0;
}

static const struct backend_saved_form saved_policies = {
        .key = "scaling_max_freq",
        .item = "POLICY:KHZ",
        .per = 2,
        .max = BL_MAX_CPUS,
        .too_many = "more policies than CPUs",
        .none = "no policy",
        .valid = saved_policy_valid,
        .take = take_saved_policy,
};

/* Only "scaling_max_freq=..." is understood; anything else means the file
 * was not written by this backend, and nothing is touched. */
static int cpufreq_restore_saved(const struct bl_topology *t, const char *text, char *detail, size_t size)
{
        _cleanup_free_ char *copy = strdup(text);
        _cleanup_free_ struct bl_backend *b = calloc(1, sizeof(*b));
        char *value;
        int r;

        (void)t;
        if (!copy || !b)
                return -ENOMEM;
        r = backend_saved_value(copy, "scaling_max_freq", "cpufreq", &value, detail, size);
        if (r < 0)
                return r;
        r = backend_saved_list(value, &saved_policies, b, detail, size);
        if (r < 0)
                return r;
        b->npolicies = (unsigned)r;
        return cpufreq_restore(b, detail, size);
}

static bool cpufreq_probe(const struct bl_topology *t, char *why, size_t size)
{
        int n = cpufreq_writable_policies();

        (void)t;
        if (n >= 2) {
                snprintf(why, size, "%d cpufreq policies can be capped", n);
                return true;
        }
        snprintf(why, size, "%s", n < 0 ? "cpufreq policies cannot be read"
                                        : "no two cpufreq policies with a writable scaling_max_freq");
        return false;
}

const struct bl_backend_ops backend_cpufreq = {
        .name = "cpufreq",
        /* A scaling_max_freq write moves the policy at its next
         * frequency transition: the OPP change itself (cpufreq-dt boards
         * give transition latencies of 0.1-0.3 ms) and the governor's
         * reaction; about 1 ms, whatever the number of CPUs. */
        .prior = { .latency_us = 1000 },
        .open = cpufreq_open,
        .apply = cpufreq_apply,
        .restore = cpufreq_restore,
        .free = cpufreq_free,
        .save = cpufreq_save,
        .restore_saved = cpufreq_restore_saved,
        .probe = cpufreq_probe,
};
