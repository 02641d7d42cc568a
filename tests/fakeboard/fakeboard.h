/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * The fake boards of the integration tests: the kernel of src/fakeboard/
 * with the built-in boards of boards.c and a load driver that plays tasks
 * on them in real time (schedutil-like DVFS, /proc/stat, CPU pressure).
 *
 * Tasks are placed on the online CPUs, the largest on the fastest, and each
 * gets what it asks for up to its CPU's capacity at the policy's frequency:
 * the lowest OPP within the policy's limits that gives 1.25 times the
 * largest demand placed on one of its CPUs.
 */

#include "fakeboard/board.h"

#define FAKEBOARD_MAX_TASKS 32

/* A phase of a load pattern: for duration_ms, ntasks tasks each wanting
 * demand[i] capacity units (1024 = the biggest core at its top speed). */
struct fakeboard_phase {
        unsigned duration_ms;
        unsigned ntasks;
        unsigned demand[FAKEBOARD_MAX_TASKS];
};

struct fakeboard_pattern {
        const char *name;
        const char *summary;
        const struct fakeboard_phase *phases;
        unsigned nphases;
};

/* boards.c: the built-in boards and load patterns; NULL when unknown or past the end. */
const struct fakeboard_desc *fakeboard_desc_find(const char *name);
const struct fakeboard_desc *fakeboard_desc_get(unsigned index);
const struct fakeboard_pattern *fakeboard_pattern_find(const char *name);
const struct fakeboard_pattern *fakeboard_pattern_get(unsigned index);

/* "2 tasks of 600", "1 task of 40 + 2 tasks of 300", "no load". */
void fakeboard_phase_describe(const struct fakeboard_phase *phase, char *buf, size_t size);

/* Builds the testbed of a built-in board (-ENOENT: no such board) with every
 * CPU online, the lowest OPPs and no load, and publishes its files; the task
 * driver plays its load, and the refusing preload is the one of this build. */
int fakeboard_new(const char *board, struct fakeboard **ret);

/* A constant load until changed; ends any pattern. */
int fakeboard_set_load(struct fakeboard *fb, const unsigned *demand, unsigned ntasks);
/* Plays phases from the next step on (copied); after the last one there is
 * no load. */
int fakeboard_set_pattern(struct fakeboard *fb, const struct fakeboard_phase *phases, unsigned nphases);
bool fakeboard_pattern_done(const struct fakeboard *fb);

/* Plays what a real kernel does after CPU hotplug (stop_machine, tasks
 * migrating, kworkers): for 'ms' after the online CPUs change, each CPU
 * online is busy at least 'busy_pct' % of the time and tasks wait at least
 * 'stall_pct' % (CPU pressure). 0 ms turns it off (the default). */
int fakeboard_set_switch_aftermath(struct fakeboard *fb, unsigned ms, unsigned busy_pct, unsigned stall_pct);
