/* SPDX-License-Identifier: GPL-2.0-or-later */
/* get KEY: one value of the status, for scripts. The keys are those of
 * "status --json" (the daemon's Describe()), dotted where that nests them,
 * so that a script can move between the two without a second vocabulary. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/client.h"
#include "ctl/verbs.h"

/* Prints the value of 'key' (or 'arg', the part after the key's prefix).
 * Returns 0, or -ENOENT when the daemon has no such member. */
typedef int (*get_fn)(const struct ctl_status *s, const char *arg);

static int get_levels(const struct ctl_status *s, const char *arg)
{
        for (char **l = s->levels; l && *l; l++)
                printf("%s%s", l == s->levels ? "" : " ", *l);
        putchar('\n');
        return 0;
}

static int get_demand(const struct ctl_status *s, const char *arg)
{
        printf("%g\n", s->demand);
        return 0;
}

/* 0 over D-Bus means "no level that way" (null in the JSON): an empty line. */
static void print_threshold(double v)
{
        if (v > 0)
                printf("%g\n", v);
        else
                putchar('\n');
}

static int get_up(const struct ctl_status *s, const char *arg)
{
        print_threshold(s->up_threshold);
        return 0;
}

static int get_down(const struct ctl_status *s, const char *arg)
{
        print_threshold(s->down_threshold);
        return 0;
}

static int get_temperature(const struct ctl_status *s, const char *arg)
{
        if (s->temperature >= 0)
                printf("%" PRIi32 "\n", s->temperature);
        else
                putchar('\n');
        return 0;
}

static int get_switches(const struct ctl_status *s, const char *arg)
{
        printf("%" PRIu64 "\n", s->switches);
        return 0;
}

static int get_holds(const struct ctl_status *s, const char *arg)
{
        for (size_t i = 0; i < s->n_holds; i++)
                printf("%s%" PRIu32, i ? " " : "", s->holds[i].id);
        putchar('\n');
        return 0;
}

static int get_time_in_level(const struct ctl_status *s, const char *arg)
{
        for (size_t i = 0; i < s->n_time_in_level; i++)
                if (strcmp(s->time_in_level[i].name, arg) == 0) {
                        printf("%" PRIu64 "\n", s->time_in_level[i].usec);
                        return 0;
                }
        return -ENOENT;
}

static int get_score(const struct ctl_status *s, const char *arg)
{
        for (size_t i = 0; i < s->n_scores; i++)
                if (strcmp(s->scores[i].name, arg) == 0) {
                        printf("%g\n", s->scores[i].value);
                        return 0;
                }
        return -ENOENT;
}

/* "cap_mc", "release_mc", "critical_mc". */
static int get_limit(const struct ctl_status *s, const char *arg)
{
        size_t len = strlen(arg);

        if (len <= 3 || strcmp(arg + len - 3, "_mc") != 0)
                return -ENOENT;
        for (size_t i = 0; i < s->n_limits; i++)
                if (strlen(s->limits[i].name) == len - 3 && strncmp(s->limits[i].name, arg, len - 3) == 0) {
                        printf("%" PRIi32 "\n", s->limits[i].mc);
                        return 0;
                }
        return -ENOENT;
}

#define STRING(field) offsetof(struct ctl_status, field), NULL

static const struct get_key {
        const char *key;        /* a prefix when it ends in '.': the rest names a member */
        size_t string;          /* without fn: where the string to print is in struct ctl_status */
        get_fn fn;
        const char *what;       /* for a prefix: the key as shown, NUL, what it is */
} keys[] = {
        { "mode", STRING(mode), "cluster, pair or mp" },
        { "mode_reason", STRING(mode_reason), "why that mode" },
        { "topology", STRING(topology), "how the kinds of core were told apart" },
        { "levels", 0, get_levels, "the levels, lowest first, separated by spaces" },
        { "level", STRING(level), "the level in force" },
        { "target_level", STRING(target_level), "the level the daemon is moving to" },
        { "demand", 0, get_demand, "the demand, in capacity units" },
        { "thresholds.up", 0, get_up, "the demand above which it goes up (empty at the top level)" },
        { "thresholds.down", 0, get_down, "the demand below which it goes down (empty at the lowest)" },
        { "scores.", 0, get_score, "scores.HEURISTIC\0one heuristic's demand" },
        { "thermal.state", STRING(thermal_state), "normal, capped or critical" },
        { "thermal.temperature_mc", 0, get_temperature, "the temperature in m°C (empty without a zone)" },
        { "thermal_limits.", 0, get_limit, "thermal_limits.LIMIT_mc\0cap, release or critical, in m°C" },
        { "holds", 0, get_holds, "the ids of the holds in force, separated by spaces" },
        { "switches", 0, get_switches, "switches since the daemon started" },
        { "time_in_level_usec.", 0, get_time_in_level, "time_in_level_usec.LEVEL\0µs spent at LEVEL" },
        { "last_reason", STRING(last_reason), "why the last switch happened" },
        { "backend", STRING(backend), "the backend that switches" },
        { "energy_model", STRING(energy_model), "the energy model in use and where it came from" },
};

/* Prints the key's value; -ENOENT as get_fn. */
static int print_key(const struct get_key *k, const struct ctl_status *s, const char *arg)
{
        const char *text;

        if (k->fn)
                return k->fn(s, arg);
        text = *(char *const *)((const char *)s + k->string);
        puts(text ? text : "");
        return 0;
}

static const struct get_key *find_key(const char *name, const char **arg)
{
        for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
                size_t len = strlen(keys[i].key);

                if (keys[i].key[len - 1] == '.' ? strncmp(name, keys[i].key, len) == 0 && name[len]
                                                 : strcmp(name, keys[i].key) == 0) {
                        *arg = name + (keys[i].key[len - 1] == '.' ? len : strlen(name));
                        return &keys[i];
                }
        }
        return NULL;
}

void get_keys_print(FILE *f)
{
        for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
                size_t len = strlen(keys[i].key);

                if (keys[i].key[len - 1] != '.')
                        fprintf(f, "  %-26s %s\n", keys[i].key, keys[i].what);
                else
                        fprintf(f, "  %-26s %s\n", keys[i].what, keys[i].what + strlen(keys[i].what) + 1);
        }
}

int verb_get(const struct ctl_args *a)
{
        _cleanup_(client_status_done) struct ctl_status s = { .temperature = -1 };
        const char *name = a->positional[0], *arg = NULL;
        const struct get_key *k = find_key(name, &arg);
        int status;

        /* Known or not is decided here, daemon or none: a typo is the script's fault. */
        if (!k) {
                fprintf(stderr, "switchctl: get: unknown key \"%s\"\nTry \"switchctl help get\".\n", name);
                return EXIT_USAGE;
        }
        status = client_fetch_status(&s);
        if (status != 0)
                return status;
        if (print_key(k, &s, arg) < 0) {
                fprintf(stderr, "switchctl: get: the daemon reports no \"%s\"\nTry \"switchctl status\".\n", name);
                return EXIT_USAGE;
        }
        return 0;
}

/* The keys for the completion: the fixed ones, and the members of the
 * prefixed ones the daemon reports when it runs (none when it does not). */
int verb_list_keys(const struct ctl_args *a)
{
        _cleanup_(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
        _cleanup_(client_status_done) struct ctl_status s = { .temperature = -1 };
        _cleanup_(sd_bus_unrefp) sd_bus *bus = NULL;
        bool up;

        up = sd_bus_open_system(&bus) >= 0 && client_read_status(bus, &s, &error) >= 0;
        for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
                size_t len = strlen(keys[i].key);

                if (keys[i].key[len - 1] != '.')
                        puts(keys[i].key);
                else if (up && keys[i].fn == get_score)
                        for (size_t j = 0; j < s.n_scores; j++)
                                printf("%s%s\n", keys[i].key, s.scores[j].name);
                else if (up && keys[i].fn == get_limit)
                        for (size_t j = 0; j < s.n_limits; j++)
                                printf("%s%s_mc\n", keys[i].key, s.limits[j].name);
                else if (up && keys[i].fn == get_time_in_level)
                        for (size_t j = 0; j < s.n_time_in_level; j++)
                                printf("%s%s\n", keys[i].key, s.time_in_level[j].name);
        }
        return 0;
}
