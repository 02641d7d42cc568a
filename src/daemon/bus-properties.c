/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bus service's properties, and the vtable that publishes them with
 * the methods (bus-methods.c) and the Switched signal. */

#include <string.h>
#include <systemd/sd-bus.h>

#include "daemon/bus-describe.h"
#include "daemon/bus-private.h"
#include "daemon/idle-wake.h"
#include "daemon/level.h"

static int temperature_mc(const struct bl_daemon *d)
{
        return d->sample.s.has_temp ? d->sample.s.temp_mc : -1;
}

static int get_mode(sd_bus *bus, const char *path, const char *interface, const char *property,
                    sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "s", mode_to_string(b->d->ladder.mode));
}

static int get_mode_reason(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "s", b->d->ladder.why);
}

static int get_level(sd_bus *bus, const char *path, const char *interface, const char *property,
                     sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        char name[BL_STATE_NAME_MAX];

        daemon_state_name(b->d, name, sizeof(name));
        return sd_bus_message_append(reply, "s", name);
}

static int get_target_level(sd_bus *bus, const char *path, const char *interface, const char *property,
                            sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        char name[BL_STATE_NAME_MAX];

        daemon_target_name(b->d, name, sizeof(name));
        return sd_bus_message_append(reply, "s", name);
}

static int get_levels(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        int r;

        r = sd_bus_message_open_container(reply, 'a', "s");
        for (unsigned i = 0; r >= 0 && i < b->d->ladder.nlevels; i++)
                r = sd_bus_message_append(reply, "s", b->d->ladder.levels[i].name);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_demand(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "d", b->d->demand);
}

static int get_threshold(sd_bus *bus, const char *path, const char *interface, const char *property,
                         sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        double up, down;

        bus_thresholds(b->d, &up, &down);
        return sd_bus_message_append(reply, "d", strcmp(property, "UpThreshold") == 0 ? up : down);
}

static int get_scores(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_scorer *s = bus_demand_scorer(b->d);
        int r;

        r = sd_bus_message_open_container(reply, 'a', "{sd}");
        for (unsigned i = 0; r >= 0 && s && i < s->n; i++)
                if (!s->disabled[i])
                        r = sd_bus_message_append(reply, "{sd}", s->ops[i]->name, s->last[i]);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_temperature(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "i", (int32_t)temperature_mc(b->d));
}

static int get_thermal_state(sd_bus *bus, const char *path, const char *interface, const char *property,
                             sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "s", daemon_thermal_state(b->d));
}

static int append_limit(sd_bus_message *reply, const char *name, const struct bl_limit *l)
{
        return sd_bus_message_append(reply, "(siss)", name, (int32_t)l->mc, limit_source_to_string(l->source),
                                     l->origin);
}

static int get_thermal_limits(sd_bus *bus, const char *path, const char *interface, const char *property,
                              sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_thermal_limits *l = &b->d->limits;
        int r;

        r = sd_bus_message_open_container(reply, 'a', "(siss)");
        if (r >= 0)
                r = append_limit(reply, "cap", &l->cap);
        if (r >= 0)
                r = append_limit(reply, "release", &l->release);
        if (r >= 0)
                r = append_limit(reply, "critical", &l->critical);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_holds(sd_bus *bus, const char *path, const char *interface, const char *property,
                     sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_holds *hs = &b->d->holds;
        int r;

        r = sd_bus_message_open_container(reply, 'a', "(usuisssttb)");
        for (unsigned i = 0; r >= 0 && i < hs->n; i++) {
                const struct bl_hold *h = &hs->h[i];

                r = sd_bus_message_append(reply, "(usuisssttb)", h->id, daemon_level_name(b->d, h->level), h->uid,
                                          h->pid, h->unit, h->owner, h->reason, h->since_wall, h->until_wall,
                                          (int)h->persist);
        }
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_backend(sd_bus *bus, const char *path, const char *interface, const char *property,
                       sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "s", b->d->backend_ops ? b->d->backend_ops->name : "");
}

static int get_topology(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "s", b->d->topo.how);
}

static int get_energy_model(sd_bus *bus, const char *path, const char *interface, const char *property,
                            sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        char text[512];

        model_in_use_describe(&b->d->energy, &b->d->ladder, text, sizeof(text));
        return sd_bus_message_append(reply, "s", text);
}

static int get_switches(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "t", (uint64_t)b->d->switches);
}

static int get_time_in_level(sd_bus *bus, const char *path, const char *interface, const char *property,
                             sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        bl_usec_t t[BL_MAX_LEVELS];
        int r;

        bus_time_in_levels(b->d, t);
        r = sd_bus_message_open_container(reply, 'a', "{st}");
        for (unsigned i = 0; r >= 0 && i < b->d->ladder.nlevels; i++)
                r = sd_bus_message_append(reply, "{st}", b->d->ladder.levels[i].name, (uint64_t)t[i]);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_last_reason(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;

        return sd_bus_message_append(reply, "s", b->d->last_reason);
}

static const char *battery_to_string(enum bl_battery b)
{
        return b == BL_BATTERY_YES ? "yes" : b == BL_BATTERY_NO ? "no" : "";
}

static int get_desktop(sd_bus *bus, const char *path, const char *interface, const char *property,
                       sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct bl_daemon *d = ((struct bl_bus *)userdata)->d;
        const char *value = "";

        if (strcmp(property, "PowerProfile") == 0)
                value = ppd_profile_to_string(d->desktop_in.profile);
        else if (strcmp(property, "PowerProfileSource") == 0)
                value = d->desktop_in.profile_source;
        else if (strcmp(property, "OnBattery") == 0)
                value = battery_to_string(d->desktop_in.battery);
        else if (strcmp(property, "ProfileAdjustment") == 0)
                value = d->profile.what;
        return sd_bus_message_append(reply, "s", value);
}

/* The hold that decides, and why it, of those in force: (0, "") when none. */
static int get_winning_hold(sd_bus *bus, const char *path, const char *interface, const char *property,
                            sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        const struct bl_daemon *d = ((struct bl_bus *)userdata)->d;
        const struct bl_hold *h = holds_current(&d->holds, d->cfg.hold_precedence);
        char why[BL_HOLD_WHY_MAX];

        holds_explain(&d->holds, d->cfg.hold_precedence, why, sizeof(why));
        return sd_bus_message_append(reply, "(us)", h ? h->id : 0, why);
}

static int get_switch_cost(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_switch_estimate *e = &b->d->cost;
        struct bl_switch_cost c;

        daemon_switch_cost(b->d, &c);
        return sd_bus_message_append(reply, "(ddudud)", c.latency_us, c.latency_per_cpu_us, e->n, e->last_us,
                                     e->last_ncpus, e->max_us);
}

static int get_settle(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_settle *s = &b->d->settle;

        return sd_bus_message_append(reply, "(tttuut)", (uint64_t)s->last_us, (uint64_t)(s->mean_us + 0.5),
                                     (uint64_t)s->max_us, s->windows, s->bounded, (uint64_t)s->discounted);
}

static int get_idle_wake(sd_bus *bus, const char *path, const char *interface, const char *property,
                         sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        char state[600];

        idle_wake_describe(b->d, state, sizeof(state));
        return sd_bus_message_append(reply, "(stt)", state, (uint64_t)b->d->idle_wakes, (uint64_t)b->d->idle_paced);
}

static int get_unreachable(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        const struct bl_daemon *d = b->d;
        int r;

        r = sd_bus_message_open_container(reply, 'a', "(ss)");
        for (unsigned i = 0; r >= 0 && i < d->ladder.nlevels && i < 64; i++)
                if (d->unreachable & (UINT64_C(1) << i))
                        r = sd_bus_message_append(reply, "(ss)", d->ladder.levels[i].name,
                                                  d->unreachable_why[i]);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_config_files(sd_bus *bus, const char *path, const char *interface, const char *property,
                            sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
        struct bl_bus *b = userdata;
        int r;

        r = sd_bus_message_open_container(reply, 'a', "s");
        for (unsigned i = 0; r >= 0 && i < b->d->files.n; i++)
                r = sd_bus_message_append(reply, "s", b->d->files.path[i]);
        return r < 0 ? r : sd_bus_message_close_container(reply);
}

const sd_bus_vtable bus_vtable[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("Mode", "s", get_mode, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("ModeReason", "s", get_mode_reason, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Level", "s", get_level, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("TargetLevel", "s", get_target_level, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("Levels", "as", get_levels, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        /* These change every tick: read them, do not wait for signals. */
        SD_BUS_PROPERTY("Demand", "d", get_demand, 0, 0),
        SD_BUS_PROPERTY("UpThreshold", "d", get_threshold, 0, 0),
        SD_BUS_PROPERTY("DownThreshold", "d", get_threshold, 0, 0),
        SD_BUS_PROPERTY("Scores", "a{sd}", get_scores, 0, 0),
        SD_BUS_PROPERTY("Temperature", "i", get_temperature, 0, 0),
        SD_BUS_PROPERTY("ThermalState", "s", get_thermal_state, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("ThermalLimits", "a(siss)", get_thermal_limits, 0,
                        SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("Holds", "a(usuisssttb)", get_holds, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("WinningHold", "(us)", get_winning_hold, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        /* What power-profiles-daemon and UPower say ("" where nobody does). */
        SD_BUS_PROPERTY("PowerProfile", "s", get_desktop, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("PowerProfileSource", "s", get_desktop, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("OnBattery", "s", get_desktop, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("ProfileAdjustment", "s", get_desktop, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("Backend", "s", get_backend, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Topology", "s", get_topology, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        /* Changes on reload, which callers ask for: read it. */
        SD_BUS_PROPERTY("EnergyModel", "s", get_energy_model, 0, 0),
        SD_BUS_PROPERTY("Switches", "t", get_switches, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("TimeInLevel", "a{st}", get_time_in_level, 0,
                        SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
        SD_BUS_PROPERTY("LastReason", "s", get_last_reason, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("ConfigFiles", "as", get_config_files, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        /* Change with every switch and settle: read them. */
        SD_BUS_PROPERTY("SwitchCost", "(ddudud)", get_switch_cost, 0, 0),
        SD_BUS_PROPERTY("Settle", "(tttuut)", get_settle, 0, 0),
        SD_BUS_PROPERTY("Unreachable", "a(ss)", get_unreachable, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_PROPERTY("IdleWake", "(stt)", get_idle_wake, 0, 0),
        /* Unprivileged: sd-bus would otherwise demand CAP_SYS_ADMIN; the
         * handlers decide who may do what. */
        SD_BUS_METHOD_WITH_ARGS("Hold", SD_BUS_ARGS("s", level, "t", duration_usec, "s", reason),
                                SD_BUS_RESULT("u", id), bus_method_hold, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_ARGS("HoldWithFlags",
                                SD_BUS_ARGS("s", level, "t", duration_usec, "s", reason, "t", flags),
                                SD_BUS_RESULT("u", id), bus_method_hold_with_flags, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_ARGS("Release", SD_BUS_ARGS("u", id), SD_BUS_NO_RESULT, bus_method_release,
                                SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_ARGS("ReleaseAll", SD_BUS_NO_ARGS, SD_BUS_RESULT("u", count), bus_method_release_all,
                                SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_ARGS("Reload", SD_BUS_NO_ARGS, SD_BUS_NO_RESULT, bus_method_reload,
                                SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_ARGS("History", SD_BUS_ARGS("u", n), SD_BUS_RESULT("a(ttsss)", switches),
                                bus_method_history, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_ARGS("Describe", SD_BUS_NO_ARGS, SD_BUS_RESULT("s", json), bus_method_describe,
                                SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_SIGNAL_WITH_ARGS("Switched", SD_BUS_ARGS("s", from, "s", to, "s", reason), 0),
        SD_BUS_VTABLE_END,
};
