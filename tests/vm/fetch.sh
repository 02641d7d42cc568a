#!/bin/sh
# fetch.sh CACHE: Debian's own arm64 kernel and a static arm64 busybox from
# the package archive, unpacked under CACHE (kernel/, busybox/) and kept
# between runs. Nothing is installed: an arm64 busybox in the host's /bin
# would replace the host's own.
# Exit 77 with the reason on stdout when the archive cannot give them.
set -eu
cache=$1
mkdir -p "$cache"
cd "$cache"

# download PACKAGE DIR: the .deb into CACHE, its tree into DIR.
download() {
        [ -f "$2/.unpacked" ] && return 0
        rm -rf "$2" "$2.tmp"
        # apt-get download as root drops to _apt, which must be able to write here.
        mkdir -p dl && chmod 777 dl
        if ! (cd dl && apt-get download -q "$1" >../apt-download.log 2>&1); then
                echo "apt-get download $1 failed: $(tail -n 1 apt-download.log)"
                exit 77
        fi
        dpkg-deb -x dl/"$(echo "$1" | sed 's/:.*//')"_*.deb "$2.tmp"
        touch "$2.tmp/.unpacked"
        rm -f dl/*.deb
        mv "$2.tmp" "$2"
}

if [ ! -f kernel/.unpacked ]; then
        command -v apt-cache >/dev/null || { echo "no apt-cache: not a Debian host"; exit 77; }
        # The kernel linux-image-arm64 points at today (linux-image-6.1.0-NN-arm64).
        kpkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
                awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
        [ -n "$kpkg" ] || { echo "no linux-image-arm64:arm64 in the archive (dpkg --add-architecture arm64 && apt-get update)"; exit 77; }
        download "$kpkg" kernel
fi
download busybox-static:arm64 busybox

ls kernel/boot/vmlinuz-* >/dev/null 2>&1 || { echo "no vmlinuz in the kernel package"; exit 77; }
[ -x busybox/bin/busybox ] || { echo "no busybox in busybox-static:arm64"; exit 77; }
