/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * What the tests of org.bigLittle.Switch1 (check_bus*.c) share: the real
 * bigLittled on a fake board, on a private dbus-daemon of each test's own
 * (DBUS_SYSTEM_BUS_ADDRESS), and the test's connection to it as root, which
 * notes the signals the daemon sends. Each helper fails the test rather than
 * returning an error, as harness.h's do.
 *
 * Timing as in check_daemon.c: bounds far above what the delays need.
 * DAEMON_PATH and SWITCHCTL_PATH must be defined when this is compiled.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

#include "tests/integration/harness.h"

#define BUS_NAME "org.bigLittle.Switch1"
#define BUS_PATH "/org/bigLittle/Switch1"
#define BUS_IFACE "org.bigLittle.Switch1"
#define ERR(name) "org.bigLittle.Switch1.Error." name
#define DENIED_MESSAGE "not permitted: run as root or grant org.bigLittle.Switch1.manage"

#define SAMPLE_MS 20
#define UP_DELAY_MS 200
#define DOWN_DELAY_MS 300
#define SWITCH_BOUND_MS 2000

#define SEC UINT64_C(1000000)

/* An idle board, and two tasks that want the big cluster. */
extern const unsigned idle_load[1];
extern const unsigned heavy_load[2];

/* The test's connection to its bus, as root (NULL until start_daemon()). */
extern sd_bus *bus;

/* What the daemon said on the bus, as our connection saw it. */
#define MAX_SEEN 64
struct seen {
        unsigned nswitched;
        char from[MAX_SEEN][72], to[MAX_SEEN][72], reason[MAX_SEEN][256];
        unsigned nchanged;
        char changed[MAX_SEEN][32];
};
extern struct seen seen;

/* Checked fixture: harness_setup() and no connection yet. */
void bus_test_setup(void);
void bus_test_teardown(void);

/* Starts the daemon and waits until it owns its name. */
void start_daemon(const char *config);
/* The usual start: the board idles at little under
 * HARNESS_PELT_NO_BREAK_EVEN_CONFIG (plus 'extra'). */
void start_idle(const char *extra);

/* Runs the board until a PropertiesChanged names 'name'. */
void expect_changed(const char *name);
/* For fakeboard_run(): whether *(unsigned *)userdata Switched signals came. */
bool switched_seen(struct fakeboard *board, void *userdata);

uint64_t wall_now(void);
uint64_t mono_now(void);

/* Calls and properties. */

int hold_with_flags(sd_bus *b, const char *level, uint64_t duration, const char *reason, uint64_t flags,
                    uint32_t *id, sd_bus_error *error);
/* A hold that must be placed: its id. */
uint32_t hold_ok(sd_bus *b, const char *level, uint64_t duration, const char *reason, uint64_t flags);
/* A method of the interface; its "u" answer in *ret when 'ret' is not NULL. */
int call_u(sd_bus *b, const char *member, sd_bus_error *error, uint32_t *ret, const char *types, ...);
/* Fails unless the call failed with 'name' and a message holding
 * 'contains' (NULL: any). Frees 'error'. */
void expect_error(int r, sd_bus_error *error, const char *name, const char *contains);
/* A method's reply, or a failed test. */
sd_bus_message *call_ok(sd_bus *b, const char *iface, const char *member, const char *types, ...);

/* Properties, read on 'bus'. The caller frees get_string()'s value. */
char *get_string(const char *property);
void assert_property(const char *property, const char *want);
/* Runs the board until 'property' reads 'want'. */
void expect_property(const char *property, const char *want, unsigned timeout_ms);
void get_trivial(const char *property, char type, void *ret);
double get_double(const char *property);
/* The property's value, entered: ready to read 'contents' from. */
sd_bus_message *get_container(const char *property, const char *type, const char *contents);
/* A struct property's value, entered. */
sd_bus_message *get_struct(const char *property, const char *contents);

struct hold_info {
        uint32_t id, uid;
        int32_t pid;
        char level[32], unit[128], owner[64], reason[256];
        uint64_t since_wall, until_wall;
        bool persist;
};

/* The Holds property, up to 'size' of them (more fails the test). */
unsigned read_holds(struct hold_info *out, unsigned size);
unsigned count_holds(void);
/* Runs the board until there are 'n' holds. */
void expect_holds(unsigned n, unsigned timeout_ms);

/* Runs the real switchctl with 'args' (a shell word list), returns its
 * exit status and its output (stdout and stderr) in 'out'. */
int switchctl(const char *args, char *out, size_t size);
