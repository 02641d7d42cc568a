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

void wall_watch_init(struct bl_wall_watch *w)
{
        *w = (struct bl_wall_watch){ .primed = false };
}

int64_t wall_watch_update(struct bl_wall_watch *w, bl_usec_t mono, uint64_t wall, bl_usec_t min_step)
{
        int64_t offset = (int64_t)(wall - mono), step = offset - w->offset;
        bool primed = w->primed;

        w->primed = true;
        w->offset = offset;
        if (!primed || (step <= (int64_t)min_step && step >= -(int64_t)min_step))
                return 0;
        return step;
}
