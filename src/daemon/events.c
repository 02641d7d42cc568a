/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "daemon/actions.h"
#include "daemon/config-load.h"
#include "daemon/events.h"
#include "daemon/level.h"
#include "daemon/message-ids.h"
#include "sources/topology-udev.h"

/* Other people's changes to the CPUs and thermal zones arrive from udev;
 * the daemon's own hotplug writes arrive there too, a little later, so an
 * event only counts as someone else's when the online CPUs differ from what
 * the daemon's last change left. */

void events_reapply(struct bl_daemon *d, const char *why)
{
        char state[BL_MAX_PAIRS + BL_NAME_MAX];
        struct switch_job job;
        uint64_t now;
        int r;

        /* The backend is the switch's until it ends. */
        if (daemon_switch_wait(d, SWITCH_EXIT_WAIT_USEC) < 0) {
                log_error("%s: a switch is still being applied after %llu s; level not re-applied", why,
                          (unsigned long long)(SWITCH_EXIT_WAIT_USEC / BL_USEC_PER_SEC));
                return;
        }
        controller_state_name(&d->ctl, state, sizeof(state));
        r = daemon_apply_level(d, &job);
        d->level_unapplied = r < 0;
        if (r < 0) {
                /* A kernel that keeps refusing is said once, not every second. */
                if (strcmp(job.detail, d->failed_detail) != 0) {
                        log_error("%s: re-applying level %s failed: %s", why, state, job.detail);
                        snprintf(d->failed_detail, sizeof(d->failed_detail), "%s", job.detail);
                } else {
                        log_debug("%s: re-applying level %s failed again: %s", why, state, job.detail);
                }
                if (sd_event_now(d->event, CLOCK_MONOTONIC, &now) >= 0)
                        d->retry_after = now + RETRY_AFTER_FAILURE_USEC;
        } else if (r == BL_BACKEND_NO_EFFECT) {
                log_warning("%s: re-applying level %s did nothing: %s", why, state, job.detail);
        } else {
                d->failed_detail[0] = '\0';
                log_info("%s: level %s re-applied [%s]", why, state, job.detail);
                /* what the next switch's CPUs changed are counted from */
                d->applied_cpus = job.cpus;
        }
}

static bool same_kinds_of_core(const struct bl_topology *a, const struct bl_topology *b)
{
        if (a->nclusters != b->nclusters || !cpumask_equal(&a->present, &b->present))
                return false;
        for (unsigned k = 0; k < a->nclusters; k++)
                if (!cpumask_equal(&a->clusters[k].cpus, &b->clusters[k].cpus) ||
                    a->clusters[k].capacity != b->clusters[k].capacity)
                        return false;
        return true;
}

/* The sampler follows d->topo, whose number of CPUs may have changed. */
static int reopen_sampler(struct bl_daemon *d, bl_usec_t now)
{
        struct bl_diag *diag = malloc(sizeof(*diag));
        int r;

        if (!diag)
                return -ENOMEM;
        diag_init(diag);
        if (d->sampler_opened)
                sampler_close(&d->sampler);
        d->sampler_opened = false;
        r = sampler_open(&d->sampler, &d->topo, &d->cfg, diag);
        daemon_log_diag(diag, r < 0 ? LOG_ERR : LOG_DEBUG);
        free(diag);
        if (r < 0)
                return r;
        d->sampler_opened = true;
        (void)sampler_read(&d->sampler, now, &d->sample);
        return 0;
}

/* Holds keep their level where the new ladder has one of the same name. */
static void move_holds(struct bl_daemon *d, char (*old_names)[BL_NAME_MAX], unsigned old_n)
{
        bool changed = false;

        for (unsigned i = d->holds.n; i-- > 0;) {
                struct bl_hold *h = &d->holds.h[i];
                int level = h->level < old_n ? ladder_find(&d->ladder, old_names[h->level]) : -ENOENT;
                struct log_fields f = LOG_FIELDS_INIT;

                if (level >= 0) {
                        changed |= (unsigned)level != h->level;
                        h->level = (unsigned)level;
                        continue;
                }
                log_event(LOG_NOTICE, BL_MESSAGE_RELEASE, daemon_release_fields(&f, h->id, 1, "level-gone"),
                          "hold %u dropped: its level %s no longer exists", h->id,
                          h->level < old_n ? old_names[h->level] : "?");
                (void)holds_release(&d->holds, h->id);
                changed = true;
        }
        if (changed)
                daemon_holds_changed(d);
}

/* A new ladder and controller for the topology in d->topo (two kinds of
 * core or more), starting at the lowest level. Returns 0 (also when no
 * ladder fits the mode: the daemon then waits, paused), or a negative
 * errno after which it cannot go on. */
static int rebuild(struct bl_daemon *d, bl_usec_t now)
{
        char why[256], levels[1024], (*old_names)[BL_NAME_MAX] = NULL;
        struct bl_ladder *ladder = malloc(sizeof(*ladder));
        unsigned old_n = d->ladder.nlevels;
        enum bl_mode mode;
        int r;

        old_names = calloc(BL_MAX_LEVELS, sizeof(*old_names));
        if (!ladder || !old_names) {
                r = -ENOMEM;
                goto out;
        }
        r = daemon_build_ladder(d, ladder, &mode, why, sizeof(why));
        if (r < 0) {
                log_warning("no %s ladder fits the new topology: %s; not switching until the CPUs change "
                            "again", mode_to_string(mode), strerror(-r));
                d->paused = true;
                r = 0;
                goto out;
        }
        for (unsigned i = 0; i < old_n; i++)
                memcpy(old_names[i], d->ladder.levels[i].name, BL_NAME_MAX);

        d->ladder = *ladder;
        r = daemon_start_controller(d, now);
        if (r < 0)
                goto out;
        /* Time per level counts from here: the old levels are gone. */
        memset(d->time_in, 0, sizeof(d->time_in));
        d->accounted_until = now;
        d->paused = false;
        daemon_describe_ladder(d, levels, sizeof(levels));
        log_notice("new ladder: mode %s (%s); levels %s", mode_to_string(d->ladder.mode), d->ladder.why,
                   levels);
        move_holds(d, old_names, old_n);
        daemon_changed(d, BL_CHANGE_CONFIG);
        events_reapply(d, "new ladder");
        daemon_decide_now(d);
out:
        free(ladder);
        free(old_names);
        return r;
}

/* Someone else changed the CPUs: the kinds of core are read again. The
 * same kinds: the level is applied again. Others: a new ladder, or, with
 * fewer than two kinds left, nothing until another comes back. */
static void rediscover(struct bl_daemon *d)
{
        struct bl_topology *topo = malloc(sizeof(*topo));
        struct bl_diag *diag = malloc(sizeof(*diag));
        char now_kinds[512], old_kinds[512];
        uint64_t now;
        int r;

        if (!topo || !diag || sd_event_now(d->event, CLOCK_MONOTONIC, &now) < 0) {
                r = -ENOMEM;
                goto fatal;
        }
        diag_init(diag);
        r = topology_discover(topo, diag);
        daemon_log_diag(diag, LOG_WARNING);
        if (r < 0) {
                log_warning("cannot discover the CPU topology again: %s; keeping the one known",
                            strerror(-r));
                if (!d->paused)
                        events_reapply(d, "CPUs changed");
                goto out;
        }
        if (same_kinds_of_core(topo, &d->topo)) {
                d->topo.online = topo->online;
                if (d->paused)
                        log_notice("still fewer than two kinds of core: waiting");
                else
                        events_reapply(d, "kinds of core unchanged");
                goto out;
        }
        topology_describe_kinds(topo, now_kinds, sizeof(now_kinds));
        topology_describe_kinds(&d->topo, old_kinds, sizeof(old_kinds));
        log_notice("the kinds of core changed: %s (before: %s), told apart by %s", now_kinds, old_kinds,
                   topo->how);
        d->topo = *topo;
        r = reopen_sampler(d, now);
        if (r < 0)
                goto fatal;
        if (d->topo.nclusters < 2) {
                log_warning("one kind of core left: not switching until another comes back");
                d->paused = true;
                /* Read, not the backend's word: the change was not its. */
                (void)backend_online(d->backend_ops, NULL, &d->topo.present, &d->known_online);
                goto out;
        }
        r = rebuild(d, now);
        if (r < 0)
                goto fatal;
        goto out;
fatal:
        log_error_errno(r, "cannot go on after the CPUs changed");
        d->paused = true;
        (void)sd_event_exit(d->event, r);
out:
        free(topo);
        free(diag);
}

/* A CPU someone else took offline stays out of every level until someone
 * brings it back: the daemon does not fight an administrator (or a thermal
 * or RAS tool) over it. One brought online again is the levels' again. */
static void leave_out(struct bl_daemon *d, const bl_cpumask *online)
{
        bl_cpumask gone = d->known_online, back = *online;
        char list[256];
        int r;

        cpumask_andnot(&gone, online);
        cpumask_andnot(&back, &d->known_online);
        cpumask_and(&back, &d->left_out);
        cpumask_or(&d->left_out, &gone);
        cpumask_andnot(&d->left_out, &back);
        if (!cpumask_empty(&gone)) {
                cpumask_format(&gone, list, sizeof(list));
                log_notice("CPUs %s are left out of every level until someone brings them back", list);
        }
        if (!cpumask_empty(&back)) {
                cpumask_format(&back, list, sizeof(list));
                log_notice("CPUs %s are back: the levels use them again", list);
        }
        cpumask_or(&gone, &back);
        if (cpumask_empty(&gone) || !d->backend || !d->backend_ops->adopt)
                return;
        /* Leaving must not undo their change either. */
        r = d->backend_ops->adopt(d->backend, &gone);
        if (r < 0) {
                log_warning("cannot read the online CPUs: %s; on exit the daemon may put back CPUs "
                            "someone else changed", strerror(-r));
                return;
        }
        daemon_save_state(d);
}

/* 'cpu' is the CPU's number, or -1 for one beyond BL_MAX_CPUS (which still
 * changes the topology). */
static void on_cpu_event(struct bl_daemon *d, const char *action, const char *sysname, int cpu)
{
        char now_list[256], known_list[256];
        bl_cpumask online;
        /* CPUs that appear or vanish are never the daemon's doing. */
        bool physical = strcmp(action, "add") == 0 || strcmp(action, "remove") == 0;

        /* Also the daemon's own: the CPU may be back before the sampler
         * sees it gone, its old counters dead. */
        if (strcmp(action, "offline") == 0 && d->sampler_opened && cpu >= 0)
                sampler_cpu_offline(&d->sampler, (unsigned)cpu);
        /* The daemon's own switch is under way: what it leaves is known
         * when it ends, and only then can someone else's change be told
         * from it. */
        if (daemon_switching(d)) {
                log_debug("%s %s: during a switch; checked when it ends", sysname, action);
                d->cpus_changed_meanwhile = true;
                if (physical)
                        d->cpus_physical_meanwhile = true;
                return;
        }
        /* One CPU going the way the daemon's own change took it needs no
         * read of the others: their own events say when they change. */
        if ((strcmp(action, "online") == 0 || strcmp(action, "offline") == 0) && cpu >= 0 &&
            cpumask_isset(&d->known_online, (unsigned)cpu) == (strcmp(action, "online") == 0)) {
                log_debug("%s %s: the CPUs are as the daemon left them", sysname, action);
                return;
        }
        if (backend_read_online(&d->topo.present, &online) < 0)
                online = d->known_online;
        if (!physical && cpumask_equal(&online, &d->known_online)) {
                log_debug("%s %s: the CPUs are as the daemon left them", sysname, action);
                return;
        }
        cpumask_format(&online, now_list, sizeof(now_list));
        cpumask_format(&d->known_online, known_list, sizeof(known_list));
        log_notice("%s %s: someone else changed the CPUs (online %s, the daemon left %s); "
                   "discovering the topology again", sysname, action, now_list, known_list);
        if (!physical)
                leave_out(d, &online);
        rediscover(d);
}

void events_check_cpus(struct bl_daemon *d)
{
        bool physical = d->cpus_physical_meanwhile;

        d->cpus_physical_meanwhile = false;
        on_cpu_event(d, physical ? "add" : "change", "cpu", -1);
}

static bool same_zones(const struct thermal_reader *a, const struct thermal_reader *b)
{
        if (a->n != b->n)
                return false;
        for (unsigned i = 0; i < a->n; i++) {
                const struct thermal_zone *x = &a->zone[i], *y = &b->zone[i];

                /* writable trips change under the same zone */
                if (strcmp(x->sysname, y->sysname) != 0 || strcmp(x->type, y->type) != 0 ||
                    x->ntrips != y->ntrips || memcmp(x->trip, y->trip, x->ntrips * sizeof(x->trip[0])) != 0)
                        return false;
        }
        return true;
}

/* Zones come and go with drivers; zones = auto picks again from those
 * there now. */
static void reopen_thermal(struct bl_daemon *d, const char *action, const char *sysname)
{
        struct bl_diag *diag = malloc(sizeof(*diag));
        struct thermal_reader thermal;
        struct bl_thermal_limits limits;
        char list[512] = "none";
        size_t len = 0;
        int r;

        if (!diag || !d->sampler_opened)
                goto out;
        diag_init(diag);
        r = thermal_open(&thermal, &d->cfg, diag);
        if (r < 0) {
                daemon_log_diag(diag, LOG_WARNING);
                log_warning("%s %s: cannot open the thermal zones again: %s; keeping those watched", sysname,
                            action, strerror(-r));
                goto out;
        }
        if (same_zones(&thermal, &d->sampler.thermal)) {
                thermal_close(&thermal);
                log_debug("%s %s: the same thermal zones", sysname, action);
                goto out;
        }
        thermal_close(&d->sampler.thermal);
        d->sampler.thermal = thermal;
        for (unsigned i = 0; i < thermal.n && len < sizeof(list); i++)
                len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s (%s)", i ? ", " : "",
                                        thermal.zone[i].sysname, thermal.zone[i].type);
        log_notice("%s %s: thermal zones changed; watching %s", sysname, action, list);
        daemon_resolve_limits(&d->cfg, &d->sampler.thermal, &limits);
        if (!thermal_limits_equal(&limits, &d->limits)) {
                d->limits = limits;
                if (d->controller_ready)
                        controller_set_params(&d->ctl, &d->cfg);
                daemon_log_limits(&limits, LOG_NOTICE);
                daemon_changed(d, BL_CHANGE_LIMITS);
        }
        daemon_changed(d, BL_CHANGE_STATE);
out:
        free(diag);
}

void events_on_uevent(const char *subsystem, const char *action, const char *sysname, void *userdata)
{
        struct bl_daemon *d = userdata;
        unsigned cpu;
        int r;

        /* Cooling devices share the thermal subsystem. */
        if (strcmp(subsystem, "thermal") == 0 && strncmp(sysname, "thermal_zone", 12) == 0) {
                reopen_thermal(d, action, sysname);
        } else if (strcmp(subsystem, "cpu") == 0) {
                r = topology_cpu_number(sysname, &cpu);
                if (r != -EINVAL)
                        on_cpu_event(d, action, sysname, r == 0 ? (int)cpu : -1);
        }
}

/* CLOCK_MONOTONIC stops during a suspend, CLOCK_BOOTTIME does not. After
 * one, /proc/stat's counters ran on across the sleep (a giant spike if
 * taken as one interval) and the kernel may have changed the CPUs: the
 * tick is dropped, the sampler starts afresh, the level is applied again. */
bool events_resumed(struct bl_daemon *d, bl_usec_t now)
{
        uint64_t boot;
        bl_usec_t slept;

        if (sd_event_now(d->event, CLOCK_BOOTTIME, &boot) < 0)
                return false;
        slept = clock_watch_update(&d->clock, now, boot, BL_CLOCK_JUMP_MIN_USEC);
        if (slept == 0)
                return false;
        log_notice("resumed after %llu s asleep: dropping this sample, checking the level",
                   (unsigned long long)((slept + BL_USEC_PER_SEC / 2) / BL_USEC_PER_SEC));
        sampler_restart(&d->sampler);
        /* The wall clock ran on through the sleep: no step of its own. */
        wall_watch_init(&d->wall);
        (void)sampler_read(&d->sampler, now, &d->sample);
        if (!d->paused)
                events_reapply(d, "resumed");
        return true;
}

/* The history's wall-clock times are labels; a step of the clock is said,
 * so that a person reading them knows where they stop being comparable. */
void events_wall_clock(struct bl_daemon *d, bl_usec_t now)
{
        uint64_t wall;
        int64_t step;

        if (sd_event_now(d->event, CLOCK_REALTIME, &wall) < 0)
                return;
        step = wall_watch_update(&d->wall, now, wall, BL_CLOCK_JUMP_MIN_USEC);
        if (step == 0)
                return;
        log_notice("the wall clock was set %s by %lld s: history times before this are in the old time; "
                   "switching is timed by the monotonic clock and goes on",
                   step < 0 ? "back" : "forward",
                   (long long)((step < 0 ? -step : step) + BL_USEC_PER_SEC / 2) / (long long)BL_USEC_PER_SEC);
}
