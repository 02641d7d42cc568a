/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Tasks runnable at this moment, from /proc/loadavg: its fourth field
 * ("2/345") is the kernel's nr_running() over every CPU when the file is
 * read, the reader included. What no counter over an interval says: whether
 * work that started late in it is still running. */

#include <stddef.h>

/* Parses "0.00 0.01 0.05 R/T LASTPID\n" into R. Returns 0 or -EINVAL (no
 * newline, fewer fields, R or T not a decimal number, R above T or 0: the
 * reader itself runs). */
int loadavg_parse(const char *text, size_t len, unsigned *running);

struct loadavg_reader {
        int fd;
};

/* Returns 0 or a negative errno from open() or the first read. */
int loadavg_open(struct loadavg_reader *r, const char *path);
/* Returns 0, -ENODATA when not open, or a negative errno of pread() or
 * loadavg_parse(). */
int loadavg_read(struct loadavg_reader *r, unsigned *running);
void loadavg_close(struct loadavg_reader *r);
