#!/bin/sh
# The shipped default on the workload families (blsim generate), per family:
# the distribution of its eta and late_work_ratio over the family's traces,
# with the reactive oracle's (blsim(1): the oracle's levels taken at the
# default's sampling interval) beside it, on each board in cluster mode, as
# markdown. Recorded in tests/bench/RESULTS.md.
#   [BOARDS="FILE ..."] tests/bench/families.sh BUILDDIR [SEEDS | DIR]
# SEEDS (A-B) are generated into a temporary directory, by default the report
# seeds 1001-1016 of tests/workloads/families/README.md (never tune on them);
# a DIR holds traces named FAMILY-SEED.csv, as blsim generate --all writes
# them. BOARDS defaults to the exynos5422-like and tc2 models.
# Per family: worst / 10 % / median, where the 10 % figure is the 10th
# percentile of eta (low is bad) and the 90th of late (high is bad), nearest
# rank; "n/a" traces are those whose eta is undefined (the oracle saves
# nothing over always-big), left out of the eta columns but not the late ones.
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR [SEEDS | DIR]}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
what=${2:-1001-1016}
boards=${BOARDS:-$src/conf/boards/exynos5422-like.ini $src/conf/boards/tc2.ini}
blsim=$build/src/sim/blsim

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -d "$what" ]; then
        dir=$what
else
        dir=$tmp/traces
        "$blsim" generate --all --seeds "$what" --out-dir "$dir" >/dev/null
fi

# "family eta late reactive_eta reactive_late" of one trace, from one blsim
# run --json (it scores the reactive oracle beside the policy).
figures() {
        "$blsim" run --board "$1" --mode cluster --workload "$2" --json |
        awk -v family="$3" '
        function value(line) { sub(/^[^:]*: */, "", line); sub(/,$/, "", line); return line }
        /^  "late_work_ratio":/ { late = value($0) }
        /^  "eta":/ { eta = value($0) }
        /^  "reactive_oracle_late_work_ratio":/ { rlate = value($0) }
        /^  "reactive_oracle_eta":/ { reta = value($0) }
        END { print family, eta, late, reta, rlate }'
}

# Reads "family eta late reactive_eta reactive_late" lines, sorted by family;
# prints one row per family and one for all of them.
table() {
        awk '
        function sortn(a, n,    i, j, v) {
                for (i = 2; i <= n; i++) {
                        v = a[i]
                        for (j = i - 1; j >= 1 && a[j] > v; j--)
                                a[j + 1] = a[j]
                        a[j + 1] = v
                }
        }
        function rank(a, n, p,    k) { k = int(p * n); if (k < p * n) k++; if (k < 1) k = 1; return a[k] }
        # worst / 10 % / median of eta (low is bad)
        function etas(a, n) {
                if (n == 0) return "n/a | n/a | n/a"
                sortn(a, n)
                return sprintf("%.2f | %.2f | %.2f", a[1], rank(a, n, 0.1), rank(a, n, 0.5))
        }
        # worst / 10 % / median of late (high is bad)
        function lates(a, n) {
                sortn(a, n)
                return sprintf("%.3g | %.3g | %.3g", a[n], rank(a, n, 0.9), rank(a, n, 0.5))
        }
        function add(k, eta, late, reta, rlate) {
                traces[k]++
                if (eta != "null") de[k, ++nde[k]] = eta; else undef[k]++
                dl[k, traces[k]] = late
                if (reta != "null") re[k, ++nre[k]] = reta
                rl[k, traces[k]] = rlate
        }
        function row(k, label,    i, a, b, c, d) {
                for (i = 1; i <= nde[k]; i++) a[i] = de[k, i]
                for (i = 1; i <= traces[k]; i++) b[i] = dl[k, i]
                for (i = 1; i <= nre[k]; i++) c[i] = re[k, i]
                for (i = 1; i <= traces[k]; i++) d[i] = rl[k, i]
                printf "| %s | %d | %d | %s | %s | %s | %s |\n", label, traces[k], undef[k] + 0,
                        etas(a, nde[k] + 0), lates(b, traces[k]), etas(c, nre[k] + 0), lates(d, traces[k])
        }
        {
                if ($1 != last) order[++nf] = $1
                last = $1
                add($1, $2, $3, $4, $5)
                add(" all", $2, $3, $4, $5)
        }
        END {
                for (i = 1; i <= nf; i++) row(order[i], order[i])
                row(" all", "all families")
        }'
}

for board in $boards; do
        name=$(basename "$board" .ini)
        : >"$tmp/rows"
        for f in "$dir"/*.csv; do
                base=$(basename "$f" .csv)
                figures "$board" "$f" "${base%-*}" >>"$tmp/rows"
        done
        printf '\n### %s, cluster mode, %s\n\n' "$name" "$(ls "$dir"/*.csv | wc -l | tr -d ' ') traces ($what)"
        printf '| family | traces | eta n/a | default eta worst | 10 %% | median | default late worst | 10 %% | median |'
        printf ' reactive eta worst | 10 %% | median | reactive late worst | 10 %% | median |\n'
        printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
        sort -s -k1,1 "$tmp/rows" | table
done
