# SPDX-License-Identifier: GPL-2.0
#
# Installing the userspace parts (Documentation/install.md):
#
#   make install [DESTDIR=...] [PREFIX=/usr/local] [SBINDIR=...] [MANDIR=...]
#   make uninstall               the same variables: removes what install put
#
# The module is not installed here: DKMS builds it for each kernel.

PREFIX     ?= /usr/local
SBINDIR    ?= $(PREFIX)/sbin
MANDIR     ?= $(PREFIX)/share/man
DOCDIR     ?= $(PREFIX)/share/doc/l2tpsel
UNITDIR    ?= $(PREFIX)/lib/systemd/system
SYSCONFDIR ?= /etc

# What install puts where, as DIR/NAME relative to DESTDIR; uninstall reads it.
INSTALL_FILES := $(SBINDIR)/l2tpsel $(SBINDIR)/l2tpseld \
	$(MANDIR)/man8/l2tpsel.8 $(MANDIR)/man8/l2tpseld.8 \
	$(UNITDIR)/l2tpseld.service $(DOCDIR)/examples/l2tpseld.conf

.PHONY: install uninstall
install: $(BUILD)/l2tpsel $(BUILD)/l2tpseld
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(DOCDIR)/examples
	install -m 0755 $(BUILD)/l2tpsel $(BUILD)/l2tpseld $(DESTDIR)$(SBINDIR)/
	install -m 0644 Documentation/l2tpsel.8 Documentation/l2tpseld.8 $(DESTDIR)$(MANDIR)/man8/
	# the unit names the agent and its configuration where they are installed
	sed -e 's|/usr/sbin/l2tpseld|$(SBINDIR)/l2tpseld|g' \
		-e 's|/etc/l2tpseld.conf|$(SYSCONFDIR)/l2tpseld.conf|g' \
		contrib/l2tpseld.service > $(DESTDIR)$(UNITDIR)/l2tpseld.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/l2tpseld.service
	install -m 0644 contrib/l2tpseld.conf.example $(DESTDIR)$(DOCDIR)/examples/l2tpseld.conf

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALL_FILES))
	-rmdir $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR) 2>/dev/null

# make install into a scratch DESTDIR, the unit verified, then uninstall:
# part of make unit.
.PHONY: install-check
install-check: $(BUILD)/l2tpsel $(BUILD)/l2tpseld
	selftests/unit/install.sh
unit: install-check
