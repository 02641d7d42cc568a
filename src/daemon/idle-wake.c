/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "daemon/idle-wake.h"
#include "daemon/loop.h"

/* The period: context switches, or page faults, on one CPU. A program that
 * starts faults its pages in (a small one about a hundred times) and
 * threads that hand work to each other switch, hundreds of times within
 * milliseconds; an idle CPU switches a few tens of times a second or less
 * (timers, kworkers, this daemon's own tick: two each; at most 19 in a
 * second on Debian's kernel under QEMU) and faults less, so it ends a
 * period every few seconds. The counters stay open while the daemon is
 * backed off, so each period is judged by its pace: one that ended within
 * IDLE_WAKE_WITHIN_USEC of the CPU's last (or of the back-off's start) ends
 * the back-off; a slower one is idle activity adding up, and only costs the
 * daemon a wakeup. Per CPU, so that activity spread over many CPUs does not
 * add up. */
#define IDLE_WAKE_EVENTS 64
#define IDLE_WAKE_WITHIN_USEC (250 * BL_USEC_PER_MSEC)

void idle_wake_close(struct bl_daemon *d)
{
        for (unsigned i = 0; i < d->nwake_sources; i++)
                sd_event_source_disable_unref(d->wake_source[i]);
        free(d->wake_source);
        d->wake_source = NULL;
        d->nwake_sources = 0;
        free(d->wake_last);
        d->wake_last = NULL;
        activity_close(&d->activity);
}

static int on_activity(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct bl_daemon *d = userdata;
        int i = activity_index_of(&d->activity, fd);
        uint64_t now;
        unsigned periods, cpu;
        bl_usec_t since;
        int r;

        (void)s;
        (void)revents;
        if (i < 0)
                return 0;
        r = sd_event_now(d->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;
        periods = activity_drain(&d->activity, (unsigned)i);
        if (periods == 0)
                return 0;
        cpu = activity_cpu(&d->activity, (unsigned)i);
        since = now > d->wake_last[i] ? now - d->wake_last[i] : 0;
        d->wake_last[i] = now;
        /* Reloaded or switched since the counters opened: the next tick
         * comes at the full rate anyway and closes them. */
        if (d->interval <= daemon_full_rate(&d->cfg))
                return 0;
        if (since > (bl_usec_t)periods * IDLE_WAKE_WITHIN_USEC) {
                d->idle_paced++;
                log_debug("idle wake: CPU %u: %u x %d context switches or page faults in %.0f ms, an idle "
                          "pace", cpu, periods, IDLE_WAKE_EVENTS, (double)since / BL_USEC_PER_MSEC);
                return 0;
        }
        d->idle_wakes++;
        log_debug("idle wake: CPU %u: %u x %d context switches or page faults in %.1f ms: deciding now, then "
                  "every %u ms", cpu, periods, IDLE_WAKE_EVENTS, (double)since / BL_USEC_PER_MSEC,
                  d->cfg.sample_interval_ms);
        idle_wake_close(d);
        controller_woken(&d->ctl);
        return daemon_tick_now(d);
}

static int watch(struct bl_daemon *d, bl_usec_t now)
{
        unsigned n = activity_count(&d->activity);
        int r;

        d->wake_source = calloc(n, sizeof(*d->wake_source));
        d->wake_last = calloc(n, sizeof(*d->wake_last));
        if (!d->wake_source || !d->wake_last)
                return -ENOMEM;
        for (unsigned i = 0; i < n; i++) {
                d->wake_last[i] = now;
                r = sd_event_add_io(d->event, &d->wake_source[i], activity_fd(&d->activity, i), EPOLLIN,
                                    on_activity, d);
                if (r < 0)
                        return r;
                d->nwake_sources++;
        }
        return 0;
}

/* Apart from idle_wake_update(): the reason's buffer, cleared, would cost
 * every full-rate tick more than the rest of it. */
static void open_counters(struct bl_daemon *d, bl_usec_t now)
{
        char reason[512] = "";
        int r;

        r = activity_open(&d->activity, &d->topo.present, IDLE_WAKE_EVENTS, reason, sizeof(reason));
        if (r == -ENODEV)
                return;
        if (r >= 0)
                r = watch(d, now);
        if (r < 0) {
                idle_wake_close(d);
                d->wake_refused = true;
                snprintf(d->wake_refusal, sizeof(d->wake_refusal), "%s", reason[0] ? reason : strerror(-r));
                log_info("idle wake: unavailable (%s); while idle, work that starts is seen at the next "
                         "sample, up to idle_sample_interval_ms = %u ms later", d->wake_refusal,
                         d->cfg.idle_sample_interval_ms);
        }
}

void idle_wake_update(struct bl_daemon *d, bl_usec_t now, bl_usec_t next)
{
        if (next <= daemon_full_rate(&d->cfg)) {
                /* Every tick at the full rate: nothing to do but this test. */
                if (activity_count(&d->activity) > 0)
                        idle_wake_close(d);
                return;
        }
        if (activity_count(&d->activity) == 0 && !d->wake_refused && d->sampler_opened &&
            sampler_own_kernel(&d->sampler))
                open_counters(d, now);
}

void idle_wake_describe(const struct bl_daemon *d, char *buf, size_t size)
{
        if (!d->sampler_opened)
                snprintf(buf, size, "off: not sampling");
        else if (!sampler_own_kernel(&d->sampler))
                snprintf(buf, size, "off: a test board's CPUs are not this machine's");
        else if (!d->controller_ready || d->ctl.idle_interval == 0)
                snprintf(buf, size, "off: no idle back-off (idle_sample_interval_ms)");
        else if (d->wake_refused)
                snprintf(buf, size, "unavailable: %s", d->wake_refusal);
        else if (activity_count(&d->activity) > 0)
                snprintf(buf, size, "watching %u CPUs", activity_count(&d->activity));
        else
                snprintf(buf, size, "ready (counts when the daemon backs off)");
}
