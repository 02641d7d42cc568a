/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reload and check-config. */
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

int verb_check_config(const struct ctl_args *a)
{
        /* The daemon's own parser is the only judge of its files: run it.
         * $SWITCHCTL_BIGLITTLED points at another binary (the test suite's). */
        const char *daemon = getenv("SWITCHCTL_BIGLITTLED");
        char *option = NULL;
        char *argv[3];

        if (!daemon || !daemon[0])
                daemon = BIGLITTLED_PATH;
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
