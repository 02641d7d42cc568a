# switchctl: the command-line client. It talks to bigLittled only over
# D-Bus; everything but main() is a library so the unit tests link it.
noinst_LIBRARIES += src/ctl/libblctl.a
src_ctl_libblctl_a_SOURCES = \
	src/ctl/args.h src/ctl/args.c \
	src/ctl/client.h src/ctl/client.c \
	src/ctl/output.h src/ctl/output.c \
	src/ctl/verbs.h src/ctl/show.c src/ctl/get.c src/ctl/hold.c src/ctl/monitor.c src/ctl/admin.c
# check-config runs the daemon; the path is compiled in.
src_ctl_libblctl_a_CPPFLAGS = $(AM_CPPFLAGS) -DBIGLITTLED_PATH='"$(sbindir)/bigLittled"'
src_ctl_libblctl_a_CFLAGS = $(AM_CFLAGS) $(SYSTEMD_CFLAGS)

bin_PROGRAMS += src/ctl/switchctl
src_ctl_switchctl_SOURCES = src/ctl/switchctl.c
src_ctl_switchctl_CFLAGS = $(AM_CFLAGS) $(SYSTEMD_CFLAGS)
src_ctl_switchctl_LDADD = src/ctl/libblctl.a src/common/libblcommon.a $(SYSTEMD_LIBS)
