#!/bin/sh
# Tick lateness of the daemon (10 ms ticks) on the fake Exynos 5422, idle and
# while 4 clients make 10,000 (and 100,000) Describe() calls on a private bus.
# Lateness is how long after its scheduled time a tick's wakeup came; the
# timer's accuracy is 1 ms, so about 1 ms is the floor.
#   tests/bench/bus-load.sh BUILDDIR
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'kill "$bus_pid" 2>/dev/null || true; rm -rf "$out"' EXIT

. "$src/tests/bench/private-bus.sh"
start_private_bus "$out"
printf '[daemon]\nsample_interval_ms = 10\n' >"$out/bigLittle.conf"

# run [bench_bus args...]: the daemon from 1 s before the load until it
# ends (or for 5 s without one), so that the lateness figures are those of
# the loaded ticks and not of a long idle run around them.
run() {
        rm -f "$out/pid"
        "$build/tests/fakeboard/bl-fakeboard" shell --board exynos5422 --pattern default -- \
                sh -c 'echo $$ >"$1"; exec "$2" --foreground --config "$3"' sh "$out/pid" \
                "$build/src/daemon/bigLittled" "$out/bigLittle.conf" >"$out/daemon.log" 2>&1 &
        board=$!
        sleep 1
        if [ $# -gt 0 ]; then
                "$build/tests/bench/bench_bus" "$@"
        else
                sleep 5
        fi
        kill -TERM "$(cat "$out/pid")"
        wait "$board" || true
        sed -n 's/.*stopped after \([0-9]*\) ticks.*tick lateness p50 \([a-z ]*[0-9]*\) us, p99 \([a-z ]*[0-9]*\) us.*/\1 ticks: p50 \2 us, p99 \3 us/p' \
                "$out/daemon.log"
}

echo "idle (no clients):"
run
echo "4 clients, 10000 Describe() calls:"
run --clients 4 --calls 10000
echo "4 clients, 100000 Describe() calls:"
run --clients 4 --calls 100000
