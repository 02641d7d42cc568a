#!/bin/sh
# blsim tune on the visible traces with -j 1 and -j N: the wall time of
# each, and whether the reports are the same bytes (they must be).
#   tests/bench/tune-jobs.sh BUILDDIR [N [BUDGET]]
# Recorded in tests/bench/RESULTS.md.
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR [N [BUDGET]]}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
jobs=${2:-$(getconf _NPROCESSORS_ONLN)}
budget=${3:-40}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

set --
for w in "$src"/tests/workloads/*.csv; do
        set -- "$@" --workload "$w"
done
echo "blsim tune: $(($# / 2)) visible traces, budget $budget, exynos5422-like, $(getconf _NPROCESSORS_ONLN) CPUs online"
for j in 1 "$jobs"; do
        start=$(date +%s.%N)
        "$build/src/sim/blsim" tune --board "$src/conf/boards/exynos5422-like.ini" --budget "$budget" \
                --jobs "$j" --json "$@" >"$tmp/j$j.json"
        end=$(date +%s.%N)
        echo "-j $j: $(echo "$end - $start" | bc) s wall"
done
if cmp -s "$tmp/j1.json" "$tmp/j$jobs.json"; then
        echo "reports: identical"
else
        echo "reports: DIFFER"
        exit 1
fi
