#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The example plugin (examples/plugin) built out of the tree against nothing
# but what "make install" installed (the header, found through pkg-config),
# installed into the plugin directory and loaded from there by the daemon's
# loader (tests/unit/plugin-probe). Prints TAP.
set -u
top_srcdir=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${TOP_BUILDDIR:-$(pwd)}
probe="$top_builddir/tests/unit/plugin-probe"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_plugin_example.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
dest="$tmp/dest"
example="$tmp/example"
# Run from "make check", the makes below are not its sub-makes: without
# this they would complain about (or wait on) the caller's job server.
unset MAKEFLAGS MFLAGS MAKELEVEL
make=${MAKE:-make}
failed=""

echo "1..4"

# $1: test number, $2: description, $3: log to show on failure; the rest runs.
check() {
        n=$1 what=$2 log=$3
        shift 3
        if [ -n "$failed" ]; then
                echo "ok $n - $what # SKIP test $failed failed"
        elif "$@" >"$log" 2>&1; then
                echo "ok $n - $what"
        else
                sed 's/^/# /' "$log"
                echo "not ok $n - $what"
                failed=$n
        fi
}

install_tree() {
        "$make" -C "$top_builddir" install DESTDIR="$dest" || return 1
        pc=$(find "$dest" -path '*/pkgconfig/bigLittle-policy.pc' | head -n 1)
        [ -n "$pc" ] || { echo "no bigLittle-policy.pc installed"; return 1; }
        header=$(find "$dest" -path '*/include/bigLittle/bl-policy.h' | head -n 1)
        [ -n "$header" ] || { echo "no include/bigLittle/bl-policy.h installed"; return 1; }
        # Only this .pc, wherever the build's prefix points, not one on the system.
        PKG_CONFIG_LIBDIR=$(dirname "$pc")
        PKG_CONFIG_PATH=
        export PKG_CONFIG_LIBDIR PKG_CONFIG_PATH
}

# The .pc names the installed header, and the daemon's default plugin directory.
query_pkgconfig() {
        cflags=$(PKG_CONFIG_SYSROOT_DIR="$dest" pkg-config --cflags bigLittle-policy) || return 1
        incdir=$(echo $cflags | sed -n 's/^-I//p')
        echo "Cflags: $cflags"
        [ "$incdir/bl-policy.h" = "$header" ] || { echo "expected -I$(dirname "$header")"; return 1; }
        plugindir=$(pkg-config --variable=plugindir bigLittle-policy) || return 1
        default_dir=$("$probe" --default-dir) || return 1
        echo "plugindir=$plugindir, the daemon's default: $default_dir"
        [ "$plugindir" = "$default_dir" ] && [ -d "$dest$plugindir" ]
}

# A copy, as a third party would have it (the source tree may be read-only);
# the compiler must have read the installed header and nothing of the tree.
build_example() {
        cp -R "$top_srcdir/examples/plugin" "$example" && chmod -R u+w "$example" || return 1
        PKG_CONFIG_SYSROOT_DIR="$dest" "$make" -C "$example" CFLAGS="-O2 -g -Werror" || return 1
        [ -f "$example/example-boost.so" ] || return 1
        (cd "$example" && ${CC:-cc} $cflags -M example-boost.c) >"$tmp/deps" || return 1
        cat "$tmp/deps"
        grep -q "$header" "$tmp/deps" && ! grep -q "$top_srcdir" "$tmp/deps"
}

# Installed by the example's own rule (root-owned, 0644) into the plugin
# directory, made 0755 whatever the umask: what the daemon demands.
load_example() {
        "$make" -C "$example" install DESTDIR="$dest" PLUGINDIR="$plugindir" || return 1
        chmod 0755 "$dest$plugindir" || return 1
        "$probe" --uid 0 "$dest$plugindir" >"$tmp/probe.out" || return 1
        cat "$tmp/probe.out"
        # Peak demand 300 under 20% pressure, boosted by the default 150%.
        [ "$(cat "$tmp/probe.out")" = "example-boost 450.0" ]
}

check 1 "make install DESTDIR= installs the header and bigLittle-policy.pc" "$tmp/install.log" install_tree
check 2 "pkg-config gives the installed header and the daemon's plugin directory" "$tmp/pc.log" \
        query_pkgconfig
check 3 "examples/plugin builds out of the tree against the installed header" "$tmp/build.log" build_example
if [ "$(id -u)" != 0 ]; then
        echo "ok 4 - the loader takes the example from the installed plugin directory # SKIP not root"
else
        check 4 "the loader takes the example from the installed plugin directory" "$tmp/load.log" \
                load_example
fi
