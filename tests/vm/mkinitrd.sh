#!/bin/sh
# mkinitrd.sh OUT.cpio.gz CACHE ARM64_BUILD
# The guest's whole userland as an initramfs: busybox (from fetch.sh's
# CACHE), the cross-built bigLittled, switchctl and bench_floor
# (ARM64_BUILD), vm-tool, the libraries they load, cpufreq-dt.ko, the shipped
# configuration and tests/vm/guest-init.sh as /init.
set -eu
out=$1 cache=$2 build=$3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
multiarch=aarch64-linux-gnu
libdirs="/lib/$multiarch /usr/lib/$multiarch"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" "$root/lib/$multiarch" "$root/etc" \
        "$root/proc" "$root/sys" "$root/dev" "$root/run" "$root/tmp" "$root/lib/modules"

cp "$cache/busybox/bin/busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
install -m 0755 "$here/guest-init.sh" "$root/init"
cp "$top/conf/bigLittle.conf" "$root/etc/bigLittle.conf"
install -m 0755 "$build/src/daemon/bigLittled" "$root/usr/sbin/bigLittled"
install -m 0755 "$build/src/ctl/switchctl" "$root/usr/bin/switchctl"
install -m 0755 "$build/tests/bench/bench_floor" "$root/usr/bin/bench_floor"
install -m 0755 "$build/vm-tool" "$root/usr/bin/vm-tool"
ko=$(find "$cache/kernel/lib/modules" -name cpufreq-dt.ko | head -n 1)
[ -n "$ko" ] && cp "$ko" "$root/lib/modules/"

# The shared libraries the programs need, and theirs, from the host's arm64
# multiarch directories (the :arm64 -dev packages installed them).
needed() {
        "$multiarch-readelf" -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}
queue="$root/usr/sbin/bigLittled $root/usr/bin/switchctl $root/usr/bin/bench_floor $root/usr/bin/vm-tool"
while [ -n "$queue" ]; do
        set -- $queue
        file=$1
        shift
        queue="$*"
        for lib in $(needed "$file"); do
                [ -e "$root/lib/$multiarch/$lib" ] && continue
                found=""
                for d in $libdirs; do
                        [ -e "$d/$lib" ] && { found="$d/$lib"; break; }
                done
                [ -n "$found" ] || { echo "mkinitrd.sh: $lib (needed by $file) not found in $libdirs" >&2; exit 1; }
                cp -L "$found" "$root/lib/$multiarch/$lib"
                queue="$queue $root/lib/$multiarch/$lib"
        done
done
cp -L "/lib/ld-linux-aarch64.so.1" "$root/lib/ld-linux-aarch64.so.1"

(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 >"$out"
