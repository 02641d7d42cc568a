systemdsystemunit_DATA = systemd/bigLittle.service
EXTRA_DIST += systemd/bigLittle.service.in
CLEANFILES += systemd/bigLittle.service
systemd/bigLittle.service: systemd/bigLittle.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) systemd && \
	$(SED) -e 's|@sbindir[@]|$(sbindir)|g' -e 's|@sysconfdir[@]|$(sysconfdir)|g' \
		$(srcdir)/systemd/bigLittle.service.in > $@.tmp && mv $@.tmp $@

dist_check_SCRIPTS += systemd/check-unit.sh
TESTS += systemd/check-unit.sh
