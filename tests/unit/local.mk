# Check unit tests. Each prints TAP through Check; see LOG_DRIVER.
UNIT_LDADD = src/backends/libblbackends.a src/sources/libblsources.a src/common/libblcommon.a \
	policy/libblpolicy.a src/core/libblcore.a \
	$(CHECK_LIBS) $(SYSTEMD_LIBS) $(UDEV_LIBS) $(INIH_LIBS) $(LIBM)
UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) -DTEST_DATA_DIR='"$(abs_top_srcdir)/tests/data"'

unit_tests = \
	tests/unit/check_cpuset \
	tests/unit/check_topology \
	tests/unit/check_config \
	tests/unit/check_engine \
	tests/unit/check_heuristics \
	tests/unit/check_procstat \
	tests/unit/check_sources \
	tests/unit/check_hotplug \
	tests/unit/check_sim \
	tests/unit/check_simrun \
	tests/unit/check_rtapp \
	tests/unit/check_baselines
check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)

tests_unit_check_cpuset_SOURCES = tests/unit/check_cpuset.c
tests_unit_check_cpuset_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_cpuset_LDADD = $(UNIT_LDADD)
tests_unit_check_topology_SOURCES = tests/unit/check_topology.c
tests_unit_check_topology_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_topology_LDADD = $(UNIT_LDADD)
tests_unit_check_config_SOURCES = tests/unit/check_config.c
tests_unit_check_config_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_config_LDADD = $(UNIT_LDADD)
tests_unit_check_engine_SOURCES = tests/unit/check_engine.c
tests_unit_check_engine_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_engine_LDADD = $(UNIT_LDADD)
tests_unit_check_heuristics_SOURCES = tests/unit/check_heuristics.c
tests_unit_check_heuristics_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_heuristics_LDADD = $(UNIT_LDADD)
tests_unit_check_procstat_SOURCES = tests/unit/check_procstat.c
tests_unit_check_procstat_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_procstat_LDADD = $(UNIT_LDADD)
tests_unit_check_sources_SOURCES = tests/unit/check_sources.c
tests_unit_check_sources_CFLAGS = $(UNIT_CFLAGS) $(UMOCKDEV_CFLAGS)
tests_unit_check_sources_LDADD = $(UNIT_LDADD) $(UMOCKDEV_LIBS)
tests_unit_check_hotplug_SOURCES = tests/unit/check_hotplug.c
tests_unit_check_hotplug_CFLAGS = $(UNIT_CFLAGS) $(UMOCKDEV_CFLAGS)
tests_unit_check_hotplug_LDADD = $(UNIT_LDADD) $(UMOCKDEV_LIBS)

EXTRA_DIST += tests/data
# The trace suite blsim's tests run on (and its generator).
EXTRA_DIST += tests/workloads

SIM_LDADD = src/sim/libblsim.a $(UNIT_LDADD)
tests_unit_check_sim_SOURCES = tests/unit/check_sim.c
tests_unit_check_sim_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_sim_LDADD = $(SIM_LDADD)
tests_unit_check_simrun_SOURCES = tests/unit/check_simrun.c
tests_unit_check_simrun_CFLAGS = $(UNIT_CFLAGS) -DWORKLOADS_DIR='"$(abs_top_srcdir)/tests/workloads"' \
	-DBOARDS_DIR='"$(abs_top_srcdir)/conf/boards"' -DBLSIM_PATH='"$(abs_top_builddir)/src/sim/blsim"'
tests_unit_check_simrun_LDADD = $(SIM_LDADD)
tests_unit_check_rtapp_SOURCES = tests/unit/check_rtapp.c
tests_unit_check_rtapp_CFLAGS = $(UNIT_CFLAGS) -DWORKLOADS_DIR='"$(abs_top_srcdir)/tests/workloads"'
tests_unit_check_rtapp_LDADD = $(SIM_LDADD)
tests_unit_check_baselines_SOURCES = tests/unit/check_baselines.c
tests_unit_check_baselines_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_baselines_LDADD = $(SIM_LDADD)

# The libFuzzer target of the rt-app reader; tests/fuzz/run.sh builds and runs it with clang.
EXTRA_DIST += tests/fuzz
