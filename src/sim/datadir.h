/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <limits.h>
#include <stddef.h>

/* Where blsim's boards and workloads are. In order:
 *   - $BLSIM_DATADIR, laid out like the installed tree (boards/, workloads/);
 *   - the source tree, when blsim runs from its build tree: make leaves a
 *     file blsim.srcdir beside the binary there, naming the source tree
 *     (conf/boards, tests/workloads), and never installs it;
 *   - where make install put them ($(pkgdatadir)/boards and /workloads).
 * The build tree's path is kept out of the binary, so that a package built
 * in two places is the same. */
struct sim_datadir {
        char boards[PATH_MAX];
        char workloads[PATH_MAX];
};

/* installed_boards and installed_workloads are the compiled-in defaults.
 * Returns 0, or -ENAMETOOLONG when a path does not fit (then the installed
 * directories are used). */
int sim_datadir_find(struct sim_datadir *d, const char *installed_boards, const char *installed_workloads);

/* A workload given by name rather than path: "idle-bursts",
 * "holdout/typing.csv", "rt-app/mp3-short". Writes the path of the file in
 * the workloads directory that name is (tried as given, then with .csv and
 * .json; a regular file) to out. Returns 0, -ENOENT when there is none, -ENAMETOOLONG. */
int sim_datadir_workload(const struct sim_datadir *d, const char *name, char *out, size_t size);
