# The shipped configuration: every key, documented, at its default.
dist_sysconf_DATA = conf/bigLittle.conf
# Board models for blsim; "blsim --board NAME" finds them here.
boardsdir = $(pkgdatadir)/boards
dist_boards_DATA = conf/boards/exynos5422-like.ini conf/boards/tc2.ini \
	conf/boards/rk3399.ini conf/boards/rk3588.ini conf/boards/gs101.ini conf/boards/mt8183.ini \
	conf/boards/exynos5422.ini conf/boards/sdm845.ini
# The D-Bus service's system bus policy and its polkit action, in the
# directories dbus-daemon and polkitd read (configure.ac finds them).
dist_dbuspolicy_DATA = conf/org.bigLittle.Switch1.conf
dist_polkitaction_DATA = conf/org.bigLittle.Switch1.policy
# The interface's description for people and code generators; the test
# check_bus_interface keeps it the same as what the daemon serves.
dist_dbusinterfaces_DATA = conf/org.bigLittle.Switch1.xml
