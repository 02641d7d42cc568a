# The kernel the simulator plays: a umockdev testbed that reacts to the
# daemon's writes, with a pluggable load driver. Used by blsim live and by
# the integration tests' fake boards (tests/fakeboard/); it includes only
# core, so the simulator may use it (it is not a source or a backend).
noinst_LIBRARIES += src/testbed/libbltestbed.a
src_testbed_libbltestbed_a_SOURCES = src/testbed/testbed.h src/testbed/testbed-internal.h \
	src/testbed/board.c src/testbed/files.c src/testbed/tree.c src/testbed/kernel.c \
	src/testbed/accounting.c src/testbed/process.c src/testbed/uevent.c src/testbed/faults.c src/testbed/step.c
src_testbed_libbltestbed_a_CFLAGS = $(AM_CFLAGS) $(UMOCKDEV_CFLAGS)
