/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "core/config.h"
#include "daemon/saved-state.h"

/* The first line says the format: a file without it, or of another
 * version, is not one this daemon can trust to put the CPUs back. */
#define SAVED_STATE_MAGIC "# bigLittle saved-state v"
#define SAVED_STATE_VERSION 1
#define SAVED_STATE_HEADER                                                                             \
        "# the CPU state bigLittled found at start, put back if it dies without restoring\n"          \
        "# it; removed when it exits cleanly. Written by bigLittled, do not edit.\n"
/* Room for the header, comments and SAVED_STATE_MAX of settings. */
#define SAVED_STATE_FILE_MAX (64u << 10)
#define DAEMON_COMM "bigLittled"

static bool key_valid(const char *key, size_t len)
{
        if (len == 0 || len >= BL_NAME_MAX)
                return false;
        for (size_t i = 0; i < len; i++)
                if (!((key[i] >= 'a' && key[i] <= 'z') || (key[i] >= '0' && key[i] <= '9') || key[i] == '_'))
                        return false;
        return true;
}

/* The backend's text must be key=value lines and must not set the keys
 * that belong to this file. */
static bool text_valid(const char *text)
{
        for (const char *line = text; *line;) {
                size_t len = strcspn(line, "\n");
                const char *eq = memchr(line, '=', len);

                if (!eq || !key_valid(line, (size_t)(eq - line)) || strncmp(line, "backend=", 8) == 0 ||
                    strncmp(line, "pid=", 4) == 0)
                        return false;
                line += len;
                line += *line == '\n';
        }
        return true;
}

struct saved_text {
        const char *backend;
        const char *text;
};

static int write_saved(FILE *f, const void *userdata)
{
        const struct saved_text *st = userdata;
        size_t len = strlen(st->text);

        fprintf(f, "%s%d\n%s", SAVED_STATE_MAGIC, SAVED_STATE_VERSION, SAVED_STATE_HEADER);
        fprintf(f, "backend=%s\npid=%ld\n%s", st->backend, (long)getpid(), st->text);
        if (len > 0 && st->text[len - 1] != '\n')
                fputc('\n', f);
        return 0;
}

int saved_state_write(const char *dir, const char *backend, const char *text)
{
        const struct saved_text st = { .backend = backend, .text = text };

        if (!key_valid(backend, strlen(backend)) || !text_valid(text))
                return -EINVAL;
        return write_file_atomic(dir, SAVED_STATE_FILE, write_saved, &st);
}

bool saved_state_exists(const char *dir)
{
        char path[BL_PATH_MAX + 32];
        struct stat st;

        /* lstat(): a link to nothing is there too, to be put aside. */
        return path_join(path, sizeof(path), dir, SAVED_STATE_FILE) == 0 && lstat(path, &st) == 0;
}

int saved_state_remove(const char *dir)
{
        char path[BL_PATH_MAX + 32];
        int r = path_join(path, sizeof(path), dir, SAVED_STATE_FILE);

        if (r < 0)
                return r;
        return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
}

static int parse_pid(const char *value, pid_t *ret)
{
        long long v;

        if (value[0] < '1' || value[0] > '9' || parse_int(value, &v) < 0 || v > INT32_MAX)
                return -EINVAL;
        *ret = (pid_t)v;
        return 0;
}

/* One line of the file; returns -EINVAL when it is bad (and says why). */
static int parse_line(struct saved_state *s, const char *path, unsigned lineno, char *line, size_t *text_len,
                      struct bl_diag *diag)
{
        char *eq = strchr(line, '=');
        const char *value;
        size_t keylen, linelen;

        if (!eq || !key_valid(line, (size_t)(eq - line))) {
                /* What is on the line is not repeated: the file may be
                 * another one put in its place. */
                diag_at(diag, path, lineno, "expected key=value");
                return -EINVAL;
        }
        keylen = (size_t)(eq - line);
        value = eq + 1;
        if (keylen == 7 && strncmp(line, "backend", 7) == 0) {
                if (s->backend[0]) {
                        diag_at(diag, path, lineno, "backend given twice");
                        return -EINVAL;
                }
                if (!key_valid(value, strlen(value))) {
                        diag_at(diag, path, lineno, "backend: expected a backend name");
                        return -EINVAL;
                }
                snprintf(s->backend, sizeof(s->backend), "%s", value);
                s->backend_line = lineno;
                return 0;
        }
        if (keylen == 3 && strncmp(line, "pid", 3) == 0) {
                if (s->pid > 0) {
                        diag_at(diag, path, lineno, "pid given twice");
                        return -EINVAL;
                }
                if (parse_pid(value, &s->pid) < 0) {
                        diag_at(diag, path, lineno, "pid: expected a process id");
                        return -EINVAL;
                }
                return 0;
        }
        linelen = strlen(line);
        if (s->nkeys >= SAVED_STATE_MAX_LINES || *text_len + linelen + 2 > sizeof(s->text)) {
                diag_at(diag, path, lineno, "more settings than any backend saves");
                return -EINVAL;
        }
        memcpy(s->key[s->nkeys], line, keylen);
        s->key[s->nkeys][keylen] = '\0';
        s->line[s->nkeys++] = lineno;
        memcpy(s->text + *text_len, line, linelen);
        *text_len += linelen;
        s->text[(*text_len)++] = '\n';
        s->text[*text_len] = '\0';
        return 0;
}

/* Line 1: SAVED_STATE_MAGIC and the version. Returns 0 or -EINVAL (said). */
static int parse_header(const char *path, const char *line, struct bl_diag *diag)
{
        const size_t magic = strlen(SAVED_STATE_MAGIC);
        long long version;

        if (strncmp(line, SAVED_STATE_MAGIC, magic) != 0 || line[magic] < '0' || line[magic] > '9' ||
            parse_int(line + magic, &version) < 0) {
                diag_at(diag, path, 1, "no \"%s%d\" header: not a file bigLittled wrote", SAVED_STATE_MAGIC,
                        SAVED_STATE_VERSION);
                return -EINVAL;
        }
        if (version != SAVED_STATE_VERSION) {
                diag_at(diag, path, 1, "format version %lld; this bigLittled reads version %d only", version,
                        SAVED_STATE_VERSION);
                return -EINVAL;
        }
        return 0;
}

int saved_state_parse(struct saved_state *s, const char *path, char *content, size_t len,
                      struct bl_diag *diag)
{
        size_t text_len = 0;
        unsigned lineno = 0;
        char *line, *next;
        int bad = 0;

        memset(s, 0, sizeof(*s));
        if (strlen(content) != len) {
                diag_at(diag, path, 0, "contains a NUL byte: not a file bigLittled wrote");
                return -EINVAL;
        }
        for (line = content; line && *line; line = next) {
                lineno++;
                next = strchr(line, '\n');
                if (next)
                        *next++ = '\0';
                if (lineno == 1) {
                        if (parse_header(path, line, diag) < 0)
                                return -EINVAL;
                        continue;
                }
                line += strspn(line, " \t");
                if (!line[0] || line[0] == '#')
                        continue;
                if (parse_line(s, path, lineno, line, &text_len, diag) < 0)
                        bad++;
        }
        if (lineno == 0) {
                diag_at(diag, path, 0, "empty: not a file bigLittled wrote");
                return -EINVAL;
        }
        if (!bad && !s->backend[0]) {
                diag_at(diag, path, 0, "no backend= line: not a file bigLittled wrote");
                bad++;
        }
        return bad ? -EINVAL : 0;
}

int saved_state_read(const char *dir, struct saved_state *s, struct bl_diag *diag)
{
        _cleanup_free_ char *content = NULL;
        char path[BL_PATH_MAX + 32], why[256];
        size_t len = 0;
        int r;

        memset(s, 0, sizeof(*s));
        r = path_join(path, sizeof(path), dir, SAVED_STATE_FILE);
        if (r < 0)
                return r;
        /* Only a file we wrote: a link could show another file's lines in
         * the log, a FIFO would hang the start. */
        r = read_regular_file(path, FILE_NOFOLLOW | FILE_PRIVATE, SAVED_STATE_FILE_MAX, &content, &len, why,
                              sizeof(why));
        if (r == -ENOENT)
                return r;
        if (r < 0) {
                diag_at(diag, path, 0, "%s", why);
                return r == -ELOOP || r == -EISDIR || r == -EINVAL || r == -EPERM || r == -EFBIG ? -EINVAL : r;
        }
        return saved_state_parse(s, path, content, len, diag);
}

/* The line of the backend's key its complaint starts with ("online: ..."),
 * or 0 (the file as a whole) when it names none that is there. */
static unsigned line_of_complaint(const struct saved_state *s, const char *detail)
{
        size_t len = strcspn(detail, ":");

        for (unsigned i = 0; i < s->nkeys; i++)
                if (strlen(s->key[i]) == len && strncmp(s->key[i], detail, len) == 0)
                        return s->line[i];
        return 0;
}

/* The length of a backend's complaint without the value it quotes: up to
 * ", got ", else up to the first quote. */
static size_t complaint_len(const char *detail)
{
        const char *got = strstr(detail, ", got ");
        const char *quote = strchr(detail, '"');

        if (got)
                return (size_t)(got - detail);
        return quote ? (size_t)(quote - detail) : strlen(detail);
}

/* A pid may have been reused since: only a process that is a bigLittled
 * counts. Where its name cannot be read, a live pid is taken as one. */
static bool writer_still_runs(pid_t pid)
{
        char path[64], comm[64];

        if (pid <= 0 || pid == getpid())
                return false;
        if (kill(pid, 0) < 0 && errno != EPERM)
                return false;
        snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
        if (read_line(path, comm, sizeof(comm)) < 0)
                return true;
        return strcmp(comm, DAEMON_COMM) == 0;
}

static const struct bl_backend_ops *find_backend(const char *name, const struct bl_topology *t)
{
        char why[256];

        for (enum bl_backend_kind k = BL_BACKEND_AUTO; k <= BL_BACKEND_DRYRUN; k++)
                if (k != BL_BACKEND_AUTO && strcmp(name, backend_kind_to_string(k)) == 0)
                        return backend_select(k, t, why, sizeof(why));
        return NULL;
}

static void describe_saved(const struct saved_state *s, char *buf, size_t size)
{
        size_t len = (size_t)snprintf(buf, size, "backend=%s", s->backend);

        if (s->pid > 0 && len < size)
                len += (size_t)snprintf(buf + len, size - len, " pid=%ld", (long)s->pid);
        if (s->text[0] && len + 1 < size)
                buf[len++] = ' ';
        for (const char *p = s->text; *p && len + 1 < size; p++)
                buf[len++] = *p == '\n' ? ' ' : *p;
        while (len > 0 && buf[len - 1] == ' ')
                len--;
        if (size > 0)
                buf[len < size ? len : size - 1] = '\0';
}

/* A file nobody can act on goes aside, so that it neither blocks every
 * start nor is lost to whoever wants to look at it. */
static void put_aside(const char *dir, const char *path, struct bl_diag *diag)
{
        char name[sizeof(SAVED_STATE_BAD_FILE) + 8], bad[BL_PATH_MAX + 48];
        int r = 0;

        /* rename() replaces an earlier saved-state.bad, but not when one
         * of the two is a directory: then the next free ".N" is taken. */
        for (unsigned n = 0; n < 10; n++) {
                if (n == 0)
                        snprintf(name, sizeof(name), "%s", SAVED_STATE_BAD_FILE);
                else
                        snprintf(name, sizeof(name), "%s.%u", SAVED_STATE_BAD_FILE, n);
                r = path_join(bad, sizeof(bad), dir, name);
                if (r == 0 && rename(path, bad) == 0) {
                        diag_at(diag, path, 0, "not used; renamed to %s", bad);
                        return;
                }
                if (r == 0)
                        r = -errno;
                if (r != -EISDIR && r != -ENOTDIR && r != -ENOTEMPTY && r != -EEXIST)
                        break;
        }
        diag_at(diag, path, 0, "cannot be renamed to %s: %s", SAVED_STATE_BAD_FILE, strerror(-r));
}

int saved_state_reconcile(const char *dir, const struct bl_topology *t, struct saved_state_report *rep,
                          struct bl_diag *diag)
{
        _cleanup_free_ struct saved_state *s = malloc(sizeof(*s));
        const struct bl_backend_ops *ops;
        char path[BL_PATH_MAX + 32];
        unsigned line;
        int r;

        rep->saved[0] = rep->detail[0] = '\0';
        if (!s)
                return -ENOMEM;
        r = path_join(path, sizeof(path), dir, SAVED_STATE_FILE);
        if (r < 0)
                return r;
        r = saved_state_read(dir, s, diag);
        if (r == -ENOENT)
                return 0;
        if (r == -EINVAL)
                goto bad;
        if (r < 0)
                return r;
        describe_saved(s, rep->saved, sizeof(rep->saved));
        if (writer_still_runs(s->pid)) {
                snprintf(rep->detail, sizeof(rep->detail),
                         "the bigLittled that saved it (pid %ld) still runs", (long)s->pid);
                return -EBUSY;
        }
        ops = find_backend(s->backend, t);
        if (!ops) {
                diag_at(diag, path, s->backend_line, "backend: not one this bigLittled has");
                goto bad;
        }
        if (!ops->restore_saved) {
                diag_at(diag, path, s->backend_line, "backend %s saves no state to restore", s->backend);
                goto bad;
        }
        r = ops->restore_saved(t, s->text, rep->detail, sizeof(rep->detail));
        if (r == -EINVAL) {
                line = line_of_complaint(s, rep->detail);
                /* The backend may quote the value it refused; it is the
                 * file's content and stays out of the log. */
                diag_at(diag, path, line, "%.*s", (int)complaint_len(rep->detail), rep->detail);
                goto bad;
        }
        if (r < 0)
                return r;
        r = saved_state_remove(dir);
        if (r < 0)
                snprintf(rep->detail + strlen(rep->detail), sizeof(rep->detail) - strlen(rep->detail),
                         "; but %s cannot be removed: %s", path, strerror(-r));
        return 1;
bad:
        put_aside(dir, path, diag);
        return -EINVAL;
}
