# Check unit tests. Each prints TAP through Check; see LOG_DRIVER.
UNIT_LDADD = src/backends/libblbackends.a src/sources/libblsources.a src/loaders/libblloaders.a src/common/libblcommon.a \
	policy/libblpolicy.a src/core/libblcore.a \
	$(CHECK_LIBS) $(SYSTEMD_LIBS) $(UDEV_LIBS) $(INIH_LIBS) $(LIBM)
# main() under umockdev's preload, and a kernel refusing or clamping writes:
# shared by the unit tests that touch real /sys paths.
UMOCKDEV_MAIN = tests/unit/umockdev-main.h tests/unit/umockdev-main.c
WRITE_WATCH = tests/unit/write-watch.h tests/unit/write-watch.c
UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) -DTEST_DATA_DIR='"$(abs_top_srcdir)/tests/data"'

unit_tests = \
	tests/unit/check_cpumask \
	tests/unit/check_topology \
	tests/unit/check_config \
	tests/unit/check_engine \
	tests/unit/check_thermal_limits \
	tests/unit/check_controller \
	tests/unit/check_heap \
	tests/unit/check_holds \
	tests/unit/check_profile \
	tests/unit/check_heuristics \
	tests/unit/check_signal_heuristics \
	tests/unit/check_procstat \
	tests/unit/check_sources \
	tests/unit/check_hotplug \
	tests/unit/check_cpufreq_backend \
	tests/unit/check_cpuset_backend \
	tests/unit/check_switcher \
	tests/unit/check_perf \
	tests/unit/check_activity \
	tests/unit/check_clock_jump \
	tests/unit/check_sim \
	tests/unit/check_simrun \
	tests/unit/check_simmodes \
	tests/unit/check_reactive \
	tests/unit/check_bound \
	tests/unit/check_live \
	tests/unit/check_rtapp \
	tests/unit/check_baselines \
	tests/unit/check_tune \
	tests/unit/check_holds_store \
	tests/unit/check_saved_state \
	tests/unit/check_conflicts \
	tests/unit/check_fileio \
	tests/unit/check_log \
	tests/unit/check_switch_cost \
	tests/unit/check_settle \
	tests/unit/check_tick_jitter \
	tests/unit/check_switch_worker \
	tests/unit/check_tick_timer \
	tests/unit/check_self_time \
	tests/unit/check_break_even \
	tests/unit/check_policy_inputs \
	tests/unit/check_backend_cost \
	tests/unit/check_oracle_start \
	tests/unit/check_generate \
	tests/unit/check_cpuidle_estimate \
	tests/unit/check_board_import \
	tests/unit/check_shipped_boards
check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)
# blsim board import on decompiled DTBs (needs dtc and cpp, else skipped).
dist_check_SCRIPTS += tests/unit/check_board_import_dtb.sh
TESTS += tests/unit/check_board_import_dtb.sh

tests_unit_check_switch_cost_SOURCES = tests/unit/check_switch_cost.c
tests_unit_check_switch_cost_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_switch_cost_LDADD = $(UNIT_LDADD)
tests_unit_check_settle_SOURCES = tests/unit/check_settle.c
tests_unit_check_settle_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_settle_LDADD = $(UNIT_LDADD)
tests_unit_check_tick_jitter_SOURCES = tests/unit/check_tick_jitter.c
tests_unit_check_tick_jitter_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_tick_jitter_LDADD = $(UNIT_LDADD)
# The daemon's switch thread, on its own with a slow stand-in backend.
tests_unit_check_switch_worker_SOURCES = tests/unit/check_switch_worker.c \
	src/daemon/switch-worker.h src/daemon/switch-worker.c
tests_unit_check_switch_worker_CFLAGS = $(UNIT_CFLAGS) -pthread $(SYSTEMD_CFLAGS)
tests_unit_check_switch_worker_LDFLAGS = -pthread
tests_unit_check_switch_worker_LDADD = $(UNIT_LDADD)
# The daemon's tick timer on a real sd-event loop.
tests_unit_check_tick_timer_SOURCES = tests/unit/check_tick_timer.c \
	src/daemon/tick-timer.h src/daemon/tick-timer.c \
	src/daemon/switch-worker.h src/daemon/switch-worker.c
tests_unit_check_tick_timer_CFLAGS = $(UNIT_CFLAGS) -pthread $(SYSTEMD_CFLAGS)
tests_unit_check_tick_timer_LDFLAGS = -pthread
tests_unit_check_tick_timer_LDADD = $(UNIT_LDADD)
tests_unit_check_self_time_SOURCES = tests/unit/check_self_time.c
tests_unit_check_self_time_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_self_time_LDADD = $(UNIT_LDADD)
tests_unit_check_break_even_SOURCES = tests/unit/check_break_even.c
tests_unit_check_break_even_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_break_even_LDADD = $(UNIT_LDADD)
tests_unit_check_policy_inputs_SOURCES = tests/unit/check_policy_inputs.c
tests_unit_check_policy_inputs_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_policy_inputs_LDADD = $(SIM_LDADD)
tests_unit_check_generate_SOURCES = tests/unit/check_generate.c
tests_unit_check_generate_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_generate_LDADD = src/sim/libblgen.a $(SIM_LDADD)
tests_unit_check_board_import_SOURCES = tests/unit/check_board_import.c
tests_unit_check_board_import_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_board_import_LDADD = $(SIM_LDADD)
tests_unit_check_shipped_boards_SOURCES = tests/unit/check_shipped_boards.c
tests_unit_check_shipped_boards_CFLAGS = $(UNIT_CFLAGS) -DWORKLOADS_DIR='"$(abs_top_srcdir)/tests/workloads"' \
	-DBOARDS_DIR='"$(abs_top_srcdir)/conf/boards"' -DBLSIM_PATH='"$(abs_top_builddir)/src/sim/blsim"'
tests_unit_check_shipped_boards_LDADD = $(SIM_LDADD)
tests_unit_check_cpuidle_estimate_SOURCES = tests/unit/check_cpuidle_estimate.c
tests_unit_check_cpuidle_estimate_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_cpuidle_estimate_LDADD = $(UNIT_LDADD)
tests_unit_check_fileio_SOURCES = tests/unit/check_fileio.c
tests_unit_check_fileio_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_fileio_LDADD = $(UNIT_LDADD)
tests_unit_check_log_SOURCES = tests/unit/check_log.c
tests_unit_check_log_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_log_LDADD = $(UNIT_LDADD)
tests_unit_check_cpumask_SOURCES = tests/unit/check_cpumask.c
tests_unit_check_cpumask_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_cpumask_LDADD = $(UNIT_LDADD)
tests_unit_check_topology_SOURCES = tests/unit/check_topology.c
tests_unit_check_topology_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_topology_LDADD = $(UNIT_LDADD)
tests_unit_check_config_SOURCES = tests/unit/check_config.c
tests_unit_check_config_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_config_LDADD = $(UNIT_LDADD)
tests_unit_check_thermal_limits_SOURCES = tests/unit/check_thermal_limits.c
tests_unit_check_thermal_limits_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_thermal_limits_LDADD = $(UNIT_LDADD)
tests_unit_check_engine_SOURCES = tests/unit/check_engine.c
tests_unit_check_engine_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_engine_LDADD = $(UNIT_LDADD)
tests_unit_check_signal_heuristics_SOURCES = tests/unit/check_signal_heuristics.c
tests_unit_check_signal_heuristics_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_signal_heuristics_LDADD = $(UNIT_LDADD)
tests_unit_check_holds_SOURCES = tests/unit/check_holds.c
tests_unit_check_holds_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_holds_LDADD = $(UNIT_LDADD)
tests_unit_check_profile_SOURCES = tests/unit/check_profile.c
tests_unit_check_profile_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_profile_LDADD = $(UNIT_LDADD)
tests_unit_check_controller_SOURCES = tests/unit/check_controller.c
tests_unit_check_controller_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_controller_LDADD = $(UNIT_LDADD)

tests_unit_check_heap_SOURCES = tests/unit/check_heap.c
tests_unit_check_heap_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_heap_LDADD = $(UNIT_LDADD)
tests_unit_check_heuristics_SOURCES = tests/unit/check_heuristics.c
tests_unit_check_heuristics_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_heuristics_LDADD = $(UNIT_LDADD)
tests_unit_check_procstat_SOURCES = tests/unit/check_procstat.c
tests_unit_check_procstat_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_procstat_LDADD = $(UNIT_LDADD)
tests_unit_check_sources_SOURCES = tests/unit/check_sources.c $(UMOCKDEV_MAIN)
tests_unit_check_sources_CFLAGS = $(UNIT_CFLAGS) $(UMOCKDEV_CFLAGS)
tests_unit_check_sources_LDADD = $(UNIT_LDADD) $(UMOCKDEV_LIBS)
tests_unit_check_hotplug_SOURCES = tests/unit/check_hotplug.c $(UMOCKDEV_MAIN) $(WRITE_WATCH)
tests_unit_check_hotplug_CFLAGS = $(UNIT_CFLAGS) $(UMOCKDEV_CFLAGS)
tests_unit_check_hotplug_LDADD = $(UNIT_LDADD) $(UMOCKDEV_LIBS)
tests_unit_check_cpufreq_backend_SOURCES = tests/unit/check_cpufreq_backend.c $(UMOCKDEV_MAIN) $(WRITE_WATCH)
tests_unit_check_cpufreq_backend_CFLAGS = $(UNIT_CFLAGS) $(UMOCKDEV_CFLAGS)
tests_unit_check_cpufreq_backend_LDADD = $(UNIT_LDADD) $(UMOCKDEV_LIBS)
tests_unit_check_cpuset_backend_SOURCES = tests/unit/check_cpuset_backend.c $(UMOCKDEV_MAIN) $(WRITE_WATCH)
tests_unit_check_cpuset_backend_CFLAGS = $(UNIT_CFLAGS) $(UMOCKDEV_CFLAGS) $(SYSTEMD_CFLAGS)
tests_unit_check_cpuset_backend_LDADD = $(UNIT_LDADD) $(UMOCKDEV_LIBS)
tests_unit_check_switcher_SOURCES = tests/unit/check_switcher.c $(UMOCKDEV_MAIN) $(WRITE_WATCH)
tests_unit_check_switcher_CFLAGS = $(UNIT_CFLAGS) $(UMOCKDEV_CFLAGS)
tests_unit_check_switcher_LDADD = $(UNIT_LDADD) $(UMOCKDEV_LIBS)
tests_unit_check_perf_SOURCES = tests/unit/check_perf.c tests/unit/count-fds.h
tests_unit_check_perf_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_perf_LDADD = $(UNIT_LDADD)
tests_unit_check_activity_SOURCES = tests/unit/check_activity.c tests/unit/count-fds.h
tests_unit_check_activity_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_activity_LDADD = $(UNIT_LDADD)
tests_unit_check_clock_jump_SOURCES = tests/unit/check_clock_jump.c
tests_unit_check_clock_jump_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_clock_jump_LDADD = $(UNIT_LDADD)
tests_unit_check_holds_store_SOURCES = tests/unit/check_holds_store.c \
	src/daemon/holds-store.h src/daemon/holds-store.c
tests_unit_check_holds_store_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_holds_store_LDADD = $(UNIT_LDADD)
tests_unit_check_saved_state_SOURCES = tests/unit/check_saved_state.c \
	src/daemon/saved-state.h src/daemon/saved-state.c
tests_unit_check_saved_state_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_saved_state_LDADD = $(UNIT_LDADD)
tests_unit_check_conflicts_SOURCES = tests/unit/check_conflicts.c $(UMOCKDEV_MAIN)
tests_unit_check_conflicts_CFLAGS = $(UNIT_CFLAGS) $(UMOCKDEV_CFLAGS) $(SYSTEMD_CFLAGS)
tests_unit_check_conflicts_LDADD = $(UNIT_LDADD) $(UMOCKDEV_LIBS)

EXTRA_DIST += tests/data
# The trace suite blsim's tests run on (and its generator).
EXTRA_DIST += tests/workloads

SIM_LDADD = src/sim/libblsim.a $(UNIT_LDADD) -lpthread
tests_unit_check_sim_SOURCES = tests/unit/check_sim.c
tests_unit_check_sim_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_sim_LDADD = $(SIM_LDADD)
tests_unit_check_simrun_SOURCES = tests/unit/check_simrun.c tests/unit/plot-svg.h tests/unit/plot-svg.c
tests_unit_check_simrun_CFLAGS = $(UNIT_CFLAGS) -DWORKLOADS_DIR='"$(abs_top_srcdir)/tests/workloads"' \
	-DBOARDS_DIR='"$(abs_top_srcdir)/conf/boards"' -DBLSIM_PATH='"$(abs_top_builddir)/src/sim/blsim"'
tests_unit_check_simrun_LDADD = $(SIM_LDADD)
tests_unit_check_simmodes_SOURCES = tests/unit/check_simmodes.c
tests_unit_check_simmodes_CFLAGS = $(UNIT_CFLAGS) -DBOARDS_DIR='"$(abs_top_srcdir)/conf/boards"'
tests_unit_check_simmodes_LDADD = $(SIM_LDADD)
tests_unit_check_reactive_SOURCES = tests/unit/check_reactive.c
tests_unit_check_reactive_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_reactive_LDADD = $(SIM_LDADD)
tests_unit_check_bound_SOURCES = tests/unit/check_bound.c
tests_unit_check_bound_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_bound_LDADD = $(SIM_LDADD)
tests_unit_check_live_SOURCES = tests/unit/check_live.c
tests_unit_check_live_CFLAGS = $(UNIT_CFLAGS) -DBOARDS_DIR='"$(abs_top_srcdir)/conf/boards"'
tests_unit_check_live_LDADD = $(SIM_LDADD)
tests_unit_check_rtapp_SOURCES = tests/unit/check_rtapp.c
tests_unit_check_rtapp_CFLAGS = $(UNIT_CFLAGS) -DWORKLOADS_DIR='"$(abs_top_srcdir)/tests/workloads"'
tests_unit_check_rtapp_LDADD = $(SIM_LDADD)
tests_unit_check_baselines_SOURCES = tests/unit/check_baselines.c
tests_unit_check_baselines_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_baselines_LDADD = $(SIM_LDADD)
tests_unit_check_tune_SOURCES = tests/unit/check_tune.c
tests_unit_check_tune_CFLAGS = $(UNIT_CFLAGS) -DWORKLOADS_DIR='"$(abs_top_srcdir)/tests/workloads"' \
	-DBOARDS_DIR='"$(abs_top_srcdir)/conf/boards"' -DBLSIM_PATH='"$(abs_top_builddir)/src/sim/blsim"'
tests_unit_check_tune_LDADD = $(SIM_LDADD) -lutil
tests_unit_check_backend_cost_SOURCES = tests/unit/check_backend_cost.c
tests_unit_check_backend_cost_CFLAGS = $(UNIT_CFLAGS) -DWORKLOADS_DIR='"$(abs_top_srcdir)/tests/workloads"' \
	-DBOARDS_DIR='"$(abs_top_srcdir)/conf/boards"' -DBLSIM_PATH='"$(abs_top_builddir)/src/sim/blsim"'
tests_unit_check_backend_cost_LDADD = $(SIM_LDADD)
tests_unit_check_oracle_start_SOURCES = tests/unit/check_oracle_start.c
tests_unit_check_oracle_start_CFLAGS = $(UNIT_CFLAGS) -DWORKLOADS_DIR='"$(abs_top_srcdir)/tests/workloads"' \
	-DBOARDS_DIR='"$(abs_top_srcdir)/conf/boards"' -DBLSIM_PATH='"$(abs_top_builddir)/src/sim/blsim"'
tests_unit_check_oracle_start_LDADD = $(SIM_LDADD)

# The plugin loader. Its test plugins are shared objects built as programs
# (-fPIC -shared): automake builds shared libraries only through libtool,
# and building them here rather than with $(CC) at test time keeps the
# configured compiler and flags (sanitizers included) and needs no compiler
# when the tests run.
test_plugins = \
	tests/unit/plugins/good.so \
	tests/unit/plugins/second.so \
	tests/unit/plugins/plugin-abi.so \
	tests/unit/plugins/heuristic-abi.so \
	tests/unit/plugins/no-symbol.so \
	tests/unit/plugins/clash.so \
	tests/unit/plugins/bad-param.so \
	tests/unit/plugins/undefined.so \
	tests/unit/plugins/broken.so
check_PROGRAMS += $(test_plugins) tests/unit/check_plugins tests/unit/plugin-probe
TESTS += tests/unit/check_plugins
TEST_PLUGIN_CFLAGS = $(AM_CFLAGS) -fPIC -fvisibility=hidden
TEST_PLUGIN_LINKFLAGS = $(AM_LDFLAGS) -shared
tests_unit_plugins_good_so_SOURCES = tests/unit/plugins/test-plugin.c
tests_unit_plugins_good_so_CFLAGS = $(TEST_PLUGIN_CFLAGS) -DVARIANT_GOOD
tests_unit_plugins_good_so_LDFLAGS = $(TEST_PLUGIN_LINKFLAGS)
tests_unit_plugins_second_so_SOURCES = tests/unit/plugins/test-plugin.c
tests_unit_plugins_second_so_CFLAGS = $(TEST_PLUGIN_CFLAGS) -DVARIANT_SECOND
tests_unit_plugins_second_so_LDFLAGS = $(TEST_PLUGIN_LINKFLAGS)
tests_unit_plugins_plugin_abi_so_SOURCES = tests/unit/plugins/test-plugin.c
tests_unit_plugins_plugin_abi_so_CFLAGS = $(TEST_PLUGIN_CFLAGS) -DVARIANT_PLUGIN_ABI
tests_unit_plugins_plugin_abi_so_LDFLAGS = $(TEST_PLUGIN_LINKFLAGS)
tests_unit_plugins_heuristic_abi_so_SOURCES = tests/unit/plugins/test-plugin.c
tests_unit_plugins_heuristic_abi_so_CFLAGS = $(TEST_PLUGIN_CFLAGS) -DVARIANT_HEURISTIC_ABI
tests_unit_plugins_heuristic_abi_so_LDFLAGS = $(TEST_PLUGIN_LINKFLAGS)
tests_unit_plugins_no_symbol_so_SOURCES = tests/unit/plugins/test-plugin.c
tests_unit_plugins_no_symbol_so_CFLAGS = $(TEST_PLUGIN_CFLAGS) -DVARIANT_NO_SYMBOL
tests_unit_plugins_no_symbol_so_LDFLAGS = $(TEST_PLUGIN_LINKFLAGS)
tests_unit_plugins_clash_so_SOURCES = tests/unit/plugins/test-plugin.c
tests_unit_plugins_clash_so_CFLAGS = $(TEST_PLUGIN_CFLAGS) -DVARIANT_CLASH
tests_unit_plugins_clash_so_LDFLAGS = $(TEST_PLUGIN_LINKFLAGS)
tests_unit_plugins_bad_param_so_SOURCES = tests/unit/plugins/test-plugin.c
tests_unit_plugins_bad_param_so_CFLAGS = $(TEST_PLUGIN_CFLAGS) -DVARIANT_BAD_PARAM
tests_unit_plugins_bad_param_so_LDFLAGS = $(TEST_PLUGIN_LINKFLAGS)
tests_unit_plugins_undefined_so_SOURCES = tests/unit/plugins/test-plugin.c
tests_unit_plugins_undefined_so_CFLAGS = $(TEST_PLUGIN_CFLAGS) -DVARIANT_UNDEFINED
tests_unit_plugins_undefined_so_LDFLAGS = $(TEST_PLUGIN_LINKFLAGS)
tests_unit_plugins_broken_so_SOURCES = tests/unit/plugins/test-plugin.c
tests_unit_plugins_broken_so_CFLAGS = $(TEST_PLUGIN_CFLAGS) -DVARIANT_BROKEN
tests_unit_plugins_broken_so_LDFLAGS = $(TEST_PLUGIN_LINKFLAGS)

tests_unit_check_plugins_SOURCES = tests/unit/check_plugins.c
tests_unit_check_plugins_CFLAGS = $(UNIT_CFLAGS) -DTEST_PLUGIN_DIR='"$(abs_top_builddir)/tests/unit/plugins"'
tests_unit_check_plugins_LDADD = $(UNIT_LDADD)
EXTRA_tests_unit_check_plugins_DEPENDENCIES = $(test_plugins)
# Loads a plugin directory and scores a sample with what it found
# (tests/integration/check_plugin_example.sh).
tests_unit_plugin_probe_SOURCES = tests/unit/plugin-probe.c
tests_unit_plugin_probe_CFLAGS = $(AM_CFLAGS)
tests_unit_plugin_probe_LDADD = $(UNIT_LDADD)
