/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/duration.h"
#include "daemon/options.h"

/* A step shorter than /proc/stat's tick says nothing; a longer one than a
 * second hides the bursts policies are judged on. */
#define RECORD_INTERVAL_MIN_USEC 1000
#define RECORD_INTERVAL_MAX_USEC 1000000

/* A backend's name (--backend) to its kind. Returns 0 or -EINVAL. */
static int parse_backend(const char *name, enum bl_backend_kind *kind)
{
        for (enum bl_backend_kind k = BL_BACKEND_AUTO; k <= BL_BACKEND_DRYRUN; k++)
                if (strcmp(name, backend_kind_to_string(k)) == 0) {
                        *kind = k;
                        return 0;
                }
        return -EINVAL;
}

static void usage(FILE *f, const char *argv0)
{
        fprintf(f,
                "Usage: %s [OPTION]...\n"
                "Switch a big.LITTLE machine between its efficient and fast cores.\n\n"
                "  -c, --config FILE        read FILE (and FILE.d/*.conf) instead of %s\n"
                "  -f, --foreground         log to stderr instead of the journal\n"
                "  -b, --backend NAME       override [daemon] backend (auto, switcher, hotplug, cpuset,\n"
                "                           cpufreq, dryrun)\n"
                "      --check-config [FILE] validate the configuration and exit\n"
                "      --record FILE        write the machine's load to FILE as a blsim trace;\n"
                "                           switch nothing\n"
                "      --duration TIME      stop recording after TIME (\"90s\", \"5min\"; default: at\n"
                "                           SIGINT or SIGTERM)\n"
                "      --interval TIME      the trace's step (default: sample_interval_ms)\n"
                "  -h, --help               show this help\n"
                "  -V, --version            show the version\n",
                argv0, SYSCONFDIR "/bigLittle.conf");
}

int options_parse(struct options *o, int argc, char **argv, int *exit_status)
{
        enum { OPT_CHECK_CONFIG = 0x100, OPT_RECORD, OPT_DURATION, OPT_INTERVAL };
        static const struct option longopts[] = {
                { "config", required_argument, NULL, 'c' },
                { "foreground", no_argument, NULL, 'f' },
                { "backend", required_argument, NULL, 'b' },
                { "check-config", optional_argument, NULL, OPT_CHECK_CONFIG },
                { "record", required_argument, NULL, OPT_RECORD },
                { "duration", required_argument, NULL, OPT_DURATION },
                { "interval", required_argument, NULL, OPT_INTERVAL },
                { "help", no_argument, NULL, 'h' },
                { "version", no_argument, NULL, 'V' },
                {},
        };
        int c;

        *o = (struct options){ 0 };
        optind = 1;
        while ((c = getopt_long(argc, argv, "c:fb:hV", longopts, NULL)) != -1) {
                switch (c) {
                case 'c':
                        o->config = optarg;
                        break;
                case 'f':
                        o->foreground = true;
                        break;
                case 'b':
                        /* Checked here, so that --check-config and a broken
                         * configuration do not hide a misspelt name. */
                        if (parse_backend(optarg, &o->backend_kind) < 0) {
                                fprintf(stderr, "%s: --backend: unknown backend \"%s\" (auto, switcher, hotplug, "
                                        "cpuset, cpufreq, dryrun)\n", argv[0], optarg);
                                *exit_status = EXIT_USAGE;
                                return 1;
                        }
                        o->backend = optarg;
                        break;
                case OPT_CHECK_CONFIG:
                        o->check_config = true;
                        /* Accept "--check-config FILE" as well as "--check-config=FILE". */
                        if (optarg)
                                o->config = optarg;
                        else if (optind < argc && argv[optind][0] != '-')
                                o->config = argv[optind++];
                        break;
                case OPT_RECORD:
                        o->record = optarg;
                        break;
                case OPT_DURATION:
                        if (duration_parse(optarg, &o->record_duration_usec) < 0 ||
                            o->record_duration_usec == 0) {
                                fprintf(stderr, "%s: --duration: expected a duration such as 90s or 5min, "
                                        "got \"%s\"\n", argv[0], optarg);
                                *exit_status = EXIT_USAGE;
                                return 1;
                        }
                        break;
                case OPT_INTERVAL:
                        if (duration_parse(optarg, &o->record_interval_usec) < 0 ||
                            o->record_interval_usec < RECORD_INTERVAL_MIN_USEC ||
                            o->record_interval_usec > RECORD_INTERVAL_MAX_USEC) {
                                fprintf(stderr, "%s: --interval: expected a duration from 1ms to 1s, "
                                        "got \"%s\"\n", argv[0], optarg);
                                *exit_status = EXIT_USAGE;
                                return 1;
                        }
                        break;
                case 'h':
                        usage(stdout, argv[0]);
                        *exit_status = EXIT_SUCCESS;
                        return 1;
                case 'V':
                        printf("bigLittled %s\n", PACKAGE_VERSION);
                        *exit_status = EXIT_SUCCESS;
                        return 1;
                default:
                        usage(stderr, argv[0]);
                        *exit_status = EXIT_USAGE;
                        return 1;
                }
        }
        if (!o->record && (o->record_duration_usec || o->record_interval_usec)) {
                fprintf(stderr, "%s: --duration and --interval go with --record\n", argv[0]);
                *exit_status = EXIT_USAGE;
                return 1;
        }
        if (o->record && o->check_config) {
                fprintf(stderr, "%s: --record and --check-config exclude each other\n", argv[0]);
                *exit_status = EXIT_USAGE;
                return 1;
        }
        if (optind < argc) {
                fprintf(stderr, "%s: unexpected argument \"%s\"\n", argv[0], argv[optind]);
                *exit_status = EXIT_USAGE;
                return 1;
        }
        return 0;
}
