/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "tests/integration/bus-client.h"
#include "tests/integration/harness.h"

bool bus_client_name_owned(sd_bus *b)
{
        sd_bus_message *reply = NULL;
        int has = 0;

        if (sd_bus_call_method(b, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "NameHasOwner", NULL, &reply, "s", BUS_CLIENT_NAME) >= 0)
                (void)sd_bus_message_read(reply, "b", &has);
        sd_bus_message_unref(reply);
        return has;
}

static bool daemon_owns_name(struct fakeboard *board, void *userdata)
{
        return !fakeboard_running(board) || bus_client_name_owned(userdata);
}

sd_bus *bus_client_wait_daemon(unsigned timeout_ms)
{
        sd_bus *b = NULL;
        int r = sd_bus_open_system(&b);

        ck_assert_msg(r >= 0, "cannot connect to the test bus: %s", strerror(-r));
        r = fakeboard_run(fb, timeout_ms, daemon_owns_name, b);
        ck_assert_msg(r == 1 && fakeboard_running(fb), "the daemon is not on the bus; it said:%s", log_text());
        return b;
}
