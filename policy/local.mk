# Built-in heuristics, one file each, behind the heuristic interface.
noinst_LIBRARIES += policy/libblpolicy.a
policy_libblpolicy_a_SOURCES = \
	policy/builtin.h policy/builtin.c \
	policy/util.c \
	policy/pelt.c \
	policy/governor.h policy/governor.c \
	policy/always-big.c \
	policy/always-little.c \
	policy/ondemand.c \
	policy/conservative.c \
	policy/interactive.c \
	policy/hmp.c \
	policy/exynos5410.c
