#!/bin/sh
# The default policy of two builds, trace by trace: what a change does to
# each trace's energy and late work. policy-table.sh counts target misses,
# and a count hides sizes: a launch that was a late-work miss at 0.02 and is
# one at 2.9 after a change moves no count (RESULTS.md, 2026-12-06, "an
# onset that weighs the switch up").
#   [CONFIG=FILE] [OLD_CONFIG=FILE] [NEW_CONFIG=FILE] tests/bench/policy-diff.sh [--modes "M ..."] [--costs "C ..."] [--boards "B ..."]
#                                            [--sets "S ..."] [--top N] OLD_BUILDDIR NEW_BUILDDIR [GENERATED]
# Per board, mode and cost, as markdown: energy and late work (blsim's
# late_work_ratio) summed over the traces and per family, how many traces
# are later (late work over 0.01 and at least twice the old) or earlier (the
# reverse), how many use over 1 % more or less energy, and the N traces
# (default 8) whose late work grew most. --modes, --costs, --boards, --sets
# and GENERATED as policy-table.sh has them (defaults: cluster; board,
# 2000,5000 and 10000,50000; exynos5422-like and tc2; visible and
# generated, the tuning traces). CONFIG is passed to both builds;
# OLD_CONFIG and NEW_CONFIG to one each instead (one build twice compares
# two configurations).
set -eu
usage="usage: $0 [--modes \"M ...\"] [--costs \"C ...\"] [--boards \"B ...\"] [--sets \"S ...\"] [--top N] OLD NEW [GENERATED]"
modes=cluster
costs="board 2000,5000 10000,50000"
boards="exynos5422-like tc2"
sets="visible generated"
top=8
while [ $# -gt 0 ]; do
        case $1 in
        --modes) modes=${2:?--modes needs a list}; shift 2 ;;
        --costs) costs=${2:?--costs needs a list}; shift 2 ;;
        --boards) boards=${2:?--boards needs a list}; shift 2 ;;
        --sets) sets=${2:?--sets needs a list}; shift 2 ;;
        --top) top=${2:?--top needs a number}; shift 2 ;;
        --) shift; break ;;
        -*) echo "$usage" >&2; exit 64 ;;
        *) break ;;
        esac
done
[ $# -ge 2 ] || { echo "$usage" >&2; exit 64; }
old=$(cd "$1" && pwd)/src/sim/blsim
new=$(cd "$2" && pwd)/src/sim/blsim
generated=${3:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
old_config=${OLD_CONFIG:-${CONFIG:-}}
new_config=${NEW_CONFIG:-${CONFIG:-}}
for b in "$old" "$new"; do
        [ -x "$b" ] || { echo "$0: no blsim at $b" >&2; exit 66; }
done
case $top in ''|*[!0-9]*) echo "$0: --top: expected a number, got \"$top\"" >&2; exit 64 ;; esac

# shellcheck source=tests/bench/trace-sets.sh
. "$src/tests/bench/trace-sets.sh"

# "ENERGY_UJ LATE" of the default on one trace with one build.
run() { # BLSIM CONFIG TRACE BOARD MODE COST
        # shellcheck disable=SC2046 # the option and its value are two words
        "$1" run --board "$4" --mode "$5" --workload "$3" ${2:+--config "$2"} $(cost_options "$6") --json |
        awk '
        function value(line) { sub(/^[^:]*: */, "", line); sub(/,$/, "", line); return line }
        /^  "energy_uj":/ { e = value($0) }
        /^  "late_work_ratio":/ { l = value($0) }
        END { if (e == "" || l == "") exit 1; print e, l }'
}

# The tables of one board, mode and cost, from "SET NAME E_OLD L_OLD E_NEW L_NEW" lines.
judge() { # BOARD MODE COST
        awk -v board="$1" -v mode="$2" -v cost="$3" -v top="$top" '
        function later(a, b) { return b > 0.01 && b >= 2 * a }
        $1 == "FAILED" { failed = 1; exit 1 }
        {
                set = $1; name = $2; eo = $3 / 1e6; lo = $4; en = $5 / 1e6; ln = $6
                f = set ~ /^generated:/ ? substr(set, 11) : set
                n++; fam[f]++
                EO += eo; EN += en; LO += lo; LN += ln
                feo[f] += eo; fen[f] += en; flo[f] += lo; fln[f] += ln
                if (later(lo, ln)) nlater++
                if (later(ln, lo)) nearlier++
                if (en > 1.01 * eo) ncostlier++
                if (en < eo / 1.01) ncheaper++
                row[n] = sprintf("| %s | %s | %.3g -> %.3g | %.3f -> %.3f |", name, set, lo, ln, eo, en)
                grow[n] = ln - lo
        }
        END {
                if (failed)
                        exit 1
                printf "\n### %s, %s mode, switch cost %s: %d traces\n\n", board, mode, cost, n
                printf "| | old | new |\n|---|---|---|\n"
                printf "| energy, summed (J) | %.3f | %.3f (%+.2f %%) |\n", EO, EN, (EO > 0 ? 100 * (EN / EO - 1) : 0)
                printf "| late work, summed | %.4g | %.4g |\n", LO, LN
                printf "| traces later / earlier (over 0.01 and 2x) | | %d / %d |\n", nlater, nearlier
                printf "| traces using 1 %% more / less energy | | %d / %d |\n", ncostlier, ncheaper
                printf "\n| family | traces | energy (J) | late work, summed |\n|---|---|---|---|\n"
                nf = 0
                for (f in fam) names[++nf] = f
                for (i = 2; i <= nf; i++)
                        for (j = i; j > 1 && names[j - 1] > names[j]; j--) {
                                t = names[j]; names[j] = names[j - 1]; names[j - 1] = t
                        }
                for (i = 1; i <= nf; i++) {
                        f = names[i]
                        printf "| %s | %d | %.3f -> %.3f | %.4g -> %.4g |\n", f, fam[f], feo[f], fen[f], flo[f], fln[f]
                }
                printf "\nLate work grown most:\n\n| trace | set | late work | energy (J) |\n|---|---|---|---|\n"
                for (k = 1; k <= top && k <= n; k++) {
                        best = 0
                        for (i = 1; i <= n; i++)
                                if (!(i in shown) && (best == 0 || grow[i] > grow[best])) best = i
                        if (best == 0 || grow[best] <= 0) break
                        shown[best] = 1
                        print row[best]
                }
        }'
}

for board in $boards; do
        case $board in */*|*.ini) ;; *) board=$src/conf/boards/$board.ini ;; esac
        name=$(basename "$board" .ini)
        for mode in $modes; do
                for cost in $costs; do
                        traces | while read -r set trace path; do
                                # The judge ends the pipeline, so it is what stops on a failure.
                                a=$(run "$old" "$old_config" "$path" "$board" "$mode" "$cost") ||
                                        { echo "$0: $old failed on $path" >&2; echo FAILED; exit 1; }
                                b=$(run "$new" "$new_config" "$path" "$board" "$mode" "$cost") ||
                                        { echo "$0: $new failed on $path" >&2; echo FAILED; exit 1; }
                                echo "$set $trace $a $b"
                        done | judge "$name" "$mode" "$cost"
                done
        done
done
