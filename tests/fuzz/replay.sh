#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Replays each fuzz target's committed corpus (tests/fuzz/corpus/TARGET/)
# through the target built as a plain program: what libFuzzer found once
# must keep passing. Prints TAP, one test per target.
set -u
top_srcdir=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${TOP_BUILDDIR:-.}
targets="config board trace rtapp procstat psi loadavg sysfs saved_state holds_store dts duration"

echo "1..$(echo $targets | wc -w)"
n=0
for t in $targets; do
        n=$((n + 1))
        out=$("$top_builddir/tests/fuzz/fuzz_$t" "$top_srcdir/tests/fuzz/corpus/$t" 2>&1)
        status=$?
        if [ "$status" -eq 0 ]; then
                echo "ok $n - fuzz_$t: $out"
        else
                echo "not ok $n - fuzz_$t (exit $status)"
                printf '%s\n' "$out" | sed 's/^/# /'
        fi
done
