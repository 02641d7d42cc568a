/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * The MESSAGE_ID of each kind of event the daemon logs, for
 * `journalctl MESSAGE_ID=...` and the explanations of `journalctl -x`
 * (systemd/bigLittle.catalog has an entry for each; the test
 * systemd/check-catalog.sh keeps the two the same). Made once with
 * `systemd-id128 new`: never change one, scripts filter on them.
 */

/* A switch between levels went through. */
#define BL_MESSAGE_SWITCH "d334d56618084c9a860460a9a30d9d49"
/* A switch failed: the backend refused it; the level stays. */
#define BL_MESSAGE_SWITCH_FAILED "3034af514ed64d2f85f474d10fc739ba"
/* A hold was placed (or restored from before a restart). */
#define BL_MESSAGE_HOLD "5d728395a90c4c049db1bc75c652df94"
/* One hold or several ended: released, expired, or their owner left. */
#define BL_MESSAGE_RELEASE "a8520b434d7d41a6ab1cc82268eca674"
/* The thermal state changed (normal, capped, critical). */
#define BL_MESSAGE_THERMAL "26b718edf8a04effbd6fb164a9a9b399"
/* A reload was refused; the running configuration stays. */
#define BL_MESSAGE_RELOAD_REFUSED "7394169b8dcb48f7af19c16f07ae0cc0"
