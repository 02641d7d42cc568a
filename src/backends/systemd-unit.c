/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/systemd-unit.h"
#include "common/fileio.h"

#define SYSTEMD_DEST "org.freedesktop.systemd1"
#define SYSTEMD_PATH "/org/freedesktop/systemd1"
#define SYSTEMD_MANAGER "org.freedesktop.systemd1.Manager"

void systemd_cpus_from_set(const bl_cpumask *set, struct systemd_cpus *ret)
{
        unsigned span = cpumask_span(set);

        memset(ret, 0, sizeof(*ret));
        ret->n = (span + 7) / 8;
        for (unsigned cpu = 0; cpu < span; cpu++)
                if (cpumask_isset(set, cpu))
                        ret->bytes[cpu / 8] |= (uint8_t)(1u << (cpu % 8));
}

int systemd_cpus_from_bytes(const uint8_t *bytes, size_t n, struct systemd_cpus *ret)
{
        if (n > SYSTEMD_CPUS_MAX_BYTES)
                return -E2BIG;
        memset(ret, 0, sizeof(*ret));
        if (n > 0)
                memcpy(ret->bytes, bytes, n);
        ret->n = n;
        return 0;
}

void systemd_cpus_to_set(const struct systemd_cpus *c, bl_cpumask *ret)
{
        cpumask_zero(ret);
        for (size_t i = 0; i < c->n; i++)
                for (unsigned bit = 0; bit < 8; bit++)
                        if (c->bytes[i] & (1u << bit))
                                cpumask_set(ret, (unsigned)(i * 8 + bit));
}

size_t systemd_cpus_format_hex(const struct systemd_cpus *c, char *buf, size_t size)
{
        size_t len = 0;

        if (size > 0)
                buf[0] = '\0';
        for (size_t i = 0; i < c->n; i++) {
                if (len + 2 < size)
                        snprintf(buf + len, size - len, "%02x", c->bytes[i]);
                len += 2;
        }
        if (size > 0 && len >= size)
                buf[size - 1 - (size - 1) % 2] = '\0';
        return len;
}


int systemd_cpus_parse_hex(const char *text, struct systemd_cpus *ret)
{
        size_t len = strlen(text);

        memset(ret, 0, sizeof(*ret));
        if (len % 2)
                return -EINVAL;
        if (len / 2 > SYSTEMD_CPUS_MAX_BYTES)
                return -E2BIG;
        for (size_t i = 0; i < len; i += 2) {
                int hi = hex_digit(text[i]), lo = hex_digit(text[i + 1]);

                if (hi < 0 || lo < 0)
                        return -EINVAL;
                ret->bytes[i / 2] = (uint8_t)(hi << 4 | lo);
        }
        ret->n = len / 2;
        return 0;
}

static bool has_suffix(const char *s, const char *suffix)
{
        size_t len = strlen(s), slen = strlen(suffix);

        return len > slen && strcmp(s + len - slen, suffix) == 0;
}

/* The interface that carries AllowedCPUs for a unit of this type. */
static const char *unit_interface(const char *unit)
{
        if (has_suffix(unit, ".slice"))
                return "org.freedesktop.systemd1.Slice";
        if (has_suffix(unit, ".service"))
                return "org.freedesktop.systemd1.Service";
        if (has_suffix(unit, ".scope"))
                return "org.freedesktop.systemd1.Scope";
        return NULL;
}

bool systemd_unit_name_supported(const char *name)
{
        return unit_interface(name) != NULL && !strchr(name, '/');
}

int systemd_bus_open(sd_bus **ret)
{
        sd_bus *bus = NULL;
        int r;

        r = sd_bus_open_system(&bus);
        if (r < 0)
                return r;
        r = sd_bus_set_method_call_timeout(bus, SYSTEMD_CALL_TIMEOUT_USEC);
        if (r < 0) {
                sd_bus_unref(bus);
                return r;
        }
        *ret = bus;
        return 0;
}

static void say_error(const sd_bus_error *e, int r, char *error, size_t size)
{
        if (sd_bus_error_is_set(e))
                snprintf(error, size, "%s: %s", e->name, e->message ? e->message : "");
        else
                snprintf(error, size, "%s", strerror(-r));
}

int systemd_ping(sd_bus *bus)
{
        sd_bus_error e = SD_BUS_ERROR_NULL;
        int r;

        r = sd_bus_call_method(bus, SYSTEMD_DEST, SYSTEMD_PATH, "org.freedesktop.DBus.Peer", "Ping", &e, NULL,
                               "");
        sd_bus_error_free(&e);
        return r < 0 ? r : 0;
}

/* The unit's object path; a unit systemd has not loaded is loaded, and one
 * it cannot find is -ENOENT. */
static int unit_path(sd_bus *bus, const char *unit, char **ret, char *error, size_t size)
{
        sd_bus_error e = SD_BUS_ERROR_NULL;
        sd_bus_message *reply = NULL;
        char *path = NULL, *state = NULL;
        const char *p;
        int r;

        r = sd_bus_call_method(bus, SYSTEMD_DEST, SYSTEMD_PATH, SYSTEMD_MANAGER, "GetUnit", &e, &reply, "s",
                               unit);
        if (r < 0 && sd_bus_error_has_name(&e, "org.freedesktop.systemd1.NoSuchUnit")) {
                sd_bus_error_free(&e);
                r = sd_bus_call_method(bus, SYSTEMD_DEST, SYSTEMD_PATH, SYSTEMD_MANAGER, "LoadUnit", &e,
                                       &reply, "s", unit);
        }
        if (r < 0)
                goto out;
        r = sd_bus_message_read(reply, "o", &p);
        if (r < 0)
                goto out;
        path = strdup(p);
        if (!path) {
                r = -ENOMEM;
                goto out;
        }
        r = sd_bus_get_property_string(bus, SYSTEMD_DEST, path, "org.freedesktop.systemd1.Unit", "LoadState",
                                       &e, &state);
        if (r < 0)
                goto out;
        if (strcmp(state, "loaded") != 0) {
                snprintf(error, size, "systemd has no unit %s (load state %s)", unit, state);
                r = -ENOENT;
                goto out;
        }
        *ret = path;
        path = NULL;
out:
        if (r < 0 && (sd_bus_error_is_set(&e) || r != -ENOENT))
                say_error(&e, r, error, size);
        free(state);
        free(path);
        sd_bus_message_unref(reply);
        sd_bus_error_free(&e);
        return r;
}

int systemd_unit_get_allowed_cpus(sd_bus *bus, const char *unit, struct systemd_cpus *ret, char *error,
                                  size_t size)
{
        const char *iface = unit_interface(unit);
        sd_bus_error e = SD_BUS_ERROR_NULL;
        sd_bus_message *reply = NULL;
        char *path = NULL;
        const void *bytes = NULL;
        size_t n = 0;
        int r;

        if (!iface) {
                snprintf(error, size, "%s is not a slice, service or scope", unit);
                return -EINVAL;
        }
        r = unit_path(bus, unit, &path, error, size);
        if (r < 0)
                return r;
        r = sd_bus_get_property(bus, SYSTEMD_DEST, path, iface, "AllowedCPUs", &e, &reply, "ay");
        if (r >= 0)
                r = sd_bus_message_read_array(reply, 'y', &bytes, &n);
        if (r >= 0)
                r = systemd_cpus_from_bytes(bytes, n, ret);
        if (r < 0)
                say_error(&e, r, error, size);
        sd_bus_message_unref(reply);
        sd_bus_error_free(&e);
        free(path);
        return r;
}

int systemd_unit_set_allowed_cpus(sd_bus *bus, const char *unit, const struct systemd_cpus *cpus, char *error,
                                  size_t size)
{
        sd_bus_error e = SD_BUS_ERROR_NULL;
        sd_bus_message *m = NULL;
        int r;

        r = sd_bus_message_new_method_call(bus, &m, SYSTEMD_DEST, SYSTEMD_PATH, SYSTEMD_MANAGER,
                                           "SetUnitProperties");
        if (r >= 0)
                r = sd_bus_message_append(m, "sb", unit, 1);
        if (r >= 0)
                r = sd_bus_message_open_container(m, 'a', "(sv)");
        if (r >= 0)
                r = sd_bus_message_open_container(m, 'r', "sv");
        if (r >= 0)
                r = sd_bus_message_append(m, "s", "AllowedCPUs");
        if (r >= 0)
                r = sd_bus_message_open_container(m, 'v', "ay");
        if (r >= 0)
                r = sd_bus_message_append_array(m, 'y', cpus->bytes, cpus->n);
        for (int i = 0; i < 3 && r >= 0; i++)
                r = sd_bus_message_close_container(m);
        if (r >= 0)
                r = sd_bus_call(bus, m, SYSTEMD_CALL_TIMEOUT_USEC, &e, NULL);
        if (r < 0)
                say_error(&e, r, error, size);
        sd_bus_message_unref(m);
        sd_bus_error_free(&e);
        return r;
}
