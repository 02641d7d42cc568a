#!/bin/sh
# The daemon's ticks while the kernel is slow to switch: the fake Exynos 5422
# with every sysfs write delayed (hotplug under emulation takes seconds), the
# default load pattern (idle, 2 tasks of 600 for 3 s, idle, 1 task of 250),
# 10 ms ticks without idle back-off, for 12 s. Prints each switch with its
# duration, the ticks the loop made (a switch on the loop stops them) and the
# stop line's lateness figures.
#   tests/bench/slow-switch.sh BUILDDIR [DELAY_US]
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR [DELAY_US]}" && pwd)
delay=${2:-250000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

printf '[daemon]\nsample_interval_ms = 10\nidle_sample_interval_ms = 0\nbackend = hotplug\n' \
        >"$out/bigLittle.conf"
export RUNTIME_DIRECTORY="$out/run"
export FAKEBOARD_WRITE_DELAY_US="$delay"
"$build/tests/fakeboard/bl-fakeboard" shell --board exynos5422 --pattern default -- \
        sh -c 'echo $$ >"$1"; exec "$2" --foreground --config "$3"' sh "$out/pid" \
        "$build/src/daemon/bigLittled" "$out/bigLittle.conf" >"$out/daemon.log" 2>&1 &
board=$!
sleep 12
kill -TERM "$(cat "$out/pid")"
wait "$board" || true
echo "writes delayed $delay us:"
grep -o 'switch [a-z]* -> [a-z]*: .*' "$out/daemon.log" | sed 's/: .*\] in / in /' || true
sed -n 's/.*stopped after \([0-9]*\) ticks and \([0-9]*\) switches; tick lateness \(.*\)/\1 ticks, \2 switches; lateness \3/p' \
        "$out/daemon.log"
