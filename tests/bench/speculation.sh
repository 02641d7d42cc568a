#!/bin/sh
# What speculation buys against what it costs: the shipped default with
# down_delay_ms raised (big is kept that long after the load falls, whether
# more comes or not), on every visible trace. A cell is eta, or E/oracle
# ("E") where always-big is within 2 % of the oracle (issue 8's rule), then
# late_work_ratio. Recorded in tests/bench/RESULTS.md.
#   tests/bench/speculation.sh BUILDDIR [BOARD] [DELAYS]
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR [BOARD] [DELAYS]}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
board=${2:-$src/conf/boards/exynos5422-like.ini}
delays=${3:-50 150 300 600 1000 1500 2000}
blsim=$build/src/sim/blsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cell() {
        "$blsim" run --board "$board" --workload "$1" --config "$tmp/spec.conf" --json |
        awk '
        { gsub(/[",]/, "", $1); gsub(/,/, "", $2); v[$1] = $2 + 0 }
        END {
                if (!("oracle_energy_uj:" in v))
                        exit 1
                if (v["always_big_energy_uj:"] <= 1.02 * v["oracle_energy_uj:"])
                        printf "E %.3f / %.3g", v["energy_uj:"] / v["oracle_energy_uj:"],
                               v["late_work_ratio:"]
                else
                        printf "%.2f / %.3g", v["eta:"], v["late_work_ratio:"]
        }'
}

printf '| down_delay_ms |'
for w in "$src"/tests/workloads/*.csv; do printf ' %s |' "$(basename "$w" .csv)"; done
printf '\n|---|'
for w in "$src"/tests/workloads/*.csv; do printf -- '---|'; done
printf '\n'
for d in $delays; do
        printf '[hysteresis]\ndown_delay_ms = %s\n' "$d" >"$tmp/spec.conf"
        printf '| %s |' "$d"
        for w in "$src"/tests/workloads/*.csv; do
                c=$(cell "$w") || { echo "$0: blsim run failed on $w" >&2; exit 1; }
                printf ' %s |' "$c"
        done
        printf '\n'
done
