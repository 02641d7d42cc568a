/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "common/cleanup.h"
#include "common/fileio.h"
#include "loaders/conf-files.h"

#define DROPIN_SUFFIX ".conf"

struct name_list {
        unsigned n;
        char *name[BL_MAX_CONFIG_FILES];
};

static void name_list_free(struct name_list *l)
{
        for (unsigned i = 0; i < l->n; i++)
                free(l->name[i]);
        l->n = 0;
}

static void closedirp(DIR **d)
{
        if (*d)
                closedir(*d);
}

static int compare_names(const void *a, const void *b)
{
        return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_dropin_name(const char *name)
{
        size_t len = strlen(name), suffix = strlen(DROPIN_SUFFIX);

        /* Hidden files are editor and package-manager leftovers. */
        return name[0] != '.' && len > suffix && strcmp(name + len - suffix, DROPIN_SUFFIX) == 0;
}

/* A drop-in linked to the null device masks a file of that name, as in
 * systemd: left out without a word. */
static bool is_null_device(const struct stat *st)
{
        return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3;
}

/* Whether the entry 'name' of 'd' is a drop-in to read: a regular file,
 * following symlinks. What looks like a drop-in but cannot be one is said
 * with its reason; nobody wonders then why a setting has no effect. */
static bool is_dropin_file(DIR *d, const char *dir, const char *name, struct bl_diag *diag)
{
        char path[PATH_MAX];
        struct stat st;
        int r;

        snprintf(path, sizeof(path), "%s/%s", dir, name);
        if (fstatat(dirfd(d), name, &st, 0) < 0) {
                r = -errno;
                /* Warnings: the configuration is used without them. */
                if (r == -ENOENT && fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                    S_ISLNK(st.st_mode))
                        diag_warn_at(diag, path, 0, "skipped: a symbolic link to nothing");
                else
                        diag_warn_at(diag, path, 0, "skipped: %s", strerror(-r));
                return false;
        }
        if (S_ISREG(st.st_mode))
                return true;
        if (!is_null_device(&st))
                diag_warn_at(diag, path, 0, "skipped: not a regular file (%s)", file_type_name(st.st_mode));
        return false;
}

/* Lists the regular *.conf files of 'dir' (following symlinks, so a link to
 * /dev/null masks a file), sorted. A missing directory is an empty list. */
static int list_dropins(const char *dir, unsigned room, struct name_list *l, struct bl_diag *diag)
{
        _cleanup_(closedirp) DIR *d = NULL;
        struct dirent *de;
        int fd;

        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
                if (errno == ENOENT || errno == ENOTDIR)
                        return 0;
                diag_add(diag, "%s: cannot read: %s", dir, strerror(errno));
                return -errno;
        }
        d = fdopendir(fd);
        if (!d) {
                int r = -errno;

                close(fd);
                diag_add(diag, "%s: cannot read: %s", dir, strerror(-r));
                return r;
        }

        for (errno = 0; (de = readdir(d)); errno = 0) {
                if (!is_dropin_name(de->d_name) || !is_dropin_file(d, dir, de->d_name, diag))
                        continue;
                if (l->n >= room) {
                        diag_add(diag, "%s: too many drop-in files (at most %u are read)", dir, room);
                        return -E2BIG;
                }
                l->name[l->n] = strdup(de->d_name);
                if (!l->name[l->n])
                        return -ENOMEM;
                l->n++;
        }
        if (errno) {
                int r = -errno;

                diag_add(diag, "%s: cannot read: %s", dir, strerror(-r));
                return r;
        }
        qsort(l->name, l->n, sizeof(l->name[0]), compare_names);
        return 0;
}

typedef int (*conf_text_fn)(const char *path, const char *text, size_t len, void *userdata);

/* Returns what 'fn' returned for the file, or a negative errno when it
 * could not be read (said in 'diag'). A FIFO or device in a config file's
 * place is refused rather than waited on. */
static int visit_file(const char *path, bool optional, conf_text_fn fn, void *userdata,
                      struct bl_conf_files *files, struct bl_diag *diag)
{
        _cleanup_free_ char *text = NULL;
        char why[256];
        size_t len;
        int r;

        r = read_regular_file(path, 0, READ_FILE_MAX, &text, &len, why, sizeof(why));
        if (r == -ENOENT && optional)
                return 0;
        if (r == -EINVAL) {
                struct stat st;

                /* "--config /dev/null": no file, only the defaults. */
                if (stat(path, &st) == 0 && is_null_device(&st)) {
                        snprintf(files->path[files->n++], sizeof(files->path[0]), "%s", path);
                        return fn(path, "", 0, userdata);
                }
        }
        if (r < 0) {
                diag_add(diag, "%s: %s", path, why);
                return r;
        }
        snprintf(files->path[files->n++], sizeof(files->path[0]), "%s", path);
        return fn(path, text, len, userdata);
}

/* Hands the text of 'path' and then of each of its drop-ins to 'fn', in the
 * order they apply. Returns the sum of what 'fn' returned, or a negative
 * errno when a file could not be read. */
static int visit_files(const char *path, bool optional, conf_text_fn fn, void *userdata,
                       struct bl_conf_files *files, struct bl_diag *diag)
{
        _cleanup_(name_list_free) struct name_list dropins = { 0 };
        char dir[sizeof(files->path[0])];
        int sum = 0, r;

        files->n = 0;
        if (strlen(path) + strlen(".d/") >= sizeof(dir)) {
                diag_add(diag, "%s: cannot read: %s", path, strerror(ENAMETOOLONG));
                return -ENAMETOOLONG;
        }

        r = visit_file(path, optional, fn, userdata, files, diag);
        if (r < 0)
                return r;
        sum += r;

        /* Drop-ins apply even without the main file, as with systemd. */
        snprintf(dir, sizeof(dir), "%s.d", path);
        r = list_dropins(dir, BL_MAX_CONFIG_FILES - files->n, &dropins, diag);
        if (r < 0)
                return r;
        for (unsigned i = 0; i < dropins.n; i++) {
                char file[sizeof(files->path[0])];

                if ((size_t)snprintf(file, sizeof(file), "%s/%s", dir, dropins.name[i]) >= sizeof(file)) {
                        diag_add(diag, "%s/%s: cannot read: %s", dir, dropins.name[i],
                                 strerror(ENAMETOOLONG));
                        return -ENAMETOOLONG;
                }
                r = visit_file(file, false, fn, userdata, files, diag);
                if (r < 0)
                        return r;
                sum += r;
        }
        return sum;
}

struct parse_ctx {
        struct bl_config *c;
        const struct bl_heuristic_ops *const *table;
        struct bl_diag *diag;
};

static int parse_text(const char *path, const char *text, size_t len, void *userdata)
{
        struct parse_ctx *p = userdata;

        return (int)config_parse(p->c, p->table, path, text, len, p->diag);
}

int conf_files_load(struct bl_config *c, const struct bl_heuristic_ops *const *table, const char *path,
                    bool optional, struct bl_conf_files *files, struct bl_diag *diag)
{
        struct parse_ctx ctx = { .c = c, .table = table, .diag = diag };
        int problems;

        problems = visit_files(path, optional, parse_text, &ctx, files, diag);
        if (problems < 0)
                return problems;
        return problems + (int)config_validate(c, diag);
}

struct scan_ctx {
        char *buf;
        size_t size;
};

static int scan_text(const char *path, const char *text, size_t len, void *userdata)
{
        struct scan_ctx *sc = userdata;

        (void)config_scan_plugin_dir(path, text, len, sc->buf, sc->size);
        return 0;
}

int conf_files_plugin_dir(const char *path, bool optional, char *buf, size_t size, struct bl_diag *diag)
{
        struct bl_conf_files files;
        struct scan_ctx sc = { .buf = buf, .size = size };

        buf[0] = '\0';
        return visit_files(path, optional, scan_text, &sc, &files, diag);
}
