/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "core/config.h"
#include "core/ini-reader.h"

#define DEFAULT_HEURISTIC "headroom"
#define POLICY_PREFIX "policy."
#define PROFILE_PREFIX "profile."

struct choice {
        const char *name;
        int value;
};

static const struct choice mode_choices[] = {
        { "auto", BL_MODE_AUTO },
        { "cluster", BL_MODE_CLUSTER },
        { "pair", BL_MODE_PAIR },
        { "mp", BL_MODE_MP },
        { NULL, 0 },
};

static const struct choice backend_choices[] = {
        { "auto", BL_BACKEND_AUTO },
        { "switcher", BL_BACKEND_SWITCHER },
        { "hotplug", BL_BACKEND_HOTPLUG },
        { "cpuset", BL_BACKEND_CPUSET },
        { "cpufreq", BL_BACKEND_CPUFREQ },
        { "dryrun", BL_BACKEND_DRYRUN },
        { NULL, 0 },
};

static const struct choice log_level_choices[] = {
        { "err", LOG_ERR },
        { "warning", LOG_WARNING },
        { "notice", LOG_NOTICE },
        { "info", LOG_INFO },
        { "debug", LOG_DEBUG },
        { NULL, 0 },
};

static const struct choice auto_mode_choices[] = {
        { "cluster", BL_MODE_CLUSTER },
        { "mp", BL_MODE_MP },
        { NULL, 0 },
};

static const struct choice bool_choices[] = {
        { "no", 0 },
        { "yes", 1 },
        { NULL, 0 },
};

static const struct choice cpuset_manager_choices[] = {
        { "auto", BL_CPUSET_MANAGER_AUTO },
        { "systemd", BL_CPUSET_MANAGER_SYSTEMD },
        { "cgroupfs", BL_CPUSET_MANAGER_CGROUPFS },
        { NULL, 0 },
};

static const struct choice precedence_choices[] = {
        { "newest", BL_HOLD_NEWEST },
        { "lowest", BL_HOLD_LOWEST },
        { "highest", BL_HOLD_HIGHEST },
        { NULL, 0 },
};

static const struct choice combine_choices[] = {
        { "max", BL_COMBINE_MAX },
        { "weighted", BL_COMBINE_WEIGHTED },
        { NULL, 0 },
};

enum key_kind {
        KIND_CHOICE,
        KIND_UINT,              /* an integer in [min, max] */
        KIND_TEMP,              /* auto, or degrees Celsius, decimals allowed, in [min, max]; stored in m°C */
        KIND_HEURISTICS,
        KIND_ZONES,
        KIND_PATH,              /* an absolute path */
        KIND_MODEL,             /* auto, none or an absolute path */
        KIND_CGROUPS,           /* cgroup paths relative to the cgroup root */
};

struct key_desc {
        const char *section;
        const char *name;
        enum key_kind kind;
        long min, max;
        const char *what;       /* KIND_UINT, KIND_TEMP: what "expected" names */
        const struct choice *choices;
};

static const struct key_desc keys[BL_CONFIG_NKEYS] = {
        [BL_KEY_MODE] = { "daemon", "mode", KIND_CHOICE, .choices = mode_choices },
        [BL_KEY_BACKEND] = { "daemon", "backend", KIND_CHOICE, .choices = backend_choices },
        [BL_KEY_SAMPLE_INTERVAL_MS] = { "daemon", "sample_interval_ms", KIND_UINT, 5, 1000,
                                        "an integer 5-1000 (ms)", NULL },
        [BL_KEY_IDLE_SAMPLE_INTERVAL_MS] = { "daemon", "idle_sample_interval_ms", KIND_UINT, 0, 10000,
                                             "an integer 0-10000 (ms, 0 = off)", NULL },
        [BL_KEY_LOG_LEVEL] = { "daemon", "log_level", KIND_CHOICE, .choices = log_level_choices },
        [BL_KEY_AUTO_MODE] = { "daemon", "auto_mode", KIND_CHOICE, .choices = auto_mode_choices },
        [BL_KEY_HEURISTICS] = { "policy", "heuristics", KIND_HEURISTICS },
        [BL_KEY_COMBINE] = { "policy", "combine", KIND_CHOICE, .choices = combine_choices },
        [BL_KEY_PLUGIN_DIR] = { "policy", "plugin_dir", KIND_PATH },
        [BL_KEY_ENERGY_MODEL] = { "policy", "energy_model", KIND_MODEL },
        [BL_KEY_UP_THRESHOLD] = { "hysteresis", "up_threshold", KIND_UINT, 1, 100,
                                  "a percentage 1-100", NULL },
        [BL_KEY_DOWN_THRESHOLD] = { "hysteresis", "down_threshold", KIND_UINT, 0, 99,
                                    "a percentage 0-99", NULL },
        [BL_KEY_UP_DELAY_MS] = { "hysteresis", "up_delay_ms", KIND_UINT, 0, 10000,
                                 "an integer 0-10000 (ms)", NULL },
        [BL_KEY_DOWN_DELAY_MS] = { "hysteresis", "down_delay_ms", KIND_UINT, 0, 60000,
                                   "an integer 0-60000 (ms)", NULL },
        [BL_KEY_MIN_RESIDENCY_MS] = { "hysteresis", "min_residency_ms", KIND_UINT, 0, 60000,
                                      "an integer 0-60000 (ms)", NULL },
        [BL_KEY_MAX_SWITCH_RATE_HZ] = { "hysteresis", "max_switch_rate_hz", KIND_UINT, 0, 1000,
                                        "an integer 0-1000 (Hz, 0 = unlimited)", NULL },
        [BL_KEY_BREAK_EVEN] = { "hysteresis", "break_even", KIND_CHOICE, .choices = bool_choices },
        [BL_KEY_MP_CLIMB_LOADED] = { "hysteresis", "mp_climb_loaded", KIND_CHOICE, .choices = bool_choices },
        [BL_KEY_ZONES] = { "thermal", "zones", KIND_ZONES },
        [BL_KEY_CAP_TEMP_C] = { "thermal", "cap_temp_c", KIND_TEMP, 20, 150,
                                "auto or a temperature 20-150 (degrees Celsius)", NULL },
        [BL_KEY_RELEASE_TEMP_C] = { "thermal", "release_temp_c", KIND_TEMP, 20, 150,
                                    "auto or a temperature 20-150 (degrees Celsius)", NULL },
        [BL_KEY_CRITICAL_TEMP_C] = { "thermal", "critical_temp_c", KIND_TEMP, 20, 150,
                                     "auto or a temperature 20-150 (degrees Celsius)", NULL },
        [BL_KEY_ALLOW_USERS] = { "holds", "allow_users", KIND_CHOICE, .choices = bool_choices },
        [BL_KEY_MAX_DURATION_S] = { "holds", "max_duration_s", KIND_UINT, 1, 604800,
                                    "an integer 1-604800 (seconds)", NULL },
        [BL_KEY_HOLD_PRECEDENCE] = { "holds", "precedence", KIND_CHOICE, .choices = precedence_choices },
        [BL_KEY_CPUSET_GROUPS] = { "cpuset", "groups", KIND_CGROUPS },
        [BL_KEY_CPUSET_MANAGER] = { "cpuset", "manager", KIND_CHOICE, .choices = cpuset_manager_choices },
};

/* The keys of a [profile.NAME] section; each sets the section's one
 * adjustment, so the last one set applies. */
static const char *const profile_keys[] = { "bias_pct", "cap", "hold_top", NULL };

static const char *const main_sections[] = { "daemon", "policy", "hysteresis", "thermal", "holds", "cpuset",
                                              NULL };

static bool streq(const char *a, const char *b)
{
        return strcmp(a, b) == 0;
}

static const char *choice_name(const struct choice *ch, int value)
{
        for (; ch->name; ch++)
                if (ch->value == value)
                        return ch->name;
        return "?";
}

static bool choice_parse(const struct choice *ch, const char *text, long long *ret)
{
        for (; ch->name; ch++)
                if (streq(ch->name, text)) {
                        *ret = ch->value;
                        return true;
                }
        return false;
}

/* "a, b, c or d": how people list alternatives. */
static void choice_format(const struct choice *ch, char *buf, size_t size)
{
        size_t used = 0;

        buf[0] = '\0';
        for (unsigned i = 0; ch[i].name && used < size; i++) {
                const char *sep = i == 0 ? "" : ch[i + 1].name ? ", " : " or ";

                used += (size_t)snprintf(buf + used, size - used, "%s%s", sep, ch[i].name);
        }
}

const char *backend_kind_to_string(enum bl_backend_kind b)
{
        return choice_name(backend_choices, (int)b);
}

const char *log_level_to_string(int level)
{
        return choice_name(log_level_choices, level);
}

const char *cpuset_manager_to_string(enum bl_cpuset_manager m)
{
        return choice_name(cpuset_manager_choices, (int)m);
}

static unsigned heuristic_nparams(const struct bl_heuristic_ops *ops)
{
        return ops->nparams < BL_POLICY_MAX_PARAMS ? ops->nparams : BL_POLICY_MAX_PARAMS;
}

static struct bl_heuristic_settings *known_find(struct bl_config *c, const char *name)
{
        for (unsigned i = 0; i < c->nknown; i++)
                if (streq(c->known[i].ops->name, name))
                        return &c->known[i];
        return NULL;
}

/* Adds the heuristics of 'table' not yet known, at their defaults. Names
 * that do not fit a struct bl_heuristic_conf cannot be selected, so they are
 * left out rather than truncated into another name. */
static void known_sync(struct bl_config *c, const struct bl_heuristic_ops *const *table)
{
        for (; table && *table && c->nknown < BL_MAX_KNOWN_HEURISTICS; table++) {
                const struct bl_heuristic_ops *ops = *table;
                struct bl_heuristic_settings *h;

                if (strlen(ops->name) >= BL_NAME_MAX || known_find(c, ops->name))
                        continue;
                h = &c->known[c->nknown++];
                memset(h, 0, sizeof(*h));
                h->ops = ops;
                h->weight = 1.0;
                for (unsigned i = 0; i < heuristic_nparams(ops); i++)
                        h->params[i] = ops->params[i].def;
        }
}

static void known_format(const struct bl_config *c, char *buf, size_t size)
{
        size_t used = 0;

        buf[0] = '\0';
        for (unsigned i = 0; i < c->nknown && used < size; i++)
                used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
                                         c->known[i].ops->name);
}

/* The selected heuristics take the settings of their [policy.NAME]
 * sections, wherever those appeared. */
static void resolve_heuristics(struct bl_config *c)
{
        for (unsigned i = 0; i < c->nheuristics; i++) {
                struct bl_heuristic_conf *h = &c->heuristics[i];
                const struct bl_heuristic_settings *s = known_find(c, h->name);

                if (!s)
                        continue;
                h->ops = s->ops;
                h->weight = s->weight;
                memcpy(h->params, s->params, sizeof(h->params));
        }
}

void config_init(struct bl_config *c, const struct bl_heuristic_ops *const *table)
{
        const struct bl_heuristic_settings *def;

        memset(c, 0, sizeof(*c));
        c->mode = BL_MODE_AUTO;
        c->backend = BL_BACKEND_AUTO;
        c->sample_interval_ms = 10;
        c->idle_sample_interval_ms = 1000;
        c->log_level = LOG_INFO;
        c->auto_mode = BL_MODE_CLUSTER;

        known_sync(c, table);
        def = known_find(c, DEFAULT_HEURISTIC);
        if (def) {
                c->nheuristics = 1;
                snprintf(c->heuristics[0].name, sizeof(c->heuristics[0].name), "%s", def->ops->name);
        }
        c->combine = BL_COMBINE_MAX;
        snprintf(c->energy_model, sizeof(c->energy_model), "auto");

        c->up_threshold = 100;
        c->down_threshold = 90;
        c->up_delay_ms = 0;
        c->down_delay_ms = 50;
        c->min_residency_ms = 0;
        c->max_switch_rate_hz = 20;
        c->break_even = true;
        c->mp_climb_loaded = true;

        c->zones_auto = true;
        c->nzones = 0;
        c->cap_temp_mc = BL_CAP_TEMP_DEFAULT_MC;
        c->release_temp_mc = BL_RELEASE_TEMP_DEFAULT_MC;
        c->critical_temp_mc = BL_CRITICAL_TEMP_DEFAULT_MC;
        c->cap_temp_auto = true;
        c->release_temp_auto = true;
        c->critical_temp_auto = true;

        c->holds_allow_users = false;
        c->holds_max_duration_s = 3600;
        c->hold_precedence = BL_HOLD_NEWEST;
        profile_conf_init(c->profiles);

        c->ncpuset_groups = 2;
        snprintf(c->cpuset_groups[0], sizeof(c->cpuset_groups[0]), "system.slice");
        snprintf(c->cpuset_groups[1], sizeof(c->cpuset_groups[1]), "user.slice");
        c->cpuset_manager = BL_CPUSET_MANAGER_AUTO;

        resolve_heuristics(c);
}

static const char *skip_space(const char *s)
{
        while (isspace((unsigned char)*s))
                s++;
        return s;
}

/* Decimal only: optional sign, digits, optional surrounding whitespace.
 * Huge values saturate, which keeps them out of every range. */
static bool parse_integer(const char *text, long long *ret)
{
        const char *s = skip_space(text);
        bool negative = false;
        long long v = 0;

        if (*s == '-' || *s == '+')
                negative = *s++ == '-';
        if (!isdigit((unsigned char)*s))
                return false;
        for (; isdigit((unsigned char)*s); s++)
                if (v < 1000000000000000LL)
                        v = v * 10 + (*s - '0');
        if (*skip_space(s) != '\0')
                return false;
        *ret = negative ? -v : v;
        return true;
}

/* Like parse_integer() with an optional fraction ("84.5"). Parsed by hand
 * because strtod() would also take exponents, hex and the locale's decimal
 * point. */
static bool parse_number(const char *text, double *ret)
{
        const char *s = skip_space(text);
        bool negative = false;
        double v = 0, scale = 1;

        if (*s == '-' || *s == '+')
                negative = *s++ == '-';
        if (!isdigit((unsigned char)*s))
                return false;
        for (; isdigit((unsigned char)*s); s++)
                v = v * 10 + (*s - '0');
        if (*s == '.') {
                s++;
                if (!isdigit((unsigned char)*s))
                        return false;
                for (; isdigit((unsigned char)*s); s++) {
                        scale /= 10;
                        v += (*s - '0') * scale;
                }
        }
        if (*skip_space(s) != '\0')
                return false;
        *ret = negative ? -v : v;
        return true;
}

static int celsius_to_mc(double celsius)
{
        return (int)(celsius * 1000 + (celsius < 0 ? -0.5 : 0.5));
}

/* m°C as degrees with only the decimals needed: 85000 -> "85", 84500 -> "84.5". */
static void mc_format(int mc, char *buf, size_t size)
{
        unsigned magnitude = mc < 0 ? -(unsigned)mc : (unsigned)mc;
        size_t len;

        snprintf(buf, size, "%s%u.%03u", mc < 0 ? "-" : "", magnitude / 1000, magnitude % 1000);
        len = strlen(buf);
        while (len > 0 && buf[len - 1] == '0')
                buf[--len] = '\0';
        if (len > 0 && buf[len - 1] == '.')
                buf[--len] = '\0';
}

/* "1-10000", or "-5 to 5" when a minus sign would make that ambiguous. */
static void range_format(double min, double max, char *buf, size_t size)
{
        snprintf(buf, size, min < 0 ? "%g to %g" : "%g-%g", min, max);
}

struct parser {
        struct bl_config *c;
        const char *filename;
        unsigned line;
        struct bl_diag *diag;
        unsigned problems;
        /* The line each key was last set on in this file (0: not yet); a
         * heuristic's keys by [policy.NAME]: weight first, then its params. */
        unsigned set_at[BL_CONFIG_NKEYS];
        unsigned heuristic_set_at[BL_MAX_KNOWN_HEURISTICS][1 + BL_POLICY_MAX_PARAMS];
        /* [profile.NAME]: the line and key that last set its adjustment */
        unsigned profile_set_at[BL_PROFILE_NSECTIONS];
        const char *profile_set_by[BL_PROFILE_NSECTIONS];
};

static void report(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(struct parser *p, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        diag_atv(p->diag, p->filename, p->line, fmt, ap);
        va_end(ap);
        p->problems++;
}

/* A key set twice in one file is legal (the last one applies), but usually
 * what an edit left behind: said, naming both lines, and not a problem. */
static void note_set(struct parser *p, unsigned *set_at, const char *section, const char *name)
{
        if (*set_at)
                diag_warn_at(p->diag, p->filename, p->line,
                             "[%s]: %s: set again (also on line %u); this line's value applies", section, name,
                             *set_at);
        *set_at = p->line;
}

/* Edit distance with adjacent swaps ("optimal string alignment"), enough
 * to catch the usual typos; names longer than 64 are not compared. */
static unsigned edit_distance(const char *a, const char *b)
{
        unsigned rows[3][65], *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
        size_t la = strlen(a), lb = strlen(b);

        if (la > 64 || lb > 64)
                return UINT_MAX;
        for (size_t j = 0; j <= lb; j++)
                prev[j] = (unsigned)j;
        for (size_t i = 1; i <= la; i++) {
                cur[0] = (unsigned)i;
                for (size_t j = 1; j <= lb; j++) {
                        unsigned cost = a[i - 1] != b[j - 1], best = prev[j - 1] + cost;

                        if (prev[j] + 1 < best)
                                best = prev[j] + 1;
                        if (cur[j - 1] + 1 < best)
                                best = cur[j - 1] + 1;
                        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                            prev2[j - 2] + 1 < best)
                                best = prev2[j - 2] + 1;
                        cur[j] = best;
                }
                unsigned *t = prev2;
                prev2 = prev;
                prev = cur;
                cur = t;
        }
        return prev[lb];
}

struct key_hint {
        const char *name;               /* the unknown key */
        size_t len;                     /* its length */
        const char *section;            /* where it was written */
        char elsewhere[160];            /* the sections that have it as written */
        const char *near;               /* the closest known key, or NULL */
        unsigned near_distance;
        char near_section[BL_NAME_MAX + sizeof(PROFILE_PREFIX)];   /* its section */
};

/* One known key, 'name' of [PREFIX SECTION]. */
static void hint_consider(struct key_hint *h, const char *prefix, const char *section, const char *name)
{
        char full[BL_NAME_MAX + sizeof(PROFILE_PREFIX)];
        size_t len;
        unsigned d;

        snprintf(full, sizeof(full), "%s%s", prefix, section);
        if (streq(name, h->name)) {
                size_t used = strlen(h->elsewhere);

                /* whole section names only: a cut one would mislead */
                if (!streq(full, h->section) && used + strlen(full) + 6 < sizeof(h->elsewhere))
                        snprintf(h->elsewhere + used, sizeof(h->elsewhere) - used, "%s[%s]",
                                 used ? " or " : "", full);
                return;
        }
        /* No closer than the difference in length: most keys need no count. */
        len = strlen(name);
        if (len + 2 < h->len || h->len + 2 < len)
                return;
        d = edit_distance(h->name, name);
        /* Close for its length (a two-letter key is no typo of another);
         * on a tie, the section it was written in first. */
        if (d > 2 || 3 * d > len)
                return;
        if (h->near && (d > h->near_distance || (d == h->near_distance && !streq(full, h->section))))
                return;
        h->near = name;
        h->near_distance = d;
        snprintf(h->near_section, sizeof(h->near_section), "%s", full);
}

/* "unknown key", with what was probably meant: the key as written in the
 * section it belongs to, or the closest spelling (edit distance). */
static void report_unknown_key(struct parser *p, const char *section, const char *name)
{
        struct key_hint h = { .name = name, .len = strlen(name), .section = section };

        /* Past what the diag keeps, the hint would go unseen: not worth its
         * cost on a file of nothing but unknown keys. */
        if (p->diag->n >= BL_DIAG_MAX) {
                report(p, "[%s]: unknown key \"%s\"", section, name);
                return;
        }
        for (unsigned k = 0; k < BL_CONFIG_NKEYS; k++)
                hint_consider(&h, "", keys[k].section, keys[k].name);
        for (unsigned i = 0; i < p->c->nknown; i++) {
                const struct bl_heuristic_ops *ops = p->c->known[i].ops;

                hint_consider(&h, POLICY_PREFIX, ops->name, "weight");
                for (unsigned j = 0; j < heuristic_nparams(ops); j++)
                        hint_consider(&h, POLICY_PREFIX, ops->name, ops->params[j].key);
        }
        for (unsigned i = 0; i < BL_PROFILE_NSECTIONS; i++)
                for (unsigned j = 0; profile_keys[j]; j++)
                        hint_consider(&h, PROFILE_PREFIX, profile_section_name(i), profile_keys[j]);
        if (h.elsewhere[0])
                report(p, "[%s]: unknown key \"%s\" (it belongs in %s)", section, name, h.elsewhere);
        else if (h.near && streq(h.near_section, section))
                report(p, "[%s]: unknown key \"%s\" (did you mean \"%s\"?)", section, name, h.near);
        else if (h.near)
                report(p, "[%s]: unknown key \"%s\" (did you mean \"%s\" in [%s]?)", section, name, h.near,
                       h.near_section);
        else
                report(p, "[%s]: unknown key \"%s\"", section, name);
}

static void note_origin(struct parser *p, enum bl_config_key k, const char *value)
{
        struct bl_config_origin *o = &p->c->origin[k];

        o->line = p->line;
        o->seq = ++p->c->nassigned;
        snprintf(o->file, sizeof(o->file), "%s", p->filename);
        snprintf(o->value, sizeof(o->value), "%s", value);
}

/* The next item of a comma-separated list, trimmed. Returns false when the
 * list is exhausted; an empty value is one empty item. */
static bool list_next(const char **cursor, char *item, size_t size)
{
        const char *s = *cursor, *end, *comma;

        if (!s)
                return false;
        comma = strchr(s, ',');
        end = comma ? comma : s + strlen(s);
        *cursor = comma ? comma + 1 : NULL;
        s = skip_space(s);
        while (end > s && isspace((unsigned char)end[-1]))
                end--;
        snprintf(item, size, "%.*s", (int)(end - s), s);
        return true;
}

static bool set_heuristics(struct parser *p, const char *name, const char *value)
{
        struct bl_config *c = p->c;
        const struct bl_heuristic_ops *selected[BL_MAX_HEURISTICS];
        char item[BL_CONFIG_LINE_MAX + 1];
        const char *cursor = value;
        unsigned n = 0;

        while (list_next(&cursor, item, sizeof(item))) {
                const struct bl_heuristic_settings *h;

                if (item[0] == '\0') {
                        report(p, "%s: expected a comma-separated list of heuristic names, got \"%s\"",
                               name, value);
                        return false;
                }
                h = known_find(c, item);
                if (!h) {
                        char known[256];

                        known_format(c, known, sizeof(known));
                        report(p, "%s: unknown heuristic \"%s\" (known: %s), got \"%s\"", name, item, known,
                               value);
                        return false;
                }
                for (unsigned i = 0; i < n; i++)
                        if (selected[i] == h->ops) {
                                report(p, "%s: \"%s\" is listed twice, got \"%s\"", name, item, value);
                                return false;
                        }
                if (n == BL_MAX_HEURISTICS) {
                        report(p, "%s: expected at most %d heuristics, got \"%s\"", name, BL_MAX_HEURISTICS,
                               value);
                        return false;
                }
                selected[n++] = h->ops;
        }

        memset(c->heuristics, 0, sizeof(c->heuristics));
        c->nheuristics = n;
        for (unsigned i = 0; i < n; i++)
                snprintf(c->heuristics[i].name, sizeof(c->heuristics[i].name), "%s", selected[i]->name);
        return true;
}

static bool zone_type_valid(const char *s)
{
        if (*s == '\0')
                return false;
        for (; *s; s++)
                if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
                        return false;
        return true;
}

static bool set_zones(struct parser *p, const char *name, const char *value)
{
        struct bl_config *c = p->c;
        /* Copied whole into the configuration: no stack bytes after the names. */
        char zones[BL_MAX_ZONES][BL_NAME_MAX] = { { 0 } };
        char item[BL_CONFIG_LINE_MAX + 1];
        const char *cursor = value;
        unsigned n = 0;

        if (streq(value, "auto")) {
                c->zones_auto = true;
                c->nzones = 0;
                memset(c->zones, 0, sizeof(c->zones));
                return true;
        }
        while (list_next(&cursor, item, sizeof(item))) {
                if (!zone_type_valid(item)) {
                        report(p, "%s: expected auto or a comma-separated list of thermal zone types "
                               "(letters, digits, \"_\", \".\", \"-\"), got \"%s\"", name, value);
                        return false;
                }
                if (strlen(item) >= BL_NAME_MAX) {
                        report(p, "%s: expected zone types of at most %d characters, got \"%s\"", name,
                               BL_NAME_MAX - 1, value);
                        return false;
                }
                for (unsigned i = 0; i < n; i++)
                        if (streq(zones[i], item)) {
                                report(p, "%s: \"%s\" is listed twice, got \"%s\"", name, item, value);
                                return false;
                        }
                if (n == BL_MAX_ZONES) {
                        report(p, "%s: expected at most %d zone types, got \"%s\"", name, BL_MAX_ZONES,
                               value);
                        return false;
                }
                snprintf(zones[n++], BL_NAME_MAX, "%s", item);
        }

        c->zones_auto = false;
        c->nzones = n;
        memset(c->zones, 0, sizeof(c->zones));
        memcpy(c->zones, zones, n * sizeof(zones[0]));
        return true;
}

/* Relative to the cgroup root, with no way out of it ("..") and nothing a
 * cgroup name cannot be (empty components); no white space either, which
 * the cpuset backend's saved state uses as a separator. */
bool config_cgroup_path_valid(const char *path)
{
        const char *component = path;

        if (path[0] == '\0' || path[0] == '/')
                return false;
        for (const char *s = path;; s++) {
                if (*s == '/' || *s == '\0') {
                        size_t len = (size_t)(s - component);

                        if (len == 0 || (len == 1 && component[0] == '.') ||
                            (len == 2 && component[0] == '.' && component[1] == '.'))
                                return false;
                        if (*s == '\0')
                                return true;
                        component = s + 1;
                } else if (isspace((unsigned char)*s) || iscntrl((unsigned char)*s)) {
                        return false;
                }
        }
}

static bool set_cgroups(struct parser *p, const char *name, const char *value)
{
        struct bl_config *c = p->c;
        /* Copied whole into the configuration: no stack bytes after the paths. */
        char groups[BL_CPUSET_MAX_GROUPS][BL_CPUSET_GROUP_MAX] = { { 0 } };
        char item[BL_CONFIG_LINE_MAX + 1];
        const char *cursor = value;
        unsigned n = 0;

        while (list_next(&cursor, item, sizeof(item))) {
                if (!config_cgroup_path_valid(item)) {
                        report(p, "%s: expected a comma-separated list of cgroup paths relative to the "
                               "cgroup root (no leading \"/\", no \"..\", no empty components, no spaces), "
                               "got \"%s\"", name, value);
                        return false;
                }
                if (strlen(item) >= BL_CPUSET_GROUP_MAX) {
                        report(p, "%s: expected cgroup paths of at most %d characters, got \"%s\"", name,
                               BL_CPUSET_GROUP_MAX - 1, value);
                        return false;
                }
                for (unsigned i = 0; i < n; i++)
                        if (streq(groups[i], item)) {
                                report(p, "%s: \"%s\" is listed twice, got \"%s\"", name, item, value);
                                return false;
                        }
                if (n == BL_CPUSET_MAX_GROUPS) {
                        report(p, "%s: expected at most %d cgroups, got \"%s\"", name, BL_CPUSET_MAX_GROUPS,
                               value);
                        return false;
                }
                snprintf(groups[n++], BL_CPUSET_GROUP_MAX, "%s", item);
        }
        c->ncpuset_groups = n;
        memset(c->cpuset_groups, 0, sizeof(c->cpuset_groups));
        memcpy(c->cpuset_groups, groups, n * sizeof(groups[0]));
        return true;
}

static bool path_valid(const char *value)
{
        if (value[0] != '/')
                return false;
        for (; *value; value++)
                if (iscntrl((unsigned char)*value))
                        return false;
        return true;
}

/* An empty value means the built-in default. */
static bool set_path(struct parser *p, const char *name, const char *value, char *buf, size_t size)
{
        if (value[0] && !path_valid(value)) {
                report(p, "%s: expected an absolute path, or nothing for the default, got \"%s\"", name,
                       value);
                return false;
        }
        if (strlen(value) >= size) {
                report(p, "%s: expected a path of at most %zu characters, got \"%s\"", name, size - 1, value);
                return false;
        }
        snprintf(buf, size, "%s", value);
        return true;
}

static bool set_energy_model(struct parser *p, const char *name, const char *value)
{
        if (!streq(value, "auto") && !streq(value, "none") && !path_valid(value)) {
                report(p, "%s: expected auto, none or the absolute path of a board file, got \"%s\"", name,
                       value);
                return false;
        }
        if (strlen(value) >= sizeof(p->c->energy_model)) {
                report(p, "%s: expected a path of at most %zu characters, got \"%s\"", name,
                       sizeof(p->c->energy_model) - 1, value);
                return false;
        }
        snprintf(p->c->energy_model, sizeof(p->c->energy_model), "%s", value);
        return true;
}

static void key_store(struct bl_config *c, enum bl_config_key k, long long v)
{
        switch (k) {
        case BL_KEY_MODE:
                c->mode = (enum bl_mode)v;
                break;
        case BL_KEY_BACKEND:
                c->backend = (enum bl_backend_kind)v;
                break;
        case BL_KEY_SAMPLE_INTERVAL_MS:
                c->sample_interval_ms = (unsigned)v;
                break;
        case BL_KEY_IDLE_SAMPLE_INTERVAL_MS:
                c->idle_sample_interval_ms = (unsigned)v;
                break;
        case BL_KEY_LOG_LEVEL:
                c->log_level = (int)v;
                break;
        case BL_KEY_AUTO_MODE:
                c->auto_mode = (enum bl_mode)v;
                break;
        case BL_KEY_COMBINE:
                c->combine = (enum bl_combine)v;
                break;
        case BL_KEY_UP_THRESHOLD:
                c->up_threshold = (unsigned)v;
                break;
        case BL_KEY_DOWN_THRESHOLD:
                c->down_threshold = (unsigned)v;
                break;
        case BL_KEY_UP_DELAY_MS:
                c->up_delay_ms = (unsigned)v;
                break;
        case BL_KEY_DOWN_DELAY_MS:
                c->down_delay_ms = (unsigned)v;
                break;
        case BL_KEY_MIN_RESIDENCY_MS:
                c->min_residency_ms = (unsigned)v;
                break;
        case BL_KEY_MAX_SWITCH_RATE_HZ:
                c->max_switch_rate_hz = (unsigned)v;
                break;
        case BL_KEY_BREAK_EVEN:
                c->break_even = v != 0;
                break;
        case BL_KEY_MP_CLIMB_LOADED:
                c->mp_climb_loaded = v != 0;
                break;
        case BL_KEY_CAP_TEMP_C:
                c->cap_temp_mc = (int)v;
                c->cap_temp_auto = false;
                break;
        case BL_KEY_RELEASE_TEMP_C:
                c->release_temp_mc = (int)v;
                c->release_temp_auto = false;
                break;
        case BL_KEY_CRITICAL_TEMP_C:
                c->critical_temp_mc = (int)v;
                c->critical_temp_auto = false;
                break;
        case BL_KEY_ALLOW_USERS:
                c->holds_allow_users = v != 0;
                break;
        case BL_KEY_MAX_DURATION_S:
                c->holds_max_duration_s = (unsigned)v;
                break;
        case BL_KEY_HOLD_PRECEDENCE:
                c->hold_precedence = (enum bl_hold_precedence)v;
                break;
        case BL_KEY_CPUSET_MANAGER:
                c->cpuset_manager = (enum bl_cpuset_manager)v;
                break;
        case BL_KEY_HEURISTICS:
        case BL_KEY_CPUSET_GROUPS:
        case BL_KEY_ZONES:
        case BL_KEY_PLUGIN_DIR:
        case BL_KEY_ENERGY_MODEL:
        case BL_CONFIG_NKEYS:
                break;
        }
}

/* The current value of a numeric key, as a person would write it. */
static void key_format(const struct bl_config *c, enum bl_config_key k, char *buf, size_t size)
{
        switch (k) {
        case BL_KEY_SAMPLE_INTERVAL_MS:
                snprintf(buf, size, "%u", c->sample_interval_ms);
                break;
        case BL_KEY_IDLE_SAMPLE_INTERVAL_MS:
                snprintf(buf, size, "%u", c->idle_sample_interval_ms);
                break;
        case BL_KEY_UP_THRESHOLD:
                snprintf(buf, size, "%u", c->up_threshold);
                break;
        case BL_KEY_DOWN_THRESHOLD:
                snprintf(buf, size, "%u", c->down_threshold);
                break;
        case BL_KEY_CAP_TEMP_C:
                mc_format(c->cap_temp_mc, buf, size);
                break;
        case BL_KEY_RELEASE_TEMP_C:
                mc_format(c->release_temp_mc, buf, size);
                break;
        case BL_KEY_CRITICAL_TEMP_C:
                mc_format(c->critical_temp_mc, buf, size);
                break;
        default:
                snprintf(buf, size, "?");
                break;
        }
}

/* A thermal limit back to auto: the built-in value until trips resolve it. */
static void temp_set_auto(struct bl_config *c, enum bl_config_key k)
{
        switch (k) {
        case BL_KEY_CAP_TEMP_C:
                c->cap_temp_mc = BL_CAP_TEMP_DEFAULT_MC;
                c->cap_temp_auto = true;
                break;
        case BL_KEY_RELEASE_TEMP_C:
                c->release_temp_mc = BL_RELEASE_TEMP_DEFAULT_MC;
                c->release_temp_auto = true;
                break;
        case BL_KEY_CRITICAL_TEMP_C:
                c->critical_temp_mc = BL_CRITICAL_TEMP_DEFAULT_MC;
                c->critical_temp_auto = true;
                break;
        default:
                break;
        }
}

static void set_key(struct parser *p, const char *section, const char *name, const char *value)
{
        const struct key_desc *d = NULL;
        enum bl_config_key k;
        long long v = 0;
        double number;
        bool ok = false;

        for (k = 0; k < BL_CONFIG_NKEYS; k++)
                if (streq(keys[k].section, section) && streq(keys[k].name, name)) {
                        d = &keys[k];
                        break;
                }
        if (!d) {
                report_unknown_key(p, section, name);
                return;
        }

        switch (d->kind) {
        case KIND_CHOICE:
                ok = choice_parse(d->choices, value, &v);
                if (!ok) {
                        char what[128];

                        choice_format(d->choices, what, sizeof(what));
                        report(p, "%s: expected %s, got \"%s\"", name, what, value);
                }
                break;
        case KIND_UINT:
                ok = parse_integer(value, &v) && v >= d->min && v <= d->max;
                if (!ok)
                        report(p, "%s: expected %s, got \"%s\"", name, d->what, value);
                break;
        case KIND_TEMP:
                if (streq(value, "auto")) {
                        temp_set_auto(p->c, k);
                        note_set(p, &p->set_at[k], section, name);
                        note_origin(p, k, value);
                        return;
                }
                ok = parse_number(value, &number) && number >= d->min && number <= d->max;
                if (ok)
                        v = celsius_to_mc(number);
                else
                        report(p, "%s: expected %s, got \"%s\"", name, d->what, value);
                break;
        case KIND_HEURISTICS:
                ok = set_heuristics(p, name, value);
                break;
        case KIND_ZONES:
                ok = set_zones(p, name, value);
                break;
        case KIND_PATH:
                ok = set_path(p, name, value, p->c->plugin_dir, sizeof(p->c->plugin_dir));
                break;
        case KIND_MODEL:
                ok = set_energy_model(p, name, value);
                break;
        case KIND_CGROUPS:
                ok = set_cgroups(p, name, value);
                break;
        }
        if (!ok)
                return;
        key_store(p->c, k, v);
        note_set(p, &p->set_at[k], section, name);
        note_origin(p, k, value);
}

static void set_heuristic_key(struct parser *p, const char *section, const char *name, const char *value)
{
        struct bl_heuristic_settings *h = known_find(p->c, section + strlen(POLICY_PREFIX));
        double number;

        /* The section header was checked when it was read. */
        if (!h)
                return;

        if (streq(name, "weight")) {
                if (parse_number(value, &number) && number > 0 && number <= 100) {
                        h->weight = number;
                        note_set(p, &p->heuristic_set_at[h - p->c->known][0], section, name);
                } else
                        report(p, "%s: expected a number above 0 and at most 100, got \"%s\"", name, value);
                return;
        }

        for (unsigned i = 0; i < heuristic_nparams(h->ops); i++) {
                const struct bl_policy_param *param = &h->ops->params[i];
                char range[64], unit[48] = "";
                long long integer;
                bool ok;

                if (!streq(param->key, name))
                        continue;
                if (param->integer) {
                        ok = parse_integer(value, &integer);
                        number = (double)integer;
                } else
                        ok = parse_number(value, &number);
                if (ok && number >= param->min && number <= param->max) {
                        h->params[i] = number;
                        note_set(p, &p->heuristic_set_at[h - p->c->known][1 + i], section, name);
                        h->line = p->line;
                        snprintf(h->file, sizeof(h->file), "%s", p->filename);
                        return;
                }
                range_format(param->min, param->max, range, sizeof(range));
                if (param->unit && param->unit[0])
                        snprintf(unit, sizeof(unit), " (%s)", param->unit);
                report(p, "%s: expected %s %s%s, got \"%s\"", name,
                       param->integer ? "an integer" : "a number", range, unit, value);
                return;
        }
        report_unknown_key(p, section, name);
}

/* The level's name is checked against the ladder once there is one
 * (profile_check()): here only that it can be a name. */
static bool level_name_valid(const char *v)
{
        if (!v[0] || strlen(v) >= BL_NAME_MAX)
                return false;
        for (; *v; v++)
                if (isspace((unsigned char)*v))
                        return false;
        return true;
}

static void set_profile_key(struct parser *p, const char *section, const char *name, const char *value)
{
        const int s = profile_section_from_name(section + strlen(PROFILE_PREFIX));
        struct bl_profile_conf next, *conf;
        const char *key = NULL;
        long long v;

        /* The section header was checked when it was read. */
        if (s < 0)
                return;
        for (unsigned i = 0; profile_keys[i]; i++)
                if (streq(profile_keys[i], name))
                        key = profile_keys[i];
        if (!key) {
                report_unknown_key(p, section, name);
                return;
        }
        conf = &p->c->profiles[s];
        next = (struct bl_profile_conf){ .line = p->line };
        snprintf(next.file, sizeof(next.file), "%s", p->filename);
        if (streq(name, "bias_pct")) {
                if (!parse_integer(value, &v) || v < -BL_PROFILE_BIAS_MAX || v > BL_PROFILE_BIAS_MAX) {
                        report(p, "%s: expected an integer %d to %d (percentage points, above 0 toward LITTLE), "
                               "got \"%s\"", name, -BL_PROFILE_BIAS_MAX, BL_PROFILE_BIAS_MAX, value);
                        return;
                }
                next.action = v ? BL_PROFILE_BIAS : BL_PROFILE_NOTHING;
                next.bias_pct = (int)v;
        } else if (streq(name, "cap")) {
                if (streq(value, "none"))
                        next.action = BL_PROFILE_NOTHING;
                else if (level_name_valid(value)) {
                        next.action = BL_PROFILE_CAP;
                        snprintf(next.cap, sizeof(next.cap), "%s", value);
                } else {
                        report(p, "%s: expected none or a level's name (little, big, ...), got \"%s\"", name,
                               value);
                        return;
                }
        } else {
                if (!choice_parse(bool_choices, value, &v)) {
                        report(p, "%s: expected no or yes, got \"%s\"", name, value);
                        return;
                }
                next.action = v ? BL_PROFILE_HOLD_TOP : BL_PROFILE_NOTHING;
        }
        if (p->profile_set_at[s])
                diag_warn_at(p->diag, p->filename, p->line,
                             "[%s]: %s replaces %s of line %u (a section makes one adjustment)", section, name,
                             p->profile_set_by[s], p->profile_set_at[s]);
        p->profile_set_at[s] = p->line;
        p->profile_set_by[s] = key;
        *conf = next;
}

static unsigned enter_section(struct parser *p, const char *name)
{
        for (unsigned i = 0; main_sections[i]; i++)
                if (streq(main_sections[i], name))
                        return 0;
        if (strncmp(name, POLICY_PREFIX, strlen(POLICY_PREFIX)) == 0) {
                const char *heuristic = name + strlen(POLICY_PREFIX);
                char known[256];

                if (known_find(p->c, heuristic))
                        return 0;
                known_format(p->c, known, sizeof(known));
                report(p, "unknown heuristic \"%s\" in [%s] (known: %s)", heuristic, name, known);
        } else if (strncmp(name, PROFILE_PREFIX, strlen(PROFILE_PREFIX)) == 0) {
                if (profile_section_from_name(name + strlen(PROFILE_PREFIX)) >= 0)
                        return 0;
                report(p, "unknown section [%s] (profiles: power-saver, balanced, performance, battery)", name);
        } else
                report(p, "unknown section [%s]", name);
        return 1;
}

static unsigned handle_line(void *user, const char *section, const char *key, const char *value,
                            unsigned line)
{
        struct parser *p = user;
        unsigned before = p->problems;

        p->line = line;
        if (!key)
                return enter_section(p, section);
        if (strncmp(section, POLICY_PREFIX, strlen(POLICY_PREFIX)) == 0)
                set_heuristic_key(p, section, key, value);
        else if (strncmp(section, PROFILE_PREFIX, strlen(PROFILE_PREFIX)) == 0)
                set_profile_key(p, section, key, value);
        else
                set_key(p, section, key, value);
        return p->problems - before;
}

unsigned config_parse(struct bl_config *c, const struct bl_heuristic_ops *const *table,
                      const char *filename, const char *text, size_t len, struct bl_diag *diag)
{
        struct parser p = {
                .c = c,
                .filename = filename,
                .diag = diag,
        };
        unsigned problems;

        known_sync(c, table);
        problems = ini_read(filename, text, len, handle_line, &p, diag);
        resolve_heuristics(c);
        return problems;
}

static void origin_format(const struct bl_config_origin *o, char *buf, size_t size)
{
        if (o->line)
                snprintf(buf, size, "%s:%u", o->file, o->line);
        else
                snprintf(buf, size, "defaults");
}

static void value_format(const struct bl_config *c, enum bl_config_key k, char *buf, size_t size)
{
        if (c->origin[k].line)
                snprintf(buf, size, "%s", c->origin[k].value);
        else
                key_format(c, k, buf, size);
}

/* One ordering rule between two keys. The problem is reported where the
 * later of the two was set: that assignment is the one that broke it. */
/* 'low' must be below 'high' (or equal, with 'equal_ok'); the key set last is
 * blamed. */
static unsigned check_order(const struct bl_config *c, struct bl_diag *diag, enum bl_config_key low,
                            long low_value, enum bl_config_key high, long high_value, bool equal_ok)
{
        const struct bl_config_origin *lo = &c->origin[low], *hi = &c->origin[high];
        enum bl_config_key at, other;
        char where[BL_CONFIG_FILE_MAX + 16], other_where[BL_CONFIG_FILE_MAX + 24];
        char value[BL_CONFIG_VALUE_MAX], other_value[BL_CONFIG_VALUE_MAX];

        if (low_value < high_value || (equal_ok && low_value == high_value))
                return 0;
        at = lo->seq >= hi->seq ? low : high;
        other = at == low ? high : low;
        origin_format(&c->origin[at], where, sizeof(where));
        if (c->origin[other].line)
                snprintf(other_where, sizeof(other_where), "set at %s:%u", c->origin[other].file,
                         c->origin[other].line);
        else
                snprintf(other_where, sizeof(other_where), "the default");
        value_format(c, at, value, sizeof(value));
        value_format(c, other, other_value, sizeof(other_value));
        diag_add(diag, "%s: %s: must be %s %s (%s, %s), got \"%s\"", where, keys[at].name,
                 at == low ? (equal_ok ? "at most" : "below") : (equal_ok ? "at least" : "above"),
                 keys[other].name, other_value, other_where, value);
        return 1;
}

static unsigned check_below(const struct bl_config *c, struct bl_diag *diag, enum bl_config_key low,
                            long low_value, enum bl_config_key high, long high_value)
{
        return check_order(c, diag, low, low_value, high, high_value, false);
}

/* A heuristic's own rules across its keys, reported where its section last
 * set one (or as its defaults, which would be the heuristic's own bug). */
static unsigned check_heuristic(const struct bl_config *c, const struct bl_heuristic_conf *h,
                                struct bl_diag *diag)
{
        const struct bl_heuristic_settings *s = NULL;
        char err[160] = "";

        if (!h->ops || !h->ops->validate || h->ops->validate(h->params, err, sizeof(err)) >= 0)
                return 0;
        for (unsigned i = 0; i < c->nknown; i++)
                if (c->known[i].ops == h->ops)
                        s = &c->known[i];
        if (!err[0])
                snprintf(err, sizeof(err), "the values do not go together");
        if (s && s->line)
                diag_add(diag, "%s:%u: [policy.%s]: %s", s->file, s->line, h->name, err);
        else
                diag_add(diag, "defaults: [policy.%s]: %s", h->name, err);
        return 1;
}

struct scan {
        char *buf;
        size_t size;
        bool found;
};

static unsigned scan_line(void *user, const char *section, const char *key, const char *value, unsigned line)
{
        struct scan *sc = user;

        (void)line;
        if (key && streq(section, "policy") && streq(key, "plugin_dir") && strlen(value) < sc->size) {
                snprintf(sc->buf, sc->size, "%s", value);
                sc->found = true;
        }
        return 0;
}

bool config_scan_plugin_dir(const char *filename, const char *text, size_t len, char *buf, size_t size)
{
        struct scan sc = { .buf = buf, .size = size };
        struct bl_diag quiet;

        diag_init(&quiet);
        ini_read(filename, text, len, scan_line, &sc, &quiet);
        return sc.found;
}

unsigned config_validate(const struct bl_config *c, struct bl_diag *diag)
{
        unsigned problems = 0;

        if (c->nheuristics == 0) {
                diag_add(diag, "defaults: heuristics: expected at least one heuristic, "
                         "the default \"%s\" is not available", DEFAULT_HEURISTIC);
                problems++;
        }
        for (unsigned i = 0; i < c->nheuristics; i++)
                problems += check_heuristic(c, &c->heuristics[i], diag);
        problems += check_below(c, diag, BL_KEY_DOWN_THRESHOLD, c->down_threshold, BL_KEY_UP_THRESHOLD,
                                c->up_threshold);
        if (c->idle_sample_interval_ms > 0)
                problems += check_order(c, diag, BL_KEY_SAMPLE_INTERVAL_MS, c->sample_interval_ms,
                                        BL_KEY_IDLE_SAMPLE_INTERVAL_MS, c->idle_sample_interval_ms, true);
        if (!c->release_temp_auto && !c->cap_temp_auto)
                problems += check_below(c, diag, BL_KEY_RELEASE_TEMP_C, c->release_temp_mc, BL_KEY_CAP_TEMP_C,
                                        c->cap_temp_mc);
        if (!c->cap_temp_auto && !c->critical_temp_auto)
                problems += check_below(c, diag, BL_KEY_CAP_TEMP_C, c->cap_temp_mc, BL_KEY_CRITICAL_TEMP_C,
                                        c->critical_temp_mc);
        /* cap, from the trips, must fit between them */
        if (c->cap_temp_auto && !c->release_temp_auto && !c->critical_temp_auto)
                problems += check_below(c, diag, BL_KEY_RELEASE_TEMP_C, c->release_temp_mc,
                                        BL_KEY_CRITICAL_TEMP_C, c->critical_temp_mc);
        return problems;
}
