/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <libudev.h>
#include <stdlib.h>
#include <sys/epoll.h>

#include "sources/udev-monitor.h"

/* Enough for every CPU of a large machine going away at once. */
#define RECEIVE_BUFFER_SIZE (1024 * 1024)

struct uevent_monitor {
        struct udev *udev;
        struct udev_monitor *monitor;
        sd_event_source *source;
        uevent_fn fn;
        void *userdata;
};

static int on_readable(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct uevent_monitor *m = userdata;
        struct udev_device *dev;

        (void)s;
        (void)fd;
        (void)revents;
        /* One wakeup may carry many events; NULL means none is left (or a
         * message was refused, and the loop calls again if more wait). */
        while ((dev = udev_monitor_receive_device(m->monitor))) {
                const char *subsystem = udev_device_get_subsystem(dev);
                const char *action = udev_device_get_action(dev);
                const char *sysname = udev_device_get_sysname(dev);

                if (subsystem && action && sysname)
                        m->fn(subsystem, action, sysname, m->userdata);
                udev_device_unref(dev);
        }
        return 0;
}

void uevent_monitor_free(struct uevent_monitor *m)
{
        if (!m)
                return;
        sd_event_source_disable_unref(m->source);
        udev_monitor_unref(m->monitor);
        udev_unref(m->udev);
        free(m);
}

int uevent_monitor_open(struct uevent_monitor **ret, sd_event *event, uevent_fn fn, void *userdata)
{
        struct uevent_monitor *m;
        int r;

        m = calloc(1, sizeof(*m));
        if (!m)
                return -ENOMEM;
        m->fn = fn;
        m->userdata = userdata;
        m->udev = udev_new();
        if (!m->udev) {
                r = errno > 0 ? -errno : -ENOMEM;
                goto fail;
        }
        m->monitor = udev_monitor_new_from_netlink(m->udev, "udev");
        if (!m->monitor) {
                r = errno > 0 ? -errno : -ENOMEM;
                goto fail;
        }
        if ((r = udev_monitor_filter_add_match_subsystem_devtype(m->monitor, "cpu", NULL)) < 0 ||
            (r = udev_monitor_filter_add_match_subsystem_devtype(m->monitor, "thermal", NULL)) < 0 ||
            (r = udev_monitor_enable_receiving(m->monitor)) < 0)
                goto fail;
        /* Needs privilege; the default buffer is what an unprivileged run gets. */
        (void)udev_monitor_set_receive_buffer_size(m->monitor, RECEIVE_BUFFER_SIZE);
        r = sd_event_add_io(event, &m->source, udev_monitor_get_fd(m->monitor), EPOLLIN, on_readable, m);
        if (r < 0)
                goto fail;
        *ret = m;
        return 0;
fail:
        uevent_monitor_free(m);
        return r;
}
