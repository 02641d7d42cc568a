/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>
#include <unistd.h>

#include "tests/integration/fake-desktop.h"
#include "tests/integration/harness.h"

struct fake_service {
        const char *name, *path, *interface, *property;
};

static const struct fake_service fakes[] = {
        [FAKE_PPD] = { "org.freedesktop.UPower.PowerProfiles", "/org/freedesktop/UPower/PowerProfiles",
                       "org.freedesktop.UPower.PowerProfiles", "ActiveProfile" },
        [FAKE_PPD_OLD] = { "net.hadess.PowerProfiles", "/net/hadess/PowerProfiles", "net.hadess.PowerProfiles",
                           "ActiveProfile" },
        [FAKE_UPOWER] = { "org.freedesktop.UPower", "/org/freedesktop/UPower", "org.freedesktop.UPower",
                          "OnBattery" },
};

/* The child's state: the services it is (one, or both of ppd's names). */
struct child {
        const struct fake_service *svc[2];
        unsigned n;
        sd_bus *bus;
        char value[64];
};

static int get_value(sd_bus *bus, const char *path, const char *interface, const char *property,
                     sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct child *c = userdata;

        if (strcmp(property, "OnBattery") == 0)
                return sd_bus_message_append(reply, "b", strcmp(c->value, "yes") == 0);
        return sd_bus_message_append(reply, "s", c->value);
}

static const sd_bus_vtable ppd_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("ActiveProfile", "s", get_value, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_VTABLE_END,
};

static const sd_bus_vtable upower_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("OnBattery", "b", get_value, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_VTABLE_END,
};

/* A line from the test: the new value. */
static int on_control(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct child *c = userdata;
        ssize_t n = read(fd, c->value, sizeof(c->value) - 1);

        if (n <= 0)
                _exit(0);
        c->value[n] = '\0';
        c->value[strcspn(c->value, "\n")] = '\0';
        for (unsigned i = 0; i < c->n; i++)
                if (sd_bus_emit_properties_changed(c->bus, c->svc[i]->path, c->svc[i]->interface,
                                                   c->svc[i]->property, NULL) < 0)
                        _exit(4);
        return 0;
}

static int publish(struct child *c, const struct fake_service *svc)
{
        int r = sd_bus_add_object_vtable(c->bus, NULL, svc->path, svc->interface,
                                         strcmp(svc->property, "OnBattery") == 0 ? upower_vtable : ppd_vtable, c);

        c->svc[c->n++] = svc;
        return r < 0 ? r : sd_bus_request_name(c->bus, svc->name, 0);
}

static void serve(enum fake_desktop_kind kind, const char *value, int ready, int control)
{
        struct child c = { .n = 0 };
        sd_event *event = NULL;

        snprintf(c.value, sizeof(c.value), "%s", value);
        if (sd_event_new(&event) < 0 || sd_bus_open_system(&c.bus) < 0)
                _exit(2);
        if (kind == FAKE_PPD_BOTH) {
                /* dbus-daemon says the names are gone in the order they
                 * were taken: the older one first would hide the case of
                 * the current one leaving while the older still counts. */
                if (publish(&c, &fakes[FAKE_PPD_OLD]) < 0 || publish(&c, &fakes[FAKE_PPD]) < 0)
                        _exit(2);
        } else if (publish(&c, &fakes[kind]) < 0)
                _exit(2);
        if (sd_bus_attach_event(c.bus, event, 0) < 0 || sd_event_add_io(event, NULL, control, EPOLLIN, on_control, &c) < 0)
                _exit(2);
        if (write(ready, "1", 1) != 1)
                _exit(2);
        close(ready);
        _exit(sd_event_loop(event) < 0 ? 3 : 0);
}

void fake_desktop_start(struct fake_desktop *f, enum fake_desktop_kind kind, const char *value)
{
        int ready[2], control[2];
        char ok = 0;

        ck_assert_int_eq(pipe(ready), 0);
        ck_assert_int_eq(pipe(control), 0);
        f->pid = harness_fork();
        if (f->pid == 0) {
                close(ready[0]);
                close(control[1]);
                serve(kind, value, ready[1], control[0]);
        }
        close(ready[1]);
        close(control[0]);
        f->control = control[1];
        ck_assert_msg(read(ready[0], &ok, 1) == 1, "the fake %s did not start",
                      fakes[kind == FAKE_PPD_BOTH ? FAKE_PPD : kind].name);
        close(ready[0]);
}

void fake_desktop_set(struct fake_desktop *f, const char *value)
{
        size_t len = strlen(value);

        ck_assert_int_eq(write(f->control, value, len), (ssize_t)len);
}

void fake_desktop_stop(struct fake_desktop *f)
{
        close(f->control);
        harness_stop_child(f->pid);
        f->pid = 0;
}
