/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel's Energy Model as debugfs shows it (/sys/kernel/debug/
 * energy_model, Linux 5.1 and later with CONFIG_ENERGY_MODEL): one directory
 * per performance domain, with the CPUs it covers and a power per
 * performance state. Read by blsim board import and by the daemon. */

#include <stdint.h>

#include "core/board.h"
#include "core/diag.h"

#define EM_DIR "/sys/kernel/debug/energy_model"
/* "0-3,6" (or "0,1,2,3") into a mask of up to 64 CPUs. Returns 0,
 * -EINVAL or -ERANGE. */
int em_parse_cpulist(const char *s, uint64_t *mask);

/* Reads the CPUs' performance domains under 'dir' (devices other than
 * CPUs are skipped; beyond EM_MAX_DOMAINS, the rest too). Returns 0, the
 * -errno of opening 'dir' (nothing in 'diag': no model is no error here),
 * or -errno for a domain that cannot be read, described in 'diag' naming
 * its file. */
int em_read_domains(const char *dir, struct em_domains *out, struct bl_diag *diag);
