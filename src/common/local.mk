# Edge helpers shared by the programs: logging and reading config files.
noinst_LIBRARIES += src/common/libblcommon.a
src_common_libblcommon_a_SOURCES = \
	src/common/log.h src/common/log.c \
	src/common/fileio.h src/common/fileio.c \
	src/common/conf-files.h src/common/conf-files.c
src_common_libblcommon_a_CFLAGS = $(AM_CFLAGS) $(SYSTEMD_CFLAGS)
