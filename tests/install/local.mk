# Installing: the files land where configure said the system looks for them,
# and blsim finds its boards and workloads installed and from the build tree.
check_DATA += tests/install/installdirs.sh
CLEANFILES += tests/install/installdirs.sh
tests/install/installdirs.sh: Makefile
	$(AM_V_GEN)$(MKDIR_P) tests/install && { \
		echo "bindir='$(bindir)'"; \
		echo "sbindir='$(sbindir)'"; \
		echo "sysconfdir='$(sysconfdir)'"; \
		echo "dbuspolicydir='$(dbuspolicydir)'"; \
		echo "polkitactiondir='$(polkitactiondir)'"; \
		echo "systemdsystemunitdir='$(systemdsystemunitdir)'"; \
		echo "bashcompletiondir='$(bashcompletiondir)'"; \
		echo "zshcompletiondir='$(zshcompletiondir)'"; \
		echo "catalogdir='$(catalogdir)'"; \
		echo "dbusinterfacesdir='$(dbusinterfacesdir)'"; \
		echo "boardsdir='$(boardsdir)'"; \
		echo "workloadsdir='$(workloadsdir)'"; \
	} > $@.tmp && mv $@.tmp $@

dist_check_SCRIPTS += tests/install/check-install.sh tests/install/check-blsim-buildtree.sh
TESTS += tests/install/check-install.sh tests/install/check-blsim-buildtree.sh
