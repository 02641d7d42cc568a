/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* CPU pressure (PSI) from /proc/pressure/cpu: the "some" total, in µs. */

#include "core/types.h"

/* Parses "some avg10=.. avg60=.. avg300=.. total=N" (and an optional "full"
 * line). Returns 0 or -EINVAL. */
int psi_parse(const char *text, size_t len, uint64_t *some_total_us);

struct psi_reader {
        int fd;                 /* -1 when the kernel has no PSI */
};

/* Returns 0, or -ENOENT / -EOPNOTSUPP when PSI is absent or disabled
 * (psi=0 on the kernel command line makes reads fail). */
int psi_open(struct psi_reader *r, const char *path);
int psi_read(struct psi_reader *r, uint64_t *some_total_us);
void psi_close(struct psi_reader *r);
