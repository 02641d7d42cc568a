/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Writes to sysfs as every backend makes them: tried again while the kernel
 * refuses for a moment, read back, and undone as a whole when a later write
 * of the same change fails. Also the CPU hotplug files. */

#include "core/cpumask.h"

/* Writes at most this many times before giving up on a refused write. */
#define SYSFS_WRITE_TRIES 3
#define SYSFS_PATH_MAX 96
#define SYSFS_VALUE_MAX 32

/* Writes 'value' to 'path' and reads the file back into 'now'. A refusal
 * that may pass (EBUSY, EINVAL, EACCES, EIO: a lock held, a CPU or a policy
 * coming and going) is written again after 1 ms, then 4 ms; other errors end
 * at once. '*tries' (may be NULL) gets the number of writes made. Returns 0,
 * or the last write's (or the read-back's) -errno. */
int sysfs_write_read_back(const char *path, const char *value, char *now, size_t size, unsigned *tries);

/* How the read-back of an undo is judged: the same text, or, for a limit
 * the kernel combines with other requests (cpufreq), any number not above
 * the one written. */
enum sysfs_check {
        SYSFS_CHECK_EQUAL,
        SYSFS_CHECK_AT_MOST,
};

struct sysfs_undo_entry {
        char path[SYSFS_PATH_MAX];
        char value[SYSFS_VALUE_MAX];
        enum sysfs_check check;
};

/* The earlier values of the writes one change made so far. */
struct sysfs_undo {
        unsigned n;
        struct sysfs_undo_entry entries[BL_MAX_CPUS];
};

static inline void sysfs_undo_init(struct sysfs_undo *u)
{
        u->n = 0;
}

/* Records what 'path' held before a write that succeeded. Returns 0,
 * -ENOBUFS (full) or -ENAMETOOLONG. */
int sysfs_undo_push(struct sysfs_undo *u, const char *path, const char *previous, enum sysfs_check check);
/* Writes the recorded values back, newest first, each tried and read back
 * like sysfs_write_read_back(), and empties 'u'. Returns how many could not
 * be put back: 0 means the kernel is where the change started. */
unsigned sysfs_undo_run(struct sysfs_undo *u);

/* A positive kHz value (cpufreq files). Returns 0, the read's -errno, or
 * -ERANGE / -EINVAL for anything else. */
int sysfs_read_khz(const char *path, unsigned *khz);

/* What one change (an apply or a restore) wrote, for its description. */
struct sysfs_write_stats {
        unsigned writes;
        unsigned retries;
        unsigned failed;        /* a restore goes on after a failure; an apply does not */
        int first_error;
};

/* Appends to 'buf' and never overflows; a cut description stays terminated. */
void sysfs_append(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Appends "; no write" or "; N writes" and ", N retries" to a description. */
void sysfs_describe_writes(const struct sysfs_write_stats *st, char *detail, size_t size);

/* The CPUs of 'cpus' whose cpuN directory is there: those that were not
 * unplugged for good since. */
void cpu_present_set(const bl_cpumask *cpus, bl_cpumask *present);
/* cpu_online_write(): the kernel took the write and kept the CPU as it was. */
#define SYSFS_IGNORED 1

/* Writes cpuN/online (with sysfs_write_read_back()'s retries; '*tries', may
 * be NULL, gets the number of writes) and checks the read-back. Returns 0,
 * the write's -errno, or SYSFS_IGNORED when the kernel accepted the write
 * but reports another state. */
int cpu_online_write(unsigned cpu, bool online, unsigned *tries);
/* The path of cpuN/online. */
void cpu_online_path(unsigned cpu, char *buf, size_t size);
/* Online state of every CPU in 'cpus' (others left out of 'online').
 * Returns 0, or the first unreadable CPU's -errno (cpu_online_read_each()). */
int cpu_online_read_set(const bl_cpumask *cpus, bl_cpumask *online);
/* The same, but a CPU whose file cannot be read, or reads neither 0 nor 1,
 * goes to 'unreadable' and the others are still read. Returns 0, or the
 * first unreadable CPU's -errno with that CPU in '*first'. */
int cpu_online_read_each(const bl_cpumask *cpus, bl_cpumask *online, bl_cpumask *unreadable, unsigned *first);
