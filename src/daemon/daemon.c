/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bigLittled: one sd-event loop wiring the sources, the pure core and a
 * backend. A timer samples the machine every sample_interval_ms, the engine
 * decides, the backend applies; SIGHUP reloads the configuration (a bad one
 * is refused and the running one stays), SIGTERM/SIGINT restore what the
 * backend changed and exit.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>

#include "backends/backend.h"
#include "common/conf-files.h"
#include "common/log.h"
#include "core/engine.h"
#include "core/scorer.h"
#include "daemon/daemon.h"
#include "policy/builtin.h"
#include "sources/sampler.h"
#include "sources/topology-udev.h"

/* After a refused switch, wait this long before asking the kernel again. */
#define RETRY_AFTER_FAILURE_USEC BL_USEC_PER_SEC

struct bl_daemon {
        const struct options *opt;
        sd_event *event;
        sd_event_source *timer;

        struct bl_config cfg;
        struct bl_conf_files files;
        struct bl_topology topo;
        struct bl_ladder ladder;

        const struct bl_backend_ops *backend_ops;
        struct bl_backend *backend;
        struct bl_sampler sampler;
        bool sampler_opened;
        struct bl_scorer scorer;
        struct bl_engine engine;
        struct bl_sample sample;

        bl_usec_t interval;
        bl_usec_t next_tick;
        bl_usec_t retry_after;
        unsigned ticks;
        unsigned switches;
        unsigned read_failures;
        double demand;
};

static void log_diag(const struct bl_diag *diag, int level)
{
        for (unsigned i = 0; i < diag->n; i++)
                log_msg(level, "%s", diag->msg[i]);
        if (diag->dropped)
                log_msg(level, "... and %u more problems", diag->dropped);
}

/* Loads the configuration the command line names. Returns 0 when valid,
 * the number of problems, or a negative errno; problems are logged at
 * 'level'. */
static int load_config(const struct options *o, struct bl_config *cfg, struct bl_conf_files *files, int level)
{
        struct bl_diag *diag;
        int r;

        diag = malloc(sizeof(*diag));
        if (!diag)
                return -ENOMEM;
        diag_init(diag);
        config_init(cfg, policy_builtin);
        r = conf_files_load(cfg, policy_builtin, o->config ? o->config : BL_DEFAULT_CONFIG, !o->config, files,
                            diag);
        log_diag(diag, level);
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

static const char *level_name(const struct bl_daemon *d, unsigned level)
{
        return d->ladder.levels[level].name;
}

static void notify_status(const struct bl_daemon *d)
{
        sd_notifyf(0, "STATUS=level %s, demand %.0f, %u switches", level_name(d, d->engine.level), d->demand,
                   d->switches);
}

static void describe_ladder(const struct bl_daemon *d, char *buf, size_t size)
{
        size_t len = 0;

        buf[0] = '\0';
        for (unsigned i = 0; i < d->ladder.nlevels && len < size; i++) {
                const struct bl_level *l = &d->ladder.levels[i];
                char cpus[256];

                cpuset_format(&l->cpus, cpus, sizeof(cpus));
                len += (size_t)snprintf(buf + len, size - len, "%s%s (cpus %s, capacity %u)", i ? ", " : "",
                                        l->name, cpus, l->capacity);
        }
}

static void decide(struct bl_daemon *d, bl_usec_t now)
{
        struct bl_decision dec;
        char detail[256];
        int r;

        d->ticks++;
        r = sampler_read(&d->sampler, now, &d->sample);
        if (r < 0) {
                /* One line when it starts failing, one when it recovers. */
                if (d->read_failures++ == 0)
                        log_warning("reading load failed: %s; skipping ticks until it recovers", strerror(-r));
                return;
        }
        if (d->read_failures) {
                log_info("reading load recovered after %u skipped ticks", d->read_failures);
                d->read_failures = 0;
        }

        d->demand = scorer_score(&d->scorer, &d->sample, now);
        engine_decide(&d->engine, d->demand, d->sample.has_temp ? &d->sample.temp_mc : NULL, now, &dec);
        log_debug("tick: demand %.0f, %s: %s", d->demand, cause_to_string(dec.cause), dec.reason);
        if (!dec.change || now < d->retry_after)
                return;

        r = d->backend_ops->apply(d->backend, dec.to, detail, sizeof(detail));
        if (r < 0) {
                log_error("switch %s -> %s failed: %s; staying at %s", level_name(d, dec.from),
                          level_name(d, dec.to), detail, level_name(d, dec.from));
                d->retry_after = now + RETRY_AFTER_FAILURE_USEC;
                return;
        }
        engine_switched(&d->engine, dec.to, now);
        d->switches++;
        log_info("switch %s -> %s: %s [%s]", level_name(d, dec.from), level_name(d, dec.to), dec.reason, detail);
        notify_status(d);
}

static int on_tick(sd_event_source *s, uint64_t usec, void *userdata)
{
        struct bl_daemon *d = userdata;
        uint64_t now;
        int r;

        r = sd_event_now(d->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;
        /* Fixed rate; if we fell behind (a stopped process, a slow write),
         * skip the missed ticks rather than firing them back to back. */
        d->next_tick += d->interval;
        if (d->next_tick <= now)
                d->next_tick = now + d->interval;
        r = sd_event_source_set_time(s, d->next_tick);
        if (r < 0)
                return r;
        /* Decide on the tick's scheduled time, not the wakeup's jitter, so
         * that delays count whole sample intervals as they do in blsim. */
        decide(d, usec);
        return 0;
}

static void reload(struct bl_daemon *d)
{
        struct bl_config cfg;
        struct bl_conf_files files;
        struct bl_scorer scorer = { 0 };
        struct thermal_reader thermal;
        struct bl_engine_params params;
        struct bl_diag *diag = NULL;
        uint64_t now;
        int r;

        sd_notify(0, "RELOADING=1\nSTATUS=Reloading configuration");
        r = load_config(d->opt, &cfg, &files, LOG_WARNING);
        if (r != 0) {
                log_warning("reload: refused, keeping the running configuration");
                goto done;
        }
        /* Mode and backend shape the ladder and what was saved for restore. */
        if (cfg.mode != d->cfg.mode || (!d->opt->backend && cfg.backend != d->cfg.backend))
                log_notice("reload: mode and backend changes take effect after a restart");
        cfg.mode = d->cfg.mode;
        cfg.backend = d->cfg.backend;

        r = scorer_init(&scorer, &cfg);
        if (r < 0) {
                log_warning("reload: refused, heuristics failed to start: %s", strerror(-r));
                goto done;
        }
        diag = malloc(sizeof(*diag));
        if (!diag) {
                scorer_done(&scorer);
                log_warning("reload: refused: %s", strerror(ENOMEM));
                goto done;
        }
        diag_init(diag);
        r = thermal_open(&thermal, &cfg, diag);
        if (r < 0) {
                log_diag(diag, LOG_WARNING);
                log_warning("reload: refused, keeping the running configuration");
                scorer_done(&scorer);
                goto done;
        }

        /* Everything that can fail has; commit. */
        thermal_close(&d->sampler.thermal);
        d->sampler.thermal = thermal;
        scorer_done(&d->scorer);
        d->scorer = scorer;
        engine_params_from_config(&params, &cfg);
        engine_set_params(&d->engine, &params);
        d->cfg = cfg;
        d->files = files;
        log_set_max_level(cfg.log_level);
        d->interval = (bl_usec_t)cfg.sample_interval_ms * BL_USEC_PER_MSEC;
        if (sd_event_now(d->event, CLOCK_MONOTONIC, &now) >= 0) {
                d->next_tick = now + d->interval;
                (void)sd_event_source_set_time(d->timer, d->next_tick);
        }
        for (unsigned i = 0; i < files.n; i++)
                log_info("reload: applied %s", files.path[i]);
        if (files.n == 0)
                log_info("reload: applied the built-in defaults");
done:
        free(diag);
        sd_notify(0, "READY=1");
        notify_status(d);
}

static int on_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
        struct bl_daemon *d = userdata;

        if (si->ssi_signo == SIGHUP) {
                reload(d);
                return 0;
        }
        return sd_event_exit(d->event, 0);
}

/* Sets up everything up to the initial level. Returns 0, or the exit status
 * to leave with. */
static int setup(struct bl_daemon *d)
{
        struct bl_engine_params params;
        struct bl_diag *diag;
        char why[256], detail[256], levels[1024];
        uint64_t now;
        sigset_t mask;
        int r, status = EXIT_FAILURE;

        diag = malloc(sizeof(*diag));
        if (!diag)
                return EXIT_FAILURE;
        diag_init(diag);

        r = load_config(d->opt, &d->cfg, &d->files, LOG_ERR);
        if (r != 0) {
                log_error("configuration is not valid; not starting");
                status = EXIT_CONFIG;
                goto out;
        }
        if (d->opt->backend && parse_backend(d->opt->backend, &d->cfg.backend) < 0) {
                log_error("--backend: unknown backend \"%s\" (auto, hotplug, dryrun)", d->opt->backend);
                status = EXIT_USAGE;
                goto out;
        }
        log_set_max_level(d->cfg.log_level);

        r = topology_discover(&d->topo, diag);
        log_diag(diag, LOG_WARNING);
        diag_init(diag);
        if (r < 0) {
                log_error("cannot discover the CPU topology: %s", strerror(-r));
                goto out;
        }
        if (d->topo.nclusters < 2) {
                log_notice("this machine has one kind of core (%s): nothing to switch", d->topo.how);
                status = EXIT_NOT_HETEROGENEOUS;
                goto out;
        }
        r = ladder_build(&d->ladder, &d->topo, d->cfg.mode);
        if (r == -EOPNOTSUPP) {
                log_error("mode %s is not supported by this version (use cluster or auto)",
                          mode_to_string(d->cfg.mode));
                status = EXIT_CONFIG;
                goto out;
        }
        if (r < 0) {
                log_error("cannot build the level ladder: %s", strerror(-r));
                goto out;
        }

        d->backend_ops = backend_select(d->cfg.backend, &d->topo, why, sizeof(why));
        if (!d->backend_ops) {
                log_error("%s", why);
                status = d->cfg.backend == BL_BACKEND_AUTO ? EXIT_FAILURE : EXIT_CONFIG;
                goto out;
        }
        r = d->backend_ops->open(&d->backend, &d->topo, &d->ladder, diag);
        log_diag(diag, LOG_ERR);
        diag_init(diag);
        if (r < 0) {
                log_error("backend %s cannot start: %s", d->backend_ops->name, strerror(-r));
                goto out;
        }

        r = sampler_open(&d->sampler, &d->topo, &d->cfg, diag);
        log_diag(diag, r < 0 ? LOG_ERR : LOG_NOTICE);
        diag_init(diag);
        if (r < 0) {
                log_error("cannot read the load: %s", strerror(-r));
                goto out;
        }
        d->sampler_opened = true;
        r = scorer_init(&d->scorer, &d->cfg);
        if (r < 0) {
                log_error("heuristics failed to start: %s", strerror(-r));
                goto out;
        }

        r = sd_event_default(&d->event);
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
        engine_params_from_config(&params, &d->cfg);
        engine_init(&d->engine, &d->ladder, &params, 0);
        r = d->backend_ops->apply(d->backend, 0, detail, sizeof(detail));
        if (r < 0) {
                log_error("cannot apply the initial level %s: %s", level_name(d, 0), detail);
                goto out;
        }
        engine_switched(&d->engine, 0, now);
        /* The first sample only primes the counters. */
        (void)sampler_read(&d->sampler, now, &d->sample);

        d->interval = (bl_usec_t)d->cfg.sample_interval_ms * BL_USEC_PER_MSEC;
        d->next_tick = now + d->interval;
        /* Accuracy 0 would mean sd-event's default of 250 ms, which smears a
         * 20 ms tick; 1 ms still lets the kernel coalesce wakeups a little. */
        r = sd_event_add_time(d->event, &d->timer, CLOCK_MONOTONIC, d->next_tick, BL_USEC_PER_MSEC, on_tick, d);
        if (r < 0)
                goto out;
        /* Keep it armed after each expiry (not ONESHOT); on_tick moves it on. */
        r = sd_event_source_set_enabled(d->timer, SD_EVENT_ON);
        if (r < 0)
                goto out;

        describe_ladder(d, levels, sizeof(levels));
        log_info("started: %s; mode %s; levels %s; backend %s (%s); level %s [%s]", d->topo.how,
                 mode_to_string(d->ladder.mode), levels, d->backend_ops->name, why, level_name(d, 0), detail);
        status = 0;
out:
        if (r < 0 && status == EXIT_FAILURE)
                log_error("start-up failed: %s", strerror(-r));
        free(diag);
        return status;
}

static void teardown(struct bl_daemon *d)
{
        char detail[256];

        if (d->backend) {
                int r = d->backend_ops->restore(d->backend, detail, sizeof(detail));

                if (r < 0)
                        log_error("restoring the CPUs failed: %s", detail);
                else
                        log_info("restored: %s", detail);
                d->backend_ops->free(d->backend);
                log_info("stopped after %u ticks and %u switches", d->ticks, d->switches);
        }
        scorer_done(&d->scorer);
        if (d->sampler_opened)
                sampler_close(&d->sampler);
        sd_event_source_unref(d->timer);
        sd_event_unref(d->event);
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
        teardown(d);
        free(d);
        return status;
}

int daemon_check_config(const struct options *o)
{
        struct bl_config cfg;
        struct bl_conf_files files;
        int r;

        log_setup(LOG_TARGET_STDERR, LOG_INFO);
        r = load_config(o, &cfg, &files, LOG_ERR);
        if (r < 0)
                return EXIT_CONFIG;
        if (r > 0) {
                fprintf(stderr, "%d problem%s found\n", r, r == 1 ? "" : "s");
                return EXIT_CONFIG;
        }
        if (files.n == 0)
                printf("%s: not present, the built-in defaults apply\n", BL_DEFAULT_CONFIG);
        for (unsigned i = 0; i < files.n; i++)
                printf("%s: OK\n", files.path[i]);
        return 0;
}
