# Built-in heuristics, one file each, behind the heuristic interface.
noinst_LIBRARIES += policy/libblpolicy.a
policy_libblpolicy_a_SOURCES = \
	policy/builtin.h policy/builtin.c \
	policy/util.c \
	policy/pelt.c \
	policy/psi.c \
	policy/trend.c \
	policy/ipc.c \
	policy/headroom.c \
	policy/governor.h policy/governor.c \
	policy/always-big.c \
	policy/always-little.c \
	policy/ondemand.c \
	policy/conservative.c \
	policy/interactive.c \
	policy/hmp.c \
	policy/exynos5410.c

# The plugin ABI for heuristics built out of the tree: <bigLittle/bl-policy.h>
# and its pkg-config file (bigLittle-policy.pc, from configure).
bigLittle_includedir = $(includedir)/bigLittle
bigLittle_include_HEADERS = policy/bl-policy.h
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = policy/bigLittle-policy.pc
