/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * End to end: the unmodified bigLittled on the live exynos5422-like board
 * (the board model of blsim live, src/sim/live.h, played in this process so
 * that the test can heat it and signal the daemon between its moves), with
 * the rt-app workloads video-short (light: the daemon stays on little) and
 * browser-short (heavy from 0.5 s on), driven with the real switchctl over a
 * private dbus-daemon that has the shipped bus policy.
 *
 * "The board saw" means the level the live board ran the workload at
 * (sim_live_switches(), blsim live's switch_sequence) and its online CPUs
 * (little = 0-3, big = 4-7 with the hotplug backend). The daemon's own
 * account is what switchctl prints. They must agree on the order of levels
 * exactly; times within HISTORY_SLACK_US: the board sees a write at its
 * next 5 ms tick, and on a loaded machine its loop and the daemon's may
 * each run late by tens of ms.
 *
 * Bounds are generous (a 2-core machine running other builds): the test
 * asserts order and presence, not exact times. The last test runs the
 * blsim binary itself, for its report after SIGTERM.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/board.h"
#include "loaders/board-file.h"
#include "sim/live.h"
#include "sim/modes.h"
#include "sim/rtapp-json.h"
#include "sim/rtapp.h"
#include "tests/integration/harness.h"

#define BOARD BOARDS_DIR "/exynos5422-like.ini"
#define VIDEO WORKLOADS_DIR "/rt-app/video-short.json"
#define BROWSER WORKLOADS_DIR "/rt-app/browser-short.json"
#define LITTLE "0-3"
#define BIG "4-7"
#define ALL "0-7"

/* The delays below allow a switch 20-120 ms after the load asks for it. */
#define SWITCH_BOUND_MS 2000
#define CTL_BOUND_MS 10000
/* The workloads last 6 s of board time. */
#define WORKLOAD_BOUND_MS 20000
#define HISTORY_SLACK_US (150 * BL_USEC_PER_MSEC)
#define MAX_ARGS 16

/* These tests check that the daemon, switchctl and the board agree, not
 * which policy is best: they pin the pelt heuristic and its hysteresis,
 * under which video stays on little and browser's frames switch often.
 * The report test runs the shipped configuration. */
static const char base_config[] =
        "[daemon]\n"
        "sample_interval_ms = 20\n"
        "backend = hotplug\n"
        "log_level = info\n"
        "[policy]\n"
        "heuristics = pelt\n"
        "[hysteresis]\n"
        "up_threshold = 80\n"
        "down_threshold = 60\n"
        "up_delay_ms = 20\n"
        "down_delay_ms = 100\n"
        "min_residency_ms = 40\n";

static const char shipped_config[] =
        "[daemon]\n"
        "backend = hotplug\n"
        "log_level = info\n";

static const char bus_policy[] = HARNESS_SYSTEM_BUS_POLICY(CONF_DIR);

/* The live run of the test (the harness's fb is its board). */
static struct sim_board *board;
static struct sim_mode *mode;
static struct sim_workload *workload;
static struct sim_live *run;
static struct live_desc *desc;
/* switchctl runs so far: each writes its own output file. */
static unsigned nctl;

static void setup(void)
{
        harness_setup();
        board = NULL;
        mode = NULL;
        workload = NULL;
        run = NULL;
        desc = NULL;
        nctl = 0;
}

static void teardown(void)
{
        /* The board first: it does not own the run it plays. */
        harness_teardown();
        sim_live_free(run);
        workload_free(workload);
        free(desc);
        free(mode);
        free(board);
}

/* switchctl */

struct ctl {
        pid_t pid;
        int status;
        char out[PATH_MAX], err[PATH_MAX];
};

/* Starts switchctl with the arguments (a NULL-terminated list) on the
 * test's bus, its output into files of its own. */
static void ctl_start(struct ctl *c, const char *arg, ...)
{
        char *argv[MAX_ARGS] = { (char *)SWITCHCTL_PATH };
        unsigned argc = 1;
        va_list ap;

        va_start(ap, arg);
        for (; arg; arg = va_arg(ap, const char *)) {
                ck_assert_uint_lt(argc, MAX_ARGS - 1);
                argv[argc++] = (char *)arg;
        }
        va_end(ap);
        argv[argc] = NULL;
        ck_assert_int_lt(snprintf(c->out, sizeof(c->out), "%sctl-%u.out", work_file(""), nctl),
                         (int)sizeof(c->out));
        snprintf(c->err, sizeof(c->err), "%sctl-%u.err", work_file(""), nctl);
        nctl++;
        c->pid = harness_exec_to_files(argv, c->out, c->err);
}

static bool ctl_exited(struct fakeboard *b, void *userdata)
{
        struct ctl *c = userdata;

        (void)b;
        return waitpid(c->pid, &c->status, WNOHANG) == c->pid;
}

/* Runs the board until switchctl exits; returns its exit status. */
static int ctl_wait(struct ctl *c, unsigned timeout_ms)
{
        int r = fakeboard_run(fb, timeout_ms, ctl_exited, c);

        ck_assert_int_ge(r, 0);
        if (r == 0) {
                kill(c->pid, SIGKILL);
                waitpid(c->pid, NULL, 0);
                ck_abort_msg("switchctl still runs after %u ms", timeout_ms);
        }
        ck_assert_msg(WIFEXITED(c->status), "switchctl died of signal %d", WTERMSIG(c->status));
        return WEXITSTATUS(c->status);
}

/* What switchctl said on standard output, parsed as JSON (it must succeed). */
static struct rtapp_json *ctl_json(const char *verb)
{
        struct rtapp_json *root = NULL;
        struct bl_diag diag;
        struct ctl c;
        char *out, *err;
        int status;

        ctl_start(&c, verb, "--json", NULL);
        status = ctl_wait(&c, CTL_BOUND_MS);
        out = read_whole_file(c.out);
        err = read_whole_file(c.err);
        ck_assert_msg(status == 0, "switchctl %s --json: status %d: %s", verb, status, err);
        diag_init(&diag);
        ck_assert_msg(rtapp_json_parse(&root, verb, out, strlen(out), &diag) == 0, "switchctl %s --json: %s",
                      verb, diag.n ? diag.msg[0] : "not JSON");
        free(out);
        free(err);
        return root;
}

/* JSON */

/* The member 'key' of an object; a dotted key walks into objects. */
static const struct rtapp_json *member(const struct rtapp_json *o, const char *key)
{
        const char *dot = strchr(key, '.');
        size_t len = dot ? (size_t)(dot - key) : strlen(key);

        ck_assert_msg(o->type == RTAPP_JSON_OBJECT, "not an object where %s was expected", key);
        for (size_t i = 0; i < o->object.n; i++) {
                const struct rtapp_json_member *m = &o->object.members[i];

                if (strlen(m->key) == len && strncmp(m->key, key, len) == 0)
                        return dot ? member(&m->value, dot + 1) : &m->value;
        }
        ck_abort_msg("no key %.*s", (int)len, key);
        return NULL;
}

static void expect_type(const struct rtapp_json *v, enum rtapp_json_type type, const char *key)
{
        ck_assert_msg(v->type == type, "%s is %s, not %s", key, rtapp_json_type_name(v->type),
                      rtapp_json_type_name(type));
}

static const char *text_of(const struct rtapp_json *o, const char *key)
{
        const struct rtapp_json *v = member(o, key);

        expect_type(v, RTAPP_JSON_STRING, key);
        return v->string;
}

static long long int_of(const struct rtapp_json *o, const char *key)
{
        const struct rtapp_json *v = member(o, key);

        expect_type(v, RTAPP_JSON_INT, key);
        return v->integer;
}

static double number_of(const struct rtapp_json *o, const char *key)
{
        const struct rtapp_json *v = member(o, key);

        if (v->type == RTAPP_JSON_INT)
                return (double)v->integer;
        expect_type(v, RTAPP_JSON_FLOAT, key);
        return v->number;
}

static size_t length_of(const struct rtapp_json *o, const char *key)
{
        const struct rtapp_json *v = member(o, key);

        expect_type(v, RTAPP_JSON_ARRAY, key);
        return v->array.n;
}

/* The live board */

static bool run_started(struct fakeboard *b, void *userdata)
{
        (void)userdata;
        return sim_live_started(run) || !fakeboard_running(b);
}

static bool run_done(struct fakeboard *b, void *userdata)
{
        (void)userdata;
        return sim_live_done(run) || !fakeboard_running(b);
}

/* The daemon answers on the bus. */
static void expect_on_bus(void)
{
        bl_usec_t until = fakeboard_now() + START_BOUND_MS * BL_USEC_PER_MSEC;
        struct ctl c;

        for (;;) {
                ctl_start(&c, "status", NULL);
                if (ctl_wait(&c, CTL_BOUND_MS) == 0)
                        return;
                ck_assert_msg(fakeboard_now() < until && fakeboard_running(fb),
                              "the daemon is not on the bus; switchctl said: %s; the daemon said:%s",
                              read_whole_file(c.err), log_text());
                ck_assert_int_eq(fakeboard_run_for(fb, 50), 0);
        }
}

/* The live board with 'workload_path' playing, a private bus, and the
 * daemon on it with 'config_text', which has moved the board onto little:
 * the workload runs from now on. Returns the configuration's path. */
static const char *start_live(const char *workload_path, const char *config_text)
{
        static const char *const groups[] = { "system.slice", "user.slice" };
        static char config[PATH_MAX];
        struct bl_diag diag;
        int r;

        board = malloc(sizeof(*board));
        mode = malloc(sizeof(*mode));
        desc = malloc(sizeof(*desc));
        ck_assert(board && mode && desc);
        diag_init(&diag);
        ck_assert_int_eq(board_load(board, BOARD, &diag), 0);
        ck_assert_int_eq(sim_mode_build(mode, board, BL_MODE_CLUSTER, &diag), 0);
        r = rtapp_workload_load(&workload, workload_path, 0, 0, &diag);
        ck_assert_msg(r == 0, "%s: %s", workload_path, diag.n ? diag.msg[0] : strerror(-r));
        rtapp_workload_set_reference_capacity(workload, board->reference_capacity);
        ck_assert_int_eq(sim_live_new(&run, board, mode, workload), 0);
        ck_assert_int_eq(live_desc_build(desc, board, groups, 2), 0);
        ck_assert_int_eq(fakeboard_new_desc(&desc->desc, &sim_live_driver, run, &fb), 0);

        harness_start_bus(bus_policy);
        snprintf(config, sizeof(config), "%s", write_config("bigLittle.conf", config_text));
        /* The boot state, which the daemon's first move leaves. */
        ck_assert_int_eq(fakeboard_step(fb, fakeboard_now()), 0);
        spawn_daemon(config, NULL);
        sim_live_arm(run, fakeboard_now());
        ck_assert_int_eq(fakeboard_run(fb, START_BOUND_MS, run_started, NULL), 1);
        ck_assert_msg(sim_live_started(run) && online_equals(LITTLE), "online %s; the daemon said:%s",
                      online_text(), log_text());
        expect_on_bus();
        return config;
}

static void run_to_end(void)
{
        ck_assert_int_eq(fakeboard_run(fb, WORKLOAD_BOUND_MS, run_done, NULL), 1);
        ck_assert_msg(sim_live_done(run), "the daemon exited before the workload ended:%s", log_text());
}

/* SIGTERM: the daemon puts every CPU back online and says so. */
static void stop_and_expect_restored(void)
{
        assert_exit_status(stop_daemon(SIGTERM), 0);
        ck_assert_msg(online_equals(ALL), "online %s after SIGTERM", online_text());
        (void)expect_line(0, "restored: online " ALL, 0);
}

static const char *level_name(unsigned level)
{
        return mode->class_name[mode->class_of[level]];
}

/* The board's switches, and that the daemon went from 'from' to 'to' at
 * least once in them. */
static size_t board_switches(const struct sim_switch **sw)
{
        size_t n = sim_live_switches(run, sw);

        for (size_t i = 1; i < n; i++)
                ck_assert_uint_eq((*sw)[i].from, (*sw)[i - 1].to);
        return n;
}

/* status --json and history --json against the board's switch sequence. */
START_TEST(test_e2e_switches_agree)
{
        char config[sizeof(base_config) + 64];
        const struct rtapp_json *h, *e;
        struct rtapp_json *status, *history;
        const struct sim_switch *sw;
        struct sim_result result;
        bl_usec_t t0, end, worst = 0;
        size_t n, nh, nstatus;

        /* Down after 20 ms below the threshold: browser-short's frames
         * take it up and down, two to twenty times depending on where the
         * samples fall (fewer since busy time is exact, from cpuidle). */
        snprintf(config, sizeof(config), "%s[hysteresis]\ndown_delay_ms = 20\n", base_config);
        start_live(BROWSER, config);
        run_to_end();
        n = board_switches(&sw);
        ck_assert_msg(n >= 1, "the board saw no switch; the daemon said:%s", log_text());
        /* At least one each way, so the order of levels is checked. On a
         * loaded machine the board runs late, its CPUs look busier than
         * they were, and the frames may hold big to the end: the way down
         * then comes on the idle board after the workload. */
        if (n == 1)
                (void)expect_online(LITTLE, 2000);
        /* Now, while the daemon still runs: status first, then history. */
        status = ctl_json("status");
        history = ctl_json("history");
        ck_assert_int_eq(sim_live_result(run, &result), 0);
        t0 = sim_live_start_time(run);
        end = t0 + result.steps * workload->step_us;

        h = history;
        ck_assert_int_eq(h->type, RTAPP_JSON_ARRAY);
        nh = h->array.n;
        ck_assert_msg(nh >= n, "history has %zu switches, the board saw %zu", nh, n);
        ck_assert_msg(nh >= 2, "history has %zu switches, not one each way", nh);
        for (size_t i = 0; i < nh; i++) {
                bl_usec_t when, diff;

                e = &h->array.items[i];
                when = (bl_usec_t)int_of(e, "when_monotonic_usec");
                ck_assert_uint_ge(when, t0 - HISTORY_SLACK_US);
                if (i > 0)
                        ck_assert_str_eq(text_of(e, "from"), text_of(&h->array.items[i - 1], "to"));
                ck_assert_str_ne(text_of(e, "from"), text_of(e, "to"));
                if (i >= n) {
                        /* After the board's last step: the idle board after the workload. */
                        ck_assert_msg(when + HISTORY_SLACK_US >= end, "history switch %zu (%s -> %s) at "
                                      "%llu us is not on the board", i, text_of(e, "from"), text_of(e, "to"),
                                      (unsigned long long)(when - t0));
                        continue;
                }
                ck_assert_str_eq(text_of(e, "from"), level_name(sw[i].from));
                ck_assert_str_eq(text_of(e, "to"), level_name(sw[i].to));
                diff = when > t0 + sw[i].t ? when - (t0 + sw[i].t) : t0 + sw[i].t - when;
                ck_assert_msg(diff <= HISTORY_SLACK_US, "switch %zu (%s -> %s): history at %llu us, board at "
                              "%llu us", i, text_of(e, "from"), text_of(e, "to"),
                              (unsigned long long)(when - t0), (unsigned long long)sw[i].t);
                if (diff > worst)
                        worst = diff;
        }
        /* status was read just before history: the same count, or fewer
         * only by switches of the idle board since. */
        ck_assert_str_eq(text_of(status, "mode"), "cluster");
        ck_assert_uint_eq(length_of(status, "levels"), 2);
        nstatus = (size_t)int_of(status, "switches");
        ck_assert_uint_ge(nstatus, n);
        ck_assert_uint_le(nstatus, nh);
        ck_assert_str_eq(text_of(status, "level"), text_of(&h->array.items[nstatus - 1], "to"));
        ck_assert_uint_eq(length_of(status, "holds"), 0);
        fprintf(stderr, "check_e2e: %zu switches on the board, %zu in the history; largest time difference "
                "%llu us (bound %llu)\n", n, nh, (unsigned long long)worst,
                (unsigned long long)HISTORY_SLACK_US);
        rtapp_json_free(status);
        rtapp_json_free(history);
        stop_and_expect_restored();
}
END_TEST

/* switchctl hold big --for 2s on a light load: big while it lasts, then
 * back to automatic, and little again. */
START_TEST(test_e2e_hold)
{
        struct rtapp_json *status;
        const struct sim_switch *sw;
        struct ctl hold;
        char *id;
        size_t n;

        start_live(VIDEO, base_config);
        expect_online_stays(LITTLE, 500);
        ctl_start(&hold, "hold", "big", "--for", "2s", "--reason", "e2e", NULL);
        (void)expect_online(BIG, SWITCH_BOUND_MS);
        status = ctl_json("status");
        ck_assert_str_eq(text_of(status, "level"), "big");
        ck_assert_uint_eq(length_of(status, "holds"), 1);
        ck_assert_str_eq(text_of(&member(status, "holds")->array.items[0], "level"), "big");
        ck_assert_str_eq(text_of(&member(status, "holds")->array.items[0], "reason"), "e2e");
        rtapp_json_free(status);
        /* The hold holds: a light load does not take the board down. */
        expect_online_stays(BIG, 1000);
        /* It ends by itself: switchctl hold exits 0 when its time is up. */
        ck_assert_int_eq(ctl_wait(&hold, 2000 + CTL_BOUND_MS), 0);
        id = read_whole_file(hold.out);
        ck_assert_msg(atoi(id) > 0, "switchctl hold printed \"%s\"", id);
        free(id);
        (void)expect_online(LITTLE, SWITCH_BOUND_MS);
        status = ctl_json("status");
        ck_assert_uint_eq(length_of(status, "holds"), 0);
        ck_assert_str_eq(text_of(status, "level"), "little");
        rtapp_json_free(status);

        n = board_switches(&sw);
        ck_assert_uint_eq(n, 2);
        ck_assert_str_eq(level_name(sw[0].to), "big");
        ck_assert_str_eq(level_name(sw[1].to), "little");
        /* The switch up names the hold. */
        (void)expect_line(0, "switch little -> big: hold 1 by uid 0 (e2e): big", 0);
        stop_and_expect_restored();
}
END_TEST

static void heat_big(double temp_c)
{
        ck_assert_int_eq(sim_live_hold_temp(run, 1, temp_c), 0);
}

static void expect_thermal_state(const char *state, const char *level)
{
        struct rtapp_json *status = ctl_json("status");

        ck_assert_str_eq(text_of(status, "thermal.state"), state);
        ck_assert_str_eq(text_of(status, "level"), level);
        rtapp_json_free(status);
}

/* A heavy load on big while its zone heats past the cap and cools below
 * the release: capped at cap_temp_c, not released between the two. */
START_TEST(test_e2e_thermal)
{
        char config[sizeof(base_config) + 128];
        const struct sim_switch *sw;
        struct rtapp_json *status;
        size_t n;

        snprintf(config, sizeof(config), "%s[thermal]\ncap_temp_c = 70\nrelease_temp_c = 60\n"
                 "critical_temp_c = 90\n", base_config);
        start_live(BROWSER, config);
        status = ctl_json("status");
        ck_assert_double_eq(number_of(status, "thermal_limits.cap_mc"), 70000);
        ck_assert_double_eq(number_of(status, "thermal_limits.release_mc"), 60000);
        rtapp_json_free(status);
        (void)expect_online(BIG, SWITCH_BOUND_MS);
        heat_big(55);
        expect_online_stays(BIG, 300);
        heat_big(68);
        expect_online_stays(BIG, 300);
        expect_thermal_state("normal", "big");
        /* Past the cap: down at once, whatever the load. */
        heat_big(72);
        (void)expect_online(LITTLE, SWITCH_BOUND_MS);
        expect_thermal_state("capped", "little");
        (void)expect_line(0, "switch big -> little: temperature 72.0 C >= cap 70.0 C", 0);
        /* Below the cap, not below the release: still capped. */
        heat_big(65);
        expect_online_stays(LITTLE, 500);
        expect_thermal_state("capped", "little");
        /* Below the release: the load takes it up again. */
        heat_big(57);
        (void)expect_online(BIG, SWITCH_BOUND_MS);
        expect_thermal_state("normal", "big");

        n = board_switches(&sw);
        ck_assert_uint_eq(n, 3);
        ck_assert_str_eq(level_name(sw[1].to), "little");
        ck_assert_str_eq(level_name(sw[2].to), "big");
        stop_and_expect_restored();
}
END_TEST

/* SIGHUP with a lower up_threshold: the light load that stayed on little
 * goes big, and the daemon logs the reload. */
START_TEST(test_e2e_reload)
{
        char config[sizeof(base_config) + 128];
        const struct sim_switch *sw;
        const char *path;
        unsigned line;

        snprintf(config, sizeof(config), "%s", base_config);
        path = start_live(VIDEO, config);
        expect_online_stays(LITTLE, 1000);
        ck_assert_uint_eq(board_switches(&sw), 0);

        /* video-short's demand is 50-100 of little's 377 with dips between
         * frames (busy time is exact, from cpuidle): 5 % is below all of it. */
        snprintf(config, sizeof(config), "%s[hysteresis]\nup_threshold = 5\ndown_threshold = 1\n",
                 base_config);
        ck_assert_str_eq(write_config("bigLittle.conf", config), path);
        ck_assert_int_eq(fakeboard_kill(fb, SIGHUP), 0);
        line = expect_line(0, "reload: applied ", SWITCH_BOUND_MS);
        expect_line_has(line, path);
        (void)expect_online(BIG, SWITCH_BOUND_MS);
        ck_assert_uint_eq(board_switches(&sw), 1);
        ck_assert_str_eq(level_name(sw[0].to), "big");
        stop_and_expect_restored();
}
END_TEST

/* blsim live itself, with the daemon stopped by SIGTERM on a level: the
 * board is back as it booted, and the report says so. */
START_TEST(test_e2e_blsim_live_report)
{
        const char *config = write_config("bigLittle.conf", shipped_config);
        char *argv[] = {
                (char *)BLSIM_PATH, (char *)"live", (char *)"--board", (char *)BOARD, (char *)"--workload",
                (char *)BROWSER, (char *)"--config", (char *)config, (char *)"--json", (char *)"--",
                (char *)DAEMON_PATH, (char *)"--foreground", (char *)"--config", (char *)config, NULL,
        };
        char out[PATH_MAX], err[PATH_MAX];
        struct rtapp_json *report;
        const struct rtapp_json *seq;
        struct bl_diag diag;
        char *text, *log;
        int status;
        pid_t pid;

        snprintf(out, sizeof(out), "%s", work_file("report.json"));
        snprintf(err, sizeof(err), "%s", work_file("report.err"));
        pid = harness_exec_to_files(argv, out, err);
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        text = read_whole_file(out);
        log = read_whole_file(err);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "blsim live: status %#x:\n%s", status,
                      text_tail(log, 1500));
        diag_init(&diag);
        ck_assert_int_eq(rtapp_json_parse(&report, "report", text, strlen(text), &diag), 0);
        ck_assert_str_eq(text_of(report, "policy"), "live");
        ck_assert_str_eq(text_of(report, "online_at_exit"), ALL);
        /* It switched, and whichever level it was on when stopped (little
         * 0-3 or big 4-7 online), every CPU is back. */
        seq = member(report, "switch_sequence");
        ck_assert_uint_ge(seq->array.n, 1);
        ck_assert_ptr_nonnull(strstr(log, "restored: online " ALL));
        rtapp_json_free(report);
        free(text);
        free(log);
}
END_TEST

static Suite *e2e_suite(void)
{
        Suite *s = suite_create("e2e");
        TCase *tc = tcase_create("e2e");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, test_e2e_switches_agree);
        tcase_add_test(tc, test_e2e_hold);
        tcase_add_test(tc, test_e2e_thermal);
        tcase_add_test(tc, test_e2e_reload);
        tcase_add_test(tc, test_e2e_blsim_live_report);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(e2e_suite(), "check-e2e");
}
