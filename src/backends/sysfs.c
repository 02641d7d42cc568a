/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backends/sysfs.h"
#include "common/fileio.h"

static void online_path(unsigned cpu, char *buf, size_t size)
{
        snprintf(buf, size, "/sys/devices/system/cpu/cpu%u/online", cpu);
}

int cpu_online_read(unsigned cpu, bool *online)
{
        char path[64], value[16];
        int r;

        online_path(cpu, path, sizeof(path));
        r = read_line(path, value, sizeof(value));
        if (r == -ENOENT) {
                *online = true;
                return 0;
        }
        if (r < 0)
                return r;
        if (strcmp(value, "1") == 0)
                *online = true;
        else if (strcmp(value, "0") == 0)
                *online = false;
        else
                return -EIO;
        return 0;
}

int cpu_online_write(unsigned cpu, bool online)
{
        char path[64];
        bool now;
        int r;

        online_path(cpu, path, sizeof(path));
        r = write_string(path, online ? "1" : "0");
        if (r < 0)
                return r;
        r = cpu_online_read(cpu, &now);
        if (r < 0)
                return r;
        return now == online ? 0 : -EIO;
}

int cpu_online_read_set(const bl_cpuset *cpus, bl_cpuset *online)
{
        unsigned span = cpuset_span(cpus);

        cpuset_zero(online);
        for (unsigned cpu = 0; cpu < span; cpu++) {
                bool on;
                int r;

                if (!cpuset_isset(cpus, cpu))
                        continue;
                r = cpu_online_read(cpu, &on);
                if (r < 0)
                        return r;
                if (on)
                        cpuset_set(online, cpu);
        }
        return 0;
}
