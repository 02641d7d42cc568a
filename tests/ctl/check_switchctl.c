/* SPDX-License-Identifier: GPL-2.0-or-later */
/* switchctl end to end against the fake org.bigLittle.Switch1 on a private
 * bus: the output of every verb (golden files in tests/data/ctl), the
 * arguments the fake received, every error and its exit status, monitor,
 * holds that wait, a caller without privileges, and output on a terminal. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/ctl/harness.h"

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define MSG_NOT_RUNNING "switchctl: bigLittled is not running (no org.bigLittle.Switch1 on the system bus)\n"
#define MSG_NOT_PERMITTED "switchctl: not permitted: run as root or grant org.bigLittle.Switch1.manage\n"

static struct ctl_env env;

static void setup(void)
{
        env_setup(&env);
}

static void teardown(void)
{
        env_teardown(&env);
}

/* Runs switchctl against the fake (started with 'fake_args' unless one runs). */
static void run(struct run *r, const char *const *argv)
{
        if (env.fake_pid == 0)
                env_fake(&env, NULL);
        run_switchctl(&env, NULL, r, argv);
}

static void expect_run(const struct run *r, int status, const char *out, const char *err)
{
        if (r->status != status || (out && strcmp(r->out, out) != 0) || (err && strcmp(r->err, err) != 0))
                fprintf(stderr, "status %d\n--- stdout\n%s--- stderr\n%s---\n", r->status, r->out, r->err);
        ck_assert_int_eq(r->status, status);
        if (out)
                ck_assert_str_eq(r->out, out);
        if (err)
                ck_assert_str_eq(r->err, err);
}

static void expect_calls(const char *calls)
{
        char *actual = fake_calls(&env);

        ck_assert_str_eq(actual, calls);
        free(actual);
}

/* Read verbs: output compared with golden files. */

static void golden_case(const char *const *fake_args, const char *const *argv, const char *golden)
{
        struct run r;

        env_fake(&env, fake_args);
        run_switchctl(&env, NULL, &r, argv);
        expect_run(&r, 0, NULL, "");
        expect_golden(golden, r.out);
        run_free(&r);
}

START_TEST(test_status)
{
        golden_case(NULL, ARGS("status"), "status.txt");
}
END_TEST

START_TEST(test_status_is_default)
{
        golden_case(NULL, ARGS("--no-pager"), "status.txt");
}
END_TEST

START_TEST(test_status_json)
{
        golden_case(NULL, ARGS("status", "--json"), "status.json");
        expect_calls("Describe\n");
}
END_TEST

START_TEST(test_status_quiet)
{
        golden_case(ARGS("--scenario", "quiet"), ARGS("status"), "status-quiet.txt");
}
END_TEST

START_TEST(test_status_quiet_json)
{
        /* This Describe() ends in a newline of its own: no second one. */
        golden_case(ARGS("--scenario", "quiet"), ARGS("--json", "status"), "status-quiet.json");
}
END_TEST

START_TEST(test_history)
{
        golden_case(NULL, ARGS("history"), "history.txt");
        expect_calls("History n=0\n");
}
END_TEST

START_TEST(test_history_lines)
{
        golden_case(NULL, ARGS("history", "-n", "2", "--no-pager"), "history-n2.txt");
        expect_calls("History n=2\n");
}
END_TEST

START_TEST(test_history_no_legend)
{
        golden_case(NULL, ARGS("history", "--no-legend"), "history-no-legend.txt");
}
END_TEST

START_TEST(test_history_json)
{
        golden_case(NULL, ARGS("history", "--json", "--lines=3"), "history.json");
        expect_calls("History n=3\n");
}
END_TEST

START_TEST(test_history_empty)
{
        golden_case(ARGS("--scenario", "quiet"), ARGS("history"), "history-empty.txt");
}
END_TEST

START_TEST(test_history_empty_json)
{
        golden_case(ARGS("--scenario", "quiet"), ARGS("history", "--json"), "history-empty.json");
}
END_TEST

START_TEST(test_stats)
{
        golden_case(NULL, ARGS("stats"), "stats.txt");
}
END_TEST

START_TEST(test_stats_no_legend)
{
        golden_case(NULL, ARGS("stats", "--no-legend"), "stats-no-legend.txt");
}
END_TEST

START_TEST(test_stats_json)
{
        golden_case(NULL, ARGS("stats", "--json"), "stats.json");
}
END_TEST

START_TEST(test_stats_quiet)
{
        golden_case(ARGS("--scenario", "quiet"), ARGS("stats"), "stats-quiet.txt");
}
END_TEST

START_TEST(test_completion_lists)
{
        struct run r;

        run(&r, ARGS("__levels"));
        expect_run(&r, 0, "little\nbig\n", "");
        run_free(&r);
        run_switchctl(&env, NULL, &r, ARGS("__holds"));
        expect_run(&r, 0, "3\n5\n", "");
        run_free(&r);
        run_switchctl(&env, NULL, &r, ARGS("__keys"));
        expect_run(&r, 0, NULL, "");
        ck_assert_ptr_nonnull(strstr(r.out, "\nlevel\n"));
        ck_assert_ptr_nonnull(strstr(r.out, "\nscores.psi\n"));
        ck_assert_ptr_nonnull(strstr(r.out, "\nthermal_limits.cap_mc\n"));
        ck_assert_ptr_nonnull(strstr(r.out, "\ntime_in_level_usec.little\ntime_in_level_usec.big\n"));
        ck_assert_ptr_null(strstr(r.out, "usec.\n"));
        run_free(&r);
}
END_TEST

/* Without a daemon the completion still gets the fixed keys. */
START_TEST(test_completion_keys_no_daemon)
{
        struct run r;

        run_switchctl(&env, NULL, &r, ARGS("__keys"));
        expect_run(&r, 0, NULL, "");
        ck_assert_ptr_nonnull(strstr(r.out, "mode\n"));
        ck_assert_ptr_nonnull(strstr(r.out, "\nthresholds.up\n"));
        ck_assert_ptr_null(strstr(r.out, "time_in_level_usec"));
        run_free(&r);
}
END_TEST

/* Control verbs: what the fake received. */

START_TEST(test_hold_persist)
{
        struct run r;

        run(&r, ARGS("hold", "big", "--for", "5min", "--reason", "test run", "--persist"));
        expect_run(&r, 0, "7\n", "");
        expect_calls("HoldWithFlags level=big duration=300000000 reason=\"test run\" flags=1\n");
        run_free(&r);
}
END_TEST

START_TEST(test_hold_default_duration)
{
        struct run r;

        run(&r, ARGS("--persist", "hold", "little"));
        expect_run(&r, 0, "7\n", "");
        expect_calls("HoldWithFlags level=little duration=3600000000 reason=\"\" flags=1\n");
        run_free(&r);
}
END_TEST

START_TEST(test_hold_waits_for_duration)
{
        struct timespec t0, t1;
        struct run r;
        double elapsed;

        clock_gettime(CLOCK_MONOTONIC, &t0);
        run(&r, ARGS("hold", "big", "--for", "1.5s"));
        clock_gettime(CLOCK_MONOTONIC, &t1);
        elapsed = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        expect_run(&r, 0, "7\n", "");
        ck_assert_msg(elapsed >= 1.4 && elapsed < 10, "hold --for 1.5s took %.2f s", elapsed);
        /* Not persistent: plain Hold(), and released when done. */
        expect_calls("Hold level=big duration=1500000 reason=\"\" flags=0\nRelease id=7\n");
        run_free(&r);
}
END_TEST

START_TEST(test_hold_command)
{
        struct run r;

        run(&r, ARGS("hold", "big", "--for", "10min", "--reason", "build", "--", "sh", "-c",
                     "echo in-hold; exit 3"));
        expect_run(&r, 3, "7\nin-hold\n", "");
        expect_calls("Hold level=big duration=600000000 reason=\"build\" flags=0\nRelease id=7\n");
        run_free(&r);
}
END_TEST

START_TEST(test_hold_command_missing)
{
        struct run r;

        run(&r, ARGS("hold", "big", "--", "/nonexistent/command"));
        expect_run(&r, 127, "7\n", "switchctl: cannot run /nonexistent/command: No such file or directory\n");
        expect_calls("Hold level=big duration=3600000000 reason=\"\" flags=0\nRelease id=7\n");
        run_free(&r);
}
END_TEST

/* A hold that waits, started in the background; returns once the fake has it. */
static pid_t start_waiting_hold(int *out_fd, int *err_fd)
{
        pid_t pid;

        env_fake(&env, NULL);
        pid = run_start(&env, NULL, ARGS("hold", "big"), out_fd, err_fd);
        wait_for_call(&env, "Hold ");
        return pid;
}

START_TEST(test_hold_sigterm)
{
        int out_fd, err_fd;
        pid_t pid = start_waiting_hold(&out_fd, &err_fd);
        char *early = read_until(out_fd, "\n", 5000);
        struct run r;

        ck_assert_str_eq(early, "7\n");
        run_finish(pid, SIGTERM, out_fd, err_fd, early, &r);
        expect_run(&r, 0, "7\n", "");
        expect_calls("Hold level=big duration=3600000000 reason=\"\" flags=0\nRelease id=7\n");
        run_free(&r);
}
END_TEST

START_TEST(test_hold_released_by_someone_else)
{
        int out_fd, err_fd;
        pid_t pid = start_waiting_hold(&out_fd, &err_fd);
        char *early = read_until(out_fd, "\n", 5000);
        struct run r;

        fake_drop_hold(7);
        run_finish(pid, 0, out_fd, err_fd, early, &r);
        expect_run(&r, 0, "7\n", "switchctl: hold 7 was released\n");
        /* Gone already: no Release() of its own. */
        expect_calls("Hold level=big duration=3600000000 reason=\"\" flags=0\n");
        run_free(&r);
}
END_TEST

START_TEST(test_hold_daemon_stops)
{
        int out_fd, err_fd;
        pid_t pid = start_waiting_hold(&out_fd, &err_fd);
        char *early = read_until(out_fd, "\n", 5000);
        struct run r;

        fake_quit();
        run_finish(pid, 0, out_fd, err_fd, early, &r);
        expect_run(&r, 1, "7\n", "switchctl: bigLittled stopped; hold 7 ended\n");
        run_free(&r);
}
END_TEST

START_TEST(test_release)
{
        struct run r;

        run(&r, ARGS("release", "3"));
        expect_run(&r, 0, "", "");
        expect_calls("Release id=3\n");
        run_free(&r);
}
END_TEST

START_TEST(test_release_all)
{
        struct run r;

        run(&r, ARGS("release", "--all"));
        expect_run(&r, 0, "Released 2 holds.\n", "");
        expect_calls("ReleaseAll\n");
        run_free(&r);
}
END_TEST

START_TEST(test_release_all_nothing)
{
        struct run r;

        env_fake(&env, ARGS("--scenario", "quiet"));
        run_switchctl(&env, NULL, &r, ARGS("release", "--all"));
        expect_run(&r, 0, "You held nothing to release.\n", "");
        expect_calls("ReleaseAll\n");
        run_free(&r);
}
END_TEST

START_TEST(test_auto)
{
        struct run r;

        run(&r, ARGS("auto"));
        expect_run(&r, 0, "Released 2 holds.\n", "");
        expect_calls("ReleaseAll\n");
        run_free(&r);
}
END_TEST

START_TEST(test_reload)
{
        struct run r;

        run(&r, ARGS("reload"));
        expect_run(&r, 0, "", "");
        expect_calls("Reload\n");
        run_free(&r);
}
END_TEST

START_TEST(test_monitor)
{
        int out_fd, err_fd;
        pid_t pid;
        char *early;
        struct run r;

        env_fake(&env, NULL);
        pid = run_start(&env, NULL, ARGS("monitor"), &out_fd, &err_fd);
        /* It subscribes before it reads the status: after the GetAll, no signal is missed. */
        wait_for_call(&env, "GetAll");
        fake_emit_switched("little", "big", "demand 612 > 80% of little (377) for 40 ms");
        fake_emit_switched("big", "little", "");
        early = read_until(out_fd, "big -> little\n", 5000);
        run_finish(pid, SIGTERM, out_fd, err_fd, early, &r);
        expect_run(&r, 0, NULL, "");

        /* Each line starts with the local time it came; the rest is fixed. */
        char *line = r.out, stripped[1024] = "";
        for (int n = 0; *line; n++) {
                char *end = strchrnul(line, '\n');
                struct tm tm;
                const char *rest = strptime(line, "%Y-%m-%d %H:%M:%S ", &tm);

                ck_assert_msg(rest && rest < end, "line %d has no time: %.*s", n, (int)(end - line), line);
                strncat(stripped, rest, (size_t)(end - rest) + (*end ? 1 : 0));
                line = *end ? end + 1 : end;
        }
        expect_golden("monitor.txt", stripped);
        run_free(&r);
}
END_TEST

START_TEST(test_monitor_sigint)
{
        int out_fd, err_fd;
        pid_t pid;
        struct run r;

        env_fake(&env, NULL);
        pid = run_start(&env, NULL, ARGS("monitor"), &out_fd, &err_fd);
        wait_for_call(&env, "GetAll");
        run_finish(pid, SIGINT, out_fd, err_fd, NULL, &r);
        expect_run(&r, 0, "", "");
        run_free(&r);
}
END_TEST

/* --wait: started before the daemon, it follows it once it comes. */
START_TEST(test_monitor_wait)
{
        int out_fd, err_fd;
        pid_t pid;
        char *early, *err;
        struct run r;

        pid = run_start(&env, NULL, ARGS("monitor", "--wait"), &out_fd, &err_fd);
        err = read_until(err_fd, "system bus)\n", 5000);
        ck_assert_str_eq(err, "switchctl: waiting for bigLittled (org.bigLittle.Switch1 on the system bus)\n");
        free(err);
        env_fake(&env, NULL);
        err = read_until(err_fd, "running\n", 5000);
        ck_assert_str_eq(err, "switchctl: bigLittled is running\n");
        free(err);
        fake_emit_switched("little", "big", "demand 612 > 80% of little (377) for 40 ms");
        early = read_until(out_fd, "little -> big: demand 612 > 80% of little (377) for 40 ms\n", 5000);
        run_finish(pid, SIGINT, out_fd, err_fd, early, &r);
        expect_run(&r, 0, NULL, "");
        ck_assert_ptr_nonnull(strstr(r.out, "little -> big: demand 612"));
        run_free(&r);
}
END_TEST

/* --wait with the daemon up: no waiting, nothing said. */
START_TEST(test_monitor_wait_running)
{
        int out_fd, err_fd;
        pid_t pid;
        struct run r;

        env_fake(&env, NULL);
        pid = run_start(&env, NULL, ARGS("monitor", "--wait"), &out_fd, &err_fd);
        wait_for_call(&env, "GetAll");
        run_finish(pid, SIGINT, out_fd, err_fd, NULL, &r);
        expect_run(&r, 0, "", "");
        run_free(&r);
}
END_TEST

/* Without --wait, no daemon is an error at once (test_not_running has the rest). */
START_TEST(test_monitor_no_wait)
{
        struct run r;

        run_switchctl(&env, NULL, &r, ARGS("monitor"));
        expect_run(&r, 69, "", MSG_NOT_RUNNING);
        run_free(&r);
}
END_TEST

/* get KEY: one value, named as in status --json. */
START_TEST(test_get)
{
        const struct {
                const char *key, *out;
        } cases[] = {
                { "level", "little\n" },
                { "target_level", "big\n" },
                { "levels", "little big\n" },
                { "mode", "cluster\n" },
                { "demand", "612.4\n" },
                { "thresholds.up", "301.6\n" },
                { "thresholds.down", "\n" },
                { "thermal.state", "normal\n" },
                { "thermal.temperature_mc", "61500\n" },
                { "thermal_limits.cap_mc", "75000\n" },
                { "thermal_limits.critical_mc", "90000\n" },
                { "scores.psi", "612.4\n" },
                { "switches", "42\n" },
                { "holds", "3 5\n" },
                { "time_in_level_usec.little", "10800000000\n" },
                { "time_in_level_usec.big", "3600000000\n" },
                { "backend", "hotplug\n" },
        };

        env_fake(&env, NULL);
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct run r;

                run_switchctl(&env, NULL, &r, ARGS("get", cases[i].key));
                if (strcmp(r.out, cases[i].out) != 0)
                        fprintf(stderr, "get %s\n", cases[i].key);
                expect_run(&r, 0, cases[i].out, "");
                run_free(&r);
        }
}
END_TEST

START_TEST(test_get_quiet)
{
        struct run r;

        env_fake(&env, ARGS("--scenario", "quiet"));
        run_switchctl(&env, NULL, &r, ARGS("get", "thermal.temperature_mc"));
        expect_run(&r, 0, "\n", "");
        run_free(&r);
        run_switchctl(&env, NULL, &r, ARGS("get", "holds"));
        expect_run(&r, 0, "\n", "");
        run_free(&r);
}
END_TEST

START_TEST(test_get_unknown)
{
        struct run r;

        /* Unknown whether the daemon runs or not: the key is wrong either way. */
        run_switchctl(&env, NULL, &r, ARGS("get", "temperature"));
        expect_run(&r, 64, "", "switchctl: get: unknown key \"temperature\"\nTry \"switchctl help get\".\n");
        run_free(&r);
        env_fake(&env, NULL);
        run_switchctl(&env, NULL, &r, ARGS("get", "time_in_level_usec.turbo"));
        expect_run(&r, 64, "",
                   "switchctl: get: the daemon reports no \"time_in_level_usec.turbo\"\n"
                   "Try \"switchctl status\".\n");
        run_free(&r);
        run_switchctl(&env, NULL, &r, ARGS("get"));
        expect_run(&r, 64, "", "switchctl: get: missing KEY (see switchctl help get)\n");
        run_free(&r);
}
END_TEST

/* Errors: the message and the exit status of each. */

static void error_case(const char *const *fake_args, const char *const *argv, int status, const char *err)
{
        struct run r;

        env_fake(&env, fake_args);
        run_switchctl(&env, NULL, &r, argv);
        expect_run(&r, status, "", err);
        run_free(&r);
}

START_TEST(test_error_unknown_level)
{
        error_case(NULL, ARGS("hold", "turbo", "--persist"), 64,
                   "switchctl: unknown level \"turbo\"; the levels are: little, big\n");
}
END_TEST

START_TEST(test_error_invalid_duration)
{
        error_case(NULL, ARGS("hold", "big", "--for", "2h", "--persist"), 64,
                   "switchctl: a hold of 2h is out of range: at most 1h ([holds] max_duration_s = 3600)\n");
        expect_calls("HoldWithFlags level=big duration=7200000000 reason=\"\" flags=1\n");
}
END_TEST

START_TEST(test_error_invalid_reason)
{
        char reason[301];

        memset(reason, 'x', sizeof(reason) - 1);
        reason[sizeof(reason) - 1] = '\0';
        error_case(NULL, ARGS("hold", "big", "--persist", "--reason", reason), 64,
                   "switchctl: reason longer than 255 bytes\n");
}
END_TEST

START_TEST(test_error_too_many_holds)
{
        error_case(ARGS("--too-many"), ARGS("hold", "big", "--persist"), 1,
                   "switchctl: too many holds: 8 per user are in force\n");
}
END_TEST

START_TEST(test_error_no_such_hold)
{
        error_case(NULL, ARGS("release", "99"), 1, "switchctl: no hold 99 (see switchctl status)\n");
}
END_TEST

START_TEST(test_error_reload_refused)
{
        error_case(ARGS("--refuse-reload"), ARGS("reload"), 1,
                   "switchctl: the configuration has errors, see the journal\n");
}
END_TEST

/* Usage errors never reach the daemon. */
START_TEST(test_usage_errors)
{
        const struct {
                const char *const *argv;
                const char *err;
        } cases[] = {
                { ARGS("hold", "big", "--for", "5parsecs"),
                  "switchctl: --for \"5parsecs\": expected a duration like 30s, 5min, 1h or 2h30min\n"
                  "Try \"switchctl --help\".\n" },
                { ARGS("hold", "big", "--for", "1h30"),
                  "switchctl: --for \"1h30\": expected a duration like 30s, 5min, 1h or 2h30min\n"
                  "Try \"switchctl --help\".\n" },
                { ARGS("hold", "big", "--for", "0"),
                  "switchctl: --for \"0\": a hold must last longer than 0\nTry \"switchctl --help\".\n" },
                { ARGS("hold", "big", "--for"),
                  "switchctl: --for needs a value\nTry \"switchctl --help\".\n" },
                { ARGS("hold"), "switchctl: hold: missing LEVEL (see switchctl status)\n" },
                { ARGS("hold", "big", "little"),
                  "switchctl: hold: too many arguments\nTry \"switchctl --help\".\n" },
                { ARGS("hold", "big", "--persist", "--", "true"),
                  "switchctl: hold: --persist and a command do not go together: "
                  "the hold ends with the command\n"
                  "Try \"switchctl --help\".\n" },
                { ARGS("hold", "big", "--json"), "switchctl: hold: --json does not apply here\n" },
                { ARGS("status", "--for", "1h"),
                  "switchctl: status: --for, --reason, --persist and a command do not apply here\n" },
                { ARGS("release"), "switchctl: release: give a hold id or --all (not both)\n"
                                   "Try \"switchctl --help\".\n" },
                { ARGS("release", "3", "--all"), "switchctl: release: give a hold id or --all (not both)\n"
                                                 "Try \"switchctl --help\".\n" },
                { ARGS("release", "abc"),
                  "switchctl: release: \"abc\" is not a hold id (a number, see switchctl status)\n" },
                { ARGS("release", " -1"),
                  "switchctl: release: \" -1\" is not a hold id (a number, see switchctl status)\n" },
                { ARGS("history", "-n", "many"),
                  "switchctl: --lines \"many\": expected a number of switches\nTry \"switchctl --help\".\n" },
                { ARGS("frobnicate"), "switchctl: unknown verb \"frobnicate\"\nTry \"switchctl --help\".\n" },
                { ARGS("--frobnicate"),
                  "switchctl: unknown option \"--frobnicate\"\nTry \"switchctl --help\".\n" },
                { ARGS("-x"), "switchctl: unknown option \"-x\"\nTry \"switchctl --help\".\n" },
                { ARGS("--help=3"), "switchctl: --help takes no value\nTry \"switchctl --help\".\n" },
                { ARGS("status", "--json=yes"),
                  "switchctl: --json takes no value\nTry \"switchctl --help\".\n" },
                { ARGS("auto", "now"), "switchctl: auto: too many arguments\nTry \"switchctl --help\".\n" },
                { ARGS("status", "--wait"), "switchctl: status: --wait does not apply here\n" },
        };

        env_fake(&env, NULL);
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct run r;

                run_switchctl(&env, NULL, &r, cases[i].argv);
                expect_run(&r, 64, "", cases[i].err);
                run_free(&r);
        }
        expect_calls("");
}
END_TEST

START_TEST(test_help_and_version)
{
        struct run r;

        run_switchctl(&env, NULL, &r, ARGS("--help"));
        expect_run(&r, 0, NULL, "");
        ck_assert_ptr_nonnull(strstr(r.out, "hold LEVEL [-- COMMAND...]"));
        ck_assert_ptr_null(strstr(r.out, "__levels"));
        run_free(&r);
        run_switchctl(&env, NULL, &r, ARGS("--version"));
        expect_run(&r, 0, "switchctl " PACKAGE_VERSION "\n", "");
        run_free(&r);
        run_switchctl(&env, NULL, &r, ARGS("-V"));
        expect_run(&r, 0, "switchctl " PACKAGE_VERSION "\n", "");
        run_free(&r);
}
END_TEST

/* "VERB --help" and "help VERB": that verb's usage and options only. */
START_TEST(test_verb_help)
{
        const char *const *forms[] = { ARGS("hold", "--help"), ARGS("--help", "hold"), ARGS("help", "hold"),
                                       ARGS("hold", "big", "-h") };
        struct run r, global;

        run_switchctl(&env, NULL, &global, ARGS("help"));
        expect_run(&global, 0, NULL, "");
        ck_assert_ptr_nonnull(strstr(global.out, "Usage: switchctl [OPTION]... [VERB] [ARG]...\n"));
        for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
                run_switchctl(&env, NULL, &r, forms[i]);
                expect_run(&r, 0, NULL, "");
                ck_assert_ptr_nonnull(strstr(r.out, "Usage: switchctl [OPTION]... hold LEVEL [-- COMMAND...]\n"
                                                    "Keep LEVEL while switchctl runs (or COMMAND does).\n"));
                ck_assert_ptr_nonnull(strstr(r.out, "--for DURATION"));
                ck_assert_ptr_null(strstr(r.out, "--json"));
                ck_assert_str_ne(r.out, global.out);
                run_free(&r);
        }
        run_free(&global);
        run_switchctl(&env, NULL, &r, ARGS("help", "get"));
        expect_run(&r, 0, NULL, "");
        ck_assert_ptr_nonnull(strstr(r.out, "  time_in_level_usec.LEVEL "));
        run_free(&r);
        run_switchctl(&env, NULL, &r, ARGS("history", "--help"));
        expect_run(&r, 0, NULL, "");
        ck_assert_ptr_nonnull(strstr(r.out, "-n, --lines N"));
        ck_assert_ptr_null(strstr(r.out, "--for"));
        run_free(&r);
        run_switchctl(&env, NULL, &r, ARGS("help", "frobnicate"));
        expect_run(&r, 64, "", "switchctl: help: unknown verb \"frobnicate\"\nTry \"switchctl --help\".\n");
        run_free(&r);
        run_switchctl(&env, NULL, &r, ARGS("help", "__levels"));
        expect_run(&r, 64, "", "switchctl: help: unknown verb \"__levels\"\nTry \"switchctl --help\".\n");
        run_free(&r);
}
END_TEST

/* No fake on the bus: every verb that needs the daemon says so, with 69. */
START_TEST(test_not_running)
{
        const char *const *cases[] = {
                ARGS("status"),
                ARGS("status", "--json"),
                ARGS("history"),
                ARGS("stats"),
                ARGS("hold", "big", "--persist"),
                ARGS("hold", "big"),
                ARGS("release", "3"),
                ARGS("release", "--all"),
                ARGS("auto"),
                ARGS("reload"),
                ARGS("monitor"),
                ARGS("__levels"),
        };

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct run r;

                run_switchctl(&env, NULL, &r, cases[i]);
                expect_run(&r, 69, "", MSG_NOT_RUNNING);
                run_free(&r);
        }
}
END_TEST

START_TEST(test_no_bus)
{
        static const char *const vars[] = { "DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/bus", NULL };
        struct run_opts o = { .env = vars };
        struct run r;

        run_switchctl(&env, &o, &r, ARGS("status"));
        expect_run(&r, 69, "",
                   "switchctl: cannot connect to the system bus (unix:path=/nonexistent/bus): "
                   "No such file or directory\n");
        run_free(&r);
}
END_TEST

/* A caller that is neither root nor the fake's own uid. */
START_TEST(test_not_permitted)
{
        struct run_opts o = { .as_nobody = true };
        struct run r;

        if (geteuid() != 0) {
                printf("# SKIP test_not_permitted: not root, cannot run switchctl as uid 65534\n");
                return;
        }
        /* The build tree may be where uid 65534 cannot go. */
        run_switchctl(&env, &o, &r, ARGS("--version"));
        if (r.status != 0) {
                printf("# SKIP test_not_permitted: uid 65534 cannot run %s\n", SWITCHCTL_PATH);
                run_free(&r);
                return;
        }
        run_free(&r);
        env_fake(&env, NULL);
        run_switchctl(&env, &o, &r, ARGS("hold", "big", "--persist"));
        expect_run(&r, 4, "", MSG_NOT_PERMITTED);
        run_free(&r);
        run_switchctl(&env, &o, &r, ARGS("hold", "big", "--for", "1min"));
        expect_run(&r, 4, "", MSG_NOT_PERMITTED);
        run_free(&r);
        run_switchctl(&env, &o, &r, ARGS("reload"));
        expect_run(&r, 4, "", MSG_NOT_PERMITTED);
        run_free(&r);
        /* Hold 5 is root's. */
        run_switchctl(&env, &o, &r, ARGS("release", "5"));
        expect_run(&r, 4, "", MSG_NOT_PERMITTED);
        run_free(&r);
        /* Reading is open to everyone. */
        run_switchctl(&env, &o, &r, ARGS("status"));
        expect_run(&r, 0, NULL, "");
        expect_golden("status.txt", r.out);
        run_free(&r);
        /* Nobody has no holds of its own; those of others stay, and it says so. */
        run_switchctl(&env, &o, &r, ARGS("auto"));
        expect_run(&r, 0,
                   "You held nothing to release.\n"
                   "2 holds of other users remain in force (holds 3 5); see switchctl status.\n",
                   "");
        run_free(&r);
        expect_calls("HoldWithFlags level=big duration=3600000000 reason=\"\" flags=1\n"
                     "Hold level=big duration=60000000 reason=\"\" flags=0\n"
                     "Reload\nRelease id=5\nReleaseAll\n");
}
END_TEST

/* check-config runs $SWITCHCTL_BIGLITTLED --check-config[=FILE] as it is. */
static void write_fake_daemon(char *path, size_t size, int status)
{
        FILE *f;

        snprintf(path, size, "%s/bigLittled", env.dir);
        f = fopen(path, "we");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "#!/bin/sh\necho \"bigLittled $*\"\necho \"problem\" >&2\nexit %d\n", status);
        ck_assert_int_eq(fclose(f), 0);
        ck_assert_int_eq(chmod(path, 0755), 0);
}

START_TEST(test_check_config)
{
        char daemon[600], var[640];
        const char *vars[] = { var, NULL };
        struct run_opts o = { .env = vars };
        struct run r;

        write_fake_daemon(daemon, sizeof(daemon), 0);
        snprintf(var, sizeof(var), "SWITCHCTL_BIGLITTLED=%s", daemon);
        run_switchctl(&env, &o, &r, ARGS("check-config"));
        expect_run(&r, 0, "bigLittled --check-config\n", "problem\n");
        run_free(&r);
        run_switchctl(&env, &o, &r, ARGS("check-config", "--", "-odd.conf"));
        expect_run(&r, 0, "bigLittled --check-config=-odd.conf\n", "problem\n");
        run_free(&r);

        write_fake_daemon(daemon, sizeof(daemon), 78);
        run_switchctl(&env, &o, &r, ARGS("check-config", "/etc/bigLittle.conf"));
        expect_run(&r, 78, "bigLittled --check-config=/etc/bigLittle.conf\n", "problem\n");
        run_free(&r);

        snprintf(var, sizeof(var), "SWITCHCTL_BIGLITTLED=%s/missing", env.dir);
        run_switchctl(&env, &o, &r, ARGS("check-config"));
        ck_assert_int_eq(r.status, 1);
        ck_assert_ptr_nonnull(strstr(r.err, "switchctl: cannot run "));
        ck_assert_ptr_nonnull(strstr(r.err, "/missing: No such file or directory\n"));
        run_free(&r);
}
END_TEST

/* record runs $SWITCHCTL_BIGLITTLED --record FILE with the options given. */
START_TEST(test_record)
{
        char daemon[600], var[640];
        const char *vars[] = { var, NULL };
        struct run_opts o = { .env = vars };
        struct run r;

        write_fake_daemon(daemon, sizeof(daemon), 0);
        snprintf(var, sizeof(var), "SWITCHCTL_BIGLITTLED=%s", daemon);
        run_switchctl(&env, &o, &r, ARGS("record", "load.csv"));
        expect_run(&r, 0, "bigLittled --record load.csv\n", "problem\n");
        run_free(&r);
        run_switchctl(&env, &o, &r, ARGS("record", "--interval", "10ms", "load.csv", "--duration", "5min"));
        expect_run(&r, 0, "bigLittled --record load.csv --duration 5min --interval 10ms\n", "problem\n");
        run_free(&r);
        write_fake_daemon(daemon, sizeof(daemon), 64);
        run_switchctl(&env, &o, &r, ARGS("record", "load.csv", "--duration", "soon"));
        expect_run(&r, 64, "bigLittled --record load.csv --duration soon\n", "problem\n");
        run_free(&r);
}
END_TEST

/* On a terminal: colours, "→", the pager, monitor's status line. */

START_TEST(test_tty_status)
{
        struct run_opts o = { .tty = true };
        struct run r;

        env_fake(&env, NULL);
        run_switchctl(&env, &o, &r, ARGS("status"));
        expect_run(&r, 0, NULL, NULL);
        ck_assert_ptr_nonnull(strstr(r.out, "Level: \033[1mlittle\033[0m (target big)\n"));
        ck_assert_ptr_nonnull(strstr(r.out, "\033[1mbig   \033[0m  until "));
        run_free(&r);
}
END_TEST

START_TEST(test_tty_history_pager)
{
        static const char *const vars[] = { "SYSTEMD_PAGER=sed 's/^/|/'", NULL };
        struct run_opts o = { .tty = true, .env = vars };
        struct run r;

        env_fake(&env, NULL);
        run_switchctl(&env, &o, &r, ARGS("history"));
        expect_run(&r, 0, NULL, NULL);
        expect_golden("history-tty.txt", r.out);
        run_free(&r);
}
END_TEST

START_TEST(test_tty_no_pager_no_color)
{
        static const char *const vars[] = { "SYSTEMD_PAGER=sed 's/^/|/'", "NO_COLOR=1", NULL };
        struct run_opts o = { .tty = true, .env = vars };
        struct run r;

        env_fake(&env, NULL);
        run_switchctl(&env, &o, &r, ARGS("history", "--no-pager"));
        expect_run(&r, 0, NULL, NULL);
        /* Exactly what a pipe gets. */
        expect_golden("history.txt", r.out);
        run_free(&r);
}
END_TEST

START_TEST(test_tty_dumb_terminal)
{
        static const char *const vars[] = { "TERM=dumb", NULL };
        struct run_opts o = { .tty = true, .env = vars };
        struct run r;

        env_fake(&env, NULL);
        run_switchctl(&env, &o, &r, ARGS("status"));
        expect_run(&r, 0, NULL, NULL);
        expect_golden("status.txt", r.out);
        run_free(&r);
}
END_TEST

START_TEST(test_tty_monitor)
{
        struct run_opts o = { .tty = true };
        int out_fd, err_fd;
        char *early, *a, *b, *rest;
        pid_t pid;
        size_t len;
        struct run r;

        env_fake(&env, NULL);
        pid = run_start(&env, &o, ARGS("monitor"), &out_fd, &err_fd);
        early = read_until(out_fd, "2 holds", 5000);
        ck_assert_msg(strstr(early, "little → big · demand 612 · 61.5 °C · 2 holds"), "status line: %s",
                      early);
        fake_emit_switched("little", "big", "demand 612 > 80% of little (377) for 40 ms");
        len = strlen(early);
        rest = read_until(out_fd, "for 40 ms", 5000);
        early = realloc(early, len + strlen(rest) + 1);
        strcpy(early + len, rest);
        free(rest);
        run_finish(pid, SIGTERM, out_fd, err_fd, early, &r);
        expect_run(&r, 0, NULL, NULL);
        /* The status line is cleared with "\r", spaces and "\r" before the switch is printed... */
        a = strstr(r.out, "2 holds\r");
        ck_assert_msg(a, "no status line cleared in: %s", r.out);
        b = strstr(a, "\033[1mlittle → big\033[0m: demand 612 > 80% of little (377) for 40 ms\n");
        ck_assert_msg(b, "no switch line in: %s", r.out);
        /* ...and drawn again under it. */
        ck_assert_ptr_nonnull(strstr(b, "2 holds"));
        /* On exit, it is cleared: the output ends with "\r". */
        ck_assert_int_eq(r.out[strlen(r.out) - 1], '\r');
        run_free(&r);
}
END_TEST

static Suite *switchctl_suite(void)
{
        Suite *s = suite_create("switchctl");
        TCase *tc;

        tc = tcase_create("read");
        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, test_status);
        tcase_add_test(tc, test_status_is_default);
        tcase_add_test(tc, test_status_json);
        tcase_add_test(tc, test_status_quiet);
        tcase_add_test(tc, test_status_quiet_json);
        tcase_add_test(tc, test_history);
        tcase_add_test(tc, test_history_lines);
        tcase_add_test(tc, test_history_no_legend);
        tcase_add_test(tc, test_history_json);
        tcase_add_test(tc, test_history_empty);
        tcase_add_test(tc, test_history_empty_json);
        tcase_add_test(tc, test_stats);
        tcase_add_test(tc, test_stats_no_legend);
        tcase_add_test(tc, test_stats_json);
        tcase_add_test(tc, test_stats_quiet);
        tcase_add_test(tc, test_completion_lists);
        tcase_add_test(tc, test_completion_keys_no_daemon);
        suite_add_tcase(s, tc);

        tc = tcase_create("control");
        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, test_hold_persist);
        tcase_add_test(tc, test_hold_default_duration);
        tcase_add_test(tc, test_hold_waits_for_duration);
        tcase_add_test(tc, test_hold_command);
        tcase_add_test(tc, test_hold_command_missing);
        tcase_add_test(tc, test_hold_sigterm);
        tcase_add_test(tc, test_hold_released_by_someone_else);
        tcase_add_test(tc, test_hold_daemon_stops);
        tcase_add_test(tc, test_release);
        tcase_add_test(tc, test_release_all);
        tcase_add_test(tc, test_release_all_nothing);
        tcase_add_test(tc, test_auto);
        tcase_add_test(tc, test_reload);
        tcase_add_test(tc, test_monitor);
        tcase_add_test(tc, test_monitor_sigint);
        tcase_add_test(tc, test_monitor_wait);
        tcase_add_test(tc, test_monitor_wait_running);
        tcase_add_test(tc, test_monitor_no_wait);
        tcase_add_test(tc, test_get);
        tcase_add_test(tc, test_get_quiet);
        tcase_add_test(tc, test_get_unknown);
        suite_add_tcase(s, tc);

        tc = tcase_create("errors");
        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, test_error_unknown_level);
        tcase_add_test(tc, test_error_invalid_duration);
        tcase_add_test(tc, test_error_invalid_reason);
        tcase_add_test(tc, test_error_too_many_holds);
        tcase_add_test(tc, test_error_no_such_hold);
        tcase_add_test(tc, test_error_reload_refused);
        tcase_add_test(tc, test_usage_errors);
        tcase_add_test(tc, test_help_and_version);
        tcase_add_test(tc, test_verb_help);
        tcase_add_test(tc, test_not_running);
        tcase_add_test(tc, test_no_bus);
        tcase_add_test(tc, test_not_permitted);
        tcase_add_test(tc, test_check_config);
        tcase_add_test(tc, test_record);
        suite_add_tcase(s, tc);

        tc = tcase_create("terminal");
        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, test_tty_status);
        tcase_add_test(tc, test_tty_history_pager);
        tcase_add_test(tc, test_tty_no_pager_no_color);
        tcase_add_test(tc, test_tty_dumb_terminal);
        tcase_add_test(tc, test_tty_monitor);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        char base[] = "/tmp/check_switchctl.XXXXXX";
        const char *tmp = getenv("TMPDIR");
        char *dir;
        SRunner *sr;
        int failed;

        /* Under $TMPDIR when set; the per-test directories go in here and
         * all of it goes at the end, whatever a failed test left. */
        if (tmp && tmp[0]) {
                if (asprintf(&dir, "%s/check_switchctl.XXXXXX", tmp) < 0)
                        return EXIT_FAILURE;
        } else
                dir = strdup(base);
        if (!dir || !mkdtemp(dir) || chmod(dir, 0755) < 0) {
                perror("check_switchctl: temporary directory");
                return EXIT_FAILURE;
        }
        harness_base_dir = dir;

        sr = srunner_create(switchctl_suite());
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        remove_tree(dir);
        free(dir);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
