#!/bin/sh
# Read system calls per tick of the real bigLittled on an idle board (issue
# 15 item 5: what the kernel spends for the daemon grows with the files it
# reads each tick). blsim live plays an all-zero trace on the Exynos 5422
# model (8 CPUs, two cpuidle states each) with either residency mode, the
# daemon at a fixed 10 ms tick (no idle back-off), dry run; the count is the
# kernel's own (/proc/PID/io syscr, read just before SIGTERM), and the
# figure per tick is the difference between a 5 s and a 10 s trace over
# the difference in ticks, so start-up drops out. Recorded in
# tests/bench/RESULTS.md.
#   tests/bench/idle-reads.sh BUILDDIR
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

printf '[daemon]\nsample_interval_ms = 10\nidle_sample_interval_ms = 0\nlog_level = info\nbackend = dryrun\n' \
        >"$out/idle.conf"
# The daemon as a child, so that its count can be read once it has ticked
# and before it exits.
cat >"$out/count.sh" <<'EOF'
#!/bin/sh
to=$1
shift
"$@" &
pid=$!
trap 'cat /proc/$pid/io >"$to"; kill -TERM $pid; wait $pid; exit $?' TERM INT
wait $pid
EOF
chmod +x "$out/count.sh"

# One run: prints "ticks reads".
run() {
        awk -v n="$(($2 * 100))" 'BEGIN { print "# bigLittle-trace v1 step_us=10000"; print "t_us,lane0";
                                          for (i = 0; i < n; i++) print i * 10000 ",0" }' >"$out/trace.csv"
        "$build/src/sim/blsim" live --board "$src/conf/boards/exynos5422-like.ini" --workload "$out/trace.csv" \
                --config "$out/idle.conf" --residency "$1" -- "$out/count.sh" "$out/io" \
                "$build/src/daemon/bigLittled" --foreground --config "$out/idle.conf" >"$out/live.out" 2>"$out/live.err"
        ticks=$(sed -n 's/.*stopped after \([0-9]*\) ticks.*/\1/p' "$out/live.err")
        reads=$(sed -n 's/^syscr: //p' "$out/io")
        if [ -z "$ticks" ] || [ -z "$reads" ]; then
                cat "$out/live.err" >&2
                echo "idle-reads: the run did not report its ticks or its reads" >&2
                exit 1
        fi
        echo "$ticks $reads"
}

for residency in step kernel; do
        set -- $(run "$residency" 5) $(run "$residency" 10)
        awk -v m="$residency" -v t1="$1" -v r1="$2" -v t2="$3" -v r2="$4" 'BEGIN {
                printf "%s residency: %d ticks, %d reads; %d ticks, %d reads: %.1f reads per tick\n",
                       m, t1, r1, t2, r2, (r2 - r1) / (t2 - t1) }'
done
