/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Per-CPU busy time from /proc/stat. The file is opened once and re-read
 * with pread(); only the cpuN lines at its top are parsed. */

#include "core/cpumask.h"

struct procstat_cpu {
        uint64_t busy;          /* user+nice+system+irq+softirq+steal, USER_HZ ticks */
        uint64_t idle;          /* idle+iowait, USER_HZ ticks */
};

struct procstat {
        bl_cpumask cpus;        /* CPUs that had a line (the online ones) */
        unsigned ncpus;         /* highest CPU seen + 1 */
        struct procstat_cpu cpu[BL_MAX_CPUS];
};

/* Parses the text of /proc/stat. Accepts the 4- to 10+-column formats of
 * every kernel since 2.6 and vendor extra columns; stops at the first line
 * that is not a cpu line. Returns 0, or -EINVAL (no cpuN line, a malformed or
 * truncated cpu line), -ERANGE (CPU number >= BL_MAX_CPUS) or -ENOMEM (it
 * parses a copy that ends in a NUL, as procstat_read()'s buffer does). */
int procstat_parse(struct procstat *out, const char *text, size_t len);

/* Busy fraction per CPU between two snapshots, 0..1. A CPU missing from
 * either snapshot is reported offline (busy 0); counters that went backwards
 * are clamped to no progress. 'busy' has BL_MAX_CPUS entries. */
void procstat_busy(const struct procstat *prev, const struct procstat *cur, float *busy, bl_cpumask *online);
/* The CPUs in both snapshots (a snapshot lists none from its ncpus on):
 * those procstat_busy() reports online. */
void procstat_online(const struct procstat *prev, const struct procstat *cur, bl_cpumask *online);

struct procstat_reader {
        int fd;
        size_t size;            /* of buf */
        char *buf;
};

int procstat_open(struct procstat_reader *r, const char *path);
/* Returns 0, or a negative errno from pread() or procstat_parse(). */
int procstat_read(struct procstat_reader *r, struct procstat *out);
void procstat_close(struct procstat_reader *r);
