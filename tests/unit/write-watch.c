/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/write-watch.h"

static struct write_watch watches[WRITE_WATCH_MAX];
static unsigned nwatches;
static char order[512];

static ssize_t real_write(int fd, const void *buf, size_t count)
{
        static ssize_t (*next)(int, const void *, size_t);

        if (!next)
                next = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
        return next(fd, buf, count);
}

ssize_t write(int fd, const void *buf, size_t count)
{
        struct stat st;

        if (nwatches > 0 && fstat(fd, &st) == 0)
                for (unsigned i = 0; i < nwatches; i++) {
                        struct write_watch *w = &watches[i];
                        size_t len = strlen(order);

                        if (w->dev != st.st_dev || w->ino != st.st_ino)
                                continue;
                        w->writes++;
                        snprintf(order + len, sizeof(order) - len, "%s%s=%.*s", len ? ", " : "", w->name,
                                 (int)count, (const char *)buf);
                        if (w->fail_next > 0) {
                                w->fail_next--;
                                errno = w->error;
                                return -1;
                        }
                        if (w->clamp) {
                                if (real_write(fd, w->clamp, strlen(w->clamp)) < 0)
                                        return -1;
                                return (ssize_t)count;
                        }
                }
        return real_write(fd, buf, count);
}

struct write_watch *write_watch_add(const char *path)
{
        struct write_watch *w;
        struct stat st;

        ck_assert_uint_lt(nwatches, WRITE_WATCH_MAX);
        ck_assert_msg(stat(path, &st) == 0, "%s: %s", path, strerror(errno));
        w = &watches[nwatches++];
        *w = (struct write_watch){ .dev = st.st_dev, .ino = st.st_ino, .error = EBUSY };
        return w;
}

void write_watch_reset(void)
{
        nwatches = 0;
        order[0] = '\0';
}

const char *write_watch_order(void)
{
        return order;
}

void write_watch_clear_order(void)
{
        order[0] = '\0';
}
