# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel (KUnit, KASAN, lockdep, kmemleak) and the suite on it.
# Documentation/debug-kernel.md explains the kernel, its cache and the times.
#
#   make debug-kernel              build the debug kernel, or reuse the cached one
#   make debug-kernel REBUILD=1    build it again even when cached
#   make debug-kmod                the module built against it, in build/debug/src/
#   make debug-test                both, then the selftests (KUnit included) in
#                                  the VM on it, with a kmemleak scan at the end
#   make debug-test TESTS=kunit    only those tests (TESTS and VMFLAGS as in vm.mk)
#   make debug-shell               an interactive VM shell on the debug kernel

DEBUG_KERNEL_SH := kernel/build-debug-kernel.sh
DEBUG_SRC       := $(BUILD)/debug/src
DEBUG_KO        := $(CURDIR)/$(DEBUG_SRC)/kmod/l2tpsel.ko
# kernel/debug.config has neither CONFIG_PPPOE nor CONFIG_MACVLAN (adding
# them would rebuild the cached kernel): the access test gets the kernel's
# own pppoe.c and macvlan.c built as external modules against the cached
# tree, a few seconds; with their options defined for them, so that the
# headers' inline parts (if_macvlan.h BUG()s when CONFIG_MACVLAN is off)
# are the real ones.
DEBUG_EXTRA     := $(BUILD)/debug/extra
DEBUG_EXTRA_SRC := drivers/net/ppp/pppoe.c drivers/net/macvlan.c
DEBUG_EXTRA_KOS := $(CURDIR)/$(DEBUG_EXTRA)/pppoe.ko,$(CURDIR)/$(DEBUG_EXTRA)/macvlan.ko
# Under TCG with KASAN and lockdep the guest needs ~40 s to boot and runs
# several times slower than the stock kernel; KASAN's shadow wants memory.
# The whole debug run is bounded by DEBUG_VM_TIMEOUT, each test by
# DEBUG_TEST_TIMEOUT (run.sh's 300 s is sized for the stock kernel).
DEBUG_VM_TIMEOUT   ?= 4800
DEBUG_TEST_TIMEOUT ?= 1500
DEBUG_VM_MEM       ?= 2G

.PHONY: debug-kernel debug-kmod debug-test debug-shell

debug-kernel:
	./$(DEBUG_KERNEL_SH) $(if $(REBUILD),--force) >/dev/null

# A copy of the sources, so that the stock build's objects in kmod/ and core/
# stay as they are; rsync keeps mtimes (incremental) and drops deleted files.
debug-kmod: debug-kernel
	@mkdir -p $(DEBUG_SRC)
	rsync -a --delete --include='*/' --include='*.[ch]' --include=Kbuild --exclude='*' \
		Kbuild kmod core uapi $(DEBUG_SRC)/
	$(MAKE) -C "$$(./$(DEBUG_KERNEL_SH) --print-dir)/build" M=$(CURDIR)/$(DEBUG_SRC) modules
	@mkdir -p $(DEBUG_EXTRA)
	@kdir=$$(./$(DEBUG_KERNEL_SH) --print-dir)/build; objs=; \
	for f in $(DEBUG_EXTRA_SRC); do \
		b=$$(basename $$f); \
		cmp -s $$kdir/$$f $(DEBUG_EXTRA)/$$b || cp $$kdir/$$f $(DEBUG_EXTRA)/$$b; \
		objs="$$objs $${b%.c}.o"; \
	done; \
	{ echo "obj-m :=$$objs"; \
	  echo "ccflags-y := -DCONFIG_PPPOE_MODULE=1 -DCONFIG_MACVLAN_MODULE=1"; } > $(DEBUG_EXTRA)/Kbuild; \
	$(MAKE) -C $$kdir M=$(CURDIR)/$(DEBUG_EXTRA) modules

# The selftests use the CLI from `make userspace`; the module is the debug one.
debug-test: debug-kmod userspace
	@set -e; dir=$$(./$(DEBUG_KERNEL_SH) --print-dir); \
	echo "# debug kernel $$(cat $$dir/release) from $$dir"; \
	selftests/vm/vm.sh --kernel $$dir/bzImage --modules $$dir/modroot \
		--mem $(DEBUG_VM_MEM) --timeout $(DEBUG_VM_TIMEOUT) --kmemleak --boot-retries 2 \
		--env L2TPSEL_KO=$(DEBUG_KO) --env L2TPSEL_TEST_TIMEOUT=$(DEBUG_TEST_TIMEOUT) \
		--env L2TPSEL_EXTRA_KOS=$(DEBUG_EXTRA_KOS) \
		$(VMFLAGS) -- selftests/run.sh $(TESTS)

debug-shell: debug-kmod userspace
	@dir=$$(./$(DEBUG_KERNEL_SH) --print-dir); \
	selftests/vm/vm.sh --kernel $$dir/bzImage --modules $$dir/modroot \
		--mem $(DEBUG_VM_MEM) --env L2TPSEL_KO=$(DEBUG_KO) \
		--env L2TPSEL_EXTRA_KOS=$(DEBUG_EXTRA_KOS) $(VMFLAGS) --shell
