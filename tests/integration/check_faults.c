/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Faults of the kernel and of the machine around the real daemon, on the
 * fake Exynos 5422 with the hotplug backend (levels little = CPUs 0-3, big
 * = 0,4-7): writes failing with errors other than EBUSY, a CPU vanishing
 * in the middle of a switch, a thermal zone going and coming back, /proc
 * and sysfs files empty, cut or garbage, the clocks jumping and the bus
 * going away. Each test asserts that the daemon said what happened (one
 * clear line), that the CPUs are one whole level, never part of two, and
 * that it still switches afterwards (or, where leaving is right, leaves
 * the CPUs as it found them).
 *
 * check_matrix covers EBUSY on every backend; check_events the CPU and
 * thermal udev events of a sane kernel. Writes fail through
 * fakeboard_refuse_writes(), files go bad through fakeboard_override_file(),
 * the clocks jump through the clock-shift preload.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

#include "tests/integration/harness.h"

#define CPU "/sys/devices/system/cpu/"
#define ZONE0 "/sys/devices/virtual/thermal/thermal_zone0"
#define LITTLE "0-3"
#define BIG "0,4-7"
#define SWITCH_BOUND_MS 3000
/* A failed switch is tried again after a second. */
#define RETRY_BOUND_MS (1000 + SWITCH_BOUND_MS)
#define LINE_BOUND_MS 2000
/* The daemon tries to reconnect after 1, 2, 4, ... s. */
#define RECONNECT_BOUND_MS 10000

static const struct fast_timing timing = { 40, 60, 20, 20 };

static const unsigned idle_load[] = { 40 };
static const unsigned heavy_load[] = { 600, 600, 600, 600, 600, 600, 600, 600 };

static void set_idle(void)
{
        set_load(idle_load, 1);
}

static void set_heavy(void)
{
        set_load(heavy_load, sizeof(heavy_load) / sizeof(heavy_load[0]));
}

/* Starts the daemon on an idle board and waits for the lowest level. */
static unsigned start_little(void)
{
        unsigned started;

        new_board("exynos5422");
        set_idle();
        spawn_daemon(write_fast_config("hotplug", &timing, ""), NULL);
        started = expect_line(0, "started: ", START_BOUND_MS);
        expect_online(LITTLE, SWITCH_BOUND_MS);
        return started;
}

/* Loads the board (or lets it idle) and waits for a whole switch up (or
 * down) after line 'from'. */
static unsigned switch_to(bool up, unsigned from)
{
        unsigned line;

        if (up)
                set_heavy();
        else
                set_idle();
        line = expect_line(from, up ? "switch little -> big: " : "switch big -> little: ", SWITCH_BOUND_MS);
        expect_online(up ? BIG : LITTLE, SWITCH_BOUND_MS);
        return line;
}

static unsigned switch_up(unsigned from)
{
        return switch_to(true, from);
}

static unsigned switch_down(unsigned from)
{
        return switch_to(false, from);
}

static void stop_cleanly(void)
{
        assert_exit_status(stop_daemon(SIGTERM), 0);
        ck_assert_msg(online_equals("0-7"), "online %s after SIGTERM, not 0-7", online_text());
}

static void move_board_dir(const char *from, const char *to)
{
        char a[PATH_MAX], b[PATH_MAX];

        ck_assert_int_eq(fakeboard_path(fb, from, a, sizeof(a)), 0);
        ck_assert_int_eq(fakeboard_path(fb, to, b, sizeof(b)), 0);
        ck_assert_msg(rename(a, b) == 0, "rename %s: %s", from, strerror(errno));
}

/* --- writes the kernel refuses, with the errors it really gives --- */

struct write_fault {
        int error;
        unsigned cpu;           /* the switch up writes cpu4, 5, 6, 7 online, then 3, 2, 1 offline */
        unsigned tries;         /* EIO and EACCES may pass and are tried again; the others are not */
};

static const struct write_fault write_faults[] = {
        { EIO, 4, 3 },    { EIO, 6, 3 },    { ENODEV, 4, 1 }, { ENODEV, 6, 1 },
        { EACCES, 4, 3 }, { EACCES, 6, 3 }, { ENOSPC, 4, 1 }, { ENOSPC, 6, 1 },
};

/* The first or a middle write of a switch fails on every try: the earlier
 * writes are undone, the failure names the CPU, the error and the undo,
 * and the switch is made a second later once the kernel takes the write. */
START_TEST(test_write_fails)
{
        const struct write_fault *f = &write_faults[_i];
        char path[64], want[256];
        const char *text;
        unsigned started, failed;

        started = start_little();
        snprintf(path, sizeof(path), CPU "cpu%u/online", f->cpu);
        ck_assert_int_eq(fakeboard_refuse_writes(fb, path, f->error, f->tries), 0);
        set_heavy();
        failed = expect_line(started, "switch little -> big failed: ", SWITCH_BOUND_MS);
        ck_assert_msg(online_equals(LITTLE), "%s: online %s after the failed switch, not " LITTLE,
                      strerror(f->error), online_text());
        snprintf(want, sizeof(want), "cpu%u: writing online=1 failed after %u %s: %s; earlier writes undone; "
                 "staying at little", f->cpu, f->tries, f->tries == 1 ? "try" : "tries", strerror(f->error));
        text = fakeboard_line(fb, failed, NULL);
        ck_assert_msg(strstr(text, want), "the failure does not say \"%s\":\n    %s", want, text);
        ck_assert_int_eq(fakeboard_refusals_left(fb, path), 0);

        expect_line(failed, "switch little -> big: ", RETRY_BOUND_MS);
        expect_online(BIG, SWITCH_BOUND_MS);
        ck_assert_uint_eq(count_lines(started, " failed: "), 1);
        stop_cleanly();
}
END_TEST

/* The kernel refuses the initial level's offline (EBUSY, as for a CPU whose
 * deadline bandwidth cannot move): the daemon says so naming the CPU, the
 * CPUs stay as found, it runs on, the failure is said once however often it
 * is tried, and once the kernel takes the write the level is applied. */
START_TEST(test_initial_level_refused)
{
        const char *path = CPU "cpu6/online";
        unsigned started, failed;

        new_board("exynos5422");
        set_idle();
        ck_assert_int_eq(fakeboard_refuse_writes(fb, path, EBUSY, 1000), 0);
        spawn_daemon(write_fast_config("hotplug", &timing, ""), NULL);
        failed = expect_line(0, "the initial level little failed: ", START_BOUND_MS);
        expect_line_has(failed, "cpu6: writing online=0 failed");
        started = expect_line(failed, "started: ", START_BOUND_MS);
        /* Tried again every second (each try undone: online moves and comes back). */
        ck_assert_int_eq(fakeboard_run_for(fb, 2200), 0);
        ck_assert_msg(online_equals("0-7"), "online %s after the refused tries, not 0-7", online_text());
        ck_assert(fakeboard_running(fb));
        /* The start line names the refusal; nothing after it says it again. */
        ck_assert_uint_eq(count_lines(started + 1, " failed"), 0);

        ck_assert_int_eq(fakeboard_refuse_writes(fb, path, EBUSY, 0), 0);
        expect_line(started, "level little re-applied", RETRY_BOUND_MS);
        expect_online(LITTLE, SWITCH_BOUND_MS);
        stop_cleanly();
}
END_TEST

/* --- a CPU that vanishes in the middle of a switch --- */

struct vanishing {
        const char *name;
        unsigned cpu;
        bool going_up;          /* the CPU belongs to the level switched to, else to the one left */
};

static const struct vanishing vanishings[] = {
        { "a CPU of the level switched to", 6, true },
        { "a CPU of the level left", 5, false },
};

/* Its online file answers ENODEV from then on, as the kernel's does for a
 * CPU unplugged under it: the switch is undone every time it is tried, the
 * CPUs stay one whole level, and when the CPU answers again the switch is
 * made. */
START_TEST(test_cpu_vanishes_mid_switch)
{
        const struct vanishing *v = &vanishings[_i];
        const char *from = v->going_up ? LITTLE : BIG, *to = v->going_up ? BIG : LITTLE;
        char path[64], want[160];
        unsigned line, failed;

        line = start_little();
        if (!v->going_up)
                line = switch_up(line);
        snprintf(path, sizeof(path), CPU "cpu%u/online", v->cpu);
        ck_assert_int_eq(fakeboard_refuse_writes(fb, path, ENODEV, 1000), 0);
        if (v->going_up)
                set_heavy();
        else
                set_idle();
        failed = expect_line(line, " failed: ", SWITCH_BOUND_MS);
        snprintf(want, sizeof(want), "cpu%u: writing online=%d failed after 1 try: %s; earlier writes "
                 "undone; staying at %s", v->cpu, v->going_up, strerror(ENODEV),
                 v->going_up ? "little" : "big");
        expect_line_has(failed, want);
        /* Tried again every second, undone every time, said once. Each try
         * brings the CPUs before the refused one online and back for a few
         * microseconds; a board step that lands in one (a loaded machine)
         * sees it, so what is checked is where every try ends. */
        ck_assert_int_eq(fakeboard_run_for(fb, 2200), 0);
        ck_assert_msg(online_equals(from), "online %s after the refused tries, not %s", online_text(), from);
        ck_assert_uint_eq(count_lines(failed, " failed"), 1);
        ck_assert(fakeboard_running(fb));

        ck_assert_int_eq(fakeboard_refuse_writes(fb, path, ENODEV, 0), 0);
        line = expect_line(failed, v->going_up ? "switch little -> big went through after failing " :
                           "switch big -> little went through after failing ", RETRY_BOUND_MS);
        expect_line_has(line, " more times the same way");
        expect_line(line, v->going_up ? "switch little -> big: " : "switch big -> little: ", 10);
        expect_online(to, SWITCH_BOUND_MS);
        stop_cleanly();
}
END_TEST

static void assert_online_files(const char *want)
{
        ck_assert_msg(strcmp(online_files(), want) == 0, "online %s, not %s; the daemon said:%s",
                      online_files(), want, log_text());
}

/* A CPU unplugged for good in the middle of a switch up: its online file
 * refuses (ENODEV), then the device goes (cpuN removed, a "remove"
 * event). The switch is undone, the daemon discovers the topology without
 * it, switches on the CPUs left, and leaves without writing to the CPU
 * gone. */
START_TEST(test_cpu_removed_mid_switch)
{
        unsigned line;

        line = start_little();
        ck_assert_int_eq(fakeboard_refuse_writes(fb, CPU "cpu6/online", ENODEV, 1000), 0);
        set_heavy();
        line = expect_line(line, "switch little -> big failed: cpu6: writing online=1 failed after 1 try: "
                           "No such device; earlier writes undone; staying at little", SWITCH_BOUND_MS);
        assert_online_files(LITTLE);
        move_board_dir(CPU "cpu6", "/cpu6-removed");
        ck_assert_int_gt(fakeboard_uevent(fb, CPU "cpu6", "remove"), 0);
        line = expect_line(line, "cpu6 remove: someone else changed the CPUs", LINE_BOUND_MS);
        line = expect_line(line, "new ladder: mode cluster", LINE_BOUND_MS);
        expect_line_has(line, "levels little (cpus 0-3, capacity 377), big (cpus 4-5,7, capacity 1024)");
        line = expect_line(line, "switch little -> big: ", RETRY_BOUND_MS);
        expect_line_has(line, "[online 0,4-5,7]");
        assert_online_files("0,4-5,7");
        ck_assert_uint_eq(count_lines(0, " failed"), 1);
        assert_exit_status(stop_daemon(SIGTERM), 0);
        expect_line_has(expect_line(line, "restored: ", 10), "restored: online 0-5,7");
        assert_online_files("0-5,7");
}
END_TEST

/* --- a thermal zone that goes away and comes back --- */

START_TEST(test_thermal_zone_vanishes)
{
        unsigned line, gone, back;

        line = start_little();
        /* Out of /sys, where the driver's unbinding takes it. */
        move_board_dir(ZONE0, "/zone0-unbound");
        ck_assert_int_gt(fakeboard_uevent(fb, ZONE0, "remove"), 0);
        gone = expect_line(line, "thermal_zone0 remove: thermal zones changed; watching thermal_zone1 "
                           "(cpu1-thermal), ", LINE_BOUND_MS);
        line = switch_up(gone);

        move_board_dir("/zone0-unbound", ZONE0);
        ck_assert_int_gt(fakeboard_uevent(fb, ZONE0, "add"), 0);
        back = expect_line(line, "thermal_zone0 add: thermal zones changed; watching thermal_zone0 "
                           "(cpu0-thermal), ", LINE_BOUND_MS);
        switch_down(back);
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "failed"), -ENOENT);
        stop_cleanly();
}
END_TEST

/* --- /proc and sysfs files that read badly --- */

/* A /proc/stat whose counters are far below the board's. */
static const char stat_reset[] =
        "cpu  0 0 0 0 0 0 0 0 0 0\n"
        "cpu0 0 0 0 0 0 0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 0 0 0\ncpu2 0 0 0 0 0 0 0 0 0 0\n"
        "cpu3 0 0 0 0 0 0 0 0 0 0\ncpu4 0 0 0 0 0 0 0 0 0 0\ncpu5 0 0 0 0 0 0 0 0 0 0\n"
        "cpu6 0 0 0 0 0 0 0 0 0 0\ncpu7 0 0 0 0 0 0 0 0 0 0\n"
        "intr 0\nctxt 0\nbtime 0\nprocesses 1\nprocs_running 1\nprocs_blocked 0\nsoftirq 0\n";

/* Online CPUs 0-3 (little), without cpu2's line; the counters far above
 * the board's. */
static const char stat_no_cpu2[] =
        "cpu  9000000 0 0 9000000 0 0 0 0 0 0\n"
        "cpu0 1000000 0 0 1000000 0 0 0 0 0 0\ncpu1 1000000 0 0 1000000 0 0 0 0 0 0\n"
        "cpu3 1000000 0 0 1000000 0 0 0 0 0 0\n"
        "intr 0\nctxt 0\nbtime 0\nprocesses 1\nprocs_running 1\nprocs_blocked 0\nsoftirq 0\n";

struct bad_file {
        const char *name;
        const char *path;
        const char *text;
        const char *said;               /* the line saying it */
        const char *recovered;          /* the line once it reads well again */
        /* The daemon still sees the load (through cpuidle residency, on
         * this board, while /proc/stat's counters stand still). */
        bool switches_meanwhile;
};

#define STAT_BAD "reading load failed: /proc/stat: not in the kernel's format (empty, cut or garbage); " \
                 "skipping ticks until it recovers"
#define STAT_RECOVERED "reading load recovered after "
#define PSI_BAD "/proc/pressure/cpu: not in the kernel's format; samples carry no CPU pressure until it " \
                "reads again"
#define PSI_RECOVERED "/proc/pressure/cpu reads well again"
#define THERMAL_IMPLAUSIBLE "thermal_zone0 (cpu0-thermal): temp: outside -40..150 °C, no CPU reads that; the " \
                            "zone is left out until it reads again"

static const struct bad_file bad_files[] = {
        { "/proc/stat empty", "/proc/stat", "", STAT_BAD, STAT_RECOVERED, false },
        { "/proc/stat cut mid-line", "/proc/stat", "cpu  10 0 0 10 0 0 0 0 0 0\ncpu0 10 0 0 1", STAT_BAD,
          STAT_RECOVERED, false },
        { "/proc/stat garbage", "/proc/stat", "\x7f" "ELF\x02\x01\x01 garbage\n\xff\xfe\n", STAT_BAD,
          STAT_RECOVERED, false },
        { "/proc/stat counters backwards", "/proc/stat", stat_reset,
          "reading load failed: /proc/stat: the counters of cpu0 went backwards; starting a new interval",
          STAT_RECOVERED, true },
        { "/proc/stat without an online CPU's line", "/proc/stat", stat_no_cpu2,
          "/proc/stat has no line for CPUs 2, which the daemon left online: their load goes unseen",
          "/proc/stat has a line for every CPU the daemon left online again", true },
        { "/proc/pressure/cpu empty", "/proc/pressure/cpu", "", PSI_BAD, PSI_RECOVERED, true },
        { "/proc/pressure/cpu cut", "/proc/pressure/cpu", "some avg10=0.00 avg60=0.00 avg300=0.00 tot",
          PSI_BAD, PSI_RECOVERED, true },
        { "/proc/pressure/cpu garbage", "/proc/pressure/cpu", "some total=12ab\nfull total=x\n", PSI_BAD,
          PSI_RECOVERED, true },
        { "scaling_cur_freq garbage", CPU "cpufreq/policy0/scaling_cur_freq", "abc\n",
          "cpufreq policy of CPUs 0-3: scaling_cur_freq: not in the kernel's format; their capacity is taken "
          "at the top frequency until it reads again", "cpufreq scaling_cur_freq reads well again", true },
        { "thermal zone temp empty", ZONE0 "/temp", "",
          "thermal_zone0 (cpu0-thermal): temp: not in the kernel's format; the zone is left out until it "
          "reads again", "the thermal zones read well again", true },
        /* Believed, these forced the critical state (or hid a hot zone):
         * no switch up, no line (issue 18 item 7). */
        { "thermal zone temp INT_MAX", ZONE0 "/temp", "2147483647\n", THERMAL_IMPLAUSIBLE,
          "the thermal zones read well again", true },
        { "thermal zone temp 150.001 C", ZONE0 "/temp", "150001\n", THERMAL_IMPLAUSIBLE,
          "the thermal zones read well again", true },
        { "thermal zone temp absolute zero", ZONE0 "/temp", "-273150\n", THERMAL_IMPLAUSIBLE,
          "the thermal zones read well again", true },
};

/* Each bad file is said once, the CPUs stay one whole level, the daemon
 * goes on (switching meanwhile where it still sees the load), says when
 * the file reads well again and switches on it. */
START_TEST(test_bad_file)
{
        const struct bad_file *f = &bad_files[_i];
        unsigned line, said;

        line = start_little();
        /* Counters of more than a second, for the one going backwards. */
        ck_assert_int_eq(fakeboard_run_for(fb, 1500), 0);
        ck_assert_int_eq(fakeboard_override_file(fb, f->path, f->text), 0);
        said = expect_line(line, f->said, LINE_BOUND_MS);
        ck_assert_msg(online_equals(LITTLE), "%s: online %s", f->name, online_text());
        if (f->switches_meanwhile) {
                line = switch_up(said);
                line = switch_down(line);
        } else {
                set_heavy();
                expect_online_stays(LITTLE, 300);
        }
        ck_assert_msg(count_lines(said, f->said) == 1, "%s: said more than once:%s", f->name, log_text());
        ck_assert_int_eq(fakeboard_override_file(fb, f->path, NULL), 0);
        /* The board writes the zone's temperature when it changes. */
        if (strstr(f->path, "thermal_zone0"))
                ck_assert_int_eq(fakeboard_set_temp(fb, 0, 46000), 0);
        set_heavy();
        expect_line(said, f->recovered, LINE_BOUND_MS);
        if (f->switches_meanwhile)
                expect_line(line, "switch little -> big: ", SWITCH_BOUND_MS);
        else
                switch_up(said);
        expect_online(BIG, SWITCH_BOUND_MS);
        stop_cleanly();
}
END_TEST

/* A CPU capacity the kernel cannot have, at start: the daemon names the
 * file and leaves without having changed anything. */
START_TEST(test_capacity_garbage_at_start)
{
        char saved[PATH_MAX + 32];

        new_board("exynos5422");
        write_board_file(CPU "cpu5/cpu_capacity", "-5\n");
        spawn_daemon(write_fast_config("hotplug", &timing, ""), NULL);
        assert_exit_status(wait_exit(), EXIT_FAILURE);
        expect_line(0, "/cpu5/cpu_capacity: expected an integer 0-65535, got \"-5\"", 100);
        expect_line(0, "cannot discover the CPU topology: Invalid argument", 100);
        ck_assert_uint_eq(fakeboard_n_online_changes(fb), 0);
        ck_assert(online_equals("0-7"));
        snprintf(saved, sizeof(saved), "%s/saved-state", harness_runtime_dir());
        ck_assert_int_eq(access(saved, F_OK), -1);
}
END_TEST

/* ... and while it runs, found when a CPU event makes it look again: it
 * keeps the topology it knows and goes on switching. */
START_TEST(test_capacity_garbage_running)
{
        unsigned line;

        line = start_little();
        write_board_file(CPU "cpu5/cpu_capacity", "-5\n");
        ck_assert_int_gt(fakeboard_uevent(fb, CPU "cpu5", "add"), 0);
        line = expect_line(line, "/cpu5/cpu_capacity: expected an integer 0-65535, got \"-5\"",
                           LINE_BOUND_MS);
        line = expect_line(line, "cannot discover the CPU topology again: Invalid argument; keeping the one "
                           "known", LINE_BOUND_MS);
        expect_online(LITTLE, SWITCH_BOUND_MS);
        switch_down(switch_up(line));
        stop_cleanly();
}
END_TEST

/* --- the clocks --- */

static void shift_clocks(long realtime_s, long boottime_s)
{
        char text[64];

        snprintf(text, sizeof(text), "%ld %ld\n", realtime_s, boottime_s);
        write_config("clock-shift", text);
}

/* Runs the daemon under the clock-shift preload. */
static unsigned start_shifted(void)
{
        shift_clocks(0, 0);
        ck_assert_int_eq(setenv("CLOCK_SHIFT_FILE", work_file("clock-shift"), 1), 0);
        ck_assert_int_eq(setenv("LD_PRELOAD", CLOCK_SHIFT_SO, 1), 0);
        return start_little();
}

/* The wall clock set back a day and forward again: said each time, and
 * switching (timed by the monotonic clock) goes on. */
START_TEST(test_wall_clock_jumps)
{
        unsigned line;

        line = start_shifted();
        ck_assert_int_eq(fakeboard_run_for(fb, 200), 0);
        shift_clocks(-86400, 0);
        line = expect_line(line, "the wall clock was set back by 86400 s: history times before this are in "
                           "the old time; switching is timed by the monotonic clock and goes on",
                           LINE_BOUND_MS);
        line = switch_up(line);
        shift_clocks(0, 0);
        line = expect_line(line, "the wall clock was set forward by 86400 s", LINE_BOUND_MS);
        switch_down(line);
        ck_assert_uint_eq(count_lines(0, "the wall clock was set"), 2);
        stop_cleanly();
}
END_TEST

/* A suspend: boottime (and the wall clock) ran 30 s that monotonic did
 * not. The sample is dropped, the level applied again, the sleep is not
 * taken for a step of the wall clock, and switching goes on. */
START_TEST(test_suspend_gap)
{
        unsigned line;

        line = start_shifted();
        ck_assert_int_eq(fakeboard_run_for(fb, 200), 0);
        shift_clocks(30, 30);
        line = expect_line(line, "resumed after 30 s asleep: dropping this sample, checking the level",
                           LINE_BOUND_MS);
        line = expect_line(line, "resumed: level little re-applied", LINE_BOUND_MS);
        expect_online(LITTLE, SWITCH_BOUND_MS);
        switch_down(switch_up(line));
        ck_assert_uint_eq(count_lines(0, "resumed after"), 1);
        ck_assert_uint_eq(count_lines(0, "the wall clock"), 0);
        stop_cleanly();
}
END_TEST

/* --- the bus going away --- */

/* The daemon's CPU time so far, in clock ticks. */
static unsigned long long cpu_ticks(pid_t pid)
{
        char path[64], text[1024], *p;
        unsigned long long utime = 0, stime = 0;
        FILE *f;

        snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
        f = fopen(path, "r");
        ck_assert_ptr_nonnull(f);
        ck_assert_ptr_nonnull(fgets(text, sizeof(text), f));
        fclose(f);
        /* After the command's closing parenthesis: state is field 3, utime 14. */
        p = strrchr(text, ')');
        ck_assert_ptr_nonnull(p);
        ck_assert_int_eq(sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
                                &stime), 2);
        return utime + stime;
}

/* Asks the daemon for its level over the bus, running the board for up to
 * START_BOUND_MS while its name has no owner yet (it takes the name after
 * its start line, and again after reconnecting). */
static void assert_bus_level(const char *want)
{
        sd_bus *bus = NULL;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        char *level = NULL;
        int r;

        ck_assert_int_ge(sd_bus_open_system(&bus), 0);
        for (unsigned waited = 0;; waited += 20) {
                r = sd_bus_get_property_string(bus, "org.bigLittle.Switch1", "/org/bigLittle/Switch1",
                                               "org.bigLittle.Switch1", "Level", &error, &level);
                if (r >= 0 || waited >= START_BOUND_MS ||
                    !sd_bus_error_has_name(&error, SD_BUS_ERROR_SERVICE_UNKNOWN))
                        break;
                sd_bus_error_free(&error);
                ck_assert_int_eq(fakeboard_run_for(fb, 20), 0);
        }
        ck_assert_msg(r >= 0, "Level: %s", error.message ? error.message : strerror(-r));
        ck_assert_str_eq(level, want);
        free(level);
        sd_bus_error_free(&error);
        sd_bus_flush_close_unref(bus);
}

/* The bus is the control plane, not the job: when it goes away the daemon
 * says so once, ends the holds of clients that went with it, goes on
 * switching without spinning, and is back on the bus when a bus is there
 * again. */
START_TEST(test_bus_goes_away)
{
        sd_bus *client = NULL;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        unsigned long long before;
        unsigned line, lost;
        long ticks_per_s = sysconf(_SC_CLK_TCK);
        char address[PATH_MAX + 16];
        int r;

        snprintf(address, sizeof(address), "unix:path=%s", work_file("bus"));
        harness_start_bus(NULL);
        /* The system bus's address, without the guid of this bus daemon
         * (sd-bus refuses a bus whose guid differs from the address's). */
        ck_assert_int_eq(setenv("DBUS_SYSTEM_BUS_ADDRESS", address, 1), 0);
        line = start_little();
        assert_bus_level("little");
        /* A hold of a client that stays connected until the bus goes. */
        ck_assert_int_ge(sd_bus_open_system(&client), 0);
        r = sd_bus_call_method(client, "org.bigLittle.Switch1", "/org/bigLittle/Switch1",
                               "org.bigLittle.Switch1", "Hold", &error, NULL, "sts", "big",
                               (uint64_t)60 * BL_USEC_PER_SEC, "fault test");
        ck_assert_msg(r >= 0, "Hold: %s", error.message ? error.message : strerror(-r));
        expect_online(BIG, SWITCH_BOUND_MS);

        harness_stop_bus();
        lost = expect_line(line, "bus: the connection to the D-Bus system bus was lost; switching goes on",
                           LINE_BOUND_MS);
        /* The bus daemon may tell of the client's leaving before it goes. */
        expect_line_has(expect_line(line, "1 holds of :1.", LINE_BOUND_MS), "ended: it left the bus");
        expect_online(LITTLE, SWITCH_BOUND_MS);
        sd_bus_error_free(&error);
        sd_bus_flush_close_unref(client);
        before = cpu_ticks(fakeboard_pid(fb));
        line = switch_up(lost);
        ck_assert_int_eq(fakeboard_run_for(fb, 1000), 0);
        ck_assert(fakeboard_running(fb));
        /* Far below a busy loop's whole CPU. */
        ck_assert_msg(cpu_ticks(fakeboard_pid(fb)) - before < (unsigned long long)ticks_per_s,
                      "the daemon used %llu ticks in about 1.5 s without a bus",
                      cpu_ticks(fakeboard_pid(fb)) - before);

        harness_start_bus(NULL);
        ck_assert_int_eq(setenv("DBUS_SYSTEM_BUS_ADDRESS", address, 1), 0);
        line = expect_line(lost, "bus: connected again after ", RECONNECT_BOUND_MS);
        expect_line_has(line, "org.bigLittle.Switch1 is back");
        assert_bus_level("big");
        switch_down(line);
        assert_bus_level("little");
        ck_assert_uint_eq(count_lines(0, "connection to the D-Bus system bus was lost"), 1);
        stop_cleanly();
}
END_TEST

/* --- a CPU whose online file reads garbage (issue 18 item 4) --- */

#define CPU6_GARBAGE "cpu6: online reads neither 0 nor 1, left as it is"

/* At big, cpu6/online starts reading garbage; SIGTERM: every other CPU is
 * put back, the failure names cpu6, the state stays saved for the next
 * start and the exit status is a failure, so that systemd's
 * Restart=on-failure runs the daemon again. */
START_TEST(test_online_garbage_at_restore)
{
        char saved[PATH_MAX + 32];
        unsigned line;
        int status;

        line = switch_up(start_little());
        ck_assert_int_eq(fakeboard_override_file(fb, CPU "cpu6/online", "garbage\n"), 0);
        status = stop_daemon(SIGTERM);
        line = expect_line(line, "restoring the CPUs failed: ", 100);
        expect_line_has(line, CPU6_GARBAGE);
        /* The others were put back: 1-3 online again (cpu6 stays as it was). */
        expect_line_has(line, "online 0-5,7");
        ck_assert_msg(online_equals("0-7"), "online %s after SIGTERM, not 0-7", online_text());
        assert_exit_status(status, EXIT_FAILURE);
        snprintf(saved, sizeof(saved), "%s/saved-state", harness_runtime_dir());
        ck_assert_msg(access(saved, F_OK) == 0, "the saved state was removed after a failed restore");
}
END_TEST

/* The same file while switching: the switches go on with the other CPUs,
 * each naming cpu6, and once the file reads again the restore is whole. */
START_TEST(test_online_garbage_switching)
{
        unsigned line;

        line = start_little();
        ck_assert_int_eq(fakeboard_override_file(fb, CPU "cpu6/online", "garbage\n"), 0);
        set_heavy();
        line = expect_line(line, "switch little -> big: ", SWITCH_BOUND_MS);
        expect_line_has(line, CPU6_GARBAGE);
        /* cpu6 was offline at little and is left so. */
        expect_online("0,4-5,7", SWITCH_BOUND_MS);
        set_idle();
        line = expect_line(line, "switch big -> little: ", SWITCH_BOUND_MS);
        expect_line_has(line, CPU6_GARBAGE);
        expect_online(LITTLE, SWITCH_BOUND_MS);
        ck_assert_uint_eq(count_lines(0, " failed"), 0);

        ck_assert_int_eq(fakeboard_override_file(fb, CPU "cpu6/online", NULL), 0);
        write_board_file(CPU "cpu6/online", "0\n");
        stop_cleanly();
}
END_TEST

/* SIGTERM while a switch is stuck in a slow kernel (every sysfs write takes
 * 5 s, the switch up makes 7) past the daemon's 20 s wait: it leaves
 * without restoring, the switch still owning the CPUs, says so, and exits
 * with a failure, so that systemd starts it again; that start puts back
 * the saved state. Before, the exit status was 0 and Restart=on-failure
 * never ran. */
START_TEST(test_switch_stuck_at_exit)
{
        char saved[PATH_MAX + 32];
        unsigned line;
        int status = -1;

        new_board("exynos5422");
        /* At little already: the start writes nothing. */
        for (unsigned cpu = 4; cpu < 8; cpu++)
                ck_assert_int_eq(fakeboard_set_cpu_online(fb, cpu, false), 0);
        set_idle();
        ck_assert_int_eq(setenv("FAKEBOARD_WRITE_DELAY_US", "5000000", 1), 0);
        spawn_daemon(write_fast_config("hotplug", &timing, ""), NULL);
        line = expect_line(0, "started: ", START_BOUND_MS);
        set_heavy();
        /* The switch's first write (cpu4 online) is done, six are to come. */
        expect_online("0-4", 5000 + SWITCH_BOUND_MS);
        ck_assert_int_eq(fakeboard_kill(fb, SIGTERM), 0);
        ck_assert_int_eq(fakeboard_wait(fb, 30000, &status), 0);
        line = expect_line(line, "the switch being applied did not end within 20 s", 100);
        expect_line_has(line, "leaving without restoring the CPUs");
        assert_exit_status(status, EXIT_FAILURE);
        snprintf(saved, sizeof(saved), "%s/saved-state", harness_runtime_dir());
        ck_assert_msg(access(saved, F_OK) == 0, "no saved state left for the next start");

        /* systemd's restart, on a kernel that is quick again. */
        ck_assert_int_eq(unsetenv("FAKEBOARD_WRITE_DELAY_US"), 0);
        set_idle();
        spawn_daemon(write_fast_config("hotplug", &timing, ""), NULL);
        expect_line(0, "found the state a previous run saved", START_BOUND_MS);
        expect_line(0, "started: ", START_BOUND_MS);
        expect_online(LITTLE, SWITCH_BOUND_MS);
        stop_daemon(SIGTERM);
        ck_assert_msg(online_equals(LITTLE), "online %s after SIGTERM, not " LITTLE, online_text());
}
END_TEST

static Suite *faults_suite(void)
{
        Suite *s = suite_create("faults");
        struct {
                const char *name;
                const TTest *test;
                int n;
        } tests[] = {
                { "write-fails", test_write_fails, sizeof(write_faults) / sizeof(write_faults[0]) },
                { "initial-level-refused", test_initial_level_refused, 1 },
                { "cpu-vanishes", test_cpu_vanishes_mid_switch, sizeof(vanishings) / sizeof(vanishings[0]) },
                { "cpu-removed", test_cpu_removed_mid_switch, 1 },
                { "thermal-zone-vanishes", test_thermal_zone_vanishes, 1 },
                { "bad-file", test_bad_file, sizeof(bad_files) / sizeof(bad_files[0]) },
                { "capacity-garbage-at-start", test_capacity_garbage_at_start, 1 },
                { "capacity-garbage-running", test_capacity_garbage_running, 1 },
                { "wall-clock-jumps", test_wall_clock_jumps, 1 },
                { "suspend-gap", test_suspend_gap, 1 },
                { "bus-goes-away", test_bus_goes_away, 1 },
                { "online-garbage-at-restore", test_online_garbage_at_restore, 1 },
                { "online-garbage-switching", test_online_garbage_switching, 1 },
                { "switch-stuck-at-exit", test_switch_stuck_at_exit, 1 },
        };

        for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
                TCase *tc = tcase_create(tests[i].name);

                tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
                tcase_set_timeout(tc, 60);
                tcase_add_loop_test(tc, tests[i].test, 0, tests[i].n);
                suite_add_tcase(s, tc);
        }
        return s;
}

int main(void)
{
        return harness_main(faults_suite(), "check-faults");
}
