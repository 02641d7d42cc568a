/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/fileio.h"
#include "sources/perf.h"

/* Older kernel headers lack it; the number is ABI (Linux 5.8). */
#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

#define PERF_READ_FORMAT \
        (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define PERF_PMU_TYPE_SHIFT 32
#define PMU_DEVICES "/bus/event_source/devices"
#define PATH_SIZE 4096

/* cycles, instructions, then cache-misses or else stalled-cycles-backend. */
static const struct perf_event_list perf_hardware_events = {
        .cycles = { "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
        .instructions = { "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
        .nthird = 2,
        .third = {
                { "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
                { "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
        },
};

static int kernel_open_event(struct perf_event_attr *attr, int cpu, int group_fd, void *userdata)
{
        long fd;

        (void)userdata;
        fd = syscall(SYS_perf_event_open, attr, -1, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
        return fd < 0 ? -errno : (int)fd;
}

static int kernel_has_perfmon(void *userdata)
{
        struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3 };
        struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { 0 };

        (void)userdata;
        if (syscall(SYS_capget, &header, data) < 0)
                return -errno;
        /* The kernel's perfmon_capable(): either capability will do. */
        return ((data[CAP_PERFMON / 32].effective >> (CAP_PERFMON % 32)) & 1) ||
               ((data[CAP_SYS_ADMIN / 32].effective >> (CAP_SYS_ADMIN % 32)) & 1);
}

const struct perf_syscalls perf_syscalls_kernel = {
        .open_event = kernel_open_event,
        .has_perfmon = kernel_has_perfmon,
};

static void say(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t size, const char *fmt, ...)
{
        va_list ap;

        if (size == 0)
                return;
        va_start(ap, fmt);
        vsnprintf(buf, size, fmt, ap);
        va_end(ap);
}

/* Appends one remark to the note perf_open() leaves on success. */
static void note(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(char *buf, size_t size, const char *fmt, ...)
{
        size_t len;
        va_list ap;

        if (size == 0)
                return;
        len = strnlen(buf, size);
        if (len > 0 && len + 2 < size) {
                memcpy(buf + len, "; ", 3);
                len += 2;
        }
        if (len + 1 >= size)
                return;
        va_start(ap, fmt);
        vsnprintf(buf + len, size - len, fmt, ap);
        va_end(ap);
}

static int pmu_compare(const void *a, const void *b)
{
        return strcmp(((const struct perf_pmu *)a)->name, ((const struct perf_pmu *)b)->name);
}

static int pmu_path(char *buf, size_t size, const char *dir, const char *pmu, const char *file)
{
        int n = snprintf(buf, size, "%s/%s/%s", dir, pmu, file);

        return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int read_pmu(struct perf_pmu *pmu, const char *dir, const char *name, char *reason, size_t size)
{
        char path[PATH_SIZE], text[4096];
        long long type;
        int r;

        r = pmu_path(path, sizeof(path), dir, name, "type");
        if (r >= 0)
                r = read_line(path, text, sizeof(text));
        if (r < 0) {
                say(reason, size, "%s: %s", path, strerror(-r));
                return r;
        }
        if (parse_int(text, &type) < 0 || type <= 0 || type > UINT32_MAX) {
                say(reason, size, "%s: expected a PMU type number, got \"%s\"", path, text);
                return -EINVAL;
        }
        r = pmu_path(path, sizeof(path), dir, name, "cpus");
        if (r >= 0)
                r = read_line(path, text, sizeof(text));
        if (r < 0) {
                say(reason, size, "%s: %s", path, strerror(-r));
                return r;
        }
        r = cpumask_parse(&pmu->cpus, text);
        if (r < 0) {
                say(reason, size, "%s: expected a CPU list, got \"%s\"", path, text);
                return r;
        }
        snprintf(pmu->name, sizeof(pmu->name), "%s", name);
        pmu->type = (uint32_t)type;
        return 0;
}

int perf_pmus_discover(struct perf_pmus *out, const char *sysfs_root, char *reason, size_t size)
{
        char dir[PATH_SIZE];
        struct dirent *de;
        DIR *d;
        int n, r = 0;

        say(reason, size, "%s", "");
        out->n = 0;
        n = snprintf(dir, sizeof(dir), "%s" PMU_DEVICES, sysfs_root);
        if (n < 0 || (size_t)n >= sizeof(dir)) {
                say(reason, size, "%s" PMU_DEVICES ": %s", sysfs_root, strerror(ENAMETOOLONG));
                return -ENAMETOOLONG;
        }
        d = opendir(dir);
        if (!d) {
                r = -errno;
                if (r == -ENOENT)
                        return 0;
                say(reason, size, "%s: %s", dir, strerror(-r));
                return r;
        }
        while ((de = readdir(d))) {
                char cpus[PATH_SIZE];

                if (de->d_name[0] == '.')
                        continue;
                /* Only core PMUs have 'cpus'; uncore ones have 'cpumask'. */
                r = pmu_path(cpus, sizeof(cpus), dir, de->d_name, "cpus");
                if (r < 0) {
                        say(reason, size, "%s/%s: %s", dir, de->d_name, strerror(-r));
                        break;
                }
                if (access(cpus, F_OK) < 0)
                        continue;
                if (out->n == PERF_MAX_PMUS) {
                        say(reason, size, "%s: more than %d PMUs with a 'cpus' file", dir, PERF_MAX_PMUS);
                        r = -E2BIG;
                        break;
                }
                r = read_pmu(&out->pmu[out->n], dir, de->d_name, reason, size);
                if (r < 0)
                        break;
                out->n++;
        }
        closedir(d);
        if (r < 0) {
                out->n = 0;
                return r;
        }
        /* readdir order is arbitrary; sorted, the result is the same on every run. */
        qsort(out->pmu, out->n, sizeof(out->pmu[0]), pmu_compare);
        return 0;
}

const struct perf_pmu *perf_pmus_for_cpu(const struct perf_pmus *pmus, unsigned cpu)
{
        for (unsigned i = 0; i < pmus->n; i++)
                if (cpumask_isset(&pmus->pmu[i].cpus, cpu))
                        return &pmus->pmu[i];
        return NULL;
}

uint64_t perf_event_config(const struct perf_event_spec *spec, uint32_t pmu_type)
{
        if (pmu_type == 0 || (spec->type != PERF_TYPE_HARDWARE && spec->type != PERF_TYPE_HW_CACHE))
                return spec->config;
        return (spec->config & UINT32_MAX) | (uint64_t)pmu_type << PERF_PMU_TYPE_SHIFT;
}

int perf_group_parse(const void *buf, size_t len, struct perf_group_read *out)
{
        uint64_t words[3 + PERF_MAX_EVENTS];

        if (len < 3 * sizeof(uint64_t) || len > sizeof(words) || len % sizeof(uint64_t))
                return -EIO;
        memcpy(words, buf, len);
        if (words[0] == 0 || words[0] > PERF_MAX_EVENTS || len != (3 + words[0]) * sizeof(uint64_t))
                return -EIO;
        *out = (struct perf_group_read){
                .nr = words[0],
                .time_enabled = words[1],
                .time_running = words[2],
        };
        memcpy(out->value, words + 3, words[0] * sizeof(uint64_t));
        return 0;
}

/* delta * enabled / running without overflow: a second of a 5 GHz core is
 * 5e9 cycles, times 1e9 ns enabled is beyond 64 bits. */
static uint64_t scale(uint64_t delta, uint64_t enabled, uint64_t running)
{
        unsigned __int128 v;

        /* Running can only trail enabled; if a kernel says otherwise, the
         * count was not multiplexed. */
        if (enabled <= running)
                return delta;
        v = (unsigned __int128)delta * enabled / running;
        return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

void perf_counts_compute(const struct perf_group_read *prev, const struct perf_group_read *cur,
                         struct perf_counts *out)
{
        uint64_t delta[PERF_MAX_EVENTS] = { 0 };
        uint64_t enabled, running;

        *out = (struct perf_counts){ 0 };
        if (cur->nr != prev->nr || cur->nr < 2 || cur->nr > PERF_MAX_EVENTS)
                return;
        if (cur->time_enabled < prev->time_enabled || cur->time_running <= prev->time_running)
                return;
        for (unsigned i = 0; i < cur->nr; i++) {
                if (cur->value[i] < prev->value[i])
                        return;
                delta[i] = cur->value[i] - prev->value[i];
        }
        enabled = cur->time_enabled - prev->time_enabled;
        running = cur->time_running - prev->time_running;

        out->has_counters = true;
        out->enabled_ns = enabled;
        out->running_ns = running;
        out->cycles = scale(delta[0], enabled, running);
        out->instructions = scale(delta[1], enabled, running);
        if (cur->nr > 2)
                out->third = scale(delta[2], enabled, running);
        /* All members share the group's times, so the ratios need no scaling. */
        if (delta[0] > 0) {
                out->has_ipc = true;
                out->ipc = (double)delta[1] / (double)delta[0];
        }
        if (cur->nr > 2 && delta[1] > 0) {
                out->has_mpki = true;
                out->mpki = (double)delta[2] * 1000.0 / (double)delta[1];
        }
}

struct perf_group {
        unsigned cpu;
        int fd[PERF_MAX_EVENTS];        /* fd[0] leads; -1 when not open */
        /* prev is a reading of these descriptors: false until the first
         * read after a reopen, which only takes it. */
        bool has_prev;
        struct perf_group_read prev;
};

struct perf_source {
        /* Kept to open groups again when CPUs come back online. */
        struct perf_options opt;
        struct perf_pmus pmus;
        const struct perf_event_spec *third;
        bl_cpumask cpus;                /* those with a group open */
        unsigned ngroups;               /* one per watched CPU, open or not */
        struct perf_group group[];
};

static void group_close(struct perf_group *g)
{
        for (unsigned i = 0; i < PERF_MAX_EVENTS; i++) {
                if (g->fd[i] >= 0)
                        close(g->fd[i]);
                g->fd[i] = -1;
        }
}

static bool is_unsupported(int err)
{
        return err == -ENOENT || err == -EOPNOTSUPP || err == -EINVAL;
}

static bool is_offline(int err)
{
        return err == -ENODEV || err == -ENXIO;
}

/* Opens one event. A kernel older than the extended legacy types (x86 5.13,
 * arm64 6.6) refuses a PMU type in config; it then gets the plain legacy
 * event, which a CPU-bound event resolves to the PMU of that CPU anyway. */
static int open_event(const struct perf_syscalls *sys, const struct perf_event_spec *spec, uint32_t pmu_type,
                      unsigned cpu, int group_fd)
{
        uint64_t config = perf_event_config(spec, pmu_type);
        struct perf_event_attr attr = {
                .size = sizeof(attr),
                .type = spec->type,
                .config = config,
                .read_format = PERF_READ_FORMAT,
                .disabled = group_fd < 0,
        };
        int fd;

        fd = sys->open_event(&attr, (int)cpu, group_fd, sys->userdata);
        if (fd < 0 && is_unsupported(fd) && config != spec->config) {
                attr = (struct perf_event_attr){
                        .size = sizeof(attr),
                        .type = spec->type,
                        .config = spec->config,
                        .read_format = PERF_READ_FORMAT,
                        .disabled = group_fd < 0,
                };
                fd = sys->open_event(&attr, (int)cpu, group_fd, sys->userdata);
        }
        return fd;
}

static int read_group(int fd, struct perf_group_read *out)
{
        uint64_t buf[3 + PERF_MAX_EVENTS];
        ssize_t n;

        do
                n = read(fd, buf, sizeof(buf));
        while (n < 0 && errno == EINTR);
        if (n < 0)
                return -errno;
        return perf_group_parse(buf, (size_t)n, out);
}

/* The sentence for people when perf_open() fails: 'what' failed on 'cpu'. */
static void explain(const struct perf_options *opt, const struct perf_syscalls *sys, int err,
                    const char *what, unsigned cpu, char *reason, size_t size)
{
        char open_text[192], text[64];
        long long paranoid = 0;
        int r, perfmon;

        snprintf(open_text, sizeof(open_text), "%s on cpu%u: %s", what, cpu, strerror(-err));
        if (err != -EACCES && err != -EPERM) {
                if (err == -ENOENT || err == -EOPNOTSUPP || is_offline(err))
                        say(reason, size, "hardware counters not supported here (%s)", open_text);
                else
                        say(reason, size, "hardware counters unavailable (%s)", open_text);
                return;
        }

        r = read_line(opt->paranoid_path, text, sizeof(text));
        if (r >= 0)
                r = parse_int(text, &paranoid);
        perfmon = sys->has_perfmon(sys->userdata);
        if (r >= 0 && paranoid >= 3)
                /* Not upstream's: Debian's and Ubuntu's patch checks
                 * capable(CAP_SYS_ADMIN) there, not perfmon_capable(). */
                say(reason, size, "hardware counters not permitted: perf_event_paranoid is %lld, where Debian's "
                    "and Ubuntu's kernels ask for CAP_SYS_ADMIN (CAP_PERFMON will do at 1 and 2), or a seccomp "
                    "filter (SystemCallFilter=) refuses perf_event_open (%s)", paranoid, open_text);
        else if (perfmon > 0)
                /* The kernel's own checks pass; something in front of it said no. */
                say(reason, size, "hardware counters not permitted although the daemon has CAP_PERFMON: "
                    "a seccomp filter (SystemCallFilter=) or a security module refuses perf_event_open (%s)",
                    open_text);
        else if (r < 0)
                say(reason, size, "hardware counters not permitted: the daemon lacks CAP_PERFMON and "
                    "perf_event_paranoid is unknown (%s: %s) (%s)", opt->paranoid_path, strerror(-r),
                    open_text);
        else if (paranoid <= 0)
                say(reason, size, "hardware counters not permitted although perf_event_paranoid is %lld: "
                    "a seccomp filter (SystemCallFilter=) or a security module refuses perf_event_open (%s)",
                    paranoid, open_text);
        else
                say(reason, size, "hardware counters not permitted: perf_event_paranoid is %lld and the "
                    "daemon lacks CAP_PERFMON (%s)", paranoid, open_text);
}

/* What the CPUs after the first have to do about the third event. */
struct third_choice {
        bool decided;
        const struct perf_event_spec *spec;     /* NULL: none */
};

/* What failed, for explain(): "perf_event_open cycles". */
struct step {
        const char *verb;
        const char *event;
};

/* Opens the group of one CPU, enables it and reads it once. Returns 0, or
 * the errno of the step that failed, which *step names. */
static int group_open(struct perf_group *g, unsigned cpu, const struct perf_options *opt,
                      const struct perf_pmus *pmus, struct third_choice *third,
                      struct step *step, char *reason, size_t size)
{
        const struct perf_syscalls *sys = opt->sys ? opt->sys : &perf_syscalls_kernel;
        const struct perf_event_list *ev = opt->events ? opt->events : &perf_hardware_events;
        const struct perf_pmu *pmu = perf_pmus_for_cpu(pmus, cpu);
        uint32_t type = pmu ? pmu->type : 0;
        int fd, r;

        g->cpu = cpu;
        *step = (struct step){ "perf_event_open ", ev->cycles.name };
        fd = open_event(sys, &ev->cycles, type, cpu, -1);
        if (fd < 0)
                return fd;
        g->fd[0] = fd;
        step->event = ev->instructions.name;
        fd = open_event(sys, &ev->instructions, type, cpu, g->fd[0]);
        if (fd < 0)
                return fd;
        g->fd[1] = fd;

        if (!third->decided) {
                char tried[256] = "";

                for (unsigned i = 0; i < ev->nthird && i < PERF_MAX_THIRD; i++) {
                        fd = open_event(sys, &ev->third[i], type, cpu, g->fd[0]);
                        if (fd >= 0) {
                                third->spec = &ev->third[i];
                                if (i > 0)
                                        note(reason, size, "%s unavailable (%s), counting %s instead",
                                             ev->third[0].name, tried, ev->third[i].name);
                                break;
                        }
                        step->event = ev->third[i].name;
                        /* Also a PMU with too few counters for the group: EINVAL. */
                        if (!is_unsupported(fd))
                                return fd;
                        note(tried, sizeof(tried), "%s: %s", ev->third[i].name, strerror(-fd));
                }
                /* Decided once, on the first CPU that gets this far, so that
                 * mpki means the same event on every CPU. */
                third->decided = true;
                if (!third->spec && ev->nthird > 0)
                        note(reason, size, "no third counter (%s): mpki unavailable", tried);
        } else if (third->spec) {
                step->event = third->spec->name;
                fd = open_event(sys, third->spec, type, cpu, g->fd[0]);
                if (fd < 0 && !is_unsupported(fd))
                        return fd;
                if (fd < 0)
                        note(reason, size, "cpu%u counts without %s (%s): no mpki there", cpu,
                             third->spec->name, strerror(-fd));
        }
        if (third->spec && fd >= 0)
                g->fd[2] = fd;

        /* Siblings opened into a group that already counts are not scheduled
         * until the group is next (seen with cpu-wide software events on
         * Linux 6.18): the leader starts disabled and the whole group is
         * enabled at once. */
        *step = (struct step){ "enabling the group of ", ev->cycles.name };
        if (ioctl(g->fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) < 0)
                return -errno;
        /* The first interval runs from here. */
        step->verb = "reading the group of ";
        r = read_group(g->fd[0], &g->prev);
        if (r < 0)
                return r;
        g->has_prev = true;
        return 0;
}

static void group_init(struct perf_group *g, unsigned cpu)
{
        *g = (struct perf_group){ .cpu = cpu };
        for (unsigned i = 0; i < PERF_MAX_EVENTS; i++)
                g->fd[i] = -1;
}

int perf_open(struct perf_source **ret, const struct perf_options *opt, char *reason, size_t size)
{
        const struct perf_syscalls *sys = opt->sys ? opt->sys : &perf_syscalls_kernel;
        struct third_choice third = { 0 };
        struct perf_source *p;
        struct step offline_step = { 0 };
        unsigned n, cpu, span, offline_cpu = 0;
        int r, offline_err = 0;
        bl_cpumask offline;

        say(reason, size, "%s", "");
        n = cpumask_count(&opt->cpus);
        if (n == 0) {
                say(reason, size, "no CPU to count on");
                return -EINVAL;
        }
        p = calloc(1, sizeof(*p) + n * sizeof(p->group[0]));
        if (!p) {
                say(reason, size, "%s", strerror(ENOMEM));
                return -ENOMEM;
        }
        r = perf_pmus_discover(&p->pmus, opt->sysfs_root, reason, size);
        if (r < 0)
                goto fail;
        p->opt = *opt;
        cpumask_zero(&offline);
        span = cpumask_span(&opt->cpus);
        for (cpu = 0; cpu < span; cpu++) {
                struct perf_group *g = &p->group[p->ngroups];
                struct step step = { 0 };
                char what[128];

                if (!cpumask_isset(&opt->cpus, cpu))
                        continue;
                group_init(g, cpu);
                p->ngroups++;
                r = group_open(g, cpu, opt, &p->pmus, &third, &step, reason, size);
                if (r < 0 && is_offline(r)) {
                        group_close(g);
                        if (cpumask_empty(&offline)) {
                                offline_err = r;
                                offline_step = step;
                                offline_cpu = cpu;
                        }
                        cpumask_set(&offline, cpu);
                        continue;
                }
                if (r < 0) {
                        snprintf(what, sizeof(what), "%s%s", step.verb, step.event);
                        explain(opt, sys, r, what, cpu, reason, size);
                        goto fail;
                }
                cpumask_set(&p->cpus, cpu);
        }
        if (cpumask_empty(&p->cpus)) {
                char what[128];

                /* Every watched CPU said ENODEV: more likely no PMU than no CPU online. */
                r = offline_err;
                snprintf(what, sizeof(what), "%s%s", offline_step.verb, offline_step.event);
                explain(opt, sys, r, what, offline_cpu, reason, size);
                goto fail;
        }
        if (!cpumask_empty(&offline)) {
                char list[256];

                cpumask_format(&offline, list, sizeof(list));
                note(reason, size, "%s %s offline (%s), counted once online",
                     cpumask_count(&offline) > 1 ? "CPUs" : "CPU", list, strerror(-offline_err));
        }
        p->third = third.spec;
        *ret = p;
        return 0;

fail:
        perf_close(p);
        return r;
}

int perf_read(struct perf_source *p, struct perf_counts *out, unsigned ncpus)
{
        int ret = 0;

        for (unsigned i = 0; i < ncpus; i++)
                out[i] = (struct perf_counts){ 0 };
        for (unsigned i = 0; i < p->ngroups; i++) {
                struct perf_group *g = &p->group[i];
                struct perf_group_read cur;
                int r;

                if (g->fd[0] < 0)
                        continue;
                r = read_group(g->fd[0], &cur);
                if (r < 0) {
                        if (ret == 0)
                                ret = r;
                        continue;
                }
                if (g->has_prev && g->cpu < ncpus)
                        perf_counts_compute(&g->prev, &cur, &out[g->cpu]);
                g->prev = cur;
                g->has_prev = true;
        }
        return ret;
}

static struct perf_group *group_of(struct perf_source *p, unsigned cpu)
{
        for (unsigned i = 0; i < p->ngroups; i++)
                if (p->group[i].cpu == cpu)
                        return &p->group[i];
        return NULL;
}

int perf_cpu_online(struct perf_source *p, unsigned cpu, char *reason, size_t size)
{
        /* The event chosen at perf_open(), so that mpki means one thing. */
        struct third_choice third = { .decided = true, .spec = p->third };
        struct perf_group *g = group_of(p, cpu);
        struct step step = { 0 };
        int r;

        say(reason, size, "%s", "");
        if (!g) {
                say(reason, size, "cpu%u is not among the CPUs counted on", cpu);
                return -EINVAL;
        }
        perf_cpu_offline(p, cpu);
        r = group_open(g, cpu, &p->opt, &p->pmus, &third, &step, reason, size);
        /* Opened in the middle of an interval: the next read only starts
         * the first. */
        g->has_prev = false;
        if (r < 0) {
                group_close(g);
                say(reason, size, "%s%s on cpu%u: %s", step.verb, step.event, cpu, strerror(-r));
                return r;
        }
        cpumask_set(&p->cpus, cpu);
        return 0;
}

void perf_cpu_offline(struct perf_source *p, unsigned cpu)
{
        struct perf_group *g = group_of(p, cpu);

        if (!g)
                return;
        group_close(g);
        g->has_prev = false;
        cpumask_clear(&p->cpus, cpu);
}

const bl_cpumask *perf_cpus(const struct perf_source *p)
{
        return &p->cpus;
}

const char *perf_third_event(const struct perf_source *p)
{
        return p->third ? p->third->name : NULL;
}

void perf_close(struct perf_source *p)
{
        if (!p)
                return;
        for (unsigned i = 0; i < p->ngroups; i++)
                group_close(&p->group[i]);
        free(p);
}
