/* SPDX-License-Identifier: GPL-2.0-or-later */
/* switchctl's pieces without a bus: durations, the command line, tables
 * and the small formatters. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl/args.h"
#include "ctl/client.h"
#include "common/duration.h"
#include "ctl/output.h"

#define SEC UINT64_C(1000000)

START_TEST(test_duration_parse)
{
        static const struct {
                const char *text;
                uint64_t usec;
        } cases[] = {
                { "30s", 30 * SEC },
                { "5min", 300 * SEC },
                { "5m", 300 * SEC },
                { "1h", 3600 * SEC },
                { "2h30min", 9000 * SEC },
                { "2h 30min", 9000 * SEC },
                { " 1h 1min 1s ", 3661 * SEC },
                { "90", 90 * SEC },
                { "0", 0 },
                { "1.5h", 5400 * SEC },
                { "0.5s", SEC / 2 },
                { ".25s", SEC / 4 },
                { "1.5", 3 * SEC / 2 },
                { "500ms", SEC / 2 },
                { "250msec", SEC / 4 },
                { "7us", 7 },
                { "7µs", 7 },
                { "1d", 86400 * SEC },
                { "2days", 2 * 86400 * SEC },
                { "1w", 604800 * SEC },
                { "3 hours", 3 * 3600 * SEC },
                { "10 seconds", 10 * SEC },
                { "1minute", 60 * SEC },
                { "1hr", 3600 * SEC },
                { "0.0000001s", 0 },
                { "1.0000015s", SEC + 1 },
                /* long fractions, exactly (they overflowed from 13 digits on) */
                { "0.50000000000000s", SEC / 2 },
                { "0.500000000000000000s", SEC / 2 },
                { "0.5000000000000000000000000000001s", SEC / 2 },
                { "1.50000000000000min", 90 * SEC },
                { "0.9999999999999999999999s", SEC - 1 },
                { "1.99999999999999999999w", 2 * 604800 * SEC - 1 },
                { "0.333333333333333333333h", 1200 * SEC - 1 },
                { "0.1234567890123456789d", 10666 * SEC + 666570 },
        };

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                uint64_t usec = 12345;

                ck_assert_msg(duration_parse(cases[i].text, &usec) == 0, "\"%s\" refused", cases[i].text);
                ck_assert_msg(usec == cases[i].usec, "\"%s\" = %llu, not %llu", cases[i].text,
                              (unsigned long long)usec, (unsigned long long)cases[i].usec);
        }
}
END_TEST

START_TEST(test_duration_parse_refuses)
{
        static const char *const invalid[] = {
                "", " ", "s", "min", "abc", "5parsecs", "1h30", "30 5min", "-5s", "+5s", "5 s s",
                "1..5h", "1.5.5h", "5sec!", "1 2", "h1", "5M", "0x10s", "1e3s",
        };
        static const char *const too_big[] = {
                "18446744073709551616", "99999999999999999999s", "40000000w", "18446744073709h",
                "18446744073709551615us 1us",
        };
        uint64_t usec = 7;

        for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
                ck_assert_msg(duration_parse(invalid[i], &usec) == -EINVAL, "\"%s\" accepted", invalid[i]);
        for (size_t i = 0; i < sizeof(too_big) / sizeof(too_big[0]); i++)
                ck_assert_msg(duration_parse(too_big[i], &usec) == -ERANGE, "\"%s\" not out of range",
                              too_big[i]);
        ck_assert_uint_eq(usec, 7);
        ck_assert_int_eq(duration_parse("18446744073709551615us", &usec), 0);
        ck_assert(usec == UINT64_MAX);
}
END_TEST

START_TEST(test_duration_format)
{
        static const struct {
                uint64_t usec;
                const char *text;
        } cases[] = {
                { 0, "0s" },
                { 7, "7us" },
                { 8733, "8ms" },
                { 250000, "250ms" },
                { 1500000, "1s 500ms" },
                { 45 * SEC, "45s" },
                { 300 * SEC, "5min" },
                { 3600 * SEC, "1h" },
                { 3840 * SEC, "1h 4min" },
                { 3845 * SEC, "1h 4min" },
                { 9000 * SEC, "2h 30min" },
                { 90061 * SEC, "1d 1h" },
                { 86400 * SEC + 59 * SEC, "1d" },
                { UINT64_MAX, "213503982d 8h" },
        };
        char buf[DURATION_TEXT_MAX];

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
                ck_assert_str_eq(duration_format(buf, sizeof(buf), cases[i].usec), cases[i].text);
}
END_TEST

START_TEST(test_duration_round_trip)
{
        static const uint64_t values[] = {
                30 * SEC, 300 * SEC, 3600 * SEC, 9000 * SEC, 86400 * SEC, SEC / 4
        };
        char buf[DURATION_TEXT_MAX];

        for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
                uint64_t usec;

                ck_assert_int_eq(duration_parse(duration_format(buf, sizeof(buf), values[i]), &usec), 0);
                ck_assert(usec == values[i]);
        }
}
END_TEST

START_TEST(test_display_width)
{
        ck_assert_uint_eq(display_width(""), 0);
        ck_assert_uint_eq(display_width("little"), 6);
        ck_assert_uint_eq(display_width("little → big"), 12);
        ck_assert_uint_eq(display_width("61.5 °C"), 7);
        ck_assert_uint_eq(display_width(ANSI_BOLD "big" ANSI_RESET), 3);
        ck_assert_uint_eq(display_width(ANSI_UNDERLINE "TIME" ANSI_RESET " "), 5);
}
END_TEST

static char *capture(void (*fn)(FILE *f, const void *data), const void *data)
{
        char *text = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&text, &size);

        ck_assert_ptr_nonnull(f);
        fn(f, data);
        ck_assert_int_eq(fclose(f), 0);
        return text;
}

static void print_json(FILE *f, const void *data)
{
        json_string(f, data);
}

START_TEST(test_json_string)
{
        char *s = capture(print_json, "a\"b\\c\nd\te\x01\x1f\x7f ü →");

        ck_assert_str_eq(s, "\"a\\\"b\\\\c\\nd\\te\\u0001\\u001f\\u007f ü →\"");
        free(s);
        s = capture(print_json, "");
        ck_assert_str_eq(s, "\"\"");
        free(s);
}
END_TEST

START_TEST(test_format_percent_and_wall)
{
        char buf[WALL_TEXT_MAX];

        ck_assert_str_eq(format_percent(buf, sizeof(buf), 1, 4), "25.0%");
        ck_assert_str_eq(format_percent(buf, sizeof(buf), 2, 3), "66.7%");
        ck_assert_str_eq(format_percent(buf, sizeof(buf), 0, 0), "-");
        setenv("TZ", "UTC", 1);
        tzset();
        ck_assert_str_eq(format_wall(buf, sizeof(buf), UINT64_C(1796119500000000)), "2026-12-01 10:05:00");
        ck_assert_str_eq(format_wall(buf, sizeof(buf), 0), "-");
        setenv("TZ", "Europe/Berlin", 1);
        tzset();
        ck_assert_str_eq(format_wall(buf, sizeof(buf), UINT64_C(1796119500999999)), "2026-12-01 11:05:00");
}
END_TEST

struct table_case {
        bool legend, fancy;
};

static void print_table(FILE *f, const void *data)
{
        const struct table_case *c = data;
        struct table *t = NULL;

        ck_assert_int_eq(table_new(&t, 3), 0);
        for (const char *const *cell = (const char *const[]){ "LEVEL", "TIME", "REASON", "little", "3h", "x",
                                                              "little+2big", "1h 4min", "→ y", NULL };
             *cell; cell++)
                ck_assert_int_eq(table_add(t, *cell), 0);
        ck_assert_int_eq(table_addf(t, "%s%d", "mid", 1), 0);
        table_align_right(t, 1);
        ck_assert_int_eq(table_add(t, "5s"), 0);
        ck_assert_int_eq(table_add(t, ""), 0);
        ck_assert_uint_eq(table_rows(t), 3);
        table_print(t, f, c->legend, c->fancy);
        table_free(t);
}

START_TEST(test_table)
{
        struct table_case plain = { .legend = true }, bare = { 0 }, fancy = { .legend = true, .fancy = true };
        char *s;

        s = capture(print_table, &plain);
        ck_assert_str_eq(s, "LEVEL           TIME  REASON\n"
                            "little            3h  x\n"
                            "little+2big  1h 4min  → y\n"
                            "mid1              5s\n");
        free(s);
        /* Without the header, its widths do not count. */
        s = capture(print_table, &bare);
        ck_assert_str_eq(s, "little            3h  x\n"
                            "little+2big  1h 4min  → y\n"
                            "mid1              5s\n");
        free(s);
        s = capture(print_table, &fancy);
        ck_assert_str_eq(s, "\033[4mLEVEL      \033[0m  \033[4m   TIME\033[0m  \033[4mREASON\033[0m\n"
                            "little            3h  x\n"
                            "little+2big  1h 4min  → y\n"
                            "mid1              5s\n");
        free(s);
}
END_TEST

START_TEST(test_table_empty)
{
        struct table *t = NULL;

        ck_assert_int_eq(table_new(&t, 2), 0);
        ck_assert_uint_eq(table_rows(t), 0);
        table_free(t);
        table_free(NULL);
}
END_TEST

/* args_parse() on an argv; returns what it returned, the status in *status. */
static int parse(struct ctl_args *a, int *status, const char *const *argv)
{
        int argc = 0;
        verb_fn fn = NULL;
        int r;

        while (argv[argc])
                argc++;
        *status = -1;
        r = args_parse(argc, (char **)argv, a, &fn, status);
        if (r == 0)
                ck_assert_ptr_nonnull(fn);
        return r;
}

#define ARGV(...) ((const char *const[]){ "switchctl", __VA_ARGS__, NULL })

START_TEST(test_args_defaults)
{
        const char *const argv[] = { "switchctl", NULL };
        struct ctl_args a;
        int status;

        ck_assert_int_eq(parse(&a, &status, argv), 0);
        ck_assert_str_eq(a.verb, "status");
        ck_assert_uint_eq(a.n_positional, 0);
        ck_assert(a.legend && a.pager && a.ask_password && !a.json && !a.persist && !a.all);
        ck_assert(a.duration == 3600 * SEC);
        ck_assert_ptr_null(a.reason);
        ck_assert_ptr_null(a.command);
        args_done(&a);
}
END_TEST

START_TEST(test_args_hold)
{
        struct ctl_args a;
        int status;

        ck_assert_int_eq(parse(&a, &status,
                               ARGV("--no-legend", "hold", "--for", "2h30min", "big", "--reason=x y",
                                    "--no-ask-password")),
                         0);
        ck_assert_str_eq(a.verb, "hold");
        ck_assert_uint_eq(a.n_positional, 1);
        ck_assert_str_eq(a.positional[0], "big");
        ck_assert(a.duration == 9000 * SEC);
        ck_assert_str_eq(a.reason, "x y");
        ck_assert(!a.legend && !a.ask_password && a.pager);
        args_done(&a);
}
END_TEST

START_TEST(test_args_hold_command)
{
        struct ctl_args a;
        int status;

        /* After "--" everything is the command's, options included. The
         * command points into argv: keep it alive. */
        const char *const argv[] = { "switchctl", "hold", "big", "--", "make", "--all", "-j2", NULL };

        ck_assert_int_eq(parse(&a, &status, argv), 0);
        ck_assert_uint_eq(a.n_positional, 1);
        ck_assert_ptr_nonnull(a.command);
        ck_assert_str_eq(a.command[0], "make");
        ck_assert_str_eq(a.command[1], "--all");
        ck_assert_str_eq(a.command[2], "-j2");
        ck_assert_ptr_null(a.command[3]);
        ck_assert(!a.all);
        args_done(&a);

        /* "--" with nothing after it: no command. */
        ck_assert_int_eq(parse(&a, &status, ARGV("hold", "big", "--")), 0);
        ck_assert_ptr_null(a.command);
        args_done(&a);

        /* Before the verb, "--" only ends the options. */
        ck_assert_int_eq(parse(&a, &status, ARGV("--for", "1min", "--", "hold", "big")), 0);
        ck_assert_str_eq(a.verb, "hold");
        ck_assert_str_eq(a.positional[0], "big");
        ck_assert_uint_eq(a.n_positional, 1);
        ck_assert_ptr_null(a.command);
        args_done(&a);

        /* Other verbs take what follows "--" as arguments. */
        ck_assert_int_eq(parse(&a, &status, ARGV("check-config", "--", "-odd.conf")), 0);
        ck_assert_ptr_null(a.command);
        ck_assert_uint_eq(a.n_positional, 1);
        ck_assert_str_eq(a.positional[0], "-odd.conf");
        args_done(&a);
}
END_TEST

START_TEST(test_args_read_verbs)
{
        struct ctl_args a;
        int status;

        ck_assert_int_eq(parse(&a, &status, ARGV("history", "-n", "5", "--json", "--no-pager")), 0);
        ck_assert_uint_eq(a.lines, 5);
        ck_assert(a.json && !a.pager);
        args_done(&a);
        ck_assert_int_eq(parse(&a, &status, ARGV("-n5", "history")), 0);
        ck_assert_uint_eq(a.lines, 5);
        args_done(&a);
        ck_assert_int_eq(parse(&a, &status, ARGV("release", "--all")), 0);
        ck_assert(a.all);
        ck_assert_uint_eq(a.n_positional, 0);
        args_done(&a);
        ck_assert_int_eq(parse(&a, &status, ARGV("check-config", "/tmp/x.conf")), 0);
        ck_assert_str_eq(a.positional[0], "/tmp/x.conf");
        args_done(&a);
        ck_assert_int_eq(parse(&a, &status,
                               ARGV("record", "--duration", "5min", "t.csv", "--interval", "10ms")), 0);
        ck_assert_str_eq(a.positional[0], "t.csv");
        ck_assert_str_eq(a.record_duration, "5min");
        ck_assert_str_eq(a.record_interval, "10ms");
        args_done(&a);
}
END_TEST

START_TEST(test_args_usage_errors)
{
        const char *const *cases[] = {
                ARGV("hold", "big", "--for", "soon"),
                ARGV("hold", "big", "--for", "0s"),
                ARGV("hold", "big", "--for"),
                ARGV("hold"),
                ARGV("hold", "big", "--persist", "--", "true"),
                ARGV("status", "--persist"),
                ARGV("stats", "--all"),
                ARGV("monitor", "--json"),
                ARGV("release"),
                ARGV("release", "1", "--all"),
                ARGV("history", "-n", "-1"),
                /* " -1" is 4294967295 to strtoul() with a 32-bit long */
                ARGV("history", "-n", " -1"),
                ARGV("history", "-n", "+1"),
                ARGV("history", "-n", "4294967296"),
                ARGV("history", "extra"),
                ARGV("check-config", "a", "b"),
                ARGV("record"),
                ARGV("record", "a", "b"),
                ARGV("record", "t.csv", "--duration"),
                ARGV("status", "--duration", "1s"),
                ARGV("hold", "big", "--interval", "1s"),
                ARGV("nonsense"),
                ARGV("--nonsense"),
                ARGV("status", "--", "ls"),
                ARGV("hold", "--", "big"),
        };

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct ctl_args a;
                int status;

                ck_assert_msg(parse(&a, &status, cases[i]) == 1, "case %zu accepted", i);
                ck_assert_int_eq(status, 64);
                args_done(&a);
        }
}
END_TEST

START_TEST(test_args_help)
{
        struct ctl_args a;
        int status;

        ck_assert_int_eq(parse(&a, &status, ARGV("hold", "--help")), 1);
        ck_assert_int_eq(status, 0);
        args_done(&a);
        ck_assert_int_eq(parse(&a, &status, ARGV("--version")), 1);
        ck_assert_int_eq(status, 0);
        args_done(&a);
}
END_TEST

START_TEST(test_report_errors)
{
        static const struct {
                const char *name;
                int status;
        } cases[] = {
                { "org.freedesktop.DBus.Error.ServiceUnknown", 69 },
                { "org.freedesktop.DBus.Error.NameHasNoOwner", 69 },
                { "org.freedesktop.DBus.Error.AccessDenied", 4 },
                { "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired", 4 },
                { "org.bigLittle.Switch1.Error.UnknownLevel", 64 },
                { "org.bigLittle.Switch1.Error.InvalidDuration", 64 },
                { "org.bigLittle.Switch1.Error.InvalidReason", 64 },
                { "org.bigLittle.Switch1.Error.TooManyHolds", 1 },
                { "org.bigLittle.Switch1.Error.NoSuchHold", 1 },
                { "org.bigLittle.Switch1.Error.ReloadRefused", 1 },
                { "org.bigLittle.Switch1.Error.UnknownLevelX", 1 },
                { "org.freedesktop.DBus.Error.NoReply", 1 },
                { "org.freedesktop.DBus.Error.UnknownMethod", 1 },
                { "org.example.Other", 1 },
        };

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                sd_bus_error e = SD_BUS_ERROR_NULL;

                sd_bus_error_set(&e, cases[i].name, "message");
                ck_assert_msg(client_report(&e, -EIO) == cases[i].status, "%s", cases[i].name);
                sd_bus_error_free(&e);
        }
        ck_assert_int_eq(client_report(NULL, -ECONNRESET), 1);
}
END_TEST

/* A GetAll reply as a newer (or older) daemon might send it: unknown
 * properties and known ones of another type are passed over. */
START_TEST(test_parse_status)
{
        sd_bus *bus = NULL;
        sd_bus_message *m = NULL;
        struct ctl_status st;
        const double demand = 512.5, wrong_temperature = 61.5;
        const char *const levels[] = { "little", "big", NULL };
        int fds[2];

        /* A message needs an open bus, not a peer: one end of a socket pair does. */
        ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
        ck_assert_int_ge(sd_bus_new(&bus), 0);
        ck_assert_int_ge(sd_bus_set_fd(bus, fds[0], fds[0]), 0);
        ck_assert_int_ge(sd_bus_start(bus), 0);
        ck_assert_int_ge(sd_bus_message_new_signal(bus, &m, "/org/bigLittle/Switch1", "org.example.Test",
                                                   "Test"),
                         0);
        ck_assert_int_ge(sd_bus_message_open_container(m, 'a', "{sv}"), 0);
        ck_assert_int_ge(sd_bus_message_append(m, "{sv}", "Mode", "s", "mp"), 0);
        ck_assert_int_ge(sd_bus_message_append(m, "{sv}", "FutureThing", "a{ss}", 1, "a", "b"), 0);
        ck_assert_int_ge(sd_bus_message_append(m, "{sv}", "Level", "s", "little+1big"), 0);
        ck_assert_int_ge(sd_bus_message_append(m, "{sv}", "Temperature", "d", wrong_temperature), 0);
        ck_assert_int_ge(sd_bus_message_append(m, "{sv}", "Demand", "d", demand), 0);
        ck_assert_int_ge(sd_bus_message_append(m, "{sv}", "Switches", "t", UINT64_C(9)), 0);
        ck_assert_int_ge(sd_bus_message_open_container(m, 'e', "sv"), 0);
        ck_assert_int_ge(sd_bus_message_append(m, "s", "Levels"), 0);
        ck_assert_int_ge(sd_bus_message_open_container(m, 'v', "as"), 0);
        ck_assert_int_ge(sd_bus_message_append_strv(m, (char **)levels), 0);
        ck_assert_int_ge(sd_bus_message_close_container(m), 0);
        ck_assert_int_ge(sd_bus_message_close_container(m), 0);
        ck_assert_int_ge(sd_bus_message_append(m, "{sv}", "Holds", "a(usuisssttb)", 1, 4, "big", 1000, 42, "",
                                               ":1.1", "why", UINT64_C(1), UINT64_C(2), 1),
                         0);
        ck_assert_int_ge(sd_bus_message_append(m, "{sv}", "Scores", "a{sd}", 2, "pelt", 1.5, "psi", 2.5), 0);
        ck_assert_int_ge(sd_bus_message_append(m, "{sv}", "TimeInLevel", "a{st}", 1, "big", UINT64_C(77)), 0);
        ck_assert_int_ge(sd_bus_message_close_container(m), 0);
        ck_assert_int_ge(sd_bus_message_seal(m, 1, 0), 0);
        ck_assert_int_ge(sd_bus_message_rewind(m, true), 0);

        ck_assert_int_eq(client_parse_status(m, &st), 0);
        ck_assert_str_eq(st.mode, "mp");
        ck_assert_str_eq(st.level, "little+1big");
        ck_assert_ptr_null(st.target_level);
        ck_assert_int_eq(st.temperature, -1);
        ck_assert(st.demand == demand);
        ck_assert(st.switches == 9);
        ck_assert_str_eq(st.levels[0], "little");
        ck_assert_str_eq(st.levels[1], "big");
        ck_assert_ptr_null(st.levels[2]);
        ck_assert_uint_eq(st.n_holds, 1);
        ck_assert_uint_eq(st.holds[0].id, 4);
        ck_assert_str_eq(st.holds[0].level, "big");
        ck_assert_uint_eq(st.holds[0].uid, 1000);
        ck_assert_int_eq(st.holds[0].pid, 42);
        ck_assert_str_eq(st.holds[0].reason, "why");
        ck_assert(st.holds[0].persist);
        ck_assert(st.holds[0].until_wall == 2);
        ck_assert_uint_eq(st.n_scores, 2);
        ck_assert_str_eq(st.scores[1].name, "psi");
        ck_assert(st.scores[1].value == 2.5);
        ck_assert(client_time_in(&st, "big") == 77);
        ck_assert(client_time_in(&st, "little") == 0);
        client_status_done(&st);
        ck_assert_ptr_null(st.mode);
        ck_assert_int_eq(st.temperature, -1);

        sd_bus_message_unref(m);
        sd_bus_close_unref(bus);
        close(fds[1]);
}
END_TEST

static Suite *units_suite(void)
{
        Suite *s = suite_create("switchctl units");
        TCase *tc = tcase_create("durations");

        tcase_add_test(tc, test_duration_parse);
        tcase_add_test(tc, test_duration_parse_refuses);
        tcase_add_test(tc, test_duration_format);
        tcase_add_test(tc, test_duration_round_trip);
        suite_add_tcase(s, tc);

        tc = tcase_create("output");
        tcase_add_test(tc, test_display_width);
        tcase_add_test(tc, test_json_string);
        tcase_add_test(tc, test_format_percent_and_wall);
        tcase_add_test(tc, test_table);
        tcase_add_test(tc, test_table_empty);
        suite_add_tcase(s, tc);

        tc = tcase_create("arguments");
        tcase_add_test(tc, test_args_defaults);
        tcase_add_test(tc, test_args_hold);
        tcase_add_test(tc, test_args_hold_command);
        tcase_add_test(tc, test_args_read_verbs);
        tcase_add_test(tc, test_args_usage_errors);
        tcase_add_test(tc, test_args_help);
        tcase_add_test(tc, test_report_errors);
        suite_add_tcase(s, tc);

        tc = tcase_create("bus");
        tcase_add_test(tc, test_parse_status);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(units_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
