/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fileio.h"
#include "core/array.h"
#include "sources/cpufreq.h"

#define CPUFREQ_DIR "/sys/devices/system/cpu/cpufreq"
#define PATH_SIZE 512

static int join_path(char *buf, size_t size, const char *dir, const char *name)
{
        int n = snprintf(buf, size, "%s/%s", dir, name);

        return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int read_uint(const char *dir, const char *name, unsigned *ret)
{
        char path[PATH_SIZE], buf[64];
        long long v;
        int r;

        r = join_path(path, sizeof(path), dir, name);
        if (r < 0)
                return r;
        r = read_line(path, buf, sizeof(buf));
        if (r < 0)
                return r;
        r = parse_int(buf, &v);
        if (r < 0)
                return r;
        if (v <= 0 || v > UINT32_MAX)
                return -ERANGE;
        *ret = (unsigned)v;
        return 0;
}

/* Opens one policy directory; a policy that does not read cleanly is left out. */
static int open_policy(const char *dir, struct cpufreq_policy_reader *p)
{
        _cleanup_free_ char *text = NULL;
        char path[PATH_SIZE];
        int r;

        /* "0 1 2 ... 1023 " is longer than a page: read it whole */
        r = join_path(path, sizeof(path), dir, "related_cpus");
        if (r < 0)
                return r;
        r = read_file(path, &text, NULL);
        if (r < 0)
                return r;
        r = cpumask_parse_words(&p->cpus, text);
        if (r < 0)
                return r;
        p->span = cpumask_span(&p->cpus);
        if (p->span == 0)
                return -EINVAL;
        r = read_uint(dir, "cpuinfo_max_freq", &p->max_khz);
        if (r < 0)
                return r;
        r = join_path(path, sizeof(path), dir, "scaling_cur_freq");
        if (r < 0)
                return r;
        r = open_kept(path);
        if (r < 0)
                return r;
        p->fd = r;
        p->cur_khz = p->max_khz;
        p->error = 0;
        p->have_cur = false;
        return 0;
}

/* The lowest CPU of a non-empty set, or BL_MAX_CPUS. */
static unsigned first_cpu(const bl_cpumask *s)
{
        for (unsigned w = 0; w < BL_MAX_CPUS / 64; w++)
                if (s->bits[w])
                        return w * 64 + (unsigned)__builtin_ctzll(s->bits[w]);
        return BL_MAX_CPUS;
}

static int compare_policy(const void *a, const void *b)
{
        unsigned x = first_cpu(&((const struct cpufreq_policy_reader *)a)->cpus);
        unsigned y = first_cpu(&((const struct cpufreq_policy_reader *)b)->cpus);

        return (x > y) - (x < y);
}

int cpufreq_open(struct cpufreq_reader *r)
{
        struct dirent *de;
        size_t cap = 0;
        DIR *d;
        int ret = 0;

        r->n = 0;
        r->policy = NULL;
        d = opendir(CPUFREQ_DIR);
        if (!d)
                return errno == ENOENT ? 0 : -errno;
        while ((de = readdir(d))) {
                char dir[PATH_SIZE];
                const char *num;

                if (strncmp(de->d_name, "policy", 6) != 0)
                        continue;
                num = de->d_name + 6;
                if (*num == '\0' || strspn(num, "0123456789") != strlen(num))
                        continue;
                ret = array_grow((void **)&r->policy, r->n, &cap, sizeof(*r->policy), 8);
                if (ret < 0)
                        break;
                if (join_path(dir, sizeof(dir), CPUFREQ_DIR, de->d_name) == 0 &&
                    open_policy(dir, &r->policy[r->n]) == 0)
                        r->n++;
        }
        closedir(d);
        if (ret < 0) {
                cpufreq_close(r);
                return ret;
        }
        /* readdir order is arbitrary; keep the policies in CPU order. */
        if (r->n > 1)
                qsort(r->policy, r->n, sizeof(*r->policy), compare_policy);
        return 0;
}

/* Whether any CPU of the policy was busy. Its CPUs' bits, not a test of
 * every CPU below its last: every tick, for every policy. */
static bool policy_busy(const struct cpufreq_policy_reader *p, const float *busy)
{
        for (unsigned w = 0; w < (p->span + 63) / 64; w++)
                for (uint64_t bits = p->cpus.bits[w]; bits; bits &= bits - 1)
                        if (busy[w * 64 + (unsigned)__builtin_ctzll(bits)] > 0.0f)
                                return true;
        return false;
}

int cpufreq_read(struct cpufreq_reader *r, const float *busy)
{
        int ret = 0;

        for (unsigned i = 0; i < r->n; i++) {
                struct cpufreq_policy_reader *p = &r->policy[i];
                char buf[64];
                long long v = 0;
                int k;

                if (busy && p->have_cur && !policy_busy(p, busy))
                        continue;
                r->reads++;
                k = pread_text(p->fd, buf, sizeof(buf), NULL);
                if (k == -EBUSY)
                        continue;
                if (k == 0)
                        k = parse_int(buf, &v);
                if (k == 0 && (v <= 0 || v > UINT32_MAX))
                        k = -ERANGE;
                p->error = k;
                if (k < 0) {
                        p->cur_khz = p->max_khz;
                        if (ret == 0)
                                ret = k;
                        continue;
                }
                p->cur_khz = (unsigned)v;
                p->have_cur = true;
        }
        return ret;
}

static unsigned top_capacity(const struct bl_topology *t, unsigned cpu)
{
        int c = t->cpu_cluster[cpu];

        if (c < 0 || (unsigned)c >= t->nclusters)
                return 0;
        return t->clusters[c].capacity;
}

static uint16_t clamp_u16(uint64_t v)
{
        return v > UINT16_MAX ? UINT16_MAX : (uint16_t)v;
}

void cpufreq_scale(const struct cpufreq_reader *r, const struct bl_topology *t, uint16_t *capacity)
{
        /* The words that hold the topology's CPUs: walking all BL_MAX_CPUS
         * / 64 of them was a third of this on 8 CPUs, every tick. */
        const unsigned words = (t->ncpus + 63) / 64;

        for (unsigned cpu = 0; cpu < t->ncpus; cpu++)
                capacity[cpu] = clamp_u16(top_capacity(t, cpu));
        for (unsigned i = 0; i < r->n; i++) {
                const struct cpufreq_policy_reader *p = &r->policy[i];

                for (unsigned w = 0; w < words && w < BL_MAX_CPUS / 64; w++) {
                        for (uint64_t bits = p->cpus.bits[w]; bits; bits &= bits - 1) {
                                unsigned cpu = w * 64 + (unsigned)__builtin_ctzll(bits);
                                uint64_t top, cap;

                                if (cpu >= t->ncpus)
                                        break;
                                top = top_capacity(t, cpu);
                                cap = p->max_khz ? top * p->cur_khz / p->max_khz : top;
                                /* boost frequencies run above cpuinfo_max_freq */
                                capacity[cpu] = clamp_u16(cap < top ? cap : top);
                        }
                }
        }
}

void cpufreq_close(struct cpufreq_reader *r)
{
        for (unsigned i = 0; i < r->n; i++)
                if (r->policy[i].fd >= 0)
                        close(r->policy[i].fd);
        free(r->policy);
        r->policy = NULL;
        r->n = 0;
}
