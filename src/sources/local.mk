# Sources: what the kernel says about load, frequency, temperature and topology.
noinst_LIBRARIES += src/sources/libblsources.a
src_sources_libblsources_a_SOURCES = \
	src/sources/procstat.h src/sources/procstat.c \
	src/sources/stat-window.h src/sources/stat-window.c \
	src/sources/self-time.h src/sources/self-time.c \
	src/sources/cpuidle.h src/sources/cpuidle.c \
	src/sources/kept-text.h src/sources/kept-text.c \
	src/sources/psi.h src/sources/psi.c \
	src/sources/loadavg.h src/sources/loadavg.c \
	src/sources/cpufreq.h src/sources/cpufreq.c \
	src/sources/thermal.h src/sources/thermal.c \
	src/sources/topology-udev.h src/sources/topology-udev.c \
	src/sources/sampler.h src/sources/sampler.c \
	src/sources/udev-scan.h src/sources/udev-scan.c \
	src/sources/perf.h src/sources/perf.c \
	src/sources/activity.h src/sources/activity.c \
	src/sources/udev-monitor.h src/sources/udev-monitor.c \
	src/sources/conflicts.h src/sources/conflicts.c
src_sources_libblsources_a_CFLAGS = $(AM_CFLAGS) $(UDEV_CFLAGS) $(SYSTEMD_CFLAGS)
