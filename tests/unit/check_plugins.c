/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "core/config.h"
#include "core/heuristic.h"
#include "loaders/plugin-loader.h"
#include "policy/builtin.h"

/* Built by tests/unit/local.mk from tests/unit/plugins/test-plugin.c. */
#ifndef TEST_PLUGIN_DIR
#error "TEST_PLUGIN_DIR must name the directory of the test plugins"
#endif

#define NOBODY 65534

static char dir[200];
static char other[200];
static struct bl_plugin_set set;
static struct bl_diag diag;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        return remove(path);
}

static void make_tmpdir(char *buf, size_t size)
{
        const char *tmp = getenv("TMPDIR");

        snprintf(buf, size, "%s/check_plugins.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(buf));
        ck_assert_int_eq(chmod(buf, 0755), 0);
}

static void setup(void)
{
        make_tmpdir(dir, sizeof(dir));
        make_tmpdir(other, sizeof(other));
        memset(&set, 0, sizeof(set));
        diag_init(&diag);
}

static void teardown(void)
{
        plugins_unload(&set);
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        nftw(other, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *path_in(const char *d, const char *name)
{
        static char path[2][PATH_MAX];
        static unsigned next;
        char *p = path[next++ % 2];

        snprintf(p, PATH_MAX, "%s/%s", d, name);
        return p;
}

/* Copies a test plugin (VARIANT.so) into 'd' as 'name' with exactly 'mode'. */
static void install_in(const char *d, const char *variant, const char *name, mode_t mode)
{
        _cleanup_free_ char *data = NULL;
        _cleanup_close_ int fd = -EBADF;
        char src[PATH_MAX];
        size_t len;

        snprintf(src, sizeof(src), "%s/%s.so", TEST_PLUGIN_DIR, variant);
        ck_assert_int_eq(read_file_limit(src, 64 << 20, &data, &len), 0);
        fd = open(path_in(d, name), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
        ck_assert_int_eq(fchmod(fd, mode), 0);
}

static void install(const char *variant, const char *name, mode_t mode)
{
        install_in(dir, variant, name, mode);
}

static int load(void)
{
        return plugins_load(&set, dir, getuid(), &diag);
}

static unsigned builtin_count(void)
{
        unsigned n = 0;

        while (policy_builtin[n])
                n++;
        return n;
}

/* The table must start with exactly the built-ins; returns the names that
 * follow them, comma-separated. */
static const char *plugin_names(void)
{
        static char names[512];
        const struct bl_heuristic_ops *const *table = plugins_table(&set);
        unsigned nb = builtin_count(), i;
        size_t used = 0;

        for (i = 0; i < nb; i++)
                ck_assert_ptr_eq(table[i], policy_builtin[i]);
        names[0] = '\0';
        for (; table[i]; i++)
                used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", i > nb ? "," : "",
                                         table[i]->name);
        return names;
}

static const char *trusted_name(uid_t uid)
{
        static char buf[32];

        if (uid == 0)
                return "root";
        snprintf(buf, sizeof(buf), "uid %u", (unsigned)uid);
        return buf;
}

static void assert_one_refusal(const char *file, const char *reason)
{
        char expected[BL_DIAG_LEN];

        snprintf(expected, sizeof(expected), "plugin %s: %s; not loaded", path_in(dir, file), reason);
        ck_assert_uint_eq(diag_count(&diag), 1);
        ck_assert_str_eq(diag.msg[0], expected);
}

static void assert_dir_refused(const char *path, const char *reason)
{
        char expected[BL_DIAG_LEN];

        snprintf(expected, sizeof(expected), "plugin directory %s: %s; no plugins loaded", path, reason);
        ck_assert_uint_eq(diag_count(&diag), 1);
        ck_assert_str_eq(diag.msg[0], expected);
        ck_assert_uint_eq(set.n, 0);
        ck_assert_ptr_eq(plugins_table(&set), policy_builtin);
}

/* Whether the dynamic loader has this file mapped (matched by inode). */
static bool is_mapped(const char *path)
{
        void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);

        if (!h)
                return false;
        dlclose(h);
        return true;
}

START_TEST(test_good_plugin_scores)
{
        const struct bl_cpu_sample cpus[] = {
                { .cpu = 0, .online = true, .busy = 0.5f, .capacity = 512, .max_capacity = 512 },
                { .cpu = 1, .online = true, .busy = 0.375f, .capacity = 1024, .max_capacity = 1024 },
                { .cpu = 2, .online = false, .busy = 1.0f, .capacity = 1024, .max_capacity = 1024 },
        };
        const struct bl_sample sample = { .now = 40000, .interval = 20000, .ncpus = 3, .cpu = cpus };
        const struct bl_heuristic_ops *ops;
        _cleanup_free_ void *state = NULL;
        double params[BL_POLICY_MAX_PARAMS];

        install("good", "boost.so", 0644);
        ck_assert_int_eq(load(), 1);
        ck_assert_uint_eq(diag_count(&diag), 0);
        ck_assert_str_eq(plugin_names(), "test-boost");
        ck_assert_uint_eq(set.n, 1);
        ck_assert_str_eq(set.plugins[0].file, "boost.so");

        ops = heuristic_find(plugins_table(&set), "test-boost");
        ck_assert_ptr_nonnull(ops);
        ck_assert_uint_eq(ops->nparams, 1);
        ck_assert_str_eq(ops->params[0].key, "factor");
        for (unsigned i = 0; i < ops->nparams; i++)
                params[i] = ops->params[i].def;
        state = calloc(1, ops->state_size);
        ck_assert_ptr_nonnull(state);
        ck_assert_int_eq(ops->init(state, params), 0);
        /* The busiest online CPU: 0.375 x 1024 = 384, times the factor 2. */
        ck_assert_double_eq_tol(ops->score(state, &sample, sample.now), 768.0, 1e-9);

        ck_assert(is_mapped(path_in(dir, "boost.so")));
        plugins_unload(&set);
        ck_assert_uint_eq(set.n, 0);
        ck_assert_ptr_eq(plugins_table(&set), policy_builtin);
        ck_assert(!is_mapped(path_in(dir, "boost.so")));
}
END_TEST

START_TEST(test_missing_dir)
{
        ck_assert_int_eq(plugins_load(&set, path_in(dir, "nonexistent"), getuid(), &diag), 0);
        ck_assert_uint_eq(diag_count(&diag), 0);
        ck_assert_ptr_eq(plugins_table(&set), policy_builtin);
}
END_TEST

START_TEST(test_empty_dir)
{
        ck_assert_int_eq(load(), 0);
        ck_assert_uint_eq(diag_count(&diag), 0);
        ck_assert_ptr_eq(plugins_table(&set), policy_builtin);
        ck_assert_str_eq(plugin_names(), "");
}
END_TEST

START_TEST(test_file_wrong_owner)
{
        install("good", "boost.so", 0644);
        ck_assert_int_eq(chown(path_in(dir, "boost.so"), NOBODY, NOBODY), 0);
        ck_assert_int_eq(plugins_load(&set, dir, 0, &diag), 0);
        assert_one_refusal("boost.so", "owned by uid 65534, not root");
        ck_assert_str_eq(plugin_names(), "");
}
END_TEST

START_TEST(test_file_group_writable)
{
        install("good", "boost.so", 0664);
        ck_assert_int_eq(load(), 0);
        assert_one_refusal("boost.so", "mode 0664: writable by group");
        ck_assert_str_eq(plugin_names(), "");
        ck_assert(!is_mapped(path_in(dir, "boost.so")));
}
END_TEST

START_TEST(test_file_others_writable)
{
        install("good", "boost.so", 0646);
        ck_assert_int_eq(load(), 0);
        assert_one_refusal("boost.so", "mode 0646: writable by others");
        ck_assert_str_eq(plugin_names(), "");
}
END_TEST

START_TEST(test_file_all_writable)
{
        install("good", "boost.so", 0666);
        ck_assert_int_eq(load(), 0);
        assert_one_refusal("boost.so", "mode 0666: writable by group and others");
}
END_TEST

START_TEST(test_dir_others_writable)
{
        install("good", "boost.so", 0644);
        ck_assert_int_eq(chmod(dir, 0757), 0);
        ck_assert_int_eq(load(), 0);
        assert_dir_refused(dir, "mode 0757: writable by others");
}
END_TEST

START_TEST(test_dir_group_writable)
{
        install("good", "boost.so", 0644);
        ck_assert_int_eq(chmod(dir, 0775), 0);
        ck_assert_int_eq(load(), 0);
        assert_dir_refused(dir, "mode 0775: writable by group");
}
END_TEST

/* Works for any user: the directory is ours, but we trust another uid. */
START_TEST(test_dir_untrusted_owner)
{
        char reason[128];
        uid_t trusted = getuid() + 1;

        install("good", "boost.so", 0644);
        ck_assert_int_eq(plugins_load(&set, dir, trusted, &diag), 0);
        snprintf(reason, sizeof(reason), "owned by uid %u, not %s", (unsigned)getuid(),
                 trusted_name(trusted));
        assert_dir_refused(dir, reason);
}
END_TEST

START_TEST(test_dir_wrong_owner)
{
        install("good", "boost.so", 0644);
        ck_assert_int_eq(chown(dir, NOBODY, NOBODY), 0);
        ck_assert_int_eq(plugins_load(&set, dir, 0, &diag), 0);
        assert_dir_refused(dir, "owned by uid 65534, not root");
}
END_TEST

START_TEST(test_dir_symlink)
{
        const char *link = path_in(other, "link");

        install("good", "boost.so", 0644);
        ck_assert_int_eq(symlink(dir, link), 0);
        ck_assert_int_eq(plugins_load(&set, link, getuid(), &diag), 0);
        assert_dir_refused(link, "is a symbolic link");
}
END_TEST

/* Whoever can write to a directory on the way can swap the plugin
 * directory for their own: refused, unless that directory is sticky. */
START_TEST(test_dir_under_writable_parent)
{
        char parent[PATH_MAX], plugins[PATH_MAX + 16], reason[256];
        struct stat st;

        snprintf(parent, sizeof(parent), "%s", path_in(dir, "shared"));
        snprintf(plugins, sizeof(plugins), "%s/plugins", parent);
        ck_assert_int_eq(mkdir(parent, 0755), 0);
        ck_assert_int_eq(mkdir(plugins, 0755), 0);
        install_in(plugins, "good", "boost.so", 0644);
        ck_assert_int_eq(chmod(parent, 0777), 0);
        ck_assert_int_eq(stat(parent, &st), 0);

        ck_assert_int_eq(plugins_load(&set, plugins, getuid(), &diag), 0);
        snprintf(reason, sizeof(reason), "a directory on its path (the one holding \"plugins\") is owned by uid %u "
                 "with mode 0777: someone else could replace it", (unsigned)st.st_uid);
        assert_dir_refused(plugins, reason);

        diag_init(&diag);
        ck_assert_int_eq(chmod(parent, 01777), 0);
        ck_assert_int_eq(plugins_load(&set, plugins, getuid(), &diag), 1);
        ck_assert_uint_eq(diag_count(&diag), 0);
}
END_TEST

START_TEST(test_dir_relative)
{
        install("good", "boost.so", 0644);
        ck_assert_int_eq(plugins_load(&set, "plugins", getuid(), &diag), 0);
        assert_dir_refused("plugins", "not an absolute path");
}
END_TEST

START_TEST(test_file_symlink)
{
        install_in(other, "good", "boost.so", 0644);
        ck_assert_int_eq(symlink(path_in(other, "boost.so"), path_in(dir, "link.so")), 0);
        ck_assert_int_eq(load(), 0);
        assert_one_refusal("link.so", "is a symbolic link");
        ck_assert_str_eq(plugin_names(), "");
        ck_assert(!is_mapped(path_in(other, "boost.so")));
}
END_TEST

START_TEST(test_not_regular)
{
        char expected[BL_DIAG_LEN];

        ck_assert_int_eq(mkdir(path_in(dir, "a-dir.so"), 0755), 0);
        ck_assert_int_eq(mkfifo(path_in(dir, "b-fifo.so"), 0644), 0);
        install("good", "c.so", 0644);
        ck_assert_int_eq(load(), 1);
        ck_assert_uint_eq(diag_count(&diag), 2);
        snprintf(expected, sizeof(expected), "plugin %s: not a regular file (directory); not loaded",
                 path_in(dir, "a-dir.so"));
        ck_assert_str_eq(diag.msg[0], expected);
        snprintf(expected, sizeof(expected), "plugin %s: not a regular file (FIFO); not loaded",
                 path_in(dir, "b-fifo.so"));
        ck_assert_str_eq(diag.msg[1], expected);
        ck_assert_str_eq(plugin_names(), "test-boost");
}
END_TEST

START_TEST(test_plugin_abi)
{
        char reason[64];

        install("plugin-abi", "old.so", 0644);
        ck_assert_int_eq(load(), 0);
        snprintf(reason, sizeof(reason), "ABI 7, this daemon speaks %u", BL_POLICY_ABI);
        assert_one_refusal("old.so", reason);
        ck_assert_str_eq(plugin_names(), "");
        ck_assert(!is_mapped(path_in(dir, "old.so")));
}
END_TEST

START_TEST(test_heuristic_abi)
{
        char reason[64];

        install("heuristic-abi", "new.so", 0644);
        ck_assert_int_eq(load(), 0);
        snprintf(reason, sizeof(reason), "heuristic #1: ABI %u, this daemon speaks %u", BL_POLICY_ABI + 1,
                 BL_POLICY_ABI);
        assert_one_refusal("new.so", reason);
        ck_assert(!is_mapped(path_in(dir, "new.so")));
}
END_TEST

START_TEST(test_missing_symbol)
{
        install("no-symbol", "nosym.so", 0644);
        ck_assert_int_eq(load(), 0);
        assert_one_refusal("nosym.so", "no bl_policy_plugin symbol");
        ck_assert(!is_mapped(path_in(dir, "nosym.so")));
}
END_TEST

START_TEST(test_undefined_reference)
{
        const char *prefix;

        install("undefined", "undef.so", 0644);
        ck_assert_int_eq(load(), 0);
        ck_assert_uint_eq(diag_count(&diag), 1);
        /* The rest is dlerror()'s, without the /proc/self/fd path. */
        prefix = path_in(dir, "undef.so");
        ck_assert_int_eq(strncmp(diag.msg[0], "plugin ", 7), 0);
        ck_assert_int_eq(strncmp(diag.msg[0] + 7, prefix, strlen(prefix)), 0);
        ck_assert_ptr_nonnull(strstr(diag.msg[0], ": undefined symbol: test_plugin_missing"));
        ck_assert_ptr_null(strstr(diag.msg[0], "/proc/self/fd"));
        ck_assert_str_eq(plugin_names(), "");
}
END_TEST

START_TEST(test_clash_builtin)
{
        install("clash", "util.so", 0644);
        ck_assert_int_eq(load(), 0);
        assert_one_refusal("util.so", "heuristic \"util\": a built-in heuristic has that name");
        ck_assert_ptr_eq(heuristic_find(plugins_table(&set), "util"), &heuristic_util);
}
END_TEST

START_TEST(test_clash_earlier_plugin)
{
        install("good", "a.so", 0644);
        install("good", "b.so", 0644);
        ck_assert_int_eq(load(), 1);
        assert_one_refusal("b.so", "heuristic \"test-boost\": already loaded from a.so");
        ck_assert_str_eq(plugin_names(), "test-boost");
        ck_assert(is_mapped(path_in(dir, "a.so")));
        ck_assert(!is_mapped(path_in(dir, "b.so")));
}
END_TEST

START_TEST(test_bad_param)
{
        install("bad-param", "param.so", 0644);
        ck_assert_int_eq(load(), 0);
        assert_one_refusal("param.so", "heuristic \"test-boost\": parameter \"factor\": default 0.5 outside "
                           "its range [1, 4]");
}
END_TEST

START_TEST(test_other_names_ignored)
{
        install("good", "boost.so", 0644);
        /* Not plugins by name; some would be refused if they were tried. */
        install("good", "boost.so.1", 0666);
        install("plugin-abi", ".hidden.so", 0644);
        install("no-symbol", "README", 0644);
        install("good", "so", 0644);
        install("good", ".so", 0644);
        install("good", "boost.so~", 0644);
        ck_assert_int_eq(load(), 1);
        ck_assert_uint_eq(diag_count(&diag), 0);
        ck_assert_str_eq(plugin_names(), "test-boost");
}
END_TEST

/* Name order, not directory order; a refused file stops nothing. */
START_TEST(test_refusal_does_not_stop_others)
{
        char reason[64];

        install("good", "z-boost.so", 0644);
        install("plugin-abi", "m-old.so", 0644);
        install("second", "b-second.so", 0644);
        ck_assert_int_eq(load(), 2);
        snprintf(reason, sizeof(reason), "ABI 7, this daemon speaks %u", BL_POLICY_ABI);
        assert_one_refusal("m-old.so", reason);
        ck_assert_str_eq(plugin_names(), "test-second,test-boost");
        ck_assert_uint_eq(set.n, 2);
        ck_assert_str_eq(set.plugins[0].file, "b-second.so");
        ck_assert_str_eq(set.plugins[1].file, "z-boost.so");
        ck_assert_ptr_eq(heuristic_find(plugins_table(&set), "test-second"),
                         set.plugins[0].plugin->heuristics[0]);
        ck_assert_ptr_eq(heuristic_find(plugins_table(&set), "test-boost"),
                         set.plugins[1].plugin->heuristics[0]);
}
END_TEST

/* A second directory adds to the set; loading the first again adds nothing. */
START_TEST(test_load_twice)
{
        install("good", "boost.so", 0644);
        install_in(other, "second", "second.so", 0644);
        ck_assert_int_eq(load(), 1);
        ck_assert_int_eq(plugins_load(&set, other, getuid(), &diag), 1);
        ck_assert_uint_eq(diag_count(&diag), 0);
        ck_assert_str_eq(plugin_names(), "test-boost,test-second");

        ck_assert_int_eq(load(), 0);
        ck_assert_uint_eq(diag_count(&diag), 1);
        ck_assert_ptr_nonnull(strstr(diag.msg[0], "boost.so: this file, or another object known as "
                                     "/proc/self/fd/"));
        ck_assert_ptr_nonnull(strstr(diag.msg[0], ", is loaded already; not loaded"));
        ck_assert_str_eq(plugin_names(), "test-boost,test-second");
}
END_TEST

/* plugin_check() on descriptors in memory: every rule, one at a time. */

static int dummy_init(void *state, const double *params)
{
        return 0;
}

static double dummy_score(void *state, const struct bl_sample *s, bl_usec_t now)
{
        return 0.0;
}

static const struct bl_policy_param one_param[] = {
        { .key = "level", .unit = "capacity", .def = 100, .min = 0, .max = 1024, .integer = true },
};

/* Each entry overrides one field of a good descriptor. */
#pragma GCC diagnostic ignored "-Woverride-init"
#define OPS(...) { .abi = BL_POLICY_ABI, .name = "fine", .params = one_param, .nparams = 1, \
                   .init = dummy_init, .score = dummy_score, __VA_ARGS__ }
#define PARAMS(...) .params = (const struct bl_policy_param[]){ __VA_ARGS__ }

static const struct bl_heuristic_ops bad_heuristics[] = {
        OPS(.abi = 1000),
        OPS(.name = NULL),
        OPS(.name = ""),
        OPS(.name = "Fine"),
        OPS(.name = "fine one"),
        OPS(.name = "x234567890123456789012345678901x"),
        OPS(.name = "bad\nname"),
        OPS(.score = NULL),
        OPS(.nparams = BL_POLICY_MAX_PARAMS + 1),
        OPS(.params = NULL),
        OPS(PARAMS({ .key = NULL, .def = 1, .min = 0, .max = 2 })),
        OPS(PARAMS({ .key = "", .def = 1, .min = 0, .max = 2 })),
        OPS(PARAMS({ .key = "half life", .def = 1, .min = 0, .max = 2 })),
        OPS(PARAMS({ .key = "weight", .def = 1, .min = 0, .max = 2 })),
        OPS(PARAMS({ .key = "a", .def = 1, .min = 0, .max = 2 },
                   { .key = "a", .def = 0, .min = 0, .max = 2 }),
            .nparams = 2),
        OPS(PARAMS({ .key = "a", .def = 1, .min = 2, .max = 0 })),
        OPS(PARAMS({ .key = "a", .def = 3, .min = 0, .max = 2 })),
        OPS(PARAMS({ .key = "a", .def = -1, .min = 0, .max = 2 })),
        OPS(PARAMS({ .key = "a", .def = NAN, .min = 0, .max = 2 })),
        OPS(PARAMS({ .key = "a", .def = 1.5, .min = 0, .max = 2, .integer = true })),
        OPS(.name = "pelt"),
};

static const char *const bad_heuristic_reasons[] = {
        NULL,   /* formatted in the test: it names BL_POLICY_ABI */
        "heuristic #1: no name",
        "heuristic #1: name \"\" is not 1 to 31 characters of a-z, 0-9, '_' and '-'",
        "heuristic #1: name \"Fine\" is not 1 to 31 characters of a-z, 0-9, '_' and '-'",
        "heuristic #1: name \"fine one\" is not 1 to 31 characters of a-z, 0-9, '_' and '-'",
        "heuristic #1: name \"x234567890123456789012345678901x\" is not 1 to 31 characters of a-z, 0-9, "
                "'_' and '-'",
        "heuristic #1: name \"bad?name\" is not 1 to 31 characters of a-z, 0-9, '_' and '-'",
        "heuristic \"fine\": no score function",
        "heuristic \"fine\": 9 parameters, at most 8",
        "heuristic \"fine\": nparams is 1 but params is NULL",
        "heuristic \"fine\": parameter #1 has no key",
        "heuristic \"fine\": parameter key \"\" is not 1 to 31 characters of a-z, 0-9, '_' and '-'",
        "heuristic \"fine\": parameter key \"half life\" is not 1 to 31 characters of a-z, 0-9, '_' and '-'",
        "heuristic \"fine\": parameter key \"weight\" is reserved",
        "heuristic \"fine\": parameter \"a\" declared twice",
        "heuristic \"fine\": parameter \"a\": default 1 outside its range [2, 0]",
        "heuristic \"fine\": parameter \"a\": default 3 outside its range [0, 2]",
        "heuristic \"fine\": parameter \"a\": default -1 outside its range [0, 2]",
        "heuristic \"fine\": parameter \"a\": default nan outside its range [0, 2]",
        "heuristic \"fine\": parameter \"a\": default 1.5 is not an integer",
        "heuristic \"pelt\": a built-in heuristic has that name",
};

START_TEST(test_check_heuristic)
{
        const struct bl_heuristic_ops *list[] = { &bad_heuristics[_i] };
        const struct bl_policy_plugin plugin = { .abi = BL_POLICY_ABI, .nheuristics = 1, .heuristics = list };
        char err[BL_DIAG_LEN] = "", abi[BL_DIAG_LEN];

        ck_assert_int_eq(plugin_check(&set, &plugin, err, sizeof(err)), -EINVAL);
        if (_i == 0) {
                snprintf(abi, sizeof(abi), "heuristic #1: ABI 1000, this daemon speaks %u", BL_POLICY_ABI);
                ck_assert_str_eq(err, abi);
        } else
                ck_assert_str_eq(err, bad_heuristic_reasons[_i]);
}
END_TEST

static const struct bl_heuristic_ops fine = OPS();
static const struct bl_heuristic_ops fine_too = OPS(.name = "fine_2-b", .params = NULL, .nparams = 0);

START_TEST(test_check_plugin)
{
        const struct bl_heuristic_ops *good[] = { &fine, &fine_too };
        const struct bl_heuristic_ops *twice[] = { &fine, &fine };
        const struct bl_heuristic_ops *hole[] = { &fine, NULL };
        const struct bl_heuristic_ops *many[BL_MAX_KNOWN_HEURISTICS];
        struct bl_policy_plugin plugin = { .abi = BL_POLICY_ABI, .nheuristics = 2, .heuristics = good };
        char err[BL_DIAG_LEN] = "", expected[BL_DIAG_LEN];

        ck_assert_int_eq(plugin_check(&set, &plugin, err, sizeof(err)), 0);

        plugin.abi = BL_POLICY_ABI + 1;
        ck_assert_int_eq(plugin_check(&set, &plugin, err, sizeof(err)), -EINVAL);
        snprintf(expected, sizeof(expected), "ABI %u, this daemon speaks %u", BL_POLICY_ABI + 1,
                 BL_POLICY_ABI);
        ck_assert_str_eq(err, expected);
        plugin.abi = BL_POLICY_ABI;

        plugin.heuristics = twice;
        ck_assert_int_eq(plugin_check(&set, &plugin, err, sizeof(err)), -EINVAL);
        ck_assert_str_eq(err, "heuristic \"fine\": listed twice");

        plugin.heuristics = hole;
        ck_assert_int_eq(plugin_check(&set, &plugin, err, sizeof(err)), -EINVAL);
        ck_assert_str_eq(err, "heuristic #2: missing (NULL)");

        plugin.heuristics = NULL;
        ck_assert_int_eq(plugin_check(&set, &plugin, err, sizeof(err)), -EINVAL);
        ck_assert_str_eq(err, "lists no heuristics");
        plugin.heuristics = good;
        plugin.nheuristics = 0;
        ck_assert_int_eq(plugin_check(&set, &plugin, err, sizeof(err)), -EINVAL);
        ck_assert_str_eq(err, "lists no heuristics");

        /* More than the configuration can hold, counting the built-ins. */
        for (unsigned i = 0; i < BL_MAX_KNOWN_HEURISTICS; i++)
                many[i] = &fine;
        plugin.heuristics = many;
        plugin.nheuristics = BL_MAX_KNOWN_HEURISTICS - builtin_count() + 1;
        ck_assert_int_eq(plugin_check(&set, &plugin, err, sizeof(err)), -EINVAL);
        snprintf(expected, sizeof(expected), "%u heuristics, but only %u more fit (the configuration takes "
                 "at most %u)", plugin.nheuristics, BL_MAX_KNOWN_HEURISTICS - builtin_count(),
                 BL_MAX_KNOWN_HEURISTICS);
        ck_assert_str_eq(err, expected);
        plugin.nheuristics = 4000000000u;
        ck_assert_int_eq(plugin_check(&set, &plugin, err, sizeof(err)), -EINVAL);
}
END_TEST

static Suite *plugins_suite(void)
{
        Suite *s = suite_create("plugins");
        TCase *tc;

        tc = tcase_create("load");
        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, test_good_plugin_scores);
        tcase_add_test(tc, test_missing_dir);
        tcase_add_test(tc, test_empty_dir);
        tcase_add_test(tc, test_file_group_writable);
        tcase_add_test(tc, test_file_others_writable);
        tcase_add_test(tc, test_file_all_writable);
        tcase_add_test(tc, test_dir_others_writable);
        tcase_add_test(tc, test_dir_group_writable);
        tcase_add_test(tc, test_dir_untrusted_owner);
        tcase_add_test(tc, test_dir_symlink);
        tcase_add_test(tc, test_dir_under_writable_parent);
        tcase_add_test(tc, test_dir_relative);
        tcase_add_test(tc, test_file_symlink);
        tcase_add_test(tc, test_not_regular);
        tcase_add_test(tc, test_plugin_abi);
        tcase_add_test(tc, test_heuristic_abi);
        tcase_add_test(tc, test_missing_symbol);
        tcase_add_test(tc, test_undefined_reference);
        tcase_add_test(tc, test_clash_builtin);
        tcase_add_test(tc, test_clash_earlier_plugin);
        tcase_add_test(tc, test_bad_param);
        tcase_add_test(tc, test_other_names_ignored);
        tcase_add_test(tc, test_refusal_does_not_stop_others);
        tcase_add_test(tc, test_load_twice);
        suite_add_tcase(s, tc);

        /* Files and directories of another owner take root to make. */
        if (geteuid() == 0) {
                tc = tcase_create("root");
                tcase_add_checked_fixture(tc, setup, teardown);
                tcase_add_test(tc, test_file_wrong_owner);
                tcase_add_test(tc, test_dir_wrong_owner);
                suite_add_tcase(s, tc);
        } else {
                printf("# not root: skipping test_file_wrong_owner and test_dir_wrong_owner\n");
                fflush(stdout);
        }

        tc = tcase_create("check");
        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_loop_test(tc, test_check_heuristic, 0, sizeof(bad_heuristics) / sizeof(bad_heuristics[0]));
        tcase_add_test(tc, test_check_plugin);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(plugins_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
