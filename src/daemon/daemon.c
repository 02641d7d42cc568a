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

#include "common/duration.h"
#include "common/log.h"
#include "daemon/actions.h"
#include "daemon/bus.h"
#include "daemon/config-load.h"
#include "daemon/daemon.h"
#include "daemon/desktop.h"
#include "daemon/events.h"
#include "daemon/holds-store.h"
#include "daemon/idle-wake.h"
#include "daemon/level.h"
#include "daemon/loop.h"
#include "daemon/message-ids.h"
#include "daemon/saved-state.h"
#include "sources/conflicts.h"
#include "sources/topology-udev.h"
#include "sources/udev-monitor.h"

/* How long start-up waits for the bus to say who else manages the CPUs. */
#define CONFLICTS_BUS_TIMEOUT_USEC (250 * BL_USEC_PER_MSEC)

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
        r = holds_store_load(&d->holds, d->runtime_dir, daemon_wall_usec(), now, diag);
        /* A file refused as a whole is said in 'diag', with the reason. */
        if (r < 0 && r != -ENOENT && diag_count(diag) == 0)
                log_warning_errno(r, "cannot read the persistent holds in %s", d->runtime_dir);
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

                log_event(LOG_INFO, BL_MESSAGE_HOLD, daemon_hold_fields(&f, d, &d->holds.h[i], d->holds.h[i].id),
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
                log_error_errno(r, "cannot discover the CPU topology");
                return EXIT_FAILURE;
        }
        return 0;
}

/* Other managers of the same CPUs are said, not stopped. */
static void warn_conflicts(struct bl_diag *diag)
{
        int r;

        diag_init(diag);
        r = conflicts_governors(diag);
        if (r < 0)
                log_debug_errno(r, "cannot read the cpufreq governors");
        r = conflicts_bus(NULL, CONFLICTS_BUS_TIMEOUT_USEC, diag);
        if (r < 0)
                log_debug_errno(r, "cannot ask the system bus about other CPU managers");
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
                daemon_log_sample(d, what);
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
        const bl_usec_t interval = daemon_full_rate(&d->cfg);

        settle_init(&d->settle, BL_SETTLE_MIN_TICKS * interval);
        (void)sampler_read(&d->sampler, *now, &d->sample);
        for (unsigned i = 0; i < BL_SETTLE_BASE_SAMPLES; i++) {
                struct timespec ts = duration_timespec(interval);

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
        bl_cpumask all;
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
                daemon_measure(d, &job);
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

        r = daemon_load_plugins(d->opt, &d->plugins, d->plugin_dir, sizeof(d->plugin_dir));
        if (r < 0) {
                log_error_errno(r, "cannot load plugins");
                goto out;
        }
        r = daemon_load_config(d->opt, &d->plugins, &d->cfg, &d->files, LOG_ERR);
        if (r != 0) {
                log_error("configuration is not valid; not starting");
                status = EXIT_CONFIG;
                goto out;
        }
        if (d->opt->backend)
                d->cfg.backend = d->opt->backend_kind;
        log_set_max_level(d->cfg.log_level);

        r = topology_discover(&d->topo, diag);
        daemon_log_diag(diag, LOG_WARNING);
        diag_init(diag);
        if (r < 0) {
                log_error_errno(r, "cannot discover the CPU topology");
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
                log_error_errno(r, "cannot build the level ladder of mode %s", mode_to_string(mode));
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
                log_error_errno(r, "backend %s cannot start", d->backend_ops->name);
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
                log_error_errno(r, "cannot read the load");
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
        if ((r = sd_event_add_signal(d->event, NULL, SIGTERM, daemon_on_signal, d)) < 0 ||
            (r = sd_event_add_signal(d->event, NULL, SIGINT, daemon_on_signal, d)) < 0 ||
            (r = sd_event_add_signal(d->event, NULL, SIGHUP, daemon_on_signal, d)) < 0) {
                log_error_errno(r, "cannot watch signals");
                goto out;
        }
        /* Pings the watchdog from the loop when WATCHDOG_USEC is set. */
        r = sd_event_set_watchdog(d->event, true);
        if (r < 0)
                log_warning_errno(r, "cannot enable the watchdog");

        r = sd_event_now(d->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                goto out;
        r = daemon_start_controller(d, now);
        if (r < 0) {
                log_error_errno(r, "heuristics failed to start");
                goto out;
        }
        daemon_log_disabled_heuristics(d);
        model_in_use_describe(&d->energy, &d->ladder, model, sizeof(model));
        log_info("energy model: %s", model);
        sample_before_start(d, &now);
        r = apply_initial_level(d, state, sizeof(state), detail, sizeof(detail));
        if (r < 0)
                goto out;
        sample_after_start(d, &now);
        d->on_switch_done = daemon_switch_done;
        r = switch_worker_open(&d->worker, d->event, daemon_switch_done, d);
        if (r < 0)
                log_warning("cannot watch for switches applied on a thread (%s): switches are applied on "
                            "the loop, which waits for them", strerror(-r));
        d->worker_open = r >= 0;
        r = uevent_monitor_open(&d->uevents, d->event, events_on_uevent, d);
        if (r < 0)
                log_warning("cannot watch udev events (%s): CPUs and thermal zones changed by others go "
                            "unnoticed", strerror(-r));

        r = daemon_start_ticks(d, now);
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
                log_error_errno(r, "start-up failed");
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
                log_info("stopped after %u ticks and %lu switches; tick lateness p50 %s, p99 %s; %lu idle wakes "
                         "(%lu periods at an idle pace)", d->ticks, d->switches, p50, p99, d->idle_wakes,
                         d->idle_paced);
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
        idle_wake_close(d);
        tick_timer_close(&d->tick);
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
                daemon_notify_status(d);
                r = sd_event_loop(d->event);
                sd_notify(0, "STOPPING=1\nSTATUS=Restoring the CPUs");
                if (r < 0) {
                        log_error_errno(r, "event loop failed");
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
