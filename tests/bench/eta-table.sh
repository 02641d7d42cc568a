#!/bin/sh
# The eta / late_work_ratio table of every policy on every visible workload,
# as markdown (recorded in tests/bench/RESULTS.md and the issue notes).
#   tests/bench/eta-table.sh BUILDDIR [BOARD [MODE]]
# MODE is cluster (the default), pair or mp.
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR [BOARD [MODE]]}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
board=${2:-$src/conf/boards/exynos5422-like.ini}
mode=${3:-cluster}

first=1
for w in "$src"/tests/workloads/*.csv "$src"/tests/workloads/rt-app/*.json "$src"/tests/workloads/rt-app/tutorial/*.json; do
        "$build/src/sim/blsim" compare --board "$board" --mode "$mode" --workload "$w" --json |
        awk -v name="${w#"$src"/tests/workloads/}" -v first="$first" '
        /"policy":/ { gsub(/[",]/, "", $2); p = $2; order[++n] = p }
        /"eta":/ { gsub(/,/, "", $2); eta[p] = ($2 == "null") ? "n/a" : sprintf("%.2f", $2) }
        /"late_work_ratio":/ { gsub(/,/, "", $2); late[p] = sprintf("%.3g", $2) }
        /"misses":/ { gsub(/,/, "", $2); miss[p] = $2 }
        END {
                if (first) {
                        printf "| workload |"
                        for (i = 1; i <= n; i++) printf " %s |", order[i]
                        printf "\n|---|"
                        for (i = 1; i <= n; i++) printf "---|"
                        printf "\n"
                }
                printf "| %s |", name
                for (i = 1; i <= n; i++) {
                        p = order[i]
                        printf " %s / %s%s |", eta[p], late[p], (p in miss && miss[p] != "" && miss[p] != "null") ? " / " miss[p] "m" : ""
                }
                printf "\n"
        }'
        first=0
done
