#!/bin/sh
# mp mode (the true eight-core) against cluster mode, per trace, as markdown:
# issue 21's first target and its last table.
#   [CONFIG=FILE] tests/bench/mp-table.sh [--summary] [--costs "C ..."] [--boards "B ..."]
#                                         [--sets "S ..."] BUILDDIR [GENERATED]
# Traces, --costs, --boards, --sets and CONFIG as in policy-table.sh (the
# visible suite, the held-out files, every *.csv under GENERATED).
#
# Per trace, one blsim compare in each mode (oracles starting on the lowest
# level) gives: the mp default's energy
# and late_work_ratio, the cluster default's, the cluster-mode oracle's
# energy (the least any cluster switcher could use) and the mp oracle's.
# Columns:
#   worse   the mp default is worse than the cluster default: over 0.5 %
#           more energy, or a late_work_ratio above max(the cluster
#           default's, 0.01) (issue 21's target; "" when it holds);
#   react   the mp reactive oracle's late_work_ratio (the mp oracle's moves,
#           each taken at the first sample after it: what reacting at the
#           default interval leaves late on mp's ladder); where the mp
#           default is later than the target allows and so is this, "late"
#           reads "late (react too)": mp mode cannot be as prompt as the
#           cluster default there by reacting to what the samples show,
#           only by taking more fast CPUs than the oracle needs;
#   bound   the mp oracle, which leaves no work late, already uses over
#           0.5 % more energy than the cluster default: what mp mode
#           saves on LITTLE cannot pay for the LITTLE cluster it keeps on
#           (with a little lateness allowed a policy could still do less,
#           so this is where the target is unlikely, not proved out of
#           reach);
#   mp/cl-oracle  the mp default's energy over the cluster-mode oracle's:
#           below 1, the true eight-core beats the best any cluster
#           switcher could do.
# A summary line per board, cost and set group ("tuning": visible and
# generated; "held-out"): traces, how many are worse (for energy, for
# lateness, and of the latter how many with the mp reactive oracle beyond
# the target too), how many of those have the bound, how many beat the cluster
# oracle, and the geometric means of mp / cluster default and mp / cluster
# oracle energy. --summary prints the summaries only. Recorded in
# tests/bench/RESULTS.md.
set -eu
usage="usage: $0 [--summary] [--costs \"C ...\"] [--boards \"B ...\"] [--sets \"S ...\"] BUILDDIR [GENERATED]"
summary_only=0
costs="board 2000,5000 10000,50000"
boards="exynos5422-like tc2"
sets="visible held-out generated"
while [ $# -gt 0 ]; do
        case $1 in
        --summary) summary_only=1; shift ;;
        --costs) costs=${2:?--costs needs a list}; shift 2 ;;
        --boards) boards=${2:?--boards needs a list}; shift 2 ;;
        --sets) sets=${2:?--sets needs a list}; shift 2 ;;
        -*) echo "$usage" >&2; exit 64 ;;
        *) break ;;
        esac
done
build=$(cd "${1:?$usage}" && pwd)
generated=${2:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
blsim=$build/src/sim/blsim
config=${CONFIG:-}

oracle_start=lowest
# shellcheck source=tests/bench/trace-sets.sh
. "$src/tests/bench/trace-sets.sh"

# The mp figures, then the cluster ones with their keys prefixed "cl_".
both() { # TRACE BOARD COST
        printf '%s ' "$(figures "$1" "$2" mp "$3")"
        figures "$1" "$2" cluster "$3" | sed 's/\([^ ]*=\)/cl_\1/g'
}

judge() { # BOARD COST
        awk -v board="$1" -v cost="$2" -v summary_only="$summary_only" '
        BEGIN {
                if (!summary_only) {
                        printf "\n### %s, switch cost %s: mp against cluster\n\n", board, cost
                        print "| trace | set | mp energy (J) | mp late | cluster energy (J) | cluster late " \
                              "| cluster oracle (J) | mp oracle (J) | mp/cl-oracle | react | worse | bound |"
                        print "|---|---|---|---|---|---|---|---|---|---|---|---|"
                }
        }
        {
                set = $1; name = $2
                delete v
                for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                if ("blsim_failed" in v || "cl_blsim_failed" in v) {
                        printf "mp-table.sh: blsim compare failed on %s (%s, cost %s)\n", name, board,
                               cost > "/dev/stderr"
                        failed = 1
                        exit 1
                }
                me = v["default_e"]; ml = v["default_late"]; mo = v["oracle_e"]; mr = v["reactive-oracle_late"]
                ce = v["cl_default_e"]; cl = v["cl_default_late"]; co = v["cl_oracle_e"]
                g = set == "held-out" ? "held-out" : "tuning"
                limit = cl > 0.01 ? cl : 0.01
                worse = ""
                if (me > 1.005 * ce) { worse = "energy"; we[g]++ }
                if (ml > limit) {
                        worse = worse (worse == "" ? "" : ", ") "late"; wl[g]++
                        if (mr > limit) { worse = worse " (react too)"; wr[g]++ }
                }
                bound = mo > 1.005 * ce ? "mp oracle +" sprintf("%.1f %%", 100 * (mo / ce - 1)) : ""
                n[g]++
                if (worse != "") { nw[g]++; if (bound != "") nb[g]++ }
                if (me < co) beat[g]++
                lr[g] += log(me / ce); lo[g] += log(me / co)
                if (!summary_only)
                        printf "| %s | %s | %.3f | %.3g | %.3f | %.3g | %.3f | %.3f | %.3f | %.3g | %s | %s |\n", name,
                               set, me / 1e6, ml, ce / 1e6, cl, co / 1e6, mo / 1e6, me / co, mr, worse, bound
        }
        END {
                if (failed)
                        exit 1
                if (!summary_only) print ""
                for (g in n)
                        printf "MP %s cost %s %s: %d traces, mp worse than cluster on %d (energy %d, late %d, " \
                               "%d of these with the mp reactive oracle late too), " \
                               "%d of them with the mp oracle above; mp below the cluster oracle on %d; " \
                               "geo-mean energy mp/cluster %.3f, mp/cluster oracle %.3f\n", board, cost, g, n[g],
                               nw[g], we[g], wl[g], wr[g], nb[g], beat[g], exp(lr[g] / n[g]), exp(lo[g] / n[g])
        }'
}

for entry in $boards; do
        board=$entry
        case $board in */*|*.ini) ;; *) board=$src/conf/boards/$board.ini ;; esac
        name=$(basename "$board" .ini)
        for cost in $costs; do
                traces | while read -r set trace path; do
                        printf '%s %s %s\n' "$set" "$trace" "$(both "$path" "$board" "$cost")"
                done | judge "$name" "$cost"
        done
done
