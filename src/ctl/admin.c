/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reload, and the verbs the daemon's binary answers itself: check-config and record. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl/client.h"
#include "ctl/verbs.h"

int verb_reload(const struct ctl_args *a)
{
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(sd_bus_unrefp) sd_bus *bus = NULL;
        int r;

        r = client_open(&bus, a->ask_password);
        if (r != 0)
                return r;
        r = client_call(bus, "Reload", &error, NULL, "");
        return r < 0 ? client_report(&error, r) : 0;
}

/* $SWITCHCTL_BIGLITTLED points at another binary (the test suite's). */
static const char *daemon_binary(void)
{
        const char *daemon = getenv("SWITCHCTL_BIGLITTLED");

        return daemon && daemon[0] ? daemon : BIGLITTLED_PATH;
}

int verb_check_config(const struct ctl_args *a)
{
        /* The daemon's own parser is the only judge of its files: run it. */
        const char *daemon = daemon_binary();
        char *option = NULL;
        char *argv[3];

        if (a->n_positional > 0) {
                /* "=" keeps a file name that starts with "-" a file name. */
                if (asprintf(&option, "--check-config=%s", a->positional[0]) < 0) {
                        fprintf(stderr, "switchctl: %s\n", strerror(ENOMEM));
                        return EXIT_FAILURE;
                }
        }
        argv[0] = (char *)daemon;
        argv[1] = option ? option : (char *)"--check-config";
        argv[2] = NULL;
        fflush(stdout);
        execv(daemon, argv);
        fprintf(stderr, "switchctl: cannot run %s: %s\n", daemon, strerror(errno));
        free(option);
        return EXIT_FAILURE;
}

/* The daemon's sources read the load the way it decides on it; the
 * recording needs no daemon running and no bus. */
int verb_record(const struct ctl_args *a)
{
        const char *daemon = daemon_binary();
        char *argv[8];
        unsigned n = 0;

        argv[n++] = (char *)daemon;
        argv[n++] = (char *)"--record";
        argv[n++] = a->positional[0];
        if (a->record_duration) {
                argv[n++] = (char *)"--duration";
                argv[n++] = (char *)a->record_duration;
        }
        if (a->record_interval) {
                argv[n++] = (char *)"--interval";
                argv[n++] = (char *)a->record_interval;
        }
        argv[n] = NULL;
        fflush(stdout);
        execv(daemon, argv);
        fprintf(stderr, "switchctl: cannot run %s: %s\n", daemon, strerror(errno));
        return EXIT_FAILURE;
}
