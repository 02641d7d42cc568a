/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* INI text read through inih, with what the distro's inih lacks: the line of
 * every key, lines too long for its buffer reported instead of silently
 * split, indentation that is not taken for a continuation line, and every
 * malformed line reported (not only the first). Shared by the configuration
 * and the simulator's board models so that both report errors alike. */

#include "core/diag.h"

/* The longest line accepted: the smaller of this and what inih's buffer
 * holds (198 characters with Debian's build, whose buffer is 200 bytes). */
#define INI_READ_LINE_MAX 200

/* Called in file order for every section header (key and value NULL) and
 * for every "key = value" of a section the handler accepted; a key that
 * appears twice is passed twice. 'line' is the 1-based line number. The
 * handler reports its own problems to its diag and returns how many it
 * reported; for a section header, any problem makes the reader skip the
 * section's keys (they were rejected with it). */
typedef unsigned (*ini_handler_fn)(void *userdata, const char *section, const char *key, const char *value,
                                   unsigned line);

/* Reads one file's text. The reader's own problems (syntax, over-long lines,
 * NUL bytes, keys outside any section) go to 'diag' as "FILE:LINE: ...".
 * Returns the number of problems, the handler's included (0 = clean). */
unsigned ini_read(const char *filename, const char *text, size_t len, ini_handler_fn fn, void *userdata,
                  struct bl_diag *diag);
