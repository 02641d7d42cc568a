/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stddef.h>

#include "common/cleanup.h"
#include "sources/udev-scan.h"

static void udev_unrefp(struct udev **u)
{
        if (*u)
                udev_unref(*u);
}

static void udev_enumerate_unrefp(struct udev_enumerate **e)
{
        if (*e)
                udev_enumerate_unref(*e);
}

int udev_scan_subsystem(const char *subsystem, udev_scan_fn fn, void *userdata)
{
        _cleanup_(udev_unrefp) struct udev *u = NULL;
        _cleanup_(udev_enumerate_unrefp) struct udev_enumerate *e = NULL;
        struct udev_list_entry *entry;
        int r;

        u = udev_new();
        if (!u)
                return -ENOMEM;
        e = udev_enumerate_new(u);
        if (!e)
                return -ENOMEM;
        r = udev_enumerate_add_match_subsystem(e, subsystem);
        if (r < 0)
                return r;
        r = udev_enumerate_scan_devices(e);
        if (r < 0)
                return r;
        udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(e)) {
                struct udev_device *dev = udev_device_new_from_syspath(u, udev_list_entry_get_name(entry));

                if (!dev)
                        continue;
                r = fn(dev, userdata);
                udev_device_unref(dev);
                if (r < 0)
                        return r;
        }
        return 0;
}
