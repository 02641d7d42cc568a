#!/bin/sh
# check-vm-service.sh: the Debian package under a real systemd (make
# check-vm-service, issue 15 item 2). The package is cross-built for arm64
# from this source tree (dpkg-buildpackage -aarm64 -Pnocheck,pkg.biglittle.nosim:
# no blsim, whose libumockdev-dev cannot be installed for two architectures
# at once), a Debian 12
# arm64 root file system made with mmdebstrap boots as an initramfs with
# systemd as PID 1 on Debian's own kernel under QEMU, and
# tests/vm/service/guest-test.sh installs the package and drives the service
# (systemctl, journalctl, switchctl as root and as a user, polkit, reload,
# watchdog, kill -9, stop). Its TAP comes back over the serial console:
#   ok N - what was checked
#   ok 1 # SKIP reason      without root, QEMU, mmdebstrap, arm64 emulation,
#                           the cross build dependencies or the archive
# Run from the build directory. Kept between runs: the kernel in vm-cache/
# (shared with make check-vm), the root file system and the package in
# vm-cache/service/ (the package is rebuilt when the sources change). The
# console log and the daemon's journal go to vm-results/service/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
build=$(pwd)
cache=$build/vm-cache
svc=$cache/service
results=$build/vm-results/service
mkdir -p "$svc" "$results"
# The whole guest run; it takes about 3 minutes on two host cores.
guest_timeout=${VM_SERVICE_TIMEOUT:-1200}
# What the service needs in the guest beyond minbase: systemd and udev (the
# daemon's CPU events), the system bus, polkit for unprivileged callers,
# libinih1 (the package's one dependency outside minbase), procps.
include=systemd-sysv,udev,dbus,polkitd,libinih1,procps
mirror=${VM_MIRROR:-http://deb.debian.org/debian}

skip() {
        echo "1..1"
        echo "ok 1 # SKIP $*"
        exit 0
}
fail() {
        echo "1..1"
        echo "not ok 1 - $*"
        exit 1
}

[ "$(id -u)" = 0 ] || skip "needs root (mmdebstrap builds the guest's root file system in root mode)"
for tool in qemu-system-aarch64 dtc cpio mmdebstrap arch-test dpkg-buildpackage dpkg-checkbuilddeps apt-get; do
        command -v "$tool" >/dev/null 2>&1 || skip "no $tool (./quickstart.sh vm-service installs what this test needs)"
done
[ -f "$top/debian/control" ] || skip "no debian/ here (a release tarball): run it from a git checkout"
[ -f "$top/tests/vm/fetch.sh" ] && [ -f "$top/tests/vm/mkdtb.sh" ] ||
        skip "no tests/vm/fetch.sh or mkdtb.sh (the VM test's kernel and device trees)"
grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null ||
        skip "no arm64 emulation for mmdebstrap: qemu-user-static and binfmt-support, binfmt_misc mounted" \
                "(./quickstart.sh vm-service sets it up)"
if ! why=$(cd "$top" && dpkg-checkbuilddeps -aarm64 -Pnocheck,pkg.biglittle.nosim 2>&1); then
        skip "$(echo "$why" | sed 's/^dpkg-checkbuilddeps: error: //') for arm64 (./quickstart.sh vm-service installs them)"
fi

if ! why=$("$top/tests/vm/fetch.sh" "$cache"); then
        skip "$why"
fi
kernel=$(ls "$cache"/kernel/boot/vmlinuz-* | head -n 1)
dtb=$svc/4+4.dtb
if [ ! -f "$dtb" ]; then
        "$top/tests/vm/mkdtb.sh" "$dtb.tmp" 4+4 0 0 >"$results/mkdtb.log" 2>&1 && mv "$dtb.tmp" "$dtb" ||
                fail "mkdtb.sh failed: see $results/mkdtb.log"
fi

# The root file system, made once per package list: an uncompressed cpio, so
# that the overlay can follow it.
rootfs=$svc/rootfs.cpio
if [ ! -f "$rootfs" ] || [ "$(cat "$svc/rootfs.key" 2>/dev/null)" != "$include $mirror" ]; then
        rm -rf "$svc/rootfs.tmp" "$rootfs"
        mmdebstrap --mode=root --architectures=arm64 --variant=minbase --include="$include" \
                bookworm "$svc/rootfs.tmp" "$mirror" >"$results/mmdebstrap.log" 2>&1 ||
                skip "mmdebstrap failed (the archive?): $(tail -n 1 "$results/mmdebstrap.log")"
        (cd "$svc/rootfs.tmp" && find . | cpio -o -H newc --quiet) >"$rootfs.tmp" ||
                fail "cpio of the root file system failed"
        mv "$rootfs.tmp" "$rootfs"
        rm -rf "$svc/rootfs.tmp"
        echo "$include $mirror" >"$svc/rootfs.key"
fi

# The package, from a copy of the sources (a git checkout: the files git
# knows, committed or not; otherwise the tree as it is), rebuilt when they
# changed.
files() {
        if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
                git -C "$top" ls-files --cached --others --exclude-standard
        else
                (cd "$top" && find . -path ./build -prune -o -path './vm-*' -prune -o -type f -print)
        fi
}
key=$(cd "$top" && files | LC_ALL=C sort | while IFS= read -r f; do [ -f "$f" ] && echo "$f"; done |
        tr '\n' '\0' | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
deb=$(ls "$svc"/pkg/biglittle_*_arm64.deb 2>/dev/null | head -n 1)
if [ -z "$deb" ] || [ "$(cat "$svc/pkg.key" 2>/dev/null)" != "$key" ]; then
        rm -rf "$svc/pkg"
        mkdir -p "$svc/pkg/src"
        (cd "$top" && files | while IFS= read -r f; do [ -f "$f" ] && echo "$f"; done | cpio -pdm --quiet "$svc/pkg/src") ||
                fail "copying the sources failed"
        (cd "$svc/pkg/src" && dpkg-buildpackage -b -us -uc -aarm64 -Pnocheck,pkg.biglittle.nosim) >"$results/dpkg-buildpackage.log" 2>&1 ||
                fail "dpkg-buildpackage -aarm64 failed: see $results/dpkg-buildpackage.log"
        deb=$(ls "$svc"/pkg/biglittle_*_arm64.deb 2>/dev/null | head -n 1)
        [ -n "$deb" ] || fail "dpkg-buildpackage made no biglittle_*_arm64.deb"
        echo "$key" >"$svc/pkg.key"
fi

# The overlay: the package, the test and its unit; the serial getty masked so
# that nothing else reads or writes the console's line.
ov=$svc/overlay
rm -rf "$ov"
mkdir -p "$ov/root" "$ov/usr/local/sbin" "$ov/etc/systemd/system/multi-user.target.wants"
cp "$deb" "$ov/root/biglittle.deb"
cp "$here/guest-test.sh" "$ov/usr/local/sbin/bl-service-test"
chmod 755 "$ov/usr/local/sbin/bl-service-test"
cp "$here/bl-service-test.service" "$ov/etc/systemd/system/"
ln -s ../bl-service-test.service "$ov/etc/systemd/system/multi-user.target.wants/bl-service-test.service"
ln -s /dev/null "$ov/etc/systemd/system/serial-getty@ttyAMA0.service"
echo bl-guest >"$ov/etc/hostname"
(cd "$ov" && find . | cpio -o -H newc -R 0:0 --quiet) >"$svc/overlay.cpio" || fail "cpio of the overlay failed"
cat "$rootfs" "$svc/overlay.cpio" >"$svc/initrd.cpio"

# 2 GB: the root file system lives in the guest's memory, once as the
# initramfs image while it unpacks and then as files. systemd's status only on
# errors, so that the console carries little beside the test's lines.
log=$results/console.log
timeout --kill-after=10 "$guest_timeout" qemu-system-aarch64 \
        -machine virt,gic-version=2 -cpu cortex-a57 -smp 8 -m 2048 \
        -nographic -nic none -no-reboot \
        -kernel "$kernel" -initrd "$svc/initrd.cpio" -dtb "$dtb" \
        -append "console=ttyAMA0 panic=-1 loglevel=3 rdinit=/lib/systemd/systemd systemd.show_status=error" \
        </dev/null >"$log" 2>&1
status=$?
rm -f "$svc/initrd.cpio"

tr -d '\r' <"$log" | sed -n 's/^.*BLLOG //p' >"$results/journal.txt"
tr -d '\r' <"$log" | sed -n 's/^.*BLTAP //p' >"$results/guest.tap"
cat "$results/guest.tap"
if ! tr -d '\r' <"$log" | grep -q BLDONE; then
        # Numbered after whatever the guest managed to say, so the plan fits.
        n=$(sed -n 's/^\(not \)*ok \([0-9]*\).*/\2/p' "$results/guest.tap" | tail -n 1)
        n=$((${n:-0} + 1))
        echo "not ok $n - the guest did not finish (qemu exit $status after at most $guest_timeout s): see $log"
        echo "1..$n"
        exit 1
fi
# The exit status too, for make and CI.
! grep -q '^not ok' "$results/guest.tap"
