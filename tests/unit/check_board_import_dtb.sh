#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# blsim board import on what a device gives: each shipped board's input is
# preprocessed and compiled to a DTB (cpp, dtc), decompiled again (dtc -I dtb
# -O dts, as from /sys/firmware/fdt), and imported; the board must be the
# shipped one from [board] on (the header names the files read, which differ,
# and so do the "# cpu@..." lines' table paths). dtc prints some numbers back
# as strings or [bytes]: the reader has to take them as cells. Prints TAP.
set -u
top_srcdir=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${TOP_BUILDDIR:-$(pwd)}
blsim="$top_builddir/src/sim/blsim"
boards="rk3399 rk3588 gs101 mt8183 exynos5422 sdm845"

if ! command -v dtc >/dev/null 2>&1 || ! command -v cpp >/dev/null 2>&1; then
        echo "1..0 # SKIP dtc or cpp is not installed"
        exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_board_import_dtb.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

echo "1..$(echo $boards | wc -w)"
n=0
for b in $boards; do
        n=$((n + 1))
        src="$top_srcdir/tests/data/dts/boards/$b/$b.dts"
        if cpp -nostdinc -undef -x assembler-with-cpp -P "$src" >"$tmp/$b.pp.dts" 2>"$tmp/log" &&
           dtc -q -I dts -O dtb -o "$tmp/$b.dtb" "$tmp/$b.pp.dts" 2>>"$tmp/log" &&
           dtc -q -I dtb -O dts -o "$tmp/$b.dts" "$tmp/$b.dtb" 2>>"$tmp/log" &&
           "$blsim" board import --dts "$tmp/$b.dts" --name "$b" --out "$tmp/$b.ini" 2>>"$tmp/log"; then
                sed -n '/^\[board\]/,$p' "$tmp/$b.ini" | grep -v '^# cpu' >"$tmp/got"
                sed -n '/^\[board\]/,$p' "$top_srcdir/conf/boards/$b.ini" | grep -v '^# cpu' >"$tmp/want"
                if cmp -s "$tmp/got" "$tmp/want"; then
                        echo "ok $n - $b: the decompiled DTB imports as conf/boards/$b.ini"
                else
                        echo "not ok $n - $b: the decompiled DTB imports differently"
                        diff "$tmp/want" "$tmp/got" | sed 's/^/# /' | head -20
                fi
        else
                echo "not ok $n - $b: compiling, decompiling or importing failed"
                sed 's/^/# /' "$tmp/log"
        fi
done
