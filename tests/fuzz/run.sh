#!/bin/sh
# Fuzzes the rt-app reader and model with libFuzzer (clang, ASan, UBSan),
# starting from the shipped rt-app files.
#   tests/fuzz/run.sh [SECONDS] [OUTDIR]
# SECONDS defaults to 60. New corpus entries and any crash land in OUTDIR
# (default: a temporary directory, kept when a crash is found). Exits 77
# when clang is not installed; replay a crash file without clang with
#   cc -DFUZZ_STANDALONE ... (see the build line below) and run it on the file.
set -eu
seconds=${1:-60}
src=$(cd "$(dirname "$0")/../.." && pwd)
out=${2:-}

if ! command -v clang >/dev/null 2>&1; then
        echo "clang not found: libFuzzer run skipped" >&2
        exit 77
fi
if [ -z "$out" ]; then
        out=$(mktemp -d)
fi
mkdir -p "$out/corpus" "$out/artifacts"
cp "$src"/tests/workloads/rt-app/*.json "$src"/tests/workloads/rt-app/tutorial/*.json "$out/corpus/"

clang -g -O1 -std=gnu11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -I"$src/src" -o "$out/fuzz_rtapp" \
        "$src/tests/fuzz/fuzz_rtapp.c" "$src/src/sim/rtapp.c" "$src/src/sim/rtapp-json.c" \
        "$src/src/sim/exec.c" "$src/src/sim/workload.c" "$src/src/core/diag.c" "$src/src/common/fileio.c" -lm

status=0
"$out/fuzz_rtapp" -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
        -dict="$src/tests/fuzz/rtapp.dict" -artifact_prefix="$out/artifacts/" -print_final_stats=1 \
        "$out/corpus" || status=$?
if [ "$status" -ne 0 ]; then
        echo "crash: see $out/artifacts" >&2
        exit "$status"
fi
if [ -z "${2:-}" ]; then
        rm -rf "$out"
fi
