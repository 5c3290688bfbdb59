// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink contract of the l2tpsel family (uapi/linux/l2tpsel.h), checked
 * against the real module: permissions (also from user namespaces, as
 * GENL_UNS_ADMIN_PERM implies), strict per-command policies with an extack
 * message on every refusal, dumps that resume across datagrams and flag
 * concurrent change, namespace isolation, and the exact contents of the
 * "events" notifications (S-SEC-2: permissions).
 *
 * Every test runs in a child process and a network namespace of its own
 * (TEST_HARNESS_FORK in harness.h), so each starts from an empty l2tpsel
 * state.  Run it in the VM through nl_contract.sh; `nl_contract -t NAME`
 * runs one test.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/capability.h>

#include "harness.h"
#include "l2s_nltest.h"

/* ---- the contract, as uapi/linux/l2tpsel.h documents it ------------------ */

enum kind { K_NONE, K_U8, K_U16, K_U32, K_U64, K_STR, K_ADDR, K_NEST, K_FLAG };

#define F_DO	1
#define F_DUMP	2
#define F_ADMIN	4

struct aspec {
	uint16_t type;
	uint8_t kind;
	uint8_t req;	/* required */
};

struct cspec {
	uint8_t cmd;
	const char *name;
	uint8_t flags;
	struct aspec a[18];
};

#define R 1
static const struct cspec specs[] = {
	{ L2TPSEL_CMD_GET_INFO, "GET_INFO", F_DO, { } },
	{ L2TPSEL_CMD_LIMIT_SET, "LIMIT_SET", F_DO | F_ADMIN,
	  { { L2TPSEL_A_CHASSIS_MAX, K_U32, 0 }, { L2TPSEL_A_CHASSIS_LIMIT, K_U32, 0 },
	    { L2TPSEL_A_TUNNEL_LIMIT, K_U32, 0 } } },
	{ L2TPSEL_CMD_LIMIT_GET, "LIMIT_GET", F_DO | F_ADMIN, { } },
	{ L2TPSEL_CMD_TGROUP_NEW, "TGROUP_NEW", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_LIMIT, K_U32, 0 } } },
	{ L2TPSEL_CMD_TGROUP_SET, "TGROUP_SET", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_LIMIT, K_U32, 0 } } },
	{ L2TPSEL_CMD_TGROUP_DEL, "TGROUP_DEL", F_DO | F_ADMIN, { { L2TPSEL_A_NAME, K_STR, R } } },
	{ L2TPSEL_CMD_TGROUP_GET, "TGROUP_GET", F_DO | F_DUMP | F_ADMIN, { { L2TPSEL_A_NAME, K_STR, R } } },
	{ L2TPSEL_CMD_SLG_NEW, "SLG_NEW", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_LIMIT, K_U32, 0 } } },
	{ L2TPSEL_CMD_SLG_SET, "SLG_SET", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_LIMIT, K_U32, 0 } } },
	{ L2TPSEL_CMD_SLG_DEL, "SLG_DEL", F_DO | F_ADMIN, { { L2TPSEL_A_NAME, K_STR, R } } },
	{ L2TPSEL_CMD_SLG_GET, "SLG_GET", F_DO | F_DUMP | F_ADMIN, { { L2TPSEL_A_NAME, K_STR, R } } },
	{ L2TPSEL_CMD_CLIENT_NEW, "CLIENT_NEW", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_LIMIT, K_U32, 0 },
	    { L2TPSEL_A_SLG, K_STR, 0 } } },
	{ L2TPSEL_CMD_CLIENT_SET, "CLIENT_SET", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_LIMIT, K_U32, 0 },
	    { L2TPSEL_A_SLG, K_STR, 0 } } },
	{ L2TPSEL_CMD_CLIENT_DEL, "CLIENT_DEL", F_DO | F_ADMIN, { { L2TPSEL_A_NAME, K_STR, R } } },
	{ L2TPSEL_CMD_CLIENT_GET, "CLIENT_GET", F_DO | F_DUMP | F_ADMIN, { { L2TPSEL_A_NAME, K_STR, R } } },
	{ L2TPSEL_CMD_SESSION_UP, "SESSION_UP", F_DO | F_ADMIN,
	  { { L2TPSEL_A_SESSION_KEY, K_U64, R }, { L2TPSEL_A_ROLE, K_U8, R },
	    { L2TPSEL_A_TUNNEL_ID, K_U32, R }, { L2TPSEL_A_TGROUP, K_STR, 0 },
	    { L2TPSEL_A_CLIENT, K_STR, 0 }, { L2TPSEL_A_DETACHED, K_FLAG, 0 } } },
	{ L2TPSEL_CMD_SESSION_DOWN, "SESSION_DOWN", F_DO | F_ADMIN,
	  { { L2TPSEL_A_SESSION_KEY, K_U64, R } } },
	{ L2TPSEL_CMD_SESSION_GET, "SESSION_GET", F_DUMP | F_ADMIN, { } },
	{ L2TPSEL_CMD_SUMMARY_GET, "SUMMARY_GET", F_DO | F_ADMIN, { } },
	{ L2TPSEL_CMD_PROFILE_NEW, "PROFILE_NEW", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_FAILOVER, K_U8, 0 }, { L2TPSEL_A_LB, K_U8, 0 },
	    { L2TPSEL_A_FAILOVER_CDN, K_U32, 0 }, { L2TPSEL_A_FAILOVER_STOPCCN, K_U32, 0 } } },
	{ L2TPSEL_CMD_PROFILE_SET, "PROFILE_SET", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_FAILOVER, K_U8, 0 }, { L2TPSEL_A_LB, K_U8, 0 },
	    { L2TPSEL_A_FAILOVER_CDN, K_U32, 0 }, { L2TPSEL_A_FAILOVER_STOPCCN, K_U32, 0 } } },
	{ L2TPSEL_CMD_PROFILE_DEL, "PROFILE_DEL", F_DO | F_ADMIN, { { L2TPSEL_A_NAME, K_STR, R } } },
	{ L2TPSEL_CMD_PROFILE_GET, "PROFILE_GET", F_DO | F_DUMP | F_ADMIN, { { L2TPSEL_A_NAME, K_STR, R } } },
	{ L2TPSEL_CMD_TUNNEL_NEW, "TUNNEL_NEW", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_PROFILE, K_STR, R },
	    { L2TPSEL_A_SEL_LEVEL, K_U8, R }, { L2TPSEL_A_REMOTE, K_ADDR, R },
	    { L2TPSEL_A_PORT, K_U16, 0 }, { L2TPSEL_A_LOCAL, K_ADDR, 0 },
	    { L2TPSEL_A_MAX_SESSIONS, K_U32, 0 }, { L2TPSEL_A_TGROUP, K_STR, 0 },
	    { L2TPSEL_A_SECRET, K_STR, 0 } } },
	{ L2TPSEL_CMD_TUNNEL_DEL, "TUNNEL_DEL", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_PROFILE, K_STR, R } } },
	{ L2TPSEL_CMD_TUNNEL_GET, "TUNNEL_GET", F_DUMP | F_ADMIN, { { L2TPSEL_A_PROFILE, K_STR, 0 } } },
	{ L2TPSEL_CMD_DOMAIN_NEW, "DOMAIN_NEW", F_DO | F_ADMIN,
	  { { L2TPSEL_A_DOMAIN, K_STR, R }, { L2TPSEL_A_PROFILE, K_STR, R } } },
	{ L2TPSEL_CMD_DOMAIN_DEL, "DOMAIN_DEL", F_DO | F_ADMIN, { { L2TPSEL_A_DOMAIN, K_STR, R } } },
	{ L2TPSEL_CMD_DOMAIN_GET, "DOMAIN_GET", F_DO | F_DUMP | F_ADMIN, { { L2TPSEL_A_DOMAIN, K_STR, R } } },
	{ L2TPSEL_CMD_DEST_GET, "DEST_GET", F_DUMP | F_ADMIN, { } },
	{ L2TPSEL_CMD_LOCKOUT_SET, "LOCKOUT_SET", F_DO | F_ADMIN,
	  { { L2TPSEL_A_LOCKOUT_TIME, K_U32, 0 }, { L2TPSEL_A_MAX_LOGINS, K_U32, 0 } } },
	{ L2TPSEL_CMD_LOCKOUT_GET, "LOCKOUT_GET", F_DO | F_ADMIN, { } },
	{ L2TPSEL_CMD_LOCKOUT_CLEAR, "LOCKOUT_CLEAR", F_DO | F_ADMIN,
	  { { L2TPSEL_A_REMOTE, K_ADDR, 0 }, { L2TPSEL_A_LOCAL, K_ADDR, 0 } } },
	{ L2TPSEL_CMD_LOGIN_BEGIN, "LOGIN_BEGIN", F_DO | F_ADMIN,
	  { { L2TPSEL_A_USER, K_STR, 0 }, { L2TPSEL_A_PROFILE, K_STR, 0 },
	    { L2TPSEL_A_KEY, K_STR, 0 }, { L2TPSEL_A_PICKS, K_NEST, 0 },
	    { L2TPSEL_A_TUNNELS, K_NEST, 0 }, { L2TPSEL_A_RL_ASK, K_FLAG, 0 } } },
	{ L2TPSEL_CMD_LOGIN_REPORT, "LOGIN_REPORT", F_DO | F_ADMIN,
	  { { L2TPSEL_A_LOGIN_ID, K_U32, R }, { L2TPSEL_A_OUTCOME, K_U8, R },
	    { L2TPSEL_A_RESULT_CODE, K_U16, 0 }, { L2TPSEL_A_ERROR_CODE, K_U16, 0 },
	    { L2TPSEL_A_SESSION_KEY, K_U64, 0 }, { L2TPSEL_A_TUNNEL_ID, K_U32, 0 },
	    { L2TPSEL_A_DETACHED, K_FLAG, 0 }, { L2TPSEL_A_RL_ASK, K_FLAG, 0 } } },
	{ L2TPSEL_CMD_LOGIN_TEST, "LOGIN_TEST", F_DO | F_ADMIN,
	  { { L2TPSEL_A_USER, K_STR, 0 }, { L2TPSEL_A_PROFILE, K_STR, 0 },
	    { L2TPSEL_A_KEY, K_STR, 0 } } },
	{ L2TPSEL_CMD_DEST_LOCK, "DEST_LOCK", F_DO | F_ADMIN,
	  { { L2TPSEL_A_REMOTE, K_ADDR, R }, { L2TPSEL_A_LOCKOUT_REMAINING, K_U32, R },
	    { L2TPSEL_A_PORT, K_U16, 0 }, { L2TPSEL_A_LOCAL, K_ADDR, 0 } } },
	{ L2TPSEL_CMD_TUNNEL_DRAIN, "TUNNEL_DRAIN", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_PROFILE, K_STR, R },
	    { L2TPSEL_A_DRAIN, K_U8, R } } },
	{ L2TPSEL_CMD_DEST_DRAIN, "DEST_DRAIN", F_DO | F_ADMIN,
	  { { L2TPSEL_A_REMOTE, K_ADDR, R }, { L2TPSEL_A_DRAIN, K_U8, R },
	    { L2TPSEL_A_PORT, K_U16, 0 }, { L2TPSEL_A_LOCAL, K_ADDR, 0 } } },
	/* Rate limits and throttle profiles. */
	{ L2TPSEL_CMD_RL_NEW, "RL_NEW", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_RL_RATE, K_U32, R },
	    { L2TPSEL_A_RL_BURST, K_U32, R }, { L2TPSEL_A_RL_DIR, K_U8, 0 },
	    { L2TPSEL_A_RL_MSG, K_U8, 0 }, { L2TPSEL_A_RL_PEER, K_STR, 0 },
	    { L2TPSEL_A_REMOTE, K_ADDR, 0 }, { L2TPSEL_A_PORT, K_U16, 0 },
	    { L2TPSEL_A_DOMAIN, K_STR, 0 }, { L2TPSEL_A_PROFILE, K_STR, 0 },
	    { L2TPSEL_A_RL_ACTION, K_U8, 0 }, { L2TPSEL_A_RESULT_CODE, K_U16, 0 },
	    { L2TPSEL_A_ERROR_CODE, K_U16, 0 }, { L2TPSEL_A_RL_MESSAGE, K_STR, 0 },
	    { L2TPSEL_A_RL_THROTTLE, K_STR, 0 } } },
	{ L2TPSEL_CMD_RL_SET, "RL_SET", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_RL_RATE, K_U32, 0 },
	    { L2TPSEL_A_RL_BURST, K_U32, 0 }, { L2TPSEL_A_RL_ACTION, K_U8, 0 },
	    { L2TPSEL_A_RESULT_CODE, K_U16, 0 }, { L2TPSEL_A_ERROR_CODE, K_U16, 0 },
	    { L2TPSEL_A_RL_MESSAGE, K_STR, 0 }, { L2TPSEL_A_RL_THROTTLE, K_STR, 0 },
	    { L2TPSEL_A_RL_RESET, K_U8, 0 } } },
	{ L2TPSEL_CMD_RL_DEL, "RL_DEL", F_DO | F_ADMIN, { { L2TPSEL_A_NAME, K_STR, R } } },
	{ L2TPSEL_CMD_RL_GET, "RL_GET", F_DO | F_DUMP | F_ADMIN, { { L2TPSEL_A_NAME, K_STR, R } } },
	{ L2TPSEL_CMD_RL_CHECK, "RL_CHECK", F_DO | F_ADMIN,
	  { { L2TPSEL_A_RL_DIR, K_U8, R }, { L2TPSEL_A_RL_MSG, K_U8, R },
	    { L2TPSEL_A_RL_PEER, K_STR, 0 }, { L2TPSEL_A_REMOTE, K_ADDR, 0 },
	    { L2TPSEL_A_PORT, K_U16, 0 }, { L2TPSEL_A_DOMAIN, K_STR, 0 },
	    { L2TPSEL_A_PROFILE, K_STR, 0 }, { L2TPSEL_A_RL_COUNT, K_U32, 0 } } },
	{ L2TPSEL_CMD_THROTTLE_NEW, "THROTTLE_NEW", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_RL_HOLD, K_U32, R },
	    { L2TPSEL_A_RL_STEP, K_U8, R }, { L2TPSEL_A_RL_BANDS, K_NEST, R },
	    { L2TPSEL_A_RL_SOURCE, K_U8, 0 }, { L2TPSEL_A_RL_PERIOD, K_U32, 0 } } },
	{ L2TPSEL_CMD_THROTTLE_SET, "THROTTLE_SET", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R }, { L2TPSEL_A_RL_HOLD, K_U32, 0 },
	    { L2TPSEL_A_RL_STEP, K_U8, 0 }, { L2TPSEL_A_RL_BANDS, K_NEST, 0 },
	    { L2TPSEL_A_RL_SOURCE, K_U8, 0 }, { L2TPSEL_A_RL_PERIOD, K_U32, 0 } } },
	{ L2TPSEL_CMD_THROTTLE_DEL, "THROTTLE_DEL", F_DO | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R } } },
	{ L2TPSEL_CMD_THROTTLE_GET, "THROTTLE_GET", F_DO | F_DUMP | F_ADMIN,
	  { { L2TPSEL_A_NAME, K_STR, R } } },
	{ L2TPSEL_CMD_THROTTLE_LOAD, "THROTTLE_LOAD", F_DO | F_ADMIN,
	  { { L2TPSEL_A_RL_LOAD, K_U8, R }, { L2TPSEL_A_NAME, K_STR, 0 } } },
};
#define N_SPECS (sizeof(specs) / sizeof(specs[0]))

static const struct cspec *spec_of(uint8_t cmd)
{
	size_t i;

	for (i = 0; i < N_SPECS; i++)
		if (specs[i].cmd == cmd)
			return &specs[i];
	return NULL;
}

static const struct aspec *aspec_of(const struct cspec *c, uint16_t type)
{
	const struct aspec *a;

	for (a = c->a; a->type; a++)
		if (a->type == type)
			return a;
	return NULL;
}

/* ---- helpers ------------------------------------------------------------- */

static char reqbuf[NLT_BUF];

static void fresh_netns(void)
{
	ASSERT_EQ(0, unshare(CLONE_NEWNET)) TH_LOG("unshare(CLONE_NEWNET): %s", strerror(errno));
}

static void open_nl(struct nlt *t)
{
	int ret = nlt_open(t);

	ASSERT_EQ(0, ret) TH_LOG("cannot open a socket to the l2tpsel family: %s", strerror(-ret));
}

static struct nlmsghdr *req(struct nlt *t, uint8_t cmd)
{
	return nlt_req(t, reqbuf, cmd, 0);
}

static void put_str(struct nlmsghdr *nlh, uint16_t type, const char *s)
{
	mnl_attr_put_strz(nlh, type, s);
}

static void put_ip4(struct nlmsghdr *nlh, uint16_t type, const char *addr)
{
	struct in_addr a;

	inet_pton(AF_INET, addr, &a);
	mnl_attr_put(nlh, type, 4, &a);
}

/* A valid value of each attribute, for requests that should pass the policy. */
static void put_valid(struct nlmsghdr *nlh, uint16_t type, uint8_t kind)
{
	switch (kind) {
	case K_U8:
		mnl_attr_put_u8(nlh, type, type == L2TPSEL_A_ROLE ? L2TPSEL_ROLE_LNS :
				 type == L2TPSEL_A_OUTCOME ? L2TPSEL_OUTCOME_NO_REPLY :
				 type == L2TPSEL_A_RL_MSG ? L2TPSEL_RL_MSG_SCCRQ :
				 type == L2TPSEL_A_RL_STEP ? 10 : type == L2TPSEL_A_RL_LOAD ? 50 : 0);
		break;
	case K_U16:
		mnl_attr_put_u16(nlh, type, type == L2TPSEL_A_PORT ? 1701 : 2);
		break;
	case K_U32:
		mnl_attr_put_u32(nlh, type, type == L2TPSEL_A_LOCKOUT_TIME ? 300 :
				 type == L2TPSEL_A_MAX_LOGINS ? 100 : type == L2TPSEL_A_LOGIN_ID ? 1 : 10);
		break;
	case K_U64:
		mnl_attr_put_u64(nlh, type, 1);
		break;
	case K_STR:
		put_str(nlh, type, type == L2TPSEL_A_USER ? "u@d.example" :
			type == L2TPSEL_A_DOMAIN ? "d.example" : "x1");
		break;
	case K_ADDR:
		put_ip4(nlh, type, type == L2TPSEL_A_LOCAL ? "10.9.0.2" : "10.9.0.1");
		break;
	case K_FLAG:
		mnl_attr_put(nlh, type, 0, NULL);
		break;
	case K_NEST: {
		struct nlattr *n = mnl_attr_nest_start(nlh, type), *b;

		if (type == L2TPSEL_A_TUNNELS) {
			b = mnl_attr_nest_start(nlh, L2TPSEL_A_TUNNEL_ENTRY);
			put_str(nlh, L2TPSEL_A_NAME, "t1");
			mnl_attr_put_u8(nlh, L2TPSEL_A_SEL_LEVEL, 0);
			put_ip4(nlh, L2TPSEL_A_REMOTE, "10.9.0.1");
			mnl_attr_nest_end(nlh, b);
		} else if (type == L2TPSEL_A_RL_BANDS) {
			b = mnl_attr_nest_start(nlh, L2TPSEL_A_RL_BAND);
			mnl_attr_put_u8(nlh, L2TPSEL_A_RL_BAND_LOAD, 50);
			mnl_attr_put_u8(nlh, L2TPSEL_A_RL_BAND_PERCENT, 20);
			mnl_attr_nest_end(nlh, b);
		} else {
			put_str(nlh, L2TPSEL_A_NAME, "t1");
		}
		mnl_attr_nest_end(nlh, n);
		break;
	}
	}
}

/* The required attributes of @c, valid, except @skip. */
static void put_required(struct nlmsghdr *nlh, const struct cspec *c, uint16_t skip)
{
	const struct aspec *a;

	for (a = c->a; a->type; a++)
		if (a->req && a->type != skip)
			put_valid(nlh, a->type, a->kind);
}

/* Put a raw attribute (any length), returning its offset in the message. */
static uint32_t put_raw(struct nlmsghdr *nlh, uint16_t type, const void *data, uint16_t len)
{
	uint32_t off = nlh->nlmsg_len;

	mnl_attr_put(nlh, type, len, data);
	return off;
}

static int talk(struct nlt *t, struct nlmsghdr *nlh, struct nlt_ack *ack)
{
	return nlt_talk(t, nlh, NULL, NULL, ack);
}

/* Did the kernel refuse as the contract says: errno, message, blamed attribute? */
static bool refused_well(const char *what, const struct nlt_ack *ack, int ret,
			 int err1, int err2, int offs)
{
	bool ok = true;

	if (ret != -err1 && ret != -err2) {
		TH_FAIL("%s: expected -%s%s%s, got %d (%s)%s%s", what, strerrorname_np(err1),
			err2 ? " or -" : "", err2 ? strerrorname_np(err2) : "", ret,
			ret ? strerror(-ret) : "accepted", ack->msg[0] ? ", message: " : "", ack->msg);
		ok = false;
	}
	if (ret && !ack->msg[0]) {
		TH_FAIL("%s: refused with %d but no extack message", what, ret);
		ok = false;
	}
	if (offs >= 0 && ret && (!ack->has_offs || ack->offs != (uint32_t)offs)) {
		TH_FAIL("%s: expected the attribute at offset %d to be blamed, got %s %u (message \"%s\")",
			what, offs, ack->has_offs ? "offset" : "no offset", ack->offs, ack->msg);
		ok = false;
	}
	return ok;
}

/* Do @cmd with attributes built by the caller; assert it succeeded. */
#define DO_OK(t, nlh) do {							\
	struct nlt_ack __a;							\
	int __r = talk(t, nlh, &__a);						\
	ASSERT_EQ(0, __r) TH_LOG("request failed: %s (%s)", strerror(-__r), __a.msg); \
} while (0)

static int mk_profile(struct nlt *t, const char *name, struct nlt_ack *ack)
{
	struct nlmsghdr *nlh = req(t, L2TPSEL_CMD_PROFILE_NEW);

	put_str(nlh, L2TPSEL_A_NAME, name);
	return talk(t, nlh, ack);
}

static int mk_tunnel(struct nlt *t, const char *profile, const char *name, uint8_t level,
		     const char *remote, const char *secret, struct nlt_ack *ack)
{
	struct nlmsghdr *nlh = req(t, L2TPSEL_CMD_TUNNEL_NEW);

	put_str(nlh, L2TPSEL_A_NAME, name);
	put_str(nlh, L2TPSEL_A_PROFILE, profile);
	mnl_attr_put_u8(nlh, L2TPSEL_A_SEL_LEVEL, level);
	put_ip4(nlh, L2TPSEL_A_REMOTE, remote);
	if (secret)
		put_str(nlh, L2TPSEL_A_SECRET, secret);
	return talk(t, nlh, ack);
}

static int del_tunnel(struct nlt *t, const char *profile, const char *name, struct nlt_ack *ack)
{
	struct nlmsghdr *nlh = req(t, L2TPSEL_CMD_TUNNEL_DEL);

	put_str(nlh, L2TPSEL_A_NAME, name);
	put_str(nlh, L2TPSEL_A_PROFILE, profile);
	return talk(t, nlh, ack);
}

static int session_down(struct nlt *t, uint64_t key, struct nlt_ack *ack)
{
	struct nlmsghdr *nlh = req(t, L2TPSEL_CMD_SESSION_DOWN);

	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key);
	return talk(t, nlh, ack);
}

/* The session an OK counts (LOGIN_REPORT needs it): a new key each time. */
static uint64_t ok_key = 0x6f6b000000000000ull;

static void put_ok_session(struct nlmsghdr *nlh)
{
	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, ++ok_key);
	mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, 1);
}

/* Replies collected as parsed copies. */
struct msgs {
	unsigned int n, cap, rd;	/* rd: next one next_event() hands out */
	struct nlmsghdr **m;
};

static int collect_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct msgs *ms = arg;

	if (ms->n == ms->cap) {
		ms->cap = ms->cap ? ms->cap * 2 : 64;
		ms->m = realloc(ms->m, ms->cap * sizeof(*ms->m));
	}
	ms->m[ms->n] = malloc(nlh->nlmsg_len);
	memcpy(ms->m[ms->n], nlh, nlh->nlmsg_len);
	ms->n++;
	return MNL_CB_OK;
}

static void msgs_free(struct msgs *ms)
{
	unsigned int i;

	for (i = 0; i < ms->n; i++)
		free(ms->m[i]);
	free(ms->m);
	memset(ms, 0, sizeof(*ms));
}

static int talk_collect(struct nlt *t, struct nlmsghdr *nlh, struct msgs *ms,
			struct nlt_ack *ack)
{
	return nlt_talk(t, nlh, collect_cb, ms, ack);
}

static int dump(struct nlt *t, uint8_t cmd, struct msgs *ms, struct nlt_ack *ack)
{
	struct nlmsghdr *nlh = nlt_req(t, reqbuf, cmd, NLM_F_DUMP);

	return talk_collect(t, nlh, ms, ack);
}

/* One do-request's single reply, parsed. */
static int get_one(struct nlt *t, struct nlmsghdr *nlh, struct nlt_attrs *at,
		   struct msgs *keep, struct nlt_ack *ack)
{
	int ret;

	ret = talk_collect(t, nlh, keep, ack);
	if (!ret && keep->n)
		nlt_parse(keep->m[keep->n - 1], at);
	else
		memset(at, 0, sizeof(*at));
	return ret;
}

static int session_up(struct nlt *t, uint64_t key, uint8_t role, uint32_t tid,
		      const char *tgroup, const char *client, struct nlt_ack *ack, uint8_t *admit)
{
	struct nlmsghdr *nlh = req(t, L2TPSEL_CMD_SESSION_UP);
	struct msgs ms = { };
	struct nlt_attrs at;
	int ret;

	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key);
	mnl_attr_put_u8(nlh, L2TPSEL_A_ROLE, role);
	mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, tid);
	if (tgroup)
		put_str(nlh, L2TPSEL_A_TGROUP, tgroup);
	if (client)
		put_str(nlh, L2TPSEL_A_CLIENT, client);
	ret = get_one(t, nlh, &at, &ms, ack);
	*admit = ret ? 0xff : nlt_u8(&at, L2TPSEL_A_ADMIT);
	msgs_free(&ms);
	if (!ret && *admit != L2TPSEL_LEVEL_PASS)
		snprintf(ack->msg, sizeof(ack->msg), "not admitted: level %u", *admit);
	return ret ? ret : *admit == L2TPSEL_LEVEL_PASS ? 0 : -EDQUOT;
}

/* ---- privileges ---------------------------------------------------------- */

static int drop_cap(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -errno;
	d[cap / 32].effective &= ~(1u << (cap % 32));
	d[cap / 32].permitted &= ~(1u << (cap % 32));
	d[cap / 32].inheritable &= ~(1u << (cap % 32));
	if (syscall(SYS_capset, &h, d))
		return -errno;
	return 0;
}

static int become_nobody(void)
{
	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		return -errno;
	return 0;
}

/* Walk out of a chroot to the mount namespace's root (needs CAP_SYS_CHROOT). */
static int leave_chroot(void)
{
	char dir[] = "/tmp/nl_contract.XXXXXX";
	int i;

	if (!mkdtemp(dir))
		return -1;
	if (chdir("/") || chroot(dir)) {
		rmdir(dir);
		return -1;
	}
	/* The cwd is now outside the root: ".." climbs to the real one. */
	for (i = 0; i < 64; i++)
		if (chdir(".."))
			return -1;
	if (chroot("."))
		return -1;
	return 0;
}

/*
 * Send every admin command of the contract (all but GET_INFO: the reads are
 * admin too), first with no attributes, then with its required attributes
 * valid, then as a dump when it has one, and expect EPERM each time; then
 * GET_INFO must still answer.  Return the number of requests that did not
 * get what they should.
 */
static int admin_all_eperm(struct nlt *t, const char *who)
{
	struct nlt_ack ack;
	int bad = 0, pass, ret;
	size_t i;

	for (i = 0; i < N_SPECS; i++) {
		const struct cspec *c = &specs[i];

		if (!(c->flags & F_ADMIN))
			continue;
		for (pass = 0; pass < 3; pass++) {
			struct nlmsghdr *nlh;
			struct msgs ms = { };

			if (pass == 2 && !(c->flags & F_DUMP))
				break;
			nlh = req(t, c->cmd);
			if (pass == 1)
				put_required(nlh, c, 0);
			if (pass == 2) {
				ret = dump(t, c->cmd, &ms, &ack);
				msgs_free(&ms);
			} else {
				ret = talk(t, nlh, &ack);
			}
			if (ret != -EPERM) {
				TH_FAIL("%s: %s (%s): expected -EPERM, got %d (%s) %s",
					who, c->name, pass == 2 ? "dump" : pass ? "valid attributes" :
					"no attributes", ret, ret ? strerror(-ret) : "accepted", ack.msg);
				bad++;
			}
		}
	}
	{
		struct msgs ms = { };

		ret = talk_collect(t, req(t, L2TPSEL_CMD_GET_INFO), &ms, &ack);
		if (ret || ms.n != 1) {
			TH_FAIL("%s: GET_INFO: expected a reply, got %d (%s) %s", who, ret,
				strerror(-ret), ack.msg);
			bad++;
		}
		msgs_free(&ms);
	}
	return bad;
}

/* Joining the events group needs CAP_NET_ADMIN over the netns's userns too. */
static int events_refused(struct nlt *t, const char *who)
{
	int ret = nlt_subscribe(t);

	if (ret != -EPERM) {
		TH_FAIL("%s: joining \"events\": expected -EPERM, got %d (%s)", who, ret,
			ret ? strerror(-ret) : "joined");
		return 1;
	}
	return 0;
}

/* The reads work for an admin of the namespace. */
static int reads_work(struct nlt *t, const char *who)
{
	static const uint8_t reads[] = {
		L2TPSEL_CMD_GET_INFO, L2TPSEL_CMD_LIMIT_GET, L2TPSEL_CMD_SUMMARY_GET,
		L2TPSEL_CMD_LOCKOUT_GET,
	};
	static const uint8_t dumps[] = {
		L2TPSEL_CMD_TGROUP_GET, L2TPSEL_CMD_SLG_GET, L2TPSEL_CMD_CLIENT_GET,
		L2TPSEL_CMD_SESSION_GET, L2TPSEL_CMD_PROFILE_GET, L2TPSEL_CMD_TUNNEL_GET,
		L2TPSEL_CMD_DOMAIN_GET, L2TPSEL_CMD_DEST_GET, L2TPSEL_CMD_RL_GET,
		L2TPSEL_CMD_THROTTLE_GET,
	};
	struct nlt_ack ack;
	struct msgs ms = { };
	int bad = 0, ret;
	size_t i;

	for (i = 0; i < sizeof(reads); i++) {
		ret = talk_collect(t, req(t, reads[i]), &ms, &ack);
		if (ret || !ms.n) {
			TH_FAIL("%s: read %s: expected a reply, got %d (%s) %s", who,
				spec_of(reads[i])->name, ret, strerror(-ret), ack.msg);
			bad++;
		}
		msgs_free(&ms);
	}
	for (i = 0; i < sizeof(dumps); i++) {
		ret = dump(t, dumps[i], &ms, &ack);
		if (ret) {
			TH_FAIL("%s: dump %s: expected to work, got %d (%s) %s", who,
				spec_of(dumps[i])->name, ret, strerror(-ret), ack.msg);
			bad++;
		}
		msgs_free(&ms);
	}
	return bad;
}

/* Some state to read, with a secret that must never come back. */
#define SECRET "Zq7-s3cr3t-never-shown"

static void build_state(struct nlt *t)
{
	struct nlt_ack ack;
	struct nlmsghdr *nlh;
	uint8_t admit;
	int ret;

	ret = mk_profile(t, "p1", &ack);
	ASSERT_EQ(0, ret) TH_LOG("PROFILE_NEW p1: %s", ack.msg);
	ret = mk_tunnel(t, "p1", "t1", 0, "10.9.0.1", SECRET, &ack);
	ASSERT_EQ(0, ret) TH_LOG("TUNNEL_NEW t1: %s", ack.msg);
	nlh = req(t, L2TPSEL_CMD_DOMAIN_NEW);
	put_str(nlh, L2TPSEL_A_DOMAIN, "d.example");
	put_str(nlh, L2TPSEL_A_PROFILE, "p1");
	DO_OK(t, nlh);
	nlh = req(t, L2TPSEL_CMD_TGROUP_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "tg1");
	mnl_attr_put_u32(nlh, L2TPSEL_A_LIMIT, 5);
	DO_OK(t, nlh);
	nlh = req(t, L2TPSEL_CMD_CLIENT_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "c1");
	DO_OK(t, nlh);
	ret = session_up(t, 42, L2TPSEL_ROLE_LNS, 7, "tg1", "c1", &ack, &admit);
	ASSERT_EQ(0, ret) TH_LOG("SESSION_UP: %s", ack.msg);
}

/* ---- tests: permissions ------------------------------------------------- */

/* Root may do every admin command (with valid attributes it is not EPERM). */
TEST(perm_root_is_not_refused)
{
	struct nlt t;
	struct nlt_ack ack;
	size_t i;
	int ret;

	fresh_netns();
	open_nl(&t);
	for (i = 0; i < N_SPECS; i++) {
		struct nlmsghdr *nlh;

		if (!(specs[i].flags & F_DO))
			continue;
		nlh = req(&t, specs[i].cmd);
		put_required(nlh, &specs[i], 0);
		ret = talk(&t, nlh, &ack);
		EXPECT_NE(-EPERM, ret) TH_LOG("%s as root: %s", specs[i].name, ack.msg);
	}
}

/* A non-root uid (no capabilities at all) gets EPERM on all but GET_INFO. */
TEST(perm_nobody_eperm_on_everything_but_info)
{
	struct nlt t;

	fresh_netns();
	ASSERT_EQ(0, become_nobody()) TH_LOG("cannot become uid 65534: %s", strerror(errno));
	open_nl(&t);
	EXPECT_EQ(0, admin_all_eperm(&t, "uid 65534"));
	EXPECT_EQ(0, events_refused(&t, "uid 65534"));
}

/* A socket opened by root, then used after the uid dropped: still EPERM. */
TEST(perm_socket_opened_by_root_used_by_nobody)
{
	struct nlt t;

	fresh_netns();
	open_nl(&t);
	ASSERT_EQ(0, become_nobody()) TH_LOG("cannot become uid 65534: %s", strerror(errno));
	EXPECT_EQ(0, admin_all_eperm(&t, "root's socket, uid 65534 sending"));
}

/* Root without CAP_NET_ADMIN: EPERM on changes and reads, GET_INFO works. */
TEST(perm_root_without_cap_net_admin)
{
	struct nlt t;

	fresh_netns();
	ASSERT_EQ(0, drop_cap(CAP_NET_ADMIN)) TH_LOG("capset: %s", strerror(errno));
	open_nl(&t);
	EXPECT_EQ(0, admin_all_eperm(&t, "root without CAP_NET_ADMIN"));
	EXPECT_EQ(0, events_refused(&t, "root without CAP_NET_ADMIN"));
}

/*
 * With state in the namespace, uid 65534 reads none of it: dumps, GETs and
 * the dry run are EPERM with no message, and the events group refuses it.
 */
TEST(perm_nobody_reads_refused)
{
	struct nlt t;
	struct nlt_ack ack;
	struct msgs ms = { };
	struct nlmsghdr *nlh;
	int ret;

	fresh_netns();
	open_nl(&t);
	build_state(&t);
	nlt_close(&t);
	ASSERT_EQ(0, become_nobody());
	open_nl(&t);
	ret = dump(&t, L2TPSEL_CMD_TUNNEL_GET, &ms, &ack);
	EXPECT_EQ(-EPERM, ret) TH_LOG("TUNNEL_GET dump as uid 65534: %s", ack.msg);
	EXPECT_EQ(0, ms.n) TH_LOG("uid 65534 got %u tunnel messages", ms.n);
	msgs_free(&ms);
	nlh = req(&t, L2TPSEL_CMD_CLIENT_GET);
	put_str(nlh, L2TPSEL_A_NAME, "c1");
	ret = talk_collect(&t, nlh, &ms, &ack);
	EXPECT_EQ(-EPERM, ret) TH_LOG("CLIENT_GET c1 as uid 65534: %s", ack.msg);
	EXPECT_EQ(0, ms.n);
	msgs_free(&ms);
	nlh = req(&t, L2TPSEL_CMD_LOGIN_TEST);
	put_str(nlh, L2TPSEL_A_PROFILE, "p1");
	ret = talk(&t, nlh, &ack);
	EXPECT_EQ(-EPERM, ret) TH_LOG("LOGIN_TEST as uid 65534: %s", ack.msg);
	EXPECT_EQ(0, events_refused(&t, "uid 65534 with state"));
}

/* No datagram of any read, login step, dry run or event carries the secret. */
static bool saw_secret;

static void scan_secret(const void *buf, size_t len, void *arg)
{
	(void)arg;
	if (memmem(buf, len, SECRET, strlen(SECRET)))
		saw_secret = true;
}

TEST(secret_never_returned)
{
	struct nlt t, ev;
	struct nlt_ack ack;
	struct msgs ms = { };
	struct nlt_attrs at;
	struct nlmsghdr *nlh;
	size_t i;
	int ret;

	fresh_netns();
	open_nl(&t);
	open_nl(&ev);
	ASSERT_EQ(0, nlt_subscribe(&ev));
	t.raw = scan_secret;
	ev.raw = scan_secret;
	build_state(&t);
	for (i = 0; i < N_SPECS; i++)
		if (specs[i].flags & F_DUMP) {
			ret = dump(&t, specs[i].cmd, &ms, &ack);
			EXPECT_EQ(0, ret) TH_LOG("%s dump: %s", specs[i].name, ack.msg);
			msgs_free(&ms);
		}
	nlh = req(&t, L2TPSEL_CMD_LOGIN_TEST);
	put_str(nlh, L2TPSEL_A_USER, "alice@d.example");
	ret = get_one(&t, nlh, &at, &ms, &ack);
	EXPECT_EQ(0, ret) TH_LOG("LOGIN_TEST: %s", ack.msg);
	msgs_free(&ms);
	nlh = req(&t, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_USER, "alice@d.example");
	ret = get_one(&t, nlh, &at, &ms, &ack);
	ASSERT_EQ(0, ret) TH_LOG("LOGIN_BEGIN: %s", ack.msg);
	ASSERT_EQ(L2TPSEL_STEP_ATTEMPT, nlt_u8(&at, L2TPSEL_A_STEP));
	EXPECT_TRUE(at.tb[L2TPSEL_A_SECRET] == NULL);
	EXPECT_EQ(1, nlt_u8(&at, L2TPSEL_A_HAS_SECRET));
	{
		uint32_t id = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);

		msgs_free(&ms);
		nlh = req(&t, L2TPSEL_CMD_LOGIN_REPORT);
		mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, id);
		mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_OK);
		put_ok_session(nlh);
		ret = get_one(&t, nlh, &at, &ms, &ack);
		ASSERT_EQ(0, ret) TH_LOG("LOGIN_REPORT: %s", ack.msg);
		EXPECT_EQ(1, nlt_u8(&at, L2TPSEL_A_OK));
		msgs_free(&ms);
	}
	/* Drain the events (login outcome) through the scanning socket. */
	memset(&ack, 0, sizeof(ack));
	nlt_recv(&ev, 0, NULL, NULL, &ack, 500);
	EXPECT_GE(ack.nrecv, 1) TH_LOG("expected at least the login event");
	EXPECT_FALSE(saw_secret) TH_LOG("the secret came back in some datagram");
}

/*
 * GENL_UNS_ADMIN_PERM: CAP_NET_ADMIN in the user namespace that owns the
 * network namespace.  A process that made its own user namespace has every
 * capability there, but none over the initial namespace: it may change the
 * network namespace it creates, never the one it started in.
 */
TEST(perm_userns_owns_its_netns_only)
{
	struct nlt init_sk, root_sk, own;
	struct nlt_ack ack;
	struct msgs ms = { };
	struct nlt_attrs at;
	struct nlmsghdr *nlh;
	bool unpriv = true;
	int ret;

	/*
	 * unshare(CLONE_NEWUSER) is refused to a chrooted process, and the VM
	 * runs the tests chrooted into the host's root: leave the chroot (as
	 * root, in this test's process only).  No file is opened after this.
	 */
	if (leave_chroot())
		SKIP(return, "cannot leave the VM's chroot: %s", strerror(errno));

	/* The "initial" namespace of this test: root's, owned by the initial userns. */
	fresh_netns();
	open_nl(&root_sk);

	/* Can an unprivileged user make a user namespace here?  Ask a child. */
	{
		pid_t pid = fork();
		int st = 1;

		if (pid == 0)
			_exit(become_nobody() || unshare(CLONE_NEWUSER));
		waitpid(pid, &st, 0);
		unpriv = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	if (unpriv) {
		ASSERT_EQ(0, become_nobody());
		ASSERT_EQ(0, unshare(CLONE_NEWUSER)) TH_LOG("unshare(CLONE_NEWUSER): %s", strerror(errno));
		th_log("uid 65534 made a user namespace");
	} else {
		/* Unprivileged user namespaces may be off: root's own is as good a test. */
		ASSERT_EQ(0, unshare(CLONE_NEWUSER)) TH_LOG("unshare(CLONE_NEWUSER): %s",
							   strerror(errno));
		th_log("unprivileged user namespaces are off; root made the user namespace");
	}
	/* Full capabilities in the new userns, none over the netns we are in. */
	open_nl(&init_sk);
	EXPECT_EQ(0, admin_all_eperm(&init_sk, "userns root, netns of the parent"));
	EXPECT_EQ(0, admin_all_eperm(&root_sk, "userns root on root's socket"));
	EXPECT_EQ(0, events_refused(&init_sk, "userns root, netns of the parent"));

	/* A network namespace this user namespace owns: its to manage. */
	ASSERT_EQ(0, unshare(CLONE_NEWNET)) TH_LOG("unshare(CLONE_NEWNET) in the userns: %s",
						    strerror(errno));
	open_nl(&own);
	build_state(&own);
	EXPECT_EQ(0, reads_work(&own, "userns root, its own netns"));
	EXPECT_EQ(0, nlt_subscribe(&own)) TH_LOG("joining \"events\" in its own netns");
	nlh = req(&own, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_USER, "bob@d.example");
	ret = get_one(&own, nlh, &at, &ms, &ack);
	EXPECT_EQ(0, ret) TH_LOG("LOGIN_BEGIN in the userns's own netns: %s", ack.msg);
	msgs_free(&ms);
	nlh = req(&own, L2TPSEL_CMD_LIMIT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_CHASSIS_LIMIT, 100);
	ret = talk(&own, nlh, &ack);
	EXPECT_EQ(0, ret) TH_LOG("LIMIT_SET in the userns's own netns: %s", ack.msg);

	/* The parent's namespace still refuses it, reads included. */
	nlh = req(&init_sk, L2TPSEL_CMD_PROFILE_GET);
	put_str(nlh, L2TPSEL_A_NAME, "p1");
	ret = talk(&init_sk, nlh, &ack);
	EXPECT_EQ(-EPERM, ret) TH_LOG("PROFILE_GET in the parent's netns: %s", ack.msg);
	nlh = req(&init_sk, L2TPSEL_CMD_PROFILE_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "p2");
	EXPECT_EQ(-EPERM, talk(&init_sk, nlh, &ack));

	/* Without CAP_NET_ADMIN in its userns, not even its own netns. */
	ASSERT_EQ(0, drop_cap(CAP_NET_ADMIN));
	EXPECT_EQ(0, admin_all_eperm(&own, "userns without CAP_NET_ADMIN, own netns"));
}

/* ---- tests: policies ---------------------------------------------------- */

struct bad {
	const char *what;
	uint8_t len;		/* bytes of payload */
	uint8_t fill;
	bool nested_flag;
	int err1, err2;
};

/* Wrong lengths and forms for each kind of attribute. */
static const struct bad bad_u8[] = {
	{ "u8 of 0 bytes", 0, 0, false, EINVAL, 0 }, { "u8 of 2 bytes", 2, 0, false, EINVAL, 0 },
	{ "u8 of 4 bytes", 4, 0, false, EINVAL, 0 },
	{ "u8 with NLA_F_NESTED", 1, 0, true, EINVAL, 0 }, { NULL } };
static const struct bad bad_u16[] = {
	{ "u16 of 0 bytes", 0, 0, false, EINVAL, 0 }, { "u16 of 1 byte", 1, 0, false, EINVAL, 0 },
	{ "u16 of 4 bytes", 4, 0, false, EINVAL, 0 }, { NULL } };
static const struct bad bad_u32[] = {
	{ "u32 of 0 bytes", 0, 0, false, EINVAL, 0 }, { "u32 of 2 bytes", 2, 0, false, EINVAL, 0 },
	{ "u32 of 8 bytes", 8, 0, false, EINVAL, 0 },
	{ "u32 with NLA_F_NESTED", 4, 0, true, EINVAL, 0 }, { NULL } };
static const struct bad bad_u64[] = {
	{ "u64 of 0 bytes", 0, 0, false, EINVAL, 0 }, { "u64 of 4 bytes", 4, 0, false, EINVAL, 0 },
	{ "u64 of 16 bytes", 16, 0, false, EINVAL, 0 }, { NULL } };
static const struct bad bad_str[] = {
	{ "string of 0 bytes", 0, 0, false, EINVAL, 0 },
	{ "string without NUL", 8, 'a', false, EINVAL, 0 },
	{ "string of 300 bytes", 255, 'a', false, EINVAL, ERANGE },	/* see below */
	{ "string with NLA_F_NESTED", 4, 0, true, EINVAL, 0 }, { NULL } };
static const struct bad bad_addr[] = {
	{ "address of 0 bytes", 0, 1, false, EINVAL, ERANGE },
	{ "address of 3 bytes", 3, 1, false, EINVAL, ERANGE },
	{ "address of 5 bytes", 5, 1, false, EINVAL, ERANGE },
	{ "address of 17 bytes", 17, 1, false, EINVAL, ERANGE },
	{ "address with NLA_F_NESTED", 4, 1, true, EINVAL, 0 }, { NULL } };
static const struct bad bad_flag[] = {
	{ "flag of 4 bytes", 4, 0, false, EINVAL, ERANGE }, { NULL } };
static const struct bad bad_nest[] = {
	{ "nest without NLA_F_NESTED", 8, 0, false, EINVAL, ERANGE },
	{ "nest of 2 bytes", 2, 0, true, EINVAL, ERANGE },
	{ "nest of garbage", 12, 0xa5, true, EINVAL, ERANGE }, { NULL } };

static const struct bad *bad_of(uint8_t kind)
{
	switch (kind) {
	case K_U8: return bad_u8;
	case K_U16: return bad_u16;
	case K_U32: return bad_u32;
	case K_U64: return bad_u64;
	case K_STR: return bad_str;
	case K_ADDR: return bad_addr;
	case K_FLAG: return bad_flag;
	default: return bad_nest;
	}
}

static uint32_t put_bad(struct nlmsghdr *nlh, uint16_t type, const struct bad *b)
{
	uint8_t data[512];
	uint16_t len = b->len;

	memset(data, b->fill, sizeof(data));
	if (!strcmp(b->what, "string of 300 bytes")) {
		len = 300;
		data[len - 1] = 0;
	}
	if (!strcmp(b->what, "nest without NLA_F_NESTED")) {
		/* A well-formed inner NAME, but the outer flag missing. */
		struct nlattr *in = (struct nlattr *)data;

		in->nla_len = 7;
		in->nla_type = L2TPSEL_A_NAME;
		memcpy(data + 4, "t1", 3);
	}
	return put_raw(nlh, type | (b->nested_flag ? NLA_F_NESTED : 0), data, len);
}

/* Each request: a do (F_DO) and, for dumps, the same as a dump. */
static int send_variant(struct nlt *t, const struct cspec *c, bool as_dump,
			uint16_t skip, int (*extra)(struct nlmsghdr *, void *), void *arg,
			int *offs, struct nlt_ack *ack)
{
	struct nlmsghdr *nlh = nlt_req(t, reqbuf, c->cmd, as_dump ? NLM_F_DUMP : 0);
	struct msgs ms = { };
	int ret;

	if (!as_dump)
		put_required(nlh, c, skip);
	*offs = extra ? extra(nlh, arg) : -1;
	ret = talk_collect(t, nlh, &ms, ack);
	msgs_free(&ms);
	return ret;
}

struct bad_arg {
	uint16_t type;
	const struct bad *b;
};

static int extra_bad(struct nlmsghdr *nlh, void *arg)
{
	struct bad_arg *ba = arg;

	return (int)put_bad(nlh, ba->type, ba->b);
}

/* Every attribute of every command, malformed: refused, with a message, blamed. */
TEST(policy_wrong_type_or_length)
{
	struct nlt t;
	struct nlt_ack ack;
	unsigned int checks = 0, bad = 0;
	size_t i;

	fresh_netns();
	open_nl(&t);
	for (i = 0; i < N_SPECS; i++) {
		const struct cspec *c = &specs[i];
		const struct aspec *a;
		int dumpmode;

		for (a = c->a; a->type; a++) {
			const struct bad *b;

			for (b = bad_of(a->kind); b->what; b++) {
				for (dumpmode = 0; dumpmode < 2; dumpmode++) {
					struct bad_arg ba = { a->type, b };
					char what[160];
					int offs, ret;

					if (dumpmode ? !(c->flags & F_DUMP) : !(c->flags & F_DO))
						continue;
					ret = send_variant(&t, c, dumpmode, a->type, extra_bad, &ba,
							   &offs, &ack);
					snprintf(what, sizeof(what), "%s%s %s: %s", c->name,
						 dumpmode ? " (dump)" : "", l2s_attr_name(a->type),
						 b->what);
					checks++;
					/* An address of 5 bytes passes the policy (4..16) and is
					 * refused by the handler, which names it too. */
					/* Garbage inside a nest is blamed on no attribute. */
					if (!strcmp(b->what, "nest of garbage"))
						offs = -1;
					if (!refused_well(what, &ack, ret, b->err1, b->err2, offs))
						bad++;
				}
			}
		}
	}
	th_log("%u malformed attributes sent, %u not refused as the contract says", checks, bad);
}

static int extra_unknown(struct nlmsghdr *nlh, void *arg)
{
	uint16_t type = *(uint16_t *)arg;
	uint32_t v = 1;

	return (int)put_raw(nlh, type, &v, sizeof(v));
}

/* Every attribute a command does not take, and types beyond the last: refused. */
TEST(policy_unknown_attributes)
{
	static const uint16_t beyond[] = { 0, L2TPSEL_A_MAX + 1, L2TPSEL_A_MAX + 40, 0x3fff };
	struct nlt t;
	struct nlt_ack ack;
	unsigned int checks = 0;
	size_t i, j;

	fresh_netns();
	open_nl(&t);
	for (i = 0; i < N_SPECS; i++) {
		const struct cspec *c = &specs[i];
		uint16_t type;
		int dumpmode;

		for (dumpmode = 0; dumpmode < 2; dumpmode++) {
			if (dumpmode ? !(c->flags & F_DUMP) : !(c->flags & F_DO))
				continue;
			for (j = 0; j < L2TPSEL_A_MAX + sizeof(beyond) / sizeof(beyond[0]); j++) {
				char what[160];
				int offs, ret;

				type = j < L2TPSEL_A_MAX ? (uint16_t)(j + 1) :
				       beyond[j - L2TPSEL_A_MAX];
				if (aspec_of(c, type))
					continue;
				ret = send_variant(&t, c, dumpmode, 0, extra_unknown, &type,
						   &offs, &ack);
				snprintf(what, sizeof(what), "%s%s with attribute %u (%s), which it does not take",
					 c->name, dumpmode ? " (dump)" : "", type,
					 type && type <= L2TPSEL_A_MAX ? l2s_attr_name(type) : "unknown");
				refused_well(what, &ack, ret, EINVAL, 0, offs);
				checks++;
			}
		}
	}
	th_log("%u unknown attributes sent", checks);
}

/* A required attribute missing: -EINVAL, its type in MISS_TYPE, a message naming it. */
TEST(policy_missing_required)
{
	struct nlt t;
	struct nlt_ack ack;
	unsigned int checks = 0;
	size_t i;

	fresh_netns();
	open_nl(&t);
	for (i = 0; i < N_SPECS; i++) {
		const struct cspec *c = &specs[i];
		const struct aspec *a;

		if (!(c->flags & F_DO))
			continue;
		for (a = c->a; a->type; a++) {
			const char *name = l2s_attr_name(a->type);
			int offs, ret;

			if (!a->req)
				continue;
			checks++;
			ret = send_variant(&t, c, false, a->type, NULL, NULL, &offs, &ack);
			EXPECT_EQ(-EINVAL, ret) TH_LOG("%s without %s: %s", c->name, name, ack.msg);
			EXPECT_TRUE(ack.has_miss && ack.miss_type == a->type)
				TH_LOG("%s without %s: expected NLMSGERR_ATTR_MISS_TYPE %u, got %s %u",
				       c->name, name, a->type, ack.has_miss ? "" : "none", ack.miss_type);
			EXPECT_TRUE(strstr(ack.msg, name) != NULL)
				TH_LOG("%s without %s: expected a message naming %s, got \"%s\"",
				       c->name, name, name, ack.msg);
		}
	}
	/* RESULT_CODE is required with a CDN or StopCCN outcome. */
	{
		struct nlmsghdr *nlh = req(&t, L2TPSEL_CMD_LOGIN_REPORT);
		int ret;

		mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, 1);
		mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_CDN);
		ret = talk(&t, nlh, &ack);
		EXPECT_EQ(-EINVAL, ret);
		EXPECT_TRUE(ack.has_miss && ack.miss_type == L2TPSEL_A_RESULT_CODE);
		EXPECT_TRUE(strstr(ack.msg, "RESULT_CODE") != NULL)
			TH_LOG("LOGIN_REPORT CDN without RESULT_CODE: message \"%s\"", ack.msg);
		checks++;
	}
	/* The "at least one of" rules. */
	{
		static const uint8_t one_of[] = { L2TPSEL_CMD_LIMIT_SET, L2TPSEL_CMD_LOCKOUT_SET,
						  L2TPSEL_CMD_LOGIN_BEGIN, L2TPSEL_CMD_LOGIN_TEST };
		size_t k;

		for (k = 0; k < sizeof(one_of); k++) {
			int ret = talk(&t, req(&t, one_of[k]), &ack);

			EXPECT_EQ(-EINVAL, ret) TH_LOG("%s with nothing", spec_of(one_of[k])->name);
			EXPECT_NE(0, ack.msg[0]) TH_LOG("%s with nothing: no message",
							spec_of(one_of[k])->name);
			checks++;
		}
	}
	th_log("%u requests without a required attribute", checks);
}

/* Values the policy or the handler bound: refused with a message naming the bound. */
TEST(policy_values_out_of_range)
{
	struct nlt t;
	struct nlt_ack ack;
	struct nlmsghdr *nlh;
	char longname[300];
	int ret;

	fresh_netns();
	open_nl(&t);
	ASSERT_EQ(0, mk_profile(&t, "p1", &ack));

#define EXPECT_REFUSED(errs, substr) do {					\
	ret = talk(&t, nlh, &ack);						\
	EXPECT_TRUE(ret == -(errs) || (ret == -EINVAL && (errs) == ERANGE) ||	\
		    (ret == -ERANGE && (errs) == EINVAL))				\
		TH_LOG("expected -%s, got %d (%s)", strerrorname_np(errs), ret, ack.msg); \
	EXPECT_TRUE(ack.msg[0] && strstr(ack.msg, substr))			\
		TH_LOG("expected a message with \"%s\", got \"%s\"", substr, ack.msg); \
} while (0)

	nlh = req(&t, L2TPSEL_CMD_SESSION_UP);
	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, 1);
	mnl_attr_put_u8(nlh, L2TPSEL_A_ROLE, 2);
	mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, 1);
	EXPECT_REFUSED(ERANGE, "");

	nlh = req(&t, L2TPSEL_CMD_PROFILE_SET);
	put_str(nlh, L2TPSEL_A_NAME, "p1");
	mnl_attr_put_u8(nlh, L2TPSEL_A_LB, L2TPSEL_LB_MINMISS_HASH + 1);
	EXPECT_REFUSED(ERANGE, "");

	nlh = req(&t, L2TPSEL_CMD_PROFILE_SET);
	put_str(nlh, L2TPSEL_A_NAME, "p1");
	mnl_attr_put_u8(nlh, L2TPSEL_A_FAILOVER, L2TPSEL_FAILOVER_WITHIN_LEVEL + 1);
	EXPECT_REFUSED(ERANGE, "");

	nlh = req(&t, L2TPSEL_CMD_LIMIT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_CHASSIS_MAX, 0);
	EXPECT_REFUSED(ERANGE, "");

	nlh = req(&t, L2TPSEL_CMD_LIMIT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_CHASSIS_LIMIT, 2000000);
	EXPECT_REFUSED(EINVAL, "1000000");

	nlh = req(&t, L2TPSEL_CMD_LOGIN_REPORT);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, 1);
	mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, 0);
	EXPECT_REFUSED(ERANGE, "");

	nlh = req(&t, L2TPSEL_CMD_LOCKOUT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_TIME, 0);
	EXPECT_REFUSED(EINVAL, "86400");

	nlh = req(&t, L2TPSEL_CMD_LOCKOUT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_MAX_LOGINS, 65537);
	EXPECT_REFUSED(ERANGE, "65536");

	nlh = req(&t, L2TPSEL_CMD_TUNNEL_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "t1");
	put_str(nlh, L2TPSEL_A_PROFILE, "p1");
	mnl_attr_put_u8(nlh, L2TPSEL_A_SEL_LEVEL, 8);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.0.0.1");
	EXPECT_REFUSED(EINVAL, "level 8");

	memset(longname, 'n', 32);
	longname[32] = 0;
	nlh = req(&t, L2TPSEL_CMD_PROFILE_NEW);
	put_str(nlh, L2TPSEL_A_NAME, longname);
	EXPECT_REFUSED(EINVAL, "31");

	nlh = req(&t, L2TPSEL_CMD_TUNNEL_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "t1");
	put_str(nlh, L2TPSEL_A_PROFILE, "p1");
	mnl_attr_put_u8(nlh, L2TPSEL_A_SEL_LEVEL, 0);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.0.0.1");
	memset(longname, 's', 64);
	longname[64] = 0;
	put_str(nlh, L2TPSEL_A_SECRET, longname);
	EXPECT_REFUSED(EINVAL, "63");

	nlh = req(&t, L2TPSEL_CMD_DOMAIN_NEW);
	put_str(nlh, L2TPSEL_A_DOMAIN, longname);
	put_str(nlh, L2TPSEL_A_PROFILE, "p1");
	EXPECT_REFUSED(EINVAL, "63");

	nlh = req(&t, L2TPSEL_CMD_DEST_LOCK);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.0.0.1");
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_REMAINING, 86400001);
	EXPECT_REFUSED(ERANGE, "86400000");

	nlh = req(&t, L2TPSEL_CMD_TGROUP_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "");
	EXPECT_REFUSED(EINVAL, "empty");

	nlh = req(&t, L2TPSEL_CMD_LOCKOUT_CLEAR);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.0.0.1");
	put_ip4(nlh, L2TPSEL_A_LOCAL, "10.0.0.2");
	EXPECT_REFUSED(EINVAL, "not both");
#undef EXPECT_REFUSED
}

/* Commands that do not exist, and do/dump on ops that lack them. */
TEST(policy_unknown_commands_and_flags)
{
	struct nlt t;
	struct nlt_ack ack;
	struct nlmsghdr *nlh;
	unsigned int cmd;
	size_t i;
	int ret;

	fresh_netns();
	open_nl(&t);
	for (cmd = 0; cmd < 256; cmd++) {
		if (spec_of((uint8_t)cmd))
			continue;
		ret = talk(&t, req(&t, (uint8_t)cmd), &ack);
		EXPECT_EQ(-EOPNOTSUPP, ret) TH_LOG("command %u is not in the API", cmd);
	}
	for (i = 0; i < N_SPECS; i++) {
		const struct cspec *c = &specs[i];

		if (!(c->flags & F_DUMP)) {
			nlh = nlt_req(&t, reqbuf, c->cmd, NLM_F_DUMP);
			ret = talk(&t, nlh, &ack);
			EXPECT_TRUE(ret == -EOPNOTSUPP || ret == -EPERM)
				TH_LOG("%s as a dump: %d", c->name, ret);
		}
		if (!(c->flags & F_DO)) {
			ret = talk(&t, req(&t, c->cmd), &ack);
			EXPECT_EQ(-EOPNOTSUPP, ret) TH_LOG("%s as a do", c->name);
		}
	}
	/* Strict validation of the header: reserved byte and stray flags. */
	nlh = req(&t, L2TPSEL_CMD_GET_INFO);
	((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->reserved = 1;
	ret = talk(&t, nlh, &ack);
	EXPECT_EQ(-EINVAL, ret);
	EXPECT_NE(0, ack.msg[0]);
	nlh = nlt_req(&t, reqbuf, L2TPSEL_CMD_GET_INFO, NLM_F_EXCL);
	ret = talk(&t, nlh, &ack);
	EXPECT_EQ(-EINVAL, ret);
	EXPECT_NE(0, ack.msg[0]);
}

/* ---- tests: dumps -------------------------------------------------------- */

/* Enough for 5-10 datagrams of 8 KB per dump; kept small for the debug kernel. */
#define N_OBJ		400
#define N_SESS		600
#define N_PROF		250
#define TUN_PER_PROF	2

static void name_of(char *buf, size_t len, const char *kind, unsigned int i)
{
	/* Long names: fewer entries fit in one datagram. */
	snprintf(buf, len, "%s-%05u-padding-padding-padding-padding-padding", kind, i);
	buf[!strcmp(kind, "p") ? 31 : 63] = 0;
}

struct seen {
	unsigned int n, dups, strays;
	unsigned char *hit;
	unsigned int max;
};

static void seen_add(struct seen *s, long idx)
{
	if (idx < 0 || (unsigned long)idx >= s->max) {
		s->strays++;
		return;
	}
	if (s->hit[idx]++)
		s->dups++;
	s->n++;
}

/* The index in the name "kind-00042-...", or -1. */
static long idx_of(const char *name)
{
	const char *d = name ? strchr(name, '-') : NULL;

	return d ? strtol(d + 1, NULL, 10) : -1;
}

static void check_dump(struct nlt *t, uint8_t cmd, int attr, unsigned int expect,
		       bool by_key, bool by_tunnel)
{
	struct seen s = { .max = expect, .hit = calloc(expect, 1) };
	struct msgs ms = { };
	struct nlt_ack ack;
	unsigned int i;
	int ret;

	ret = dump(t, cmd, &ms, &ack);
	ASSERT_EQ(0, ret) TH_LOG("%s dump: %s", spec_of(cmd)->name, ack.msg);
	for (i = 0; i < ms.n; i++) {
		struct nlt_attrs at;

		nlt_parse(ms.m[i], &at);
		if (by_key) {
			seen_add(&s, (long)nlt_u64(&at, L2TPSEL_A_SESSION_KEY) - 1);
		} else if (by_tunnel) {
			long p = idx_of(nlt_str(&at, L2TPSEL_A_PROFILE));
			long tt = idx_of(nlt_str(&at, L2TPSEL_A_NAME));

			seen_add(&s, p * TUN_PER_PROF + (tt >= 0 && tt < TUN_PER_PROF ? tt : 99999));
		} else if (attr == L2TPSEL_A_REMOTE) {
			const struct nlattr *a = at.tb[L2TPSEL_A_REMOTE];
			const uint8_t *b = a ? mnl_attr_get_payload(a) : NULL;

			seen_add(&s, b ? (long)(b[2] * 256 + b[3]) : -1);
		} else {
			seen_add(&s, idx_of(nlt_str(&at, attr)));
		}
	}
	EXPECT_EQ(expect, s.n) TH_LOG("%s dump: entries", spec_of(cmd)->name);
	EXPECT_EQ(0, s.dups) TH_LOG("%s dump: entries sent twice", spec_of(cmd)->name);
	EXPECT_EQ(0, s.strays) TH_LOG("%s dump: entries that were never made", spec_of(cmd)->name);
	EXPECT_GE(ack.nrecv, 3) TH_LOG("%s dump: %u datagrams; the test wants one that spans several",
				      spec_of(cmd)->name, ack.nrecv);
	EXPECT_FALSE(ack.intr) TH_LOG("%s dump: NLM_F_DUMP_INTR without a change", spec_of(cmd)->name);
	th_log("%s: %u entries in %u datagrams", spec_of(cmd)->name, s.n, ack.nrecv);
	msgs_free(&ms);
	free(s.hit);
}

static void make_many(struct nlt *t)
{
	struct nlt_ack ack;
	struct nlmsghdr *nlh;
	char name[80], pname[80], ip[32];
	uint8_t admit;
	unsigned int i, j;
	int ret;

	for (i = 0; i < N_OBJ; i++) {
		static const uint8_t cmds[] = { L2TPSEL_CMD_TGROUP_NEW, L2TPSEL_CMD_SLG_NEW,
						L2TPSEL_CMD_CLIENT_NEW };
		static const char *const kinds[] = { "tgroup", "slg", "client" };
		size_t k;

		for (k = 0; k < 3; k++) {
			name_of(name, sizeof(name), kinds[k], i);
			nlh = req(t, cmds[k]);
			put_str(nlh, L2TPSEL_A_NAME, name);
			DO_OK(t, nlh);
		}
		name_of(name, sizeof(name), "domain", i);
		nlh = req(t, L2TPSEL_CMD_DOMAIN_NEW);
		put_str(nlh, L2TPSEL_A_DOMAIN, name);
		put_str(nlh, L2TPSEL_A_PROFILE, "p");
		DO_OK(t, nlh);
	}
	for (i = 0; i < N_PROF; i++) {
		name_of(pname, sizeof(pname), "p", i);
		ret = mk_profile(t, pname, &ack);
		ASSERT_EQ(0, ret) TH_LOG("PROFILE_NEW %s: %s", pname, ack.msg);
		for (j = 0; j < TUN_PER_PROF; j++) {
			unsigned int d = i * TUN_PER_PROF + j;

			snprintf(name, sizeof(name), "t-%u", j);
			snprintf(ip, sizeof(ip), "10.50.%u.%u", d / 256, d % 256);
			ret = mk_tunnel(t, pname, name, (uint8_t)j, ip, NULL, &ack);
			ASSERT_EQ(0, ret) TH_LOG("TUNNEL_NEW %s/%s: %s", pname, name, ack.msg);
		}
	}
	for (i = 0; i < N_SESS; i++) {
		name_of(name, sizeof(name), "client", i % N_OBJ);
		ret = session_up(t, i + 1, L2TPSEL_ROLE_LNS, i % 50, NULL, name, &ack, &admit);
		ASSERT_EQ(0, ret) TH_LOG("SESSION_UP %u: %s", i + 1, ack.msg);
	}
}

TEST(dump_spans_datagrams_none_lost)
{
	struct nlt t, mk;

	fresh_netns();
	open_nl(&mk);
	make_many(&mk);	/* open: its sessions end with it */
	/* A fresh socket reading 8 KB at a time: the kernel sizes dump messages by it. */
	ASSERT_EQ(0, nlt_open_rx(&t, 8192));
	check_dump(&t, L2TPSEL_CMD_TGROUP_GET, L2TPSEL_A_NAME, N_OBJ, false, false);
	check_dump(&t, L2TPSEL_CMD_SLG_GET, L2TPSEL_A_NAME, N_OBJ, false, false);
	check_dump(&t, L2TPSEL_CMD_CLIENT_GET, L2TPSEL_A_NAME, N_OBJ, false, false);
	check_dump(&t, L2TPSEL_CMD_DOMAIN_GET, L2TPSEL_A_DOMAIN, N_OBJ, false, false);
	check_dump(&t, L2TPSEL_CMD_SESSION_GET, 0, N_SESS, true, false);
	check_dump(&t, L2TPSEL_CMD_PROFILE_GET, L2TPSEL_A_NAME, N_PROF, false, false);
	check_dump(&t, L2TPSEL_CMD_TUNNEL_GET, 0, N_PROF * TUN_PER_PROF, false, true);
	check_dump(&t, L2TPSEL_CMD_DEST_GET, L2TPSEL_A_REMOTE, N_PROF * TUN_PER_PROF,
		   false, false);
	nlt_close(&mk);
}

/* A change between two datagrams of a dump is flagged NLM_F_DUMP_INTR. */
TEST(dump_detects_concurrent_change)
{
	static const uint8_t kinds[] = {
		L2TPSEL_CMD_TGROUP_GET, L2TPSEL_CMD_SLG_GET, L2TPSEL_CMD_CLIENT_GET,
		L2TPSEL_CMD_DOMAIN_GET, L2TPSEL_CMD_SESSION_GET, L2TPSEL_CMD_PROFILE_GET,
		L2TPSEL_CMD_TUNNEL_GET, L2TPSEL_CMD_DEST_GET,
	};
	struct nlt t, chg;
	struct nlt_ack ack;
	unsigned int k;

	fresh_netns();
	open_nl(&chg);
	make_many(&chg);
	ASSERT_EQ(0, nlt_open_rx(&t, 8192));
	for (k = 0; k < sizeof(kinds); k++) {
		struct nlmsghdr *nlh = nlt_req(&t, reqbuf, kinds[k], NLM_F_DUMP);
		uint32_t seq = nlh->nlmsg_seq;
		char name[32];
		int ret;

		ASSERT_EQ(0, nlt_send(&t, nlh));
		/* Read one datagram: the kernel fills the next one as it is read. */
		memset(&ack, 0, sizeof(ack));
		{
			struct pollfd p = { .fd = mnl_socket_get_fd(t.sk), .events = POLLIN };
			ssize_t n;

			ASSERT_EQ(1, poll(&p, 1, 5000));
			n = recv(p.fd, t.rx, 8192, 0);
			ASSERT_GT(n, 0);
		}
		snprintf(name, sizeof(name), "change-%u", k);
		nlh = req(&chg, L2TPSEL_CMD_TGROUP_NEW);
		put_str(nlh, L2TPSEL_A_NAME, name);
		ret = talk(&chg, nlh, &ack);
		ASSERT_EQ(0, ret) TH_LOG("TGROUP_NEW during the dump: %s", ack.msg);
		memset(&ack, 0, sizeof(ack));
		ASSERT_EQ(0, nlt_recv(&t, seq, NULL, NULL, &ack, 5000));
		EXPECT_TRUE(ack.done) TH_LOG("%s: the dump did not end", spec_of(kinds[k])->name);
		EXPECT_TRUE(ack.intr)
			TH_LOG("%s: a change during the dump (%u more datagrams) was not flagged NLM_F_DUMP_INTR",
			       spec_of(kinds[k])->name, ack.nrecv);
	}
}

#define TUN_PER_PA	124	/* 31 destinations (a profile's most) on 4 levels */

/* Counts a tunnel dump's entries of profile "pb". */
static int count_pb_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct nlt_attrs at;
	const char *p;

	nlt_parse(nlh, &at);
	p = nlt_str(&at, L2TPSEL_A_PROFILE);
	if (p && !strcmp(p, "pb"))
		(*(unsigned int *)arg)++;
	return MNL_CB_OK;
}

/*
 * A tunnel dump that stopped inside a profile resumes at the next profile's
 * first tunnel when that profile is deleted between two datagrams (the
 * datagram after the change is flagged NLM_F_DUMP_INTR; nothing is skipped).
 */
TEST(dump_tunnels_resume_after_profile_deleted)
{
	struct nlt t, chg;
	struct nlt_ack ack;
	struct nlmsghdr *nlh;
	const struct nlmsghdr *m;
	unsigned int i, first_pa = 0, first_other = 0, rest_pb = 0;
	const char *prof[] = { "pa", "pb" };
	char name[32], ip[32];
	uint32_t seq;
	ssize_t n;
	int left, ret;

	fresh_netns();
	open_nl(&chg);
	for (i = 0; i < 2; i++) {
		unsigned int j;

		ASSERT_EQ(0, mk_profile(&chg, prof[i], &ack)) TH_LOG("%s", ack.msg);
		for (j = 0; j < TUN_PER_PA; j++) {
			snprintf(name, sizeof(name), "t-%u", j);
			snprintf(ip, sizeof(ip), "10.51.%u.%u", i, j % 31 + 1);
			ret = mk_tunnel(&chg, prof[i], name, (uint8_t)(j / 31), ip, NULL, &ack);
			ASSERT_EQ(0, ret) TH_LOG("TUNNEL_NEW %s/%s: %s", prof[i], name, ack.msg);
		}
	}
	/* 4 KB reads: a datagram holds fewer tunnels than one profile has. */
	ASSERT_EQ(0, nlt_open_rx(&t, 4096));
	nlh = nlt_req(&t, reqbuf, L2TPSEL_CMD_TUNNEL_GET, NLM_F_DUMP);
	seq = nlh->nlmsg_seq;
	ASSERT_EQ(0, nlt_send(&t, nlh));
	{
		struct pollfd pfd = { .fd = mnl_socket_get_fd(t.sk), .events = POLLIN };

		ASSERT_EQ(1, poll(&pfd, 1, 5000));
		n = recv(pfd.fd, t.rx, 4096, 0);
		ASSERT_GT(n, 0);
	}
	left = (int)n;
	for (m = (const struct nlmsghdr *)t.rx; mnl_nlmsg_ok(m, left); m = mnl_nlmsg_next(m, &left)) {
		struct nlt_attrs at;
		const char *p;

		if (m->nlmsg_type < NLMSG_MIN_TYPE)
			continue;
		nlt_parse(m, &at);
		p = nlt_str(&at, L2TPSEL_A_PROFILE);
		if (p && !strcmp(p, "pa"))
			first_pa++;
		else
			first_other++;
	}
	ASSERT_EQ(0, first_other) TH_LOG("the first datagram went past profile pa");
	ASSERT_GT(first_pa, 0);
	ASSERT_LT(first_pa, TUN_PER_PA)
		TH_LOG("the first datagram holds all of pa: the test wants one that stops inside it");
	nlh = req(&chg, L2TPSEL_CMD_PROFILE_DEL);
	put_str(nlh, L2TPSEL_A_NAME, "pa");
	DO_OK(&chg, nlh);
	memset(&ack, 0, sizeof(ack));
	ASSERT_EQ(0, nlt_recv(&t, seq, count_pb_cb, &rest_pb, &ack, 5000));
	EXPECT_TRUE(ack.done);
	EXPECT_TRUE(ack.intr) TH_LOG("the change during the dump was not flagged NLM_F_DUMP_INTR");
	EXPECT_EQ(TUN_PER_PA, rest_pb)
		TH_LOG("profile pb's tunnels after pa was deleted mid-dump (pa had %u in the first datagram)",
		       first_pa);
	nlt_close(&t);
	nlt_close(&chg);
}

/*
 * A client with sessions in more tunnel groups than one message holds:
 * a dump sends it in parts (MORE), and the clients
 * after it too; a GET of it is refused with a message saying to dump it; a
 * dump with its NAME gives all of its counts.  Before: the GET failed with
 * a bare EMSGSIZE and the dump ended in EMSGSIZE, the later client unseen.
 */
#define BIG_TGROUPS	300

struct client_parts {
	unsigned int entries, more, tgcs, a, z, other;
	bool more_last;		/* the last entry of big carried MORE */
};

static int client_parts_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct client_parts *cp = arg;
	const struct nlattr *n;
	struct nlt_attrs at;
	const char *name;

	nlt_parse(nlh, &at);
	name = nlt_str(&at, L2TPSEL_A_NAME);
	if (!name || strcmp(name, "big")) {
		if (name && !strcmp(name, "a"))
			cp->a++;
		else if (name && !strcmp(name, "z"))
			cp->z++;
		else
			cp->other++;
		return MNL_CB_OK;
	}
	cp->entries++;
	cp->more_last = at.tb[L2TPSEL_A_MORE] != NULL;
	cp->more += cp->more_last;
	if (at.tb[L2TPSEL_A_TGROUP_COUNTS])
		mnl_attr_for_each_nested(n, at.tb[L2TPSEL_A_TGROUP_COUNTS])
			cp->tgcs++;
	return MNL_CB_OK;
}

TEST(client_in_many_tgroups_dumps_whole)
{
	struct client_parts cp = { };
	struct nlt t, chg;
	struct nlt_ack ack;
	struct nlmsghdr *nlh;
	char tg[32];
	uint8_t admit;
	unsigned int i;
	int ret;

	fresh_netns();
	open_nl(&chg);
	nlh = req(&chg, L2TPSEL_CMD_CLIENT_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "a");
	DO_OK(&chg, nlh);
	for (i = 0; i < BIG_TGROUPS; i++) {
		snprintf(tg, sizeof(tg), "tunnel-group-%03u", i);
		ret = session_up(&chg, i + 1, L2TPSEL_ROLE_LNS, 7, tg, "big", &ack, &admit);
		ASSERT_EQ(0, ret) TH_LOG("SESSION_UP %u: %s", i, ack.msg);
	}
	nlh = req(&chg, L2TPSEL_CMD_CLIENT_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "z");
	DO_OK(&chg, nlh);

	/* 4 KB reads: big's counts take several datagrams. */
	ASSERT_EQ(0, nlt_open_rx(&t, 4096));
	nlh = nlt_req(&t, reqbuf, L2TPSEL_CMD_CLIENT_GET, NLM_F_DUMP);
	ret = nlt_talk(&t, nlh, client_parts_cb, &cp, &ack);
	EXPECT_EQ(0, ret) TH_LOG("CLIENT_GET dump: %d %s", ret, ack.msg);
	EXPECT_EQ(1, cp.a);
	EXPECT_EQ(1, cp.z) TH_LOG("the client after big was not dumped");
	EXPECT_EQ(0, cp.other);
	EXPECT_GT(cp.entries, 1) TH_LOG("big fit one message: the test wants more groups");
	EXPECT_EQ(cp.entries - 1, cp.more) TH_LOG("every part of big but the last carries MORE");
	EXPECT_FALSE(cp.more_last);
	EXPECT_EQ(BIG_TGROUPS, cp.tgcs) TH_LOG("big's tunnel-group counts across its parts");

	nlh = req(&t, L2TPSEL_CMD_CLIENT_GET);
	put_str(nlh, L2TPSEL_A_NAME, "big");
	ret = nlt_talk(&t, nlh, NULL, NULL, &ack);
	EXPECT_EQ(-EMSGSIZE, ret);
	EXPECT_NE(NULL, strstr(ack.msg, "does not fit one message: dump it"))
		TH_LOG("GET big: \"%s\"", ack.msg);

	memset(&cp, 0, sizeof(cp));
	nlh = nlt_req(&t, reqbuf, L2TPSEL_CMD_CLIENT_GET, NLM_F_DUMP);
	put_str(nlh, L2TPSEL_A_NAME, "big");
	ret = nlt_talk(&t, nlh, client_parts_cb, &cp, &ack);
	EXPECT_EQ(0, ret) TH_LOG("CLIENT_GET dump of big: %s", ack.msg);
	EXPECT_EQ(0, cp.a + cp.z + cp.other) TH_LOG("a dump with NAME gave other clients");
	EXPECT_EQ(BIG_TGROUPS, cp.tgcs);
	EXPECT_FALSE(cp.more_last);

	nlh = req(&t, L2TPSEL_CMD_CLIENT_GET);
	put_str(nlh, L2TPSEL_A_NAME, "a");
	DO_OK(&t, nlh);
	nlt_close(&t);
	nlt_close(&chg);
}

/* What a client dump's datagrams said of the clients after "big". */
struct client_after {
	unsigned int z, z_whole, big_more;
};

static int client_after_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct client_after *ca = arg;
	struct nlt_attrs at;
	const char *name;

	nlt_parse(nlh, &at);
	name = nlt_str(&at, L2TPSEL_A_NAME);
	if (name && !strcmp(name, "big"))
		ca->big_more += at.tb[L2TPSEL_A_MORE] != NULL;
	if (!name || strcmp(name, "z"))
		return MNL_CB_OK;
	ca->z++;
	ca->z_whole += at.tb[L2TPSEL_A_LIMIT] && at.tb[L2TPSEL_A_COUNT];
	return MNL_CB_OK;
}

/*
 * A client dump that stopped inside a client (MORE) resumes with the next
 * client whole when that one is gone before the next datagram: its entry
 * carries LIMIT and COUNT, not only the counts past the old cursor.
 * Before: the cursor's count index was kept, and "z" came without LIMIT,
 * COUNT or SLG, its first counts skipped.
 */
TEST(client_dump_resumes_whole_after_client_gone)
{
	struct client_after ca = { };
	struct nlt t, chg;
	struct nlt_ack ack;
	struct nlmsghdr *nlh;
	const struct nlmsghdr *m;
	unsigned int i, tries;
	uint8_t admit;
	uint32_t seq;
	char tg[32];
	ssize_t n;
	int left, ret;

	fresh_netns();
	open_nl(&chg);
	for (i = 0; i < BIG_TGROUPS; i++) {
		snprintf(tg, sizeof(tg), "tunnel-group-%03u", i);
		ret = session_up(&chg, i + 1, L2TPSEL_ROLE_LNS, 7, tg, "big", &ack, &admit);
		ASSERT_EQ(0, ret) TH_LOG("SESSION_UP %u: %s", i, ack.msg);
	}
	/* z after big in id order, in a tunnel group too: it has counts to skip. */
	ret = session_up(&chg, 100000, L2TPSEL_ROLE_LNS, 7, "tunnel-group-000", "z", &ack, &admit);
	ASSERT_EQ(0, ret) TH_LOG("SESSION_UP z: %s", ack.msg);

	ASSERT_EQ(0, nlt_open_rx(&t, 4096));
	nlh = nlt_req(&t, reqbuf, L2TPSEL_CMD_CLIENT_GET, NLM_F_DUMP);
	seq = nlh->nlmsg_seq;
	ASSERT_EQ(0, nlt_send(&t, nlh));
	/* Datagram by datagram until one ends inside big. */
	for (tries = 0; !ca.big_more && tries < 8; tries++) {
		struct pollfd pfd = { .fd = mnl_socket_get_fd(t.sk), .events = POLLIN };

		ASSERT_EQ(1, poll(&pfd, 1, 5000));
		n = recv(pfd.fd, t.rx, 4096, 0);
		ASSERT_GT(n, 0);
		left = (int)n;
		for (m = (const struct nlmsghdr *)t.rx; mnl_nlmsg_ok(m, left);
		     m = mnl_nlmsg_next(m, &left)) {
			ASSERT_NE(NLMSG_DONE, m->nlmsg_type) TH_LOG("the dump ended inside big");
			if (m->nlmsg_type >= NLMSG_MIN_TYPE)
				client_after_cb(m, &ca);
		}
	}
	ASSERT_GT(ca.big_more, 0) TH_LOG("no datagram ended inside big");
	ASSERT_EQ(0, ca.z) TH_LOG("z came before big was done");
	/* big goes with its last session. */
	for (i = 0; i < BIG_TGROUPS; i++)
		ASSERT_EQ(0, session_down(&chg, i + 1, &ack)) TH_LOG("SESSION_DOWN %u: %s", i, ack.msg);
	nlh = req(&chg, L2TPSEL_CMD_CLIENT_GET);
	put_str(nlh, L2TPSEL_A_NAME, "big");
	ASSERT_EQ(-ENOENT, talk(&chg, nlh, &ack)) TH_LOG("big is still there");

	memset(&ack, 0, sizeof(ack));
	ASSERT_EQ(0, nlt_recv(&t, seq, client_after_cb, &ca, &ack, 5000));
	EXPECT_TRUE(ack.done);
	EXPECT_EQ(0, ack.err) TH_LOG("the dump ended in %d: %s", ack.err, ack.msg);
	EXPECT_TRUE(ack.intr) TH_LOG("the change during the dump was not flagged NLM_F_DUMP_INTR");
	EXPECT_EQ(1, ca.z) TH_LOG("z was not dumped once");
	EXPECT_EQ(1, ca.z_whole) TH_LOG("z came without its LIMIT and COUNT (a continuation of big)");
	nlt_close(&t);
	nlt_close(&chg);
}

/*
 * Logins in flight while tunnels are added and deleted (a backup LNS added
 * at busy hour): every login whose tunnel survived succeeds and is counted
 * on that tunnel; one whose tunnel was deleted ends profile-changed (S-SEC-4).
 */
TEST(login_survives_tunnel_added_and_deleted)
{
	enum { N = 24 };
	struct nlt t;
	struct nlt_ack ack;
	struct nlt_attrs at;
	struct msgs ms = { };
	struct nlmsghdr *nlh;
	uint32_t id[N];
	char tun[N][32];
	unsigned int i, on_a = 0, ok = 0, stale = 0;
	int ret;

	fresh_netns();
	open_nl(&t);
	ASSERT_EQ(0, mk_profile(&t, "busy", &ack)) TH_LOG("%s", ack.msg);
	ASSERT_EQ(0, mk_tunnel(&t, "busy", "A", 1, "10.52.0.1", NULL, &ack)) TH_LOG("%s", ack.msg);
	ASSERT_EQ(0, mk_tunnel(&t, "busy", "B", 1, "10.52.0.2", NULL, &ack)) TH_LOG("%s", ack.msg);
	for (i = 0; i < N; i++) {
		nlh = req(&t, L2TPSEL_CMD_LOGIN_BEGIN);
		put_str(nlh, L2TPSEL_A_PROFILE, "busy");
		ret = get_one(&t, nlh, &at, &ms, &ack);
		ASSERT_EQ(0, ret) TH_LOG("LOGIN_BEGIN %u: %s", i, ack.msg);
		ASSERT_EQ(L2TPSEL_STEP_ATTEMPT, nlt_u8(&at, L2TPSEL_A_STEP));
		id[i] = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);
		snprintf(tun[i], sizeof(tun[i]), "%s", nlt_str(&at, L2TPSEL_A_NAME) ?: "");
		on_a += !strcmp(tun[i], "A");
		msgs_free(&ms);
	}
	ASSERT_GT(on_a, 0);
	ASSERT_LT(on_a, N) TH_LOG("random balancing put every login on A");
	/* A more preferred tunnel (every index moves), one more, and B gone. */
	ASSERT_EQ(0, mk_tunnel(&t, "busy", "Z", 0, "10.52.0.26", NULL, &ack)) TH_LOG("%s", ack.msg);
	ASSERT_EQ(0, mk_tunnel(&t, "busy", "C", 1, "10.52.0.3", NULL, &ack)) TH_LOG("%s", ack.msg);
	ASSERT_EQ(0, del_tunnel(&t, "busy", "B", &ack)) TH_LOG("TUNNEL_DEL B: %s", ack.msg);
	for (i = 0; i < N; i++) {
		nlh = req(&t, L2TPSEL_CMD_LOGIN_REPORT);
		mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, id[i]);
		mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_OK);
		put_ok_session(nlh);
		ret = get_one(&t, nlh, &at, &ms, &ack);
		ASSERT_EQ(0, ret) TH_LOG("LOGIN_REPORT %u: %s", i, ack.msg);
		ASSERT_EQ(L2TPSEL_STEP_DONE, nlt_u8(&at, L2TPSEL_A_STEP));
		if (!strcmp(tun[i], "A")) {
			EXPECT_EQ(1, nlt_u8(&at, L2TPSEL_A_OK))
				TH_LOG("login %u on A (still configured) failed, why %u", i,
				       nlt_u8(&at, L2TPSEL_A_WHY));
			EXPECT_STREQ("A", nlt_str(&at, L2TPSEL_A_NAME) ?: "-");
		} else {
			EXPECT_EQ(0, nlt_u8(&at, L2TPSEL_A_OK));
			EXPECT_EQ(L2TPSEL_WHY_PROFILE_CHANGED, nlt_u8(&at, L2TPSEL_A_WHY));
		}
		ok += nlt_u8(&at, L2TPSEL_A_OK);
		stale += nlt_u8(&at, L2TPSEL_A_WHY) == L2TPSEL_WHY_PROFILE_CHANGED;
		msgs_free(&ms);
	}
	EXPECT_EQ(on_a, ok);
	EXPECT_EQ(N - on_a, stale);
	/* Counted on A and nowhere else. */
	ASSERT_EQ(0, dump(&t, L2TPSEL_CMD_TUNNEL_GET, &ms, &ack));
	for (i = 0; i < ms.n; i++) {
		const char *name;

		nlt_parse(ms.m[i], &at);
		name = nlt_str(&at, L2TPSEL_A_NAME) ?: "";
		EXPECT_EQ(strcmp(name, "A") ? 0 : on_a, nlt_u32(&at, L2TPSEL_A_SESSIONS))
			TH_LOG("sessions on tunnel %s", name);
	}
	EXPECT_EQ(3, ms.n);
	msgs_free(&ms);
	th_log("%u logins on A succeeded, %u on the deleted B ended profile-changed", ok, stale);
	nlt_close(&t);
}

/*
 * The dry run (LOGIN_TEST) reads its profile and the destination table as
 * one state: while another socket deletes P1's only tunnel, gives its
 * destination slot to a tunnel of P2 and puts it back, every attempt the
 * dry run shows for P1 goes to P1's own LNS.
 */
TEST(login_test_one_state_under_changes)
{
	struct nlt t;
	struct nlt_ack ack;
	struct msgs ms = { };
	unsigned int runs = 0, steps = 0, wrong = 0;
	struct timespec t0, now;
	int status;
	pid_t pid;

	fresh_netns();
	open_nl(&t);
	ASSERT_EQ(0, mk_profile(&t, "P1", &ack)) TH_LOG("%s", ack.msg);
	ASSERT_EQ(0, mk_profile(&t, "P2", &ack)) TH_LOG("%s", ack.msg);
	ASSERT_EQ(0, mk_tunnel(&t, "P1", "X", 0, "10.53.0.1", NULL, &ack)) TH_LOG("%s", ack.msg);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct nlt w;
		int i;

		if (nlt_open(&w))
			_exit(2);
		for (i = 0; i < 200000; i++) {
			if (del_tunnel(&w, "P1", "X", &ack) ||
			    mk_tunnel(&w, "P2", "Y", 0, "10.53.0.2", NULL, &ack))
				_exit(3);
			if (del_tunnel(&w, "P2", "Y", &ack) ||
			    mk_tunnel(&w, "P1", "X", 0, "10.53.0.1", NULL, &ack))
				_exit(4);
			if (getppid() == 1)
				_exit(0);
		}
		_exit(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		struct nlmsghdr *nlh = req(&t, L2TPSEL_CMD_LOGIN_TEST);
		unsigned int i;

		put_str(nlh, L2TPSEL_A_PROFILE, "P1");
		ASSERT_EQ(0, talk_collect(&t, nlh, &ms, &ack)) TH_LOG("LOGIN_TEST: %s", ack.msg);
		for (i = 0; i < ms.n; i++) {
			const struct nlattr *list, *e, *x;
			struct nlt_attrs at;

			nlt_parse(ms.m[i], &at);
			list = at.tb[L2TPSEL_A_STEPS];
			if (!list)
				continue;
			mnl_attr_for_each_nested(e, list) {
				static const uint8_t want[4] = { 10, 53, 0, 1 };
				const struct nlattr *r = NULL;

				mnl_attr_for_each_nested(x, e)
					if (mnl_attr_get_type(x) == L2TPSEL_A_REMOTE)
						r = x;
				steps++;
				if (!r || mnl_attr_get_payload_len(r) != 4 ||
				    memcmp(mnl_attr_get_payload(r), want, 4))
					wrong++;
			}
		}
		msgs_free(&ms);
		runs++;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - t0.tv_sec < 4 || (steps < 40 && now.tv_sec - t0.tv_sec < 20));
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	th_log("%u dry runs, %u attempts shown, %u not to P1's LNS", runs, steps, wrong);
	EXPECT_EQ(0, wrong) TH_LOG("the dry run mixed a profile version with another moment's destinations");
	EXPECT_GT(steps, 0);
	nlt_close(&t);
}

/* ---- tests: namespaces --------------------------------------------------- */

static uint32_t summary_count(struct nlt *t, int attr)
{
	struct msgs ms = { };
	struct nlt_attrs at;
	struct nlt_ack ack;
	uint32_t v;
	int ret;

	ret = get_one(t, req(t, L2TPSEL_CMD_SUMMARY_GET), &at, &ms, &ack);
	EXPECT_EQ(0, ret);
	v = nlt_u32(&at, attr);
	msgs_free(&ms);
	return v;
}

TEST(netns_isolation)
{
	struct nlt a, b, ev_a, ev_b;
	struct nlt_ack ack;
	struct msgs ms = { };
	struct nlmsghdr *nlh;
	uint8_t admit;
	size_t i;
	int ret;

	fresh_netns();
	open_nl(&a);
	open_nl(&ev_a);
	ASSERT_EQ(0, nlt_subscribe(&ev_a));
	fresh_netns();
	open_nl(&b);
	open_nl(&ev_b);
	ASSERT_EQ(0, nlt_subscribe(&ev_b));

	/* Config, counters, lockouts and events in A. */
	build_state(&a);
	nlh = req(&a, L2TPSEL_CMD_LIMIT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_CHASSIS_LIMIT, 2);
	DO_OK(&a, nlh);
	ret = session_up(&a, 43, L2TPSEL_ROLE_LAC, 9, NULL, NULL, &ack, &admit);
	ASSERT_EQ(0, ret) TH_LOG("%s", ack.msg);
	nlh = req(&a, L2TPSEL_CMD_DEST_LOCK);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.9.0.1");
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_REMAINING, 60000);
	DO_OK(&a, nlh);
	nlh = req(&a, L2TPSEL_CMD_LOCKOUT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_TIME, 77);
	DO_OK(&a, nlh);

	/* A's listener heard them (so they were sent) ... */
	memset(&ack, 0, sizeof(ack));
	nlt_recv(&ev_a, 0, NULL, NULL, &ack, 1000);
	EXPECT_GE(ack.nrecv, 1) TH_LOG("A's listener heard nothing: the test proves nothing");
	/* ... B's heard nothing. */
	memset(&ack, 0, sizeof(ack));
	nlt_recv(&ev_b, 0, NULL, NULL, &ack, 300);
	EXPECT_EQ(0, ack.nrecv) TH_LOG("B's listener received A's events");

	/* B sees none of A's objects, counters or settings. */
	for (i = 0; i < N_SPECS; i++) {
		if (!(specs[i].flags & F_DUMP))
			continue;
		ret = dump(&b, specs[i].cmd, &ms, &ack);
		EXPECT_EQ(0, ret);
		EXPECT_EQ(0, ms.n) TH_LOG("B's %s dump shows A's objects", specs[i].name);
		msgs_free(&ms);
	}
	EXPECT_EQ(0, summary_count(&b, L2TPSEL_A_COUNT));
	EXPECT_EQ(0, summary_count(&b, L2TPSEL_A_N_TUNNELS));
	EXPECT_EQ(0, summary_count(&b, L2TPSEL_A_CHASSIS_LIMIT));
	EXPECT_EQ(0, summary_count(&b, L2TPSEL_A_N_TGROUPS));
	EXPECT_EQ(0, summary_count(&b, L2TPSEL_A_N_CLIENTS));
	EXPECT_EQ(2, summary_count(&a, L2TPSEL_A_COUNT));
	{
		struct nlt_attrs at;

		ret = get_one(&b, req(&b, L2TPSEL_CMD_LOCKOUT_GET), &at, &ms, &ack);
		EXPECT_EQ(300, nlt_u32(&at, L2TPSEL_A_LOCKOUT_TIME)) TH_LOG("B got A's lockout time");
		EXPECT_EQ(0, nlt_u32(&at, L2TPSEL_A_N_LOCKED));
		msgs_free(&ms);
	}
	/* Nor can B change A's: its names do not exist there. */
	nlh = req(&b, L2TPSEL_CMD_PROFILE_DEL);
	put_str(nlh, L2TPSEL_A_NAME, "p1");
	EXPECT_EQ(-ENOENT, talk(&b, nlh, &ack));
	EXPECT_EQ(-ENOENT, session_down(&b, 42, &ack));
	nlh = req(&b, L2TPSEL_CMD_LOCKOUT_CLEAR);
	ret = get_one(&b, nlh, &(struct nlt_attrs){ }, &ms, &ack);
	EXPECT_EQ(0, ret);
	msgs_free(&ms);
	{
		struct nlt_attrs at;

		ret = get_one(&a, req(&a, L2TPSEL_CMD_LOCKOUT_GET), &at, &ms, &ack);
		EXPECT_EQ(1, nlt_u32(&at, L2TPSEL_A_N_LOCKED)) TH_LOG("B's clear unlocked A's dest");
		EXPECT_EQ(77, nlt_u32(&at, L2TPSEL_A_LOCKOUT_TIME));
		msgs_free(&ms);
	}
	EXPECT_EQ(2, summary_count(&a, L2TPSEL_A_COUNT));
	/* Events B causes stay in B. */
	nlh = req(&b, L2TPSEL_CMD_LIMIT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_CHASSIS_LIMIT, 1);
	DO_OK(&b, nlh);
	ret = session_up(&b, 1, L2TPSEL_ROLE_LAC, 1, NULL, NULL, &ack, &admit);
	ASSERT_EQ(0, ret);
	memset(&ack, 0, sizeof(ack));
	nlt_recv(&ev_b, 0, NULL, NULL, &ack, 1000);
	EXPECT_GE(ack.nrecv, 1) TH_LOG("B's own limit event did not come");
	memset(&ack, 0, sizeof(ack));
	nlt_recv(&ev_a, 0, NULL, NULL, &ack, 300);
	EXPECT_EQ(0, ack.nrecv) TH_LOG("A's listener received B's event");
}

/* ---- tests: notifications ----------------------------------------------- */

struct expect_ev {
	uint8_t cmd;
	uint64_t attrs[2];	/* exactly these attribute types */
};

/* The next event on @ev (waiting up to @ms_wait ms), parsed in @at. */
static bool next_event(struct nlt *ev, struct msgs *ms, struct nlt_attrs *at, int ms_wait)
{
	while (ms->rd == ms->n)
		if (!nlt_recv_one(ev, collect_cb, ms, ms_wait))
			return false;
	nlt_parse(ms->m[ms->rd++], at);
	return true;
}

/* Events come in seq 0: nlt_recv's filter keeps only those. */
#define EVENT_IS(cmd_, ...) do {						\
	static const uint16_t __want[] = { __VA_ARGS__ };			\
	uint64_t __w[2] = { 0, 0 };						\
	char __got[256], __exp[256];						\
	struct nlt_attrs __x;							\
	size_t __i;								\
	for (__i = 0; __i < sizeof(__want) / sizeof(__want[0]); __i++)		\
		__w[__want[__i] / 64] |= nlt_bit(__want[__i]);			\
	ASSERT_TRUE(next_event(&ev, &evs, &at, 3000))				\
		TH_LOG("expected event %s, nothing came", #cmd_);		\
	EXPECT_EQ(cmd_, at.cmd) TH_LOG("expected event %s", #cmd_);		\
	memset(&__x, 0, sizeof(__x));						\
	__x.seen[0] = __w[0];							\
	__x.seen[1] = __w[1];							\
	nlt_types(&at, __got, sizeof(__got));					\
	nlt_types(&__x, __exp, sizeof(__exp));					\
	EXPECT_TRUE(at.seen[0] == __w[0] && at.seen[1] == __w[1] && !at.dups && !at.unknown) \
		TH_LOG("%s: expected attributes [%s], got [%s]", #cmd_, __exp, __got); \
} while (0)

static bool ip_is(const struct nlt_attrs *at, int type, const char *ip)
{
	struct in_addr a;

	inet_pton(AF_INET, ip, &a);
	return at->tb[type] && mnl_attr_get_payload_len(at->tb[type]) == 4 &&
	       !memcmp(mnl_attr_get_payload(at->tb[type]), &a, 4);
}

TEST(events_lockout_start_end_clear)
{
	struct nlt t, ev;
	struct nlt_ack ack;
	struct msgs ms = { }, evs = { };
	struct nlt_attrs at;
	struct nlmsghdr *nlh;
	struct timespec t0, t1;
	long el;

	fresh_netns();
	open_nl(&t);
	open_nl(&ev);
	ASSERT_EQ(0, nlt_subscribe(&ev));
	ASSERT_EQ(0, mk_profile(&t, "p1", &ack));
	ASSERT_EQ(0, mk_tunnel(&t, "p1", "t1", 0, "10.9.0.1", "pw", &ack)) TH_LOG("%s", ack.msg);
	nlh = req(&t, L2TPSEL_CMD_TUNNEL_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "t2");
	put_str(nlh, L2TPSEL_A_PROFILE, "p1");
	mnl_attr_put_u8(nlh, L2TPSEL_A_SEL_LEVEL, 1);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.9.0.3");
	put_ip4(nlh, L2TPSEL_A_LOCAL, "10.9.0.4");
	mnl_attr_put_u16(nlh, L2TPSEL_A_PORT, 1702);
	DO_OK(&t, nlh);

	/* By hand, with LOCAL set: LOCKOUT has REMOTE PORT LOCAL LOCKOUT_REMAINING. */
	nlh = req(&t, L2TPSEL_CMD_DEST_LOCK);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.9.0.3");
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_REMAINING, 5000);
	DO_OK(&t, nlh);
	EVENT_IS(L2TPSEL_CMD_EV_LOCKOUT, L2TPSEL_A_REMOTE, L2TPSEL_A_PORT, L2TPSEL_A_LOCAL,
		 L2TPSEL_A_LOCKOUT_REMAINING);
	EXPECT_TRUE(ip_is(&at, L2TPSEL_A_REMOTE, "10.9.0.3"));
	EXPECT_TRUE(ip_is(&at, L2TPSEL_A_LOCAL, "10.9.0.4"));
	EXPECT_EQ(1702, at.tb[L2TPSEL_A_PORT] ? mnl_attr_get_u16(at.tb[L2TPSEL_A_PORT]) : 0);
	EXPECT_EQ(5000, nlt_u32(&at, L2TPSEL_A_LOCKOUT_REMAINING));

	/* Cleared by LOCKOUT_CLEAR: UNLOCK with UNLOCK_WHY CLEAR. */
	nlh = req(&t, L2TPSEL_CMD_LOCKOUT_CLEAR);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.9.0.3");
	ASSERT_EQ(0, get_one(&t, nlh, &at, &ms, &ack));
	EXPECT_EQ(1, nlt_u32(&at, L2TPSEL_A_N_LOCKED));
	msgs_free(&ms);
	EVENT_IS(L2TPSEL_CMD_EV_UNLOCK, L2TPSEL_A_REMOTE, L2TPSEL_A_PORT, L2TPSEL_A_LOCAL,
		 L2TPSEL_A_UNLOCK_WHY);
	EXPECT_EQ(L2TPSEL_UNLOCK_CLEAR, nlt_u8(&at, L2TPSEL_A_UNLOCK_WHY));

	/* Unlocked by DEST_LOCK 0: UNLOCK CLEAR too. */
	nlh = req(&t, L2TPSEL_CMD_DEST_LOCK);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.9.0.1");
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_REMAINING, 5000);
	DO_OK(&t, nlh);
	EVENT_IS(L2TPSEL_CMD_EV_LOCKOUT, L2TPSEL_A_REMOTE, L2TPSEL_A_PORT,
		 L2TPSEL_A_LOCKOUT_REMAINING);
	EXPECT_EQ(1701, at.tb[L2TPSEL_A_PORT] ? mnl_attr_get_u16(at.tb[L2TPSEL_A_PORT]) : 0);
	nlh = req(&t, L2TPSEL_CMD_DEST_LOCK);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.9.0.1");
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_REMAINING, 0);
	DO_OK(&t, nlh);
	EVENT_IS(L2TPSEL_CMD_EV_UNLOCK, L2TPSEL_A_REMOTE, L2TPSEL_A_PORT, L2TPSEL_A_UNLOCK_WHY);
	EXPECT_EQ(L2TPSEL_UNLOCK_CLEAR, nlt_u8(&at, L2TPSEL_A_UNLOCK_WHY));

	/* Expiry: the timer sends UNLOCK EXPIRED at the deadline, not before. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	nlh = req(&t, L2TPSEL_CMD_DEST_LOCK);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.9.0.1");
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_REMAINING, 400);
	DO_OK(&t, nlh);
	EVENT_IS(L2TPSEL_CMD_EV_LOCKOUT, L2TPSEL_A_REMOTE, L2TPSEL_A_PORT,
		 L2TPSEL_A_LOCKOUT_REMAINING);
	EXPECT_EQ(400, nlt_u32(&at, L2TPSEL_A_LOCKOUT_REMAINING));
	EVENT_IS(L2TPSEL_CMD_EV_UNLOCK, L2TPSEL_A_REMOTE, L2TPSEL_A_PORT, L2TPSEL_A_UNLOCK_WHY);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	el = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	EXPECT_EQ(L2TPSEL_UNLOCK_EXPIRED, nlt_u8(&at, L2TPSEL_A_UNLOCK_WHY));
	EXPECT_GE(el, 400) TH_LOG("the lockout ended after %ld ms, before its 400 ms", el);
	th_log("a 400 ms lockout ended after %ld ms", el);
	/* Nothing else. */
	EXPECT_FALSE(next_event(&ev, &evs, &at, 200)) TH_LOG("an extra event, command %u", at.cmd);
	msgs_free(&evs);
}

TEST(events_login_outcome_and_failure_lockout)
{
	struct nlt t, ev;
	struct nlt_ack ack;
	struct msgs ms = { }, evs = { };
	struct nlt_attrs at;
	struct nlmsghdr *nlh;
	uint32_t id;

	fresh_netns();
	open_nl(&t);
	open_nl(&ev);
	ASSERT_EQ(0, nlt_subscribe(&ev));
	ASSERT_EQ(0, mk_profile(&t, "p1", &ack));
	ASSERT_EQ(0, mk_tunnel(&t, "p1", "t1", 0, "10.9.0.1", SECRET, &ack));
	nlh = req(&t, L2TPSEL_CMD_LOCKOUT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_TIME, 60);
	DO_OK(&t, nlh);

	/* A login whose only attempt gets no reply: LOCKOUT, then LOGIN failed. */
	nlh = req(&t, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_PROFILE, "p1");
	ASSERT_EQ(0, get_one(&t, nlh, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	ASSERT_EQ(L2TPSEL_STEP_ATTEMPT, nlt_u8(&at, L2TPSEL_A_STEP));
	id = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);
	msgs_free(&ms);
	nlh = req(&t, L2TPSEL_CMD_LOGIN_REPORT);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, id);
	mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_NO_REPLY);
	ASSERT_EQ(0, get_one(&t, nlh, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(L2TPSEL_STEP_DONE, nlt_u8(&at, L2TPSEL_A_STEP));
	EXPECT_EQ(0, nlt_u8(&at, L2TPSEL_A_OK));
	msgs_free(&ms);
	EVENT_IS(L2TPSEL_CMD_EV_LOCKOUT, L2TPSEL_A_REMOTE, L2TPSEL_A_PORT,
		 L2TPSEL_A_LOCKOUT_REMAINING);
	EXPECT_EQ(60000, nlt_u32(&at, L2TPSEL_A_LOCKOUT_REMAINING));
	EVENT_IS(L2TPSEL_CMD_EV_LOGIN, L2TPSEL_A_LOGIN_ID, L2TPSEL_A_PROFILE, L2TPSEL_A_OK,
		 L2TPSEL_A_WHY);
	EXPECT_EQ(id, nlt_u32(&at, L2TPSEL_A_LOGIN_ID));
	EXPECT_STREQ("p1", nlt_str(&at, L2TPSEL_A_PROFILE));
	EXPECT_EQ(0, nlt_u8(&at, L2TPSEL_A_OK));
	EXPECT_EQ(L2TPSEL_WHY_EXHAUSTED, nlt_u8(&at, L2TPSEL_A_WHY));

	/* The next login finds it locked and not contacted: unlocked (DLNC), tried, OK. */
	nlh = req(&t, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_PROFILE, "p1");
	ASSERT_EQ(0, get_one(&t, nlh, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	ASSERT_EQ(L2TPSEL_STEP_ATTEMPT, nlt_u8(&at, L2TPSEL_A_STEP));
	id = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);
	msgs_free(&ms);
	EVENT_IS(L2TPSEL_CMD_EV_UNLOCK, L2TPSEL_A_REMOTE, L2TPSEL_A_PORT, L2TPSEL_A_UNLOCK_WHY);
	EXPECT_EQ(L2TPSEL_UNLOCK_DLNC, nlt_u8(&at, L2TPSEL_A_UNLOCK_WHY));
	nlh = req(&t, L2TPSEL_CMD_LOGIN_REPORT);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, id);
	mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_OK);
	put_ok_session(nlh);
	ASSERT_EQ(0, get_one(&t, nlh, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(1, nlt_u8(&at, L2TPSEL_A_OK));
	msgs_free(&ms);
	EVENT_IS(L2TPSEL_CMD_EV_LOGIN, L2TPSEL_A_LOGIN_ID, L2TPSEL_A_PROFILE, L2TPSEL_A_OK,
		 L2TPSEL_A_WHY, L2TPSEL_A_NAME);
	EXPECT_EQ(id, nlt_u32(&at, L2TPSEL_A_LOGIN_ID));
	EXPECT_EQ(1, nlt_u8(&at, L2TPSEL_A_OK));
	EXPECT_EQ(L2TPSEL_WHY_NONE, nlt_u8(&at, L2TPSEL_A_WHY));
	EXPECT_STREQ("t1", nlt_str(&at, L2TPSEL_A_NAME));
	EXPECT_STREQ("p1", nlt_str(&at, L2TPSEL_A_PROFILE));

	/* A login left in progress ends when its socket closes: no event, no login left. */
	nlh = req(&t, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_PROFILE, "p1");
	ASSERT_EQ(0, get_one(&t, nlh, &at, &ms, &ack));
	msgs_free(&ms);
	nlt_close(&t);
	open_nl(&t);
	ASSERT_EQ(0, get_one(&t, req(&t, L2TPSEL_CMD_LOCKOUT_GET), &at, &ms, &ack));
	EXPECT_EQ(0, nlt_u32(&at, L2TPSEL_A_N_LOGINS)) TH_LOG("a closed socket's login is still held");
	msgs_free(&ms);
	if (next_event(&ev, &evs, &at, 200))
		th_log("a login freed by its socket's close sent event %u", at.cmd);
	else
		th_log("a login freed by its socket's close sends no event");
	msgs_free(&evs);
}

TEST(events_limit_reached_cleared)
{
	struct nlt t, ev;
	struct nlt_ack ack;
	struct msgs evs = { };
	struct nlt_attrs at;
	struct nlmsghdr *nlh;
	uint8_t admit;

	fresh_netns();
	open_nl(&t);
	open_nl(&ev);
	ASSERT_EQ(0, nlt_subscribe(&ev));

	/* Chassis: LEVEL CHASSIS, LIMIT, COUNT; no NAME, no TUNNEL_ID. */
	nlh = req(&t, L2TPSEL_CMD_LIMIT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_CHASSIS_LIMIT, 2);
	DO_OK(&t, nlh);
	ASSERT_EQ(0, session_up(&t, 1, L2TPSEL_ROLE_LAC, 10, NULL, NULL, &ack, &admit));
	EXPECT_FALSE(next_event(&ev, &evs, &at, 200)) TH_LOG("an event below the limit, command %u",
							     at.cmd);
	ASSERT_EQ(0, session_up(&t, 2, L2TPSEL_ROLE_LAC, 11, NULL, NULL, &ack, &admit));
	EVENT_IS(L2TPSEL_CMD_EV_LIMIT_REACHED, L2TPSEL_A_LEVEL, L2TPSEL_A_LIMIT, L2TPSEL_A_COUNT);
	EXPECT_EQ(L2TPSEL_LEVEL_CHASSIS, nlt_u8(&at, L2TPSEL_A_LEVEL));
	EXPECT_EQ(2, nlt_u32(&at, L2TPSEL_A_LIMIT));
	EXPECT_EQ(2, nlt_u32(&at, L2TPSEL_A_COUNT));
	ASSERT_EQ(0, session_down(&t, 2, &ack));
	EVENT_IS(L2TPSEL_CMD_EV_LIMIT_CLEARED, L2TPSEL_A_LEVEL, L2TPSEL_A_LIMIT, L2TPSEL_A_COUNT);
	EXPECT_EQ(L2TPSEL_LEVEL_CHASSIS, nlt_u8(&at, L2TPSEL_A_LEVEL));
	EXPECT_EQ(1, nlt_u32(&at, L2TPSEL_A_COUNT));
	ASSERT_EQ(0, session_down(&t, 1, &ack));
	nlh = req(&t, L2TPSEL_CMD_LIMIT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_CHASSIS_LIMIT, 0);
	DO_OK(&t, nlh);

	/* Tunnel: TUNNEL_ID too. */
	nlh = req(&t, L2TPSEL_CMD_LIMIT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_LIMIT, 1);
	DO_OK(&t, nlh);
	ASSERT_EQ(0, session_up(&t, 3, L2TPSEL_ROLE_LAC, 77, NULL, NULL, &ack, &admit));
	EVENT_IS(L2TPSEL_CMD_EV_LIMIT_REACHED, L2TPSEL_A_LEVEL, L2TPSEL_A_TUNNEL_ID, L2TPSEL_A_LIMIT,
		 L2TPSEL_A_COUNT);
	EXPECT_EQ(L2TPSEL_LEVEL_TUNNEL, nlt_u8(&at, L2TPSEL_A_LEVEL));
	EXPECT_EQ(77, nlt_u32(&at, L2TPSEL_A_TUNNEL_ID));
	EXPECT_EQ(1, nlt_u32(&at, L2TPSEL_A_COUNT));
	ASSERT_EQ(0, session_down(&t, 3, &ack));
	EVENT_IS(L2TPSEL_CMD_EV_LIMIT_CLEARED, L2TPSEL_A_LEVEL, L2TPSEL_A_TUNNEL_ID,
		 L2TPSEL_A_LIMIT, L2TPSEL_A_COUNT);
	EXPECT_EQ(77, nlt_u32(&at, L2TPSEL_A_TUNNEL_ID));
	EXPECT_EQ(0, nlt_u32(&at, L2TPSEL_A_COUNT));
	nlh = req(&t, L2TPSEL_CMD_LIMIT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_LIMIT, 0);
	DO_OK(&t, nlh);

	/* Tunnel group and client (LNS): NAME. */
	nlh = req(&t, L2TPSEL_CMD_TGROUP_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "tg1");
	mnl_attr_put_u32(nlh, L2TPSEL_A_LIMIT, 1);
	DO_OK(&t, nlh);
	ASSERT_EQ(0, session_up(&t, 4, L2TPSEL_ROLE_LNS, 5, "tg1", NULL, &ack, &admit));
	EVENT_IS(L2TPSEL_CMD_EV_LIMIT_REACHED, L2TPSEL_A_LEVEL, L2TPSEL_A_NAME, L2TPSEL_A_LIMIT,
		 L2TPSEL_A_COUNT);
	EXPECT_EQ(L2TPSEL_LEVEL_TGROUP, nlt_u8(&at, L2TPSEL_A_LEVEL));
	EXPECT_STREQ("tg1", nlt_str(&at, L2TPSEL_A_NAME));
	nlh = req(&t, L2TPSEL_CMD_CLIENT_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "c1");
	mnl_attr_put_u32(nlh, L2TPSEL_A_LIMIT, 1);
	DO_OK(&t, nlh);
	ASSERT_EQ(0, session_up(&t, 5, L2TPSEL_ROLE_LNS, 5, NULL, "c1", &ack, &admit));
	EVENT_IS(L2TPSEL_CMD_EV_LIMIT_REACHED, L2TPSEL_A_LEVEL, L2TPSEL_A_NAME, L2TPSEL_A_LIMIT,
		 L2TPSEL_A_COUNT);
	EXPECT_EQ(L2TPSEL_LEVEL_CLIENT, nlt_u8(&at, L2TPSEL_A_LEVEL));
	EXPECT_STREQ("c1", nlt_str(&at, L2TPSEL_A_NAME));
	ASSERT_EQ(0, session_down(&t, 5, &ack));
	EVENT_IS(L2TPSEL_CMD_EV_LIMIT_CLEARED, L2TPSEL_A_LEVEL, L2TPSEL_A_NAME, L2TPSEL_A_LIMIT,
		 L2TPSEL_A_COUNT);
	EXPECT_STREQ("c1", nlt_str(&at, L2TPSEL_A_NAME));
	EXPECT_FALSE(next_event(&ev, &evs, &at, 200)) TH_LOG("an extra event, command %u", at.cmd);
	msgs_free(&evs);
}

TEST(events_throttle)
{
	struct nlt t, ev;
	struct msgs evs = { };
	struct nlt_attrs at;
	struct nlmsghdr *nlh;
	struct nlattr *n, *b;

	fresh_netns();
	open_nl(&t);
	open_nl(&ev);
	ASSERT_EQ(0, nlt_subscribe(&ev));
	nlh = req(&t, L2TPSEL_CMD_THROTTLE_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "th1");
	mnl_attr_put_u32(nlh, L2TPSEL_A_RL_HOLD, 60000);
	mnl_attr_put_u8(nlh, L2TPSEL_A_RL_STEP, 10);
	n = mnl_attr_nest_start(nlh, L2TPSEL_A_RL_BANDS);
	b = mnl_attr_nest_start(nlh, L2TPSEL_A_RL_BAND);
	mnl_attr_put_u8(nlh, L2TPSEL_A_RL_BAND_LOAD, 50);
	mnl_attr_put_u8(nlh, L2TPSEL_A_RL_BAND_PERCENT, 30);
	mnl_attr_nest_end(nlh, b);
	mnl_attr_nest_end(nlh, n);
	DO_OK(&t, nlh);
	nlh = req(&t, L2TPSEL_CMD_RL_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "r1");
	mnl_attr_put_u32(nlh, L2TPSEL_A_RL_RATE, 100);
	mnl_attr_put_u32(nlh, L2TPSEL_A_RL_BURST, 10);
	put_str(nlh, L2TPSEL_A_RL_THROTTLE, "th1");
	DO_OK(&t, nlh);
	nlh = req(&t, L2TPSEL_CMD_THROTTLE_LOAD);
	mnl_attr_put_u8(nlh, L2TPSEL_A_RL_LOAD, 70);
	DO_OK(&t, nlh);
	EVENT_IS(L2TPSEL_CMD_EV_THROTTLE, L2TPSEL_A_NAME, L2TPSEL_A_RL_LOAD, L2TPSEL_A_RL_PERCENT,
		 L2TPSEL_A_RL_USERS);
	EXPECT_STREQ("th1", nlt_str(&at, L2TPSEL_A_NAME));
	EXPECT_EQ(70, nlt_u8(&at, L2TPSEL_A_RL_LOAD));
	EXPECT_EQ(30, nlt_u8(&at, L2TPSEL_A_RL_PERCENT));
	EXPECT_EQ(1, nlt_u32(&at, L2TPSEL_A_RL_USERS));
	/* The same band again changes nothing: no event. */
	nlh = req(&t, L2TPSEL_CMD_THROTTLE_LOAD);
	mnl_attr_put_u8(nlh, L2TPSEL_A_RL_LOAD, 80);
	DO_OK(&t, nlh);
	EXPECT_FALSE(next_event(&ev, &evs, &at, 200)) TH_LOG("an event without a change, command %u",
							     at.cmd);
	msgs_free(&evs);
}

/*
 * Refusals from many processes at once in one namespace: each must come
 * back with its own message (the module formats messages into a buffer of
 * the sending thread on 6.1, which has no NL_SET_ERR_MSG_FMT; two threads
 * on one socket are extack_race.c).
 */
#define CONC_PROCS	8
#define CONC_REQS	1000

TEST(extack_messages_under_concurrency)
{
	unsigned int *wrong = mmap(NULL, sizeof(unsigned int) * CONC_PROCS,
				   PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned int total = 0;
	pid_t pids[CONC_PROCS];
	int i, st;

	ASSERT_TRUE(wrong != MAP_FAILED);
	fresh_netns();
	for (i = 0; i < CONC_PROCS; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			struct nlt t;
			struct nlt_ack ack;
			char name[32], want[96];
			int k;

			if (nlt_open(&t))
				_exit(2);
			for (k = 0; k < CONC_REQS; k++) {
				struct nlmsghdr *nlh = req(&t, L2TPSEL_CMD_PROFILE_GET);

				/* Names of different lengths: a message overwritten by another's shows. */
				snprintf(name, sizeof(name), "w%d-%0*d", i, 1 + (k + i) % 20, k);
				put_str(nlh, L2TPSEL_A_NAME, name);
				talk(&t, nlh, &ack);
				snprintf(want, sizeof(want), "profile %s does not exist", name);
				if (ack.err != -ENOENT || strcmp(ack.msg, want)) {
					if (wrong[i]++ < 3)
						th_log("worker %d: expected -ENOENT \"%s\", got %d \"%s\"",
						       i, want, ack.err, ack.msg);
				}
			}
			_exit(0);
		}
	}
	for (i = 0; i < CONC_PROCS; i++) {
		waitpid(pids[i], &st, 0);
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		total += wrong[i];
	}
	EXPECT_EQ(0, total) TH_LOG("%u of %u refusals came back with another request's message",
				  total, CONC_PROCS * CONC_REQS);
	th_log("%u refusals from %d processes at once, %u with a wrong message", CONC_PROCS * CONC_REQS,
	       CONC_PROCS, total);
}

/* ---- a login's own tunnel set (LOGIN_BEGIN TUNNELS, S-OBJ-4, S-RAD-2) ---- */

struct set_entry {
	const char *name;
	uint8_t level;
	const char *remote;
	uint32_t max_sessions;
	const char *secret;
};

static void put_set(struct nlmsghdr *nlh, const struct set_entry *e, unsigned int n)
{
	struct nlattr *list = mnl_attr_nest_start(nlh, L2TPSEL_A_TUNNELS), *one;
	unsigned int i;

	for (i = 0; i < n; i++) {
		one = mnl_attr_nest_start(nlh, L2TPSEL_A_TUNNEL_ENTRY);
		if (e[i].name)
			put_str(nlh, L2TPSEL_A_NAME, e[i].name);
		mnl_attr_put_u8(nlh, L2TPSEL_A_SEL_LEVEL, e[i].level);
		if (e[i].remote)
			put_ip4(nlh, L2TPSEL_A_REMOTE, e[i].remote);
		if (e[i].max_sessions)
			mnl_attr_put_u32(nlh, L2TPSEL_A_MAX_SESSIONS, e[i].max_sessions);
		if (e[i].secret)
			put_str(nlh, L2TPSEL_A_SECRET, e[i].secret);
		mnl_attr_nest_end(nlh, one);
	}
	mnl_attr_nest_end(nlh, list);
}

/* LOGIN_BEGIN with a tunnel set; the first step parsed into @at (kept in @ms). */
static int begin_set(struct nlt *t, const struct set_entry *e, unsigned int n,
		     struct nlt_attrs *at, struct msgs *ms, struct nlt_ack *ack)
{
	struct nlmsghdr *nlh = req(t, L2TPSEL_CMD_LOGIN_BEGIN);

	put_str(nlh, L2TPSEL_A_USER, "radius@set.example");
	put_set(nlh, e, n);
	return get_one(t, nlh, at, ms, ack);
}

static int report(struct nlt *t, uint32_t id, uint8_t outcome, struct nlt_attrs *at,
		  struct msgs *ms, struct nlt_ack *ack)
{
	struct nlmsghdr *nlh = req(t, L2TPSEL_CMD_LOGIN_REPORT);

	mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, id);
	mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, outcome);
	if (outcome == L2TPSEL_OUTCOME_OK)
		put_ok_session(nlh);
	return get_one(t, nlh, at, ms, ack);
}

/* The destination with remote @remote in a DEST_GET dump: its attributes, or false. */
static bool dest_of(struct nlt *t, const char *remote, struct nlt_attrs *at, struct msgs *ms)
{
	struct nlt_ack ack;
	struct in_addr want;
	unsigned int i;

	inet_pton(AF_INET, remote, &want);
	msgs_free(ms);
	if (dump(t, L2TPSEL_CMD_DEST_GET, ms, &ack))
		return false;
	for (i = 0; i < ms->n; i++) {
		nlt_parse(ms->m[i], at);
		if (at->tb[L2TPSEL_A_REMOTE] &&
		    mnl_attr_get_payload_len(at->tb[L2TPSEL_A_REMOTE]) == 4 &&
		    !memcmp(mnl_attr_get_payload(at->tb[L2TPSEL_A_REMOTE]), &want, 4))
			return true;
	}
	return false;
}

/* How many profiles a dump shows with DYNAMIC 1. */
static unsigned int n_sets(struct nlt *t)
{
	struct msgs ms = { };
	struct nlt_attrs at;
	struct nlt_ack ack;
	unsigned int i, n = 0;

	if (dump(t, L2TPSEL_CMD_PROFILE_GET, &ms, &ack))
		return 9999;
	for (i = 0; i < ms.n; i++) {
		nlt_parse(ms.m[i], &at);
		n += nlt_u8(&at, L2TPSEL_A_DYNAMIC) == 1;
	}
	msgs_free(&ms);
	return n;
}

TEST(login_tunnel_set_shares_destinations)
{
	static const struct set_entry set[] = {
		{ "tag1", 0, "10.9.0.1", 0, "s1" }, { "tag2", 1, "10.9.0.7", 2, NULL } };
	static const struct set_entry same[] = { set[1], set[0] };
	struct msgs ms = { }, ds = { };
	struct nlt_attrs at, d;
	struct nlmsghdr *nlh;
	struct nlt_ack ack;
	struct nlt t;
	char set_name[32];
	uint64_t set_key = 0;
	uint32_t id;

	fresh_netns();
	open_nl(&t);
	ASSERT_EQ(0, mk_profile(&t, "p1", &ack));
	ASSERT_EQ(0, mk_tunnel(&t, "p1", "t1", 0, "10.9.0.1", NULL, &ack));
	nlh = req(&t, L2TPSEL_CMD_LOCKOUT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_TIME, 60);
	DO_OK(&t, nlh);

	/* The first attempt: the level-0 tunnel of the set, in a profile "~N". */
	ASSERT_EQ(0, begin_set(&t, set, 2, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	ASSERT_EQ(L2TPSEL_STEP_ATTEMPT, nlt_u8(&at, L2TPSEL_A_STEP));
	ASSERT_TRUE(nlt_str(&at, L2TPSEL_A_PROFILE) && nlt_str(&at, L2TPSEL_A_PROFILE)[0] == '~');
	snprintf(set_name, sizeof(set_name), "%s", nlt_str(&at, L2TPSEL_A_PROFILE));
	EXPECT_STREQ("tag1", nlt_str(&at, L2TPSEL_A_NAME));
	EXPECT_EQ(1, nlt_u8(&at, L2TPSEL_A_HAS_SECRET));
	id = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);
	msgs_free(&ms);
	/* One destination for the configured tunnel and the set's (S-OBJ-1). */
	ASSERT_TRUE(dest_of(&t, "10.9.0.1", &d, &ds));
	EXPECT_EQ(2, nlt_u32(&d, L2TPSEL_A_N_TUNNELS));

	/* No reply: the shared destination is locked, the login fails over to level 1. */
	ASSERT_EQ(0, report(&t, id, L2TPSEL_OUTCOME_NO_REPLY, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	ASSERT_EQ(L2TPSEL_STEP_ATTEMPT, nlt_u8(&at, L2TPSEL_A_STEP));
	EXPECT_STREQ("tag2", nlt_str(&at, L2TPSEL_A_NAME));
	EXPECT_EQ(1, nlt_u8(&at, L2TPSEL_A_SEL_LEVEL));
	msgs_free(&ms);
	ASSERT_TRUE(dest_of(&t, "10.9.0.1", &d, &ds));
	EXPECT_GT(nlt_u32(&d, L2TPSEL_A_LOCKOUT_REMAINING), 50000);
	EXPECT_EQ(1, nlt_u32(&d, L2TPSEL_A_FAILURES));
	ASSERT_EQ(0, report(&t, id, L2TPSEL_OUTCOME_OK, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	set_key = ok_key;
	EXPECT_EQ(L2TPSEL_STEP_DONE, nlt_u8(&at, L2TPSEL_A_STEP));
	EXPECT_EQ(1, nlt_u8(&at, L2TPSEL_A_OK));
	EXPECT_STREQ("tag2", nlt_str(&at, L2TPSEL_A_NAME));
	EXPECT_STREQ(set_name, nlt_str(&at, L2TPSEL_A_PROFILE));
	msgs_free(&ms);
	ASSERT_TRUE(dest_of(&t, "10.9.0.7", &d, &ds));
	EXPECT_EQ(1, nlt_u32(&d, L2TPSEL_A_SESSIONS));

	/* The same entries in another order: the same set, its counts held across logins. */
	ASSERT_EQ(0, begin_set(&t, same, 2, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_STREQ(set_name, nlt_str(&at, L2TPSEL_A_PROFILE));
	id = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);
	msgs_free(&ms);
	EXPECT_EQ(1, n_sets(&t));
	ASSERT_EQ(0, report(&t, id, L2TPSEL_OUTCOME_CLIENT_GONE, &at, &ms, &ack));
	msgs_free(&ms);
	/*
	 * The module keeps no secret (l2tpseld holds them): another secret is
	 * the same set, an entry without one another set.
	 */
	{
		struct set_entry other[] = { set[0], set[1] };

		other[0].secret = "s2";
		ASSERT_EQ(0, begin_set(&t, other, 2, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
		EXPECT_STREQ(set_name, nlt_str(&at, L2TPSEL_A_PROFILE) ?: "-");
		id = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);
		msgs_free(&ms);
		EXPECT_EQ(1, n_sets(&t));
		ASSERT_EQ(0, report(&t, id, L2TPSEL_OUTCOME_CLIENT_GONE, &at, &ms, &ack));
		msgs_free(&ms);
		other[0].secret = NULL;
		ASSERT_EQ(0, begin_set(&t, other, 2, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
		EXPECT_NE(0, strcmp(set_name, nlt_str(&at, L2TPSEL_A_PROFILE) ?: set_name));
		id = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);
		msgs_free(&ms);
		EXPECT_EQ(2, n_sets(&t));
		ASSERT_EQ(0, report(&t, id, L2TPSEL_OUTCOME_CLIENT_GONE, &at, &ms, &ack));
		msgs_free(&ms);
	}

	/* The kernel's own: not changed, deleted, mapped or named by a login. */
	nlh = req(&t, L2TPSEL_CMD_PROFILE_DEL);
	put_str(nlh, L2TPSEL_A_NAME, set_name);
	EXPECT_EQ(-EPERM, talk(&t, nlh, &ack));
	EXPECT_NE(NULL, strstr(ack.msg, "own tunnel set")) TH_LOG("message: %s", ack.msg);
	nlh = req(&t, L2TPSEL_CMD_PROFILE_SET);
	put_str(nlh, L2TPSEL_A_NAME, set_name);
	mnl_attr_put_u8(nlh, L2TPSEL_A_LB, L2TPSEL_LB_HASH);
	EXPECT_EQ(-EPERM, talk(&t, nlh, &ack));
	EXPECT_EQ(-EPERM, mk_tunnel(&t, set_name, "t9", 0, "10.9.0.9", NULL, &ack));
	EXPECT_EQ(-EPERM, del_tunnel(&t, set_name, "tag1", &ack));
	EXPECT_EQ(-EINVAL, mk_profile(&t, "~x", &ack));
	EXPECT_NE(NULL, strstr(ack.msg, "beginning with ~")) TH_LOG("message: %s", ack.msg);
	nlh = req(&t, L2TPSEL_CMD_DOMAIN_NEW);
	put_str(nlh, L2TPSEL_A_DOMAIN, "d.example");
	put_str(nlh, L2TPSEL_A_PROFILE, set_name);
	EXPECT_EQ(-EINVAL, talk(&t, nlh, &ack));
	nlh = req(&t, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_PROFILE, set_name);
	EXPECT_EQ(-EINVAL, talk(&t, nlh, &ack));
	nlh = req(&t, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_PROFILE, "p1");
	put_set(nlh, set, 2);
	EXPECT_EQ(-EINVAL, talk(&t, nlh, &ack));
	EXPECT_NE(NULL, strstr(ack.msg, "exclude")) TH_LOG("message: %s", ack.msg);

	/* Bad entries: refused with the entry named, and no set left behind. */
	{
		struct set_entry bad[32];
		unsigned int i;

		memcpy(bad, set, sizeof(set));
		bad[1].remote = NULL;
		EXPECT_EQ(-EINVAL, begin_set(&t, bad, 2, &at, &ms, &ack));
		EXPECT_STREQ("TUNNELS entry 1: missing attribute REMOTE", ack.msg);
		msgs_free(&ms);
		bad[1] = set[1];
		bad[1].level = 9;
		EXPECT_EQ(-EINVAL, begin_set(&t, bad, 2, &at, &ms, &ack));
		EXPECT_NE(NULL, strstr(ack.msg, "TUNNELS entry 1: tunnel tag2: level 9"))
			TH_LOG("message: %s", ack.msg);
		msgs_free(&ms);
		bad[1] = set[1];
		bad[1].name = "tag1";
		EXPECT_EQ(-EEXIST, begin_set(&t, bad, 2, &at, &ms, &ack));
		msgs_free(&ms);
		for (i = 0; i < 32; i++) {
			static char names[32][8];

			snprintf(names[i], sizeof(names[i]), "n%u", i);
			bad[i] = set[0];
			bad[i].name = names[i];
		}
		EXPECT_EQ(-EINVAL, begin_set(&t, bad, 32, &at, &ms, &ack));
		EXPECT_STREQ("at most 31 TUNNELS entries", ack.msg);
		msgs_free(&ms);
		EXPECT_EQ(-EINVAL, begin_set(&t, bad, 0, &at, &ms, &ack));
		msgs_free(&ms);
		EXPECT_EQ(2, n_sets(&t)) TH_LOG("a refused set was left behind");
	}

	/* The session ends; after the lockout time unused sets go at the next login. */
	EXPECT_EQ(0, session_down(&t, set_key, &ack)) TH_LOG("%s", ack.msg);
	nlh = req(&t, L2TPSEL_CMD_LOCKOUT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOCKOUT_TIME, 1);
	DO_OK(&t, nlh);
	EXPECT_EQ(2, n_sets(&t)) TH_LOG("a set went before its lockout time");
	usleep(1200 * 1000);
	nlh = req(&t, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_PROFILE, "p1");
	ASSERT_EQ(0, get_one(&t, nlh, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	msgs_free(&ms);
	EXPECT_EQ(0, n_sets(&t));
	EXPECT_FALSE(dest_of(&t, "10.9.0.7", &d, &ds)) TH_LOG("the set's own destination stayed");
	ASSERT_TRUE(dest_of(&t, "10.9.0.1", &d, &ds));
	EXPECT_EQ(1, nlt_u32(&d, L2TPSEL_A_N_TUNNELS));
	msgs_free(&ds);
	nlt_close(&t);
}

/* max_tunnel_sets: sets in use are never taken; an idle one makes room. */
TEST(login_tunnel_set_bound)
{
	static const char *const remotes[] = { "10.9.1.1", "10.9.1.2", "10.9.1.3" };
	const char *param = "/sys/module/l2tpsel/parameters/max_tunnel_sets";
	struct set_entry e = { "tag1", 0, NULL, 0, NULL };
	struct msgs ms = { };
	struct nlt_attrs at;
	struct nlt_ack ack;
	struct nlt t;
	uint32_t id[3];
	char old[32] = "";
	FILE *f;
	int i;

	fresh_netns();
	open_nl(&t);
	f = fopen(param, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(old, sizeof(old), f));
	fclose(f);
	f = fopen(param, "w");
	ASSERT_NE(NULL, f);
	fputs("2", f);
	fclose(f);
	for (i = 0; i < 2; i++) {
		e.remote = remotes[i];
		ASSERT_EQ(0, begin_set(&t, &e, 1, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
		id[i] = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);
		msgs_free(&ms);
	}
	e.remote = remotes[2];
	EXPECT_EQ(-ENOSPC, begin_set(&t, &e, 1, &at, &ms, &ack));
	EXPECT_NE(NULL, strstr(ack.msg, "at most 2 tunnel sets")) TH_LOG("message: %s", ack.msg);
	msgs_free(&ms);
	ASSERT_EQ(0, report(&t, id[0], L2TPSEL_OUTCOME_CLIENT_GONE, &at, &ms, &ack));
	msgs_free(&ms);
	EXPECT_EQ(0, begin_set(&t, &e, 1, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	id[2] = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);
	msgs_free(&ms);
	EXPECT_EQ(2, n_sets(&t));
	/* The login still on its set kept it. */
	EXPECT_EQ(0, report(&t, id[1], L2TPSEL_OUTCOME_CLIENT_GONE, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	msgs_free(&ms);
	f = fopen(param, "w");
	ASSERT_NE(NULL, f);
	fputs(old, f);
	fclose(f);
	/* A closed socket's login lets its set go idle, then it is freed with the namespace. */
	nlt_close(&t);
}

/* ---- one ledger, owned by the socket (S-LIM-1, S-SEL-10) ---------------- */

/* SESSIONS of tunnel @name in a TUNNEL_GET dump; -1 when there is none. */
static int64_t tunnel_sessions(struct nlt *t, const char *name)
{
	struct msgs ms = { };
	struct nlt_attrs at;
	struct nlt_ack ack;
	int64_t n = -1;
	unsigned int i;

	if (dump(t, L2TPSEL_CMD_TUNNEL_GET, &ms, &ack))
		return -1;
	for (i = 0; i < ms.n; i++) {
		nlt_parse(ms.m[i], &at);
		if (!strcmp(nlt_str(&at, L2TPSEL_A_NAME) ?: "", name))
			n = nlt_u32(&at, L2TPSEL_A_SESSIONS);
	}
	msgs_free(&ms);
	return n;
}

/* A login on profile @profile reported OK as session @key on L2TP tunnel @tid. */
static int login_ok(struct nlt *t, const char *profile, uint64_t key, uint32_t tid,
		    struct nlt_attrs *at, struct msgs *ms, struct nlt_ack *ack)
{
	struct nlmsghdr *nlh = req(t, L2TPSEL_CMD_LOGIN_BEGIN);
	uint32_t id;
	int ret;

	put_str(nlh, L2TPSEL_A_PROFILE, profile);
	ret = get_one(t, nlh, at, ms, ack);
	if (ret)
		return ret;
	id = nlt_u32(at, L2TPSEL_A_LOGIN_ID);
	msgs_free(ms);
	nlh = req(t, L2TPSEL_CMD_LOGIN_REPORT);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, id);
	mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_OK);
	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, key);
	mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, tid);
	return get_one(t, nlh, at, ms, ack);
}

/*
 * A session belongs to the socket that counted it: another socket cannot
 * end it, and it ends when its socket closes; DETACHED belongs to nobody
 * (S-SEC-3).
 */
TEST(session_owned_by_its_socket)
{
	struct nlt a, b;
	struct nlt_ack ack;
	struct nlmsghdr *nlh;
	uint8_t admit;

	fresh_netns();
	open_nl(&a);
	open_nl(&b);
	ASSERT_EQ(0, session_up(&a, 1, L2TPSEL_ROLE_LNS, 7, NULL, NULL, &ack, &admit))
		TH_LOG("%s", ack.msg);
	ASSERT_EQ(0, session_up(&a, 2, L2TPSEL_ROLE_LAC, 8, NULL, NULL, &ack, &admit))
		TH_LOG("%s", ack.msg);
	EXPECT_EQ(-EPERM, session_down(&b, 1, &ack));
	EXPECT_NE(NULL, strstr(ack.msg, "belongs to another socket")) TH_LOG("message: %s", ack.msg);
	EXPECT_EQ(2, summary_count(&b, L2TPSEL_A_COUNT));
	/* Detached: any socket ends it, and it outlives its socket. */
	nlh = req(&b, L2TPSEL_CMD_SESSION_UP);
	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, 3);
	mnl_attr_put_u8(nlh, L2TPSEL_A_ROLE, L2TPSEL_ROLE_LNS);
	mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, 7);
	mnl_attr_put(nlh, L2TPSEL_A_DETACHED, 0, NULL);
	DO_OK(&b, nlh);
	nlh = req(&b, L2TPSEL_CMD_SESSION_UP);
	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, 4);
	mnl_attr_put_u8(nlh, L2TPSEL_A_ROLE, L2TPSEL_ROLE_LNS);
	mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, 9);
	mnl_attr_put(nlh, L2TPSEL_A_DETACHED, 0, NULL);
	DO_OK(&b, nlh);
	EXPECT_EQ(0, session_down(&a, 3, &ack)) TH_LOG("%s", ack.msg);
	nlt_close(&b);
	open_nl(&b);
	EXPECT_EQ(3, summary_count(&b, L2TPSEL_A_COUNT));
	/* a's close ends its two; the detached one stays. */
	nlt_close(&a);
	EXPECT_EQ(1, summary_count(&b, L2TPSEL_A_COUNT));
	EXPECT_EQ(1, summary_count(&b, L2TPSEL_A_N_TUNNELS));
	EXPECT_EQ(-ENOENT, session_down(&b, 1, &ack));
	EXPECT_EQ(0, session_down(&b, 4, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(0, summary_count(&b, L2TPSEL_A_COUNT));
	EXPECT_EQ(0, summary_count(&b, L2TPSEL_A_N_TUNNELS));
	nlt_close(&b);
}

/*
 * An OK counts one session for selection and admission together; one
 * SESSION_DOWN, or the socket's close, ends both.  TUNNEL_SESSION_DOWN
 * is gone, and an OK without its session is refused.
 */
TEST(login_ok_counts_both_ledgers)
{
	struct msgs ms = { }, ds = { };
	struct nlt_attrs at, d;
	struct nlmsghdr *nlh;
	struct nlt_ack ack;
	struct nlt a, b;
	uint32_t id;

	fresh_netns();
	open_nl(&a);
	open_nl(&b);
	ASSERT_EQ(0, mk_profile(&a, "p", &ack));
	ASSERT_EQ(0, mk_tunnel(&a, "p", "t", 0, "10.53.0.1", NULL, &ack));
	ASSERT_EQ(0, login_ok(&a, "p", 11, 5, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(1, nlt_u8(&at, L2TPSEL_A_OK));
	msgs_free(&ms);
	ASSERT_EQ(0, login_ok(&a, "p", 12, 5, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	msgs_free(&ms);
	EXPECT_EQ(2, tunnel_sessions(&b, "t"));
	EXPECT_EQ(2, summary_count(&b, L2TPSEL_A_COUNT));
	EXPECT_EQ(1, summary_count(&b, L2TPSEL_A_N_TUNNELS));
	ASSERT_TRUE(dest_of(&b, "10.53.0.1", &d, &ds));
	EXPECT_EQ(2, nlt_u32(&d, L2TPSEL_A_SESSIONS));
	msgs_free(&ds);
	/* The dump names the login's profile. */
	ASSERT_EQ(0, dump(&b, L2TPSEL_CMD_SESSION_GET, &ms, &ack));
	ASSERT_EQ(2, ms.n);
	nlt_parse(ms.m[0], &at);
	EXPECT_STREQ("p", nlt_str(&at, L2TPSEL_A_PROFILE) ?: "-");
	EXPECT_EQ(L2TPSEL_ROLE_LAC, nlt_u8(&at, L2TPSEL_A_ROLE));
	EXPECT_TRUE(at.tb[L2TPSEL_A_DETACHED] == NULL);
	msgs_free(&ms);
	/* Not b's; a's SESSION_DOWN ends both counts of one. */
	EXPECT_EQ(-EPERM, session_down(&b, 11, &ack));
	EXPECT_EQ(0, session_down(&a, 11, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(1, tunnel_sessions(&b, "t"));
	EXPECT_EQ(1, summary_count(&b, L2TPSEL_A_COUNT));
	/* An OK needs its session; the old ledger's request is gone. */
	nlh = req(&a, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_PROFILE, "p");
	ASSERT_EQ(0, get_one(&a, nlh, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	id = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);
	msgs_free(&ms);
	nlh = req(&a, L2TPSEL_CMD_LOGIN_REPORT);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, id);
	mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_OK);
	EXPECT_EQ(-EINVAL, talk(&a, nlh, &ack));
	EXPECT_NE(NULL, strstr(ack.msg, "SESSION_KEY")) TH_LOG("message: %s", ack.msg);
	/* The same key twice: refused, nothing counted, the login over. */
	nlh = req(&a, L2TPSEL_CMD_LOGIN_REPORT);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, id);
	mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_OK);
	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, 12);
	mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, 5);
	EXPECT_EQ(-EEXIST, talk(&a, nlh, &ack));
	EXPECT_EQ(1, tunnel_sessions(&b, "t"));
	EXPECT_EQ(1, summary_count(&b, L2TPSEL_A_COUNT));
	nlh = req(&a, L2TPSEL_CMD_LOGIN_REPORT);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, id);
	mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_NO_REPLY);
	EXPECT_EQ(-ENOENT, talk(&a, nlh, &ack)) TH_LOG("the refused login is still there");
	nlh = req(&a, L2TPSEL_CMD_TUNNEL_SESSION_DOWN);
	put_str(nlh, L2TPSEL_A_NAME, "t");
	put_str(nlh, L2TPSEL_A_PROFILE, "p");
	EXPECT_EQ(-EOPNOTSUPP, talk(&a, nlh, &ack));
	/* a dies: its last session ends on every ledger, the tunnel can go. */
	nlt_close(&a);
	EXPECT_EQ(0, tunnel_sessions(&b, "t"));
	EXPECT_EQ(0, summary_count(&b, L2TPSEL_A_COUNT));
	EXPECT_EQ(0, summary_count(&b, L2TPSEL_A_N_TUNNELS));
	ASSERT_TRUE(dest_of(&b, "10.53.0.1", &d, &ds));
	EXPECT_EQ(0, nlt_u32(&d, L2TPSEL_A_SESSIONS));
	EXPECT_EQ(0, nlt_u32(&d, L2TPSEL_A_FAILURES));
	msgs_free(&ds);
	EXPECT_EQ(0, del_tunnel(&b, "p", "t", &ack)) TH_LOG("%s", ack.msg);
	nlt_close(&b);
}

/* ---- drain (S-OPS-1) ------------------------------------------------------ */

/* Attribute @attr (u8 or u32) of tunnel @name in a TUNNEL_GET dump; -1 when none. */
static int64_t tunnel_attr(struct nlt *t, const char *name, int attr)
{
	struct msgs ms = { };
	struct nlt_attrs at;
	struct nlt_ack ack;
	int64_t n = -1;
	unsigned int i;

	if (dump(t, L2TPSEL_CMD_TUNNEL_GET, &ms, &ack))
		return -1;
	for (i = 0; i < ms.n; i++) {
		nlt_parse(ms.m[i], &at);
		if (strcmp(nlt_str(&at, L2TPSEL_A_NAME) ?: "", name) || !at.tb[attr])
			continue;
		n = attr == L2TPSEL_A_DRAIN ? nlt_u8(&at, attr) : nlt_u32(&at, attr);
	}
	msgs_free(&ms);
	return n;
}

static int tunnel_drain(struct nlt *t, const char *profile, const char *name, uint8_t on,
			struct nlt_ack *ack)
{
	struct nlmsghdr *nlh = req(t, L2TPSEL_CMD_TUNNEL_DRAIN);

	put_str(nlh, L2TPSEL_A_NAME, name);
	put_str(nlh, L2TPSEL_A_PROFILE, profile);
	mnl_attr_put_u8(nlh, L2TPSEL_A_DRAIN, on);
	return talk(t, nlh, ack);
}

/*
 * S-OPS-1: a drained tunnel, or a tunnel to a drained destination, takes
 * no new login while its sessions stay; the login goes to the level's
 * other tunnel, then to the next level; nothing attempted because of drain
 * ends as WHY_DRAINED, with no attempt, failure or lockout counted; GET
 * shows what drains a tunnel and a destination.
 */
TEST(drain_tunnel_and_destination)
{
	struct msgs ms = { }, ds = { };
	struct nlt_attrs at, d;
	struct nlmsghdr *nlh;
	struct nlt_ack ack;
	struct nlt a;
	int i;

	fresh_netns();
	open_nl(&a);
	ASSERT_EQ(0, mk_profile(&a, "p", &ack));
	ASSERT_EQ(0, mk_tunnel(&a, "p", "t1", 0, "10.54.0.1", NULL, &ack));
	ASSERT_EQ(0, mk_tunnel(&a, "p", "t2", 0, "10.54.0.2", NULL, &ack));
	ASSERT_EQ(0, mk_tunnel(&a, "p", "t3", 1, "10.54.0.3", NULL, &ack));
	EXPECT_EQ(0, tunnel_attr(&a, "t1", L2TPSEL_A_DRAIN));
	/* t2 drained: the login takes t1; then t1 drained, t2 back. */
	ASSERT_EQ(0, tunnel_drain(&a, "p", "t2", 1, &ack)) TH_LOG("%s", ack.msg);
	ASSERT_EQ(0, login_ok(&a, "p", 1, 5, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_STREQ("t1", nlt_str(&at, L2TPSEL_A_NAME) ?: "-");
	msgs_free(&ms);
	ASSERT_EQ(0, tunnel_drain(&a, "p", "t1", 1, &ack)) TH_LOG("%s", ack.msg);
	ASSERT_EQ(0, tunnel_drain(&a, "p", "t2", 0, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(L2TPSEL_DRAIN_TUNNEL, tunnel_attr(&a, "t1", L2TPSEL_A_DRAIN));
	EXPECT_EQ(0, tunnel_attr(&a, "t2", L2TPSEL_A_DRAIN));
	for (i = 0; i < 6; i++) {
		ASSERT_EQ(0, login_ok(&a, "p", 10 + i, 5, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
		EXPECT_STREQ("t2", nlt_str(&at, L2TPSEL_A_NAME) ?: "-");
		msgs_free(&ms);
	}
	EXPECT_EQ(1, tunnel_sessions(&a, "t1"));	/* its session stays */
	EXPECT_EQ(6, tunnel_sessions(&a, "t2"));
	/* A destination drained: every tunnel to it; the login drops a level. */
	nlh = req(&a, L2TPSEL_CMD_DEST_DRAIN);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.54.0.2");
	mnl_attr_put_u8(nlh, L2TPSEL_A_DRAIN, 1);
	ASSERT_EQ(0, get_one(&a, nlh, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(1, nlt_u32(&at, L2TPSEL_A_N_DESTS));
	msgs_free(&ms);
	EXPECT_EQ(L2TPSEL_DRAIN_DEST, tunnel_attr(&a, "t2", L2TPSEL_A_DRAIN));
	ASSERT_TRUE(dest_of(&a, "10.54.0.2", &d, &ds));
	EXPECT_EQ(L2TPSEL_DRAIN_DEST, nlt_u8(&d, L2TPSEL_A_DRAIN));
	EXPECT_EQ(6, nlt_u32(&d, L2TPSEL_A_SESSIONS));
	msgs_free(&ds);
	ASSERT_EQ(0, login_ok(&a, "p", 20, 5, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_STREQ("t3", nlt_str(&at, L2TPSEL_A_NAME) ?: "-");
	msgs_free(&ms);
	/* Everything drained: DONE, not ok, WHY_DRAINED; nothing blamed. */
	ASSERT_EQ(0, tunnel_drain(&a, "p", "t3", 1, &ack)) TH_LOG("%s", ack.msg);
	nlh = req(&a, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_PROFILE, "p");
	ASSERT_EQ(0, get_one(&a, nlh, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(L2TPSEL_STEP_DONE, nlt_u8(&at, L2TPSEL_A_STEP));
	EXPECT_EQ(0, nlt_u8(&at, L2TPSEL_A_OK));
	EXPECT_EQ(L2TPSEL_WHY_DRAINED, nlt_u8(&at, L2TPSEL_A_WHY));
	msgs_free(&ms);
	ASSERT_TRUE(dest_of(&a, "10.54.0.1", &d, &ds));
	EXPECT_EQ(0, nlt_u32(&d, L2TPSEL_A_FAILURES));
	EXPECT_EQ(0, nlt_u32(&d, L2TPSEL_A_LOCKOUT_REMAINING));
	EXPECT_EQ(0, nlt_u8(&d, L2TPSEL_A_DRAIN));	/* t1 is drained, not its destination */
	msgs_free(&ds);
	/* Sessions end as they would; the drain stays. */
	EXPECT_EQ(0, session_down(&a, 1, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(0, tunnel_sessions(&a, "t1"));
	EXPECT_EQ(L2TPSEL_DRAIN_TUNNEL, tunnel_attr(&a, "t1", L2TPSEL_A_DRAIN));
	/* The drain ends: t1 takes logins again. */
	ASSERT_EQ(0, tunnel_drain(&a, "p", "t1", 0, &ack)) TH_LOG("%s", ack.msg);
	ASSERT_EQ(0, login_ok(&a, "p", 30, 5, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_STREQ("t1", nlt_str(&at, L2TPSEL_A_NAME) ?: "-");
	msgs_free(&ms);
	/* Refusals with a message. */
	EXPECT_EQ(-ENOENT, tunnel_drain(&a, "p", "nope", 1, &ack));
	EXPECT_NE(NULL, strstr(ack.msg, "no tunnel nope")) TH_LOG("message: %s", ack.msg);
	EXPECT_EQ(-ENOENT, tunnel_drain(&a, "q", "t1", 1, &ack));
	nlh = req(&a, L2TPSEL_CMD_DEST_DRAIN);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.54.0.99");
	mnl_attr_put_u8(nlh, L2TPSEL_A_DRAIN, 1);
	EXPECT_EQ(-ENOENT, talk(&a, nlh, &ack));
	EXPECT_NE(NULL, strstr(ack.msg, "no destination")) TH_LOG("message: %s", ack.msg);
	EXPECT_TRUE(tunnel_drain(&a, "p", "t1", 2, &ack) < 0);
	EXPECT_EQ(0, tunnel_attr(&a, "t1", L2TPSEL_A_DRAIN));
	nlt_close(&a);
}

/*
 * A session limit refuses an OK: nothing is counted, the login fails with
 * WHY_ADMISSION and the CDN codes, and the LNS that took the call is not
 * blamed (no failure, no lockout).
 */
TEST(login_ok_refused_by_admission)
{
	struct msgs ms = { }, ds = { };
	struct nlt_attrs at, d;
	struct nlmsghdr *nlh;
	struct nlt_ack ack;
	struct nlt a;

	fresh_netns();
	open_nl(&a);
	ASSERT_EQ(0, mk_profile(&a, "p", &ack));
	ASSERT_EQ(0, mk_tunnel(&a, "p", "t", 0, "10.53.0.2", NULL, &ack));
	nlh = req(&a, L2TPSEL_CMD_LIMIT_SET);
	mnl_attr_put_u32(nlh, L2TPSEL_A_CHASSIS_LIMIT, 1);
	DO_OK(&a, nlh);
	ASSERT_EQ(0, login_ok(&a, "p", 21, 5, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(1, nlt_u8(&at, L2TPSEL_A_OK));
	msgs_free(&ms);
	ASSERT_EQ(0, login_ok(&a, "p", 22, 5, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(L2TPSEL_STEP_DONE, nlt_u8(&at, L2TPSEL_A_STEP));
	EXPECT_EQ(0, nlt_u8(&at, L2TPSEL_A_OK));
	EXPECT_EQ(L2TPSEL_WHY_ADMISSION, nlt_u8(&at, L2TPSEL_A_WHY));
	EXPECT_EQ(L2TPSEL_LEVEL_CHASSIS, nlt_u8(&at, L2TPSEL_A_ADMIT));
	EXPECT_EQ(4, nlt_u16(&at, L2TPSEL_A_RESULT_CODE));
	EXPECT_EQ(4, nlt_u16(&at, L2TPSEL_A_ERROR_CODE));
	msgs_free(&ms);
	EXPECT_EQ(1, tunnel_sessions(&a, "t"));
	EXPECT_EQ(1, summary_count(&a, L2TPSEL_A_COUNT));
	ASSERT_TRUE(dest_of(&a, "10.53.0.2", &d, &ds));
	EXPECT_EQ(1, nlt_u32(&d, L2TPSEL_A_SESSIONS));
	EXPECT_EQ(0, nlt_u32(&d, L2TPSEL_A_FAILURES));
	EXPECT_EQ(0, nlt_u32(&d, L2TPSEL_A_LOCKOUT_REMAINING));
	msgs_free(&ds);
	EXPECT_EQ(-ENOENT, session_down(&a, 22, &ack));
	EXPECT_EQ(0, session_down(&a, 21, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(0, tunnel_sessions(&a, "t"));
	nlt_close(&a);
}

static void mk_rl(struct nlt *t, const char *name, uint8_t dir, uint8_t msg, int key,
		  const char *val, const char *message)
{
	struct nlmsghdr *nlh = req(t, L2TPSEL_CMD_RL_NEW);
	uint8_t b[4];

	put_str(nlh, L2TPSEL_A_NAME, name);
	mnl_attr_put_u32(nlh, L2TPSEL_A_RL_RATE, 1);
	mnl_attr_put_u32(nlh, L2TPSEL_A_RL_BURST, 1);
	mnl_attr_put_u8(nlh, L2TPSEL_A_RL_DIR, dir);
	mnl_attr_put_u8(nlh, L2TPSEL_A_RL_MSG, msg);
	if (key == L2TPSEL_A_REMOTE) {
		ASSERT_EQ(1, inet_pton(AF_INET, val, b));
		mnl_attr_put(nlh, L2TPSEL_A_REMOTE, 4, b);
	} else {
		put_str(nlh, key, val);
	}
	put_str(nlh, L2TPSEL_A_RL_MESSAGE, message);
	DO_OK(t, nlh);
}

/* A login with RL_ASK: its reply, the refusal nest of @nest parsed into @n when there is one. */
static double ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1e3 + (now.tv_nsec - t0->tv_nsec) / 1e6;
}

/*
 * RL_CHECK with the largest RL_COUNT against the most limits (10000 x
 * 1024 x 2 limits read) does not hold the namespace for all of it: another
 * request made meanwhile is answered long before the check ends.  Before:
 * the whole check ran under the namespace's lock, and the other request
 * waited for its end.
 */
TEST(rl_check_count_lets_others_in)
{
	struct nlt t;
	struct nlt_ack ack;
	struct nlmsghdr *nlh;
	double check_ms = 0, worst = 0, one;
	struct timespec t0;
	unsigned int i, gets = 0;
	char name[32];
	int fd[2], status;
	pid_t pid;

	fresh_netns();
	open_nl(&t);
	for (i = 0; i < 1024; i++) {
		snprintf(name, sizeof(name), "rl-%u", i);
		mk_rl(&t, name, L2TPSEL_RL_INGRESS, L2TPSEL_RL_MSG_SCCRQ, L2TPSEL_A_RL_PEER,
		      "lac1", "busy");
	}
	ASSERT_EQ(0, pipe(fd));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct nlt w;

		close(fd[0]);
		if (nlt_open(&w))
			_exit(2);
		nlh = req(&w, L2TPSEL_CMD_RL_CHECK);
		mnl_attr_put_u8(nlh, L2TPSEL_A_RL_DIR, L2TPSEL_RL_INGRESS);
		mnl_attr_put_u8(nlh, L2TPSEL_A_RL_MSG, L2TPSEL_RL_MSG_SCCRQ);
		put_str(nlh, L2TPSEL_A_RL_PEER, "lac1");
		mnl_attr_put_u32(nlh, L2TPSEL_A_RL_COUNT, 10000);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (talk(&w, nlh, &ack))
			_exit(3);
		check_ms = ms_since(&t0);
		if (write(fd[1], &check_ms, sizeof(check_ms)) != sizeof(check_ms))
			_exit(4);
		_exit(0);
	}
	close(fd[1]);
	while (waitpid(pid, &status, WNOHANG) == 0) {
		nlh = req(&t, L2TPSEL_CMD_RL_GET);
		put_str(nlh, L2TPSEL_A_NAME, "rl-0");
		clock_gettime(CLOCK_MONOTONIC, &t0);
		ASSERT_EQ(0, talk(&t, nlh, &ack)) TH_LOG("RL_GET: %s", ack.msg);
		one = ms_since(&t0);
		if (one > worst)
			worst = one;
		gets++;
	}
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("the RL_CHECK child failed: status %#x", status);
	ASSERT_EQ(sizeof(check_ms), read(fd[0], &check_ms, sizeof(check_ms)));
	close(fd[0]);
	th_log("RL_CHECK of 10000 against 1024 limits: %.1f ms; %u RL_GET meanwhile, slowest %.1f ms",
	       check_ms, gets, worst);
	if (check_ms < 50) {
		th_log("the check took under 50 ms: too quick to tell; not judged");
		nlt_close(&t);
		return;
	}
	EXPECT_LT(worst, check_ms / 2)
		TH_LOG("a request waited %.1f ms of a %.1f ms RL_CHECK", worst, check_ms);
	nlt_close(&t);
}

static int login_rl(struct nlt *t, struct nlmsghdr *nlh, int nest, struct nlt_attrs *at,
		    const struct nlattr **n, struct msgs *ms, struct nlt_ack *ack)
{
	int ret;

	mnl_attr_put(nlh, L2TPSEL_A_RL_ASK, 0, NULL);
	ret = get_one(t, nlh, at, ms, ack);
	memset(n, 0, (L2TPSEL_A_MAX + 1) * sizeof(*n));
	if (!ret && at->tb[nest] && l2s_attr_parse_nest(at->tb[nest], n) < 0)
		return -EBADMSG;
	return ret;
}

/*
 * RL_ASK: a login's own rate-limit checks ride on LOGIN_BEGIN and
 * LOGIN_REPORT, decided as RL_CHECK decides them.  A login beyond its
 * ingress limit gets RL_LOGIN and no login; an attempt beyond its egress
 * limit comes with RL_ATTEMPT, and the LOCAL report of it moves on to the
 * next tunnel without blaming the LNS.  Without RL_ASK nothing is checked.
 */
TEST(login_rl_ask_checks_ride_on_the_login)
{
	const struct nlattr *n[L2TPSEL_A_MAX + 1];
	struct msgs ms = { }, ds = { };
	struct nlt_attrs at, d;
	struct nlmsghdr *nlh;
	struct nlt_ack ack;
	struct nlt a;
	uint32_t id;

	fresh_netns();
	open_nl(&a);
	ASSERT_EQ(0, mk_profile(&a, "p", &ack));
	ASSERT_EQ(0, mk_tunnel(&a, "p", "t1", 0, "10.54.0.1", NULL, &ack));
	ASSERT_EQ(0, mk_tunnel(&a, "p", "t2", 1, "10.54.0.2", NULL, &ack));
	nlh = req(&a, L2TPSEL_CMD_DOMAIN_NEW);
	put_str(nlh, L2TPSEL_A_DOMAIN, "isp.example");
	put_str(nlh, L2TPSEL_A_PROFILE, "p");
	DO_OK(&a, nlh);
	mk_rl(&a, "logins", L2TPSEL_RL_INGRESS, L2TPSEL_RL_MSG_LOGIN, L2TPSEL_A_DOMAIN,
	      "isp.example", "too many logins");
	mk_rl(&a, "to-t1", L2TPSEL_RL_EGRESS, L2TPSEL_RL_MSG_ATTEMPT, L2TPSEL_A_REMOTE,
	      "10.54.0.1", "t1 is busy");

	/* The first login takes both tokens: no nest, t1 is its step. */
	nlh = req(&a, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_USER, "u1@isp.example");
	ASSERT_EQ(0, login_rl(&a, nlh, L2TPSEL_A_RL_ATTEMPT, &at, n, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_TRUE(at.tb[L2TPSEL_A_RL_LOGIN] == NULL);
	EXPECT_TRUE(at.tb[L2TPSEL_A_RL_ATTEMPT] == NULL);
	EXPECT_STREQ("t1", nlt_str(&at, L2TPSEL_A_NAME) ?: "-");
	msgs_free(&ms);

	/* The second login of the domain is refused: the verdict is the reply. */
	nlh = req(&a, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_USER, "u2@isp.example");
	ASSERT_EQ(0, login_rl(&a, nlh, L2TPSEL_A_RL_LOGIN, &at, n, &ms, &ack)) TH_LOG("%s", ack.msg);
	ASSERT_TRUE(at.tb[L2TPSEL_A_RL_LOGIN] != NULL);
	EXPECT_TRUE(at.tb[L2TPSEL_A_LOGIN_ID] == NULL);
	EXPECT_TRUE(at.tb[L2TPSEL_A_STEP] == NULL);
	EXPECT_EQ(L2TPSEL_RL_REJECTED, l2s_attr_u8(n, L2TPSEL_A_RL_VERDICT, 9));
	EXPECT_STREQ("logins", l2s_attr_str(n, L2TPSEL_A_NAME, "-"));
	EXPECT_STREQ("too many logins", l2s_attr_str(n, L2TPSEL_A_RL_MESSAGE, "-"));
	msgs_free(&ms);
	ASSERT_EQ(0, get_one(&a, req(&a, L2TPSEL_CMD_LOCKOUT_GET), &at, &ms, &ack));
	EXPECT_EQ(1, nlt_u32(&at, L2TPSEL_A_N_LOGINS)) TH_LOG("a refused login is held");
	msgs_free(&ms);

	/* Another way in (PROFILE): t1's attempt is beyond its egress limit. */
	nlh = req(&a, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_PROFILE, "p");
	ASSERT_EQ(0, login_rl(&a, nlh, L2TPSEL_A_RL_ATTEMPT, &at, n, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_TRUE(at.tb[L2TPSEL_A_RL_LOGIN] == NULL);
	EXPECT_STREQ("t1", nlt_str(&at, L2TPSEL_A_NAME) ?: "-");
	ASSERT_TRUE(at.tb[L2TPSEL_A_RL_ATTEMPT] != NULL);
	EXPECT_EQ(L2TPSEL_RL_REJECTED, l2s_attr_u8(n, L2TPSEL_A_RL_VERDICT, 9));
	EXPECT_STREQ("to-t1", l2s_attr_str(n, L2TPSEL_A_NAME, "-"));
	EXPECT_STREQ("t1 is busy", l2s_attr_str(n, L2TPSEL_A_RL_MESSAGE, "-"));
	id = nlt_u32(&at, L2TPSEL_A_LOGIN_ID);
	msgs_free(&ms);
	/* Not sent, reported LOCAL: the next step is t2, whose attempt passes. */
	nlh = req(&a, L2TPSEL_CMD_LOGIN_REPORT);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, id);
	mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_LOCAL);
	ASSERT_EQ(0, login_rl(&a, nlh, L2TPSEL_A_RL_ATTEMPT, &at, n, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(L2TPSEL_STEP_ATTEMPT, nlt_u8(&at, L2TPSEL_A_STEP));
	EXPECT_STREQ("t2", nlt_str(&at, L2TPSEL_A_NAME) ?: "-");
	EXPECT_TRUE(at.tb[L2TPSEL_A_RL_ATTEMPT] == NULL);
	msgs_free(&ms);
	ASSERT_TRUE(dest_of(&a, "10.54.0.1", &d, &ds));
	EXPECT_EQ(0, nlt_u32(&d, L2TPSEL_A_FAILURES)) TH_LOG("t1's LNS blamed for our limit");
	EXPECT_EQ(0, nlt_u32(&d, L2TPSEL_A_LOCKOUT_REMAINING));
	msgs_free(&ds);

	/* Without RL_ASK the login is not checked (RL_CHECK's own callers). */
	nlh = req(&a, L2TPSEL_CMD_LOGIN_BEGIN);
	put_str(nlh, L2TPSEL_A_USER, "u3@isp.example");
	ASSERT_EQ(0, get_one(&a, nlh, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_TRUE(at.tb[L2TPSEL_A_RL_LOGIN] == NULL);
	EXPECT_TRUE(at.tb[L2TPSEL_A_RL_ATTEMPT] == NULL);
	EXPECT_TRUE(at.tb[L2TPSEL_A_LOGIN_ID] != NULL);
	msgs_free(&ms);
	nlt_close(&a);
}

/*
 * The largest reply a login can get fits the room the module sizes its
 * login replies to: every name at its longest (31 bytes; a rate limit's
 * 63), IPv6 remote and local, a tunnel group, and a refusal nest with a
 * 127-byte message.  The reply must carry all of it, not "reply does not
 * fit in a message".
 */
TEST(login_reply_largest_fits)
{
	const char *prof = "pppppppppppppppppppppppppppppp1";	/* 31 bytes each */
	const char *tun = "ttttttttttttttttttttttttttttttt";
	const char *grp = "ggggggggggggggggggggggggggggggg";
	const char *rl = "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr";
	const struct nlattr *n[L2TPSEL_A_MAX + 1];
	char message[128];
	struct msgs ms = { };
	struct nlt_attrs at;
	struct nlmsghdr *nlh;
	struct nlt_ack ack;
	struct nlt a;
	uint8_t b[16];

	memset(message, 'm', sizeof(message) - 1);
	message[sizeof(message) - 1] = '\0';
	ASSERT_EQ(31, strlen(prof));
	ASSERT_EQ(31, strlen(tun));
	ASSERT_EQ(31, strlen(grp));
	ASSERT_EQ(63, strlen(rl));
	fresh_netns();
	open_nl(&a);
	ASSERT_EQ(0, mk_profile(&a, prof, &ack)) TH_LOG("%s", ack.msg);
	nlh = req(&a, L2TPSEL_CMD_TGROUP_NEW);
	put_str(nlh, L2TPSEL_A_NAME, grp);
	DO_OK(&a, nlh);
	nlh = req(&a, L2TPSEL_CMD_TUNNEL_NEW);
	put_str(nlh, L2TPSEL_A_NAME, tun);
	put_str(nlh, L2TPSEL_A_PROFILE, prof);
	mnl_attr_put_u8(nlh, L2TPSEL_A_SEL_LEVEL, 7);
	ASSERT_EQ(1, inet_pton(AF_INET6, "2001:db8:ffff:ffff:ffff:ffff:ffff:1", b));
	mnl_attr_put(nlh, L2TPSEL_A_REMOTE, 16, b);
	ASSERT_EQ(1, inet_pton(AF_INET6, "2001:db8:ffff:ffff:ffff:ffff:ffff:2", b));
	mnl_attr_put(nlh, L2TPSEL_A_LOCAL, 16, b);
	mnl_attr_put_u16(nlh, L2TPSEL_A_PORT, 65535);
	mnl_attr_put_u32(nlh, L2TPSEL_A_MAX_SESSIONS, 16777215);
	put_str(nlh, L2TPSEL_A_TGROUP, grp);
	put_str(nlh, L2TPSEL_A_SECRET, "s");
	DO_OK(&a, nlh);
	nlh = req(&a, L2TPSEL_CMD_RL_NEW);
	put_str(nlh, L2TPSEL_A_NAME, rl);
	mnl_attr_put_u32(nlh, L2TPSEL_A_RL_RATE, 1);
	mnl_attr_put_u32(nlh, L2TPSEL_A_RL_BURST, 1);
	mnl_attr_put_u8(nlh, L2TPSEL_A_RL_DIR, L2TPSEL_RL_EGRESS);
	mnl_attr_put_u8(nlh, L2TPSEL_A_RL_MSG, L2TPSEL_RL_MSG_ATTEMPT);
	put_str(nlh, L2TPSEL_A_PROFILE, prof);
	put_str(nlh, L2TPSEL_A_RL_MESSAGE, message);
	DO_OK(&a, nlh);

	/* The first attempt takes the token, the second is refused: the largest reply. */
	for (int i = 0; i < 2; i++) {
		nlh = req(&a, L2TPSEL_CMD_LOGIN_BEGIN);
		put_str(nlh, L2TPSEL_A_PROFILE, prof);
		ASSERT_EQ(0, login_rl(&a, nlh, L2TPSEL_A_RL_ATTEMPT, &at, n, &ms, &ack))
			TH_LOG("login %d: %s", i, ack.msg);
		EXPECT_STREQ(tun, nlt_str(&at, L2TPSEL_A_NAME) ?: "-");
		EXPECT_STREQ(prof, nlt_str(&at, L2TPSEL_A_PROFILE) ?: "-");
		EXPECT_STREQ(grp, nlt_str(&at, L2TPSEL_A_TGROUP) ?: "-");
		EXPECT_TRUE(at.tb[L2TPSEL_A_LOCAL] != NULL);
		EXPECT_EQ(i == 1, at.tb[L2TPSEL_A_RL_ATTEMPT] != NULL);
		if (i == 1) {
			EXPECT_STREQ(rl, l2s_attr_str(n, L2TPSEL_A_NAME, "-"));
			EXPECT_STREQ(message, l2s_attr_str(n, L2TPSEL_A_RL_MESSAGE, "-"));
		}
		msgs_free(&ms);
	}
	nlt_close(&a);
}

/* Tunnel @name's attribute @type in the dump, or -1. */
static int64_t tunnel_u32(struct nlt *t, const char *name, uint16_t type)
{
	struct msgs ms = { };
	struct nlt_attrs at;
	struct nlt_ack ack;
	int64_t n = -1;
	unsigned int i;

	if (dump(t, L2TPSEL_CMD_TUNNEL_GET, &ms, &ack))
		return -1;
	for (i = 0; i < ms.n; i++) {
		nlt_parse(ms.m[i], &at);
		if (!strcmp(nlt_str(&at, L2TPSEL_A_NAME) ?: "", name))
			n = nlt_u32(&at, type);
	}
	msgs_free(&ms);
	return n;
}

/* LOGIN_BEGIN on @profile: its id, and in @at the step. */
static uint32_t login_begin(struct nlt *t, const char *profile, struct nlt_attrs *at,
			    struct msgs *ms, struct nlt_ack *ack)
{
	struct nlmsghdr *nlh = req(t, L2TPSEL_CMD_LOGIN_BEGIN);

	put_str(nlh, L2TPSEL_A_PROFILE, profile);
	msgs_free(ms);
	if (get_one(t, nlh, at, ms, ack))
		return 0;
	return nlt_u32(at, L2TPSEL_A_LOGIN_ID);
}

/*
 * S-STORM-1, S-STORM-2: a login's attempt holds a place on its tunnel and
 * destination from LOGIN_BEGIN to its LOGIN_REPORT: TUNNEL_GET and DEST_GET
 * show it as IN_FLIGHT, max-sessions counts it (a third login finds the
 * tunnel of max-sessions 2 full), an OK turns it into the session, a
 * failure gives it back, and so does the close of the socket that owns
 * the login.
 */
TEST(login_in_flight_counted_until_it_ends)
{
	struct msgs ms = { }, ds = { };
	struct nlt_attrs at, d;
	struct nlmsghdr *nlh;
	struct nlt_ack ack;
	uint32_t id1, id2, id3;
	struct nlt a, b;

	fresh_netns();
	open_nl(&a);
	open_nl(&b);
	ASSERT_EQ(0, mk_profile(&a, "p", &ack));
	nlh = req(&a, L2TPSEL_CMD_TUNNEL_NEW);
	put_str(nlh, L2TPSEL_A_NAME, "t");
	put_str(nlh, L2TPSEL_A_PROFILE, "p");
	mnl_attr_put_u8(nlh, L2TPSEL_A_SEL_LEVEL, 0);
	put_ip4(nlh, L2TPSEL_A_REMOTE, "10.53.0.7");
	mnl_attr_put_u32(nlh, L2TPSEL_A_MAX_SESSIONS, 2);
	DO_OK(&a, nlh);
	id1 = login_begin(&a, "p", &at, &ms, &ack);
	ASSERT_NE(0, id1) TH_LOG("%s", ack.msg);
	EXPECT_EQ(L2TPSEL_STEP_ATTEMPT, nlt_u8(&at, L2TPSEL_A_STEP));
	EXPECT_EQ(1, nlt_u32(&at, L2TPSEL_A_IN_FLIGHT));
	id2 = login_begin(&a, "p", &at, &ms, &ack);
	ASSERT_NE(0, id2) TH_LOG("%s", ack.msg);
	EXPECT_EQ(L2TPSEL_STEP_ATTEMPT, nlt_u8(&at, L2TPSEL_A_STEP));
	EXPECT_EQ(2, tunnel_u32(&b, "t", L2TPSEL_A_IN_FLIGHT));
	EXPECT_EQ(0, tunnel_u32(&b, "t", L2TPSEL_A_SESSIONS));
	ASSERT_TRUE(dest_of(&b, "10.53.0.7", &d, &ds));
	EXPECT_EQ(2, nlt_u32(&d, L2TPSEL_A_IN_FLIGHT));
	/* max-sessions 2, two logins on their way: a third finds no valid tunnel */
	id3 = login_begin(&a, "p", &at, &ms, &ack);
	ASSERT_NE(0, id3) TH_LOG("%s", ack.msg);
	EXPECT_EQ(L2TPSEL_STEP_DONE, nlt_u8(&at, L2TPSEL_A_STEP));
	EXPECT_EQ(L2TPSEL_WHY_EXHAUSTED, nlt_u8(&at, L2TPSEL_A_WHY));
	EXPECT_EQ(2, tunnel_u32(&b, "t", L2TPSEL_A_IN_FLIGHT));
	/* the client goes: its place back */
	nlh = req(&a, L2TPSEL_CMD_LOGIN_REPORT);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, id1);
	mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_CLIENT_GONE);
	msgs_free(&ms);
	ASSERT_EQ(0, get_one(&a, nlh, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(1, tunnel_u32(&b, "t", L2TPSEL_A_IN_FLIGHT));
	/* an OK: the place becomes the session, counted once */
	nlh = req(&a, L2TPSEL_CMD_LOGIN_REPORT);
	mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, id2);
	mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_OK);
	mnl_attr_put_u64(nlh, L2TPSEL_A_SESSION_KEY, 21);
	mnl_attr_put_u32(nlh, L2TPSEL_A_TUNNEL_ID, 5);
	msgs_free(&ms);
	ASSERT_EQ(0, get_one(&a, nlh, &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(1, nlt_u8(&at, L2TPSEL_A_OK));
	EXPECT_EQ(0, tunnel_u32(&b, "t", L2TPSEL_A_IN_FLIGHT));
	EXPECT_EQ(1, tunnel_u32(&b, "t", L2TPSEL_A_SESSIONS));
	/* one more on its way, then a's close: the login and the session go */
	ASSERT_NE(0, login_begin(&a, "p", &at, &ms, &ack)) TH_LOG("%s", ack.msg);
	EXPECT_EQ(L2TPSEL_STEP_ATTEMPT, nlt_u8(&at, L2TPSEL_A_STEP));
	ASSERT_TRUE(dest_of(&b, "10.53.0.7", &d, &ds));
	EXPECT_EQ(1, nlt_u32(&d, L2TPSEL_A_IN_FLIGHT));
	EXPECT_EQ(1, nlt_u32(&d, L2TPSEL_A_SESSIONS));
	msgs_free(&ms);
	nlt_close(&a);
	EXPECT_EQ(0, tunnel_u32(&b, "t", L2TPSEL_A_IN_FLIGHT));
	EXPECT_EQ(0, tunnel_u32(&b, "t", L2TPSEL_A_SESSIONS));
	ASSERT_TRUE(dest_of(&b, "10.53.0.7", &d, &ds));
	EXPECT_EQ(0, nlt_u32(&d, L2TPSEL_A_IN_FLIGHT));
	EXPECT_EQ(0, nlt_u32(&d, L2TPSEL_A_SESSIONS));
	msgs_free(&ds);
	nlt_close(&b);
}

/* The number of logins in progress in the namespace (LOCKOUT_GET's N_LOGINS). */
static uint32_t n_logins(struct nlt *t)
{
	struct msgs ms = { };
	struct nlt_attrs at;
	struct nlt_ack ack;
	uint32_t n = UINT32_MAX;

	if (!get_one(t, req(t, L2TPSEL_CMD_LOCKOUT_GET), &at, &ms, &ack))
		n = nlt_u32(&at, L2TPSEL_A_N_LOGINS);
	msgs_free(&ms);
	return n;
}

/*
 * A socket bound to @portid (spinning while another holds it, up to 5 s),
 * of family @fam.
 */
static int open_at_portid(struct nlt *t, uint16_t fam, uint32_t portid)
{
	struct timespec t0;
	int one = 1;

	memset(t, 0, sizeof(*t));
	t->rx = malloc(NLT_BUF);
	t->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!t->rx || !t->sk)
		return -errno;
	mnl_socket_setsockopt(t->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(t->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	t->fam = fam;
	t->seq = (uint32_t)getpid() << 12;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (mnl_socket_bind(t->sk, 0, portid) < 0) {
		if (errno != EADDRINUSE || ms_since(&t0) > 5000)
			return -errno;
	}
	return 0;
}

#define REUSED_PORTID	0x4c32

/*
 * A socket closes while another binds the port id it had and counts a
 * session: the close ends the first socket's session, never the second's
 * (the release notifier runs after the port id is free again).  Before:
 * the second socket's session joined the first's record under the same
 * port id and the notifier ended both.  A race: each round gives it a
 * chance; it is not certain to be hit in a given run.
 */
TEST(socket_close_spares_the_next_owner_of_its_portid)
{
	unsigned int r, lost = 0, stale = 0, rounds = 0;
	struct timespec t0;
	struct nlt base, b;
	struct nlt_ack ack;
	uint8_t admit;
	int ret;

	fresh_netns();
	open_nl(&base);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (r = 0; r < 500 && ms_since(&t0) < 8000; r++) {
		uint64_t key_a = 1000000 + 2 * r, key_b = key_a + 1;
		int ready[2], go[2], status;
		char c = 0;
		pid_t pid;

		ASSERT_EQ(0, pipe(ready));
		ASSERT_EQ(0, pipe(go));
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0) {
			struct nlt a;

			if (open_at_portid(&a, base.fam, REUSED_PORTID))
				_exit(2);
			if (session_up(&a, key_a, L2TPSEL_ROLE_LNS, 7, NULL, NULL, &ack, &admit))
				_exit(3);
			if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
				_exit(4);
			_exit(0);	/* closes a */
		}
		close(ready[1]);
		close(go[0]);
		ASSERT_EQ(1, read(ready[0], &c, 1)) TH_LOG("round %u: the first socket failed", r);
		ASSERT_EQ(1, write(go[1], "g", 1));
		ASSERT_EQ(0, open_at_portid(&b, base.fam, REUSED_PORTID));
		ret = session_up(&b, key_b, L2TPSEL_ROLE_LNS, 7, NULL, NULL, &ack, &admit);
		ASSERT_EQ(0, ret) TH_LOG("round %u: SESSION_UP: %s", r, ack.msg);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
		close(ready[0]);
		close(go[1]);
		/* the close is over: a's session ended with it, b's stays */
		if (session_down(&b, key_b, &ack))
			lost++;
		if (session_down(&base, key_a, &ack) != -ENOENT)
			stale++;
		nlt_close(&b);
		rounds++;
	}
	th_log("%u rounds", rounds);
	EXPECT_EQ(0, lost) TH_LOG("%u of %u sessions ended by the close of their port id's former socket",
				  lost, rounds);
	EXPECT_EQ(0, stale) TH_LOG("%u closed sockets' sessions outlived them", stale);
	nlt_close(&base);
}

/*
 * A socket's close ends its own logins and sessions only; a socket with
 * none ends nothing (the release looks up the closing socket's record,
 * it does not walk the namespace's logins).
 */
TEST(socket_close_ends_only_its_own_logins)
{
	struct msgs ms = { };
	struct nlt a, b, c, base;
	struct nlt_attrs at;
	struct nlt_ack ack;
	struct nlmsghdr *nlh;
	uint32_t ids[40];
	unsigned int i;
	uint8_t admit;

	fresh_netns();
	open_nl(&base);
	open_nl(&a);
	open_nl(&b);
	ASSERT_EQ(0, mk_profile(&base, "p", &ack));
	ASSERT_EQ(0, mk_tunnel(&base, "p", "t", 0, "10.53.0.9", NULL, &ack)) TH_LOG("%s", ack.msg);
	for (i = 0; i < 40; i++) {
		ids[i] = login_begin(&a, "p", &at, &ms, &ack);
		ASSERT_NE(0, ids[i]) TH_LOG("a's login %u: %s", i, ack.msg);
		ASSERT_NE(0, login_begin(&b, "p", &at, &ms, &ack)) TH_LOG("b's login %u: %s", i, ack.msg);
	}
	ASSERT_EQ(0, session_up(&a, 1, L2TPSEL_ROLE_LNS, 7, NULL, NULL, &ack, &admit));
	ASSERT_EQ(0, session_up(&b, 2, L2TPSEL_ROLE_LNS, 7, NULL, NULL, &ack, &admit));
	EXPECT_EQ(80, n_logins(&base));
	/* a socket that only asked something */
	open_nl(&c);
	ASSERT_EQ(0, talk(&c, req(&c, L2TPSEL_CMD_GET_INFO), &ack));
	nlt_close(&c);
	EXPECT_EQ(80, n_logins(&base));
	nlt_close(&b);
	EXPECT_EQ(40, n_logins(&base)) TH_LOG("b's close did not end its logins alone");
	EXPECT_EQ(-ENOENT, session_down(&base, 2, &ack)) TH_LOG("b's session outlived it");
	/* a's are all there */
	for (i = 0; i < 40; i++) {
		nlh = req(&a, L2TPSEL_CMD_LOGIN_REPORT);
		mnl_attr_put_u32(nlh, L2TPSEL_A_LOGIN_ID, ids[i]);
		mnl_attr_put_u8(nlh, L2TPSEL_A_OUTCOME, L2TPSEL_OUTCOME_CLIENT_GONE);
		msgs_free(&ms);
		EXPECT_EQ(0, get_one(&a, nlh, &at, &ms, &ack)) TH_LOG("a's login %u: %s", i, ack.msg);
	}
	msgs_free(&ms);
	EXPECT_EQ(0, n_logins(&base));
	EXPECT_EQ(0, session_down(&a, 1, &ack)) TH_LOG("%s", ack.msg);
	nlt_close(&a);
	nlt_close(&base);
}

TEST_HARNESS_FORK(120);
