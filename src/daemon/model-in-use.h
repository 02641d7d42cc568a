/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The energy model the daemon gives the policy (issue 17): what
 * [policy] energy_model names (a board file, or the kernel's Energy Model
 * in debugfs), checked against the CPUs found, turned into the power of
 * each level of the ladder in use, and said to people. */

#include <stdbool.h>

#include "core/board.h"
#include "core/controller.h"
#include "core/energy-model.h"

struct model_in_use {
        bool have_board;
        struct sim_board board;         /* the machine as read, when have_board */
        char origin[BL_PATH_MAX + 64];  /* "board file PATH", "kernel energy model (DIR)" */
        char none_why[160];             /* without a board: why, for people */
        struct bl_energy_model model;   /* for the ladder in use; the controller points at it */
};

/* Reads the model 'setting' names (auto, none, a path) for topology 't'
 * into 'm'. Returns 0 with a board or with the reason there is none
 * (auto without a fitting debugfs model: the problem in 'diag', to be
 * logged as a warning), or -errno when a board file named by path cannot
 * be read, has errors or does not fit the machine (every problem in
 * 'diag', naming the file). */
int model_in_use_load(struct model_in_use *m, const char *setting, const struct bl_topology *t,
                      struct bl_diag *diag);

/* Whether the board file 'setting' names (when it names one) can be read
 * and has no errors, for --check-config, which has no topology to check it
 * against: each problem logged, naming the file and line. Returns 0, or
 * the number of problems or -errno. */
int model_in_use_check_file(const char *setting);

/* Makes m->model the model of ladder 'l' and gives it to controller 'c'
 * (none where there is no board, or in pair mode). */
void model_in_use_apply(struct model_in_use *m, struct bl_controller *c, const struct bl_ladder *l,
                        const struct bl_topology *t);

/* For people: "exynos5422 board file /etc/x.ini, 2 clusters, 9+9 OPPs" or
 * "none (no debugfs energy model; set energy_model=)". */
void model_in_use_describe(const struct model_in_use *m, const struct bl_ladder *l, char *buf, size_t size);
