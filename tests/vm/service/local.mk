# The Debian package under a real systemd in an arm64 VM (issue 15 item 2):
# tests/vm/service/check-vm-service.sh cross-builds the package, boots a
# Debian root file system with systemd as PID 1 and prints TAP. Not part of
# make check: it needs root, builds a root file system once and runs for
# minutes.
check-vm-service:
	$(SHELL) $(abs_top_srcdir)/tests/vm/service/check-vm-service.sh
EXTRA_DIST += tests/vm/service/check-vm-service.sh tests/vm/service/guest-test.sh \
	tests/vm/service/bl-service-test.service
