/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What the switchctl tests share: a private system bus (dbus-daemon with a
 * config of its own, its socket in a temp directory), the fake
 * org.bigLittle.Switch1 on it, switchctl run with its output captured
 * (through pipes or a pseudo-terminal), and golden files. Everything here
 * asserts (Check) instead of returning errors. */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct ctl_env {
        char dir[512];                  /* 0755, so that uid 65534 reaches the socket */
        char address[600];
        char log[600];                  /* the fake's record of the calls */
        pid_t bus_pid;
        pid_t fake_pid;
};

struct run {
        int status;                     /* exit status, or 128 + signal */
        char *out;                      /* NUL-terminated; from a terminal, "\r\n" turned back into "\n" */
        char *err;
};

struct run_opts {
        const char *const *env;         /* "NAME=value" to set, "NAME" to unset; NULL-terminated */
        bool as_nobody;                 /* run as uid/gid 65534 (needs root) */
        bool tty;                       /* standard output (and error) on a pseudo-terminal */
};

/* Where the per-test directories go; set by main() before the tests fork. */
extern const char *harness_base_dir;

/* A fresh directory and a private bus; DBUS_SYSTEM_BUS_ADDRESS is set for
 * this process too. */
void env_setup(struct ctl_env *e);
/* The fake service with extra arguments (NULL-terminated, may be NULL);
 * returns once it owns the name. */
void env_fake(struct ctl_env *e, const char *const *args);
void env_teardown(struct ctl_env *e);

/* Runs switchctl with the arguments (NULL-terminated) and waits for it. */
void run_switchctl(const struct ctl_env *e, const struct run_opts *o, struct run *res,
                   const char *const *argv);
void run_free(struct run *res);

/* Starts switchctl without waiting; its output is read by run_finish(). */
pid_t run_start(const struct ctl_env *e, const struct run_opts *o, const char *const *argv, int *out_fd,
                int *err_fd);
/* Reads from fd until 'needle' has arrived (or timeout_ms); returns what was read (malloc'd). */
char *read_until(int fd, const char *needle, int timeout_ms);
/* Optionally signals pid, reads the rest of both outputs and waits. 'early' is output already
 * read from out_fd, put in front. */
void run_finish(pid_t pid, int sig, int out_fd, int err_fd, char *early, struct run *res);

/* The fake's log without the property reads (which depend on timing). */
char *fake_calls(const struct ctl_env *e);
/* Waits until the fake's log has a line starting with 'prefix'. */
void wait_for_call(const struct ctl_env *e, const char *prefix);

/* Calls a method of the fake's test interface (EmitSwitched sss, DropHold u, Quit). */
void fake_emit_switched(const char *from, const char *to, const char *reason);
void fake_drop_hold(unsigned id);
void fake_quit(void);

/* Compares 'actual' with tests/data/ctl/NAME; with $CTL_UPDATE_GOLDEN set, writes it instead. */
void expect_golden(const char *name, const char *actual);

/* Removes a directory tree (the base directory, at the end). */
void remove_tree(const char *path);
