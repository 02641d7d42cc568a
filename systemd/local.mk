systemdsystemunit_DATA = systemd/bigLittle.service
EXTRA_DIST += systemd/bigLittle.service.in
CLEANFILES += systemd/bigLittle.service
systemd/bigLittle.service: systemd/bigLittle.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) systemd && \
	$(SED) -e 's|@sbindir[@]|$(sbindir)|g' -e 's|@sysconfdir[@]|$(sysconfdir)|g' \
		$(srcdir)/systemd/bigLittle.service.in > $@.tmp && mv $@.tmp $@

dist_check_SCRIPTS += systemd/check-unit.sh
TESTS += systemd/check-unit.sh

# The explanations of the daemon's MESSAGE_IDs for journalctl -x; the test
# keeps them and src/daemon/message-ids.h the same, and has journalctl read
# the file.
dist_catalog_DATA = systemd/bigLittle.catalog
dist_check_SCRIPTS += systemd/check-catalog.sh
TESTS += systemd/check-catalog.sh
