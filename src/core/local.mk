# The pure core: no I/O, linked by the daemon, the simulator and the tests.
noinst_LIBRARIES += src/core/libblcore.a
src_core_libblcore_a_SOURCES = \
	src/core/types.h src/core/types.c \
	src/core/array.h src/core/array.c \
	src/core/cpumask.h src/core/cpumask.c \
	src/core/diag.h src/core/diag.c \
	src/core/topology.h src/core/topology.c \
	src/core/ladder.h src/core/ladder.c \
	src/core/sample.h src/core/sample.c \
	src/core/heuristic.h src/core/heuristic.c \
	src/core/ini-reader.h src/core/ini-reader.c \
	src/core/config.h src/core/config.c \
	src/core/thermal-limits.h src/core/thermal-limits.c \
	src/core/scorer.h src/core/scorer.c \
	src/core/switch-cost.h src/core/switch-cost.c \
	src/core/settle.h src/core/settle.c \
	src/core/tick-jitter.h src/core/tick-jitter.c \
	src/core/board.h src/core/board.c \
	src/core/energy-model.h src/core/energy-model.c \
	src/core/gaps.h src/core/gaps.c \
	src/core/engine.h src/core/engine.c \
	src/core/controller.h src/core/controller.c \
	src/core/holds.h src/core/holds.c \
	src/core/profile.h src/core/profile.c \
	src/core/history.h src/core/history.c \
	src/core/clock-jump.h src/core/clock-jump.c
src_core_libblcore_a_CFLAGS = $(AM_CFLAGS) $(INIH_CFLAGS)
