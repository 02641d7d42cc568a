/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading and writing the board's files. Devices the daemon finds through
 * libudev (CPUs, thermal zones) are umockdev devices; everything else
 * (cpufreq policies, the global CPU lists, /proc/stat, /proc/loadavg,
 * /proc/pressure/cpu, cgroups) is a plain file in the testbed.
 *
 * Files the daemon may keep open and pread() are rewritten in place (one
 * pwrite at offset 0, then ftruncate): a rename would leave the daemon's
 * descriptor on the old inode.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fakeboard/board-internal.h"

bl_usec_t fakeboard_now(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (bl_usec_t)ts.tv_sec * BL_USEC_PER_SEC + (bl_usec_t)ts.tv_nsec / 1000;
}

static int vpath(const struct fakeboard *fb, char *buf, size_t size, const char *fmt, va_list ap)
{
        int n = snprintf(buf, size, "%s", fb->root);
        int m;

        if (n < 0 || (size_t)n >= size)
                return -ENAMETOOLONG;
        m = vsnprintf(buf + n, size - (size_t)n, fmt, ap);
        if (m < 0 || (size_t)m >= size - (size_t)n)
                return -ENAMETOOLONG;
        return 0;
}

int __attribute__((format(printf, 4, 5)))
fb_board_path(const struct fakeboard *fb, char *buf, size_t size, const char *fmt, ...)
{
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = vpath(fb, buf, size, fmt, ap);
        va_end(ap);
        return r;
}

int fakeboard_path(const struct fakeboard *fb, const char *path, char *buf, size_t size)
{
        return fb_board_path(fb, buf, size, "%s", path);
}

int fb_write_in_place(const char *path, const char *text, size_t len)
{
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
        size_t done = 0;
        int r = 0;

        if (fd < 0)
                return -errno;
        while (done < len) {
                ssize_t n = pwrite(fd, text + done, len - done, (off_t)done);

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        r = -errno;
                        break;
                }
                done += (size_t)n;
        }
        if (r == 0 && ftruncate(fd, (off_t)len) < 0)
                r = -errno;
        close(fd);
        return r;
}

/* What the board writes to a file it publishes: a test's override wins. */
int fb_publish_text(const struct fakeboard *fb, const char *full, const char *text, size_t len)
{
        for (unsigned i = 0; i < fb->noverrides; i++)
                if (strcmp(fb->overrides[i].path, full) == 0)
                        return fb_write_in_place(full, fb->overrides[i].text, strlen(fb->overrides[i].text));
        return fb_write_in_place(full, text, len);
}

static int board_vprintf(const struct fakeboard *fb, const char *path, const char *fmt, va_list ap)
{
        char full[PATH_MAX], text[2048];
        int n, r;

        r = fb_board_path(fb, full, sizeof(full), "%s", path);
        if (r < 0)
                return r;
        n = vsnprintf(text, sizeof(text), fmt, ap);
        if (n < 0 || (size_t)n >= sizeof(text))
                return -E2BIG;
        return fb_publish_text(fb, full, text, (size_t)n);
}

int __attribute__((format(printf, 3, 4)))
fb_board_printf(const struct fakeboard *fb, const char *path, const char *fmt, ...)
{
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = board_vprintf(fb, path, fmt, ap);
        va_end(ap);
        return r;
}

/* Writes a file of a cpufreq policy's directory. */
int __attribute__((format(printf, 4, 5)))
fb_policy_printf(const struct fakeboard *fb, unsigned policy, const char *name, const char *fmt, ...)
{
        char path[128];
        va_list ap;
        int r;

        if (snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpufreq/policy%u/%s", policy, name) >=
            (int)sizeof(path))
                return -ENAMETOOLONG;
        va_start(ap, fmt);
        r = board_vprintf(fb, path, fmt, ap);
        va_end(ap);
        return r;
}

int fb_read_text(const char *path, char *buf, size_t size)
{
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        ssize_t n;

        if (fd < 0)
                return -errno;
        do
                n = pread(fd, buf, size - 1, 0);
        while (n < 0 && errno == EINTR);
        if (n < 0) {
                int r = -errno;

                close(fd);
                return r;
        }
        close(fd);
        buf[n] = '\0';
        return (int)n;
}

int fb_mkdir_p(const char *path)
{
        char buf[PATH_MAX];
        size_t len = strlen(path);

        if (len >= sizeof(buf))
                return -ENAMETOOLONG;
        memcpy(buf, path, len + 1);
        for (char *p = buf + 1; *p; p++) {
                if (*p != '/')
                        continue;
                *p = '\0';
                if (mkdir(buf, 0755) < 0 && errno != EEXIST)
                        return -errno;
                *p = '/';
        }
        if (mkdir(buf, 0755) < 0 && errno != EEXIST)
                return -errno;
        return 0;
}

void fakeboard_notify(struct fakeboard *fb, const struct fakeboard_event *ev)
{
        if (fb->observer)
                fb->observer(fb, ev, fb->userdata);
}
