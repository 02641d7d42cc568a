# The daemon on a real arm64 kernel under QEMU (tests/vm/check-vm.sh, issue
# 15): Debian's kernel from the package archive, generated big.LITTLE device
# trees, scenarios in a busybox guest, TAP on the host. Not part of make
# check: it downloads the kernel once and runs for minutes.
check-vm:
	$(SHELL) $(abs_top_srcdir)/tests/vm/check-vm.sh
EXTRA_DIST += tests/vm/check-vm.sh tests/vm/fetch.sh tests/vm/mkdtb.sh tests/vm/mkinitrd.sh \
	tests/vm/boot.sh tests/vm/guest-init.sh tests/vm/vm-tool.c
