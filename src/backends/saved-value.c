/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one setting a backend saves for a later run to put back: shared by
 * the backends' restore_saved(), apart from backend.c, which picks among
 * them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"
#include "common/fileio.h"

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

int backend_save_list(char *buf, size_t size, const char *key, const unsigned *values, unsigned n, unsigned per)
{
        size_t len = (size_t)snprintf(buf, size, "%s=", key);

        for (unsigned i = 0; i < n && len < size; i++)
                for (unsigned k = 0; k < per && len < size; k++)
                        len += (size_t)snprintf(buf + len, size - len, "%s%u", k ? ":" : i ? " " : "",
                                                values[i * per + k]);
        if (len + 2 > size)
                return -ENOBUFS;
        buf[len++] = '\n';
        buf[len] = '\0';
        return 0;
}

int backend_saved_list(char *value, const struct backend_saved_form *form, void *ctx, char *detail,
                       size_t size)
{
        char *save = NULL;
        unsigned n = 0;

        for (char *item = strtok_r(value, " ", &save); item; item = strtok_r(NULL, " ", &save)) {
                uint32_t f[3];
                int r;

                if (parse_u32_fields(item, ':', f, form->per) < 0 || !form->valid(f)) {
                        snprintf(detail, size, "%s: expected %s, got \"%.32s\"", form->key, form->item, item);
                        return -EINVAL;
                }
                if (n >= form->max) {
                        snprintf(detail, size, "%s: %s", form->key, form->too_many);
                        return -EINVAL;
                }
                r = form->take(ctx, n, f, detail, size);
                if (r < 0)
                        return r;
                n++;
        }
        if (n == 0) {
                snprintf(detail, size, "%s: %s", form->key, form->none);
                return -EINVAL;
        }
        return (int)n;
}
