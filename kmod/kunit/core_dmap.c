// SPDX-License-Identifier: GPL-2.0 OR MIT
/* core/dmap.c compiled again into l2tpsel_kunit.ko (see Kbuild). */
#include "../../core/dmap.c"
