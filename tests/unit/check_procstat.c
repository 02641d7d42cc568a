/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <check.h>
#include <math.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "sources/loadavg.h"
#include "sources/procstat.h"
#include "sources/psi.h"
#include "sources/stat-window.h"

static char *load(const char *dir, const char *name, size_t *len)
{
        char path[512];
        char *text;

        snprintf(path, sizeof(path), "%s/%s/%s", TEST_DATA_DIR, dir, name);
        ck_assert_msg(read_file(path, &text, len) == 0, "cannot read %s", path);
        return text;
}

/* A copy of exactly 'len' bytes, not NUL-terminated, so that a parser's
 * read past the end shows under the sanitizers. */
static char *exact_copy(const char *text, size_t len)
{
        char *copy = malloc(len ? len : 1);

        ck_assert_ptr_nonnull(copy);
        memcpy(copy, text, len);
        return copy;
}

static int parse_exact(struct procstat *out, const char *text, size_t len)
{
        char *copy = exact_copy(text, len);
        int r = procstat_parse(out, copy, len);

        free(copy);
        return r;
}

static int parse_str(struct procstat *out, const char *text)
{
        return parse_exact(out, text, strlen(text));
}

static void parse_sample(struct procstat *out, const char *name)
{
        size_t len;
        char *text = load("procstat", name, &len);

        ck_assert_int_eq(procstat_parse(out, text, len), 0);
        free(text);
}

static void assert_cpu(const struct procstat *s, unsigned cpu, uint64_t busy, uint64_t idle)
{
        ck_assert_msg(cpumask_isset(&s->cpus, cpu), "cpu%u missing", cpu);
        ck_assert_uint_eq(s->cpu[cpu].busy, busy);
        ck_assert_uint_eq(s->cpu[cpu].idle, idle);
}

/* Real files of several kernels: the counters of a few CPUs, exactly. */

START_TEST(test_linux_2_4_four_columns)
{
        struct procstat s;

        parse_sample(&s, "linux-2.4.20-i686-smp.txt");
        ck_assert_uint_eq(s.ncpus, 2);
        ck_assert_uint_eq(cpumask_count(&s.cpus), 2);
        /* user nice system idle only */
        assert_cpu(&s, 0, 937614 + 4330 + 236233, 35731957);
        assert_cpu(&s, 1, 925924 + 4206 + 237378, 35741892);
}
END_TEST

START_TEST(test_linux_2_6_18_eight_columns)
{
        struct procstat s;

        parse_sample(&s, "linux-2.6.18-rhel5-x86_64.txt");
        ck_assert_uint_eq(s.ncpus, 4);
        ck_assert_uint_eq(cpumask_count(&s.cpus), 4);
        /* user nice system idle iowait irq softirq steal */
        assert_cpu(&s, 0, 113245 + 34 + 144117 + 1271 + 4380 + 0, 113117180 + 36751);
        assert_cpu(&s, 3, 87654 + 3 + 65432 + 0 + 77 + 0, 113212345 + 10987);
}
END_TEST

START_TEST(test_linux_3_10_exynos_eight_cpus)
{
        struct procstat s;

        parse_sample(&s, "linux-3.10-exynos5422-armv7.txt");
        ck_assert_uint_eq(s.ncpus, 8);
        ck_assert_uint_eq(cpumask_count(&s.cpus), 8);
        assert_cpu(&s, 0, 118011 + 212 + 38421 + 0 + 874 + 0, 907654 + 2871);
        assert_cpu(&s, 4, 85210 + 17 + 21874 + 31 + 95 + 0, 1398012 + 412);
        assert_cpu(&s, 7, 27772 + 85 + 31220 + 3 + 214 + 0, 945490 + 1357);
}
END_TEST

START_TEST(test_linux_5_15_offline_cpu_has_no_line)
{
        struct procstat s;

        parse_sample(&s, "linux-5.15-x86_64-cpu2-offline.txt");
        ck_assert_uint_eq(s.ncpus, 4);
        ck_assert_uint_eq(cpumask_count(&s.cpus), 3);
        ck_assert(!cpumask_isset(&s.cpus, 2));
        ck_assert_uint_eq(s.cpu[2].busy, 0);
        ck_assert_uint_eq(s.cpu[2].idle, 0);
        assert_cpu(&s, 1, 3398712 + 998 + 976543 + 0 + 12345 + 0, 98812345 + 21987);
        assert_cpu(&s, 3, 3012345 + 876 + 912345 + 0 + 11223 + 0, 99123456 + 20123);
}
END_TEST

START_TEST(test_linux_6_1_guest_not_added)
{
        struct procstat s;

        parse_sample(&s, "linux-6.1-rk3588-arm64.txt");
        ck_assert_uint_eq(s.ncpus, 8);
        /* cpu6 ran a guest: 120000 and 3000 ticks are already in user and nice */
        assert_cpu(&s, 6, 734512 + 3120 + 156789 + 0 + 2345 + 0, 6543210 + 4321);
        assert_cpu(&s, 0, 320668 + 99 + 199362 + 0 + 545 + 0, 5545144 + 4419);
}
END_TEST

START_TEST(test_vendor_eleventh_column_ignored)
{
        struct procstat s;

        parse_sample(&s, "android-4.14-vendor-11col.txt");
        ck_assert_uint_eq(s.ncpus, 4);
        assert_cpu(&s, 0, 98123 + 4567 + 45678 + 5678 + 2345 + 0, 876543 + 1234);
        assert_cpu(&s, 3, 65432 + 1234 + 12345 + 0 + 999 + 0, 909876 + 888);
}
END_TEST

START_TEST(test_this_machine_sample)
{
        struct procstat s;

        parse_sample(&s, "local-debian12-6.18.txt");
        ck_assert_uint_eq(s.ncpus, 2);
        assert_cpu(&s, 0, 1293 + 0 + 1429 + 0 + 9 + 210, 315995 + 20);
        assert_cpu(&s, 1, 2159 + 0 + 1918 + 0 + 47 + 208, 314303 + 422);
}
END_TEST

START_TEST(test_this_machine_live)
{
        struct procstat_reader r;
        struct procstat s;
        long online = sysconf(_SC_NPROCESSORS_ONLN);

        ck_assert_int_eq(procstat_open(&r, "/proc/stat"), 0);
        ck_assert_int_eq(procstat_read(&r, &s), 0);
        ck_assert_uint_eq(cpumask_count(&s.cpus), (unsigned)online);
        procstat_close(&r);
        ck_assert_int_eq(r.fd, -1);
}
END_TEST

/* Busy fraction between two snapshots. */

static void busy_between(const char *prev_text, const char *cur_text, float *busy, bl_cpumask *online)
{
        struct procstat prev, cur;

        ck_assert_int_eq(parse_str(&prev, prev_text), 0);
        ck_assert_int_eq(parse_str(&cur, cur_text), 0);
        for (unsigned i = 0; i < BL_MAX_CPUS; i++)
                busy[i] = 7.0f;
        procstat_busy(&prev, &cur, busy, online);
}

START_TEST(test_busy_exact)
{
        float busy[BL_MAX_CPUS];
        bl_cpumask online;

        busy_between("cpu  0 0 0 0\n"
                     "cpu0 100 0 50 1000 10 0 0 0 0 0\n"
                     "cpu1 100 0 0 1000 0 0 0 0 0 0\n"
                     "cpu2 0 0 0 0 0 0 0 0 0 0\n"
                     "cpu3 5 5 5 5 5 5 5 5 0 0\n"
                     "intr 0\n",
                     "cpu  0 0 0 0\n"
                     /* user +20, system +5, softirq +5: busy 30; idle +60, iowait +10 */
                     "cpu0 120 0 55 1060 20 0 5 0 0 0\n"
                     /* nothing but idle */
                     "cpu1 100 0 0 1002 0 0 0 0 0 0\n"
                     /* fully busy, spread over every busy column */
                     "cpu2 1 1 1 0 0 1 1 1 0 0\n"
                     /* guest time moves with user: counted once */
                     "cpu3 7 5 5 7 5 5 5 5 2 0\n"
                     "intr 0\n",
                     busy, &online);
        ck_assert_uint_eq(cpumask_count(&online), 4);
        ck_assert_float_eq_tol(busy[0], 0.3f, 1e-6f);
        ck_assert_float_eq(busy[1], 0.0f);
        ck_assert_float_eq(busy[2], 1.0f);
        ck_assert_float_eq_tol(busy[3], 0.5f, 1e-6f);
        ck_assert_float_eq(busy[4], 0.0f);
        ck_assert_float_eq(busy[BL_MAX_CPUS - 1], 0.0f);
}
END_TEST

START_TEST(test_busy_backwards_counters_clamped)
{
        float busy[BL_MAX_CPUS];
        bl_cpumask online;

        busy_between("cpu0 100 0 0 1000 50 0 0 0\n"
                     "cpu1 500 0 0 1000 0 0 0 0\n"
                     "cpu2 100 0 0 1000 0 0 0 0\n",
                     /* iowait fell by 40 while idle rose by 10: no idle progress */
                     "cpu0 110 0 0 1010 10 0 0 0\n"
                     /* busy went backwards (hotplug reset): no busy progress */
                     "cpu1 400 0 0 1030 0 0 0 0\n"
                     /* everything went backwards: 0, not a huge number */
                     "cpu2 50 0 0 900 0 0 0 0\n",
                     busy, &online);
        ck_assert_uint_eq(cpumask_count(&online), 3);
        ck_assert_float_eq(busy[0], 1.0f);
        ck_assert_float_eq(busy[1], 0.0f);
        ck_assert_float_eq(busy[2], 0.0f);
}
END_TEST

START_TEST(test_busy_cpu_appears_and_disappears)
{
        float busy[BL_MAX_CPUS];
        bl_cpumask online;

        busy_between("cpu0 0 0 0 0\ncpu1 0 0 0 0\ncpu3 0 0 0 0\n",
                     "cpu0 10 0 0 10\ncpu2 20 0 0 0\ncpu3 5 0 0 15\ncpu4 9 0 0 0\n",
                     busy, &online);
        ck_assert_uint_eq(cpumask_count(&online), 2);
        ck_assert(cpumask_isset(&online, 0));
        ck_assert(!cpumask_isset(&online, 1));  /* went offline */
        ck_assert(!cpumask_isset(&online, 2));  /* came online: no previous count */
        ck_assert(cpumask_isset(&online, 3));
        ck_assert(!cpumask_isset(&online, 4));
        ck_assert_float_eq_tol(busy[0], 0.5f, 1e-6f);
        ck_assert_float_eq(busy[1], 0.0f);
        ck_assert_float_eq(busy[2], 0.0f);
        ck_assert_float_eq_tol(busy[3], 0.25f, 1e-6f);
        ck_assert_float_eq(busy[4], 0.0f);
}
END_TEST

START_TEST(test_busy_same_snapshot)
{
        struct procstat s;
        float busy[BL_MAX_CPUS];
        bl_cpumask online;

        parse_sample(&s, "linux-5.15-x86_64-cpu2-offline.txt");
        procstat_busy(&s, &s, busy, &online);
        ck_assert(cpumask_equal(&online, &s.cpus));
        for (unsigned i = 0; i < 4; i++)
                ck_assert_float_eq(busy[i], 0.0f);
}
END_TEST

START_TEST(test_busy_two_real_snapshots)
{
        struct procstat prev, cur;
        float busy[BL_MAX_CPUS];
        bl_cpumask online;
        size_t len;
        char *text = load("procstat", "linux-3.10-exynos5422-armv7.txt", &len);

        ck_assert_int_eq(procstat_parse(&prev, text, len), 0);
        cur = prev;
        /* 2 ticks (20 ms at USER_HZ 100): cpu4 1 busy + 1 idle, cpu5 2 busy */
        cur.cpu[4].busy += 1;
        cur.cpu[4].idle += 1;
        cur.cpu[5].busy += 2;
        cur.cpu[0].idle += 2;
        procstat_busy(&prev, &cur, busy, &online);
        ck_assert_uint_eq(cpumask_count(&online), 8);
        ck_assert_float_eq(busy[0], 0.0f);
        ck_assert_float_eq(busy[4], 0.5f);
        ck_assert_float_eq(busy[5], 1.0f);
        ck_assert_float_eq(busy[6], 0.0f);
        free(text);
}
END_TEST

/* The CPUs listed in both snapshots, whatever their counters say. */
START_TEST(test_online_in_both)
{
        struct procstat prev, cur;
        bl_cpumask online;

        ck_assert_int_eq(parse_str(&prev, "cpu0 10 0 0 10\ncpu2 10 0 0 10\ncpu3 5 0 0 5\n"), 0);
        ck_assert_int_eq(parse_str(&cur, "cpu0 9 0 0 9\ncpu1 20 0 0 10\ncpu2 10 0 0 10\ncpu70 1 0 0 1\n"), 0);
        procstat_online(&prev, &cur, &online);
        ck_assert_uint_eq(cpumask_count(&online), 2);
        ck_assert(cpumask_isset(&online, 0));
        ck_assert(cpumask_isset(&online, 2));
        procstat_online(&cur, &cur, &online);
        ck_assert(cpumask_equal(&online, &cur.cpus));
}
END_TEST

/* Broken input. */

static void assert_cut(const char *name)
{
        size_t len, first_cpu_end = 0, last_cpu_end = 0;
        struct procstat full, part;
        char *text = load("procstat", name, &len);

        ck_assert_int_eq(procstat_parse(&full, text, len), 0);
        /* where the per-CPU lines end */
        for (size_t i = 0; i < len;) {
                const char *eol = memchr(text + i, '\n', len - i);
                size_t next = (size_t)(eol - text) + 1;

                if (strncmp(text + i, "cpu", 3) != 0)
                        break;
                if (text[i + 3] != ' ') {
                        if (!first_cpu_end)
                                first_cpu_end = next;
                        last_cpu_end = next;
                }
                i = next;
        }
        ck_assert_uint_gt(first_cpu_end, 0);

        for (size_t cut = 0; cut <= len; cut++) {
                int r = parse_exact(&part, text, cut);
                bool at_line_end = cut > 0 && text[cut - 1] == '\n';
                bool ok = cut >= last_cpu_end || (cut >= first_cpu_end && at_line_end);

                ck_assert_msg(r == (ok ? 0 : -EINVAL), "%s cut at %zu: got %d", name, cut, r);
                if (r < 0)
                        continue;
                /* what was parsed is exactly the complete lines */
                for (unsigned cpu = 0; cpu < part.ncpus; cpu++) {
                        if (!cpumask_isset(&part.cpus, cpu))
                                continue;
                        ck_assert(cpumask_isset(&full.cpus, cpu));
                        ck_assert_uint_eq(part.cpu[cpu].busy, full.cpu[cpu].busy);
                        ck_assert_uint_eq(part.cpu[cpu].idle, full.cpu[cpu].idle);
                }
                if (cut >= last_cpu_end)
                        ck_assert(cpumask_equal(&part.cpus, &full.cpus));
        }
        free(text);
}

START_TEST(test_truncated_everywhere)
{
        static const char *const samples[] = {
                "linux-2.4.20-i686-smp.txt",
                "linux-2.6.18-rhel5-x86_64.txt",
                "linux-3.10-exynos5422-armv7.txt",
                "linux-5.15-x86_64-cpu2-offline.txt",
                "linux-6.1-rk3588-arm64.txt",
                "android-4.14-vendor-11col.txt",
                "local-debian12-6.18.txt",
        };

        assert_cut(samples[_i]);
}
END_TEST

START_TEST(test_garbage)
{
        static const char *const bad[] = {
                "",
                "\n",
                "hello world\n",
                "cpu  1 2 3 4\n",                       /* only the sum */
                "cpu  1 2 3 4\nintr 5\n",
                "intr 5\ncpu0 1 2 3 4\n",               /* cpu lines come first */
                "cpu0 1 2 3\n",                         /* fewer than 4 columns */
                "cpu0\n",
                "cpu0 1 2 x 4\n",
                "cpu0 1 2 3 4x\n",
                "cpu0 -1 2 3 4\n",
                "cpu0 +1 2 3 4\n",
                "cpux 1 2 3 4\n",
                "cpu 0 1 2 3 4\ncpu0x 1 2 3 4\n",
                "cpu01x 1 2 3 4\n",
                "cpu0 1 2 3 4",                         /* cut: no newline */
                "cpu0 1 2 3 4\ncpu1 1 2 3 4",
                "cpu0 1 2 3 4\ncp",
                "cpu0 1 2 3 4\ncpu0 1 2 3 4\n",         /* the same CPU twice */
                "cpu0 1 2 3 4\r\n",
                "\xff\xfe\x00\x01",
        };

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                struct procstat s;
                int r = parse_exact(&s, bad[i], i == sizeof(bad) / sizeof(bad[0]) - 1 ? 4 : strlen(bad[i]));

                ck_assert_msg(r == -EINVAL, "case %zu: got %d", i, r);
        }
}
END_TEST

START_TEST(test_nul_inside_line)
{
        static const char text[] = "cpu0 1 2\0 3 4\n";
        struct procstat s;

        ck_assert_int_eq(parse_exact(&s, text, sizeof(text) - 1), -EINVAL);
}
END_TEST

START_TEST(test_tolerated_forms)
{
        struct procstat s;

        /* separators of more than one blank, trailing blanks, tabs */
        ck_assert_int_eq(parse_str(&s, "cpu0  1\t2 3 4 \ncpu1 1 2 3 4\t\n"), 0);
        ck_assert_uint_eq(s.ncpus, 2);
        assert_cpu(&s, 0, 1 + 2 + 3, 4);
        /* no sum line, a lone cpu line, nothing after it */
        ck_assert_int_eq(parse_str(&s, "cpu7 1 2 3 4\n"), 0);
        ck_assert_uint_eq(s.ncpus, 8);
        ck_assert_uint_eq(cpumask_count(&s.cpus), 1);
        ck_assert_uint_eq(s.cpu[3].busy, 0);
        /* a cut line after the cpu lines is not ours to judge */
        ck_assert_int_eq(parse_str(&s, "cpu0 1 2 3 4\nintr 12"), 0);
        /* CPUs out of order */
        ck_assert_int_eq(parse_str(&s, "cpu3 1 0 0 1\ncpu1 2 0 0 2\n"), 0);
        ck_assert_uint_eq(s.ncpus, 4);
        assert_cpu(&s, 1, 2, 2);
        assert_cpu(&s, 3, 1, 1);
        ck_assert_uint_eq(s.cpu[0].busy, 0);
}
END_TEST

START_TEST(test_huge_numbers)
{
        struct procstat s;

        ck_assert_int_eq(parse_str(&s, "cpu0 18446744073709551615 0 0 18446744073709551615\n"), 0);
        assert_cpu(&s, 0, UINT64_MAX, UINT64_MAX);
        /* one more than 2^64 - 1 */
        ck_assert_int_eq(parse_str(&s, "cpu0 18446744073709551616 0 0 0\n"), -EINVAL);
        ck_assert_int_eq(parse_str(&s, "cpu0 1 0 0 99999999999999999999999999\n"), -EINVAL);
        /* each column fits, their sum does not */
        ck_assert_int_eq(parse_str(&s, "cpu0 18446744073709551615 1 0 0\n"), -EINVAL);
        ck_assert_int_eq(parse_str(&s, "cpu0 0 0 0 18446744073709551615 1\n"), -EINVAL);
        /* an ignored column still has to be a number */
        ck_assert_int_eq(parse_str(&s, "cpu0 1 2 3 4 5 6 7 8 9 10 99999999999999999999999\n"), -EINVAL);
}
END_TEST

START_TEST(test_cpu_number_range)
{
        struct procstat s;

        ck_assert_int_eq(parse_str(&s, "cpu1023 1 2 3 4\n"), 0);
        ck_assert_uint_eq(s.ncpus, BL_MAX_CPUS);
        assert_cpu(&s, 1023, 6, 4);
        ck_assert_int_eq(parse_str(&s, "cpu1024 1 2 3 4\n"), -ERANGE);
        ck_assert_int_eq(parse_str(&s, "cpu0 1 2 3 4\ncpu4096 1 2 3 4\n"), -ERANGE);
        ck_assert_int_eq(parse_str(&s, "cpu99999999999999999999999 1 2 3 4\n"), -ERANGE);
}
END_TEST

/* The reader: one descriptor, re-read with pread from offset 0. */

static char *temp_path(void)
{
        static char path[64];
        int fd;

        snprintf(path, sizeof(path), "/tmp/check_procstat.XXXXXX");
        fd = mkstemp(path);
        ck_assert_int_ge(fd, 0);
        close(fd);
        return path;
}

/* Rewrites the file in place (same inode), as the kernel's file changes. */
static void rewrite(const char *path, const char *text, size_t len)
{
        int fd = open(path, O_WRONLY);

        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(ftruncate(fd, 0), 0);
        ck_assert_int_eq(pwrite(fd, text, len, 0), (ssize_t)len);
        close(fd);
}

START_TEST(test_reader_rereads_in_place)
{
        static const char one[] = "cpu  3 0 0 3\ncpu0 1 0 0 1\ncpu1 2 0 0 2\nintr 1 2 3\nctxt 5\n";
        static const char two[] = "cpu  30 0 0 30\ncpu0 10 0 0 10\ncpu1 20 0 0 20\nintr 1 2 3\nctxt 6\n";
        static const char three[] = "cpu  30 0 0 30\ncpu1 21 0 0 21\nintr 1\n";
        struct procstat_reader r;
        struct procstat s;
        const char *path = temp_path();
        struct stat before, after;

        rewrite(path, one, sizeof(one) - 1);
        ck_assert_int_eq(procstat_open(&r, path), 0);
        ck_assert_int_eq(fstat(r.fd, &before), 0);
        ck_assert_int_eq(procstat_read(&r, &s), 0);
        assert_cpu(&s, 1, 2, 2);

        rewrite(path, two, sizeof(two) - 1);
        ck_assert_int_eq(procstat_read(&r, &s), 0);
        assert_cpu(&s, 0, 10, 10);
        assert_cpu(&s, 1, 20, 20);

        /* shorter than before: cpu0 went offline */
        rewrite(path, three, sizeof(three) - 1);
        ck_assert_int_eq(procstat_read(&r, &s), 0);
        ck_assert(!cpumask_isset(&s.cpus, 0));
        assert_cpu(&s, 1, 21, 21);
        ck_assert_int_eq(fstat(r.fd, &after), 0);
        ck_assert_uint_eq(before.st_ino, after.st_ino);

        /* a bad file is an error, and the next good one reads again */
        rewrite(path, "cpu0 1 2", 8);
        ck_assert_int_eq(procstat_read(&r, &s), -EINVAL);
        rewrite(path, two, sizeof(two) - 1);
        ck_assert_int_eq(procstat_read(&r, &s), 0);
        assert_cpu(&s, 1, 20, 20);

        procstat_close(&r);
        procstat_close(&r);
        unlink(path);
}
END_TEST

START_TEST(test_reader_missing_file)
{
        struct procstat_reader r;

        ck_assert_int_eq(procstat_open(&r, "/nonexistent/proc/stat"), -ENOENT);
        ck_assert_int_eq(r.fd, -1);
        ck_assert_ptr_null(r.buf);
        procstat_close(&r);
}
END_TEST

/* A FIFO nobody writes in the file's place: the open does not wait for a
 * writer, and the read fails. */
START_TEST(test_reader_fifo)
{
        struct procstat_reader r;
        struct procstat st;
        const char *path = temp_path();

        unlink(path);
        ck_assert_int_eq(mkfifo(path, 0600), 0);
        ck_assert_int_eq(procstat_open(&r, path), 0);
        ck_assert_int_eq(procstat_read(&r, &st), -ESPIPE);
        procstat_close(&r);
        unlink(path);
}
END_TEST

/* Text of 'ncpus' cpu lines with 'extra' vendor columns, then a long intr line. */
static char *big_stat(unsigned ncpus, unsigned extra, size_t intr_len, size_t *len)
{
        size_t size = (size_t)ncpus * (16 + 21 * (10 + extra)) + intr_len + 256;
        char *text = malloc(size);
        size_t n = 0;

        ck_assert_ptr_nonnull(text);
        n += (size_t)snprintf(text + n, size - n, "cpu  1 2 3 4 5 6 7 8 9 10\n");
        for (unsigned cpu = 0; cpu < ncpus; cpu++) {
                n += (size_t)snprintf(text + n, size - n, "cpu%u %u 10000000000000000 0 %u 0 0 0 0 0 0",
                                      cpu, cpu, cpu * 2);
                for (unsigned i = 0; i < extra; i++)
                        n += (size_t)snprintf(text + n, size - n, " 12345678901234567890");
                text[n++] = '\n';
        }
        n += (size_t)snprintf(text + n, size - n, "intr 1");
        while (n + 3 < size - 64 && intr_len > 0) {
                memcpy(text + n, " 0", 2);
                n += 2;
                intr_len = intr_len > 2 ? intr_len - 2 : 0;
        }
        n += (size_t)snprintf(text + n, size - n, "\nctxt 1\n");
        *len = n;
        return text;
}

START_TEST(test_reader_grows_for_long_cpu_lines)
{
        struct procstat_reader r;
        struct procstat s;
        const char *path = temp_path();
        size_t len;
        /* 1024 CPUs with vendor columns: far more than the first buffer */
        char *text = big_stat(BL_MAX_CPUS, 10, 100000, &len);
        size_t size;

        rewrite(path, text, len);
        ck_assert_int_eq(procstat_open(&r, path), 0);
        size = r.size;
        ck_assert_int_eq(procstat_read(&r, &s), 0);
        ck_assert_uint_gt(r.size, size);
        ck_assert_uint_eq(cpumask_count(&s.cpus), BL_MAX_CPUS);
        assert_cpu(&s, 1023, 1023 + 10000000000000000ULL, 2046);
        procstat_close(&r);
        unlink(path);
        free(text);
}
END_TEST

START_TEST(test_reader_long_intr_line)
{
        struct procstat_reader r;
        struct procstat s;
        const char *path = temp_path();
        size_t len;
        /* four CPUs, then an intr line bigger than the buffer: no need to grow */
        char *text = big_stat(4, 0, 600000, &len);
        size_t size;

        rewrite(path, text, len);
        ck_assert_int_eq(procstat_open(&r, path), 0);
        size = r.size;
        ck_assert_uint_lt(size, len);
        ck_assert_int_eq(procstat_read(&r, &s), 0);
        ck_assert_uint_eq(r.size, size);
        ck_assert_uint_eq(cpumask_count(&s.cpus), 4);
        assert_cpu(&s, 3, 3 + 10000000000000000ULL, 6);
        procstat_close(&r);
        unlink(path);
        free(text);
}
END_TEST

/* PSI. */

START_TEST(test_psi_one_line)
{
        uint64_t total = 0;
        size_t len;
        char *text = load("psi", "cpu-4.20-some-only.txt", &len);

        ck_assert_int_eq(psi_parse(text, len, &total), 0);
        ck_assert_uint_eq(total, 1207466);
        free(text);
}
END_TEST

START_TEST(test_psi_two_lines)
{
        uint64_t total = 0;
        size_t len;
        char *text = load("psi", "cpu-5.15-some-full.txt", &len);

        ck_assert_int_eq(psi_parse(text, len, &total), 0);
        ck_assert_uint_eq(total, 98765432);
        free(text);

        text = load("psi", "local-6.18.txt", &len);
        ck_assert_int_eq(psi_parse(text, len, &total), 0);
        ck_assert_uint_eq(total, 6575170);
        free(text);
}
END_TEST

static int psi_parse_exact(const char *text, size_t len, uint64_t *total)
{
        char *copy = exact_copy(text, len);
        int r = psi_parse(copy, len, total);

        free(copy);
        return r;
}

START_TEST(test_psi_garbage)
{
        static const char *const bad[] = {
                "",
                "\n",
                "some avg10=0.00 avg60=0.00 avg300=0.00\n",             /* no total */
                "some avg10=0.00 avg60=0.00 avg300=0.00 total=\n",
                "some avg10=0.00 avg60=0.00 avg300=0.00 total=12a\n",
                "some avg10=0.00 avg60=0.00 avg300=0.00 total=-5\n",
                "some avg10=0.00 avg60=0.00 avg300=0.00 total=99999999999999999999999\n",
                "some avg10=0.00 avg60=0.00 avg300=0.00 total=123",     /* cut */
                "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",     /* some must come first */
                "Some avg10=0.00 total=5\n",
                "some\n",
                "hello\n",
                "\nsome avg10=0.00 avg60=0.00 avg300=0.00 total=5\n",
        };
        uint64_t total = 77;

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                ck_assert_msg(psi_parse_exact(bad[i], strlen(bad[i]), &total) == -EINVAL, "case %zu", i);
        ck_assert_uint_eq(total, 77);
}
END_TEST

START_TEST(test_psi_truncated_everywhere)
{
        static const char text[] = "some avg10=0.12 avg60=0.34 avg300=0.21 total=98765432\n"
                                   "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
        size_t first_line = strchr(text, '\n') - text + 1;

        for (size_t cut = 0; cut <= sizeof(text) - 1; cut++) {
                uint64_t total = 0;
                int r = psi_parse_exact(text, cut, &total);

                if (cut >= first_line) {
                        ck_assert_int_eq(r, 0);
                        ck_assert_uint_eq(total, 98765432);
                } else {
                        ck_assert_msg(r == -EINVAL, "cut at %zu: got %d", cut, r);
                }
        }
}
END_TEST

START_TEST(test_psi_reader)
{
        static const char one[] = "some avg10=0.00 avg60=0.00 avg300=0.00 total=1000\n"
                                  "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
        static const char two[] = "some avg10=5.00 avg60=1.00 avg300=0.20 total=25000\n"
                                  "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
        struct psi_reader r;
        uint64_t total = 0;
        const char *path = temp_path();

        rewrite(path, one, sizeof(one) - 1);
        ck_assert_int_eq(psi_open(&r, path), 0);
        ck_assert_int_eq(psi_read(&r, &total), 0);
        ck_assert_uint_eq(total, 1000);
        rewrite(path, two, sizeof(two) - 1);
        ck_assert_int_eq(psi_read(&r, &total), 0);
        ck_assert_uint_eq(total, 25000);
        psi_close(&r);
        ck_assert_int_eq(psi_read(&r, &total), -ENODATA);
        unlink(path);
}
END_TEST

START_TEST(test_psi_absent_or_unreadable)
{
        struct psi_reader r;
        char dir[] = "/tmp/check_psi.XXXXXX";
        const char *path = temp_path();

        ck_assert_int_eq(psi_open(&r, "/nonexistent/pressure/cpu"), -ENOENT);
        ck_assert_int_eq(r.fd, -1);
        /* the file opens but reads fail, as with psi=0 */
        ck_assert_ptr_nonnull(mkdtemp(dir));
        ck_assert_int_eq(psi_open(&r, dir), -EISDIR);
        ck_assert_int_eq(r.fd, -1);
        rmdir(dir);
        /* empty: not PSI */
        rewrite(path, "", 0);
        ck_assert_int_eq(psi_open(&r, path), -EINVAL);
        ck_assert_int_eq(r.fd, -1);
        unlink(path);
        /* a FIFO nobody writes: the open does not wait for a writer */
        ck_assert_int_eq(mkfifo(path, 0600), 0);
        ck_assert_int_eq(psi_open(&r, path), -ESPIPE);
        ck_assert_int_eq(r.fd, -1);
        unlink(path);
}
END_TEST

/* /proc/loadavg. */

static int loadavg_parse_exact(const char *text, size_t len, unsigned *running)
{
        char *copy = exact_copy(text, len);
        int r = loadavg_parse(copy, len, running);

        free(copy);
        return r;
}

START_TEST(test_loadavg_kernel_forms)
{
        static const struct {
                const char *text;
                unsigned running;
        } ok[] = {
                { "1.58 1.44 1.12 2/114 14428\n", 2 },          /* this machine, 6.1 */
                { "0.00 0.01 0.05 1/345 4096\n", 1 },           /* the reader alone */
                { "12.34 110.00 100.25 257/4021 3999999\n", 257 },
        };

        for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
                unsigned running = 0;

                ck_assert_msg(loadavg_parse_exact(ok[i].text, strlen(ok[i].text), &running) == 0, "case %zu", i);
                ck_assert_uint_eq(running, ok[i].running);
        }
}
END_TEST

START_TEST(test_loadavg_garbage)
{
        static const char *const bad[] = {
                "",
                "\n",
                "0.00 0.01 0.05\n",                     /* no counts */
                "0.00 0.01 0.05 \n",
                "0.00 0.01 0.05 2\n",                   /* no total */
                "0.00 0.01 0.05 2/\n",
                "0.00 0.01 0.05 /114 1\n",
                "0.00 0.01 0.05 2/114\n",               /* no PID after the total */
                "0.00 0.01 0.05 -2/114 1\n",
                "0.00 0.01 0.05 2a/114 1\n",
                "0.00 0.01 0.05 0/114 1\n",             /* the reader runs */
                "0.00 0.01 0.05 115/114 1\n",           /* more running than there are */
                "0.00 0.01 0.05 99999999999/99999999999 1\n",
                "0.00  0.01 0.05 2/114 1\n",            /* an empty field */
                "0.00 0.01 0.05 2/114 1",               /* cut */
                "hello\n",
                "\n0.00 0.01 0.05 2/114 1\n",
        };
        unsigned running = 77;

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                ck_assert_msg(loadavg_parse_exact(bad[i], strlen(bad[i]), &running) == -EINVAL, "case %zu", i);
        ck_assert_uint_eq(running, 77);
}
END_TEST

START_TEST(test_loadavg_truncated_everywhere)
{
        static const char text[] = "0.52 0.58 0.59 3/1069 123456\n";

        for (size_t cut = 0; cut <= sizeof(text) - 1; cut++) {
                unsigned running = 0;
                int r = loadavg_parse_exact(text, cut, &running);

                if (cut == sizeof(text) - 1) {
                        ck_assert_int_eq(r, 0);
                        ck_assert_uint_eq(running, 3);
                } else {
                        ck_assert_msg(r == -EINVAL, "cut at %zu: got %d", cut, r);
                }
        }
}
END_TEST

START_TEST(test_loadavg_reader)
{
        static const char one[] = "0.00 0.00 0.00 1/100 5\n", two[] = "0.10 0.02 0.00 4/101 6\n";
        struct loadavg_reader r;
        unsigned running = 0;
        const char *path = temp_path();

        rewrite(path, one, sizeof(one) - 1);
        ck_assert_int_eq(loadavg_open(&r, path), 0);
        ck_assert_int_eq(loadavg_read(&r, &running), 0);
        ck_assert_uint_eq(running, 1);
        rewrite(path, two, sizeof(two) - 1);
        ck_assert_int_eq(loadavg_read(&r, &running), 0);
        ck_assert_uint_eq(running, 4);
        rewrite(path, "garbage\n", 8);
        ck_assert_int_eq(loadavg_read(&r, &running), -EINVAL);
        ck_assert_uint_eq(running, 4);
        loadavg_close(&r);
        ck_assert_int_eq(loadavg_read(&r, &running), -ENODATA);
        unlink(path);
}
END_TEST

/* Every kind of file that is not the kernel's fails at open, at once. */
START_TEST(test_loadavg_absent_or_not_a_file)
{
        struct loadavg_reader r;
        char dir[] = "/tmp/check_loadavg.XXXXXX", fifo[64];

        ck_assert_int_eq(loadavg_open(&r, "/nonexistent/loadavg"), -ENOENT);
        ck_assert_int_eq(r.fd, -1);
        ck_assert_ptr_nonnull(mkdtemp(dir));
        ck_assert_int_eq(loadavg_open(&r, dir), -EISDIR);
        ck_assert_int_eq(r.fd, -1);
        /* a FIFO nobody writes: the open does not wait for a writer */
        snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
        ck_assert_int_eq(mkfifo(fifo, 0600), 0);
        ck_assert_int_eq(loadavg_open(&r, fifo), -ESPIPE);
        ck_assert_int_eq(r.fd, -1);
        unlink(fifo);
        rmdir(dir);
}
END_TEST

/* An idle CPU at a 10 ms sample: one interval in ten holds a busy tick
 * (the daemon, a short process across a tick edge). Alone it read 100 %;
 * over the window it weighs one tick in ten. */
START_TEST(test_window_lone_tick)
{
        struct stat_window w;
        float busy = 0.0f;

        stat_window_reset(&w);
        for (unsigned i = 0; i < 9; i++)
                ck_assert_float_eq(stat_window_add(&w, 0, 1, 0), 0.0f);
        busy = stat_window_add(&w, 1, 0, 0);
        ck_assert_float_eq_tol(busy, 1.0f / STAT_WINDOW_TICKS, 1e-6f);
        /* It leaves the window after STAT_WINDOW_TICKS more ticks. */
        for (unsigned i = 0; i < STAT_WINDOW_TICKS; i++)
                busy = stat_window_add(&w, 0, 1, 0);
        ck_assert_float_eq(busy, 0.0f);
}
END_TEST

/* A saturating load reads 100 % once the window holds only its ticks, and
 * exactly 100 %: saturation tests compare with it. */
START_TEST(test_window_saturation_exact)
{
        struct stat_window w;
        unsigned n = 0;
        float busy;

        stat_window_reset(&w);
        for (unsigned i = 0; i < 20; i++)
                (void)stat_window_add(&w, 0, 1, 0);
        do {
                busy = stat_window_add(&w, 1, 0, 0);
                n++;
        } while (busy < 1.0f && n < 100);
        ck_assert_float_eq(busy, 1.0f);
        ck_assert_uint_eq(n, STAT_WINDOW_TICKS);
}
END_TEST

/* An interval with enough ticks of its own is taken alone (a long or idle
 * back-off interval), and none known reads 0. */
START_TEST(test_window_long_interval_alone)
{
        struct stat_window w;

        stat_window_reset(&w);
        ck_assert_float_eq(stat_window_add(&w, 0, 0, 0), 0.0f);
        ck_assert_float_eq(stat_window_add(&w, 5, 0, 0), 1.0f);
        ck_assert_float_eq_tol(stat_window_add(&w, 30, 70, 0), 0.3f, 1e-6f);
        /* Fewer than known so far: what there is, 2 + 30 of 2 + 100. */
        ck_assert_float_eq_tol(stat_window_add(&w, 2, 0, 0), 32.0f / 102.0f, 1e-6f);
        stat_window_reset(&w);
        ck_assert_float_eq(stat_window_add(&w, 1, 1, 0), 0.5f);
}
END_TEST

/* The daemon's own time comes off over the whole window: the kernel charged
 * it one whole tick in the window while it ran a tenth of each interval, so
 * a per-interval discount would leave that tick almost whole. Busy time of
 * others stays; the daemon's beyond what was charged reads as 0, not less. */
START_TEST(test_window_own_time_over_the_window)
{
        struct stat_window w;
        float busy = 1.0f;

        stat_window_reset(&w);
        for (unsigned i = 0; i < 9; i++)
                busy = stat_window_add(&w, 0, 1, 0.1);
        ck_assert_float_eq(busy, 0.0f);
        busy = stat_window_add(&w, 1, 0, 0.1);
        ck_assert_float_eq_tol(busy, 0.0f, 1e-6f);
        /* A saturating load beside the daemon still reads most of a CPU. */
        for (unsigned i = 0; i < STAT_WINDOW_TICKS; i++)
                busy = stat_window_add(&w, 1, 0, 0.1);
        ck_assert_float_eq_tol(busy, 0.9f, 1e-5f);
        /* The daemon running back to back (a tick longer than the interval)
         * is no load at all. */
        for (unsigned i = 0; i < STAT_WINDOW_TICKS; i++)
                busy = stat_window_add(&w, 1, 0, 1.0);
        ck_assert_float_eq(busy, 0.0f);
        /* Negative or absent own time changes nothing. */
        stat_window_reset(&w);
        ck_assert_float_eq(stat_window_add(&w, 1, 1, -3.0), 0.5f);
}
END_TEST

/* The window keeps running sums; this walks the latest intervals the way
 * the definition reads (stat-window.h), newest first, until they hold
 * STAT_WINDOW_TICKS ticks or none is left. */
static float window_by_walk(const uint64_t (*iv)[3], unsigned n)
{
        double busy = 0, total = 0, own = 0;

        for (unsigned i = 0; i < n && i < STAT_WINDOW_INTERVALS && total < STAT_WINDOW_TICKS; i++) {
                const uint64_t *v = iv[n - 1 - i];

                busy += (double)v[0];
                total += (double)(v[0] + v[1]);
                own += (double)v[2] / 1000.0;
        }
        if (total == 0)
                return 0.0f;
        return busy - own > 0 ? (float)((busy - own) / total) : 0.0f;
}

START_TEST(test_window_matches_walk)
{
        static uint64_t iv[4000][3];
        struct stat_window w;
        uint32_t x = 12345;

        stat_window_reset(&w);
        for (unsigned n = 0; n < 4000; n++) {
                float got, want;

                x ^= x << 13, x ^= x >> 17, x ^= x << 5;
                /* mostly one or two ticks, now and then a long interval or none */
                iv[n][0] = x % 7 == 0 ? 0 : x % 3;
                iv[n][1] = (x >> 8) % 3 + ((x >> 16) % 23 == 0 ? 40 : 0);
                iv[n][2] = (x >> 4) % 300;      /* own time, thousandths of a tick */
                got = stat_window_add(&w, iv[n][0], iv[n][1], (double)iv[n][2] / 1000.0);
                want = window_by_walk(iv, n + 1);
                ck_assert_msg(fabsf(got - want) < 1e-5f, "interval %u: %f, the walk gives %f", n, got, want);
        }
}
END_TEST

static Suite *procstat_suite(void)
{
        Suite *s = suite_create("procstat");
        TCase *tc;

        tc = tcase_create("kernels");
        tcase_add_test(tc, test_linux_2_4_four_columns);
        tcase_add_test(tc, test_linux_2_6_18_eight_columns);
        tcase_add_test(tc, test_linux_3_10_exynos_eight_cpus);
        tcase_add_test(tc, test_linux_5_15_offline_cpu_has_no_line);
        tcase_add_test(tc, test_linux_6_1_guest_not_added);
        tcase_add_test(tc, test_vendor_eleventh_column_ignored);
        tcase_add_test(tc, test_this_machine_sample);
        tcase_add_test(tc, test_this_machine_live);
        suite_add_tcase(s, tc);

        tc = tcase_create("busy");
        tcase_add_test(tc, test_busy_exact);
        tcase_add_test(tc, test_busy_backwards_counters_clamped);
        tcase_add_test(tc, test_busy_cpu_appears_and_disappears);
        tcase_add_test(tc, test_busy_same_snapshot);
        tcase_add_test(tc, test_window_lone_tick);
        tcase_add_test(tc, test_window_saturation_exact);
        tcase_add_test(tc, test_window_long_interval_alone);
        tcase_add_test(tc, test_window_own_time_over_the_window);
        tcase_add_test(tc, test_window_matches_walk);
        tcase_add_test(tc, test_busy_two_real_snapshots);
        tcase_add_test(tc, test_online_in_both);
        suite_add_tcase(s, tc);

        tc = tcase_create("malformed");
        tcase_add_loop_test(tc, test_truncated_everywhere, 0, 7);
        tcase_add_test(tc, test_garbage);
        tcase_add_test(tc, test_nul_inside_line);
        tcase_add_test(tc, test_tolerated_forms);
        tcase_add_test(tc, test_huge_numbers);
        tcase_add_test(tc, test_cpu_number_range);
        suite_add_tcase(s, tc);

        tc = tcase_create("reader");
        tcase_add_test(tc, test_reader_rereads_in_place);
        tcase_add_test(tc, test_reader_missing_file);
        tcase_add_test(tc, test_reader_fifo);
        tcase_add_test(tc, test_reader_grows_for_long_cpu_lines);
        tcase_add_test(tc, test_reader_long_intr_line);
        suite_add_tcase(s, tc);

        tc = tcase_create("psi");
        tcase_add_test(tc, test_psi_one_line);
        tcase_add_test(tc, test_psi_two_lines);
        tcase_add_test(tc, test_psi_garbage);
        tcase_add_test(tc, test_psi_truncated_everywhere);
        tcase_add_test(tc, test_psi_reader);
        tcase_add_test(tc, test_psi_absent_or_unreadable);
        suite_add_tcase(s, tc);

        tc = tcase_create("loadavg");
        tcase_add_test(tc, test_loadavg_kernel_forms);
        tcase_add_test(tc, test_loadavg_garbage);
        tcase_add_test(tc, test_loadavg_truncated_everywhere);
        tcase_add_test(tc, test_loadavg_reader);
        tcase_add_test(tc, test_loadavg_absent_or_not_a_file);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(procstat_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
