#!/bin/sh
# Counts the daemon's cost in instructions (callgrind), which unlike wall
# time does not depend on what else the shared machine is doing.
#   tests/bench/run.sh BUILDDIR
# 1. core: one decision (pelt + engine) without I/O, per tick;
# 2. daemon: the real bigLittled on the fake Exynos 5422 while the default
#    load pattern plays, counted only inside its tick handler (sampling
#    /proc/stat, PSI, cpufreq and thermal, scoring, deciding, switching).
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

collected() {
        sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$1"
}

ticks=100000
valgrind --tool=callgrind --toggle-collect=bench_tick --callgrind-out-file="$out/core.cg" \
        "$build/tests/bench/bench_core" "$ticks" >"$out/core.out" 2>"$out/core.err"
core_ir=$(collected "$out/core.err")
echo "core: $(cat "$out/core.out"); $((core_ir / ticks)) instructions per tick"

seconds=8
"$build/tests/fakeboard/bl-fakeboard" shell --board exynos5422 --pattern default -- \
        timeout -s TERM "$seconds" valgrind --tool=callgrind --toggle-collect=on_tick \
        --callgrind-out-file="$out/daemon.cg" \
        "$build/src/daemon/bigLittled" --foreground --config "$src/conf/bigLittle.conf" \
        >"$out/daemon.log" 2>&1 || true
daemon_ir=$(collected "$out/daemon.log")
daemon_ticks=$(sed -n 's/.*stopped after \([0-9]*\) ticks and \([0-9]*\) switches.*/\1/p' "$out/daemon.log")
switches=$(sed -n 's/.*stopped after \([0-9]*\) ticks and \([0-9]*\) switches.*/\2/p' "$out/daemon.log")
if [ -z "$daemon_ir" ] || [ -z "$daemon_ticks" ] || [ "$daemon_ticks" -eq 0 ]; then
        cat "$out/daemon.log" >&2
        echo "bench: the daemon run did not report its ticks" >&2
        exit 1
fi
echo "daemon: $daemon_ticks ticks, $switches switches in ${seconds} s on the fake Exynos 5422;" \
     "$((daemon_ir / daemon_ticks)) instructions per tick"
interval=$(sed -n 's/^sample_interval_ms *= *\([0-9]*\).*/\1/p' "$src/conf/bigLittle.conf")
echo "daemon: $((daemon_ticks / seconds)) timer wakeups per second (sample_interval_ms = ${interval:-?})"

# Wall-clock CPU time is noisy on a shared machine and includes the umockdev
# preload's redirection, so it is only a cross-check of the count above.
if command -v perf >/dev/null 2>&1; then
        "$build/tests/fakeboard/bl-fakeboard" shell --board exynos5422 --pattern default -- \
                perf stat -e task-clock -x, -o "$out/perf.csv" -- \
                timeout -s TERM 10 "$build/src/daemon/bigLittled" --foreground \
                --config "$src/conf/bigLittle.conf" >"$out/daemon2.log" 2>&1 || true
        msec=$(sed -n 's/^\([0-9.]*\),msec,task-clock.*/\1/p' "$out/perf.csv")
        t2=$(sed -n 's/.*stopped after \([0-9]*\) ticks.*/\1/p' "$out/daemon2.log")
        if [ -n "$msec" ] && [ -n "$t2" ] && [ "$t2" -gt 0 ]; then
                awk -v ms="$msec" -v t="$t2" 'BEGIN { printf "daemon: %.1f ms CPU for %d ticks in 10 s: %.0f us per tick, %.2f%% of one CPU (perf task-clock, start-up included)\n", ms, t, ms * 1000 / t, ms / 100 }'
        fi
fi
