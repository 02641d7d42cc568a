/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the bus asks of the daemon: holds, releases, reload; each takes
 * effect at once and is logged. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>

#include "common/fileio.h"
#include "common/log.h"
#include "daemon/actions.h"
#include "daemon/config-load.h"
#include "daemon/desktop.h"
#include "daemon/level.h"
#include "daemon/message-ids.h"
#include "daemon/saved-state.h"

int daemon_hold(struct bl_daemon *d, const struct bl_hold *h, uint32_t *id)
{
        struct log_fields f = LOG_FIELDS_INIT;
        int r;

        if (h->level >= d->ladder.nlevels)
                return -EINVAL;
        r = holds_add(&d->holds, h, id);
        if (r < 0)
                return r;
        log_event(LOG_INFO, BL_MESSAGE_HOLD, daemon_hold_fields(&f, d, h, *id), "hold %u: %s for %llu s by uid %u%s%s%s%s",
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

/* A heuristic the sources cannot feed is said at start (and after a reload). */
void daemon_log_disabled_heuristics(const struct bl_daemon *d)
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
        r = daemon_load_config(d->opt, &d->plugins, &cfg, &files, LOG_WARNING);
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
        daemon_log_disabled_heuristics(d);
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
        d->interval = daemon_full_rate(&cfg);
        d->settle.min_bound = BL_SETTLE_MIN_TICKS * d->interval;
        if (sd_event_now(d->event, CLOCK_MONOTONIC, &now) >= 0) {
                r = tick_timer_arm(&d->tick, now + d->interval, d->interval);
                if (r < 0)
                        log_error("reload: cannot set the tick to %u ms: %s", cfg.sample_interval_ms,
                                  strerror(-r));
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
        daemon_notify_status(d);
        return r;
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
