// SPDX-License-Identifier: GPL-2.0
/* The module's named-object tables (kmod/tables.c), for the l2tpsel_table suite. */
#include "../tables.c"
