/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * What the integration tests of the real bigLittled share: a fake board, a
 * work directory per test, the daemon spawned on the board, waiting for its
 * lines and for the board's state, and a main() that runs a suite.
 *
 * Check runs each test in its own process: the board and the directories
 * are that process's, set up by harness_setup() (a checked fixture) and
 * removed by harness_teardown(), which runs only when the test passed; a
 * failed test's daemon dies with it (PR_SET_PDEATHSIG) and harness_main()
 * removes what is left. Every helper fails the test (with the daemon's log
 * tail) rather than returning an error. Helper processes (a private
 * dbus-daemon, fakes of the services the daemon talks to) are stopped by
 * harness_teardown() too, after the daemon.
 *
 * DAEMON_PATH must be defined when this is compiled.
 */

#include <check.h>
#include <stdbool.h>
#include <sys/types.h>

#include "tests/fakeboard/fakeboard.h"

/* Bounds for things that must happen: far above what they take. */
#define START_BOUND_MS 5000
#define EXIT_BOUND_MS 10000

#define EXIT_UNAVAILABLE 69

/* The test's board (NULL until new_board()). */
extern struct fakeboard *fb;

/* Checked fixture: a fresh work directory (its run/ is the daemon's
 * RUNTIME_DIRECTORY) and no system bus for the daemon (harness_start_bus()
 * gives it one). */
void harness_setup(void);
void harness_teardown(void);
/* Creates the test's TMPDIR (open to every user, as a child running as
 * nobody must reach the bus socket in a work directory), runs the suite and
 * removes the TMPDIR; the exit status for main(). */
int harness_main(Suite *suite, const char *name);

const char *harness_workdir(void);
/* The daemon's RUNTIME_DIRECTORY: where its saved state goes. */
const char *harness_runtime_dir(void);
/* The settings of the daemon's saved state (in harness_runtime_dir()),
 * one per line, without comments and the pid; "" when there is none. A
 * static buffer, valid until the next call. */
const char *harness_saved_settings(void);

void new_board(const char *name);
/* Writes 'text' to the work directory's file 'name'; returns its path
 * (a static buffer, valid until the next call). */
const char *write_config(const char *name, const char *text);
/* The configuration most tests of the daemon start from: samples every
 * 20 ms, the hotplug backend, the pelt heuristic, thresholds 80/60, up and
 * down delays of 200 and 300 ms, 40 ms minimum residency, at most 10
 * switches a second. A string literal, so that tests append sections to
 * it and take its size. */
#define HARNESS_PELT_CONFIG \
        "[daemon]\n" \
        "sample_interval_ms = 20\n" \
        "backend = hotplug\n" \
        "[policy]\n" \
        "heuristics = pelt\n" \
        "[hysteresis]\n" \
        "up_threshold = 80\n" \
        "down_threshold = 60\n" \
        "up_delay_ms = 200\n" \
        "down_delay_ms = 300\n" \
        "min_residency_ms = 40\n" \
        "max_switch_rate_hz = 10\n"
/* HARNESS_PELT_CONFIG where a switch down must not wait for the measured
 * cost to pay back (the tests of the bus and of the journal). */
#define HARNESS_PELT_NO_BREAK_EVEN_CONFIG HARNESS_PELT_CONFIG "break_even = no\n"
/* Writes the work directory's bigLittle.conf: HARNESS_PELT_CONFIG and then
 * 'extra' (NULL: nothing); returns its path (as write_config()). */
const char *write_pelt_config(const char *extra);

/* The timing of a configuration that switches within tens of ms. */
struct fast_timing {
        unsigned up_delay_ms, down_delay_ms, min_residency_ms, max_switch_rate_hz;
};
/* Writes the work directory's bigLittle.conf for fast switching: samples
 * every 10 ms, backend 'backend', the pelt heuristic, thresholds 80/60,
 * 't', no break-even wait, and the sections 'extra' (may be ""); returns its path (as
 * write_config()). */
const char *write_fast_config(const char *backend, const struct fast_timing *t, const char *extra);
/* The path of the work directory's file 'name' (a static buffer). */
const char *work_file(const char *name);
/* The text of the work directory's file 'name' (its first 8 KiB); "" when
 * there is none. A static buffer, valid until the next call. */
const char *read_work_file(const char *name);
/* The whole text of the file at 'path' (malloc'ed, for the caller to
 * free); fails the test when it cannot be read. */
char *read_whole_file(const char *path);
/* The last 'max' bytes of 'text' (all of it if shorter), for failure
 * messages: Check limits their size. */
const char *text_tail(const char *text, size_t max);
/* Spawns the daemon on the board: --foreground --config CONFIG and the
 * extra arguments, a NULL-terminated list. */
void spawn_daemon(const char *config, ...) __attribute__((sentinel));

/* The last lines of the daemon's output, for failure messages. */
const char *log_text(void);
/* Runs the board until a line containing needle appears at or after line
 * 'from'; returns its index. Fails if the daemon exits first. */
unsigned expect_line(unsigned from, const char *needle, unsigned timeout_ms);
/* Fails unless line 'line' of the daemon's output contains needle. */
void expect_line_has(unsigned line, const char *needle);
/* The number of lines at or after 'from' containing needle. */
unsigned count_lines(unsigned from, const char *needle);

void set_load(const unsigned *demand, unsigned n);
bool online_equals(const char *list);
/* The board's online set as a list (a static buffer). */
const char *online_text(void);
/* The online CPUs as the kernel's files have them now (the board's own
 * view lags by up to a step): cpuN/online reads 1, or there is none in a
 * cpuN that is there (the kernel cannot take it down); a CPU whose cpuN
 * is gone (unplugged for good) is not online. A static buffer. */
const char *online_files(void);
/* Runs the board until its online set is 'list'; returns when the board
 * saw it so (its last change, or now if it was so from the start). */
bl_usec_t expect_online(const char *list, unsigned timeout_ms);
/* Runs the board for ms; fails unless its online set is 'list' throughout. */
void expect_online_stays(const char *list, unsigned ms);

/* Signals the daemon, waits for it to exit and lets the board see its
 * last writes; returns the waitpid() status. */
int stop_daemon(int sig);
/* Runs the board until the daemon exits by itself; returns the waitpid()
 * status. */
int wait_exit(void);
void assert_exit_status(int status, int want);

/* The first line of a board file given as the daemon sees it ("/sys/..."),
 * without its newline; "" when empty. */
void read_board_file(const char *path, char *buf, size_t size);
void write_board_file(const char *path, const char *text);
/* Whether the board has the file (or directory) at 'path'. */
bool board_file_exists(const char *path);
void assert_file(const char *path, const char *want);
/* Runs the board until the file's first line is 'want'. */
void expect_file(const char *path, const char *want, unsigned timeout_ms);

/* A test case for tests that need root (plugins must be owned by root, the
 * journal's socket needs a mount namespace). Check has no skip of its own:
 * when not root the case's name carries a TAP "# SKIP" directive, which
 * automake's TAP driver reads in each of its tests' lines, and each test
 * returns at once when harness_is_root() is false. */
TCase *harness_root_tcase(const char *name);
bool harness_is_root(void);

/* Rss and Private_Dirty of process 'pid' in KiB (/proc/PID/smaps_rollup);
 * -errno when it cannot be read. */
int harness_memory(pid_t pid, unsigned long *rss_kib, unsigned long *dirty_kib);
/* Whether the daemon's memory figures can be compared: not in a build with
 * AddressSanitizer (the daemon's too), whose quarantine keeps freed memory. */
bool harness_memory_comparable(void);

/* Starts a dbus-daemon listening in the work directory (socket "bus", its
 * messages in "bus.log"), for every user to connect to, with the <policy>
 * elements of 'policy' (NULL: everyone may do everything), and points
 * DBUS_SYSTEM_BUS_ADDRESS (ours, the daemon's, the children's) at it.
 * Returns the address (a static buffer). */
const char *harness_start_bus(const char *policy);
/* The <policy> elements of a real system bus (deny by default, with holes
 * for replies and signals) plus the shipped policy file of 'conf_dir', for
 * harness_start_bus(). A macro: conf_dir is a string literal. */
#define HARNESS_SYSTEM_BUS_POLICY(conf_dir) \
        "  <policy context=\"default\">\n" \
        "    <allow user=\"*\"/>\n" \
        "    <deny own=\"*\"/>\n" \
        "    <deny send_type=\"method_call\"/>\n" \
        "    <allow send_type=\"signal\"/>\n" \
        "    <allow send_requested_reply=\"true\" send_type=\"method_return\"/>\n" \
        "    <allow send_requested_reply=\"true\" send_type=\"error\"/>\n" \
        "    <allow receive_type=\"method_call\"/>\n" \
        "    <allow receive_type=\"method_return\"/>\n" \
        "    <allow receive_type=\"error\"/>\n" \
        "    <allow receive_type=\"signal\"/>\n" \
        "    <allow send_destination=\"org.freedesktop.DBus\" send_interface=\"org.freedesktop.DBus\"/>\n" \
        "    <allow send_destination=\"org.freedesktop.DBus\"\n" \
        "           send_interface=\"org.freedesktop.DBus.Introspectable\"/>\n" \
        "  </policy>\n" \
        "  <include>" conf_dir "/org.bigLittle.Switch1.conf</include>\n"
/* Stops the dbus-daemon of harness_start_bus(): the bus goes away under
 * everyone connected. harness_start_bus() starts a new one on the same
 * socket. */
void harness_stop_bus(void);
/* fork() for a helper process: the child (0 returned) gets SIGKILL when
 * the test's process dies and the default SIGTERM action; the parent's
 * teardown stops it with SIGTERM, or harness_stop_child() earlier. */
pid_t harness_fork(void);
/* SIGTERM to a child of harness_fork(), and waits for it. */
void harness_stop_child(pid_t pid);
/* Starts argv[0] (a path) with its standard output and error in the files
 * 'out' and 'err' (created or emptied); the child gets SIGKILL when the
 * test's process dies, so a test that times out takes it along. Returns its
 * pid, for the caller to wait for. */
pid_t harness_exec_to_files(char *const argv[], const char *out, const char *err);
/* Runs the shell command 'cmd' with its standard error joined to its
 * output, which goes to 'out' (what fits); returns its exit status. Fails
 * the test when it does not exit. */
int harness_run(const char *cmd, char *out, size_t size);
