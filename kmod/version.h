/* SPDX-License-Identifier: GPL-2.0 */
#ifndef L2TPSEL_VERSION_H
#define L2TPSEL_VERSION_H
#define L2TPSEL_VERSION "0.1.0"
#endif
