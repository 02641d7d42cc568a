/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A board's life (creation from its description, freeing) and what others
 * may ask of it.
 */

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <umockdev.h>

#include "fakeboard/board-internal.h"

int fakeboard_new_desc(const struct fakeboard_desc *d, const struct fakeboard_driver *driver,
                       void *userdata, struct fakeboard **ret)
{
        struct fakeboard *fb = NULL;
        bl_cpumask fixed;
        int r = 0;

        cpumask_zero(&fixed);
        if (!driver || !driver->step)
                r = -EINVAL;
        else if (d->ncpus == 0 || d->ncpus > FAKEBOARD_MAX_CPUS || d->nzones > FAKEBOARD_MAX_ZONES ||
                 d->ngroups > FAKEBOARD_MAX_GROUPS)
                r = -E2BIG;
        else if (d->fixed_cpus)
                r = cpumask_parse(&fixed, d->fixed_cpus);
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
                cpumask_set(&fb->all, cpu);
                fb->cpu[cpu].fixed = cpumask_isset(&fixed, cpu);
        }
        fb->online = fb->all;

        fb->testbed = umockdev_testbed_new();
        fb->root = umockdev_testbed_get_root_dir(fb->testbed);
        if ((r = fb_setup_policies(fb)) < 0)
                goto fail;
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++)
                if (fb->policy[fb->cpu[cpu].policy].desc->switcher_offline)
                        cpumask_clear(&fb->online, cpu);
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                fb->capacity[cpu] = fb->cpu[cpu].capacity;
                fb->cpu_policy[cpu] = fb->cpu[cpu].policy;
        }
        for (unsigned z = 0; z < d->nzones; z++)
                fb->temp_mc[z] = d->zones[z].temp_mc;
        fb_read_limits(fb);
        if ((r = fb_write_tree(fb)) < 0)
                goto fail;
        if ((r = fb_publish_hotplug(fb)) < 0 || (r = fb_publish_stat(fb)) < 0 || (r = fb_publish_psi(fb)) < 0)
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
        fb_forget_lines(fb);
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

void fakeboard_online(const struct fakeboard *fb, bl_cpumask *ret)
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
