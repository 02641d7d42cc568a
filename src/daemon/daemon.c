/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bigLittled: one sd-event loop wiring the sources, the pure core and a
 * backend. A timer samples the machine every sample_interval_ms (backing off
 * towards idle_sample_interval_ms while it is idle, core/controller.h), the engine
 * decides, the backend applies; SIGHUP reloads the configuration (a bad one
 * is refused and the running one stays), SIGTERM/SIGINT restore what the
 * backend changed and exit.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>
#include <time.h>

#include "backends/backend.h"
#include "common/conf-files.h"
#include "common/fileio.h"
#include "common/log.h"
#include "common/plugin-loader.h"
#include "core/controller.h"
#include "core/tick-jitter.h"
#include "daemon/bus.h"
#include "daemon/daemon.h"
#include "daemon/desktop.h"
#include "daemon/events.h"
#include "daemon/holds-store.h"
#include "daemon/message-ids.h"
#include "daemon/saved-state.h"
#include "daemon/state.h"
#include "sources/conflicts.h"
#include "sources/sampler.h"
#include "sources/topology-udev.h"
#include "sources/udev-monitor.h"

/* How long start-up waits for the bus to say who else manages the CPUs. */
#define CONFLICTS_BUS_TIMEOUT_USEC (250 * BL_USEC_PER_MSEC)


void daemon_log_diag(const struct bl_diag *diag, int level)
{
        for (unsigned i = 0; i < diag->n; i++)
                log_msg(diag->warning[i] && level < LOG_WARNING ? LOG_WARNING : level, "%s", diag->msg[i]);
        if (diag->dropped)
                log_msg(level, "... and %u more problems", diag->dropped);
}

void daemon_resolve_limits(struct bl_config *cfg, const struct thermal_reader *thermal,
                           struct bl_thermal_limits *limits)
{
        _cleanup_free_ struct bl_diag *diag = malloc(sizeof(*diag));
        struct bl_trip_zone zones[BL_THERMAL_MAX];
        unsigned n = thermal_trip_zones(thermal, zones);

        /* without memory for the messages the limits are still right */
        if (diag)
                diag_init(diag);
        thermal_limits_resolve(cfg, zones, n, limits, diag);
        if (diag)
                daemon_log_diag(diag, LOG_WARNING);
        thermal_limits_apply(cfg, limits);
}

void daemon_log_limits(const struct bl_thermal_limits *limits, int level)
{
        char text[3 * BL_LIMIT_ORIGIN_MAX + 160];

        thermal_limits_format(limits, text, sizeof(text));
        log_msg(level, "thermal: %s", text);
}

static const char *config_path(const struct options *o)
{
        return o->config ? o->config : BL_DEFAULT_CONFIG;
}

/* Loads the external heuristics from the plugin_dir the configuration
 * names (before it is parsed: it may configure them). Refusals are logged;
 * they do not stop the daemon. 'dir' receives the directory used. */
static int load_plugins(const struct options *o, struct bl_plugin_set *set, char *dir, size_t size)
{
        _cleanup_free_ struct bl_diag *diag = malloc(sizeof(*diag));
        int r;

        if (!diag)
                return -ENOMEM;
        diag_init(diag);
        /* A file that cannot be read is reported by the parse that follows. */
        r = conf_files_plugin_dir(config_path(o), !o->config, dir, size, diag);
        diag_init(diag);
        if (r < 0 || !dir[0])
                snprintf(dir, size, "%s", BL_PLUGIN_DIR);
        r = plugins_load(set, dir, 0, diag);
        daemon_log_diag(diag, LOG_WARNING);
        if (r < 0)
                return r;
        for (unsigned i = 0; i < set->n; i++)
                for (unsigned k = 0; k < set->plugins[i].plugin->nheuristics; k++)
                        log_info("plugin %s/%s: heuristic %s", dir, set->plugins[i].file,
                                 set->plugins[i].plugin->heuristics[k]->name);
        return 0;
}

/* Loads the configuration the command line names. Returns 0 when valid,
 * the number of problems, or a negative errno; problems are logged at
 * 'level'. */
static int load_config(const struct options *o, const struct bl_plugin_set *plugins, struct bl_config *cfg,
                       struct bl_conf_files *files, int level)
{
        const struct bl_heuristic_ops *const *table = plugins_table(plugins);
        struct bl_diag *diag;
        int r;

        diag = malloc(sizeof(*diag));
        if (!diag)
                return -ENOMEM;
        diag_init(diag);
        config_init(cfg, table);
        r = conf_files_load(cfg, table, config_path(o), !o->config, files, diag);
        daemon_log_diag(diag, level);
        free(diag);
        return r;
}

static int parse_backend(const char *name, enum bl_backend_kind *kind)
{
        for (enum bl_backend_kind k = BL_BACKEND_AUTO; k <= BL_BACKEND_DRYRUN; k++)
                if (strcmp(name, backend_kind_to_string(k)) == 0) {
                        *kind = k;
                        return 0;
                }
        return -EINVAL;
}

const char *daemon_level_name(const struct bl_daemon *d, unsigned level)
{
        return d->ladder.levels[level].name;
}

static void notify_status(const struct bl_daemon *d)
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
                if (!cpuset_empty(&l->unpaired) && len < size) {
                        char cpus[256];

                        cpuset_format(&l->unpaired, cpus, sizeof(cpus));
                        snprintf(buf + len, size - len, "; unpaired %s kept offline", cpus);
                }
                return;
        }
        for (unsigned i = 0; i < l->nlevels && len < size; i++) {
                const struct bl_level *lv = &l->levels[i];
                char cpus[256];

                cpuset_format(&lv->cpus, cpus, sizeof(cpus));
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

static uint64_t wall_usec(void)
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
static void note_target(struct bl_daemon *d)
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

/* Every change of the thermal state is said, with the reading behind it:
 * one forced by a sensor gone wrong showed only in switch reasons. */
static void thermal_changed(struct bl_daemon *d, const char *before)
{
        const char *now = daemon_thermal_state(d);
        const struct bl_sample *s = &d->sample.s;
        const struct bl_engine_params *p;
        struct log_fields f = LOG_FIELDS_INIT;

        if (strcmp(before, now) == 0)
                return;
        log_field(&f, "BIGLITTLE_FROM", "%s", before);
        log_field(&f, "BIGLITTLE_TO", "%s", now);
        if (d->ctl.nengines == 0 || !s->has_temp) {
                log_field(&f, "BIGLITTLE_REASON", "no zone reads a temperature");
                log_event(LOG_NOTICE, BL_MESSAGE_THERMAL, &f, "thermal state %s -> %s: no zone reads a temperature",
                          before, now);
        } else {
                p = &d->ctl.engine[0].p;
                log_field(&f, "BIGLITTLE_TEMPERATURE_MC", "%d", s->temp_mc);
                log_field(&f, "BIGLITTLE_CAP_MC", "%d", p->cap_mc);
                log_field(&f, "BIGLITTLE_RELEASE_MC", "%d", p->release_mc);
                log_field(&f, "BIGLITTLE_CRITICAL_MC", "%d", p->critical_mc);
                log_event(strcmp(now, "normal") == 0 ? LOG_NOTICE : LOG_WARNING, BL_MESSAGE_THERMAL, &f,
                          "thermal state %s -> %s at %.1f °C (cap %.1f, release %.1f, critical %.1f °C)", before,
                          now, s->temp_mc / 1000.0, p->cap_mc / 1000.0, p->release_mc / 1000.0,
                          p->critical_mc / 1000.0);
        }
        daemon_changed(d, BL_CHANGE_STATE);
}

/* Time at each level, per engine (pair mode adds up pair-time). */
static void account(struct bl_daemon *d, bl_usec_t now)
{
        bl_usec_t dt = now > d->accounted_until ? now - d->accounted_until : 0;

        for (unsigned i = 0; i < d->ctl.nengines; i++)
                d->time_in[d->ctl.engine[i].level] += dt;
        d->accounted_until = now;
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
static const struct log_fields *hold_fields(struct log_fields *f, const struct bl_daemon *d,
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
static void sync_holds(struct bl_daemon *d, bl_usec_t now)
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

void daemon_target_cpus(const struct bl_daemon *d, const struct bl_decision *dec, bl_cpuset *cpus)
{
        controller_cpus(&d->ctl, dec, cpus);
        cpuset_andnot(cpus, &d->left_out);
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
static unsigned cpus_changed(const bl_cpuset *before, const bl_cpuset *after)
{
        bl_cpuset joined = *after, left = *before;

        cpuset_andnot(&joined, before);
        cpuset_andnot(&left, after);
        return cpuset_count(&joined) + cpuset_count(&left);
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
static void measure(struct bl_daemon *d, const struct switch_job *job)
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
static void mark_unreachable(struct bl_daemon *d, const char *detail)
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

/* After the switch in flight ended, however it ended. */
static void after_switch(struct bl_daemon *d)
{
        if (d->cpus_changed_meanwhile) {
                d->cpus_changed_meanwhile = false;
                events_check_cpus(d);
        }
        if (d->decide_after_switch && !d->stopping) {
                d->decide_after_switch = false;
                daemon_decide_now(d);
        }
        /* Calls waiting for the switch's result are answered once no
         * other switch follows it. */
        if (!daemon_switching(d))
                daemon_changed(d, BL_CHANGE_SWITCH_DONE);
}

/* The journal fields of a switch that went through: where from and to,
 * why, on what demand, and the hold that asked for it. */
static void switch_fields(struct log_fields *f, const struct bl_daemon *d, const struct bl_decision *dec,
                          bl_usec_t took)
{
        const struct bl_hold *h = holds_current(&d->holds, d->cfg.hold_precedence);

        log_field(f, "BIGLITTLE_FROM", "%s", daemon_level_name(d, dec->from));
        log_field(f, "BIGLITTLE_TO", "%s", daemon_level_name(d, dec->to));
        log_field(f, "BIGLITTLE_CAUSE", "%s", cause_to_string(dec->cause));
        log_field(f, "BIGLITTLE_REASON", "%s", dec->reason);
        log_field(f, "BIGLITTLE_DEMAND", "%.0f", d->demand);
        if (dec->cause == BL_CAUSE_HOLD && h)
                log_field(f, "BIGLITTLE_HOLD_ID", "%u", h->id);
        log_field(f, "BIGLITTLE_DURATION_USEC", "%llu", (unsigned long long)took);
}

/* The loop's half of a switch: what the thread's apply() said. */
static void switch_done(struct switch_job *job, void *userdata)
{
        struct bl_daemon *d = userdata;
        char state[BL_MAX_PAIRS + BL_NAME_MAX], from[BL_STATE_NAME_MAX], to[BL_STATE_NAME_MAX];
        const char *thermal_before = daemon_thermal_state(d);
        /* The engines count the level from the tick that decided it, plus
         * the time the kernel took. */
        const bl_usec_t at = d->inflight_at + (job->finished - job->started);
        const double took_ms = (double)(job->finished - job->started) / BL_USEC_PER_MSEC;

        settle_applied(&d->settle, job->finished);
        if (job->result < 0) {
                controller_state_name(&d->ctl, state, sizeof(state));
                /* A kernel that keeps refusing (a CPU gone for good) is said
                 * once, not every second. */
                if (strcmp(job->detail, d->failed_detail) == 0) {
                        d->failed_repeats++;
                        log_debug("switch %s failed again: %s; staying at %s", d->inflight_changes,
                                  job->detail, state);
                } else {
                        struct log_fields f = LOG_FIELDS_INIT;

                        log_field(&f, "BIGLITTLE_SWITCH", "%s", d->inflight_changes);
                        log_field(&f, "BIGLITTLE_REASON", "%s", job->detail);
                        log_event(LOG_ERR, BL_MESSAGE_SWITCH_FAILED, &f, "switch %s failed: %s; staying at %s",
                                  d->inflight_changes, job->detail, state);
                        snprintf(d->failed_detail, sizeof(d->failed_detail), "%s", job->detail);
                        d->failed_repeats = 0;
                }
                d->retry_after = at + RETRY_AFTER_FAILURE_USEC;
                goto out;
        }
        if (job->result == BL_BACKEND_NO_EFFECT) {
                mark_unreachable(d, job->detail);
                goto out;
        }
        if (d->failed_repeats > 0)
                log_notice("switch %s went through after failing %u more times the same way",
                           d->inflight_changes, d->failed_repeats);
        d->failed_detail[0] = '\0';
        d->failed_repeats = 0;
        d->level_unapplied = false;
        measure(d, job);
        daemon_note_online(d);
        account(d, at);
        controller_state_name(&d->ctl, from, sizeof(from));
        controller_switched(&d->ctl, d->inflight, at);
        controller_state_name(&d->ctl, to, sizeof(to));
        for (unsigned i = 0; i < d->ctl.nengines; i++) {
                const struct bl_decision *dec = &d->inflight[i];
                struct log_fields f = LOG_FIELDS_INIT;

                if (!dec->change)
                        continue;
                d->switches++;
                snprintf(d->last_reason, sizeof(d->last_reason), "%s", dec->reason);
                switch_fields(&f, d, dec, job->finished - job->started);
                if (d->ladder.mode == BL_MODE_PAIR) {
                        log_field(&f, "BIGLITTLE_PAIR", "%u", i);
                        log_event(LOG_INFO, BL_MESSAGE_SWITCH, &f, "switch pair %u %s -> %s: %s [%s] in %.1f ms", i,
                                  daemon_level_name(d, dec->from), daemon_level_name(d, dec->to), dec->reason,
                                  job->detail, took_ms);
                } else {
                        log_event(LOG_INFO, BL_MESSAGE_SWITCH, &f, "switch %s -> %s: %s [%s] in %.1f ms",
                                  daemon_level_name(d, dec->from), daemon_level_name(d, dec->to), dec->reason,
                                  job->detail, took_ms);
                }
        }
        history_add(&d->history, at, wall_usec(), from, to, d->last_reason);
        daemon_changed(d, BL_CHANGE_SWITCHED);
        thermal_changed(d, thermal_before);
        notify_status(d);
out:
        after_switch(d);
}

/* Starts applying what the decisions want, on the worker thread (on the
 * loop when no thread can be had); the loop goes on sampling meanwhile
 * and switch_done() takes the result. One switch at a time: while one
 * runs, the engines go on deciding and the next tick after it tries
 * again. */
static void start_switch(struct bl_daemon *d, bl_usec_t now)
{
        struct switch_job job;
        bl_cpuset cpus;
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
        switch_done(&job, d);
}

int daemon_switch_wait(struct bl_daemon *d, bl_usec_t timeout)
{
        if (!daemon_switching(d))
                return 0;
        log_debug("waiting for the switch being applied");
        return switch_worker_wait(&d->worker, timeout);
}

/* A source that reads badly, or well again, is worth a line; one that
 * stays bad is not worth one a tick. */
static void log_sample_problems(struct bl_daemon *d)
{
        static const char *const what[SAMPLER_PROBLEMS] = {
                [SAMPLER_PROBLEM_STAT] = "/proc/stat",
                [SAMPLER_PROBLEM_PSI] = "/proc/pressure/cpu",
                [SAMPLER_PROBLEM_FREQ] = "cpufreq scaling_cur_freq",
                [SAMPLER_PROBLEM_THERMAL] = "the thermal zones",
                [SAMPLER_PROBLEM_COUNTERS] = "the hardware counters",
        };
        bl_cpuset missing = d->known_online;
        char list[256];

        for (unsigned k = SAMPLER_PROBLEM_STAT + 1; k < SAMPLER_PROBLEMS; k++) {
                const char *now = d->sampler.problem[k];

                if (strcmp(now, d->problem_said[k]) == 0)
                        continue;
                if (now[0])
                        log_warning("%s", now);
                else
                        log_info("%s read%s well again", what[k],
                                 k == SAMPLER_PROBLEM_THERMAL || k == SAMPLER_PROBLEM_COUNTERS ? "" : "s");
                snprintf(d->problem_said[k], sizeof(d->problem_said[k]), "%s", now);
        }
        /* A CPU just brought online may lack its line for a moment; while
         * a switch runs, the CPUs it takes down lose theirs before the
         * daemon hears it ended. */
        if (daemon_switching(d))
                return;
        cpuset_andnot(&missing, &d->sampler.cur.cpus);
        if (cpuset_empty(&missing)) {
                if (d->missing_lines >= 2)
                        log_info("/proc/stat has a line for every CPU the daemon left online again");
                d->missing_lines = 0;
        } else if (++d->missing_lines == 2) {
                cpuset_format(&missing, list, sizeof(list));
                log_warning("/proc/stat has no line for CPUs %s, which the daemon left online: their load "
                            "goes unseen", list);
        }
}

/* What a tick read, for log_level = debug: whoever tunes on a new kernel
 * needs to see which CPUs read busy, and what the pressure was. */
static void log_sample(const struct bl_daemon *d, const char *what)
{
        const struct bl_sample *s = &d->sample.s;
        char line[1024];
        size_t len = 0;

        for (unsigned i = 0; i < s->ncpus && len < sizeof(line); i++) {
                const struct bl_cpu_sample *c = &s->cpu[i];
                int n;

                if (!c->online)
                        continue;
                n = snprintf(line + len, sizeof(line) - len, " %u:%.2f@%u/%u", c->cpu, (double)c->busy,
                             (unsigned)c->capacity, (unsigned)c->max_capacity);
                if (n < 0)
                        break;
                len += (size_t)n;
        }
        log_debug("sample %s at %.3f s: %.1f ms, pressure %s%.3f, busy@capacity%s", what,
                  (double)s->now / BL_USEC_PER_SEC, (double)s->interval / BL_USEC_PER_MSEC, s->has_pressure ? "" : "none ",
                  s->has_pressure ? s->pressure : 0.0, line);
}

/* A heuristic's broken score or an overflowing combination: once each
 * (core/controller.h), so a plugin that is always wrong is not a line a tick. */
static void log_scoring_problems(struct bl_daemon *d)
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

static void decide(struct bl_daemon *d, bl_usec_t now)
{
        const char *thermal_before = daemon_thermal_state(d);
        unsigned changes;
        bool settling;
        int r;

        d->ticks++;
        /* Fewer than two kinds of core: nothing to decide until another comes back. */
        if (d->paused)
                return;
        r = sampler_read(&d->sampler, now, &d->sample);
        if (r < 0) {
                /* One line when it starts failing, one when it recovers. */
                if (d->read_failures++ == 0)
                        log_warning("reading load failed: %s; skipping ticks until it recovers",
                                    d->sampler.problem[SAMPLER_PROBLEM_STAT][0] ?
                                    d->sampler.problem[SAMPLER_PROBLEM_STAT] : strerror(-r));
                return;
        }
        if (d->read_failures) {
                log_info("reading load recovered after %u skipped ticks", d->read_failures);
                d->read_failures = 0;
        }
        log_sample_problems(d);
        if (log_enabled(LOG_DEBUG))
                log_sample(d, "read");
        /* What the last switch left behind is not load (core/settle.h). */
        settling = settle_filter(&d->settle, &d->sample, now);
        if (settling && log_enabled(LOG_DEBUG))
                log_sample(d, "settling");
        if (d->level_unapplied && now >= d->retry_after && !daemon_switching(d))
                events_reapply(d, "the level was not applied");

        sync_holds(d, now);
        /* Reasons of ticks that switch nothing only go to the debug log. */
        controller_explain(&d->ctl, log_enabled(LOG_DEBUG));
        changes = controller_decide(&d->ctl, &d->sample.s, now, d->decisions);
        note_target(d);
        log_scoring_problems(d);
        /* Also when it makes a switch: the switch's end finds it made. */
        thermal_changed(d, thermal_before);
        if (changes == 0) {
                d->demand = controller_demand(&d->ctl);
                log_debug("tick: demand %.0f, %s: %s", d->demand, cause_to_string(d->decisions[0].cause),
                          d->decisions[0].reason);
                return;
        }
        d->demand = controller_demand(&d->ctl);
        if (now < d->retry_after)
                return;
        /* The move stays due and goes once the samples are the kernel's
         * again (core/settle.h). */
        if (settle_holds(settling, d->decisions, d->ctl.nengines)) {
                log_debug("a move down waits for the kernel to settle after the last switch");
                return;
        }
        start_switch(d, now);
}

/* Persistent holds are kept on disk; everyone on the bus is told. */
void daemon_holds_changed(struct bl_daemon *d)
{
        int r = holds_store_save(&d->holds, d->runtime_dir);

        if (r < 0)
                log_warning("cannot save the persistent holds in %s: %s", d->runtime_dir, strerror(-r));
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
        sync_holds(d, now);
        changes = controller_decide(&d->ctl, &d->sample.s, now, d->decisions);
        note_target(d);
        log_scoring_problems(d);
        if (changes > 0)
                start_switch(d, now);
}

int daemon_hold(struct bl_daemon *d, const struct bl_hold *h, uint32_t *id)
{
        struct log_fields f = LOG_FIELDS_INIT;
        int r;

        if (h->level >= d->ladder.nlevels)
                return -EINVAL;
        r = holds_add(&d->holds, h, id);
        if (r < 0)
                return r;
        log_event(LOG_INFO, BL_MESSAGE_HOLD, hold_fields(&f, d, h, *id), "hold %u: %s for %llu s by uid %u%s%s%s%s",
                  *id, d->ladder.levels[h->level].name,
                  (unsigned long long)((h->until - h->since) / BL_USEC_PER_SEC), h->uid, h->unit[0] ? " (" : "",
                  h->unit, h->unit[0] ? ")" : "", h->persist ? ", persistent" : "");
        daemon_holds_changed(d);
        daemon_decide_now(d);
        return 0;
}

int daemon_release(struct bl_daemon *d, uint32_t id)
{
        struct log_fields f = LOG_FIELDS_INIT;
        int r = holds_release(&d->holds, id);

        if (r < 0)
                return r;
        log_event(LOG_INFO, BL_MESSAGE_RELEASE, daemon_release_fields(&f, id, 1, "released"), "hold %u released",
                  id);
        daemon_holds_changed(d);
        daemon_decide_now(d);
        return 0;
}

unsigned daemon_release_uid(struct bl_daemon *d, uint32_t uid, bool all)
{
        struct log_fields f = LOG_FIELDS_INIT;
        unsigned n = holds_release_uid(&d->holds, uid, all);

        if (n == 0)
                return 0;
        daemon_release_fields(&f, 0, n, "released");
        if (all) {
                log_event(LOG_INFO, BL_MESSAGE_RELEASE, &f, "all %u holds released", n);
        } else {
                log_field(&f, "BIGLITTLE_UID", "%u", uid);
                log_event(LOG_INFO, BL_MESSAGE_RELEASE, &f, "%u holds of uid %u released", n, uid);
        }
        daemon_holds_changed(d);
        daemon_decide_now(d);
        return n;
}

void daemon_owner_gone(struct bl_daemon *d, const char *owner)
{
        struct log_fields f = LOG_FIELDS_INIT;
        unsigned n = holds_release_owner(&d->holds, owner);

        if (n == 0)
                return;
        daemon_release_fields(&f, 0, n, "owner-left");
        log_field(&f, "BIGLITTLE_OWNER", "%s", owner);
        log_event(LOG_INFO, BL_MESSAGE_RELEASE, &f, "%u holds of %s ended: it left the bus", n, owner);
        daemon_holds_changed(d);
        daemon_decide_now(d);
}

/* The timer's accuracy. At the full rate a quarter of the interval, at most
 * 1 ms: 0 would mean sd-event's default of 250 ms, which smears a 20 ms tick,
 * and 1 ms still lets the kernel coalesce wakeups a little. Backed off, the
 * machine is idle and nothing is in a hurry: a quarter of the interval lets
 * the kernel batch the wakeup with others (sd-event aligns such timers). */
static bl_usec_t tick_accuracy(const struct bl_config *cfg, bl_usec_t interval)
{
        bl_usec_t quarter = interval / 4;

        if (interval > (bl_usec_t)cfg->sample_interval_ms * BL_USEC_PER_MSEC)
                return quarter;
        return quarter < BL_USEC_PER_MSEC ? quarter : BL_USEC_PER_MSEC;
}

static int on_tick(sd_event_source *s, uint64_t usec, void *userdata)
{
        struct bl_daemon *d = userdata;
        uint64_t now, next;
        bool slack;
        int r;

        r = sd_event_now(d->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;
        /* Decide on the tick's scheduled time, not the wakeup's jitter, so
         * that delays count whole sample intervals as they do in blsim. Backed
         * off, the timer may fire a quarter interval late on purpose: then the
         * sample ends when it is read, or the lag would read as busy time. */
        slack = tick_accuracy(&d->cfg, d->interval) > BL_USEC_PER_MSEC;
        if (slack)
                usec = now;
        else
                d->lateness[now > usec ? (now - usec) / BL_LATENESS_BIN_USEC < BL_LATENESS_BINS ?
                                          (now - usec) / BL_LATENESS_BIN_USEC : BL_LATENESS_BINS - 1 : 0]++;
        if (!events_resumed(d, now)) {
                events_wall_clock(d, now);
                decide(d, usec);
        }
        /* The controller says when the next decision is due (later while the
         * machine is idle). If we fell behind (a stopped process, a slow
         * write), skip the missed ticks rather than firing them back to back. */
        next = controller_next_interval(&d->ctl, &d->sample.s);
        if (next != d->interval) {
                log_debug("sampling every %.1f ms", (double)next / BL_USEC_PER_MSEC);
                r = sd_event_source_set_time_accuracy(s, tick_accuracy(&d->cfg, next));
                if (r < 0)
                        return r;
        }
        d->interval = next;
        d->next_tick = usec + d->interval;
        /* At random phases against the kernel's jiffy (core/tick-jitter.h);
         * a testbed's counters move in steps the jitter would alias with. */
        if (!slack && tick_accuracy(&d->cfg, next) <= BL_USEC_PER_MSEC && d->sampler_opened &&
            sampler_own_kernel(&d->sampler))
                d->next_tick += tick_jitter_next(&d->jitter_state, (uint64_t)getpid(), next);
        if (d->next_tick <= now)
                d->next_tick = now + d->interval;
        return sd_event_source_set_time(s, d->next_tick);
}

/* A heuristic the sources cannot feed is said at start (and after a reload). */
static void log_disabled_heuristics(const struct bl_daemon *d)
{
        const struct bl_scorer *s = &d->ctl.scorer[0];

        for (unsigned i = 0; i < s->n; i++) {
                if (!s->disabled[i])
                        continue;
                log_warning("heuristic %s disabled: it needs %s, which this machine does not provide",
                            s->ops[i]->name, s->ops[i]->needs & BL_NEEDS_COUNTERS ? "hardware counters" :
                            "CPU pressure (/proc/pressure/cpu)");
        }
        if (s->nenabled == 0)
                log_warning("no configured heuristic can run here; deciding on the plain peak demand (util)");
}

/* The journal field of a refused reload: what refused it
 * ("configuration", "energy-model", ...); the lines before say how. */
static const struct log_fields *refusal_fields(struct log_fields *f, const char *what)
{
        log_field(f, "BIGLITTLE_REASON", "%s", what);
        return f;
}

int daemon_reload(struct bl_daemon *d)
{
        _cleanup_free_ struct model_in_use *energy = NULL;
        char model[512];
        struct bl_config cfg;
        struct bl_conf_files files;
        struct thermal_reader thermal;
        struct bl_thermal_limits limits;
        struct bl_diag *diag = NULL;
        struct log_fields f = LOG_FIELDS_INIT;
        uint64_t now;
        int r;

        sd_notify(0, "RELOADING=1\nSTATUS=Reloading configuration");
        r = load_config(d->opt, &d->plugins, &cfg, &files, LOG_WARNING);
        if (r != 0) {
                log_event(LOG_WARNING, BL_MESSAGE_RELOAD_REFUSED, refusal_fields(&f, "configuration"),
                          "reload: refused, keeping the running configuration");
                r = -EINVAL;
                goto done;
        }
        /* Mode and backend shape the ladder and what was saved for restore. */
        if (cfg.mode != d->cfg.mode || (!d->opt->backend && cfg.backend != d->cfg.backend))
                log_notice("reload: mode and backend changes take effect after a restart");
        cfg.mode = d->cfg.mode;
        cfg.backend = d->cfg.backend;
        if (strcmp(cfg.plugin_dir[0] ? cfg.plugin_dir : BL_PLUGIN_DIR, d->plugin_dir) != 0)
                log_notice("reload: plugin_dir changes take effect after a restart (plugins stay from %s)",
                           d->plugin_dir);

        diag = malloc(sizeof(*diag));
        if (!diag) {
                log_event(LOG_WARNING, BL_MESSAGE_RELOAD_REFUSED, refusal_fields(&f, "memory"), "reload: refused: %s",
                          strerror(ENOMEM));
                r = -ENOMEM;
                goto done;
        }
        diag_init(diag);
        energy = malloc(sizeof(*energy));
        r = energy ? model_in_use_load(energy, cfg.energy_model, &d->topo, diag) : -ENOMEM;
        daemon_log_diag(diag, LOG_WARNING);
        if (r < 0) {
                log_event(LOG_WARNING, BL_MESSAGE_RELOAD_REFUSED, refusal_fields(&f, "energy-model"),
                          "reload: refused, energy_model = %s cannot be used; keeping the running configuration",
                          cfg.energy_model);
                r = -EINVAL;
                goto done;
        }
        diag_init(diag);
        r = thermal_open(&thermal, &cfg, diag);
        if (r < 0) {
                daemon_log_diag(diag, LOG_WARNING);
                log_event(LOG_WARNING, BL_MESSAGE_RELOAD_REFUSED, refusal_fields(&f, "thermal"),
                          "reload: refused, keeping the running configuration");
                r = -EINVAL;
                goto done;
        }
        daemon_resolve_limits(&cfg, &thermal, &limits);
        diag_init(diag);
        (void)sampler_want_counters(&d->sampler, sampler_counters_wanted(&cfg), diag);
        daemon_log_diag(diag, LOG_NOTICE);
        /* The last step that can fail; it changes nothing when it does. */
        r = controller_reconfigure(&d->ctl, &cfg, sampler_signals(&d->sampler));
        if (r < 0) {
                thermal_close(&thermal);
                log_event(LOG_WARNING, BL_MESSAGE_RELOAD_REFUSED, refusal_fields(&f, "heuristics"),
                          "reload: refused, heuristics failed to start: %s", strerror(-r));
                r = -EINVAL;
                goto done;
        }

        thermal_close(&d->sampler.thermal);
        d->sampler.thermal = thermal;
        log_disabled_heuristics(d);
        d->energy = *energy;
        model_in_use_apply(&d->energy, &d->ctl, &d->ladder, &d->topo);
        model_in_use_describe(&d->energy, &d->ladder, model, sizeof(model));
        log_info("reload: energy model: %s", model);
        d->cfg = cfg;
        d->limits = limits;
        if (thermal.n > 0)
                daemon_log_limits(&limits, LOG_INFO);
        d->files = files;
        log_set_max_level(cfg.log_level);
        d->interval = (bl_usec_t)cfg.sample_interval_ms * BL_USEC_PER_MSEC;
        d->settle.min_bound = SETTLE_MIN_TICKS * d->interval;
        (void)sd_event_source_set_time_accuracy(d->timer, tick_accuracy(&cfg, d->interval));
        if (sd_event_now(d->event, CLOCK_MONOTONIC, &now) >= 0) {
                d->next_tick = now + d->interval;
                (void)sd_event_source_set_time(d->timer, d->next_tick);
        }
        for (unsigned i = 0; i < files.n; i++)
                log_info("reload: applied %s", files.path[i]);
        if (files.n == 0)
                log_info("reload: applied the built-in defaults");
        desktop_check_config(d, &cfg, LOG_WARNING);
        desktop_apply(d);
        daemon_changed(d, BL_CHANGE_CONFIG);
        r = 0;
done:
        free(diag);
        sd_notify(0, "READY=1");
        notify_status(d);
        return r;
}

static int on_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
        struct bl_daemon *d = userdata;

        if (si->ssi_signo == SIGHUP) {
                (void)daemon_reload(d);
                return 0;
        }
        return sd_event_exit(d->event, 0);
}

/* Where the saved CPU state and persistent holds live: systemd's
 * RuntimeDirectory=, else /run/bigLittle. */
static void open_runtime_dir(struct bl_daemon *d)
{
        const char *dir = getenv("RUNTIME_DIRECTORY");

        /* systemd may list several directories, separated by colons. */
        snprintf(d->runtime_dir, sizeof(d->runtime_dir), "%s", dir && dir[0] ? dir : BL_RUNTIME_DIR);
        d->runtime_dir[strcspn(d->runtime_dir, ":")] = '\0';
        if (mkdir(d->runtime_dir, 0755) < 0 && errno != EEXIST)
                log_warning("%s: %s; the CPU state and persistent holds will not survive a restart",
                            d->runtime_dir, strerror(errno));
}

/* The holds kept in the runtime directory are read back. */
static void open_holds(struct bl_daemon *d, bl_usec_t now, struct bl_diag *diag)
{
        int r;

        holds_init(&d->holds);
        history_init(&d->history);
        diag_init(diag);
        r = holds_store_load(&d->holds, d->runtime_dir, wall_usec(), now, diag);
        /* A file refused as a whole is said in 'diag', with the reason. */
        if (r < 0 && r != -ENOENT && diag_count(diag) == 0)
                log_warning("cannot read the persistent holds in %s: %s", d->runtime_dir, strerror(-r));
        daemon_log_diag(diag, LOG_WARNING);
        /* A level saved under another mode's ladder may not exist now. */
        for (unsigned i = d->holds.n; i-- > 0;)
                if (d->holds.h[i].level >= d->ladder.nlevels) {
                        struct log_fields f = LOG_FIELDS_INIT;

                        log_event(LOG_WARNING, BL_MESSAGE_RELEASE,
                                  daemon_release_fields(&f, d->holds.h[i].id, 1, "level-gone"),
                                  "hold %u dropped: its level does not exist in mode %s", d->holds.h[i].id,
                                  mode_to_string(d->ladder.mode));
                        (void)holds_release(&d->holds, d->holds.h[i].id);
                }
        for (unsigned i = 0; i < d->holds.n; i++) {
                struct log_fields f = LOG_FIELDS_INIT;

                log_event(LOG_INFO, BL_MESSAGE_HOLD, hold_fields(&f, d, &d->holds.h[i], d->holds.h[i].id),
                          "hold %u restored: %s until %llu s from now", d->holds.h[i].id,
                          daemon_level_name(d, d->holds.h[i].level),
                          (unsigned long long)((d->holds.h[i].until - now) / BL_USEC_PER_SEC));
        }
}

/* State safety. A run that died without restoring the CPUs (SIGKILL, a
 * crash) left its saved state behind: it is put back before the backend
 * records the CPUs as it finds them, or the dead run's level would become
 * what is restored at exit. Returns 0 to go on, or the exit status. */
static int reconcile_saved_state(struct bl_daemon *d, struct bl_diag *diag)
{
        struct saved_state_report rep;
        int r;

        open_runtime_dir(d);
        if (!saved_state_exists(d->runtime_dir))
                return 0;
        if (d->cfg.backend == BL_BACKEND_DRYRUN) {
                log_warning("%s/%s: a previous run did not restore the CPUs; the dryrun backend changes "
                            "nothing, start with another one to restore them",
                            d->runtime_dir, SAVED_STATE_FILE);
                return 0;
        }
        r = saved_state_reconcile(d->runtime_dir, &d->topo, &rep, diag);
        daemon_log_diag(diag, LOG_WARNING);
        diag_init(diag);
        if (r == 0 || r == -EINVAL)
                return 0;
        if (r == -EBUSY) {
                log_error("%s/%s: %s; not starting", d->runtime_dir, SAVED_STATE_FILE, rep.detail);
                return EXIT_FAILURE;
        }
        if (r < 0) {
                log_error("found the state a previous run saved (%s): restoring it failed: %s; not starting",
                          rep.saved, rep.detail[0] ? rep.detail : strerror(-r));
                return EXIT_FAILURE;
        }
        log_notice("found the state a previous run saved (%s): restored [%s]", rep.saved, rep.detail);
        /* What was discovered came from the dead run's level. */
        r = topology_discover(&d->topo, diag);
        daemon_log_diag(diag, LOG_WARNING);
        diag_init(diag);
        if (r < 0) {
                log_error("cannot discover the CPU topology: %s", strerror(-r));
                return EXIT_FAILURE;
        }
        return 0;
}

void daemon_save_state(struct bl_daemon *d)
{
        char text[SAVED_STATE_MAX];
        int r;

        if (!d->backend_ops->save)
                return;
        r = d->backend_ops->save(d->backend, text, sizeof(text));
        if (r >= 0)
                r = saved_state_write(d->runtime_dir, d->backend_ops->name, text);
        if (r < 0)
                log_warning("cannot save the CPU state in %s/%s: %s; if the daemon dies without restoring "
                            "it, the next start cannot put it back", d->runtime_dir, SAVED_STATE_FILE,
                            strerror(-r));
}

/* Other managers of the same CPUs are said, not stopped. */
static void warn_conflicts(struct bl_diag *diag)
{
        int r;

        diag_init(diag);
        r = conflicts_governors(diag);
        if (r < 0)
                log_debug("cannot read the cpufreq governors: %s", strerror(-r));
        r = conflicts_bus(NULL, CONFLICTS_BUS_TIMEOUT_USEC, diag);
        if (r < 0)
                log_debug("cannot ask the system bus about other CPU managers: %s", strerror(-r));
        daemon_log_diag(diag, LOG_WARNING);
        diag_init(diag);
}

/* A sample read outside the ticks, at start: it goes to the debug log and
 * through the settle window, and no decision is made on it. '*now': this
 * read. */
static void sample_off_tick(struct bl_daemon *d, bl_usec_t *now, const char *what)
{
        *now = switch_clock_now();
        if (sampler_read(&d->sampler, *now, &d->sample) < 0)
                return;
        if (log_enabled(LOG_DEBUG))
                log_sample(d, what);
        (void)settle_filter(&d->settle, &d->sample, *now);
}

/* Samples the machine as found for a few intervals before the start-up
 * level is applied, which gives that switch's settle window its baseline.
 * Without one the window cut every sample to nothing: a steady load there
 * before and after it (a CPU at 0.20 on the real kernel) read as quiet
 * through the window and as an onset when it closed. Leaves the sampler
 * primed; '*now' is the last read. */
static void sample_before_start(struct bl_daemon *d, bl_usec_t *now)
{
        const bl_usec_t interval = (bl_usec_t)d->cfg.sample_interval_ms * BL_USEC_PER_MSEC;

        settle_init(&d->settle, SETTLE_MIN_TICKS * interval);
        (void)sampler_read(&d->sampler, *now, &d->sample);
        for (unsigned i = 0; i < BL_SETTLE_BASE_SAMPLES; i++) {
                struct timespec ts = {
                        .tv_sec = (time_t)(interval / BL_USEC_PER_SEC),
                        .tv_nsec = (long)(interval % BL_USEC_PER_SEC) * 1000,
                };

                while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
                        ;
                sample_off_tick(d, now, "before the start");
        }
}

/* After the start-up level: the sampler starts again from here, so that
 * the first sample the ticks decide on begins after the switch. The one
 * that spanned it measured the switch (CPUs going away, stop_machine), not
 * the load, and a second of it read as quiet armed the onset rule for the
 * kernel's first burst after it (on the real kernel under QEMU). It stays
 * the last sample until the first tick, which a CPU uevent or a hold may
 * decide on: cut to the baseline like any sample in the window. '*now':
 * this read. */
static void sample_after_start(struct bl_daemon *d, bl_usec_t *now)
{
        sample_off_tick(d, now, "after the start-up switch");
}

/* The level the engines start at, applied before the loop runs, measured,
 * and the settle window opened: taking CPUs away at start leaves the same
 * work behind as any switch. */
static int apply_initial_level(struct bl_daemon *d, char *state, size_t state_size, char *detail,
                               size_t size)
{
        struct switch_job job;
        bl_cpuset all;
        int r;

        ladder_all_cpus(&d->ladder, &all);
        r = backend_online(d->backend_ops, d->backend, &all, &d->applied_cpus);
        if (r < 0)
                d->applied_cpus = all;
        controller_state_name(&d->ctl, state, state_size);
        settle_begin_at_start(&d->settle, switch_clock_now());
        r = daemon_apply_level(d, &job);
        settle_applied(&d->settle, job.finished);
        snprintf(detail, size, "%s", job.detail);
        if (r < 0) {
                /* The backend undid what it wrote, so the kernel's CPUs are
                 * as they were found: a refused offline (a CPU with a
                 * deadline task's bandwidth, an interrupt that cannot move)
                 * is no reason to give up the machine. */
                log_error("the initial level %s failed: %s; running on with the CPUs as they are, and "
                          "trying again every %llu s", state, detail,
                          (unsigned long long)(RETRY_AFTER_FAILURE_USEC / BL_USEC_PER_SEC));
                snprintf(d->failed_detail, sizeof(d->failed_detail), "%s", detail);
                d->level_unapplied = true;
                d->retry_after = job.finished + RETRY_AFTER_FAILURE_USEC;
                return 0;
        }
        if (r == BL_BACKEND_NO_EFFECT) {
                d->unreachable |= 1;
                snprintf(d->unreachable_why[0], sizeof(d->unreachable_why[0]), "%s", detail);
                log_warning("the initial level %s did nothing: %s; level %s is left out: backend %s cannot "
                            "reach it on this machine", state, detail, daemon_level_name(d, 0),
                            d->backend_ops->name);
        } else {
                measure(d, &job);
        }
        return 0;
}

/* Sets up everything up to the initial level. Returns 0, or the exit status
 * to leave with. */
static int setup(struct bl_daemon *d)
{
        struct bl_diag *diag;
        char why[256], detail[256], levels[1024], state[BL_MAX_PAIRS + BL_NAME_MAX], model[512];
        enum bl_mode mode;
        uint64_t now;
        sigset_t mask;
        int r, status = EXIT_FAILURE;

        diag = malloc(sizeof(*diag));
        if (!diag)
                return EXIT_FAILURE;
        diag_init(diag);

        r = load_plugins(d->opt, &d->plugins, d->plugin_dir, sizeof(d->plugin_dir));
        if (r < 0) {
                log_error("cannot load plugins: %s", strerror(-r));
                goto out;
        }
        r = load_config(d->opt, &d->plugins, &d->cfg, &d->files, LOG_ERR);
        if (r != 0) {
                log_error("configuration is not valid; not starting");
                status = EXIT_CONFIG;
                goto out;
        }
        if (d->opt->backend && parse_backend(d->opt->backend, &d->cfg.backend) < 0) {
                log_error("--backend: unknown backend \"%s\" (auto, switcher, hotplug, cpuset, cpufreq, "
                          "dryrun)", d->opt->backend);
                status = EXIT_USAGE;
                goto out;
        }
        log_set_max_level(d->cfg.log_level);

        r = topology_discover(&d->topo, diag);
        daemon_log_diag(diag, LOG_WARNING);
        diag_init(diag);
        if (r < 0) {
                log_error("cannot discover the CPU topology: %s", strerror(-r));
                goto out;
        }
        if ((status = reconcile_saved_state(d, diag)) != 0)
                goto out;
        status = EXIT_FAILURE;
        if (d->topo.nclusters < 2) {
                log_notice("this machine has one kind of core (%s): nothing to switch", d->topo.how);
                status = EXIT_NOT_HETEROGENEOUS;
                goto out;
        }
        r = daemon_build_ladder(d, &d->ladder, &mode, why, sizeof(why));
        if (r == -EOPNOTSUPP) {
                log_error("mode %s needs exactly two clusters, this machine has %u (%s)",
                          mode_to_string(mode), d->topo.nclusters, why);
                status = EXIT_CONFIG;
                goto out;
        }
        if (r < 0) {
                log_error("cannot build the level ladder of mode %s: %s", mode_to_string(mode), strerror(-r));
                goto out;
        }

        r = model_in_use_load(&d->energy, d->cfg.energy_model, &d->topo, diag);
        daemon_log_diag(diag, r < 0 ? LOG_ERR : LOG_WARNING);
        diag_init(diag);
        if (r < 0) {
                log_error("energy_model = %s cannot be used; not starting", d->cfg.energy_model);
                status = EXIT_CONFIG;
                goto out;
        }

        d->backend_ops = backend_select(d->cfg.backend, &d->topo, why, sizeof(why));
        if (!d->backend_ops) {
                log_error("%s", why);
                status = d->cfg.backend == BL_BACKEND_AUTO ? EXIT_FAILURE : EXIT_CONFIG;
                goto out;
        }
        r = d->backend_ops->open(&d->backend, &d->topo, &d->ladder, &d->cfg, diag);
        daemon_log_diag(diag, r < 0 ? LOG_ERR : LOG_WARNING);
        diag_init(diag);
        if (r < 0) {
                log_error("backend %s cannot start: %s", d->backend_ops->name, strerror(-r));
                goto out;
        }
        switch_estimate_init(&d->cost, &d->backend_ops->prior);
        /* before the backend changes anything */
        daemon_save_state(d);
        warn_conflicts(diag);

        r = sampler_open(&d->sampler, &d->topo, &d->cfg, diag);
        daemon_log_diag(diag, r < 0 ? LOG_ERR : LOG_NOTICE);
        diag_init(diag);
        if (r < 0) {
                log_error("cannot read the load: %s", strerror(-r));
                goto out;
        }
        d->sampler_opened = true;
        daemon_resolve_limits(&d->cfg, &d->sampler.thermal, &d->limits);
        if (d->sampler.thermal.n > 0)
                daemon_log_limits(&d->limits, LOG_INFO);

        /* A loop of its own, not sd_event_default(): the default loop checks
         * gettid() on every iteration, a system call per tick. */
        r = sd_event_new(&d->event);
        if (r < 0)
                goto out;
        sigemptyset(&mask);
        sigaddset(&mask, SIGTERM);
        sigaddset(&mask, SIGINT);
        sigaddset(&mask, SIGHUP);
        sigprocmask(SIG_BLOCK, &mask, NULL);
        if ((r = sd_event_add_signal(d->event, NULL, SIGTERM, on_signal, d)) < 0 ||
            (r = sd_event_add_signal(d->event, NULL, SIGINT, on_signal, d)) < 0 ||
            (r = sd_event_add_signal(d->event, NULL, SIGHUP, on_signal, d)) < 0) {
                log_error("cannot watch signals: %s", strerror(-r));
                goto out;
        }
        /* Pings the watchdog from the loop when WATCHDOG_USEC is set. */
        r = sd_event_set_watchdog(d->event, true);
        if (r < 0)
                log_warning("cannot enable the watchdog: %s", strerror(-r));

        r = sd_event_now(d->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                goto out;
        r = daemon_start_controller(d, now);
        if (r < 0) {
                log_error("heuristics failed to start: %s", strerror(-r));
                goto out;
        }
        log_disabled_heuristics(d);
        model_in_use_describe(&d->energy, &d->ladder, model, sizeof(model));
        log_info("energy model: %s", model);
        sample_before_start(d, &now);
        r = apply_initial_level(d, state, sizeof(state), detail, sizeof(detail));
        if (r < 0)
                goto out;
        sample_after_start(d, &now);
        r = switch_worker_open(&d->worker, d->event, switch_done, d);
        if (r < 0)
                log_warning("cannot watch for switches applied on a thread (%s): switches are applied on "
                            "the loop, which waits for them", strerror(-r));
        d->worker_open = r >= 0;
        r = uevent_monitor_open(&d->uevents, d->event, events_on_uevent, d);
        if (r < 0)
                log_warning("cannot watch udev events (%s): CPUs and thermal zones changed by others go "
                            "unnoticed", strerror(-r));

        d->interval = (bl_usec_t)d->cfg.sample_interval_ms * BL_USEC_PER_MSEC;
        d->next_tick = now + d->interval;
        r = sd_event_add_time(d->event, &d->timer, CLOCK_MONOTONIC, d->next_tick,
                              tick_accuracy(&d->cfg, d->interval), on_tick, d);
        if (r < 0)
                goto out;
        /* Keep it armed after each expiry (not ONESHOT); on_tick moves it on. */
        r = sd_event_source_set_enabled(d->timer, SD_EVENT_ON);
        if (r < 0)
                goto out;

        daemon_describe_ladder(d, levels, sizeof(levels));
        log_info("started: %s; mode %s (%s); levels %s; backend %s (%s); level %s [%s]", d->topo.how,
                 mode_to_string(d->ladder.mode), d->ladder.why, levels, d->backend_ops->name, why, state,
                 detail);

        d->accounted_until = now;
        open_holds(d, now, diag);
        r = bus_open(&d->bus, d);
        if (r < 0)
                log_warning("no D-Bus service (%s): status, holds and reload over the bus are unavailable",
                            strerror(-r));
        desktop_check_config(d, &d->cfg, LOG_WARNING);
        r = desktop_open(&d->desktop, d);
        if (r < 0)
                log_info("desktop: not watching power-profiles-daemon and UPower (%s): no profile adjusts "
                         "anything", strerror(-r));
        r = 0;
        /* Holds read back from disk take effect now. */
        daemon_decide_now(d);
        status = 0;
out:
        if (r < 0 && status == EXIT_FAILURE)
                log_error("start-up failed: %s", strerror(-r));
        free(diag);
        return status;
}

/* The p-th percentile of tick lateness, as the upper edge of its bin:
 * "1250 us", or "over 100000 us" when it falls in the last bin, which
 * holds every tick later than that. */
static void lateness_percentile(const struct bl_daemon *d, unsigned p, char *buf, size_t size)
{
        uint64_t total = 0, seen = 0;

        snprintf(buf, size, "0 us");
        for (unsigned i = 0; i < BL_LATENESS_BINS; i++)
                total += d->lateness[i];
        for (unsigned i = 0; i < BL_LATENESS_BINS; i++) {
                seen += d->lateness[i];
                if (total == 0 || seen * 100 < total * p)
                        continue;
                if (i == BL_LATENESS_BINS - 1)
                        snprintf(buf, size, "over %llu us", (unsigned long long)i * BL_LATENESS_BIN_USEC);
                else
                        snprintf(buf, size, "%llu us", (unsigned long long)(i + 1) * BL_LATENESS_BIN_USEC);
                return;
        }
}

/* SIGTERM during a switch: the switch is let end (bounded) before the
 * CPUs are restored, which would otherwise race it. Returns whether the
 * backend is the loop's again. */
static bool wait_for_switch(struct bl_daemon *d)
{
        int r;

        d->stopping = true;
        if (!daemon_switching(d))
                return true;
        log_notice("waiting up to %llu s for the switch being applied before restoring the CPUs",
                   (unsigned long long)(SWITCH_EXIT_WAIT_USEC / BL_USEC_PER_SEC));
        r = switch_worker_wait(&d->worker, SWITCH_EXIT_WAIT_USEC);
        if (r == 0)
                return true;
        d->switch_abandoned = true;
        log_error("the switch being applied did not end within %llu s (%s): leaving without restoring the "
                  "CPUs; the next start puts back the state saved in %s/%s",
                  (unsigned long long)(SWITCH_EXIT_WAIT_USEC / BL_USEC_PER_SEC), strerror(-r), d->runtime_dir,
                  SAVED_STATE_FILE);
        return false;
}

/* What the switches cost and how the kernel settled after them, for the
 * stop line's reader (a VM test reads it from the journal). */
static void log_switching(const struct bl_daemon *d)
{
        const struct bl_settle *t = &d->settle;
        struct bl_switch_cost c;

        daemon_switch_cost(d, &c);
        log_info("switch cost %.0f us + %.0f us per CPU (%u measured, longest %.0f us); settle: %u windows "
                 "(%u at the bound), last %llu us, mean %.0f us, longest %llu us; %lu samples discounted",
                 c.latency_us, c.latency_per_cpu_us, d->cost.n, d->cost.max_us, t->windows, t->bounded,
                 (unsigned long long)t->last_us, t->mean_us, (unsigned long long)t->max_us, t->discounted);
}

/* Returns EXIT_FAILURE when the CPUs could not all be restored, or not at
 * all (a switch that would not end): systemd's Restart=on-failure then
 * starts the daemon again, which puts back the state still saved. */
static int teardown(struct bl_daemon *d)
{
        char detail[256] = "", p50[32], p99[32];
        bool backend_ours;
        int status = 0;

        desktop_close(d->desktop);
        d->desktop = NULL;
        bus_close(d->bus);
        d->bus = NULL;
        backend_ours = wait_for_switch(d);
        if (!backend_ours)
                status = EXIT_FAILURE;
        if (d->backend && backend_ours) {
                int r = d->backend_ops->restore(d->backend, detail, sizeof(detail));

                if (r < 0) {
                        log_error("restoring the CPUs failed: %s", detail);
                        status = EXIT_FAILURE;
                } else {
                        log_info("restored: %s", detail);
                        /* Kept after a failed restore: the next start tries again. */
                        if (d->backend_ops->save)
                                (void)saved_state_remove(d->runtime_dir);
                }
                d->backend_ops->free(d->backend);
        }
        if (d->backend) {
                lateness_percentile(d, 50, p50, sizeof(p50));
                lateness_percentile(d, 99, p99, sizeof(p99));
                log_info("stopped after %u ticks and %lu switches; tick lateness p50 %s, p99 %s", d->ticks,
                         d->switches, p50, p99);
                if (d->sampler_opened && d->ticks > 0)
                        log_info("read per tick: cpuidle states of %.2f CPUs of %u, scaling_cur_freq of %.2f "
                                 "policies of %u", (double)d->sampler.idle.cpus_read / d->ticks,
                                 d->sampler.idle.ncpus, (double)d->sampler.freq.reads / d->ticks,
                                 d->sampler.freq.n);
                log_switching(d);
        }
        if (d->worker_open)
                switch_worker_close(&d->worker);
        if (d->controller_ready)
                controller_done(&d->ctl);
        free(d->decisions);
        free(d->inflight);
        if (d->sampler_opened)
                sampler_close(&d->sampler);
        uevent_monitor_free(d->uevents);
        sd_event_source_unref(d->timer);
        sd_event_unref(d->event);
        /* Last: the heuristics' code lives in them (a switch left running
         * still uses the backend, not them). */
        plugins_unload(&d->plugins);
        return status;
}

int daemon_run(const struct options *o)
{
        struct bl_daemon *d;
        int status, r;

        log_setup(o->foreground ? LOG_TARGET_STDERR : LOG_TARGET_JOURNAL, LOG_INFO);
        d = calloc(1, sizeof(*d));
        if (!d) {
                log_error("out of memory");
                return EXIT_FAILURE;
        }
        d->opt = o;
        status = setup(d);
        if (status == 0) {
                sd_notify(0, "READY=1");
                notify_status(d);
                r = sd_event_loop(d->event);
                sd_notify(0, "STOPPING=1\nSTATUS=Restoring the CPUs");
                if (r < 0) {
                        log_error("event loop failed: %s", strerror(-r));
                        status = EXIT_FAILURE;
                }
        }
        r = teardown(d);
        if (status == 0)
                status = r;
        /* A switch left running still writes into it until the exit. */
        if (!d->switch_abandoned)
                free(d);
        return status;
}

int daemon_read_config(const struct options *o, struct bl_plugin_set *plugins, struct bl_config *cfg)
{
        struct bl_conf_files files;
        char dir[BL_PATH_MAX];
        int r;

        r = load_plugins(o, plugins, dir, sizeof(dir));
        if (r < 0)
                return r;
        return load_config(o, plugins, cfg, &files, LOG_ERR);
}

int daemon_check_config(const struct options *o)
{
        struct bl_plugin_set plugins = { 0 };
        struct bl_config cfg;
        struct bl_conf_files files;
        char dir[BL_PATH_MAX];
        int r;

        log_setup(LOG_TARGET_STDERR, LOG_INFO);
        r = load_plugins(o, &plugins, dir, sizeof(dir));
        if (r >= 0)
                r = load_config(o, &plugins, &cfg, &files, LOG_ERR);
        plugins_unload(&plugins);
        if (r < 0)
                return EXIT_CONFIG;
        if (r > 0) {
                fprintf(stderr, "%d problem%s found\n", r, r == 1 ? "" : "s");
                return EXIT_CONFIG;
        }
        r = model_in_use_check_file(cfg.energy_model);
        if (r != 0)
                return EXIT_CONFIG;
        if (files.n == 0)
                printf("%s: not present, the built-in defaults apply\n", BL_DEFAULT_CONFIG);
        for (unsigned i = 0; i < files.n; i++)
                printf("%s: OK\n", files.path[i]);
        return 0;
}
