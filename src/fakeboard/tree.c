/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sysfs and /proc tree of a board as its description gives it. Sysfs
 * text follows the kernel's own printing, quirks included (cpufreq CPU
 * lists are space-separated, frequency lists end with a space).
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <umockdev.h>

#include "fakeboard/board-internal.h"

/* cpufreq prints CPU masks as "0 1 2 3" (cpufreq_show_cpus), not as ranges. */
void fb_format_cpu_words(const bl_cpumask *set, char *buf, size_t size)
{
        size_t len = 0;

        buf[0] = '\0';
        for (unsigned cpu = 0; cpu < cpumask_span(set); cpu++) {
                int n;

                if (!cpumask_isset(set, cpu))
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
                bl_cpumask cluster, package;
                unsigned first = 0;
                char list[256];

                fprintf(f, "P: /devices/system/cpu/cpu%u\nE: SUBSYSTEM=cpu\n", cpu);
                if (c->capacity)
                        fprintf(f, "A: cpu_capacity=%u\\n\n", fb->cpu[cpu].capacity);
                if (!fb->cpu[cpu].fixed)
                        fprintf(f, "A: online=%d\\n\n", !c->switcher_offline);
                fprintf(f, "A: topology/physical_package_id=%d\\n\n", c->package_id);
                /* ARM numbers cores within their cluster (MPIDR Aff0). */
                cpumask_parse(&cluster, c->cpus);
                while (!cpumask_isset(&cluster, first))
                        first++;
                fprintf(f, "A: topology/core_id=%u\\n\n", c->per_cpu_policy ? cpu : cpu - first);
                snprintf(list, sizeof(list), "%u", cpu);
                fprintf(f, "A: topology/core_cpus_list=%s\\n\n", list);
                fprintf(f, "A: topology/thread_siblings_list=%s\\n\n", list);
                if (c->cluster_id != FAKEBOARD_NO_CLUSTER_ID) {
                        bool own = c->cluster_id == FAKEBOARD_CLUSTER_ID_PER_CPU;

                        cpumask_zero(&cluster);
                        if (own)
                                cpumask_set(&cluster, cpu);
                        else
                                cpumask_parse(&cluster, c->cpus);
                        cpumask_format(&cluster, list, sizeof(list));
                        fprintf(f, "A: topology/cluster_id=%d\\n\n", own ? (int)cpu : c->cluster_id);
                        fprintf(f, "A: topology/cluster_cpus_list=%s\\n\n", list);
                }
                cpumask_zero(&package);
                for (unsigned k = 0; k < d->nclusters; k++) {
                        bl_cpumask s;

                        if (d->clusters[k].package_id == c->package_id &&
                            cpumask_parse(&s, d->clusters[k].cpus) == 0)
                                cpumask_or(&package, &s);
                }
                cpumask_format(&package, list, sizeof(list));
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

        r = fb_board_path(fb, dir, sizeof(dir), "/sys/devices/system/cpu/cpufreq/policy%u", p->first);
        if (r < 0)
                return r;
        r = fb_mkdir_p(dir);
        if (r < 0)
                return r;
        for (unsigned i = 0; i < p->nopps; i++)
                len += (size_t)snprintf(freqs + len, sizeof(freqs) - len, "%u ", p->opp[i]);

        fb_format_cpu_words(&p->cpus, words, sizeof(words));
        /* Drivers with their own governors print the governor list without
         * the generic list's trailing space. */
        if ((r = fb_policy_printf(fb, p->first, "related_cpus", "%s\n", words)) < 0 ||
            (r = fb_policy_printf(fb, p->first, "affected_cpus", "%s\n", words)) < 0 ||
            (r = fb_policy_printf(fb, p->first, "cpuinfo_min_freq", "%u\n", c->min_khz)) < 0 ||
            (r = fb_policy_printf(fb, p->first, "cpuinfo_max_freq", "%u\n", p->max_khz)) < 0 ||
            (r = fb_policy_printf(fb, p->first, "cpuinfo_transition_latency", "%d\n",
                                  c->transition_latency_ns)) < 0 ||
            (r = fb_policy_printf(fb, p->first, "scaling_min_freq", "%u\n", c->min_khz)) < 0 ||
            (r = fb_policy_printf(fb, p->first, "scaling_max_freq", "%u\n", p->max_khz)) < 0 ||
            (r = fb_policy_printf(fb, p->first, "scaling_cur_freq", "%u\n", p->cur_khz)) < 0 ||
            (r = fb_policy_printf(fb, p->first, "scaling_driver", "%s\n", c->driver)) < 0 ||
            (r = fb_policy_printf(fb, p->first, "scaling_governor", "%s\n", c->governor)) < 0 ||
            (r = fb_policy_printf(fb, p->first, "scaling_available_governors", setpolicy ? "%s\n" : "%s \n",
                                  c->governors)) < 0 ||
            (r = fb_policy_printf(fb, p->first, "scaling_setspeed", "<unsupported>\n")) < 0)
                return r;
        if (c->list_frequencies)
                return fb_policy_printf(fb, p->first, "scaling_available_frequencies", "%s\n", freqs);
        return 0;
}

static int write_global_files(struct fakeboard *fb)
{
        char list[1024];
        int r;

        cpumask_format(&fb->all, list, sizeof(list));
        if ((r = fb_board_printf(fb, "/sys/devices/system/cpu/possible", "%s\n", list)) < 0 ||
            (r = fb_board_printf(fb, "/sys/devices/system/cpu/present", "%s\n", list)) < 0 ||
            (r = fb_board_printf(fb, "/sys/devices/system/cpu/kernel_max", "%u\n", fb->desc->kernel_max)) < 0)
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
                bl_cpumask cpus;
                bool done = false;
                int r;

                if (!pmu)
                        continue;
                for (unsigned j = 0; j < k; j++)
                        if (d->clusters[j].pmu && strcmp(d->clusters[j].pmu, pmu) == 0)
                                done = true;
                if (done)
                        continue;
                cpumask_zero(&cpus);
                for (unsigned j = k; j < d->nclusters; j++) {
                        bl_cpumask s;

                        if (d->clusters[j].pmu && strcmp(d->clusters[j].pmu, pmu) == 0 &&
                            cpumask_parse(&s, d->clusters[j].cpus) == 0)
                                cpumask_or(&cpus, &s);
                }
                cpumask_format(&cpus, list, sizeof(list));
                snprintf(path, sizeof(path), "/sys/devices/%s/cpus", pmu);
                if ((r = fb_board_path(fb, target, sizeof(target), "/sys/devices/%s", pmu)) < 0 ||
                    (r = fb_mkdir_p(target)) < 0 || (r = fb_board_printf(fb, path, "%s\n", list)) < 0)
                        return r;
                snprintf(path, sizeof(path), "/sys/devices/%s/type", pmu);
                if ((r = fb_board_printf(fb, path, "%d\n", d->clusters[k].pmu_type)) < 0 ||
                    (r = fb_board_path(fb, path, sizeof(path), "/sys/bus/event_source/devices")) < 0 ||
                    (r = fb_mkdir_p(path)) < 0 ||
                    (r = fb_board_path(fb, path, sizeof(path), "/sys/bus/event_source/devices/%s", pmu)) < 0)
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
                bl_cpumask cpus;
                int first = -1, r;

                if (!c->em_uw || !c->opps_khz || cpumask_parse(&cpus, c->cpus) < 0)
                        continue;
                for (unsigned cpu = 0; first < 0 && cpu < cpumask_span(&cpus); cpu++)
                        if (cpumask_isset(&cpus, cpu))
                                first = (int)cpu;
                if (first < 0)
                        continue;
                snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/cpu%d", first);
                if ((r = fb_board_path(fb, dir, sizeof(dir), "%s", path)) < 0 || (r = fb_mkdir_p(dir)) < 0)
                        return r;
                snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/cpu%d/cpus", first);
                if ((r = fb_board_printf(fb, path, "%s\n", c->cpus)) < 0)
                        return r;
                for (unsigned o = 0; o < c->nopps; o++) {
                        snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/cpu%d/ps:%u", first,
                                 c->opps_khz[o]);
                        if ((r = fb_board_path(fb, dir, sizeof(dir), "%s", path)) < 0 ||
                            (r = fb_mkdir_p(dir)) < 0)
                                return r;
                        snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/cpu%d/ps:%u/frequency",
                                 first, c->opps_khz[o]);
                        if ((r = fb_board_printf(fb, path, "%u\n", c->opps_khz[o])) < 0)
                                return r;
                        snprintf(path, sizeof(path), "/sys/kernel/debug/energy_model/cpu%d/ps:%u/power", first,
                                 c->opps_khz[o]);
                        if ((r = fb_board_printf(fb, path, "%u\n", c->em_uw[o])) < 0)
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
        if ((r = fb_board_path(fb, dir, sizeof(dir), "/sys/kernel/bL_switcher")) < 0 ||
            (r = fb_mkdir_p(dir)) < 0 ||
            (r = fb_board_printf(fb, "/sys/kernel/bL_switcher/active", "1\n")) < 0)
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
        if ((r = fb_board_path(fb, dir, sizeof(dir), "%s", path)) < 0 || (r = fb_mkdir_p(dir)) < 0)
                return r;
        snprintf(path, sizeof(path), "/sys/fs/cgroup/%.*s/cgroup.controllers", (int)len, group);
        if ((r = fb_board_printf(fb, path, "cpuset cpu io memory pids\n")) < 0)
                return r;
        snprintf(path, sizeof(path), "/sys/fs/cgroup/%.*s/cgroup.subtree_control", (int)len, group);
        if ((r = fb_board_printf(fb, path, parent ? "cpuset cpu io memory pids\n" : "\n")) < 0)
                return r;
        snprintf(path, sizeof(path), "/sys/fs/cgroup/%.*s/cpuset.cpus", (int)len, group);
        if ((r = fb_board_printf(fb, path, "\n")) < 0)
                return r;
        snprintf(path, sizeof(path), "/sys/fs/cgroup/%.*s/cpuset.cpus.effective", (int)len, group);
        return fb_board_printf(fb, path, "%s\n", all);
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
        cpumask_format(&fb->all, list, sizeof(list));
        if ((r = fb_board_path(fb, dir, sizeof(dir), "/sys/fs/cgroup")) < 0 || (r = fb_mkdir_p(dir)) < 0 ||
            (r = fb_board_printf(fb, "/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma "
                                 "misc\n")) < 0 ||
            (r = fb_board_printf(fb, "/sys/fs/cgroup/cgroup.subtree_control", "cpuset cpu io memory pids\n")) < 0 ||
            (r = fb_board_printf(fb, "/sys/fs/cgroup/cpuset.cpus.effective", "%s\n", list)) < 0)
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

        r = fb_board_path(fb, dir, sizeof(dir), "/proc/pressure");
        if (r < 0)
                return r;
        r = fb_mkdir_p(dir);
        if (r < 0 || fb->desc->psi)
                return r;
        /* A /proc path missing from the testbed falls through to the host's,
         * and the preload follows symlinks to decide, so a dangling link
         * hides nothing. A directory does: opening works, reading fails
         * (EISDIR), the closest to "absent" the preload allows. */
        r = fb_board_path(fb, dir, sizeof(dir), "/proc/pressure/cpu");
        if (r < 0)
                return r;
        return fb_mkdir_p(dir);
}

int fb_setup_policies(struct fakeboard *fb)
{
        const struct fakeboard_desc *d = fb->desc;
        unsigned top_khz = 0;

        for (unsigned k = 0; k < d->nclusters; k++)
                if (d->clusters[k].max_khz > top_khz)
                        top_khz = d->clusters[k].max_khz;

        for (unsigned k = 0; k < d->nclusters; k++) {
                const struct fakeboard_cluster_desc *c = &d->clusters[k];
                struct fb_policy *shared = NULL;
                bl_cpumask cpus;
                int r;

                r = cpumask_parse(&cpus, c->cpus);
                if (r < 0)
                        return r;
                if (cpumask_span(&cpus) > fb->ncpus || (c->step_khz == 0 && !c->opps_khz) ||
                    c->max_khz < c->min_khz || top_khz == 0 || c->nopps > FAKEBOARD_MAX_OPPS ||
                    (c->opps_khz && (c->nopps == 0 || c->opps_khz[0] != c->min_khz ||
                                     c->opps_khz[c->nopps - 1] != c->max_khz)))
                        return -EINVAL;
                for (unsigned cpu = 0, nth = 0; cpu < cpumask_span(&cpus); cpu++) {
                        struct fb_policy *p = shared;

                        if (!cpumask_isset(&cpus, cpu))
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
                        cpumask_set(&p->cpus, cpu);
                        fb->cpu[cpu].policy = (unsigned)(p - fb->policy);
                }
        }
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++)
                if (fb->cpu[cpu].capacity == 0)
                        return -EINVAL;         /* a CPU no cluster describes */
        return 0;
}

int fb_write_tree(struct fakeboard *fb)
{
        int r;

        if ((r = add_cpu_devices(fb)) < 0 || (r = write_global_files(fb)) < 0 ||
            (r = write_pmu_files(fb)) < 0 || (r = write_proc(fb)) < 0)
                return r;
        for (unsigned i = 0; i < fb->npolicies; i++)
                if (!fb->policy[i].desc->switcher_offline && (r = write_policy_files(fb, &fb->policy[i])) < 0)
                        return r;
        if ((r = write_switcher_files(fb)) < 0 || (r = write_cgroup_files(fb)) < 0 ||
            (r = write_em_files(fb)) < 0)
                return r;
        return 0;
}
