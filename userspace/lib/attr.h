/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The attributes of the l2tpsel family (uapi/linux/l2tpsel.h) for its
 * userspace clients: one table giving each L2TPSEL_A_* its name and libmnl
 * type, a parser that fills tb[type] from a message or a nest and keeps only
 * what is well formed, and typed getters with a default for what is absent.
 *
 *	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
 *
 *	l2s_attr_parse(nlh, tb);
 *	limit = l2s_attr_u32(tb, L2TPSEL_A_LIMIT, 0);
 *
 * A malformed attribute (wrong length, a string without its NUL, an address
 * of neither 4 nor 16 bytes) is left out of tb, so every getter sees it as
 * absent: what the kernel cannot have meant is never printed or acted on.
 */
#ifndef L2S_ATTR_H
#define L2S_ATTR_H

#include <stdbool.h>
#include <stdint.h>
#include <libmnl/libmnl.h>
#include <linux/l2tpsel.h>

struct l2s_attr_info {
	const char *name;		/* the uapi name without L2TPSEL_A_, NULL: no such attribute */
	enum mnl_attr_data_type type;
	bool addr;			/* MNL_TYPE_BINARY of 4 (IPv4) or 16 (IPv6) bytes */
};

/* Indexed by attribute type; checked against the uapi header by the unit tests. */
extern const struct l2s_attr_info l2s_attr_table[L2TPSEL_A_MAX + 1];

/* "REMOTE" for L2TPSEL_A_REMOTE; NULL for a type the table does not know. */
const char *l2s_attr_name(unsigned int type);

/* Is @a a type of the table, well formed for it?  0, or -1 with errno set. */
int l2s_attr_check(const struct nlattr *a);

/*
 * Fill tb[] (L2TPSEL_A_MAX + 1 slots) with the attributes of a generic-netlink
 * message of the family, or of a nest: tb[type] is the last one of that type,
 * NULL when there is none or it is malformed.  Types beyond the table (a newer
 * module) are skipped.  Returns 0, or the type of the first attribute left out
 * as malformed, for a caller that wants to say which one.
 */
int l2s_attr_parse(const struct nlmsghdr *nlh, const struct nlattr **tb);
int l2s_attr_parse_nest(const struct nlattr *nest, const struct nlattr **tb);

/* The getters: @def when the attribute is absent (or was malformed). */
static inline uint8_t l2s_attr_u8(const struct nlattr *const *tb, int type, uint8_t def)
{
	return tb[type] ? mnl_attr_get_u8(tb[type]) : def;
}

static inline uint16_t l2s_attr_u16(const struct nlattr *const *tb, int type, uint16_t def)
{
	return tb[type] ? mnl_attr_get_u16(tb[type]) : def;
}

static inline uint32_t l2s_attr_u32(const struct nlattr *const *tb, int type, uint32_t def)
{
	return tb[type] ? mnl_attr_get_u32(tb[type]) : def;
}

static inline uint64_t l2s_attr_u64(const struct nlattr *const *tb, int type, uint64_t def)
{
	return tb[type] ? mnl_attr_get_u64(tb[type]) : def;
}

static inline const char *l2s_attr_str(const struct nlattr *const *tb, int type, const char *def)
{
	return tb[type] ? mnl_attr_get_str(tb[type]) : def;
}

static inline bool l2s_attr_flag(const struct nlattr *const *tb, int type)
{
	return tb[type];
}

/* An address attribute's bytes into @out; its length (4 or 16), 0 when absent. */
unsigned int l2s_attr_addr(const struct nlattr *const *tb, int type, uint8_t out[16]);

#endif
