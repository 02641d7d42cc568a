#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completions (shell-completion/bash): switchctl's verbs, options,
# and the levels, hold ids and keys it asks "switchctl __levels", "__holds"
# and "__keys" for (a stand-in switchctl answers here; the real verbs are
# tested in check_switchctl); bigLittled's options; blsim's verbs, options,
# and the boards, workloads, presets and families it asks "blsim list" and
# "blsim generate --list" for (a stand-in again, in their format). Prints TAP.
set -u
top_srcdir=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
completions="$top_srcdir/shell-completion/bash"

if ! command -v bash >/dev/null 2>&1; then
        echo "1..0 # SKIP bash is not installed"
        exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_completion.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
. "$top_srcdir/tests/ctl/completion-standins.sh"
standins "$tmp"
: >"$tmp/config.conf"

# run.bash WORD...: what <TAB> after the words gives (the last word is the
# one being completed), called as bash calls it: $1 is the command, here the
# stand-in of the same name.
cat >"$tmp/run.bash" <<RUN
source "$completions/\$1"
COMP_WORDS=("\$@")
COMP_CWORD=\$((\${#COMP_WORDS[@]} - 1))
COMP_LINE="\$*"
COMP_POINT=\${#COMP_LINE}
COMPREPLY=()
cd "$tmp"
"_\$1" "$tmp/\$1" "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
echo "\${COMPREPLY[*]}"
RUN

n=0
failed=0
# check DESCRIPTION EXPECTED WORD...
check() {
        what=$1 expected=$2
        shift 2
        n=$((n + 1))
        actual=$(bash "$tmp/run.bash" "$@" 2>&1)
        if [ "$actual" = "$expected" ]; then
                echo "ok $n - $what"
        else
                echo "# expected: '$expected'"
                echo "# actual:   '$actual'"
                echo "not ok $n - $what"
                failed=1
        fi
}

echo "1..47"
check "switchctl h<TAB>: hold history help" "hold history help" switchctl h
check "switchctl <TAB>: every verb, none hidden" \
        "status get hold release auto history stats monitor reload check-config record help" switchctl ""
check "switchctl st<TAB>: status stats" "status stats" switchctl st
check "hold <TAB>: the daemon's levels" "little little+1big big" switchctl hold ""
check "hold l<TAB>: levels starting with l" "little little+1big" switchctl hold l
check "hold after options before the verb" "big" switchctl --no-pager hold b
check "hold after --for DURATION" "little little+1big big" switchctl hold --for 5min ""
check "no second level" "" switchctl hold big ""
check "--for <TAB>: durations" "30s 5min 15min 30min 1h" switchctl hold big --for ""
check "hold -<TAB>: its options" "--for --reason --persist --no-legend --no-pager --no-ask-password -h --help -V --version" \
        switchctl hold big -
check "a command after --" "$tmp/switchctl" switchctl hold big -- "$tmp/switchc"
check "release <TAB>: hold ids" "3 5 12" switchctl release ""
check "release --a<TAB>" "--all" switchctl release --a
check "history -<TAB>" "--json -n --lines --no-legend --no-pager --no-ask-password -h --help -V --version" \
        switchctl history -
check "check-config <TAB>: files" "config.conf" switchctl check-config conf
check "--reason takes free text" "" switchctl hold big --reason ""
check "record <TAB>: files" "config.conf" switchctl record conf
check "record --duration <TAB>: durations" "30s 1min 5min 30min 1h" switchctl record t.csv --duration ""
check "record -<TAB>: its options" "--duration --interval --no-legend --no-pager --no-ask-password -h --help -V --version" \
        switchctl record t.csv -
check "get <TAB>: the keys switchctl __keys lists" \
        "level target_level thermal.state time_in_level_usec.little time_in_level_usec.big" switchctl get ""
check "get time<TAB>: a level's time" "time_in_level_usec.little time_in_level_usec.big" switchctl get time
check "no second key" "" switchctl get level ""
check "help <TAB>: the verbs" "hold history help" switchctl help h
check "monitor -<TAB>: --wait" "--wait" switchctl monitor --w

check "bigLittled -<TAB>: its options" \
        "-c --config -f --foreground -b --backend --check-config --record --duration --interval -h --help -V --version" \
        bigLittled -
check "bigLittled --backend <TAB>: the backends" "auto switcher hotplug cpuset cpufreq dryrun" bigLittled --backend ""
check "bigLittled --config FILE" "config.conf" bigLittled -c conf
check "bigLittled --check-config FILE" "config.conf" bigLittled --check-config conf
check "bigLittled --interval <TAB>" "10ms 20ms 50ms 100ms" bigLittled --record t.csv --interval ""

check "blsim <TAB>: every verb" "run compare tune live generate board list" blsim ""
check "blsim run --board <TAB>: blsim list's boards" "rk3399" blsim run --board rk
check "blsim run -b tc2 -w r<TAB>: workloads without extension, and files" \
        "ramp rt-app/mp3-short run.bash" blsim run -b tc2 -w r
check "blsim run --policy <TAB>: the presets" "default ondemand" blsim run --policy ""
check "blsim compare --mode <TAB>" "cluster pair mp" blsim compare --mode ""
check "blsim generate <TAB>: the families" "game-30fps video-30fps" blsim generate ""
check "blsim board <TAB>" "import" blsim board ""
check "blsim live ... -- COMMAND" "$tmp/blsim" blsim live -b tc2 -w ramp -- "$tmp/bls"
check "blsim run --o<TAB>: run's options only" "--oracle-start" blsim run --o
check "blsim tune --o<TAB>: tune's" "--out" blsim tune --o
check "blsim run --t<TAB>: run's --trace" "--trace" blsim run --t
check "blsim run --trace FILE" "config.conf" blsim run --trace conf
check "blsim run --workload FILE" "config.conf" blsim run --workload conf
check "blsim --residency <TAB>" "step kernel" blsim live --residency ""
check "blsim compare --policies LIST,<TAB>: the list's next name" "default,ondemand default,oracle" \
        blsim compare --policies default,o
check "blsim tune -j N: a number, nothing to offer" "" blsim tune -j ""
check "blsim tune --f<TAB>" "--force" blsim tune --f
check "blsim run -j is --json: the verb's options follow" "--policy" blsim run -j --pol
exit $failed
