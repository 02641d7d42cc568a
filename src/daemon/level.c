/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the daemon is at and how it moves: level and target names, the
 * controller, applying a level, starting a switch, and the hook that tells
 * the bus what changed. Calls nothing above it (the loop, events, the bus). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <time.h>

#include "common/fileio.h"
#include "common/log.h"
#include "daemon/config-load.h"
#include "daemon/holds-store.h"
#include "daemon/level.h"
#include "daemon/message-ids.h"

const char *daemon_level_name(const struct bl_daemon *d, unsigned level)
{
        return level < d->ladder.nlevels ? d->ladder.levels[level].name : "?";
}

void daemon_notify_status(const struct bl_daemon *d)
{
        char state[BL_MAX_PAIRS + BL_NAME_MAX];

        controller_state_name(&d->ctl, state, sizeof(state));
        sd_notifyf(0, "STATUS=level %s, demand %.0f, %lu switches", state, d->demand, d->switches);
}

void daemon_describe_ladder(const struct bl_daemon *d, char *buf, size_t size)
{
        const struct bl_ladder *l = &d->ladder;
        size_t len = 0;

        buf[0] = '\0';
        if (l->mode == BL_MODE_PAIR) {
                len = (size_t)snprintf(buf, size, "little (capacity %u) or big (capacity %u) per pair:",
                                       l->levels[0].capacity, l->levels[1].capacity);
                for (unsigned p = 0; p < l->npairs && len < size; p++)
                        len += (size_t)snprintf(buf + len, size - len, " %u=cpu%u/cpu%u", p,
                                                l->pairs[p].little, l->pairs[p].big);
                if (!cpumask_empty(&l->unpaired) && len < size) {
                        char cpus[256];

                        cpumask_format(&l->unpaired, cpus, sizeof(cpus));
                        snprintf(buf + len, size - len, "; unpaired %s kept offline", cpus);
                }
                return;
        }
        for (unsigned i = 0; i < l->nlevels && len < size; i++) {
                const struct bl_level *lv = &l->levels[i];
                char cpus[256];

                cpumask_format(&lv->cpus, cpus, sizeof(cpus));
                len += (size_t)snprintf(buf + len, size - len, "%s%s (cpus %s, capacity %u)", i ? ", " : "",
                                        lv->name, cpus, lv->capacity);
        }
}

/* "little -> big", or in pair mode "pair 2 little -> big, pair 3 ...". */
static void describe_changes(const struct bl_daemon *d, const struct bl_decision *decisions, char *buf,
                             size_t size)
{
        size_t len = 0;

        buf[0] = '\0';
        for (unsigned i = 0; i < d->ctl.nengines && len < size; i++) {
                const struct bl_decision *dec = &decisions[i];

                if (!dec->change)
                        continue;
                if (d->ladder.mode == BL_MODE_PAIR)
                        len += (size_t)snprintf(buf + len, size - len, "%spair %u %s -> %s", len ? ", " : "",
                                                i, daemon_level_name(d, dec->from),
                                                daemon_level_name(d, dec->to));
                else
                        len += (size_t)snprintf(buf + len, size - len, "%s -> %s",
                                                daemon_level_name(d, dec->from),
                                                daemon_level_name(d, dec->to));
        }
}

uint64_t daemon_wall_usec(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        return (uint64_t)ts.tv_sec * BL_USEC_PER_SEC + (uint64_t)ts.tv_nsec / 1000;
}

void daemon_state_name(const struct bl_daemon *d, char *buf, size_t size)
{
        controller_state_name(&d->ctl, buf, size);
}

/* Where engine 'i' is going: the level its last decision wants now, or the
 * one a move waiting for its delay, residency or the rate limit aims at. */
static unsigned target_level(const struct bl_daemon *d, unsigned i)
{
        const struct bl_engine *e = &d->ctl.engine[i];
        const struct bl_decision *dec = &d->decisions[i];

        if (dec->change)
                return dec->to;
        if (e->pending_dir != 0 && (dec->cause == BL_CAUSE_PENDING || dec->cause == BL_CAUSE_RESIDENCY ||
                                    dec->cause == BL_CAUSE_RATE))
                return e->pending_to;
        return e->level;
}

int daemon_build_ladder(const struct bl_daemon *d, struct bl_ladder *ladder, enum bl_mode *mode, char *why,
                        size_t size)
{
        *mode = ladder_pick_mode(d->cfg.mode, d->cfg.auto_mode, &d->topo, why, size);
        return ladder_build(ladder, &d->topo, *mode, why);
}

/* A target moves between switches, as a decision becomes pending or is
 * given up: the watcher is told when any engine's does. */
void daemon_note_target(struct bl_daemon *d)
{
        bool moved = false;

        for (unsigned i = 0; i < d->ctl.nengines && i < BL_MAX_PAIRS; i++) {
                unsigned t = target_level(d, i);

                moved |= t != d->target_said[i];
                d->target_said[i] = t;
        }
        if (moved)
                daemon_changed(d, BL_CHANGE_STATE);
}

static int on_announce(sd_event_source *s, void *userdata)
{
        struct bl_daemon *d = userdata;
        unsigned what = d->changes;

        d->changes = 0;
        if (what && d->on_change)
                d->on_change(what, d->on_change_data);
        return 0;
}

void daemon_changed(struct bl_daemon *d, unsigned what)
{
        if (!d->on_change)
                return;
        d->changes |= what;
        (void)sd_event_source_set_enabled(d->announce, SD_EVENT_ONESHOT);
}

int daemon_watch_changes(struct bl_daemon *d, bl_change_fn fn, void *userdata)
{
        int r;

        if (!fn) {
                if (d->on_change)
                        (void)on_announce(d->announce, d);
                d->announce = sd_event_source_disable_unref(d->announce);
                d->on_change = NULL;
                return 0;
        }
        if (!d->announce) {
                r = sd_event_add_defer(d->event, &d->announce, on_announce, d);
                if (r < 0)
                        return r;
                (void)sd_event_source_set_enabled(d->announce, SD_EVENT_OFF);
        }
        d->on_change = fn;
        d->on_change_data = userdata;
        return 0;
}

void daemon_target_name(const struct bl_daemon *d, char *buf, size_t size)
{
        size_t n = 0;

        if (d->ladder.mode != BL_MODE_PAIR) {
                snprintf(buf, size, "%s", daemon_level_name(d, target_level(d, 0)));
                return;
        }
        for (unsigned p = 0; p < d->ctl.nengines && n + 1 < size; p++)
                buf[n++] = target_level(d, p) ? 'B' : 'L';
        if (size > 0)
                buf[n] = '\0';
}

const char *daemon_thermal_state(const struct bl_daemon *d)
{
        if (d->ctl.nengines == 0)
                return "normal";
        if (d->ctl.engine[0].critical)
                return "critical";
        return d->ctl.engine[0].capped ? "capped" : "normal";
}

const struct log_fields *daemon_release_fields(struct log_fields *f, uint32_t id, unsigned n, const char *why)
{
        if (id > 0)
                log_field(f, "BIGLITTLE_HOLD_ID", "%u", id);
        log_field(f, "BIGLITTLE_HOLDS", "%u", n);
        log_field(f, "BIGLITTLE_REASON", "%s", why);
        return f;
}

/* The journal fields of a hold placed or restored. */
const struct log_fields *daemon_hold_fields(struct log_fields *f, const struct bl_daemon *d,
                                            const struct bl_hold *h, uint32_t id)
{
        log_field(f, "BIGLITTLE_HOLD_ID", "%u", id);
        log_field(f, "BIGLITTLE_LEVEL", "%s", d->ladder.levels[h->level].name);
        log_field(f, "BIGLITTLE_UID", "%u", h->uid);
        if (h->pid > 0)
                log_field(f, "BIGLITTLE_PID", "%d", h->pid);
        if (h->unit[0])
                log_field(f, "BIGLITTLE_UNIT", "%s", h->unit);
        if (h->reason[0])
                log_field(f, "BIGLITTLE_REASON", "%s", h->reason);
        log_field(f, "BIGLITTLE_DURATION_USEC", "%llu", (unsigned long long)(h->until - h->since));
        log_field(f, "BIGLITTLE_PERSISTENT", "%s", h->persist ? "yes" : "no");
        return f;
}

/* The hold in force goes to the controller; an expired one is dropped
 * first (and said). */
void daemon_sync_holds(struct bl_daemon *d, bl_usec_t now)
{
        const struct bl_hold *h;
        uint32_t ids[BL_MAX_HOLDS];
        unsigned n = holds_expire(&d->holds, now, ids, BL_MAX_HOLDS);
        char who[BL_REASON_MAX / 2];

        for (unsigned i = 0; i < n && i < BL_MAX_HOLDS; i++) {
                struct log_fields f = LOG_FIELDS_INIT;

                log_event(LOG_INFO, BL_MESSAGE_RELEASE, daemon_release_fields(&f, ids[i], 1, "expired"),
                          "hold %u expired", ids[i]);
        }
        if (n > 0)
                daemon_changed(d, BL_CHANGE_HOLDS);
        h = holds_current(&d->holds, d->cfg.hold_precedence);
        if (!h) {
                controller_set_hold(&d->ctl, -1, NULL);
                return;
        }
        if (h->reason[0])
                snprintf(who, sizeof(who), "hold %u by uid %u (%.60s)", h->id, h->uid, h->reason);
        else
                snprintf(who, sizeof(who), "hold %u by uid %u", h->id, h->uid);
        controller_set_hold(&d->ctl, (int)h->level, who);
}

int daemon_start_controller(struct bl_daemon *d, bl_usec_t now)
{
        struct bl_switch_cost cost;
        int r;

        if (d->controller_ready)
                controller_done(&d->ctl);
        d->controller_ready = false;
        free(d->decisions);
        free(d->inflight);
        d->decisions = NULL;
        d->inflight = NULL;
        r = controller_init(&d->ctl, &d->ladder, &d->cfg, sampler_signals(&d->sampler), now);
        if (r < 0)
                return r;
        d->controller_ready = true;
        d->decisions = calloc(d->ctl.nengines, sizeof(*d->decisions));
        d->inflight = calloc(d->ctl.nengines, sizeof(*d->inflight));
        if (!d->decisions || !d->inflight)
                return -ENOMEM;
        daemon_switch_cost(d, &cost);
        controller_set_switch_cost(&d->ctl, &cost);
        model_in_use_apply(&d->energy, &d->ctl, &d->ladder, &d->topo);
        /* A new ladder: the profile's cap names a level of it. */
        profile_effect(d->cfg.profiles, &d->ladder, &d->desktop_in, &d->profile);
        controller_set_profile(&d->ctl, &d->profile);
        return 0;
}

/* The CPUs to run on: the controller's choice (or, with 'dec', what the
 * decisions want), without the CPUs others took offline. */
static void daemon_target_cpus(const struct bl_daemon *d, const struct bl_decision *dec, bl_cpumask *cpus)
{
        controller_cpus(&d->ctl, dec, cpus);
        cpumask_andnot(cpus, &d->left_out);
}

/* What the daemon's own changes left online, to tell them from someone
 * else's when udev reports CPUs going on and off line: the backend's word
 * when it took them on or off line itself. */
void daemon_note_online(struct bl_daemon *d)
{
        (void)backend_online(d->backend_ops, d->backend, &d->topo.present, &d->known_online);
}

int daemon_apply_level(struct bl_daemon *d, struct switch_job *job)
{
        *job = (struct switch_job){ .ops = d->backend_ops, .backend = d->backend };
        daemon_target_cpus(d, NULL, &job->cpus);
        switch_job_run(job);
        daemon_note_online(d);
        return job->result;
}

/* How many CPUs join or leave the CPUs work runs on: what a switch's cost
 * scales with. */
static unsigned cpus_changed(const bl_cpumask *before, const bl_cpumask *after)
{
        bl_cpumask joined = *after, left = *before;

        cpumask_andnot(&joined, before);
        cpumask_andnot(&left, after);
        return cpumask_count(&joined) + cpumask_count(&left);
}

void daemon_switch_cost(const struct bl_daemon *d, struct bl_switch_cost *cost)
{
        switch_estimate_cost(&d->cost, cost);
}

/* A switch that went through: its time goes into the estimate, which the
 * engines decide with from now on. A switch the scheduler held up (a
 * loaded machine) says little of what switching costs: once something was
 * measured, one switch counts at most SWITCH_OUTLIER times what the
 * estimate expects for its size, so one slow switch cannot multiply the
 * policy's waits; a kernel that really got slower moves the estimate there
 * over a few switches. The log line has the time as measured. */
void daemon_measure(struct bl_daemon *d, const struct switch_job *job)
{
        const unsigned ncpus = cpus_changed(&d->applied_cpus, &job->cpus);
        double took = (double)(job->finished - job->started), expected;
        struct bl_switch_cost cost;

        d->applied_cpus = job->cpus;
        if (ncpus == 0)
                return;
        if (d->cost.n > 0) {
                daemon_switch_cost(d, &cost);
                expected = switch_cost_latency_us(&cost, ncpus);
                if (expected > 0 && took > SWITCH_OUTLIER * expected)
                        took = SWITCH_OUTLIER * expected;
        }
        switch_estimate_add(&d->cost, took, ncpus);
        daemon_switch_cost(d, &cost);
        if (d->controller_ready)
                controller_set_switch_cost(&d->ctl, &cost);
        log_debug("switch took %llu us for %u CPUs; estimate %.0f us + %.0f us per CPU",
                  (unsigned long long)(job->finished - job->started), ncpus, cost.latency_us,
                  cost.latency_per_cpu_us);
}

static bool reachable(const struct bl_daemon *d, unsigned level)
{
        return level >= 64 || !(d->unreachable & (UINT64_C(1) << level));
}

/* A decision for a level the backend cannot reach goes to the next level
 * above it that it can (never less capacity than asked for); down, that
 * may be where the engine is already: no switch. */
static unsigned skip_unreachable(struct bl_daemon *d)
{
        unsigned changes = 0;

        for (unsigned i = 0; i < d->ctl.nengines; i++) {
                struct bl_decision *dec = &d->decisions[i];
                unsigned to = dec->to;

                if (!dec->change)
                        continue;
                while (!reachable(d, to) && to + 1 < d->ladder.nlevels && to != dec->from)
                        to++;
                if (!reachable(d, to))
                        to = dec->from;
                if (to != dec->to)
                        log_debug("level %s cannot be reached with backend %s: %s instead",
                                  daemon_level_name(d, dec->to), d->backend_ops->name,
                                  daemon_level_name(d, to));
                dec->to = to;
                dec->change = to != dec->from;
                if (dec->change)
                        changes++;
        }
        return changes;
}

/* The kernel ignored the switch: said once, and its target levels are
 * not tried again. */
void daemon_mark_unreachable(struct bl_daemon *d, const char *detail)
{
        for (unsigned i = 0; i < d->ctl.nengines; i++) {
                const struct bl_decision *dec = &d->inflight[i];

                if (!dec->change || dec->to >= 64 || !reachable(d, dec->to))
                        continue;
                d->unreachable |= UINT64_C(1) << dec->to;
                snprintf(d->unreachable_why[dec->to], sizeof(d->unreachable_why[dec->to]), "%s", detail);
                log_warning("switch %s did nothing: %s; level %s is left out: backend %s cannot reach it "
                            "on this machine", d->inflight_changes, detail, daemon_level_name(d, dec->to),
                            d->backend_ops->name);
        }
        daemon_changed(d, BL_CHANGE_UNREACHABLE);
}

/* Starts applying what the decisions want, on the worker thread (on the
 * loop when no thread can be had); the loop goes on sampling meanwhile
 * and daemon_switch_done() takes the result. One switch at a time: while one
 * runs, the engines go on deciding and the next tick after it tries
 * again. */
void daemon_start_switch(struct bl_daemon *d, bl_usec_t now)
{
        struct switch_job job;
        bl_cpumask cpus;
        int r;

        if (d->stopping)
                return;
        if (daemon_switching(d)) {
                log_debug("a switch is being applied: the next decision waits for it");
                return;
        }
        if (skip_unreachable(d) == 0)
                return;
        memcpy(d->inflight, d->decisions, d->ctl.nengines * sizeof(*d->inflight));
        d->inflight_at = now;
        describe_changes(d, d->inflight, d->inflight_changes, sizeof(d->inflight_changes));
        daemon_target_cpus(d, d->inflight, &cpus);
        settle_begin(&d->settle, switch_clock_now());
        if (d->worker_open) {
                r = switch_worker_start(&d->worker, d->backend_ops, d->backend, &cpus);
                if (r == 0)
                        return;
                log_warning("cannot start a thread for the switch (%s): applying it on the loop",
                            strerror(-r));
        }
        job = (struct switch_job){ .ops = d->backend_ops, .backend = d->backend, .cpus = cpus };
        switch_job_run(&job);
        d->on_switch_done(&job, d);
}

int daemon_switch_wait(struct bl_daemon *d, bl_usec_t timeout)
{
        if (!daemon_switching(d))
                return 0;
        log_debug("waiting for the switch being applied");
        return switch_worker_wait(&d->worker, timeout);
}

/* A heuristic's broken score or an overflowing combination: once each
 * (core/controller.h), so a plugin that is always wrong is not a line a tick. */
void daemon_log_scoring_problems(struct bl_daemon *d)
{
        _cleanup_free_ struct bl_diag *diag = NULL;

        if (!controller_has_warnings(&d->ctl))
                return;
        diag = malloc(sizeof(*diag));
        if (!diag)
                return;
        diag_init(diag);
        controller_warnings(&d->ctl, diag);
        daemon_log_diag(diag, LOG_WARNING);
}

/* Persistent holds are kept on disk; everyone on the bus is told. */
void daemon_holds_changed(struct bl_daemon *d)
{
        int r = holds_store_save(&d->holds, d->runtime_dir);

        if (r < 0)
                log_warning_errno(r, "cannot save the persistent holds in %s", d->runtime_dir);
        daemon_changed(d, BL_CHANGE_HOLDS);
}

/* A hold placed or ended is acted on at once, on the last sample. */
void daemon_decide_now(struct bl_daemon *d)
{
        unsigned changes;
        uint64_t now;

        if (d->paused || sd_event_now(d->event, CLOCK_MONOTONIC, &now) < 0)
                return;
        /* The engines are not where the switch takes them yet. */
        if (daemon_switching(d)) {
                d->decide_after_switch = true;
                return;
        }
        daemon_sync_holds(d, now);
        changes = controller_decide(&d->ctl, &d->sample.s, now, d->decisions);
        daemon_note_target(d);
        daemon_log_scoring_problems(d);
        if (changes > 0)
                daemon_start_switch(d, now);
}
