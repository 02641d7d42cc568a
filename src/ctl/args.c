/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl/args.h"
#include "ctl/client.h"
#include "common/duration.h"
#include "ctl/output.h"

/* Which options a verb takes, besides the ones every verb takes. */
enum {
        TAKES_JSON = 1 << 0,
        TAKES_HOLD = 1 << 1,            /* --for, --reason, --persist, "-- COMMAND" */
        TAKES_ALL = 1 << 2,
        TAKES_LINES = 1 << 3,
        TAKES_RECORD = 1 << 4,          /* --duration, --interval */
        TAKES_WAIT = 1 << 5,
};

struct verb {
        const char *name;
        unsigned min_args, max_args;
        unsigned takes;
        verb_fn fn;                     /* NULL: help, which args_parse() answers itself */
        const char *arg;                /* what its argument is, for messages */
        const char *synopsis;           /* NULL: not in the help (the completion's own verbs) */
        const char *summary;
};

static const struct verb verbs[] = {
        { "status", 0, 0, TAKES_JSON, verb_status, NULL, "status",
          "mode, level, demand, temperature, holds (the default)" },
        { "get", 1, 1, 0, verb_get, "KEY (see switchctl help get)", "get KEY",
          "print one value of status --json, for scripts" },
        { "hold", 1, 1, TAKES_HOLD, verb_hold, "LEVEL (see switchctl status)", "hold LEVEL [-- COMMAND...]",
          "keep LEVEL while switchctl runs (or COMMAND does)" },
        { "release", 0, 1, TAKES_ALL, verb_release, "ID", "release ID | --all",
          "end hold ID, or all the holds you may end" },
        { "auto", 0, 0, 0, verb_auto, NULL, "auto", "end your holds: back to automatic switching" },
        { "history", 0, 0, TAKES_JSON | TAKES_LINES, verb_history, NULL, "history [-n N]",
          "the last switches, with their reasons" },
        { "stats", 0, 0, TAKES_JSON, verb_stats, NULL, "stats", "time per level and switch counts" },
        { "monitor", 0, 0, TAKES_WAIT, verb_monitor, NULL, "monitor [--wait]",
          "follow the switches as they happen" },
        { "reload", 0, 0, 0, verb_reload, NULL, "reload", "reload the configuration" },
        { "check-config", 0, 1, 0, verb_check_config, "FILE", "check-config [FILE]",
          "validate the configuration without applying it" },
        { "record", 1, 1, TAKES_RECORD, verb_record, "FILE", "record FILE",
          "write this machine's load as a trace for blsim" },
        { "help", 0, 1, 0, NULL, "VERB", "help [VERB]", "this help, or one verb's" },
        /* For the shell completion; not in --help. */
        { "__levels", 0, 0, 0, verb_list_levels, NULL, NULL, NULL },
        { "__holds", 0, 0, 0, verb_list_holds, NULL, NULL, NULL },
        { "__keys", 0, 0, 0, verb_list_keys, NULL, NULL, NULL },
};

/* The options' lines of the help; 0: every verb takes it. */
static const struct {
        unsigned flag;
        const char *text;
} option_help[] = {
        { TAKES_HOLD, "      --for DURATION         how long a hold lasts (30s, 5min, 1h, 2h30min; default 1h)\n" },
        { TAKES_HOLD, "      --reason TEXT          why, shown in status\n" },
        { TAKES_HOLD, "      --persist              the hold outlives switchctl and a daemon restart\n" },
        { TAKES_ALL, "      --all                  release every hold you may release\n" },
        { TAKES_LINES, "  -n, --lines N              history: the last N switches (default: all kept)\n" },
        { TAKES_RECORD, "      --duration DURATION    record: stop after DURATION (default: at Ctrl-C)\n" },
        { TAKES_RECORD, "      --interval DURATION    record: the trace's step (default: the daemon's)\n" },
        { TAKES_WAIT, "      --wait                 monitor: wait for a daemon that is not running yet\n" },
        { TAKES_JSON, "      --json                 status, history, stats: print JSON\n" },
        { 0, "      --no-legend            no header and footer lines\n" },
        { 0, "      --no-pager             do not pipe history into a pager\n" },
        { 0, "      --no-ask-password      do not let polkit ask for a password\n" },
        { 0, "  -h, --help                 show this help\n" },
        { 0, "  -V, --version              show the version\n" },
};

static void print_options(FILE *f, unsigned takes)
{
        fputs("\nOptions:\n", f);
        for (size_t i = 0; i < sizeof(option_help) / sizeof(option_help[0]); i++)
                if (option_help[i].flag == 0 || (takes & option_help[i].flag))
                        fputs(option_help[i].text, f);
        fputs("\nSee switchctl(1).\n", f);
}

static void usage(FILE *f)
{
        unsigned all = 0;

        fputs("Usage: switchctl [OPTION]... [VERB] [ARG]...\n"
              "Show and steer bigLittled, which switches between efficient and fast cores.\n"
              "\n"
              "Verbs:\n",
              f);
        for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
                if (verbs[i].synopsis) {
                        fprintf(f, "  %-26s %s\n", verbs[i].synopsis, verbs[i].summary);
                        all |= verbs[i].takes;
                }
        print_options(f, all);
}

/* One verb's help: what "switchctl VERB --help" and "switchctl help VERB" print. */
static void verb_usage(FILE *f, const struct verb *v)
{
        fprintf(f, "Usage: switchctl [OPTION]... %s\n%c%s.\n", v->synopsis, toupper((unsigned char)v->summary[0]),
                v->summary + 1);
        if (v->fn == verb_get) {
                fputs("\nKeys:\n", f);
                get_keys_print(f);
        }
        print_options(f, v->takes);
}

__attribute__((format(printf, 2, 3))) static int usage_error(int *exit_status, const char *fmt, ...)
{
        va_list ap;

        fputs("switchctl: ", stderr);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputs("\nTry \"switchctl --help\".\n", stderr);
        *exit_status = EXIT_USAGE;
        return 1;
}

static int parse_lines(const char *text, uint32_t *ret)
{
        char *end;
        unsigned long v;

        /* Digits only: strtoul() skips blanks and negates "-1", which on a
         * 32-bit long is 4294967295 and in range. */
        if (text[0] < '0' || text[0] > '9')
                return -EINVAL;
        errno = 0;
        v = strtoul(text, &end, 10);
        if (errno || *end || v > UINT32_MAX)
                return -EINVAL;
        *ret = (uint32_t)v;
        return 0;
}

static const struct verb *find_verb(const char *name)
{
        for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
                if (strcmp(verbs[i].name, name) == 0)
                        return &verbs[i];
        return NULL;
}

/* The options a verb was given that it does not take, by name. */
static const char *stray_option(const struct verb *v, unsigned given)
{
        static const struct {
                unsigned flag;
                const char *name;
        } names[] = {
                { TAKES_JSON, "--json" },
                { TAKES_HOLD, "--for, --reason, --persist and a command" },
                { TAKES_ALL, "--all" },
                { TAKES_LINES, "--lines" },
                { TAKES_RECORD, "--duration and --interval" },
                { TAKES_WAIT, "--wait" },
        };

        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                if ((given & names[i].flag) && !(v->takes & names[i].flag))
                        return names[i].name;
        return NULL;
}

enum {
        OPT_JSON = 0x100,
        OPT_NO_LEGEND,
        OPT_NO_PAGER,
        OPT_NO_ASK_PASSWORD,
        OPT_FOR,
        OPT_REASON,
        OPT_PERSIST,
        OPT_ALL,
        OPT_DURATION,
        OPT_INTERVAL,
        OPT_WAIT,
};

static const struct option longopts[] = {
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { "json", no_argument, NULL, OPT_JSON },
        { "no-legend", no_argument, NULL, OPT_NO_LEGEND },
        { "no-pager", no_argument, NULL, OPT_NO_PAGER },
        { "no-ask-password", no_argument, NULL, OPT_NO_ASK_PASSWORD },
        { "for", required_argument, NULL, OPT_FOR },
        { "reason", required_argument, NULL, OPT_REASON },
        { "persist", no_argument, NULL, OPT_PERSIST },
        { "all", no_argument, NULL, OPT_ALL },
        { "lines", required_argument, NULL, 'n' },
        { "duration", required_argument, NULL, OPT_DURATION },
        { "interval", required_argument, NULL, OPT_INTERVAL },
        { "wait", no_argument, NULL, OPT_WAIT },
        {},
};

/* One option from getopt_long(); returns 0, or 1 to exit with *exit_status. */
static int apply_option(int c, const char *option, struct ctl_args *a, unsigned *given, int *exit_status)
{
        switch (c) {
        case 'h':
                /* Answered once the verb is known: "switchctl hold --help" is hold's help. */
                a->help = true;
                return 0;
        case 'V':
                printf("switchctl %s\n", PACKAGE_VERSION);
                *exit_status = EXIT_SUCCESS;
                return 1;
        case OPT_JSON:
                a->json = true;
                *given |= TAKES_JSON;
                return 0;
        case OPT_NO_LEGEND:
                a->legend = false;
                return 0;
        case OPT_NO_PAGER:
                a->pager = false;
                return 0;
        case OPT_NO_ASK_PASSWORD:
                a->ask_password = false;
                return 0;
        case OPT_FOR:
                if (duration_parse(optarg, &a->duration) < 0)
                        return usage_error(exit_status,
                                           "--for \"%s\": expected a duration like 30s, 5min, 1h or 2h30min",
                                           optarg);
                if (a->duration == 0)
                        return usage_error(exit_status, "--for \"%s\": a hold must last longer than 0",
                                           optarg);
                *given |= TAKES_HOLD;
                return 0;
        case OPT_REASON:
                a->reason = optarg;
                *given |= TAKES_HOLD;
                return 0;
        case OPT_PERSIST:
                a->persist = true;
                *given |= TAKES_HOLD;
                return 0;
        case OPT_ALL:
                a->all = true;
                *given |= TAKES_ALL;
                return 0;
        case OPT_DURATION:
                /* The daemon judges them: it says what it accepts. */
                a->record_duration = optarg;
                *given |= TAKES_RECORD;
                return 0;
        case OPT_INTERVAL:
                a->record_interval = optarg;
                *given |= TAKES_RECORD;
                return 0;
        case OPT_WAIT:
                a->wait = true;
                *given |= TAKES_WAIT;
                return 0;
        case 'n':
                if (parse_lines(optarg, &a->lines) < 0)
                        return usage_error(exit_status, "--lines \"%s\": expected a number of switches",
                                           optarg);
                *given |= TAKES_LINES;
                return 0;
        default:
                if (optopt == 'n' || optopt == OPT_FOR || optopt == OPT_REASON || optopt == OPT_DURATION ||
                    optopt == OPT_INTERVAL)
                        return usage_error(exit_status, "%s needs a value", option);
                /* "--help=3": getopt names the option it knows ('h'), not what was typed. */
                if (optopt && strncmp(option, "--", 2) == 0 && strchr(option, '='))
                        return usage_error(exit_status, "%.*s takes no value", (int)strcspn(option, "="),
                                           option);
                if (optopt > 0 && optopt < 0x100) {
                        char opt[3] = { '-', (char)optopt, '\0' };

                        return usage_error(exit_status, "unknown option \"%s\"", opt);
                }
                return usage_error(exit_status, "unknown option \"%s\"", option);
        }
}

/* Whether the verb takes what it was given. Returns 0, or 1 after a message. */
static int check_verb(const struct verb *v, const struct ctl_args *a, unsigned given, int *exit_status)
{
        const char *stray = stray_option(v, given);

        if (stray) {
                fprintf(stderr, "switchctl: %s: %s do%s not apply here\n", v->name, stray,
                        strchr(stray, ' ') ? "" : "es");
                *exit_status = EXIT_USAGE;
                return 1;
        }
        if (a->n_positional < v->min_args) {
                fprintf(stderr, "switchctl: %s: missing %s\n", v->name, v->arg);
                *exit_status = EXIT_USAGE;
                return 1;
        }
        if (a->n_positional > v->max_args)
                return usage_error(exit_status, "%s: too many arguments", v->name);
        if (strcmp(v->name, "release") == 0 && (a->n_positional == 1) == a->all)
                return usage_error(exit_status, "%s: give a hold id or --all (not both)", v->name);
        if (a->persist && a->command)
                return usage_error(exit_status,
                                   "%s: --persist and a command do not go together: "
                                   "the hold ends with the command",
                                   v->name);
        return 0;
}

/* "switchctl VERB --help", "switchctl help [VERB]". */
static int help(const struct verb *v, const struct ctl_args *a, int *exit_status)
{
        if (v->fn) {
                verb_usage(stdout, v);
        } else if (a->n_positional == 0) {
                usage(stdout);
        } else {
                const struct verb *about = find_verb(a->positional[0]);

                if (a->n_positional > 1)
                        return usage_error(exit_status, "help: too many arguments");
                if (!about || !about->synopsis)
                        return usage_error(exit_status, "help: unknown verb \"%s\"", a->positional[0]);
                if (about->fn)
                        verb_usage(stdout, about);
                else
                        usage(stdout);
        }
        *exit_status = EXIT_SUCCESS;
        return 1;
}

int args_parse(int argc, char **argv, struct ctl_args *a, verb_fn *fn, int *exit_status)
{
        const struct verb *v;
        char **tail = NULL;
        unsigned given = 0, n = 0;

        *a = (struct ctl_args){ .legend = true, .pager = true, .ask_password = true };
        a->duration = HOLD_DEFAULT_USEC;
        a->storage = calloc((size_t)argc + 1, sizeof(char *));
        a->positional = a->storage;
        if (!a->storage) {
                fprintf(stderr, "switchctl: %s\n", strerror(ENOMEM));
                *exit_status = EXIT_FAILURE;
                return 1;
        }

        /* "+": stop at each non-option so that it is collected here, and "--"
         * is seen where it was (GNU getopt would move it). */
        optind = 1;
        opterr = 0;
        while (optind < argc) {
                int before = optind, c;

                c = getopt_long(argc, argv, "+hVn:", longopts, NULL);
                if (c == -1 && optind == before + 1 && strcmp(argv[before], "--") == 0) {
                        tail = &argv[optind];
                        break;
                }
                if (c == -1)
                        a->positional[n++] = argv[optind++];
                else if (apply_option(c, argv[optind - 1], a, &given, exit_status))
                        return 1;
        }

        /* After "--": hold's command, or arguments that look like options
         * ("check-config -- -odd.conf"). */
        if (tail && *tail && n > 0 && strcmp(a->positional[0], "hold") == 0)
                a->command = tail;
        else
                for (; tail && *tail; tail++)
                        a->positional[n++] = *tail;

        if (a->help && n == 0) {
                usage(stdout);
                *exit_status = EXIT_SUCCESS;
                return 1;
        }
        a->verb = n > 0 ? a->positional[0] : "status";
        v = find_verb(a->verb);
        if (!v)
                return usage_error(exit_status, "unknown verb \"%s\"", a->verb);
        if (n > 0) {
                a->positional++;
                n--;
        }
        a->n_positional = n;
        if (!v->fn || a->help)
                return help(v, a, exit_status);
        if (a->command)
                given |= TAKES_HOLD;
        if (check_verb(v, a, given, exit_status))
                return 1;
        *fn = v->fn;
        return 0;
}

void args_done(struct ctl_args *a)
{
        free(a->storage);
        a->storage = NULL;
        a->positional = NULL;
}
