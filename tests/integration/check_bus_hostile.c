/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hostile callers of org.bigLittle.Switch1: huge and malformed arguments,
 * wrong signatures, durations at every boundary, floods of holds, and what
 * only a client writing the wire protocol itself can send.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "tests/integration/bus-test.h"
#include "tests/integration/run-as.h"

/* Hostile callers: huge and malformed arguments, wrong signatures, and
 * floods of holds. */

#define MIB (1024 * 1024)
#define FLOOD_CALLS 5000
#define FLOOD_WINDOW 100
#define FLOOD_CONNECTIONS 200
/* Status is answered within this while a flood is queued before it. */
#define STATUS_BOUND_US (1000 * 1000)
/* What a flood may add to the daemon's private dirty memory. */
#define FLOOD_MEMORY_KIB 256

static char *repeated(const char *unit, size_t times)
{
        size_t len = strlen(unit);
        char *s = malloc(len * times + 1);

        ck_assert_ptr_nonnull(s);
        for (size_t i = 0; i < times; i++)
                memcpy(s + i * len, unit, len);
        s[len * times] = '\0';
        return s;
}

/* The refusal of a huge argument names its size and does not echo it. */
static void expect_short_error(int r, sd_bus_error *error, const char *name, const char *contains)
{
        ck_assert_msg(r < 0, "the call succeeded; expected %s", name);
        ck_assert_msg(sd_bus_error_has_name(error, name), "error %s; expected %s", error->name, name);
        ck_assert_msg(strlen(error->message) < 512, "a %zu-byte error message", strlen(error->message));
        ck_assert_msg(strstr(error->message, contains), "error message \"%s\" lacks \"%s\"", error->message,
                      contains);
        sd_bus_error_free(error);
}

static void assert_untouched(void)
{
        ck_assert_uint_eq(count_holds(), 0);
        assert_property("Level", "little");
        ck_assert(fakeboard_running(fb));
        ck_assert_int_eq(fakeboard_find_line(fb, 0, "hold 1"), -ENOENT);
}

START_TEST(test_hostile_strings)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        char *huge = repeated("x", MIB), *accents = repeated("\xc3\xa9", 300000);
        /* Cut at 64 bytes, this one would end inside a character. */
        char *mixed = repeated("\xc3\xa9x", 1000);
        uint32_t id;
        int r;

        start_idle(NULL);
        r = hold_with_flags(bus, huge, 60 * SEC, "", 0, &id, &error);
        expect_short_error(r, &error, ERR("UnknownLevel"), "(1048576 bytes)");
        r = call_u(bus, "Hold", &error, NULL, "sts", huge, 60 * SEC, "");
        expect_short_error(r, &error, ERR("UnknownLevel"), "the levels are: little, big");
        /* Cut to fit, a name of two-byte characters stays valid UTF-8 (the
         * bus would refuse to carry the answer otherwise). */
        r = hold_with_flags(bus, accents, 60 * SEC, "", 0, &id, &error);
        expect_short_error(r, &error, ERR("UnknownLevel"), "\xc3\xa9\xc3\xa9");
        r = hold_with_flags(bus, mixed, 60 * SEC, "", 0, &id, &error);
        expect_short_error(r, &error, ERR("UnknownLevel"), "\xc3\xa9x...\" (3000 bytes)");
        r = hold_with_flags(bus, "big", 60 * SEC, huge, 0, &id, &error);
        expect_short_error(r, &error, ERR("InvalidReason"), "1048576 bytes");
        r = call_u(bus, "Hold", &error, NULL, "sts", "big", 60 * SEC, accents);
        expect_short_error(r, &error, ERR("InvalidReason"), "600000 bytes");
        r = hold_with_flags(bus, "big\x7f", 60 * SEC, "", 0, &id, &error);
        expect_error(r, &error, ERR("UnknownLevel"), NULL);
        r = hold_with_flags(bus, "big", 60 * SEC, "C1 \xc2\x85 control", 0, &id, &error);
        expect_error(r, &error, ERR("InvalidReason"), "control characters");
        {
                sd_bus_message *reply = NULL;

                r = sd_bus_call_method(bus, BUS_NAME, BUS_PATH, "org.freedesktop.DBus.Properties", "Get",
                                       &error, &reply, "ss", BUS_IFACE, huge);
                expect_error(r, &error, SD_BUS_ERROR_UNKNOWN_PROPERTY, NULL);
                sd_bus_message_unref(reply);
        }
        free(huge);
        free(accents);
        free(mixed);

        r = call_u(bus, "Release", &error, NULL, "u", 0);
        expect_error(r, &error, ERR("NoSuchHold"), NULL);
        r = call_u(bus, "Release", &error, NULL, "u", UINT32_MAX);
        expect_error(r, &error, ERR("NoSuchHold"), "4294967295");
        sd_bus_message_unref(call_ok(bus, BUS_IFACE, "History", "u", UINT32_MAX));
        assert_untouched();
}
END_TEST

/* sd-bus checks each call against the method's signature before the
 * daemon's code sees it. */
START_TEST(test_wrong_signatures)
{
        static const struct {
                const char *member;
                const char *types;
        } wrong[] = {
                { "Hold", "ss" }, { "Hold", "stsu" }, { "Hold", "" }, { "HoldWithFlags", "sts" },
                { "HoldWithFlags", "stsu" }, { "Release", "s" }, { "Release", "t" }, { "Release", "" },
                { "ReleaseAll", "u" }, { "Reload", "s" }, { "History", "s" }, { "History", "t" },
                { "Describe", "u" },
        };
        sd_bus_error error = SD_BUS_ERROR_NULL;
        int r;

        start_idle(NULL);
        for (size_t i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
                sd_bus_message *m = NULL, *reply = NULL;

                ck_assert_int_ge(sd_bus_message_new_method_call(bus, &m, BUS_NAME, BUS_PATH, BUS_IFACE,
                                                                wrong[i].member), 0);
                for (const char *t = wrong[i].types; *t; t++) {
                        if (*t == 's')
                                r = sd_bus_message_append_basic(m, 's', "big");
                        else if (*t == 't')
                                r = sd_bus_message_append(m, "t", 60 * SEC);
                        else
                                r = sd_bus_message_append(m, "u", 1);
                        ck_assert_int_ge(r, 0);
                }
                r = sd_bus_call(bus, m, 0, &error, &reply);
                ck_assert_msg(r < 0 && sd_bus_error_has_name(&error, SD_BUS_ERROR_INVALID_ARGS),
                              "%s(%s): %s, expected InvalidArgs", wrong[i].member, wrong[i].types,
                              r < 0 ? error.name : "succeeded");
                sd_bus_error_free(&error);
                sd_bus_message_unref(m);
                sd_bus_message_unref(reply);
        }
        r = call_u(bus, "NoSuchMethod", &error, NULL, "");
        expect_error(r, &error, SD_BUS_ERROR_UNKNOWN_METHOD, NULL);
        r = sd_bus_call_method(bus, BUS_NAME, BUS_PATH, "org.bigLittle.NoSuchInterface", "Hold", &error, NULL,
                               "sts", "big", 60 * SEC, "");
        ck_assert(r < 0 && (sd_bus_error_has_name(&error, SD_BUS_ERROR_UNKNOWN_METHOD) ||
                            sd_bus_error_has_name(&error, SD_BUS_ERROR_UNKNOWN_INTERFACE)));
        sd_bus_error_free(&error);
        /* Every property is read-only. */
        r = sd_bus_set_property(bus, BUS_NAME, BUS_PATH, BUS_IFACE, "Level", &error, "s", "big");
        expect_error(r, &error, SD_BUS_ERROR_PROPERTY_READ_ONLY, NULL);
        assert_untouched();
}
END_TEST

/* Durations at and beyond every boundary: zero, the configured maximum,
 * values that overflow when turned into other units or added to now, and
 * "negative" ones (two's complement). */
START_TEST(test_hostile_durations)
{
        static const uint64_t refused[] = {
                0, 604800 * SEC + 1, (uint64_t)INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX,
                UINT64_MAX / 1000 + 1, UINT64_MAX - 604800 * SEC, (uint64_t)-1000000,
        };
        sd_bus_error error = SD_BUS_ERROR_NULL;
        struct hold_info h[8];
        uint32_t id;
        int r;

        start_idle("[holds]\nmax_duration_s = 604800\n");
        for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
                r = hold_with_flags(bus, "big", refused[i], "", 0, &id, &error);
                ck_assert_msg(r < 0 && sd_bus_error_has_name(&error, ERR("InvalidDuration")),
                              "duration %" PRIu64 ": %s", refused[i], r < 0 ? error.name : "accepted");
                ck_assert_msg(strstr(error.message, "at most 7d ([holds] max_duration_s = 604800)"), "%s",
                              error.message);
                sd_bus_error_free(&error);
                r = hold_with_flags(bus, "big", refused[i], "", 1, &id, &error);
                ck_assert(r < 0 && sd_bus_error_has_name(&error, ERR("InvalidDuration")));
                sd_bus_error_free(&error);
        }
        ck_assert_uint_eq(count_holds(), 0);

        /* The longest allowed ends exactly then, on both clocks. */
        id = hold_ok(bus, "little", 604800 * SEC, "a week", 1);
        ck_assert_uint_eq(read_holds(h, 8), 1);
        ck_assert_uint_eq(h[0].id, id);
        ck_assert_uint_eq(h[0].until_wall - h[0].since_wall, 604800 * SEC);
        ck_assert_uint_gt(h[0].until_wall, h[0].since_wall);
        /* A microsecond is a hold too; it ends at once. */
        hold_ok(bus, "big", 1, "blink", 0);
        expect_holds(1, SWITCH_BOUND_MS);
        ck_assert(fakeboard_running(fb));
}
END_TEST

struct flood {
        unsigned sent, answered, ok, too_many;
        char other[256];
};

static int on_flood_reply(sd_bus_message *m, void *userdata, sd_bus_error *unused)
{
        struct flood *f = userdata;
        const sd_bus_error *e = sd_bus_message_get_error(m);

        f->answered++;
        if (!e)
                f->ok++;
        else if (sd_bus_error_has_name(e, ERR("TooManyHolds")))
                f->too_many++;
        else if (!f->other[0])
                snprintf(f->other, sizeof(f->other), "%s: %s", e->name, e->message);
        return 0;
}

static void flood_send(sd_bus *b, struct flood *f)
{
        int r = sd_bus_call_method_async(b, NULL, BUS_NAME, BUS_PATH, BUS_IFACE, "HoldWithFlags",
                                         on_flood_reply, f, "stst", "little", 60 * SEC, "flood", (uint64_t)0);

        ck_assert_int_ge(r, 0);
        f->sent++;
}

struct flood_wait {
        sd_bus **buses;
        unsigned n;
        struct flood *f;
};

static bool flood_answered(struct fakeboard *board, void *userdata)
{
        struct flood_wait *w = userdata;

        (void)board;
        for (unsigned i = 0; i < w->n; i++)
                while (sd_bus_process(w->buses[i], NULL) > 0)
                        ;
        return w->f->answered == w->f->sent;
}

static void flood_wait(sd_bus **buses, unsigned n, struct flood *f)
{
        struct flood_wait w = { buses, n, f };

        ck_assert_msg(fakeboard_run(fb, CHILD_BOUND_MS, flood_answered, &w) == 1, "%u of %u calls answered",
                      f->answered, f->sent);
}

/* How long Status (the Level property) takes on a connection of its own. */
static uint64_t status_latency(void)
{
        sd_bus *other = NULL;
        uint64_t start;
        char *level = NULL;

        ck_assert_int_ge(sd_bus_open_system(&other), 0);
        start = mono_now();
        ck_assert_int_ge(
                sd_bus_get_property_string(other, BUS_NAME, BUS_PATH, BUS_IFACE, "Level", NULL, &level), 0);
        start = mono_now() - start;
        free(level);
        sd_bus_flush_close_unref(other);
        return start;
}

static unsigned long daemon_dirty_kib(void)
{
        unsigned long rss, dirty;

        ck_assert_int_eq(harness_memory(fakeboard_pid(fb), &rss, &dirty), 0);
        return dirty;
}

/* After a flood: the daemon still switches on load and back. */
static void expect_still_switching(void)
{
        uint32_t n = 0;

        ck_assert_int_ge(call_u(bus, "ReleaseAll", NULL, &n, ""), 0);
        ck_assert_int_eq(fakeboard_set_load(fb, heavy_load, 2), 0);
        expect_online("0,4-7", SWITCH_BOUND_MS);
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        expect_online("0-3", SWITCH_BOUND_MS);
}

/* Thousands of holds from one connection: the per-uid limit holds, the
 * rest are refused at once, Status stays quick, memory does not grow. */
START_TEST(test_hold_flood_one_connection)
{
        struct flood f = { 0 };
        unsigned long before = 0, after;
        uint64_t latency;

        start_idle(NULL);
        while (f.sent < FLOOD_CALLS) {
                for (unsigned i = 0; i < FLOOD_WINDOW; i++)
                        flood_send(bus, &f);
                flood_wait(&bus, 1, &f);
                /* From the end of the first window: the allocator has
                 * warmed up to the bus traffic by then. */
                if (f.sent == FLOOD_WINDOW)
                        before = daemon_dirty_kib();
        }
        /* One more window queued ahead of a Status call. */
        for (unsigned i = 0; i < FLOOD_WINDOW; i++)
                flood_send(bus, &f);
        ck_assert_int_ge(sd_bus_flush(bus), 0);
        latency = status_latency();
        flood_wait(&bus, 1, &f);
        after = daemon_dirty_kib();
        printf("# flood of %u holds on one connection: %u placed, %u refused; Status in %" PRIu64
               " us; private dirty %lu -> %lu KiB\n", f.sent, f.ok, f.too_many, latency, before, after);
        ck_assert_msg(!f.other[0], "an unexpected answer: %s", f.other);
        ck_assert_uint_eq(f.ok, 8);
        ck_assert_uint_eq(f.too_many, f.sent - 8);
        ck_assert_uint_eq(count_holds(), 8);
        ck_assert_uint_lt(latency, STATUS_BOUND_US);
        if (harness_memory_comparable())
                ck_assert_uint_le(after, before + FLOOD_MEMORY_KIB);
        expect_still_switching();
}
END_TEST

/* A hold from each of many connections of one uid, which then leave. */
static void flood_of_connections(void)
{
        sd_bus *buses[FLOOD_CONNECTIONS];
        struct flood f = { 0 };

        for (unsigned i = 0; i < FLOOD_CONNECTIONS; i++) {
                ck_assert_int_ge(sd_bus_open_system(&buses[i]), 0);
                flood_send(buses[i], &f);
        }
        flood_wait(buses, FLOOD_CONNECTIONS, &f);
        ck_assert_msg(!f.other[0], "an unexpected answer: %s", f.other);
        ck_assert_uint_eq(f.ok, 8);
        ck_assert_uint_eq(f.too_many, FLOOD_CONNECTIONS - 8);
        ck_assert_uint_eq(count_holds(), 8);
        ck_assert_uint_lt(status_latency(), STATUS_BOUND_US);
        for (unsigned i = 0; i < FLOOD_CONNECTIONS; i++)
                sd_bus_flush_close_unref(buses[i]);
        expect_holds(0, SWITCH_BOUND_MS);
}

/* The same limit across connections, and the holds end when their
 * connections do; a second round costs no more memory than the first. */
START_TEST(test_hold_flood_many_connections)
{
        unsigned long first, second;

        start_idle(NULL);
        flood_of_connections();
        first = daemon_dirty_kib();
        flood_of_connections();
        second = daemon_dirty_kib();
        printf("# 2 x %u connections of one uid, a hold each: 8 placed each time; private dirty after the "
               "first %lu KiB, after the second %lu KiB\n", FLOOD_CONNECTIONS, first, second);
        if (harness_memory_comparable())
                ck_assert_uint_le(second, first + FLOOD_MEMORY_KIB);
        expect_still_switching();
}
END_TEST

static void eight_persistent_holds(sd_bus *b, FILE *out, void *userdata)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        uint32_t id;
        int r;

        (void)userdata;
        for (unsigned i = 0; i < 8; i++) {
                r = hold_with_flags(b, "little", 60 * SEC, "persistent", 1, &id, &error);
                child_expect_ok(out, "Hold", r, &error);
        }
        r = hold_with_flags(b, "little", 60 * SEC, "one too many", 1, &id, &error);
        child_expect_error(out, "the 9th Hold", r, &error, ERR("TooManyHolds"), NULL);
}

static void refused_when_full(sd_bus *b, FILE *out, void *userdata)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        uint32_t id;
        int r;

        (void)userdata;
        r = hold_with_flags(b, "little", 60 * SEC, "no room", 1, &id, &error);
        child_expect_error(out, "Hold with 64 in force", r, &error, ERR("TooManyHolds"),
                           "64 holds are in force already, the most there may be");
}

/* Eight users with eight holds each fill the list; the ninth is refused. */
START_TEST(test_total_hold_limit)
{
        sd_bus_error error = SD_BUS_ERROR_NULL;
        uint32_t id;
        int r;

        start_idle("[holds]\nallow_users = yes\n");
        /* Users with passwd entries: dbus-daemon refuses others. */
        for (uid_t uid = 1; uid <= 8; uid++)
                run_as(uid, eight_persistent_holds, NULL);
        ck_assert_uint_eq(count_holds(), 64);
        run_as(9, refused_when_full, NULL);
        r = hold_with_flags(bus, "little", 60 * SEC, "root too", 0, &id, &error);
        expect_error(r, &error, ERR("TooManyHolds"), "64 holds");
        ck_assert_uint_eq(count_holds(), 64);
        ck_assert_uint_lt(status_latency(), STATUS_BOUND_US);
        expect_still_switching();
        ck_assert_uint_eq(count_holds(), 0);
}
END_TEST

/* A client that speaks the D-Bus wire protocol itself, to send what
 * sd-bus refuses to build: strings that are not valid UTF-8 or hold a NUL. */

#define RAW_MAX 4096

struct raw_message {
        unsigned char buf[RAW_MAX];
        size_t len;
};

static void raw_pad(struct raw_message *m, size_t align)
{
        while (m->len % align)
                m->buf[m->len++] = 0;
}

static void raw_u32(struct raw_message *m, uint32_t v)
{
        raw_pad(m, 4);
        ck_assert_uint_le(m->len + 4, RAW_MAX);
        memcpy(m->buf + m->len, &v, 4);
        m->len += 4;
}

static void raw_u64(struct raw_message *m, uint64_t v)
{
        raw_pad(m, 8);
        ck_assert_uint_le(m->len + 8, RAW_MAX);
        memcpy(m->buf + m->len, &v, 8);
        m->len += 8;
}

/* 'len' bytes as a string, whatever they are. */
static void raw_string(struct raw_message *m, const char *s, size_t len)
{
        raw_u32(m, (uint32_t)len);
        ck_assert_uint_le(m->len + len + 1, RAW_MAX);
        memcpy(m->buf + m->len, s, len);
        m->len += len;
        m->buf[m->len++] = 0;
}

static void raw_signature(struct raw_message *m, const char *sig)
{
        size_t len = strlen(sig);

        m->buf[m->len++] = (unsigned char)len;
        memcpy(m->buf + m->len, sig, len + 1);
        m->len += len + 1;
}

static void raw_field(struct raw_message *m, uint8_t code, char type, const char *value)
{
        char sig[2] = { type, '\0' };

        raw_pad(m, 8);
        m->buf[m->len++] = code;
        raw_signature(m, sig);
        if (type == 'g')
                raw_signature(m, value);
        else
                raw_string(m, value, strlen(value));
}

/* A method call; 'body' (marshalled from offset 0) goes after the header. */
static void raw_call(struct raw_message *m, uint32_t serial, const char *dest, const char *path,
                     const char *iface, const char *member, const char *sig, const struct raw_message *body)
{
        size_t fields_len_at, fields_start;
        uint32_t fields_len;

        m->len = 0;
        m->buf[m->len++] = 'l';
        m->buf[m->len++] = 1;           /* method call */
        m->buf[m->len++] = 0;
        m->buf[m->len++] = 1;           /* protocol version */
        raw_u32(m, (uint32_t)(body ? body->len : 0));
        raw_u32(m, serial);
        fields_len_at = m->len;
        raw_u32(m, 0);
        raw_pad(m, 8);
        fields_start = m->len;
        raw_field(m, 1, 'o', path);
        raw_field(m, 2, 's', iface);
        raw_field(m, 3, 's', member);
        raw_field(m, 6, 's', dest);
        if (sig)
                raw_field(m, 8, 'g', sig);
        fields_len = (uint32_t)(m->len - fields_start);
        memcpy(m->buf + fields_len_at, &fields_len, 4);
        raw_pad(m, 8);
        if (body) {
                ck_assert_uint_le(m->len + body->len, RAW_MAX);
                memcpy(m->buf + m->len, body->buf, body->len);
                m->len += body->len;
        }
}

static void raw_send(int fd, const void *data, size_t len)
{
        ck_assert_int_eq(send(fd, data, len, MSG_NOSIGNAL), (ssize_t)len);
}

/* Bytes the bus sent within timeout_ms (0 at end of stream, -1 when none came). */
static ssize_t raw_receive(int fd, void *buf, size_t size, int timeout_ms)
{
        struct pollfd p = { .fd = fd, .events = POLLIN };
        ssize_t n;

        if (poll(&p, 1, timeout_ms) <= 0)
                return -1;
        n = recv(fd, buf, size, 0);
        return n < 0 && errno == ECONNRESET ? 0 : n;
}

/* Connects as root (EXTERNAL), says Hello and reads its answer. */
static int raw_connect(const char *address)
{
        static const char auth[] = "\0AUTH EXTERNAL 30\r\n";
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        struct raw_message hello;
        char reply[512];
        ssize_t n;
        int fd;

        /* "unix:path=PATH,guid=..." */
        ck_assert(strncmp(address, "unix:path=", 10) == 0);
        snprintf(sa.sun_path, sizeof(sa.sun_path), "%.*s", (int)strcspn(address + 10, ","), address + 10);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
        raw_send(fd, auth, sizeof(auth) - 1);
        n = raw_receive(fd, reply, sizeof(reply) - 1, 2000);
        ck_assert_msg(n >= 2 && strncmp(reply, "OK", 2) == 0, "the bus refused EXTERNAL");
        raw_send(fd, "BEGIN\r\n", 7);
        raw_call(&hello, 1, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello",
                 NULL, NULL);
        raw_send(fd, hello.buf, hello.len);
        ck_assert_int_gt(raw_receive(fd, reply, sizeof(reply), 2000), 0);
        return fd;
}

/* Sends Hold(level, 60 s, reason) with the bytes as given; returns 1 when
 * an answer came, 0 when the bus hung up. */
static int raw_hold(const char *address, const char *level, size_t level_len, const char *reason,
                    size_t reason_len)
{
        struct raw_message body = { .len = 0 }, call;
        char reply[4096];
        int fd = raw_connect(address);
        ssize_t n;

        raw_string(&body, level, level_len);
        raw_u64(&body, 60 * SEC);
        raw_string(&body, reason, reason_len);
        raw_call(&call, 2, BUS_NAME, BUS_PATH, BUS_IFACE, "Hold", "sts", &body);
        raw_send(fd, call.buf, call.len);
        /* Signals (NameAcquired) may come first; the answer or the hang-up follows. */
        while ((n = raw_receive(fd, reply, sizeof(reply), 2000)) > 0)
                if (n >= 2 && reply[1] != 4)
                        break;
        close(fd);
        ck_assert_msg(n >= 0, "neither an answer nor a hang-up");
        return n > 0;
}

/* The bus itself refuses strings that are not UTF-8 or hold a NUL: it
 * hangs up on the sender, and the daemon never sees the call. The same
 * call with a valid string, sent the same way, reaches it. */
START_TEST(test_bus_rejects_malformed_strings)
{
        static const char bad_utf8[] = "big\xff", overlong[] = "\xc0\xafig", nul[] = "big\0ger";
        const char *address;
        unsigned lines;

        new_board("exynos5422");
        ck_assert_int_eq(fakeboard_set_load(fb, idle_load, 1), 0);
        address = harness_start_bus(NULL);
        start_daemon(write_config("bigLittle.conf", HARNESS_PELT_NO_BREAK_EVEN_CONFIG));
        lines = fakeboard_n_lines(fb);

        ck_assert_int_eq(raw_hold(address, bad_utf8, sizeof(bad_utf8) - 1, "", 0), 0);
        ck_assert_int_eq(raw_hold(address, overlong, sizeof(overlong) - 1, "", 0), 0);
        ck_assert_int_eq(raw_hold(address, nul, sizeof(nul) - 1, "", 0), 0);
        ck_assert_int_eq(raw_hold(address, "big", 3, bad_utf8, sizeof(bad_utf8) - 1), 0);
        ck_assert_int_eq(raw_hold(address, "big", 3, nul, sizeof(nul) - 1), 0);
        fakeboard_run_for(fb, 100);
        ck_assert_uint_eq(count_holds(), 0);
        ck_assert_uint_eq(fakeboard_n_lines(fb), lines);
        ck_assert(fakeboard_running(fb));

        ck_assert_int_eq(raw_hold(address, "big", 3, "raw", 3), 1);
        expect_line(lines, "hold 1: big", 1000);
}
END_TEST

static Suite *hostile_suite(void)
{
        Suite *s = suite_create("bus-hostile");
        TCase *hostile = tcase_create("hostile");

        tcase_add_checked_fixture(hostile, bus_test_setup, bus_test_teardown);
        tcase_set_timeout(hostile, 60);
        tcase_add_test(hostile, test_hostile_strings);
        tcase_add_test(hostile, test_wrong_signatures);
        tcase_add_test(hostile, test_hostile_durations);
        tcase_add_test(hostile, test_hold_flood_one_connection);
        tcase_add_test(hostile, test_hold_flood_many_connections);
        tcase_add_test(hostile, test_total_hold_limit);
        tcase_add_test(hostile, test_bus_rejects_malformed_strings);
        suite_add_tcase(s, hostile);
        return s;
}

int main(void)
{
        return harness_main(hostile_suite(), "check-bus-hostile");
}
