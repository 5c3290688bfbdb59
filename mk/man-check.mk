# SPDX-License-Identifier: GPL-2.0
# The man page's check:
#
#   make man-check       Documentation/l2tpsel.8 renders with no groff warning,
#                        has a section for every object `l2tpsel help` lists,
#                        and every usage and ":=" line of `l2tpsel OBJECT help`
#                        appears in it word for word (the BNF blocks)
#
# man-check needs no VM and takes well under a second; it is not part of
# `make unit` or scripts/test.sh, so that an object added to the CLI without
# a man page section fails here, where the man page's owner looks, and not in
# everybody's test run.  Run it after changing the CLI's objects or the page.

MAN_PAGE := Documentation/l2tpsel.8

.PHONY: man-check
man-check: SHELL := /bin/bash
# The page's text for comparison: no requests' dots, no font escapes, "\-" as
# "-", one space between words.
man_norm = sed -e 's/^\.[A-Z][A-Z]* //' -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' \
	-e 's/^Usage: //' -e 's/[[:space:]]\{1,\}/ /g' -e 's/^ //' -e 's/ $$//'
man-check: $(BUILD)/l2tpsel
	@set -e; \
	out=$$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z $(MAN_PAGE) 2>&1); \
	if [ -n "$$out" ]; then echo "$$out"; echo "man-check: groff warns about $(MAN_PAGE)"; exit 1; fi; \
	objs=$$($(BUILD)/l2tpsel help | sed -n 's/.*OBJECT := {\(.*\)}.*/\1/p' | tr -d '|'); \
	[ -n "$$objs" ] || { echo "man-check: no object list in 'l2tpsel help'"; exit 1; }; \
	page=$$($(man_norm) $(MAN_PAGE)); bad=0; \
	for o in $$objs; do \
		grep -q "^\.SS $$o\$$" $(MAN_PAGE) || { echo "man-check: no section .SS $$o"; bad=1; }; \
		help=$$($(BUILD)/l2tpsel $$o help) || { echo "man-check: $$o help failed"; bad=1; }; \
		while IFS= read -r line; do \
			grep -qxF -- "$$line" <<<"$$page" || { echo "man-check: $$o: not in the page: $$line"; bad=1; }; \
		done < <(grep -E 'l2tpsel |:=|^ +\[' <<<"$$help" | $(man_norm)); \
	done; \
	[ $$bad = 0 ] || exit 1; \
	echo "man-check: $(MAN_PAGE) renders without warnings; sections and BNF for:$$objs"
