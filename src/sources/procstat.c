/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
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

/* The text parse_text() reads ends in a NUL at text[len], neither a digit
 * nor a blank nor a '\n', like every character that ends a scan below:
 * no scan needs a bound check, and a line is looked for its end only when
 * it does not parse (the end tells a line cut off from a bad one). In the
 * real-kernel guest (QEMU TCG) the daemon's user time follows its
 * instructions, and this parser was a third of them: hence one pass over
 * each column, with as little as possible per character. */

/* Reads the column that starts at *p (its blanks first). Returns 1 with
 * the value and *p past it, 0 at the end of the line with *p at its '\n'
 * (trailing blanks allowed), or -EINVAL: no blank before it, not a number,
 * or beyond 64 bits. */
static inline int next_column(const char **p, uint64_t *ret)
{
        /* unsigned: a digit's value without sign extensions */
        const unsigned char *s = (const unsigned char *)*p, *start;
        uint64_t v;
        unsigned d;

        /* The kernel's separator, one space before a digit, first: the
         * general one cost as much as the digits. */
        if (*s == ' ' && (d = s[1] - (unsigned)'0') < 10) {
                s++;
        } else {
                if (!is_blank((char)*s))
                        return *s == '\n' ? 0 : -EINVAL;
                do
                        s++;
                while (is_blank((char)*s));
                d = *s - (unsigned)'0';
                if (d >= 10) {
                        *p = (const char *)s;
                        return *s == '\n' ? 0 : -EINVAL;
                }
        }
        start = s;
        for (v = d; (d = *++s - (unsigned)'0') < 10;)
                v = v * 10 + d;
        /* Up to 19 digits cannot overflow 64 bits, so only longer numbers
         * pay for the checks. */
        if (s - start > 19) {
                v = 0;
                for (const unsigned char *q = start; q < s; q++)
                        if (__builtin_mul_overflow(v, 10, &v) ||
                            __builtin_add_overflow(v, (uint64_t)(*q - '0'), &v))
                                return -EINVAL;
        }
        *p = (const char *)s;
        *ret = v;
        return 1;
}

/* Parses "N c1 c2 ..." of a "cpuN" line from p; *eol is its '\n'. */
static int parse_cpu_line(const char *p, unsigned *ret_cpu, struct procstat_cpu *ret, const char **eol)
{
        uint64_t cpu, busy, idle, col[COL_USED] = { 0 }, ignored;
        unsigned ncols;
        bool over;
        int r = 1;

        if (!is_digit(*p))
                return -EINVAL;
        for (cpu = 0; is_digit(*p); p++) {
                cpu = cpu * 10 + (uint64_t)(*p - '0');
                if (cpu >= BL_MAX_CPUS)
                        return -ERANGE;
        }
        for (ncols = 0; ncols < COL_USED; ncols++) {
                r = next_column(&p, &col[ncols]);
                if (r <= 0)
                        break;
        }
        /* guest, guest_nice and vendor columns: numbers, but not used */
        while (r > 0)
                r = next_column(&p, &ignored);
        if (r < 0)
                return r;
        if (ncols < MIN_COLUMNS)
                return -EINVAL;
        over = __builtin_add_overflow(col[COL_USER], col[COL_NICE], &busy);
        over |= __builtin_add_overflow(busy, col[COL_SYSTEM], &busy);
        over |= __builtin_add_overflow(busy, col[COL_IRQ], &busy);
        over |= __builtin_add_overflow(busy, col[COL_SOFTIRQ], &busy);
        over |= __builtin_add_overflow(busy, col[COL_STEAL], &busy);
        over |= __builtin_add_overflow(col[COL_IDLE], col[COL_IOWAIT], &idle);
        if (over)
                return -EINVAL;
        *ret_cpu = (unsigned)cpu;
        ret->busy = busy;
        ret->idle = idle;
        *eol = p;
        return 0;
}

/* A cpu line (or what may become one) that the text cuts off. */
static int cut_off(bool *cut)
{
        *cut = true;
        return -EINVAL;
}

/* Parses the text of 'len' bytes at 'text', with a NUL at text[len].
 * '*cut' tells that the text ended inside the cpu lines: a reader whose
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

                /* Not memcmp(): a library call per line, for three bytes. */
                if (avail < 3) {
                        if (memcmp(p, "cpu", avail) != 0)
                                break;
                        return cut_off(cut);
                }
                if (p[0] != 'c' || p[1] != 'p' || p[2] != 'u')
                        break;
                if (is_blank(p[3])) {
                        /* the "cpu" line sums all CPUs */
                        eol = memchr(p, '\n', avail);
                        if (!eol)
                                return cut_off(cut);
                        p = eol + 1;
                        continue;
                }
                r = parse_cpu_line(p + 3, &cpu, &c, &eol);
                if (r < 0)
                        return memchr(p, '\n', avail) ? r : cut_off(cut);
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
        /* parse_text() wants the NUL after the text that reads end in */
        _cleanup_free_ char *copy = malloc(len + 1);
        bool cut;

        if (!copy)
                return -ENOMEM;
        memcpy(copy, text, len);
        copy[len] = '\0';
        return parse_text(out, copy, len, &cut);
}

static uint64_t progress(uint64_t prev, uint64_t cur)
{
        return cur > prev ? cur - prev : 0;
}

void procstat_online(const struct procstat *prev, const struct procstat *cur, bl_cpumask *online)
{
        /* a word at a time: two tests and a set per CPU cost more */
        *online = prev->cpus;
        cpumask_and(online, &cur->cpus);
}

void procstat_busy(const struct procstat *prev, const struct procstat *cur, float *busy, bl_cpumask *online)
{
        unsigned span = cur->ncpus < prev->ncpus ? cur->ncpus : prev->ncpus;

        procstat_online(prev, cur, online);
        for (unsigned cpu = 0; cpu < BL_MAX_CPUS; cpu++)
                busy[cpu] = 0.0f;
        for (unsigned cpu = 0; cpu < span; cpu++) {
                uint64_t dbusy, didle;

                if (!cpumask_isset(online, cpu))
                        continue;
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
        fd = open_kept(path);
        if (fd < 0)
                return fd;
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
