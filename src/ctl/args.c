/* SPDX-License-Identifier: GPL-2.0-or-later */
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
};

struct verb {
        const char *name;
        unsigned min_args, max_args;
        unsigned takes;
        verb_fn fn;
        const char *arg;                /* what its argument is, for messages */
};

static const struct verb verbs[] = {
        { "status", 0, 0, TAKES_JSON, verb_status, NULL },
        { "hold", 1, 1, TAKES_HOLD, verb_hold, "LEVEL (see switchctl status)" },
        { "release", 0, 1, TAKES_ALL, verb_release, "ID" },
        { "auto", 0, 0, 0, verb_auto, NULL },
        { "history", 0, 0, TAKES_JSON | TAKES_LINES, verb_history, NULL },
        { "stats", 0, 0, TAKES_JSON, verb_stats, NULL },
        { "monitor", 0, 0, 0, verb_monitor, NULL },
        { "reload", 0, 0, 0, verb_reload, NULL },
        { "check-config", 0, 1, 0, verb_check_config, "FILE" },
        { "record", 1, 1, TAKES_RECORD, verb_record, "FILE" },
        /* For the shell completion; not in --help. */
        { "__levels", 0, 0, 0, verb_list_levels, NULL },
        { "__holds", 0, 0, 0, verb_list_holds, NULL },
};

static void usage(FILE *f)
{
        fputs("Usage: switchctl [OPTION]... [VERB] [ARG]...\n"
              "Show and steer bigLittled, which switches between efficient and fast cores.\n"
              "\n"
              "Verbs:\n"
              "  status                     mode, level, demand, temperature, holds (the default)\n"
              "  hold LEVEL [-- COMMAND...] keep LEVEL while switchctl runs (or COMMAND does)\n"
              "  release ID | --all         end hold ID, or all the holds you may end\n"
              "  auto                       end your holds: back to automatic switching\n"
              "  history [-n N]             the last switches, with their reasons\n"
              "  stats                      time per level and switch counts\n"
              "  monitor                    follow the switches as they happen\n"
              "  reload                     reload the configuration\n"
              "  check-config [FILE]        validate the configuration without applying it\n"
              "  record FILE                write this machine's load as a trace for blsim\n"
              "\n"
              "Options:\n"
              "      --for DURATION         how long a hold lasts (30s, 5min, 1h, 2h30min; default 1h)\n"
              "      --reason TEXT          why, shown in status\n"
              "      --persist              the hold outlives switchctl and a daemon restart\n"
              "      --all                  release every hold you may release\n"
              "  -n, --lines N              history: the last N switches (default: all kept)\n"
              "      --duration DURATION    record: stop after DURATION (default: at Ctrl-C)\n"
              "      --interval DURATION    record: the trace's step (default: the daemon's)\n"
              "      --json                 status, history, stats: print JSON\n"
              "      --no-legend            no header and footer lines\n"
              "      --no-pager             do not pipe history into a pager\n"
              "      --no-ask-password      do not let polkit ask for a password\n"
              "  -h, --help                 show this help\n"
              "      --version              show the version\n"
              "\n"
              "See switchctl(1).\n",
              f);
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
        };

        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                if ((given & names[i].flag) && !(v->takes & names[i].flag))
                        return names[i].name;
        return NULL;
}

enum {
        OPT_VERSION = 0x100,
        OPT_JSON,
        OPT_NO_LEGEND,
        OPT_NO_PAGER,
        OPT_NO_ASK_PASSWORD,
        OPT_FOR,
        OPT_REASON,
        OPT_PERSIST,
        OPT_ALL,
        OPT_DURATION,
        OPT_INTERVAL,
};

static const struct option longopts[] = {
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, OPT_VERSION },
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
        {},
};

/* One option from getopt_long(); returns 0, or 1 to exit with *exit_status. */
static int apply_option(int c, const char *option, struct ctl_args *a, unsigned *given, int *exit_status)
{
        switch (c) {
        case 'h':
                usage(stdout);
                *exit_status = EXIT_SUCCESS;
                return 1;
        case OPT_VERSION:
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

                c = getopt_long(argc, argv, "+hn:", longopts, NULL);
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

        a->verb = n > 0 ? a->positional[0] : "status";
        v = find_verb(a->verb);
        if (!v)
                return usage_error(exit_status, "unknown verb \"%s\"", a->verb);
        if (n > 0) {
                a->positional++;
                n--;
        }
        a->n_positional = n;
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
