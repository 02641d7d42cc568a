#!/bin/sh
# boot.sh KERNEL INITRD DTB NCPUS SECONDS LOG [KERNEL-ARGS...]
# One guest run: Debian's arm64 kernel on QEMU's virt machine (TCG), the
# project's device tree, the console into LOG. GICv2: with GICv3 QEMU 7.2's
# guest hangs at boot once PSCI idle states exist (and v2 allows 8 CPUs).
# Always under timeout: a guest that hangs must not hang the test run.
set -eu
kernel=$1 initrd=$2 dtb=$3 ncpus=$4 seconds=$5 log=$6
shift 6
exec timeout --kill-after=10 "$seconds" "${QEMU:-qemu-system-aarch64}" \
        -machine virt,gic-version=2 -cpu cortex-a57 -smp "$ncpus" -m 1024 \
        -nographic -nic none -no-reboot \
        -kernel "$kernel" -initrd "$initrd" -dtb "$dtb" \
        -append "console=ttyAMA0 panic=-1 loglevel=3 $*" </dev/null >"$log" 2>&1
