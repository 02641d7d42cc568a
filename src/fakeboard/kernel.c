/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's answer to what others wrote: CPU hotplug through the online
 * files, cpufreq limits, cgroup cpusets; the state a step hands the driver.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "fakeboard/board-internal.h"

int fb_publish_hotplug(struct fakeboard *fb)
{
        bl_cpumask offline = fb->all;
        char list[1024];
        int r;

        cpumask_andnot(&offline, &fb->online);
        cpumask_format(&fb->online, list, sizeof(list));
        r = fb_board_printf(fb, "/sys/devices/system/cpu/online", "%s\n", list);
        if (r < 0)
                return r;
        cpumask_format(&offline, list, sizeof(list));
        r = fb_board_printf(fb, "/sys/devices/system/cpu/offline", "%s\n", list);
        if (r < 0)
                return r;
        for (unsigned i = 0; i < fb->npolicies; i++) {
                bl_cpumask affected = fb->policy[i].cpus;

                if (fb->policy[i].desc->switcher_offline)
                        continue;

                cpumask_and(&affected, &fb->online);
                fb_format_cpu_words(&affected, list, sizeof(list));
                r = fb_policy_printf(fb, fb->policy[i].first, "affected_cpus", "%s\n", list);
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
        return fb_board_path(fb, buf, size, "/sys/devices/system/cpu/cpu%u/online", cpu);
}

/* Reads every cpuN/online as the kernel state; what the daemon wrote there
 * is what the kernel did. */
int fb_sync_online(struct fakeboard *fb, bl_usec_t now)
{
        bl_cpumask seen;
        int r;

        cpumask_zero(&seen);
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                char path[PATH_MAX], value[32];

                if (fb->cpu[cpu].fixed) {
                        cpumask_set(&seen, cpu);
                        continue;
                }
                r = cpu_online_file(fb, cpu, path, sizeof(path));
                if (r < 0)
                        return r;
                r = fb_read_text(path, value, sizeof(value));
                if (r == -ENOENT || (r >= 0 && value[0] == '1'))
                        cpumask_set(&seen, cpu);
                else if (r >= 0 && value[0] == '0')
                        continue;
                else if (cpumask_isset(&fb->online, cpu))
                        /* Unreadable or garbage: the kernel would have refused the write. */
                        cpumask_set(&seen, cpu);
        }

        if (cpumask_empty(&seen)) {
                /* The kernel refuses to take the last CPU down. */
                unsigned keep = 0;
                char path[PATH_MAX];

                while (keep < fb->ncpus && !cpumask_isset(&fb->online, keep))
                        keep++;
                if (keep == fb->ncpus)
                        return -EIO;
                cpumask_set(&seen, keep);
                r = cpu_online_file(fb, keep, path, sizeof(path));
                if (r < 0)
                        return r;
                r = fb_write_in_place(path, "1\n", 2);
                if (r < 0)
                        return r;
        }
        if (cpumask_equal(&seen, &fb->online))
                return 0;
        fb->online = seen;
        r = fb_publish_hotplug(fb);
        if (r < 0)
                return r;
        return record_change(fb, now);
}

/* The policies' limits as the daemon (or anyone) may have set them. */
void fb_read_limits(struct fakeboard *fb)
{
        for (unsigned i = 0; i < fb->npolicies; i++) {
                struct fb_policy *p = &fb->policy[i];
                char path[PATH_MAX], value[32];

                p->min_limit_khz = p->opp[0];
                p->max_limit_khz = p->max_khz;
                if (p->desc->switcher_offline)
                        continue;
                if (fb_board_path(fb, path, sizeof(path),
                                  "/sys/devices/system/cpu/cpufreq/policy%u/scaling_min_freq",
                                  p->first) == 0 &&
                    fb_read_text(path, value, sizeof(value)) > 0)
                        p->min_limit_khz = (unsigned)strtoul(value, NULL, 10);
                if (fb_board_path(fb, path, sizeof(path),
                                  "/sys/devices/system/cpu/cpufreq/policy%u/scaling_max_freq",
                                  p->first) == 0 &&
                    fb_read_text(path, value, sizeof(value)) > 0)
                        p->max_limit_khz = (unsigned)strtoul(value, NULL, 10);
        }
}

/* The CPUs a group may use: its own cpuset.cpus within its parents'. */
static void group_cpus(const struct fakeboard *fb, const char *group, bl_cpumask *ret)
{
        char prefix[PATH_MAX], path[PATH_MAX], value[1024];
        size_t len = strlen(group);

        *ret = fb->all;
        for (size_t end = 0; end <= len; end++) {
                bl_cpumask own;

                if (end < len && group[end] != '/')
                        continue;
                if (end == 0 || end >= sizeof(prefix))
                        continue;
                memcpy(prefix, group, end);
                prefix[end] = '\0';
                if (fb_board_path(fb, path, sizeof(path), "/sys/fs/cgroup/%s/cpuset.cpus", prefix) < 0 ||
                    fb_read_text(path, value, sizeof(value)) < 0)
                        continue;
                value[strcspn(value, "\n")] = '\0';
                /* Empty: the parent's CPUs; garbage: the kernel refused it. */
                if (value[0] && cpumask_parse(&own, value) == 0)
                        cpumask_and(ret, &own);
        }
}

static void compute_usable(const struct fakeboard *fb, bl_cpumask *allowed, bl_cpumask *usable)
{
        static const char *const default_groups[] = { "system.slice", "user.slice" };
        const struct fakeboard_desc *d = fb->desc;

        *usable = fb->online;
        if (d->cgroup2) {
                const char *const *groups = d->ngroups ? d->groups : default_groups;
                unsigned n = d->ngroups ? d->ngroups : 2;
                bl_cpumask any;

                cpumask_zero(&any);
                for (unsigned i = 0; i < n; i++) {
                        bl_cpumask cpus;

                        group_cpus(fb, groups[i], &cpus);
                        cpumask_or(&any, &cpus);
                }
                cpumask_and(usable, &any);
        }
        *allowed = *usable;
        for (unsigned i = 0; i < fb->npolicies; i++) {
                const struct fb_policy *p = &fb->policy[i];

                if (!p->desc->switcher_offline && p->nopps > 1 && p->max_limit_khz <= p->opp[0])
                        cpumask_andnot(usable, &p->cpus);
        }
}

void fb_fill_state(struct fakeboard *fb, bl_usec_t now, const bl_cpumask *was_online,
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
        r = fb_write_in_place(path, online ? "1\n" : "0\n", 2);
        if (r < 0)
                return r;
        r = fb_sync_online(fb, fakeboard_now());
        if (r < 0)
                return r;
        return fb_publish_stat(fb);
}

unsigned fakeboard_n_online_changes(const struct fakeboard *fb)
{
        return fb->nchanges;
}

int fakeboard_online_change(const struct fakeboard *fb, unsigned index, bl_usec_t *time, bl_cpumask *online)
{
        if (index >= fb->nchanges)
                return -ENOENT;
        if (time)
                *time = fb->changes[index].time;
        if (online)
                *online = fb->changes[index].online;
        return 0;
}
