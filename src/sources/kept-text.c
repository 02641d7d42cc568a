/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <unistd.h>

#include "common/fileio.h"
#include "sources/kept-text.h"

int kept_text_open(int *fd, const char *path, kept_text_parser *parse, void *out)
{
        int r = open_kept(path);

        *fd = r < 0 ? -1 : r;
        if (r < 0)
                return r;
        r = kept_text_read(*fd, parse, out);
        if (r < 0)
                kept_text_close(fd);
        return r;
}

int kept_text_read(int fd, kept_text_parser *parse, void *out)
{
        char buf[KEPT_TEXT_MAX];
        size_t len;
        int r;

        if (fd < 0)
                return -ENODATA;
        r = pread_text(fd, buf, sizeof(buf), &len);
        if (r < 0)
                return r;
        return parse(buf, len, out);
}

void kept_text_close(int *fd)
{
        if (*fd >= 0)
                close(*fd);
        *fd = -1;
}
