/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cpuset backend: its rules alone (the target of a group, systemd's CPU
 * masks, the saved-state text), and its cgroupfs half against a umockdev
 * testbed with a cgroup v2 tree, shaped like an Exynos 5422 (LITTLE 0-3,
 * big 4-7). The systemd half is tested with a fake systemd in
 * tests/integration/check_cpuset_backend.c.
 *
 * The kernel's refusals are played by write-watch.c. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <umockdev.h>

#include "backends/backend.h"
#include "backends/cpuset.h"
#include "backends/systemd-unit.h"
#include "tests/unit/umockdev-main.h"
#include "tests/unit/write-watch.h"

static bl_cpumask set_of(const char *list)
{
        bl_cpumask s;

        ck_assert_int_eq(cpumask_parse(&s, list), 0);
        return s;
}

static void assert_set(const bl_cpumask *s, const char *want)
{
        char text[256];

        cpumask_format(s, text, sizeof(text));
        ck_assert_str_eq(text, want);
}

static int target(const char *level, const char *recorded, bl_cpumask *ret)
{
        bl_cpumask l = set_of(level), r = set_of(recorded), all = set_of("0-7");

        return cpuset_group_target(&l, recorded[0] == '\0', &r, &all, ret);
}

START_TEST(target_is_the_level_within_the_setting)
{
        bl_cpumask t;

        ck_assert_int_eq(target("0-3", "", &t), 1);
        assert_set(&t, "0-3");
        ck_assert_int_eq(target("4-7", "0-5", &t), 1);
        assert_set(&t, "4-5");
        ck_assert_int_eq(target("0-3", "0-5", &t), 1);
        assert_set(&t, "0-3");
        ck_assert_int_eq(target("0-4", "2,4,6", &t), 1);
        assert_set(&t, "2,4");
        /* Nothing in common: the group keeps its own setting. */
        ck_assert_int_eq(target("0-3", "4-7", &t), 0);
        /* The whole setting: kept as it is, so "" stays "". */
        ck_assert_int_eq(target("0-7", "", &t), 0);
        ck_assert_int_eq(target("0-7", "0-5", &t), 0);
        ck_assert_int_eq(target("4-5", "4-5", &t), 0);
}
END_TEST

START_TEST(mask_from_and_to_cpus)
{
        struct systemd_cpus m;
        bl_cpumask s;
        static const uint8_t trailing[] = { 0x0f, 0x00 };
        uint8_t big[SYSTEMD_CPUS_MAX_BYTES + 1] = { 0 };

        s = set_of("0-5");
        systemd_cpus_from_set(&s, &m);
        ck_assert_uint_eq(m.n, 1);
        ck_assert_uint_eq(m.bytes[0], 0x3f);
        s = set_of("0,9");
        systemd_cpus_from_set(&s, &m);
        ck_assert_uint_eq(m.n, 2);
        ck_assert_uint_eq(m.bytes[0], 0x01);
        ck_assert_uint_eq(m.bytes[1], 0x02);
        cpumask_zero(&s);
        systemd_cpus_from_set(&s, &m);
        ck_assert_uint_eq(m.n, 0);
        cpumask_zero(&s);
        cpumask_set(&s, BL_MAX_CPUS - 1);
        systemd_cpus_from_set(&s, &m);
        ck_assert_uint_eq(m.n, SYSTEMD_CPUS_MAX_BYTES);
        ck_assert_uint_eq(m.bytes[SYSTEMD_CPUS_MAX_BYTES - 1], 0x80);

        ck_assert_int_eq(systemd_cpus_from_bytes(trailing, sizeof(trailing), &m), 0);
        ck_assert_uint_eq(m.n, 2);
        systemd_cpus_to_set(&m, &s);
        assert_set(&s, "0-3");
        ck_assert_int_eq(systemd_cpus_from_bytes(big, sizeof(big), &m), -E2BIG);
        ck_assert_int_eq(systemd_cpus_from_bytes(NULL, 0, &m), 0);
        systemd_cpus_to_set(&m, &s);
        ck_assert(cpumask_empty(&s));
}
END_TEST

START_TEST(mask_as_hex)
{
        static const uint8_t bytes[] = { 0x3f, 0x00, 0xa5 };
        struct systemd_cpus m;
        char hex[16];

        ck_assert_int_eq(systemd_cpus_from_bytes(bytes, sizeof(bytes), &m), 0);
        ck_assert_uint_eq(systemd_cpus_format_hex(&m, hex, sizeof(hex)), 6);
        ck_assert_str_eq(hex, "3f00a5");
        /* Cut at a whole byte. */
        ck_assert_uint_eq(systemd_cpus_format_hex(&m, hex, 6), 6);
        ck_assert_str_eq(hex, "3f00");
        ck_assert_int_eq(systemd_cpus_parse_hex("3F00a5", &m), 0);
        ck_assert_uint_eq(m.n, 3);
        ck_assert_mem_eq(m.bytes, bytes, 3);
        ck_assert_int_eq(systemd_cpus_parse_hex("", &m), 0);
        ck_assert_uint_eq(m.n, 0);
        ck_assert_uint_eq(systemd_cpus_format_hex(&m, hex, sizeof(hex)), 0);
        ck_assert_str_eq(hex, "");
        ck_assert_int_eq(systemd_cpus_parse_hex("3", &m), -EINVAL);
        ck_assert_int_eq(systemd_cpus_parse_hex("zz", &m), -EINVAL);
        ck_assert_int_eq(systemd_cpus_parse_hex("0x3f", &m), -EINVAL);
        ck_assert_int_eq(systemd_cpus_parse_hex(" 3f", &m), -EINVAL);
}
END_TEST

START_TEST(unit_names)
{
        ck_assert(systemd_unit_name_supported("system.slice"));
        ck_assert(systemd_unit_name_supported("user-1000.slice"));
        ck_assert(systemd_unit_name_supported("nginx.service"));
        ck_assert(systemd_unit_name_supported("session-2.scope"));
        ck_assert(!systemd_unit_name_supported("sshd.socket"));
        ck_assert(!systemd_unit_name_supported(".slice"));
        ck_assert(!systemd_unit_name_supported("work"));
        ck_assert(!systemd_unit_name_supported("a/b.slice"));
}
END_TEST

START_TEST(saved_text_parses)
{
        struct cpuset_saved s;
        char detail[256] = "";

        ck_assert_int_eq(cpuset_saved_parse("manager=cgroupfs\ngroup=system.slice \"\"\n"
                                            "group=bigLittle.slice/work \"0-5\"\n",
                                            &s, detail, sizeof(detail)), 0);
        ck_assert_int_eq(s.manager, BL_CPUSET_MANAGER_CGROUPFS);
        ck_assert_uint_eq(s.ngroups, 2);
        ck_assert_str_eq(s.groups[0].path, "system.slice");
        ck_assert_str_eq(s.groups[0].value, "");
        ck_assert_str_eq(s.groups[1].path, "bigLittle.slice/work");
        ck_assert_str_eq(s.groups[1].value, "0-5");

        /* Order does not matter; systemd's values are masks. */
        ck_assert_int_eq(cpuset_saved_parse("group=user.slice \"3f00\"\nmanager=systemd\n", &s, detail,
                                            sizeof(detail)), 0);
        ck_assert_int_eq(s.manager, BL_CPUSET_MANAGER_SYSTEMD);
        ck_assert_uint_eq(s.ngroups, 1);
        ck_assert_str_eq(s.groups[0].value, "3f00");
}
END_TEST

static const struct {
        const char *text, *detail;
} damaged[] = {
        { "", "manager: missing" },
        { "manager=cgroupfs\n", "group: missing" },
        { "manager=bogus\ngroup=a \"\"\n", "manager: expected systemd or cgroupfs, got \"bogus\"" },
        { "manager=cgroupfs\nmanager=cgroupfs\ngroup=a \"\"\n", "manager: given twice" },
        { "manager=cgroupfs\ngroup=a\n", "group: expected PATH \"VALUE\", got \"a\"" },
        { "manager=cgroupfs\ngroup=a 0-3\n", "group: a: expected a quoted value, got 0-3" },
        { "manager=cgroupfs\ngroup=a \"0\"1\"\n", "group: a: expected a quoted value, got \"0\"1\"" },
        { "manager=cgroupfs\ngroup=../x \"\"\n", "group: expected a cgroup path, got \"../x\"" },
        { "manager=cgroupfs\ngroup=/x \"\"\n", "group: expected a cgroup path, got \"/x\"" },
        { "manager=cgroupfs\ngroup=a \"\"\ngroup=a \"1\"\n", "group: a given twice" },
        { "manager=cgroupfs\ngroup=a \"x-y\"\n", "group: a: expected a CPU list, got \"x-y\"" },
        { "manager=systemd\ngroup=a.slice \"zz\"\n",
          "group: a.slice: expected a unit and a CPU mask in hex, got \"zz\"" },
        { "manager=systemd\ngroup=work \"\"\n",
          "group: work: expected a unit and a CPU mask in hex, got \"\"" },
        { "manager=cgroupfs\ngroup=a \"\"\nonline=0-7\n", "online: not a setting of the cpuset backend" },
        { "garbage\n", "garbage: expected key=value" },
};

START_TEST(saved_text_damaged)
{
        struct cpuset_saved s;
        char detail[256] = "";

        ck_assert_int_eq(cpuset_saved_parse(damaged[_i].text, &s, detail, sizeof(detail)), -EINVAL);
        ck_assert_str_eq(detail, damaged[_i].detail);
}
END_TEST

START_TEST(select_only_when_configured)
{
        struct bl_topology t = { 0 };
        char why[256];

        t.ncpus = 8;
        t.present = set_of("0-7");
        t.can_offline = set_of("1-7");
        ck_assert_ptr_eq(backend_select(BL_BACKEND_CPUSET, &t, why, sizeof(why)), &backend_cpuset);
        ck_assert_str_eq(why, "configured");
        ck_assert_ptr_eq(backend_select(BL_BACKEND_AUTO, &t, why, sizeof(why)), &backend_hotplug);
        ck_assert_str_eq(backend_cpuset.name, "cpuset");
}
END_TEST

static UMockdevTestbed *testbed;
static gchar *sys_dir;
static struct bl_topology topo;
static struct bl_ladder ladder;
static struct bl_config cfg;

static const char *real_path(const char *sys_path)
{
        static char path[4][512];
        static unsigned next;
        char *p = path[next++ % 4];

        ck_assert(strncmp(sys_path, "/sys/", 5) == 0);
        snprintf(p, sizeof(path[0]), "%s/%s", sys_dir, sys_path + 5);
        return p;
}

static void put(const char *sys_path, const char *text)
{
        FILE *f = fopen(real_path(sys_path), "w");

        ck_assert_msg(f != NULL, "%s: %s", sys_path, strerror(errno));
        fputs(text, f);
        ck_assert_int_eq(fclose(f), 0);
}

static void assert_file(const char *sys_path, const char *want)
{
        char text[256] = "";
        FILE *f = fopen(real_path(sys_path), "r");

        ck_assert_msg(f != NULL, "%s: %s", sys_path, strerror(errno));
        if (!fgets(text, sizeof(text), f))
                text[0] = '\0';
        fclose(f);
        text[strcspn(text, "\n")] = '\0';
        ck_assert_msg(strcmp(text, want) == 0, "%s is \"%s\", expected \"%s\"", sys_path, text, want);
}

#define SYSTEM_CPUS "/sys/fs/cgroup/system.slice/cpuset.cpus"
#define USER_CPUS "/sys/fs/cgroup/user.slice/cpuset.cpus"

static struct write_watch *watch(const char *sys_path)
{
        return write_watch_add(real_path(sys_path));
}

/* The next 'n' writes to 'sys_path' fail with 'error'. */
static struct write_watch *refuse(const char *sys_path, unsigned n, int error)
{
        struct write_watch *w = watch(sys_path);

        w->fail_next = n;
        w->error = error;
        return w;
}

static void cgroup_setup(void)
{
        char dir[512];

        write_watch_reset();
        testbed = umockdev_testbed_new();
        sys_dir = umockdev_testbed_get_sys_dir(testbed);
        snprintf(dir, sizeof(dir), "%s/fs/cgroup/system.slice", sys_dir);
        ck_assert_int_eq(g_mkdir_with_parents(dir, 0755), 0);
        snprintf(dir, sizeof(dir), "%s/fs/cgroup/user.slice", sys_dir);
        ck_assert_int_eq(g_mkdir_with_parents(dir, 0755), 0);
        put("/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
        put("/sys/fs/cgroup/cgroup.subtree_control", "cpu cpuset io memory pids\n");
        put(SYSTEM_CPUS, "\n");
        put(USER_CPUS, "0-5\n");

        memset(&topo, 0, sizeof(topo));
        topo.ncpus = 8;
        topo.present = set_of("0-7");
        topo.online = set_of("0-7");
        memset(&ladder, 0, sizeof(ladder));
        ladder.mode = BL_MODE_CLUSTER;
        ladder.nlevels = 2;
        snprintf(ladder.levels[0].name, BL_NAME_MAX, "little");
        ladder.levels[0].cpus = set_of("0-3");
        snprintf(ladder.levels[1].name, BL_NAME_MAX, "big");
        ladder.levels[1].cpus = set_of("4-7");
        config_init(&cfg, NULL);
        cfg.cpuset_manager = BL_CPUSET_MANAGER_CGROUPFS;
}

static void cgroup_teardown(void)
{
        write_watch_reset();
        g_free(sys_dir);
        g_object_unref(testbed);
}

static struct bl_backend *open_backend(struct bl_diag *diag)
{
        struct bl_backend *b = NULL;

        diag_init(diag);
        ck_assert_int_eq(backend_cpuset.open(&b, &topo, &ladder, &cfg, diag), 0);
        ck_assert_ptr_nonnull(b);
        return b;
}

static int apply(struct bl_backend *b, const char *cpus, char *detail, size_t size)
{
        bl_cpumask s = set_of(cpus);

        return backend_cpuset.apply(b, &s, detail, size);
}

START_TEST(switch_and_restore_exactly)
{
        struct bl_diag diag;
        struct bl_backend *b = open_backend(&diag);
        struct write_watch *w;
        char detail[256];

        ck_assert_uint_eq(diag.n, 0);
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "system.slice 4-7, user.slice 4-5 (cgroupfs); 2 writes");
        assert_file(SYSTEM_CPUS, "4-7");
        assert_file(USER_CPUS, "4-5");

        /* The same level again: read, found right, not written. */
        w = watch(SYSTEM_CPUS);
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "system.slice 4-7, user.slice 4-5 (cgroupfs); no write");
        ck_assert_uint_eq(w->writes, 0);

        /* Compared as CPU sets: the kernel's "4,5,6,7" is "4-7". */
        put(SYSTEM_CPUS, "4,5,6,7\n");
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "system.slice 4-7, user.slice 4-5 (cgroupfs); no write");

        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "system.slice 0-3, user.slice 0-3 (cgroupfs); 2 writes");

        ck_assert_int_eq(backend_cpuset.restore(b, detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "as found: system.slice unrestricted, user.slice 0-5 (cgroupfs); 2 writes");
        assert_file(SYSTEM_CPUS, "");
        assert_file(USER_CPUS, "0-5");
        backend_cpuset.free(b);
}
END_TEST

START_TEST(refused_write_puts_back_the_groups_before)
{
        struct bl_diag diag;
        struct bl_backend *b = open_backend(&diag);
        struct write_watch *w;
        char detail[256];

        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        w = refuse(USER_CPUS, 3, EBUSY);
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), -EBUSY);
        ck_assert_str_eq(detail, "user.slice: writing cpuset.cpus \"4-5\" failed after 3 tries: Device or "
                                 "resource busy; groups written before put back");
        ck_assert_uint_eq(w->writes, 3);
        assert_file(SYSTEM_CPUS, "0-3");
        assert_file(USER_CPUS, "0-3");

        /* A refusal that passes is retried, and said. */
        w->fail_next = 1;
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "system.slice 4-7, user.slice 4-5 (cgroupfs); 2 writes, 1 retry");
        assert_file(USER_CPUS, "4-5");
        backend_cpuset.free(b);
}
END_TEST

/* cgroup v2 refuses to clear the list of a group with tasks (ENOSPC): the
 * level with every CPU, and the restore, then name every CPU the group may
 * use, and say so. Once refused, a switch writes the numbers at once; the
 * restore tries to clear it again, since the tasks may be gone. */
START_TEST(clearing_refused_names_every_cpu)
{
        struct bl_diag diag;
        struct bl_backend *b = open_backend(&diag);
        struct write_watch *w;
        char detail[256];

        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        w = refuse(SYSTEM_CPUS, 1, ENOSPC);
        ck_assert_int_eq(apply(b, "0-7", detail, sizeof(detail)), 0);
        ck_assert_uint_eq(w->writes, 2);
        ck_assert_str_eq(detail, "system.slice 0-7 (by number: a group with tasks cannot be cleared), "
                                 "user.slice 0-5 (cgroupfs); 2 writes");
        assert_file(SYSTEM_CPUS, "0-7");
        assert_file(USER_CPUS, "0-5");

        /* Down and up again: one write each way, no refused one. */
        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        w->writes = 0;
        ck_assert_int_eq(apply(b, "0-7", detail, sizeof(detail)), 0);
        ck_assert_uint_eq(w->writes, 1);
        assert_file(SYSTEM_CPUS, "0-7");
        /* Every CPU by number is where that level is: nothing to write. */
        ck_assert_int_eq(apply(b, "0-7", detail, sizeof(detail)), 0);
        ck_assert_uint_eq(w->writes, 1);

        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        w->writes = 0;
        w->fail_next = 1;
        ck_assert_int_eq(backend_cpuset.restore(b, detail, sizeof(detail)), 0);
        ck_assert_uint_eq(w->writes, 2);
        ck_assert_str_eq(detail, "as found: system.slice 0-7 (by number: a group with tasks cannot be "
                                 "cleared), user.slice 0-5 (cgroupfs); 2 writes");
        assert_file(SYSTEM_CPUS, "0-7");
        assert_file(USER_CPUS, "0-5");

        /* The tasks gone, the restore clears it as found. */
        ck_assert_int_eq(backend_cpuset.restore(b, detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "as found: system.slice unrestricted, user.slice 0-5 (cgroupfs); 1 write");
        assert_file(SYSTEM_CPUS, "");
        backend_cpuset.free(b);
}
END_TEST

START_TEST(restore_goes_on_after_a_failure)
{
        struct bl_diag diag;
        struct bl_backend *b = open_backend(&diag);
        char detail[256];

        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        refuse(SYSTEM_CPUS, 3, EACCES);
        ck_assert_int_eq(backend_cpuset.restore(b, detail, sizeof(detail)), -EACCES);
        ck_assert_str_eq(detail,
                         "system.slice: writing cpuset.cpus \"\" failed after 3 tries: Permission denied");
        assert_file(SYSTEM_CPUS, "4-7");
        assert_file(USER_CPUS, "0-5");
        backend_cpuset.free(b);
}
END_TEST

START_TEST(group_outside_a_level_keeps_its_setting)
{
        struct bl_diag diag;
        struct bl_backend *b;
        char detail[256];

        put(USER_CPUS, "6-7\n");
        b = open_backend(&diag);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], "cpuset: user.slice is set to CPUs 6-7, which level little has none "
                                      "of; there it keeps that setting");
        ck_assert_int_eq(apply(b, "0-3", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "system.slice 0-3, user.slice 6-7 (cgroupfs); 1 write");
        assert_file(USER_CPUS, "6-7");
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "system.slice 4-7, user.slice 6-7 (cgroupfs); 1 write");
        backend_cpuset.free(b);
}
END_TEST

START_TEST(open_needs_cgroup2_and_the_controller)
{
        struct bl_backend *b = NULL;
        struct bl_diag diag;

        diag_init(&diag);
        put("/sys/fs/cgroup/cgroup.subtree_control", "cpu io memory pids\n");
        ck_assert_int_eq(backend_cpuset.open(&b, &topo, &ladder, &cfg, &diag), -EOPNOTSUPP);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], "cpuset: system.slice: the cpuset controller is not enabled for it; "
                                      "enable it with "
                                      "\"echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control\" "
                                      "(bigLittled does not enable controllers itself)");

        diag_init(&diag);
        put("/sys/fs/cgroup/cgroup.subtree_control", "cpuset\n");
        snprintf(cfg.cpuset_groups[1], sizeof(cfg.cpuset_groups[1]), "machine.slice");
        ck_assert_int_eq(backend_cpuset.open(&b, &topo, &ladder, &cfg, &diag), -ENOENT);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], "cpuset: machine.slice: no such cgroup");

        diag_init(&diag);
        ck_assert_int_eq(unlink(real_path("/sys/fs/cgroup/cgroup.controllers")), 0);
        ck_assert_int_eq(backend_cpuset.open(&b, &topo, &ladder, &cfg, &diag), -EOPNOTSUPP);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0], "cpuset: no cgroup v2 hierarchy at /sys/fs/cgroup (cgroup.controllers: "
                                      "No such file or directory); the cpuset backend needs the unified "
                                      "hierarchy");
        ck_assert_ptr_null(b);
}
END_TEST

START_TEST(saved_state_restores_after_a_crash)
{
        struct bl_diag diag;
        struct bl_backend *b = open_backend(&diag);
        char text[512], detail[256];

        ck_assert_int_eq(backend_cpuset.save(b, text, sizeof(text)), 0);
        ck_assert_str_eq(text, "manager=cgroupfs\ngroup=system.slice \"\"\ngroup=user.slice \"0-5\"\n");
        ck_assert_int_eq(backend_cpuset.save(b, text, 40), -ENOBUFS);
        ck_assert_int_eq(apply(b, "4-7", detail, sizeof(detail)), 0);
        /* The run dies here: no restore, no free. */
        ck_assert_int_eq(backend_cpuset.save(b, text, sizeof(text)), 0);
        ck_assert_int_eq(backend_cpuset.restore_saved(&topo, text, detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "as found: system.slice unrestricted, user.slice 0-5 (cgroupfs); 2 writes");
        assert_file(SYSTEM_CPUS, "");
        assert_file(USER_CPUS, "0-5");
        backend_cpuset.free(b);

        /* A group removed since has nothing to put back. */
        ck_assert_int_eq(backend_cpuset.restore_saved(&topo, "manager=cgroupfs\ngroup=old.slice \"1\"\n"
                                                      "group=user.slice \"0-5\"\n",
                                                      detail, sizeof(detail)), 0);
        ck_assert_str_eq(detail, "as found: old.slice 1 (gone), user.slice 0-5 (cgroupfs); no write");
}
END_TEST

START_TEST(saved_state_not_understood_changes_nothing)
{
        char detail[256];

        put(SYSTEM_CPUS, "4-7\n");
        ck_assert_int_eq(backend_cpuset.restore_saved(&topo, "manager=cgroupfs\ngroup=system.slice \"\"\n"
                                                      "group=user.slice \"x\"\n", detail, sizeof(detail)),
                         -EINVAL);
        ck_assert_str_eq(detail, "group: user.slice: expected a CPU list, got \"x\"");
        ck_assert_int_eq(backend_cpuset.restore_saved(&topo, "online=0-7\n", detail, sizeof(detail)),
                         -EINVAL);
        ck_assert_str_eq(detail, "online: not a setting of the cpuset backend");
        assert_file(SYSTEM_CPUS, "4-7");
        assert_file(USER_CPUS, "0-5");
}
END_TEST

static Suite *cpuset_suite(void)
{
        Suite *s = suite_create("cpuset backend");
        TCase *rules = tcase_create("rules"), *cgroupfs = tcase_create("cgroupfs");

        tcase_add_test(rules, target_is_the_level_within_the_setting);
        tcase_add_test(rules, mask_from_and_to_cpus);
        tcase_add_test(rules, mask_as_hex);
        tcase_add_test(rules, unit_names);
        tcase_add_test(rules, saved_text_parses);
        tcase_add_loop_test(rules, saved_text_damaged, 0, sizeof(damaged) / sizeof(damaged[0]));
        tcase_add_test(rules, select_only_when_configured);
        suite_add_tcase(s, rules);

        tcase_add_checked_fixture(cgroupfs, cgroup_setup, cgroup_teardown);
        tcase_add_test(cgroupfs, switch_and_restore_exactly);
        tcase_add_test(cgroupfs, refused_write_puts_back_the_groups_before);
        tcase_add_test(cgroupfs, restore_goes_on_after_a_failure);
        tcase_add_test(cgroupfs, clearing_refused_names_every_cpu);
        tcase_add_test(cgroupfs, group_outside_a_level_keeps_its_setting);
        tcase_add_test(cgroupfs, open_needs_cgroup2_and_the_controller);
        tcase_add_test(cgroupfs, saved_state_restores_after_a_crash);
        tcase_add_test(cgroupfs, saved_state_not_understood_changes_nothing);
        suite_add_tcase(s, cgroupfs);
        return s;
}

int main(int argc, char **argv)
{
        return umockdev_main(argc, argv, cpuset_suite);
}
