#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's demo (make demo, ./quickstart.sh demo): the unmodified
# bigLittled on blsim's live exynos5422-like board while 28 s of load play
# (an app launch, video, a ramp up and down: traces of tests/workloads/ one
# after another), watched with switchctl monitor over a private dbus-daemon;
# then the energy of the live run against always-big, always-little and the
# oracle, and the timeline plot.
#   run-demo.sh SRCDIR BUILDDIR [BOARD]
# BOARD (make demo BOARD=...): another board model, a name in conf/boards/
# (rk3399, gs101, ...) or a file. Everything it writes goes to BUILDDIR/demo/.
set -eu

src=$1
build=$2
out=$build/demo
board=${3:-exynos5422-like}
case $board in */*|*.ini) ;; *) board=$src/conf/boards/$board.ini ;; esac
[ -r "$board" ] || { echo "demo: $board: no such board model" >&2; exit 1; }
config=$src/conf/bigLittle.conf
blsim=$build/src/sim/blsim
daemon=$build/src/daemon/bigLittled
switchctl=$build/src/ctl/switchctl
parts="app-launch video-30fps ramp"

mkdir -p "$out"
# The bus socket's path must be short (108 bytes): not under the build tree.
tmp=$(mktemp -d /tmp/bl-demo.XXXXXX)
bus_pid=
live_pid=
monitor_pid=
cleanup() {
        for pid in $monitor_pid $live_pid $bus_pid; do
                kill "$pid" 2>/dev/null || true
                wait "$pid" 2>/dev/null || true
        done
        rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The traces one after another: the same step and lanes, times running on.
trace=$out/demo.csv
for part in $parts; do
        echo "$src/tests/workloads/$part.csv"
done | xargs awk -F, -v OFS=, '
        FNR == 1 {
                if (NR > 1 && $0 != first) {
                        print FILENAME ": not the step of the first trace" > "/dev/stderr"
                        exit 1
                }
                first = $0
                step = $0
                sub(/.*step_us=/, "", step)
                base = next_t
                next
        }
        FNR == 2 {
                if (NR == 2)
                        print first "\n" $0
                else if ($0 != header) {
                        print FILENAME ": not the lanes of the first trace" > "/dev/stderr"
                        exit 1
                }
                header = $0
                next
        }
        { $1 += base; next_t = $1 + step; print }' >"$trace"

cat >"$tmp/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <listen>unix:path=$tmp/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
  </policy>
</busconfig>
EOF
dbus-daemon --config-file="$tmp/bus.conf" --nofork --nopidfile --nosyslog --print-address=3 \
        3>"$tmp/bus.address" 2>"$out/bus.log" &
bus_pid=$!
while [ ! -s "$tmp/bus.address" ]; do
        kill -0 "$bus_pid" 2>/dev/null || { echo "demo: dbus-daemon did not start:" >&2; cat "$out/bus.log" >&2; exit 1; }
        sleep 0.05
done
DBUS_SYSTEM_BUS_ADDRESS=$(head -n 1 "$tmp/bus.address")
export DBUS_SYSTEM_BUS_ADDRESS

if [ "$board" = "$src/conf/boards/exynos5422-like.ini" ]; then
        cat <<EOF
bigLittle demo: bigLittled, unmodified, on a live simulated Exynos 5422 (4x Cortex-A7 "little" +
4x Cortex-A15 "big"), with the shipped configuration. The board plays 28 s of load in real
time: an app launch (6 s), video (10 s), a ramp up and down (12 s). Below: switchctl monitor,
live.

EOF
else
        # The model's first line names it: "# bigLittle board model v1: NAME (KINDS)...".
        what=$(head -n 1 "$board" | sed 's/^# bigLittle board model v1: //; s/, written by .*//')
        cat <<EOF
bigLittle demo: bigLittled, unmodified, on a live simulated $what,
with the shipped configuration. The board plays 28 s of load in real time: an app launch (6 s),
video (10 s), a ramp up and down (12 s). Below: switchctl monitor, live.

EOF
fi

"$blsim" live --board "$board" --workload "$trace" --config "$config" --plot "$out/timeline.svg" --json \
        -- "$daemon" --foreground --config "$config" >"$out/report.json" 2>"$out/daemon.log" &
live_pid=$!
until "$switchctl" status >/dev/null 2>&1; do
        kill -0 "$live_pid" 2>/dev/null || break
        sleep 0.02
done
"$switchctl" monitor 2>&1 &
monitor_pid=$!
status=0
wait "$live_pid" || status=$?
live_pid=
kill "$monitor_pid" 2>/dev/null || true
wait "$monitor_pid" 2>/dev/null || true
monitor_pid=
if [ "$status" -ne 0 ]; then
        echo "demo: blsim live failed (status $status); the end of its log ($out/daemon.log):" >&2
        tail -n 20 "$out/daemon.log" >&2
        exit 1
fi

# The references' late work comes from blsim compare (the live report has
# their energy only), which also runs the same configuration simulated.
"$blsim" compare --board "$board" --workload "$trace" --config "$config" --json >"$out/compare.json"

# blsim's JSON is one key per line: pick the figures.
# Paths as seen from the source tree when the build is in it (quickstart's build/).
shown=${out#"$src"/}
awk -v svg="$shown/timeline.svg" -v logfile="$shown/daemon.log" '
        function value(line) {
                sub(/^[^:]*: */, "", line)
                sub(/,$/, "", line)
                gsub(/"/, "", line)
                return line
        }
        function row(name, uj, late, note,    line) {
                line = sprintf("  %-24s %9.1f mJ %7.1f %% %10.4f   %s", name, uj / 1000, 100 * (uj - big) / big,
                               late, note)
                sub(/ +$/, "", line)
                print line
        }
        FNR == NR && /"policy"/ { policy = value($0) }
        FNR == NR && /"late_work_ratio"/ { late[policy] = value($0) }
        FNR == NR && /"energy_uj"/ && policy != "" { energy[policy] = value($0) }
        FNR == NR { next }
        /^  "energy_uj"/ { live = value($0) }
        /^  "always_big_energy_uj"/ { big = value($0) }
        /^  "always_little_energy_uj"/ { little = value($0) }
        /^  "oracle_energy_uj"/ { oracle = value($0) }
        /^  "late_work_ratio"/ { live_late = value($0) }
        /^  "switches"/ { switches = value($0) }
        /^  "eta"/ { eta = value($0) }
        /^  "online_at_exit"/ { online = value($0) }
        /^  "time_in_level_usec"/ {
                n = split(value($0), parts, /[{}:, ]+/)
                for (i = 2; i + 1 <= n; i += 2)
                        levels = levels sprintf("%s%s %.1f s", levels == "" ? "" : ", ", parts[i], parts[i + 1] / 1e6)
        }
        END {
                print ""
                printf "  %-24s %12s %9s %10s\n", "28 s of load", "energy", "vs big", "late work"
                row("always-big", big, late["always-big"], "")
                row("always-little", little, late["always-little"], "")
                row("bigLittled, live", live, live_late, switches " switches")
                row("bigLittled, simulated", energy["config"], late["config"], "blsim run, same configuration")
                row("oracle", oracle, 0, "least energy leaving no work late")
                printf "  eta %.2f: the live daemon made %.0f %% of the savings the oracle makes.\n", eta,
                       100 * eta
                printf "  Late work: mean steps a unit of work waits beyond its own (0: none ever waits).\n"
                printf "  Time per level: %s; CPUs online after SIGTERM: %s.\n", levels, online
                print ""
                print "Timeline (the live run beside the simulated one): " svg
                print "The daemon'"'"'s log: " logfile
        }' "$out/compare.json" "$out/report.json"
