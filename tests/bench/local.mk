# Benchmarks: programs whose output is recorded in tests/bench/RESULTS.md,
# never timed assertions. tests/bench/run.sh runs them under callgrind.
noinst_PROGRAMS += tests/bench/bench_core
tests_bench_bench_core_SOURCES = tests/bench/bench_core.c
tests_bench_bench_core_LDADD = policy/libblpolicy.a src/core/libblcore.a $(INIH_LIBS) $(LIBM)
EXTRA_DIST += tests/bench/run.sh tests/bench/RESULTS.md
