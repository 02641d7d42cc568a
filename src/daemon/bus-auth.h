/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Who calls the bus service, and polkit's word on what they may do
 * (bus-auth.c). */

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

#include "core/holds.h"

/* Who called, as the bus daemon vouches for it (uid, pid) and as far as
 * systemd knows (unit). */
struct bus_caller {
        uint32_t uid;
        int32_t pid;
        char unit[BL_HOLD_UNIT_MAX];
        char name[BL_HOLD_OWNER_MAX];
};


/* Fills 'c' from the bus daemon's credentials of the sender of 'm' (and
 * systemd's unit of its pid). Returns 0, or a negative errno when the uid
 * cannot be had from the bus daemon itself (then nothing is allowed). */
int bus_caller_identify(sd_bus_message *m, struct bus_caller *c);

/* Asks polkit whether bus name 'name' may manage the daemon (with the
 * user's interaction when 'interactive'); the reply goes to 'callback'.
 * Returns what sd_bus_call_method_async() does. */
int bus_polkit_ask(sd_bus *bus, sd_bus_slot **slot, const char *name, bool interactive,
                   sd_bus_message_handler_t callback, void *userdata);

/* Whether polkit's reply says yes. An error (polkit is not installed, or
 * failed) is a no, and said in the log unless polkit is simply absent. */
bool bus_polkit_allows(sd_bus_message *reply);
