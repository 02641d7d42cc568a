# Benchmarks: programs whose output is recorded in tests/bench/RESULTS.md,
# never timed assertions. tests/bench/run.sh runs them under callgrind.
noinst_PROGRAMS += tests/bench/bench_core
tests_bench_bench_core_SOURCES = tests/bench/bench_core.c
tests_bench_bench_core_LDADD = policy/libblpolicy.a src/core/libblcore.a $(INIH_LIBS) $(LIBM)
# The floor run.sh compares the daemon's tick with: /proc/stat and
# /proc/pressure/cpu read and parsed, nothing else.
noinst_PROGRAMS += tests/bench/bench_floor
tests_bench_bench_floor_SOURCES = tests/bench/bench_floor.c
# The idle wake's counters: their cost per backed-off sample, and how soon
# they tell of a program starting.
noinst_PROGRAMS += tests/bench/bench_wake
tests_bench_bench_wake_SOURCES = tests/bench/bench_wake.c
tests_bench_bench_wake_LDADD = src/sources/libblsources.a src/common/libblcommon.a src/core/libblcore.a
EXTRA_DIST += tests/bench/run.sh tests/bench/footprint.sh tests/bench/eta-table.sh tests/bench/policy-table.sh \
	tests/bench/reactive-bound.sh tests/bench/speculation.sh tests/bench/bus-load.sh tests/bench/families.sh \
	tests/bench/slow-switch.sh tests/bench/idle-return.sh tests/bench/idle-reads.sh tests/bench/tune-jobs.sh \
	tests/bench/mp-table.sh tests/bench/trace-sets.sh tests/bench/policy-diff.sh \
	tests/bench/sysfs-ops.sh tests/bench/private-bus.sh \
	tests/bench/RESULTS.md

# The simulator's trace parser, execution rules and oracle on one hour of an
# 8-lane trace at 1 ms steps.
noinst_PROGRAMS += tests/bench/bench_sim
tests_bench_bench_sim_SOURCES = tests/bench/bench_sim.c
tests_bench_bench_sim_CPPFLAGS = $(AM_CPPFLAGS) -DBOARDS_DIR='"$(abs_top_srcdir)/conf/boards"'
tests_bench_bench_sim_LDADD = src/sim/libblsim.a src/loaders/libblloaders.a src/common/libblcommon.a policy/libblpolicy.a \
	src/core/libblcore.a $(SYSTEMD_LIBS) $(INIH_LIBS) $(LIBM)

# What no causal policy can do: the twin argument of src/sim/bound.c, one
# row per trace.
noinst_PROGRAMS += tests/bench/twin_bound
tests_bench_twin_bound_SOURCES = tests/bench/twin_bound.c
tests_bench_twin_bound_LDADD = src/sim/libblsim.a src/loaders/libblloaders.a src/common/libblcommon.a policy/libblpolicy.a \
	src/core/libblcore.a $(SYSTEMD_LIBS) $(INIH_LIBS) $(LIBM)

# Status load on the bus service: tests/bench/bus-load.sh records the
# daemon's tick lateness with and without it.
noinst_PROGRAMS += tests/bench/bench_bus
tests_bench_bench_bus_SOURCES = tests/bench/bench_bus.c
tests_bench_bench_bus_CFLAGS = $(AM_CFLAGS) $(SYSTEMD_CFLAGS)
tests_bench_bench_bus_LDADD = $(SYSTEMD_LIBS)

# Soak: the real daemon on a fake board with a changing load, reloads and
# holds every second, under a watchdog; its memory must not grow. 20 s in
# make check; tests/bench/soak.sh runs it longer, or under valgrind.
if ENABLE_TESTS
check_PROGRAMS += tests/bench/soak
TESTS += tests/bench/soak
tests_bench_soak_SOURCES = tests/bench/soak.c $(INTEGRATION_HARNESS)
tests_bench_soak_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"' \
	-DSWITCHCTL_PATH='"$(abs_top_builddir)/src/ctl/switchctl"'
tests_bench_soak_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)
EXTRA_tests_bench_soak_DEPENDENCIES = tests/fakeboard/refuse-writes.so src/daemon/bigLittled src/ctl/switchctl
endif
EXTRA_DIST += tests/bench/soak.sh
