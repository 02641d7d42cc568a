#!/bin/sh
# check-vm.sh: bigLittled on a real Linux kernel (make check-vm, issue 15).
# Debian's arm64 kernel boots on QEMU (TCG) with device trees shaped like
# big.LITTLE SoCs; a busybox initramfs runs the cross-built daemon through
# scenarios (tests/vm/guest-init.sh) and this script prints TAP:
#   ok N - DTB/SCENARIO - detail
#   ok 1 # SKIP reason      without QEMU, the cross toolchain or the archive
# Run from the build directory. Kept between runs in vm-cache/: the kernel and
# busybox packages, the device trees and the arm64 build; console logs and
# measurements go to vm-results/.
# VM_MATRIX overrides the runs: "TOPOLOGY:IDLE:FREQ:SCENARIO,..." separated
# by spaces; VM_IDLE_S the idle scenario's length (30 s); VM_LOG_LEVEL the
# log_level of the daemon the policy scenarios share, whose whole log then
# ends up in the console log (debug: every tick's reading).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(pwd)
cache=$build/vm-cache
results=$build/vm-results
mkdir -p "$cache" "$results"

# Every scenario runs on a 4+4 tree: the policy's and the cost's with cpuidle
# and cpufreq (as on a real SoC), the backends' on cpufreq alone; the other
# trees run the topology, idle and load scenarios; mp mode's ("mp": both
# backends, mp-cpuset and mp-hotplug by name) on the first tree.
# idle first: from the daemon's start on, nothing but the one process that
# follows its log runs beside it (the topology check's shell pipelines, run
# first, were a burst of load just after the start-up switch).
short=idle,topology,load
matrix=${VM_MATRIX:-"4+4:1:1:$short,one-thread,switch-cost,cost,idle-wake,mp 4+4:0:1:$short,backends,kill,refuse
        4+4:0:0:$short 4+4:1:0:$short 2+4:0:0:$short 2+4:1:1:$short 4+2+2:0:0:$short 4+2+2:1:1:$short"}
idle_s=${VM_IDLE_S:-30}
log_arg=${VM_LOG_LEVEL:+bl.log=$VM_LOG_LEVEL}

skip() {
        echo "1..1"
        echo "ok 1 # SKIP $*"
        exit 0
}

for tool in qemu-system-aarch64 dtc cpio aarch64-linux-gnu-gcc aarch64-linux-gnu-readelf apt-get dpkg-deb; do
        command -v "$tool" >/dev/null 2>&1 || skip "no $tool (./quickstart.sh vm installs what the VM tests need)"
done
pcdir=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig
PKG_CONFIG_LIBDIR=$pcdir pkg-config --exists libsystemd libudev inih ||
        skip "no arm64 libsystemd, libudev or inih (libsystemd-dev:arm64 libudev-dev:arm64 libinih-dev:arm64)"

if ! why=$("$here/fetch.sh" "$cache"); then
        skip "$why"
fi
kernel=$(ls "$cache"/kernel/boot/vmlinuz-* | head -n 1)

# The daemon and its tools for arm64: configured once, brought up to date each run.
arm=$cache/arm64
mkdir -p "$arm"
if [ ! -f "$arm/Makefile" ]; then
        (cd "$arm" && PKG_CONFIG_LIBDIR=$pcdir "$top/configure" -q --host=aarch64-linux-gnu \
                --prefix=/usr --sysconfdir=/etc --disable-tests) >"$results/configure.log" 2>&1 || {
                echo "1..1"
                echo "not ok 1 - cross configure failed: see $results/configure.log"
                exit 1
        }
fi
if ! make -C "$arm" -j2 src/daemon/bigLittled src/ctl/switchctl tests/bench/bench_floor >"$results/make.log" 2>&1 ||
        ! aarch64-linux-gnu-gcc -std=gnu11 -O2 -Wall -pthread -o "$arm/vm-tool" "$here/vm-tool.c" >>"$results/make.log" 2>&1; then
        echo "1..1"
        echo "not ok 1 - cross build failed: see $results/make.log"
        exit 1
fi
initrd=$cache/initrd.gz
"$here/mkinitrd.sh" "$initrd" "$cache" "$arm" || {
        echo "1..1"
        echo "not ok 1 - mkinitrd.sh failed"
        exit 1
}

n=0
failed=0
: >"$results/measures.txt"
for run in $matrix; do
        topo=${run%%:*} rest=${run#*:}
        idle=${rest%%:*} rest=${rest#*:}
        freq=${rest%%:*} scenarios=${rest#*:}
        dtbname=$topo
        [ "$idle" = 1 ] && dtbname=$dtbname-cpuidle
        [ "$freq" = 1 ] && dtbname=$dtbname-cpufreq
        dtb=$cache/$dtbname.dtb
        ncpus=0
        for c in $(echo "$topo" | tr '+' ' '); do ncpus=$((ncpus + c)); done
        if [ ! -f "$dtb" ] && ! "$here/mkdtb.sh" "$dtb" "$topo" "$idle" "$freq"; then
                n=$((n + 1))
                failed=$((failed + 1))
                echo "not ok $n - $dtbname: mkdtb.sh failed"
                continue
        fi
        # A bound per run: boot, then each scenario's own bounds with room for a slow host.
        count=$(echo "$scenarios" | tr ',' '\n' | wc -l)
        seconds=$((180 + 120 * count + idle_s))
        log=$results/$dtbname.log
        start=$(date +%s)
        "$here/boot.sh" "$kernel" "$initrd" "$dtb" "$ncpus" "$seconds" "$log" \
                "bl.topo=$topo" "bl.scenarios=$scenarios" "bl.idle_s=$idle_s" $log_arg
        status=$?
        echo "# $dtbname: guest ran $(($(date +%s) - start)) s (qemu exit $status)"
        tr -d '\r' <"$log" | sed -n 's/^BLVM //p' >"$results/$dtbname.results"
        while read -r verdict rest; do
                case $verdict in
                ok | fail)
                        n=$((n + 1))
                        name=${rest%% *}
                        if [ "$verdict" = ok ]; then
                                echo "ok $n - $dtbname/$rest"
                        else
                                echo "not ok $n - $dtbname/$rest"
                                failed=$((failed + 1))
                        fi
                        ;;
                skip)
                        n=$((n + 1))
                        echo "ok $n - $dtbname/${rest%% *} # SKIP ${rest#* - }"
                        ;;
                measure) echo "$dtbname $rest" >>"$results/measures.txt" ;;
                info)
                        case $rest in
                        *" log: "*) ;; # the daemon's log after a failure: in the console log only
                        *) echo "# $dtbname: $rest" ;;
                        esac
                        ;;
                esac
        done <"$results/$dtbname.results"
        if ! grep -qx end "$results/$dtbname.results"; then
                n=$((n + 1))
                failed=$((failed + 1))
                echo "not ok $n - $dtbname: the guest did not finish its scenarios within $seconds s (console: $log)"
        fi
done
echo "1..$n"
echo "# measurements: $results/measures.txt"
[ "$failed" -eq 0 ]
