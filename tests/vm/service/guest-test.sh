#!/bin/bash
# guest-test.sh: runs inside the VM guest as bl-service-test.service, once
# systemd reached multi-user. Installs the biglittle package and exercises the
# service through systemd, the system bus, polkit and the journal. Prints TAP
# on the console, every line prefixed with "BLTAP " (the console also carries
# the kernel's and systemd's messages), the daemon's journal prefixed with
# "BLLOG ", then "BLDONE" and powers the guest off.
set -u
export LC_ALL=C SYSTEMD_PAGER= SYSTEMD_COLORS=0
unit=bigLittle
deb=/root/biglittle.deb
bus_args=(org.bigLittle.Switch1 /org/bigLittle/Switch1 org.bigLittle.Switch1)
user=bltest
n=0

tap() { printf 'BLTAP %s\n' "$*"; }
diag() { printf '%s\n' "$*" | sed 's/^/BLTAP # /'; }
# ok STATUS DESCRIPTION [DETAIL]: DETAIL goes out as diagnostics on failure.
ok() {
        n=$((n + 1))
        if [ "$1" = 0 ]; then
                tap "ok $n - $2"
        else
                tap "not ok $n - $2"
                [ $# -ge 3 ] && diag "$3"
        fi
        return 0
}
# wait_for SECONDS COMMAND...: polls COMMAND every second until it succeeds.
wait_for() {
        local limit=$1 i=0
        shift
        while ! "$@" >/dev/null 2>&1; do
                i=$((i + 1))
                [ "$i" -ge "$limit" ] && return 1
                sleep 1
        done
        return 0
}
prop() { systemctl show -P "$1" "$unit"; }
is_active() { [ "$(prop ActiveState)" = active ]; }
bus_get() { busctl get-property "${bus_args[@]}" "$1"; }
level() { bus_get Level | sed 's/^s "\(.*\)"$/\1/'; }
# The daemon's journal after the mark: what this step made it say.
mark() { mark_lines=$(journalctl -q -u "$unit" -o cat | wc -l); }
since_mark() { journalctl -q -u "$unit" -o cat | tail -n +"$((mark_lines + 1))"; }
said() { since_mark | grep -q -- "$1"; }
ctl() { timeout 60 switchctl --no-pager --no-ask-password "$@"; }
as_user() { timeout 60 runuser -u "$user" -- switchctl --no-pager --no-ask-password "$@"; }
online() { cat /sys/devices/system/cpu/online; }
possible() { cat /sys/devices/system/cpu/possible; }
all_online() { [ "$(online)" = "$(possible)" ]; }

diag "guest: $(uname -r), CPUs online $(online) of $(possible), $(systemctl --version | head -n 1)"

# --- the package
out=$(dpkg -i "$deb" 2>&1)
ok $? "dpkg -i the package" "$out"
state=$(systemctl is-enabled "$unit" 2>&1)
[ "$state" = disabled ]
ok $? "installed disabled (switching the CPUs is the administrator's decision): $state"
conffiles=$(dpkg-query -W -f='${Conffiles}' biglittle)
echo "$conffiles" | grep -q '^ */etc/bigLittle.conf '
ok $? "/etc/bigLittle.conf is a conffile" "$conffiles"

# --- start
mark
out=$(timeout 300 systemctl enable --now "$unit" 2>&1)
r=$?
[ "$r" = 0 ] && is_active && [ "$(prop Type)" = notify ]
ok $? "systemctl enable --now: active, Type=notify (took its READY=1)" \
        "rc $r: $out; $(systemctl status --no-pager "$unit" 2>&1)"
files=$(bus_get ConfigFiles 2>&1)
[ "$files" = 'as 1 "/etc/bigLittle.conf"' ]
ok $? "the service reads /etc/bigLittle.conf: ConfigFiles $files"
started=$(since_mark | grep -m 1 '^started: ')
[ -n "$started" ]
ok $? "journal: ${started:-no started: line}"
watchdog=$(prop WatchdogUSec)
[ "$watchdog" = 30s ]
ok $? "watchdog configured: WatchdogUSec=$watchdog"
watchdog_t0=$(prop WatchdogTimestampMonotonic)

# --- the unit's mount namespace as systemd made it (issue 18 item 1): the
# kernel's settings read-only, the CPUs' directory writable. ': >' opens for
# writing and writes nothing, so a probe that gets through changes nothing.
# nsenter keeps this script's capabilities: only the mount's read-only flag
# can refuse it.
pid=$(prop MainPID)
for f in /proc/sys/kernel/core_pattern /proc/sys/kernel/printk_ratelimit_burst /proc/sysrq-trigger; do
        out=$(nsenter -t "$pid" -m -- sh -c ": > $f" 2>&1)
        r=$?
        [ "$r" != 0 ] && echo "$out" | grep -q "Read-only file system"
        ok $? "in the daemon's mount namespace $f is read-only: ${out:-opened for writing}"
done
out=$(nsenter -t "$pid" -m -- sh -c ": > /sys/devices/system/cpu/cpu1/online" 2>&1)
ok $? "in the daemon's mount namespace /sys/devices/system/cpu/cpu1/online is writable" "$out"

# --- switchctl as root over the system bus
out=$(ctl status 2>&1)
ok $? "switchctl status as root" "$out"
diag "$out"
# Issue 15 item 3: on the real kernel the daemon switched with nothing
# running; recorded here, asserted by make check-vm's idle scenario.
diag "switches before any load, $(awk '{ printf "%d", $1 }' /proc/uptime) s after boot: $(bus_get Switches | cut -d' ' -f2)"
levels=$(bus_get Levels)
top=$(echo "$levels" | sed 's/.*"\([^"]*\)"$/\1/')
bottom=$(echo "$levels" | sed 's/^as [0-9]* "\([^"]*\)".*/\1/')
diag "levels: $levels"

# --- a load on every CPU: the switches show in the journal
# It starts from the bottom level, held there until the mark: what the guest
# still runs after boot (systemd's jobs, this script's busctl and journalctl,
# all slow under TCG) may take the daemon up at any time, rightly.
pre=$(ctl hold "$bottom" --persist --for 5min --reason before-load 2>/dev/null | grep -o '^[0-9][0-9]*$' | head -n 1)
wait_for 60 sh -c "[ \"\$(busctl get-property ${bus_args[*]} Level)\" = 's \"$bottom\"' ]"
ok $? "held at $bottom before the load: hold ${pre:-?} (now $(level))"
mark
switches0=$(bus_get Switches | cut -d' ' -f2)
[ -n "$pre" ] && ctl release "$pre" >/dev/null 2>&1
pids=()
for i in $(seq "$(nproc --all)"); do
        (while :; do :; done) &
        pids+=($!)
done
wait_for 60 sh -c "[ \"\$(busctl get-property ${bus_args[*]} Level)\" = 's \"$top\"' ]"
r=$?
kill "${pids[@]}" 2>/dev/null
wait "${pids[@]}" 2>/dev/null
ok "$r" "a load on every CPU: level $top within 60 s (now $(level))"
wait_for 10 said "^switch .* -> $top: "
ok $? "journalctl -u $unit shows the switch: $(since_mark | grep -m 1 "^switch .* -> $top: ")" \
        "$(since_mark | tail -n 20)"
# The journal fields (bigLittled(8) "Journal"): the switch's MESSAGE_ID, as
# the installed catalog has it, finds it; -x shows the catalog's text.
switch_id=$(sed -n '/^-- /h; /^Subject: CPUs switched/{x; s/^-- //p; q}' /usr/lib/systemd/catalog/bigLittle.catalog 2>/dev/null)
out=$(journalctl -q -b -x --no-pager MESSAGE_ID="$switch_id" BIGLITTLE_TO="$top" 2>&1)
[ -n "$switch_id" ] && echo "$out" | grep -q "switch .* -> $top: " && echo "$out" | grep -q "bigLittled moved the machine"
ok $? "journalctl MESSAGE_ID=${switch_id:-?} BIGLITTLE_TO=$top -x: the switch and the catalog's explanation" \
        "$(echo "$out" | tail -n 20)"
switches1=$(bus_get Switches | cut -d' ' -f2)
[ "$switches1" -gt "$switches0" ]
ok $? "Switches property went from $switches0 to $switches1"

out=$(ctl history 2>&1)
r=$?
[ "$r" = 0 ] && echo "$out" | grep -q "$top"
ok $? "switchctl history as root lists the way to $top" "rc $r: $out"

# --- holds as root
out=$(ctl hold "$bottom" --persist --for 10min --reason vm-test 2>&1)
r=$?
hold=$(echo "$out" | grep -o '^[0-9][0-9]*$' | head -n 1)
[ "$r" = 0 ] && [ -n "$hold" ] && wait_for 30 sh -c "[ \"\$(busctl get-property ${bus_args[*]} Level)\" = 's \"$bottom\"' ]"
ok $? "switchctl hold $bottom --persist as root: hold ${hold:-?}, level $(level)" "rc $r: $out"
out=$(ctl status 2>&1)
echo "$out" | grep -q vm-test
ok $? "switchctl status shows the hold" "$out"
out=$(ctl release "$hold" 2>&1)
ok $? "switchctl release $hold as root" "$out"
[ "$(bus_get Holds)" = 'a(usuisssttb) 0' ]
ok $? "no hold left: $(bus_get Holds)"

# --- an unprivileged user: reading is open, changing is refused
useradd -m "$user" 2>/dev/null
out=$(as_user status 2>&1)
ok $? "switchctl status as $user (reading is open to everyone)" "$out"
out=$(as_user history 2>&1)
ok $? "switchctl history as $user" "$out"
out=$(as_user hold "$top" --persist 2>&1)
r=$?
[ "$r" = 4 ] && echo "$out" | grep -q "not permitted"
ok $? "switchctl hold as $user refused (exit 4): $(echo "$out" | head -n 1)" "rc $r: $out"
root_hold=$(ctl hold "$top" --persist --for 10min 2>/dev/null | grep -o '^[0-9][0-9]*$' | head -n 1)
out=$(as_user release "${root_hold:-1}" 2>&1)
r=$?
[ "$r" = 4 ] && echo "$out" | grep -q "not permitted"
ok $? "switchctl release of root's hold as $user refused" "rc $r: $out"
ctl release "${root_hold:-1}" >/dev/null 2>&1
out=$(as_user reload 2>&1)
r=$?
[ "$r" = 4 ] && echo "$out" | grep -q "not permitted"
ok $? "switchctl reload as $user refused" "rc $r: $out"
# The installed bus policy: a user may read properties (status above) but not
# set them; the call is stopped by the bus (access denied), while root's
# reaches the daemon, which says the property is read-only.
out=$(timeout 60 runuser -u "$user" -- busctl --system set-property "${bus_args[@]}" Level s "$top" 2>&1)
r=$?
[ "$r" != 0 ] && echo "$out" | grep -q "Access denied"
ok $? "the bus policy stops $user's Properties.Set: $out"
out=$(timeout 60 busctl --system set-property "${bus_args[@]}" Level s "$top" 2>&1)
r=$?
[ "$r" != 0 ] && ! echo "$out" | grep -q "Access denied"
ok $? "root's Properties.Set reaches the daemon: $out"
out=$(pkaction --action-id org.bigLittle.Switch1.manage --verbose 2>&1)
r=$?
[ "$r" = 0 ] && echo "$out" | grep -q "implicit any: *auth_admin"
ok $? "polkit knows the installed action org.bigLittle.Switch1.manage (auth_admin)" "rc $r: $out"
# A polkit rule granting the action to the user: the daemon asks polkit, so the
# same call now goes through; the refusal above was polkit's answer.
mkdir -p /etc/polkit-1/rules.d
cat >/etc/polkit-1/rules.d/50-bltest.rules <<EOF
polkit.addRule(function(action, subject) {
        if (action.id == "org.bigLittle.Switch1.manage" && subject.user == "$user")
                return polkit.Result.YES;
});
EOF
wait_for 20 sh -c "runuser -u $user -- switchctl --no-ask-password hold $top --persist --for 1min >/tmp/user-hold 2>&1"
r=$?
ok "$r" "with a polkit rule granting org.bigLittle.Switch1.manage, $user may hold: $(cat /tmp/user-hold)"
rm -f /etc/polkit-1/rules.d/50-bltest.rules
ctl release --all >/dev/null 2>&1

# --- reload
pid=$(prop MainPID)
mark
out=$(timeout 60 systemctl reload "$unit" 2>&1)
r=$?
[ "$r" = 0 ] && wait_for 20 said '^reload: applied /etc/bigLittle.conf' && is_active && [ "$(prop MainPID)" = "$pid" ]
ok $? "systemctl reload: applied /etc/bigLittle.conf, same process" "rc $r: $out; $(since_mark)"
cp /etc/bigLittle.conf /root/bigLittle.conf.good
sed -i 's/^sample_interval_ms = .*/sample_interval_ms = banana/' /etc/bigLittle.conf
mark
out=$(timeout 60 systemctl reload "$unit" 2>&1)
r=$?
[ "$r" = 0 ] && wait_for 20 said '^reload: refused, keeping the running configuration'
ok $? "a bad configuration refused on reload: $(since_mark | grep -m 1 'bigLittle.conf:')" "rc $r: $out; $(since_mark)"
is_active && [ "$(prop MainPID)" = "$pid" ]
ok $? "still active after the refused reload, same process ($(prop ActiveState), pid $(prop MainPID))"
out=$(ctl reload 2>&1)
r=$?
[ "$r" = 1 ]
ok $? "switchctl reload of the bad configuration exits 1: $(echo "$out" | head -n 1)" "rc $r: $out"
out=$(ctl check-config 2>&1)
r=$?
[ "$r" != 0 ] && echo "$out" | grep -q '/etc/bigLittle.conf:[0-9]*: '
ok $? "switchctl check-config names the place: $(echo "$out" | grep -m 1 'bigLittle.conf:')" "rc $r: $out"
cp /root/bigLittle.conf.good /etc/bigLittle.conf
mark
timeout 60 systemctl reload "$unit" && wait_for 20 said '^reload: applied'
ok $? "the good configuration applies again"

# --- the watchdog is fed: its timestamp moved (pings at least every 15 s)
wait_for 40 sh -c "[ \"\$(systemctl show -P WatchdogTimestampMonotonic $unit)\" != '$watchdog_t0' ]"
ok $? "watchdog pinged: WatchdogTimestampMonotonic $watchdog_t0 -> $(prop WatchdogTimestampMonotonic)"

# --- kill -9: Restart= brings it back and the new process reconciles
hold=$(ctl hold "$bottom" --persist --for 10min --reason before-kill 2>/dev/null | grep -o '^[0-9][0-9]*$' | head -n 1)
wait_for 30 sh -c "[ \"\$(busctl get-property ${bus_args[*]} Level)\" = 's \"$bottom\"' ]"
before=$(online)
pid=$(prop MainPID)
restarts=$(prop NRestarts)
mark
kill -9 "$pid"
wait_for 90 sh -c "[ \"\$(systemctl show -P ActiveState $unit)\" = active ] &&
        [ \"\$(systemctl show -P MainPID $unit)\" != $pid ] && [ \"\$(systemctl show -P MainPID $unit)\" != 0 ]"
ok $? "kill -9 (CPUs online $before): Restart= brought it back, NRestarts $restarts -> $(prop NRestarts), pid $pid -> $(prop MainPID)" \
        "$(systemctl status --no-pager "$unit" 2>&1)"
wait_for 20 said '^found the state a previous run saved'
ok $? "state reconciled: $(since_mark | grep -m 1 '^found the state')" "$(since_mark | tail -n 20)"
wait_for 20 said "^hold $hold restored"
ok $? "the persistent hold $hold survived the kill: $(since_mark | grep -m 1 '^hold .* restored')"

# --- stop restores every CPU
wait_for 30 sh -c "[ \"\$(busctl get-property ${bus_args[*]} Level)\" = 's \"$bottom\"' ]"
before=$(online)
diag "before stop: level $(level), CPUs online $before of $(possible)"
mark
timeout 120 systemctl stop "$unit"
r=$?
all_online
ok $? "systemctl stop (rc $r): CPUs online $before -> $(online), possible $(possible)" "$(since_mark)"
said '^restored: '
ok $? "journal: $(since_mark | grep -m 1 '^restored: ')"
offline=$(grep -l '^0$' /sys/devices/system/cpu/cpu*/online 2>/dev/null)
[ -z "$offline" ]
ok $? "every cpuN/online reads 1" "$offline"

# --- the cpuset backend through the real systemd: AllowedCPUs= of the slices
allowed() { systemctl show -P AllowedCPUs "$1"; }
sys0=$(allowed system.slice) user0=$(allowed user.slice)
sed -i 's/^backend = .*/backend = cpuset/' /etc/bigLittle.conf
mark
timeout 300 systemctl start "$unit" && is_active && wait_for 20 said '^started: .*backend cpuset'
ok $? "backend = cpuset: $(since_mark | grep -m 1 -o 'backend cpuset[^;]*')" "$(since_mark | tail -n 20)"
ctl release --all >/dev/null 2>&1
hold=$(ctl hold "$top" --persist --for 10min 2>/dev/null | grep -o '^[0-9][0-9]*$' | head -n 1)
wait_for 30 sh -c "[ \"\$(systemctl show -P AllowedCPUs system.slice)\" = 4-7 ]"
ok $? "held at $top: system.slice AllowedCPUs '$sys0' -> '$(allowed system.slice)', user.slice '$(allowed user.slice)', CPUs online $(online)" \
        "$(since_mark | tail -n 20)"
mark
timeout 120 systemctl stop "$unit"
r=$?
[ "$(allowed system.slice)" = "$sys0" ] && [ "$(allowed user.slice)" = "$user0" ] && all_online
ok $? "systemctl stop (rc $r): AllowedCPUs back to '$(allowed system.slice)' and '$(allowed user.slice)'" "$(since_mark)"
rm -f /run/bigLittle/holds*
cp /root/bigLittle.conf.good /etc/bigLittle.conf

# --- the idle wake under the unit's sandbox: CAP_PERFMON and perf_event_open
# allowed. Left alone, the daemon backs off (5 s idle, then a sample a
# second) and opens its counters; programs that start then wake it, which the
# line it logs at exit counts. At Debian's perf_event_paranoid 3 the kernel
# asks for CAP_SYS_ADMIN, which the unit does not grant: the daemon must say
# so; at upstream's 2, CAP_PERFMON is enough and the wake must work.
paranoid0=$(cat /proc/sys/kernel/perf_event_paranoid)
levels=$paranoid0
[ "$paranoid0" != 2 ] && levels="$paranoid0 2"
for paranoid in $levels; do
        echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid
        mark
        timeout 300 systemctl start "$unit" && is_active
        sleep 30
        for i in 1 2 3 4 5 6 7 8; do /bin/true; done
        sleep 3
        # busctl is a program too: read after the programs, not before.
        wake_prop=$(bus_get IdleWake 2>&1)
        timeout 120 systemctl stop "$unit"
        stopped=$(since_mark | grep -m 1 'stopped after')
        wakes=$(echo "$stopped" | sed -n 's/.*; \([0-9]*\) idle wakes.*/\1/p')
        if [ "$paranoid" -ge 3 ]; then
                said 'idle wake: unavailable (perf_event_open(context-switches) on CPU 0: Permission denied; .*CAP_SYS_ADMIN where it is 3' &&
                        echo "$wake_prop" | grep -q '^(stt) "unavailable: perf_event_open'
                ok $? "idle wake at perf_event_paranoid $paranoid: unavailable under the unit, and the log and IdleWake say why: $(echo "$wake_prop" | cut -c1-100)..." \
                        "$wake_prop; $(since_mark | tail -n 20)"
        else
                ! said 'idle wake: unavailable' && [ "${wakes:-0}" -ge 1 ] &&
                        [ "$(echo "$wake_prop" | awk '{ print $(NF - 1) }')" -ge 1 ]
                ok $? "idle wake at perf_event_paranoid $paranoid under the unit: programs started after 30 s idle woke the daemon: IdleWake $wake_prop; ${stopped#*p99 }" \
                        "$wake_prop; $(since_mark | tail -n 20)"
        fi
done
echo "$paranoid0" >/proc/sys/kernel/perf_event_paranoid

# --- the sandbox as systemd sees it
out=$(systemd-analyze security --no-pager "$unit" 2>&1)
score=$(echo "$out" | sed -n 's/.*Overall exposure level for bigLittle.service: \([0-9.]*\).*/\1/p')
[ -n "$score" ]
ok $? "systemd-analyze security $unit: exposure ${score:-?}" "$out"
diag "$out"

journalctl -q -u "$unit" -o short-monotonic --no-pager | sed 's/^/BLLOG /'
tap "1..$n"
echo BLDONE
systemctl poweroff --no-block
