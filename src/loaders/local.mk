# What the programs read from disk into core's models: board files, the
# configuration files and their drop-ins, the kernel's energy model
# directory, and external heuristics (the plugin loader). Above core and
# policy, below the programs.
noinst_LIBRARIES += src/loaders/libblloaders.a
src_loaders_libblloaders_a_SOURCES = \
	src/loaders/board-file.h src/loaders/board-file.c \
	src/loaders/conf-files.h src/loaders/conf-files.c \
	src/loaders/energy-model-dir.h src/loaders/energy-model-dir.c \
	src/loaders/plugin-loader.h src/loaders/plugin-loader.c

# External heuristics (loaders/plugin-loader.c): the default directory, known
# to the programs as BL_PLUGIN_DIR and installed empty.
policyplugindir = $(pkglibdir)/policy
AM_CPPFLAGS += -DBL_PLUGIN_DIR='"$(policyplugindir)"'
installdirs-local:
	$(MKDIR_P) '$(DESTDIR)$(policyplugindir)'
install-data-local: installdirs-local
