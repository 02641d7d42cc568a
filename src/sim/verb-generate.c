/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blsim generate: the CLI of the workload generators, and the only part of
 * them that touches files. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/exit-status.h"
#include "common/fileio.h"
#include "sim/generate.h"
#include "sim/verb-generate.h"

/* More traces than this from one --seeds is a typo, not a suite. */
#define SEEDS_MAX 100000ULL

struct generate_options {
        const char *family;
        bool all, list, help, have_seed;
        uint64_t seed, seed_last;       /* --seeds A-B: seed .. seed_last */
        bool have_seeds;
        bl_usec_t duration_us;          /* 0: each family's own */
        const char *out, *out_dir;
};

/* A whole decimal number, no sign, no blanks; the end in '*end'. */
static bool parse_u64(const char *text, const char **end, uint64_t *ret)
{
        uint64_t v = 0;
        const char *s = text;

        if (*s < '0' || *s > '9')
                return false;
        for (; *s >= '0' && *s <= '9'; s++) {
                unsigned d = (unsigned)(*s - '0');

                if (v > (UINT64_MAX - d) / 10)
                        return false;
                v = v * 10 + d;
        }
        *end = s;
        *ret = v;
        return true;
}

static bool parse_seeds(const char *text, uint64_t *first, uint64_t *last)
{
        const char *end;

        if (!parse_u64(text, &end, first) || *end != '-' || !parse_u64(end + 1, &end, last) || *end != '\0')
                return false;
        return *first <= *last && *last - *first < SEEDS_MAX;
}

static bool parse_duration(const char *text, bl_usec_t *ret)
{
        char *end;
        double v;

        errno = 0;
        v = strtod(text, &end);
        if (errno != 0 || end == text || *end != '\0' || !(v > 0.0) ||
            !(v * 1e6 <= (double)SIM_GEN_MAX_DURATION_US))
                return false;
        *ret = (bl_usec_t)(v * 1e6 + 0.5);
        return *ret >= SIM_GEN_STEP_US;
}

static void usage(void)
{
        printf("Usage: blsim generate FAMILY --seed N [--duration S] [--out FILE]\n"
               "       blsim generate --all --seeds A-B --out-dir DIR [--duration S]\n"
               "       blsim generate --list\n"
               "Write trace workloads of the workload families (blsim(1), WORKLOAD FAMILIES).\n\n"
               "      --seed N          the seed of the one trace (a whole number)\n"
               "      --duration S      length in seconds, at most %llu (default: the family's)\n"
               "  -o, --out FILE        write the trace to FILE (default: standard output)\n"
               "      --all             every family, for every seed of --seeds\n"
               "      --seeds A-B       seeds A to B (tuning 1-16, report 1001-1016)\n"
               "      --out-dir DIR     write DIR/FAMILY-SEED.csv\n"
               "      --list            list the families and the ranges of their parameters\n"
               "  -h, --help            show this help\n",
               SIM_GEN_MAX_DURATION_US / BL_USEC_PER_SEC);
}

static void list_families(void)
{
        for (const struct sim_gen_family *const *f = sim_gen_families; *f; f++) {
                printf("%s (%u lanes, %g s): %s\n", (*f)->name, (*f)->nlanes,
                       (double)(*f)->duration_us / 1e6, (*f)->summary);
                for (unsigned i = 0; i < (*f)->nparams; i++) {
                        const struct sim_gen_param *p = &(*f)->params[i];

                        if (p->lo == p->hi)
                                printf("  %-16s %g: %s\n", p->name, p->lo, p->what);
                        else
                                printf("  %-16s %g-%g%s: %s\n", p->name, p->lo, p->hi,
                                       p->integer ? " (whole)" : p->nchoices ? " (listed)" : "", p->what);
                }
        }
}

/* Returns -1 to go on, or the status to exit with. */
static int parse_generate_options(int argc, char **argv, struct generate_options *o)
{
        enum { OPT_SEED = 0x100, OPT_SEEDS, OPT_DURATION, OPT_OUT_DIR, OPT_ALL, OPT_LIST };
        static const struct option longopts[] = {
                { "seed", required_argument, NULL, OPT_SEED },
                { "seeds", required_argument, NULL, OPT_SEEDS },
                { "duration", required_argument, NULL, OPT_DURATION },
                { "out", required_argument, NULL, 'o' },
                { "out-dir", required_argument, NULL, OPT_OUT_DIR },
                { "all", no_argument, NULL, OPT_ALL },
                { "list", no_argument, NULL, OPT_LIST },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        const char *end;
        int c;

        *o = (struct generate_options){ 0 };
        optind = 0;     /* glibc: start afresh, whoever parsed before */
        while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
                switch (c) {
                case OPT_SEED:
                        if (!parse_u64(optarg, &end, &o->seed) || *end != '\0') {
                                fprintf(stderr, "blsim generate: --seed: expected a whole number 0-%llu, got "
                                                "\"%s\"\n", (unsigned long long)UINT64_MAX, optarg);
                                return EXIT_USAGE;
                        }
                        o->have_seed = true;
                        break;
                case OPT_SEEDS:
                        if (!parse_seeds(optarg, &o->seed, &o->seed_last)) {
                                fprintf(stderr, "blsim generate: --seeds: expected A-B, whole numbers with A <= B "
                                                "and fewer than %llu seeds, got \"%s\"\n", SEEDS_MAX, optarg);
                                return EXIT_USAGE;
                        }
                        o->have_seeds = true;
                        break;
                case OPT_DURATION:
                        if (!parse_duration(optarg, &o->duration_us)) {
                                fprintf(stderr, "blsim generate: --duration: expected seconds, 0.001-%llu, got "
                                                "\"%s\"\n", SIM_GEN_MAX_DURATION_US / BL_USEC_PER_SEC, optarg);
                                return EXIT_USAGE;
                        }
                        break;
                case 'o':
                        o->out = optarg;
                        break;
                case OPT_OUT_DIR:
                        o->out_dir = optarg;
                        break;
                case OPT_ALL:
                        o->all = true;
                        break;
                case OPT_LIST:
                        o->list = true;
                        break;
                case 'h':
                        o->help = true;
                        return -1;
                default:
                        return EXIT_USAGE;        /* getopt said why */
                }
        }
        if (optind < argc)
                o->family = argv[optind++];
        if (optind < argc) {
                fprintf(stderr, "blsim generate: unexpected argument \"%s\"\n", argv[optind]);
                return EXIT_USAGE;
        }
        if (o->list) {
                if (o->family || o->all || o->have_seed || o->have_seeds || o->out || o->out_dir ||
                    o->duration_us) {
                        fprintf(stderr, "blsim generate: --list takes no other argument\n");
                        return EXIT_USAGE;
                }
                return -1;
        }
        if (o->all) {
                const char *wrong = o->family ? "a FAMILY" : o->have_seed ? "--seed" : o->out ? "--out" : NULL;

                if (wrong) {
                        fprintf(stderr, "blsim generate: --all: %s does not go with it (--seeds A-B and "
                                        "--out-dir DIR do)\n", wrong);
                        return EXIT_USAGE;
                }
                if (!o->have_seeds || !o->out_dir) {
                        fprintf(stderr, "blsim generate: --all: %s is required\n",
                                !o->have_seeds ? "--seeds A-B" : "--out-dir DIR");
                        return EXIT_USAGE;
                }
                return -1;
        }
        if (!o->family) {
                fprintf(stderr, "blsim generate: expected a FAMILY, --all or --list\n");
                return EXIT_USAGE;
        }
        if (!sim_gen_family_find(o->family)) {
                fprintf(stderr, "blsim generate: FAMILY: no family \"%s\" (blsim generate --list names them)\n",
                        o->family);
                return EXIT_USAGE;
        }
        if (o->have_seeds || o->out_dir) {
                fprintf(stderr, "blsim generate: %s belongs to --all\n", o->have_seeds ? "--seeds" : "--out-dir");
                return EXIT_USAGE;
        }
        if (!o->have_seed) {
                fprintf(stderr, "blsim generate: %s: --seed N is required\n", o->family);
                return EXIT_USAGE;
        }
        return -1;
}

/* Writes one trace to 'path' ("-" or NULL: stdout). Returns the exit status
 * (blsim(1): 1 out of memory, 74 the file). */
static int write_trace(const struct sim_gen_family *f, uint64_t seed, bl_usec_t duration_us, const char *path)
{
        struct sim_trace t;
        struct sim_gen_drawn drawn;
        _cleanup_free_ char *text = NULL;
        size_t len;
        FILE *out;
        int r;

        r = sim_generate(&t, &drawn, f, seed, duration_us);
        if (r == 0) {
                r = sim_generate_format(&t, &drawn, f, seed, &text, &len);
                trace_free(&t);
        }
        if (r < 0) {
                /* The duration was checked: only memory can run out. */
                fprintf(stderr, "blsim generate: %s, seed %llu: %s\n", f->name, (unsigned long long)seed,
                        strerror(-r));
                return r == -ENOMEM ? EXIT_FAILURE : EXIT_SOFTWARE;
        }
        if (!path || strcmp(path, "-") == 0) {
                if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
                        fprintf(stderr, "blsim generate: cannot write the trace: %s\n", strerror(errno));
                        return EXIT_IOERR;
                }
                return EXIT_SUCCESS;
        }
        out = fopen(path, "w");
        if (!out) {
                fprintf(stderr, "blsim generate: %s: %s\n", path, strerror(errno));
                return EXIT_IOERR;
        }
        r = fwrite(text, 1, len, out) == len ? 0 : -errno;
        if (fclose(out) != 0 && r == 0)
                r = -errno;
        if (r < 0) {
                fprintf(stderr, "blsim generate: %s: %s\n", path, strerror(-r));
                return EXIT_IOERR;
        }
        return EXIT_SUCCESS;
}

static int write_all(const struct generate_options *o)
{
        unsigned long long n = 0;

        if (mkdir(o->out_dir, 0755) < 0 && errno != EEXIST) {
                fprintf(stderr, "blsim generate: --out-dir: %s: %s\n", o->out_dir, strerror(errno));
                return EXIT_IOERR;
        }
        for (const struct sim_gen_family *const *f = sim_gen_families; *f; f++)
                for (uint64_t seed = o->seed;; seed++) {
                        char name[PATH_MAX], path[PATH_MAX];
                        int status;

                        snprintf(name, sizeof(name), "%s-%llu.csv", (*f)->name, (unsigned long long)seed);
                        if (path_join(path, sizeof(path), o->out_dir, name) < 0) {
                                fprintf(stderr, "blsim generate: --out-dir: %s: %s\n", o->out_dir,
                                        strerror(ENAMETOOLONG));
                                return EXIT_USAGE;
                        }
                        status = write_trace(*f, seed, o->duration_us, path);
                        if (status != EXIT_SUCCESS)
                                return status;
                        n++;
                        if (seed == o->seed_last)
                                break;
                }
        printf("blsim generate: %llu traces in %s\n", n, o->out_dir);
        return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_IOERR;
}

int sim_verb_generate(int argc, char **argv)
{
        struct generate_options o;
        int status = parse_generate_options(argc, argv, &o);

        if (status >= 0)
                return status;
        if (o.help) {
                usage();
                return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_IOERR;
        }
        if (o.list) {
                list_families();
                return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_IOERR;
        }
        if (o.all)
                return write_all(&o);
        return write_trace(sim_gen_family_find(o.family), o.seed, o.duration_us, o.out);
}
