/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The installed D-Bus interface description (conf/org.bigLittle.Switch1.xml,
 * for $(datadir)/dbus-1/interfaces) against the interface the running
 * daemon serves: every method with its arguments, every property with its
 * type, access and annotations, every signal, as Introspect on the private
 * bus says, in both directions.
 *
 * After a change of the vtable, from the build directory,
 *   make check TESTS=tests/integration/check_bus_interface \
 *     INTERFACE_XML_UPDATE=$(cd .. && pwd)/conf/org.bigLittle.Switch1.xml
 * writes the source tree's file anew from the running daemon (an absolute
 * path: the test runs elsewhere); read the diff before committing.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileio.h"
#include "tests/integration/bus-client.h"
#include "tests/integration/harness.h"

#define MAX_MEMBERS 128

static const unsigned idle_load[] = { 40 };

/* One member of an interface on one line, e.g. "method Hold (in s level)
 * (in t duration_usec) (in s reason) (out u id)", annotations last. */
struct members {
        unsigned n;
        char line[MAX_MEMBERS][512];
};

/* The value of attribute 'name' in the tag text (between '<' and '>');
 * "" when it has none. */
static void attribute(const char *tag, size_t len, const char *name, char *value, size_t size)
{
        char key[64];
        const char *p = tag, *end = tag + len, *q;

        snprintf(key, sizeof(key), "%s=\"", name);
        value[0] = '\0';
        while ((p = memmem(p, (size_t)(end - p), key, strlen(key)))) {
                bool starts = p > tag && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n');

                p += strlen(key);
                q = memchr(p, '"', (size_t)(end - p));
                if (starts && q) {
                        snprintf(value, size, "%.*s", (int)(q - p), p);
                        return;
                }
        }
}

static int by_text(const void *a, const void *b)
{
        return strcmp(a, b);
}

/* The members of interface 'iface' in introspection XML, sorted; comments,
 * the DOCTYPE and other interfaces left out. */
static void interface_members(const char *xml, const char *iface, struct members *out)
{
        const char *p = xml;
        bool inside = false;
        char *member = NULL;

        out->n = 0;
        while ((p = strchr(p, '<'))) {
                const char *tag = p + 1, *gt;
                char element[32], name[128], type[128], third[128];
                size_t len, used;

                if (strncmp(p, "<!--", 4) == 0) {
                        gt = strstr(p, "-->");
                        ck_assert_msg(gt, "a comment without its end");
                        p = gt + 3;
                        continue;
                }
                gt = strchr(p, '>');
                ck_assert_msg(gt, "a tag without its '>'");
                p = gt + 1;
                len = (size_t)(gt - tag);
                if (tag[0] == '?' || tag[0] == '!' || sscanf(tag, "%31[/a-z]", element) != 1)
                        continue;
                attribute(tag, len, "name", name, sizeof(name));
                if (strcmp(element, "interface") == 0 || strcmp(element, "/interface") == 0) {
                        inside = element[0] != '/' && strcmp(name, iface) == 0;
                        continue;
                }
                if (!inside)
                        continue;
                used = member ? strlen(member) : 0;
                if (strcmp(element, "method") == 0 || strcmp(element, "signal") == 0) {
                        ck_assert_uint_lt(out->n, MAX_MEMBERS);
                        member = out->line[out->n++];
                        snprintf(member, sizeof(out->line[0]), "%s %s", element, name);
                } else if (strcmp(element, "property") == 0) {
                        ck_assert_uint_lt(out->n, MAX_MEMBERS);
                        member = out->line[out->n++];
                        attribute(tag, len, "type", type, sizeof(type));
                        attribute(tag, len, "access", third, sizeof(third));
                        snprintf(member, sizeof(out->line[0]), "property %s %s %s", name, type, third);
                } else if (strcmp(element, "arg") == 0 && member) {
                        attribute(tag, len, "type", type, sizeof(type));
                        attribute(tag, len, "direction", third, sizeof(third));
                        /* A signal's arguments go out, said or not. */
                        snprintf(member + used, sizeof(out->line[0]) - used, " (%s %s %s)",
                                 third[0] ? third : "out", type, name);
                } else if (strcmp(element, "annotation") == 0 && member) {
                        attribute(tag, len, "value", third, sizeof(third));
                        snprintf(member + used, sizeof(out->line[0]) - used, " [%s=%s]", name, third);
                }
        }
        qsort(out->line, out->n, sizeof(out->line[0]), by_text);
}

/* The lines of 'a' that 'b' lacks, one a line after 'prefix' (for the
 * failure message), into 'buf'. */
static void missing_lines(const struct members *a, const struct members *b, const char *prefix, char *buf,
                          size_t size)
{
        size_t used = strlen(buf);

        for (unsigned i = 0; i < a->n; i++) {
                bool found = false;

                for (unsigned j = 0; j < b->n && !found; j++)
                        found = strcmp(a->line[i], b->line[j]) == 0;
                if (!found && used < size)
                        used += (size_t)snprintf(buf + used, size - used, "\n  %s %s", prefix, a->line[i]);
        }
}

/* The file as the daemon would have it: its interface, in a node. */
static void write_interface_xml(const char *path, const char *xml)
{
        const char *start = strstr(xml, "<interface name=\"" BUS_CLIENT_IFACE "\"");
        const char *end = start ? strstr(start, "</interface>") : NULL;
        FILE *f;

        ck_assert_msg(start && end, "no interface %s in the introspection:\n%s", BUS_CLIENT_IFACE, xml);
        f = fopen(path, "w");
        ck_assert_msg(f, "cannot write %s", path);
        fprintf(f, "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n"
                   "\"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n"
                   "<!--\n"
                   "  SPDX-License-Identifier: GPL-2.0-or-later\n\n"
                   "  The interface bigLittled serves on the system bus at %s\n"
                   "  (bus name %s); bigLittled(8) describes each member.\n"
                   "  Written from the running daemon by tests/integration/check_bus_interface,\n"
                   "  which checks that the two stay the same.\n"
                   "-->\n"
                   "<node>\n %.*s</interface>\n</node>\n",
                BUS_CLIENT_PATH, BUS_CLIENT_NAME, (int)(end - start), start);
        ck_assert_int_eq(fclose(f), 0);
}

/* The daemon's interface as it introspects and the installed file have the
 * same members, arguments and annotations. */
START_TEST(test_installed_xml_matches_the_daemon)
{
        static struct members live, file;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_message *reply = NULL;
        _cleanup_free_ char *installed = NULL;
        char diff[8192] = "";
        const char *xml, *update = getenv("INTERFACE_XML_UPDATE");
        sd_bus *b;
        int r;

        new_board("exynos5422");
        set_load(idle_load, 1);
        harness_start_bus(NULL);
        spawn_daemon(write_config("bigLittle.conf", HARNESS_PELT_CONFIG), NULL);
        b = bus_client_wait_daemon(START_BOUND_MS);
        r = sd_bus_call_method(b, BUS_CLIENT_NAME, BUS_CLIENT_PATH, "org.freedesktop.DBus.Introspectable",
                               "Introspect", &error, &reply, NULL);
        ck_assert_msg(r >= 0, "Introspect failed: %s", error.message);
        ck_assert_int_ge(sd_bus_message_read(reply, "s", &xml), 0);
        if (update && update[0])
                write_interface_xml(update, xml);
        interface_members(xml, BUS_CLIENT_IFACE, &live);
        installed = read_whole_file(INTERFACE_XML);
        interface_members(installed, BUS_CLIENT_IFACE, &file);
        ck_assert_uint_gt(live.n, 10);
        missing_lines(&live, &file, "served, not in the file:", diff, sizeof(diff));
        missing_lines(&file, &live, "in the file, not served:", diff, sizeof(diff));
        ck_assert_msg(diff[0] == '\0',
                      "%s and the daemon differ (INTERFACE_XML_UPDATE=ABSOLUTE-PATH writes it anew, see the test):%s",
                      INTERFACE_XML, diff);
        sd_bus_message_unref(reply);
        sd_bus_unref(b);
        assert_exit_status(stop_daemon(SIGTERM), 0);
}
END_TEST

int main(void)
{
        Suite *s = suite_create("bus-interface");
        TCase *tc = tcase_create("exynos5422");

        tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
        tcase_add_test(tc, test_installed_xml_matches_the_daemon);
        suite_add_tcase(s, tc);
        return harness_main(s, "check_bus_interface");
}
