# The fake board: the kernel the simulator and the integration tests play, a
# umockdev testbed that reacts to the daemon's writes, with a pluggable load
# driver. Used by blsim live and by the integration tests' boards
# (tests/fakeboard/); it includes only core, so the simulator may use it (it
# is not a source or a backend). One name for all of it, "fakeboard", as its
# API, bl-fakeboard and tests/fakeboard/ already had; "testbed" is left to
# umockdev's own testbed directory, which this library fills.
noinst_LIBRARIES += src/fakeboard/libblfakeboard.a
src_fakeboard_libblfakeboard_a_SOURCES = src/fakeboard/board.h src/fakeboard/board-internal.h \
	src/fakeboard/board.c src/fakeboard/files.c src/fakeboard/tree.c src/fakeboard/kernel.c \
	src/fakeboard/accounting.c src/fakeboard/process.c src/fakeboard/uevent.c \
	src/fakeboard/faults.c src/fakeboard/step.c
src_fakeboard_libblfakeboard_a_CFLAGS = $(AM_CFLAGS) $(UMOCKDEV_CFLAGS)
