/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's accounting of what the driver says the CPUs did. Busy and
 * idle time accrue to the CPUs that were online while the time passed,
 * /proc/stat shows them in USER_HZ ticks and cpuidle's state time files the
 * idle time in µs.
 */

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>

#include "fakeboard/board-internal.h"

#define USER_HZ 100
#define USEC_PER_TICK (BL_USEC_PER_SEC / USER_HZ)

/* The idle time of a step in cpuidle's states: a step with busy time ends
 * the idle periods in it (and the one before it), a step idle throughout
 * is one long period that a kernel counts only once it ends. */
static void account_idle(const struct fakeboard *fb, struct fb_cpu *c, double idle_us, bool woke)
{
        if (!woke) {
                if (fb->desc->cpuidle_defers_idle) {
                        c->pending_us += idle_us;
                } else if (idle_us > 0) {
                        c->state_us[1] += idle_us;
                        c->usage[1]++;
                }
                return;
        }
        if (c->pending_us > 0) {
                c->state_us[1] += c->pending_us;
                c->usage[1]++;
                c->pending_us = 0;
        }
        if (idle_us > 0) {
                c->state_us[0] += idle_us;
                c->usage[0]++;
        }
}

/* FAKEBOARD_RESIDENCY_KERNEL: a timer wake every ~idle_wake_us. */
#define WAKE_JITTER 0.1
/* A period shorter than this goes to state 0 (WFI), a longer one to state 1. */
#define DEEP_STATE_US 1000.0
/* A CPU loaded this much is woken by its work, not its timer. */
#define FULL_LOAD 0.999

static double uniform(struct fb_cpu *c)
{
        /* xorshift64*: the phases need no more */
        c->rng ^= c->rng >> 12;
        c->rng ^= c->rng << 25;
        c->rng ^= c->rng >> 27;
        return (double)((c->rng * UINT64_C(2685821657736338717)) >> 11) / (double)(UINT64_C(1) << 53);
}

static double wake_period(const struct fakeboard *fb, struct fb_cpu *c)
{
        double wake = fb->desc->idle_wake_us ? fb->desc->idle_wake_us : FAKEBOARD_IDLE_WAKE_USEC;

        return wake * (1.0 + WAKE_JITTER * (2.0 * uniform(c) - 1.0));
}

static void end_idle_period(struct fb_cpu *c)
{
        unsigned k = c->idle_len_us < DEEP_STATE_US ? 0 : 1;

        c->state_us[k] += c->idle_len_us;
        c->usage[k]++;
        c->idle = false;
        c->idle_len_us = 0;
}

static void start_timeline(const struct fakeboard *fb, struct fb_cpu *c, unsigned cpu)
{
        unsigned long long seed = fb->desc->idle_seed ? fb->desc->idle_seed : 0x5eed1d1eULL;

        c->timeline = true;
        c->rng = (seed ^ ((uint64_t)(cpu + 1) * UINT64_C(0x9e3779b97f4a7c15))) | 1;
        c->idle = true;
        c->idle_len_us = 0;
        c->owed_us = 0;
        c->next_wake_us = fb->clock_us + uniform(c) * wake_period(fb, c);
}

/* Runs a CPU's timeline over 'covered' µs from the board's clock, its work
 * arriving at 'rate' (busy share the driver gave): idle until a wake, then
 * busy until the work that came is done (it keeps coming meanwhile, so at
 * rate r a backlog w takes w / (1 - r)). Returns the busy time. */
static double run_timeline(const struct fakeboard *fb, struct fb_cpu *c, double rate, double covered)
{
        const double start = fb->clock_us;
        double t = 0, ran = 0;

        rate = rate < 0 ? 0 : rate > 1 ? 1 : rate;
        if (c->idle && rate >= FULL_LOAD)
                end_idle_period(c);
        while (t < covered) {
                double left = covered - t;

                if (!c->idle) {
                        double drain;

                        if (rate >= FULL_LOAD) {
                                ran += left;
                                break;
                        }
                        drain = c->owed_us / (1.0 - rate);
                        if (drain >= left) {
                                c->owed_us -= (1.0 - rate) * left;
                                ran += left;
                                break;
                        }
                        ran += drain;
                        t += drain;
                        c->owed_us = 0;
                        c->idle = true;
                        c->idle_len_us = 0;
                        while (c->next_wake_us <= start + t)
                                c->next_wake_us += wake_period(fb, c);
                } else {
                        double until = c->next_wake_us - (start + t);

                        if (until >= left) {
                                c->idle_len_us += left;
                                c->owed_us += rate * left;
                                break;
                        }
                        c->idle_len_us += until;
                        c->owed_us += rate * until;
                        t += until;
                        end_idle_period(c);
                        c->next_wake_us += wake_period(fb, c);
                }
        }
        return ran;
}

/* What the driver said happened while 'was_online' were the online CPUs. */
void fb_account(struct fakeboard *fb, const bl_cpumask *was_online, const struct fakeboard_output *out)
{
        static const double window_s[3] = { 10, 60, 300 };
        double covered = (double)out->covered_us, stalled;

        if (covered <= 0)
                return;
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                double busy = out->busy_us[cpu];

                if (!cpumask_isset(was_online, cpu))
                        continue;
                if (busy < 0)
                        busy = 0;
                if (fb->desc->residency == FAKEBOARD_RESIDENCY_KERNEL) {
                        struct fb_cpu *c = &fb->cpu[cpu];

                        if (!c->timeline)
                                start_timeline(fb, c, cpu);
                        busy = run_timeline(fb, c, busy / covered, covered);
                        c->busy_us += busy;
                        c->idle_us += busy < covered ? covered - busy : 0;
                        continue;
                }
                fb->cpu[cpu].busy_us += busy;
                fb->cpu[cpu].idle_us += busy < covered ? covered - busy : 0;
                account_idle(fb, &fb->cpu[cpu], busy < covered ? covered - busy : 0, busy > 0);
        }
        fb->clock_us += covered;
        /* Taking a CPU down ends its idle period; its work goes elsewhere. */
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                struct fb_cpu *c = &fb->cpu[cpu];

                if (cpumask_isset(was_online, cpu))
                        continue;
                if (fb->desc->residency != FAKEBOARD_RESIDENCY_KERNEL) {
                        account_idle(fb, c, 0, true);
                } else if (c->timeline) {
                        if (c->idle)
                                end_idle_period(c);
                        c->owed_us = 0;
                }
        }
        stalled = out->stall_us / covered;
        stalled = stalled < 0 ? 0 : stalled > 1 ? 1 : stalled;
        fb->psi_total_us += out->stall_us > 0 ? out->stall_us : 0;
        for (unsigned k = 0; k < 3; k++) {
                double decay = exp(-covered / (window_s[k] * (double)BL_USEC_PER_SEC));

                fb->psi_avg[k] = fb->psi_avg[k] * decay + 100.0 * stalled * (1.0 - decay);
        }
}

int fb_apply_output(struct fakeboard *fb, const struct fakeboard_output *out)
{
        for (unsigned i = 0; i < fb->npolicies; i++) {
                struct fb_policy *p = &fb->policy[i];
                unsigned khz = out->cur_khz[i];
                int r;

                if (khz == 0 || khz == p->cur_khz || p->desc->switcher_offline)
                        continue;
                p->cur_khz = khz;
                r = fb_policy_printf(fb, p->first, "scaling_cur_freq", "%u\n", khz);
                if (r < 0)
                        return r;
        }
        for (unsigned z = 0; z < fb->desc->nzones; z++) {
                int r;

                if (out->temp_mc[z] == FAKEBOARD_TEMP_KEEP || out->temp_mc[z] == fb->temp_mc[z])
                        continue;
                r = fakeboard_set_temp(fb, z, out->temp_mc[z]);
                if (r < 0)
                        return r;
        }
        fb->running = out->running;
        return 0;
}
static unsigned long long ticks(double us)
{
        return (unsigned long long)(us / (double)USEC_PER_TICK);
}

int fb_publish_stat(struct fakeboard *fb)
{
        char path[PATH_MAX];
        double busy = 0, idle = 0;
        size_t len = 0, size = sizeof(fb->stat_buf);
        unsigned procs = fb->running + 1;
        int n, r;

        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                busy += fb->cpu[cpu].busy_us;
                idle += fb->cpu[cpu].idle_us;
        }
        n = snprintf(fb->stat_buf, size, "cpu  %llu 0 0 %llu 0 0 0 0 0 0\n", ticks(busy), ticks(idle));
        if (n < 0 || (size_t)n >= size)
                return -E2BIG;
        len = (size_t)n;
        /* The kernel prints a line only for online CPUs. */
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                if (!cpumask_isset(&fb->online, cpu))
                        continue;
                n = snprintf(fb->stat_buf + len, size - len, "cpu%u %llu 0 0 %llu 0 0 0 0 0 0\n", cpu,
                             ticks(fb->cpu[cpu].busy_us), ticks(fb->cpu[cpu].idle_us));
                if (n < 0 || (size_t)n >= size - len)
                        return -E2BIG;
                len += (size_t)n;
        }
        n = snprintf(fb->stat_buf + len, size - len,
                     "intr 0\nctxt 0\nbtime 0\nprocesses %u\nprocs_running %u\nprocs_blocked 0\nsoftirq 0\n",
                     procs, procs);
        if (n < 0 || (size_t)n >= size - len)
                return -E2BIG;
        len += (size_t)n;
        r = fb_board_path(fb, path, sizeof(path), "/proc/stat");
        if (r < 0)
                return r;
        r = fb_publish_text(fb, path, fb->stat_buf, len);
        if (r < 0)
                return r;
        /* The runnable count as the kernel prints it (the reader is one of
         * them); left out, the daemon would read the host's. */
        return fb_board_printf(fb, "/proc/loadavg", "0.00 0.00 0.00 %u/%u 1\n", procs, procs);
}

static int publish_idle_file(const struct fakeboard *fb, unsigned cpu, unsigned state, const char *name,
                             unsigned long long value)
{
        char path[PATH_MAX], text[32];
        int n = snprintf(text, sizeof(text), "%llu\n", value);
        int r;

        r = fb_board_path(fb, path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cpuidle/state%u/%s",
                          cpu, state, name);
        if (r < 0)
                return r;
        return fb_publish_text(fb, path, text, (size_t)n);
}

/* Only the files that changed: idle CPUs change at every step. */
int fb_publish_cpuidle(struct fakeboard *fb)
{
        if (fb->desc->no_cpuidle)
                return 0;
        for (unsigned cpu = 0; cpu < fb->ncpus; cpu++) {
                struct fb_cpu *c = &fb->cpu[cpu];

                for (unsigned k = 0; k < IDLE_STATES; k++) {
                        unsigned long long us = (unsigned long long)c->state_us[k];
                        int r;

                        /* ENOENT: a test unplugged the CPU for good. */
                        if (us != c->shown_us[k]) {
                                r = publish_idle_file(fb, cpu, k, "time", us);
                                if (r < 0 && r != -ENOENT)
                                        return r;
                                c->shown_us[k] = us;
                        }
                        if (c->usage[k] != c->shown_usage[k]) {
                                r = publish_idle_file(fb, cpu, k, "usage", c->usage[k]);
                                if (r < 0 && r != -ENOENT)
                                        return r;
                                c->shown_usage[k] = c->usage[k];
                        }
                }
        }
        return 0;
}

int fb_publish_psi(struct fakeboard *fb)
{
        if (!fb->desc->psi)
                return 0;
        return fb_board_printf(fb, "/proc/pressure/cpu",
                               "some avg10=%.2f avg60=%.2f avg300=%.2f total=%llu\n"
                               "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
                               fb->psi_avg[0], fb->psi_avg[1], fb->psi_avg[2],
                               (unsigned long long)fb->psi_total_us);
}

int fakeboard_set_temp(struct fakeboard *fb, unsigned zone, int millicelsius)
{
        char path[128];

        if (zone >= fb->desc->nzones)
                return -ENOENT;
        snprintf(path, sizeof(path), "/sys/devices/virtual/thermal/thermal_zone%u/temp", zone);
        fb->temp_mc[zone] = millicelsius;
        return fb_board_printf(fb, path, "%d\n", millicelsius);
}
