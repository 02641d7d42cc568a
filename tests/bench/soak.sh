#!/bin/sh
# The soak of tests/bench/soak.c for longer than make check's 20 s, or with
# the daemon under valgrind memcheck (leaks of kinds definite and indirect,
# and memory errors, fail it):
#   tests/bench/soak.sh BUILDDIR [SECONDS] [--valgrind]
# Runs under nice: it mostly waits, but shares the machine for a long time.
set -eu
build=$(cd "${1:?usage: $0 BUILDDIR [SECONDS] [--valgrind]}" && pwd)
seconds=${2:-1800}
SOAK_SECONDS=$seconds
export SOAK_SECONDS
if [ "${3:-}" = "--valgrind" ]; then
        SOAK_VALGRIND=$(command -v valgrind) || { echo "valgrind is not installed" >&2; exit 77; }
        export SOAK_VALGRIND
fi
CK_TAP_LOG_FILE_NAME=-
export CK_TAP_LOG_FILE_NAME
exec nice -n 10 "$build/tests/bench/soak"
