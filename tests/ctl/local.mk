# switchctl's tests: its pieces alone, then the whole program against a
# fake org.bigLittle.Switch1 on a private dbus-daemon, and the completion.
check_PROGRAMS += tests/ctl/fake-switch1
tests_ctl_fake_switch1_SOURCES = tests/ctl/fake-switch1.c
tests_ctl_fake_switch1_CFLAGS = $(AM_CFLAGS) $(SYSTEMD_CFLAGS)
tests_ctl_fake_switch1_LDADD = $(SYSTEMD_LIBS)

ctl_tests = tests/ctl/check_ctl_units tests/ctl/check_switchctl
check_PROGRAMS += $(ctl_tests)
TESTS += $(ctl_tests)
tests_ctl_check_ctl_units_SOURCES = tests/ctl/check_ctl_units.c
tests_ctl_check_ctl_units_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(SYSTEMD_CFLAGS)
tests_ctl_check_ctl_units_LDADD = src/ctl/libblctl.a src/common/libblcommon.a $(CHECK_LIBS) $(SYSTEMD_LIBS)
tests_ctl_check_switchctl_SOURCES = tests/ctl/check_switchctl.c tests/ctl/harness.h tests/ctl/harness.c
tests_ctl_check_switchctl_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(SYSTEMD_CFLAGS) \
	-DSWITCHCTL_PATH='"$(abs_top_builddir)/src/ctl/switchctl"' \
	-DFAKE_PATH='"$(abs_top_builddir)/tests/ctl/fake-switch1"' \
	-DGOLDEN_DIR='"$(abs_top_srcdir)/tests/data/ctl"'
tests_ctl_check_switchctl_LDADD = $(CHECK_LIBS) $(SYSTEMD_LIBS)

dist_check_SCRIPTS += tests/ctl/check_completion.sh tests/ctl/check_completion_zsh.sh
TESTS += tests/ctl/check_completion.sh tests/ctl/check_completion_zsh.sh
EXTRA_DIST += tests/ctl/completion-standins.sh
