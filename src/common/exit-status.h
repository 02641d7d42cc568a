/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The exit statuses bigLittled, switchctl and blsim share: sysexits.h's,
 * under one set of names, so that a bad command line is 64 in all three and
 * scripts and systemd read the same code the same way. Each program's man
 * page lists the ones it uses; a program's own meanings (switchctl's "not
 * permitted", bigLittled's "one kind of core") are defined beside its
 * options as one of these or a code of its own below 64. */

#include <sysexits.h>

#define EXIT_USAGE EX_USAGE             /* 64: a bad command line */
#define EXIT_DATAERR EX_DATAERR         /* 65: an input file's contents */
#define EXIT_NOINPUT EX_NOINPUT         /* 66: an input file missing or unreadable */
#define EXIT_UNAVAILABLE EX_UNAVAILABLE /* 69: what is needed is not there */
#define EXIT_SOFTWARE EX_SOFTWARE       /* 70: an internal error */
#define EXIT_OSERR EX_OSERR             /* 71: the system refused (memory, a thread) */
#define EXIT_CANTCREAT EX_CANTCREAT     /* 73: an output file cannot be created */
#define EXIT_IOERR EX_IOERR             /* 74: reading or writing failed */
#define EXIT_CONFIG EX_CONFIG           /* 78: the configuration */
