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
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
SYSCONFDIR ?= /etc
LIBDIR     ?= $(PREFIX)/lib

# What install puts where, as DIR/NAME relative to DESTDIR; uninstall reads it.
INSTALL_FILES := $(SBINDIR)/l2tpsel $(SBINDIR)/l2tpseld \
	$(MANDIR)/man8/l2tpsel.8 $(MANDIR)/man8/l2tpseld.8 \
	$(UNITDIR)/l2tpseld.service $(DOCDIR)/examples/l2tpseld.conf \
	$(DOCDIR)/examples/l2tpsel.conf $(BASHCOMPDIR)/l2tpsel
# proxy-lcp's pppd plugin, when pppd's headers were there to build it
# (the agent's default proxy-lcp-plugin is /usr/lib/l2tpsel/pppd_proxy_lcp.so)
PPPD_INC ?= /usr/include/pppd
PLUGIN_FILE := $(if $(wildcard $(PPPD_INC)/pppd.h),$(LIBDIR)/l2tpsel/pppd_proxy_lcp.so)
INSTALL_FILES += $(PLUGIN_FILE)

.PHONY: install uninstall
install: $(BUILD)/l2tpsel $(BUILD)/l2tpseld $(if $(PLUGIN_FILE),$(BUILD)/pppd_proxy_lcp.so)
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(BASHCOMPDIR)
	install -m 0755 $(BUILD)/l2tpsel $(BUILD)/l2tpseld $(DESTDIR)$(SBINDIR)/
	install -m 0644 Documentation/l2tpsel.8 Documentation/l2tpseld.8 $(DESTDIR)$(MANDIR)/man8/
	# the unit names the programs and the configuration where they are installed
	sed -e 's|/usr/sbin/l2tpsel|$(SBINDIR)/l2tpsel|g' \
		-e 's|/etc/l2tpsel/|$(SYSCONFDIR)/l2tpsel/|g' \
		contrib/l2tpseld.service > $(DESTDIR)$(UNITDIR)/l2tpseld.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/l2tpseld.service
	install -m 0644 contrib/l2tpseld.conf.example $(DESTDIR)$(DOCDIR)/examples/l2tpseld.conf
	install -m 0644 contrib/l2tpsel.conf.example $(DESTDIR)$(DOCDIR)/examples/l2tpsel.conf
	install -m 0644 contrib/l2tpsel.bash-completion $(DESTDIR)$(BASHCOMPDIR)/l2tpsel
	$(if $(PLUGIN_FILE),install -D -m 0644 $(BUILD)/pppd_proxy_lcp.so $(DESTDIR)$(PLUGIN_FILE))

# The configuration files, once, for a package or a first install: the
# examples as /etc/l2tpsel/*.conf, mode 0600 (they may hold secrets); an
# existing file is left as it is.
.PHONY: install-etc
install-etc:
	install -d -m 0755 $(DESTDIR)$(SYSCONFDIR)/l2tpsel
	for f in l2tpsel l2tpseld; do \
		[ -e $(DESTDIR)$(SYSCONFDIR)/l2tpsel/$$f.conf ] || \
		install -m 0600 contrib/$$f.conf.example $(DESTDIR)$(SYSCONFDIR)/l2tpsel/$$f.conf; \
	done

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALL_FILES))
	-rmdir $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR) 2>/dev/null
	$(if $(PLUGIN_FILE),-rmdir $(DESTDIR)$(LIBDIR)/l2tpsel 2>/dev/null)

# make install into a scratch DESTDIR, the unit verified, then uninstall:
# part of make unit.
.PHONY: install-check
install-check: $(BUILD)/l2tpsel $(BUILD)/l2tpseld
	selftests/unit/install.sh
	selftests/unit/completion.sh $(BUILD)
unit: install-check

# Every requirement ID the tree cites is on Documentation/requirements.md.
.PHONY: requirements-check
requirements-check:
	selftests/unit/requirements.sh
unit: requirements-check

# What README and `make help` claim about commands holds.
.PHONY: readme-check
readme-check:
	selftests/unit/readme_claims.sh
unit: readme-check

# The module through DKMS: sources to /usr/src/l2tpsel-VERSION, then built
# and installed for every kernel that has headers (/lib/modules/*/build);
# DKMS rebuilds it when a kernel is installed later.  As root.
#
#   make dkms-install [DESTDIR=...]   DESTDIR: only copy the sources (packages)
#   make dkms-uninstall               every kernel's module, and the sources
L2TPSEL_VER := $(shell sed -n 's/^\#define L2TPSEL_VERSION "\(.*\)"/\1/p' kmod/version.h)
DKMS_SRC    := /usr/src/l2tpsel-$(L2TPSEL_VER)

.PHONY: dkms-src dkms-install dkms-uninstall
dkms-src:
	rm -rf $(DESTDIR)$(DKMS_SRC)
	install -d $(DESTDIR)$(DKMS_SRC)
	tar -cf - Kbuild $$(git ls-files kmod core uapi 2>/dev/null | grep -E '(\.[ch]|Kbuild)$$' || \
		find kmod core uapi -name '*.[ch]' -o -name Kbuild) | tar -C $(DESTDIR)$(DKMS_SRC) -xf -
	sed 's/#MODULE_VERSION#/$(L2TPSEL_VER)/' dkms.conf > $(DESTDIR)$(DKMS_SRC)/dkms.conf

dkms-install: dkms-src
	@if [ -n "$(DESTDIR)" ]; then exit 0; fi; set -e; \
	dkms status -m l2tpsel -v $(L2TPSEL_VER) | grep -q . || dkms add -m l2tpsel -v $(L2TPSEL_VER); \
	for k in $$(ls /lib/modules); do \
		[ -d /lib/modules/$$k/build ] || continue; \
		dkms install -m l2tpsel -v $(L2TPSEL_VER) -k $$k; \
	done

dkms-uninstall:
	-dkms remove -m l2tpsel -v $(L2TPSEL_VER) --all
	rm -rf $(DESTDIR)$(DKMS_SRC)

# The Debian packages in the VM (scripts/debian-test.sh): built, installed
# on this machine (DKMS builds the module for the stock kernel, whose
# /lib/modules the guest shares), selftests/net/module_dkms.sh in a guest of
# its own (the other tests need the module absent), then purged.  Part of
# make test's vm stage (vmtest-all); skips without root or the packaging
# tools.
.PHONY: vmtest-dkms vmtest-all
vmtest-dkms: all
	KVER=$(KVER) scripts/debian-test.sh $(VMFLAGS)

vmtest-all: vmtest
	$(MAKE) --no-print-directory vmtest-dkms
