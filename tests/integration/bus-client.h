/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The test's side of the daemon's bus service: a connection to the bus of
 * harness_start_bus() once the daemon owns its name there. */

#include <stdbool.h>
#include <systemd/sd-bus.h>

#define BUS_CLIENT_NAME "org.bigLittle.Switch1"
#define BUS_CLIENT_PATH "/org/bigLittle/Switch1"
#define BUS_CLIENT_IFACE "org.bigLittle.Switch1"

/* Whether someone (the daemon) owns BUS_CLIENT_NAME on 'b''s bus. */
bool bus_client_name_owned(sd_bus *b);

/* Connects to the test's bus and runs the board until the daemon owns its
 * name (failing the test if it does not within 'timeout_ms'). The caller
 * unrefs the connection. */
sd_bus *bus_client_wait_daemon(unsigned timeout_ms);
