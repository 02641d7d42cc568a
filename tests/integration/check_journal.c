/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The journal fields of the real daemon, sent the way it sends them under
 * systemd: started without --foreground, it logs through libsystemd to
 * /run/systemd/journal/socket. The test takes that path in a mount
 * namespace of its own (a tmpfs over /run/systemd, so the machine's journal
 * is untouched) and listens there as journald would: a stand-in process
 * reads each datagram and writes its fields to a file, one "KEY=value" a
 * line and an empty line after each message. Needs root (mount
 * namespaces); otherwise says so and runs nothing.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/fileio.h"
#include "daemon/message-ids.h"
#include "tests/integration/bus-client.h"
#include "tests/integration/harness.h"

#define JOURNAL_DIR "/run/systemd/journal"
#define JOURNAL_SOCKET JOURNAL_DIR "/socket"
#define SWITCH_BOUND_MS 2000
#define DOWN_DELAY_MS 300
#define SEC UINT64_C(1000000)

static const unsigned idle_load[] = { 40 };

static volatile sig_atomic_t reader_stop;

static void on_stop(int sig)
{
        (void)sig;
        reader_stop = 1;
}

/* One datagram of the journal's native protocol as "KEY=value" lines: a
 * field is "KEY=value\n", or "KEY\n", a 64-bit little-endian size and the
 * value (which may hold newlines, written here as spaces) and "\n". */
static void write_entry(FILE *out, const char *p, size_t n)
{
        const char *end = p + n;

        while (p < end) {
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                const char *eq = memchr(p, '=', nl ? (size_t)(nl - p) : (size_t)(end - p));
                uint64_t size = 0;

                if (!nl)
                        nl = end;
                if (eq) {
                        fprintf(out, "%.*s\n", (int)(nl - p), p);
                        p = nl + 1;
                        continue;
                }
                if ((size_t)(end - nl) < 1 + sizeof(size))
                        break;
                for (unsigned i = 0; i < sizeof(size); i++)
                        size |= (uint64_t)(unsigned char)nl[1 + i] << (8 * i);
                if (size > (uint64_t)(end - nl - 1 - (ptrdiff_t)sizeof(size)))
                        break;
                fprintf(out, "%.*s=", (int)(nl - p), p);
                for (const char *v = nl + 1 + sizeof(size); v < nl + 1 + sizeof(size) + size; v++)
                        fputc(*v == '\n' ? ' ' : *v, out);
                fputc('\n', out);
                p = nl + 1 + sizeof(size) + size + 1;
        }
        fputs("\n", out);
        fflush(out);
}

/* The stand-in for journald: reads until SIGTERM, then what is left. */
_Noreturn static void run_reader(int fd, const char *path)
{
        static char buf[1 << 16];
        FILE *out = fopen(path, "w");
        struct sigaction sa = { .sa_handler = on_stop };

        if (!out || sigaction(SIGTERM, &sa, NULL) < 0)
                _exit(127);
        for (;;) {
                struct pollfd pfd = { .fd = fd, .events = POLLIN };
                int ready = poll(&pfd, 1, 50);
                ssize_t n;

                if (ready <= 0) {
                        if (reader_stop)
                                break;
                        continue;
                }
                n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
                if (n > 0)
                        write_entry(out, buf, (size_t)n);
        }
        fclose(out);
        _exit(0);
}

/* Puts the journal's socket in a mount namespace of this test's process
 * and starts the reader on it; the pid, or 0 when this cannot be done
 * here (not root, no namespaces). */
static pid_t start_journal(const char *path)
{
        struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = JOURNAL_SOCKET };
        pid_t pid;
        int fd;

        if (!harness_is_root())
                return 0;       /* its case is reported skipped */
        if (unshare(CLONE_NEWNS) < 0) {
                printf("# cannot have a mount namespace (%s): test not run\n", strerror(errno));
                return 0;
        }
        /* Mounts made here stay in this namespace. */
        ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
        if (mount("tmpfs", "/run/systemd", "tmpfs", 0, "mode=0755") < 0)
                ck_assert_int_eq(mount("tmpfs", "/run", "tmpfs", 0, "mode=0755"), 0);
        ck_assert_int_eq(mkdir("/run/systemd", 0755) == 0 || errno == EEXIST, 1);
        ck_assert_int_eq(mkdir(JOURNAL_DIR, 0755), 0);
        fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
        pid = harness_fork();
        if (pid == 0)
                run_reader(fd, path);
        close(fd);
        return pid;
}

/* The reader, the board and the daemon without --foreground on it, with
 * the configuration 'config'; the reader's pid, or 0 when the journal's
 * socket cannot be had here (the test then runs nothing). The journal's
 * text goes to the work directory's file "journal". */
static pid_t start_journaled(const char *config, bool with_bus)
{
        char *argv[] = { (char *)DAEMON_PATH, (char *)"--config", NULL, NULL };
        pid_t reader = start_journal(work_file("journal"));
        int r;

        if (reader == 0)
                return 0;
        new_board("exynos5422");
        set_load(idle_load, 1);
        if (with_bus)
                harness_start_bus(NULL);
        argv[2] = (char *)write_config("bigLittle.conf", config);
        r = fakeboard_spawn(fb, argv, false);
        ck_assert_msg(r == 0, "cannot start %s: %s", DAEMON_PATH, strerror(-r));
        return reader;
}

/* Stops the daemon, then the reader once it has read everything the
 * daemon sent; the journal's text (for the caller to free). */
static char *stop_journaled(pid_t reader)
{
        assert_exit_status(stop_daemon(SIGTERM), 0);
        harness_stop_child(reader);
        return read_whole_file(work_file("journal"));
}

static bool journal_has(struct fakeboard *board, void *userdata)
{
        (void)board;
        return strstr(read_work_file("journal"), userdata) != NULL;
}

/* Runs the board until the journal has 'needle' (in its first 8 KiB). */
static void expect_journal(const char *needle, unsigned timeout_ms)
{
        ck_assert_msg(fakeboard_run(fb, timeout_ms, journal_has, (void *)needle) == 1,
                      "no \"%s\" in the journal after %u ms:\n%s", needle, timeout_ms,
                      text_tail(read_work_file("journal"), 2000));
}

/* The entry (a static copy) whose MESSAGE_ID is 'id' and that
 * has the line 'has' ("KEY=value"; NULL: any); NULL when there is none. */
static const char *find_entry(const char *journal, const char *id, const char *has)
{
        static char entry[4096];
        char want_id[64];
        const char *p = journal;

        snprintf(want_id, sizeof(want_id), "MESSAGE_ID=%s\n", id);
        while (*p) {
                const char *end = strstr(p, "\n\n");
                size_t n = end ? (size_t)(end - p) + 1 : strlen(p);

                snprintf(entry, sizeof(entry), "\n%.*s", (int)n, p);
                if (strstr(entry, want_id)) {
                        char line[512];

                        snprintf(line, sizeof(line), "\n%s\n", has ? has : "");
                        if (!has || strstr(entry, line))
                                return entry;
                }
                p += n + (end ? 1 : 0);
        }
        return NULL;
}

/* find_entry(), failing the test (with the journal's tail) when there is
 * no such entry; 'what' names it. */
static const char *expect_entry(const char *journal, const char *id, const char *has, const char *what)
{
        const char *e = find_entry(journal, id, has);

        ck_assert_msg(e, "no %s (%s) in the journal:\n%s", what, has ? has : id, text_tail(journal, 2000));
        return e;
}

/* Fails unless the entry has the line "KEY=value". */
static void assert_field(const char *entry, const char *field)
{
        char line[512];

        snprintf(line, sizeof(line), "\n%s\n", field);
        ck_assert_msg(strstr(entry, line), "no %s in the entry:%s", field, entry);
}

/* A hold of the big level and its release: the hold, the switch it asks
 * for, the release and the switch back down each reach the journal with
 * their MESSAGE_ID and fields, the message reading as on stderr. */
START_TEST(test_hold_and_switches_reach_the_journal)
{
        char field[128];
        sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_message *reply = NULL;
        _cleanup_free_ char *journal = NULL;
        const char *e;
        uint32_t id = 0;
        sd_bus *b;
        pid_t reader;
        int r;

        reader = start_journaled(HARNESS_PELT_NO_BREAK_EVEN_CONFIG, true);
        if (reader == 0)
                return;
        b = bus_client_wait_daemon(START_BOUND_MS);
        expect_online("0-3", SWITCH_BOUND_MS);

        r = sd_bus_call_method(b, BUS_CLIENT_NAME, BUS_CLIENT_PATH, BUS_CLIENT_IFACE, "Hold", &error, &reply,
                               "sts", "big", 60 * SEC, "journal test");
        ck_assert_msg(r >= 0, "Hold failed: %s", error.message);
        ck_assert_int_ge(sd_bus_message_read(reply, "u", &id), 0);
        sd_bus_message_unref(reply);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        r = sd_bus_call_method(b, BUS_CLIENT_NAME, BUS_CLIENT_PATH, BUS_CLIENT_IFACE, "Release", &error, NULL,
                               "u", id);
        ck_assert_msg(r >= 0, "Release failed: %s", error.message);
        expect_online("0-3", DOWN_DELAY_MS + SWITCH_BOUND_MS);
        sd_bus_unref(b);
        journal = stop_journaled(reader);

        snprintf(field, sizeof(field), "BIGLITTLE_HOLD_ID=%u", id);
        e = expect_entry(journal, BL_MESSAGE_HOLD, field, "hold");
        assert_field(e, "BIGLITTLE_LEVEL=big");
        assert_field(e, "BIGLITTLE_UID=0");
        assert_field(e, "BIGLITTLE_REASON=journal test");
        assert_field(e, "BIGLITTLE_DURATION_USEC=60000000");
        assert_field(e, "BIGLITTLE_PERSISTENT=no");
        assert_field(e, "PRIORITY=6");
        snprintf(field, sizeof(field), "MESSAGE=hold %u: big for 60 s by uid 0", id);
        assert_field(e, field);

        e = expect_entry(journal, BL_MESSAGE_SWITCH, "BIGLITTLE_TO=big", "switch to big");
        assert_field(e, "BIGLITTLE_FROM=little");
        assert_field(e, "BIGLITTLE_CAUSE=hold");
        snprintf(field, sizeof(field), "BIGLITTLE_HOLD_ID=%u", id);
        assert_field(e, field);
        ck_assert_msg(strstr(e, "\nBIGLITTLE_DEMAND=") && strstr(e, "\nBIGLITTLE_DURATION_USEC="),
                      "no demand or duration:%s", e);
        ck_assert_msg(strstr(e, "\nMESSAGE=switch little -> big: hold "), "not the message of stderr:%s", e);

        snprintf(field, sizeof(field), "BIGLITTLE_HOLD_ID=%u", id);
        e = expect_entry(journal, BL_MESSAGE_RELEASE, field, "release of hold");
        assert_field(e, "BIGLITTLE_REASON=released");
        assert_field(e, "BIGLITTLE_HOLDS=1");

        e = expect_entry(journal, BL_MESSAGE_SWITCH, "BIGLITTLE_TO=little", "switch down");
        assert_field(e, "BIGLITTLE_FROM=big");
        assert_field(e, "BIGLITTLE_CAUSE=down");
        ck_assert_msg(!strstr(e, "\nBIGLITTLE_HOLD_ID="), "a hold named in a switch by demand:%s", e);
        /* Lines without an id of ours reach the journal too, plain. */
        ck_assert_msg(strstr(journal, "\nMESSAGE=started: ") || strncmp(journal, "MESSAGE=started: ", 17) == 0,
                      "no start line in the journal:\n%s", text_tail(journal, 2000));
}
END_TEST

/* The thermal state capped and back, and a reload refused for a bad file:
 * both with their MESSAGE_ID and fields. */
START_TEST(test_thermal_and_refused_reload_reach_the_journal)
{
        static const char config[] = HARNESS_PELT_CONFIG "[thermal]\n"
                                                         "cap_temp_c = 85\n"
                                                         "release_temp_c = 80\n"
                                                         "critical_temp_c = 95\n";
        _cleanup_free_ char *journal = NULL;
        char want[128];
        const char *e;
        pid_t reader;

        reader = start_journaled(config, false);
        if (reader == 0)
                return;
        ck_assert_int_eq(fakeboard_set_temp(fb, 0, 60000), 0);
        expect_online("0-3", START_BOUND_MS);
        ck_assert_int_eq(fakeboard_set_temp(fb, 0, 86000), 0);
        snprintf(want, sizeof(want), "MESSAGE_ID=%s", BL_MESSAGE_THERMAL);
        expect_journal(want, SWITCH_BOUND_MS);
        ck_assert_int_eq(fakeboard_set_temp(fb, 0, 70000), 0);
        expect_journal("BIGLITTLE_FROM=capped", SWITCH_BOUND_MS);

        write_config("bigLittle.conf", "[daemon]\nsample_interval_ms = fast\n");
        ck_assert_int_eq(fakeboard_kill(fb, SIGHUP), 0);
        snprintf(want, sizeof(want), "MESSAGE_ID=%s", BL_MESSAGE_RELOAD_REFUSED);
        expect_journal(want, SWITCH_BOUND_MS);
        journal = stop_journaled(reader);

        e = expect_entry(journal, BL_MESSAGE_THERMAL, "BIGLITTLE_TO=capped", "thermal state capped");
        assert_field(e, "BIGLITTLE_FROM=normal");
        assert_field(e, "BIGLITTLE_TEMPERATURE_MC=86000");
        assert_field(e, "BIGLITTLE_CAP_MC=85000");
        assert_field(e, "BIGLITTLE_RELEASE_MC=80000");
        assert_field(e, "BIGLITTLE_CRITICAL_MC=95000");
        assert_field(e, "PRIORITY=4");
        e = expect_entry(journal, BL_MESSAGE_THERMAL, "BIGLITTLE_TO=normal", "thermal state normal");
        assert_field(e, "BIGLITTLE_FROM=capped");
        assert_field(e, "BIGLITTLE_TEMPERATURE_MC=70000");

        e = expect_entry(journal, BL_MESSAGE_RELOAD_REFUSED, NULL, "refused reload");
        assert_field(e, "BIGLITTLE_REASON=configuration");
        assert_field(e, "MESSAGE=reload: refused, keeping the running configuration");
        /* The error itself comes before it, naming the place. */
        ck_assert_msg(strstr(journal, "bigLittle.conf:2: sample_interval_ms"), "no file:line of the error:\n%s",
                      text_tail(journal, 2000));
}
END_TEST

int main(void)
{
        Suite *s = suite_create("journal");
        TCase *tc = harness_root_tcase("exynos5422");

        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_add_test(tc, test_hold_and_switches_reach_the_journal);
        tcase_add_test(tc, test_thermal_and_refused_reload_reach_the_journal);
        suite_add_tcase(s, tc);
        return harness_main(s, "check_journal");
}
