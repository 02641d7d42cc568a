/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A polkit of our own on the test's bus: says yes while workdir/polkit-allow
 * exists, and writes each question to workdir/polkit.log as
 * "ACTION KIND NAME FLAGS".
 */

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

#include "tests/integration/fake-polkit.h"
#include "tests/integration/harness.h"

static int on_check_authorization(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
        const char *kind = "", *key, *name = "", *action = "";
        char path[PATH_MAX + 32];
        uint32_t flags = 0;
        FILE *log;
        int r;

        r = sd_bus_message_enter_container(m, 'r', "sa{sv}");
        if (r >= 0)
                r = sd_bus_message_read(m, "s", &kind);
        if (r >= 0)
                r = sd_bus_message_enter_container(m, 'a', "{sv}");
        while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
                r = sd_bus_message_read(m, "s", &key);
                if (r >= 0 && strcmp(key, "name") == 0)
                        r = sd_bus_message_read(m, "v", "s", &name);
                else if (r >= 0)
                        r = sd_bus_message_skip(m, "v");
                if (r >= 0)
                        r = sd_bus_message_exit_container(m);
        }
        if (r >= 0)
                r = sd_bus_message_exit_container(m);
        if (r >= 0)
                r = sd_bus_message_exit_container(m);
        if (r >= 0)
                r = sd_bus_message_read(m, "s", &action);
        if (r >= 0)
                r = sd_bus_message_skip(m, "a{ss}");
        if (r >= 0)
                r = sd_bus_message_read(m, "u", &flags);
        if (r < 0)
                return r;
        snprintf(path, sizeof(path), "%s/polkit.log", harness_workdir());
        log = fopen(path, "a");
        if (log) {
                fprintf(log, "%s %s %s %u\n", action, kind, name, flags);
                fclose(log);
        }
        snprintf(path, sizeof(path), "%s/polkit-allow", harness_workdir());
        return sd_bus_reply_method_return(m, "(bba{ss})", access(path, F_OK) == 0, 0, 0);
}

static const sd_bus_vtable polkit_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD("CheckAuthorization", "(sa{sv})sa{ss}us", "(bba{ss})", on_check_authorization,
                      SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END,
};

void start_fake_polkit(void)
{
        int pipefd[2];
        char ok = 0;

        ck_assert_int_eq(pipe(pipefd), 0);
        if (harness_fork() == 0) {
                sd_bus *b = NULL;

                close(pipefd[0]);
                if (sd_bus_open_system(&b) < 0 ||
                    sd_bus_add_object_vtable(b, NULL, "/org/freedesktop/PolicyKit1/Authority", POLKIT_IFACE,
                                             polkit_vtable, NULL) < 0 ||
                    sd_bus_request_name(b, "org.freedesktop.PolicyKit1", 0) < 0)
                        _exit(2);
                if (write(pipefd[1], "1", 1) != 1)
                        _exit(2);
                for (;;) {
                        int r = sd_bus_process(b, NULL);

                        if (r < 0)
                                _exit(3);
                        if (r == 0 && sd_bus_wait(b, UINT64_MAX) < 0)
                                _exit(3);
                }
        }
        close(pipefd[1]);
        ck_assert_int_eq(read(pipefd[0], &ok, 1), 1);
        close(pipefd[0]);
}

void polkit_allow(bool allow)
{
        if (allow)
                write_config("polkit-allow", "");
        else
                ck_assert(unlink(work_file("polkit-allow")) == 0 || errno == ENOENT);
}
