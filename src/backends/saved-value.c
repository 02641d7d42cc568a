/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one setting a backend saves for a later run to put back: shared by
 * the backends' restore_saved(), apart from backend.c, which picks among
 * them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"

int backend_saved_value(char *text, const char *key, const char *backend, char **value, char *detail,
                        size_t size)
{
        char *save = NULL;

        *value = NULL;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                char *v = strchr(line, '=');

                if (!v) {
                        snprintf(detail, size, "%.64s: expected key=value", line);
                        return -EINVAL;
                }
                *v++ = '\0';
                if (strcmp(line, key) != 0) {
                        snprintf(detail, size, "%.64s: not a setting of the %s backend", line, backend);
                        return -EINVAL;
                }
                if (*value) {
                        snprintf(detail, size, "%s: given twice", key);
                        return -EINVAL;
                }
                *value = v;
        }
        if (!*value) {
                snprintf(detail, size, "%s: missing", key);
                return -EINVAL;
        }
        return 0;
}
