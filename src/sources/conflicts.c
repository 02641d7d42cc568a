/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "common/fileio.h"
#include "core/cpumask.h"
#include "sources/conflicts.h"

#define CPUFREQ_DIR "/sys/devices/system/cpu/cpufreq"

struct manager {
        const char *bus_name;
        const char *daemon;
        const char *fights;
};

/* Which names mean which daemon, and what it changes that we change too. */
static const struct manager managers[] = {
        { "net.hadess.PowerProfiles", "power-profiles-daemon",
          "its profile sets the CPUs' energy/performance preference and the platform profile, so each "
          "cluster's speed changes under the daemon's switching" },
        { "org.freedesktop.UPower.PowerProfiles", "power-profiles-daemon",
          "its profile sets the CPUs' energy/performance preference and the platform profile, so each "
          "cluster's speed changes under the daemon's switching" },
        { "com.redhat.tuned", "tuned",
          "its profiles may set cpufreq governors, frequency limits and CPU affinity on the CPUs the "
          "daemon switches" },
        { "org.freedesktop.intel_lpmd", "intel-lpmd",
          "it confines work to the low-power cores (cpusets, CPU hotplug), the very CPUs the daemon "
          "switches; run only one of them" },
};

int conflicts_governors(struct bl_diag *diag)
{
        DIR *dir = opendir(CPUFREQ_DIR);
        struct dirent *de;
        int found = 0;

        if (!dir)
                return errno == ENOENT ? 0 : -errno;
        while ((de = readdir(dir))) {
                char path[512], governor[64], related[512] = "";
                bl_cpumask cpus;

                if (strncmp(de->d_name, "policy", 6) != 0)
                        continue;
                snprintf(path, sizeof(path), "%s/%s/scaling_governor", CPUFREQ_DIR, de->d_name);
                if (read_line(path, governor, sizeof(governor)) < 0 || strcmp(governor, "userspace") != 0)
                        continue;
                snprintf(path, sizeof(path), "%s/%s/related_cpus", CPUFREQ_DIR, de->d_name);
                if (read_line(path, related, sizeof(related)) < 0 || cpumask_parse_words(&cpus, related) < 0)
                        snprintf(related, sizeof(related), "?");
                else
                        cpumask_format(&cpus, related, sizeof(related));
                diag_add(diag,
                         "cpufreq %s (CPUs %s) has the userspace governor: another program sets its "
                         "frequency by hand and may fight the daemon over these CPUs",
                         de->d_name, related);
                found++;
        }
        closedir(dir);
        return found;
}

static int open_bus(const char *address, sd_bus **ret)
{
        sd_bus *bus = NULL;
        int r;

        if (!address)
                return sd_bus_open_system(ret);
        r = sd_bus_new(&bus);
        if (r >= 0)
                r = sd_bus_set_address(bus, address);
        if (r >= 0)
                r = sd_bus_set_bus_client(bus, 1);
        if (r >= 0)
                r = sd_bus_start(bus);
        if (r < 0) {
                sd_bus_unref(bus);
                return r;
        }
        *ret = bus;
        return 0;
}

static int name_has_owner(sd_bus *bus, const char *name, bool *ret)
{
        sd_bus_message *reply = NULL;
        int owned = 0, r;

        r = sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "NameHasOwner", NULL, &reply, "s", name);
        if (r >= 0)
                r = sd_bus_message_read(reply, "b", &owned);
        sd_bus_message_unref(reply);
        if (r < 0)
                return r;
        *ret = owned;
        return 0;
}

int conflicts_bus(const char *address, uint64_t timeout_usec, struct bl_diag *diag)
{
        sd_bus *bus = NULL;
        const char *said = NULL;
        int r, found = 0;

        r = open_bus(address, &bus);
        if (r < 0)
                return r;
        (void)sd_bus_set_method_call_timeout(bus, timeout_usec);
        for (size_t i = 0; i < sizeof(managers) / sizeof(managers[0]); i++) {
                bool owned = false;

                r = name_has_owner(bus, managers[i].bus_name, &owned);
                if (r < 0)
                        break;
                /* power-profiles-daemon owns both of its names: one line. */
                if (!owned || (said && strcmp(said, managers[i].daemon) == 0))
                        continue;
                diag_add(diag, "%s runs (%s on the system bus): %s", managers[i].daemon, managers[i].bus_name,
                         managers[i].fights);
                said = managers[i].daemon;
                found++;
        }
        sd_bus_flush_close_unref(bus);
        return r < 0 ? r : found;
}
