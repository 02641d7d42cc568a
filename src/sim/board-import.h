/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* blsim board import: a board model (the format of board.h) from what the
 * kernel knows of a machine, its device tree or its sysfs/debugfs files.
 *
 * Capacity and power follow the kernel's own arithmetic, so that the board
 * says what the scheduler's Energy Model says on that machine:
 *   capacity of a CPU = capacity-dmips-mhz x its top frequency, scaled so the
 *     largest over all CPUs is 1024 (drivers/base/arch_topology.c), and at an
 *     OPP, that x kHz / top kHz, rounded down (kernel/power/energy_model.c);
 *   power of one busy CPU at an OPP = dynamic-power-coefficient x mV^2 x MHz
 *     / 10^6 in uW, each step rounded down as the kernel's integer arithmetic
 *     does (drivers/opp/of.c), or the OPP's opp-microwatt where given.
 * What neither source gives (a powered idle cluster, a power-gated one, the
 * cost of a switch) is written as a default and marked as one. */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/board.h"
#include "core/diag.h"

#define IMPORT_NOTE_LEN 256
#define IMPORT_MAX_NOTES 16

struct import_opp {
        unsigned khz;
        unsigned capacity;
        uint64_t core_uw;       /* one busy CPU */
};

struct import_cluster {
        char name[BL_NAME_MAX];
        char core[BL_NAME_MAX];         /* "Cortex-A53", or "" */
        unsigned cpus;
        char origin[IMPORT_NOTE_LEN];   /* where its CPUs and figures came from */
        unsigned nopps;
        struct import_opp opp[SIM_MAX_OPPS];    /* ascending */
};

struct import_model {
        char name[64];
        bool power_default;             /* no power in the source: core_mW is a default too */
        unsigned nnotes;                /* header comment lines: the source and its provenance */
        char note[IMPORT_MAX_NOTES][IMPORT_NOTE_LEN];
        unsigned nclusters;
        struct import_cluster cluster[BL_MAX_CLUSTERS];  /* slowest first */
};

/* Power of one busy CPU at an OPP, in uW, the way the kernel's
 * _get_power()/dev_pm_opp_calc_power() computes it. */
uint64_t import_em_power_uw(uint32_t dpc, uint64_t hz, uint64_t microvolt);

/* Reads a device tree source (and the files it includes) into a model.
 * Problems go to 'diag' naming the file, line and node. Returns 0 or -errno
 * (-EINVAL for a tree that does not describe a big.LITTLE machine). */
int import_from_dts(struct import_model *m, const char *path, struct bl_diag *diag);

/* Reads ROOT/sys/devices/system/cpu/... and, where present,
 * ROOT/sys/kernel/debug/energy_model/... Returns 0 or -errno. */
int import_from_sysfs(struct import_model *m, const char *root, struct bl_diag *diag);

/* The board file's text. 'name' replaces the model's name when not NULL.
 * Returns 0 or -errno of the stream. */
int import_write(FILE *f, const struct import_model *m, const char *name);
