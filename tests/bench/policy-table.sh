#!/bin/sh
# The default policy against every baseline and the oracle, on every workload,
# on both board models: eta / late_work_ratio / switches per cell (and / misses
# for rt-app files), as markdown. Visible workloads (tests/workloads/*.csv and
# the rt-app files) and held-out ones (tests/workloads/holdout/*.csv, never
# tuned on) in separate tables.
#   [CONFIG=FILE] tests/bench/policy-table.sh BUILDDIR [MODE]
# MODE is cluster (the default), pair or mp. With CONFIG, the "default" column
# is the shipped configuration with FILE on top (blsim --config). The last
# column is the default's mean samples per second on that workload, as blsim
# counts its decisions. Recorded in tests/bench/RESULTS.md.
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR [MODE]}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
mode=${2:-cluster}
config=${CONFIG:-}
blsim=$build/src/sim/blsim
policies="default ondemand conservative interactive hmp exynos5410 always-big always-little oracle"

# Samples per second of each policy: the default's is per workload (last
# column), the baselines' follow from the intervals of src/sim/presets.c (the
# oracle knows the whole trace and samples nothing).
samples_per_s() {
        case $1 in
        default) echo "per row" ;;
        hmp) echo 100 ;;
        oracle) echo - ;;
        *) echo 50 ;;
        esac
}

header() {
        printf '| workload |'
        for p in $policies; do printf ' %s |' "$p"; done
        printf ' default samples/s |\n|---|'
        for p in $policies; do printf -- '---|'; done
        printf -- '---|\n| samples/s |'
        for p in $policies; do printf ' %s |' "$(samples_per_s "$p")"; done
        printf ' |\n'
}

# One row: "eta / late / switches" per policy; eta is n/a where the oracle
# saves nothing over always-big.
row() {
        "$blsim" compare --board "$2" --mode "$mode" --workload "$1" ${config:+--config "$config"} --json |
        awk -v name="${1#"$src"/tests/workloads/}" -v policies="$policies" '
        /"oracle_switches":/ { gsub(/,/, "", $2); sw["oracle"] = $2 }
        /"policy":/ { gsub(/[",]/, "", $2); p = ($2 == "config") ? "default" : $2 }
        /"samples_per_s":/ { gsub(/,/, "", $2); sps[p] = $2 }
        /"eta":/ { gsub(/,/, "", $2); eta[p] = ($2 == "null") ? "n/a" : sprintf("%.2f", $2) }
        /"late_work_ratio":/ { gsub(/,/, "", $2); late[p] = sprintf("%.3g", $2) }
        /"switches":/ { gsub(/,/, "", $2); if (p != "") sw[p] = $2 }
        /"misses":/ { gsub(/,/, "", $2); miss[p] = $2 }
        END {
                n = split(policies, order, " ")
                eta["oracle"] = "1.00"; late["oracle"] = "0"
                printf "| %s |", name
                for (i = 1; i <= n; i++) {
                        q = order[i]
                        printf " %s / %s / %s%s |", eta[q], late[q], sw[q],
                               (q in miss && miss[q] != "" && miss[q] != "null") ? " / " miss[q] "m" : ""
                }
                printf " %s |\n", sps["default"]
        }'
}

for board in "$src"/conf/boards/exynos5422-like.ini "$src"/conf/boards/tc2.ini; do
        name=$(basename "$board" .ini)
        printf '\n### %s, %s mode, visible workloads\n\n' "$name" "$mode"
        header
        for w in "$src"/tests/workloads/*.csv "$src"/tests/workloads/rt-app/*.json \
                 "$src"/tests/workloads/rt-app/tutorial/*.json; do
                row "$w" "$board"
        done
        printf '\n### %s, %s mode, held-out workloads\n\n' "$name" "$mode"
        header
        for w in "$src"/tests/workloads/holdout/*.csv; do
                row "$w" "$board"
        done
done
