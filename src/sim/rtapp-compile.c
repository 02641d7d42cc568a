/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Compiling an rt-app file (the tree of rtapp-json.c) into struct rtapp for
 * the simulation of rtapp.c, whose head states what each event means. Every
 * problem of the model is reported, each naming its line, before the file
 * is refused. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "sim/rtapp-builder.h"
#include "sim/rtapp-compile.h"
#include "sim/rtapp-json.h"
#include "sim/rtapp-model.h"

#define MAX_DURATION_S 1000000.0

/* rt-app recognises events by prefix ("run2", "sleep1"), testing "runtime"
 * before "run". */
static const struct {
        const char *prefix;
        enum ev_kind kind;
} event_prefixes[] = {
        { "lock", EV_LOCK },     { "unlock", EV_UNLOCK }, { "wait", EV_WAIT },     { "signal", EV_SIGNAL },
        { "broad", EV_BROAD },   { "sync", EV_SYNC },     { "sleep", EV_SLEEP },   { "runtime", EV_RUNTIME },
        { "run", EV_RUN },       { "timer", EV_TIMER },   { "suspend", EV_SUSPEND }, { "resume", EV_RESUME },
        { "mem", EV_MEM },       { "iorun", EV_IORUN },   { "yield", EV_YIELD },   { "barrier", EV_BARRIER },
        { "fork", EV_FORK },
};

/* Scheduling and placement properties: accepted, not simulated. */
static const char *const ignored_properties[] = {
        "policy",   "priority",  "cpus",          "util_min",      "util_max",   "taskgroup",
        "dl-runtime", "dl-period", "dl-deadline", "nodes_membind", "membind_nodes", "lock_order",
        "resources", "period",    "deadline",
};

static bool is_ignored_property(const char *key)
{
        for (size_t i = 0; i < sizeof(ignored_properties) / sizeof(ignored_properties[0]); i++)
                if (strcmp(key, ignored_properties[i]) == 0)
                        return true;
        return false;
}

static bool event_kind(const char *key, enum ev_kind *ret)
{
        for (size_t i = 0; i < sizeof(event_prefixes) / sizeof(event_prefixes[0]); i++)
                if (strncmp(key, event_prefixes[i].prefix, strlen(event_prefixes[i].prefix)) == 0) {
                        *ret = event_prefixes[i].kind;
                        return true;
                }
        return false;
}

static bool is_task_property(const char *key)
{
        return strcmp(key, "instance") == 0 || strcmp(key, "delay") == 0 || strcmp(key, "phases") == 0;
}

static int compile_timer(struct builder *b, unsigned task, const struct rtapp_json_member *m,
                         struct event *ev)
{
        const struct rtapp_json_member *period = NULL;
        const char *ref = "unknown";
        bool absolute = false, ok = true;
        unsigned idx;
        int r;

        if (!m->has_value || m->value.type != RTAPP_JSON_OBJECT) {
                rtapp_bad_value(b, m, "an object with \"ref\", \"period\" and \"mode\"");
                return 1;
        }
        for (size_t i = 0; i < m->value.object.n; i++) {
                const struct rtapp_json_member *k = &m->value.object.members[i];

                if (strcmp(k->key, "ref") == 0) {
                        ref = rtapp_get_string(k);
                        if (!ref) {
                                rtapp_bad_value(b, k, "a timer name (a string)");
                                ref = "unknown";
                                ok = false;
                        }
                } else if (strcmp(k->key, "period") == 0) {
                        period = k;
                        ok = rtapp_get_usec(b, k, 1, &ev->usec) && ok;
                } else if (strcmp(k->key, "mode") == 0) {
                        const char *mode = rtapp_get_string(k);

                        if (mode && strcmp(mode, "absolute") == 0) {
                                absolute = true;
                        } else if (!mode || strcmp(mode, "relative") != 0) {
                                rtapp_bad_value(b, k, "\"relative\" or \"absolute\"");
                                ok = false;
                        }
                } else {
                        rtapp_model_error(b, k->line,
                                          "\"%.40s\": unknown key \"%.40s\" (expected \"ref\", \"period\" or "
                                          "\"mode\")",
                                          m->key, k->key);
                        ok = false;
                }
        }
        if (!period) {
                rtapp_model_error(b, m->line, "\"%.40s\": expected a \"period\"", m->key);
                ok = false;
        }
        if (!ok)
                return 1;
        /* rt-app keys per-thread timers on the "unique" prefix too. */
        if (strncmp(ref, "unique", 6) == 0) {
                r = rtapp_interned(b, m, rtapp_intern_unique_timer(b, task, ref), &idx);
                if (r != 0)
                        return r;
                b->uniques[idx].absolute |= absolute;
                ev->unique = true;
                ev->ref = b->uniques[idx].slot;
        } else {
                r = rtapp_interned(b, m, rtapp_intern_shared_timer(b, ref), &idx);
                if (r != 0)
                        return r;
                b->shared[idx].absolute |= absolute;
                ev->ref = idx;
        }
        return 0;
}

/* The condition name of a wait or sync: {"ref": ..., "mutex": ...} or a
 * plain name. */
static const char *wait_ref(struct builder *b, const struct rtapp_json_member *m)
{
        const char *ref = NULL;
        bool ok = true;

        if (rtapp_get_string(m))
                return m->value.string;
        if (!m->has_value || m->value.type != RTAPP_JSON_OBJECT) {
                rtapp_bad_value(b, m, "an object with \"ref\" and \"mutex\", or a name");
                return NULL;
        }
        for (size_t i = 0; i < m->value.object.n; i++) {
                const struct rtapp_json_member *k = &m->value.object.members[i];

                if (strcmp(k->key, "ref") == 0) {
                        ref = rtapp_get_string(k);
                        if (!ref) {
                                rtapp_bad_value(b, k, "a condition name (a string)");
                                ok = false;
                        }
                } else if (strcmp(k->key, "mutex") == 0) {
                        if (!rtapp_get_string(k)) {
                                rtapp_bad_value(b, k, "a mutex name (a string)");
                                ok = false;
                        }
                } else {
                        rtapp_model_error(b, k->line,
                                          "\"%.40s\": unknown key \"%.40s\" (expected \"ref\" or \"mutex\")",
                                          m->key, k->key);
                        ok = false;
                }
        }
        if (ok && !ref) {
                rtapp_model_error(b, m->line, "\"%.40s\": expected a \"ref\"", m->key);
                ok = false;
        }
        return ok ? ref : NULL;
}

/* Appends one event. Model errors go to diag (the event is dropped);
 * returns 0 or -ENOMEM. */
static int compile_event(struct builder *b, unsigned task, const struct rtapp_json_member *m,
                         enum ev_kind kind)
{
        struct rtapp *ra = b->ra;
        struct task *tk = &ra->tasks[task];
        struct event ev = { .kind = kind, .line = m->line };
        const char *name;
        long long count;
        unsigned idx;
        int r;

        if (ra->nevents >= RTAPP_MAX_EVENTS) {
                rtapp_model_error(b, m->line, "expected at most %u events in a file", RTAPP_MAX_EVENTS);
                return 0;
        }
        switch (kind) {
        case EV_RUN:
        case EV_RUNTIME:
        case EV_SLEEP:
                if (!rtapp_get_usec(b, m, 0, &ev.usec))
                        return 0;
                break;
        case EV_MEM:
        case EV_IORUN:
                if (!rtapp_get_int(m, 0, LLONG_MAX, &count)) {
                        rtapp_bad_value(b, m, "a number of bytes (an integer >= 0)");
                        return 0;
                }
                break;
        case EV_LOCK:
        case EV_UNLOCK:
                if (!rtapp_get_string(m)) {
                        rtapp_bad_value(b, m, "a mutex name (a string)");
                        return 0;
                }
                break;
        case EV_YIELD:
                break;
        case EV_TIMER:
                r = compile_timer(b, task, m, &ev);
                if (r != 0)
                        return r < 0 ? r : 0;
                ra->has_timers = true;
                break;
        case EV_SUSPEND:
                name = m->has_value ? rtapp_get_string(m) : "";
                if (!name) {
                        rtapp_bad_value(b, m, "a name (a string) or nothing");
                        return 0;
                }
                /* Bare or empty: the thread waits on its own name. */
                r = rtapp_interned(b, m, rtapp_intern_cond(ra, name[0] ? name : tk->name), &ev.ref);
                if (r != 0)
                        return r < 0 ? r : 0;
                ra->conds[ev.ref].waited = true;
                break;
        case EV_WAIT:
        case EV_SYNC:
                name = wait_ref(b, m);
                if (!name)
                        return 0;
                r = rtapp_interned(b, m, rtapp_intern_cond(ra, name), &ev.ref);
                if (r != 0)
                        return r < 0 ? r : 0;
                ra->conds[ev.ref].waited = true;
                break;
        case EV_RESUME:
        case EV_SIGNAL:
        case EV_BROAD:
                name = rtapp_get_string(m);
                if (!name || !name[0]) {
                        rtapp_bad_value(b, m,
                                        kind == EV_RESUME ? "a task or suspend name (a non-empty string)"
                                                          : "a condition name (a non-empty string)");
                        return 0;
                }
                r = rtapp_interned(b, m, rtapp_intern_cond(ra, name), &ev.ref);
                if (r != 0)
                        return r < 0 ? r : 0;
                if (kind == EV_RESUME && rtapp_add_late(b, ra->nevents, task, name, m->line) < 0)
                        return -ENOMEM;
                break;
        case EV_BARRIER:
                name = rtapp_get_string(m);
                if (!name || !name[0]) {
                        rtapp_bad_value(b, m, "a barrier name (a non-empty string)");
                        return 0;
                }
                r = rtapp_interned(b, m, rtapp_intern_barrier(ra, name), &idx);
                if (r != 0)
                        return r < 0 ? r : 0;
                ev.ref = idx;
                ra->barriers[idx].users += tk->instances;
                break;
        case EV_FORK:
                name = rtapp_get_string(m);
                if (!name || !name[0]) {
                        rtapp_bad_value(b, m, "a task name (a non-empty string)");
                        return 0;
                }
                if (rtapp_add_late(b, ra->nevents, task, name, m->line) < 0)
                        return -ENOMEM;
                ev.slot = tk->nforks++;
                break;
        }
        if (array_grow((void **)&ra->events, ra->nevents, &ra->events_cap, sizeof(*ra->events), 8) < 0)
                return -ENOMEM;
        ra->events[ra->nevents++] = ev;
        return 0;
}

/* The events of a phase object (or of a task that is its own phase).
 * 'task_level': the task's own properties are handled by the caller. */
static int compile_phase(struct builder *b, unsigned task, const struct rtapp_json_member *pm,
                         bool task_level)
{
        struct rtapp *ra = b->ra;
        const struct rtapp_json *obj = &pm->value;
        struct phase ph = { .first_event = ra->nevents, .loop = 1 };
        bool has_events = false;
        int r;

        for (size_t i = 0; i < obj->object.n; i++) {
                const struct rtapp_json_member *m = &obj->object.members[i];
                enum ev_kind kind;

                if (task_level && (is_task_property(m->key) || strcmp(m->key, "loop") == 0))
                        continue;
                if (strcmp(m->key, "loop") == 0) {
                        if (!rtapp_get_int(m, -1, LLONG_MAX, &ph.loop) || ph.loop == 0)
                                rtapp_bad_value(b, m, "-1 (forever) or a count >= 1");
                } else if (is_ignored_property(m->key)) {
                        continue;
                } else if (is_task_property(m->key)) {
                        rtapp_model_error(b, m->line, "\"%.40s\" belongs to the task, not to a phase",
                                          m->key);
                } else if (event_kind(m->key, &kind)) {
                        has_events = true;
                        r = compile_event(b, task, m, kind);
                        if (r < 0)
                                return r;
                } else {
                        rtapp_model_error(b, m->line, "unknown event or property \"%.40s\"", m->key);
                }
        }
        if (!has_events) {
                rtapp_model_error(b, pm->line, "expected at least one event");
                return 0;
        }
        ph.nevents = ra->nevents - ph.first_event;
        if (array_grow((void **)&ra->phases, ra->nphases, &ra->phases_cap, sizeof(*ra->phases), 8) < 0)
                return -ENOMEM;
        ra->phases[ra->nphases++] = ph;
        return 0;
}

static void report_unknown_keys(struct builder *b, const struct rtapp_json *obj)
{
        for (size_t i = 0; i < obj->object.n; i++) {
                const struct rtapp_json_member *m = &obj->object.members[i];
                enum ev_kind kind;

                if (!is_task_property(m->key) && strcmp(m->key, "loop") != 0 &&
                    !is_ignored_property(m->key) && !event_kind(m->key, &kind))
                        rtapp_model_error(b, m->line, "unknown event or property \"%.40s\"", m->key);
        }
}

static int compile_task(struct builder *b, const struct rtapp_json_member *tm)
{
        struct rtapp *ra = b->ra;
        const struct rtapp_json_member *phases = NULL, *first_event = NULL;
        const struct rtapp_json *obj = &tm->value;
        struct task *tk;
        unsigned task;
        long long v;
        int dup, r;

        snprintf(b->where, sizeof(b->where), "task \"%.40s\"", tm->key);
        if (!tm->has_value || obj->type != RTAPP_JSON_OBJECT) {
                char got[64];

                rtapp_describe(tm, got, sizeof(got));
                rtapp_model_error(b, tm->line, "expected an object, got %s", got);
                return 0;
        }
        dup = rtapp_find_task(ra, tm->key);
        if (dup >= 0) {
                rtapp_model_error(b, tm->line, "defined twice (first at line %u)", ra->tasks[dup].line);
                return 0;
        }
        if (ra->ntasks >= RTAPP_MAX_NAMES) {
                rtapp_model_error(b, tm->line, "expected at most %u tasks", RTAPP_MAX_NAMES);
                return 0;
        }
        if (array_grow((void **)&ra->tasks, ra->ntasks, &ra->tasks_cap, sizeof(*ra->tasks), 8) < 0)
                return -ENOMEM;
        task = (unsigned)ra->ntasks;
        tk = &ra->tasks[task];
        *tk = (struct task){ .name = strdup(tm->key), .line = tm->line, .instances = 1, .loop = -1 };
        if (!tk->name)
                return -ENOMEM;
        ra->ntasks++;

        for (size_t i = 0; i < obj->object.n; i++) {
                const struct rtapp_json_member *m = &obj->object.members[i];
                enum ev_kind kind;

                if (strcmp(m->key, "instance") == 0) {
                        if (rtapp_get_int(m, 0, RTAPP_MAX_LANES, &v))
                                tk->instances = (unsigned)v;
                        else
                                rtapp_bad_value(b, m, "a number of threads (an integer 0-1024)");
                } else if (strcmp(m->key, "delay") == 0) {
                        rtapp_get_usec(b, m, 0, &tk->delay);
                } else if (strcmp(m->key, "loop") == 0) {
                        if (!rtapp_get_int(m, -1, LLONG_MAX, &tk->loop))
                                rtapp_bad_value(b, m, "-1 (forever) or a count >= 0");
                } else if (strcmp(m->key, "phases") == 0) {
                        if (phases)
                                rtapp_model_error(b, m->line, "\"phases\" given twice (first at line %u)",
                                                  phases->line);
                        else
                                phases = m;
                } else if (event_kind(m->key, &kind) && !is_ignored_property(m->key) && !first_event) {
                        first_event = m;
                }
        }
        ra->tasks[task].first_phase = ra->nphases;
        /* A task that is its own phase reports unknown keys in order with
         * its events. */
        if (!phases && first_event) {
                r = compile_phase(b, task, tm, true);
                if (r < 0)
                        return r;
                ra->tasks[task].nphases = ra->nphases - ra->tasks[task].first_phase;
                return 0;
        }
        report_unknown_keys(b, obj);
        if (!phases) {
                rtapp_model_error(b, tm->line, "expected events or \"phases\"");
        } else if (first_event) {
                rtapp_model_error(b, first_event->line,
                                  "\"%.40s\": events beside \"phases\" are never run; "
                                  "move them into a phase",
                                  first_event->key);
        } else if (!phases->has_value || phases->value.type != RTAPP_JSON_OBJECT ||
                   phases->value.object.n == 0) {
                rtapp_bad_value(b, phases, "an object of one or more phases");
        } else {
                for (size_t i = 0; i < phases->value.object.n; i++) {
                        const struct rtapp_json_member *pm = &phases->value.object.members[i];

                        snprintf(b->where, sizeof(b->where), "task \"%.40s\", phase \"%.40s\"", tm->key,
                                 pm->key);
                        if (!pm->has_value || pm->value.type != RTAPP_JSON_OBJECT) {
                                char got[64];

                                rtapp_describe(pm, got, sizeof(got));
                                rtapp_model_error(b, pm->line, "expected an object, got %s", got);
                                continue;
                        }
                        r = compile_phase(b, task, pm, false);
                        if (r < 0)
                                return r;
                }
        }
        ra->tasks[task].nphases = ra->nphases - ra->tasks[task].first_phase;
        return 0;
}

static void compile_global(struct builder *b, const struct rtapp_json_member *gm)
{
        struct rtapp *ra = b->ra;

        b->where[0] = '\0';
        if (!gm->has_value || gm->value.type != RTAPP_JSON_OBJECT) {
                rtapp_bad_value(b, gm, "an object");
                return;
        }
        snprintf(b->where, sizeof(b->where), "global");
        for (size_t i = 0; i < gm->value.object.n; i++) {
                const struct rtapp_json_member *m = &gm->value.object.members[i];
                double s;

                /* The other keys configure logging, calibration and the
                 * real scheduler: nothing to simulate. */
                if (strcmp(m->key, "duration") != 0)
                        continue;
                if (m->has_value && m->value.type == RTAPP_JSON_INT)
                        s = (double)m->value.integer;
                else if (m->has_value && m->value.type == RTAPP_JSON_FLOAT)
                        s = m->value.number;
                else
                        s = NAN;
                if (s == -1.0 || s == 0.0) {
                        ra->has_duration = false;
                } else if (s > 0.0 && s <= MAX_DURATION_S) {
                        ra->has_duration = true;
                        ra->end_us = (bl_usec_t)llround(s * 1e6);
                } else {
                        rtapp_bad_value(b, m, "a duration in s (-1, or a number 0-1000000)");
                }
        }
}

static int resolve_late(struct builder *b)
{
        struct rtapp *ra = b->ra;

        for (size_t i = 0; i < b->nlate; i++) {
                const struct late_ref *l = &b->late[i];
                struct event *ev = &ra->events[l->event];
                int target = rtapp_find_task(ra, l->name);

                snprintf(b->where, sizeof(b->where), "task \"%.40s\"", ra->tasks[l->task].name);
                if (ev->kind == EV_FORK) {
                        if (target < 0)
                                rtapp_model_error(b, l->line, "\"fork\": no task named \"%.40s\"", l->name);
                        else
                                ev->ref = (unsigned)target;
                } else if (target < 0 && !ra->conds[ev->ref].waited) {
                        rtapp_model_error(b, l->line,
                                          "\"resume\": no task and no suspend or wait named \"%.40s\"",
                                          l->name);
                }
        }
        return 0;
}

static bool task_loops_forever(const struct rtapp *ra, const struct task *tk)
{
        if (tk->loop < 0)
                return true;
        for (size_t p = 0; p < tk->nphases; p++)
                if (ra->phases[tk->first_phase + p].loop < 0)
                        return true;
        return false;
}

/* Lanes: every instance in file order, then the fork lanes. */
static int build_lanes(struct builder *b, unsigned tasks_line, bl_usec_t default_duration_us)
{
        struct rtapp *ra = b->ra;
        size_t nstatic = 0, nlanes, n = 0, timer = b->nshared;
        bool forever = false;

        for (size_t i = 0; i < ra->ntasks; i++)
                nstatic += ra->tasks[i].instances;
        nlanes = nstatic;
        for (size_t i = 0; i < ra->ntasks && nlanes <= RTAPP_MAX_LANES; i++)
                nlanes += (size_t)ra->tasks[i].instances * ra->tasks[i].nforks;
        b->where[0] = '\0';
        if (nlanes > RTAPP_MAX_LANES) {
                rtapp_model_error(b, tasks_line,
                                  "\"tasks\": expected at most %u threads (instances and forks), got more",
                                  RTAPP_MAX_LANES);
                return 0;
        }
        if (nlanes == 0) {
                rtapp_model_error(b, tasks_line,
                                  "\"tasks\": no thread to run (every task has \"instance\": 0)");
                return 0;
        }
        ra->lanes = calloc(nlanes, sizeof(*ra->lanes));
        if (!ra->lanes)
                return -ENOMEM;
        ra->w.nlanes = (unsigned)nlanes;
        for (size_t i = 0; i < ra->ntasks; i++)
                for (unsigned j = 0; j < ra->tasks[i].instances; j++)
                        ra->lanes[n++] = (struct lane){ .task = (unsigned)i, .instance = j };
        for (size_t l = 0; l < nstatic; l++) {
                const struct task *tk = &ra->tasks[ra->lanes[l].task];

                ra->lanes[l].first_child = (unsigned)n;
                for (size_t p = 0; p < tk->nphases; p++) {
                        const struct phase *ph = &ra->phases[tk->first_phase + p];

                        for (size_t e = 0; e < ph->nevents; e++) {
                                const struct event *ev = &ra->events[ph->first_event + e];
                                unsigned instance = 0;

                                if (ev->kind != EV_FORK)
                                        continue;
                                for (size_t k = nstatic; k < n; k++)
                                        instance += ra->lanes[k].task == ev->ref;
                                ra->lanes[n++] = (struct lane){ .task = ev->ref, .instance = instance,
                                                                .forked = true };
                        }
                }
        }
        for (size_t l = 0; l < nlanes; l++) {
                ra->lanes[l].first_timer = (unsigned)timer;
                timer += ra->tasks[ra->lanes[l].task].nunique;
                ra->tasks[ra->lanes[l].task].has_lanes = true;
        }
        ra->ntimers = timer;
        ra->timers = calloc(timer ? timer : 1, sizeof(*ra->timers));
        if (!ra->timers)
                return -ENOMEM;
        for (size_t i = 0; i < b->nshared; i++)
                ra->timers[i].absolute = b->shared[i].absolute;
        for (size_t i = 0; i < b->nuniques; i++)
                for (size_t l = 0; l < nlanes; l++)
                        if (ra->lanes[l].task == b->uniques[i].task)
                                ra->timers[ra->lanes[l].first_timer + b->uniques[i].slot].absolute =
                                        b->uniques[i].absolute;
        for (size_t i = 0; i < ra->ntasks; i++)
                forever |= ra->tasks[i].has_lanes && task_loops_forever(ra, &ra->tasks[i]);
        if (!ra->has_duration)
                ra->end_us = forever ? default_duration_us : RTAPP_MAX_UNTIMED_US;
        return 0;
}

void rtapp_free(struct rtapp *ra)
{
        if (!ra)
                return;
        for (size_t i = 0; i < ra->ntasks; i++)
                free(ra->tasks[i].name);
        for (size_t i = 0; i < ra->nconds; i++)
                free(ra->conds[i].name);
        for (size_t i = 0; i < ra->nbarriers; i++)
                free(ra->barriers[i].name);
        free(ra->tasks);
        free(ra->phases);
        free(ra->events);
        free(ra->conds);
        free(ra->barriers);
        free(ra->timers);
        free(ra->lanes);
        free(ra->name);
        free(ra);
}

/* Whole-tree checks and compilation; model errors are counted in diag. */
static int compile(struct builder *b, const struct rtapp_json *root, bl_usec_t default_duration_us)
{
        const struct rtapp_json_member *tasks = NULL, *global = NULL;
        int r;

        if (root->type != RTAPP_JSON_OBJECT) {
                rtapp_model_error(b, root->line, "expected an object with \"tasks\", got %s",
                                  rtapp_json_type_name(root->type));
                return 0;
        }
        for (size_t i = 0; i < root->object.n; i++) {
                const struct rtapp_json_member *m = &root->object.members[i];
                const struct rtapp_json_member **slot = NULL;

                /* "resources" is rt-app's legacy table; other keys are not
                 * rt-app's and it ignores them too. */
                if (strcmp(m->key, "tasks") == 0)
                        slot = &tasks;
                else if (strcmp(m->key, "global") == 0)
                        slot = &global;
                if (!slot)
                        continue;
                if (*slot)
                        rtapp_model_error(b, m->line, "\"%s\" given twice (first at line %u)", m->key,
                                          (*slot)->line);
                else
                        *slot = m;
        }
        if (global)
                compile_global(b, global);
        b->where[0] = '\0';
        if (!tasks) {
                rtapp_model_error(b, root->line, "expected a \"tasks\" object");
                return 0;
        }
        if (!tasks->has_value || tasks->value.type != RTAPP_JSON_OBJECT) {
                rtapp_bad_value(b, tasks, "an object of tasks");
                return 0;
        }
        for (size_t i = 0; i < tasks->value.object.n; i++) {
                r = compile_task(b, &tasks->value.object.members[i]);
                if (r < 0)
                        return r;
        }
        r = resolve_late(b);
        if (r < 0)
                return r;
        return build_lanes(b, tasks->line, default_duration_us);
}

int rtapp_compile(struct rtapp **ret, const char *filename, const char *text, size_t len,
                  bl_usec_t default_duration_us, struct bl_diag *diag)
{
        struct rtapp_json *root = NULL;
        struct builder b = { .filename = filename, .diag = diag };
        unsigned problems = diag_count(diag);
        struct rtapp *ra;
        int r;

        r = rtapp_json_parse(&root, filename, text, len, diag);
        if (r < 0)
                return r;
        ra = calloc(1, sizeof(*ra));
        if (!ra) {
                rtapp_json_free(root);
                return -ENOMEM;
        }
        b.ra = ra;
        r = compile(&b, root, default_duration_us);
        rtapp_builder_free(&b);
        rtapp_json_free(root);
        if (r >= 0 && diag_count(diag) != problems)
                r = -EINVAL;
        if (r < 0) {
                rtapp_free(ra);
                return r;
        }
        *ret = ra;
        return 0;
}
