#!/bin/sh
# Counts the daemon's operations on cpuN/online files per switch: the real
# bigLittled with the hotplug backend on the fake Exynos 5422 (8 CPUs, cpu0
# without an online file) playing the default pattern, which switches little
# -> big -> little, traced with strace. An operation is one read or write
# system call on a cpuN/online file (opens and closes are not counted).
# Per switch: the switch threads' operations plus those of the loop from the
# first switch to SIGTERM (what the loop reads after a switch and for the
# uevents it brings), divided by the switches; start-up and the restore at
# exit are reported apart.
#   tests/bench/sysfs-ops.sh BUILDDIR [SECONDS]
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR [SECONDS]}" && pwd)
seconds=${2:-12}
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v strace >/dev/null 2>&1 || { echo "sysfs-ops: strace is not installed" >&2; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cp "$src/conf/bigLittle.conf" "$out/bigLittle.conf"
mkdir "$out/bigLittle.conf.d"
printf '[daemon]\nbackend = hotplug\n' >"$out/bigLittle.conf.d/50-bench.conf"
"$build/tests/fakeboard/bl-fakeboard" shell --board exynos5422 --pattern default -- \
        strace -f -y -e trace=read,pread64,write -e signal=TERM -o "$out/trace" \
        timeout -s TERM "$seconds" "$build/src/daemon/bigLittled" --foreground \
        --config "$out/bigLittle.conf" >"$out/daemon.log" 2>&1 || true
switches=$(sed -n 's/.*stopped after \([0-9]*\) ticks and \([0-9]*\) switches.*/\2/p' "$out/daemon.log")
if [ -z "$switches" ] || [ "$switches" -eq 0 ]; then
        cat "$out/daemon.log" >&2
        echo "sysfs-ops: the daemon made no switch" >&2
        exit 1
fi
awk -v switches="$switches" '
/--- SIGTERM/ { stopped = 1; next }
$2 ~ /^(read|pread64|write)\([0-9]+<[^>]*\/cpu[0-9]+\/online>/ {
        if (main == "")
                main = $1
        if ($1 != main) {
                thread++
                first = 1
        } else if (stopped) {
                teardown++
        } else if (first) {
                loop++
        } else {
                startup++
        }
}
END {
        printf "%d switches; per switch %.1f cpuN/online operations (switch threads %d, loop %d in all); " \
               "start-up %d, restore at exit %d\n", switches, (thread + loop) / switches, thread, loop,
               startup, teardown
}' "$out/trace"
