/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <string.h>

#include "sources/kept-text.h"
#include "sources/loadavg.h"

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

static int parse_running(const char *text, size_t len, void *out)
{
        return loadavg_parse(text, len, out);
}

int loadavg_open(struct loadavg_reader *r, const char *path)
{
        unsigned running;

        return kept_text_open(&r->fd, path, parse_running, &running);
}

int loadavg_read(struct loadavg_reader *r, unsigned *running)
{
        return kept_text_read(r->fd, parse_running, running);
}

void loadavg_close(struct loadavg_reader *r)
{
        kept_text_close(&r->fd);
}
