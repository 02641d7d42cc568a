# Fuzz targets, one per parser of input from outside (DESIGN.md, issue 9).
# Built here with the configured compiler as plain programs that replay the
# committed corpus (FUZZ_STANDALONE: make check, and under ASan/UBSan with
# --enable-sanitizers); tests/fuzz/run.sh builds the same programs with
# clang and libFuzzer by overriding FUZZ_DEFS and FUZZ_LINK.
FUZZ_DEFS = -DFUZZ_STANDALONE
FUZZ_LINK =
FUZZ_COMMON = tests/fuzz/fuzz.h tests/fuzz/fuzz-common.c
# Static archives: each target links only the objects it uses.
FUZZ_LDADD = src/sim/libblsim.a src/fakeboard/libblfakeboard.a src/backends/libblbackends.a \
	src/sources/libblsources.a src/loaders/libblloaders.a src/common/libblcommon.a policy/libblpolicy.a \
	src/core/libblcore.a $(SYSTEMD_LIBS) $(UDEV_LIBS) $(UMOCKDEV_LIBS) $(INIH_LIBS) $(LIBM)

fuzz_targets = \
	tests/fuzz/fuzz_config \
	tests/fuzz/fuzz_board \
	tests/fuzz/fuzz_trace \
	tests/fuzz/fuzz_rtapp \
	tests/fuzz/fuzz_procstat \
	tests/fuzz/fuzz_psi \
	tests/fuzz/fuzz_loadavg \
	tests/fuzz/fuzz_sysfs \
	tests/fuzz/fuzz_saved_state \
	tests/fuzz/fuzz_holds_store \
	tests/fuzz/fuzz_dts \
	tests/fuzz/fuzz_duration
check_PROGRAMS += $(fuzz_targets)

tests_fuzz_fuzz_config_SOURCES = tests/fuzz/fuzz_config.c $(FUZZ_COMMON)
tests_fuzz_fuzz_config_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_DEFS)
tests_fuzz_fuzz_config_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LINK)
tests_fuzz_fuzz_config_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_board_SOURCES = tests/fuzz/fuzz_board.c $(FUZZ_COMMON)
tests_fuzz_fuzz_board_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_DEFS)
tests_fuzz_fuzz_board_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LINK)
tests_fuzz_fuzz_board_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_trace_SOURCES = tests/fuzz/fuzz_trace.c $(FUZZ_COMMON)
tests_fuzz_fuzz_trace_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_DEFS)
tests_fuzz_fuzz_trace_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LINK)
tests_fuzz_fuzz_trace_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_rtapp_SOURCES = tests/fuzz/fuzz_rtapp.c $(FUZZ_COMMON)
tests_fuzz_fuzz_rtapp_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_DEFS)
tests_fuzz_fuzz_rtapp_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LINK)
tests_fuzz_fuzz_rtapp_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_procstat_SOURCES = tests/fuzz/fuzz_procstat.c $(FUZZ_COMMON)
tests_fuzz_fuzz_procstat_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_DEFS)
tests_fuzz_fuzz_procstat_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LINK)
tests_fuzz_fuzz_procstat_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_psi_SOURCES = tests/fuzz/fuzz_psi.c $(FUZZ_COMMON)
tests_fuzz_fuzz_psi_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_DEFS)
tests_fuzz_fuzz_psi_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LINK)
tests_fuzz_fuzz_psi_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_loadavg_SOURCES = tests/fuzz/fuzz_loadavg.c $(FUZZ_COMMON)
tests_fuzz_fuzz_loadavg_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_DEFS)
tests_fuzz_fuzz_loadavg_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LINK)
tests_fuzz_fuzz_loadavg_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_dts_SOURCES = tests/fuzz/fuzz_dts.c $(FUZZ_COMMON)
tests_fuzz_fuzz_dts_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_DEFS)
tests_fuzz_fuzz_dts_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LINK)
tests_fuzz_fuzz_dts_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_sysfs_SOURCES = tests/fuzz/fuzz_sysfs.c $(FUZZ_COMMON)
tests_fuzz_fuzz_sysfs_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_DEFS)
tests_fuzz_fuzz_sysfs_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LINK)
tests_fuzz_fuzz_sysfs_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_saved_state_SOURCES = tests/fuzz/fuzz_saved_state.c $(FUZZ_COMMON) \
	src/daemon/saved-state.h src/daemon/saved-state.c
tests_fuzz_fuzz_saved_state_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_DEFS)
tests_fuzz_fuzz_saved_state_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LINK)
tests_fuzz_fuzz_saved_state_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_holds_store_SOURCES = tests/fuzz/fuzz_holds_store.c $(FUZZ_COMMON) \
	src/daemon/holds-store.h src/daemon/holds-store.c
tests_fuzz_fuzz_holds_store_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_DEFS)
tests_fuzz_fuzz_holds_store_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LINK)
tests_fuzz_fuzz_holds_store_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_duration_SOURCES = tests/fuzz/fuzz_duration.c $(FUZZ_COMMON)
tests_fuzz_fuzz_duration_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_DEFS)
tests_fuzz_fuzz_duration_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LINK)
tests_fuzz_fuzz_duration_LDADD = $(FUZZ_LDADD)

# Every target over its corpus: a crash, a sanitizer report or a broken
# property fails the test.
dist_check_SCRIPTS += tests/fuzz/replay.sh
TESTS += tests/fuzz/replay.sh
EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/corpus tests/fuzz/dict tests/fuzz/RESULTS.md
