/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* What is read or opened here is most often released with these. */
#include "common/cleanup.h"

/* What open_regular() asks of a file besides being a regular one. */
#define FILE_NOFOLLOW 0x1u      /* not reached through a symbolic link (the last component) */
#define FILE_PRIVATE 0x2u       /* owned by our effective uid, mode 0600: state only we write */

/* Opens 'path' (relative to 'dirfd', or AT_FDCWD) for reading, for files a
 * path someone else could have replaced leads to: a FIFO or a device must
 * neither block the open nor the reads, nor be read as text. Returns the
 * descriptor (close-on-exec) when it is a regular file that meets 'flags',
 * with its fstat() in 'st' (may be NULL). Otherwise returns -ELOOP (a
 * symbolic link under FILE_NOFOLLOW), -EISDIR, -EINVAL (another type),
 * -EPERM (owner or mode under FILE_PRIVATE) or the errno of the open, and
 * puts in 'why' (may be NULL) what to say after "PATH: ", for instance
 * "not a regular file (FIFO)" or "cannot read: No such file or directory". */
int open_regular(int dirfd, const char *path, unsigned flags, struct stat *st, char *why, size_t size);
/* "FIFO", "directory", ... for the S_IFMT bits of 'mode'. */
const char *file_type_name(mode_t mode);

/* Reads a whole regular file (opened as open_regular() does) of at most
 * 'max' bytes into a NUL-terminated buffer. Returns 0 or -errno (-EFBIG
 * beyond 'max'), with 'why' as open_regular() fills it. */
int read_regular_file(const char *path, unsigned flags, size_t max, char **ret, size_t *ret_len, char *why,
                      size_t size);
/* The size of no text file a person writes (configs, boards, rt-app). */
#define READ_FILE_MAX (4u << 20)
/* read_regular_file() without flags up to READ_FILE_MAX. Returns 0 or
 * -errno. */
int read_file(const char *path, char **ret, size_t *ret_len);
/* The same for files up to 'max' bytes (a trace of an hour is ~100 MB). */
int read_file_limit(const char *path, size_t max, char **ret, size_t *ret_len);
/* Reads a small sysfs-style file, strips the trailing newline. */
int read_line(const char *path, char *buf, size_t size);
/* A file's first line as a non-negative decimal (a sysfs or debugfs value);
 * -EINVAL when it is not one. */
int read_u64_line(const char *path, uint64_t *ret);
/* Opens a kernel file (/proc, sysfs) to keep and re-read with pread_text().
 * Returns the descriptor or -errno. */
int open_kept(const char *path);
/* pread()s a kept descriptor from offset 0 into buf (NUL-terminated). */
int pread_text(int fd, char *buf, size_t size, size_t *ret_len);
/* The value of a hexadecimal digit, or -1. */
int hex_digit(int c);
/* Parses a decimal integer with optional surrounding whitespace. */
int parse_int(const char *text, long long *ret);
/* Parses exactly 'n' unsigned decimal fields separated by 'sep' ("4:1400000"):
 * digits only, each at most UINT32_MAX. Returns 0, or -EINVAL (with 'ret'
 * partly written). sscanf()'s %u took a sign and wrapped "4294967296" to 0. */
int parse_u32_fields(const char *text, char sep, uint32_t *ret, unsigned n);

/* "DIR/NAME" into 'buf'. Returns 0 or -ENAMETOOLONG. */
int path_join(char *buf, size_t size, const char *dir, const char *name);
/* snprintf() where a cut text is the accepted outcome: a path cut short
 * names no file, and the read fails with that name. */
void textf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Whether a rename may replace 'path': it is missing, a regular file or a
 * symbolic link. Returns 0, else -EISDIR for a directory or -EEXIST for a
 * device, FIFO or socket, with its mode in '*mode' (when not NULL). */
int file_replaceable(const char *path, mode_t *mode);

/* Replaces DIR/NAME whole or not at all: 'fill' writes the text into a
 * temporary file of mode 0600 in DIR (created 0755 when missing), which is
 * flushed, synced and renamed over NAME, if file_replaceable() allows
 * (anything else is left alone, and its error returned).
 * Returns 0, or -errno (what 'fill' returned when it failed); no temporary
 * file is left behind. */
int write_file_atomic(const char *dir, const char *name, int (*fill)(FILE *f, const void *userdata),
                      const void *userdata);
