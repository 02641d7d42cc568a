/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/sysfs.h"
#include "common/fileio.h"

/* Refusals the kernel gives while something else holds the object for a
 * moment; anything else (ENOENT, EISDIR, EROFS, ...) will not change. */
static bool refusal_may_pass(int r)
{
        return r == -EBUSY || r == -EINVAL || r == -EACCES || r == -EIO;
}

static void pause_msec(unsigned ms)
{
        struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)ms * 1000000L };

        while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
                ;
}

/* One write(2) of the whole value, as sysfs wants, then a truncation to
 * it as a shell's '>' makes (sysfs ignores it): a testbed of plain files
 * then holds exactly the value written, not it over a longer old one.
 * Truncating after the write rather than at open() leaves a refused write
 * with the file as it was. */
static int write_value(const char *path, const char *value)
{
        _cleanup_close_ int fd = -1;
        size_t len = strlen(value);
        ssize_t n;

        fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return -errno;
        do
                n = write(fd, value, len);
        while (n < 0 && errno == EINTR);
        if (n < 0)
                return -errno;
        if ((size_t)n != len)
                return -EIO;
        if (ftruncate(fd, (off_t)len) < 0)
                return -errno;
        return 0;
}

int sysfs_write_read_back(const char *path, const char *value, char *now, size_t size, unsigned *tries)
{
        /* Short and bounded: the daemon's loop waits on this. */
        static const unsigned pause_before_retry_ms[SYSFS_WRITE_TRIES - 1] = { 1, 4 };
        unsigned n = 0;
        int r;

        for (;;) {
                r = write_value(path, value);
                n++;
                if (r >= 0 || !refusal_may_pass(r) || n >= SYSFS_WRITE_TRIES)
                        break;
                pause_msec(pause_before_retry_ms[n - 1]);
        }
        if (tries)
                *tries = n;
        if (r < 0)
                return r;
        return read_line(path, now, size);
}

int sysfs_undo_push(struct sysfs_undo *u, const char *path, const char *previous, enum sysfs_check check)
{
        struct sysfs_undo_entry *e;

        if (u->n >= sizeof(u->entries) / sizeof(u->entries[0]))
                return -ENOBUFS;
        e = &u->entries[u->n];
        if ((size_t)snprintf(e->path, sizeof(e->path), "%s", path) >= sizeof(e->path) ||
            (size_t)snprintf(e->value, sizeof(e->value), "%s", previous) >= sizeof(e->value))
                return -ENAMETOOLONG;
        e->check = check;
        u->n++;
        return 0;
}

static bool read_back_matches(const struct sysfs_undo_entry *e, const char *now)
{
        long long want, got;

        if (e->check == SYSFS_CHECK_EQUAL)
                return strcmp(now, e->value) == 0;
        return parse_int(e->value, &want) >= 0 && parse_int(now, &got) >= 0 && got <= want;
}

unsigned sysfs_undo_run(struct sysfs_undo *u)
{
        unsigned failed = 0;

        while (u->n > 0) {
                const struct sysfs_undo_entry *e = &u->entries[--u->n];
                char now[SYSFS_VALUE_MAX];

                if (sysfs_write_read_back(e->path, e->value, now, sizeof(now), NULL) < 0 ||
                    !read_back_matches(e, now))
                        failed++;
        }
        return failed;
}

void cpu_online_path(unsigned cpu, char *buf, size_t size)
{
        snprintf(buf, size, "/sys/devices/system/cpu/cpu%u/online", cpu);
}

static bool cpu_exists(unsigned cpu)
{
        char path[64];

        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u", cpu);
        return access(path, F_OK) == 0;
}

void cpu_present_set(const bl_cpumask *cpus, bl_cpumask *present)
{
        unsigned span = cpumask_span(cpus);

        cpumask_zero(present);
        for (unsigned cpu = 0; cpu < span; cpu++)
                if (cpumask_isset(cpus, cpu) && cpu_exists(cpu))
                        cpumask_set(present, cpu);
}

/* Reads cpuN/online. A CPU without the file cannot go offline and is
 * online; one whose cpuN directory is gone too (unplugged for good) is not.
 * Returns 0, the read's -errno, or -EBADMSG when it reads neither 0 nor 1. */
static int cpu_online_read(unsigned cpu, bool *online)
{
        char path[64], value[16];
        int r;

        cpu_online_path(cpu, path, sizeof(path));
        r = read_line(path, value, sizeof(value));
        if (r == -ENOENT) {
                *online = cpu_exists(cpu);
                return 0;
        }
        if (r < 0)
                return r;
        if (strcmp(value, "1") == 0)
                *online = true;
        else if (strcmp(value, "0") == 0)
                *online = false;
        else
                return -EBADMSG;
        return 0;
}

int cpu_online_write(unsigned cpu, bool online, unsigned *tries)
{
        char path[64], value[16];
        int r;

        cpu_online_path(cpu, path, sizeof(path));
        r = sysfs_write_read_back(path, online ? "1" : "0", value, sizeof(value), tries);
        if (r < 0)
                return r;
        return strcmp(value, online ? "1" : "0") == 0 ? 0 : SYSFS_IGNORED;
}

int cpu_online_read_set(const bl_cpumask *cpus, bl_cpumask *online)
{
        bl_cpumask unreadable;
        unsigned first;

        return cpu_online_read_each(cpus, online, &unreadable, &first);
}

int cpu_online_read_each(const bl_cpumask *cpus, bl_cpumask *online, bl_cpumask *unreadable, unsigned *first)
{
        unsigned span = cpumask_span(cpus);
        int error = 0;

        cpumask_zero(online);
        cpumask_zero(unreadable);
        for (unsigned cpu = 0; cpu < span; cpu++) {
                bool on;
                int r;

                if (!cpumask_isset(cpus, cpu))
                        continue;
                r = cpu_online_read(cpu, &on);
                if (r < 0) {
                        cpumask_set(unreadable, cpu);
                        if (error == 0) {
                                error = r;
                                *first = cpu;
                        }
                } else if (on) {
                        cpumask_set(online, cpu);
                }
        }
        return error;
}

int sysfs_read_khz(const char *path, unsigned *khz)
{
        char value[SYSFS_VALUE_MAX];
        long long v;
        int r;

        r = read_line(path, value, sizeof(value));
        if (r < 0)
                return r;
        r = parse_int(value, &v);
        if (r < 0)
                return r;
        if (v <= 0 || v > (long long)UINT32_MAX)
                return -ERANGE;
        *khz = (unsigned)v;
        return 0;
}

void sysfs_append(char *buf, size_t size, const char *fmt, ...)
{
        size_t len = strnlen(buf, size);
        va_list ap;

        if (len + 1 >= size)
                return;
        va_start(ap, fmt);
        vsnprintf(buf + len, size - len, fmt, ap);
        va_end(ap);
}

void sysfs_describe_writes(const struct sysfs_write_stats *st, char *detail, size_t size)
{
        if (st->writes == 0)
                sysfs_append(detail, size, "; no write");
        else
                sysfs_append(detail, size, "; %u write%s", st->writes, st->writes == 1 ? "" : "s");
        if (st->retries)
                sysfs_append(detail, size, ", %u retr%s", st->retries, st->retries == 1 ? "y" : "ies");
}
