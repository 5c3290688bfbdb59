/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the configuration parser (config*.c): the word helpers and the
 * handlers of the keywords with a syntax of their own, which config.c's
 * line_kws table names.  A handler gets the line's words @t[0..@n-1] and
 * returns 0, or -1 with a message in @err.
 */
#ifndef L2D_CONFIG_INT_H
#define L2D_CONFIG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "l2d_conf.h"

/* format into @err; always -1 */
int cfg_err(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* a number in @lo..@hi into @v: 0, or -1 */
int cfg_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *v);
/* yes or no into @v: 0, or -1 */
int cfg_bool(const char *s, bool *v);
/* a name of 1..@cap-1 bytes into @dst: 0, or -1 */
int cfg_name(char *dst, size_t cap, const char *s);
/* a test switch was read: remember the first for l2d_conf_check()'s refusal */
void cfg_test_switch(struct l2d_conf *c, const char *kw, const char *val);

#define CFG_LINE(name) int name(struct l2d_conf *c, char **t, int n, char *err, size_t errlen)
/* config_radius.c */
CFG_LINE(cfg_radius_line);
CFG_LINE(cfg_das_line);
CFG_LINE(cfg_metrics_line);
CFG_LINE(cfg_das_client_line);
CFG_LINE(cfg_radius_attr_line);
CFG_LINE(cfg_radius_fallback_line);
/* config_access.c */
CFG_LINE(cfg_access_line);
CFG_LINE(cfg_access_auth_line);
CFG_LINE(cfg_access_line_line);
CFG_LINE(cfg_lns_switch_line);
/* config_tunnel.c */
CFG_LINE(cfg_secret_line);
CFG_LINE(cfg_route_line);
CFG_LINE(cfg_tgroup_map_line);
CFG_LINE(cfg_lns_mode_line);
#undef CFG_LINE

#endif
