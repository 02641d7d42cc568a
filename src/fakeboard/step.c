/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The step loop. A step reads what others wrote (online files, cpufreq
 * limits, cgroup cpusets), hands the driver the resulting state and
 * publishes its answer; between steps the board collects its command's
 * output.
 */

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>

#include "fakeboard/board-internal.h"

int fakeboard_step(struct fakeboard *fb, bl_usec_t now)
{
        struct fakeboard_output *out = &fb->step_out;
        bl_usec_t dt = fb->stepped && now > fb->last_step ? now - fb->last_step : 0;
        bl_cpumask was_online = fb->online;
        struct fakeboard_state st;
        int r;

        r = fb_collect(fb, now);
        if (r < 0)
                return r;
        if ((r = fb_sync_online(fb, now)) < 0)
                return r;
        fb_read_limits(fb);
        fb_fill_state(fb, now, &was_online, &st);
        memset(out, 0, sizeof(*out));
        out->covered_us = dt;
        for (unsigned z = 0; z < FAKEBOARD_MAX_ZONES; z++)
                out->temp_mc[z] = FAKEBOARD_TEMP_KEEP;
        out->running = fb->running;
        r = fb->driver.step(fb->driver_data, &st, dt, out);
        if (r < 0)
                return r;
        fb_account(fb, &was_online, out);
        if ((r = fb_apply_output(fb, out)) < 0 || (r = fb_publish_stat(fb)) < 0 ||
            (r = fb_publish_cpuidle(fb)) < 0 || (r = fb_publish_psi(fb)) < 0)
                return r;
        fb->last_step = now;
        fb->stepped = true;
        return 0;
}

/* Sleeps until 'until', collecting the process's output as it comes. */
static int wait_until(struct fakeboard *fb, bl_usec_t until)
{
        for (;;) {
                bl_usec_t now = fakeboard_now();
                struct pollfd pfd = { .fd = fb->out_fd, .events = POLLIN };
                struct timespec ts;
                int r;

                if (now >= until)
                        return 0;
                ts.tv_sec = (time_t)((until - now) / BL_USEC_PER_SEC);
                ts.tv_nsec = (long)((until - now) % BL_USEC_PER_SEC) * 1000;
                r = ppoll(&pfd, fb->out_fd >= 0 ? 1 : 0, &ts, NULL);
                if (r < 0 && errno != EINTR)
                        return -errno;
                if (r > 0) {
                        r = fb_drain_output(fb, fakeboard_now());
                        if (r < 0)
                                return r;
                }
        }
}

int fakeboard_run(struct fakeboard *fb, unsigned timeout_ms, fakeboard_until_fn until, void *userdata)
{
        bl_usec_t deadline = fakeboard_now() + (bl_usec_t)timeout_ms * BL_USEC_PER_MSEC;

        for (;;) {
                bl_usec_t now = fakeboard_now(), next;
                int r;

                r = fakeboard_step(fb, now);
                if (r < 0)
                        return r;
                if (until && until(fb, userdata))
                        return 1;
                if (now >= deadline)
                        return 0;
                next = now + FAKEBOARD_STEP_USEC;
                r = wait_until(fb, next < deadline ? next : deadline);
                if (r < 0)
                        return r;
        }
}

int fakeboard_run_for(struct fakeboard *fb, unsigned ms)
{
        int r = fakeboard_run(fb, ms, NULL, NULL);

        return r < 0 ? r : 0;
}
