# shellcheck shell=sh disable=SC2154 # the sourcing script sets what is read
# Sourced by policy-table.sh, mp-table.sh and policy-diff.sh: which traces
# run, blsim's options for a switch cost, and the figures of one blsim
# compare. Reads $src, $sets and $generated; figures() also $blsim, $config
# and $oracle_start.

# blsim's options for a switch cost as the tables name it: "board" (none),
# US,UJ, or a backend's name.
cost_options() { # COST
        case $1 in
        board) ;;
        *,*) echo "--switch-cost $1" ;;
        *) echo "--backend $1" ;;
        esac
}

# One line per trace: the set, the name, then key=value pairs for awk; a
# blsim that fails gives "blsim_failed=1" instead (a pipeline's status is its
# last command's, so the judge that reads the line is the one to stop).
figures() { # TRACE BOARD MODE COST
        # shellcheck disable=SC2046 # the option and its value are two words
        json=$("$blsim" compare --board "$2" --mode "$3" --workload "$1" ${config:+--config "$config"} \
                $(cost_options "$4") --oracle-start "$oracle_start" --json) || {
                echo "blsim_failed=1"
                return 1
        }
        printf '%s\n' "$json" |
        awk '
        function value(line) {
                sub(/^[^:]*: */, "", line); sub(/,$/, "", line); gsub(/"/, "", line)
                return line
        }
        /^  "oracle_energy_uj":/ { o = value($0) }
        /^  "oracle_switches":/ { osw = value($0) }
        /^      "policy":/ { p = value($0); if (p == "config") p = "default" }
        /^      "energy_uj":/ { e[p] = value($0) }
        /^      "eta":/ { eta[p] = value($0) }
        /^      "late_work_ratio":/ { late[p] = value($0) }
        /^      "switches":/ { sw[p] = value($0) }
        END {
                printf "oracle_e=%s oracle_sw=%s", o, osw
                for (q in e)
                        printf " %s_e=%s %s_eta=%s %s_late=%s %s_sw=%s", q, e[q], q, eta[q], q, late[q],
                               q, sw[q]
                printf "\n"
        }'
}

# family of a generated trace: its directory under GENERATED, or its name
# without a trailing -SEED
family() {
        rel=${1#"$generated"/}
        case $rel in
        */*) echo "${rel%%/*}" ;;
        *) rel=${rel%.csv}; echo "$rel" | sed 's/[-_][0-9][0-9]*$//' ;;
        esac
}

wanted() { # SET
        case " $sets " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

traces() {
        if wanted visible; then
                for w in "$src"/tests/workloads/*.csv; do echo "visible $(basename "$w" .csv) $w"; done
        fi
        if wanted held-out; then
                for w in "$src"/tests/workloads/holdout/*.csv; do echo "held-out $(basename "$w" .csv) $w"; done
        fi
        if [ -n "$generated" ] && wanted generated; then
                find "$generated" -name '*.csv' | sort | while read -r w; do
                        echo "generated:$(family "$w") ${w#"$generated"/} $w"
                done
        fi
}

