/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Soak: the real bigLittled on the fake Exynos 5422 for a while, with a
 * mixed load that keeps changing, a SIGHUP reload (alternating between two
 * configurations), and switchctl holds and releases on a private bus every
 * few seconds. The daemon runs as under systemd's watchdog: WATCHDOG_USEC
 * set and NOTIFY_SOCKET pointing at a socket read here, which records the
 * largest gap between WATCHDOG=1 pings.
 *
 * Fails when the daemon exits early, a watchdog ping is missed (a gap
 * longer than WATCHDOG_USEC: systemd would have killed it), a reload is not
 * applied, a switchctl call fails, it stops switching, or its memory grows
 * (Rss and Private_Dirty of the second half above the first half's highest
 * by more than SLACK_KIB). Under valgrind (SOAK_VALGRIND) memcheck's error
 * status replaces the memory figures.
 *
 * Environment: SOAK_SECONDS (default 20), SOAK_VALGRIND (the valgrind to
 * run the daemon under, with the leak options of tests/bench/soak.sh),
 * SOAK_WATCHDOG_USEC (default 2 s), SOAK_ACTION_MS (default 1000: one
 * action every period, reload, hold, persistent hold, release in turn).
 * The figures are printed as TAP comments, for tests/bench/RESULTS.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/integration/harness.h"

#define SLACK_KIB 256
#define MAX_SAMPLES 4096
#define MAX_CLIENTS 16
/* Starting under valgrind takes a while on a shared machine. */
#define SLOW_START_MS 60000

static const char config_format[] =
        "[daemon]\n"
        "sample_interval_ms = 20\n"
        "backend = hotplug\n"
        "[policy]\n"
        "heuristics = pelt, psi\n"
        "[hysteresis]\n"
        "up_threshold = %u\n"
        "down_threshold = 60\n"
        "up_delay_ms = 20\n"
        "down_delay_ms = 100\n"
        "min_residency_ms = 40\n"
        "max_switch_rate_hz = 10\n";

/* Idle spells, steady loads LITTLE carries, loads only big carries, short
 * bursts and everything busy, in a loop. */
static const struct fakeboard_phase mixed[] = {
        { 1500, 0, { 0 } },
        { 2000, 1, { 250 } },
        { 2500, 2, { 700, 700 } },
        { 300, 4, { 500, 500, 500, 500 } },
        { 300, 0, { 0 } },
        { 300, 4, { 500, 500, 500, 500 } },
        { 300, 0, { 0 } },
        { 2000, 4, { 300, 300, 300, 300 } },
        { 1500, 8, { 600, 600, 600, 600, 600, 600, 600, 600 } },
        { 2000, 1, { 40 } },
};

struct memory_sample {
        bl_usec_t time;
        unsigned long rss_kib, dirty_kib;
};

struct soak {
        bl_usec_t start, end, action_period, watchdog_usec;
        bl_usec_t next_action;
        unsigned action;
        int notify_fd;
        bl_usec_t last_ping, max_gap;
        unsigned pings;
        unsigned reloads, holds, persistent_holds, releases, client_failures;
        pid_t clients[MAX_CLIENTS];
        unsigned nclients;
        bool under_valgrind;
        struct memory_sample samples[MAX_SAMPLES];
        unsigned nsamples;
        bl_usec_t next_sample;
        char failure[512];
};

/* A positive number from the environment; 0 when it is not one. */
static unsigned env_unsigned(const char *name, unsigned fallback)
{
        const char *text = getenv(name);
        char *end;
        unsigned long v;

        if (!text || !*text)
                return fallback;
        errno = 0;
        v = strtoul(text, &end, 10);
        return errno == 0 && *end == '\0' && v <= UINT_MAX ? (unsigned)v : 0;
}

/* A datagram socket like systemd's notify socket, read without blocking. */
static int notify_socket(const char *path)
{
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        int fd;

        ck_assert_uint_lt(strlen(path), sizeof(sa.sun_path));
        strcpy(sa.sun_path, path);
        fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
        ck_assert_int_eq(setenv("NOTIFY_SOCKET", path, 1), 0);
        return fd;
}

static bool has_line(const char *text, const char *line)
{
        size_t len = strlen(line);

        for (const char *p = text; (p = strstr(p, line)); p += len)
                if ((p == text || p[-1] == '\n') && (p[len] == '\n' || p[len] == '\0'))
                        return true;
        return false;
}

static void drain_notify(struct soak *s, bl_usec_t now)
{
        char buf[4096];
        ssize_t n;

        while ((n = recv(s->notify_fd, buf, sizeof(buf) - 1, 0)) > 0) {
                buf[n] = '\0';
                if (!has_line(buf, "WATCHDOG=1"))
                        continue;
                if (s->pings > 0 && now - s->last_ping > s->max_gap)
                        s->max_gap = now - s->last_ping;
                s->last_ping = now;
                s->pings++;
        }
}

static void sample_memory(struct soak *s, bl_usec_t now)
{
        struct memory_sample m = { .time = now };

        if (s->nsamples < MAX_SAMPLES && harness_memory(fakeboard_pid(fb), &m.rss_kib, &m.dirty_kib) == 0)
                s->samples[s->nsamples++] = m;
}

static void write_soak_config(unsigned up_threshold)
{
        char text[sizeof(config_format) + 16];

        snprintf(text, sizeof(text), config_format, up_threshold);
        write_config("bigLittle.conf", text);
}

/* switchctl with its output in the work directory; reaped by reap_clients(). */
static void run_switchctl(struct soak *s, const char *const argv[])
{
        pid_t pid;

        if (s->nclients == MAX_CLIENTS) {
                snprintf(s->failure, sizeof(s->failure), "%u switchctl calls still running", MAX_CLIENTS);
                return;
        }
        pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
                int out = open(work_file("switchctl.log"), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);

                if (out < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(out, STDERR_FILENO) < 0)
                        _exit(127);
                execv(SWITCHCTL_PATH, (char *const *)argv);
                _exit(127);
        }
        s->clients[s->nclients++] = pid;
}

static void reap_clients(struct soak *s)
{
        for (unsigned i = 0; i < s->nclients;) {
                int status;
                pid_t r = waitpid(s->clients[i], &status, WNOHANG);

                if (r == 0) {
                        i++;
                        continue;
                }
                if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
                        s->client_failures++;
                s->clients[i] = s->clients[--s->nclients];
        }
}

static void act(struct soak *s)
{
        static const char *const hold[] = { SWITCHCTL_PATH, "hold", "big", "--for", "1500ms", "--reason",
                                            "soak", NULL };
        static const char *const persist[] = { SWITCHCTL_PATH, "hold", "little", "--persist", "--for", "20s",
                                               "--reason", "soak persistent", NULL };
        static const char *const release[] = { SWITCHCTL_PATH, "release", "--all", NULL };

        switch (s->action++ % 4) {
        case 0:
                write_soak_config(s->reloads % 2 ? 80 : 90);
                ck_assert_int_eq(fakeboard_kill(fb, SIGHUP), 0);
                s->reloads++;
                break;
        case 1:
                run_switchctl(s, hold);
                s->holds++;
                break;
        case 2:
                run_switchctl(s, persist);
                s->persistent_holds++;
                break;
        default:
                run_switchctl(s, release);
                s->releases++;
                break;
        }
}

static bool soak_step(struct fakeboard *board, void *userdata)
{
        struct soak *s = userdata;
        bl_usec_t now = fakeboard_now();

        drain_notify(s, now);
        reap_clients(s);
        if (fakeboard_pattern_done(board))
                ck_assert_int_eq(fakeboard_set_pattern(board, mixed, sizeof(mixed) / sizeof(mixed[0])), 0);
        if (now >= s->next_action) {
                act(s);
                s->next_action += s->action_period;
        }
        if (!s->under_valgrind && now >= s->next_sample) {
                sample_memory(s, now);
                s->next_sample += (s->end - s->start) / 200 + 1;
        }
        if (s->pings > 0 && now - s->last_ping > s->watchdog_usec)
                snprintf(s->failure, sizeof(s->failure),
                         "no WATCHDOG=1 for %" PRIu64 " ms (WATCHDOG_USEC %" PRIu64 " ms)",
                         (uint64_t)(now - s->last_ping) / 1000, (uint64_t)s->watchdog_usec / 1000);
        return now >= s->end || s->failure[0] || !fakeboard_running(board);
}

/* The highest of the samples in [from, to). */
static struct memory_sample memory_peak(const struct soak *s, bl_usec_t from, bl_usec_t to)
{
        struct memory_sample peak = { 0 };

        for (unsigned i = 0; i < s->nsamples; i++)
                if (s->samples[i].time >= from && s->samples[i].time < to) {
                        if (s->samples[i].rss_kib > peak.rss_kib)
                                peak.rss_kib = s->samples[i].rss_kib;
                        if (s->samples[i].dirty_kib > peak.dirty_kib)
                                peak.dirty_kib = s->samples[i].dirty_kib;
                }
        return peak;
}

static void check_memory(const struct soak *s)
{
        bl_usec_t middle = s->start + (s->end - s->start) / 2;
        struct memory_sample first = memory_peak(s, s->start, middle);
        struct memory_sample second = memory_peak(s, middle, s->end + 1);

        printf("# memory: %u samples; first half peak Rss %lu KiB, Private_Dirty %lu KiB; "
               "second half peak Rss %lu KiB, Private_Dirty %lu KiB\n",
               s->nsamples, first.rss_kib, first.dirty_kib, second.rss_kib, second.dirty_kib);
        ck_assert_uint_ge(s->nsamples, 20);
        ck_assert_msg(second.rss_kib <= first.rss_kib + SLACK_KIB, "Rss grew from %lu to %lu KiB",
                      first.rss_kib, second.rss_kib);
        ck_assert_msg(second.dirty_kib <= first.dirty_kib + SLACK_KIB,
                      "Private_Dirty grew from %lu to %lu KiB", first.dirty_kib, second.dirty_kib);
}

static void spawn_under_valgrind(const char *valgrind)
{
        char log_arg[PATH_MAX + 16], config[PATH_MAX + 64];
        char *argv[] = { (char *)valgrind, (char *)"--leak-check=full",
                         (char *)"--errors-for-leak-kinds=definite,indirect", (char *)"--error-exitcode=1",
                         log_arg, (char *)DAEMON_PATH, (char *)"--foreground", (char *)"--config",
                         (char *)config, NULL };
        int r;

        snprintf(config, sizeof(config), "%s", work_file("bigLittle.conf"));
        snprintf(log_arg, sizeof(log_arg), "--log-file=%s", work_file("valgrind.log"));
        r = fakeboard_spawn(fb, argv, false);
        ck_assert_msg(r == 0, "cannot start %s: %s", valgrind, strerror(-r));
}

/* memcheck's summary lines, as TAP comments. */
static void print_valgrind_summary(void)
{
        static const char *const wanted[] = { "in use at exit", "total heap usage", "definitely lost",
                                              "indirectly lost", "All heap blocks", "ERROR SUMMARY" };
        char *text = read_whole_file(work_file("valgrind.log"));

        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
                for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++)
                        if (strstr(line, wanted[i])) {
                                printf("# valgrind: %s\n", line);
                                break;
                        }
        free(text);
}

START_TEST(test_soak)
{
        static struct soak s;
        const char *valgrind = getenv("SOAK_VALGRIND");
        unsigned seconds = env_unsigned("SOAK_SECONDS", 20);
        unsigned started, switches;
        int status;

        s = (struct soak){ .under_valgrind = valgrind && *valgrind };
        s.watchdog_usec = env_unsigned("SOAK_WATCHDOG_USEC", 2000000);
        s.action_period = (bl_usec_t)env_unsigned("SOAK_ACTION_MS", 1000) * 1000;
        harness_start_bus(NULL);
        s.notify_fd = notify_socket(work_file("notify"));
        {
                char text[32];

                snprintf(text, sizeof(text), "%" PRIu64, (uint64_t)s.watchdog_usec);
                ck_assert_int_eq(setenv("WATCHDOG_USEC", text, 1), 0);
        }
        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_pattern(fb, mixed, sizeof(mixed) / sizeof(mixed[0])), 0);
        write_soak_config(80);
        if (s.under_valgrind)
                spawn_under_valgrind(valgrind);
        else
                spawn_daemon(work_file("bigLittle.conf"), NULL);
        started = expect_line(0, "started: ", s.under_valgrind ? SLOW_START_MS : START_BOUND_MS);

        s.start = fakeboard_now();
        s.end = s.start + (bl_usec_t)seconds * 1000000;
        s.next_action = s.start + s.action_period;
        s.next_sample = s.start;
        ck_assert_int_ge(fakeboard_run(fb, seconds * 1000 + 1000, soak_step, &s), 0);
        ck_assert_msg(!s.failure[0], "%s; the daemon said:%s", s.failure, log_text());
        ck_assert_msg(fakeboard_running(fb), "the daemon exited during the soak:%s", log_text());

        switches = count_lines(started, "switch ");
        printf("# %u s: %u switches, %u reloads, %u holds, %u persistent holds, %u releases, "
               "%u switchctl failures\n",
               seconds, switches, s.reloads, s.holds, s.persistent_holds, s.releases, s.client_failures);
        printf("# watchdog: WATCHDOG_USEC %" PRIu64 " ms, %u pings, largest gap %" PRIu64
               " ms (%.2f x WATCHDOG_USEC/2)\n",
               (uint64_t)s.watchdog_usec / 1000, s.pings, (uint64_t)s.max_gap / 1000,
               (double)s.max_gap / ((double)s.watchdog_usec / 2));
        ck_assert_msg(s.pings >= seconds * 1000000 / s.watchdog_usec, "%u watchdog pings in %u s", s.pings,
                      seconds);
        ck_assert_uint_le(s.max_gap, s.watchdog_usec);
        ck_assert_msg(s.client_failures == 0, "%u switchctl calls failed: %s", s.client_failures,
                      text_tail(read_work_file("switchctl.log"), 1500));
        ck_assert_uint_eq(count_lines(started, "reload: applied "), s.reloads);
        ck_assert_uint_eq(count_lines(started, "reload: refused"), 0);
        ck_assert_uint_ge(count_lines(started, "-> big: "), seconds / 20 + 1);
        ck_assert_uint_ge(count_lines(started, "-> little: "), seconds / 20 + 1);
        if (!s.under_valgrind && harness_memory_comparable())
                check_memory(&s);
        else
                printf("# memory: not compared (%s)\n", s.under_valgrind ? "valgrind" : "AddressSanitizer");

        fakeboard_kill(fb, SIGTERM);
        ck_assert_msg(fakeboard_wait(fb, s.under_valgrind ? SLOW_START_MS : EXIT_BOUND_MS, &status) == 0,
                      "the daemon does not stop:%s", log_text());
        if (s.under_valgrind)
                print_valgrind_summary();
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit status 0x%x:%s%s", status,
                      log_text(), s.under_valgrind ? text_tail(read_work_file("valgrind.log"), 1500) : "");
        close(s.notify_fd);
}
END_TEST

int main(void)
{
        unsigned seconds = env_unsigned("SOAK_SECONDS", 20);
        Suite *s;
        TCase *tc;

        if (seconds == 0 || env_unsigned("SOAK_WATCHDOG_USEC", 1) == 0 ||
            env_unsigned("SOAK_ACTION_MS", 1) == 0) {
                fprintf(stderr, "soak: SOAK_SECONDS, SOAK_WATCHDOG_USEC and SOAK_ACTION_MS must be positive "
                        "numbers\n");
                return EXIT_FAILURE;
        }
        s = suite_create("soak");
        tc = tcase_create("soak");
        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_set_timeout(tc, seconds + 180);
        tcase_add_test(tc, test_soak);
        suite_add_tcase(s, tc);
        return harness_main(s, "soak");
}
