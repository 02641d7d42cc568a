# The shipped configuration: every key, documented, at its default.
dist_sysconf_DATA = conf/bigLittle.conf
