/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * The kernel the simulator plays: a umockdev testbed shaped like the sysfs
 * and /proc of a real machine, kept up to date in real time, that answers
 * the daemon's writes the way the kernel would (CPU hotplug, cpufreq limits,
 * cgroup cpusets) and runs a command under the umockdev preload so that it
 * sees the testbed as /sys and /proc.
 *
 * What runs on the CPUs is not the kernel's business: a load driver (struct
 * fakeboard_driver) is asked at every step what the CPUs did since the
 * previous one, given the kernel state the writes selected, and the board
 * publishes its answer (/proc/stat and /proc/loadavg,
 * cpuN/cpuidle/stateK/{time,usage}, /proc/pressure/cpu, scaling_cur_freq, thermal zone temperatures). The
 * integration tests' task model (tests/fakeboard/) and blsim live's
 * simulated board (src/sim/live.c) are the two drivers.
 *
 * The process that owns the board is not under the umockdev preload: it
 * writes the testbed through its real paths. Only processes started with
 * fakeboard_spawn() see the testbed as /sys and /proc.
 *
 * Times are microseconds of CLOCK_MONOTONIC (fakeboard_now()). Functions
 * returning int give 0 (or a count) on success and a negative errno.
 */

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/cpumask.h"

#define FAKEBOARD_MAX_CPUS 256
#define FAKEBOARD_MAX_OPPS 64
#define FAKEBOARD_MAX_ZONES 16
#define FAKEBOARD_MAX_GROUPS 16

/* The board's period: it steps (and asks its driver) this often. */
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
        /* Per CPU of 'cpus', in order: cpu_capacity where the cores sharing
         * this policy are not of one kind (each its own capacity-dmips-mhz);
         * NULL: 'capacity' for all. */
        const unsigned *cpu_capacities;
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
        /* The kernel's Energy Model of the cluster: one busy CPU's power in
         * uW at each of 'opps_khz', shown in /sys/kernel/debug/energy_model
         * as Linux 6.x shows it; NULL: no model (debugfs without it). */
        const unsigned *em_uw;
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

/* How cpuidle's residency (stateK/time and usage) is credited. */
enum fakeboard_residency {
        /* Per board step: the idle time of a step with busy time is one
         * period ending within it (state 0), a step idle throughout one of
         * its own (state 1), counted at once or, with cpuidle_defers_idle,
         * when the next busy step ends it. */
        FAKEBOARD_RESIDENCY_STEP,
        /* As a kernel does it: each CPU is woken by a timer every
         * idle_wake_us (within +-10 %, from a random phase) and on load
         * of a whole CPU; at a wake it runs the work that came while it
         * idled (the driver's busy time, conserved, arrives evenly) and
         * goes idle again once it is done. A period's time and usage are
         * added when it ends, to state 0 below 1 ms, else state 1;
         * /proc/stat's idle time includes the period in progress. */
        FAKEBOARD_RESIDENCY_KERNEL,
};

/* The timer rhythm of FAKEBOARD_RESIDENCY_KERNEL when idle_wake_us is 0:
 * near the sample intervals, so that reads alias (issue 16). */
#define FAKEBOARD_IDLE_WAKE_USEC 11000

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
        /* Every CPU has cpuidle states 0 (idle periods that end within a
         * step) and 1 (whole steps idle) whose time files count its idle
         * µs, unless no_cpuidle. With cpuidle_defers_idle, as on real
         * kernels, an idle period's time is added only when it ends (a
         * step with busy time, or the CPU going offline): a CPU idle for a
         * long while shows no idle time until it wakes. */
        bool no_cpuidle;
        bool cpuidle_defers_idle;
        enum fakeboard_residency residency;
        unsigned idle_wake_us;          /* FAKEBOARD_RESIDENCY_KERNEL; 0: FAKEBOARD_IDLE_WAKE_USEC */
        unsigned long long idle_seed;   /* of the wake phases; 0: a fixed one */
        bool bl_switcher;               /* /sys/kernel/bL_switcher/active reads 1 */
        /* A cgroup v2 hierarchy at /sys/fs/cgroup with the cpuset controller
         * enabled at the root, and groups that set no CPUs of their own:
         * 'groups' (paths below the root, parents first), or system.slice
         * and user.slice when ngroups is 0. Work runs in these groups (see
         * struct fakeboard_state, usable). */
        bool cgroup2;
        const char *const *groups;
        unsigned ngroups;
};

struct fakeboard;

enum fakeboard_event_kind {
        FAKEBOARD_ONLINE_CHANGED,       /* online: the new set */
        FAKEBOARD_PHASE_STARTED,        /* a driver's: phase: index into its pattern, text: its description */
        FAKEBOARD_PATTERN_DONE,         /* a driver's: what it plays has ended */
        FAKEBOARD_OUTPUT_LINE,          /* text: one line the spawned process wrote, without '\n' */
        FAKEBOARD_PROCESS_EXITED,       /* status: as from waitpid() */
};

struct fakeboard_event {
        enum fakeboard_event_kind kind;
        bl_usec_t time;
        const bl_cpumask *online;
        const char *text;
        unsigned phase;
        unsigned duration_ms;           /* PHASE_STARTED: how long the phase lasts */
        int status;
};

typedef void (*fakeboard_observer_fn)(struct fakeboard *fb, const struct fakeboard_event *event,
                                      void *userdata);
typedef bool (*fakeboard_until_fn)(struct fakeboard *fb, void *userdata);

/* A cpufreq policy as the kernel holds it at a step. */
struct fakeboard_policy_state {
        unsigned first;                 /* policyN: its first CPU */
        bl_cpumask cpus;                /* related_cpus */
        unsigned nopps;
        const unsigned *opps_khz;       /* ascending */
        unsigned max_khz;               /* cpuinfo_max_freq */
        /* scaling_min_freq and scaling_max_freq as written (unreadable or
         * empty: the hardware's limits) */
        unsigned min_limit_khz, max_limit_khz;
        unsigned cur_khz;               /* scaling_cur_freq as published */
        bool switcher_offline;          /* a switcher's partner: no cpufreq files */
};

/* What the kernel's state is at a step, the writes since the previous one
 * applied: what a load driver may place work on. */
struct fakeboard_state {
        bl_usec_t now;
        unsigned ncpus;
        bl_cpumask online;
        /* The CPUs online during the time since the previous step (the
         * driver's busy times count for these only). */
        bl_cpumask was_online;
        /* Where the tasks may run: online CPUs, within the CPUs some group
         * of desc->groups may use (when the board has a cgroup tree; a
         * cpuset.cpus that is empty or unreadable means the parent's). */
        bl_cpumask allowed;
        /* 'allowed' minus the CPUs of policies capped to their lowest OPP
         * (max_limit_khz at or below it): where a level puts the work. */
        bl_cpumask usable;
        const unsigned *capacity;       /* per CPU, at its policy's top frequency */
        const unsigned *cpu_policy;     /* per CPU: index into policy */
        unsigned npolicies;
        const struct fakeboard_policy_state *policy;
        unsigned nzones;
        const int *temp_mc;             /* per zone, as published */
};

/* Keeps a zone's temperature (fakeboard_output). */
#define FAKEBOARD_TEMP_KEEP INT_MIN

/* A driver's answer for the time since the previous step. The board fills
 * it with "nothing happened, keep everything" before asking. */
struct fakeboard_output {
        /* The time busy_us and stall_us cover: dt unless the driver says
         * otherwise. A driver that runs in steps of its own gives the total
         * of the steps it ran (0 when none), so that /proc/stat counts the
         * time it accounted (busy + idle = covered on every online CPU). */
        bl_usec_t covered_us;
        double busy_us[FAKEBOARD_MAX_CPUS];     /* per CPU */
        double stall_us;                        /* of it, time some work waited for a CPU */
        unsigned cur_khz[FAKEBOARD_MAX_CPUS];   /* per policy: the frequency from now on; 0 keeps it */
        int temp_mc[FAKEBOARD_MAX_ZONES];       /* per zone, or FAKEBOARD_TEMP_KEEP */
        unsigned running;                       /* runnable tasks (procs_running and loadavg's count: one more) */
};

struct fakeboard_driver {
        /* The time 'dt' since the previous step (0 at the first) has passed
         * and the kernel is now in state 'in'. Returns 0 or a negative
         * errno, which fakeboard_step() passes up. */
        int (*step)(void *userdata, const struct fakeboard_state *in, bl_usec_t dt,
                    struct fakeboard_output *out);
        /* Frees userdata (fakeboard_free()); may be NULL. */
        void (*free)(void *userdata);
};

bl_usec_t fakeboard_now(void);

/* Builds the testbed of 'desc' (which must outlive the board) with every
 * CPU online but the switcher's partners, the lowest OPPs, and publishes its
 * files. 'driver' (copied) plays the load with 'userdata', which the board
 * owns from then on: on failure, driver->free(userdata) has run. */
int fakeboard_new_desc(const struct fakeboard_desc *desc, const struct fakeboard_driver *driver,
                       void *userdata, struct fakeboard **ret);
/* Kills a spawned process that still runs, frees the driver's data and
 * removes the testbed. */
void fakeboard_free(struct fakeboard *fb);

void *fakeboard_driver_data(const struct fakeboard *fb);
/* Hands an event to the observer: how drivers report their own. */
void fakeboard_notify(struct fakeboard *fb, const struct fakeboard_event *event);
/* The preload that plays fakeboard_refuse_writes() (tests/fakeboard/
 * refuse-writes.c); NULL or a file that does not exist: none. The string
 * must outlive the board. */
void fakeboard_set_refuse_preload(struct fakeboard *fb, const char *path);

const char *fakeboard_root(const struct fakeboard *fb);
const struct fakeboard_desc *fakeboard_desc(const struct fakeboard *fb);
/* The real path of a testbed file given as the daemon sees it ("/sys/..."). */
int fakeboard_path(const struct fakeboard *fb, const char *path, char *buf, size_t size);
void fakeboard_set_observer(struct fakeboard *fb, fakeboard_observer_fn observer, void *userdata);

/* The board's view of the online CPUs, as of its last step. */
void fakeboard_online(const struct fakeboard *fb, bl_cpumask *ret);
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
 * rules ran. The board's files are not touched: change them first (a
 * "remove" may name a device already gone). Returns the number of monitors
 * reached. */
int fakeboard_uevent(struct fakeboard *fb, const char *sysfs_path, const char *action);
/* Makes the board publish 'text' as the file at 'path' (as the daemon sees
 * it: "/proc/stat", ".../scaling_cur_freq") instead of its own content,
 * from now on: a kernel gone wrong, for the fault tests. NULL ends it; the
 * board's own content comes back with its next write of the file.
 * -ENOSPC: too many files overridden at once. */
int fakeboard_override_file(struct fakeboard *fb, const char *path, const char *text);
/* Sets thermal zone N's temperature (millidegrees Celsius); -ENOENT for no such zone. */
int fakeboard_set_temp(struct fakeboard *fb, unsigned zone, int millicelsius);

/* One step of the kernel at time now: reads the files the daemon writes
 * (online, cpufreq limits, cgroup cpusets), asks the driver what happened
 * since the previous step and rewrites /proc/stat, /proc/loadavg,
 * /proc/pressure/cpu, the frequencies and temperatures it changed in
 * place. Also collects the spawned process's output. */
int fakeboard_step(struct fakeboard *fb, bl_usec_t now);
/* Steps the board in real time until until() is true (returns 1; checked
 * after every step) or timeout_ms passed (returns 0). until may be NULL. */
int fakeboard_run(struct fakeboard *fb, unsigned timeout_ms, fakeboard_until_fn until, void *userdata);
int fakeboard_run_for(struct fakeboard *fb, unsigned ms);

/* Every change of the online set the board saw, oldest first. */
unsigned fakeboard_n_online_changes(const struct fakeboard *fb);
int fakeboard_online_change(const struct fakeboard *fb, unsigned index, bl_usec_t *time, bl_cpumask *online);

/* Makes the kernel refuse writes to a testbed file: the next 'count'
 * write()s of spawned processes to 'path' (as they see it, "/sys/...";
 * symlinks are followed, so cpuN/cpufreq/... names its policy's file) fail
 * with 'error'. Takes effect at once, also for a process already running;
 * count 0 removes the rule. Replaces an earlier rule for the same file.
 * -ENOENT: no such file; -ENOPKG: there is no refusing preload
 * (fakeboard_set_refuse_preload()). */
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
