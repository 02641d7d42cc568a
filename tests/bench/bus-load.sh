#!/bin/sh
# Tick lateness of the daemon (10 ms ticks) on the fake Exynos 5422, idle and
# while 4 clients make 10,000 Describe() calls on a private bus.
#   tests/bench/bus-load.sh BUILDDIR
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'kill "$bus_pid" 2>/dev/null || true; rm -rf "$out"' EXIT

cat >"$out/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$out/bus.sock</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
  </policy>
</busconfig>
CONF
dbus-daemon --config-file="$out/bus.conf" --nofork --nopidfile &
bus_pid=$!
export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$out/bus.sock"
export RUNTIME_DIRECTORY="$out/run"
printf '[daemon]\nsample_interval_ms = 10\n' >"$out/bigLittle.conf"
sleep 0.5

# run SECONDS [bench_bus args...]: the daemon for SECONDS, with the load if asked.
run() {
        seconds=$1
        shift
        "$build/tests/fakeboard/bl-fakeboard" shell --board exynos5422 --pattern default -- \
                timeout -s TERM "$seconds" "$build/src/daemon/bigLittled" --foreground \
                --config "$out/bigLittle.conf" >"$out/daemon.log" 2>&1 &
        board=$!
        sleep 1
        if [ $# -gt 0 ]; then
                "$build/tests/bench/bench_bus" "$@"
        fi
        wait "$board" || true
        sed -n 's/.*stopped after \([0-9]*\) ticks.*tick lateness p50 \([0-9]*\) us, p99 \([0-9]*\) us.*/\1 ticks: p50 \2 us, p99 \3 us/p' \
                "$out/daemon.log"
}

echo "idle (no clients), 10 s:"
run 10
echo "4 clients, 10000 Describe() calls, 10 s:"
run 10 --clients 4 --calls 10000
