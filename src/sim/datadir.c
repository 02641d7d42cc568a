/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/datadir.h"

static int join(char *out, size_t size, const char *dir, const char *name)
{
        int n = snprintf(out, size, "%s/%s", dir, name);

        return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int set_dirs(struct sim_datadir *d, const char *top, const char *boards, const char *workloads)
{
        int r = join(d->boards, sizeof(d->boards), top, boards);

        return r < 0 ? r : join(d->workloads, sizeof(d->workloads), top, workloads);
}

/* The source tree named by blsim.srcdir beside the running binary, or "" when
 * there is no such file (an installed blsim). */
static int build_tree_srcdir(char *srcdir, size_t size)
{
        char exe[PATH_MAX], marker[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
        char *slash;
        FILE *f;
        int r = 0;

        srcdir[0] = '\0';
        if (n < 0)
                return 0;
        exe[n] = '\0';
        slash = strrchr(exe, '/');
        if (!slash)
                return 0;
        *slash = '\0';
        if (join(marker, sizeof(marker), exe, "blsim.srcdir") < 0)
                return 0;
        f = fopen(marker, "re");
        if (!f)
                return 0;
        if (!fgets(srcdir, (int)size, f))
                srcdir[0] = '\0';
        else if (!strchr(srcdir, '\n') && !feof(f))
                r = -ENAMETOOLONG;
        srcdir[strcspn(srcdir, "\n")] = '\0';
        fclose(f);
        return r;
}

int sim_datadir_find(struct sim_datadir *d, const char *installed_boards, const char *installed_workloads)
{
        const char *env = getenv("BLSIM_DATADIR");
        char srcdir[PATH_MAX];
        int r;

        if (env && *env) {
                r = set_dirs(d, env, "boards", "workloads");
        } else {
                r = build_tree_srcdir(srcdir, sizeof(srcdir));
                if (r == 0 && srcdir[0])
                        r = set_dirs(d, srcdir, "conf/boards", "tests/workloads");
                else if (r == 0)
                        r = -ENOENT;
        }
        if (r == 0)
                return 0;
        /* Both fit: they are compile-time paths, shorter than PATH_MAX. */
        snprintf(d->boards, sizeof(d->boards), "%s", installed_boards);
        snprintf(d->workloads, sizeof(d->workloads), "%s", installed_workloads);
        return r == -ENOENT ? 0 : r;
}

int sim_datadir_workload(const struct sim_datadir *d, const char *name, char *out, size_t size)
{
        static const char *const suffix[] = { "", ".csv", ".json" };
        struct stat st;

        for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
                int n = snprintf(out, size, "%s/%s%s", d->workloads, name, suffix[i]);

                if (n < 0 || (size_t)n >= size)
                        return -ENAMETOOLONG;
                if (stat(out, &st) == 0 && S_ISREG(st.st_mode))
                        return 0;
        }
        return -ENOENT;
}
