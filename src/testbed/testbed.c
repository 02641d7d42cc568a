/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel of a fake board. Devices the daemon finds through libudev
 * (CPUs, thermal zones) are umockdev devices; everything else (cpufreq
 * policies, the global CPU lists, /proc/stat, /proc/pressure/cpu, cgroups) is
 * a plain file in the testbed.
 *
 * Files the daemon may keep open and pread() are rewritten in place (one
 * pwrite at offset 0, then ftruncate): a rename would leave the daemon's
 * descriptor on the old inode. Sysfs text follows the kernel's own printing,
 * quirks included (cpufreq CPU lists are space-separated, frequency lists end
 * with a space).
 *
 * Hotplug sends no udev events by itself. umockdev_testbed_uevent() cannot
 * send them either: it looks the device up through libudev in the calling
 * process, which is not under the preload and so cannot see the testbed's
 * devices. fakeboard_uevent() builds the message itself.
 *
 * A step reads what others wrote (online files, cpufreq limits, cgroup
 * cpusets), hands the driver the resulting state and publishes its answer.
 * The accounting follows the kernel's: busy and idle time accrue to the CPUs
 * that were online while the time passed, /proc/stat shows them in
 * USER_HZ ticks and cpuidle's state time files the idle time in µs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <glob.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <umockdev.h>

#include "core/array.h"
#include "testbed/testbed.h"

#define USER_HZ 100
#define USEC_PER_TICK (BL_USEC_PER_SEC / USER_HZ)
#define LINE_MAX_LEN 4096
#define STAT_BUF_SIZE (FAKEBOARD_MAX_CPUS * 128 + 512)
/* cpuidle: state 0 takes the idle periods that end within a step, state 1
 * the steps a CPU is idle throughout. */
#define IDLE_STATES 2
/* The rules of the refusing preload (tests/fakeboard/refuse-writes.c), in
 * the testbed's root (outside the /sys, /dev and /proc the preload
 * redirects). */
#define REFUSE_RULES "refuse-writes"
#define REFUSE_RULES_MAX 4096
#define MAX_OVERRIDES 8

extern char **environ;

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
        bl_cpuset cpus;
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
        bl_cpuset online;
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
        bl_cpuset all;
        struct fb_cpu cpu[FAKEBOARD_MAX_CPUS];
        struct fb_policy policy[FAKEBOARD_MAX_CPUS];
        bl_cpuset online;
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

bl_usec_t fakeboard_now(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (bl_usec_t)ts.tv_sec * BL_USEC_PER_SEC + (bl_usec_t)ts.tv_nsec / 1000;
}

static int vpath(const struct fakeboard *fb, char *buf, size_t size, const char *fmt, va_list ap)
{
        int n = snprintf(buf, size, "%s", fb->root);
        int m;

        if (n < 0 || (size_t)n >= size)
                return -ENAMETOOLONG;
        m = vsnprintf(buf + n, size - (size_t)n, fmt, ap);
        if (m < 0 || (size_t)m >= size - (size_t)n)
                return -ENAMETOOLONG;
        return 0;
}

static int __attribute__((format(printf, 4, 5)))
board_path(const struct fakeboard *fb, char *buf, size_t size, const char *fmt, ...)
{
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = vpath(fb, buf, size, fmt, ap);
        va_end(ap);
        return r;
}

int fakeboard_path(const struct fakeboard *fb, const char *path, char *buf, size_t size)
{
        return board_path(fb, buf, size, "%s", path);
}

static int write_in_place(const char *path, const char *text, size_t len)
{
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
        size_t done = 0;
        int r = 0;

        if (fd < 0)
                return -errno;
        while (done < len) {
                ssize_t n = pwrite(fd, text + done, len - done, (off_t)done);

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        r = -errno;
                        break;
                }
                done += (size_t)n;
        }
        if (r == 0 && ftruncate(fd, (off_t)len) < 0)
                r = -errno;
        close(fd);
        return r;
}

/* What the board writes to a file it publishes: a test's override wins. */
static int publish_text(const struct fakeboard *fb, const char *full, const char *text, size_t len)
{
        for (unsigned i = 0; i < fb->noverrides; i++)
                if (strcmp(fb->overrides[i].path, full) == 0)
                        return write_in_place(full, fb->overrides[i].text, strlen(fb->overrides[i].text));
        return write_in_place(full, text, len);
}

static int board_vprintf(const struct fakeboard *fb, const char *path, const char *fmt, va_list ap)
{
        char full[PATH_MAX], text[2048];
        int n, r;

        r = board_path(fb, full, sizeof(full), "%s", path);
        if (r < 0)
                return r;
        n = vsnprintf(text, sizeof(text), fmt, ap);
        if (n < 0 || (size_t)n >= sizeof(text))
                return -E2BIG;
        return publish_text(fb, full, text, (size_t)n);
}

static int __attribute__((format(printf, 3, 4)))
board_printf(const struct fakeboard *fb, const char *path, const char *fmt, ...)
{
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = board_vprintf(fb, path, fmt, ap);
        va_end(ap);
        return r;
}

/* Writes a file of a cpufreq policy's directory. */
static int __attribute__((format(printf, 4, 5)))
policy_printf(const struct fakeboard *fb, unsigned policy, const char *name, const char *fmt, ...)
{
        char path[128];
        va_list ap;
        int r;

        if (snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpufreq/policy%u/%s", policy, name) >=
            (int)sizeof(path))
                return -ENAMETOOLONG;
        va_start(ap, fmt);
        r = board_vprintf(fb, path, fmt, ap);
        va_end(ap);
        return r;
}

static int read_text(const char *path, char *buf, size_t size)
{
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        ssize_t n;

        if (fd < 0)
                return -errno;
        do
                n = pread(fd, buf, size - 1, 0);
        while (n < 0 && errno == EINTR);
        if (n < 0) {
                int r = -errno;

                close(fd);
                return r;
        }
        close(fd);
        buf[n] = '\0';
        return (int)n;
}

static int mkdir_p(const char *path)
{
        char buf[PATH_MAX];
        size_t len = strlen(path);

        if (len >= sizeof(buf))
                return -ENAMETOOLONG;
        memcpy(buf, path, len + 1);
        for (char *p = buf + 1; *p; p++) {
                if (*p != '/')
                        continue;
                *p = '\0';
                if (mkdir(buf, 0755) < 0 && errno != EEXIST)
                        return -errno;
                *p = '/';
        }
        if (mkdir(buf, 0755) < 0 && errno != EEXIST)
                return -errno;
        return 0;
}

void fakeboard_notify(struct fakeboard *fb, const struct fakeboard_event *ev)
{
        if (fb->observer)
                fb->observer(fb, ev, fb->userdata);
}

/* cpufreq prints CPU masks as "0 1 2 3" (cpufreq_show_cpus), not as ranges. */
static void format_cpu_words(const bl_cpuset *set, char *buf, size_t size)
{
        size_t len = 0;

        buf[0] = '\0';
        for (unsigned cpu = 0; cpu < cpuset_span(set); cpu++) {
                int n;

                if (!cpuset_isset(set, cpu))
                        continue;
                n = snprintf(buf + len, size - len, "%s%u", len ? " " : "", cpu);
                if (n < 0 || (size_t)n >= size - len)
                        return;
                len += (size_t)n;
        }
}

static int add_cpu_devices(struct fakeboard *fb)
{
        /* as the generic ARM cpuidle driver names them */
        static const char *const idle_names[IDLE_STATES][2] = {
                { "WFI", "ARM WFI" },
                { "cpu-sleep", "CPU power down" },
        };
        const struct fakeboard_desc *d = fb->desc;
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        GError *error = NULL;
        gboolean ok;

        if (!f)
                return -ENOMEM;
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                const struct fb_policy *p = &fb->policy[fb->cpu[cpu].policy];
                const struct fakeboard_cluster_desc *c = p->desc;
                bl_cpuset cluster, package;
                unsigned first = 0;
                char list[256];

                fprintf(f, "P: /devices/system/cpu/cpu%u\nE: SUBSYSTEM=cpu\n", cpu);
                if (c->capacity)
                        fprintf(f, "A: cpu_capacity=%u\\n\n", fb->cpu[cpu].capacity);
                if (!fb->cpu[cpu].fixed)
                        fprintf(f, "A: online=%d\\n\n", !c->switcher_offline);
                fprintf(f, "A: topology/physical_package_id=%d\\n\n", c->package_id);
                /* ARM numbers cores within their cluster (MPIDR Aff0). */
                cpuset_parse(&cluster, c->cpus);
                while (!cpuset_isset(&cluster, first))
                        first++;
                fprintf(f, "A: topology/core_id=%u\\n\n", c->per_cpu_policy ? cpu : cpu - first);
                snprintf(list, sizeof(list), "%u", cpu);
                fprintf(f, "A: topology/core_cpus_list=%s\\n\n", list);
                fprintf(f, "A: topology/thread_siblings_list=%s\\n\n", list);
                if (c->cluster_id != FAKEBOARD_NO_CLUSTER_ID) {
                        bool own = c->cluster_id == FAKEBOARD_CLUSTER_ID_PER_CPU;

                        cpuset_zero(&cluster);
                        if (own)
                                cpuset_set(&cluster, cpu);
                        else
                                cpuset_parse(&cluster, c->cpus);
                        cpuset_format(&cluster, list, sizeof(list));
                        fprintf(f, "A: topology/cluster_id=%d\\n\n", own ? (int)cpu : c->cluster_id);
                        fprintf(f, "A: topology/cluster_cpus_list=%s\\n\n", list);
                }
                cpuset_zero(&package);
                for (unsigned k = 0; k < d->nclusters; k++) {
                        bl_cpuset s;

                        if (d->clusters[k].package_id == c->package_id &&
                            cpuset_parse(&s, d->clusters[k].cpus) == 0)
                                cpuset_or(&package, &s);
                }
                cpuset_format(&package, list, sizeof(list));
                fprintf(f, "A: topology/package_cpus_list=%s\\n\n", list);
                for (unsigned k = 0; !d->no_cpuidle && k < IDLE_STATES; k++)
                        fprintf(f, "A: cpuidle/state%u/name=%s\\n\nA: cpuidle/state%u/desc=%s\\n\n"
                                "A: cpuidle/state%u/time=0\\n\nA: cpuidle/state%u/usage=0\\n\n"
                                "A: cpuidle/state%u/disable=0\\n\n", k, idle_names[k][0], k, idle_names[k][1],
                                k, k, k);
                if (c->switcher_offline)
                        fprintf(f, "\n");
                else
                        fprintf(f, "L: cpufreq=../cpufreq/policy%u\n\n", p->first);
        }
        for (unsigned z = 0; z < d->nzones; z++) {
                const struct fakeboard_zone_desc *zone = &d->zones[z];
                unsigned n = 0;

                fprintf(f,
                        "P: /devices/virtual/thermal/thermal_zone%u\nE: SUBSYSTEM=thermal\n"
                        "A: type=%s\\n\nA: temp=%d\\n\nA: mode=enabled\\n\nA: policy=step_wise\\n\n"
                        "A: available_policies=fair_share bang_bang step_wise user_space "
                        "power_allocator\\n\n",
                        z, zone->type, zone->temp_mc);
                if (zone->critical_mc) {
                        fprintf(f, "A: trip_point_%u_temp=%d\\n\nA: trip_point_%u_type=critical\\n\n"
                                "A: trip_point_%u_hyst=0\\n\n", n, zone->critical_mc, n, n);
                        n++;
                }
                for (unsigned t = 0; t < zone->ntrips; t++, n++)
                        fprintf(f, "A: trip_point_%u_temp=%d\\n\nA: trip_point_%u_type=%s\\n\n"
                                "A: trip_point_%u_hyst=%d\\n\n", n, zone->trips[t].temp_mc, n,
                                zone->trips[t].type, n, zone->trips[t].hyst_mc);
                fprintf(f, "\n");
        }
        if (fclose(f) != 0) {
                free(text);
                return -ENOMEM;
        }
        ok = umockdev_testbed_add_from_string(fb->testbed, text, &error);
        free(text);
        if (!ok) {
                fprintf(stderr, "fakeboard: umockdev refused the devices: %s\n",
                        error ? error->message : "unknown error");
                g_clear_error(&error);
                return -EINVAL;
        }
        return 0;
}

static int write_policy_files(struct fakeboard *fb, const struct fb_policy *p)
{
        const struct fakeboard_cluster_desc *c = p->desc;
        char dir[PATH_MAX], words[1024], freqs[FAKEBOARD_MAX_OPPS * 12 + 2] = "";
        size_t len = 0;
        bool setpolicy = strcmp(c->driver, "intel_pstate") == 0;
        int r;

        r = board_path(fb, dir, sizeof(dir), "/sys/devices/system/cpu/cpufreq/policy%u", p->first);
        if (r < 0)
                return r;
        r = mkdir_p(dir);
        if (r < 0)
                return r;
        for (unsigned i = 0; i < p->nopps; i++)
                len += (size_t)snprintf(freqs + len, sizeof(freqs) - len, "%u ", p->opp[i]);

        format_cpu_words(&p->cpus, words, sizeof(words));
        /* Drivers with their own governors print the governor list without
         * the generic list's trailing space. */
        if ((r = policy_printf(fb, p->first, "related_cpus", "%s\n", words)) < 0 ||
            (r = policy_printf(fb, p->first, "affected_cpus", "%s\n", words)) < 0 ||
            (r = policy_printf(fb, p->first, "cpuinfo_min_freq", "%u\n", c->min_khz)) < 0 ||
            (r = policy_printf(fb, p->first, "cpuinfo_max_freq", "%u\n", p->max_khz)) < 0 ||
            (r = policy_printf(fb, p->first, "cpuinfo_transition_latency", "%d\n",
                               c->transition_latency_ns)) < 0 ||
            (r = policy_printf(fb, p->first, "scaling_min_freq", "%u\n", c->min_khz)) < 0 ||
            (r = policy_printf(fb, p->first, "scaling_max_freq", "%u\n", p->max_khz)) < 0 ||
            (r = policy_printf(fb, p->first, "scaling_cur_freq", "%u\n", p->cur_khz)) < 0 ||
            (r = policy_printf(fb, p->first, "scaling_driver", "%s\n", c->driver)) < 0 ||
            (r = policy_printf(fb, p->first, "scaling_governor", "%s\n", c->governor)) < 0 ||
            (r = policy_printf(fb, p->first, "scaling_available_governors", setpolicy ? "%s\n" : "%s \n",
                               c->governors)) < 0 ||
            (r = policy_printf(fb, p->first, "scaling_setspeed", "<unsupported>\n")) < 0)
                return r;
        if (c->list_frequencies)
                return policy_printf(fb, p->first, "scaling_available_frequencies", "%s\n", freqs);
        return 0;
}

static int write_global_files(struct fakeboard *fb)
{
        char list[1024];
        int r;

        cpuset_format(&fb->all, list, sizeof(list));
        if ((r = board_printf(fb, "/sys/devices/system/cpu/possible", "%s\n", list)) < 0 ||
            (r = board_printf(fb, "/sys/devices/system/cpu/present", "%s\n", list)) < 0 ||
            (r = board_printf(fb, "/sys/devices/system/cpu/kernel_max", "%u\n", fb->desc->kernel_max)) < 0)
                return r;
        return 0;
}

/* Each PMU a cluster names: /sys/devices/<pmu>/{cpus,type}, linked from
 * /sys/bus/event_source/devices/ as the kernel does. cpus is a cpulist
 * (cpumap_print_to_pagebuf with list = true). */
static int write_pmu_files(struct fakeboard *fb)
{
        const struct fakeboard_desc *d = fb->desc;

        for (unsigned k = 0; k < d->nclusters; k++) {
                const char *pmu = d->clusters[k].pmu;
                char path[PATH_MAX], target[PATH_MAX], list[1024];
                bl_cpuset cpus;
                bool done = false;
                int r;

                if (!pmu)
                        continue;
                for (unsigned j = 0; j < k; j++)
                        if (d->clusters[j].pmu && strcmp(d->clusters[j].pmu, pmu) == 0)
                                done = true;
                if (done)
                        continue;
                cpuset_zero(&cpus);
                for (unsigned j = k; j < d->nclusters; j++) {
                        bl_cpuset s;

                        if (d->clusters[j].pmu && strcmp(d->clusters[j].pmu, pmu) == 0 &&
                            cpuset_parse(&s, d->clusters[j].cpus) == 0)
                                cpuset_or(&cpus, &s);
                }
                cpuset_format(&cpus, list, sizeof(list));
                snprintf(path, sizeof(path), "/sys/devices/%s/cpus", pmu);
                if ((r = board_path(fb, target, sizeof(target), "/sys/devices/%s", pmu)) < 0 ||
                    (r = mkdir_p(target)) < 0 || (r = board_printf(fb, path, "%s\n", list)) < 0)
                        return r;
                snprintf(path, sizeof(path), "/sys/devices/%s/type", pmu);
                if ((r = board_printf(fb, path, "%d\n", d->clusters[k].pmu_type)) < 0 ||
                    (r = board_path(fb, path, sizeof(path), "/sys/bus/event_source/devices")) < 0 ||
                    (r = mkdir_p(path)) < 0 ||
                    (r = board_path(fb, path, sizeof(path), "/sys/bus/event_source/devices/%s", pmu)) < 0)
                        return r;
                snprintf(target, sizeof(target), "../../../devices/%s", pmu);
                if (symlink(target, path) < 0 && errno != EEXIST)
                        return -errno;
        }
        return 0;
}

/* The kernel's Energy Model where a cluster has one: a performance domain
 * per cluster, named after its first CPU as the kernel names them. */
static int write_em_files(struct fakeboard *fb)
{
        const struct fakeboard_desc *d = fb->desc;

        for (unsigned k = 0; k < d->nclusters; k++) {
                const struct fakeboard_cluster_desc *c = &d->clusters[k];
                char dir[PATH_MAX], path[256];
                bl_cpuset cpus;
                int first = -1, r;

                if (!c->em_uw || !c->opps_khz || cpuset_parse(&cpus, c->cpus) < 0)
                        continue;
                for (unsigned cpu = 0; first < 0 && cpu < cpuset_span(&cpus); cpu++)
                        if (cpuset_isset(&cpus, cpu))
                                first = (int)cpu;
                if (first < 0)
                        continue;
                snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/cpu%d", first);
                if ((r = board_path(fb, dir, sizeof(dir), "%s", path)) < 0 || (r = mkdir_p(dir)) < 0)
                        return r;
                snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/cpu%d/cpus", first);
                if ((r = board_printf(fb, path, "%s\n", c->cpus)) < 0)
                        return r;
                for (unsigned o = 0; o < c->nopps; o++) {
                        snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/cpu%d/ps:%u", first,
                                 c->opps_khz[o]);
                        if ((r = board_path(fb, dir, sizeof(dir), "%s", path)) < 0 || (r = mkdir_p(dir)) < 0)
                                return r;
                        snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/cpu%d/ps:%u/frequency",
                                 first, c->opps_khz[o]);
                        if ((r = board_printf(fb, path, "%u\n", c->opps_khz[o])) < 0)
                                return r;
                        snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/cpu%d/ps:%u/power", first,
                                 c->opps_khz[o]);
                        if ((r = board_printf(fb, path, "%u\n", c->em_uw[o])) < 0)
                                return r;
                }
        }
        return 0;
}

/* The in-kernel switcher's sysfs group, with the switcher active. */
static int write_switcher_files(struct fakeboard *fb)
{
        char dir[PATH_MAX];
        int r;

        if (!fb->desc->bl_switcher)
                return 0;
        if ((r = board_path(fb, dir, sizeof(dir), "/sys/kernel/bL_switcher")) < 0 || (r = mkdir_p(dir)) < 0 ||
            (r = board_printf(fb, "/sys/kernel/bL_switcher/active", "1\n")) < 0)
                return r;
        return 0;
}

/* Whether some group of the list lies below 'prefix' (its first len bytes). */
static bool has_child_group(const char *const *groups, unsigned n, const char *prefix, size_t len)
{
        for (unsigned j = 0; j < n; j++)
                if (strncmp(groups[j], prefix, len) == 0 && groups[j][len] == '/')
                        return true;
        return false;
}

static int write_group(struct fakeboard *fb, const char *group, size_t len, bool parent, const char *all)
{
        char dir[PATH_MAX], path[PATH_MAX];
        int r;

        if (len > PATH_MAX / 2)
                return -ENAMETOOLONG;
        snprintf(path, sizeof(path), "/sys/fs/cgroup/%.*s", (int)len, group);
        if ((r = board_path(fb, dir, sizeof(dir), "%s", path)) < 0 || (r = mkdir_p(dir)) < 0)
                return r;
        snprintf(path, sizeof(path), "/sys/fs/cgroup/%.*s/cgroup.controllers", (int)len, group);
        if ((r = board_printf(fb, path, "cpuset cpu io memory pids\n")) < 0)
                return r;
        snprintf(path, sizeof(path), "/sys/fs/cgroup/%.*s/cgroup.subtree_control", (int)len, group);
        if ((r = board_printf(fb, path, parent ? "cpuset cpu io memory pids\n" : "\n")) < 0)
                return r;
        snprintf(path, sizeof(path), "/sys/fs/cgroup/%.*s/cpuset.cpus", (int)len, group);
        if ((r = board_printf(fb, path, "\n")) < 0)
                return r;
        snprintf(path, sizeof(path), "/sys/fs/cgroup/%.*s/cpuset.cpus.effective", (int)len, group);
        return board_printf(fb, path, "%s\n", all);
}

/* As a systemd machine shows it; cpuset.cpus "" (a newline) means the
 * parent's CPUs. The groups' parents exist too and delegate the cpuset
 * controller to them. Written files are not normalised as the kernel
 * would. */
static int write_cgroup_files(struct fakeboard *fb)
{
        static const char *const default_groups[] = { "system.slice", "user.slice" };
        const struct fakeboard_desc *d = fb->desc;
        const char *const *groups = d->ngroups ? d->groups : default_groups;
        unsigned n = d->ngroups ? d->ngroups : 2;
        char dir[PATH_MAX], list[1024];
        int r;

        if (!d->cgroup2)
                return 0;
        cpuset_format(&fb->all, list, sizeof(list));
        if ((r = board_path(fb, dir, sizeof(dir), "/sys/fs/cgroup")) < 0 || (r = mkdir_p(dir)) < 0 ||
            (r = board_printf(fb, "/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma "
                              "misc\n")) < 0 ||
            (r = board_printf(fb, "/sys/fs/cgroup/cgroup.subtree_control", "cpuset cpu io memory pids\n")) < 0 ||
            (r = board_printf(fb, "/sys/fs/cgroup/cpuset.cpus.effective", "%s\n", list)) < 0)
                return r;
        for (unsigned i = 0; i < n; i++) {
                size_t len = strlen(groups[i]);

                for (size_t end = 1; end <= len; end++) {
                        if (end < len && groups[i][end] != '/')
                                continue;
                        r = write_group(fb, groups[i], end, has_child_group(groups, n, groups[i], end), list);
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}

static int write_proc(struct fakeboard *fb)
{
        char dir[PATH_MAX];
        int r;

        r = board_path(fb, dir, sizeof(dir), "/proc/pressure");
        if (r < 0)
                return r;
        r = mkdir_p(dir);
        if (r < 0 || fb->desc->psi)
                return r;
        /* A /proc path missing from the testbed falls through to the host's,
         * and the preload follows symlinks to decide, so a dangling link
         * hides nothing. A directory does: opening works, reading fails
         * (EISDIR), the closest to "absent" the preload allows. */
        r = board_path(fb, dir, sizeof(dir), "/proc/pressure/cpu");
        if (r < 0)
                return r;
        return mkdir_p(dir);
}

static int setup_policies(struct fakeboard *fb)
{
        const struct fakeboard_desc *d = fb->desc;
        unsigned top_khz = 0;

        for (unsigned k = 0; k < d->nclusters; k++)
                if (d->clusters[k].max_khz > top_khz)
                        top_khz = d->clusters[k].max_khz;

        for (unsigned k = 0; k < d->nclusters; k++) {
                const struct fakeboard_cluster_desc *c = &d->clusters[k];
                struct fb_policy *shared = NULL;
                bl_cpuset cpus;
                int r;

                r = cpuset_parse(&cpus, c->cpus);
                if (r < 0)
                        return r;
                if (cpuset_span(&cpus) > fb->ncpus || (c->step_khz == 0 && !c->opps_khz) ||
                    c->max_khz < c->min_khz || top_khz == 0 || c->nopps > FAKEBOARD_MAX_OPPS ||
                    (c->opps_khz && (c->nopps == 0 || c->opps_khz[0] != c->min_khz ||
                                     c->opps_khz[c->nopps - 1] != c->max_khz)))
                        return -EINVAL;
                for (unsigned cpu = 0, nth = 0; cpu < cpuset_span(&cpus); cpu++) {
                        struct fb_policy *p = shared;

                        if (!cpuset_isset(&cpus, cpu))
                                continue;
                        /* Capacity without cpu_capacity: what the scheduler would
                         * derive from the top frequencies. */
                        fb->cpu[cpu].capacity = c->capacity;
                        if (c->capacity && c->cpu_capacities)
                                fb->cpu[cpu].capacity = c->cpu_capacities[nth];
                        nth++;
                        if (!c->capacity)
                                fb->cpu[cpu].capacity = (unsigned)(((uint64_t)BL_CAPACITY_SCALE * c->max_khz +
                                                                    top_khz / 2) / top_khz);
                        if (!p) {
                                p = &fb->policy[fb->npolicies++];
                                *p = (struct fb_policy){ .first = cpu, .desc = c, .max_khz = c->max_khz };
                                if (c->opps_khz) {
                                        memcpy(p->opp, c->opps_khz, c->nopps * sizeof(p->opp[0]));
                                        p->nopps = c->nopps;
                                }
                                for (unsigned khz = c->min_khz; !c->opps_khz && khz <= c->max_khz;
                                     khz += c->step_khz) {
                                        if (p->nopps == FAKEBOARD_MAX_OPPS)
                                                return -E2BIG;
                                        p->opp[p->nopps++] = khz;
                                }
                                p->cur_khz = p->opp[0];
                                if (!c->per_cpu_policy)
                                        shared = p;
                        }
                        cpuset_set(&p->cpus, cpu);
                        fb->cpu[cpu].policy = (unsigned)(p - fb->policy);
                }
        }
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++)
                if (fb->cpu[cpu].capacity == 0)
                        return -EINVAL;         /* a CPU no cluster describes */
        return 0;
}

static int publish_hotplug(struct fakeboard *fb)
{
        bl_cpuset offline = fb->all;
        char list[1024];
        int r;

        cpuset_andnot(&offline, &fb->online);
        cpuset_format(&fb->online, list, sizeof(list));
        r = board_printf(fb, "/sys/devices/system/cpu/online", "%s\n", list);
        if (r < 0)
                return r;
        cpuset_format(&offline, list, sizeof(list));
        r = board_printf(fb, "/sys/devices/system/cpu/offline", "%s\n", list);
        if (r < 0)
                return r;
        for (unsigned i = 0; i < fb->npolicies; i++) {
                bl_cpuset affected = fb->policy[i].cpus;

                if (fb->policy[i].desc->switcher_offline)
                        continue;

                cpuset_and(&affected, &fb->online);
                format_cpu_words(&affected, list, sizeof(list));
                r = policy_printf(fb, fb->policy[i].first, "affected_cpus", "%s\n", list);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int record_change(struct fakeboard *fb, bl_usec_t now)
{
        struct fakeboard_event ev = { .kind = FAKEBOARD_ONLINE_CHANGED, .time = now, .online = &fb->online };

        if (array_grow((void **)&fb->changes, fb->nchanges, &fb->changes_size, sizeof(*fb->changes), 16) < 0)
                return -ENOMEM;
        fb->changes[fb->nchanges++] = (struct fb_change){ .time = now, .online = fb->online };
        fakeboard_notify(fb, &ev);
        return 0;
}

static int cpu_online_file(const struct fakeboard *fb, unsigned cpu, char *buf, size_t size)
{
        return board_path(fb, buf, size, "/sys/devices/system/cpu/cpu%u/online", cpu);
}

/* Reads every cpuN/online as the kernel state; what the daemon wrote there
 * is what the kernel did. */
static int sync_online(struct fakeboard *fb, bl_usec_t now)
{
        bl_cpuset seen;
        int r;

        cpuset_zero(&seen);
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                char path[PATH_MAX], value[32];

                if (fb->cpu[cpu].fixed) {
                        cpuset_set(&seen, cpu);
                        continue;
                }
                r = cpu_online_file(fb, cpu, path, sizeof(path));
                if (r < 0)
                        return r;
                r = read_text(path, value, sizeof(value));
                if (r == -ENOENT || (r >= 0 && value[0] == '1'))
                        cpuset_set(&seen, cpu);
                else if (r >= 0 && value[0] == '0')
                        continue;
                else if (cpuset_isset(&fb->online, cpu))
                        /* Unreadable or garbage: the kernel would have refused the write. */
                        cpuset_set(&seen, cpu);
        }

        if (cpuset_empty(&seen)) {
                /* The kernel refuses to take the last CPU down. */
                unsigned keep = 0;
                char path[PATH_MAX];

                while (keep < fb->ncpus && !cpuset_isset(&fb->online, keep))
                        keep++;
                if (keep == fb->ncpus)
                        return -EIO;
                cpuset_set(&seen, keep);
                r = cpu_online_file(fb, keep, path, sizeof(path));
                if (r < 0)
                        return r;
                r = write_in_place(path, "1\n", 2);
                if (r < 0)
                        return r;
        }
        if (cpuset_equal(&seen, &fb->online))
                return 0;
        fb->online = seen;
        r = publish_hotplug(fb);
        if (r < 0)
                return r;
        return record_change(fb, now);
}

/* The policies' limits as the daemon (or anyone) may have set them. */
static void read_limits(struct fakeboard *fb)
{
        for (unsigned i = 0; i < fb->npolicies; i++) {
                struct fb_policy *p = &fb->policy[i];
                char path[PATH_MAX], value[32];

                p->min_limit_khz = p->opp[0];
                p->max_limit_khz = p->max_khz;
                if (p->desc->switcher_offline)
                        continue;
                if (board_path(fb, path, sizeof(path),
                               "/sys/devices/system/cpu/cpufreq/policy%u/scaling_min_freq", p->first) == 0 &&
                    read_text(path, value, sizeof(value)) > 0)
                        p->min_limit_khz = (unsigned)strtoul(value, NULL, 10);
                if (board_path(fb, path, sizeof(path),
                               "/sys/devices/system/cpu/cpufreq/policy%u/scaling_max_freq", p->first) == 0 &&
                    read_text(path, value, sizeof(value)) > 0)
                        p->max_limit_khz = (unsigned)strtoul(value, NULL, 10);
        }
}

/* The CPUs a group may use: its own cpuset.cpus within its parents'. */
static void group_cpus(const struct fakeboard *fb, const char *group, bl_cpuset *ret)
{
        char prefix[PATH_MAX], path[PATH_MAX], value[1024];
        size_t len = strlen(group);

        *ret = fb->all;
        for (size_t end = 0; end <= len; end++) {
                bl_cpuset own;

                if (end < len && group[end] != '/')
                        continue;
                if (end == 0 || end >= sizeof(prefix))
                        continue;
                memcpy(prefix, group, end);
                prefix[end] = '\0';
                if (board_path(fb, path, sizeof(path), "/sys/fs/cgroup/%s/cpuset.cpus", prefix) < 0 ||
                    read_text(path, value, sizeof(value)) < 0)
                        continue;
                value[strcspn(value, "\n")] = '\0';
                /* Empty: the parent's CPUs; garbage: the kernel refused it. */
                if (value[0] && cpuset_parse(&own, value) == 0)
                        cpuset_and(ret, &own);
        }
}

static void compute_usable(const struct fakeboard *fb, bl_cpuset *allowed, bl_cpuset *usable)
{
        static const char *const default_groups[] = { "system.slice", "user.slice" };
        const struct fakeboard_desc *d = fb->desc;

        *usable = fb->online;
        if (d->cgroup2) {
                const char *const *groups = d->ngroups ? d->groups : default_groups;
                unsigned n = d->ngroups ? d->ngroups : 2;
                bl_cpuset any;

                cpuset_zero(&any);
                for (unsigned i = 0; i < n; i++) {
                        bl_cpuset cpus;

                        group_cpus(fb, groups[i], &cpus);
                        cpuset_or(&any, &cpus);
                }
                cpuset_and(usable, &any);
        }
        *allowed = *usable;
        for (unsigned i = 0; i < fb->npolicies; i++) {
                const struct fb_policy *p = &fb->policy[i];

                if (!p->desc->switcher_offline && p->nopps > 1 && p->max_limit_khz <= p->opp[0])
                        cpuset_andnot(usable, &p->cpus);
        }
}

static void fill_state(struct fakeboard *fb, bl_usec_t now, const bl_cpuset *was_online,
                       struct fakeboard_state *st)
{
        for (unsigned i = 0; i < fb->npolicies; i++) {
                const struct fb_policy *p = &fb->policy[i];

                fb->policy_state[i] = (struct fakeboard_policy_state){
                        .first = p->first,
                        .cpus = p->cpus,
                        .nopps = p->nopps,
                        .opps_khz = p->opp,
                        .max_khz = p->max_khz,
                        .min_limit_khz = p->min_limit_khz,
                        .max_limit_khz = p->max_limit_khz,
                        .cur_khz = p->cur_khz,
                        .switcher_offline = p->desc->switcher_offline,
                };
        }
        *st = (struct fakeboard_state){
                .now = now,
                .ncpus = fb->ncpus,
                .online = fb->online,
                .was_online = *was_online,
                .capacity = fb->capacity,
                .cpu_policy = fb->cpu_policy,
                .npolicies = fb->npolicies,
                .policy = fb->policy_state,
                .nzones = fb->desc->nzones,
                .temp_mc = fb->temp_mc,
        };
        compute_usable(fb, &st->allowed, &st->usable);
}

/* The idle time of a step in cpuidle's states: a step with busy time ends
 * the idle periods in it (and the one before it), a step idle throughout
 * is one long period that a kernel counts only once it ends. */
static void account_idle(const struct fakeboard *fb, struct fb_cpu *c, double idle_us, bool woke)
{
        if (!woke) {
                if (fb->desc->cpuidle_defers_idle) {
                        c->pending_us += idle_us;
                } else if (idle_us > 0) {
                        c->state_us[1] += idle_us;
                        c->usage[1]++;
                }
                return;
        }
        if (c->pending_us > 0) {
                c->state_us[1] += c->pending_us;
                c->usage[1]++;
                c->pending_us = 0;
        }
        if (idle_us > 0) {
                c->state_us[0] += idle_us;
                c->usage[0]++;
        }
}

/* FAKEBOARD_RESIDENCY_KERNEL: a timer wake every ~idle_wake_us. */
#define WAKE_JITTER 0.1
/* A period shorter than this goes to state 0 (WFI), a longer one to state 1. */
#define DEEP_STATE_US 1000.0
/* A CPU loaded this much is woken by its work, not its timer. */
#define FULL_LOAD 0.999

static double uniform(struct fb_cpu *c)
{
        /* xorshift64*: the phases need no more */
        c->rng ^= c->rng >> 12;
        c->rng ^= c->rng << 25;
        c->rng ^= c->rng >> 27;
        return (double)((c->rng * UINT64_C(2685821657736338717)) >> 11) / (double)(UINT64_C(1) << 53);
}

static double wake_period(const struct fakeboard *fb, struct fb_cpu *c)
{
        double wake = fb->desc->idle_wake_us ? fb->desc->idle_wake_us : FAKEBOARD_IDLE_WAKE_USEC;

        return wake * (1.0 + WAKE_JITTER * (2.0 * uniform(c) - 1.0));
}

static void end_idle_period(struct fb_cpu *c)
{
        unsigned k = c->idle_len_us < DEEP_STATE_US ? 0 : 1;

        c->state_us[k] += c->idle_len_us;
        c->usage[k]++;
        c->idle = false;
        c->idle_len_us = 0;
}

static void start_timeline(const struct fakeboard *fb, struct fb_cpu *c, unsigned cpu)
{
        unsigned long long seed = fb->desc->idle_seed ? fb->desc->idle_seed : 0x5eed1d1eULL;

        c->timeline = true;
        c->rng = (seed ^ ((uint64_t)(cpu + 1) * UINT64_C(0x9e3779b97f4a7c15))) | 1;
        c->idle = true;
        c->idle_len_us = 0;
        c->owed_us = 0;
        c->next_wake_us = fb->clock_us + uniform(c) * wake_period(fb, c);
}

/* Runs a CPU's timeline over 'covered' µs from the board's clock, its work
 * arriving at 'rate' (busy share the driver gave): idle until a wake, then
 * busy until the work that came is done (it keeps coming meanwhile, so at
 * rate r a backlog w takes w / (1 - r)). Returns the busy time. */
static double run_timeline(const struct fakeboard *fb, struct fb_cpu *c, double rate, double covered)
{
        const double start = fb->clock_us;
        double t = 0, ran = 0;

        rate = rate < 0 ? 0 : rate > 1 ? 1 : rate;
        if (c->idle && rate >= FULL_LOAD)
                end_idle_period(c);
        while (t < covered) {
                double left = covered - t;

                if (!c->idle) {
                        double drain;

                        if (rate >= FULL_LOAD) {
                                ran += left;
                                break;
                        }
                        drain = c->owed_us / (1.0 - rate);
                        if (drain >= left) {
                                c->owed_us -= (1.0 - rate) * left;
                                ran += left;
                                break;
                        }
                        ran += drain;
                        t += drain;
                        c->owed_us = 0;
                        c->idle = true;
                        c->idle_len_us = 0;
                        while (c->next_wake_us <= start + t)
                                c->next_wake_us += wake_period(fb, c);
                } else {
                        double until = c->next_wake_us - (start + t);

                        if (until >= left) {
                                c->idle_len_us += left;
                                c->owed_us += rate * left;
                                break;
                        }
                        c->idle_len_us += until;
                        c->owed_us += rate * until;
                        t += until;
                        end_idle_period(c);
                        c->next_wake_us += wake_period(fb, c);
                }
        }
        return ran;
}

/* What the driver said happened while 'was_online' were the online CPUs. */
static void account(struct fakeboard *fb, const bl_cpuset *was_online, const struct fakeboard_output *out)
{
        static const double window_s[3] = { 10, 60, 300 };
        double covered = (double)out->covered_us, stalled;

        if (covered <= 0)
                return;
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                double busy = out->busy_us[cpu];

                if (!cpuset_isset(was_online, cpu))
                        continue;
                if (busy < 0)
                        busy = 0;
                if (fb->desc->residency == FAKEBOARD_RESIDENCY_KERNEL) {
                        struct fb_cpu *c = &fb->cpu[cpu];

                        if (!c->timeline)
                                start_timeline(fb, c, cpu);
                        busy = run_timeline(fb, c, busy / covered, covered);
                        c->busy_us += busy;
                        c->idle_us += busy < covered ? covered - busy : 0;
                        continue;
                }
                fb->cpu[cpu].busy_us += busy;
                fb->cpu[cpu].idle_us += busy < covered ? covered - busy : 0;
                account_idle(fb, &fb->cpu[cpu], busy < covered ? covered - busy : 0, busy > 0);
        }
        fb->clock_us += covered;
        /* Taking a CPU down ends its idle period; its work goes elsewhere. */
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                struct fb_cpu *c = &fb->cpu[cpu];

                if (cpuset_isset(was_online, cpu))
                        continue;
                if (fb->desc->residency != FAKEBOARD_RESIDENCY_KERNEL) {
                        account_idle(fb, c, 0, true);
                } else if (c->timeline) {
                        if (c->idle)
                                end_idle_period(c);
                        c->owed_us = 0;
                }
        }
        stalled = out->stall_us / covered;
        stalled = stalled < 0 ? 0 : stalled > 1 ? 1 : stalled;
        fb->psi_total_us += out->stall_us > 0 ? out->stall_us : 0;
        for (unsigned k = 0; k < 3; k++) {
                double decay = exp(-covered / (window_s[k] * (double)BL_USEC_PER_SEC));

                fb->psi_avg[k] = fb->psi_avg[k] * decay + 100.0 * stalled * (1.0 - decay);
        }
}

static int apply_output(struct fakeboard *fb, const struct fakeboard_output *out)
{
        for (unsigned i = 0; i < fb->npolicies; i++) {
                struct fb_policy *p = &fb->policy[i];
                unsigned khz = out->cur_khz[i];
                int r;

                if (khz == 0 || khz == p->cur_khz || p->desc->switcher_offline)
                        continue;
                p->cur_khz = khz;
                r = policy_printf(fb, p->first, "scaling_cur_freq", "%u\n", khz);
                if (r < 0)
                        return r;
        }
        for (unsigned z = 0; z < fb->desc->nzones; z++) {
                int r;

                if (out->temp_mc[z] == FAKEBOARD_TEMP_KEEP || out->temp_mc[z] == fb->temp_mc[z])
                        continue;
                r = fakeboard_set_temp(fb, z, out->temp_mc[z]);
                if (r < 0)
                        return r;
        }
        fb->running = out->running;
        return 0;
}
static unsigned long long ticks(double us)
{
        return (unsigned long long)(us / (double)USEC_PER_TICK);
}

static int publish_stat(struct fakeboard *fb)
{
        char path[PATH_MAX];
        double busy = 0, idle = 0;
        size_t len = 0, size = sizeof(fb->stat_buf);
        unsigned procs = fb->running + 1;
        int n, r;

        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                busy += fb->cpu[cpu].busy_us;
                idle += fb->cpu[cpu].idle_us;
        }
        n = snprintf(fb->stat_buf, size, "cpu  %llu 0 0 %llu 0 0 0 0 0 0\n", ticks(busy), ticks(idle));
        if (n < 0 || (size_t)n >= size)
                return -E2BIG;
        len = (size_t)n;
        /* The kernel prints a line only for online CPUs. */
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                if (!cpuset_isset(&fb->online, cpu))
                        continue;
                n = snprintf(fb->stat_buf + len, size - len, "cpu%u %llu 0 0 %llu 0 0 0 0 0 0\n", cpu,
                             ticks(fb->cpu[cpu].busy_us), ticks(fb->cpu[cpu].idle_us));
                if (n < 0 || (size_t)n >= size - len)
                        return -E2BIG;
                len += (size_t)n;
        }
        n = snprintf(fb->stat_buf + len, size - len,
                     "intr 0\nctxt 0\nbtime 0\nprocesses %u\nprocs_running %u\nprocs_blocked 0\nsoftirq 0\n",
                     procs, procs);
        if (n < 0 || (size_t)n >= size - len)
                return -E2BIG;
        len += (size_t)n;
        r = board_path(fb, path, sizeof(path), "/proc/stat");
        if (r < 0)
                return r;
        return publish_text(fb, path, fb->stat_buf, len);
}

static int publish_idle_file(const struct fakeboard *fb, unsigned cpu, unsigned state, const char *name,
                             unsigned long long value)
{
        char path[PATH_MAX], text[32];
        int n = snprintf(text, sizeof(text), "%llu\n", value);
        int r;

        r = board_path(fb, path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cpuidle/state%u/%s", cpu, state,
                       name);
        if (r < 0)
                return r;
        return publish_text(fb, path, text, (size_t)n);
}

/* Only the files that changed: idle CPUs change at every step. */
static int publish_cpuidle(struct fakeboard *fb)
{
        if (fb->desc->no_cpuidle)
                return 0;
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                struct fb_cpu *c = &fb->cpu[cpu];

                for (unsigned k = 0; k < IDLE_STATES; k++) {
                        unsigned long long us = (unsigned long long)c->state_us[k];
                        int r;

                        /* ENOENT: a test unplugged the CPU for good. */
                        if (us != c->shown_us[k]) {
                                r = publish_idle_file(fb, cpu, k, "time", us);
                                if (r < 0 && r != -ENOENT)
                                        return r;
                                c->shown_us[k] = us;
                        }
                        if (c->usage[k] != c->shown_usage[k]) {
                                r = publish_idle_file(fb, cpu, k, "usage", c->usage[k]);
                                if (r < 0 && r != -ENOENT)
                                        return r;
                                c->shown_usage[k] = c->usage[k];
                        }
                }
        }
        return 0;
}

static int publish_psi(struct fakeboard *fb)
{
        if (!fb->desc->psi)
                return 0;
        return board_printf(fb, "/proc/pressure/cpu",
                            "some avg10=%.2f avg60=%.2f avg300=%.2f total=%llu\n"
                            "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
                            fb->psi_avg[0], fb->psi_avg[1], fb->psi_avg[2],
                            (unsigned long long)fb->psi_total_us);
}

static int add_line(struct fakeboard *fb, const char *text, size_t len, bl_usec_t now)
{
        struct fakeboard_event ev = { .kind = FAKEBOARD_OUTPUT_LINE, .time = now };
        char *copy;

        if (array_grow((void **)&fb->lines, fb->nlines, &fb->lines_size, sizeof(*fb->lines), 64) < 0)
                return -ENOMEM;
        copy = strndup(text, len);
        if (!copy)
                return -ENOMEM;
        fb->lines[fb->nlines++] = (struct fb_line){ .time = now, .text = copy };
        ev.text = copy;
        fakeboard_notify(fb, &ev);
        return 0;
}

static void forget_lines(struct fakeboard *fb)
{
        for (unsigned i = 0; i < fb->nlines; i++)
                free(fb->lines[i].text);
        fb->nlines = 0;
        fb->outlen = 0;
}

static int drain_output(struct fakeboard *fb, bl_usec_t now)
{
        while (fb->out_fd >= 0) {
                ssize_t n = read(fb->out_fd, fb->out + fb->outlen, sizeof(fb->out) - fb->outlen);
                size_t start = 0;
                int r;

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        if (errno == EAGAIN)
                                return 0;
                        return -errno;
                }
                if (n == 0) {
                        close(fb->out_fd);
                        fb->out_fd = -1;
                        if (fb->outlen > 0) {
                                r = add_line(fb, fb->out, fb->outlen, now);
                                fb->outlen = 0;
                                if (r < 0)
                                        return r;
                        }
                        return 0;
                }
                fb->outlen += (size_t)n;
                for (size_t i = 0; i < fb->outlen; i++) {
                        if (fb->out[i] != '\n')
                                continue;
                        r = add_line(fb, fb->out + start, i - start, now);
                        if (r < 0)
                                return r;
                        start = i + 1;
                }
                if (start == 0 && fb->outlen == sizeof(fb->out)) {
                        /* An overlong line: hand it out in pieces. */
                        r = add_line(fb, fb->out, fb->outlen, now);
                        if (r < 0)
                                return r;
                        start = fb->outlen;
                }
                memmove(fb->out, fb->out + start, fb->outlen - start);
                fb->outlen -= start;
        }
        return 0;
}

static int collect(struct fakeboard *fb, bl_usec_t now)
{
        int r = drain_output(fb, now);
        int status;
        pid_t p;

        if (r < 0)
                return r;
        if (fb->pid <= 0 || fb->exited)
                return 0;
        p = waitpid(fb->pid, &status, WNOHANG);
        if (p < 0)
                return -errno;
        if (p == 0)
                return 0;
        /* Whatever it wrote is in the pipe now; a child of its own may still
         * hold the pipe, so take what is there and let go. */
        r = drain_output(fb, now);
        if (fb->out_fd >= 0) {
                close(fb->out_fd);
                fb->out_fd = -1;
                if (fb->outlen > 0 && r >= 0)
                        r = add_line(fb, fb->out, fb->outlen, now);
                fb->outlen = 0;
        }
        fb->exited = true;
        fb->exit_status = status;
        fakeboard_notify(fb, &(struct fakeboard_event){
                           .kind = FAKEBOARD_PROCESS_EXITED, .time = now, .status = status });
        return r;
}

static void free_environment(char **env)
{
        for (size_t i = 0; env[i]; i++)
                free(env[i]);
        free(env);
}

/* The environment of the spawned process: ours, under the preload. */
static char **spawn_environment(const struct fakeboard *fb)
{
        const char *preload = getenv("LD_PRELOAD"), *asan = getenv("ASAN_OPTIONS");
        bool refuse = fb->refuse_so && access(fb->refuse_so, R_OK) == 0;
        size_t n = 0, k = 0;
        char **env;

        while (environ[n])
                n++;
        env = calloc(n + 5, sizeof(*env));
        if (!env)
                return NULL;
        for (size_t i = 0; i < n; i++) {
                if (strncmp(environ[i], "LD_PRELOAD=", 11) == 0 ||
                    strncmp(environ[i], "UMOCKDEV_DIR=", 13) == 0 ||
                    strncmp(environ[i], "FAKEBOARD_REFUSE=", 17) == 0 ||
                    strncmp(environ[i], "ASAN_OPTIONS=", 13) == 0)
                        continue;
                env[k] = strdup(environ[i]);
                if (!env[k++])
                        goto fail;
        }
        /* An ASan build aborts when the preload comes before its runtime,
         * unless told not to check (below). The refusing preload comes
         * first: umockdev's write() calls libc's own, not the next one. */
        if (asprintf(&env[k], "LD_PRELOAD=%s%slibumockdev-preload.so.0%s%s",
                     refuse ? fb->refuse_so : "", refuse ? ":" : "",
                     preload && *preload ? ":" : "", preload ? preload : "") < 0)
                goto fail_entry;
        if (asprintf(&env[++k], "UMOCKDEV_DIR=%s", fb->root) < 0)
                goto fail_entry;
        if (asprintf(&env[++k], "FAKEBOARD_REFUSE=%s/" REFUSE_RULES, fb->root) < 0)
                goto fail_entry;
        if (asprintf(&env[++k], "ASAN_OPTIONS=%s%sverify_asan_link_order=0", asan ? asan : "",
                     asan && *asan ? ":" : "") < 0)
                goto fail_entry;
        return env;
fail_entry:
        env[k] = NULL;
fail:
        free_environment(env);
        return NULL;
}

/* Only async-signal-safe calls here: the testbed runs GLib threads. */
static void __attribute__((noreturn))
exec_child(char *const argv[], char **env, int out_fd, int null_fd, pid_t parent)
{
        static const int reset[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2 };
        static const char msg[] = "fakeboard: exec failed\n";
        struct sigaction dfl = { .sa_handler = SIG_DFL };
        sigset_t none;

        if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
                _exit(127);
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        for (size_t i = 0; i < sizeof(reset) / sizeof(reset[0]); i++)
                sigaction(reset[i], &dfl, NULL);
        if (out_fd >= 0) {
                if (dup2(null_fd, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0 ||
                    dup2(out_fd, STDERR_FILENO) < 0)
                        _exit(127);
        }
        if (strchr(argv[0], '/'))
                execve(argv[0], argv, env);
        else
                execvpe(argv[0], argv, env);
        if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
                _exit(127);
        _exit(127);
}

int fakeboard_spawn(struct fakeboard *fb, char *const argv[], bool inherit_stdio)
{
        int pipefd[2] = { -1, -1 }, null_fd = -1;
        pid_t parent = getpid(), pid;
        char **env;

        if (!argv || !argv[0])
                return -EINVAL;
        if (fakeboard_running(fb))
                return -EBUSY;
        env = spawn_environment(fb);
        if (!env)
                return -ENOMEM;
        if (!inherit_stdio) {
                if (pipe2(pipefd, O_CLOEXEC) < 0) {
                        int r = -errno;

                        free_environment(env);
                        return r;
                }
                null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
                if (null_fd < 0) {
                        int r = -errno;

                        close(pipefd[0]);
                        close(pipefd[1]);
                        free_environment(env);
                        return r;
                }
        }
        fflush(NULL);
        pid = fork();
        if (pid == 0)
                exec_child(argv, env, pipefd[1], null_fd, parent);
        free_environment(env);
        if (pipefd[1] >= 0)
                close(pipefd[1]);
        if (null_fd >= 0)
                close(null_fd);
        if (pid < 0) {
                int r = -errno;

                if (pipefd[0] >= 0)
                        close(pipefd[0]);
                return r;
        }
        if (pipefd[0] >= 0)
                fcntl(pipefd[0], F_SETFL, fcntl(pipefd[0], F_GETFL) | O_NONBLOCK);
        if (fb->out_fd >= 0)
                close(fb->out_fd);
        forget_lines(fb);
        fb->out_fd = pipefd[0];
        fb->pid = pid;
        fb->exited = false;
        fb->exit_status = 0;
        return 0;
}

pid_t fakeboard_pid(const struct fakeboard *fb)
{
        return fb->pid;
}

bool fakeboard_running(const struct fakeboard *fb)
{
        return fb->pid > 0 && !fb->exited;
}

int fakeboard_exit_status(const struct fakeboard *fb, int *status)
{
        if (fb->pid <= 0 || !fb->exited)
                return -ECHILD;
        *status = fb->exit_status;
        return 0;
}

int fakeboard_kill(struct fakeboard *fb, int sig)
{
        if (!fakeboard_running(fb))
                return -ESRCH;
        return kill(fb->pid, sig) < 0 ? -errno : 0;
}

static bool process_gone(struct fakeboard *fb, void *userdata)
{
        (void)userdata;
        return !fakeboard_running(fb);
}

int fakeboard_wait(struct fakeboard *fb, unsigned timeout_ms, int *status)
{
        int r;

        if (fb->pid <= 0)
                return -ECHILD;
        r = fakeboard_run(fb, timeout_ms, process_gone, NULL);
        if (r < 0)
                return r;
        if (r == 0)
                return -ETIMEDOUT;
        if (status)
                *status = fb->exit_status;
        return 0;
}

unsigned fakeboard_n_lines(const struct fakeboard *fb)
{
        return fb->nlines;
}

const char *fakeboard_line(const struct fakeboard *fb, unsigned index, bl_usec_t *time)
{
        if (index >= fb->nlines)
                return NULL;
        if (time)
                *time = fb->lines[index].time;
        return fb->lines[index].text;
}

int fakeboard_find_line(const struct fakeboard *fb, unsigned from, const char *needle)
{
        for (unsigned i = from; i < fb->nlines; i++)
                if (strstr(fb->lines[i].text, needle))
                        return (int)i;
        return -ENOENT;
}

int fakeboard_new_desc(const struct fakeboard_desc *d, const struct fakeboard_driver *driver,
                       void *userdata, struct fakeboard **ret)
{
        struct fakeboard *fb = NULL;
        bl_cpuset fixed;
        int r = 0;

        cpuset_zero(&fixed);
        if (!driver || !driver->step)
                r = -EINVAL;
        else if (d->ncpus == 0 || d->ncpus > FAKEBOARD_MAX_CPUS || d->nzones > FAKEBOARD_MAX_ZONES ||
                 d->ngroups > FAKEBOARD_MAX_GROUPS)
                r = -E2BIG;
        else if (d->fixed_cpus)
                r = cpuset_parse(&fixed, d->fixed_cpus);
        if (r == 0 && !(fb = calloc(1, sizeof(*fb))))
                r = -ENOMEM;
        if (r < 0) {
                if (driver && driver->free)
                        driver->free(userdata);
                return r;
        }
        fb->driver = *driver;
        fb->driver_data = userdata;
        fb->desc = d;
        fb->ncpus = d->ncpus;
        fb->out_fd = -1;
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                cpuset_set(&fb->all, cpu);
                fb->cpu[cpu].fixed = cpuset_isset(&fixed, cpu);
        }
        fb->online = fb->all;

        fb->testbed = umockdev_testbed_new();
        fb->root = umockdev_testbed_get_root_dir(fb->testbed);
        if ((r = setup_policies(fb)) < 0)
                goto fail;
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++)
                if (fb->policy[fb->cpu[cpu].policy].desc->switcher_offline)
                        cpuset_clear(&fb->online, cpu);
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                fb->capacity[cpu] = fb->cpu[cpu].capacity;
                fb->cpu_policy[cpu] = fb->cpu[cpu].policy;
        }
        for (unsigned z = 0; z < d->nzones; z++)
                fb->temp_mc[z] = d->zones[z].temp_mc;
        read_limits(fb);
        if ((r = add_cpu_devices(fb)) < 0 ||
            (r = write_global_files(fb)) < 0 || (r = write_pmu_files(fb)) < 0 || (r = write_proc(fb)) < 0)
                goto fail;
        for (unsigned i = 0; i < fb->npolicies; i++)
                if (!fb->policy[i].desc->switcher_offline && (r = write_policy_files(fb, &fb->policy[i])) < 0)
                        goto fail;
        if ((r = write_switcher_files(fb)) < 0 || (r = write_cgroup_files(fb)) < 0 ||
            (r = write_em_files(fb)) < 0)
                goto fail;
        if ((r = publish_hotplug(fb)) < 0 || (r = publish_stat(fb)) < 0 || (r = publish_psi(fb)) < 0)
                goto fail;
        *ret = fb;
        return 0;
fail:
        fakeboard_free(fb);
        return r;
}

void fakeboard_free(struct fakeboard *fb)
{
        if (!fb)
                return;
        if (fakeboard_running(fb)) {
                kill(fb->pid, SIGKILL);
                while (waitpid(fb->pid, NULL, 0) < 0 && errno == EINTR)
                        ;
        }
        if (fb->out_fd >= 0)
                close(fb->out_fd);
        forget_lines(fb);
        free(fb->lines);
        free(fb->changes);
        for (unsigned i = 0; i < fb->noverrides; i++)
                free(fb->overrides[i].text);
        if (fb->driver.free)
                fb->driver.free(fb->driver_data);
        if (fb->testbed)
                g_object_unref(fb->testbed);
        g_free(fb->root);
        free(fb);
}

void *fakeboard_driver_data(const struct fakeboard *fb)
{
        return fb->driver_data;
}

void fakeboard_set_refuse_preload(struct fakeboard *fb, const char *path)
{
        fb->refuse_so = path;
}

const char *fakeboard_root(const struct fakeboard *fb)
{
        return fb->root;
}

const struct fakeboard_desc *fakeboard_desc(const struct fakeboard *fb)
{
        return fb->desc;
}

void fakeboard_set_observer(struct fakeboard *fb, fakeboard_observer_fn observer, void *userdata)
{
        fb->observer = observer;
        fb->userdata = userdata;
}

void fakeboard_online(const struct fakeboard *fb, bl_cpuset *ret)
{
        *ret = fb->online;
}

unsigned fakeboard_capacity(const struct fakeboard *fb, unsigned cpu)
{
        return cpu < fb->ncpus ? fb->cpu[cpu].capacity : 0;
}

unsigned fakeboard_cur_freq(const struct fakeboard *fb, unsigned cpu)
{
        return cpu < fb->ncpus ? fb->policy[fb->cpu[cpu].policy].cur_khz : 0;
}

int fakeboard_set_cpu_online(struct fakeboard *fb, unsigned cpu, bool online)
{
        char path[PATH_MAX];
        int r;

        if (cpu >= fb->ncpus)
                return -ENOENT;
        if (fb->cpu[cpu].fixed)
                return -EPERM;
        r = cpu_online_file(fb, cpu, path, sizeof(path));
        if (r < 0)
                return r;
        r = write_in_place(path, online ? "1\n" : "0\n", 2);
        if (r < 0)
                return r;
        r = sync_online(fb, fakeboard_now());
        if (r < 0)
                return r;
        return publish_stat(fb);
}

/* The header libudev puts before a message's KEY=value strings. */
#define UDEV_MONITOR_MAGIC 0xfeedcafeU
struct udev_message_header {
        char prefix[8];                 /* "libudev" */
        uint32_t magic;                 /* network order, like the hashes */
        uint32_t header_size;
        uint32_t properties_off;
        uint32_t properties_len;
        uint32_t filter_subsystem_hash;
        uint32_t filter_devtype_hash;
        uint32_t filter_tag_bloom_hi;
        uint32_t filter_tag_bloom_lo;
};

/* MurmurHash2, seed 0: the subsystem hash the receiver's socket filter tests. */
static uint32_t udev_string_hash(const char *str)
{
        const uint32_t m = 0x5bd1e995;
        size_t len = strlen(str);
        const unsigned char *p = (const unsigned char *)str;
        uint32_t h = (uint32_t)len;

        for (; len >= 4; len -= 4, p += 4) {
                uint32_t k;

                memcpy(&k, p, sizeof(k));
                k *= m;
                k ^= k >> 24;
                k *= m;
                h = h * m ^ k;
        }
        switch (len) {
        case 3:
                h ^= (uint32_t)p[2] << 16;
                /* fall through */
        case 2:
                h ^= (uint32_t)p[1] << 8;
                /* fall through */
        case 1:
                h ^= p[0];
                h *= m;
        }
        h ^= h >> 13;
        h *= m;
        h ^= h >> 15;
        return h;
}

int fakeboard_uevent(struct fakeboard *fb, const char *sysfs_path, const char *action)
{
        char link[PATH_MAX], target[PATH_MAX], props[1024];
        struct udev_message_header hdr = { .prefix = "libudev" };
        struct iovec iov[2];
        const char *subsystem;
        glob_t sockets;
        ssize_t n;
        int len, r, sent = 0;

        if (strncmp(sysfs_path, "/sys/", 5) != 0)
                return -EINVAL;
        r = board_path(fb, link, sizeof(link), "%s/subsystem", sysfs_path);
        if (r < 0)
                return r;
        n = readlink(link, target, sizeof(target) - 1);
        if (n < 0 && errno == ENOENT && strcmp(action, "remove") == 0) {
                /* Gone already: the subsystem of the devices here (cpu,
                 * thermal) is the name of their parent directory. */
                const char *end = strrchr(sysfs_path, '/'), *start = end;

                while (start > sysfs_path && start[-1] != '/')
                        start--;
                n = end - start;
                if (n <= 0 || (size_t)n >= sizeof(target))
                        return -EINVAL;
                memcpy(target, start, (size_t)n);
        } else if (n < 0) {
                return -errno;
        }
        target[n] = '\0';
        subsystem = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
        len = snprintf(props, sizeof(props), "ACTION=%s%cDEVPATH=%s%cSUBSYSTEM=%s%cSEQNUM=%llu", action, 0,
                       sysfs_path + 4, 0, subsystem, 0, ++fb->uevent_seqnum);
        if (len < 0 || (size_t)len >= sizeof(props))
                return -ENAMETOOLONG;
        hdr.magic = htonl(UDEV_MONITOR_MAGIC);
        hdr.header_size = sizeof(hdr);
        hdr.properties_off = sizeof(hdr);
        hdr.properties_len = (uint32_t)len + 1;
        hdr.filter_subsystem_hash = htonl(udev_string_hash(subsystem));
        iov[0] = (struct iovec){ .iov_base = &hdr, .iov_len = sizeof(hdr) };
        iov[1] = (struct iovec){ .iov_base = props, .iov_len = (size_t)len + 1 };

        /* The preload binds each monitor of a process under it to
         * $UMOCKDEV_DIR/eventN (N its descriptor). */
        r = snprintf(link, sizeof(link), "%s/event[0-9]*", fb->root);
        if (r < 0 || (size_t)r >= sizeof(link))
                return -ENAMETOOLONG;
        r = 0;
        if (glob(link, 0, NULL, &sockets) != 0)
                return 0;
        for (size_t i = 0; i < sockets.gl_pathc; i++) {
                struct sockaddr_un addr = { .sun_family = AF_UNIX };
                struct msghdr msg = {
                        .msg_name = &addr, .msg_namelen = sizeof(addr), .msg_iov = iov, .msg_iovlen = 2,
                };
                int fd;

                if (strlen(sockets.gl_pathv[i]) >= sizeof(addr.sun_path))
                        continue;
                strcpy(addr.sun_path, sockets.gl_pathv[i]);
                fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
                if (fd < 0) {
                        r = -errno;
                        break;
                }
                /* A monitor that closed leaves its socket file: not a listener. */
                if (sendmsg(fd, &msg, 0) >= 0)
                        sent++;
                close(fd);
        }
        globfree(&sockets);
        return r < 0 ? r : sent;
}

int fakeboard_override_file(struct fakeboard *fb, const char *path, const char *text)
{
        char full[PATH_MAX];
        unsigned i = 0;
        int r = board_path(fb, full, sizeof(full), "%s", path);

        if (r < 0)
                return r;
        while (i < fb->noverrides && strcmp(fb->overrides[i].path, full) != 0)
                i++;
        if (!text) {
                if (i < fb->noverrides) {
                        free(fb->overrides[i].text);
                        fb->overrides[i] = fb->overrides[--fb->noverrides];
                }
                return 0;
        }
        if (i == fb->noverrides) {
                if (i == MAX_OVERRIDES)
                        return -ENOSPC;
                snprintf(fb->overrides[i].path, sizeof(fb->overrides[i].path), "%s", full);
                fb->overrides[i].text = NULL;
                fb->noverrides++;
        }
        free(fb->overrides[i].text);
        fb->overrides[i].text = strdup(text);
        if (!fb->overrides[i].text) {
                fb->overrides[i] = fb->overrides[--fb->noverrides];
                return -ENOMEM;
        }
        return write_in_place(full, text, strlen(text));
}

int fakeboard_set_temp(struct fakeboard *fb, unsigned zone, int millicelsius)
{
        char path[128];

        if (zone >= fb->desc->nzones)
                return -ENOENT;
        snprintf(path, sizeof(path), "/sys/devices/virtual/thermal/thermal_zone%u/temp", zone);
        fb->temp_mc[zone] = millicelsius;
        return board_printf(fb, path, "%d\n", millicelsius);
}

/* The part of a testbed file's real path (symlinks resolved) below the
 * testbed's root: what the refusing preload sees through /proc/self/fd. */
static int testbed_suffix(const struct fakeboard *fb, const char *path, char *buf, size_t size)
{
        char full[PATH_MAX], resolved[PATH_MAX], root[PATH_MAX];
        size_t root_len;
        int r;

        r = board_path(fb, full, sizeof(full), "%s", path);
        if (r < 0)
                return r;
        if (!realpath(full, resolved) || !realpath(fb->root, root))
                return -errno;
        root_len = strlen(root);
        if (strncmp(resolved, root, root_len) != 0 || resolved[root_len] != '/' || strchr(resolved, ' '))
                return -EXDEV;
        if ((size_t)snprintf(buf, size, "%s", resolved + root_len) >= size)
                return -ENAMETOOLONG;
        return 0;
}

/* Opens the rules file locked against the preload, which counts down in it,
 * and reads it. Returns the descriptor or -errno. */
static int open_rules(const struct fakeboard *fb, char *text, size_t size)
{
        char path[PATH_MAX];
        ssize_t n;
        int fd, r;

        r = board_path(fb, path, sizeof(path), "/" REFUSE_RULES);
        if (r < 0)
                return r;
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
        if (fd < 0)
                return -errno;
        if (flock(fd, LOCK_EX) < 0 || (n = pread(fd, text, size - 1, 0)) < 0) {
                r = -errno;
                close(fd);
                return r;
        }
        text[n] = '\0';
        return fd;
}

/* The count of the rule for 'suffix' in the rules text, 0 if none. */
static unsigned rule_count(const char *text, const char *suffix)
{
        char word[PATH_MAX], error[32];
        unsigned count;

        for (const char *line = text; *line;) {
                if (sscanf(line, "%4095s %31s %u", word, error, &count) == 3 && strcmp(word, suffix) == 0)
                        return count;
                line = strchrnul(line, '\n');
                if (*line)
                        line++;
        }
        return 0;
}

int fakeboard_refuse_writes(struct fakeboard *fb, const char *path, int error, unsigned count)
{
        char suffix[PATH_MAX], text[REFUSE_RULES_MAX], out[REFUSE_RULES_MAX], word[PATH_MAX];
        size_t len = 0;
        int fd, r;

        if (!fb->refuse_so || access(fb->refuse_so, R_OK) < 0)
                return -ENOPKG;
        if (error <= 0)
                return -EINVAL;
        r = testbed_suffix(fb, path, suffix, sizeof(suffix));
        if (r < 0)
                return r;
        fd = open_rules(fb, text, sizeof(text));
        if (fd < 0)
                return fd;
        out[0] = '\0';
        for (char *line = text, *end; *line && len < sizeof(out); line = end) {
                end = strchrnul(line, '\n');
                if (*end)
                        *end++ = '\0';
                if (sscanf(line, "%4095s", word) == 1 && strcmp(word, suffix) == 0)
                        continue;
                len += (size_t)snprintf(out + len, sizeof(out) - len, "%s\n", line);
        }
        if (count > 0 && len < sizeof(out))
                len += (size_t)snprintf(out + len, sizeof(out) - len, "%s %d %u\n", suffix, error, count);
        r = 0;
        if (len >= sizeof(out))
                r = -E2BIG;
        else if (pwrite(fd, out, len, 0) != (ssize_t)len || ftruncate(fd, (off_t)len) < 0)
                r = -errno;
        close(fd);
        return r;
}

int fakeboard_refusals_left(struct fakeboard *fb, const char *path)
{
        char suffix[PATH_MAX], text[REFUSE_RULES_MAX];
        unsigned count;
        int fd, r;

        r = testbed_suffix(fb, path, suffix, sizeof(suffix));
        if (r < 0)
                return r;
        fd = open_rules(fb, text, sizeof(text));
        if (fd < 0)
                return fd;
        count = rule_count(text, suffix);
        close(fd);
        return (int)count;
}

int fakeboard_step(struct fakeboard *fb, bl_usec_t now)
{
        struct fakeboard_output *out = &fb->step_out;
        bl_usec_t dt = fb->stepped && now > fb->last_step ? now - fb->last_step : 0;
        bl_cpuset was_online = fb->online;
        struct fakeboard_state st;
        int r;

        r = collect(fb, now);
        if (r < 0)
                return r;
        if ((r = sync_online(fb, now)) < 0)
                return r;
        read_limits(fb);
        fill_state(fb, now, &was_online, &st);
        memset(out, 0, sizeof(*out));
        out->covered_us = dt;
        for (unsigned z = 0; z < FAKEBOARD_MAX_ZONES; z++)
                out->temp_mc[z] = FAKEBOARD_TEMP_KEEP;
        out->running = fb->running;
        r = fb->driver.step(fb->driver_data, &st, dt, out);
        if (r < 0)
                return r;
        account(fb, &was_online, out);
        if ((r = apply_output(fb, out)) < 0 || (r = publish_stat(fb)) < 0 || (r = publish_cpuidle(fb)) < 0 ||
            (r = publish_psi(fb)) < 0)
                return r;
        fb->last_step = now;
        fb->stepped = true;
        return 0;
}

/* Sleeps until 'until', collecting the process's output as it comes. */
static int wait_until(struct fakeboard *fb, bl_usec_t until)
{
        for (;;) {
                bl_usec_t now = fakeboard_now();
                struct pollfd pfd = { .fd = fb->out_fd, .events = POLLIN };
                struct timespec ts;
                int r;

                if (now >= until)
                        return 0;
                ts.tv_sec = (time_t)((until - now) / BL_USEC_PER_SEC);
                ts.tv_nsec = (long)((until - now) % BL_USEC_PER_SEC) * 1000;
                r = ppoll(&pfd, fb->out_fd >= 0 ? 1 : 0, &ts, NULL);
                if (r < 0 && errno != EINTR)
                        return -errno;
                if (r > 0) {
                        r = drain_output(fb, fakeboard_now());
                        if (r < 0)
                                return r;
                }
        }
}

int fakeboard_run(struct fakeboard *fb, unsigned timeout_ms, fakeboard_until_fn until, void *userdata)
{
        bl_usec_t deadline = fakeboard_now() + (bl_usec_t)timeout_ms * BL_USEC_PER_MSEC;

        for (;;) {
                bl_usec_t now = fakeboard_now(), next;
                int r;

                r = fakeboard_step(fb, now);
                if (r < 0)
                        return r;
                if (until && until(fb, userdata))
                        return 1;
                if (now >= deadline)
                        return 0;
                next = now + FAKEBOARD_STEP_USEC;
                r = wait_until(fb, next < deadline ? next : deadline);
                if (r < 0)
                        return r;
        }
}

int fakeboard_run_for(struct fakeboard *fb, unsigned ms)
{
        int r = fakeboard_run(fb, ms, NULL, NULL);

        return r < 0 ? r : 0;
}

unsigned fakeboard_n_online_changes(const struct fakeboard *fb)
{
        return fb->nchanges;
}

int fakeboard_online_change(const struct fakeboard *fb, unsigned index, bl_usec_t *time, bl_cpuset *online)
{
        if (index >= fb->nchanges)
                return -ENOENT;
        if (time)
                *time = fb->changes[index].time;
        if (online)
                *online = fb->changes[index].online;
        return 0;
}

const char *fakeboard_log_tail(const struct fakeboard *fb)
{
        static char buf[FAKEBOARD_LOG_TAIL_MAX + 1];
        unsigned n = fakeboard_n_lines(fb), first = n;
        size_t total = 0, len = 0;

        /* From the newest line back, as many as fit. */
        while (first > 0) {
                size_t line = strlen(fakeboard_line(fb, first - 1, NULL)) + 7;

                if (total + line > FAKEBOARD_LOG_TAIL_MAX)
                        break;
                total += line;
                first--;
        }
        buf[0] = '\0';
        for (unsigned i = first; i < n; i++)
                len += (size_t)snprintf(buf + len, sizeof(buf) - len, "\n    | %s", fakeboard_line(fb, i, NULL));
        return buf;
}
