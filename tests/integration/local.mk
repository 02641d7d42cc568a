# The fake boards: the kernel of src/fakeboard/ shaped like real boards, and
# a load driver that plays a pattern into its /proc/stat and /proc/pressure/cpu.
noinst_PROGRAMS += tests/fakeboard/bl-fakeboard
tests_fakeboard_bl_fakeboard_SOURCES = \
	tests/fakeboard/main.c \
	tests/fakeboard/fakeboard.h tests/fakeboard/fakeboard.c \
	tests/fakeboard/boards.c
tests_fakeboard_bl_fakeboard_CFLAGS = $(AM_CFLAGS) $(FAKEBOARD_CFLAGS)
tests_fakeboard_bl_fakeboard_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(UMOCKDEV_LIBS) $(LIBM)
# What every program built with fakeboard.c needs (and libblfakeboard.a).
FAKEBOARD_CFLAGS = $(UMOCKDEV_CFLAGS) \
	-DFAKEBOARD_REFUSE_WRITES_SO='"$(abs_top_builddir)/tests/fakeboard/refuse-writes.so"'
# The preload fakeboard_spawn() adds to play a kernel refusing writes
# (fakeboard_refuse_writes()). A shared object built as a program, like the
# test plugins (tests/unit/local.mk), and without the sanitizers: it is
# loaded into processes ahead of their runtime.
noinst_PROGRAMS += tests/fakeboard/refuse-writes.so
tests_fakeboard_refuse_writes_so_SOURCES = tests/fakeboard/refuse-writes.c
tests_fakeboard_refuse_writes_so_CFLAGS = -std=gnu11 $(WARN_CFLAGS) -fPIC -fvisibility=hidden
tests_fakeboard_refuse_writes_so_LDFLAGS = -shared
# What blsim prints, read by the tests that run it.
BLSIM_OUTPUT = tests/integration/blsim-output.h tests/integration/blsim-output.c
# The helpers the integration tests of the daemon share.
INTEGRATION_HARNESS = tests/integration/harness.h tests/integration/harness.c \
	tests/fakeboard/fakeboard.h tests/fakeboard/fakeboard.c tests/fakeboard/boards.c
# For tests that talk to the daemon on the bus: a JSON reader (Describe()),
# a fake polkit and calls as nobody (these two need $(SYSTEMD_LIBS)).
BUS_TEST_HELPERS = tests/integration/json-reader.h tests/integration/json-reader.c \
	tests/integration/fake-polkit.h tests/integration/fake-polkit.c \
	tests/integration/run-as.h tests/integration/run-as.c

# Integration tests: the fake board on its own, then the real daemon on it.
integration_tests = tests/integration/check_fakeboard tests/integration/check_daemon \
	tests/integration/check_crash tests/integration/check_backends
# The daemon told of CPU and thermal changes through udev events.
integration_tests += tests/integration/check_events
# The kernel's big.LITTLE switcher (TC2): pair mode and the switcher backend.
integration_tests += tests/integration/check_switcher
check_PROGRAMS += $(integration_tests)
TESTS += $(integration_tests)
tests_integration_check_fakeboard_SOURCES = \
	tests/integration/check_fakeboard.c \
	tests/fakeboard/fakeboard.h tests/fakeboard/fakeboard.c \
	tests/fakeboard/boards.c
tests_integration_check_fakeboard_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS)
tests_integration_check_fakeboard_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)
EXTRA_tests_integration_check_fakeboard_DEPENDENCIES = tests/fakeboard/refuse-writes.so
tests_integration_check_daemon_SOURCES = tests/integration/check_daemon.c $(INTEGRATION_HARNESS)
tests_integration_check_daemon_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"' \
	-DTEST_DATA_DIR='"$(abs_top_srcdir)/tests/data"'
tests_integration_check_daemon_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)
# The backends other than hotplug, with the real daemon on a fake board.
tests_integration_check_backends_SOURCES = tests/integration/check_backends.c $(INTEGRATION_HARNESS)
tests_integration_check_backends_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"'
tests_integration_check_backends_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)
tests_integration_check_events_SOURCES = tests/integration/check_events.c $(INTEGRATION_HARNESS)
tests_integration_check_events_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"'
tests_integration_check_events_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)
tests_integration_check_switcher_SOURCES = tests/integration/check_switcher.c $(INTEGRATION_HARNESS)
tests_integration_check_switcher_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"'
tests_integration_check_switcher_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)
# State safety: the saved CPU state across SIGKILL and restart, other managers.
tests_integration_check_crash_SOURCES = tests/integration/check_crash.c $(INTEGRATION_HARNESS)
tests_integration_check_crash_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"'
tests_integration_check_crash_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)
# The D-Bus service on a private dbus-daemon per test, one program per
# subject, sharing bus-test.c.
bus_tests = tests/integration/check_bus tests/integration/check_bus_holds tests/integration/check_bus_auth \
	tests/integration/check_bus_hostile tests/integration/check_bus_switching \
	tests/integration/check_bus_energy_model
integration_tests += $(bus_tests)
BUS_TEST_SOURCES = tests/integration/bus-test.h tests/integration/bus-test.c \
	tests/integration/bus-client.h tests/integration/bus-client.c $(INTEGRATION_HARNESS) $(BUS_TEST_HELPERS)
BUS_TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) $(SYSTEMD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"' \
	-DSWITCHCTL_PATH='"$(abs_top_builddir)/src/ctl/switchctl"' \
	-DCONF_DIR='"$(abs_top_srcdir)/conf"' -DBOARDS_DIR='"$(abs_top_srcdir)/conf/boards"'
BUS_TEST_LDADD = src/fakeboard/libblfakeboard.a src/common/libblcommon.a src/core/libblcore.a $(CHECK_LIBS) \
	$(UMOCKDEV_LIBS) $(SYSTEMD_LIBS) $(LIBM)
tests_integration_check_bus_SOURCES = tests/integration/check_bus.c $(BUS_TEST_SOURCES)
tests_integration_check_bus_CFLAGS = $(BUS_TEST_CFLAGS)
tests_integration_check_bus_LDADD = $(BUS_TEST_LDADD)
tests_integration_check_bus_holds_SOURCES = tests/integration/check_bus_holds.c $(BUS_TEST_SOURCES)
tests_integration_check_bus_holds_CFLAGS = $(BUS_TEST_CFLAGS)
tests_integration_check_bus_holds_LDADD = $(BUS_TEST_LDADD)
tests_integration_check_bus_auth_SOURCES = tests/integration/check_bus_auth.c $(BUS_TEST_SOURCES)
tests_integration_check_bus_auth_CFLAGS = $(BUS_TEST_CFLAGS)
tests_integration_check_bus_auth_LDADD = $(BUS_TEST_LDADD)
tests_integration_check_bus_hostile_SOURCES = tests/integration/check_bus_hostile.c $(BUS_TEST_SOURCES)
tests_integration_check_bus_hostile_CFLAGS = $(BUS_TEST_CFLAGS)
tests_integration_check_bus_hostile_LDADD = $(BUS_TEST_LDADD)
tests_integration_check_bus_switching_SOURCES = tests/integration/check_bus_switching.c $(BUS_TEST_SOURCES)
tests_integration_check_bus_switching_CFLAGS = $(BUS_TEST_CFLAGS)
tests_integration_check_bus_switching_LDADD = $(BUS_TEST_LDADD)
tests_integration_check_bus_energy_model_SOURCES = tests/integration/check_bus_energy_model.c \
	$(BUS_TEST_SOURCES)
tests_integration_check_bus_energy_model_CFLAGS = $(BUS_TEST_CFLAGS)
tests_integration_check_bus_energy_model_LDADD = $(BUS_TEST_LDADD)

# Following the desktop: fakes of power-profiles-daemon and UPower on the private bus.
integration_tests += tests/integration/check_desktop
tests_integration_check_desktop_SOURCES = tests/integration/check_desktop.c \
	tests/integration/fake-desktop.h tests/integration/fake-desktop.c $(INTEGRATION_HARNESS)
tests_integration_check_desktop_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) $(SYSTEMD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"' \
	-DSWITCHCTL_PATH='"$(abs_top_builddir)/src/ctl/switchctl"'
tests_integration_check_desktop_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(SYSTEMD_LIBS) $(LIBM)

# bigLittled --record: this machine's /proc/stat and a fake board's known load.
integration_tests += tests/integration/check_record
tests_integration_check_record_SOURCES = tests/integration/check_record.c $(INTEGRATION_HARNESS)
tests_integration_check_record_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"'
tests_integration_check_record_LDADD = src/sim/libblsim.a src/loaders/libblloaders.a src/common/libblcommon.a \
	src/fakeboard/libblfakeboard.a src/core/libblcore.a \
	$(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)

# The quick-start demo: the daemon on blsim live's Exynos 5422 while 28 s of
# load play, switchctl monitor on a private bus, the energy against the
# references, and the timeline in demo/timeline.svg. BOARD=NAME (conf/boards/)
# or BOARD=FILE plays another board model.
demo: src/sim/blsim src/daemon/bigLittled src/ctl/switchctl
	$(SHELL) $(abs_top_srcdir)/tests/demo/run-demo.sh $(abs_top_srcdir) $(abs_top_builddir) $(BOARD)
.PHONY: demo
EXTRA_DIST += tests/demo/run-demo.sh

# The example plugin, built against the installed header and loaded.
dist_check_SCRIPTS += tests/integration/check_plugin_example.sh
TESTS += tests/integration/check_plugin_example.sh
EXTRA_DIST += examples/plugin/Makefile examples/plugin/README examples/plugin/example-boost.c

# Every board's topology recognised, and a switch up and down on each.
integration_tests += tests/integration/check_topologies
tests_integration_check_topologies_SOURCES = tests/integration/check_topologies.c $(INTEGRATION_HARNESS)
tests_integration_check_topologies_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"'
tests_integration_check_topologies_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)

# The topologies of the shipped SoC boards (conf/boards/): the ladder, a climb
# to the top, back down, every CPU restored.
integration_tests += tests/integration/check_soc_boards
tests_integration_check_soc_boards_SOURCES = tests/integration/check_soc_boards.c $(INTEGRATION_HARNESS)
tests_integration_check_soc_boards_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"'
tests_integration_check_soc_boards_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)

# The cpuset backend: cgroup v2 written directly, or systemd's AllowedCPUs=
# through a fake systemd on a private dbus-daemon.
integration_tests += tests/integration/check_cpuset_backend
check_PROGRAMS += tests/integration/fake-systemd
tests_integration_fake_systemd_SOURCES = tests/integration/fake-systemd.c
tests_integration_fake_systemd_CFLAGS = $(AM_CFLAGS) $(SYSTEMD_CFLAGS)
tests_integration_fake_systemd_LDADD = $(SYSTEMD_LIBS)
tests_integration_check_cpuset_backend_SOURCES = tests/integration/check_cpuset_backend.c $(INTEGRATION_HARNESS)
tests_integration_check_cpuset_backend_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"' \
	-DFAKE_SYSTEMD_PATH='"$(abs_top_builddir)/tests/integration/fake-systemd"'
tests_integration_check_cpuset_backend_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)

# Every topology with every backend that applies to it: detection, switching
# up and down, refused writes, restore, and a crash with a restart.
integration_tests += tests/integration/check_matrix
tests_integration_check_matrix_SOURCES = tests/integration/check_matrix.c $(INTEGRATION_HARNESS)
tests_integration_check_matrix_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"'
tests_integration_check_matrix_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)
EXTRA_tests_integration_check_matrix_DEPENDENCIES = tests/fakeboard/refuse-writes.so

# blsim live: the real daemon on a board model played in real time, and the
# agreement of its switches and energy with blsim run's.
integration_tests += tests/integration/check_live
tests_integration_check_live_SOURCES = tests/integration/check_live.c $(BLSIM_OUTPUT) $(INTEGRATION_HARNESS) \
	tests/unit/plot-svg.h tests/unit/plot-svg.c
tests_integration_check_live_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) $(INIH_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"' \
	-DBLSIM_PATH='"$(abs_top_builddir)/src/sim/blsim"' \
	-DBOARDS_DIR='"$(abs_top_srcdir)/conf/boards"' \
	-DTEST_DATA_DIR='"$(abs_top_srcdir)/tests/data"'
tests_integration_check_live_LDADD = src/sim/libblsim.a src/loaders/libblloaders.a src/common/libblcommon.a policy/libblpolicy.a \
	src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(SYSTEMD_LIBS) \
	$(INIH_LIBS) $(LIBM)
EXTRA_tests_integration_check_live_DEPENDENCIES = src/sim/blsim src/daemon/bigLittled

# blsim compare and blsim live (with the real daemon) on every shipped SoC board.
integration_tests += tests/integration/check_soc_blsim
tests_integration_check_soc_blsim_SOURCES = tests/integration/check_soc_blsim.c $(BLSIM_OUTPUT) \
	$(INTEGRATION_HARNESS)
tests_integration_check_soc_blsim_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"' \
	-DBLSIM_PATH='"$(abs_top_builddir)/src/sim/blsim"' \
	-DBOARDS_DIR='"$(abs_top_srcdir)/conf/boards"' \
	-DTEST_DATA_DIR='"$(abs_top_srcdir)/tests/data"'
tests_integration_check_soc_blsim_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) \
	$(UMOCKDEV_LIBS) $(LIBM)
EXTRA_tests_integration_check_soc_blsim_DEPENDENCIES = src/sim/blsim src/daemon/bigLittled

# End to end: the real daemon on blsim live's exynos5422-like board with the
# rt-app workloads, driven with the real switchctl over a private bus.
integration_tests += tests/integration/check_e2e
tests_integration_check_e2e_SOURCES = tests/integration/check_e2e.c $(INTEGRATION_HARNESS)
tests_integration_check_e2e_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"' \
	-DSWITCHCTL_PATH='"$(abs_top_builddir)/src/ctl/switchctl"' \
	-DBLSIM_PATH='"$(abs_top_builddir)/src/sim/blsim"' \
	-DBOARDS_DIR='"$(abs_top_srcdir)/conf/boards"' \
	-DWORKLOADS_DIR='"$(abs_top_srcdir)/tests/workloads"' \
	-DCONF_DIR='"$(abs_top_srcdir)/conf"'
tests_integration_check_e2e_LDADD = src/sim/libblsim.a src/loaders/libblloaders.a src/common/libblcommon.a policy/libblpolicy.a \
	src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(SYSTEMD_LIBS) \
	$(INIH_LIBS) $(LIBM)
EXTRA_tests_integration_check_e2e_DEPENDENCIES = src/sim/blsim src/daemon/bigLittled src/ctl/switchctl

# bigLittle.service's sandbox against the files each backend writes and the
# systemd calls of the cpuset backend.
integration_tests += tests/integration/check_sandbox
tests_integration_check_sandbox_SOURCES = tests/integration/check_sandbox.c $(INTEGRATION_HARNESS)
tests_integration_check_sandbox_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"' \
	-DFAKE_SYSTEMD_PATH='"$(abs_top_builddir)/tests/integration/fake-systemd"' \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_integration_check_sandbox_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)
EXTRA_tests_integration_check_sandbox_DEPENDENCIES = tests/fakeboard/refuse-writes.so tests/integration/fake-systemd

# Faults of the kernel and the machine around the daemon: failing writes,
# CPUs vanishing mid-switch, thermal zones going, bad /proc and sysfs files,
# clock jumps (through the clock-shift preload) and the bus going away.
integration_tests += tests/integration/check_faults
# A shared object built as a program, like refuse-writes.so, without the
# sanitizers: it is loaded into processes ahead of their runtime.
noinst_PROGRAMS += tests/integration/clock-shift.so
tests_integration_clock_shift_so_SOURCES = tests/integration/clock-shift.c
tests_integration_clock_shift_so_CFLAGS = -std=gnu11 $(WARN_CFLAGS) -fPIC -fvisibility=hidden
tests_integration_clock_shift_so_LDFLAGS = -shared
tests_integration_check_faults_SOURCES = tests/integration/check_faults.c $(INTEGRATION_HARNESS)
tests_integration_check_faults_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) $(SYSTEMD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"' \
	-DCLOCK_SHIFT_SO='"$(abs_top_builddir)/tests/integration/clock-shift.so"'
tests_integration_check_faults_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) \
	$(UMOCKDEV_LIBS) $(SYSTEMD_LIBS) $(LIBM)
EXTRA_tests_integration_check_faults_DEPENDENCIES = tests/fakeboard/refuse-writes.so \
	tests/integration/clock-shift.so src/daemon/bigLittled

# The kill test: SIGKILL at random moments of switches, restart, a whole
# level and the original state kept; `check_kill ITERATIONS SEED` for long
# runs (tests/bench/RESULTS.md), 20 iterations in make check.
integration_tests += tests/integration/check_kill
tests_integration_check_kill_SOURCES = tests/integration/check_kill.c $(INTEGRATION_HARNESS)
tests_integration_check_kill_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"'
tests_integration_check_kill_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) \
	$(UMOCKDEV_LIBS) $(LIBM)
EXTRA_tests_integration_check_kill_DEPENDENCIES = tests/fakeboard/refuse-writes.so src/daemon/bigLittled

# The daemon on a board crediting cpuidle residency the kernel's way: no
# switch on an idle machine, back to the lowest level within 1 s of a load.
integration_tests += tests/integration/check_idle
tests_integration_check_idle_SOURCES = tests/integration/check_idle.c $(INTEGRATION_HARNESS)
tests_integration_check_idle_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"' \
	-DSHIPPED_CONFIG='"$(abs_top_srcdir)/conf/bigLittle.conf"'
tests_integration_check_idle_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) $(UMOCKDEV_LIBS) $(LIBM)
EXTRA_tests_integration_check_idle_DEPENDENCIES = src/daemon/bigLittled

# The journal fields of the real daemon, caught on the journal's socket in a
# mount namespace of the test.
integration_tests += tests/integration/check_journal
tests_integration_check_journal_SOURCES = tests/integration/check_journal.c \
	tests/integration/bus-client.h tests/integration/bus-client.c $(INTEGRATION_HARNESS)
tests_integration_check_journal_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) $(SYSTEMD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"'
tests_integration_check_journal_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) \
	$(UMOCKDEV_LIBS) $(SYSTEMD_LIBS) $(LIBM)

# The installed D-Bus interface XML against what the running daemon serves.
integration_tests += tests/integration/check_bus_interface
tests_integration_check_bus_interface_SOURCES = tests/integration/check_bus_interface.c \
	tests/integration/bus-client.h tests/integration/bus-client.c $(INTEGRATION_HARNESS)
tests_integration_check_bus_interface_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(FAKEBOARD_CFLAGS) $(SYSTEMD_CFLAGS) \
	-DDAEMON_PATH='"$(abs_top_builddir)/src/daemon/bigLittled"' \
	-DINTERFACE_XML='"$(abs_top_srcdir)/conf/org.bigLittle.Switch1.xml"'
tests_integration_check_bus_interface_LDADD = src/fakeboard/libblfakeboard.a src/core/libblcore.a $(CHECK_LIBS) \
	$(UMOCKDEV_LIBS) $(SYSTEMD_LIBS) $(LIBM)
