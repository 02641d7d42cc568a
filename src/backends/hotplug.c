/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/hotplug.h"
#include "backends/sysfs.h"

struct bl_backend {
        bl_cpumask present;
        bl_cpumask can_offline;
        bl_cpumask saved;       /* online set found at open(), restored on close */
        /* The online set as read before a plan and followed through its
         * writes, each read back as it was made (an unreadable file leaves
         * it as it was; a refused plan has it read again). */
        bl_cpumask online;
        struct hotplug_step steps[BL_MAX_CPUS];
        struct sysfs_undo undo;         /* the steps of the plan running */
};

int hotplug_plan(const bl_cpumask *current, const bl_cpumask *target, const bl_cpumask *can_offline,
                 struct hotplug_step *steps, unsigned max)
{
        bl_cpumask result = *target, fixed = *current, bring_up = *target, take_down = *current;
        unsigned n = 0, span;

        /* CPUs the kernel will not take offline keep whatever state they have. */
        cpumask_andnot(&fixed, can_offline);
        cpumask_and(&result, can_offline);
        cpumask_or(&result, &fixed);
        if (cpumask_empty(&result))
                return -EINVAL;

        cpumask_andnot(&bring_up, current);
        cpumask_and(&bring_up, can_offline);
        cpumask_andnot(&take_down, &result);

        span = cpumask_span(&bring_up);
        for (unsigned cpu = 0; cpu < span; cpu++) {
                if (!cpumask_isset(&bring_up, cpu))
                        continue;
                if (n >= max)
                        return -ENOBUFS;
                steps[n++] = (struct hotplug_step){ .cpu = cpu, .online = true };
        }
        for (unsigned cpu = cpumask_span(&take_down); cpu-- > 0;) {
                if (!cpumask_isset(&take_down, cpu))
                        continue;
                if (n >= max)
                        return -ENOBUFS;
                steps[n++] = (struct hotplug_step){ .cpu = cpu, .online = false };
        }
        return (int)n;
}

/* How a plan treats a CPU that does not take its write. */
enum plan_mode {
        /* A switch: the earlier writes are undone, the kernel is back
         * where it started. */
        PLAN_ALL_OR_NOTHING,
        /* A restore: every other CPU is still put back; 'st' counts the
         * failures and 'detail' says the first. */
        PLAN_EVERY_CPU,
};

/* Runs a plan. All or nothing, the first refusal undoes the steps already
 * made, newest first; returns 0, a negative errno, or BL_BACKEND_NO_EFFECT
 * when a CPU kept its state through a write the kernel took. For every CPU,
 * returns 0 and leaves the failures in 'st', the first one described.
 * 'st->retries' gets the writes the kernel refused for a moment. 'online'
 * (the online CPUs before) follows the writes that went through. */
static int run_plan(struct bl_backend *b, int nsteps, enum plan_mode mode, bl_cpumask *online,
                    struct sysfs_write_stats *st, char *detail, size_t size)
{
        *st = (struct sysfs_write_stats){ 0 };
        sysfs_undo_init(&b->undo);
        for (int i = 0; i < nsteps; i++) {
                const struct hotplug_step *step = &b->steps[i];
                char path[64], why[160];
                unsigned undo_failed, tries = 0;
                int r = cpu_online_write(step->cpu, step->online, &tries);

                if (r == 0) {
                        /* The write was read back: no need to read it again. */
                        if (step->online)
                                cpumask_set(online, step->cpu);
                        else
                                cpumask_clear(online, step->cpu);
                        st->writes++;
                        st->retries += tries > 1 ? tries - 1 : 0;
                        if (mode == PLAN_EVERY_CPU)
                                continue;
                        cpu_online_path(step->cpu, path, sizeof(path));
                        r = sysfs_undo_push(&b->undo, path, step->online ? "0" : "1", SYSFS_CHECK_EQUAL);
                        if (r == 0)
                                continue;
                        snprintf(why, sizeof(why), "cpu%u: cannot record its write for an undo: %s", step->cpu,
                                 strerror(-r));
                } else if (r == SYSFS_IGNORED) {
                        /* The kernel said yes and did nothing: the level is
                         * not there to be had, trying again will not help. */
                        snprintf(why, sizeof(why), "cpu%u: wrote online=%d, it stays %s", step->cpu,
                                 step->online, step->online ? "offline" : "online");
                } else {
                        snprintf(why, sizeof(why), "cpu%u: writing online=%d failed after %u %s: %s", step->cpu,
                                 step->online, tries, tries == 1 ? "try" : "tries", strerror(-r));
                }
                if (mode == PLAN_EVERY_CPU) {
                        if (st->failed++ == 0) {
                                st->first_error = r == SYSFS_IGNORED ? -EIO : r;
                                snprintf(detail, size, "%s", why);
                        }
                        continue;
                }
                undo_failed = sysfs_undo_run(&b->undo);
                snprintf(detail, size, "%s", why);
                sysfs_append(detail, size, "; %s",
                             undo_failed ? "could not undo every earlier write" : "earlier writes undone");
                if (undo_failed)
                        return -EIO;
                return r == SYSFS_IGNORED ? BL_BACKEND_NO_EFFECT : r;
        }
        return 0;
}

/* "online 0,4-7", and the retries when the kernel refused for a moment:
 * a refusal that passed is still reported. */
static void describe(const bl_cpumask *online, unsigned retries, char *detail, size_t size)
{
        char list[256];

        cpumask_format(online, list, sizeof(list));
        snprintf(detail, size, "online %s", list);
        if (retries)
                sysfs_append(detail, size, "; %u retr%s", retries, retries == 1 ? "y" : "ies");
}

static const char *online_error(int r)
{
        return r == -EBADMSG ? "reads neither 0 nor 1" : strerror(-r);
}

/* "; cpu6: online reads neither 0 nor 1, left as it is" */
static void describe_unreadable(const bl_cpumask *unreadable, unsigned first, int error, char *detail,
                                size_t size)
{
        char list[256];

        if (cpumask_count(unreadable) == 1) {
                sysfs_append(detail, size, "; cpu%u: online %s, left as it is", first, online_error(error));
                return;
        }
        cpumask_format(unreadable, list, sizeof(list));
        sysfs_append(detail, size, "; CPUs %s: online unreadable (cpu%u: %s), left as they are", list, first,
                     online_error(error));
}

/* Takes the online CPUs to 'want'. A CPU whose online file cannot be read
 * is left as it is and named in 'detail': its state is not known, and
 * refusing the whole change for it would leave every other CPU where it
 * is, every switch and the restore failing as long as the file stays bad.
 * A switch then goes through for the others; a restore puts back every CPU
 * it can and fails, so that the state stays saved for the next start. */
static int hotplug_apply_set(struct bl_backend *b, const bl_cpumask *want, enum plan_mode mode, char *detail,
                             size_t size)
{
        bl_cpumask current, here, unreadable, target = *want, can_offline = b->can_offline;
        struct sysfs_write_stats st;
        char failure[192] = "";
        unsigned first = 0;
        int n, r, read_error;

        /* Read the kernel's state rather than trusting ours: someone else may
         * have changed it since. A CPU unplugged for good has no files left
         * to write, whatever a level or the state found at start says. */
        cpu_present_set(&b->present, &here);
        read_error = cpu_online_read_each(&here, &current, &unreadable, &first);
        if (!read_error)
                b->online = current;
        cpumask_andnot(&here, &unreadable);
        cpumask_and(&target, &here);
        cpumask_and(&can_offline, &here);
        n = hotplug_plan(&current, &target, &can_offline, b->steps, BL_MAX_CPUS);
        if (n < 0) {
                snprintf(detail, size, "no CPU would stay online");
                if (read_error)
                        describe_unreadable(&unreadable, first, read_error, detail, size);
                return n;
        }
        r = run_plan(b, n, mode, &current, &st, failure, sizeof(failure));
        if (r != 0) {
                /* Refused: the undo may not have put every CPU back. */
                if (r < 0 && cpu_online_read_set(&b->present, &current) == 0)
                        b->online = current;
                snprintf(detail, size, "%s", failure);
                if (read_error)
                        describe_unreadable(&unreadable, first, read_error, detail, size);
                return r;
        }
        if (!read_error)
                b->online = current;
        describe(&current, st.retries, detail, size);
        if (st.failed) {
                sysfs_append(detail, size, "; %s", failure);
                if (st.failed > 1)
                        sysfs_append(detail, size, "; %u CPUs not put back", st.failed);
        }
        if (read_error)
                describe_unreadable(&unreadable, first, read_error, detail, size);
        if (mode == PLAN_EVERY_CPU && (st.failed || read_error))
                return st.failed ? st.first_error : read_error;
        return 0;
}

static int hotplug_open(struct bl_backend **ret, const struct bl_topology *t, const struct bl_ladder *l,
                        const struct bl_config *cfg, struct bl_diag *diag)
{
        struct bl_backend *b;
        int r;

        if (cpumask_empty(&t->can_offline)) {
                diag_add(diag, "hotplug: no CPU can be taken offline on this machine");
                return -EOPNOTSUPP;
        }
        b = calloc(1, sizeof(*b));
        if (!b)
                return -ENOMEM;
        b->present = t->present;
        b->can_offline = t->can_offline;
        r = cpu_online_read_set(&b->present, &b->saved);
        if (r < 0) {
                diag_add(diag, "hotplug: cannot read the online CPUs: %s", strerror(-r));
                free(b);
                return r;
        }
        b->online = b->saved;
        *ret = b;
        return 0;
}

static int hotplug_apply(struct bl_backend *b, const bl_cpumask *cpus, char *detail, size_t size)
{
        bl_cpumask outside = *cpus;

        cpumask_andnot(&outside, &b->present);
        if (!cpumask_empty(&outside)) {
                snprintf(detail, size, "CPUs that are not present were asked for");
                return -EINVAL;
        }
        return hotplug_apply_set(b, cpus, PLAN_ALL_OR_NOTHING, detail, size);
}

/* Putting back what was found has no level to drop: every CPU is tried,
 * and one that keeps its state is a failure to restore. */
static int hotplug_restore(struct bl_backend *b, char *detail, size_t size)
{
        return hotplug_apply_set(b, &b->saved, PLAN_EVERY_CPU, detail, size);
}

static void hotplug_free(struct bl_backend *b)
{
        free(b);
}

static int hotplug_save(struct bl_backend *b, char *buf, size_t size)
{
        static const char key[] = "online=";
        size_t len;

        if (size < sizeof(key) + 1)
                return -ENOBUFS;
        memcpy(buf, key, sizeof(key));
        len = sizeof(key) - 1;
        len += cpumask_format(&b->saved, buf + len, size - len);
        if (len + 2 > size)
                return -ENOBUFS;
        buf[len++] = '\n';
        buf[len] = '\0';
        return 0;
}

/* "online=LIST" is the only setting; anything else means the file was not
 * written by this backend, and nothing is touched. */
static int parse_saved(const struct bl_topology *t, char *text, bl_cpumask *online, char *detail, size_t size)
{
        char *value, list[256];
        bl_cpumask outside;
        int r;

        r = backend_saved_value(text, "online", "hotplug", &value, detail, size);
        if (r < 0)
                return r;
        if (cpumask_parse(online, value) < 0) {
                snprintf(detail, size, "online: expected a CPU list, got \"%.64s\"", value);
                return -EINVAL;
        }
        if (cpumask_empty(online)) {
                snprintf(detail, size, "online: no CPU at all");
                return -EINVAL;
        }
        outside = *online;
        cpumask_andnot(&outside, &t->present);
        if (!cpumask_empty(&outside)) {
                cpumask_format(&outside, list, sizeof(list));
                snprintf(detail, size, "online: names CPUs this machine does not have (%s)", list);
                return -EINVAL;
        }
        return 0;
}

static int hotplug_restore_saved(const struct bl_topology *t, const char *text, char *detail, size_t size)
{
        struct bl_backend *b;
        char *copy;
        bl_cpumask online;
        int r;

        copy = strdup(text);
        if (!copy)
                return -ENOMEM;
        r = parse_saved(t, copy, &online, detail, size);
        free(copy);
        if (r < 0)
                return r;
        b = calloc(1, sizeof(*b));
        if (!b)
                return -ENOMEM;
        b->present = t->present;
        b->can_offline = t->can_offline;
        b->saved = online;
        r = hotplug_apply_set(b, &online, PLAN_EVERY_CPU, detail, size);
        free(b);
        return r;
}

static int hotplug_adopt(struct bl_backend *b, const bl_cpumask *cpus)
{
        bl_cpumask online, keep = b->saved;
        int r;

        r = cpu_online_read_set(&b->present, &online);
        if (r < 0)
                return r;
        cpumask_and(&online, cpus);
        cpumask_andnot(&keep, cpus);
        cpumask_or(&keep, &online);
        b->saved = keep;
        return 0;
}

static bool hotplug_probe(const struct bl_topology *t, char *why, size_t size)
{
        char list[256];

        if (cpumask_empty(&t->can_offline)) {
                snprintf(why, size, "no CPU can be taken offline");
                return false;
        }
        cpumask_format(&t->can_offline, list, sizeof(list));
        snprintf(why, size, "CPUs %s can be taken offline", list);
        return true;
}

static void hotplug_online(const struct bl_backend *b, bl_cpumask *online)
{
        *online = b->online;
}

const struct bl_backend_ops backend_hotplug = {
        .name = "hotplug",
        /* CPU hotplug: tens of milliseconds per CPU, much of it with the
         * machine stopped (stop_machine), and a fixed part for the
         * scheduler domains' rebuild: Holmbacka & Lilius, "Evaluation of
         * CPU Hotplug Latency on Multi-Core ARM Chips" (MCC 2014);
         * Panneerselvam & Swift, "Bolt" (USENIX ATC 2015). */
        .prior = { .latency_us = 5000, .latency_per_cpu_us = 30000 },
        .open = hotplug_open,
        .apply = hotplug_apply,
        .restore = hotplug_restore,
        .free = hotplug_free,
        .save = hotplug_save,
        .restore_saved = hotplug_restore_saved,
        .adopt = hotplug_adopt,
        .online = hotplug_online,
        .probe = hotplug_probe,
};
