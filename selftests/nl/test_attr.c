// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the attribute table and parser (userspace/lib/attr.c):
 * the table against the uapi header it stands for, a malformed
 * attribute of each type left out, a nest, the getters' defaults.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/genetlink.h>

#include "harness.h"
#include "attr.h"

#ifndef L2S_UAPI_HEADER
#define L2S_UAPI_HEADER "uapi/linux/l2tpsel.h"
#endif

/* The libmnl type an enum line's comment names ("NLA_U32", "nest ..."). */
static int uapi_type(const char *line, bool *addr)
{
	static const struct { const char *word; int type; } map[] = {
		{ "NLA_NUL_STRING", MNL_TYPE_NUL_STRING }, { "NLA_U8", MNL_TYPE_U8 },
		{ "NLA_U16", MNL_TYPE_U16 }, { "NLA_U32", MNL_TYPE_U32 },
		{ "NLA_U64", MNL_TYPE_U64 }, { "NLA_FLAG", MNL_TYPE_FLAG },
		{ "NLA_BINARY", MNL_TYPE_BINARY }, { "nest", MNL_TYPE_NESTED },
	};
	const char *c = strstr(line, "/*");
	size_t i;

	*addr = c && strstr(c, "NLA_BINARY");
	for (i = 0; c && i < sizeof(map) / sizeof(map[0]); i++)
		if (strstr(c, map[i].word))
			return map[i].type;
	return MNL_TYPE_UNSPEC;
}

/* Each L2TPSEL_A_ line of enum l2tpsel_attr: its name and type, in order. */
TEST(attr_table_matches_uapi)
{
	FILE *f = fopen(L2S_UAPI_HEADER, "r");
	char line[256], name[64];
	bool in = false, addr;
	unsigned int type = 0;

	ASSERT_TRUE(f);
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "enum l2tpsel_attr {"))
			in = true;
		if (!in || sscanf(line, " L2TPSEL_A_%63[A-Z0-9_],", name) != 1)
			continue;
		if (type) {	/* UNSPEC has no entry */
			EXPECT_STREQ(l2s_attr_name(type), name);
			EXPECT_EQ(l2s_attr_table[type].type, uapi_type(line, &addr));
			EXPECT_EQ(l2s_attr_table[type].addr, addr);
		}
		type++;
	}
	fclose(f);
	EXPECT_EQ(type, L2TPSEL_A_MAX + 1);
	EXPECT_TRUE(!l2s_attr_name(0));
	EXPECT_TRUE(!l2s_attr_name(L2TPSEL_A_MAX + 1));
}

static char msgbuf[8192];

static struct nlmsghdr *msg_new(void)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(msgbuf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	g->cmd = L2TPSEL_CMD_TUNNEL_GET;
	return nlh;
}

/* A valid attribute beside the bad one: it must survive. */
static void expect_refused(int type, const void *payload, size_t len)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct nlmsghdr *nlh = msg_new();

	mnl_attr_put_u32(nlh, L2TPSEL_A_SESSIONS, 7);
	mnl_attr_put(nlh, type, len, payload);
	EXPECT_EQ(l2s_attr_parse(nlh, tb), type);
	EXPECT_TRUE(!tb[type]);
	EXPECT_EQ(l2s_attr_u32(tb, L2TPSEL_A_SESSIONS, 0), 7);
}

TEST(attr_malformed_of_each_type_refused)
{
	static const uint8_t b[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

	expect_refused(L2TPSEL_A_SEL_LEVEL, b, 0);		/* u8 */
	expect_refused(L2TPSEL_A_PORT, b, 1);			/* u16 */
	expect_refused(L2TPSEL_A_LIMIT, b, 3);			/* u32 */
	expect_refused(L2TPSEL_A_SESSION_KEY, b, 7);		/* u64 */
	expect_refused(L2TPSEL_A_NAME, "abc", 3);		/* string without its NUL */
	expect_refused(L2TPSEL_A_NAME, b, 0);			/* empty string */
	expect_refused(L2TPSEL_A_REMOTE, b, 5);		/* address */
	expect_refused(L2TPSEL_A_LOCAL, b, 0);
	expect_refused(L2TPSEL_A_MORE, b, 1);			/* flag with a payload */
	expect_refused(L2TPSEL_A_TGROUP_COUNTS, b, 2);		/* nest shorter than a header */
}

TEST(attr_last_wins_and_unknown_skipped)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct nlmsghdr *nlh = msg_new();

	mnl_attr_put_u32(nlh, L2TPSEL_A_LIMIT, 1);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LIMIT, 2);
	mnl_attr_put_u32(nlh, L2TPSEL_A_MAX + 1, 3);	/* a newer module's */
	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, "t1");
	mnl_attr_put_u16(nlh, L2TPSEL_A_PORT, 1);
	mnl_attr_put_u8(nlh, L2TPSEL_A_LIMIT, 9);	/* a bad last one is absent */
	EXPECT_EQ(l2s_attr_parse(nlh, tb), L2TPSEL_A_LIMIT);
	EXPECT_EQ(l2s_attr_u32(tb, L2TPSEL_A_LIMIT, 77), 77);
	EXPECT_STREQ(l2s_attr_str(tb, L2TPSEL_A_NAME, NULL), "t1");
	EXPECT_EQ(l2s_attr_u16(tb, L2TPSEL_A_PORT, 0), 1);
}

/* One TGC entry: NAME and a COUNT of @len bytes. */
static void put_tgc(struct nlmsghdr *nlh, const char *name, const void *count, size_t len)
{
	struct nlattr *tgc = mnl_attr_nest_start(nlh, L2TPSEL_A_TGC);

	mnl_attr_put_strz(nlh, L2TPSEL_A_NAME, name);
	mnl_attr_put(nlh, L2TPSEL_A_COUNT, len, count);
	mnl_attr_nest_end(nlh, tgc);
}

/* TGROUP_COUNTS: a nest of TGC, each a nest of NAME and COUNT. */
TEST(attr_nest)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1], *in[L2TPSEL_A_MAX + 1], *e;
	struct nlmsghdr *nlh = msg_new();
	struct nlattr *outer;
	uint32_t ten = 10;
	unsigned int n = 0;

	outer = mnl_attr_nest_start(nlh, L2TPSEL_A_TGROUP_COUNTS);
	put_tgc(nlh, "g0", &ten, sizeof(ten));
	put_tgc(nlh, "g1", "xy", 2);		/* malformed inside the nest */
	mnl_attr_nest_end(nlh, outer);
	ASSERT_EQ(l2s_attr_parse(nlh, tb), 0);
	ASSERT_TRUE(tb[L2TPSEL_A_TGROUP_COUNTS]);
	mnl_attr_for_each_nested(e, tb[L2TPSEL_A_TGROUP_COUNTS]) {
		EXPECT_EQ(mnl_attr_get_type(e), L2TPSEL_A_TGC);
		EXPECT_EQ(l2s_attr_parse_nest(e, in), n ? L2TPSEL_A_COUNT : 0);
		EXPECT_STREQ(l2s_attr_str(in, L2TPSEL_A_NAME, NULL), n ? "g1" : "g0");
		EXPECT_EQ(l2s_attr_u32(in, L2TPSEL_A_COUNT, 99), n ? 99 : 10);
		n++;
	}
	EXPECT_EQ(n, 2);
}

TEST(attr_getters_and_defaults)
{
	const struct nlattr *tb[L2TPSEL_A_MAX + 1];
	struct nlmsghdr *nlh = msg_new();
	static const uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	uint8_t out[16];

	mnl_attr_put_u8(nlh, L2TPSEL_A_SEL_LEVEL, 3);
	mnl_attr_put_u16(nlh, L2TPSEL_A_PORT, 1701);
	mnl_attr_put_u32(nlh, L2TPSEL_A_MAX_SESSIONS, 100000);
	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, 0x1122334455667788ULL);
	mnl_attr_put(nlh, L2TPSEL_A_REMOTE, 16, v6);
	mnl_attr_put(nlh, L2TPSEL_A_DETACHED, 0, NULL);
	ASSERT_EQ(l2s_attr_parse(nlh, tb), 0);
	EXPECT_EQ(l2s_attr_u8(tb, L2TPSEL_A_SEL_LEVEL, 9), 3);
	EXPECT_EQ(l2s_attr_u16(tb, L2TPSEL_A_PORT, 9), 1701);
	EXPECT_EQ(l2s_attr_u32(tb, L2TPSEL_A_MAX_SESSIONS, 9), 100000);
	EXPECT_TRUE(l2s_attr_u64(tb, L2TPSEL_A_SESSION_KEY, 9) == 0x1122334455667788ULL);
	EXPECT_EQ(l2s_attr_addr(tb, L2TPSEL_A_REMOTE, out), 16);
	EXPECT_TRUE(!memcmp(out, v6, 16));
	EXPECT_TRUE(l2s_attr_flag(tb, L2TPSEL_A_DETACHED));
	/* Absent: the default, whatever the type. */
	EXPECT_EQ(l2s_attr_u8(tb, L2TPSEL_A_OK, 4), 4);
	EXPECT_EQ(l2s_attr_u16(tb, L2TPSEL_A_RESULT_CODE, 4), 4);
	EXPECT_EQ(l2s_attr_u32(tb, L2TPSEL_A_LIMIT, 5), 5);
	EXPECT_TRUE(l2s_attr_u64(tb, L2TPSEL_A_RL_PASSED, 6) == 6);
	EXPECT_STREQ(l2s_attr_str(tb, L2TPSEL_A_TGROUP, "-"), "-");
	EXPECT_TRUE(!l2s_attr_str(tb, L2TPSEL_A_TGROUP, NULL));
	EXPECT_EQ(l2s_attr_addr(tb, L2TPSEL_A_LOCAL, out), 0);
	EXPECT_TRUE(!l2s_attr_flag(tb, L2TPSEL_A_MORE));
	/* Not an address attribute: no bytes. */
	EXPECT_EQ(l2s_attr_addr(tb, L2TPSEL_A_SESSION_KEY, out), 0);
}

/* The check alone: a type beyond the table is refused, not looked up. */
TEST(attr_check_beyond_table)
{
	char lb[64];
	struct nlmsghdr *m = mnl_nlmsg_put_header(lb);

	mnl_attr_put_u32(m, L2TPSEL_A_MAX + 1, 3);
	EXPECT_EQ(l2s_attr_check(mnl_nlmsg_get_payload(m)), -1);
	EXPECT_TRUE(!l2s_attr_name(L2TPSEL_A_MAX + 1));
}
