/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* main() of a unit test whose code reads or writes real /sys paths: they
 * must land in a umockdev testbed, so the program runs under umockdev's
 * preload, re-executing itself through umockdev-wrapper when it is not. */

#include <check.h>

/* Runs the suite 'make' builds (after the re-exec, so nothing is built
 * twice) and returns the exit status for main(). */
int umockdev_main(int argc, char **argv, Suite *(*make)(void));
