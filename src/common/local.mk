# Leaves shared by the programs: logging, reading and writing files,
# durations, JSON writing, the cleanup macros, the exit statuses. They
# include nothing of the project outside src/common.
noinst_LIBRARIES += src/common/libblcommon.a
src_common_libblcommon_a_SOURCES = \
	src/common/cleanup.h \
	src/common/exit-status.h \
	src/common/log.h src/common/log.c \
	src/common/fileio.h src/common/fileio.c \
	src/common/json-writer.h src/common/json-writer.c \
	src/common/duration.h src/common/duration.c
src_common_libblcommon_a_CFLAGS = $(AM_CFLAGS) $(SYSTEMD_CFLAGS)
