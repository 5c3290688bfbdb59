# SPDX-License-Identifier: GPL-2.0
#
# The selftests in a VM on the stock kernel (Documentation/testing.md).
#
#   make vmtest                     build, then every selftests/net/*.sh in the VM
#   make vmtest TESTS="cli_info"    only those tests
#   make vmtest VMFLAGS="--env L2TPSEL_KO=/abs/path/l2tpsel.ko"   more vm.sh options
#   make vmtest VM_TIMEOUT=600      kill the guest earlier (default 2400 s)
#   make vmshell                    build, then an interactive shell in the VM

VM_SH   := selftests/vm/vm.sh
TESTS   ?=
VMFLAGS ?=
# The whole suite runs in one guest; vm.sh kills it after this many seconds.
VM_TIMEOUT ?= 2400

.PHONY: vmtest vmshell

vmtest: all
	KVER=$(KVER) $(VM_SH) --timeout $(VM_TIMEOUT) $(VMFLAGS) -- selftests/run.sh $(TESTS)

vmshell: all
	KVER=$(KVER) $(VM_SH) $(VMFLAGS) --shell
