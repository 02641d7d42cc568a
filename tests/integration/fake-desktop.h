/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Fakes of power-profiles-daemon (under either of its names) and of UPower
 * on the test's bus (harness_start_bus()), each a child process serving
 * the one property bigLittled reads: ActiveProfile, or OnBattery. */

#include <sys/types.h>

enum fake_desktop_kind {
        FAKE_PPD,               /* org.freedesktop.UPower.PowerProfiles */
        FAKE_PPD_OLD,           /* net.hadess.PowerProfiles */
        FAKE_UPOWER,            /* org.freedesktop.UPower */
        FAKE_PPD_BOTH,          /* both names of power-profiles-daemon, as its versions from 0.20 own them */
};

struct fake_desktop {
        pid_t pid;
        int control;            /* where fake_desktop_set() writes */
};

/* Starts the fake with 'value' ("power-saver", ...; for UPower "yes" or
 * "no"); returns once it owns its name. */
void fake_desktop_start(struct fake_desktop *f, enum fake_desktop_kind kind, const char *value);

/* A new value: the fake announces it with PropertiesChanged. */
void fake_desktop_set(struct fake_desktop *f, const char *value);

/* The fake leaves the bus. */
void fake_desktop_stop(struct fake_desktop *f);
