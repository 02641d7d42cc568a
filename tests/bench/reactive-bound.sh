#!/bin/sh
# What reacting at a sampling interval costs: the reactive oracle (blsim(1):
# the oracle's levels, taken at the first sample after the oracle needed
# them) per sampling interval, next to the shipped default, on every trace
# in cluster mode, as markdown. Visible traces (tests/workloads/*.csv) and
# held-out ones (tests/workloads/holdout/*.csv) in separate tables.
#   tests/bench/reactive-bound.sh BUILDDIR [BOARD [INTERVALS]]
# BOARD defaults to conf/boards/exynos5422-like.ini, INTERVALS (ms) to
# "1 2 5 10 20". Each cell is the reactive oracle's late_work_ratio / eta at
# that interval (blsim --reactive-interval: a drop-in setting
# sample_interval_ms would do the same from 5 ms up, but the configuration
# refuses less than 5 ms); "default" is the shipped configuration's late /
# eta (10 ms);
# the last column lists the intervals of INTERVALS at which the reactive
# oracle's late_work_ratio is at most 0.01, the largest last (late work need
# not grow with the interval: a longer one also holds big longer). Recorded in
# tests/bench/RESULTS.md.
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR [BOARD [INTERVALS]]}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
board=${2:-$src/conf/boards/exynos5422-like.ini}
intervals=${3:-1 2 5 10 20}
blsim=$build/src/sim/blsim
# "late / eta" of the reactive oracle sampling every $2 ms, then "|", then
# "late / eta" of the shipped default (the same in every run), from one
# blsim run --json.
figures() {
        "$blsim" run --board "$board" --mode cluster --workload "$1" --json --reactive-interval "$2" |
        awk '
        function value(line) { sub(/^[^:]*: */, "", line); sub(/,$/, "", line); return line }
        function cell(which) {
                e = eta[which]
                return sprintf("%.3g / %s", late[which], e == "null" ? "n/a" : sprintf("%.2f", e))
        }
        /^  "late_work_ratio":/ { late["policy"] = value($0) }
        /^  "eta":/ { eta["policy"] = value($0) }
        /^  "reactive_oracle_late_work_ratio":/ { late["reactive"] = value($0) }
        /^  "reactive_oracle_eta":/ { eta["reactive"] = value($0) }
        END { printf "%s|%s\n", cell("reactive"), cell("policy") }'
}

table() {
        printf '| workload |'
        for t in $intervals; do printf ' %s ms |' "$t"; done
        printf ' default (10 ms) | intervals with late <= 0.01 (ms) |\n|---|'
        for t in $intervals; do printf -- '---|'; done
        printf -- '---|---|\n'
        for w in "$@"; do
                met=
                printf '| %s |' "${w#"$src"/tests/workloads/}"
                for t in $intervals; do
                        both=$(figures "$w" "$t")
                        cell=${both%|*}
                        default=${both#*|}
                        printf ' %s |' "$cell"
                        if awk -v late="${cell%% *}" 'BEGIN { exit !(late <= 0.01) }'; then
                                met="${met:+$met, }$t"
                        fi
                done
                printf ' %s | %s |\n' "$default" "${met:-none}"
        done
}

name=$(basename "$board" .ini)
printf '\n### %s, cluster mode, visible traces\n\n' "$name"
table "$src"/tests/workloads/*.csv
printf '\n### %s, cluster mode, held-out traces\n\n' "$name"
table "$src"/tests/workloads/holdout/*.csv
