/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/cpuset.h"
#include "backends/sysfs.h"
#include "backends/systemd-unit.h"
#include "common/fileio.h"

#define CGROUP_ROOT "/sys/fs/cgroup"
#define CGROUP_FILE_MAX (sizeof(CGROUP_ROOT) + BL_CPUSET_GROUP_MAX + 32)
#define ERROR_MAX 200

/* A group's setting, in the forms both managers need. */
struct group_value {
        bool unrestricted;              /* "" or no bytes: whatever the parent allows */
        bl_cpumask cpus;                /* when restricted */
        char text[CPUSET_TEXT_MAX];     /* cgroupfs: the text as read, or to write */
        struct systemd_cpus mask;       /* systemd: the bytes as read, or to write */
};

struct group {
        char path[BL_CPUSET_GROUP_MAX]; /* relative to the cgroup root */
        struct group_value saved;       /* found at open(), put back on close */
        /* One change at work: */
        struct group_value now, want;
        bool written;
        bool gone;                      /* restore: the cgroup or unit no longer exists */
        /* The kernel refused to clear the list (a cgroup v2 group with
         * tasks): until the restore, "unrestricted" is written as every
         * CPU by number straight away, one write instead of two. */
        bool clear_refused;
};

struct bl_backend {
        enum bl_cpuset_manager manager; /* SYSTEMD or CGROUPFS */
        sd_bus *bus;                    /* systemd */
        bl_cpumask all;                 /* what an unrestricted group may use */
        unsigned ngroups;
        struct group groups[BL_CPUSET_MAX_GROUPS];
};

int cpuset_group_target(const bl_cpumask *level, bool unrestricted, const bl_cpumask *recorded,
                        const bl_cpumask *all, bl_cpumask *ret)
{
        const bl_cpumask *allowed = unrestricted ? all : recorded;

        *ret = *level;
        cpumask_and(ret, allowed);
        return !cpumask_empty(ret) && !cpumask_equal(ret, allowed);
}

/* systemd names a group's unit after the last component of its path. */
static const char *group_unit(const char *path)
{
        const char *slash = strrchr(path, '/');

        return slash ? slash + 1 : path;
}

static int value_from_text(const char *text, struct group_value *v)
{
        int r;

        if (strlen(text) >= sizeof(v->text))
                return -E2BIG;
        r = cpumask_parse(&v->cpus, text);
        if (r < 0)
                return r;
        snprintf(v->text, sizeof(v->text), "%s", text);
        systemd_cpus_from_set(&v->cpus, &v->mask);
        v->unrestricted = cpumask_empty(&v->cpus);
        return 0;
}

static void value_from_mask(const struct systemd_cpus *mask, struct group_value *v)
{
        v->mask = *mask;
        systemd_cpus_to_set(mask, &v->cpus);
        cpumask_format(&v->cpus, v->text, sizeof(v->text));
        v->unrestricted = cpumask_empty(&v->cpus);
}

static void value_from_set(const bl_cpumask *set, struct group_value *v)
{
        v->unrestricted = false;
        v->cpus = *set;
        cpumask_format(set, v->text, sizeof(v->text));
        systemd_cpus_from_set(set, &v->mask);
}

/* The same CPUs, however written ("0-3" and "0,1,2,3", or a mask with
 * trailing zero bytes). */
static bool value_same(const struct group_value *a, const struct group_value *b)
{
        return a->unrestricted == b->unrestricted && (a->unrestricted || cpumask_equal(&a->cpus, &b->cpus));
}

static void value_describe(const struct group_value *v, char *buf, size_t size)
{
        if (v->unrestricted)
                snprintf(buf, size, "unrestricted");
        else
                cpumask_format(&v->cpus, buf, size);
}

/* DIR/FILE under the cgroup root; DIR "" is the root itself. */
static int cgroup_file(const char *dir, const char *file, char *buf, size_t size)
{
        int n = dir[0] ? snprintf(buf, size, CGROUP_ROOT "/%s/%s", dir, file)
                       : snprintf(buf, size, CGROUP_ROOT "/%s", file);

        return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int read_group(struct bl_backend *b, const struct group *g, struct group_value *v, char *err,
                      size_t size)
{
        char path[CGROUP_FILE_MAX], text[CPUSET_TEXT_MAX];
        struct systemd_cpus mask;
        int r;

        if (b->manager == BL_CPUSET_MANAGER_SYSTEMD) {
                r = systemd_unit_get_allowed_cpus(b->bus, group_unit(g->path), &mask, err, size);
                if (r >= 0)
                        value_from_mask(&mask, v);
                return r;
        }
        r = cgroup_file(g->path, "cpuset.cpus", path, sizeof(path));
        if (r >= 0)
                r = read_line(path, text, sizeof(text));
        if (r < 0) {
                snprintf(err, size, "cannot read %s: %s", path, strerror(-r));
                return r;
        }
        r = value_from_text(text, v);
        if (r < 0)
                snprintf(err, size, "cpuset.cpus reads \"%.64s\", not a CPU list", text);
        return r;
}

/* Whether 'v' is the unrestricted setting of a group the kernel would not
 * clear (it has tasks): written, until the restore, as every CPU by number. */
static bool cleared_by_number(const struct group *g, const struct group_value *v)
{
        return v->unrestricted && g->clear_refused;
}

/* Writes one group and reads it back. g->written says whether the group
 * may have changed (and so needs undoing), whatever the result. 'exact'
 * (the restore) tries to clear a group even where the kernel refused it
 * before: its tasks may be gone. */
static int write_group(struct bl_backend *b, struct group *g, const struct group_value *v, bool exact,
                       struct sysfs_write_stats *st, char *err, size_t size)
{
        char path[CGROUP_FILE_MAX], now[CPUSET_TEXT_MAX], wrote[64], reads[64];
        struct group_value back, every;
        unsigned tries = 0;
        int r;

        if (b->manager == BL_CPUSET_MANAGER_SYSTEMD) {
                /* No retry: systemd refusing a property is its decision,
                 * not a lock held for a moment. */
                r = systemd_unit_set_allowed_cpus(b->bus, group_unit(g->path), &v->mask, err, size);
                if (r < 0)
                        return r;
                g->written = true;
                st->writes++;
                r = read_group(b, g, &back, err, size);
        } else {
                r = cgroup_file(g->path, "cpuset.cpus", path, sizeof(path));
                if (r < 0)
                        return r;
                r = -ENOSPC;
                if (exact || !cleared_by_number(g, v)) {
                        /* An empty write may not reach the kernel at all; a
                         * newline clears the setting as "echo > cpuset.cpus"
                         * does. */
                        r = sysfs_write_read_back(path, v->text[0] ? v->text : "\n", now, sizeof(now), &tries);
                        st->retries += tries > 1 ? tries - 1 : 0;
                }
                if (r == -ENOSPC && v->unrestricted) {
                        /* cgroup v2 refuses to clear the list of a group
                         * that has tasks (Linux 6.1: ENOSPC, also at the
                         * top mp level, every CPU). Every CPU it may use,
                         * by number, is what "" gave it. */
                        g->clear_refused = true;
                        value_from_set(&b->all, &every);
                        v = &every;
                        r = sysfs_write_read_back(path, v->text, now, sizeof(now), &tries);
                }
                if (r < 0) {
                        snprintf(err, size, "writing cpuset.cpus \"%.64s\" failed after %u %s: %s", v->text,
                                 tries, tries == 1 ? "try" : "tries", strerror(-r));
                        return r;
                }
                g->written = true;
                st->writes++;
                if (v->unrestricted)
                        g->clear_refused = false;
                r = value_from_text(now, &back);
                if (r < 0)
                        snprintf(err, size, "cpuset.cpus reads \"%.64s\", not a CPU list", now);
        }
        if (r < 0)
                return r;
        if (!value_same(&back, v)) {
                value_describe(v, wrote, sizeof(wrote));
                value_describe(&back, reads, sizeof(reads));
                snprintf(err, size, "wrote %s, it reads %s", wrote, reads);
                return -EIO;
        }
        return 0;
}

/* Whether the group already holds its 'want': the same CPUs or, unless the
 * change must be exact (the restore), every CPU by number where the kernel
 * would not clear it. */
static bool group_holds(const struct bl_backend *b, const struct group *g, bool exact)
{
        if (value_same(&g->now, &g->want))
                return true;
        return !exact && cleared_by_number(g, &g->want) && !g->now.unrestricted &&
               cpumask_equal(&g->now.cpus, &b->all);
}

/* Puts back, newest first, what groups 0..last held before this change.
 * Returns how many could not be put back. */
static unsigned undo(struct bl_backend *b, unsigned last)
{
        struct sysfs_write_stats st = { 0 };
        char err[ERROR_MAX];
        unsigned failed = 0;

        for (unsigned i = last + 1; i-- > 0;) {
                struct group *g = &b->groups[i];

                if (g->written && write_group(b, g, &g->now, false, &st, err, sizeof(err)) < 0)
                        failed++;
        }
        return failed;
}

/* Takes every group to its 'want'. With 'all_or_nothing' (apply) the first
 * failure puts back the groups written so far; otherwise (restore) every
 * group is tried, and a group that no longer exists has nothing to put
 * back. */
static int change(struct bl_backend *b, bool all_or_nothing, struct sysfs_write_stats *st, char *detail,
                  size_t size)
{
        char err[ERROR_MAX];
        int r;

        *st = (struct sysfs_write_stats){ 0 };
        for (unsigned i = 0; i < b->ngroups; i++)
                b->groups[i].written = b->groups[i].gone = false;
        for (unsigned i = 0; i < b->ngroups; i++) {
                struct group *g = &b->groups[i];

                err[0] = '\0';
                /* Someone else may have changed it since: read, do not trust. */
                r = read_group(b, g, &g->now, err, sizeof(err));
                if (r == -ENOENT && !all_or_nothing) {
                        g->gone = true;
                        continue;
                }
                if (r >= 0 && group_holds(b, g, !all_or_nothing))
                        continue;
                if (r >= 0)
                        r = write_group(b, g, &g->want, !all_or_nothing, st, err, sizeof(err));
                if (r >= 0)
                        continue;
                if (all_or_nothing) {
                        unsigned undo_failed = undo(b, i);

                        snprintf(detail, size, "%s: %s; %s", g->path, err,
                                 undo_failed ? "could not put back every group written before"
                                             : "groups written before put back");
                        return undo_failed ? -EIO : r;
                }
                if (st->failed++ == 0) {
                        st->first_error = r;
                        snprintf(detail, size, "%s: %s", g->path, err);
                }
        }
        return 0;
}

/* "system.slice 0-3, user.slice 0-5 (cgroupfs)" */
static void describe(const struct bl_backend *b, bool want, char *detail, size_t size)
{
        char value[256];

        for (unsigned i = 0; i < b->ngroups; i++) {
                const struct group *g = &b->groups[i];
                const struct group_value *v = want ? &g->want : &g->saved;
                const bool by_number = cleared_by_number(g, v);

                if (by_number)
                        cpumask_format(&b->all, value, sizeof(value));
                else
                        value_describe(v, value, sizeof(value));
                sysfs_append(detail, size, "%s%s %s%s", i ? ", " : "", g->path, value,
                             g->gone     ? " (gone)"
                             : by_number ? " (by number: a group with tasks cannot be cleared)"
                                         : "");
        }
        sysfs_append(detail, size, " (%s)", cpuset_manager_to_string(b->manager));
}

static int cpuset_apply(struct bl_backend *b, const bl_cpumask *cpus, char *detail, size_t size)
{
        struct sysfs_write_stats st;
        int r;

        if (cpumask_empty(cpus)) {
                snprintf(detail, size, "no CPU was asked for");
                return -EINVAL;
        }
        for (unsigned i = 0; i < b->ngroups; i++) {
                struct group *g = &b->groups[i];
                bl_cpumask target;

                if (cpuset_group_target(cpus, g->saved.unrestricted, &g->saved.cpus, &b->all, &target))
                        value_from_set(&target, &g->want);
                else
                        g->want = g->saved;
        }
        detail[0] = '\0';
        r = change(b, true, &st, detail, size);
        if (r < 0)
                return r;
        describe(b, true, detail, size);
        sysfs_describe_writes(&st, detail, size);
        return 0;
}

static int cpuset_restore(struct bl_backend *b, char *detail, size_t size)
{
        struct sysfs_write_stats st;

        for (unsigned i = 0; i < b->ngroups; i++)
                b->groups[i].want = b->groups[i].saved;
        detail[0] = '\0';
        (void)change(b, false, &st, detail, size);
        if (st.failed) {
                if (st.failed > 1)
                        sysfs_append(detail, size, "; %u groups not put back", st.failed);
                return st.first_error;
        }
        snprintf(detail, size, "as found: ");
        describe(b, false, detail, size);
        sysfs_describe_writes(&st, detail, size);
        return 0;
}

static void cpuset_free(struct bl_backend *b)
{
        if (!b)
                return;
        sd_bus_flush_close_unref(b->bus);
        free(b);
}

static bool word_listed(const char *list, const char *word)
{
        size_t len = strlen(word);

        for (const char *s = list; (s = strstr(s, word)); s += len)
                if ((s == list || s[-1] == ' ') && (s[len] == '\0' || s[len] == ' ' || s[len] == '\n'))
                        return true;
        return false;
}

/* cgroup v2 with the cpuset controller enabled above every group. The
 * controllers are the administrator's to enable: a daemon turning them on
 * would change how the whole machine is accounted. */
static int check_cgroupfs(const struct bl_backend *b, struct bl_diag *diag)
{
        char path[CGROUP_FILE_MAX], list[256], parent[BL_CPUSET_GROUP_MAX];
        int r;

        r = read_line(CGROUP_ROOT "/cgroup.controllers", list, sizeof(list));
        if (r < 0) {
                diag_add(diag, "cpuset: no cgroup v2 hierarchy at " CGROUP_ROOT " (cgroup.controllers: %s); "
                         "the cpuset backend needs the unified hierarchy", strerror(-r));
                return -EOPNOTSUPP;
        }
        if (!word_listed(list, "cpuset")) {
                diag_add(diag, "cpuset: the kernel offers no cpuset controller (" CGROUP_ROOT
                         "/cgroup.controllers: \"%s\")", list);
                return -EOPNOTSUPP;
        }
        for (unsigned i = 0; i < b->ngroups; i++) {
                const char *slash = strrchr(b->groups[i].path, '/');

                snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - b->groups[i].path) : 0,
                         b->groups[i].path);
                r = cgroup_file(parent, "cgroup.subtree_control", path, sizeof(path));
                if (r >= 0)
                        r = read_line(path, list, sizeof(list));
                if (r < 0) {
                        diag_add(diag, "cpuset: %s: cannot read %s: %s", b->groups[i].path, path,
                                 strerror(-r));
                        return r;
                }
                if (!word_listed(list, "cpuset")) {
                        diag_add(diag, "cpuset: %s: the cpuset controller is not enabled for it; enable it "
                                 "with \"echo +cpuset > %s\" (bigLittled does not enable controllers itself)",
                                 b->groups[i].path, path);
                        return -EOPNOTSUPP;
                }
        }
        return 0;
}

/* systemd manages the cgroups when it answers and the groups are its
 * units; groups that are none of its units are a subtree delegated to
 * us, written directly. */
static int pick_manager(struct bl_backend *b, enum bl_cpuset_manager configured, struct bl_diag *diag)
{
        unsigned units = 0;
        int r;

        b->manager = BL_CPUSET_MANAGER_CGROUPFS;
        if (configured == BL_CPUSET_MANAGER_CGROUPFS)
                return 0;
        r = systemd_bus_open(&b->bus);
        if (r >= 0)
                r = systemd_ping(b->bus);
        if (r < 0) {
                b->bus = sd_bus_flush_close_unref(b->bus);
                if (configured == BL_CPUSET_MANAGER_AUTO)
                        return 0;
                diag_add(diag, "cpuset: manager = systemd, but systemd does not answer on the system bus: %s",
                         strerror(-r));
                return r;
        }
        for (unsigned i = 0; i < b->ngroups; i++)
                units += systemd_unit_name_supported(group_unit(b->groups[i].path));
        if (configured == BL_CPUSET_MANAGER_AUTO && units == 0) {
                b->bus = sd_bus_flush_close_unref(b->bus);
                return 0;
        }
        for (unsigned i = 0; i < b->ngroups; i++)
                if (!systemd_unit_name_supported(group_unit(b->groups[i].path))) {
                        diag_add(diag, "cpuset: %s: systemd manages the cgroups, and %s is not a slice, "
                                 "service or scope whose AllowedCPUs= it could set; list units only, or set "
                                 "manager = cgroupfs for a subtree delegated to bigLittled",
                                 b->groups[i].path, group_unit(b->groups[i].path));
                        return -EINVAL;
                }
        b->manager = BL_CPUSET_MANAGER_SYSTEMD;
        return 0;
}

/* The CPUs of level k; in pair mode, of every pair at that level. */
static void level_cpus(const struct bl_ladder *l, unsigned k, bl_cpumask *ret)
{
        if (l->mode != BL_MODE_PAIR) {
                *ret = l->levels[k].cpus;
                return;
        }
        cpumask_zero(ret);
        for (unsigned p = 0; p < l->npairs; p++)
                cpumask_set(ret, k == 0 ? l->pairs[p].little : l->pairs[p].big);
}

/* A group set to CPUs some level does not have keeps its own setting there
 * rather than lose every CPU: said once, it is not a failure. */
static void warn_disjoint_levels(const struct bl_backend *b, const struct bl_ladder *l, struct bl_diag *diag)
{
        for (unsigned i = 0; i < b->ngroups; i++) {
                const struct group *g = &b->groups[i];
                char names[256] = "", value[256];
                unsigned n = 0;

                for (unsigned k = 0; k < l->nlevels; k++) {
                        bl_cpumask cpus, target;

                        level_cpus(l, k, &cpus);
                        (void)cpuset_group_target(&cpus, g->saved.unrestricted, &g->saved.cpus, &b->all,
                                                  &target);
                        if (!cpumask_empty(&target))
                                continue;
                        sysfs_append(names, sizeof(names), "%s%s", n++ ? ", " : "", l->levels[k].name);
                }
                if (n == 0)
                        continue;
                value_describe(&g->saved, value, sizeof(value));
                diag_add(diag, "cpuset: %s is set to CPUs %s, which level%s %s %s none of; there it keeps "
                         "that setting", g->path, value, n > 1 ? "s" : "", names, n > 1 ? "have" : "has");
        }
}

static int cpuset_open(struct bl_backend **ret, const struct bl_topology *t, const struct bl_ladder *l,
                       const struct bl_config *cfg, struct bl_diag *diag)
{
        struct bl_backend *b;
        char err[ERROR_MAX];
        int r;

        if (cfg->ncpuset_groups == 0) {
                diag_add(diag, "cpuset: no group configured ([cpuset] groups)");
                return -EINVAL;
        }
        b = calloc(1, sizeof(*b));
        if (!b)
                return -ENOMEM;
        b->all = t->present;
        b->ngroups = cfg->ncpuset_groups;
        for (unsigned i = 0; i < b->ngroups; i++)
                snprintf(b->groups[i].path, sizeof(b->groups[i].path), "%s", cfg->cpuset_groups[i]);
        r = pick_manager(b, cfg->cpuset_manager, diag);
        if (r >= 0 && b->manager == BL_CPUSET_MANAGER_CGROUPFS)
                r = check_cgroupfs(b, diag);
        for (unsigned i = 0; r >= 0 && i < b->ngroups; i++) {
                r = read_group(b, &b->groups[i], &b->groups[i].saved, err, sizeof(err));
                if (r == -ENOENT && b->manager == BL_CPUSET_MANAGER_CGROUPFS)
                        diag_add(diag, "cpuset: %s: no such cgroup", b->groups[i].path);
                else if (r < 0)
                        diag_add(diag, "cpuset: %s: %s", b->groups[i].path, err);
        }
        if (r < 0) {
                cpuset_free(b);
                return r;
        }
        warn_disjoint_levels(b, l, diag);
        *ret = b;
        return 0;
}

static int cpuset_save(struct bl_backend *b, char *buf, size_t size)
{
        size_t len = (size_t)snprintf(buf, size, "manager=%s\n", cpuset_manager_to_string(b->manager));

        for (unsigned i = 0; i < b->ngroups && len < size; i++) {
                const struct group *g = &b->groups[i];
                char hex[2 * SYSTEMD_CPUS_MAX_BYTES + 1];
                const char *value = g->saved.text;

                if (b->manager == BL_CPUSET_MANAGER_SYSTEMD) {
                        systemd_cpus_format_hex(&g->saved.mask, hex, sizeof(hex));
                        value = hex;
                }
                len += (size_t)snprintf(buf + len, size - len, "group=%s \"%s\"\n", g->path, value);
        }
        return len < size ? 0 : -ENOBUFS;
}

static int parse_manager(const char *value, struct cpuset_saved *s, bool *seen, char *detail, size_t size)
{
        if (*seen) {
                snprintf(detail, size, "manager: given twice");
                return -EINVAL;
        }
        *seen = true;
        if (strcmp(value, "systemd") == 0)
                s->manager = BL_CPUSET_MANAGER_SYSTEMD;
        else if (strcmp(value, "cgroupfs") == 0)
                s->manager = BL_CPUSET_MANAGER_CGROUPFS;
        else {
                snprintf(detail, size, "manager: expected systemd or cgroupfs, got \"%.32s\"", value);
                return -EINVAL;
        }
        return 0;
}

/* PATH "VALUE" */
static int parse_group(char *value, struct cpuset_saved *s, char *detail, size_t size)
{
        struct cpuset_saved_group *g = &s->groups[s->ngroups];
        char *space = strchr(value, ' '), *quoted;
        size_t len;

        if (!space) {
                snprintf(detail, size, "group: expected PATH \"VALUE\", got \"%.64s\"", value);
                return -EINVAL;
        }
        *space = '\0';
        quoted = space + 1;
        len = strlen(quoted);
        if (len < 2 || quoted[0] != '"' || quoted[len - 1] != '"' || memchr(quoted + 1, '"', len - 2)) {
                snprintf(detail, size, "group: %.64s: expected a quoted value, got %.64s", value, quoted);
                return -EINVAL;
        }
        if (!config_cgroup_path_valid(value) || strlen(value) >= sizeof(g->path)) {
                snprintf(detail, size, "group: expected a cgroup path, got \"%.64s\"", value);
                return -EINVAL;
        }
        if (len - 2 >= sizeof(g->value)) {
                snprintf(detail, size, "group: %.64s: value too long", value);
                return -EINVAL;
        }
        for (unsigned i = 0; i < s->ngroups; i++)
                if (strcmp(s->groups[i].path, value) == 0) {
                        snprintf(detail, size, "group: %.64s given twice", value);
                        return -EINVAL;
                }
        if (s->ngroups >= BL_CPUSET_MAX_GROUPS) {
                snprintf(detail, size, "group: more than %d groups", BL_CPUSET_MAX_GROUPS);
                return -EINVAL;
        }
        snprintf(g->path, sizeof(g->path), "%s", value);
        snprintf(g->value, sizeof(g->value), "%.*s", (int)(len - 2), quoted + 1);
        s->ngroups++;
        return 0;
}

/* Each value in the form its manager gives. */
static int check_saved_values(const struct cpuset_saved *s, char *detail, size_t size)
{
        for (unsigned i = 0; i < s->ngroups; i++) {
                const struct cpuset_saved_group *g = &s->groups[i];
                struct systemd_cpus mask;
                bl_cpumask cpus;

                if (s->manager == BL_CPUSET_MANAGER_CGROUPFS && cpumask_parse(&cpus, g->value) < 0) {
                        snprintf(detail, size, "group: %.64s: expected a CPU list, got \"%.32s\"", g->path,
                                 g->value);
                        return -EINVAL;
                }
                if (s->manager == BL_CPUSET_MANAGER_SYSTEMD &&
                    (!systemd_unit_name_supported(group_unit(g->path)) ||
                     systemd_cpus_parse_hex(g->value, &mask) < 0)) {
                        snprintf(detail, size,
                                 "group: %.64s: expected a unit and a CPU mask in hex, got \"%.32s\"",
                                 g->path, g->value);
                        return -EINVAL;
                }
        }
        return 0;
}

int cpuset_saved_parse(const char *text, struct cpuset_saved *ret, char *detail, size_t size)
{
        _cleanup_free_ char *copy = strdup(text);
        char *save = NULL;
        bool have_manager = false;
        int r = 0;

        memset(ret, 0, sizeof(*ret));
        if (!copy)
                return -ENOMEM;
        for (char *line = strtok_r(copy, "\n", &save); line && r >= 0; line = strtok_r(NULL, "\n", &save)) {
                char *value = strchr(line, '=');

                if (!value) {
                        snprintf(detail, size, "%.64s: expected key=value", line);
                        return -EINVAL;
                }
                *value++ = '\0';
                if (strcmp(line, "manager") == 0)
                        r = parse_manager(value, ret, &have_manager, detail, size);
                else if (strcmp(line, "group") == 0)
                        r = parse_group(value, ret, detail, size);
                else {
                        snprintf(detail, size, "%.64s: not a setting of the cpuset backend", line);
                        r = -EINVAL;
                }
        }
        if (r < 0)
                return r;
        if (!have_manager) {
                snprintf(detail, size, "manager: missing");
                return -EINVAL;
        }
        if (ret->ngroups == 0) {
                snprintf(detail, size, "group: missing");
                return -EINVAL;
        }
        return check_saved_values(ret, detail, size);
}

/* Runs with no backend open: nothing is known but the text. */
static int cpuset_restore_saved(const struct bl_topology *t, const char *text, char *detail, size_t size)
{
        _cleanup_free_ struct cpuset_saved *s = malloc(sizeof(*s));
        struct bl_backend *b;
        int r;

        if (!s)
                return -ENOMEM;
        r = cpuset_saved_parse(text, s, detail, size);
        if (r < 0)
                return r;
        b = calloc(1, sizeof(*b));
        if (!b)
                return -ENOMEM;
        b->manager = s->manager;
        b->all = t->present;
        b->ngroups = s->ngroups;
        for (unsigned i = 0; i < s->ngroups; i++) {
                struct group *g = &b->groups[i];
                struct systemd_cpus mask;

                snprintf(g->path, sizeof(g->path), "%s", s->groups[i].path);
                /* Checked by the parse. */
                if (b->manager == BL_CPUSET_MANAGER_SYSTEMD) {
                        (void)systemd_cpus_parse_hex(s->groups[i].value, &mask);
                        value_from_mask(&mask, &g->saved);
                } else {
                        (void)value_from_text(s->groups[i].value, &g->saved);
                }
        }
        if (b->manager == BL_CPUSET_MANAGER_SYSTEMD) {
                r = systemd_bus_open(&b->bus);
                if (r >= 0)
                        r = systemd_ping(b->bus);
                if (r < 0)
                        snprintf(detail, size, "systemd does not answer on the system bus: %s", strerror(-r));
        }
        if (r >= 0)
                r = cpuset_restore(b, detail, size);
        cpuset_free(b);
        return r;
}

const struct bl_backend_ops backend_cpuset = {
        .name = "cpuset",
        /* A cpuset.cpus write rebuilds the scheduler domains (a few ms)
         * and migrates every task of the cgroups confined, whose caches go
         * cold: kernel/cgroup/cpuset.c; about 3 ms plus 0.5 ms per CPU
         * joining or leaving. */
        .prior = { .latency_us = 3000, .latency_per_cpu_us = 500 },
        .open = cpuset_open,
        .apply = cpuset_apply,
        .restore = cpuset_restore,
        .free = cpuset_free,
        .save = cpuset_save,
        .restore_saved = cpuset_restore_saved,
};
