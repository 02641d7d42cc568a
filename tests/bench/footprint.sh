#!/bin/sh
# What the running daemon costs the machine besides instructions: its
# wakeups per second and its private dirty memory (RAM no other process
# shares), for the real bigLittled with the shipped configuration on the
# fake Exynos 5422 (BOARD= another), in three runs:
#   idle        no load: idle back-off applies;
#   idle-fixed  no load, idle_sample_interval_ms = 0 (every 10 ms, as before);
#   loaded      the default load pattern (load appears and goes, switches).
# Wakeups are the voluntary context switches of /proc/PID/status (each timer
# expiry is one; a switch adds a few) counted from 8 s after start to the
# end, so that start-up and the idle window before the back-off (5 s at the
# full rate, then 1.3 s doubling up to 1 s) are left out; Private_Dirty
# is read from /proc/PID/smaps_rollup at the end, with the largest
# contributors by mapping from /proc/PID/smaps for the idle and loaded runs.
#   [BOARD=exynos5422] [SECONDS_RUN=20] tests/bench/footprint.sh BUILDDIR
# Targets (issue 9): <= 1 wakeup/s idle, Private_Dirty <= 1024 kB.
# Recorded in tests/bench/RESULTS.md.
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
board=${BOARD:-exynos5422}
seconds=${SECONDS_RUN:-20}
settle=8
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# A freshly linked binary's page-cache pages stay dirty until written back,
# and smaps counts them as the daemon's Private_Dirty (244 kB more on the
# first run after a build): write them back first.
sync "$build/src/daemon/bigLittled"
mkdir "$out/fixed.conf.d"
cp "$src/conf/bigLittle.conf" "$out/fixed.conf"
printf '[daemon]\nidle_sample_interval_ms = 0\n' >"$out/fixed.conf.d/50-bench.conf"

status_field() {
        sed -n "s/^$2:[[:space:]]*\([0-9]*\).*/\1/p" "/proc/$1/$3"
}

# run NAME CONFIG [--pattern P]
run() {
        name=$1 config=$2
        shift 2
        rm -f "$out/pid"
        # The shell's own process becomes the daemon (exec), so its pid is the daemon's.
        "$build/tests/fakeboard/bl-fakeboard" shell --board "$board" "$@" -- \
                sh -c 'echo $$ >"$1/pid"; exec "$2" --foreground --config "$3"' sh \
                "$out" "$build/src/daemon/bigLittled" "$config" >"$out/$name.log" 2>&1 &
        board_pid=$!
        for _ in $(seq 50); do
                [ -s "$out/pid" ] && break
                sleep 0.1
        done
        pid=$(cat "$out/pid")
        sleep $settle
        v0=$(status_field "$pid" voluntary_ctxt_switches status)
        sleep $((seconds - settle))
        v1=$(status_field "$pid" voluntary_ctxt_switches status)
        dirty=$(status_field "$pid" Private_Dirty smaps_rollup)
        rss=$(status_field "$pid" VmRSS status)
        awk '
                /^[0-9a-f]+-[0-9a-f]+ / { name = (NF >= 6) ? $6 : "[anonymous]"; sub(".*/", "", name) }
                /^Private_Dirty:/ { dirty[name] += $2 }
                END { for (n in dirty) if (dirty[n] > 0) printf "  %6d kB  %s\n", dirty[n], n }
                ' "/proc/$pid/smaps" | sort -rn >"$out/$name.mappings"
        kill -TERM "$pid"
        wait "$board_pid" || true
        ticks=$(sed -n 's/.*stopped after \([0-9]*\) ticks.*/\1/p' "$out/$name.log")
        awk -v n="$name" -v b="$board" -v v="$((v1 - v0))" -v s="$((seconds - settle))" -v d="$dirty" \
            -v r="$rss" -v t="$ticks" -v all="$seconds" 'BEGIN {
                printf "%s on %s: %.1f wakeups/s (%d voluntary context switches in %d s); %s ticks in %d s; Private_Dirty %d kB, VmRSS %d kB\n", n, b, v / s, v, s, t, all, d, r
        }'
}

run idle "$src/conf/bigLittle.conf"
run idle-fixed "$out/fixed.conf"
run loaded "$src/conf/bigLittle.conf" --pattern default
for name in idle loaded; do
        echo "Private_Dirty of the $name run by mapping:"
        head -n 8 "$out/$name.mappings"
done
