/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who calls the bus service, and whether polkit lets them manage the
 * daemon: the two checks behind its methods that change things. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-login.h>

#include "common/log.h"
#include "daemon/bus-auth.h"

#define POLKIT_ACTION "org.bigLittle.Switch1.manage"
#define POLKIT_INTERFACE "org.freedesktop.PolicyKit1.Authority"
/* polkit's CheckAuthorization() flag. */
#define POLKIT_ALLOW_USER_INTERACTION 1u

int bus_caller_identify(sd_bus_message *m, struct bus_caller *c)
{
        sd_bus_creds *creds = NULL;
        const char *sender = sd_bus_message_get_sender(m), *unit = NULL;
        uid_t euid;
        pid_t pid = 0;
        int r;

        memset(c, 0, sizeof(*c));
        snprintf(c->name, sizeof(c->name), "%s", sender ? sender : "");
        r = sd_bus_query_sender_creds(m, SD_BUS_CREDS_EUID | SD_BUS_CREDS_PID | SD_BUS_CREDS_UNIT |
                                                 SD_BUS_CREDS_AUGMENT, &creds);
        /* The unit comes from /proc/PID, which may be hidden
         * (ProtectProc=invisible), gone, or another testbed's: then what the
         * bus daemon knows suffices. */
        if (r < 0) {
                log_debug_errno(r, "bus: credentials of %s", c->name);
                r = sd_bus_query_sender_creds(m, SD_BUS_CREDS_EUID | SD_BUS_CREDS_PID, &creds);
        }
        if (r < 0)
                return r;
        /* The uid decides what the caller may do: only the bus daemon's word
         * counts, not /proc of a pid that may have been reused. */
        r = sd_bus_creds_get_euid(creds, &euid);
        if (r >= 0 && (sd_bus_creds_get_augmented_mask(creds) & SD_BUS_CREDS_EUID))
                r = -EPERM;
        if (r >= 0) {
                c->uid = euid;
                if (sd_bus_creds_get_pid(creds, &pid) >= 0)
                        c->pid = pid;
                if (sd_bus_creds_get_unit(creds, &unit) >= 0 && unit)
                        snprintf(c->unit, sizeof(c->unit), "%s", unit);
        }
        sd_bus_creds_unref(creds);
        if (r >= 0 && !c->unit[0] && pid > 0) {
                char *name = NULL;

                if (sd_pid_get_unit(pid, &name) >= 0)
                        snprintf(c->unit, sizeof(c->unit), "%s", name);
                free(name);
        }
        return r < 0 ? r : 0;
}

bool bus_polkit_allows(sd_bus_message *reply)
{
        const sd_bus_error *e = sd_bus_message_get_error(reply);
        int authorized = 0, challenge = 0, r;

        if (e) {
                if (!sd_bus_error_has_names(e, SD_BUS_ERROR_SERVICE_UNKNOWN, SD_BUS_ERROR_NAME_HAS_NO_OWNER))
                        log_warning("bus: polkit failed: %s", e->message ? e->message : e->name);
                return false;
        }
        r = sd_bus_message_enter_container(reply, 'r', "bba{ss}");
        if (r >= 0)
                r = sd_bus_message_read(reply, "bb", &authorized, &challenge);
        if (r < 0) {
                log_warning_errno(r, "bus: cannot read polkit's answer");
                return false;
        }
        return authorized;
}

int bus_polkit_ask(sd_bus *bus, sd_bus_slot **slot, const char *name, bool interactive,
                   sd_bus_message_handler_t callback, void *userdata)
{
        /* Subject: the caller's bus name (polkit asks the bus for its
         * credentials, so they cannot be forged); no details; flags; no
         * cancellation id. */
        return sd_bus_call_method_async(bus, slot, "org.freedesktop.PolicyKit1",
                                        "/org/freedesktop/PolicyKit1/Authority", POLKIT_INTERFACE,
                                        "CheckAuthorization", callback, userdata, "(sa{sv})sa{ss}us",
                                        "system-bus-name", 1, "name", "s", name, POLKIT_ACTION, 0,
                                        interactive ? POLKIT_ALLOW_USER_INTERACTION : 0u, "");
}
