/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* How switchctl prints: colours and symbols only for a person at a
 * terminal, aligned tables, local times, JSON strings, and the pager. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define ANSI_BOLD "\033[1m"
#define ANSI_UNDERLINE "\033[4m"
#define ANSI_RED "\033[1;31m"
#define ANSI_GREEN "\033[32m"
#define ANSI_YELLOW "\033[1;33m"
#define ANSI_GREY "\033[90m"
#define ANSI_RESET "\033[0m"

/* Room for format_wall() and format_percent() results. */
#define WALL_TEXT_MAX 32
#define PERCENT_TEXT_MAX 16

/* True when 'fd' is a terminal, $NO_COLOR is unset, $TERM is set and not
 * "dumb", and the locale is UTF-8: then colours and "→" may be used. */
bool output_fancy(int fd);

/* 'code' when fancy, "" otherwise; and ANSI_RESET likewise. */
const char *ansi(bool fancy, const char *code);
const char *ansi_reset(bool fancy);

/* "→" when fancy, "->" otherwise. */
const char *symbol_arrow(bool fancy);

/* Columns a string takes on a terminal: UTF-8 code points, without the
 * colour escapes. */
size_t display_width(const char *s);

/* A CLOCK_REALTIME time in µs as local "YYYY-MM-DD HH:MM:SS"; "-" for 0. */
char *format_wall(char *buf, size_t size, uint64_t usec);

/* part/whole as "75.0%"; "-" when whole is 0. */
char *format_percent(char *buf, size_t size, uint64_t part, uint64_t whole);

/* Writes 's' as a JSON string, quotes included. D-Bus strings are valid
 * UTF-8, so only quotes, backslashes and control characters need escapes. */
void json_string(FILE *f, const char *s);

/* A table of columns: row 0 is the header (the "legend"), the last column
 * is not padded. */
struct table;

int table_new(struct table **ret, unsigned ncols);
/* Appends one cell, row by row; returns 0 or -ENOMEM. */
int table_add(struct table *t, const char *cell);
int table_addf(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void table_align_right(struct table *t, unsigned col);
/* Data rows (not counting the header). */
unsigned table_rows(const struct table *t);
void table_print(const struct table *t, FILE *f, bool legend, bool fancy);
void table_free(struct table *t);

/* The pager of systemd's tools: $SYSTEMD_PAGER, $PAGER or less, only when
 * standard output is a terminal. pager_close() flushes standard output and
 * waits for the pager. */
struct pager {
        pid_t pid;              /* 0: no pager running */
};

int pager_open(struct pager *p);
void pager_close(struct pager *p);
