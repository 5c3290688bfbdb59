# SPDX-License-Identifier: GPL-2.0
# The kernel's own checkers on the kernel code, kmod/ and core/;
# part of make unit, so of make test:
#   make check            both
#   make sparse-check     sparse (Debian's package) through Kbuild, C=2:
#                         every file of the module, no warning allowed
#   make checkpatch       the kernel's scripts/checkpatch.pl --strict, taken
#                         from linux-source-6.1 into $(BUILD)/checkpatch/
#   make kmod-structure   calls, file and function lengths (below)
KSRC_TAR := $(firstword $(wildcard /usr/src/linux-source-6.1.tar.xz))
CHECKPATCH := $(BUILD)/checkpatch/scripts/checkpatch.pl
# The sources, not what Kbuild generates (*.mod.c).  The core's cases
# (core/tests/*.c, fix.h) are kernel C too, built into the KUnit module;
# core/tests/t.h is not checked: its userspace half maps to the C test
# harness's macros (a typedef of the test context, a check followed by its
# message), which checkpatch refuses by design.
CHECK_SRC = $(filter-out %.mod.c,$(wildcard kmod/*.c kmod/*.h kmod/kunit/*.c core/*.c core/*.h \
	core/tests/*.c core/tests/fix.h))

.PHONY: check sparse-check checkpatch
check: sparse-check checkpatch
unit: check

# A file sparse warns about is rebuilt each time (Kbuild's C=2 checks every
# file), so a warning cannot hide behind an up-to-date object.
sparse-check:
	@command -v sparse >/dev/null || { echo "sparse-check: no sparse (make deps)"; exit 1; }
	@out=$$($(MAKE) -s -C $(KDIR) M=$(CURDIR) C=2 CHECK=sparse \
		modules 2>&1 | grep -v "Skipping BTF" ); \
	if [ -n "$$out" ]; then echo "$$out"; echo "sparse-check: sparse warns (above)"; exit 1; fi; \
	echo "sparse-check: sparse has nothing to say about kmod/ and core/"

$(CHECKPATCH): $(KSRC_TAR)
	@[ -n "$(KSRC_TAR)" ] || { echo "checkpatch: no linux-source-6.1 (make deps)"; exit 1; }
	@rm -rf $(BUILD)/checkpatch && mkdir -p $(BUILD)/checkpatch
	tar -xJf $(KSRC_TAR) -C $(BUILD)/checkpatch --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
	@touch $@

checkpatch: $(CHECKPATCH)
	@out=$$(perl $(CHECKPATCH) --strict --no-tree --terse --show-types -f $(CHECK_SRC) 2>&1 | \
		grep -v '^total: 0 errors, 0 warnings, 0 checks'); \
	if [ -n "$$out" ]; then echo "$$out"; \
		echo "checkpatch: --strict is not clean on kmod/ and core/ (above)"; exit 1; fi
	@echo "checkpatch: --strict clean on $(words $(CHECK_SRC)) files of kmod/ and core/"

# kmod/ and core/: no circle of calls, no file over 800 lines, no function
# over 80 (scripts/l2d-structure.py); under a second.
.PHONY: kmod-structure
kmod-structure:
	selftests/unit/kmod_structure.sh
unit: kmod-structure
