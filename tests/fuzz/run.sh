#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzzes one parser with libFuzzer (clang, ASan, UBSan).
#   tests/fuzz/run.sh TARGET [SECONDS] [OUTDIR]
# TARGET is one of tests/fuzz/fuzz_TARGET.c (config, board, trace, rtapp,
# procstat, psi, loadavg, sysfs, saved_state, holds_store, dts,
# duration); SECONDS defaults to 60.
# The targets are built by the project's own build (tests/fuzz/local.mk),
# configured once with clang in $FUZZ_BUILDDIR (default
# /tmp/bigLittle-fuzz-build). The run starts from the committed corpus
# (tests/fuzz/corpus/TARGET, left untouched) and puts what it finds in
# OUTDIR/corpus, a crash in OUTDIR/artifacts (OUTDIR defaults to a temporary
# directory, kept when a crash is found). Add to the committed corpus only
# what reaches code it does not reach yet (edges, not hit counts: it stays
# small):
#   OUTDIR/fuzz_TARGET -merge=1 -use_counters=0 tests/fuzz/corpus/TARGET OUTDIR/corpus
# Exits 77 when clang is not installed.
set -eu
target=${1:?usage: run.sh TARGET [SECONDS] [OUTDIR]}
seconds=${2:-60}
out=${3:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${FUZZ_BUILDDIR:-/tmp/bigLittle-fuzz-build}

if [ ! -f "$src/tests/fuzz/fuzz_$target.c" ]; then
        echo "no fuzz target $target" >&2
        exit 2
fi
if ! command -v clang >/dev/null 2>&1; then
        echo "clang not found: libFuzzer run skipped" >&2
        exit 77
fi
mkdir -p "$build"
if [ ! -f "$build/Makefile" ]; then
        (cd "$build" && "$src/configure" -q CC=clang CFLAGS="-g -O1 -fsanitize=fuzzer-no-link" \
                --enable-sanitizers)
fi
# -fsanitize=fuzzer brings libFuzzer's main(); fuzz-common.c's is left out.
make -s -C "$build" -j2 "tests/fuzz/fuzz_$target" FUZZ_DEFS= FUZZ_LINK=-fsanitize=fuzzer

if [ -z "$out" ]; then
        out=$(mktemp -d)
fi
mkdir -p "$out/corpus" "$out/artifacts"
cp "$build/tests/fuzz/fuzz_$target" "$out/"
dict=
if [ -f "$src/tests/fuzz/dict/$target.dict" ]; then
        dict=-dict="$src/tests/fuzz/dict/$target.dict"
fi

status=0
# detect_leaks: a parser that leaks on some input is a finding too.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
"$out/fuzz_$target" -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
        $dict -artifact_prefix="$out/artifacts/" -print_final_stats=1 \
        "$out/corpus" "$src/tests/fuzz/corpus/$target" || status=$?
if [ "$status" -ne 0 ]; then
        echo "crash: see $out/artifacts" >&2
        exit "$status"
fi
if [ -z "${3:-}" ]; then
        rm -rf "$out"
fi
