/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"

const char *file_type_name(mode_t mode)
{
        switch (mode & S_IFMT) {
        case S_IFREG:
                return "regular file";
        case S_IFDIR:
                return "directory";
        case S_IFIFO:
                return "FIFO";
        case S_IFSOCK:
                return "socket";
        case S_IFCHR:
                return "character device";
        case S_IFBLK:
                return "block device";
        case S_IFLNK:
                return "symbolic link";
        default:
                return "unknown type";
        }
}

static void say(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void say(char *why, size_t size, const char *fmt, ...)
{
        va_list ap;

        if (!why || size == 0)
                return;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
}

/* Private state is only ever written by us, as mkostemp() creates it. */
static int check_private(const struct stat *st, char *why, size_t size)
{
        uid_t euid = geteuid();

        if (st->st_uid != euid) {
                say(why, size, "owned by uid %u, not by uid %u that reads it", (unsigned)st->st_uid,
                    (unsigned)euid);
                return -EPERM;
        }
        if ((st->st_mode & 07777) != 0600) {
                say(why, size, "mode %04o, not 0600", (unsigned)(st->st_mode & 07777));
                return -EPERM;
        }
        return 0;
}

int open_regular(int dirfd, const char *path, unsigned flags, struct stat *ret_st, char *why, size_t size)
{
        _cleanup_close_ int fd = -1;
        struct stat st;
        int r;

        /* O_NONBLOCK: opening a FIFO for reading waits for a writer. */
        fd = openat(dirfd, path,
                    O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (flags & FILE_NOFOLLOW ? O_NOFOLLOW : 0));
        if (fd < 0) {
                r = -errno;
                if (r == -ELOOP && (flags & FILE_NOFOLLOW))
                        say(why, size, "is a symbolic link");
                else
                        say(why, size, "cannot read: %s", strerror(-r));
                return r;
        }
        if (fstat(fd, &st) < 0) {
                r = -errno;
                say(why, size, "cannot read: %s", strerror(-r));
                return r;
        }
        if (!S_ISREG(st.st_mode)) {
                say(why, size, "not a regular file (%s)", file_type_name(st.st_mode));
                return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
        }
        if (flags & FILE_PRIVATE) {
                r = check_private(&st, why, size);
                if (r < 0)
                        return r;
        }
        if (ret_st)
                *ret_st = st;
        r = fd;
        fd = -1;
        return r;
}

int read_regular_file(const char *path, unsigned flags, size_t max, char **ret, size_t *ret_len, char *why,
                      size_t why_size)
{
        _cleanup_close_ int fd = -1;
        _cleanup_free_ char *buf = NULL;
        size_t len = 0, size;
        struct stat st;

        fd = open_regular(AT_FDCWD, path, flags, &st, why, why_size);
        if (fd < 0)
                return fd;
        /* Sized from fstat so a large file is read without copies; sysfs
         * and procfs report 0 or a page and grow as they are read. */
        size = (st.st_size > 0 && (size_t)st.st_size < max ? (size_t)st.st_size : 0) + 4096;
        buf = malloc(size);
        if (!buf)
                return -ENOMEM;
        for (;;) {
                ssize_t n;

                if (len + 1 >= size) {
                        char *p;

                        if (size >= max) {
                                say(why, why_size, "cannot read: %s", strerror(EFBIG));
                                return -EFBIG;
                        }
                        size = size > max / 2 ? max : size * 2;
                        p = realloc(buf, size);
                        if (!p)
                                return -ENOMEM;
                        buf = p;
                }
                n = read(fd, buf + len, size - len - 1);
                if (n < 0) {
                        int r = -errno;

                        if (r == -EINTR)
                                continue;
                        say(why, why_size, "cannot read: %s", strerror(-r));
                        return r;
                }
                if (n == 0)
                        break;
                len += (size_t)n;
        }
        buf[len] = '\0';
        *ret = buf;
        buf = NULL;
        if (ret_len)
                *ret_len = len;
        return 0;
}

int read_file_limit(const char *path, size_t max, char **ret, size_t *ret_len)
{
        return read_regular_file(path, 0, max, ret, ret_len, NULL, 0);
}

int read_file(const char *path, char **ret, size_t *ret_len)
{
        return read_file_limit(path, READ_FILE_MAX, ret, ret_len);
}

int open_kept(const char *path)
{
        /* O_NONBLOCK: a FIFO put in the file's place must not hang the
         * open; every pread() of it then fails (ESPIPE). */
        int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

        return fd < 0 ? -errno : fd;
}

int pread_text(int fd, char *buf, size_t size, size_t *ret_len)
{
        ssize_t n;

        if (size == 0)
                return -EINVAL;
        do
                n = pread(fd, buf, size - 1, 0);
        while (n < 0 && errno == EINTR);
        if (n < 0)
                return -errno;
        buf[n] = '\0';
        if (ret_len)
                *ret_len = (size_t)n;
        return 0;
}

int read_line(const char *path, char *buf, size_t size)
{
        _cleanup_close_ int fd = -1;
        size_t len;
        int r;

        fd = open_kept(path);
        if (fd < 0)
                return fd;
        r = pread_text(fd, buf, size, &len);
        if (r < 0)
                return r;
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
                buf[--len] = '\0';
        return 0;
}

int read_u64_line(const char *path, uint64_t *ret)
{
        char buf[64];
        long long v;
        int r = read_line(path, buf, sizeof(buf));

        if (r < 0)
                return r;
        r = parse_int(buf, &v);
        if (r < 0 || v < 0)
                return -EINVAL;
        *ret = (uint64_t)v;
        return 0;
}

/* The kernel writes plain decimal: "[-+]digits", then at most blanks and a
 * newline. Those are parsed here; strtoll()'s locale-aware, any-base path
 * cost a fifth of the daemon's tick (the cpuidle residencies of every CPU
 * and state, each sample). False for anything else, including values out
 * of range, which parse_int() leaves to strtoll() so that its answers do
 * not change. */
static bool parse_plain_decimal(const char *text, long long *ret)
{
        const unsigned long long limit = (unsigned long long)LLONG_MAX;
        /* unsigned: one comparison tells a digit, without sign extensions;
         * the thermal zones' temperatures are parsed every tick */
        const unsigned char *p = (const unsigned char *)text, *digits;
        unsigned long long v = 0;
        bool negative = false;
        unsigned d;

        if (*p == '-' || *p == '+')
                negative = *p++ == '-';
        digits = p;
        /* 18 digits cannot overflow: no check (a division) per digit for
         * the values the kernel writes every tick. */
        for (; (d = *p - (unsigned)'0') < 10 && p - digits < 18; p++)
                v = v * 10 + d;
        for (; *p >= '0' && *p <= '9'; p++) {
                if (v > (limit + 1 - (unsigned)(*p - '0')) / 10)
                        return false;
                v = v * 10 + (unsigned)(*p - '0');
        }
        if (p == digits || v > limit + negative)
                return false;
        while (*p == ' ' || *p == '\t' || *p == '\n')
                p++;
        if (*p != '\0')
                return false;
        /* -(v - 1) - 1 reaches LLONG_MIN without overflowing on the way. */
        *ret = !negative ? (long long)v : v == 0 ? 0 : -(long long)(v - 1) - 1;
        return true;
}

int hex_digit(int c)
{
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -1;
}

int parse_int(const char *text, long long *ret)
{
        char *end;
        long long v;

        while (*text == ' ' || *text == '\t')
                text++;
        if (*text == '\0')
                return -EINVAL;
        if (parse_plain_decimal(text, ret))
                return 0;
        errno = 0;
        v = strtoll(text, &end, 10);
        if (errno)
                return -errno;
        if (end == text)
                return -EINVAL;
        while (*end == ' ' || *end == '\t' || *end == '\n')
                end++;
        if (*end != '\0')
                return -EINVAL;
        *ret = v;
        return 0;
}

int parse_u32_fields(const char *text, char sep, uint32_t *ret, unsigned n)
{
        for (unsigned i = 0; i < n; i++) {
                uint64_t v = 0;
                const char *start = text;

                for (; *text >= '0' && *text <= '9'; text++) {
                        v = v * 10 + (uint64_t)(*text - '0');
                        if (v > UINT32_MAX)
                                return -EINVAL;
                }
                if (text == start || *text != (i + 1 < n ? sep : '\0'))
                        return -EINVAL;
                if (i + 1 < n)
                        text++;
                ret[i] = (uint32_t)v;
        }
        return 0;
}

int path_join(char *buf, size_t size, const char *dir, const char *name)
{
        int n = snprintf(buf, size, "%s/%s", dir, name);

        return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

void textf(char *buf, size_t size, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(buf, size, fmt, ap);
        va_end(ap);
}

int file_replaceable(const char *path, mode_t *mode)
{
        struct stat st;

        /* As root, a rename replaces a device node or a FIFO as readily as
         * a file ("--record /dev/null" would leave a regular /dev/null
         * behind). A symbolic link is replaced, not followed. */
        if (lstat(path, &st) < 0 || S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))
                return 0;
        if (mode)
                *mode = st.st_mode;
        return S_ISDIR(st.st_mode) ? -EISDIR : -EEXIST;
}

int write_file_atomic(const char *dir, const char *name, int (*fill)(FILE *f, const void *userdata),
                      const void *userdata)
{
        char path[PATH_MAX], temp[PATH_MAX], hidden[NAME_MAX + 1];
        FILE *f;
        int fd, r;

        if (snprintf(hidden, sizeof(hidden), ".%s.XXXXXX", name) >= (int)sizeof(hidden))
                return -ENAMETOOLONG;
        if ((r = path_join(path, sizeof(path), dir, name)) < 0 ||
            (r = path_join(temp, sizeof(temp), dir, hidden)) < 0)
                return r;
        if ((r = file_replaceable(path, NULL)) < 0)
                return r;
        if (mkdir(dir, 0755) < 0 && errno != EEXIST)
                return -errno;
        /* mkostemp() creates the file 0600. */
        fd = mkostemp(temp, O_CLOEXEC);
        if (fd < 0)
                return -errno;
        f = fdopen(fd, "w");
        if (!f) {
                r = -errno;
                close(fd);
                unlink(temp);
                return r;
        }
        r = fill(f, userdata);
        if (r == 0 && (fflush(f) != 0 || ferror(f)))
                r = -EIO;
        if (r == 0 && fsync(fileno(f)) < 0)
                r = -errno;
        if (fclose(f) != 0 && r == 0)
                r = -errno;
        if (r == 0 && rename(temp, path) < 0)
                r = -errno;
        if (r < 0)
                unlink(temp);
        return r;
}
