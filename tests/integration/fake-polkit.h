/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* A fake polkit on the test's bus (fake-polkit.c). */

#include <stdbool.h>

#define POLKIT_IFACE "org.freedesktop.PolicyKit1.Authority"

/* Starts it as a helper process of the harness (harness_fork()) and returns
 * once it owns org.freedesktop.PolicyKit1. Each CheckAuthorization is
 * logged to the work directory's polkit.log as "ACTION KIND NAME FLAGS". */
void start_fake_polkit(void);
/* Whether it answers yes from now on (the work directory's polkit-allow). */
void polkit_allow(bool allow);
