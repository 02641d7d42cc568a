# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the completion tests: standins DIR writes a switchctl and a
# blsim into DIR that answer what the completions ask (the lists of a
# daemon and of installed data, in the real programs' formats) and refuse
# anything else.
standins() {
        cat >"$1/switchctl" <<'STUB'
#!/bin/sh
case $1 in
__levels) printf 'little\nlittle+1big\nbig\n' ;;
__holds) printf '3\n5\n12\n' ;;
__keys) printf 'level\ntarget_level\nthermal.state\ntime_in_level_usec.little\ntime_in_level_usec.big\n' ;;
*) exit 64 ;;
esac
STUB
        cat >"$1/blsim" <<'STUB'
#!/bin/sh
case $1 in
list) printf 'presets (--policy):\n  default        the shipped configuration\n  ondemand       ondemand\n\n'
      printf 'boards (/x/boards):\n  rk3399               4x little (381) + 2x big (1024)\n  tc2                  3x\n\n'
      printf 'workloads (/x/workloads):\n  ramp.csv\n  holdout/typing.csv\n  rt-app/mp3-short.json\n' ;;
generate) printf 'game-30fps (4 lanes, 10 s): a game\n  fps              30: frames\nvideo-30fps (2 lanes): video\n' ;;
*) exit 64 ;;
esac
STUB
        chmod +x "$1/switchctl" "$1/blsim"
}
