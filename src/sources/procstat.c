/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "sources/procstat.h"

/* Columns after "cpuN", in the order of fs/proc/stat.c. */
enum {
        COL_USER,
        COL_NICE,
        COL_SYSTEM,
        COL_IDLE,
        COL_IOWAIT,
        COL_IRQ,
        COL_SOFTIRQ,
        COL_STEAL,
        COL_USED,       /* guest and guest_nice are already inside user and nice */
};

/* Linux 2.4 printed only user, nice, system and idle. */
#define MIN_COLUMNS 4

/* A cpu line of a big machine is about 70 bytes; 128 leaves room for large
 * counters, so one read normally holds every cpu line of BL_MAX_CPUS CPUs. */
#define READ_SIZE_INITIAL ((size_t)BL_MAX_CPUS * 128 + 4096)
/* Far beyond the cpu lines of BL_MAX_CPUS CPUs, even with vendor columns:
 * a file that keeps filling the buffer with cpu lines is not /proc/stat. */
#define READ_SIZE_MAX ((size_t)4 << 20)

static bool is_digit(char c)
{
        return c >= '0' && c <= '9';
}

static bool is_blank(char c)
{
        return c == ' ' || c == '\t';
}

/* The scans below stop at the '\n' that ends the line ('eol' points at
 * it; parse_text() finds it first), which is neither a digit nor a blank:
 * a tick parses every counter of every CPU, and a bound check per
 * character was a third of it. */

/* Parses one unsigned decimal at *p. Up to 19 digits cannot overflow 64
 * bits, so only longer numbers pay for the checks. */
static int parse_u64(const char **p, uint64_t *ret)
{
        const char *s = *p, *start = s;
        uint64_t v = 0;

        for (; is_digit(*s); s++)
                v = v * 10 + (uint64_t)(*s - '0');
        if (s == start)
                return -EINVAL;
        if (s - start > 19) {
                v = 0;
                for (const char *q = start; q < s; q++)
                        if (__builtin_mul_overflow(v, 10, &v) ||
                            __builtin_add_overflow(v, (uint64_t)(*q - '0'), &v))
                                return -EINVAL;
        }
        *p = s;
        *ret = v;
        return 0;
}

/* Parses "N c1 c2 ..." of a "cpuN" line, from p to its '\n' at eol. */
static int parse_cpu_line(const char *p, const char *eol, unsigned *ret_cpu, struct procstat_cpu *ret)
{
        static const unsigned busy_cols[] = {
                COL_USER, COL_NICE, COL_SYSTEM, COL_IRQ, COL_SOFTIRQ, COL_STEAL,
        };
        uint64_t cpu, busy = 0, idle, col[COL_USED] = { 0 };
        unsigned ncols = 0;
        int r;

        if (!is_digit(*p))
                return -EINVAL;
        for (cpu = 0; is_digit(*p); p++) {
                cpu = cpu * 10 + (uint64_t)(*p - '0');
                if (cpu >= BL_MAX_CPUS)
                        return -ERANGE;
        }
        while (p != eol) {
                uint64_t v;

                if (!is_blank(*p))
                        return -EINVAL;
                do
                        p++;
                while (is_blank(*p));
                if (p == eol)
                        break;
                r = parse_u64(&p, &v);
                if (r < 0)
                        return r;
                if (ncols < COL_USED)
                        col[ncols] = v;
                ncols++;
        }
        if (ncols < MIN_COLUMNS)
                return -EINVAL;
        for (unsigned i = 0; i < sizeof(busy_cols) / sizeof(busy_cols[0]); i++)
                if (__builtin_add_overflow(busy, col[busy_cols[i]], &busy))
                        return -EINVAL;
        if (__builtin_add_overflow(col[COL_IDLE], col[COL_IOWAIT], &idle))
                return -EINVAL;
        *ret_cpu = (unsigned)cpu;
        ret->busy = busy;
        ret->idle = idle;
        return 0;
}

/* '*cut' tells that the text ended inside the cpu lines: a reader whose
 * buffer was full has not seen them all. */
static int parse_text(struct procstat *out, const char *text, size_t len, bool *cut)
{
        const char *p = text, *end = text + len;

        cpumask_zero(&out->cpus);
        out->ncpus = 0;
        *cut = false;

        while (p < end) {
                size_t avail = (size_t)(end - p);
                struct procstat_cpu c;
                const char *eol;
                unsigned cpu;
                int r;

                /* before looking for its end: the intr line is long */
                if (memcmp(p, "cpu", avail < 3 ? avail : 3) != 0)
                        break;
                eol = memchr(p, '\n', avail);
                /* A cpu line (or what may become one) that the text cuts off. */
                if (!eol) {
                        *cut = true;
                        return -EINVAL;
                }
                if (is_blank(p[3])) {
                        /* the "cpu" line sums all CPUs */
                        p = eol + 1;
                        continue;
                }
                r = parse_cpu_line(p + 3, eol, &cpu, &c);
                if (r < 0)
                        return r;
                if (cpumask_isset(&out->cpus, cpu))
                        return -EINVAL;
                /* Lines come in CPU order; keep the gaps of offline CPUs zeroed. */
                for (unsigned i = out->ncpus; i < cpu; i++)
                        out->cpu[i] = (struct procstat_cpu){ 0 };
                out->cpu[cpu] = c;
                cpumask_set(&out->cpus, cpu);
                if (cpu >= out->ncpus)
                        out->ncpus = cpu + 1;
                p = eol + 1;
        }
        if (p == end)
                *cut = true;
        if (out->ncpus == 0)
                return -EINVAL;
        return 0;
}

int procstat_parse(struct procstat *out, const char *text, size_t len)
{
        bool cut;

        return parse_text(out, text, len, &cut);
}

static uint64_t progress(uint64_t prev, uint64_t cur)
{
        return cur > prev ? cur - prev : 0;
}

void procstat_busy(const struct procstat *prev, const struct procstat *cur, float *busy, bl_cpumask *online)
{
        unsigned span = cur->ncpus < prev->ncpus ? cur->ncpus : prev->ncpus;

        cpumask_zero(online);
        for (unsigned cpu = 0; cpu < BL_MAX_CPUS; cpu++)
                busy[cpu] = 0.0f;
        for (unsigned cpu = 0; cpu < span; cpu++) {
                uint64_t dbusy, didle;

                if (!cpumask_isset(&prev->cpus, cpu) || !cpumask_isset(&cur->cpus, cpu))
                        continue;
                cpumask_set(online, cpu);
                dbusy = progress(prev->cpu[cpu].busy, cur->cpu[cpu].busy);
                didle = progress(prev->cpu[cpu].idle, cur->cpu[cpu].idle);
                if (dbusy > 0)
                        busy[cpu] = (float)((double)dbusy / ((double)dbusy + (double)didle));
        }
}

int procstat_open(struct procstat_reader *r, const char *path)
{
        _cleanup_close_ int fd = -1;

        *r = (struct procstat_reader){ .fd = -1 };
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return -errno;
        r->buf = malloc(READ_SIZE_INITIAL);
        if (!r->buf)
                return -ENOMEM;
        r->size = READ_SIZE_INITIAL;
        r->fd = fd;
        fd = -1;
        return 0;
}

int procstat_read(struct procstat_reader *r, struct procstat *out)
{
        for (;;) {
                bool cut;
                size_t len;
                char *p;
                int ret;

                ret = pread_text(r->fd, r->buf, r->size, &len);
                if (ret < 0)
                        return ret;
                ret = parse_text(out, r->buf, len, &cut);
                /* A short read is the whole file; a full buffer that ends
                 * inside the cpu lines means the buffer is too small. */
                if (len + 1 < r->size || !cut)
                        return ret;
                if (r->size >= READ_SIZE_MAX)
                        return -EFBIG;
                p = realloc(r->buf, r->size * 2);
                if (!p)
                        return -ENOMEM;
                r->buf = p;
                r->size *= 2;
        }
}

void procstat_close(struct procstat_reader *r)
{
        if (r->fd >= 0)
                close(r->fd);
        r->fd = -1;
        free(r->buf);
        r->buf = NULL;
        r->size = 0;
}
