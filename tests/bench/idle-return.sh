#!/bin/sh
# How long after a load the daemon is back at the lowest level, on a board
# whose cpuidle credits residency the kernel's way (exynos5422-kernel-idle):
# tests/integration/check_idle's load test (the shipped configuration, dry
# run; 4 x 100 % on LITTLE for 2 s, then 2 % on every CPU) at 20 ms and at
# the shipped 10 ms sampling, RUNS times (default 10), and per interval the
# times seen (ms from the load's end to the daemon's "switch big -> little")
# and the runs in which it was not back within 1 s or switched again.
# Recorded in tests/bench/RESULTS.md.
#   tests/bench/idle-return.sh BUILDDIR [RUNS]
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR [RUNS]}" && pwd)
runs=${2:-10}
test=$build/tests/integration/check_idle
[ -x "$test" ] || { echo "idle-return: $test is not built (make check TESTS= builds it)" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT

failed=0
i=0
while [ "$i" -lt "$runs" ]; do
        # The idle test too: it is part of what a run must pass.
        CK_RUN_CASE=kernel-residency "$test" >>"$out" 2>&1 || failed=$((failed + 1))
        i=$((i + 1))
done
echo "$runs runs of check_idle, load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
for ms in 20 10; do
        sed -n "s/^# sampling $ms ms: back to little \([0-9]*\) ms after the load ended$/\1/p" "$out" |
        sort -n |
        awk -v ms="$ms" '
        { t[NR] = $1 }
        END {
                if (NR == 0) { printf "sampling %s ms: no run came back\n", ms; exit }
                printf "sampling %s ms: back to little in %d runs: min %d ms, median %d ms, max %d ms\n",
                       ms, NR, t[1], t[int((NR + 1) / 2)], t[NR]
        }'
done
echo "runs with a failed check (not back within 1 s, a switch on the idle board, or another): $failed"
grep -A3 ':F:' "$out" | cut -c1-200 || true
