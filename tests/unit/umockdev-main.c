/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/umockdev-main.h"

int umockdev_main(int argc, char **argv, Suite *(*make)(void))
{
        const char *preload = getenv("LD_PRELOAD");
        SRunner *sr;
        int failed;

        if (!preload || !strstr(preload, "libumockdev-preload")) {
                char **args = calloc((size_t)argc + 2, sizeof(char *));

                if (!args)
                        return EXIT_FAILURE;
                args[0] = (char *)"umockdev-wrapper";
                for (int i = 0; i < argc; i++)
                        args[i + 1] = argv[i];
                /* ASan wants to come first in the link order; the preload does. */
                setenv("ASAN_OPTIONS", "verify_asan_link_order=0", 0);
                execvp(args[0], args);
                fprintf(stderr, "cannot run umockdev-wrapper: %s\n", strerror(errno));
                free(args);
                return EXIT_FAILURE;
        }
        sr = srunner_create(make());
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
