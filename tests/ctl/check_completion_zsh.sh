#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The zsh completions (shell-completion/zsh/_switchctl, _bigLittled,
# _blsim): an interactive zsh on a pseudo-terminal (zsh/zpty) is given a
# command line and <TAB>, and the matches the completion system offers are
# collected (compadd is wrapped to print them). Stand-ins of switchctl and
# blsim answer what the completions ask, as in check_completion.sh. Prints TAP.
set -u
top_srcdir=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
completions="$top_srcdir/shell-completion/zsh"

if ! command -v zsh >/dev/null 2>&1; then
        echo "1..0 # SKIP zsh is not installed"
        exit 0
fi
if ! zsh -fc 'zmodload zsh/zpty' 2>/dev/null; then
        echo "1..0 # SKIP zsh has no zsh/zpty module to drive an interactive shell"
        exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_completion_zsh.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/cwd"
. "$top_srcdir/tests/ctl/completion-standins.sh"
standins "$tmp/bin"
: >"$tmp/cwd/config.conf"

# comp.zsh LINE: the matches <TAB> offers after LINE, sorted, on one line.
cat >"$tmp/comp.zsh" <<'COMP'
zmodload zsh/zpty
zpty z zsh -f -i
# -D: no dump file. compinit writes its dump beside the name and renames it
# over, which as root replaced /dev/null itself with "-d /dev/null".
zpty -w z "PS1=''; fpath=(${(q)COMPLETIONS} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z 'compadd() { local -a h; builtin compadd -A h "$@"; (( $#h )) && print -rl -- "MA""TCH:"${^h}; builtin compadd "$@" }'
zpty -w z 'fin() { print -r -- "EN""D:"; exit }; comppostfuncs=(fin); bindkey "^I" complete-word'
# Typing before the shell is back at its prompt can lose the keys: wait.
zpty -w z 'print -r -- "REA""DY:"'
out=
while (( SECONDS < 60 )) && [[ $out != *READY:* ]]; do
        zpty -r -t z chunk && out+=$chunk || sleep 0.05
done
zpty -n -w z "$1"$'\t'
out=
# A loaded machine may take seconds to start zsh and compinit.
while (( SECONDS < 60 )); do
        zpty -r -t z chunk && out+=$chunk || sleep 0.05
        [[ $out == *END:* ]] && break
done
zpty -d z
[[ $out == *END:* ]] || print -r -- "no answer from the completion within 60 s"
print -r -- ${(j: :)${(ou)${(M)${(f)${out//$'\r'/}}:#*MATCH:*}#*MATCH:}}
COMP

n=0
failed=0
# check DESCRIPTION EXPECTED LINE
check() {
        n=$((n + 1))
        actual=$(cd "$tmp/cwd" && COMPLETIONS="$completions" PATH="$tmp/bin:$PATH" zsh -f "$tmp/comp.zsh" "$3" 2>&1)
        if [ "$actual" = "$2" ]; then
                echo "ok $n - $1"
        else
                echo "# expected: '$2'"
                echo "# actual:   '$actual'"
                echo "not ok $n - $1"
                failed=1
        fi
}

echo "1..26"
check "switchctl <TAB>: every verb" \
        "auto check-config get help history hold monitor record release reload stats status" "switchctl "
check "switchctl h<TAB>" "help history hold" "switchctl h"
check "hold <TAB>: the daemon's levels" "big little little+1big" "switchctl hold "
check "hold after an option before the verb" "big" "switchctl --no-pager hold b"
check "hold --for <TAB>: durations" "15min 1h 30min 30s 5min" "switchctl hold big --for "
check "a command after --" "switchctl" "switchctl hold big -- switchc"
check "release <TAB>: hold ids" "12 3 5" "switchctl release "
check "get <TAB>: the keys" "level target_level thermal.state time_in_level_usec.big time_in_level_usec.little" \
        "switchctl get "
check "monitor --w<TAB>" "--wait" "switchctl monitor --w"
check "help h<TAB>: verbs" "help history hold" "switchctl help h"
check "check-config FILE" "config.conf" "switchctl check-config conf"

check "bigLittled --b<TAB>" "--backend" "bigLittled --b"
check "bigLittled -b <TAB>: backends" "auto cpufreq cpuset dryrun hotplug switcher" "bigLittled -b "
check "bigLittled --config FILE" "config.conf" "bigLittled --config conf"

check "blsim <TAB>: every verb" "board compare generate list live run tune" "blsim "
check "blsim run --board r<TAB>: blsim list's boards" "rk3399" "blsim run --board r"
check "blsim run -w <TAB>: workloads without extension, and files" \
        "config.conf holdout/typing ramp rt-app/mp3-short" "blsim run -b tc2 -w "
check "blsim run -p <TAB>: presets" "default ondemand" "blsim run -p "
check "blsim generate <TAB>: families" "game-30fps video-30fps" "blsim generate "
check "blsim live ... -- COMMAND" "switchctl" "blsim live -b tc2 -w ramp -- switchc"
check "blsim tune --o<TAB>" "--out" "blsim tune --o"
check "blsim run --tr<TAB>" "--trace" "blsim run --tr"
check "blsim compare --mode <TAB>" "cluster mp pair" "blsim compare --mode "
check "blsim compare --policies <TAB>: presets, config and the oracles" \
        "config default load-reactive-oracle ondemand oracle reactive-oracle" "blsim compare --policies "
check "blsim tune --f<TAB>" "--force" "blsim tune --f"
check "blsim compare --policies a,o<TAB>: the next name" "ondemand oracle" "blsim compare --policies default,o"
exit $failed
