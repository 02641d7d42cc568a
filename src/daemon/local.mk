sbin_PROGRAMS += src/daemon/bigLittled
src_daemon_bigLittled_SOURCES = \
	src/daemon/main.c \
	src/daemon/options.h src/daemon/options.c \
	src/daemon/daemon.h src/daemon/daemon.c \
	src/daemon/state.h \
	src/daemon/config-load.h src/daemon/config-load.c \
	src/daemon/level.h src/daemon/level.c \
	src/daemon/loop.h src/daemon/loop.c \
	src/daemon/actions.h src/daemon/actions.c \
	src/daemon/bus.h src/daemon/bus.c src/daemon/bus-private.h \
	src/daemon/bus-methods.c src/daemon/bus-properties.c \
	src/daemon/bus-auth.h src/daemon/bus-auth.c \
	src/daemon/bus-describe.h src/daemon/bus-describe.c \
	src/daemon/events.h src/daemon/events.c \
	src/daemon/desktop.h src/daemon/desktop.c \
	src/daemon/switch-worker.h src/daemon/switch-worker.c \
	src/daemon/tick-timer.h src/daemon/tick-timer.c \
	src/daemon/idle-wake.h src/daemon/idle-wake.c \
	src/daemon/holds-store.h src/daemon/holds-store.c \
	src/daemon/message-ids.h \
	src/daemon/saved-state.h src/daemon/saved-state.c \
	src/daemon/record.h src/daemon/record.c \
	src/daemon/model-in-use.h src/daemon/model-in-use.c
src_daemon_bigLittled_CFLAGS = $(AM_CFLAGS) -pthread $(SYSTEMD_CFLAGS) $(UDEV_CFLAGS)
src_daemon_bigLittled_LDFLAGS = -pthread
src_daemon_bigLittled_LDADD = \
	src/backends/libblbackends.a src/sources/libblsources.a src/loaders/libblloaders.a src/common/libblcommon.a \
	policy/libblpolicy.a src/core/libblcore.a \
	$(SYSTEMD_LIBS) $(UDEV_LIBS) $(INIH_LIBS) $(LIBM)
