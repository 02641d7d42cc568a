/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* A small kernel text file (/proc/pressure/cpu, /proc/loadavg) kept open
 * and read whole at each use, its text handed to a parser. */

#include <stddef.h>

/* The most read of it: a longer text is cut, and its parser refuses it. */
#define KEPT_TEXT_MAX 256

/* Parses 'len' bytes of 'text' into 'out'; returns 0 or a negative errno. */
typedef int kept_text_parser(const char *text, size_t len, void *out);

/* Opens 'path' into '*fd' and reads it once through 'parse': a file that
 * opens but does not read or parse (PSI with psi=0, a FIFO) is closed.
 * Returns 0 or a negative errno, with '*fd' -1. */
int kept_text_open(int *fd, const char *path, kept_text_parser *parse, void *out);
/* Returns 0, -ENODATA when 'fd' is not open, or a negative errno from
 * pread() or 'parse'. */
int kept_text_read(int fd, kept_text_parser *parse, void *out);
void kept_text_close(int *fd);
