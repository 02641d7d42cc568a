/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "common/duration.h"
#include "daemon/tick-timer.h"

static int on_expiry(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct tick_timer *t = userdata;
        uint64_t n;
        ssize_t got;

        (void)s;
        (void)revents;
        /* The read is what re-arms a periodic timerfd (the kernel forwards
         * its hrtimer there), so it cannot be saved by watching the timer
         * edge-triggered: unread, it fires once. */
        got = read(fd, &n, sizeof(n));
        /* EAGAIN: re-armed between the wakeup and the read. */
        if (got != (ssize_t)sizeof(n) || n == 0)
                return 0;
        t->expired += n;
        return t->fn(t, t->first + (t->expired - 1) * t->period, t->userdata);
}

int tick_timer_open(struct tick_timer *t, sd_event *e, tick_timer_fn fn, void *userdata)
{
        int r;

        *t = (struct tick_timer){ .fd = -1, .fn = fn, .userdata = userdata };
        t->fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
        if (t->fd < 0)
                return -errno;
        r = sd_event_add_io(e, &t->source, t->fd, EPOLLIN, on_expiry, t);
        if (r < 0) {
                close(t->fd);
                t->fd = -1;
        }
        return r;
}

int tick_timer_arm(struct tick_timer *t, bl_usec_t first, bl_usec_t period)
{
        struct itimerspec spec = {
                .it_value = duration_timespec(first),
                .it_interval = duration_timespec(period),
        };

        if (period == 0 || first == 0)
                return -EINVAL;
        if (timerfd_settime(t->fd, TFD_TIMER_ABSTIME, &spec, NULL) < 0)
                return -errno;
        t->first = first;
        t->period = period;
        t->expired = 0;
        return 0;
}

void tick_timer_close(struct tick_timer *t)
{
        /* Only an opened timer has a source (a zeroed one has fd 0). */
        if (!t->source)
                return;
        t->source = sd_event_source_unref(t->source);
        close(t->fd);
        t->fd = -1;
}
