# The shipped configuration: every key, documented, at its default.
dist_sysconf_DATA = conf/bigLittle.conf
# Board models for blsim; "blsim --board NAME" finds them here.
boardsdir = $(pkgdatadir)/boards
dist_boards_DATA = conf/boards/exynos5422-like.ini conf/boards/tc2.ini
