/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loop's handlers: the tick (sample, decide, start a switch), the end
 * of a switch, and signals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "core/tick-jitter.h"
#include "daemon/actions.h"
#include "daemon/events.h"
#include "daemon/idle-wake.h"
#include "daemon/level.h"
#include "daemon/loop.h"
#include "daemon/message-ids.h"

/* Every change of the thermal state is said, with the reading behind it:
 * one forced by a sensor gone wrong showed only in switch reasons. */
static void thermal_changed(struct bl_daemon *d, const char *before)
{
        const char *now = daemon_thermal_state(d);
        const struct bl_sample *s = &d->sample.s;
        const struct bl_engine_params *p;

        if (strcmp(before, now) == 0)
                return;
        /* Only now: the fields are a large struct to clear, every tick. */
        struct log_fields f = LOG_FIELDS_INIT;

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
void daemon_switch_done(struct switch_job *job, void *userdata)
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
                daemon_mark_unreachable(d, job->detail);
                goto out;
        }
        if (d->failed_repeats > 0)
                log_notice("switch %s went through after failing %u more times the same way",
                           d->inflight_changes, d->failed_repeats);
        d->failed_detail[0] = '\0';
        d->failed_repeats = 0;
        d->level_unapplied = false;
        daemon_measure(d, job);
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
        history_add(&d->history, at, daemon_wall_usec(), from, to, d->last_reason);
        daemon_changed(d, BL_CHANGE_SWITCHED);
        thermal_changed(d, thermal_before);
        daemon_notify_status(d);
out:
        after_switch(d);
}

/* A source that reads badly, or well again, is worth a line; one that
 * stays bad is not worth one a tick. */
static void log_sample_problems(struct bl_daemon *d)
{
        static const char *const what[SAMPLER_PROBLEMS] = {
                [SAMPLER_PROBLEM_STAT] = "/proc/stat",
                [SAMPLER_PROBLEM_PSI] = "/proc/pressure/cpu",
                [SAMPLER_PROBLEM_LOADAVG] = "/proc/loadavg",
                [SAMPLER_PROBLEM_FREQ] = "cpufreq scaling_cur_freq",
                [SAMPLER_PROBLEM_THERMAL] = "the thermal zones",
                [SAMPLER_PROBLEM_COUNTERS] = "the hardware counters",
        };
        bl_cpumask missing = d->known_online;
        char list[256];

        for (unsigned k = SAMPLER_PROBLEM_STAT + 1; k < SAMPLER_PROBLEMS; k++) {
                const char *now = d->sampler.problem[k];

                /* Both empty, nearly every tick: no strcmp() call for it. */
                if (now[0] == '\0' ? d->problem_said[k][0] == '\0' : strcmp(now, d->problem_said[k]) == 0)
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
        cpumask_andnot(&missing, &d->sampler.cur.cpus);
        if (cpumask_empty(&missing)) {
                if (d->missing_lines >= 2)
                        log_info("/proc/stat has a line for every CPU the daemon left online again");
                d->missing_lines = 0;
        } else if (++d->missing_lines == 2) {
                cpumask_format(&missing, list, sizeof(list));
                log_warning("/proc/stat has no line for CPUs %s, which the daemon left online: their load "
                            "goes unseen", list);
        }
}

/* What a tick read, for log_level = debug: whoever tunes on a new kernel
 * needs to see which CPUs read busy, and what the pressure was. */
void daemon_log_sample(const struct bl_daemon *d, const char *what)
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
                daemon_log_sample(d, "read");
        /* What the last switch left behind is not load (core/settle.h). */
        settling = settle_filter(&d->settle, &d->sample, now);
        if (settling && log_enabled(LOG_DEBUG))
                daemon_log_sample(d, "settling");
        if (d->level_unapplied && now >= d->retry_after && !daemon_switching(d))
                events_reapply(d, "the level was not applied");

        daemon_sync_holds(d, now);
        /* Reasons of ticks that switch nothing only go to the debug log. */
        controller_explain(&d->ctl, log_enabled(LOG_DEBUG));
        changes = controller_decide(&d->ctl, &d->sample.s, now, d->decisions);
        daemon_note_target(d);
        daemon_log_scoring_problems(d);
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
        daemon_start_switch(d, now);
}

/* How many full-rate ticks one phase against the kernel's jiffy lasts
 * (core/tick-jitter.h): a new phase is a re-arm of the timer, and a draw
 * every tick was a system call every tick. Over eight ticks the phase still
 * moves by up to eight tenths of an interval. */
#define JITTER_TICKS 8

static int on_tick(struct tick_timer *t, bl_usec_t usec, void *userdata)
{
        struct bl_daemon *d = userdata;
        const bl_usec_t full_rate = daemon_full_rate(&d->cfg);
        uint64_t now;
        bl_usec_t next, period;
        bool jitter;
        int r;

        r = sd_event_now(d->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;
        /* Decide on the tick's due time, not the wakeup's, so that delays
         * count whole sample intervals as they do in blsim. Backed off, the
         * machine is idle and the sample ends when it is read, or a late
         * wakeup would read as busy time. */
        if (d->interval > full_rate)
                usec = now;
        else
                d->lateness[now > usec ? (now - usec) / BL_LATENESS_BIN_USEC < BL_LATENESS_BINS ?
                                          (now - usec) / BL_LATENESS_BIN_USEC : BL_LATENESS_BINS - 1 : 0]++;
        if (!events_resumed(d, now)) {
                events_wall_clock(d, now);
                decide(d, usec);
        }
        /* The controller says when the next decision is due (later while the
         * machine is idle), at random phases against the kernel's jiffy
         * (core/tick-jitter.h); a testbed's counters move in steps the jitter
         * would alias with. */
        next = controller_next_interval(&d->ctl, &d->sample.s);
        idle_wake_update(d, now, next);
        jitter = next <= full_rate && d->sampler_opened && sampler_own_kernel(&d->sampler);
        if (next == d->interval && (!jitter || tick_timer_expired(t) < JITTER_TICKS))
                return 0;
        if (next != d->interval)
                log_debug("sampling every %.1f ms", (double)next / BL_USEC_PER_MSEC);
        d->interval = next;
        period = next;
        if (jitter)
                period += tick_jitter_next(&d->jitter_state, (uint64_t)getpid(), next);
        /* Behind (a stopped process, a slow write): the missed ticks are
         * skipped rather than fired back to back. */
        return tick_timer_arm(t, usec + period > now ? usec + period : now + period, period);
}

int daemon_tick_now(struct bl_daemon *d)
{
        uint64_t now;
        int r;

        r = sd_event_now(d->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;
        return on_tick(&d->tick, now, d);
}

int daemon_on_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
        struct bl_daemon *d = userdata;

        if (si->ssi_signo == SIGHUP) {
                (void)daemon_reload(d);
                return 0;
        }
        return sd_event_exit(d->event, 0);
}

int daemon_start_ticks(struct bl_daemon *d, bl_usec_t now)
{
        int r;

        d->interval = daemon_full_rate(&d->cfg);
        r = tick_timer_open(&d->tick, d->event, on_tick, d);
        if (r < 0)
                return r;
        return tick_timer_arm(&d->tick, now + d->interval, d->interval);
}
