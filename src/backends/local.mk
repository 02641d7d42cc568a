# Backends: turn a level into kernel writes, and undo them.
noinst_LIBRARIES += src/backends/libblbackends.a
src_backends_libblbackends_a_SOURCES = \
	src/backends/backend.h src/backends/backend.c src/backends/saved-value.c \
	src/backends/sysfs.h src/backends/sysfs.c \
	src/backends/hotplug.h src/backends/hotplug.c \
	src/backends/cpufreq.h src/backends/cpufreq.c \
	src/backends/switcher.h src/backends/switcher.c \
	src/backends/cpuset.h src/backends/cpuset.c \
	src/backends/systemd-unit.h src/backends/systemd-unit.c \
	src/backends/dryrun.c
src_backends_libblbackends_a_CFLAGS = $(AM_CFLAGS) $(SYSTEMD_CFLAGS)
