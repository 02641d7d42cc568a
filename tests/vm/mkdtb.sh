#!/bin/sh
# mkdtb.sh OUT.dtb TOPOLOGY IDLE FREQ
# A device tree for QEMU's virt machine shaped like a big.LITTLE SoC:
#   TOPOLOGY  CPUs per cluster, slowest first ("4+4", "2+4", "4+2+2")
#   IDLE      1: a PSCI retention state beside WFI (cpuidle), 0: none
#   FREQ      1: a fixed clock and a three-OPP table per cluster
#             (cpufreq-dt, once its module is loaded), 0: none
# QEMU's own tree is dumped for the same -smp and extended: its cpu-map is
# replaced by one cluster per group and every CPU gets capacity-dmips-mhz.
# Under TCG the frequency never changes, but scaling_max_freq is the
# kernel's policy and the cpufreq backend's caps show there; with a single
# OPP there would be nothing to cap.
set -eu
out=$1 topo=$2 idle=$3 freq=$4
here=$(dirname "$0")
qemu=${QEMU:-qemu-system-aarch64}

ncpus=0
for n in $(echo "$topo" | tr '+' ' '); do ncpus=$((ncpus + n)); done
nclusters=$(echo "$topo" | tr '+' '\n' | wc -l)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# -nic none: without it the dump stops on a missing option ROM.
timeout 60 "$qemu" -machine "virt,gic-version=2,dumpdtb=$tmp/qemu.dtb" -cpu cortex-a57 -smp "$ncpus" \
        -m 1024 -nographic -nic none >/dev/null 2>&1
dtc -q -I dtb -O dts -o "$tmp/qemu.dts" "$tmp/qemu.dtb"

# capacity CLUSTER: the slowest cluster 512, the fastest 1024, evenly between.
capacity() {
        if [ "$nclusters" -eq 1 ]; then echo 1024; else echo $((512 + 512 * $1 / (nclusters - 1))); fi
}
# top_khz CLUSTER: 1.4 GHz to 2.0 GHz, the same way.
top_khz() {
        if [ "$nclusters" -eq 1 ]; then echo 2000000; else echo $((1400000 + 600000 * $1 / (nclusters - 1))); fi
}

{
        cat "$tmp/qemu.dts"
        echo "/ {"
        echo "	cpus {"
        echo "		/delete-node/ cpu-map;"
        echo "		cpu-map {"
        cpu=0 c=0
        for n in $(echo "$topo" | tr '+' ' '); do
                echo "			cluster$c {"
                i=0
                while [ "$i" -lt "$n" ]; do
                        echo "				core$i { cpu = <&{/cpus/cpu@$((cpu + i))}>; };"
                        i=$((i + 1))
                done
                echo "			};"
                cpu=$((cpu + n)) c=$((c + 1))
        done
        echo "		};"
        if [ "$idle" = 1 ]; then
                # Latencies of a typical retention state; QEMU's PSCI treats it as WFI.
                echo "		idle-states {"
                echo "			entry-method = \"psci\";"
                echo "			bl_retention: cpu-retention {"
                echo "				compatible = \"arm,idle-state\";"
                echo "				arm,psci-suspend-param = <0x0>;"
                echo "				entry-latency-us = <40>;"
                echo "				exit-latency-us = <100>;"
                echo "				min-residency-us = <150>;"
                echo "			};"
                echo "		};"
        fi
        cpu=0 c=0
        for n in $(echo "$topo" | tr '+' ' '); do
                i=0
                while [ "$i" -lt "$n" ]; do
                        echo "		cpu@$((cpu + i)) {"
                        echo "			capacity-dmips-mhz = <$(capacity $c)>;"
                        [ "$idle" = 1 ] && echo "			cpu-idle-states = <&bl_retention>;"
                        if [ "$freq" = 1 ]; then
                                echo "			clocks = <&bl_clk$c>;"
                                echo "			operating-points-v2 = <&bl_opp$c>;"
                        fi
                        echo "		};"
                        i=$((i + 1))
                done
                cpu=$((cpu + n)) c=$((c + 1))
        done
        echo "	};"
        if [ "$freq" = 1 ]; then
                c=0
                while [ "$c" -lt "$nclusters" ]; do
                        top=$(top_khz $c)
                        # The clock runs at the top OPP, so cpufreq-dt starts on a listed frequency.
                        echo "	bl_clk$c: bl-clock$c {"
                        echo "		compatible = \"fixed-clock\";"
                        echo "		#clock-cells = <0>;"
                        echo "		clock-frequency = <${top}000>;"
                        echo "	};"
                        echo "	bl_opp$c: bl-opp-table$c {"
                        echo "		compatible = \"operating-points-v2\";"
                        echo "		opp-shared;"
                        for pct in 50 75 100; do
                                hz=$((top * pct / 100))000
                                echo "		opp-$hz { opp-hz = /bits/ 64 <$hz>; clock-latency-ns = <100000>; };"
                        done
                        echo "	};"
                        c=$((c + 1))
                done
        fi
        echo "};"
} >"$tmp/board.dts"
dtc -q -I dts -O dtb -o "$out" "$tmp/board.dts"
