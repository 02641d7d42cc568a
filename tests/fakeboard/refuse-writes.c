/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A preload for tests: makes write(2) fail the way a kernel refuses a sysfs
 * write (EBUSY while a CPU is being hot-plugged, ...), which umockdev cannot
 * play. fakeboard_spawn() puts it before umockdev's preload, whose write()
 * calls libc's directly and so would bypass anything loaded after it.
 *
 * The rules are in the file $FAKEBOARD_REFUSE names, one per line:
 *     <path suffix> <errno name or number> <count>
 * A write to a descriptor whose file's real path (symlinks resolved: the
 * testbed's, since umockdev redirected the open) ends with the suffix, at a
 * '/', fails with that errno while count > 0; each refusal decrements count
 * in the file. The file is read again on every write, under an flock, so a
 * test can arm a rule while the process runs.
 *
 * With $FAKEBOARD_WRITE_LOG set, it also appends the real path of every
 * file written to (not pipes or sockets) to that file, one per line: what
 * the process needs to be allowed to write (tests/integration/check_sandbox.c).
 *
 * With $FAKEBOARD_WRITE_DELAY_US set, every write to a file under a /sys/
 * (the testbed's, as resolved) first sleeps that long: a slow kernel, which
 * widens the time a switch takes for tests that aim at its middle.
 *
 * Only raw system calls here: the process's write() is this one, its open()
 * and readlink() umockdev's, and this may run in a signal handler.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define RULES_MAX 4096

typedef ssize_t (*write_fn)(int fd, const void *buf, size_t count);

static const struct {
        const char *name;
        int value;
} errno_names[] = {
        { "EBUSY", EBUSY },   { "EINVAL", EINVAL }, { "EACCES", EACCES }, { "EIO", EIO },
        { "EPERM", EPERM },   { "EAGAIN", EAGAIN }, { "ENODEV", ENODEV }, { "ENOSPC", ENOSPC },
        { "EROFS", EROFS },   { "ENXIO", ENXIO },
};

static int errno_from_name(const char *word, size_t len)
{
        int value = 0;

        for (size_t i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
                if (strlen(errno_names[i].name) == len && memcmp(word, errno_names[i].name, len) == 0)
                        return errno_names[i].value;
        for (size_t i = 0; i < len; i++) {
                if (word[i] < '0' || word[i] > '9' || value > 100000)
                        return 0;
                value = value * 10 + (word[i] - '0');
        }
        return value;
}

static bool ends_with_path(const char *path, size_t path_len, const char *suffix, size_t len)
{
        if (len == 0 || len > path_len || memcmp(path + path_len - len, suffix, len) != 0)
                return false;
        return suffix[0] == '/' || len == path_len || path[path_len - len - 1] == '/';
}

/* Splits "word word word" at spaces; returns how many words it found (at most 3). */
static unsigned split(const char *line, size_t len, const char *word[3], size_t word_len[3])
{
        unsigned n = 0;
        size_t i = 0;

        while (i < len && n < 3) {
                while (i < len && line[i] == ' ')
                        i++;
                if (i == len)
                        break;
                word[n] = line + i;
                while (i < len && line[i] != ' ')
                        i++;
                word_len[n] = (size_t)(line + i - word[n]);
                n++;
        }
        return n;
}

/* Looks for a live rule for 'path' in the rules; when one applies, counts
 * it down in 'rules' (rewriting its line in place, which may shorten the
 * text: *len is updated) and returns its errno. */
static int take_refusal(char *rules, size_t *len, const char *path, size_t path_len)
{
        size_t start = 0;

        while (start < *len) {
                char *line = rules + start, *nl = memchr(line, '\n', *len - start);
                size_t line_len = nl ? (size_t)(nl - line) : *len - start;
                const char *word[3];
                size_t word_len[3];
                unsigned long count = 0;
                char digits[24];
                size_t ndigits = 0, count_off, count_len;
                int err;

                start += line_len + 1;
                if (split(line, line_len, word, word_len) != 3 ||
                    !ends_with_path(path, path_len, word[0], word_len[0]))
                        continue;
                err = errno_from_name(word[1], word_len[1]);
                for (size_t i = 0; i < word_len[2]; i++) {
                        if (word[2][i] < '0' || word[2][i] > '9')
                                return 0;
                        count = count * 10 + (unsigned long)(word[2][i] - '0');
                }
                if (err == 0 || count == 0)
                        continue;
                count--;
                do
                        digits[ndigits++] = (char)('0' + count % 10);
                while ((count /= 10) > 0);
                count_off = (size_t)(word[2] - rules);
                count_len = word_len[2];
                /* The new count is never longer than the old one. */
                for (size_t i = 0; i < ndigits; i++)
                        rules[count_off + i] = digits[ndigits - 1 - i];
                memmove(rules + count_off + ndigits, rules + count_off + count_len,
                        *len - count_off - count_len);
                *len -= count_len - ndigits;
                return err;
        }
        return 0;
}

#define PATH_BUF 4096

/* The real path of the file open at 'fd' (its length), or 0 for pipes,
 * sockets and anything unreadable. */
static size_t fd_path(int fd, char *path, size_t size)
{
        char link[64] = "/proc/self/fd/";
        int digits = 0;
        long n;

        if (fd < 0)
                return 0;
        for (int v = fd; v > 0 || digits == 0; v /= 10)
                digits++;
        for (int i = digits - 1, v = fd; i >= 0; i--, v /= 10)
                link[14 + i] = (char)('0' + v % 10);
        n = syscall(SYS_readlinkat, AT_FDCWD, link, path, size - 1);
        if (n <= 0 || path[0] != '/')
                return 0;
        path[n] = '\0';
        return (size_t)n;
}

static void delay_sysfs_write(const char *path)
{
        const char *text = getenv("FAKEBOARD_WRITE_DELAY_US");
        unsigned long us = 0;
        struct timespec ts;

        if (!text || !strstr(path, "/sys/"))
                return;
        for (; *text >= '0' && *text <= '9' && us < 10000000; text++)
                us = us * 10 + (unsigned long)(*text - '0');
        ts.tv_sec = (time_t)(us / 1000000);
        ts.tv_nsec = (long)(us % 1000000) * 1000;
        if (us > 0)
                syscall(SYS_nanosleep, &ts, NULL);
}

static void log_write(const char *path, size_t path_len)
{
        const char *log_path = getenv("FAKEBOARD_WRITE_LOG");
        int log_fd;

        if (!log_path || !*log_path)
                return;
        log_fd = (int)syscall(SYS_openat, AT_FDCWD, log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
                              0600);
        if (log_fd < 0)
                return;
        /* O_APPEND and one write per line: lines of threads do not mix. */
        {
                char line[PATH_BUF + 1];

                memcpy(line, path, path_len);
                line[path_len] = '\n';
                syscall(SYS_write, log_fd, line, path_len + 1);
        }
        syscall(SYS_close, log_fd);
}

/* The errno a write to the file at 'path' must fail with, or 0 to let it through. */
static int refusal_for(const char *path, size_t path_len)
{
        const char *rules_path = getenv("FAKEBOARD_REFUSE");
        char rules[RULES_MAX];
        long n;
        size_t len;
        int rules_fd, err = 0;

        if (!rules_path || !*rules_path)
                return 0;
        rules_fd = (int)syscall(SYS_openat, AT_FDCWD, rules_path, O_RDWR | O_CLOEXEC | O_NOCTTY);
        if (rules_fd < 0)
                return 0;
        if (syscall(SYS_flock, rules_fd, LOCK_EX) == 0) {
                n = syscall(SYS_pread64, rules_fd, rules, sizeof(rules), 0);
                if (n > 0 && (size_t)n < sizeof(rules)) {
                        len = (size_t)n;
                        err = take_refusal(rules, &len, path, path_len);
                        if (err && (syscall(SYS_pwrite64, rules_fd, rules, len, 0) != (long)len ||
                                    syscall(SYS_ftruncate, rules_fd, (long)len) != 0))
                                err = 0;        /* counted down or not refused */
                }
        }
        syscall(SYS_close, rules_fd);
        return err;
}

__attribute__((visibility("default"))) ssize_t write(int fd, const void *buf, size_t count)
{
        static write_fn next;
        int saved = errno, err;
        char path[PATH_BUF];
        size_t path_len;

        if (!next)
                next = (write_fn)dlsym(RTLD_NEXT, "write");
        path_len = fd_path(fd, path, sizeof(path));
        if (path_len > 0) {
                delay_sysfs_write(path);
                log_write(path, path_len);
        }
        err = path_len ? refusal_for(path, path_len) : 0;
        if (err) {
                errno = err;
                return -1;
        }
        errno = saved;
        if (!next) {
                errno = ENOSYS;
                return -1;
        }
        return next(fd, buf, count);
}
