/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The configuration grammar of l2tpsel, one command per line, shared by the
 * CLI's batch mode (l2tpsel -b FILE) and the simulator (l2tpsel-sim).
 *
 *   lockout time SECS
 *   profile { add | set } NAME [ failover { between-levels | within-level } ]
 *           [ lb { random | weighted | destination-equal | hash | minmiss-hash } ]
 *           [ failover-on { cdn | stopccn } CODE[,CODE...] ]
 *   profile del NAME
 *   tunnel add NAME profile PROFILE level LEVEL dest ADDR [ port PORT ]
 *          [ local ADDR ] [ max-sessions N ] [ group GROUP ] [ secret SECRET ]
 *   tunnel del NAME profile PROFILE
 *   domain add DOMAIN profile PROFILE
 *   domain del DOMAIN
 *   clear lockout [ local ADDR | remote ADDR ]
 *
 * '#' starts a comment; blank lines are ignored.  ADDR is IPv4 or IPv6.
 */
#ifndef L2S_CONF_H
#define L2S_CONF_H

#include <stddef.h>

#include "obj.h"

#define CONF_MAX_ARGS	32

enum conf_kind {
	CONF_LOCKOUT_TIME = 1,
	CONF_PROFILE_ADD,
	CONF_PROFILE_SET,
	CONF_PROFILE_DEL,
	CONF_TUNNEL_ADD,
	CONF_TUNNEL_DEL,
	CONF_DOMAIN_ADD,
	CONF_DOMAIN_DEL,
	CONF_CLEAR_LOCKOUT,
};

struct conf_cmd {
	enum conf_kind kind;
	char name[L2S_DOMAIN_LEN];	/* profile, tunnel or domain */
	char profile[L2S_NAME_LEN];
	u32 secs;
	/* profile options; has_* says which were given */
	bool has_failover, has_lb, has_fo_cdn, has_fo_stopccn;
	u8 failover, lb;
	u32 fo_cdn, fo_stopccn;
	/* tunnel add */
	u32 level, max_sessions;
	struct l2s_dest_key dest;
	char group[L2S_NAME_LEN];
	char secret[L2S_SECRET_LEN];
	/* clear lockout */
	bool has_local, has_remote;
	struct l2s_addr local, remote;
};

/*
 * Split @line in place into words; '#' at the start of a word starts a
 * comment.  With @quotes, a word that starts with " or ' runs to the same
 * quote, blanks included (the CLI's batch files).  Returns the count, -1
 * when there are more than @max words, -2 when a quote is not closed.
 */
int conf_words(char *line, char **argv, int max, bool quotes);
/* conf_words() without quotes: every configuration grammar but the batch file's. */
int conf_split(char *line, char **argv, int max);
int conf_parse(int argc, char **argv, struct conf_cmd *cmd, char *err, size_t errlen);
int conf_parse_addr(const char *s, struct l2s_addr *a);
/*
 * A whole word as a number in @base (strtoull's: 0 reads 0x and 0 prefixes)
 * within @min..@max; no sign, nothing after it.  0, or -1 when it is not.
 */
int conf_parse_ull(const char *s, int base, unsigned long long min,
		   unsigned long long max, unsigned long long *v);
/* A decimal number in 0..@max ("+5" refused too); 0 or -1. */
int conf_parse_u32(const char *s, u32 max, u32 *v);
void conf_format_addr(const struct l2s_addr *a, char *buf, size_t len);
const char *conf_lb_name(unsigned int lb);
const char *conf_failover_name(unsigned int fo);

#endif /* L2S_CONF_H */
