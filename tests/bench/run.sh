#!/bin/sh
# Counts the daemon's cost in instructions (callgrind), which unlike wall
# time does not depend on what else the shared machine is doing.
#   tests/bench/run.sh BUILDDIR
# 1. core: one decision (pelt + engine) without I/O, per tick;
# 2. daemon: the real bigLittled with the shipped configuration on the fake
#    Exynos 5422 (8 CPUs) and the generated many-64 and many-256 boards in
#    steady state, counted only inside its tick handler (sampling
#    /proc/stat, PSI, cpuidle, cpufreq and thermal, scoring, deciding). The
#    dryrun backend keeps every CPU online, so every CPU is sampled, and
#    applies nothing; the switches the testbed's timing noise still asks
#    for (the board publishes every 5 ms) cost per CPU in apply(), and
#    valgrind's slowdown grows with the board, so they would weigh more per
#    tick on bigger boards: apply()'s inclusive cost is reported apart and
#    left out of the steady-state figure. Idle back-off is off so that every
#    tick is one of the full rate;
# 3. floor: bench_floor on the same boards, reading and parsing /proc/stat
#    and /proc/pressure/cpu once per tick and nothing else, and the ratio.
#   [BOARDS="exynos5422 many-64"] [KEEP_PROFILES=DIR] [BUS=1] tests/bench/run.sh BUILDDIR
# BOARDS picks a subset; KEEP_PROFILES keeps the daemon's callgrind profiles
# there, for callgrind_annotate; BUS=1 gives the daemon a private system bus
# (dbus-daemon), to count its tick with the bus service running (what the
# bus does in dispatches of its own, outside the tick, is not counted).
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
bus_pid=
trap 'if [ -n "$bus_pid" ]; then kill "$bus_pid"; fi; rm -rf "$out"' EXIT
if [ "${BUS:-0}" = 1 ]; then
        . "$src/tests/bench/private-bus.sh"
        start_private_bus "$out"
fi

collected() {
        sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$1"
}

ticks=100000
valgrind --tool=callgrind --toggle-collect=bench_tick --callgrind-out-file="$out/core.cg" \
        "$build/tests/bench/bench_core" "$ticks" >"$out/core.out" 2>"$out/core.err"
core_ir=$(collected "$out/core.err")
echo "core: $(cat "$out/core.out"); $((core_ir / ticks)) instructions per tick"

# Long enough for a few hundred ticks after valgrind's start-up, which
# grows with the board's files.
seconds_on() {
        case $1 in
        many-256) echo 60 ;;
        many-*) echo 20 ;;
        *) echo 10 ;;
        esac
}
floor_ticks=2000
cp "$src/conf/bigLittle.conf" "$out/bigLittle.conf"
mkdir "$out/bigLittle.conf.d"
printf '[daemon]\nidle_sample_interval_ms = 0\nbackend = dryrun\n' >"$out/bigLittle.conf.d/50-bench.conf"
for board in ${BOARDS:-exynos5422 many-64 many-256}; do
        seconds=$(seconds_on "$board")
        "$build/tests/fakeboard/bl-fakeboard" shell --board "$board" -- \
                timeout -s TERM "$seconds" valgrind --tool=callgrind --toggle-collect=on_tick \
                --callgrind-out-file="$out/daemon-$board.cg" \
                "$build/src/daemon/bigLittled" --foreground --config "$out/bigLittle.conf" \
                >"$out/daemon.log" 2>&1 || true
        daemon_ir=$(collected "$out/daemon.log")
        daemon_ticks=$(sed -n 's/.*stopped after \([0-9]*\) ticks and \([0-9]*\) switches.*/\1/p' "$out/daemon.log")
        switches=$(sed -n 's/.*stopped after \([0-9]*\) ticks and \([0-9]*\) switches.*/\2/p' "$out/daemon.log")
        if [ -z "$daemon_ir" ] || [ -z "$daemon_ticks" ] || [ "$daemon_ticks" -eq 0 ]; then
                cat "$out/daemon.log" >&2
                echo "bench: the daemon run on $board did not report its ticks" >&2
                exit 1
        fi
        "$build/tests/fakeboard/bl-fakeboard" shell --board "$board" -- \
                valgrind --tool=callgrind --toggle-collect=floor_tick --callgrind-out-file="$out/floor.cg" \
                "$build/tests/bench/bench_floor" "$floor_ticks" >"$out/floor.out" 2>"$out/floor.err"
        floor_ir=$(collected "$out/floor.err")
        cpus=$(sed -n 's/^\([0-9]*\) CPUs.*/\1/p' "$out/floor.out")
        apply_ir=$(callgrind_annotate --auto=no --inclusive=yes "$out/daemon-$board.cg" |
                   sed -n 's/^ *\([0-9,]*\) .*daemon\.c:apply[ .].*/\1/p' | tr -d , | head -n 1)
        steady=$(((daemon_ir - ${apply_ir:-0}) / daemon_ticks))
        echo "$board ($cpus CPUs): $daemon_ticks ticks in ${seconds} s; steady state $steady instructions" \
             "per tick; floor $((floor_ir / floor_ticks)); ratio $(awk -v d="$steady" \
             -v f="$((floor_ir / floor_ticks))" 'BEGIN { printf "%.1f", d / f }');" \
             "all ticks $((daemon_ir / daemon_ticks)) with $switches (dryrun) switches costing" \
             "$((${apply_ir:-0} / (switches > 0 ? switches : 1))) each"
        if [ -n "${KEEP_PROFILES:-}" ]; then
                cp "$out/daemon-$board.cg" "$KEEP_PROFILES/"
        fi
done

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
