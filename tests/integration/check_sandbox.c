/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sandbox of bigLittle.service against what each backend really does.
 * The real daemon runs on a fake board with each backend (hotplug, cpufreq,
 * switcher, cpuset with manager = cgroupfs and manager = systemd), switches
 * up and down and restores on SIGTERM; the refusing preload records every
 * file it wrote (FAKEBOARD_WRITE_LOG). Each path, mapped back from the
 * testbed to the real one (and the runtime directory to /run/bigLittle), is
 * then judged against the unit file as systemd would set up its mount
 * namespace: the most specific of ProtectSystem=, ProtectKernelTunables=,
 * ProtectControlGroups=, ProtectHome=, PrivateTmp=, ReadOnlyPaths=,
 * ReadWritePaths=, InaccessiblePaths= and the RuntimeDirectory= family
 * decides, and on the same path the more restrictive one. The unit is
 * parsed, not restated here: a path a change to it makes read-only fails.
 *
 * The daemon runs as the unit runs it: root with CAP_PERFMON alone (setpriv
 * sets the bounding set, as CapabilityBoundingSet=CAP_PERFMON does; the
 * unit is checked to say that).
 * The D-Bus calls of manager = systemd (SetUnitProperties on the groups'
 * units) go to the fake systemd, which allows them only when libsystemd's
 * own check, the one systemd makes before asking polkit, says yes: over
 * AF_UNIX it cannot see a caller's capabilities and grants a caller with
 * its own uid 0 (systemd issues #21586 and #34296). The unit is checked to
 * keep running the daemon as root (no User=, DynamicUser=).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "tests/integration/harness.h"

#define SWITCH_BOUND_MS 5000
#define MAX_RULES 64
#define MAX_WRITES 128
#define UNIT_FILE TOP_SRCDIR "/systemd/bigLittle.service.in"
/* The runtime directory as the unit has it (RuntimeDirectory=bigLittle). */
#define UNIT_RUNTIME_DIR "/run/bigLittle"

/* --- the unit's mount namespace --- */

/* Ordered from the least to the most restrictive: on the same path the
 * more restrictive wins, as in systemd's namespace setup. */
enum access { ACCESS_WRITE, ACCESS_READ, ACCESS_NONE };

static const char *const access_names[] = { "writable", "read-only", "inaccessible" };

struct mount_rule {
        char path[PATH_MAX];
        enum access access;
        char origin[64];                /* the setting that made it */
};

struct unit_model {
        struct mount_rule rules[MAX_RULES];
        unsigned n;
        char user[64];                  /* User=, "" when unset (root) */
        bool dynamic_user;
};

static void add_rule(struct unit_model *u, const char *path, enum access access, const char *origin)
{
        struct mount_rule *r;

        ck_assert_uint_lt(u->n, MAX_RULES);
        r = &u->rules[u->n++];
        ck_assert_uint_lt(strlen(path), sizeof(r->path));
        strcpy(r->path, path);
        r->access = access;
        snprintf(r->origin, sizeof(r->origin), "%s", origin);
}

static bool is_yes(const char *value)
{
        return strcmp(value, "yes") == 0 || strcmp(value, "true") == 0 || strcmp(value, "1") == 0 ||
               strcmp(value, "on") == 0;
}

/* Space-separated paths; "-" (a missing path is fine) and "+" (relative
 * to RootDirectory=, which the unit does not use) prefixes dropped. */
static void add_paths(struct unit_model *u, const char *value, enum access access, const char *key,
                      const char *base)
{
        char copy[1024], *save = NULL;

        snprintf(copy, sizeof(copy), "%s", value);
        for (char *word = strtok_r(copy, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
                char path[PATH_MAX];

                while (*word == '-' || *word == '+')
                        word++;
                snprintf(path, sizeof(path), "%s%s%s", base, base[0] ? "/" : "", word);
                add_rule(u, path, access, key);
        }
}

/* ProtectKernelTunables=yes as systemd's namespace.c sets it up: the kernel's
 * knobs in /proc and all of /sys read-only, the symbols and memory image
 * hidden. /sys/fs/cgroup and /sys/fs/selinux are left to their own settings
 * (ProtectControlGroups=): writable at the lowest priority, as systemd's
 * implicit read-write mounts are. */
static void add_kernel_tunables(struct unit_model *u, const char *key)
{
        static const char *const proc_read_only[] = {
                "/proc/acpi",   "/proc/apm", "/proc/asound",        "/proc/bus",         "/proc/fs",
                "/proc/irq",    "/proc/latency_stats", "/proc/mtrr", "/proc/scsi",       "/proc/sys",
                "/proc/sysrq-trigger", "/proc/timer_stats",
        };
        static const char *const sys_read_only[] = {
                "/sys", "/sys/fs/bpf", "/sys/kernel/debug", "/sys/kernel/tracing",
        };

        for (size_t i = 0; i < sizeof(proc_read_only) / sizeof(proc_read_only[0]); i++)
                add_rule(u, proc_read_only[i], ACCESS_READ, key);
        add_rule(u, "/proc/kallsyms", ACCESS_NONE, key);
        add_rule(u, "/proc/kcore", ACCESS_NONE, key);
        for (size_t i = 0; i < sizeof(sys_read_only) / sizeof(sys_read_only[0]); i++)
                add_rule(u, sys_read_only[i], ACCESS_READ, key);
        add_rule(u, "/sys/fs/cgroup", ACCESS_WRITE, key);
        add_rule(u, "/sys/fs/selinux", ACCESS_WRITE, key);
}

static void unit_setting(struct unit_model *u, const char *key, const char *value)
{
        static const struct {
                const char *key;
                const char *base;
        } directories[] = {
                { "RuntimeDirectory", "/run" },
                { "StateDirectory", "/var/lib" },
                { "CacheDirectory", "/var/cache" },
                { "LogsDirectory", "/var/log" },
        };

        if (strcmp(key, "ProtectSystem") == 0) {
                if (strcmp(value, "strict") == 0) {
                        /* All read-only but the API file systems. */
                        add_rule(u, "/", ACCESS_READ, key);
                        add_rule(u, "/dev", ACCESS_WRITE, key);
                        add_rule(u, "/proc", ACCESS_WRITE, key);
                        add_rule(u, "/sys", ACCESS_WRITE, key);
                } else if (is_yes(value) || strcmp(value, "full") == 0) {
                        add_rule(u, "/usr", ACCESS_READ, key);
                        add_rule(u, "/boot", ACCESS_READ, key);
                        add_rule(u, "/efi", ACCESS_READ, key);
                        if (strcmp(value, "full") == 0)
                                add_rule(u, "/etc", ACCESS_READ, key);
                }
        } else if (strcmp(key, "ProtectKernelTunables") == 0 && is_yes(value)) {
                add_kernel_tunables(u, key);
        } else if (strcmp(key, "ProtectControlGroups") == 0 && is_yes(value)) {
                add_rule(u, "/sys/fs/cgroup", ACCESS_READ, key);
        } else if (strcmp(key, "ProtectHome") == 0 && strcmp(value, "no") != 0) {
                enum access access = strcmp(value, "read-only") == 0 ? ACCESS_READ : ACCESS_NONE;

                add_rule(u, "/home", access, key);
                add_rule(u, "/root", access, key);
                add_rule(u, "/run/user", access, key);
        } else if (strcmp(key, "PrivateTmp") == 0 && is_yes(value)) {
                add_rule(u, "/tmp", ACCESS_WRITE, key);
                add_rule(u, "/var/tmp", ACCESS_WRITE, key);
        } else if (strcmp(key, "ReadWritePaths") == 0) {
                add_paths(u, value, ACCESS_WRITE, key, "");
        } else if (strcmp(key, "ReadOnlyPaths") == 0) {
                add_paths(u, value, ACCESS_READ, key, "");
        } else if (strcmp(key, "InaccessiblePaths") == 0) {
                add_paths(u, value, ACCESS_NONE, key, "");
        } else if (strcmp(key, "User") == 0) {
                snprintf(u->user, sizeof(u->user), "%s", value);
        } else if (strcmp(key, "DynamicUser") == 0) {
                u->dynamic_user = is_yes(value);
        } else {
                for (size_t i = 0; i < sizeof(directories) / sizeof(directories[0]); i++)
                        if (strcmp(key, directories[i].key) == 0)
                                add_paths(u, value, ACCESS_WRITE, key, directories[i].base);
        }
}

/* The [Service] settings of a unit file's text (drop-ins: call again). */
static void unit_parse(struct unit_model *u, const char *text)
{
        char *copy = strdup(text), *save = NULL;
        bool service = false;

        ck_assert_ptr_nonnull(copy);
        for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                char *eq, *key, *value;

                line += strspn(line, " \t");
                if (line[0] == '#' || line[0] == ';' || line[0] == '\0')
                        continue;
                if (line[0] == '[') {
                        service = strncmp(line, "[Service]", 9) == 0;
                        continue;
                }
                eq = strchr(line, '=');
                if (!service || !eq)
                        continue;
                *eq = '\0';
                key = line;
                value = eq + 1;
                key[strcspn(key, " \t")] = '\0';
                value += strspn(value, " \t");
                unit_setting(u, key, value);
        }
        free(copy);
}

static void unit_load(struct unit_model *u, const char *dropin)
{
        char *text = read_whole_file(UNIT_FILE);

        memset(u, 0, sizeof(*u));
        unit_parse(u, text);
        free(text);
        if (dropin)
                unit_parse(u, dropin);
}

/* 'prefix' is 'path' or one of its parent directories. */
static bool path_under(const char *path, const char *prefix)
{
        size_t len = strlen(prefix);

        if (strcmp(prefix, "/") == 0)
                return path[0] == '/';
        return strncmp(path, prefix, len) == 0 && (path[len] == '/' || path[len] == '\0');
}

/* The access the unit leaves to 'path', and the rule that decides it
 * (NULL: none, the host's). An inaccessible directory hides everything
 * below it; otherwise the most specific rule decides. */
static enum access unit_access(const struct unit_model *u, const char *path, const struct mount_rule **by)
{
        const struct mount_rule *best = NULL;

        for (unsigned i = 0; i < u->n; i++) {
                const struct mount_rule *r = &u->rules[i];

                if (!path_under(path, r->path) || (best && best->access == ACCESS_NONE))
                        continue;
                if (!best || r->access == ACCESS_NONE || strlen(r->path) > strlen(best->path) ||
                    (strlen(r->path) == strlen(best->path) && r->access > best->access))
                        best = r;
        }
        if (by)
                *by = best;
        return best ? best->access : ACCESS_WRITE;
}

/* Fails the test, naming the rule, unless the unit lets the daemon write 'path'. */
static void assert_writable(const struct unit_model *u, const char *what, const char *path)
{
        const struct mount_rule *by;
        enum access access = unit_access(u, path, &by);

        ck_assert_msg(access == ACCESS_WRITE,
                      "%s: the daemon writes %s, which bigLittle.service makes %s (%s=%s)", what, path,
                      access_names[access], by ? by->origin : "?", by ? by->path : "?");
}

/* Kernel settings a compromised daemon (uid 0, no capability) could change
 * through a writable /proc or /sys, though no backend writes them:
 * core_pattern runs a program as full root at the next crash, sysrq-trigger
 * reboots or kills everything, printk_ratelimit_burst is the issue's
 * reproducer, /sys/power/state suspends the machine. */
static const char *const kernel_knobs[] = {
        "/proc/sys/kernel/core_pattern",
        "/proc/sys/kernel/printk_ratelimit_burst",
        "/proc/sysrq-trigger",
        "/sys/power/state",
        "/sys/kernel/mm/transparent_hugepage/enabled",
};

#define NKNOBS (sizeof(kernel_knobs) / sizeof(kernel_knobs[0]))

/* Fails the test unless the unit keeps the daemon from writing every one of
 * kernel_knobs. */
static void assert_knobs_read_only(const struct unit_model *u, const char *what)
{
        for (size_t i = 0; i < NKNOBS; i++) {
                const struct mount_rule *by;
                enum access access = unit_access(u, kernel_knobs[i], &by);

                ck_assert_msg(access != ACCESS_WRITE, "%s: bigLittle.service leaves %s writable (%s%s%s)", what,
                              kernel_knobs[i], by ? by->origin : "no setting", by ? "=" : "",
                              by ? by->path : "");
        }
}

/* systemd's manage-units methods (SetUnitProperties) for the daemon's
 * connection: granted to uid 0 whatever its capabilities. */
static bool unit_runs_as_root(const struct unit_model *u)
{
        return !u->dynamic_user && (u->user[0] == '\0' || strcmp(u->user, "root") == 0 ||
                                    strcmp(u->user, "0") == 0);
}

/* --- the backends on their boards --- */

/* Quick to switch each way, with one heuristic that follows busy time; a
 * switch down does not wait for the measured cost (cpuset through systemd
 * takes ~10 ms) to pay back. */
static const char config_format[] =
        "[daemon]\n"
        "backend = %s\n"
        "sample_interval_ms = 10\n"
        "[hysteresis]\n"
        "break_even = no\n"
        "down_delay_ms = 60\n"
        "up_threshold = 80\n"
        "down_threshold = 60\n"
        "[policy]\n"
        "heuristics = pelt\n"
        "%s";

static const char cpuset_groups[] = "[cpuset]\ngroups = system.slice, user.slice\nmanager = %s\n";

/* What bigLittled(8) tells an administrator to add for manager = cgroupfs:
 * the groups' directories, writable. */
static const char cgroupfs_dropin[] =
        "[Service]\nReadWritePaths=/sys/fs/cgroup/system.slice /sys/fs/cgroup/user.slice\n";

static const unsigned idle_load[] = { 40 };
static const unsigned heavy_load[] = { 600, 600, 600, 600, 600, 600, 600, 600 };

struct sandbox_row {
        const char *name;
        const char *board;
        const char *backend;
        const char *manager;            /* cpuset only */
        unsigned nheavy;
        const char *dropin;             /* the drop-in the backend needs, or NULL */
        /* A file every run of the backend writes (as the daemon sees it). */
        const char *must_write;
};

static const struct sandbox_row rows[] = {
        { "hotplug", "exynos5422", "hotplug", NULL, 8, NULL, "/sys/devices/system/cpu/cpu4/online" },
        { "cpufreq", "exynos5422", "cpufreq", NULL, 8, NULL,
          "/sys/devices/system/cpu/cpufreq/policy4/scaling_max_freq" },
        { "switcher", "tc2-switcher", "switcher", NULL, 2, NULL,
          "/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq" },
        { "cpuset cgroupfs", "exynos5422", "cpuset", "cgroupfs", 8, cgroupfs_dropin,
          "/sys/fs/cgroup/user.slice/cpuset.cpus" },
        { "cpuset systemd", "exynos5422", "cpuset", "systemd", 8, NULL, NULL },
};

#define NROWS ((int)(sizeof(rows) / sizeof(rows[0])))

static pid_t start_fake_systemd(void)
{
        char root[PATH_MAX], log[PATH_MAX + 64];
        pid_t pid;

        snprintf(root, sizeof(root), "%s", fakeboard_root(fb));
        snprintf(log, sizeof(log), "%s", work_file("systemd.log"));
        pid = harness_fork();
        if (pid == 0) {
                execl(FAKE_SYSTEMD_PATH, FAKE_SYSTEMD_PATH, root, log, (char *)NULL);
                _exit(127);
        }
        for (unsigned waited = 0; !strstr(read_work_file("systemd.log"), "ready\n"); waited += 10) {
                ck_assert_msg(waited < START_BOUND_MS, "the fake systemd did not start");
                fakeboard_run_for(fb, 10);
        }
        return pid;
}

/* The daemon as the unit runs it: root with CAP_PERFMON alone in the
 * bounding set (for the idle wake's software events; the backends' writes
 * need no capability), and NoNewPrivileges=. */
#define UNIT_BOUNDING_SET "\nCapabilityBoundingSet=CAP_PERFMON\n"
#define UNIT_CAP_EFFECTIVE "0000004000000000"
static void spawn_as_the_unit(const char *config)
{
        char *argv[] = { (char *)"setpriv", (char *)"--bounding-set=-all,+perfmon", (char *)"--inh-caps=-all",
                         (char *)"--no-new-privs", (char *)DAEMON_PATH, (char *)"--foreground",
                         (char *)"--config", (char *)config, NULL };
        char *unit = read_whole_file(UNIT_FILE);
        int r;

        ck_assert_msg(strstr(unit, UNIT_BOUNDING_SET), "the unit's capability bounding set is no longer CAP_PERFMON "
                      "alone: bring this test's setpriv in line with it");
        free(unit);
        r = fakeboard_spawn(fb, argv, false);
        ck_assert_msg(r == 0, "cannot start the daemon under setpriv (util-linux): %s", strerror(-r));
}

/* CapEff of the daemon, as /proc/PID/status gives it. */
static const char *effective_capabilities(void)
{
        static char value[32];
        char path[64], line[128];
        FILE *f;

        value[0] = '\0';
        snprintf(path, sizeof(path), "/proc/%d/status", (int)fakeboard_pid(fb));
        f = fopen(path, "re");
        ck_assert_ptr_nonnull(f);
        while (fgets(line, sizeof(line), f))
                if (sscanf(line, "CapEff: %31s", value) == 1)
                        break;
        fclose(f);
        return value;
}

/* Runs the row's backend: start, a switch up, one down, SIGTERM. Leaves
 * the files the daemon wrote in the work directory's writes.log, and the
 * runtime directory's entries (as the unit names them) in 'runtime'. */
static void run_backend(const struct sandbox_row *row, char runtime[][PATH_MAX], unsigned *nruntime)
{
        char config[sizeof(config_format) + 256], extra[128] = "";
        unsigned line;
        DIR *dir;
        struct dirent *e;

        new_board(row->board);
        if (row->manager) {
                harness_start_bus(NULL);
                if (strcmp(row->manager, "systemd") == 0)
                        start_fake_systemd();
                snprintf(extra, sizeof(extra), cpuset_groups, row->manager);
        }
        ck_assert_int_eq(setenv("FAKEBOARD_WRITE_LOG", work_file("writes.log"), 1), 0);
        set_load(idle_load, 1);
        snprintf(config, sizeof(config), config_format, row->backend, extra);
        spawn_as_the_unit(write_config("bigLittle.conf", config));
        line = expect_line(0, "started: ", START_BOUND_MS);
        ck_assert_str_eq(effective_capabilities(), UNIT_CAP_EFFECTIVE);
        set_load(heavy_load, row->nheavy);
        line = expect_line(line, "-> big: ", SWITCH_BOUND_MS);
        set_load(idle_load, 1);
        expect_line(line, "-> little: ", SWITCH_BOUND_MS);

        *nruntime = 0;
        dir = opendir(harness_runtime_dir());
        ck_assert_ptr_nonnull(dir);
        while ((e = readdir(dir)))
                if (e->d_name[0] != '.' && *nruntime < MAX_WRITES)
                        snprintf(runtime[(*nruntime)++], PATH_MAX, UNIT_RUNTIME_DIR "/%s", e->d_name);
        closedir(dir);
        ck_assert_msg(*nruntime > 0, "%s: no saved state in the runtime directory", row->name);

        assert_exit_status(stop_daemon(SIGTERM), 0);
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "failed"), -ENOENT);
}

/* 'real' as the daemon would see it on a real machine: testbed files at
 * their /sys and /proc paths, the runtime directory at the unit's. */
static void unmap(const char *real, char *path, size_t size)
{
        char root[PATH_MAX], runtime[PATH_MAX];

        ck_assert_ptr_nonnull(realpath(fakeboard_root(fb), root));
        ck_assert_ptr_nonnull(realpath(harness_runtime_dir(), runtime));
        if (path_under(real, root))
                snprintf(path, size, "%s", real + strlen(root));
        else if (path_under(real, runtime))
                snprintf(path, size, UNIT_RUNTIME_DIR "%s", real + strlen(runtime));
        else
                snprintf(path, size, "%s", real);
}

/* The distinct files of writes.log, unmapped. */
static unsigned written_files(char files[][PATH_MAX])
{
        char *text, *save = NULL;
        unsigned n = 0;

        /* No file: nothing was written (stdio writes, as of the saved
         * state, do not pass the preload; the runtime directory is listed
         * instead). */
        if (access(work_file("writes.log"), F_OK) < 0)
                return 0;
        text = read_whole_file(work_file("writes.log"));

        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                char path[PATH_MAX];
                bool seen = false;

                unmap(line, path, sizeof(path));
                for (unsigned i = 0; i < n && !seen; i++)
                        seen = strcmp(files[i], path) == 0;
                if (!seen && n < MAX_WRITES)
                        snprintf(files[n++], PATH_MAX, "%s", path);
        }
        free(text);
        return n;
}

static bool listed(char files[][PATH_MAX], unsigned n, const char *path)
{
        for (unsigned i = 0; i < n; i++)
                if (strcmp(files[i], path) == 0)
                        return true;
        return false;
}

/* Every file the backend writes is writable under the unit (with the
 * drop-in the manual gives for it, if any). */
START_TEST(test_backend_writes_allowed)
{
        const struct sandbox_row *row = &rows[_i];
        static char files[MAX_WRITES][PATH_MAX], runtime[MAX_WRITES][PATH_MAX];
        struct unit_model unit;
        unsigned n, nruntime;

        run_backend(row, runtime, &nruntime);
        n = written_files(files);
        unit_load(&unit, row->dropin);
        printf("# %s writes:", row->name);
        for (unsigned i = 0; i < n; i++)
                printf(" %s", files[i]);
        for (unsigned i = 0; i < nruntime; i++)
                printf(" %s", runtime[i]);
        printf("\n");
        for (unsigned i = 0; i < n; i++) {
                ck_assert_msg(files[i][0] == '/' && strncmp(files[i], "/tmp/", 5) != 0,
                              "%s: the daemon wrote %s, outside the board and its runtime directory",
                              row->name, files[i]);
                assert_writable(&unit, row->name, files[i]);
        }
        for (unsigned i = 0; i < nruntime; i++)
                assert_writable(&unit, row->name, runtime[i]);
        /* The same unit (with the backend's drop-in) closes the kernel's knobs. */
        assert_knobs_read_only(&unit, row->name);
        if (row->must_write)
                ck_assert_msg(listed(files, n, row->must_write),
                              "%s: %s was not written (the log has %u files)", row->name, row->must_write, n);
}
END_TEST

/* manager = systemd writes no cgroup file: it calls SetUnitProperties,
 * which systemd grants the daemon only while it runs as root. */
START_TEST(test_systemd_manager_calls_allowed)
{
        const struct sandbox_row *row = &rows[NROWS - 1];
        static char files[MAX_WRITES][PATH_MAX], runtime[MAX_WRITES][PATH_MAX];
        struct unit_model unit;
        unsigned n, nruntime;
        const char *calls;

        ck_assert_str_eq(row->manager, "systemd");
        run_backend(row, runtime, &nruntime);
        n = written_files(files);
        for (unsigned i = 0; i < n; i++)
                ck_assert_msg(!path_under(files[i], "/sys/fs/cgroup"), "manager = systemd wrote %s",
                              files[i]);
        /* The fake systemd decides as systemd does before polkit, with libsystemd's own check. */
        calls = read_work_file("systemd.log");
        ck_assert_msg(strstr(calls, "set system.slice ") && strstr(calls, "set user.slice ") &&
                      !strstr(calls, "denied"), "SetUnitProperties on both slices, without capabilities:\n%s",
                      calls);
        unit_load(&unit, NULL);
        ck_assert_msg(unit_runs_as_root(&unit),
                      "bigLittle.service runs the daemon as \"%s\"%s: systemd would refuse its "
                      "SetUnitProperties (manage-units) on system.slice and user.slice", unit.user,
                      unit.dynamic_user ? " (DynamicUser=yes)" : "");
}
END_TEST

/* The judge itself, on the shipped unit and on changed ones: a path the
 * backends need that a change makes read-only is caught. */
START_TEST(test_unit_model)
{
        struct unit_model u;

        unit_load(&u, NULL);
        ck_assert_int_eq(unit_access(&u, "/sys/devices/system/cpu/cpu1/online", NULL), ACCESS_WRITE);
        ck_assert_int_eq(unit_access(&u, "/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq", NULL),
                         ACCESS_WRITE);
        ck_assert_int_eq(unit_access(&u, "/sys/kernel/bL_switcher/active", NULL), ACCESS_READ);
        ck_assert_int_eq(unit_access(&u, "/sys/fs/cgroup/user.slice/cpuset.cpus", NULL), ACCESS_READ);
        ck_assert_int_eq(unit_access(&u, "/sys/devices/system/cpufoo", NULL), ACCESS_READ);
        ck_assert_int_eq(unit_access(&u, "/etc/bigLittle.conf", NULL), ACCESS_READ);
        ck_assert_int_eq(unit_access(&u, "/run/bigLittle/saved-state", NULL), ACCESS_WRITE);
        ck_assert_int_eq(unit_access(&u, "/run/other", NULL), ACCESS_READ);
        ck_assert_int_eq(unit_access(&u, "/home/user/x", NULL), ACCESS_NONE);
        ck_assert(unit_runs_as_root(&u));
        assert_knobs_read_only(&u, "the shipped unit");
        ck_assert_int_eq(unit_access(&u, "/proc/kcore", NULL), ACCESS_NONE);
        /* What the daemon reads stays readable. */
        ck_assert_int_eq(unit_access(&u, "/proc/sys/kernel/perf_event_paranoid", NULL), ACCESS_READ);
        ck_assert_int_eq(unit_access(&u, "/proc/stat", NULL), ACCESS_WRITE);

        /* The manual's drop-in opens exactly the groups' directories. */
        unit_load(&u, cgroupfs_dropin);
        ck_assert_int_eq(unit_access(&u, "/sys/fs/cgroup/user.slice/cpuset.cpus", NULL), ACCESS_WRITE);
        ck_assert_int_eq(unit_access(&u, "/sys/fs/cgroup/init.scope/cpuset.cpus", NULL), ACCESS_READ);

        /* A more specific read-only path wins over ReadWritePaths=, and on
         * the same path read-only wins. */
        unit_load(&u, "[Service]\nReadOnlyPaths=-/sys/devices/system/cpu/cpu1\n");
        ck_assert_int_eq(unit_access(&u, "/sys/devices/system/cpu/cpu1/online", NULL), ACCESS_READ);
        ck_assert_int_eq(unit_access(&u, "/sys/devices/system/cpu/cpu2/online", NULL), ACCESS_WRITE);
        unit_load(&u, "[Service]\nReadOnlyPaths=/sys/devices/system/cpu\n");
        ck_assert_int_eq(unit_access(&u, "/sys/devices/system/cpu/cpu2/online", NULL), ACCESS_READ);
        unit_load(&u, "[Service]\nInaccessiblePaths=/sys/devices\n");
        ck_assert_int_eq(unit_access(&u, "/sys/devices/system/cpu/cpu2/online", NULL), ACCESS_NONE);
        ck_assert_int_eq(unit_access(&u, "/sys/kernel", NULL), ACCESS_READ);
        /* Without ProtectKernelTunables= the knobs are writable under
         * ProtectSystem=strict; with it they are not, and ReadWritePaths=
         * still opens the CPUs' directory. */
        memset(&u, 0, sizeof(u));
        unit_parse(&u, "[Service]\nProtectSystem=strict\nReadWritePaths=/sys/devices/system/cpu\n");
        ck_assert_int_eq(unit_access(&u, "/proc/sysrq-trigger", NULL), ACCESS_WRITE);
        ck_assert_int_eq(unit_access(&u, "/proc/sys/kernel/core_pattern", NULL), ACCESS_WRITE);
        unit_parse(&u, "[Service]\nProtectKernelTunables=yes\n");
        ck_assert_int_eq(unit_access(&u, "/proc/sysrq-trigger", NULL), ACCESS_READ);
        ck_assert_int_eq(unit_access(&u, "/proc/sys/kernel/core_pattern", NULL), ACCESS_READ);
        ck_assert_int_eq(unit_access(&u, "/sys/devices/system/cpu/cpu1/online", NULL), ACCESS_WRITE);
        ck_assert_int_eq(unit_access(&u, "/sys/kernel/debug/x", NULL), ACCESS_READ);
        ck_assert_int_eq(unit_access(&u, "/sys/fs/cgroup/user.slice/cpuset.cpus", NULL), ACCESS_WRITE);
        unit_parse(&u, "[Service]\nProtectControlGroups=yes\n");
        ck_assert_int_eq(unit_access(&u, "/sys/fs/cgroup/user.slice/cpuset.cpus", NULL), ACCESS_READ);

        unit_load(&u, "[Service]\nDynamicUser=yes\n");
        ck_assert(!unit_runs_as_root(&u));
        unit_load(&u, "[Service]\nUser=bigLittle\n");
        ck_assert(!unit_runs_as_root(&u));
}
END_TEST

static Suite *sandbox_suite(void)
{
        Suite *s = suite_create("sandbox");
        TCase *tc = tcase_create("model");

        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_add_test(tc, test_unit_model);
        suite_add_tcase(s, tc);

        tc = tcase_create("backends");
        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_set_timeout(tc, 60);
        tcase_add_loop_test(tc, test_backend_writes_allowed, 0, NROWS);
        tcase_add_test(tc, test_systemd_manager_calls_allowed);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        return harness_main(sandbox_suite(), "check-sandbox");
}
