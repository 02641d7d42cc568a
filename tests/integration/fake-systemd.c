/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Just enough of systemd's D-Bus API for the cpuset backend: it owns
 * org.freedesktop.systemd1 on the bus DBUS_SYSTEM_BUS_ADDRESS names and
 * knows system.slice and user.slice (Manager.GetUnit, LoadUnit,
 * SetUnitProperties with AllowedCPUs, the units' LoadState and
 * AllowedCPUs). Like systemd, it writes the slice's cpuset.cpus in the
 * testbed itself (a new file renamed over the old one), and it checks that
 * nobody else wrote it in between.
 *
 *   fake-systemd TESTBED LOG [--set UNIT=HEX]... [--refuse UNIT:N]
 *
 * SetUnitProperties is allowed as systemd allows it before asking polkit
 * (there is no polkit here): when libsystemd's sd_bus_query_sender_privilege()
 * with CAP_SYS_ADMIN says yes for the caller; otherwise it is denied.
 *
 * TESTBED is the real path of the testbed's root. LOG gets one line per
 * event: "set UNIT HEX", "refused UNIT", "denied UNIT", "foreign write UNIT" (the file
 * changed since this fake last wrote it: checked before each write and on
 * SIGTERM, after which it logs "stopped" and exits). --refuse makes the Nth
 * SetUnitProperties of UNIT fail, once. "ready" says it owns its name.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

#define NUNITS 2
#define SLICE_IFACE "org.freedesktop.systemd1.Slice"
#define MASK_MAX 128

struct unit {
        const char *name;
        const char *object;
        unsigned char mask[MASK_MAX];
        size_t n;
        struct stat written;    /* the cgroup file as this fake left it */
};

static struct unit units[NUNITS] = {
        { .name = "system.slice", .object = "/org/freedesktop/systemd1/unit/system_2eslice" },
        { .name = "user.slice", .object = "/org/freedesktop/systemd1/unit/user_2eslice" },
};
static const char *testbed;
static FILE *log_file;
static const char *refuse_unit;
static unsigned refuse_at;              /* refuse_unit's SetUnitProperties call that is refused, from 1 */
static volatile sig_atomic_t stopping;

static struct unit *unit_find(const char *name)
{
        for (unsigned i = 0; i < NUNITS; i++)
                if (strcmp(units[i].name, name) == 0)
                        return &units[i];
        return NULL;
}

static void mask_format_list(const struct unit *u, char *buf, size_t size)
{
        size_t len = 0;
        int start = -1;

        buf[0] = '\0';
        for (int cpu = 0; cpu <= (int)(u->n * 8); cpu++) {
                bool on = cpu < (int)(u->n * 8) && (u->mask[cpu / 8] >> (cpu % 8)) & 1;

                if (on && start < 0)
                        start = cpu;
                if (on || start < 0)
                        continue;
                if (len < size)
                        len += (size_t)snprintf(buf + len, size - len, "%s%d", len ? "," : "", start);
                if (cpu - 1 > start && len < size)
                        len += (size_t)snprintf(buf + len, size - len, "-%d", cpu - 1);
                start = -1;
        }
}

static void mask_format_hex(const struct unit *u, char *buf, size_t size)
{
        size_t len = 0;

        buf[0] = '\0';
        for (size_t i = 0; i < u->n && len + 3 <= size; i++)
                len += (size_t)snprintf(buf + len, size - len, "%02x", u->mask[i]);
}

static bool same_file(const struct stat *a, const struct stat *b)
{
        return a->st_ino == b->st_ino && a->st_size == b->st_size && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
               a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static void check_cgroup(struct unit *u, const char *path)
{
        struct stat now;

        if (stat(path, &now) == 0 && !same_file(&now, &u->written)) {
                fprintf(log_file, "foreign write %s\n", u->name);
                fflush(log_file);
        }
}

static void on_sigterm(int sig)
{
        (void)sig;
        stopping = 1;
}

/* What systemd does after a property change: the cgroup follows. */
static int write_cgroup(struct unit *u)
{
        char path[PATH_MAX], tmp[PATH_MAX + 8], list[1024];
        FILE *f;

        snprintf(path, sizeof(path), "%s/sys/fs/cgroup/%s/cpuset.cpus", testbed, u->name);
        snprintf(tmp, sizeof(tmp), "%s.new", path);
        check_cgroup(u, path);
        mask_format_list(u, list, sizeof(list));
        f = fopen(tmp, "w");
        if (!f)
                return -errno;
        fprintf(f, "%s\n", list);
        if (fclose(f) != 0 || rename(tmp, path) < 0 || stat(path, &u->written) < 0)
                return -errno;
        return 0;
}

static int unit_path_reply(sd_bus_message *m, sd_bus_error *error)
{
        const char *name;
        struct unit *u;
        int r;

        r = sd_bus_message_read(m, "s", &name);
        if (r < 0)
                return r;
        u = unit_find(name);
        if (!u)
                return sd_bus_error_setf(error, "org.freedesktop.systemd1.NoSuchUnit", "Unit %s not loaded.",
                                         name);
        return sd_bus_reply_method_return(m, "o", u->object);
}

static int on_get_unit(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        return unit_path_reply(m, error);
}

static int on_set_unit_properties(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        const char *name, *property;
        unsigned char mask[MASK_MAX];
        const void *bytes;
        char hex[2 * MASK_MAX + 1];
        struct unit *u;
        size_t n = 0;
        int runtime, r;
        bool have = false;

        r = sd_bus_message_read(m, "sb", &name, &runtime);
        if (r < 0)
                return r;
        r = sd_bus_query_sender_privilege(m, CAP_SYS_ADMIN);
        if (r < 0)
                return r;
        if (r == 0) {
                fprintf(log_file, "denied %s\n", name);
                fflush(log_file);
                return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, "Access denied");
        }
        u = unit_find(name);
        if (!u)
                return sd_bus_error_setf(error, "org.freedesktop.systemd1.NoSuchUnit", "Unit %s not loaded.",
                                         name);
        r = sd_bus_message_enter_container(m, 'a', "(sv)");
        if (r < 0)
                return r;
        while ((r = sd_bus_message_enter_container(m, 'r', "sv")) > 0) {
                r = sd_bus_message_read(m, "s", &property);
                if (r < 0)
                        return r;
                if (strcmp(property, "AllowedCPUs") != 0)
                        return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, "Cannot set property %s",
                                                 property);
                r = sd_bus_message_enter_container(m, 'v', "ay");
                if (r < 0)
                        return r;
                r = sd_bus_message_read_array(m, 'y', &bytes, &n);
                if (r < 0)
                        return r;
                if (n > MASK_MAX)
                        return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, "mask too long");
                memcpy(mask, bytes, n);
                have = true;
                if ((r = sd_bus_message_exit_container(m)) < 0 || (r = sd_bus_message_exit_container(m)) < 0)
                        return r;
        }
        if (r < 0)
                return r;
        if (!runtime || !have)
                return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS, "expected a runtime AllowedCPUs");
        if (refuse_unit && strcmp(refuse_unit, name) == 0 && --refuse_at == 0) {
                refuse_unit = NULL;
                fprintf(log_file, "refused %s\n", name);
                fflush(log_file);
                return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED, "Refused (once, for the test)");
        }
        memcpy(u->mask, mask, n);
        u->n = n;
        mask_format_hex(u, hex, sizeof(hex));
        fprintf(log_file, "set %s %s\n", name, hex);
        fflush(log_file);
        r = write_cgroup(u);
        if (r < 0)
                return sd_bus_error_set_errnof(error, -r, "cannot write the cgroup of %s", name);
        return sd_bus_reply_method_return(m, NULL);
}

static int get_load_state(sd_bus *bus, const char *path, const char *interface, const char *property,
                          sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        return sd_bus_message_append(reply, "s", "loaded");
}

static int get_allowed_cpus(sd_bus *bus, const char *path, const char *interface, const char *property,
                            sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct unit *u = userdata;

        return sd_bus_message_append_array(reply, 'y', u->mask, u->n);
}

static const sd_bus_vtable manager_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD("GetUnit", "s", "o", on_get_unit, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("LoadUnit", "s", "o", on_get_unit, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("SetUnitProperties", "sba(sv)", "", on_set_unit_properties, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END,
};

static const sd_bus_vtable unit_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("LoadState", "s", get_load_state, 0, 0),
        SD_BUS_VTABLE_END,
};

static const sd_bus_vtable slice_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("AllowedCPUs", "ay", get_allowed_cpus, 0, 0),
        SD_BUS_VTABLE_END,
};

static int parse_set(const char *arg)
{
        const char *eq = strchr(arg, '=');
        char name[64];
        struct unit *u;
        size_t len;

        if (!eq || (size_t)(eq - arg) >= sizeof(name))
                return -EINVAL;
        snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
        u = unit_find(name);
        len = strlen(eq + 1);
        if (!u || len % 2 || len / 2 > MASK_MAX)
                return -EINVAL;
        for (size_t i = 0; i < len / 2; i++) {
                unsigned byte;

                if (sscanf(eq + 1 + 2 * i, "%2x", &byte) != 1)
                        return -EINVAL;
                u->mask[i] = (unsigned char)byte;
        }
        u->n = len / 2;
        return 0;
}

int main(int argc, char *argv[])
{
        sd_bus *bus = NULL;
        int r;

        if (argc < 3) {
                fprintf(stderr, "usage: %s TESTBED LOG [--set UNIT=HEX]... [--refuse UNIT:N]\n", argv[0]);
                return 2;
        }
        testbed = argv[1];
        log_file = fopen(argv[2], "a");
        if (!log_file)
                return 2;
        for (int i = 3; i + 1 < argc; i += 2) {
                if (strcmp(argv[i], "--set") == 0 && parse_set(argv[i + 1]) == 0)
                        continue;
                if (strcmp(argv[i], "--refuse") == 0 && sscanf(argv[i + 1], "%*[^:]:%u", &refuse_at) == 1 &&
                    refuse_at > 0) {
                        refuse_unit = argv[i + 1];
                        *strchr(argv[i + 1], ':') = '\0';
                        continue;
                }
                fprintf(stderr, "fake-systemd: bad argument %s\n", argv[i]);
                return 2;
        }
        /* The cgroups start as the units say, written by "systemd". */
        for (unsigned i = 0; i < NUNITS; i++) {
                char path[PATH_MAX];

                snprintf(path, sizeof(path), "%s/sys/fs/cgroup/%s/cpuset.cpus", testbed, units[i].name);
                if (stat(path, &units[i].written) < 0 || write_cgroup(&units[i]) < 0)
                        return 2;
        }
        /* No SA_RESTART: the wait for the bus returns on SIGTERM. */
        if (sigaction(SIGTERM, &(struct sigaction){ .sa_handler = on_sigterm }, NULL) < 0)
                return 2;
        r = sd_bus_open_system(&bus);
        if (r >= 0)
                r = sd_bus_add_object_vtable(bus, NULL, "/org/freedesktop/systemd1",
                                             "org.freedesktop.systemd1.Manager", manager_vtable, NULL);
        for (unsigned i = 0; i < NUNITS && r >= 0; i++) {
                r = sd_bus_add_object_vtable(bus, NULL, units[i].object, "org.freedesktop.systemd1.Unit",
                                             unit_vtable, &units[i]);
                if (r >= 0)
                        r = sd_bus_add_object_vtable(bus, NULL, units[i].object, SLICE_IFACE, slice_vtable,
                                                     &units[i]);
        }
        if (r >= 0)
                r = sd_bus_request_name(bus, "org.freedesktop.systemd1", 0);
        if (r < 0) {
                fprintf(stderr, "fake-systemd: %s\n", strerror(-r));
                return 1;
        }
        fprintf(log_file, "ready\n");
        fflush(log_file);
        while (!stopping) {
                r = sd_bus_process(bus, NULL);
                if (r < 0)
                        return 1;
                if (r == 0 && sd_bus_wait(bus, UINT64_MAX) < 0 && !stopping)
                        return 1;
        }
        /* A write after this fake's last one shows only here. */
        for (unsigned i = 0; i < NUNITS; i++) {
                char path[PATH_MAX];

                snprintf(path, sizeof(path), "%s/sys/fs/cgroup/%s/cpuset.cpus", testbed, units[i].name);
                check_cgroup(&units[i], path);
        }
        fprintf(log_file, "stopped\n");
        fclose(log_file);
        sd_bus_flush_close_unref(bus);
        return 0;
}
