# Built-in heuristics, one file each, behind the heuristic interface.
noinst_LIBRARIES += policy/libblpolicy.a
policy_libblpolicy_a_SOURCES = \
	policy/builtin.h policy/builtin.c \
	policy/util.c \
	policy/pelt.c
