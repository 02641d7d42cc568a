/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blsim board import: the device tree reader, the kernel's capacity and
 * energy-model arithmetic (worked out again here, in floating point with
 * explicit floors, not with the importer's integer code), the sysfs reader,
 * and the errors for trees that are wrong or not big.LITTLE. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileio.h"
#include "core/board.h"
#include "sim/board-import.h"
#include "sim/dts-reader.h"

#define DTS TEST_DATA_DIR "/dts/import"
#define SYSFS TEST_DATA_DIR "/sysfs-import"

static struct bl_diag diag;
static struct import_model model;
static char tmpdir[64];

static void setup(void)
{
        diag_init(&diag);
        memset(&model, 0, sizeof(model));
        snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_board_import.XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
        char cmd[128];

        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
        ck_assert_int_eq(system(cmd), 0);
}

/* mkdir -p, for the fake sysfs trees made here. */
static int mkdir_p(const char *path)
{
        char buf[512];

        snprintf(buf, sizeof(buf), "%s", path);
        for (char *p = buf + 1; *p; p++)
                if (*p == '/') {
                        *p = '\0';
                        if (mkdir(buf, 0755) < 0 && errno != EEXIST)
                                return -errno;
                        *p = '/';
                }
        return mkdir(buf, 0755) < 0 && errno != EEXIST ? -errno : 0;
}

static void write_tmp(const char *name, const char *text)
{
        char path[256];
        FILE *f;

        snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
        f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(fputs(text, f) >= 0, 1);
        ck_assert_int_eq(fclose(f), 0);
}

static int import_tmp(const char *name)
{
        char path[256];

        snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
        return import_from_dts(&model, path, &diag);
}

/* The kernel's EM power in uW, the other way round: volts and MHz as reals. */
static uint64_t em_uw(double dpc, double hz, double uv)
{
        double mv = floor(uv / 1000.0), mhz = floor(hz / 1e6);

        return (uint64_t)floor(dpc * mv * mv * mhz / 1e6);
}

static unsigned capacity(double dmips, double fmax_khz, double scale, double khz)
{
        double cpu = floor(dmips * fmax_khz * 1024.0 / scale);

        return (unsigned)floor(cpu * khz / fmax_khz);
}

static bool has_diag(const char *needle)
{
        for (unsigned i = 0; i < diag.n; i++)
                if (strstr(diag.msg[i], needle))
                        return true;
        return false;
}

START_TEST(test_em_formula)
{
        static const struct { uint32_t dpc; uint64_t hz, uv; } cases[] = {
                { 100, 408000000, 825000 }, { 436, 1800000000, 1200000 }, { 1, 403200000, 999999 },
                { 4000, 3000000000, 1100000 },
        };

        for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
                ck_assert_uint_eq(import_em_power_uw(cases[i].dpc, cases[i].hz, cases[i].uv),
                                  em_uw(cases[i].dpc, (double)cases[i].hz, (double)cases[i].uv));
}
END_TEST

/* board.dts includes soc.dtsi (#include) and opps.dtsi (/include/), whose
 * &label overlays attach the OPP tables; one OPP is disabled. */
START_TEST(test_dts_includes_and_overlays)
{
        const double scale = fmax(485.0 * 1416000, 1024.0 * 1800000);
        const struct import_cluster *l, *b;

        ck_assert_int_eq(import_from_dts(&model, DTS "/board.dts", &diag), 0);
        ck_assert_uint_eq(diag.n, 0);
        ck_assert_str_eq(model.name, "soc6");
        ck_assert_uint_eq(model.nclusters, 2);
        l = &model.cluster[0];
        b = &model.cluster[1];
        ck_assert_str_eq(l->name, "little");
        ck_assert_str_eq(l->core, "Cortex-A53");
        ck_assert_uint_eq(l->cpus, 4);
        ck_assert_uint_eq(l->nopps, 3);         /* 1512 MHz is disabled */
        ck_assert_uint_eq(b->cpus, 2);
        ck_assert_str_eq(b->core, "Cortex-A72");
        ck_assert_uint_eq(b->nopps, 3);
        ck_assert_uint_eq(b->opp[0].khz, 408000);       /* sorted though written top down */
        ck_assert_uint_eq(b->opp[2].khz, 1800000);
        ck_assert_uint_eq(l->opp[2].capacity, capacity(485, 1416000, scale, 1416000));
        ck_assert_uint_eq(l->opp[0].capacity, capacity(485, 1416000, scale, 408000));
        ck_assert_uint_eq(b->opp[2].capacity, 1024);
        ck_assert_uint_eq(b->opp[1].capacity, capacity(1024, 1800000, scale, 1008000));
        /* the macro, the parenthesised and the hex coefficient all read as 100 */
        ck_assert_uint_eq(l->opp[1].core_uw, em_uw(100, 816e6, 850000));
        ck_assert_uint_eq(b->opp[0].core_uw, em_uw(436, 408e6, 825000));
        ck_assert_uint_eq(model.nnotes, 2);
        ck_assert_str_eq(model.note[1], "source: a made-up board for the importer's tests");
}
END_TEST

/* What dtc -I dtb -O dts gives: phandle numbers, opp-hz as two cells. */
START_TEST(test_decompiled_dtb)
{
        const double scale = fmax(530.0 * 1800000, 1024.0 * 2400000);

        ck_assert_int_eq(import_from_dts(&model, DTS "/decompiled.dts", &diag), 0);
        ck_assert_uint_eq(model.nclusters, 2);
        ck_assert_uint_eq(model.cluster[0].cpus, 2);
        ck_assert_uint_eq(model.cluster[1].cpus, 1);
        ck_assert_uint_eq(model.cluster[1].opp[1].khz, 2400000);
        ck_assert_uint_eq(model.cluster[0].opp[1].capacity, capacity(530, 1800000, scale, 1800000));
        ck_assert_uint_eq(model.cluster[0].opp[0].core_uw, em_uw(100, 1e9, 750000));
        /* opp-microwatt wins over the coefficient */
        ck_assert_uint_eq(model.cluster[1].opp[1].core_uw, 2000000);
        ck_assert_uint_eq(model.cluster[1].opp[0].core_uw, em_uw(416, 1e9, 750000));
}
END_TEST

/* DynamIQ trees: every CPU in one cpu-map cluster (here with a nested
 * cluster too); the kinds come from their OPP tables and capacities. */
static const char *const dynamiq =
        "/dts-v1/;\n"
        "/ {\n"
        "\tcpus {\n"
        "\t\tcpu-map { cluster0 {\n"
        "\t\t\tcore0 { cpu = <&c0>; }; core1 { cpu = <&c1>; }; core2 { cpu = <&c2>; };\n"
        "\t\t\tcore3 { cpu = <&c3>; }; cluster1 { core0 { cpu = <&c4>; }; };\n"
        "\t\t}; };\n"
        "\t\tc0: cpu@0 { device_type = \"cpu\"; capacity-dmips-mhz = <250>; dynamic-power-coefficient = <70>;"
        " operating-points-v2 = <&t0>; };\n"
        "\t\tc1: cpu@100 { device_type = \"cpu\"; capacity-dmips-mhz = <250>; dynamic-power-coefficient = <70>;"
        " operating-points-v2 = <&t0>; };\n"
        "\t\tc2: cpu@200 { device_type = \"cpu\"; capacity-dmips-mhz = <620>; dynamic-power-coefficient = <284>;"
        " operating-points-v2 = <&t1>; };\n"
        "\t\tc3: cpu@300 { device_type = \"cpu\"; capacity-dmips-mhz = <620>; dynamic-power-coefficient = <284>;"
        " operating-points-v2 = <&t1>; };\n"
        "\t\tc4: cpu@400 { device_type = \"cpu\"; capacity-dmips-mhz = <1024>; dynamic-power-coefficient = <650>;"
        " operating-points-v2 = <&t2>; };\n"
        "\t};\n"
        "\tt0: opp-a { opp-shared; o { opp-hz = /bits/ 64 <1800000000>; opp-microvolt = <900000>; }; };\n"
        "\tt1: opp-b { opp-shared; o { opp-hz = /bits/ 64 <2200000000>; opp-microvolt = <950000>; }; };\n"
        "\tt2: opp-c { opp-shared; o { opp-hz = /bits/ 64 <2800000000>; opp-microvolt = <1000000>; }; };\n"
        "};\n";

START_TEST(test_one_cpu_map_cluster_three_kinds)
{
        write_tmp("dynamiq.dts", dynamiq);
        ck_assert_int_eq(import_tmp("dynamiq.dts"), 0);
        ck_assert_uint_eq(model.nclusters, 3);
        ck_assert_str_eq(model.cluster[0].name, "little");
        ck_assert_str_eq(model.cluster[1].name, "mid");
        ck_assert_str_eq(model.cluster[2].name, "big");
        ck_assert_uint_eq(model.cluster[0].cpus, 2);
        ck_assert_uint_eq(model.cluster[1].cpus, 2);
        ck_assert_uint_eq(model.cluster[2].cpus, 1);
}
END_TEST

static const char *const two_kinds_head =
        "/dts-v1/;\n"                                                                           /* 1 */
        "/ {\n"                                                                                 /* 2 */
        "\tcpus {\n"                                                                            /* 3 */
        "\t\tcpu@0 { device_type = \"cpu\"; capacity-dmips-mhz = <500>;\n"                      /* 4 */
        "\t\t\tdynamic-power-coefficient = <100>; operating-points-v2 = <&t0>; };\n"            /* 5 */
        "\t\tcpu@100 { device_type = \"cpu\"; capacity-dmips-mhz = <1024>;\n";                  /* 6 */

START_TEST(test_error_undefined_opp_table)
{
        char text[2048];

        snprintf(text, sizeof(text), "%s%s", two_kinds_head,
                 "\t\t\tdynamic-power-coefficient = <400>;\n"                                   /* 7 */
                 "\t\t\toperating-points-v2 = <&foo>; };\n"                                     /* 8 */
                 "\t};\n"
                 "\tt0: opp { o { opp-hz = /bits/ 64 <1000000000>; opp-microvolt = <900000>; }; };\n"
                 "};\n");
        write_tmp("bad.dtsi", text);
        ck_assert_int_eq(import_tmp("bad.dtsi"), -EINVAL);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_str_eq(diag.msg[0],
                         "bad.dtsi:8: /cpus/cpu@100: operating-points-v2 points at &foo, which is not defined");
}
END_TEST

START_TEST(test_error_no_power_coefficient)
{
        char text[2048];

        snprintf(text, sizeof(text), "%s%s", two_kinds_head,
                 "\t\t\toperating-points-v2 = <&t0>; };\n"
                 "\t};\n"
                 "\tt0: opp { o { opp-hz = /bits/ 64 <1000000000>; opp-microvolt = <900000>; }; };\n"
                 "};\n");
        write_tmp("nodpc.dts", text);
        ck_assert_int_eq(import_tmp("nodpc.dts"), -EINVAL);
        ck_assert(has_diag("nodpc.dts:6: /cpus/cpu@100: expected \"dynamic-power-coefficient\""));
}
END_TEST

START_TEST(test_error_one_kind_refused)
{
        write_tmp("one.dts",
                  "/ { cpus {\n"
                  "\tcpu@0 { device_type = \"cpu\"; capacity-dmips-mhz = <1024>; dynamic-power-coefficient = <100>;"
                  " operating-points-v2 = <&t>; };\n"
                  "\tcpu@1 { device_type = \"cpu\"; capacity-dmips-mhz = <1024>; dynamic-power-coefficient = <100>;"
                  " operating-points-v2 = <&t>; };\n"
                  "}; t: opp { o { opp-hz = /bits/ 64 <1000000000>; opp-microvolt = <900000>; }; }; };\n");
        ck_assert_int_eq(import_tmp("one.dts"), -EINVAL);
        ck_assert(has_diag("one.dts: expected CPUs of at least two kinds"));
        ck_assert(has_diag("refuses a machine with one kind of core"));
}
END_TEST

START_TEST(test_error_syntax_names_line)
{
        write_tmp("syntax.dts", "/dts-v1/;\n/ {\n\tcpus {\n\t\tcpu@0 { reg = <0x0 ; };\n\t};\n};\n");
        ck_assert_int_eq(import_tmp("syntax.dts"), -EINVAL);
        ck_assert_uint_eq(diag.n, 1);
        ck_assert_msg(strncmp(diag.msg[0], "syntax.dts:4: ", 14) == 0, "%s", diag.msg[0]);
}
END_TEST

START_TEST(test_error_overlay_of_unknown_label)
{
        write_tmp("overlay.dts", "/dts-v1/;\n/ { };\n\n&nowhere {\n\tstatus = \"okay\";\n};\n");
        ck_assert_int_eq(import_tmp("overlay.dts"), -EINVAL);
        ck_assert_str_eq(diag.msg[0], "overlay.dts:4: &nowhere: expected a label defined before this point, got none");
}
END_TEST

START_TEST(test_error_cpu_map_nested_dangling)
{
        write_tmp("nested.dts", "/ { cpus {\n\tcpu-map { cluster0 { cluster1 { core0 {\n\t\tcpu = <&gone>;\n"
                  "\t}; }; }; };\n\tcpu@0 { device_type = \"cpu\"; };\n}; };\n");
        ck_assert_int_eq(import_tmp("nested.dts"), -EINVAL);
        ck_assert_str_eq(diag.msg[0], "nested.dts:3: /cpus/cpu-map/cluster0/cluster1/core0: cpu: points at &gone, "
                         "which is not defined");
}
END_TEST

START_TEST(test_error_cpu_map_dangling)
{
        write_tmp("map.dts", "/ { cpus {\n\tcpu-map { cluster0 { core0 {\n\t\tcpu = <&gone>;\n\t}; }; };\n"
                  "\tcpu@0 { device_type = \"cpu\"; };\n}; };\n");
        ck_assert_int_eq(import_tmp("map.dts"), -EINVAL);
        ck_assert_str_eq(diag.msg[0],
                         "map.dts:3: /cpus/cpu-map/cluster0/core0: cpu: points at &gone, which is not defined");
}
END_TEST

/* The reader recurses into nodes and parentheses: a bound, not a crash. */
START_TEST(test_error_nested_too_deep)
{
        char text[4096];
        size_t n = 0;

        n += (size_t)snprintf(text + n, sizeof(text) - n, "/ {\n\ta = <");
        for (unsigned i = 0; i < 200; i++)
                text[n++] = '(';
        n += (size_t)snprintf(text + n, sizeof(text) - n, "1");
        for (unsigned i = 0; i < 200; i++)
                text[n++] = ')';
        snprintf(text + n, sizeof(text) - n, ">;\n};\n");
        write_tmp("deep.dts", text);
        ck_assert_int_eq(import_tmp("deep.dts"), -EINVAL);
        ck_assert_str_eq(diag.msg[0], "deep.dts:2: expected nodes or expressions nested at most 100 deep, got deeper");
}
END_TEST

START_TEST(test_error_missing_capacity)
{
        write_tmp("nocap.dts", "/ { cpus {\n\tcpu@0 { device_type = \"cpu\"; };\n}; };\n");
        ck_assert_int_eq(import_tmp("nocap.dts"), -EINVAL);
        ck_assert(has_diag("nocap.dts:2: /cpus/cpu@0: expected \"capacity-dmips-mhz\""));
}
END_TEST

START_TEST(test_reader_merges_and_deletes)
{
        struct dts_tree t;
        const struct dts_node *n;
        const struct dts_prop *p;
        char path[256];

        write_tmp("a.dtsi", "/ { n: node@1 { a = <1>; b = \"x\", \"y\"; gone { }; }; };\n");
        write_tmp("inside.dtsi", "f = <7>;\nsub { g; };\n");
        write_tmp("m.dts", "#include \"a.dtsi\"\n#include \"missing.dtsi\"\n"
                  "/ { node@1 { a = <2 3>; c; /delete-node/ gone; }; };\n"
                  "&n { /delete-property/ b; d = /bits/ 16 <0x12345>; e = <(1 << 4 | 2) &n>;\n"
                  "#include \"inside.dtsi\"\n};\n");
        snprintf(path, sizeof(path), "%s/m.dts", tmpdir);
        ck_assert_int_eq(dts_load(&t, path, &diag), 0);
        n = dts_find(&t, "/node@1");
        ck_assert_ptr_nonnull(n);
        ck_assert_ptr_eq(dts_label(&t, "n"), n);
        p = dts_prop(n, "a");
        ck_assert_uint_eq(p->ncells, 2);
        ck_assert_uint_eq(p->cells[1], 3);
        ck_assert_ptr_null(dts_prop(n, "b"));
        ck_assert_ptr_nonnull(dts_prop(n, "c"));
        ck_assert_ptr_null(dts_find(&t, "/node@1/gone"));
        ck_assert_uint_eq(dts_prop(n, "d")->cells[0], 0x2345);
        p = dts_prop(n, "e");
        ck_assert_uint_eq(p->cells[0], 18);
        ck_assert_ptr_eq(dts_ref(&t, p, 1), n);
        ck_assert_uint_eq(dts_prop(n, "f")->cells[0], 7);       /* included inside the node */
        ck_assert_ptr_nonnull(dts_find(&t, "/node@1/sub"));
        dts_path(n, path, sizeof(path));
        ck_assert_str_eq(path, "/node@1");
        dts_free(&t);
}
END_TEST

/* dtc -I dtb -O dts prints a value as a string or [bytes] when its bytes
 * look like one: <800000> comes back as "\0\f5"; escapes as dtc writes them. */
START_TEST(test_reader_numbers_printed_as_strings)
{
        struct dts_tree t;
        const struct dts_node *n;
        char path[256];

        write_tmp("printed.dts", "/ { n {\n\ta = \"\\0\\f5\";\n\tb = [00 0c 35 00 00 00 00 01];\n"
                  "\tc = [000C3500];\n\td = \"\\x41\\102\\t\\\"\";\n\te = \"ab\", \"cd\";\n}; };\n");
        snprintf(path, sizeof(path), "%s/printed.dts", tmpdir);
        ck_assert_int_eq(dts_load(&t, path, &diag), 0);
        n = dts_find(&t, "/n");
        ck_assert_ptr_nonnull(n);
        ck_assert_uint_eq(dts_prop(n, "a")->ncells, 1);
        ck_assert_uint_eq(dts_prop(n, "a")->cells[0], 800000);
        ck_assert_uint_eq(dts_prop(n, "b")->ncells, 2);
        ck_assert_uint_eq(dts_prop(n, "b")->cells[0], 800000);
        ck_assert_uint_eq(dts_prop(n, "b")->cells[1], 1);
        ck_assert_uint_eq(dts_prop(n, "c")->cells[0], 800000);
        ck_assert_str_eq(dts_prop(n, "d")->string, "AB\t\"");
        ck_assert_str_eq(dts_prop(n, "e")->string, "ab");
        ck_assert_uint_eq(dts_prop(n, "e")->nbytes, 6);
        ck_assert_uint_eq(dts_prop(n, "e")->ncells, 0);   /* 6 bytes: no cells */
        dts_free(&t);
}
END_TEST

/* Written, then read back by the simulator's parser, with the defaults marked. */
START_TEST(test_written_board_loads)
{
        char *text = NULL;
        size_t len = 0;
        FILE *f;
        struct sim_board b;

        ck_assert_int_eq(import_from_dts(&model, DTS "/board.dts", &diag), 0);
        f = open_memstream(&text, &len);
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(import_write(f, &model, "test-board"), 0);
        ck_assert_int_eq(fclose(f), 0);
        ck_assert_uint_eq(board_parse(&b, "imported", text, len, &diag), 0);
        ck_assert_str_eq(b.name, "test-board");
        ck_assert_uint_eq(b.nclusters, 2);
        ck_assert_uint_eq(b.cluster[1].opp[2].capacity, 1024);
        ck_assert_double_eq_tol(b.cluster[0].opp[0].core_mw, em_uw(100, 408e6, 825000) / 1000.0, 1e-9);
        ck_assert(strstr(text, "# default, not from the source: replace with a measurement\noff_mw = "));
        ck_assert(strstr(text, "# default, not from the source: replace with a measurement\n# The in-kernel"));
        free(text);
}
END_TEST

START_TEST(test_sysfs_energy_model)
{
        ck_assert_int_eq(import_from_sysfs(&model, SYSFS "/em", &diag), 0);
        ck_assert_uint_eq(model.nclusters, 3);
        ck_assert(!model.power_default);
        ck_assert_uint_eq(model.cluster[0].cpus, 4);
        ck_assert_uint_eq(model.cluster[2].cpus, 2);
        ck_assert_uint_eq(model.cluster[1].nopps, 3);
        ck_assert_uint_eq(model.cluster[1].opp[1].khz, 1491000);
        ck_assert_uint_eq(model.cluster[1].opp[1].core_uw, 400000);
        ck_assert_uint_eq(model.cluster[1].opp[1].capacity, (unsigned)floor(498.0 * 1491000 / 2253000));
        ck_assert_uint_eq(model.cluster[2].opp[2].capacity, 1024);
}
END_TEST

/* Before Linux 5.11 the states were "cs:KHZ" and the power in mW. */
START_TEST(test_sysfs_old_energy_model_in_milliwatts)
{
        ck_assert_int_eq(import_from_sysfs(&model, SYSFS "/em-mw", &diag), 0);
        ck_assert(!model.power_default);
        ck_assert_uint_eq(model.nclusters, 2);
        ck_assert_uint_eq(model.cluster[0].opp[1].khz, 1000000);
        ck_assert_uint_eq(model.cluster[0].opp[1].core_uw, 150 * 1000);
        ck_assert_uint_eq(model.cluster[1].opp[1].core_uw, 1200 * 1000);
        ck_assert_uint_eq(model.cluster[0].opp[1].capacity, 512);
}
END_TEST

START_TEST(test_sysfs_without_energy_model)
{
        ck_assert_int_eq(import_from_sysfs(&model, SYSFS "/noem", &diag), 0);
        ck_assert(model.power_default);
        ck_assert_uint_eq(model.nclusters, 2);
        ck_assert_uint_eq(model.cluster[0].cpus, 4);
        ck_assert_uint_eq(model.cluster[1].cpus, 2);
        ck_assert_uint_eq(model.cluster[1].opp[1].capacity, (unsigned)floor(1024.0 * 1200000 / 2016000));
}
END_TEST

START_TEST(test_sysfs_symmetric_refused)
{
        ck_assert_int_eq(import_from_sysfs(&model, SYSFS "/symmetric", &diag), -EINVAL);
        ck_assert(has_diag("refuses a machine with one kind of core"));
}
END_TEST

/* More CPUs than a board model holds: refused, not cut to the first 64. */
START_TEST(test_sysfs_too_many_cpus)
{
        char path[512];

        for (unsigned cpu = 0; cpu <= SIM_MAX_CPUS; cpu++) {
                FILE *f;

                snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%u", tmpdir, cpu);
                ck_assert_int_eq(mkdir_p(path), 0);
                snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%u/cpu_capacity", tmpdir, cpu);
                f = fopen(path, "w");
                ck_assert_ptr_nonnull(f);
                fprintf(f, "%u\n", cpu < 32 ? 512 : 1024);
                ck_assert_int_eq(fclose(f), 0);
                snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%u/cpufreq", tmpdir, cpu);
                ck_assert_int_eq(mkdir_p(path), 0);
                snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%u/cpufreq/scaling_available_frequencies",
                         tmpdir, cpu);
                f = fopen(path, "w");
                ck_assert_ptr_nonnull(f);
                fprintf(f, "1000000 2000000\n");
                ck_assert_int_eq(fclose(f), 0);
        }
        ck_assert_int_eq(import_from_sysfs(&model, tmpdir, &diag), -E2BIG);
        ck_assert(has_diag("expected at most 64 CPUs (what a board model holds), got more"));
}
END_TEST

START_TEST(test_sysfs_missing_root)
{
        ck_assert_int_eq(import_from_sysfs(&model, SYSFS "/no-such-root", &diag), -ENOENT);
        ck_assert(has_diag("no-such-root/sys/devices/system/cpu: expected cpu0"));
}
END_TEST

static Suite *import_suite(void)
{
        Suite *s = suite_create("board_import");
        TCase *tc = tcase_create("import");

        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, test_em_formula);
        tcase_add_test(tc, test_dts_includes_and_overlays);
        tcase_add_test(tc, test_decompiled_dtb);
        tcase_add_test(tc, test_one_cpu_map_cluster_three_kinds);
        tcase_add_test(tc, test_error_undefined_opp_table);
        tcase_add_test(tc, test_error_no_power_coefficient);
        tcase_add_test(tc, test_error_one_kind_refused);
        tcase_add_test(tc, test_error_syntax_names_line);
        tcase_add_test(tc, test_error_overlay_of_unknown_label);
        tcase_add_test(tc, test_error_cpu_map_dangling);
        tcase_add_test(tc, test_error_cpu_map_nested_dangling);
        tcase_add_test(tc, test_error_missing_capacity);
        tcase_add_test(tc, test_error_nested_too_deep);
        tcase_add_test(tc, test_reader_merges_and_deletes);
        tcase_add_test(tc, test_reader_numbers_printed_as_strings);
        tcase_add_test(tc, test_written_board_loads);
        tcase_add_test(tc, test_sysfs_energy_model);
        tcase_add_test(tc, test_sysfs_old_energy_model_in_milliwatts);
        tcase_add_test(tc, test_sysfs_without_energy_model);
        tcase_add_test(tc, test_sysfs_symmetric_refused);
        tcase_add_test(tc, test_sysfs_too_many_cpus);
        tcase_add_test(tc, test_sysfs_missing_root);
        suite_add_tcase(s, tc);
        return s;
}

int main(void)
{
        SRunner *sr = srunner_create(import_suite());
        int failed;

        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
