/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "loaders/energy-model-dir.h"

#define EM_PATH_MAX 4096

/* "0-3,6" into a mask of up to 64 CPUs. */
int em_parse_cpulist(const char *s, uint64_t *mask)
{
        *mask = 0;
        while (*s && *s != '\n') {
                char *end;
                unsigned long a = strtoul(s, &end, 10), b = a;

                if (end == s)
                        return -EINVAL;
                s = end;
                if (*s == '-') {
                        b = strtoul(s + 1, &end, 10);
                        if (end == s + 1)
                                return -EINVAL;
                        s = end;
                }
                if (b < a || b >= 64)
                        return -ERANGE;
                for (unsigned long i = a; i <= b; i++)
                        *mask |= UINT64_C(1) << i;
                if (*s == ',')
                        s++;
        }
        return 0;
}

/* The names in 'dir' but dot files, sorted as scandir() sorts them, read
 * through opendir(): umockdev's redirection of /sys intercepts that call,
 * while glibc's scandir() opens the directory internally, past it. */
struct names {
        size_t n;
        char **name;
};

static void names_free(struct names *l)
{
        for (size_t i = 0; i < l->n; i++)
                free(l->name[i]);
        free(l->name);
        *l = (struct names){ 0 };
}

static int cmp_name(const void *a, const void *b)
{
        return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_dir(const char *dir, struct names *l)
{
        DIR *d = opendir(dir);
        struct dirent *e;
        size_t cap = 0;
        int r = 0;

        *l = (struct names){ 0 };
        if (!d)
                return -errno;
        while (r == 0 && (e = readdir(d))) {
                if (e->d_name[0] == '.')
                        continue;
                if (l->n == cap) {
                        char **more = realloc(l->name, (cap ? cap * 2 : 16) * sizeof(*more));

                        if (!more) {
                                r = -ENOMEM;
                                break;
                        }
                        l->name = more;
                        cap = cap ? cap * 2 : 16;
                }
                l->name[l->n] = strdup(e->d_name);
                if (!l->name[l->n])
                        r = -ENOMEM;
                else
                        l->n++;
        }
        closedir(d);
        if (r < 0) {
                names_free(l);
                return r;
        }
        if (l->n)
                qsort(l->name, l->n, sizeof(*l->name), cmp_name);
        return 0;
}

/* One performance domain of ROOT/sys/kernel/debug/energy_model: "cpus" and
 * a "ps:KHZ" directory per state with "frequency" (kHz) and "power": uW
 * since Linux 6.0, mW before (5.11-5.19 say so in a "units" file; before
 * 5.11 the states were "cs:KHZ", in mW). */
static int read_em_pd(const char *dir, struct em_domain *pd, struct bl_diag *diag)
{
        char path[EM_PATH_MAX], buf[256];
        struct names names;
        uint64_t scale = 1;
        int r;

        textf(path, sizeof(path), "%s/cpus", dir);
        r = read_line(path, buf, sizeof(buf));
        if (r < 0)
                return 1;       /* not a CPU's domain */
        r = em_parse_cpulist(buf, &pd->cpus);
        if (r < 0) {
                diag_add(diag, "%s: expected a CPU list like 0-3, got \"%s\"", path, buf);
                return r;
        }
        textf(path, sizeof(path), "%s/units", dir);
        if (read_line(path, buf, sizeof(buf)) == 0) {
                if (strcmp(buf, "milliWatts") != 0) {
                        diag_add(diag, "%s: expected milliWatts, got \"%s\": an abstract scale is no power",
                                 path, buf);
                        return -EINVAL;
                }
                scale = 1000;
        }
        r = list_dir(dir, &names);
        if (r < 0) {
                diag_add(diag, "%s: %s", dir, strerror(-r));
                return r;
        }
        pd->nps = 0;
        for (size_t i = 0; i < names.n; i++) {
                const char *name = names.name[i];
                uint64_t khz, power;
                bool cs = strncmp(name, "cs:", 3) == 0;

                if (r == 0 && (cs || strncmp(name, "ps:", 3) == 0)) {
                        if (pd->nps == SIM_MAX_OPPS) {
                                diag_add(diag, "%s: expected at most %d performance states, got more", dir,
                                         SIM_MAX_OPPS);
                                r = -E2BIG;
                        } else {
                                textf(path, sizeof(path), "%s/%s/frequency", dir, name);
                                r = read_u64_line(path, &khz);
                                if (r == 0) {
                                        textf(path, sizeof(path), "%s/%s/power", dir, name);
                                        r = read_u64_line(path, &power);
                                }
                                if (r < 0)
                                        diag_add(diag, "%s: expected a number, got %s", path,
                                                 r == -EINVAL ? "something else" : strerror(-r));
                                else if (khz == 0 || khz > UINT_MAX)
                                        diag_add(diag, "%s: expected a frequency in kHz, got %llu", path,
                                                 (unsigned long long)khz), r = -EINVAL;
                                else {
                                        pd->khz[pd->nps] = (unsigned)khz;
                                        pd->uw[pd->nps++] = power * (cs ? 1000 : scale);
                                }
                        }
                }
        }
        names_free(&names);
        if (r < 0)
                return r;
        /* "ps:1000000" sorts before "ps:408000": order by frequency */
        for (unsigned i = 1; i < pd->nps; i++)
                for (unsigned j = i; j > 0 && pd->khz[j - 1] > pd->khz[j]; j--) {
                        unsigned tk = pd->khz[j];
                        uint64_t tu = pd->uw[j];

                        pd->khz[j] = pd->khz[j - 1];
                        pd->uw[j] = pd->uw[j - 1];
                        pd->khz[j - 1] = tk;
                        pd->uw[j - 1] = tu;
                }
        if (pd->nps == 0) {
                diag_add(diag, "%s: expected ps:FREQ (or cs:FREQ) directories, got none", dir);
                return -EINVAL;
        }
        return 0;
}

int em_read_domains(const char *dir, struct em_domains *out, struct bl_diag *diag)
{
        char path[EM_PATH_MAX];
        struct names names;
        int r;

        out->n = 0;
        r = list_dir(dir, &names);
        if (r < 0)
                return r;
        for (size_t i = 0; r == 0 && i < names.n && out->n < EM_MAX_DOMAINS; i++) {
                textf(path, sizeof(path), "%s/%s", dir, names.name[i]);
                r = read_em_pd(path, &out->d[out->n], diag);
                if (r == 0)
                        out->n++;
                else if (r > 0)
                        r = 0;
        }
        names_free(&names);
        return r;
}
