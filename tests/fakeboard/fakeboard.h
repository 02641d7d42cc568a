/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * A fake board for the unmodified daemon: a umockdev testbed shaped like the
 * sysfs and /proc of a real machine, and a load driver that plays tasks on it
 * in real time and answers the daemon's writes the way the kernel would
 * (CPU hotplug, schedutil-like DVFS, /proc/stat, CPU pressure).
 *
 * The process that owns the board is not under the umockdev preload: it
 * writes the testbed through its real paths. Only processes started with
 * fakeboard_spawn() see the testbed as /sys and /proc.
 *
 * Times are microseconds of CLOCK_MONOTONIC (fakeboard_now()). Functions
 * returning int give 0 (or a count) on success and a negative errno.
 */

#include <stdbool.h>
#include <sys/types.h>

#include "core/cpuset.h"

#define FAKEBOARD_MAX_CPUS 64
#define FAKEBOARD_MAX_TASKS 32
#define FAKEBOARD_MAX_OPPS 64
#define FAKEBOARD_MAX_ZONES 16

/* The load driver's period. */
#define FAKEBOARD_STEP_USEC 5000

/* cluster_id of a cluster description: the CPU's own number (x86, where a
 * "cluster" is the set of cores sharing an L2, often one core). */
#define FAKEBOARD_CLUSTER_ID_PER_CPU (-2)
#define FAKEBOARD_NO_CLUSTER_ID (-1)

/* One kind of core of a board, as the kernel shows it. */
struct fakeboard_cluster_desc {
        const char *core;               /* for people: "Cortex-A7" */
        const char *cpus;               /* cpulist */
        unsigned capacity;              /* cpuN/cpu_capacity; 0: the kernel has no such file */
        int cluster_id;                 /* topology/cluster_id, or one of the constants above */
        int package_id;                 /* topology/physical_package_id */
        bool per_cpu_policy;            /* a cpufreq policy per CPU (x86) rather than per cluster */
        unsigned min_khz, max_khz, step_khz;    /* operating points min, min+step, .., max */
        const unsigned *opps_khz;       /* or this table, ascending from min_khz to max_khz */
        unsigned nopps;
        const char *driver;             /* scaling_driver */
        const char *governor;           /* scaling_governor */
        const char *governors;          /* scaling_available_governors */
        bool list_frequencies;          /* has scaling_available_frequencies (table drivers) */
        int transition_latency_ns;      /* cpuinfo_transition_latency */
        /* Cores the in-kernel switcher took down (the partners of its
         * logical CPUs and the unpaired ones): offline, without cpufreq. */
        bool switcher_offline;
        /* The perf PMU whose cpus file lists these CPUs ("cpu_core",
         * "armv8_cortex_a53"); NULL for none of its own. */
        const char *pmu;
        int pmu_type;                   /* its type file */
};

/* A trip point beyond the critical one, as the zone's driver lists it. */
struct fakeboard_trip_desc {
        const char *type;               /* "passive", "active", "hot", "critical" */
        int temp_mc;
        int hyst_mc;
};

struct fakeboard_zone_desc {
        const char *type;
        int temp_mc;                    /* initial temperature, millidegrees Celsius */
        int critical_mc;                /* trip_point_0 (critical); 0: the zone has no critical trip */
        const struct fakeboard_trip_desc *trips;        /* the next trip points, in order */
        unsigned ntrips;
};

struct fakeboard_desc {
        const char *name;
        const char *summary;
        unsigned ncpus;
        unsigned kernel_max;            /* /sys/devices/system/cpu/kernel_max: NR_CPUS - 1 */
        const char *fixed_cpus;         /* CPUs without cpuN/online: the kernel cannot offline them */
        const struct fakeboard_cluster_desc *clusters;
        unsigned nclusters;
        const struct fakeboard_zone_desc *zones;
        unsigned nzones;
        bool psi;                       /* /proc/pressure/cpu exists (else it is hidden) */
        bool bl_switcher;               /* /sys/kernel/bL_switcher/active reads 1 */
        /* A cgroup v2 hierarchy at /sys/fs/cgroup with the cpuset controller
         * enabled at the root, and system.slice and user.slice that set no
         * CPUs of their own. */
        bool cgroup2;
};

/* A phase of a load pattern: for duration_ms, ntasks tasks each wanting
 * demand[i] capacity units (1024 = the biggest core at its top speed). */
struct fakeboard_phase {
        unsigned duration_ms;
        unsigned ntasks;
        unsigned demand[FAKEBOARD_MAX_TASKS];
};

struct fakeboard_pattern {
        const char *name;
        const char *summary;
        const struct fakeboard_phase *phases;
        unsigned nphases;
};

/* boards.c: the built-in boards and load patterns; NULL when unknown or past the end. */
const struct fakeboard_desc *fakeboard_desc_find(const char *name);
const struct fakeboard_desc *fakeboard_desc_get(unsigned index);
const struct fakeboard_pattern *fakeboard_pattern_find(const char *name);
const struct fakeboard_pattern *fakeboard_pattern_get(unsigned index);

/* "2 tasks of 600", "1 task of 40 + 2 tasks of 300", "no load". */
void fakeboard_phase_describe(const struct fakeboard_phase *phase, char *buf, size_t size);

struct fakeboard;

enum fakeboard_event_kind {
        FAKEBOARD_ONLINE_CHANGED,       /* online: the new set */
        FAKEBOARD_PHASE_STARTED,        /* phase: index into the pattern, text: its description */
        FAKEBOARD_PATTERN_DONE,
        FAKEBOARD_OUTPUT_LINE,          /* text: one line the spawned process wrote, without '\n' */
        FAKEBOARD_PROCESS_EXITED,       /* status: as from waitpid() */
};

struct fakeboard_event {
        enum fakeboard_event_kind kind;
        bl_usec_t time;
        const bl_cpuset *online;
        const char *text;
        unsigned phase;
        unsigned duration_ms;           /* PHASE_STARTED: how long the phase lasts */
        int status;
};

typedef void (*fakeboard_observer_fn)(struct fakeboard *fb, const struct fakeboard_event *event,
                                      void *userdata);
typedef bool (*fakeboard_until_fn)(struct fakeboard *fb, void *userdata);

bl_usec_t fakeboard_now(void);

/* Builds the testbed of a built-in board (-ENOENT: no such board) with every
 * CPU online, the lowest OPPs and no load, and publishes its files. */
int fakeboard_new(const char *board, struct fakeboard **ret);
/* Kills a spawned process that still runs, and removes the testbed. */
void fakeboard_free(struct fakeboard *fb);

const char *fakeboard_root(const struct fakeboard *fb);
const struct fakeboard_desc *fakeboard_desc(const struct fakeboard *fb);
/* The real path of a testbed file given as the daemon sees it ("/sys/..."). */
int fakeboard_path(const struct fakeboard *fb, const char *path, char *buf, size_t size);
void fakeboard_set_observer(struct fakeboard *fb, fakeboard_observer_fn observer, void *userdata);

/* The board's view of the online CPUs, as of its last step. */
void fakeboard_online(const struct fakeboard *fb, bl_cpuset *ret);
/* Capacity of a CPU at its top frequency (cpu_capacity, or scaled from
 * cpuinfo_max_freq where the board has none); 0 for no such CPU. */
unsigned fakeboard_capacity(const struct fakeboard *fb, unsigned cpu);
/* The current frequency of a CPU's policy, kHz; 0 for no such CPU. */
unsigned fakeboard_cur_freq(const struct fakeboard *fb, unsigned cpu);
/* Takes a CPU off or on line as an administrator would (and the kernel
 * updates its files at once). -EPERM for a CPU that cannot go offline. */
int fakeboard_set_cpu_online(struct fakeboard *fb, unsigned cpu, bool online);
/* Sends the udev event 'action' ("online", "offline", "change", ...) of the
 * device at sysfs_path ("/sys/devices/system/cpu/cpu6") to every udev
 * monitor of the processes under the preload, as udev would after its
 * rules ran. The board's files are not touched: change them first. Returns
 * the number of monitors reached. */
int fakeboard_uevent(struct fakeboard *fb, const char *sysfs_path, const char *action);
/* Sets thermal zone N's temperature (millidegrees Celsius); -ENOENT for no such zone. */
int fakeboard_set_temp(struct fakeboard *fb, unsigned zone, int millicelsius);

/* A constant load until changed; ends any pattern. */
int fakeboard_set_load(struct fakeboard *fb, const unsigned *demand, unsigned ntasks);
/* Plays phases from the next step on (copied); after the last one there is
 * no load. */
int fakeboard_set_pattern(struct fakeboard *fb, const struct fakeboard_phase *phases, unsigned nphases);
bool fakeboard_pattern_done(const struct fakeboard *fb);

/* One step of the kernel at time now: reads the online files (reacting to
 * writes), accounts the time since the previous step, plays the pattern,
 * places the tasks, picks frequencies and rewrites /proc/stat and
 * /proc/pressure/cpu in place. Also collects the spawned process's output. */
int fakeboard_step(struct fakeboard *fb, bl_usec_t now);
/* Steps the board in real time until until() is true (returns 1; checked
 * after every step) or timeout_ms passed (returns 0). until may be NULL. */
int fakeboard_run(struct fakeboard *fb, unsigned timeout_ms, fakeboard_until_fn until, void *userdata);
int fakeboard_run_for(struct fakeboard *fb, unsigned ms);

/* Every change of the online set the board saw, oldest first. */
unsigned fakeboard_n_online_changes(const struct fakeboard *fb);
int fakeboard_online_change(const struct fakeboard *fb, unsigned index, bl_usec_t *time, bl_cpuset *online);

/* Makes the kernel refuse writes to a testbed file: the next 'count'
 * write()s of spawned processes to 'path' (as they see it, "/sys/...";
 * symlinks are followed, so cpuN/cpufreq/... names its policy's file) fail
 * with 'error'. Takes effect at once, also for a process already running;
 * count 0 removes the rule. Replaces an earlier rule for the same file.
 * -ENOENT: no such file; -ENOPKG: the refusing preload was not built. */
int fakeboard_refuse_writes(struct fakeboard *fb, const char *path, int error, unsigned count);
/* How many refusals of the rule for 'path' are left (0: none, or no rule). */
int fakeboard_refusals_left(struct fakeboard *fb, const char *path);

/* Starts argv (argv[0] is run as given, searched in PATH if it has no '/')
 * under the umockdev preload with UMOCKDEV_DIR set to the testbed, and
 * before it the preload that plays fakeboard_refuse_writes(). Its
 * stdout and stderr are collected as lines (see below) unless inherit_stdio,
 * in which case it shares ours (interactive use). It gets SIGKILL if the
 * board's process dies. One process at a time: -EBUSY while one runs.
 * Starting one forgets the previous one's lines. */
int fakeboard_spawn(struct fakeboard *fb, char *const argv[], bool inherit_stdio);
pid_t fakeboard_pid(const struct fakeboard *fb);
bool fakeboard_running(const struct fakeboard *fb);
/* The waitpid() status of the process that exited; -ECHILD if none has, or it still runs. */
int fakeboard_exit_status(const struct fakeboard *fb, int *status);
int fakeboard_kill(struct fakeboard *fb, int sig);
/* Runs the board until the process exits and its output is drained; -ETIMEDOUT after timeout_ms. */
int fakeboard_wait(struct fakeboard *fb, unsigned timeout_ms, int *status);

unsigned fakeboard_n_lines(const struct fakeboard *fb);
const char *fakeboard_line(const struct fakeboard *fb, unsigned index, bl_usec_t *time);

/* The last lines the command printed, as "\n    | LINE" each, at most
 * FAKEBOARD_LOG_TAIL_MAX bytes (Check aborts on longer failure messages),
 * for failure messages. The buffer is static: valid until the next call. */
#define FAKEBOARD_LOG_TAIL_MAX 3000
const char *fakeboard_log_tail(const struct fakeboard *fb);
/* Index of the first line at or after from containing needle, or -ENOENT. */
int fakeboard_find_line(const struct fakeboard *fb, unsigned from, const char *needle);
