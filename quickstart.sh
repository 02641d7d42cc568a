#!/bin/sh
# The README's quick start.
#   ./quickstart.sh demo   build, then run the daemon on blsim's live Exynos 5422 while 28 s of
#                          load play, with switchctl monitor, the energy against the references
#                          and the timeline plot (tests/demo/run-demo.sh)
#   ./quickstart.sh test   build, then run the whole test suite: plain (-Werror), under
#                          AddressSanitizer + UndefinedBehaviorSanitizer, and make distcheck
#   ./quickstart.sh vm     build, then make check-vm: the daemon on Debian's arm64 kernel under
#                          QEMU (tests/vm/check-vm.sh); first installs QEMU, the arm64 cross
#                          toolchain and the arm64 -dev packages (multiarch)
#   ./quickstart.sh vm-service  build, then make check-vm-service: the Debian package installed
#                          and run under systemd in an arm64 Debian guest (tests/vm/service/);
#                          also installs mmdebstrap, arm64 emulation (qemu-user-static) and
#                          debhelper, and turns the emulation on
# As root on Debian 12 it first installs the build dependencies with apt-get.
set -eu
cd "$(dirname "$0")"
top=$(pwd)

DEPS="build-essential autoconf automake autoconf-archive pkg-config
      libsystemd-dev libudev-dev libinih-dev check umockdev libumockdev-dev systemd gnuplot-nox
      dbus-daemon zsh bash-completion"

install_deps() {
        missing=""
        for p in $DEPS; do
                dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
        done
        [ -n "$missing" ] || return 0
        if [ "$(id -u)" -ne 0 ]; then
                echo "quickstart: missing packages:$missing (run as root, or install them)" >&2
                exit 1
        fi
        echo "quickstart: installing$missing"
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
}

# What make check-vm needs beyond the build: QEMU, dtc, cpio and an arm64 cross
# build (Debian multiarch). Returns non-zero when they cannot be installed.
VM_DEPS="qemu-system-arm device-tree-compiler cpio crossbuild-essential-arm64
         libsystemd-dev:arm64 libudev-dev:arm64 libinih-dev:arm64"

install_vm_deps() {
        missing=""
        for p in $VM_DEPS; do
                dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
        done
        [ -n "$missing" ] || return 0
        if [ "$(id -u)" -ne 0 ]; then
                echo "quickstart: missing packages:$missing (run as root, or install them)" >&2
                return 1
        fi
        echo "quickstart: installing$missing"
        dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
        apt-get update -q &&
                DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
}

# What make check-vm-service needs beyond make check-vm's: mmdebstrap with
# arm64 emulation for the guest's root file system, and what a cross
# dpkg-buildpackage of the package needs (pkgconf:arm64 gives the
# aarch64-linux-gnu-pkg-config it uses).
VM_SERVICE_DEPS="mmdebstrap arch-test qemu-user-static binfmt-support debhelper dpkg-dev pkgconf:arm64"

install_vm_service_deps() {
        install_vm_deps || return 1
        missing=""
        for p in $VM_SERVICE_DEPS; do
                dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
        done
        if [ -n "$missing" ]; then
                [ "$(id -u)" -eq 0 ] || { echo "quickstart: missing packages:$missing (run as root)" >&2; return 1; }
                echo "quickstart: installing$missing"
                DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing || return 1
        fi
        # mmdebstrap runs the arm64 maintainer scripts through binfmt_misc.
        [ -f /proc/sys/fs/binfmt_misc/status ] ||
                mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || return 1
        grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null || update-binfmts --enable qemu-aarch64
}

# build DIR CONFIGURE-ARGS...: an out-of-tree build, so plain and sanitizer
# builds live side by side.
build() {
        dir=$1
        shift
        [ -x configure ] || ./autogen.sh
        mkdir -p "$dir"
        (cd "$dir" && "$top/configure" -q "$@" && make -j"$(nproc)" >/dev/null)
}

# Check's own summary lines live in the per-test logs; show them, pass or fail.
check() {
        dir=$1
        status=0
        make -C "$dir" -j"$(nproc)" check || status=$?
        for log in "$dir"/tests/*/*.log; do
                [ -f "$log" ] || continue
                echo "=== $log"
                cat "$log"
        done
        # CI shows only the end of its log: put what failed last.
        if [ "$status" -ne 0 ]; then
                echo "=== $dir/test-suite.log (the logs of the tests that did not pass)"
                cat "$dir/test-suite.log" 2>/dev/null || true
                echo "=== $dir: did not pass"
                grep -h -E '^(FAIL|ERROR|XPASS):' "$dir"/tests/*/*.log || true
        fi
        return $status
}

case "${1:-}" in
demo)
        install_deps
        build build --enable-werror
        make -C build demo
        ;;
test)
        install_deps
        build build --enable-werror
        check build
        echo "=== the same suite under AddressSanitizer + UndefinedBehaviorSanitizer"
        build build-asan --enable-werror --enable-sanitizers
        check build-asan
        echo "=== make distcheck"
        if ! make -C build distcheck >build/distcheck.log 2>&1; then
                tail -n 100 build/distcheck.log
                # automake's test-suite.log holds the logs of every test that did not pass.
                for log in build/bigLittle-*/_build/sub/test-suite.log; do
                        [ -f "$log" ] && { echo "=== $log"; cat "$log"; }
                done
                exit 1
        fi
        grep -A3 "archives ready for distribution" build/distcheck.log || true
        ;;
vm)
        install_deps
        if ! install_vm_deps; then
                echo "quickstart: the VM test packages cannot be installed here; make check-vm not run" >&2
                exit 0
        fi
        build build --enable-werror
        make -C build check-vm
        ;;
vm-service)
        install_deps
        if ! install_vm_service_deps; then
                echo "quickstart: the VM test packages cannot be installed here; make check-vm-service not run" >&2
                exit 0
        fi
        build build --enable-werror
        make -C build check-vm-service
        ;;
*)
        echo "usage: $0 demo|test|vm|vm-service" >&2
        exit 64
        ;;
esac
