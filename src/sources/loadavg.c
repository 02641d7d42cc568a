/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "sources/loadavg.h"

/* Three averages, two counts and a PID: under 64 bytes on any machine. */
#define LOADAVG_TEXT_MAX 128

/* A decimal number ended by 'stop' before 'end'; '*p' moves past the stop. */
static int parse_count(const char **p, const char *end, char stop, unsigned *out)
{
        unsigned v = 0;
        const char *q = *p;

        if (q >= end || *q < '0' || *q > '9')
                return -EINVAL;
        for (; q < end && *q >= '0' && *q <= '9'; q++)
                if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, (unsigned)(*q - '0'), &v))
                        return -EINVAL;
        if (q >= end || *q != stop)
                return -EINVAL;
        *p = q + 1;
        *out = v;
        return 0;
}

int loadavg_parse(const char *text, size_t len, unsigned *running)
{
        const char *eol = memchr(text, '\n', len), *p = text;
        unsigned r, total;

        /* The kernel ends the line; without the newline the counts may be cut. */
        if (!eol)
                return -EINVAL;
        /* Past the three averages. */
        for (int field = 0; field < 3; field++) {
                const char *sp = memchr(p, ' ', (size_t)(eol - p));

                if (!sp || sp == p)
                        return -EINVAL;
                p = sp + 1;
        }
        if (parse_count(&p, eol, '/', &r) < 0 || parse_count(&p, eol, ' ', &total) < 0)
                return -EINVAL;
        if (r == 0 || r > total)
                return -EINVAL;
        *running = r;
        return 0;
}

int loadavg_open(struct loadavg_reader *r, const char *path)
{
        unsigned running;
        int fd, ret;

        r->fd = -1;
        fd = open_kept(path);
        if (fd < 0)
                return fd;
        r->fd = fd;
        ret = loadavg_read(r, &running);
        if (ret < 0)
                loadavg_close(r);
        return ret;
}

int loadavg_read(struct loadavg_reader *r, unsigned *running)
{
        char buf[LOADAVG_TEXT_MAX];
        size_t len;
        int ret;

        if (r->fd < 0)
                return -ENODATA;
        ret = pread_text(r->fd, buf, sizeof(buf), &len);
        if (ret < 0)
                return ret;
        return loadavg_parse(buf, len, running);
}

void loadavg_close(struct loadavg_reader *r)
{
        if (r->fd >= 0)
                close(r->fd);
        r->fd = -1;
}
