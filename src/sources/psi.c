/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <string.h>

#include "sources/kept-text.h"
#include "sources/psi.h"

static bool is_digit(char c)
{
        return c >= '0' && c <= '9';
}

int psi_parse(const char *text, size_t len, uint64_t *some_total_us)
{
        static const char some[] = "some ", total[] = "total=";
        const char *eol, *p;
        bool found = false;
        uint64_t v = 0;

        if (len < sizeof(some) - 1 || memcmp(text, some, sizeof(some) - 1) != 0)
                return -EINVAL;
        /* The kernel ends every line; without the newline the total may be cut. */
        eol = memchr(text, '\n', len);
        if (!eol)
                return -EINVAL;
        p = text + sizeof(some) - 1;
        while (p < eol) {
                /* memchr(): a byte loop with its bound check was most of
                 * the cost of reading the pressure, every tick */
                const char *tok = p, *tok_end = memchr(p, ' ', (size_t)(eol - p));

                if (!tok_end)
                        tok_end = eol;
                p = tok_end;
                while (p < eol && *p == ' ')
                        p++;
                if ((size_t)(tok_end - tok) < sizeof(total) - 1 ||
                    memcmp(tok, total, sizeof(total) - 1) != 0)
                        continue;
                tok += sizeof(total) - 1;
                if (tok == tok_end)
                        return -EINVAL;
                v = 0;
                for (; tok < tok_end; tok++) {
                        if (!is_digit(*tok))
                                return -EINVAL;
                        if (__builtin_mul_overflow(v, 10, &v) ||
                            __builtin_add_overflow(v, (uint64_t)(*tok - '0'), &v))
                                return -EINVAL;
                }
                found = true;
        }
        if (!found)
                return -EINVAL;
        *some_total_us = v;
        return 0;
}

static int parse_total(const char *text, size_t len, void *out)
{
        return psi_parse(text, len, out);
}

int psi_open(struct psi_reader *r, const char *path)
{
        uint64_t total;

        /* With psi=0 the file is there but every read fails: find out now. */
        return kept_text_open(&r->fd, path, parse_total, &total);
}

int psi_read(struct psi_reader *r, uint64_t *some_total_us)
{
        return kept_text_read(r->fd, parse_total, some_total_us);
}

void psi_close(struct psi_reader *r)
{
        kept_text_close(&r->fd);
}
