# SPDX-License-Identifier: GPL-2.0
# l2tpseld's protocol library (RFC 2661 control messages, AVPs, hidden AVPs,
# tunnel authentication, reliable delivery): plain C, no sockets, linked into
# the unit tests (mk/core.mk) and the fuzz target (mk/fuzz.mk).
ifndef L2TPD_MK_INCLUDED
L2TPD_MK_INCLUDED := 1

# Listed, not globbed: the daemon's own files will live in the same folder.
L2TPD_LIB_SRC  := $(addprefix userspace/l2tpseld/,names.c md5.c auth.c hidden.c avp.c msg.c reliable.c)
L2TPD_LIB_HDRS := $(addprefix userspace/l2tpseld/,l2tp.h md5.h auth.h hidden.h avp.h msg.h reliable.h)

# mk/core.mk is read before this file, so its prerequisite list cannot see
# L2TPD_LIB_SRC yet (its recipe can): add the prerequisites here.
$(BUILD)/unit-tests: $(L2TPD_LIB_SRC) $(L2TPD_LIB_HDRS)

endif
