/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * What the files of the fake board share: the board itself and the helpers
 * one file provides to the others. Not for users of board.h.
 */

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <umockdev.h>

#include "fakeboard/board.h"

#define LINE_MAX_LEN 4096
#define STAT_BUF_SIZE (FAKEBOARD_MAX_CPUS * 128 + 512)
/* cpuidle: state 0 takes the idle periods that end within a step, state 1
 * the steps a CPU is idle throughout. */
#define IDLE_STATES 2
/* The rules of the refusing preload (tests/fakeboard/refuse-writes.c), in
 * the testbed's root (outside the /sys, /dev and /proc the preload
 * redirects). */
#define REFUSE_RULES "refuse-writes"
#define MAX_OVERRIDES 8

struct fb_cpu {
        bool fixed;                     /* no online file */
        unsigned capacity;              /* at the policy's top frequency */
        unsigned policy;
        double busy_us, idle_us;        /* accumulated while online */
        double state_us[IDLE_STATES];   /* cpuidle time, as counted */
        unsigned long long usage[IDLE_STATES];
        double pending_us;              /* an idle period not yet counted (cpuidle_defers_idle) */
        /* FAKEBOARD_RESIDENCY_KERNEL */
        bool timeline;                  /* the fields below are set */
        bool idle;                      /* in an idle period */
        double idle_len_us;             /* of the period in progress */
        double owed_us;                 /* work that came and has not run */
        double next_wake_us;            /* on the board's clock */
        uint64_t rng;
        unsigned long long shown_us[IDLE_STATES], shown_usage[IDLE_STATES];   /* as published */
};

struct fb_policy {
        unsigned first;
        bl_cpumask cpus;
        const struct fakeboard_cluster_desc *desc;
        unsigned max_khz;               /* cpuinfo_max_freq */
        unsigned nopps;
        unsigned opp[FAKEBOARD_MAX_OPPS];       /* kHz, ascending */
        unsigned cur_khz;
        unsigned min_limit_khz, max_limit_khz;  /* as last read */
};

struct fb_line {
        bl_usec_t time;
        char *text;
};

struct fb_change {
        bl_usec_t time;
        bl_cpumask online;
};

/* A file the board publishes with a test's text instead of its own. */
struct fb_override {
        char path[PATH_MAX];            /* real path */
        char *text;
};

struct fakeboard {
        const struct fakeboard_desc *desc;
        UMockdevTestbed *testbed;
        char *root;

        unsigned ncpus, npolicies;
        bl_cpumask all;
        struct fb_cpu cpu[FAKEBOARD_MAX_CPUS];
        struct fb_policy policy[FAKEBOARD_MAX_CPUS];
        bl_cpumask online;
        unsigned capacity[FAKEBOARD_MAX_CPUS];  /* the driver's view of fb_cpu */
        unsigned cpu_policy[FAKEBOARD_MAX_CPUS];
        struct fakeboard_policy_state policy_state[FAKEBOARD_MAX_CPUS];
        int temp_mc[FAKEBOARD_MAX_ZONES];       /* as published */
        unsigned running;

        double clock_us;                /* the time the driver covered: FAKEBOARD_RESIDENCY_KERNEL's clock */
        struct fakeboard_driver driver;
        void *driver_data;
        struct fakeboard_output step_out;
        const char *refuse_so;

        bool stepped;
        bl_usec_t last_step;
        double psi_total_us;
        double psi_avg[3];              /* avg10, avg60, avg300 in percent */

        struct fb_change *changes;
        unsigned nchanges;
        size_t changes_size;

        pid_t pid;
        bool exited;
        int exit_status;
        int out_fd;
        char out[LINE_MAX_LEN];
        size_t outlen;
        struct fb_line *lines;
        unsigned nlines;
        size_t lines_size;

        fakeboard_observer_fn observer;
        void *userdata;

        unsigned long long uevent_seqnum;

        struct fb_override overrides[MAX_OVERRIDES];
        unsigned noverrides;

        char stat_buf[STAT_BUF_SIZE];
};

/* files.c */
__attribute__((format(printf, 4, 5)))
int fb_board_path(const struct fakeboard *fb, char *buf, size_t size, const char *fmt, ...);
int fb_write_in_place(const char *path, const char *text, size_t len);
int fb_publish_text(const struct fakeboard *fb, const char *full, const char *text, size_t len);
__attribute__((format(printf, 3, 4)))
int fb_board_printf(const struct fakeboard *fb, const char *path, const char *fmt, ...);
__attribute__((format(printf, 4, 5)))
int fb_policy_printf(const struct fakeboard *fb, unsigned policy, const char *name,
                     const char *fmt, ...);
int fb_read_text(const char *path, char *buf, size_t size);
int fb_mkdir_p(const char *path);

/* tree.c */
void fb_format_cpu_words(const bl_cpumask *set, char *buf, size_t size);
/* The board's files as its description gives them, once its policies are
 * set up (fb_setup_policies()) and its limits read. */
int fb_write_tree(struct fakeboard *fb);
int fb_setup_policies(struct fakeboard *fb);

/* kernel.c */
int fb_publish_hotplug(struct fakeboard *fb);
int fb_sync_online(struct fakeboard *fb, bl_usec_t now);
void fb_read_limits(struct fakeboard *fb);
void fb_fill_state(struct fakeboard *fb, bl_usec_t now, const bl_cpumask *was_online,
                   struct fakeboard_state *st);

/* accounting.c */
void fb_account(struct fakeboard *fb, const bl_cpumask *was_online, const struct fakeboard_output *out);
int fb_apply_output(struct fakeboard *fb, const struct fakeboard_output *out);
int fb_publish_stat(struct fakeboard *fb);
int fb_publish_cpuidle(struct fakeboard *fb);
int fb_publish_psi(struct fakeboard *fb);

/* process.c */
void fb_forget_lines(struct fakeboard *fb);
int fb_drain_output(struct fakeboard *fb, bl_usec_t now);
int fb_collect(struct fakeboard *fb, bl_usec_t now);
