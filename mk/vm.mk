# SPDX-License-Identifier: GPL-2.0
#
# The selftests in a VM on the stock kernel (Documentation/testing.md).
#
#   make vmtest                     build, then every selftests/net/*.sh in the VM
#   make vmtest TESTS="cli_info"    only those tests
#   make vmtest VMFLAGS="--env L2TPSEL_KO=/abs/path/l2tpsel.ko"   more vm.sh options
#   make vmshell                    build, then an interactive shell in the VM

VM_SH   := selftests/vm/vm.sh
TESTS   ?=
VMFLAGS ?=

.PHONY: vmtest vmshell

vmtest: all
	KVER=$(KVER) $(VM_SH) $(VMFLAGS) -- selftests/run.sh $(TESTS)

vmshell: all
	KVER=$(KVER) $(VM_SH) $(VMFLAGS) --shell
