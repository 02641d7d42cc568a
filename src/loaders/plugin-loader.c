/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/fileio.h"
#include "core/config.h"
#include "loaders/plugin-loader.h"
#include "policy/builtin.h"

#define PLUGIN_SUFFIX ".so"
#define NAME_LEN_MAX 31

/* The candidates of one directory. Each keeps the descriptor it was
 * checked and loaded through open until the whole directory is done, so that
 * no two files of one pass are ever known to the dynamic loader by the same
 * /proc/self/fd/N name. */
struct entry {
        char *name;
        int fd;
};

struct entries {
        size_t n, allocated;
        struct entry *v;
};

static void entries_free(struct entries *e)
{
        for (size_t i = 0; i < e->n; i++) {
                free(e->v[i].name);
                if (e->v[i].fd >= 0)
                        close(e->v[i].fd);
        }
        free(e->v);
}

static int entries_add(struct entries *e, const char *name)
{
        char *copy;

        if (e->n == e->allocated) {
                size_t allocated = e->allocated ? 2 * e->allocated : 16;
                struct entry *v = reallocarray(e->v, allocated, sizeof(*v));

                if (!v)
                        return -ENOMEM;
                e->v = v;
                e->allocated = allocated;
        }
        copy = strdup(name);
        if (!copy)
                return -ENOMEM;
        e->v[e->n++] = (struct entry){ .name = copy, .fd = -EBADF };
        return 0;
}

static int entry_cmp(const void *a, const void *b)
{
        return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static bool is_plugin_name(const char *name)
{
        size_t len = strlen(name);

        return name[0] != '.' && len > strlen(PLUGIN_SUFFIX) &&
               strcmp(name + len - strlen(PLUGIN_SUFFIX), PLUGIN_SUFFIX) == 0;
}

/* Byte order rather than the locale's: the load order decides which of two
 * plugins offering one name wins, and must not depend on the environment. */
static int list_plugins(int dirfd, struct entries *e)
{
        DIR *d;
        struct dirent *de;
        int fd, r = 0;

        /* closedir() closes the descriptor it is given; the caller keeps its own. */
        fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
        if (fd < 0)
                return -errno;
        d = fdopendir(fd);
        if (!d) {
                r = -errno;
                close(fd);
                return r;
        }
        for (;;) {
                errno = 0;
                de = readdir(d);
                if (!de) {
                        r = -errno;
                        break;
                }
                if (!is_plugin_name(de->d_name))
                        continue;
                r = entries_add(e, de->d_name);
                if (r < 0)
                        break;
        }
        closedir(d);
        if (r == 0 && e->n > 1)
                qsort(e->v, e->n, sizeof(e->v[0]), entry_cmp);
        return r;
}

static const char *who(uid_t uid, char *buf, size_t size)
{
        if (uid == 0)
                return "root";
        snprintf(buf, size, "uid %u", (unsigned)uid);
        return buf;
}

/* The OpenBSD rule (check_file_secrecy), for the directory and each file:
 * only its owner, the trusted user, may change it. */
static bool owner_mode_ok(const struct stat *st, uid_t trusted_uid, char *why, size_t size)
{
        char trusted[32];
        mode_t writable = st->st_mode & (S_IWGRP | S_IWOTH);

        if (st->st_uid != trusted_uid) {
                snprintf(why, size, "owned by uid %u, not %s", (unsigned)st->st_uid,
                         who(trusted_uid, trusted, sizeof(trusted)));
                return false;
        }
        if (writable) {
                snprintf(why, size, "mode %04o: writable by %s", (unsigned)(st->st_mode & 07777),
                         writable == (S_IWGRP | S_IWOTH) ? "group and others" :
                         writable == S_IWGRP ? "group" : "others");
                return false;
        }
        return true;
}

static bool is_valid_name(const char *name)
{
        size_t len = strlen(name);

        if (len == 0 || len > NAME_LEN_MAX)
                return false;
        return strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") == len;
}

/* A name that failed validation, made safe to put in a log line. */
static void printable(const char *in, char *out, size_t size)
{
        size_t i;

        for (i = 0; in[i] && i + 1 < size; i++)
                out[i] = in[i] >= 0x20 && in[i] < 0x7f ? in[i] : '?';
        out[i] = '\0';
}

static int param_check(const struct bl_heuristic_ops *ops, unsigned index, char *err, size_t size)
{
        const struct bl_policy_param *p = &ops->params[index];

        if (!p->key) {
                snprintf(err, size, "heuristic \"%s\": parameter #%u has no key", ops->name, index + 1);
                return -EINVAL;
        }
        if (!is_valid_name(p->key)) {
                char shown[NAME_LEN_MAX + 2];

                printable(p->key, shown, sizeof(shown));
                snprintf(err, size, "heuristic \"%s\": parameter key \"%s\" is not 1 to %u characters of "
                         "a-z, 0-9, '_' and '-'", ops->name, shown, NAME_LEN_MAX);
                return -EINVAL;
        }
        /* [policy.NAME] takes "weight" for the heuristic's weight. */
        if (strcmp(p->key, "weight") == 0) {
                snprintf(err, size, "heuristic \"%s\": parameter key \"weight\" is reserved", ops->name);
                return -EINVAL;
        }
        for (unsigned i = 0; i < index; i++)
                if (strcmp(ops->params[i].key, p->key) == 0) {
                        snprintf(err, size, "heuristic \"%s\": parameter \"%s\" declared twice", ops->name,
                                 p->key);
                        return -EINVAL;
                }
        /* Written so that NaN fails too. */
        if (!(p->min <= p->def && p->def <= p->max)) {
                snprintf(err, size, "heuristic \"%s\": parameter \"%s\": default %g outside its range "
                         "[%g, %g]", ops->name, p->key, p->def, p->min, p->max);
                return -EINVAL;
        }
        if (p->integer && p->def != (double)(long long)p->def) {
                snprintf(err, size, "heuristic \"%s\": parameter \"%s\": default %g is not an integer",
                         ops->name, p->key, p->def);
                return -EINVAL;
        }
        return 0;
}

static int heuristic_check(const struct bl_heuristic_ops *ops, unsigned index, char *err, size_t size)
{
        int r;

        /* Nothing else is read before the ABI matches: in another ABI the
         * fields may lie elsewhere. */
        if (ops->abi != BL_POLICY_ABI) {
                snprintf(err, size, "heuristic #%u: ABI %u, this daemon speaks %u", index + 1, ops->abi,
                         BL_POLICY_ABI);
                return -EINVAL;
        }
        if (!ops->name) {
                snprintf(err, size, "heuristic #%u: no name", index + 1);
                return -EINVAL;
        }
        if (!is_valid_name(ops->name)) {
                char shown[NAME_LEN_MAX + 2];

                printable(ops->name, shown, sizeof(shown));
                snprintf(err, size, "heuristic #%u: name \"%s\" is not 1 to %u characters of a-z, 0-9, "
                         "'_' and '-'", index + 1, shown, NAME_LEN_MAX);
                return -EINVAL;
        }
        if (!ops->score) {
                snprintf(err, size, "heuristic \"%s\": no score function", ops->name);
                return -EINVAL;
        }
        if (ops->nparams > BL_POLICY_MAX_PARAMS) {
                snprintf(err, size, "heuristic \"%s\": %u parameters, at most %u", ops->name, ops->nparams,
                         BL_POLICY_MAX_PARAMS);
                return -EINVAL;
        }
        if (ops->nparams > 0 && !ops->params) {
                snprintf(err, size, "heuristic \"%s\": nparams is %u but params is NULL", ops->name,
                         ops->nparams);
                return -EINVAL;
        }
        for (unsigned i = 0; i < ops->nparams; i++) {
                r = param_check(ops, i, err, size);
                if (r < 0)
                        return r;
        }
        return 0;
}

static unsigned builtin_count(void)
{
        unsigned n = 0;

        while (policy_builtin[n])
                n++;
        return n;
}

static int name_taken(const struct bl_plugin_set *set, const struct bl_policy_plugin *plugin, unsigned index,
                      char *err, size_t size)
{
        const char *name = plugin->heuristics[index]->name;

        for (unsigned i = 0; policy_builtin[i]; i++)
                if (strcmp(policy_builtin[i]->name, name) == 0) {
                        snprintf(err, size, "heuristic \"%s\": a built-in heuristic has that name", name);
                        return -EINVAL;
                }
        for (unsigned i = 0; i < set->n; i++) {
                const struct bl_policy_plugin *other = set->plugins[i].plugin;

                for (unsigned j = 0; j < other->nheuristics; j++)
                        if (strcmp(other->heuristics[j]->name, name) == 0) {
                                snprintf(err, size, "heuristic \"%s\": already loaded from %s", name,
                                         set->plugins[i].file);
                                return -EINVAL;
                        }
        }
        for (unsigned i = 0; i < index; i++)
                if (strcmp(plugin->heuristics[i]->name, name) == 0) {
                        snprintf(err, size, "heuristic \"%s\": listed twice", name);
                        return -EINVAL;
                }
        return 0;
}

int plugin_check(const struct bl_plugin_set *set, const struct bl_policy_plugin *plugin, char *err,
                 size_t size)
{
        unsigned known = builtin_count();
        int r;

        if (plugin->abi != BL_POLICY_ABI) {
                snprintf(err, size, "ABI %u, this daemon speaks %u", plugin->abi, BL_POLICY_ABI);
                return -EINVAL;
        }
        if (plugin->nheuristics == 0 || !plugin->heuristics) {
                snprintf(err, size, "lists no heuristics");
                return -EINVAL;
        }
        /* The configuration keeps settings for this many; more could be
         * loaded but never configured. */
        for (unsigned i = 0; i < set->n; i++)
                known += set->plugins[i].plugin->nheuristics;
        if (known >= BL_MAX_KNOWN_HEURISTICS || plugin->nheuristics > BL_MAX_KNOWN_HEURISTICS - known) {
                unsigned room = known < BL_MAX_KNOWN_HEURISTICS ? BL_MAX_KNOWN_HEURISTICS - known : 0;

                snprintf(err, size, "%u heuristics, but only %u more fit (the configuration takes at "
                         "most %u)", plugin->nheuristics, room, BL_MAX_KNOWN_HEURISTICS);
                return -EINVAL;
        }
        for (unsigned i = 0; i < plugin->nheuristics; i++) {
                if (!plugin->heuristics[i]) {
                        snprintf(err, size, "heuristic #%u: missing (NULL)", i + 1);
                        return -EINVAL;
                }
                r = heuristic_check(plugin->heuristics[i], i, err, size);
                if (r < 0)
                        return r;
                r = name_taken(set, plugin, i, err, size);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* dlerror() names the object by the path it was opened with, which here
 * is /proc/self/fd/N; the caller already names the file. */
static const char *dl_reason(const char *proc_path)
{
        const char *e = dlerror();
        size_t len = strlen(proc_path);

        if (!e)
                return "unknown dynamic loader error";
        if (strncmp(e, proc_path, len) == 0 && strncmp(e + len, ": ", 2) == 0)
                return e + len + 2;
        return e;
}

static int set_add(struct bl_plugin_set *set, const char *file, void *handle, int fd,
                   const struct bl_policy_plugin *plugin)
{
        struct bl_plugin *plugins = reallocarray(set->plugins, set->n + 1, sizeof(*plugins));
        struct bl_plugin *p;

        if (!plugins)
                return -ENOMEM;
        set->plugins = plugins;
        p = &plugins[set->n++];
        snprintf(p->file, sizeof(p->file), "%s", file);
        p->handle = handle;
        p->fd = fd;
        p->plugin = plugin;
        return 0;
}

/* Returns 1 when loaded (the set takes the descriptor), 0 when refused
 * (said in 'why'), -ENOMEM. */
static int plugin_load_one(struct bl_plugin_set *set, int dirfd, struct entry *e, uid_t trusted_uid,
                           char *why, size_t size)
{
        char proc_path[64];
        const struct bl_policy_plugin *plugin;
        struct stat st;
        void *handle;
        int r;

        e->fd = open_regular(dirfd, e->name, FILE_NOFOLLOW, &st, why, size);
        if (e->fd < 0)
                return 0;
        if (!owner_mode_ok(&st, trusted_uid, why, size))
                return 0;

        snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", e->fd);
        /* The dynamic loader hands back an object it has already when the
         * name or the file matches: this file loaded by an earlier pass, or
         * another one that an earlier pass loaded under this name and that
         * stayed (RTLD_NODELETE). Neither is a new plugin. */
        handle = dlopen(proc_path, RTLD_LAZY | RTLD_NOLOAD);
        if (handle) {
                dlclose(handle);
                snprintf(why, size, "this file, or another object known as %s, is loaded already",
                         proc_path);
                return 0;
        }
        handle = dlopen(proc_path, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
                snprintf(why, size, "%s", dl_reason(proc_path));
                return 0;
        }
        plugin = dlsym(handle, BL_POLICY_PLUGIN_SYMBOL);
        if (!plugin) {
                snprintf(why, size, "no %s symbol", BL_POLICY_PLUGIN_SYMBOL);
                dlclose(handle);
                return 0;
        }
        r = plugin_check(set, plugin, why, size);
        if (r < 0) {
                dlclose(handle);
                return 0;
        }
        r = set_add(set, e->name, handle, e->fd, plugin);
        if (r < 0) {
                dlclose(handle);
                return r;
        }
        e->fd = -EBADF;
        return 1;
}

static int table_build(struct bl_plugin_set *set)
{
        const struct bl_heuristic_ops **table;
        size_t n = builtin_count(), k = 0;

        for (unsigned i = 0; i < set->n; i++)
                n += set->plugins[i].plugin->nheuristics;
        table = calloc(n + 1, sizeof(*table));
        if (!table)
                return -ENOMEM;
        for (unsigned i = 0; policy_builtin[i]; i++)
                table[k++] = policy_builtin[i];
        for (unsigned i = 0; i < set->n; i++) {
                const struct bl_policy_plugin *plugin = set->plugins[i].plugin;

                for (unsigned j = 0; j < plugin->nheuristics; j++)
                        table[k++] = plugin->heuristics[j];
        }
        free(set->table);
        set->table = table;
        return 0;
}

/* Opens 'dir' one component at a time from the root, never following a
 * symbolic link, and refuses (-EPERM, 'why' says where) a directory on the
 * way that someone other than root or 'trusted_uid' could change: such a
 * user could swap the plugin directory for one of their own between our
 * check and our open. A sticky directory (/tmp) is fine: nobody else can
 * rename what they do not own there. The last component itself is checked
 * by the caller. Returns the descriptor of 'dir', or -errno. */
static int open_trusted_dir(const char *dir, uid_t trusted_uid, char *why, size_t size)
{
        char path[PATH_MAX];
        char *save = NULL, *comp, *next;
        int fd, r;

        if (dir[0] != '/') {
                snprintf(why, size, "not an absolute path");
                return -EPERM;
        }
        if (strlen(dir) >= sizeof(path))
                return -ENAMETOOLONG;
        strcpy(path, dir);
        fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        for (comp = strtok_r(path, "/", &save); comp; comp = next) {
                struct stat st;
                int child;

                next = strtok_r(NULL, "/", &save);
                if (fstat(fd, &st) < 0) {
                        r = -errno;
                        goto fail;
                }
                if ((st.st_uid != 0 && st.st_uid != trusted_uid) ||
                    ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))) {
                        snprintf(why, size, "a directory on its path (the one holding \"%s\") is owned by uid %u "
                                 "with mode %04o: someone else could replace it", comp, (unsigned)st.st_uid,
                                 (unsigned)(st.st_mode & 07777));
                        r = -EPERM;
                        goto fail;
                }
                child = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (child < 0) {
                        r = -errno;
                        goto fail;
                }
                close(fd);
                fd = child;
        }
        return fd;
fail:
        close(fd);
        return r;
}

int plugins_load(struct bl_plugin_set *set, const char *dir, uid_t trusted_uid, struct bl_diag *diag)
{
        _cleanup_close_ int dirfd = -EBADF;
        _cleanup_(entries_free) struct entries entries = { 0 };
        const char *sep = dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/";
        char why[BL_DIAG_LEN];
        struct stat st;
        int r, loaded = 0;

        dirfd = open_trusted_dir(dir, trusted_uid, why, sizeof(why));
        if (dirfd == -EPERM) {
                diag_add(diag, "plugin directory %s: %s; no plugins loaded", dir, why);
                return 0;
        }
        if (dirfd < 0) {
                int e = -dirfd;

                if (e == ENOENT)
                        return 0;
                /* A symbolic link fails as ENOTDIR (or ELOOP); say which it was. */
                if ((e == ENOTDIR || e == ELOOP) && lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
                        diag_add(diag, "plugin directory %s: is a symbolic link; no plugins loaded", dir);
                else
                        diag_add(diag, "plugin directory %s: %s; no plugins loaded", dir, strerror(e));
                return 0;
        }
        if (fstat(dirfd, &st) < 0) {
                diag_add(diag, "plugin directory %s: %s; no plugins loaded", dir, strerror(errno));
                return 0;
        }
        if (!owner_mode_ok(&st, trusted_uid, why, sizeof(why))) {
                diag_add(diag, "plugin directory %s: %s; no plugins loaded", dir, why);
                return 0;
        }
        r = list_plugins(dirfd, &entries);
        if (r < 0) {
                if (r == -ENOMEM)
                        return r;
                diag_add(diag, "plugin directory %s: %s; no plugins loaded", dir, strerror(-r));
                return 0;
        }
        for (size_t i = 0; i < entries.n; i++) {
                r = plugin_load_one(set, dirfd, &entries.v[i], trusted_uid, why, sizeof(why));
                if (r < 0)
                        break;
                if (r == 0)
                        diag_add(diag, "plugin %s%s%s: %s; not loaded", dir, sep, entries.v[i].name, why);
                loaded += r;
        }
        if (r >= 0 && loaded > 0)
                r = table_build(set);
        return r < 0 ? r : loaded;
}

const struct bl_heuristic_ops *const *plugins_table(const struct bl_plugin_set *set)
{
        return set->table ? set->table : policy_builtin;
}

void plugins_unload(struct bl_plugin_set *set)
{
        for (unsigned i = set->n; i-- > 0;) {
                dlclose(set->plugins[i].handle);
                close(set->plugins[i].fd);
        }
        free(set->plugins);
        free(set->table);
        *set = (struct bl_plugin_set){ 0 };
}
