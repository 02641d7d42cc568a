#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Each file of policy/ compiled from a copy of policy/ alone, with nothing
# else of the tree on the include path: what the plugin ABI promises, that a
# heuristic needs bl-policy.h (and the C library) only, so one of ours can be
# taken out of the tree as a plugin's start. Prints TAP, one test per file.
set -u
top_srcdir=${TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-policy-alone.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

# The copy must lie outside the tree, so that a header read from the tree
# shows in the dependencies below.
case $tmp in "$top_srcdir"/*) echo "1..0 # SKIP TMPDIR is inside the source tree"; exit 0 ;; esac
mkdir "$tmp/policy" && cp "$top_srcdir"/policy/*.c "$top_srcdir"/policy/*.h "$tmp/policy/" || exit 99

n=0
failed=0
for src in "$tmp"/policy/*.c; do
        n=$((n + 1))
        name=policy/$(basename "$src")
        log=$tmp/$(basename "$src" .c).log
        # -MD writes the headers the compiler read: every one of ours must be
        # in the copy (system headers are the C library's).
        if (cd "$tmp" && "$cc" -std=gnu11 -Wall -Werror -I. -c "$name" -o "${name%.c}.o" \
                -MD -MF "${name%.c}.d") >"$log" 2>&1 &&
                ! tr ' \\' '\n\n' <"$tmp/${name%.c}.d" | grep -F "$top_srcdir" >>"$log"; then
                echo "ok $n - $name builds with only policy/ on the include path"
        else
                failed=1
                sed 's/^/# /' "$log"
                echo "not ok $n - $name builds with only policy/ on the include path"
        fi
done
echo "1..$n"
exit "$failed"
