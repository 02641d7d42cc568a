/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/clock-jump.h"

void clock_watch_init(struct bl_clock_watch *w)
{
        *w = (struct bl_clock_watch){ .primed = false };
}

bl_usec_t clock_watch_update(struct bl_clock_watch *w, bl_usec_t mono, bl_usec_t boot, bl_usec_t min_sleep)
{
        bl_usec_t slept = 0;

        if (w->primed && mono >= w->mono && boot >= w->boot) {
                bl_usec_t mono_dt = mono - w->mono, boot_dt = boot - w->boot;

                if (boot_dt > mono_dt && boot_dt - mono_dt > min_sleep)
                        slept = boot_dt - mono_dt;
        }
        w->primed = true;
        w->mono = mono;
        w->boot = boot;
        return slept;
}
