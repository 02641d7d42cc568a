/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Other managers of the CPUs: a userspace cpufreq governor found in a
 * umockdev testbed shaped like an Exynos 5422's cpufreq directory, and
 * daemons found by their names on a private dbus-daemon where this test
 * owns them. */
#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <systemd/sd-bus.h>
#include <umockdev.h>
#include <unistd.h>

#include "sources/conflicts.h"
#include "tests/unit/umockdev-main.h"

#define TIMEOUT_USEC (2 * BL_USEC_PER_SEC)

static struct bl_diag diag;

static UMockdevTestbed *testbed;
static gchar *sys_dir;

static void write_attr(const char *policy, const char *name, const char *value)
{
        char path[PATH_MAX];
        FILE *f;

        snprintf(path, sizeof(path), "%s/devices/system/cpu/cpufreq/%s", sys_dir, policy);
        ck_assert_int_eq(g_mkdir_with_parents(path, 0755), 0);
        snprintf(path, sizeof(path), "%s/devices/system/cpu/cpufreq/%s/%s", sys_dir, policy, name);
        f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "%s\n", value);
        ck_assert_int_eq(fclose(f), 0);
}

static void add_policy(const char *policy, const char *related, const char *governor)
{
        write_attr(policy, "related_cpus", related);
        write_attr(policy, "affected_cpus", related);
        write_attr(policy, "scaling_governor", governor);
        write_attr(policy, "scaling_available_governors",
                   "conservative userspace powersave ondemand performance schedutil");
}

static void board_setup(void)
{
        static const char cpu0[] = "P: /devices/system/cpu/cpu0\nE: SUBSYSTEM=cpu\n";
        GError *error = NULL;

        diag_init(&diag);
        testbed = umockdev_testbed_new();
        sys_dir = umockdev_testbed_get_sys_dir(testbed);
        ck_assert_msg(umockdev_testbed_add_from_string(testbed, cpu0, &error), "testbed: %s",
                      error ? error->message : "?");
}

static void board_teardown(void)
{
        g_free(sys_dir);
        g_object_unref(testbed);
}

START_TEST(test_no_cpufreq)
{
        ck_assert_int_eq(conflicts_governors(&diag), 0);
        ck_assert_uint_eq(diag.n, 0);
}
END_TEST

START_TEST(test_schedutil_is_fine)
{
        add_policy("policy0", "0 1 2 3", "schedutil");
        add_policy("policy4", "4 5 6 7", "performance");
        ck_assert_int_eq(conflicts_governors(&diag), 0);
        ck_assert_uint_eq(diag.n, 0);
}
END_TEST

START_TEST(test_userspace_governor_is_said)
{
        add_policy("policy0", "0 1 2 3", "userspace");
        add_policy("policy4", "4 5 6 7", "schedutil");
        ck_assert_int_eq(conflicts_governors(&diag), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], "cpufreq policy0 (CPUs 0-3) has the userspace governor: another "
                                      "program sets its frequency by hand and may fight the daemon over "
                                      "these CPUs");

        diag_init(&diag);
        add_policy("policy4", "4 5 6 7", "userspace");
        ck_assert_int_eq(conflicts_governors(&diag), 2);
        ck_assert_uint_eq(diag.n, 2);
        ck_assert(strstr(diag.msg[0], "(CPUs 4-7)") || strstr(diag.msg[1], "(CPUs 4-7)"));
}
END_TEST

/* A private bus per test. */
static char workdir[PATH_MAX];
static char address[PATH_MAX + 64];
static pid_t bus_daemon = -1;
static sd_bus *owner;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

static void start_bus(void)
{
        char config[2 * PATH_MAX], file[PATH_MAX + 16], arg[PATH_MAX + 32];
        pid_t parent = getpid();
        int pipefd[2];
        size_t len = 0;
        ssize_t n;
        FILE *f;

        snprintf(file, sizeof(file), "%s/bus.conf", workdir);
        snprintf(config, sizeof(config),
                 "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
                 " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                 "<busconfig>\n"
                 "  <listen>unix:path=%s/bus</listen>\n"
                 "  <auth>EXTERNAL</auth>\n"
                 "  <policy context=\"default\">\n"
                 "    <allow own=\"*\"/>\n"
                 "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
                 "    <allow eavesdrop=\"true\"/>\n"
                 "  </policy>\n"
                 "</busconfig>\n",
                 workdir);
        f = fopen(file, "w");
        ck_assert_ptr_nonnull(f);
        fputs(config, f);
        ck_assert_int_eq(fclose(f), 0);
        snprintf(arg, sizeof(arg), "--config-file=%s", file);
        ck_assert_int_eq(pipe(pipefd), 0);
        bus_daemon = fork();
        ck_assert_int_ge(bus_daemon, 0);
        if (bus_daemon == 0) {
                if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
                        _exit(127);
                close(pipefd[0]);
                /* Quiet: it complains about the fd limit in containers. */
                if (dup2(pipefd[1], 3) < 0 || !freopen("/dev/null", "w", stderr))
                        _exit(127);
                /* The bus needs none of umockdev's redirections. */
                unsetenv("LD_PRELOAD");
                execlp("dbus-daemon", "dbus-daemon", arg, "--nofork", "--nopidfile", "--nosyslog",
                       "--print-address=3", (char *)NULL);
                _exit(127);
        }
        close(pipefd[1]);
        while (len < sizeof(address) - 1 &&
               (n = read(pipefd[0], address + len, sizeof(address) - 1 - len)) > 0) {
                len += (size_t)n;
                if (memchr(address, '\n', len))
                        break;
        }
        close(pipefd[0]);
        address[len] = '\0';
        ck_assert_msg(strchr(address, '\n'), "dbus-daemon did not start");
        address[strcspn(address, "\n")] = '\0';
}

static void bus_setup(void)
{
        const char *tmp = getenv("TMPDIR");

        diag_init(&diag);
        snprintf(workdir, sizeof(workdir), "%s/bl-conflicts.XXXXXX", tmp ? tmp : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(workdir));
        start_bus();
        ck_assert_int_ge(sd_bus_new(&owner), 0);
        ck_assert_int_ge(sd_bus_set_address(owner, address), 0);
        ck_assert_int_ge(sd_bus_set_bus_client(owner, 1), 0);
        ck_assert_int_ge(sd_bus_start(owner), 0);
}

static void bus_teardown(void)
{
        int status;

        sd_bus_flush_close_unref(owner);
        owner = NULL;
        if (bus_daemon > 0) {
                kill(bus_daemon, SIGTERM);
                waitpid(bus_daemon, &status, 0);
        }
        nftw(workdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static void own(const char *name)
{
        int r = sd_bus_request_name(owner, name, 0);

        ck_assert_msg(r >= 0, "cannot own %s: %s", name, strerror(-r));
}

START_TEST(test_nobody_there)
{
        ck_assert_int_eq(conflicts_bus(address, TIMEOUT_USEC, &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
}
END_TEST

START_TEST(test_power_profiles_daemon_said_once)
{
        own("net.hadess.PowerProfiles");
        own("org.freedesktop.UPower.PowerProfiles");
        ck_assert_int_eq(conflicts_bus(address, TIMEOUT_USEC, &diag), 1);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], "power-profiles-daemon runs (net.hadess.PowerProfiles on the system "
                                      "bus): its profile sets the CPUs' energy/performance preference and "
                                      "the platform profile, so each cluster's speed changes under the "
                                      "daemon's switching");
}
END_TEST

START_TEST(test_new_power_profiles_name_and_others)
{
        own("org.freedesktop.UPower.PowerProfiles");
        own("com.redhat.tuned");
        own("org.freedesktop.intel_lpmd");
        /* NULL: the system bus, which DBUS_SYSTEM_BUS_ADDRESS names. */
        ck_assert_int_eq(setenv("DBUS_SYSTEM_BUS_ADDRESS", address, 1), 0);
        ck_assert_int_eq(conflicts_bus(NULL, TIMEOUT_USEC, &diag), 3);
        ck_assert_uint_eq(diag.n, 3);
        ck_assert_ptr_nonnull(strstr(diag.msg[0],
                                     "power-profiles-daemon runs (org.freedesktop.UPower.PowerProfiles"));
        ck_assert_ptr_nonnull(strstr(diag.msg[1], "tuned runs (com.redhat.tuned on the system bus): "));
        ck_assert_ptr_nonnull(strstr(diag.msg[2], "intel-lpmd runs (org.freedesktop.intel_lpmd on the "
                                                  "system bus): it confines work to the low-power cores"));
}
END_TEST

START_TEST(test_no_bus)
{
        ck_assert_int_lt(conflicts_bus("unix:path=/nonexistent/bus", TIMEOUT_USEC, &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
}
END_TEST

static Suite *conflicts_suite(void)
{
        Suite *s = suite_create("conflicts");
        TCase *sysfs = tcase_create("governors");
        TCase *bus = tcase_create("bus");

        tcase_add_checked_fixture(sysfs, board_setup, board_teardown);
        tcase_add_test(sysfs, test_no_cpufreq);
        tcase_add_test(sysfs, test_schedutil_is_fine);
        tcase_add_test(sysfs, test_userspace_governor_is_said);
        suite_add_tcase(s, sysfs);

        tcase_add_checked_fixture(bus, bus_setup, bus_teardown);
        tcase_add_test(bus, test_nobody_there);
        tcase_add_test(bus, test_power_profiles_daemon_said_once);
        tcase_add_test(bus, test_new_power_profiles_name_and_others);
        tcase_add_test(bus, test_no_bus);
        suite_add_tcase(s, bus);
        return s;
}

int main(int argc, char **argv)
{
        return umockdev_main(argc, argv, conflicts_suite);
}
