/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The builder of rtapp-compile.c (rtapp-builder.h): its errors, the values
 * it reads and the names it interns. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "sim/rtapp-builder.h"

#define MAX_USEC 1000000000000ULL       /* 11.6 days: sums stay far from overflow */

void rtapp_model_error(struct builder *b, unsigned line, const char *fmt, ...)
{
        char msg[BL_DIAG_LEN];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        if (b->where[0])
                diag_add(b->diag, "%s:%u: %s: %s", b->filename, line, b->where, msg);
        else
                diag_add(b->diag, "%s:%u: %s", b->filename, line, msg);
}

void rtapp_describe(const struct rtapp_json_member *m, char *buf, size_t size)
{
        const struct rtapp_json *v = &m->value;

        if (!m->has_value) {
                snprintf(buf, size, "nothing");
                return;
        }
        switch (v->type) {
        case RTAPP_JSON_INT:
                snprintf(buf, size, "%lld", v->integer);
                break;
        case RTAPP_JSON_FLOAT:
                snprintf(buf, size, "%g", v->number);
                break;
        case RTAPP_JSON_STRING:
                snprintf(buf, size, "\"%.40s\"%s", v->string, strlen(v->string) > 40 ? "..." : "");
                break;
        case RTAPP_JSON_BOOL:
                snprintf(buf, size, "%s", v->boolean ? "true" : "false");
                break;
        case RTAPP_JSON_OBJECT:
                snprintf(buf, size, "%s", v->object.n ? "an object" : "an empty object");
                break;
        case RTAPP_JSON_ARRAY:
                snprintf(buf, size, "%s", v->array.n ? "an array" : "an empty array");
                break;
        default:
                snprintf(buf, size, "%s", rtapp_json_type_name(v->type));
                break;
        }
}

/* Reports "KEY: expected WHAT, got VALUE" at the member's line. */
void rtapp_bad_value(struct builder *b, const struct rtapp_json_member *m, const char *what)
{
        char got[64];

        rtapp_describe(m, got, sizeof(got));
        rtapp_model_error(b, m->line, "\"%.40s\": expected %s, got %s", m->key, what, got);
}

bool rtapp_get_int(const struct rtapp_json_member *m, long long min, long long max, long long *ret)
{
        if (!m->has_value || m->value.type != RTAPP_JSON_INT || m->value.integer < min ||
            m->value.integer > max)
                return false;
        *ret = m->value.integer;
        return true;
}

bool rtapp_get_usec(struct builder *b, const struct rtapp_json_member *m, bl_usec_t min, bl_usec_t *ret)
{
        long long v;

        if (!rtapp_get_int(m, (long long)min, (long long)MAX_USEC, &v)) {
                rtapp_bad_value(b, m, min > 0 ? "a time in us (an integer 1-1000000000000)"
                                              : "a time in us (an integer 0-1000000000000)");
                return false;
        }
        *ret = (bl_usec_t)v;
        return true;
}

const char *rtapp_get_string(const struct rtapp_json_member *m)
{
        return m->has_value && m->value.type == RTAPP_JSON_STRING ? m->value.string : NULL;
}

int rtapp_find_task(const struct rtapp *ra, const char *name)
{
        for (size_t i = 0; i < ra->ntasks; i++)
                if (strcmp(ra->tasks[i].name, name) == 0)
                        return (int)i;
        return -1;
}

int rtapp_intern_cond(struct rtapp *ra, const char *name)
{
        for (size_t i = 0; i < ra->nconds; i++)
                if (strcmp(ra->conds[i].name, name) == 0)
                        return (int)i;
        if (ra->nconds >= RTAPP_MAX_NAMES)
                return -E2BIG;
        if (array_grow((void **)&ra->conds, ra->nconds, &ra->conds_cap, sizeof(*ra->conds), 8) < 0)
                return -ENOMEM;
        ra->conds[ra->nconds] = (struct cond){ .name = strdup(name) };
        if (!ra->conds[ra->nconds].name)
                return -ENOMEM;
        return (int)ra->nconds++;
}

int rtapp_intern_barrier(struct rtapp *ra, const char *name)
{
        for (size_t i = 0; i < ra->nbarriers; i++)
                if (strcmp(ra->barriers[i].name, name) == 0)
                        return (int)i;
        if (ra->nbarriers >= RTAPP_MAX_NAMES)
                return -E2BIG;
        if (array_grow((void **)&ra->barriers, ra->nbarriers, &ra->barriers_cap, sizeof(*ra->barriers),
                       8) < 0)
                return -ENOMEM;
        ra->barriers[ra->nbarriers] = (struct barrier){ .name = strdup(name) };
        if (!ra->barriers[ra->nbarriers].name)
                return -ENOMEM;
        return (int)ra->nbarriers++;
}

int rtapp_intern_shared_timer(struct builder *b, const char *name)
{
        for (size_t i = 0; i < b->nshared; i++)
                if (strcmp(b->shared[i].name, name) == 0)
                        return (int)i;
        if (b->nshared >= RTAPP_MAX_NAMES)
                return -E2BIG;
        if (array_grow((void **)&b->shared, b->nshared, &b->shared_cap, sizeof(*b->shared), 8) < 0)
                return -ENOMEM;
        b->shared[b->nshared] = (struct shared_timer){ .name = strdup(name) };
        if (!b->shared[b->nshared].name)
                return -ENOMEM;
        return (int)b->nshared++;
}

/* A new entry takes the task's next slot. */
int rtapp_intern_unique_timer(struct builder *b, unsigned task, const char *name)
{
        struct task *tk = &b->ra->tasks[task];

        for (size_t i = 0; i < b->nuniques; i++)
                if (b->uniques[i].task == task && strcmp(b->uniques[i].name, name) == 0)
                        return (int)i;
        if (tk->nunique >= RTAPP_MAX_NAMES)
                return -E2BIG;
        if (array_grow((void **)&b->uniques, b->nuniques, &b->uniques_cap, sizeof(*b->uniques), 8) < 0)
                return -ENOMEM;
        b->uniques[b->nuniques] = (struct unique_ref){
                .task = task, .slot = tk->nunique, .name = strdup(name),
        };
        if (!b->uniques[b->nuniques].name)
                return -ENOMEM;
        tk->nunique++;
        return (int)b->nuniques++;
}

/* E2BIG is the file's problem, reported where it is; -ENOMEM is not. */
int rtapp_interned(struct builder *b, const struct rtapp_json_member *m, int r, unsigned *ret)
{
        if (r == -E2BIG) {
                rtapp_model_error(b, m->line, "\"%.40s\": expected at most %u distinct names of this kind",
                                  m->key, RTAPP_MAX_NAMES);
                return 1;
        }
        if (r < 0)
                return r;
        *ret = (unsigned)r;
        return 0;
}

int rtapp_add_late(struct builder *b, size_t event, unsigned task, const char *name, unsigned line)
{
        if (array_grow((void **)&b->late, b->nlate, &b->late_cap, sizeof(*b->late), 8) < 0)
                return -ENOMEM;
        b->late[b->nlate++] = (struct late_ref){ .event = event, .task = task, .name = name, .line = line };
        return 0;
}

void rtapp_builder_free(struct builder *b)
{
        for (size_t i = 0; i < b->nuniques; i++)
                free(b->uniques[i].name);
        free(b->uniques);
        for (size_t i = 0; i < b->nshared; i++)
                free(b->shared[i].name);
        free(b->shared);
        free(b->late);
}

