# Edge helpers shared by the programs: logging and reading config files.
noinst_LIBRARIES += src/common/libblcommon.a
src_common_libblcommon_a_SOURCES = \
	src/common/log.h src/common/log.c \
	src/common/fileio.h src/common/fileio.c \
	src/common/conf-files.h src/common/conf-files.c \
	src/common/plugin-loader.h src/common/plugin-loader.c \
	src/common/json-writer.h src/common/json-writer.c \
	src/common/duration.h src/common/duration.c \
	src/common/board-file.h src/common/board-file.c \
	src/common/energy-model-dir.h src/common/energy-model-dir.c
src_common_libblcommon_a_CFLAGS = $(AM_CFLAGS) $(SYSTEMD_CFLAGS)

# External heuristics (common/plugin-loader.c): the default directory, known
# to the programs as BL_PLUGIN_DIR and installed empty.
policyplugindir = $(pkglibdir)/policy
AM_CPPFLAGS += -DBL_PLUGIN_DIR='"$(policyplugindir)"'
installdirs-local:
	$(MKDIR_P) '$(DESTDIR)$(policyplugindir)'
install-data-local: installdirs-local
