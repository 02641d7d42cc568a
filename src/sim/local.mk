# blsim: the simulator. It links the same core and heuristics as the daemon
# and plays the kernel itself, so it uses neither sources nor backends; blsim
# live plays it on the fake board of src/fakeboard/ for a real daemon.
noinst_LIBRARIES += src/sim/libblsim.a
src_sim_libblsim_a_SOURCES = \
	src/sim/trace.h src/sim/trace.c \
	src/sim/workload.h src/sim/workload.c \
	src/sim/exec.h src/sim/exec.c \
	src/sim/modes.h src/sim/modes.c \
	src/sim/oracle.h src/sim/oracle.c \
	src/sim/reactive.h src/sim/reactive.c \
	src/sim/bound.h src/sim/bound.c \
	src/sim/policy-inputs.h src/sim/policy-inputs.c \
	src/sim/run.h src/sim/run.c \
	src/sim/presets.h src/sim/presets.c \
	src/sim/report.h src/sim/report.c \
	src/sim/rtapp-json.h src/sim/rtapp-json.c \
	src/sim/rtapp.h src/sim/rtapp.c src/sim/rtapp-model.h src/sim/rtapp-compile.h src/sim/rtapp-compile.c \
	src/sim/rtapp-builder.h src/sim/rtapp-builder.c \
	src/sim/tune.h src/sim/tune.c src/sim/tune-report.c src/sim/tune-progress.c \
	src/sim/live.h src/sim/live.c \
	src/sim/dts-reader.h src/sim/dts-reader.c \
	src/sim/board-import.h src/sim/board-import.c \
	src/sim/verb-board.h src/sim/verb-board.c \
	src/sim/datadir.h src/sim/datadir.c
src_sim_libblsim_a_CFLAGS = $(AM_CFLAGS) $(INIH_CFLAGS)

# The workload families (blsim generate). A seed must give the same bytes on
# every machine, so no multiply-add is fused: gnu11 lets GCC fuse them where
# the CPU has FMA (arm64), which rounds differently.
noinst_LIBRARIES += src/sim/libblgen.a
src_sim_libblgen_a_SOURCES = \
	src/sim/generate.h src/sim/generate-jobs.h src/sim/generate-jobs.c src/sim/generate.c \
	src/sim/generate-families.c \
	src/sim/verb-generate.h src/sim/verb-generate.c
src_sim_libblgen_a_CFLAGS = $(AM_CFLAGS) -ffp-contract=off

if HAVE_UMOCKDEV
bin_PROGRAMS += src/sim/blsim
src_sim_blsim_SOURCES = src/sim/main.c src/sim/cli.h src/sim/cli.c src/sim/scenario.h src/sim/scenario.c \
	src/sim/verb-run.h src/sim/verb-run.c src/sim/verb-tune.h src/sim/verb-tune.c \
	src/sim/verb-live.h src/sim/verb-live.c src/sim/verb-list.h src/sim/verb-list.c
src_sim_blsim_CPPFLAGS = $(AM_CPPFLAGS) -DBOARDSDIR='"$(boardsdir)"' -DWORKLOADSDIR='"$(workloadsdir)"'
# Run from the build tree, blsim takes the boards and workloads of the source
# tree this file names (sim/datadir.h); it is not installed.
noinst_DATA += src/sim/blsim.srcdir
CLEANFILES += src/sim/blsim.srcdir
src/sim/blsim.srcdir: Makefile
	$(AM_V_GEN)$(MKDIR_P) src/sim && (cd '$(srcdir)' && pwd) > $@
src_sim_blsim_LDADD = src/sim/libblgen.a src/sim/libblsim.a src/fakeboard/libblfakeboard.a \
	src/loaders/libblloaders.a src/common/libblcommon.a \
	policy/libblpolicy.a src/core/libblcore.a $(SYSTEMD_LIBS) $(INIH_LIBS) $(UMOCKDEV_LIBS) $(LIBM) -lpthread
endif
